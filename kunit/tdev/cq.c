// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: completion queues.
 *
 * A CQ is a ring of completions.  tv_cq_push() is how the engine completes
 * work (exec.c, and qp.c's flushes); polling takes completions out and
 * frees the ring slots of the work requests they complete (qp.c's
 * tv_ring_retire()).  An armed CQ that gets a completion owes its consumer
 * a completion event; a full CQ overruns: the completion is lost, the CQ
 * stays in error and owes an IB_EVENT_CQ_ERR.  Both are delivered by the
 * engine of the CQ's completion vector, in that vector's context.
 *
 * Locking: cq->lock (IRQ-safe: the engine runs in any context) protects
 * the ring, arming, the owed events and their sequence numbers; the
 * moderation values too.  Handlers are called with no lock held.
 */
#include <linux/delay.h>
#include <linux/slab.h>
#include "tdev_priv.h"

/* A completion in the ring, with the ring slot it frees when polled. */
struct tv_cqe {
	struct ib_wc wc;
	u32 index;
	u8 ring;	/* enum tv_ring_id */
};

/**
 * struct tv_cq - a CQ
 * @ibcq: the core's CQ
 * @td: its device
 * @lock: protects everything below but @sched
 * @ring: @size completions, the oldest at @head
 * @size: the ring's capacity (ibcq.cqe)
 * @head: index of the oldest completion
 * @count: completions in the ring
 * @hidden: the newest of them that polling cannot see yet
 *	(tdev_params.late_cqes): they land when the CQ is armed next
 * @armed: 0, IB_CQ_NEXT_COMP or IB_CQ_SOLICITED
 * @overrun: a completion was lost; the CQ is in error
 * @notify: a completion event is owed
 * @err_event: IB_EVENT_CQ_ERR is owed
 * @owed: incremented each time an event becomes owed
 * @delivered: the value of @owed the engine last delivered up to
 * @mod_count: moderation count set with modify_cq (recorded only, for
 *	tdev_cq_moderation())
 * @mod_period: moderation period set with modify_cq (recorded only)
 * @sched: how the engine of the CQ's vector delivers what is owed
 */
struct tv_cq {
	struct ib_cq ibcq;
	struct tdev *td;
	spinlock_t lock;
	struct tv_cqe *ring;
	u32 size;
	u32 head;
	u32 count;
	u32 hidden;
	u8 armed;
	bool overrun;
	bool notify;
	bool err_event;
	u32 owed;
	u32 delivered;
	u16 mod_count;
	u16 mod_period;
	struct tv_sched sched;
};

static struct tv_cq *to_tcq(struct ib_cq *c)
{
	return container_of(c, struct tv_cq, ibcq);
}

/**
 * tv_cq_push - add a completion to a CQ
 * @ibcq: the CQ
 * @wc: the completion
 * @ring: the ring of wc->qp whose slot @index the completion frees when
 *	polled, or TV_RING_NONE
 * @index: see @ring
 * @solicited: the work request asked for a solicited event
 *
 * Any context; the caller may hold the lock of wc->qp or of the receiving
 * QP (lock order in tdev_priv.h).
 */
void tv_cq_push(struct ib_cq *ibcq, const struct ib_wc *wc,
		enum tv_ring_id ring, u32 index, bool solicited)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long flags;
	bool kick = false;
	struct tv_cqe *e;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->overrun) {
		/* In error: completions are lost */
	} else if (cq->count == cq->size) {
		cq->overrun = true;
		cq->err_event = true;
		cq->owed++;
		kick = true;
	} else {
		e = &cq->ring[(cq->head + cq->count) % cq->size];
		e->wc = *wc;
		e->ring = ring;
		e->index = index;
		cq->count++;
		if (cq->armed == IB_CQ_NEXT_COMP ||
		    (cq->armed == IB_CQ_SOLICITED && solicited)) {
			cq->armed = 0;
			cq->notify = true;
			cq->owed++;
			cq->hidden = 0;
			kick = true;
		} else if (!cq->armed && cq->td->params.late_cqes &&
			   !tv_cq_is_direct(ibcq)) {
			cq->hidden++;
		}
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (kick)
		tv_sched_kick(&cq->sched);
}

/* The engine: deliver what the CQ owes, in its vector's context. */
static bool tv_cq_run(struct tv_sched *s)
{
	struct tv_cq *cq = container_of(s, struct tv_cq, sched);
	struct ib_cq *ibcq = &cq->ibcq;
	bool notify, err;
	unsigned long flags;
	u32 owed;

	spin_lock_irqsave(&cq->lock, flags);
	notify = cq->notify;
	err = cq->err_event;
	cq->notify = false;
	cq->err_event = false;
	owed = cq->owed;
	spin_unlock_irqrestore(&cq->lock, flags);

	if (err && ibcq->event_handler) {
		struct ib_event ev = {
			.device = ibcq->device,
			.element.cq = ibcq,
			.event = IB_EVENT_CQ_ERR,
		};

		ibcq->event_handler(&ev, ibcq->cq_context);
	}
	if (notify && ibcq->comp_handler)
		ibcq->comp_handler(ibcq, ibcq->cq_context);

	spin_lock_irqsave(&cq->lock, flags);
	cq->delivered = owed;
	spin_unlock_irqrestore(&cq->lock, flags);
	return false;
}

/**
 * tv_cq_quiesce - wait until the events a CQ owes now are delivered
 * @ibcq: the CQ
 *
 * Called when a QP goes: no handler call that its completions caused may
 * come after its destruction.  Process context.
 */
void tv_cq_quiesce(struct ib_cq *ibcq)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long flags;
	u32 target, done;

	spin_lock_irqsave(&cq->lock, flags);
	target = cq->owed;
	spin_unlock_irqrestore(&cq->lock, flags);
	for (;;) {
		spin_lock_irqsave(&cq->lock, flags);
		done = cq->delivered;
		spin_unlock_irqrestore(&cq->lock, flags);
		if ((s32)(done - target) >= 0)
			return;
		usleep_range(20, 100);
	}
}

/**
 * tv_cq_purge - drop a QP's completions from a CQ
 * @ibcq: the CQ
 * @qp: the QP, being destroyed or reset
 */
void tv_cq_purge(struct ib_cq *ibcq, struct ib_qp *qp)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long flags;
	u32 i, kept = 0;

	spin_lock_irqsave(&cq->lock, flags);
	for (i = 0; i < cq->count; i++) {
		struct tv_cqe *e = &cq->ring[(cq->head + i) % cq->size];

		if (e->wc.qp == qp)
			continue;
		cq->ring[(cq->head + kept) % cq->size] = *e;
		kept++;
	}
	cq->count = kept;
	cq->hidden = 0;
	spin_unlock_irqrestore(&cq->lock, flags);
}

/**
 * tv_cq_is_direct - whether a CQ is polled by its owner only
 * @ibcq: the CQ
 *
 * Return: true for ib_alloc_cq()'s IB_POLL_DIRECT CQs.
 */
bool tv_cq_is_direct(struct ib_cq *ibcq)
{
	return ibcq->poll_ctx == IB_POLL_DIRECT;
}

static int tv_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct ib_udata *udata)
{
	struct tv_cq *cq = to_tcq(ibcq);
	struct tdev *td = to_tdev(ibcq->device);

	/* No driver-specific data: a user CQ lives in the kernel too */
	if ((udata && (udata->inlen || udata->outlen)) || attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > TV_MAX_CQE)
		return -EINVAL;
	if (atomic_inc_return(&td->ncqs) > TV_MAX_CQ) {
		atomic_dec(&td->ncqs);
		return -ENOMEM;
	}
	cq->ring = kvcalloc(attr->cqe, sizeof(*cq->ring), GFP_KERNEL);
	if (!cq->ring) {
		atomic_dec(&td->ncqs);
		return -ENOMEM;
	}
	cq->td = td;
	spin_lock_init(&cq->lock);
	cq->size = attr->cqe;
	ibcq->cqe = attr->cqe;
	tv_sched_init(&cq->sched, td, attr->comp_vector, tv_cq_run);
	return 0;
}

static int tv_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct tv_cq *cq = to_tcq(ibcq);

	tv_sched_retire(&cq->sched);
	kvfree(cq->ring);
	atomic_dec(&cq->td->ncqs);
	return 0;
}

static int tv_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num_entries && cq->count > cq->hidden) {
		struct tv_cqe *e = &cq->ring[cq->head];

		wc[n++] = e->wc;
		if (e->ring != TV_RING_NONE)
			tv_ring_retire(to_tqp(e->wc.qp), e->ring, e->index);
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
	/* What landed before the arm is polled, not announced */
	cq->hidden = 0;
	cq->armed = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->count)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

static int tv_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct tv_cq *cq = to_tcq(ibcq);
	struct tv_cqe *ring, *old;
	unsigned long flags;
	u32 i;

	if (cqe < 1 || cqe > TV_MAX_CQE)
		return -EINVAL;
	ring = kvcalloc(cqe, sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return -ENOMEM;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count > cqe) {
		spin_unlock_irqrestore(&cq->lock, flags);
		kvfree(ring);
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
	kvfree(old);
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

/**
 * tdev_cq_moderation - the moderation a CQ of a tdev was given
 * @ibcq: the CQ
 * @count: its count (rdma_set_cq_moderation())
 * @period: its period
 */
void tdev_cq_moderation(struct ib_cq *ibcq, u16 *count, u16 *period)
{
	struct tv_cq *cq = to_tcq(ibcq);
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	*count = cq->mod_count;
	*period = cq->mod_period;
	spin_unlock_irqrestore(&cq->lock, flags);
}
EXPORT_SYMBOL_GPL(tdev_cq_moderation);

const struct ib_device_ops tdev_cq_ops = {
	.create_cq = tv_create_cq,
	.destroy_cq = tv_destroy_cq,
	.poll_cq = tv_poll_cq,
	.req_notify_cq = tv_req_notify_cq,
	.resize_cq = tv_resize_cq,
	.modify_cq = tv_modify_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, tv_cq, ibcq),
};
