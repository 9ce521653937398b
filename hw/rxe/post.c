// SPDX-License-Identifier: GPL-2.0
/*
 * Posting work (post.h).  A kernel consumer's work requests are written
 * into the QP's rings in the layout rdma-core's provider writes a user's
 * (struct rxe_send_wqe, struct rxe_recv_wqe), so that the requester and
 * the responder read one kind of WQE.  Any context: the producer ends
 * have their own locks, taken with interrupts off, and the requester runs
 * from the work item when the poster cannot run it.
 */
#include "ah.h"
#include "post.h"
#include "qp.h"
#include "req.h"

/* The WR's fields for its QP's type. */
static void sr_post_fill_wr(struct sr_qp *qp, struct rxe_send_wqe *wqe,
			    const struct ib_send_wr *wr)
{
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	if (wr->opcode == IB_WR_LOCAL_INV || wr->opcode == IB_WR_SEND_WITH_INV)
		wqe->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
	else
		wqe->wr.ex.imm_data = wr->ex.imm_data;
	if (sr_qp_is_ud(qp)) {
		wqe->wr.wr.ud.remote_qpn = ud_wr(wr)->remote_qpn;
		wqe->wr.wr.ud.remote_qkey = ud_wr(wr)->remote_qkey;
		wqe->wr.wr.ud.ah_num = to_sr_ah(ud_wr(wr)->ah)->num;
	} else if (wr->opcode == IB_WR_RDMA_WRITE ||
		   wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM ||
		   wr->opcode == IB_WR_RDMA_READ) {
		wqe->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
	} else if (wr->opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
		   wr->opcode == IB_WR_ATOMIC_FETCH_AND_ADD) {
		wqe->wr.wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->wr.wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->wr.wr.atomic.swap = atomic_wr(wr)->swap;
		wqe->wr.wr.atomic.rkey = atomic_wr(wr)->rkey;
	} else if (wr->opcode == IB_WR_REG_MR) {
		/* Only a kernel QP's WQE names an MR so: the requester trusts it */
		wqe->wr.wr.reg.mr = reg_wr(wr)->mr;
		wqe->wr.wr.reg.key = reg_wr(wr)->key;
		wqe->wr.wr.reg.access = reg_wr(wr)->access;
	}
}

/* The bytes of a WR's scatter list, or -EINVAL beyond @max inline. */
static int sr_post_inline(struct rxe_send_wqe *wqe,
			  const struct ib_send_wr *wr, u32 max)
{
	u8 *to = wqe->dma.inline_data;
	u32 len = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		if (wr->sg_list[i].length > max - len)
			return -EINVAL;
		/* Inline data is addressed by the CPU: ib_virt_dma_ops */
		memcpy(to + len, (void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		len += wr->sg_list[i].length;
	}
	wqe->dma.length = len;
	return 0;
}

/* Writes @wr into the slot @wqe, or -EINVAL for what the QP refuses. */
static int sr_post_fill_send(struct sr_qp *qp, struct rxe_send_wqe *wqe,
			     const struct ib_send_wr *wr)
{
	int i;

	if (!sr_req_op_ok(qp, wr->opcode) || wr->num_sge < 0)
		return -EINVAL;
	memset(wqe, 0, sizeof(*wqe));
	sr_post_fill_wr(qp, wqe, wr);
	if (wr->send_flags & IB_SEND_INLINE)
		return sr_post_inline(wqe, wr, qp->max_inline);
	if (wr->num_sge > qp->max_send_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++) {
		wqe->dma.sge[i] = (struct rxe_sge){
			.addr = wr->sg_list[i].addr,
			.length = wr->sg_list[i].length,
			.lkey = wr->sg_list[i].lkey,
		};
		wqe->dma.length += wr->sg_list[i].length;
	}
	wqe->dma.num_sge = wr->num_sge;
	return 0;
}

/* A kernel QP's chain into its SQ; the first refused in *@bad_wr. */
static int sr_post_send_kernel(struct sr_qp *qp, const struct ib_send_wr *wr,
			       const struct ib_send_wr **bad_wr)
{
	unsigned long flags;
	void *slot;
	int ret = 0;

	spin_lock_irqsave(&qp->sq_lock, flags);
	for (; wr; wr = wr->next) {
		slot = sr_queue_next(&qp->sq);
		if (!slot) {
			ret = -ENOMEM;
			break;
		}
		ret = sr_post_fill_send(qp, slot, wr);
		if (ret)
			break;
		sr_queue_produced(&qp->sq);
	}
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	if (ret)
		*bad_wr = wr;
	return ret;
}

/**
 * sr_post_send - the post_send verb, and a user QP's doorbell
 * @ibqp: the QP, in RTS or ERR (flushed)
 * @wr: a kernel consumer's chain; for a user's QP NULL: its WQEs are in
 *	the SQ already
 * @bad_wr: set to the first WR not posted, on failure
 *
 * Posts the chain and runs the requester (sr_req_kick()).  UD (and GSI)
 * sends; RC sends (with invalidate too), writes, reads and atomics; UC
 * sends and writes; on both, LOCAL_INV and REG_MR.
 *
 * Context: any.
 * Return: 0; -EINVAL in RESET, INIT or RTR, or for a WR the QP refuses
 * (its opcode, too many scatter entries or inline bytes); -ENOMEM when
 * the SQ is full.
 */
int sr_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		 const struct ib_send_wr **bad_wr)
{
	struct sr_qp *qp = to_sr_qp(ibqp);
	enum ib_qp_state state = sr_qp_state(qp);
	int ret = 0;

	if (state != IB_QPS_RTS && state != IB_QPS_ERR) {
		*bad_wr = wr;
		return -EINVAL;
	}
	if (!ibqp->uobject)
		ret = sr_post_send_kernel(qp, wr, bad_wr);
	/* What was posted before a refusal goes all the same */
	sr_req_kick(qp);
	return ret;
}

/* Writes a receive WR into a ring's slot, which has room for its entries. */
static void sr_post_fill_recv(struct rxe_recv_wqe *wqe,
			      const struct ib_recv_wr *wr)
{
	u32 len = 0;
	int i;

	wqe->wr_id = wr->wr_id;
	for (i = 0; i < wr->num_sge; i++) {
		wqe->dma.sge[i] = (struct rxe_sge){
			.addr = wr->sg_list[i].addr,
			.length = wr->sg_list[i].length,
			.lkey = wr->sg_list[i].lkey,
		};
		len += wr->sg_list[i].length;
	}
	/* The fixed part of dma only: the scatter list above stays */
	wqe->dma = (struct rxe_dma_info){
		.length = len,
		.resid = len,
		.num_sge = wr->num_sge,
	};
}

/**
 * sr_post_recvs - write a chain of receive WRs into a ring
 * @q: a receive ring (a QP's or an SRQ's) the kernel produces; its
 *	producer end serialized by the caller
 * @max_sge: scatter entries a WQE may have
 * @wr: the chain
 * @bad_wr: set to the first WR not posted, on failure
 *
 * Context: any.
 * Return: 0; -EINVAL for a WR with more than @max_sge entries, -ENOMEM
 * when the ring is full.
 */
int sr_post_recvs(struct sr_queue *q, u32 max_sge,
		  const struct ib_recv_wr *wr, const struct ib_recv_wr **bad_wr)
{
	void *slot;
	int ret = 0;

	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || wr->num_sge > max_sge) {
			ret = -EINVAL;
			break;
		}
		slot = sr_queue_next(q);
		if (!slot) {
			ret = -ENOMEM;
			break;
		}
		sr_post_fill_recv(slot, wr);
		sr_queue_produced(q);
	}
	if (ret)
		*bad_wr = wr;
	return ret;
}

/**
 * sr_post_recv - the post_recv verb, for a kernel QP without an SRQ
 * @ibqp: the QP, not in RESET
 * @wr: a chain of receive WRs
 * @bad_wr: set to the first WR not posted, on failure
 *
 * In ERR the WRs complete flushed, soon (ib_drain_rq() waits for that).
 *
 * Context: any.
 * Return: 0; -EINVAL in RESET, for a QP on an SRQ or for more scatter
 * entries than the QP has; -ENOMEM when the RQ is full.
 */
int sr_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		 const struct ib_recv_wr **bad_wr)
{
	struct sr_qp *qp = to_sr_qp(ibqp);
	unsigned long flags;
	int ret;

	if (ibqp->srq || sr_qp_state(qp) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq_lock, flags);
	ret = sr_post_recvs(&qp->rq, qp->max_recv_sge, wr, bad_wr);
	spin_unlock_irqrestore(&qp->rq_lock, flags);
	/*
	 * The QP's work flushes them: not from here, where a completion
	 * handler the responder called may be posting
	 */
	if (sr_qp_state(qp) == IB_QPS_ERR)
		queue_work(system_wq, &qp->work);
	return ret;
}
