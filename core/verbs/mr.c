// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel memory regions for fast registration: allocation, status check
 * and deregistration.  The page lists are built in mr_map.c.
 *
 * Ownership: the driver allocates and frees an MR; the core holds a usecnt
 * on its PD while it exists and owns the signature attributes of an
 * integrity MR.  The owner serialises allocation, mapping and
 * deregistration of one MR.
 */
#include "abi/ib_core/verbs.h"
#include "core/restrack.h"

/* List @mr for resource tracking, owned by the owner of @pd. */
static void mr_track(struct ib_mr *mr, struct ib_pd *pd)
{
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_parent_name(&mr->res, &pd->res);
	rdma_restrack_add(&mr->res);
}

static void mr_init_common(struct ib_mr *mr, struct ib_pd *pd,
			   enum ib_mr_type type)
{
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = type;
	mr->uobject = NULL;
	mr->dm = NULL;
	mr->need_inval = false;
	atomic_inc(&pd->usecnt);
	mr_track(mr, pd);
}

/**
 * ib_alloc_mr() - allocate a memory region for fast registration
 * @pd: the protection domain of the MR
 * @mr_type: IB_MR_TYPE_MEM_REG, or IB_MR_TYPE_SG_GAPS on devices with
 *	IBK_SG_GAPS_REG
 * @max_num_sg: the most scatterlist entries (or pages) one registration may
 *	use
 *
 * A registration of an IB_MR_TYPE_MEM_REG region covers at most
 * @max_num_sg pages of the page size given to ib_map_mr_sg().
 *
 * Return: the MR, or an ERR_PTR(): -EOPNOTSUPP if the device cannot
 * allocate MRs, -EINVAL for IB_MR_TYPE_INTEGRITY (use
 * ib_alloc_mr_integrity()) or for SG_GAPS on a device without it, or the
 * driver's error.
 */
struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			  u32 max_num_sg)
{
	struct ib_device *dev = pd->device;
	struct ib_mr *mr;

	if (!dev->ops.alloc_mr)
		return ERR_PTR(-EOPNOTSUPP);
	if (mr_type == IB_MR_TYPE_INTEGRITY)
		return ERR_PTR(-EINVAL);
	if (mr_type == IB_MR_TYPE_SG_GAPS &&
	    !(dev->attrs.kernel_cap_flags & IBK_SG_GAPS_REG))
		return ERR_PTR(-EINVAL);

	mr = dev->ops.alloc_mr(pd, mr_type, max_num_sg);
	if (IS_ERR(mr))
		return mr;

	mr_init_common(mr, pd, mr_type);
	mr->sig_attrs = NULL;
	return mr;
}
EXPORT_SYMBOL(ib_alloc_mr);

/**
 * ib_alloc_mr_integrity() - allocate a memory region for data integrity
 * @pd: the protection domain of the MR
 * @max_num_data_sg: the most data scatterlist entries of a registration
 * @max_num_meta_sg: the most metadata (protection information) entries
 *
 * Return: the MR, or an ERR_PTR(): -EOPNOTSUPP if the device has no
 * integrity MRs, -EINVAL without metadata entries, -ENOMEM, or the
 * driver's error.
 */
struct ib_mr *ib_alloc_mr_integrity(struct ib_pd *pd, u32 max_num_data_sg,
				    u32 max_num_meta_sg)
{
	struct ib_device *dev = pd->device;
	struct ib_sig_attrs *sig;
	struct ib_mr *mr;

	if (!dev->ops.alloc_mr_integrity || !dev->ops.map_mr_sg_pi)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_meta_sg)
		return ERR_PTR(-EINVAL);

	sig = kzalloc(sizeof(*sig), GFP_KERNEL);
	if (!sig)
		return ERR_PTR(-ENOMEM);

	mr = dev->ops.alloc_mr_integrity(pd, max_num_data_sg, max_num_meta_sg);
	if (IS_ERR(mr)) {
		kfree(sig);
		return mr;
	}

	mr_init_common(mr, pd, IB_MR_TYPE_INTEGRITY);
	mr->sig_attrs = sig;
	return mr;
}
EXPORT_SYMBOL(ib_alloc_mr_integrity);

/**
 * ib_dereg_mr_user() - deregister and free a memory region
 * @mr: the MR
 * @udata: the user's buffer, NULL for kernel MRs
 *
 * Return: 0, or the driver's error, in which case the MR still exists.
 */
int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata)
{
	struct ib_sig_attrs *sig = mr->sig_attrs;
	struct ib_pd *pd = mr->pd;
	struct ib_dm *dm = mr->dm;
	int ret;

	/* The driver frees the MR: forget it first, list it again if it stays. */
	rdma_restrack_del(&mr->res);
	ret = mr->device->ops.dereg_mr(mr, udata);
	if (ret) {
		mr_track(mr, pd);
		return ret;
	}

	atomic_dec(&pd->usecnt);
	if (dm)
		atomic_dec(&dm->usecnt);
	kfree(sig);
	return 0;
}
EXPORT_SYMBOL(ib_dereg_mr_user);

/**
 * ib_check_mr_status() - read the error status of a memory region
 * @mr: the MR (an integrity MR after a signature operation)
 * @check_mask: the checks the caller wants (enum ib_mr_status_check)
 * @mr_status: filled with the result
 *
 * Return: 0, -EOPNOTSUPP if the device cannot report MR status, or the
 * driver's error.
 */
int ib_check_mr_status(struct ib_mr *mr, u32 check_mask,
		       struct ib_mr_status *mr_status)
{
	int (*check)(struct ib_mr *mr, u32 mask, struct ib_mr_status *st) =
		mr->device->ops.check_mr_status;

	return check ? check(mr, check_mask, mr_status) : -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_check_mr_status);
