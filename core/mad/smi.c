// SPDX-License-Identifier: GPL-2.0
/*
 * The SMI of a channel adapter: the directed-route rules (IBTA 14.2.2)
 * for the SMPs a port sends and receives.  A channel adapter forwards
 * nothing: a directed-route SMP is either for it (it has arrived, or it
 * is local: hop count 0) or is discarded.
 *
 * Going out, outbound (D bit clear): a hop count of 0 means the SMP is
 * for this port (loop-back); a hop pointer of 0 with a hop count starts
 * the path: initial_path[1] must name this port, the return path records
 * it, and the hop pointer moves to 1.  Any other hop pointer is
 * discarded.  Going out, returning (D bit set): the responder at the end
 * of the path (hop pointer equal to the hop count) moves the pointer
 * back one; a hop count of 0 is local.
 *
 * Coming in, outbound: an SMP arrives when its hop pointer equals its
 * hop count (the last hop); the pointer moves past the end.  Coming in,
 * returning: it is back at its requester when the hop pointer is 1; the
 * pointer moves to 0.  Anything else would need forwarding: discarded.
 *
 * An SMP whose hop count is 0 is for this port: the send loops it back
 * through the receive path (send.c, recv.c) without the wire.
 *
 * LID-routed SMPs (class 0x01) pass untouched.  Locking: none (the SMP
 * is the caller's).
 */
#include "abi/ib_core/mad.h"
#include "smi.h"

static bool smi_returning(const struct ib_smp *smp)
{
	return smp->status & IB_SMP_DIRECTION;
}

/* The rules for a directed-route SMP about to be sent; updates it. */
static enum smi_out smi_send(struct ib_smp *smp, u32 port_num)
{
	u8 ptr = smp->hop_ptr, cnt = smp->hop_cnt;

	if (cnt >= IB_SMP_MAX_PATH_HOPS)
		return SMI_OUT_DISCARD;
	if (!cnt)
		return ptr ? SMI_OUT_DISCARD : SMI_OUT_LOCAL;
	if (!smi_returning(smp)) {
		if (ptr || smp->initial_path[1] != port_num)
			return SMI_OUT_DISCARD;
		smp->return_path[1] = port_num;
		smp->hop_ptr = 1;
		return SMI_OUT_WIRE;
	}
	if (ptr != cnt + 1 && ptr != cnt)
		return SMI_OUT_DISCARD;
	smp->hop_ptr = cnt;
	return SMI_OUT_WIRE;
}

/* The receive rules; true if the SMP is for this port. */
static bool smi_arrives(struct ib_smp *smp, u32 port_num)
{
	u8 ptr = smp->hop_ptr, cnt = smp->hop_cnt;

	if (cnt >= IB_SMP_MAX_PATH_HOPS)
		return false;
	if (!cnt)
		return !ptr;
	if (!smi_returning(smp)) {
		if (ptr != cnt)
			return false;
		smp->return_path[ptr + 1] = port_num;
		smp->hop_ptr = cnt + 1;
		return true;
	}
	if (ptr != 1)
		return false;
	smp->hop_ptr = 0;
	return true;
}

/**
 * smi_recv - apply the rules to a received SMP
 * @port: the port it came in on
 * @mqp: the QP it came in on
 * @rb: its buffer
 *
 * Return: true if it goes on to the driver and the agents.
 */
bool smi_recv(struct mad_port *port, struct mad_qp *mqp, struct mad_rbuf *rb)
{
	struct ib_smp *smp = (struct ib_smp *)rb->mad;

	if (smp->mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return true;
	return smi_arrives(smp, port->port_num);
}

/**
 * smi_outgoing - what to do with an SMP an agent of QP0 sends
 * @smp: the SMP; a directed-route one's hop pointer and return path are
 *	updated
 * @port_num: the port it goes out of
 *
 * A directed-route SMP whose directed part starts here (its DrSLID, or
 * DrDLID going back, is the permissive LID) follows smi_send()'s rules;
 * any other SMP goes to the wire as it is.
 *
 * Return: what to do with it.
 */
enum smi_out smi_outgoing(struct ib_smp *smp, u32 port_num)
{
	__be16 lid;

	if (smp->mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return SMI_OUT_WIRE;
	lid = smi_returning(smp) ? smp->dr_dlid : smp->dr_slid;
	if (lid != IB_LID_PERMISSIVE)
		return SMI_OUT_WIRE;
	return smi_send(smp, port_num);
}

/**
 * smi_reply - send the driver's reply to a MAD
 * @port: the port the MAD came in on
 * @mqp: its QP
 * @wc: its completion
 * @grh: its network header
 * @in: the MAD
 * @out: the reply; a directed-route one goes back along the path (the
 *	send applies smi_outgoing())
 * @len: the reply's length
 */
void smi_reply(struct mad_port *port, struct mad_qp *mqp,
	       const struct ib_wc *wc, const struct ib_grh *grh,
	       const struct ib_mad *in, struct ib_mad *out, size_t len)
{
	struct ib_smp *smp = (struct ib_smp *)out;

	if (out->mad_hdr.mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		smp->status |= IB_SMP_DIRECTION;
	if (send_reply(port, mqp, wc, grh, out, len) == -EINVAL)
		counters_drop(port, MAD_DROP_SMI);
}
