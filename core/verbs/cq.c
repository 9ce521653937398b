// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queue objects: creation with a consumer's own completion
 * handler, resizing, moderation and destruction.  CQs whose completions the
 * core dispatches (ib_alloc_cq(), the CQ pool) are in cq_poll.c and
 * cq_pool.c.
 *
 * Ownership: the core allocates a CQ (the driver's size_ib_cq) and frees
 * it after the driver's destroy_cq.  QPs and SRQs using a CQ hold a usecnt
 * on it.  The owner serialises create, resize, moderation and destroy.
 */
#include "abi/ib_core/verbs.h"
#include "core/restrack.h"

/**
 * __ib_create_cq() - create a completion queue
 * @device: the device
 * @comp_handler: called (in any context) when a completion event arrives
 *	on an armed CQ
 * @event_handler: called with asynchronous CQ errors
 * @cq_context: the argument of both handlers
 * @cq_attr: the number of entries, the completion vector and flags
 * @caller: the creating module's name (KBUILD_MODNAME of ib_create_cq())
 *
 * Return: the CQ, or an ERR_PTR(): -EOPNOTSUPP if the device has no CQs,
 * -EINVAL for a completion vector the device lacks, -ENOMEM, or the
 * driver's error.
 */
struct ib_cq *__ib_create_cq(struct ib_device *device, ib_comp_handler comp_handler,
			     void (*event_handler)(struct ib_event *, void *),
			     void *cq_context, const struct ib_cq_init_attr *cq_attr,
			     const char *caller)
{
	struct ib_cq *cq;
	int err;

	if (!device->ops.create_cq || !device->ops.destroy_cq)
		return ERR_PTR(-EOPNOTSUPP);
	if (cq_attr->comp_vector >= max(device->num_comp_vectors, 1))
		return ERR_PTR(-EINVAL);

	cq = rdma_zalloc_drv_obj(device, ib_cq);
	if (!cq)
		return ERR_PTR(-ENOMEM);

	cq->device = device;
	cq->comp_handler = comp_handler;
	cq->event_handler = event_handler;
	cq->cq_context = cq_context;
	cq->comp_vector = cq_attr->comp_vector;
	atomic_set(&cq->usecnt, 0);
	rdma_restrack_new(&cq->res, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&cq->res, caller);

	err = device->ops.create_cq(cq, cq_attr, NULL);
	if (!err) {
		rdma_restrack_add(&cq->res);
		return cq;
	}
	kfree(cq);
	return ERR_PTR(err);
}
EXPORT_SYMBOL(__ib_create_cq);

/**
 * ib_destroy_cq_user() - destroy a completion queue
 * @cq: the CQ, not one from the CQ pool
 * @udata: the user's buffer, NULL for kernel CQs
 *
 * Return: 0, -EOPNOTSUPP for a CQ of the CQ pool (give it back with
 * ib_cq_pool_put()), -EBUSY while QPs or SRQs use it, or the driver's
 * error, in which case the CQ still exists.
 */
int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata)
{
	int ret;

	if (cq->shared) {
		dev_warn_once(&cq->device->dev, "destroying a CQ of the CQ pool\n");
		return -EOPNOTSUPP;
	}
	if (atomic_read(&cq->usecnt))
		return -EBUSY;

	/* Hidden while the driver destroys it; listed again if it refuses. */
	rdma_restrack_begin_del(&cq->res);
	ret = cq->device->ops.destroy_cq(cq, udata);
	if (!ret) {
		rdma_restrack_commit_del(&cq->res);
		kfree(cq);
	} else {
		rdma_restrack_abort_del(&cq->res);
	}
	return ret;
}
EXPORT_SYMBOL(ib_destroy_cq_user);

/**
 * ib_resize_cq() - change the number of entries of a completion queue
 * @cq: the CQ
 * @cqe: the new minimum number of entries
 *
 * Return: 0, -EOPNOTSUPP for a pool CQ or a device that cannot resize, or
 * the driver's error.
 */
int ib_resize_cq(struct ib_cq *cq, int cqe)
{
	if (cq->shared || !cq->device->ops.resize_cq)
		return -EOPNOTSUPP;
	return cq->device->ops.resize_cq(cq, cqe, NULL);
}
EXPORT_SYMBOL(ib_resize_cq);

/**
 * rdma_set_cq_moderation() - set interrupt moderation of a completion queue
 * @cq: the CQ
 * @cq_count: completions to gather before an event
 * @cq_period: microseconds to wait before an event
 *
 * Return: 0, -EOPNOTSUPP for a pool CQ or a device without moderation, or
 * the driver's error.
 */
int rdma_set_cq_moderation(struct ib_cq *cq, u16 cq_count, u16 cq_period)
{
	if (cq->shared || !cq->device->ops.modify_cq)
		return -EOPNOTSUPP;
	return cq->device->ops.modify_cq(cq, cq_count, cq_period);
}
EXPORT_SYMBOL(rdma_set_cq_moderation);
