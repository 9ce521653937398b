// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving MADs on QP0 and QP1: the checks a MAD must pass, the SMI's
 * directed-route rules (smi.c), the driver's right of first refusal
 * (ops.process_mad, whose reply goes back from the port's own agent),
 * the agent the MAD is for (agent.c), RMPP (rmpp.c), the request a
 * response answers (send.c), and the GetResp "unsupported" the core
 * sends for a Get or Set no agent takes when the driver looked at it.
 * Whatever is dropped is counted (counters.c).
 *
 * Runs in the CQ's work (process context), one completion at a time per
 * port, with no lock held; handlers are called from here.
 */
#include "abi/ib_core/mad.h"
#include "internal.h"
#include "rmpp.h"
#include "smi.h"

/* The first checks: a MAD this QP carries, of a known base version. */
static enum mad_drop recv_check(const struct mad_qp *mqp,
				const struct ib_wc *wc,
				const struct ib_mad_hdr *hdr)
{
	bool smp = hdr->mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
		   hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;

	if (wc->byte_len < sizeof(struct ib_grh) + sizeof(struct ib_mad))
		return MAD_DROP_LENGTH;
	if (hdr->base_version != IB_MGMT_BASE_VERSION)
		return MAD_DROP_BASE_VERSION;
	if (smp != (mqp->qp->qp_type == IB_QPT_SMI))
		return MAD_DROP_WRONG_QP;
	/* CM attributes other than ClassPortInfo use the Send method only */
	if (hdr->mgmt_class == IB_MGMT_CLASS_CM &&
	    hdr->attr_id != IB_MGMT_CLASSPORTINFO_ATTR_ID &&
	    hdr->method != IB_MGMT_METHOD_SEND)
		return MAD_DROP_CM_METHOD;
	return MAD_DROP_MAX;
}

/**
 * recv_deliver - give a received MAD to its agent
 * @ma: the agent, referenced by the caller
 * @rwc: the MAD; the agent frees it (ib_free_recv_mad()), or this does
 *	when it is dropped
 *
 * A response goes with the request it answers, which is then reported to
 * the send_handler; a response to nothing is dropped.
 */
void recv_deliver(struct mad_agent *ma, struct ib_mad_recv_wc *rwc)
{
	struct mad_send *ms;

	rwc = rmpp_recv(ma, rwc);
	if (!rwc)
		return;
	if (!ib_response_mad(&rwc->recv_buf.mad->mad_hdr)) {
		ma->agent.recv_handler(&ma->agent, NULL, rwc);
		return;
	}
	ms = send_match(ma, rwc);
	if (!ms) {
		counters_drop(ma->port, MAD_DROP_NO_REQUEST);
		ib_free_recv_mad(rwc);
		return;
	}
	ma->agent.recv_handler(&ma->agent, &ms->buf, rwc);
	send_responded(ms);
}

/* A Get or Set nobody took: GetResp with "unsupported method/attribute". */
static void recv_unsupported(struct mad_port *port, struct mad_qp *mqp,
			     struct mad_rbuf *rb)
{
	struct ib_mad *mad = (struct ib_mad *)rb->mad;
	struct ib_mad *resp;

	if (mad->mad_hdr.method != IB_MGMT_METHOD_GET &&
	    mad->mad_hdr.method != IB_MGMT_METHOD_SET)
		return;
	resp = kmemdup(mad, sizeof(*mad), GFP_KERNEL);
	if (!resp)
		return;
	resp->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	resp->mad_hdr.status =
		cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	if (mad->mad_hdr.mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		resp->mad_hdr.status |= IB_SMP_DIRECTION;
	send_reply(port, mqp, &rb->wc, &rb->grh, resp, sizeof(*resp));
	kfree(resp);
}

/*
 * The driver's turn (ops.process_mad).  Return: true if it consumed the
 * MAD or replied to it; *looked: it processed it without taking it.
 */
static bool recv_driver(struct mad_port *port, struct mad_qp *mqp,
			struct mad_rbuf *rb, bool *looked)
{
	struct ib_device *dev = port->dev;
	size_t out_size = sizeof(struct ib_mad);
	u16 out_pkey = 0;
	struct ib_mad *out;
	int ret;

	*looked = false;
	if (!dev->ops.process_mad)
		return false;
	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (!out)
		return false;
	ret = dev->ops.process_mad(dev, 0, port->port_num, &rb->wc, &rb->grh,
				   (const struct ib_mad *)rb->mad, out,
				   &out_size, &out_pkey);
	if (!(ret & IB_MAD_RESULT_SUCCESS)) {
		kfree(out);
		return false;
	}
	if (ret & IB_MAD_RESULT_REPLY)
		smi_reply(port, mqp, &rb->wc, &rb->grh,
			  (const struct ib_mad *)rb->mad, out, out_size);
	kfree(out);
	if (ret & (IB_MAD_RESULT_CONSUMED | IB_MAD_RESULT_REPLY))
		return true;
	*looked = true;
	return false;
}

/* Handles @rb's MAD.  Return: true if an agent took the buffer. */
static bool recv_handle(struct mad_port *port, struct mad_qp *mqp,
			struct mad_rbuf *rb)
{
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)rb->mad;
	struct ib_mad_recv_wc *rwc = &rb->rwc;
	enum mad_drop why;
	struct mad_agent *ma;
	bool looked;

	why = recv_check(mqp, &rb->wc, hdr);
	if (why == MAD_DROP_MAX && !smi_recv(port, mqp, rb))
		why = MAD_DROP_SMI;
	if (why != MAD_DROP_MAX) {
		counters_drop(port, why);
		return false;
	}
	if (recv_driver(port, mqp, rb, &looked))
		return false;

	rwc->wc = &rb->wc;
	rwc->recv_buf.grh = &rb->grh;
	rwc->recv_buf.mad = (struct ib_mad *)rb->mad;
	rwc->mad_len = sizeof(struct ib_mad);
	rwc->mad_seg_size = sizeof(struct ib_mad);
	INIT_LIST_HEAD(&rwc->rmpp_list);
	list_add(&rwc->recv_buf.list, &rwc->rmpp_list);

	ma = agent_find(port, mqp, hdr);
	if (ma) {
		recv_deliver(ma, rwc);
		agent_put(ma);
		return true;
	}
	counters_drop(port, ib_response_mad(hdr) ? MAD_DROP_NO_REQUEST :
						    MAD_DROP_NO_AGENT);
	if (looked)
		recv_unsupported(port, mqp, rb);
	return false;
}

/**
 * recv_done - a receive of QP0 or QP1 completed
 * @cq: the port's CQ
 * @wc: the completion
 *
 * The buffer goes to an agent (and a new one is posted in its place) or
 * is posted again.
 */
void recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct mad_rbuf *rb = container_of(wc->wr_cqe, struct mad_rbuf, cqe);
	struct mad_qp *mqp = rb->mqp;
	struct mad_port *port = mqp->port;
	struct mad_rbuf *fresh;

	if (!qp_recv_taken(mqp, rb, wc->status == IB_WC_SUCCESS))
		return;
	atomic64_inc(&port->received);
	rb->wc = *wc;
	if (!recv_handle(port, mqp, rb)) {
		qp_repost_recv(mqp, rb);
		return;
	}
	fresh = qp_alloc_rbuf(mqp, GFP_KERNEL);
	if (fresh)
		qp_repost_recv(mqp, fresh);
	else
		counters_drop(port, MAD_DROP_NOMEM);
}

/**
 * recv_local - receive a MAD this port sent to itself
 * @port: the port
 * @mqp: the QP it was sent on (QP0: a directed-route SMP of hop count 0)
 * @mad: the MAD, as it would have gone out
 *
 * The MAD takes the receive path of one from the wire (the driver's
 * process_mad, then the agent of its class or, for a response, its
 * requester) from the permissive LID, in a buffer of its own that was
 * never the hardware's.  Process context.
 */
void recv_local(struct mad_port *port, struct mad_qp *mqp, const void *mad)
{
	struct mad_rbuf *rb = kzalloc(sizeof(*rb) + mqp->mad_size,
				      GFP_KERNEL);

	if (!rb) {
		counters_drop(port, MAD_DROP_NOMEM);
		return;
	}
	rb->mqp = mqp;
	memcpy(rb->mad, mad, sizeof(struct ib_mad));
	rb->wc.status = IB_WC_SUCCESS;
	rb->wc.opcode = IB_WC_RECV;
	rb->wc.byte_len = sizeof(rb->grh) + sizeof(struct ib_mad);
	rb->wc.qp = mqp->qp;
	rb->wc.src_qp = mqp->qp->qp_num;
	rb->wc.slid = be16_to_cpu(IB_LID_PERMISSIVE);
	rb->wc.port_num = port->port_num;
	atomic64_inc(&port->received);
	if (!recv_handle(port, mqp, rb))
		kfree(rb);
}

/**
 * ib_free_recv_mad - free a received MAD
 * @mad_recv_wc: what the recv_handler got: one MAD, or every segment of
 *	an RMPP message
 */
void ib_free_recv_mad(struct ib_mad_recv_wc *mad_recv_wc)
{
	struct mad_rbuf *first = container_of(mad_recv_wc, struct mad_rbuf,
					      rwc);
	struct ib_mad_recv_buf *rbuf, *tmp;
	struct mad_rbuf *rb;

	list_for_each_entry_safe(rbuf, tmp, &mad_recv_wc->rmpp_list, list) {
		rb = container_of(rbuf, struct mad_rbuf, rwc.recv_buf);
		if (rb != first)
			kfree(rb);
	}
	kfree(first);
}
EXPORT_SYMBOL(ib_free_recv_mad);
