// SPDX-License-Identifier: GPL-2.0
/*
 * Protection domains of kernel users.
 *
 * A PD's usecnt counts the objects created in it (QPs, MRs, AHs, SRQs...);
 * they increment and decrement it atomically.  pd->__internal_mr, when the
 * device has no local DMA lkey or the caller asked for an unsafe global
 * rkey, is a DMA MR owned by the PD: created with it, freed with it, not
 * counted in usecnt.
 */
#include "abi/ib_core/verbs.h"
#include "core/restrack.h"

/* The DMA MR that gives the PD its lkey and/or global rkey. */
static int ib_pd_internal_mr(struct ib_pd *pd, int access)
{
	struct ib_device *device = pd->device;
	struct ib_mr *mr;

	if (!device->ops.get_dma_mr || !device->ops.dereg_mr)
		return -EOPNOTSUPP;
	mr = device->ops.get_dma_mr(pd, access);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	/* What the core keeps in every MR; a kernel MR has no uobject. */
	mr->type = IB_MR_TYPE_DMA;
	mr->pd = pd;
	mr->device = device;
	mr->need_inval = false;
	mr->uobject = NULL;

	pd->__internal_mr = mr;
	pd->unsafe_global_rkey =
		(pd->flags & IB_PD_UNSAFE_GLOBAL_RKEY) ? mr->rkey : 0;
	if (access & IB_ACCESS_LOCAL_WRITE)
		pd->local_dma_lkey = mr->lkey;
	return 0;
}

/*
 * The access rights of the DMA MR the PD needs, or 0 if it needs none: local
 * write when the device has no lkey of its own, remote read and write for
 * an unsafe global rkey.
 */
static int ib_pd_mr_access(struct ib_device *device, unsigned int flags,
			   const char *caller)
{
	int access = IB_ACCESS_LOCAL_WRITE;

	if (device->attrs.kernel_cap_flags & IBK_LOCAL_DMA_LKEY)
		access = 0;
	if (!(flags & IB_PD_UNSAFE_GLOBAL_RKEY))
		return access;
	pr_warn("%s: PD with an unsafe global rkey: all memory open to remote access\n",
		caller);
	return access | IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE;
}

/**
 * __ib_alloc_pd - allocate a protection domain for a kernel user
 * @device: the device
 * @flags: IB_PD_UNSAFE_GLOBAL_RKEY to get an rkey that opens all of memory
 *	to remote access (pd->unsafe_global_rkey); logged, as it is unsafe
 * @caller: the allocating module's name (ib_alloc_pd() passes it)
 *
 * Every PD has a local_dma_lkey for local memory operations: the device's
 * own when it has IBK_LOCAL_DMA_LKEY, else that of a DMA MR the PD owns.
 * The PD is listed by resource tracking with @caller as its owner.
 *
 * Return: the PD, or an ERR_PTR: -EOPNOTSUPP if the device cannot provide
 * what is needed, -ENOMEM, or the driver's error.
 */
struct ib_pd *__ib_alloc_pd(struct ib_device *device, unsigned int flags,
			    const char *caller)
{
	struct ib_pd *pd;
	int access;
	int ret;

	if (!device->ops.alloc_pd || !device->ops.dealloc_pd)
		return ERR_PTR(-EOPNOTSUPP);
	pd = rdma_zalloc_drv_obj(device, ib_pd);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	/* Zeroed: no users, no internal MR, no uobject (a kernel PD). */
	pd->flags = flags;
	pd->device = device;
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, caller);
	ret = device->ops.alloc_pd(pd, NULL);
	if (ret)
		goto err_free;

	/* Replaced by the DMA MR's lkey below if the device has none. */
	pd->local_dma_lkey = device->local_dma_lkey;
	access = ib_pd_mr_access(device, flags, caller);
	if (access) {
		ret = ib_pd_internal_mr(pd, access);
		if (ret)
			goto err_dealloc;
	}
	rdma_restrack_add(&pd->res);
	return pd;

err_dealloc:
	device->ops.dealloc_pd(pd, NULL);
err_free:
	kfree(pd);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(__ib_alloc_pd);

/**
 * ib_dealloc_pd_user - free a protection domain
 * @pd: the PD
 * @udata: the user's data for a user PD, NULL for a kernel PD
 *
 * Objects created in @pd must be destroyed first.  If some are left, the
 * PD is not freed, one line is logged and it stays usable (and freeable
 * once they are gone).
 *
 * Return: 0, -EBUSY if objects still use @pd, or the driver's error.
 */
int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata)
{
	struct ib_device *device = pd->device;
	int users = atomic_read(&pd->usecnt);
	int ret;

	if (users) {
		dev_warn(&device->dev, "PD still used by %d object(s), not freed\n",
			 users);
		return -EBUSY;
	}
	rdma_restrack_begin_del(&pd->res);
	if (pd->__internal_mr) {
		ret = device->ops.dereg_mr(pd->__internal_mr, NULL);
		if (ret)
			goto err_restore;
		pd->__internal_mr = NULL;
	}
	ret = device->ops.dealloc_pd(pd, udata);
	if (ret)
		goto err_restore;
	rdma_restrack_commit_del(&pd->res);
	kfree(pd);
	return 0;

err_restore:
	rdma_restrack_abort_del(&pd->res);
	return ret;
}
EXPORT_SYMBOL(ib_dealloc_pd_user);
