// SPDX-License-Identifier: GPL-2.0
/*
 * The requester (req.h): takes a QP's send WQEs in order and sends them,
 * in the context of whoever runs it: post_send and the user's doorbell,
 * modify_qp, or the QP's work item.  One runs at a time per QP (req_lock);
 * whoever finds it running leaves a note (SR_REQ_PENDING) that the runner
 * reads again after it lets go, so no WQE waits for a run that nobody
 * makes.  A run takes at most SR_REQ_BUDGET WQEs and leaves the rest to
 * the QP's work item.
 *
 * UD: each WQE is one packet (its message fits the port's MTU), completed
 * as soon as the IP stack has it: the payload was copied into it.  A WQE
 * the device cannot send completes in error and moves the QP to ERR; in
 * ERR every WQE completes flushed.
 *
 * RC: the requester walks ahead of the SQ's consumer index (the
 * completer's, comp.c), building each WQE's packets by the path MTU, up
 * to a window of unacknowledged PSNs; its state is the kernel's array
 * beside the SQ (struct sr_send), never the user's slot.
 */
#include <linux/bitops.h>
#include <linux/irqflags.h>
#include <net/udp.h>
#include "ah.h"
#include "cq.h"
#include "dev.h"
#include "mem.h"
#include "qp.h"
#include "comp.h"
#include "req.h"
#include "wire.h"
#include "xmit.h"

/* WQEs (RC: packets) a run takes before it leaves the rest to the work */
#define SR_REQ_BUDGET	64
/* RC: PSNs sent and not acknowledged, at most */
#define SR_REQ_WINDOW	128
/* RC: an ACK asked for at least every this many packets */
#define SR_REQ_ACK_EVERY	16

static void sr_wqe_read(struct sr_wqe *w, const struct rxe_send_wqe *slot)
{
	memcpy(&w->wr, &slot->wr, sizeof(w->wr));
	w->num_sge = READ_ONCE(slot->dma.num_sge);
	w->inline_len = READ_ONCE(slot->dma.length);
}

/* The completion's opcode for a WQE's. */
static enum ib_wc_opcode sr_wc_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	default:
		return IB_WC_SEND;
	}
}

/**
 * sr_req_complete - complete a send WQE
 * @qp: its QP
 * @w: the WQE as read
 * @status: how it ended; in error it always completes, else if signaled
 *
 * A send that succeeded counts in rdma_sends, signaled or not.
 *
 * Context: req_lock held.
 */
void sr_req_complete(struct sr_qp *qp, const struct sr_wqe *w,
		     enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = w->wr.wr_id,
		.status = status,
		.opcode = sr_wc_opcode(w->wr.opcode),
		.qp = &qp->ibqp,
	};

	if (status == IB_WC_SUCCESS && wc.opcode == IB_WC_SEND)
		sr_count(&to_sr_dev(qp->ibqp.device)->counters,
			 SR_RDMA_SENDS);
	if (status == IB_WC_SUCCESS && !qp->sq_sig_all &&
	    !(w->wr.send_flags & IB_SEND_SIGNALED))
		return;
	sr_cq_post(to_sr_cq(qp->ibqp.send_cq), &wc, false);
}

/**
 * sr_req_pop - the SQ's oldest WQE leaves the ring, then completes
 * @qp: its QP
 * @s: its state beside the ring, the WR as read (its slot may be reused
 *	once it has left)
 * @status: as for sr_req_complete()
 *
 * In that order: a consumer that posts again when it sees the completion
 * (rdma-core's ibv_rc_pingpong, a ULP's completion handler) finds the
 * slot free, not a full ring.
 *
 * Context: req_lock held.
 */
void sr_req_pop(struct sr_qp *qp, struct sr_send *s, enum ib_wc_status status)
{
	s->npkts = 0;
	sr_queue_consumed(&qp->sq);
	sr_req_complete(qp, &s->w, status);
}

/*
 * The message's bytes: the inline data's, or the sum of its scatter
 * entries' (a user's, read again when gathered: sr_req_gather() checks
 * that they still add up).
 */
static int sr_req_length(const struct sr_qp *qp, const struct sr_wqe *w,
			 const struct rxe_send_wqe *slot, u32 *len)
{
	u64 sum = 0;
	u32 i;

	if (w->wr.send_flags & IB_SEND_INLINE) {
		if (w->inline_len > qp->max_inline)
			return -EINVAL;
		*len = w->inline_len;
		return 0;
	}
	if (w->num_sge > qp->max_send_sge)
		return -EINVAL;
	for (i = 0; i < w->num_sge; i++)
		sum += READ_ONCE(slot->dma.sge[i].length);
	if (sum > U32_MAX)
		return -EINVAL;
	*len = sum;
	return 0;
}

/* One side of a copy to or from a WQE's entries (sr_req_sges()). */
struct sr_req_copy {
	void *buf;
	const struct sk_buff *skb;
	unsigned int at;
	bool to_wqe;
};

/*
 * Copies @len bytes between the WQE's entries, from byte @off of its
 * message on, and @c: its buffer, or its packet (c->skb) when it goes
 * into the WQE's memory, from byte c->at on.  The entries are read again
 * from the slot (a user may change them: only its own data suffers).
 */
static enum ib_wc_status sr_req_sges(struct sr_qp *qp, const struct sr_wqe *w,
				     const struct rxe_send_wqe *slot,
				     struct sr_req_copy *c, u32 off, u32 len)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	u32 i, n, num = min(w->num_sge, qp->max_send_sge);
	struct rxe_sge sge;
	struct sr_mr *mr;
	int ret;

	for (i = 0; i < num && len; i++) {
		memcpy(&sge, &slot->dma.sge[i], sizeof(sge));
		if (off >= sge.length) {
			off -= sge.length;
			continue;
		}
		sge.addr += off;
		sge.length -= off;
		off = 0;
		n = min(sge.length, len);
		mr = sr_mr_use(sdev, qp->ibqp.pd, sge.lkey,
			       c->to_wqe ? IB_ACCESS_LOCAL_WRITE : 0, sge.addr,
			       n);
		if (!mr)
			return IB_WC_LOC_PROT_ERR;
		if (c->skb)
			ret = sr_mr_from_skb(mr, sge.addr, c->skb, c->at, n);
		else
			ret = sr_mr_copy(mr, sge.addr, c->buf + c->at, n,
					 c->to_wqe);
		sr_mr_put(mr);
		if (ret)
			return IB_WC_LOC_PROT_ERR;
		c->at += n;
		len -= n;
	}
	/* The entries hold less (or shrank under us) */
	return len ? IB_WC_LOC_LEN_ERR : IB_WC_SUCCESS;
}

/*
 * Copies @len bytes of the message from byte @off on (within what
 * sr_req_length() gave) to @to.
 */
static enum ib_wc_status sr_req_gather(struct sr_qp *qp,
				       const struct sr_wqe *w,
				       const struct rxe_send_wqe *slot,
				       void *to, u32 off, u32 len)
{
	struct sr_req_copy c = { .buf = to };

	if (w->wr.send_flags & IB_SEND_INLINE) {
		memcpy(to, slot->dma.inline_data + off, len);
		return IB_WC_SUCCESS;
	}
	return sr_req_sges(qp, w, slot, &c, off, len);
}

/**
 * sr_req_scatter - place an answer's data in its WQE's entries
 * @qp: the QP
 * @w: the read or atomic WQE as read
 * @slot: its slot (the entries are read again: the user may change them)
 * @buf: the data, or NULL: it is in @skb
 * @skb: the response, data at its UDP header
 * @skb_off: where its payload starts there
 * @off: the payload's offset in the read's message
 * @len: its bytes
 *
 * Context: req_lock held.
 * Return: IB_WC_SUCCESS, IB_WC_LOC_LEN_ERR when the entries hold less,
 * IB_WC_LOC_PROT_ERR for an lkey the QP may not write.
 */
enum ib_wc_status sr_req_scatter(struct sr_qp *qp, const struct sr_wqe *w,
				 const struct rxe_send_wqe *slot,
				 const void *buf, const struct sk_buff *skb,
				 unsigned int skb_off, u32 off, u32 len)
{
	struct sr_req_copy c = {
		.buf = (void *)buf,
		.skb = buf ? NULL : skb,
		.at = skb_off,
		.to_wqe = true,
	};

	return sr_req_sges(qp, w, slot, &c, off, len);
}

/**
 * sr_req_sport - RoCEv2's UDP source port for a flow
 * @av: the flow's path: its flow label, if it has one
 * @sqpn: else the source QP
 * @dqpn: and the destination QP
 *
 * Return: the port, in network order.
 */
__be16 sr_req_sport(const struct sr_av *av, u32 sqpn, u32 dqpn)
{
	u32 fl = av->flow_label ?: rdma_calc_flow_label(sqpn, dqpn);

	return cpu_to_be16(rdma_flow_label_to_udp_sport(fl));
}

/* Sends a UD WQE's one packet; a loss is not the WQE's error. */
static enum ib_wc_status sr_req_ud(struct sr_qp *qp, const struct sr_wqe *w,
				   const struct rxe_send_wqe *slot)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	bool imm = w->wr.opcode == IB_WR_SEND_WITH_IMM;
	u8 opcode = imm ? IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE :
			  IB_OPCODE_UD_SEND_ONLY;
	const struct sr_opinfo *oi = sr_opinfo(opcode);
	u32 len, qkey, dqpn = w->wr.wr.ud.remote_qpn & SR_QPN_MASK;
	enum ib_wc_status status;
	struct dst_entry *dst;
	struct sr_deth *deth;
	struct sk_buff *skb;
	struct sr_av av;

	if (w->wr.opcode != IB_WR_SEND && !imm)
		return IB_WC_LOC_QP_OP_ERR;
	if (sr_req_length(qp, w, slot, &len))
		return IB_WC_LOC_LEN_ERR;
	if (len > sr_dev_mtu(sdev))
		return IB_WC_LOC_LEN_ERR;
	if (sr_ah_read(sdev, w->wr.wr.ud.ah_num, qp->ibqp.pd, &av))
		return IB_WC_LOC_QP_OP_ERR;
	dst = sr_route(sdev, &av);
	if (IS_ERR(dst))
		goto lost;
	skb = sr_pkt_new(dst, &av, oi->hlen + len + sr_pad(len), GFP_ATOMIC);
	if (!skb) {
		dst_release(dst);
		goto lost;
	}
	sr_bth_init(skb->data, opcode, w->wr.send_flags & IB_SEND_SOLICITED,
		    sr_pad(len), SR_PKEY_DEFAULT, dqpn, false,
		    qp->req_psn);
	/* A Q_Key with its top bit set asks for the QP's own */
	qkey = w->wr.wr.ud.remote_qkey;
	if (qkey & BIT(31))
		qkey = READ_ONCE(qp->attr.qkey);
	deth = sr_ext(skb->data, oi, SR_DETH);
	deth->qkey = cpu_to_be32(qkey);
	deth->sqpn = cpu_to_be32(qp->ibqp.qp_num);
	if (imm)
		*(__be32 *)sr_ext(skb->data, oi, SR_IMMDT) = w->wr.ex.imm_data;
	status = sr_req_gather(qp, w, slot, skb->data + oi->hlen, 0, len);
	if (status != IB_WC_SUCCESS) {
		kfree_skb(skb);
		dst_release(dst);
		return status;
	}
	memset(skb->data + oi->hlen + len, 0, sr_pad(len));
	qp->req_psn = sr_psn_add(qp->req_psn, 1);
	if (sr_xmit(sdev, dst, &av, skb,
		    sr_req_sport(&av, qp->ibqp.qp_num, dqpn)))
		sr_count(&sdev->counters, SR_SEND_ERR);
	dst_release(dst);
	return IB_WC_SUCCESS;

lost:
	sr_count(&sdev->counters, SR_SEND_ERR);
	return IB_WC_SUCCESS;
}

/**
 * sr_req_failed - move the QP to ERR after a WQE failed
 * @qp: the QP
 *
 * The requester flushes the SQ; the QP's work flushes the RQ (not from
 * here: a completion handler may have called this run with the
 * responder's lock held).
 *
 * Context: req_lock held.
 */
void sr_req_failed(struct sr_qp *qp)
{
	if (sr_qp_to_err(qp))
		queue_work(system_wq, &qp->work);
}

/*
 * Takes the UD WQE at the head of the SQ in state @state: sends it (or
 * flushes it), then it leaves the ring and completes (sr_req_pop()'s
 * order).
 */
static void sr_req_one(struct sr_qp *qp, const struct rxe_send_wqe *slot,
		       enum ib_qp_state state)
{
	enum ib_wc_status status = IB_WC_WR_FLUSH_ERR;
	struct sr_wqe w;

	sr_wqe_read(&w, slot);
	if (state != IB_QPS_ERR)
		status = sr_req_ud(qp, &w, slot);
	sr_queue_consumed(&qp->sq);
	sr_req_complete(qp, &w, status);
	if (state != IB_QPS_ERR && status != IB_WC_SUCCESS)
		sr_req_failed(qp);
}

/* UD: one run, req_lock held; true if it stopped for its budget. */
static bool sr_req_take_ud(struct sr_qp *qp)
{
	unsigned int budget = SR_REQ_BUDGET;
	enum ib_qp_state state;
	const void *slot;

	while ((slot = sr_queue_head(&qp->sq))) {
		state = sr_qp_state(qp);
		if (state != IB_QPS_RTS && state != IB_QPS_ERR)
			break;
		if (!budget--)
			return true;
		sr_req_one(qp, slot, state);
	}
	return false;
}

/* ---- RC ---------------------------------------------------------------- */

/* The RC opcode of a message's packet: first, last (both: only) or not. */
static u8 sr_rc_opcode(u32 wr_opcode, bool first, bool last)
{
	bool imm = wr_opcode == IB_WR_SEND_WITH_IMM ||
		   wr_opcode == IB_WR_RDMA_WRITE_WITH_IMM;

	if (wr_opcode == IB_WR_RDMA_WRITE ||
	    wr_opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		if (first && last)
			return imm ? IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE :
				     IB_OPCODE_RC_RDMA_WRITE_ONLY;
		if (first)
			return IB_OPCODE_RC_RDMA_WRITE_FIRST;
		if (last)
			return imm ? IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE :
				     IB_OPCODE_RC_RDMA_WRITE_LAST;
		return IB_OPCODE_RC_RDMA_WRITE_MIDDLE;
	}
	if (wr_opcode == IB_WR_SEND_WITH_INV && last)
		return first ? IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE :
			       IB_OPCODE_RC_SEND_LAST_WITH_INVALIDATE;
	if (first && last)
		return imm ? IB_OPCODE_RC_SEND_ONLY_WITH_IMMEDIATE :
			     IB_OPCODE_RC_SEND_ONLY;
	if (first)
		return IB_OPCODE_RC_SEND_FIRST;
	if (last)
		return imm ? IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE :
			     IB_OPCODE_RC_SEND_LAST;
	return IB_OPCODE_RC_SEND_MIDDLE;
}

/* An RC WQE whose answer is data: a read or an atomic. */
static bool sr_rc_is_rd_atomic(u32 wr_opcode)
{
	return wr_opcode == IB_WR_RDMA_READ ||
	       wr_opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
	       wr_opcode == IB_WR_ATOMIC_FETCH_AND_ADD;
}

/* Work requests the requester does itself, sending nothing. */
static bool sr_rc_is_local(u32 wr_opcode)
{
	return wr_opcode == IB_WR_LOCAL_INV || wr_opcode == IB_WR_REG_MR;
}

/**
 * sr_req_op_ok - does the device do this work request on this QP?
 * @qp: the QP
 * @wr_opcode: the WR's opcode
 *
 * UD (and GSI): sends.  RC: sends (with invalidate too), writes, and
 * reads and atomics if max_rd_atomic allows them.  UC: sends and writes.
 * RC and UC: LOCAL_INV and REG_MR.  What post_send refuses with -EINVAL,
 * and a user's WQE completes in error for.
 *
 * Context: any.
 */
bool sr_req_op_ok(const struct sr_qp *qp, u32 wr_opcode)
{
	bool rc = qp->ibqp.qp_type == IB_QPT_RC;

	if (wr_opcode == IB_WR_SEND || wr_opcode == IB_WR_SEND_WITH_IMM)
		return true;
	if (sr_qp_is_ud(qp))
		return false;
	if (sr_rc_is_rd_atomic(wr_opcode))
		return rc && qp->attr.max_rd_atomic;
	if (wr_opcode == IB_WR_SEND_WITH_INV)
		return rc;
	return wr_opcode == IB_WR_RDMA_WRITE ||
	       wr_opcode == IB_WR_RDMA_WRITE_WITH_IMM ||
	       sr_rc_is_local(wr_opcode);
}

/*
 * A local operation's effect: 0 or -EINVAL.  A user's WQE cannot ask for
 * REG_MR: it would name a kernel object.
 */
static int sr_rc_local_do(struct sr_qp *qp, const struct sr_wqe *w)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);

	if (w->wr.opcode == IB_WR_LOCAL_INV)
		return sr_mr_invalidate(sdev, qp->ibqp.pd,
					w->wr.ex.invalidate_rkey);
	if (qp->ibqp.uobject)
		return -EINVAL;
	return sr_mr_register(w->wr.wr.reg.mr, qp->ibqp.pd, w->wr.wr.reg.key,
			      w->wr.wr.reg.access);
}

/*
 * Takes a new WQE into @s: the WR read once, its length and packets, its
 * PSNs from the QP's next.  Else a status it completes with.
 */
static enum ib_wc_status sr_rc_start(struct sr_qp *qp, struct sr_send *s,
				     const struct rxe_send_wqe *slot)
{
	u32 mtu = ib_mtu_enum_to_int(qp->attr.path_mtu);

	sr_wqe_read(&s->w, slot);
	/* A local operation was taken for another (a user changed the slot) */
	if (!sr_req_op_ok(qp, s->w.wr.opcode) || sr_rc_is_local(s->w.wr.opcode))
		return IB_WC_LOC_QP_OP_ERR;
	if (sr_req_length(qp, &s->w, slot, &s->len))
		return IB_WC_LOC_LEN_ERR;
	/* An atomic's entries take the original value: eight bytes */
	if (s->w.wr.opcode != IB_WR_RDMA_READ &&
	    sr_rc_is_rd_atomic(s->w.wr.opcode) && s->len != sizeof(u64))
		return IB_WC_LOC_LEN_ERR;
	s->npkts = max_t(u32, 1, DIV_ROUND_UP(s->len, mtu));
	s->next = 0;
	s->first_psn = qp->req_psn;
	qp->req_psn = sr_psn_add(qp->req_psn, s->npkts);
	return IB_WC_SUCCESS;
}

/* The RETH of a read or write from byte @off of its message on. */
static void sr_rc_reth(void *bth, const struct sr_opinfo *oi,
		       const struct sr_send *s, u32 off)
{
	struct sr_reth *reth = sr_ext(bth, oi, SR_RETH);

	reth->va = cpu_to_be64(s->w.wr.wr.rdma.remote_addr + off);
	reth->rkey = cpu_to_be32(s->w.wr.wr.rdma.rkey);
	reth->len = cpu_to_be32(s->len - off);
}

/*
 * Sends the read request for what of @s has not been answered (from PSN
 * @s->next on): one packet, which takes the PSNs of all its responses.
 */
static void sr_rc_read(struct sr_qp *qp, struct sr_send *s,
		       struct dst_entry *dst)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	u32 mtu = ib_mtu_enum_to_int(qp->attr.path_mtu);
	const struct sr_opinfo *oi = sr_opinfo(IB_OPCODE_RC_RDMA_READ_REQUEST);
	u32 dqpn = qp->attr.dest_qp_num;
	struct sk_buff *skb;

	skb = sr_pkt_new(dst, &qp->av, oi->hlen, GFP_ATOMIC);
	if (!skb)
		return;		/* a loss: the timer sends it again */
	sr_bth_init(skb->data, IB_OPCODE_RC_RDMA_READ_REQUEST, false, 0,
		    SR_PKEY_DEFAULT, dqpn, false,
		    sr_psn_add(s->first_psn, s->next));
	sr_rc_reth(skb->data, oi, s, s->next * mtu);
	if (sr_xmit(sdev, dst, &qp->av, skb,
		    sr_req_sport(&qp->av, qp->ibqp.qp_num, dqpn)))
		sr_count(&sdev->counters, SR_SEND_ERR);
}

/* Sends an atomic's one request. */
static void sr_rc_atomic(struct sr_qp *qp, struct sr_send *s,
			 struct dst_entry *dst)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	bool cas = s->w.wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP;
	u8 opcode = cas ? IB_OPCODE_RC_COMPARE_SWAP : IB_OPCODE_RC_FETCH_ADD;
	const struct sr_opinfo *oi = sr_opinfo(opcode);
	u32 dqpn = qp->attr.dest_qp_num;
	struct sr_atmeth *ath;
	struct sk_buff *skb;

	skb = sr_pkt_new(dst, &qp->av, oi->hlen, GFP_ATOMIC);
	if (!skb)
		return;		/* a loss: the timer sends it again */
	sr_bth_init(skb->data, opcode, false, 0, SR_PKEY_DEFAULT, dqpn, true,
		    s->first_psn);
	ath = sr_ext(skb->data, oi, SR_ATMETH);
	ath->va = cpu_to_be64(s->w.wr.wr.atomic.remote_addr);
	ath->rkey = cpu_to_be32(s->w.wr.wr.atomic.rkey);
	/* CMP_SWP: the swap and compare values; FETCH_ADD: the addend */
	ath->swap_add = cpu_to_be64(cas ? s->w.wr.wr.atomic.swap :
					  s->w.wr.wr.atomic.compare_add);
	ath->compare = cpu_to_be64(cas ? s->w.wr.wr.atomic.compare_add : 0);
	if (sr_xmit(sdev, dst, &qp->av, skb,
		    sr_req_sport(&qp->av, qp->ibqp.qp_num, dqpn)))
		sr_count(&sdev->counters, SR_SEND_ERR);
}

/* Reads and atomics whose request went and whose answers did not come. */
static u32 sr_rc_reads_out(const struct sr_qp *qp)
{
	u32 i, n = 0;
	const struct sr_send *s;

	for (i = qp->sq.cons; i != qp->req_next; i = (i + 1) & qp->sq.mask) {
		s = &qp->sends[i];
		n += sr_rc_is_rd_atomic(s->w.wr.opcode) && s->next;
	}
	return n;
}

/* Builds packet @s->next of @s and sends it. */
static enum ib_wc_status sr_rc_packet(struct sr_qp *qp, struct sr_send *s,
				      const struct rxe_send_wqe *slot,
				      struct dst_entry *dst)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	u32 mtu = ib_mtu_enum_to_int(qp->attr.path_mtu);
	u32 off = s->next * mtu, len = min(mtu, s->len - off);
	u32 psn = sr_psn_add(s->first_psn, s->next);
	bool last = s->next + 1 == s->npkts;
	bool uc = qp->ibqp.qp_type == IB_QPT_UC;
	/* UC's sends and writes are RC's, in UC's range */
	u8 opcode = sr_rc_opcode(s->w.wr.opcode, !s->next, last) |
		    (uc ? IB_OPCODE_UC : IB_OPCODE_RC);
	const struct sr_opinfo *oi = sr_opinfo(opcode);
	u32 dqpn = qp->attr.dest_qp_num;
	enum ib_wc_status status;
	struct sk_buff *skb;

	skb = sr_pkt_new(dst, &qp->av, oi->hlen + len + sr_pad(len),
			 GFP_ATOMIC);
	if (!skb)
		return IB_WC_SUCCESS;	/* a loss: the timer sends it again */
	sr_bth_init(skb->data, opcode,
		    last && (s->w.wr.send_flags & IB_SEND_SOLICITED),
		    sr_pad(len), SR_PKEY_DEFAULT, dqpn,
		    !uc && (last || !(psn % SR_REQ_ACK_EVERY)), psn);
	if (oi->exts & BIT(SR_RETH))
		sr_rc_reth(skb->data, oi, s, 0);
	if (oi->exts & BIT(SR_IMMDT))
		*(__be32 *)sr_ext(skb->data, oi, SR_IMMDT) =
			s->w.wr.ex.imm_data;
	if (oi->exts & BIT(SR_IETH))
		*(__be32 *)sr_ext(skb->data, oi, SR_IETH) =
			cpu_to_be32(s->w.wr.ex.invalidate_rkey);
	status = sr_req_gather(qp, &s->w, slot, skb->data + oi->hlen, off,
			       len);
	if (status != IB_WC_SUCCESS) {
		kfree_skb(skb);
		return status;
	}
	memset(skb->data + oi->hlen + len, 0, sr_pad(len));
	if (sr_xmit(sdev, dst, &qp->av, skb,
		    sr_req_sport(&qp->av, qp->ibqp.qp_num, dqpn)))
		sr_count(&sdev->counters, SR_SEND_ERR);
	return IB_WC_SUCCESS;
}

/* The WQE @s failed; it completes once it is the SQ's oldest. */
static bool sr_rc_failed(struct sr_qp *qp, struct sr_send *s,
			 enum ib_wc_status status)
{
	if (qp->req_next != qp->sq.cons)
		return false;
	sr_req_pop(qp, s, status);
	qp->req_next = qp->sq.cons;
	sr_req_failed(qp);
	return true;
}

/* ERR: every WQE not completed completes flushed, in order. */
static void sr_rc_flush(struct sr_qp *qp)
{
	const struct rxe_send_wqe *slot;
	struct sr_send *s;

	while ((slot = sr_queue_head(&qp->sq))) {
		s = &qp->sends[qp->sq.cons & qp->sq.mask];
		if (!s->npkts)
			sr_wqe_read(&s->w, slot);
		sr_req_pop(qp, s, IB_WC_WR_FLUSH_ERR);
	}
	qp->req_next = qp->sq.cons;
	sr_comp_stop(qp);
}

/*
 * The oldest WQE is done without an answer: UC's once its packets all
 * went, a local operation's once it took effect.
 */
static void sr_req_retire(struct sr_qp *qp, struct sr_send *s)
{
	sr_req_pop(qp, s, IB_WC_SUCCESS);
	qp->req_next = qp->sq.cons;
}

/*
 * A local operation at req_next takes effect once every WQE before it has
 * completed: a send after it may carry the key a REG_MR makes, a read
 * before it still use the one a LOCAL_INV ends.  Then it completes; in
 * error (LOC_QP_OP_ERR) it moves the QP to ERR.  false while it waits.
 */
static bool sr_rc_local(struct sr_qp *qp, struct sr_send *s,
			const struct rxe_send_wqe *slot)
{
	if (qp->req_next != qp->sq.cons)
		return false;
	sr_wqe_read(&s->w, slot);
	if (sr_rc_local_do(qp, &s->w)) {
		sr_rc_failed(qp, s, IB_WC_LOC_QP_OP_ERR);
		return false;
	}
	sr_req_retire(qp, s);
	return true;
}

/*
 * RC and UC: one run, req_lock held; true if it stopped for its budget.
 * UC's WQEs complete as soon as their packets went, in order.
 */
static bool sr_req_take_rc(struct sr_qp *qp)
{
	bool uc = qp->ibqp.qp_type == IB_QPT_UC;
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	unsigned int budget = SR_REQ_BUDGET;
	const struct rxe_send_wqe *slot;
	struct dst_entry *dst = NULL;
	enum ib_wc_status status;
	struct sr_send *s;
	bool more = false;

	if (sr_qp_state(qp) == IB_QPS_ERR) {
		sr_rc_flush(qp);
		return false;
	}
	if (sr_qp_state(qp) != IB_QPS_RTS || !sr_comp_may_send(qp))
		return false;
	while (sr_queue_count(&qp->sq) > ((qp->req_next - qp->sq.cons) &
					  qp->sq.mask)) {
		s = &qp->sends[qp->req_next & qp->sq.mask];
		slot = sr_queue_slot(&qp->sq, qp->req_next);
		if (!s->npkts && sr_rc_is_local(READ_ONCE(slot->wr.opcode))) {
			if (!sr_rc_local(qp, s, slot))
				break;
			continue;
		}
		if (!s->npkts) {
			status = sr_rc_start(qp, s, slot);
			if (status != IB_WC_SUCCESS) {
				s->npkts = 0;
				sr_rc_failed(qp, s, status);
				break;
			}
		}
		if (!uc && sr_psn_diff(sr_psn_add(s->first_psn, s->next),
				       qp->comp_psn) >= SR_REQ_WINDOW)
			break;
		if (!budget--) {
			more = true;
			break;
		}
		if (!dst) {
			dst = sr_route(sdev, &qp->av);
			if (IS_ERR(dst)) {
				/* No way there now: the timer tries again */
				dst = NULL;
				sr_comp_arm(qp);
				break;
			}
		}
		if (sr_rc_is_rd_atomic(s->w.wr.opcode)) {
			if (sr_rc_reads_out(qp) >= qp->attr.max_rd_atomic)
				break;
			if (s->w.wr.opcode == IB_WR_RDMA_READ)
				sr_rc_read(qp, s, dst);
			else
				sr_rc_atomic(qp, s, dst);
			s->next = s->npkts;
		} else {
			status = sr_rc_packet(qp, s, slot, dst);
			if (status != IB_WC_SUCCESS) {
				sr_rc_failed(qp, s, status);
				break;
			}
			s->next++;
		}
		if (uc) {
			/* Nothing answers: done once its last packet went */
			if (s->next == s->npkts)
				sr_req_retire(qp, s);
			continue;
		}
		sr_comp_sent(qp, sr_psn_add(s->first_psn, s->next - 1));
		if (s->next == s->npkts)
			qp->req_next = (qp->req_next + 1) & qp->sq.mask;
	}
	dst_release(dst);
	return more;
}

/* One run, req_lock held: true if it stopped for its budget. */
static bool sr_req_take(struct sr_qp *qp)
{
	if (sr_qp_is_ud(qp))
		return sr_req_take_ud(qp);
	/* A timer that fired as the QP left RTS has nothing left to do */
	if (test_and_clear_bit(SR_REQ_TIMER, &qp->req_flags) &&
	    sr_qp_state(qp) == IB_QPS_RTS)
		sr_comp_timer_fired(qp);
	return sr_req_take_rc(qp);
}

/**
 * sr_req_run - run the requester of a QP now
 * @qp: the QP
 *
 * Sends what its SQ holds (in RTS) or flushes it (in ERR), up to a budget;
 * the work item takes what is left.  If the requester is running
 * elsewhere (or in a completion handler this run called), that run takes
 * the new WQEs before it stops.
 *
 * Context: any but interrupts off (sr_req_kick() chooses).
 */
void sr_req_run(struct sr_qp *qp)
{
	bool more = false;

	set_bit(SR_REQ_PENDING, &qp->req_flags);
	/* The note before the lock's state; pairs with the barrier below */
	smp_mb__after_atomic();
	while (test_bit(SR_REQ_PENDING, &qp->req_flags) &&
	       spin_trylock_bh(&qp->req_lock)) {
		clear_bit(SR_REQ_PENDING, &qp->req_flags);
		/* The note cleared before the ring is read */
		smp_mb__after_atomic();
		more = sr_req_take(qp);
		spin_unlock_bh(&qp->req_lock);
		/* The lock released before the note is read again */
		smp_mb();
	}
	if (more)
		queue_work(system_wq, &qp->work);
}

/**
 * sr_req_kick - have the requester of a QP run
 * @qp: the QP
 *
 * Runs it now, or from its work item when the caller has interrupts off
 * (transmitting needs them on).
 *
 * Context: any.
 */
void sr_req_kick(struct sr_qp *qp)
{
	if (irqs_disabled())
		queue_work(system_wq, &qp->work);
	else
		sr_req_run(qp);
}
