// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: completion queues.
 *
 * A CQ is a ring of struct ib_wc.  tv_cq_push() is how the rest of the
 * double completes work (qp.c flushes receives, datapath.c completes sends
 * and deliveries); the ops below are the verbs a consumer calls.
 *
 * Locking: each CQ has a spinlock, IRQ-safe since posting and polling may
 * happen in any context, over its ring, arming and moderation values.  The
 * completion handler is called after the lock is dropped.
 */
#include <linux/slab.h>
#include "tdev_priv.h"

#define TV_MAX_CQE	4096

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

static struct tv_cq *to_tcq(struct ib_cq *c)
{
	return container_of(c, struct tv_cq, ibcq);
}

/**
 * tv_cq_push - add a completion to a CQ and signal it if it is armed
 * @ibcq: the CQ
 * @wc: the completion
 * @solicited: the work request asked for a solicited event
 *
 * A full ring counts an overflow and drops the completion.  Called with no
 * lock of the caller's held: the completion handler may run in it.
 */
void tv_cq_push(struct ib_cq *ibcq, const struct ib_wc *wc, bool solicited)
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

const struct ib_device_ops tdev_cq_ops = {
	.create_cq = tv_create_cq,
	.destroy_cq = tv_destroy_cq,
	.poll_cq = tv_poll_cq,
	.req_notify_cq = tv_req_notify_cq,
	.resize_cq = tv_resize_cq,
	.modify_cq = tv_modify_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, tv_cq, ibcq),
};
