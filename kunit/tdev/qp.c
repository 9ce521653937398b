// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: queue pairs (RC, UC, UD, and each port's QP0 and QP1),
 * shared receive queues and the rings inside both.
 *
 * Owns the QP state machine of the "hardware" (its own: a state moves
 * along the edges a QP can take; which attributes a transition needs is
 * the consumer's business, as the core's ib_modify_qp_is_ok() says), the
 * posting of work requests into the rings, the engine's run of a QP
 * (executing its send queue through exec.c, or flushing both queues in
 * the error state) and the affiliated asynchronous events: QP_FATAL on
 * demand, LAST_WQE_REACHED when a QP on an SRQ enters the error state,
 * COMM_EST (raised by exec.c), SRQ_LIMIT_REACHED.
 *
 * Locking: each QP and SRQ has a spinlock, IRQ-safe since the engine runs
 * in any context, over its state, attributes and rings (lock order in
 * tdev_priv.h).  tv_qps is an xarray whose IRQ-safe lock also guards
 * taking a reference on a QP found in it, and the ports' QP0 and QP1
 * slots (struct tdev_port.sqp).
 */
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include "tdev_priv.h"

#define TV_QP_BUDGET	32	/* work requests one run of a QP executes */

/* All QPs of all tdevs by QP number (2..2^24-1; 0 and 1 are special). */
static DEFINE_XARRAY_FLAGS(tv_qps, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);

/**
 * struct tv_srq - a shared receive queue
 * @ibsrq: the core's SRQ
 * @lock: protects @rq and @limit
 * @rq: the posted receives; a slot is free again once consumed
 * @limit: SRQ limit; 0 when not armed
 */
struct tv_srq {
	struct ib_srq ibsrq;
	spinlock_t lock;
	struct tv_ring rq;
	u32 limit;
};

static struct tv_srq *to_tsrq(struct ib_srq *s)
{
	return container_of(s, struct tv_srq, ibsrq);
}

/* ---- rings ---- */

static int tv_ring_init(struct tv_ring *r, u32 size, u32 stride, u32 max_sge)
{
	r->buf = kvcalloc(size, stride, GFP_KERNEL);
	if (!r->buf)
		return -ENOMEM;
	r->size = size;
	r->stride = stride;
	r->max_sge = max_sge;
	r->head = 0;
	r->next = 0;
	r->tail = 0;
	return 0;
}

static void tv_ring_reset(struct tv_ring *r)
{
	r->head = 0;
	r->next = 0;
	/* Pairs with tv_ring_room(); polling is done with the ring by now */
	smp_store_release(&r->tail, 0);
}

/* Slots of @r that are free; under the owner's lock. */
static u32 tv_ring_room(const struct tv_ring *r, bool freed_when_polled)
{
	/* Pairs with tv_ring_retire(): the slots before tail are reusable */
	u32 used = r->head - (freed_when_polled ? smp_load_acquire(&r->tail) :
			      r->next);

	return r->size - used;
}

/**
 * tv_ring_retire - a completion of a ring's work request was polled
 * @qp: the QP
 * @ring: TV_RING_SQ or TV_RING_RQ
 * @index: the work request's index: its slot and all before are free
 *
 * Called by CQ polling under the CQ's lock.
 */
void tv_ring_retire(struct tv_qp *qp, enum tv_ring_id ring, u32 index)
{
	struct tv_ring *r = ring == TV_RING_SQ ? &qp->sq : &qp->rq;

	/* The poller is done with the slots: tv_ring_room() may reuse them */
	smp_store_release(&r->tail, index + 1);
}

/* ---- finding QPs ---- */

/**
 * tv_qp_get - the QP with a number, with a reference
 * @qpn: the QP number
 *
 * Any context.
 *
 * Return: the QP (release it with tv_qp_put()), or NULL.
 */
struct tv_qp *tv_qp_get(u32 qpn)
{
	struct tv_qp *qp;
	unsigned long flags;

	xa_lock_irqsave(&tv_qps, flags);
	qp = xa_load(&tv_qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->sched.ref))
		qp = NULL;
	xa_unlock_irqrestore(&tv_qps, flags);
	return qp;
}

/**
 * tv_sqp_get - a port's QP0 or QP1, with a reference
 * @td: the device
 * @port: its port
 * @qpn: 0 or 1
 *
 * Any context.
 *
 * Return: the QP (release it with tv_qp_put()), or NULL.
 */
struct tv_qp *tv_sqp_get(struct tdev *td, u32 port, u32 qpn)
{
	struct tv_qp *qp;
	unsigned long flags;

	xa_lock_irqsave(&tv_qps, flags);
	qp = td->port[port].sqp[qpn];
	if (qp && !refcount_inc_not_zero(&qp->sched.ref))
		qp = NULL;
	xa_unlock_irqrestore(&tv_qps, flags);
	return qp;
}

/**
 * tv_is_datagram - whether QPs of a type send datagrams
 * @type: the QP type
 *
 * Return: true for UD QPs and the special QPs (SMI, GSI).
 */
bool tv_is_datagram(enum ib_qp_type type)
{
	return type == IB_QPT_UD || type == IB_QPT_GSI || type == IB_QPT_SMI;
}

/**
 * tv_qp_put - release a reference of tv_qp_get()
 * @qp: the QP
 */
void tv_qp_put(struct tv_qp *qp)
{
	if (refcount_dec_and_test(&qp->sched.ref))
		complete(&qp->sched.idle);
}

/**
 * tv_qp_can_receive - whether a QP in a state accepts incoming messages
 * @s: the state
 *
 * Return: true in RTR, RTS, SQD and SQE (only the send queue of a QP in
 * SQE is in error).
 */
bool tv_qp_can_receive(enum ib_qp_state s)
{
	return s == IB_QPS_RTR || s == IB_QPS_RTS || s == IB_QPS_SQD ||
	       s == IB_QPS_SQE;
}

/* ---- errors, flushing and events ---- */

/**
 * tv_qp_event - report an affiliated asynchronous event of a QP
 * @qp: the QP
 * @type: the event
 *
 * Called in the engine's context with no lock held.
 */
void tv_qp_event(struct tv_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/**
 * tv_qp_error_locked - move a QP to the error state
 * @qp: the QP; caller holds its lock
 *
 * The engine flushes what the QP has outstanding in its next run; a QP on
 * an SRQ then reports IB_EVENT_QP_LAST_WQE_REACHED.
 */
void tv_qp_error_locked(struct tv_qp *qp)
{
	lockdep_assert_held(&qp->lock);
	if (qp->state == IB_QPS_ERR)
		return;
	qp->state = IB_QPS_ERR;
	qp->flushed = false;
	qp->last_wqe = !!qp->ibqp.srq;
	tv_sched_kick(&qp->sched);
}

/*
 * A send of a datagram QP failed: as IBA 10.3.1 has it, only its send
 * queue is in error (SQE), flushed in the engine's next run, and the QP
 * still receives; ib_modify_qp() takes it back to RTS.  Other QPs go to
 * the error state.  Under the QP's lock.
 */
static void tv_qp_send_error_locked(struct tv_qp *qp)
{
	lockdep_assert_held(&qp->lock);
	if (!tv_is_datagram(qp->ibqp.qp_type)) {
		tv_qp_error_locked(qp);
		return;
	}
	if (qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD)
		qp->state = IB_QPS_SQE;
	tv_sched_kick(&qp->sched);
}

static enum ib_wc_opcode tv_wc_opcode(enum ib_wr_opcode op)
{
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_REG_MR:
	case IB_WR_REG_MR_INTEGRITY:
		return IB_WC_REG_MR;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	default:
		return IB_WC_SEND;
	}
}

/* Completes the send work request at @index.  Under qp->lock. */
static void tv_sq_complete(struct tv_qp *qp, u32 index,
			   enum ib_wc_status status, u32 byte_len)
{
	struct tv_wqe *wqe = tv_ring_at(&qp->sq, index);
	struct ib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = tv_wc_opcode(wqe->opcode),
		.byte_len = byte_len,
		.qp = &qp->ibqp,
	};

	/* Errors and flushes complete even unsignaled work requests */
	if (status == IB_WC_SUCCESS && !qp->sig_all &&
	    !(wqe->send_flags & IB_SEND_SIGNALED))
		return;
	tv_cq_push(qp->ibqp.send_cq, &wc, TV_RING_SQ, index, false);
}

/* Flushes the send queue in order.  Under qp->lock. */
static void tv_sq_flush_locked(struct tv_qp *qp)
{
	lockdep_assert_held(&qp->lock);
	for (; qp->sq.next != qp->sq.head; qp->sq.next++)
		tv_sq_complete(qp, qp->sq.next, IB_WC_WR_FLUSH_ERR, 0);
}

/* Flushes both queues in order.  Under qp->lock. */
static void tv_qp_flush_locked(struct tv_qp *qp)
{
	lockdep_assert_held(&qp->lock);
	tv_sq_flush_locked(qp);
	for (; qp->rq.size && qp->rq.next != qp->rq.head; qp->rq.next++) {
		struct tv_recv *r = tv_ring_at(&qp->rq, qp->rq.next);
		struct ib_wc wc = {
			.wr_id = r->wr_id,
			.status = IB_WC_WR_FLUSH_ERR,
			.opcode = IB_WC_RECV,
			.qp = &qp->ibqp,
		};

		tv_cq_push(qp->ibqp.recv_cq, &wc, TV_RING_RQ, qp->rq.next,
			   false);
	}
	qp->flushed = true;
}

/* Executes the send work request at @index; @qp->lock held, dropped. */
static void tv_qp_exec_one(struct tv_qp *qp, u32 index, unsigned long *flags)
{
	enum ib_wc_status status;
	u32 len;

	qp->executing = true;
	spin_unlock_irqrestore(&qp->lock, *flags);

	rcu_read_lock();
	if (test_and_clear_bit(TDEV_FAIL_SEND_WR,
			       &to_tdev(qp->ibqp.device)->fail))
		status = IB_WC_LOC_QP_OP_ERR;
	else
		status = tv_exec(qp, tv_ring_at(&qp->sq, index), &len);
	rcu_read_unlock();

	spin_lock_irqsave(&qp->lock, *flags);
	qp->executing = false;
	qp->sq.next++;
	tv_sq_complete(qp, index, status, len);
	if (status != IB_WC_SUCCESS)
		tv_qp_send_error_locked(qp);
}

/**
 * tv_qp_run - the engine's run of a QP: execute its send queue
 * @s: the QP's tv_sched
 *
 * In RTS, executes up to TV_QP_BUDGET work requests in order and
 * completes them; an error completion moves the QP to the error state
 * (a datagram QP to SQE).  In the error state, flushes both queues, then
 * reports the QP's pending events (QP_FATAL, LAST_WQE_REACHED); in SQE,
 * flushes the send queue.  Other states execute nothing.
 *
 * Return: true if work requests are left for another run.
 */
bool tv_qp_run(struct tv_sched *s)
{
	struct tv_qp *qp = container_of(s, struct tv_qp, sched);
	bool fatal = false, last = false, more = false;
	int budget = TV_QP_BUDGET;
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	for (;;) {
		if (qp->state == IB_QPS_ERR) {
			tv_qp_flush_locked(qp);
			fatal = qp->fatal;
			last = qp->last_wqe;
			qp->fatal = false;
			qp->last_wqe = false;
			break;
		}
		if (qp->state == IB_QPS_SQE) {
			tv_sq_flush_locked(qp);
			break;
		}
		if (qp->state != IB_QPS_RTS || qp->sq.next == qp->sq.head)
			break;
		if (!budget--) {
			more = true;
			break;
		}
		tv_qp_exec_one(qp, qp->sq.next, &flags);
	}
	spin_unlock_irqrestore(&qp->lock, flags);

	if (fatal)
		tv_qp_event(qp, IB_EVENT_QP_FATAL);
	if (last)
		tv_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
	return more;
}

/**
 * tdev_qp_fatal - make a QP suffer a fatal error, as hardware may
 * @ibqp: a QP of a tdev
 *
 * The QP enters the error state; the engine reports IB_EVENT_QP_FATAL to
 * its event handler, then flushes it.  Any context.
 */
void tdev_qp_fatal(struct ib_qp *ibqp)
{
	struct tv_qp *qp = to_tqp(ibqp);
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	qp->fatal = true;
	if (qp->state == IB_QPS_ERR)
		tv_sched_kick(&qp->sched);
	else
		tv_qp_error_locked(qp);
	spin_unlock_irqrestore(&qp->lock, flags);
}
EXPORT_SYMBOL_GPL(tdev_qp_fatal);

/* ---- queue pairs ---- */

static u32 tv_wqe_stride(const struct ib_qp_cap *cap)
{
	return sizeof(struct tv_wqe) + cap->max_send_sge * sizeof(struct ib_sge) +
	       cap->max_inline_data;
}

static u32 tv_recv_stride(u32 max_sge)
{
	return sizeof(struct tv_recv) + max_sge * sizeof(struct ib_sge);
}

/* What the hardware can hold: its queue and WQE sizes. */
static int tv_check_caps(const struct ib_qp_init_attr *init)
{
	const struct ib_qp_cap *cap = &init->cap;

	if (init->create_flags & ~IB_QP_CREATE_INTEGRITY_EN)
		return -EOPNOTSUPP;
	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UC &&
	    !tv_is_datagram(init->qp_type))
		return -EOPNOTSUPP;
	if (!cap->max_send_wr || cap->max_send_wr > TV_MAX_WR ||
	    cap->max_recv_wr > TV_MAX_WR || cap->max_send_sge > TV_MAX_SGE ||
	    cap->max_recv_sge > TV_MAX_SGE ||
	    cap->max_inline_data > TV_MAX_INLINE)
		return -EINVAL;
	return 0;
}

/*
 * QP0 or QP1 of a port: one of each per port, numbered 0 and 1, bound to
 * the port for life.
 */
static int tv_sqp_number(struct tv_qp *qp, u32 port)
{
	u32 qpn = qp->ibqp.qp_type == IB_QPT_SMI ? 0 : 1;
	struct tdev *td = qp->td;
	int ret = 0;

	if (port < 1 || port > td->params.ports)
		return -EINVAL;
	xa_lock_irq(&tv_qps);
	if (td->port[port].sqp[qpn])
		ret = -EBUSY;
	else
		td->port[port].sqp[qpn] = qp;
	xa_unlock_irq(&tv_qps);
	if (!ret) {
		qp->ibqp.qp_num = qpn;
		qp->attr.port_num = port;
	}
	return ret;
}

/* Gives back the number of @qp (its port's slot for QP0 and QP1). */
static void tv_qp_unnumber(struct tv_qp *qp)
{
	struct ib_qp *ibqp = &qp->ibqp;

	if (ibqp->qp_type != IB_QPT_SMI && ibqp->qp_type != IB_QPT_GSI) {
		xa_erase_irq(&tv_qps, ibqp->qp_num);
		return;
	}
	xa_lock_irq(&tv_qps);
	qp->td->port[qp->attr.port_num].sqp[ibqp->qp_num] = NULL;
	xa_unlock_irq(&tv_qps);
}

static int tv_qp_number(struct tv_qp *qp, u32 port)
{
	u32 qpn;
	int ret;

	if (qp->ibqp.qp_type == IB_QPT_SMI || qp->ibqp.qp_type == IB_QPT_GSI)
		return tv_sqp_number(qp, port);

	ret = xa_alloc_irq(&tv_qps, &qpn, qp, XA_LIMIT(2, 0xffffff),
			   GFP_KERNEL);
	if (!ret)
		qp->ibqp.qp_num = qpn;
	return ret;
}

/*
 * An XRC target QP (params.xrc): no send queue, no CQs; what it receives
 * lands on the XRC SRQ a message names.  The hardware takes the XRC
 * domain's number from @init.
 */
static int tv_create_xrc_tgt(struct tv_qp *qp, struct ib_qp_init_attr *init)
{
	struct tdev *td = qp->td;

	if (!td->params.xrc)
		return -EOPNOTSUPP;
	if (!init->xrcd || init->create_flags)
		return -EINVAL;
	spin_lock_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	memset(&init->cap, 0, sizeof(init->cap));
	tv_sched_init(&qp->sched, td, 0, tv_qp_run);
	return tv_qp_number(qp, 0);
}

static int tv_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			struct ib_udata *udata)
{
	struct tv_qp *qp = to_tqp(ibqp);
	struct tdev *td = to_tdev(ibqp->device);
	struct ib_qp_cap *cap = &init->cap;
	int ret;

	/* A user QP's driver data: this driver takes none */
	if (udata && (udata->inlen || udata->outlen))
		return -EOPNOTSUPP;
	qp->td = td;
	if (init->qp_type == IB_QPT_XRC_TGT)
		return tv_create_xrc_tgt(qp, init);
	ret = tv_check_caps(init);
	if (ret)
		return ret;
	if ((init->create_flags & IB_QP_CREATE_INTEGRITY_EN) &&
	    !td->params.integrity)
		return -EOPNOTSUPP;

	spin_lock_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->cap = *cap;
	ret = tv_ring_init(&qp->sq, cap->max_send_wr, tv_wqe_stride(cap),
			   cap->max_send_sge);
	if (ret)
		return ret;
	if (!init->srq && cap->max_recv_wr) {
		ret = tv_ring_init(&qp->rq, cap->max_recv_wr,
				   tv_recv_stride(cap->max_recv_sge),
				   cap->max_recv_sge);
		if (ret)
			goto err_sq;
	}
	tv_sched_init(&qp->sched, td, init->send_cq->comp_vector, tv_qp_run);
	ret = tv_qp_number(qp, init->port_num);
	if (ret)
		goto err_rq;
	return 0;

err_rq:
	kvfree(qp->rq.buf);
err_sq:
	kvfree(qp->sq.buf);
	return ret;
}

/* Waits until the engine is not in the middle of a work request of @qp. */
static void tv_qp_wait_idle(struct tv_qp *qp)
{
	while (READ_ONCE(qp->executing) || tv_sched_busy(&qp->sched))
		usleep_range(20, 100);
}

/*
 * After Reset or before destruction: nothing of @qp left in its CQs (an
 * XRC target QP has none).
 */
static void tv_qp_purge(struct tv_qp *qp)
{
	if (!qp->ibqp.send_cq)
		return;
	tv_cq_quiesce(qp->ibqp.send_cq);
	tv_cq_quiesce(qp->ibqp.recv_cq);
	tv_cq_purge(qp->ibqp.send_cq, &qp->ibqp);
	tv_cq_purge(qp->ibqp.recv_cq, &qp->ibqp);
}

static int tv_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct tv_qp *qp = to_tqp(ibqp);

	tv_qp_unnumber(qp);
	tv_sched_retire(&qp->sched);
	tv_qp_purge(qp);
	kvfree(qp->rq.buf);
	kvfree(qp->sq.buf);
	return 0;
}

/* The edges the hardware's QP state machine has. */
static bool tv_qp_edge(enum ib_qp_state cur, enum ib_qp_state next)
{
	switch (next) {
	case IB_QPS_RESET:
		return true;
	case IB_QPS_ERR:
		return cur != IB_QPS_RESET;
	case IB_QPS_INIT:
		return cur == IB_QPS_RESET || cur == IB_QPS_INIT;
	case IB_QPS_RTR:
		return cur == IB_QPS_INIT;
	case IB_QPS_RTS:
		return cur == IB_QPS_RTR || cur == IB_QPS_RTS ||
		       cur == IB_QPS_SQD || cur == IB_QPS_SQE;
	case IB_QPS_SQD:
		return cur == IB_QPS_RTS || cur == IB_QPS_SQD;
	default:
		return false;
	}
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
	if (mask & IB_QP_ALT_PATH) {
		s->alt_ah_attr = a->alt_ah_attr;
		s->alt_ah_attr.grh.sgid_attr = NULL;
		s->alt_pkey_index = a->alt_pkey_index;
		s->alt_port_num = a->alt_port_num;
		s->alt_timeout = a->alt_timeout;
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

/* Reset: the engine is done with the QP, then the rings start over. */
static void tv_qp_reset(struct tv_qp *qp)
{
	unsigned long flags;

	tv_qp_wait_idle(qp);
	tv_qp_purge(qp);
	spin_lock_irqsave(&qp->lock, flags);
	tv_ring_reset(&qp->sq);
	tv_ring_reset(&qp->rq);
	qp->flushed = false;
	qp->comm_est = false;
	qp->last_wqe = false;
	qp->fatal = false;
	spin_unlock_irqrestore(&qp->lock, flags);
}

static int tv_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_udata *udata)
{
	struct tv_qp *qp = to_tqp(ibqp);
	enum ib_qp_state cur, next;
	unsigned long flags;

	/* No user ABI of its own: only empty driver data. */
	if (udata && (udata->inlen || udata->outlen))
		return -EOPNOTSUPP;
	if (test_bit(TDEV_FAIL_MODIFY_QP, &to_tdev(ibqp->device)->fail))
		return -EIO;

	spin_lock_irqsave(&qp->lock, flags);
	cur = qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (((mask & IB_QP_STATE) && !tv_qp_edge(cur, next)) ||
	    ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur)) {
		spin_unlock_irqrestore(&qp->lock, flags);
		return -EINVAL;
	}
	tv_qp_store_attr(qp, attr, mask);
	if (next == IB_QPS_ERR)
		tv_qp_error_locked(qp);
	else
		qp->state = next;
	/* Out of SQD: what was posted meanwhile runs now */
	if (next == IB_QPS_RTS && cur != IB_QPS_RTS)
		tv_sched_kick(&qp->sched);
	spin_unlock_irqrestore(&qp->lock, flags);

	if (next == IB_QPS_RESET && cur != IB_QPS_RESET)
		tv_qp_reset(qp);
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

/* ---- posting sends ---- */

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
	case IB_WR_REG_MR_INTEGRITY:
	case IB_WR_LOCAL_INV:
		return !tv_is_datagram(type);
	case IB_WR_RDMA_READ:
		return type == IB_QPT_RC;
	default:
		return false;
	}
}

static bool tv_can_post_send(enum ib_qp_state s)
{
	return s == IB_QPS_RTS || s == IB_QPS_SQD || s == IB_QPS_SQE ||
	       s == IB_QPS_ERR;
}

/* Copies the inline data of @wr into @wqe; -EINVAL if it does not fit. */
static int tv_copy_inline(struct tv_qp *qp, struct tv_wqe *wqe,
			  const struct ib_send_wr *wr)
{
	u8 *to = (u8 *)&wqe->sge[qp->cap.max_send_sge];
	u32 len = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		if (wr->sg_list[i].length > qp->cap.max_inline_data - len)
			return -EINVAL;
		memcpy(to + len, (void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		len += wr->sg_list[i].length;
	}
	wqe->inline_len = len;
	wqe->num_sge = 0;
	return 0;
}

/* The opcode's own fields of @wr, as the hardware keeps them. */
static void tv_copy_op(struct tv_wqe *wqe, const struct ib_send_wr *wr,
		       enum ib_qp_type type)
{
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		wqe->rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->rdma.rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_REG_MR:
	case IB_WR_REG_MR_INTEGRITY:
		wqe->reg.mr = reg_wr(wr)->mr;
		wqe->reg.key = reg_wr(wr)->key;
		wqe->reg.access = reg_wr(wr)->access;
		if (wr->opcode == IB_WR_REG_MR_INTEGRITY &&
		    reg_wr(wr)->mr->sig_attrs)
			wqe->sig = *reg_wr(wr)->mr->sig_attrs;
		break;
	default:
		if (tv_is_datagram(type)) {
			wqe->ud.ah = ud_wr(wr)->ah;
			wqe->ud.remote_qpn = ud_wr(wr)->remote_qpn;
			wqe->ud.remote_qkey = ud_wr(wr)->remote_qkey;
			wqe->ud.pkey_index = ud_wr(wr)->pkey_index;
		}
		break;
	}
	if (wr->opcode == IB_WR_SEND_WITH_IMM ||
	    wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		wqe->ex.imm_data = wr->ex.imm_data;
	else if (wr->opcode == IB_WR_SEND_WITH_INV ||
		 wr->opcode == IB_WR_LOCAL_INV)
		wqe->ex.invalidate_rkey = wr->ex.invalidate_rkey;
}

/* Posts one work request at the head of the send queue; under qp->lock. */
static int tv_sq_post_one(struct tv_qp *qp, const struct ib_send_wr *wr)
{
	struct tv_wqe *wqe;
	int ret = 0;

	if (!tv_can_post_send(qp->state) || wr->num_sge < 0 ||
	    wr->num_sge > qp->cap.max_send_sge)
		return -EINVAL;
	/* In the error state any work request is just flushed */
	if (qp->state != IB_QPS_ERR &&
	    (!tv_opcode_ok(qp->ibqp.qp_type, wr->opcode) ||
	     (tv_is_datagram(qp->ibqp.qp_type) && !ud_wr(wr)->ah)))
		return -EINVAL;
	if (!tv_ring_room(&qp->sq, true))
		return -ENOMEM;

	wqe = tv_ring_at(&qp->sq, qp->sq.head);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr->wr_id;
	wqe->opcode = wr->opcode;
	wqe->send_flags = wr->send_flags;
	if (qp->state == IB_QPS_ERR) {
		qp->sq.head++;
		return 0;
	}
	if (wr->send_flags & IB_SEND_INLINE) {
		ret = tv_copy_inline(qp, wqe, wr);
	} else {
		wqe->num_sge = wr->num_sge;
		memcpy(wqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
	}
	if (ret)
		return ret;
	tv_copy_op(wqe, wr, qp->ibqp.qp_type);
	qp->sq.head++;
	return 0;
}

static int tv_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			const struct ib_send_wr **bad_wr)
{
	struct tv_qp *qp = to_tqp(ibqp);
	unsigned long flags;
	u32 head;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	head = qp->sq.head;
	for (; wr; wr = wr->next) {
		ret = tv_sq_post_one(qp, wr);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	if (qp->sq.head != head &&
	    (qp->state == IB_QPS_RTS || qp->state == IB_QPS_ERR))
		tv_sched_kick(&qp->sched);
	spin_unlock_irqrestore(&qp->lock, flags);
	return ret;
}

/* ---- posting and taking receives ---- */

/* Posts one receive at the head of @r; under its owner's lock. */
static int tv_rq_post_one(struct tv_ring *r, const struct ib_recv_wr *wr,
			  bool freed_when_polled)
{
	struct tv_recv *rcv;

	if (wr->num_sge < 0 || wr->num_sge > r->max_sge)
		return -EINVAL;
	if (!tv_ring_room(r, freed_when_polled))
		return -ENOMEM;
	rcv = tv_ring_at(r, r->head);
	rcv->wr_id = wr->wr_id;
	rcv->num_sge = wr->num_sge;
	memcpy(rcv->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
	r->head++;
	return 0;
}

static int tv_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			const struct ib_recv_wr **bad_wr)
{
	struct tv_qp *qp = to_tqp(ibqp);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		if (ibqp->srq || !qp->rq.size || qp->state == IB_QPS_RESET)
			ret = -EINVAL;
		else
			ret = tv_rq_post_one(&qp->rq, wr, true);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	/* In the error state the engine flushes them */
	if (qp->state == IB_QPS_ERR)
		tv_sched_kick(&qp->sched);
	spin_unlock_irqrestore(&qp->lock, flags);
	return ret;
}

/* Takes the next receive of @r into @out; under its owner's lock. */
static bool tv_ring_take_recv(struct tv_ring *r, struct tv_recv_copy *out,
			      enum tv_ring_id ring)
{
	struct tv_recv *rcv;

	if (!r->size || r->next == r->head)
		return false;
	rcv = tv_ring_at(r, r->next);
	out->wr_id = rcv->wr_id;
	out->num_sge = rcv->num_sge;
	memcpy(out->sge, rcv->sge, rcv->num_sge * sizeof(rcv->sge[0]));
	out->ring = ring;
	out->index = r->next;
	r->next++;
	return true;
}

/* Consumes a receive of an SRQ; disarms it when it falls below its limit. */
static bool tv_srq_take_recv(struct tv_srq *srq, struct tv_recv_copy *out,
			     bool *limit)
{
	bool got;

	spin_lock(&srq->lock);
	got = tv_ring_take_recv(&srq->rq, out, TV_RING_NONE);
	if (got && srq->limit && srq->rq.head - srq->rq.next < srq->limit) {
		srq->limit = 0;
		*limit = true;
	}
	spin_unlock(&srq->lock);
	return got;
}

/**
 * tv_qp_take_recv - consume the next posted receive of a QP
 * @qp: the receiving QP, its lock held; from its SRQ if it has one
 * @out: a copy of the receive, and the ring slot its completion frees
 * @limit: set when the SRQ fell below its armed limit (disarmed now): the
 *	caller reports IB_EVENT_SRQ_LIMIT_REACHED with no lock held
 *
 * Return: true if there was a receive.
 */
bool tv_qp_take_recv(struct tv_qp *qp, struct tv_recv_copy *out, bool *limit)
{
	lockdep_assert_held(&qp->lock);
	*limit = false;
	if (qp->ibqp.srq)
		return tv_srq_take_recv(to_tsrq(qp->ibqp.srq), out, limit);
	return tv_ring_take_recv(&qp->rq, out, TV_RING_RQ);
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
	return tv_ring_init(&srq->rq, init->attr.max_wr,
			    tv_recv_stride(init->attr.max_sge),
			    init->attr.max_sge);
}

static int tv_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	kvfree(to_tsrq(ibsrq)->rq.buf);
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
	int ret = 0;

	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		ret = tv_rq_post_one(&srq->rq, wr, false);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	return ret;
}

/**
 * tv_srq_limit_event - report that an SRQ fell below its limit
 * @ibsrq: the SRQ; called with no lock held, in the engine's context
 */
void tv_srq_limit_event(struct ib_srq *ibsrq)
{
	struct ib_event ev = {
		.device = ibsrq->device,
		.element.srq = ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (ibsrq->event_handler)
		ibsrq->event_handler(&ev, ibsrq->srq_context);
}

const struct ib_device_ops tdev_qp_ops = {
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

	INIT_RDMA_OBJ_SIZE(ib_qp, tv_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, tv_srq, ibsrq),
};

/* ---- multicast groups (params.mcast) ---- */

/* The slot of @gid among the groups of @qp, or -1; under qp->lock. */
static int tv_mcast_find(struct tv_qp *qp, const union ib_gid *gid)
{
	u32 i;

	lockdep_assert_held(&qp->lock);
	for (i = 0; i < qp->nmcast; i++)
		if (!memcmp(&qp->mcast[i], gid, sizeof(*gid)))
			return i;
	return -1;
}

/* Like hardware: a group is joined once, and a QP joins only so many. */
static int tv_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct tv_qp *qp = to_tqp(ibqp);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	if (tv_mcast_find(qp, gid) >= 0)
		ret = -EEXIST;
	else if (qp->nmcast == TDEV_MAX_MCAST)
		ret = -ENOMEM;
	else
		qp->mcast[qp->nmcast++] = *gid;
	spin_unlock_irqrestore(&qp->lock, flags);
	return ret;
}

static int tv_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct tv_qp *qp = to_tqp(ibqp);
	unsigned long flags;
	int i;

	if (test_bit(TDEV_FAIL_DETACH_MCAST, &to_tdev(ibqp->device)->fail))
		return -EIO;
	spin_lock_irqsave(&qp->lock, flags);
	i = tv_mcast_find(qp, gid);
	if (i >= 0)
		qp->mcast[i] = qp->mcast[--qp->nmcast];
	spin_unlock_irqrestore(&qp->lock, flags);
	return i >= 0 ? 0 : -EINVAL;
}

/**
 * tdev_qp_mcast_groups - how many multicast groups a QP joined
 * @ibqp: a QP of a tdev
 *
 * Return: the groups the "hardware" has the QP in.
 */
int tdev_qp_mcast_groups(struct ib_qp *ibqp)
{
	struct tv_qp *qp = to_tqp(ibqp);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&qp->lock, flags);
	n = qp->nmcast;
	spin_unlock_irqrestore(&qp->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(tdev_qp_mcast_groups);

const struct ib_device_ops tdev_mcast_ops = {
	.attach_mcast = tv_attach_mcast,
	.detach_mcast = tv_detach_mcast,
};

/* ---- the driver's own drain (params.driver_drain) ---- */

/* A marker the driver posts behind what is outstanding. */
struct tv_drain {
	struct ib_cqe cqe;
	struct completion done;
};

static void tv_drain_done(struct ib_cq *cq, struct ib_wc *wc)
{
	complete(&container_of(wc->wr_cqe, struct tv_drain, cqe)->done);
}

/*
 * Error state, a marker posted, and a wait for its completion to be
 * handled, polling a CQ its owner polls (IB_POLL_DIRECT) meanwhile.
 */
static void tv_drain_queue(struct ib_qp *ibqp, bool sq)
{
	struct tv_qp *qp = to_tqp(ibqp);
	struct ib_cq *cq = sq ? ibqp->send_cq : ibqp->recv_cq;
	struct ib_send_wr swr = { .opcode = IB_WR_RDMA_WRITE,
				  .send_flags = IB_SEND_SIGNALED };
	struct ib_recv_wr rwr = {};
	const struct ib_send_wr *sbad;
	const struct ib_recv_wr *rbad;
	struct tv_drain m;
	unsigned long flags;
	int ret;

	m.cqe.done = tv_drain_done;
	init_completion(&m.done);
	swr.wr_cqe = &m.cqe;
	rwr.wr_cqe = &m.cqe;
	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state == IB_QPS_RESET)
		ret = -EINVAL;
	else
		ret = 0;
	if (!ret)
		tv_qp_error_locked(qp);
	spin_unlock_irqrestore(&qp->lock, flags);
	if (!ret)
		ret = sq ? tv_post_send(ibqp, &swr, &sbad) :
			   tv_post_recv(ibqp, &rwr, &rbad);
	if (ret) {
		ibdev_warn(ibqp->device, "QP %u: no drain marker: %d\n",
			   ibqp->qp_num, ret);
		return;
	}
	while (!wait_for_completion_timeout(&m.done, msecs_to_jiffies(10)))
		if (tv_cq_is_direct(cq))
			ib_process_cq_direct(cq, -1);
}

static void tv_drain_sq(struct ib_qp *ibqp)
{
	atomic_inc(&to_tdev(ibqp->device)->drain_sq_calls);
	tv_drain_queue(ibqp, true);
}

static void tv_drain_rq(struct ib_qp *ibqp)
{
	atomic_inc(&to_tdev(ibqp->device)->drain_rq_calls);
	tv_drain_queue(ibqp, false);
}

const struct ib_device_ops tdev_drain_ops = {
	.drain_sq = tv_drain_sq,
	.drain_rq = tv_drain_rq,
};
