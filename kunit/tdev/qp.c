// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: queue pairs (RC, UC, UD), shared receive queues and the
 * receive rings inside both.
 *
 * Owns the QP state machine as the double sees it (modify_qp checks the
 * core's ib_modify_qp_is_ok() and records the attributes), the receive
 * side of posting (post_recv, post_srq_recv), flushing on the error state,
 * and tv_qps, the table that datapath.c finds a peer QP in by number.
 *
 * Locking: each QP and SRQ has a spinlock, IRQ-safe since posting may
 * happen in any context, over its state, attributes and receive ring.  No
 * other lock is taken under it: flushed completions and the SRQ limit event
 * are delivered after it is dropped.  tv_qps is an xarray with its own
 * locking.
 */
#include <linux/slab.h>
#include <linux/xarray.h>
#include "tdev_priv.h"

#define TV_MAX_INLINE	256

/* All QPs of all tdevs by QP number (2..2^24-1; 0 and 1 are special). */
static DEFINE_XARRAY_ALLOC(tv_qps);

/**
 * struct tv_srq - a shared receive queue
 * @ibsrq: the core's SRQ
 * @lock: protects @rq and @limit
 * @rq: the posted receives
 * @limit: SRQ limit; 0 when not armed
 */
struct tv_srq {
	struct ib_srq ibsrq;
	spinlock_t lock;
	struct tv_rq rq;
	u32 limit;
};

static struct tv_srq *to_tsrq(struct ib_srq *s)
{
	return container_of(s, struct tv_srq, ibsrq);
}

/* ---- receive rings ---- */

static int tv_rq_init(struct tv_rq *rq, u32 size, u32 max_sge)
{
	rq->ring = kcalloc(size, sizeof(*rq->ring), GFP_KERNEL);
	if (!rq->ring)
		return -ENOMEM;
	rq->size = size;
	rq->max_sge = max_sge;
	return 0;
}

static int tv_rq_post(struct tv_rq *rq, const struct ib_recv_wr *wr)
{
	struct tv_recv *r;

	if (wr->num_sge < 0 || wr->num_sge > rq->max_sge)
		return -EINVAL;
	if (rq->count == rq->size)
		return -ENOMEM;
	r = &rq->ring[(rq->head + rq->count) % rq->size];
	r->wr_id = wr->wr_id;
	r->num_sge = wr->num_sge;
	memcpy(r->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
	rq->count++;
	return 0;
}

static bool tv_rq_take(struct tv_rq *rq, struct tv_recv *out)
{
	if (!rq->count)
		return false;
	*out = rq->ring[rq->head];
	rq->head = (rq->head + 1) % rq->size;
	rq->count--;
	return true;
}

/* ---- queue pairs ---- */

/**
 * tv_qp_lookup - the QP with a QP number
 * @qpn: the QP number
 *
 * All tdevs share one fabric: a QP number names a QP of any of them, so
 * QPs of two devices talk to each other.
 *
 * Return: the QP, or NULL.
 */
struct tv_qp *tv_qp_lookup(u32 qpn)
{
	return xa_load(&tv_qps, qpn);
}

static void tv_flush_recv(struct tv_qp *qp, const struct tv_recv *r)
{
	struct ib_wc wc = {
		.wr_id = r->wr_id,
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
	};

	tv_cq_push(qp->ibqp.recv_cq, &wc, false);
}

/**
 * tv_qp_error - move a QP to the error state and flush its receive queue
 * @qp: the QP; its lock not held
 */
void tv_qp_error(struct tv_qp *qp)
{
	struct tv_recv r;
	unsigned long flags;
	bool more;

	spin_lock_irqsave(&qp->lock, flags);
	qp->state = IB_QPS_ERR;
	spin_unlock_irqrestore(&qp->lock, flags);

	if (qp->ibqp.srq)
		return;
	do {
		spin_lock_irqsave(&qp->lock, flags);
		more = tv_rq_take(&qp->rq, &r);
		spin_unlock_irqrestore(&qp->lock, flags);
		if (more)
			tv_flush_recv(qp, &r);
	} while (more);
}

/**
 * tv_qp_state - the current state of a QP
 * @qp: the QP; its lock not held
 *
 * Return: the state.
 */
enum ib_qp_state tv_qp_state(struct tv_qp *qp)
{
	unsigned long flags;
	enum ib_qp_state s;

	spin_lock_irqsave(&qp->lock, flags);
	s = qp->state;
	spin_unlock_irqrestore(&qp->lock, flags);
	return s;
}

static int tv_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			struct ib_udata *udata)
{
	struct tv_qp *qp = to_tqp(ibqp);
	struct ib_qp_cap *cap = &init->cap;
	u32 qpn;
	int ret;

	if (udata || init->create_flags)
		return -EOPNOTSUPP;
	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UC &&
	    init->qp_type != IB_QPT_UD)
		return -EOPNOTSUPP;
	if (cap->max_send_wr > TV_MAX_WR || cap->max_recv_wr > TV_MAX_WR ||
	    cap->max_send_sge > TV_MAX_SGE || cap->max_recv_sge > TV_MAX_SGE ||
	    cap->max_inline_data > TV_MAX_INLINE)
		return -EINVAL;

	spin_lock_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	if (!init->srq) {
		ret = tv_rq_init(&qp->rq, max(cap->max_recv_wr, 1U),
				 cap->max_recv_sge);
		if (ret)
			return ret;
	}
	ret = xa_alloc(&tv_qps, &qpn, qp, XA_LIMIT(2, 0xffffff), GFP_KERNEL);
	if (ret) {
		kfree(qp->rq.ring);
		return ret;
	}
	ibqp->qp_num = qpn;
	qp->cap = *cap;
	return 0;
}

static int tv_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct tv_qp *qp = to_tqp(ibqp);

	xa_erase(&tv_qps, ibqp->qp_num);
	kfree(qp->rq.ring);
	return 0;
}

/* Copies the attributes @mask names into the QP's; under qp->lock. */
static void tv_qp_store_attr(struct tv_qp *qp, const struct ib_qp_attr *a,
			     int mask)
{
	struct ib_qp_attr *s = &qp->attr;

	if (mask & IB_QP_ACCESS_FLAGS)
		s->qp_access_flags = a->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		s->pkey_index = a->pkey_index;
	if (mask & IB_QP_PORT)
		s->port_num = a->port_num;
	if (mask & IB_QP_QKEY)
		s->qkey = a->qkey;
	if (mask & IB_QP_AV) {
		s->ah_attr = a->ah_attr;
		s->ah_attr.grh.sgid_attr = NULL;
	}
	if (mask & IB_QP_PATH_MTU)
		s->path_mtu = a->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		s->timeout = a->timeout;
	if (mask & IB_QP_RETRY_CNT)
		s->retry_cnt = a->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		s->rnr_retry = a->rnr_retry;
	if (mask & IB_QP_RQ_PSN)
		s->rq_psn = a->rq_psn;
	if (mask & IB_QP_SQ_PSN)
		s->sq_psn = a->sq_psn;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		s->max_rd_atomic = a->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		s->max_dest_rd_atomic = a->max_dest_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		s->min_rnr_timer = a->min_rnr_timer;
	if (mask & IB_QP_DEST_QPN)
		s->dest_qp_num = a->dest_qp_num;
}

static int tv_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_udata *udata)
{
	struct tv_qp *qp = to_tqp(ibqp);
	enum ib_qp_state cur, next;
	unsigned long flags;

	if (udata)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PORT) &&
	    (attr->port_num < 1 || attr->port_num > ibqp->device->phys_port_cnt))
		return -EINVAL;

	spin_lock_irqsave(&qp->lock, flags);
	cur = qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask) ||
	    ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur)) {
		spin_unlock_irqrestore(&qp->lock, flags);
		return -EINVAL;
	}
	tv_qp_store_attr(qp, attr, mask);
	qp->state = next;
	if (next == IB_QPS_RESET) {
		qp->rq.head = 0;
		qp->rq.count = 0;
	}
	spin_unlock_irqrestore(&qp->lock, flags);

	if (next == IB_QPS_ERR && cur != IB_QPS_ERR)
		tv_qp_error(qp);
	return 0;
}

static int tv_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		       struct ib_qp_init_attr *init)
{
	struct tv_qp *qp = to_tqp(ibqp);
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->cap = qp->cap;
	spin_unlock_irqrestore(&qp->lock, flags);

	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = qp->cap;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

static int tv_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			const struct ib_recv_wr **bad_wr)
{
	struct tv_qp *qp = to_tqp(ibqp);
	unsigned long flags;
	int ret = 0;

	for (; wr; wr = wr->next) {
		bool flush = false;

		spin_lock_irqsave(&qp->lock, flags);
		if (ibqp->srq || qp->state == IB_QPS_RESET)
			ret = -EINVAL;
		else if (qp->state == IB_QPS_ERR)
			flush = true;
		else
			ret = tv_rq_post(&qp->rq, wr);
		spin_unlock_irqrestore(&qp->lock, flags);
		if (ret) {
			*bad_wr = wr;
			return ret;
		}
		if (flush) {
			struct tv_recv r = { .wr_id = wr->wr_id };

			tv_flush_recv(qp, &r);
		}
	}
	return 0;
}

/* ---- shared receive queues ---- */

static int tv_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
			 struct ib_udata *udata)
{
	struct tv_srq *srq = to_tsrq(ibsrq);

	if (udata || init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!init->attr.max_wr || init->attr.max_wr > TV_MAX_WR ||
	    init->attr.max_sge > TV_MAX_SGE ||
	    init->attr.srq_limit > init->attr.max_wr)
		return -EINVAL;
	spin_lock_init(&srq->lock);
	srq->limit = init->attr.srq_limit;
	return tv_rq_init(&srq->rq, init->attr.max_wr, init->attr.max_sge);
}

static int tv_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	kfree(to_tsrq(ibsrq)->rq.ring);
	return 0;
}

static int tv_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			 enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct tv_srq *srq = to_tsrq(ibsrq);
	unsigned long flags;
	int ret = 0;

	if (mask & IB_SRQ_MAX_WR)	/* fixed size: resizing unsupported */
		return -EOPNOTSUPP;
	spin_lock_irqsave(&srq->lock, flags);
	if ((mask & IB_SRQ_LIMIT) && attr->srq_limit > srq->rq.size)
		ret = -EINVAL;
	else if (mask & IB_SRQ_LIMIT)
		srq->limit = attr->srq_limit;
	spin_unlock_irqrestore(&srq->lock, flags);
	return ret;
}

static int tv_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct tv_srq *srq = to_tsrq(ibsrq);
	unsigned long flags;

	spin_lock_irqsave(&srq->lock, flags);
	attr->max_wr = srq->rq.size;
	attr->max_sge = srq->rq.max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_irqrestore(&srq->lock, flags);
	return 0;
}

static int tv_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			    const struct ib_recv_wr **bad_wr)
{
	struct tv_srq *srq = to_tsrq(ibsrq);
	unsigned long flags;
	int ret;

	for (; wr; wr = wr->next) {
		spin_lock_irqsave(&srq->lock, flags);
		ret = tv_rq_post(&srq->rq, wr);
		spin_unlock_irqrestore(&srq->lock, flags);
		if (ret) {
			*bad_wr = wr;
			return ret;
		}
	}
	return 0;
}

/**
 * tv_take_recv - take the next posted receive of a QP
 * @qp: the receiving QP; from its SRQ if it has one
 * @r: where the receive goes
 *
 * Taking an SRQ below its armed limit disarms it and calls the SRQ's
 * event handler with IB_EVENT_SRQ_LIMIT_REACHED, no lock held.
 *
 * Return: true if there was a receive.
 */
bool tv_take_recv(struct tv_qp *qp, struct tv_recv *r)
{
	struct ib_srq *ibsrq = qp->ibqp.srq;
	unsigned long flags;
	bool got, limit = false;

	if (!ibsrq) {
		spin_lock_irqsave(&qp->lock, flags);
		got = tv_rq_take(&qp->rq, r);
		spin_unlock_irqrestore(&qp->lock, flags);
		return got;
	}

	spin_lock_irqsave(&to_tsrq(ibsrq)->lock, flags);
	got = tv_rq_take(&to_tsrq(ibsrq)->rq, r);
	if (got && to_tsrq(ibsrq)->limit &&
	    to_tsrq(ibsrq)->rq.count < to_tsrq(ibsrq)->limit) {
		to_tsrq(ibsrq)->limit = 0;
		limit = true;
	}
	spin_unlock_irqrestore(&to_tsrq(ibsrq)->lock, flags);

	if (limit && ibsrq->event_handler) {
		struct ib_event ev = {
			.device = ibsrq->device,
			.element.srq = ibsrq,
			.event = IB_EVENT_SRQ_LIMIT_REACHED,
		};

		ibsrq->event_handler(&ev, ibsrq->srq_context);
	}
	return got;
}

const struct ib_device_ops tdev_qp_ops = {
	.create_qp = tv_create_qp,
	.destroy_qp = tv_destroy_qp,
	.modify_qp = tv_modify_qp,
	.query_qp = tv_query_qp,
	.post_recv = tv_post_recv,
	.create_srq = tv_create_srq,
	.destroy_srq = tv_destroy_srq,
	.modify_srq = tv_modify_srq,
	.query_srq = tv_query_srq,
	.post_srq_recv = tv_post_srq_recv,

	INIT_RDMA_OBJ_SIZE(ib_qp, tv_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, tv_srq, ibsrq),
};
