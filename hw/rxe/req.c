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
 */
#include <linux/bitops.h>
#include <linux/irqflags.h>
#include <net/udp.h>
#include "ah.h"
#include "cq.h"
#include "dev.h"
#include "mem.h"
#include "qp.h"
#include "req.h"
#include "wire.h"
#include "xmit.h"

/* WQEs a run takes before it leaves the rest to the QP's work item */
#define SR_REQ_BUDGET	64

/* Bit of sr_qp.req_flags: a run was asked for while one was going */
#define SR_REQ_PENDING	0

/* What the requester reads of a WQE, once: the user may change the slot. */
struct sr_wqe {
	struct rxe_send_wr wr;
	u32 num_sge;
	u32 inline_len;
};

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

/* Completes a WQE: always in error, else when signaled. */
static void sr_req_complete(struct sr_qp *qp, const struct sr_wqe *w,
			    enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = w->wr.wr_id,
		.status = status,
		.opcode = sr_wc_opcode(w->wr.opcode),
		.qp = &qp->ibqp,
	};

	if (status == IB_WC_SUCCESS && !qp->sq_sig_all &&
	    !(w->wr.send_flags & IB_SEND_SIGNALED))
		return;
	sr_cq_post(to_sr_cq(qp->ibqp.send_cq), &wc, false);
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

/* Copies the message (@len bytes, sr_req_length()) to @to. */
static enum ib_wc_status sr_req_gather(struct sr_qp *qp,
				       const struct sr_wqe *w,
				       const struct rxe_send_wqe *slot,
				       void *to, u32 len)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	struct rxe_sge sge;
	struct sr_mr *mr;
	u32 i, n;
	int ret;

	if (w->wr.send_flags & IB_SEND_INLINE) {
		memcpy(to, slot->dma.inline_data, len);
		return IB_WC_SUCCESS;
	}
	for (i = 0; i < w->num_sge && len; i++) {
		memcpy(&sge, &slot->dma.sge[i], sizeof(sge));
		n = min(sge.length, len);
		if (!n)
			continue;
		mr = sr_mr_use(sdev, qp->ibqp.pd, sge.lkey, 0, sge.addr, n);
		if (!mr)
			return IB_WC_LOC_PROT_ERR;
		ret = sr_mr_copy(mr, sge.addr, to, n, false);
		sr_mr_put(mr);
		if (ret)
			return IB_WC_LOC_PROT_ERR;
		to += n;
		len -= n;
	}
	/* The entries shrank under us */
	return len ? IB_WC_LOC_LEN_ERR : IB_WC_SUCCESS;
}

/* RoCEv2's UDP source port for a flow: its flow label, else its QPs. */
static __be16 sr_req_sport(const struct sr_av *av, u32 sqpn, u32 dqpn)
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
	status = sr_req_gather(qp, w, slot, skb->data + oi->hlen, len);
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

/*
 * Moves the QP to ERR after a WQE failed.  This run flushes the SQ; the
 * QP's work flushes the RQ (not from here: a completion handler may have
 * called this run with the responder's lock held).
 */
static void sr_req_failed(struct sr_qp *qp)
{
	if (sr_qp_to_err(qp))
		queue_work(system_wq, &qp->work);
}

/* Takes the WQE at the head of the SQ in state @state. */
static void sr_req_one(struct sr_qp *qp, const struct rxe_send_wqe *slot,
		       enum ib_qp_state state)
{
	enum ib_wc_status status;
	struct sr_wqe w;

	sr_wqe_read(&w, slot);
	if (state == IB_QPS_ERR) {
		sr_req_complete(qp, &w, IB_WC_WR_FLUSH_ERR);
		return;
	}
	status = sr_req_ud(qp, &w, slot);
	sr_req_complete(qp, &w, status);
	if (status != IB_WC_SUCCESS)
		sr_req_failed(qp);
}

/* One run, req_lock held: true if it stopped for its budget. */
static bool sr_req_take(struct sr_qp *qp)
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
		sr_queue_consumed(&qp->sq);
	}
	return false;
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
