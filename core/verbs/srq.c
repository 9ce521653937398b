// SPDX-License-Identifier: GPL-2.0
/*
 * Shared receive queues.
 *
 * Ownership: the core allocates an SRQ (the driver's size_ib_srq) and
 * frees it after the driver's destroy_srq.  An SRQ holds a usecnt on its
 * PD, on its CQ (XRC and tag-matching SRQs) and on its XRC domain; QPs
 * attached to it hold a usecnt on it.  The owner serialises create, modify
 * and destroy; posting receives does not touch anything here.
 */
#include "abi/ib_core/verbs.h"
#include "core/restrack.h"

static void srq_take_refs(struct ib_srq *srq)
{
	atomic_inc(&srq->pd->usecnt);
	if (ib_srq_has_cq(srq->srq_type))
		atomic_inc(&srq->ext.cq->usecnt);
	if (srq->srq_type == IB_SRQT_XRC)
		atomic_inc(&srq->ext.xrc.xrcd->usecnt);
}

static void srq_drop_refs(struct ib_srq *srq)
{
	if (srq->srq_type == IB_SRQT_XRC)
		atomic_dec(&srq->ext.xrc.xrcd->usecnt);
	if (ib_srq_has_cq(srq->srq_type))
		atomic_dec(&srq->ext.cq->usecnt);
	atomic_dec(&srq->pd->usecnt);
}

/**
 * ib_create_srq_user() - create a shared receive queue
 * @pd: the protection domain of the SRQ
 * @srq_init_attr: its type, size and (XRC, tag matching) CQ and XRC
 *	domain; on success the sizes are updated to what the device granted
 * @uobject: the uverbs object, NULL for kernel SRQs
 * @udata: the user's buffers, NULL for kernel SRQs
 *
 * Return: the SRQ, or an ERR_PTR(): -EOPNOTSUPP if the device has no SRQs,
 * -EINVAL if an XRC or tag-matching SRQ lacks its CQ or XRC domain,
 * -ENOMEM, or the driver's error.
 */
struct ib_srq *ib_create_srq_user(struct ib_pd *pd,
				  struct ib_srq_init_attr *srq_init_attr,
				  struct ib_usrq_object *uobject,
				  struct ib_udata *udata)
{
	struct ib_device *dev = pd->device;
	enum ib_srq_type type = srq_init_attr->srq_type;
	struct ib_srq *srq;
	int ret;

	if (!dev->ops.create_srq || !dev->ops.destroy_srq)
		return ERR_PTR(-EOPNOTSUPP);
	if (ib_srq_has_cq(type) && !srq_init_attr->ext.cq)
		return ERR_PTR(-EINVAL);
	if (type == IB_SRQT_XRC && !srq_init_attr->ext.xrc.xrcd)
		return ERR_PTR(-EINVAL);

	srq = rdma_zalloc_drv_obj(dev, ib_srq);
	if (!srq)
		return ERR_PTR(-ENOMEM);

	srq->device = dev;
	srq->pd = pd;
	srq->uobject = uobject;
	srq->event_handler = srq_init_attr->event_handler;
	srq->srq_context = srq_init_attr->srq_context;
	srq->srq_type = type;
	atomic_set(&srq->usecnt, 0);
	if (ib_srq_has_cq(type))
		srq->ext.cq = srq_init_attr->ext.cq;
	if (type == IB_SRQT_XRC)
		srq->ext.xrc.xrcd = srq_init_attr->ext.xrc.xrcd;

	rdma_restrack_new(&srq->res, RDMA_RESTRACK_SRQ);
	rdma_restrack_parent_name(&srq->res, &pd->res);
	ret = dev->ops.create_srq(srq, srq_init_attr, udata);
	if (ret) {
		rdma_restrack_put(&srq->res);
		kfree(srq);
		return ERR_PTR(ret);
	}
	srq_take_refs(srq);
	rdma_restrack_add(&srq->res);
	return srq;
}
EXPORT_SYMBOL(ib_create_srq_user);

/**
 * ib_modify_srq() - resize an SRQ or arm its limit event
 * @srq: the SRQ
 * @srq_attr: the new maximum number of WRs and/or the new limit
 * @srq_attr_mask: IB_SRQ_MAX_WR and/or IB_SRQ_LIMIT
 *
 * Return: 0, -EOPNOTSUPP if the device cannot modify SRQs, or the driver's
 * error.
 */
int ib_modify_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr,
		  enum ib_srq_attr_mask srq_attr_mask)
{
	if (!srq->device->ops.modify_srq)
		return -EOPNOTSUPP;
	return srq->device->ops.modify_srq(srq, srq_attr, srq_attr_mask, NULL);
}
EXPORT_SYMBOL(ib_modify_srq);

/**
 * ib_query_srq() - read the attributes of an SRQ
 * @srq: the SRQ
 * @srq_attr: filled with its maximum WRs, maximum SGEs and limit
 *
 * Return: 0, -EOPNOTSUPP if the device cannot query SRQs, or the driver's
 * error.
 */
int ib_query_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr)
{
	if (!srq->device->ops.query_srq)
		return -EOPNOTSUPP;
	return srq->device->ops.query_srq(srq, srq_attr);
}
EXPORT_SYMBOL(ib_query_srq);

/**
 * ib_destroy_srq_user() - destroy a shared receive queue
 * @srq: the SRQ
 * @udata: the user's buffer, NULL for kernel SRQs
 *
 * Return: 0, -EBUSY while QPs use the SRQ, or the driver's error, in which
 * case the SRQ still exists.
 */
int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata)
{
	int err;

	if (atomic_read(&srq->usecnt))
		return -EBUSY;

	/* Hidden while the driver destroys it; listed again if it refuses. */
	rdma_restrack_begin_del(&srq->res);
	err = srq->device->ops.destroy_srq(srq, udata);
	if (err) {
		rdma_restrack_abort_del(&srq->res);
		return err;
	}
	srq_drop_refs(srq);
	rdma_restrack_commit_del(&srq->res);
	kfree(srq);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_srq_user);
