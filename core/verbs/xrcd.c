// SPDX-License-Identifier: GPL-2.0
/*
 * XRC domains: the owners of XRC target QPs and the scope of XRC SRQs.
 *
 * Ownership: the core allocates a domain (the driver's size_ib_xrcd) and
 * frees it after the driver's dealloc_xrcd.  XRC SRQs and XRC target QPs
 * hold a usecnt on their domain; its target QPs are in xrcd->tgt_qps under
 * xrcd->tgt_qps_rwsem (qp_xrc.c).  The owner serialises allocation and
 * deallocation.
 */
#include "abi/ib_core/verbs.h"

/**
 * ib_alloc_xrcd_user() - allocate an XRC domain
 * @device: the device
 * @inode: the file the domain is shared through among processes, or NULL
 * @udata: the user's driver data, NULL for a kernel domain
 *
 * Return: the domain, or an ERR_PTR(): -EOPNOTSUPP if the device has no
 * XRC domains, -ENOMEM, or the driver's error.
 */
struct ib_xrcd *ib_alloc_xrcd_user(struct ib_device *device,
				   struct inode *inode, struct ib_udata *udata)
{
	struct ib_xrcd *xrcd;
	int ret;

	if (!device->ops.alloc_xrcd || !device->ops.dealloc_xrcd)
		return ERR_PTR(-EOPNOTSUPP);

	/* Zeroed: no users yet. */
	xrcd = rdma_zalloc_drv_obj(device, ib_xrcd);
	if (!xrcd)
		return ERR_PTR(-ENOMEM);
	xa_init(&xrcd->tgt_qps);
	init_rwsem(&xrcd->tgt_qps_rwsem);
	xrcd->inode = inode;
	xrcd->device = device;

	ret = device->ops.alloc_xrcd(xrcd, udata);
	if (!ret)
		return xrcd;
	kfree(xrcd);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_alloc_xrcd_user);

/**
 * ib_dealloc_xrcd_user() - free an XRC domain
 * @xrcd: the domain
 * @udata: the user's driver data, NULL for a kernel domain
 *
 * Return: 0, -EBUSY while XRC SRQs or target QPs use the domain, or the
 * driver's error, in which case the domain still exists.
 */
int ib_dealloc_xrcd_user(struct ib_xrcd *xrcd, struct ib_udata *udata)
{
	struct ib_device *device = xrcd->device;
	int err = atomic_read(&xrcd->usecnt) ? -EBUSY :
		  device->ops.dealloc_xrcd(xrcd, udata);

	if (!err) {
		/* Empty: its last target QP took itself out. */
		xa_destroy(&xrcd->tgt_qps);
		kfree(xrcd);
	}
	return err;
}
EXPORT_SYMBOL(ib_dealloc_xrcd_user);
