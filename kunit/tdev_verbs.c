// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev verbs: a TEST DOUBLE, not a driver for hardware.
 *
 * CQs, QPs (RC, UC, UD), SRQs, fast-registration and DMA MRs and AHs,
 * just real enough for the KUnit suites to drive ib_core with real work
 * requests.  Two QPs of any tdev talk by QP number: a send work request is
 * executed synchronously inside post_send, copying bytes with memcpy from
 * the sender's SGEs into the receiver's posted receive buffers (or from or
 * to the remote MR for RDMA READ/WRITE), and completions go to both CQs
 * before post_send returns.  There are no threads and no work items; a CQ's
 * completion handler runs in the context of the post.
 *
 * Addresses are kernel virtual addresses: the device has no DMA device, so
 * ib_dma_map_*() hand out virtual addresses (ib_uses_virt_dma()).  Keys:
 * an MR's index in tv_mrs shifted left by 8, plus the low byte its owner
 * chooses with IB_WR_REG_MR; TDEV_LOCAL_DMA_LKEY reaches all of memory
 * for local access.
 *
 * Locking: each CQ, QP and SRQ has a spinlock (IRQ-safe, since posting and
 * polling may happen in any context) over its ring and state.  A QP's lock
 * is never held while another object's lock is taken; completion handlers
 * are called with no lock held.  tv_qps and tv_mrs are xarrays with their
 * own locking.  Lifetime: as the verbs API demands, a consumer does not
 * destroy a QP or MR while work requests use it.
 */
#include <linux/scatterlist.h>
#include <linux/xarray.h>
#include "tdev.h"

#define TV_MAX_WR	1024
#define TV_MAX_SGE	16
#define TV_MAX_CQE	4096
#define TV_MAX_PAGES	256
#define TV_MAX_INLINE	256
#define TV_GRH_LEN	40

/* All QPs of all tdevs by QP number (2..2^24-1; 0 and 1 are special). */
static DEFINE_XARRAY_ALLOC(tv_qps);
/* All MRs by index (the key without its low byte). */
static DEFINE_XARRAY_ALLOC1(tv_mrs);

/**
 * struct tv_cq - a CQ: a ring of completions
 * @ibcq: the core's CQ
 * @lock: protects everything below
 * @ring: @size completions, the oldest at @head
 * @size: the ring's capacity (ibcq.cqe)
 * @head: index of the oldest completion
 * @count: completions in the ring
 * @armed: 0, IB_CQ_NEXT_COMP or IB_CQ_SOLICITED
 * @overflows: completions lost because the ring was full
 * @mod_count: moderation count set with modify_cq (recorded only)
 * @mod_period: moderation period set with modify_cq (recorded only)
 */
struct tv_cq {
	struct ib_cq ibcq;
	spinlock_t lock;
	struct ib_wc *ring;
	u32 size;
	u32 head;
	u32 count;
	u8 armed;
	u32 overflows;
	u16 mod_count;
	u16 mod_period;
};

/* A posted receive work request. */
struct tv_recv {
	u64 wr_id;		/* also the wr_cqe pointer */
	int num_sge;
	struct ib_sge sge[TV_MAX_SGE];
};

/* A ring of posted receives, inside a QP or an SRQ, under its lock. */
struct tv_rq {
	struct tv_recv *ring;
	u32 size;
	u32 head;
	u32 count;
	u32 max_sge;
};

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

/**
 * struct tv_qp - a queue pair
 * @ibqp: the core's QP
 * @lock: protects @state, @attr and @rq
 * @state: the QP state
 * @attr: the attributes set by modify_qp
 * @cap: the granted capabilities
 * @sig_all: every send work request completes (IB_SIGNAL_ALL_WR)
 * @rq: the receive queue (unused with an SRQ)
 */
struct tv_qp {
	struct ib_qp ibqp;
	spinlock_t lock;
	enum ib_qp_state state;
	struct ib_qp_attr attr;
	struct ib_qp_cap cap;
	bool sig_all;
	struct tv_rq rq;
};

/**
 * struct tv_mr - a memory region
 * @ibmr: the core's MR
 * @key: the key the "hardware" holds, for lkey/rkey checks; ibmr's keys run
 *	ahead of it between ib_update_fast_reg_key() and the IB_WR_REG_MR
 * @dma: a DMA MR: all of memory, no page list
 * @valid: a fast-registration MR registered by IB_WR_REG_MR and not
 *	invalidated since
 * @access: access rights (IB_ACCESS_*)
 * @pages: the page list built by map_mr_sg; for an SG_GAPS MR, the start
 *	address of each segment
 * @seg_len: SG_GAPS MRs only: the length of each segment of @pages
 * @npages: pages in @pages
 * @max_pages: capacity of @pages
 *
 * Owned by the consumer, who serialises map, register and invalidate.
 */
struct tv_mr {
	struct ib_mr ibmr;
	u32 key;
	bool dma;
	bool valid;
	int access;
	u64 *pages;
	u32 *seg_len;
	u32 npages;
	u32 max_pages;
};

/* An address handle: its address vector, without a GID reference. */
struct tv_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

static struct tv_cq *to_tcq(struct ib_cq *c) { return container_of(c, struct tv_cq, ibcq); }
static struct tv_qp *to_tqp(struct ib_qp *q) { return container_of(q, struct tv_qp, ibqp); }
static struct tv_srq *to_tsrq(struct ib_srq *s) { return container_of(s, struct tv_srq, ibsrq); }
static struct tv_mr *to_tmr(struct ib_mr *m) { return container_of(m, struct tv_mr, ibmr); }
static struct tv_ah *to_tah(struct ib_ah *a) { return container_of(a, struct tv_ah, ibah); }

/* ---- completion queues ---- */

static void tv_cq_push(struct ib_cq *ibcq, const struct ib_wc *wc,
		       bool solicited)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long flags;
	bool event = false;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count == cq->size) {
		cq->overflows++;
	} else {
		cq->ring[(cq->head + cq->count) % cq->size] = *wc;
		cq->count++;
		if (cq->armed == IB_CQ_NEXT_COMP ||
		    (cq->armed == IB_CQ_SOLICITED && solicited)) {
			cq->armed = 0;
			event = true;
		}
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	if (event && ibcq->comp_handler)
		ibcq->comp_handler(ibcq, ibcq->cq_context);
}

static int tv_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct ib_udata *udata)
{
	struct tv_cq *cq = to_tcq(ibcq);

	if (udata || attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > TV_MAX_CQE)
		return -EINVAL;
	cq->ring = kcalloc(attr->cqe, sizeof(*cq->ring), GFP_KERNEL);
	if (!cq->ring)
		return -ENOMEM;
	spin_lock_init(&cq->lock);
	cq->size = attr->cqe;
	ibcq->cqe = attr->cqe;
	return 0;
}

static int tv_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	kfree(to_tcq(ibcq)->ring);
	return 0;
}

static int tv_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num_entries && cq->count) {
		wc[n++] = cq->ring[cq->head];
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static int tv_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	cq->armed = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->count)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

static int tv_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct tv_cq *cq = to_tcq(ibcq);
	struct ib_wc *ring, *old;
	unsigned long flags;
	u32 i;

	if (cqe < 1 || cqe > TV_MAX_CQE)
		return -EINVAL;
	ring = kcalloc(cqe, sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return -ENOMEM;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count > cqe) {
		spin_unlock_irqrestore(&cq->lock, flags);
		kfree(ring);
		return -EINVAL;
	}
	for (i = 0; i < cq->count; i++)
		ring[i] = cq->ring[(cq->head + i) % cq->size];
	old = cq->ring;
	cq->ring = ring;
	cq->head = 0;
	cq->size = cqe;
	ibcq->cqe = cqe;
	spin_unlock_irqrestore(&cq->lock, flags);
	kfree(old);
	return 0;
}

static int tv_modify_cq(struct ib_cq *ibcq, u16 count, u16 period)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	cq->mod_count = count;
	cq->mod_period = period;
	spin_unlock_irqrestore(&cq->lock, flags);
	return 0;
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

/* ---- memory ---- */

/* Like tv_mem_va() for the bytes at @off of an SG_GAPS MR's segments. */
static void *tv_seg_va(struct tv_mr *mr, u64 off, u32 len, u32 *chunk)
{
	u32 i;

	for (i = 0; i < mr->npages && off >= mr->seg_len[i]; i++)
		off -= mr->seg_len[i];
	if (i == mr->npages)
		return NULL;
	*chunk = min_t(u64, len, mr->seg_len[i] - off);
	return (void *)(uintptr_t)(mr->pages[i] + off);
}

/*
 * The kernel address of [addr, addr + len) under @key in @pd with @access,
 * and in *chunk how many bytes of it are contiguous there; NULL if the key
 * does not grant that.
 */
static void *tv_mem_va(struct ib_pd *pd, u32 key, u64 addr, u32 len,
		       int access, u32 *chunk)
{
	struct tv_mr *mr;
	u64 off, psz;

	*chunk = len;
	if (key == TDEV_LOCAL_DMA_LKEY && key == pd->local_dma_lkey &&
	    !(access & (IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE)))
		return (void *)(uintptr_t)addr;

	mr = xa_load(&tv_mrs, key >> 8);
	if (!mr || mr->ibmr.pd != pd || mr->key != key)
		return NULL;
	if ((access & ~IB_ACCESS_LOCAL_WRITE) & ~mr->access)
		return NULL;
	if (mr->dma)
		return (void *)(uintptr_t)addr;
	if (!mr->valid || addr < mr->ibmr.iova ||
	    addr + len > mr->ibmr.iova + mr->ibmr.length)
		return NULL;

	if (mr->seg_len)
		return tv_seg_va(mr, addr - mr->ibmr.iova, len, chunk);
	psz = mr->ibmr.page_size;
	off = addr - mr->ibmr.iova + (mr->ibmr.iova & (psz - 1));
	*chunk = min_t(u64, len, psz - off % psz);
	return (void *)(uintptr_t)(mr->pages[off / psz] + off % psz);
}

/* A position in a list of SGEs of one PD. */
struct tv_cursor {
	struct ib_pd *pd;
	const struct ib_sge *sge;
	int nsge;
	int idx;
	u32 off;
	int access;
	bool inline_data;	/* addresses are kernel addresses, no key */
};

static u32 tv_sge_total(const struct ib_sge *sge, int n)
{
	u32 sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += sge[i].length;
	return sum;
}

/* Next contiguous piece of the cursor, at most @max bytes; NULL on error. */
static void *tv_cursor_next(struct tv_cursor *c, u32 max, u32 *len)
{
	const struct ib_sge *s;
	void *va;
	u32 n;

	while (c->idx < c->nsge && c->off == c->sge[c->idx].length) {
		c->idx++;
		c->off = 0;
	}
	if (c->idx == c->nsge)
		return NULL;
	s = &c->sge[c->idx];
	n = min(max, s->length - c->off);
	if (c->inline_data) {
		va = (void *)(uintptr_t)(s->addr + c->off);
	} else {
		va = tv_mem_va(c->pd, s->lkey, s->addr + c->off, n, c->access,
			       &n);
		if (!va)
			return NULL;
	}
	*len = n;
	c->off += n;
	return va;
}

enum tv_copy_result { TV_COPY_OK, TV_COPY_SRC_ERR, TV_COPY_DST_ERR };

static enum tv_copy_result tv_copy(struct tv_cursor *dst,
				   struct tv_cursor *src, u32 len)
{
	while (len) {
		u32 sn, dn;
		void *s = tv_cursor_next(src, len, &sn);
		void *d;

		if (!s)
			return TV_COPY_SRC_ERR;
		d = tv_cursor_next(dst, sn, &dn);
		if (!d)
			return TV_COPY_DST_ERR;
		/* Give back what the destination could not take at once */
		src->off -= sn - dn;
		memcpy(d, s, dn);
		len -= dn;
	}
	return TV_COPY_OK;
}

/* Skips @len bytes of a cursor (the GRH room of a UD receive). */
static void *tv_cursor_skip(struct tv_cursor *c, u32 len)
{
	u32 n;
	void *va = tv_cursor_next(c, len, &n);

	return va && n == len ? va : NULL;
}

/* ---- queue pairs ---- */

/* All tdevs share one fabric: a QP number names a QP of any of them. */
static struct tv_qp *tv_qp_lookup(u32 qpn)
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

/* Moves a QP to the error state and flushes its receive queue. */
static void tv_qp_error(struct tv_qp *qp)
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

static enum ib_qp_state tv_qp_state(struct tv_qp *qp)
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

/* Takes the next receive of @qp (from its SRQ if it has one). */
static bool tv_take_recv(struct tv_qp *qp, struct tv_recv *r)
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

/* ---- memory regions ---- */

static struct tv_mr *tv_mr_new(struct ib_pd *pd, int access)
{
	struct tv_mr *mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	u32 idx;

	if (!mr)
		return NULL;
	if (xa_alloc(&tv_mrs, &idx, mr, XA_LIMIT(1, 0xffffff), GFP_KERNEL)) {
		kfree(mr);
		return NULL;
	}
	mr->access = access;
	mr->key = idx << 8;
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	return mr;
}

static struct ib_mr *tv_get_dma_mr(struct ib_pd *pd, int access)
{
	struct tv_mr *mr = tv_mr_new(pd, access);

	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->dma = true;
	/* tv_mem_va() compares the PD before the core sets ibmr.pd */
	mr->ibmr.pd = pd;
	return &mr->ibmr;
}

static struct ib_mr *tv_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
				 u32 max_num_sg)
{
	struct tv_mr *mr;

	if (type != IB_MR_TYPE_MEM_REG && type != IB_MR_TYPE_SG_GAPS)
		return ERR_PTR(-EINVAL);
	if (!max_num_sg || max_num_sg > TV_MAX_PAGES)
		return ERR_PTR(-EINVAL);
	mr = tv_mr_new(pd, 0);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->pages = kcalloc(max_num_sg, sizeof(*mr->pages), GFP_KERNEL);
	if (type == IB_MR_TYPE_SG_GAPS)
		mr->seg_len = kcalloc(max_num_sg, sizeof(*mr->seg_len),
				      GFP_KERNEL);
	if (!mr->pages || (type == IB_MR_TYPE_SG_GAPS && !mr->seg_len)) {
		xa_erase(&tv_mrs, mr->ibmr.lkey >> 8);
		kfree(mr->seg_len);
		kfree(mr->pages);
		kfree(mr);
		return ERR_PTR(-ENOMEM);
	}
	mr->max_pages = max_num_sg;
	return &mr->ibmr;
}

static int tv_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct tv_mr *mr = to_tmr(ibmr);

	xa_erase(&tv_mrs, ibmr->lkey >> 8);
	kfree(mr->seg_len);
	kfree(mr->pages);
	kfree(mr);
	return 0;
}

static int tv_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct tv_mr *mr = to_tmr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

/*
 * An SG_GAPS MR maps each element as a segment of its own, whatever its
 * alignment; the MR's addresses run on from one segment to the next.
 */
static int tv_map_gaps(struct tv_mr *mr, struct scatterlist *sgl,
		       int sg_nents, unsigned int *sg_offset)
{
	unsigned int skip = sg_offset ? *sg_offset : 0;
	struct scatterlist *sg;
	int i;

	mr->ibmr.length = 0;
	for_each_sg(sgl, sg, sg_nents, i) {
		if (i == mr->max_pages || sg_dma_len(sg) <= skip)
			break;
		mr->pages[i] = sg_dma_address(sg) + skip;
		mr->seg_len[i] = sg_dma_len(sg) - skip;
		mr->ibmr.length += mr->seg_len[i];
		skip = 0;
	}
	mr->npages = i;
	if (i)
		mr->ibmr.iova = mr->pages[0];
	return i;
}

static int tv_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
			int sg_nents, unsigned int *sg_offset)
{
	struct tv_mr *mr = to_tmr(ibmr);

	mr->npages = 0;
	if (mr->seg_len)
		return tv_map_gaps(mr, sg, sg_nents, sg_offset);
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, tv_set_page);
}

/* ---- address handles ---- */

static int tv_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct tv_ah *ah = to_tah(ibah);

	if (udata)
		return -EOPNOTSUPP;
	if (!rdma_is_port_valid(ibah->device,
				rdma_ah_get_port_num(init->ah_attr)))
		return -EINVAL;
	ah->attr = *init->ah_attr;
	ah->attr.grh.sgid_attr = NULL;
	return 0;
}

static int tv_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

static int tv_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_tah(ibah)->attr;
	return 0;
}

/* ---- the send side: work requests executed at post time ---- */

/* The sender's completion opcode of each work request opcode (0: SEND). */
static const u8 tv_wc_opcodes[] = {
	[IB_WR_RDMA_WRITE]		= IB_WC_RDMA_WRITE,
	[IB_WR_RDMA_WRITE_WITH_IMM]	= IB_WC_RDMA_WRITE,
	[IB_WR_RDMA_READ]		= IB_WC_RDMA_READ,
	[IB_WR_REG_MR]			= IB_WC_REG_MR,
	[IB_WR_LOCAL_INV]		= IB_WC_LOCAL_INV,
};

static enum ib_wc_opcode tv_wc_opcode(enum ib_wr_opcode op)
{
	return op < ARRAY_SIZE(tv_wc_opcodes) ? tv_wc_opcodes[op] : IB_WC_SEND;
}

static bool tv_opcode_ok(enum ib_qp_type type, enum ib_wr_opcode op)
{
	switch (op) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		return true;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_REG_MR:
	case IB_WR_LOCAL_INV:
		return type != IB_QPT_UD;
	case IB_WR_RDMA_READ:
		return type == IB_QPT_RC;
	default:
		return false;
	}
}

static struct tv_cursor tv_local(struct tv_qp *qp, const struct ib_send_wr *wr,
				 int access)
{
	return (struct tv_cursor){
		.pd = qp->ibqp.pd,
		.sge = wr->sg_list,
		.nsge = wr->num_sge,
		.access = access,
		.inline_data = !!(wr->send_flags & IB_SEND_INLINE),
	};
}

static bool tv_invalidate(struct ib_pd *pd, u32 key)
{
	struct tv_mr *mr = xa_load(&tv_mrs, key >> 8);

	if (!mr || mr->dma || mr->ibmr.pd != pd || mr->key != key)
		return false;
	mr->valid = false;
	return true;
}

/* Writes a GRH for a UD message sent with @ah into the receiver's room. */
static void tv_fill_grh(struct ib_grh *grh, const struct ib_ah *ah, u32 len)
{
	const struct rdma_ah_attr *a = &to_tah((struct ib_ah *)ah)->attr;

	memset(grh, 0, sizeof(*grh));
	grh->version_tclass_flow = cpu_to_be32(6 << 28 |
					       a->grh.traffic_class << 20 |
					       a->grh.flow_label);
	grh->paylen = cpu_to_be16(len);
	grh->next_hdr = 0x1b;
	grh->hop_limit = a->grh.hop_limit;
	if (ah->sgid_attr)
		grh->sgid = ah->sgid_attr->gid;
	grh->dgid = a->grh.dgid;
}

/* Delivers a message of @len bytes (a SEND, or a WRITE's immediate) to
 * @peer; returns the sender's status.
 */
static enum ib_wc_status tv_deliver(struct tv_qp *qp, struct tv_qp *peer,
				    const struct ib_send_wr *wr, u32 len,
				    bool has_data)
{
	bool ud = qp->ibqp.qp_type == IB_QPT_UD;
	struct ib_wc rwc = {
		.status = IB_WC_SUCCESS,
		.opcode = has_data ? IB_WC_RECV : IB_WC_RECV_RDMA_WITH_IMM,
		.qp = &peer->ibqp,
		.src_qp = qp->ibqp.qp_num,
		.port_num = peer->attr.port_num,
		.pkey_index = peer->attr.pkey_index,
		.slid = qp->attr.port_num,
	};
	struct tv_cursor dst;
	struct tv_recv r;
	u32 room;

	if (!tv_take_recv(peer, &r))
		return ud ? IB_WC_SUCCESS : IB_WC_RNR_RETRY_EXC_ERR;
	rwc.wr_id = r.wr_id;

	dst = (struct tv_cursor){ .pd = peer->ibqp.pd, .sge = r.sge,
				  .nsge = r.num_sge,
				  .access = IB_ACCESS_LOCAL_WRITE };
	room = tv_sge_total(r.sge, r.num_sge);
	if (ud) {
		const struct ib_ah *ah = ud_wr(wr)->ah;
		void *grh = room >= TV_GRH_LEN ?
			    tv_cursor_skip(&dst, TV_GRH_LEN) : NULL;

		if (!grh) {
			rwc.status = IB_WC_LOC_LEN_ERR;
			goto out;
		}
		if (rdma_ah_get_ah_flags(&to_tah((struct ib_ah *)ah)->attr) &
		    IB_AH_GRH) {
			tv_fill_grh(grh, ah, len);
			rwc.wc_flags |= IB_WC_GRH;
		}
		room -= TV_GRH_LEN;
		rwc.byte_len = TV_GRH_LEN;
	}
	if (len > room) {
		rwc.status = IB_WC_LOC_LEN_ERR;
	} else if (has_data) {
		struct tv_cursor src = tv_local(qp, wr, 0);

		if (tv_copy(&dst, &src, len) != TV_COPY_OK)
			rwc.status = IB_WC_LOC_PROT_ERR;
	}
	rwc.byte_len += len;
	if (wr->opcode == IB_WR_SEND_WITH_IMM ||
	    wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		rwc.wc_flags |= IB_WC_WITH_IMM;
		rwc.ex.imm_data = wr->ex.imm_data;
	} else if (wr->opcode == IB_WR_SEND_WITH_INV && !rwc.status) {
		if (tv_invalidate(peer->ibqp.pd, wr->ex.invalidate_rkey)) {
			rwc.wc_flags |= IB_WC_WITH_INVALIDATE;
			rwc.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		} else {
			rwc.status = IB_WC_REM_INV_REQ_ERR;
		}
	}
out:
	tv_cq_push(peer->ibqp.recv_cq, &rwc,
		   wr->send_flags & IB_SEND_SOLICITED);
	if (rwc.status == IB_WC_SUCCESS)
		return IB_WC_SUCCESS;
	tv_qp_error(peer);
	if (ud)
		return IB_WC_SUCCESS;
	return rwc.status == IB_WC_LOC_LEN_ERR ? IB_WC_REM_INV_REQ_ERR :
						 IB_WC_REM_OP_ERR;
}

/* The peer of a connected QP, or of a UD work request; NULL if none. */
static struct tv_qp *tv_peer(struct tv_qp *qp, const struct ib_send_wr *wr)
{
	struct tv_qp *peer;
	enum ib_qp_state s;
	u32 qpn;

	qpn = qp->ibqp.qp_type == IB_QPT_UD ? ud_wr(wr)->remote_qpn :
					      qp->attr.dest_qp_num;
	peer = tv_qp_lookup(qpn);
	if (!peer || peer->ibqp.qp_type != qp->ibqp.qp_type)
		return NULL;
	s = tv_qp_state(peer);
	if (s != IB_QPS_RTR && s != IB_QPS_RTS && s != IB_QPS_SQD)
		return NULL;
	if (qp->ibqp.qp_type == IB_QPT_UD &&
	    ud_wr(wr)->remote_qkey != peer->attr.qkey)
		return NULL;
	return peer;
}

static enum ib_wc_status tv_exec_rdma(struct tv_qp *qp, struct tv_qp *peer,
				      const struct ib_send_wr *wr, u32 len)
{
	const struct ib_rdma_wr *rw = rdma_wr(wr);
	struct ib_sge remote = {
		.addr = rw->remote_addr, .length = len, .lkey = rw->rkey,
	};
	struct tv_cursor far = { .pd = peer->ibqp.pd, .sge = &remote,
				 .nsge = 1 };
	struct tv_cursor near;
	enum tv_copy_result res;

	if (wr->opcode == IB_WR_RDMA_READ) {
		near = tv_local(qp, wr, IB_ACCESS_LOCAL_WRITE);
		far.access = IB_ACCESS_REMOTE_READ;
		res = tv_copy(&near, &far, len);
		if (res == TV_COPY_SRC_ERR)
			return IB_WC_REM_ACCESS_ERR;
	} else {
		near = tv_local(qp, wr, 0);
		far.access = IB_ACCESS_REMOTE_WRITE;
		res = tv_copy(&far, &near, len);
		if (res == TV_COPY_DST_ERR)
			return IB_WC_REM_ACCESS_ERR;
	}
	if (res != TV_COPY_OK)
		return IB_WC_LOC_PROT_ERR;
	if (wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		return tv_deliver(qp, peer, wr, len, false);
	return IB_WC_SUCCESS;
}

static enum ib_wc_status tv_exec_reg(struct tv_qp *qp,
				     const struct ib_reg_wr *reg)
{
	struct tv_mr *mr = to_tmr(reg->mr);

	if (mr->dma || reg->mr->pd != qp->ibqp.pd ||
	    (reg->key >> 8) != (reg->mr->lkey >> 8))
		return IB_WC_MW_BIND_ERR;
	mr->key = reg->key;
	mr->ibmr.lkey = reg->key;
	mr->ibmr.rkey = reg->key;
	mr->access = reg->access;
	mr->valid = true;
	return IB_WC_SUCCESS;
}

static enum ib_wc_status tv_exec(struct tv_qp *qp, const struct ib_send_wr *wr,
				 u32 *byte_len)
{
	u32 len = tv_sge_total(wr->sg_list, wr->num_sge);
	struct tv_qp *peer;

	*byte_len = len;
	switch (wr->opcode) {
	case IB_WR_REG_MR:
		return tv_exec_reg(qp, reg_wr(wr));
	case IB_WR_LOCAL_INV:
		return tv_invalidate(qp->ibqp.pd, wr->ex.invalidate_rkey) ?
		       IB_WC_SUCCESS : IB_WC_LOC_PROT_ERR;
	default:
		break;
	}

	peer = tv_peer(qp, wr);
	if (!peer)
		return qp->ibqp.qp_type == IB_QPT_UD ? IB_WC_SUCCESS :
						       IB_WC_RETRY_EXC_ERR;
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		return tv_exec_rdma(qp, peer, wr, len);
	default:
		return tv_deliver(qp, peer, wr, len, true);
	}
}

static int tv_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			const struct ib_send_wr **bad_wr)
{
	struct tv_qp *qp = to_tqp(ibqp);

	for (; wr; wr = wr->next) {
		enum ib_qp_state s = tv_qp_state(qp);
		struct ib_wc wc = {
			.wr_id = wr->wr_id,
			.opcode = tv_wc_opcode(wr->opcode),
			.qp = ibqp,
		};

		if (!tv_opcode_ok(ibqp->qp_type, wr->opcode) ||
		    wr->num_sge < 0 || wr->num_sge > qp->cap.max_send_sge ||
		    (s != IB_QPS_RTS && s != IB_QPS_ERR)) {
			*bad_wr = wr;
			return -EINVAL;
		}
		if (s == IB_QPS_ERR)
			wc.status = IB_WC_WR_FLUSH_ERR;
		else
			wc.status = tv_exec(qp, wr, &wc.byte_len);

		if (wc.status || qp->sig_all ||
		    (wr->send_flags & IB_SEND_SIGNALED))
			tv_cq_push(ibqp->send_cq, &wc, false);
		if (wc.status && s != IB_QPS_ERR)
			tv_qp_error(qp);
	}
	return 0;
}

const struct ib_device_ops tdev_verbs_ops = {
	.create_cq = tv_create_cq,
	.destroy_cq = tv_destroy_cq,
	.poll_cq = tv_poll_cq,
	.req_notify_cq = tv_req_notify_cq,
	.resize_cq = tv_resize_cq,
	.modify_cq = tv_modify_cq,
	.create_qp = tv_create_qp,
	.destroy_qp = tv_destroy_qp,
	.modify_qp = tv_modify_qp,
	.query_qp = tv_query_qp,
	.post_send = tv_post_send,
	.post_recv = tv_post_recv,
	.create_srq = tv_create_srq,
	.destroy_srq = tv_destroy_srq,
	.modify_srq = tv_modify_srq,
	.query_srq = tv_query_srq,
	.post_srq_recv = tv_post_srq_recv,
	.get_dma_mr = tv_get_dma_mr,
	.alloc_mr = tv_alloc_mr,
	.dereg_mr = tv_dereg_mr,
	.map_mr_sg = tv_map_mr_sg,
	.create_ah = tv_create_ah,
	.destroy_ah = tv_destroy_ah,
	.query_ah = tv_query_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, tv_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, tv_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, tv_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, tv_srq, ibsrq),
};
