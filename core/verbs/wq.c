// SPDX-License-Identifier: GPL-2.0
/*
 * Work queues (receive WQs, the parts of RSS QPs).
 *
 * Ownership: the driver allocates and frees a WQ.  A WQ holds a usecnt on
 * its PD and its CQ; receive WQ tables hold one on their WQs.  The owner
 * serialises create, modify and destroy.
 */
#include "abi/ib_core/verbs.h"

/* A WQ uses its PD and its CQ. */
static void wq_count_users(struct ib_wq *wq, int delta)
{
	atomic_add(delta, &wq->pd->usecnt);
	atomic_add(delta, &wq->cq->usecnt);
}

/**
 * ib_create_wq() - create a work queue
 * @pd: the WQ's protection domain
 * @wq_attr: its type, CQ, size, event handler and context; on success
 *	max_wr and max_sge are updated to what the device granted
 *
 * Return: the WQ, or an ERR_PTR(): -EOPNOTSUPP if the device has no WQs,
 * or the driver's error.
 */
struct ib_wq *ib_create_wq(struct ib_pd *pd, struct ib_wq_init_attr *wq_attr)
{
	struct ib_device *dev = pd->device;
	struct ib_wq *wq;

	if (!dev->ops.create_wq || !dev->ops.destroy_wq)
		return ERR_PTR(-EOPNOTSUPP);

	wq = dev->ops.create_wq(pd, wq_attr, NULL);
	if (IS_ERR(wq))
		return wq;

	wq->device = dev;
	wq->pd = pd;
	wq->cq = wq_attr->cq;
	wq->uobject = NULL;
	wq->wq_type = wq_attr->wq_type;
	wq->event_handler = wq_attr->event_handler;
	wq->wq_context = wq_attr->wq_context;
	atomic_set(&wq->usecnt, 0);
	wq_count_users(wq, 1);
	return wq;
}
EXPORT_SYMBOL(ib_create_wq);

/**
 * ib_destroy_wq_user() - destroy a work queue
 * @wq: the WQ
 * @udata: the user's driver data, NULL for a kernel WQ
 *
 * Return: 0, -EBUSY while a receive WQ table uses it, or the driver's
 * error, in which case the WQ still exists.
 */
int ib_destroy_wq_user(struct ib_wq *wq, struct ib_udata *udata)
{
	/* The driver frees the WQ: note what it counted for. */
	struct ib_wq used = { .pd = wq->pd, .cq = wq->cq };
	int ret;

	if (atomic_read(&wq->usecnt))
		return -EBUSY;

	ret = wq->device->ops.destroy_wq(wq, udata);
	if (!ret)
		wq_count_users(&used, -1);
	return ret;
}
EXPORT_SYMBOL(ib_destroy_wq_user);
