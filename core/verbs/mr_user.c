// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions over user memory registered by kernel callers, and
 * advice on them (prefetching on-demand-paging MRs).
 *
 * Ownership: the driver allocates the MR and pins the memory; the core
 * holds a usecnt on the PD while the MR exists (ib_dereg_mr_user() in
 * mr.c gives it back).  The owner serialises registration and
 * deregistration of one MR.
 */
#include "abi/ib_core/verbs.h"
#include "core/restrack.h"

/**
 * ib_reg_user_mr() - register user memory for a kernel caller
 * @pd: the protection domain of the MR
 * @start: the user virtual address of the memory, in the current process
 * @length: its length in bytes
 * @virt_addr: the I/O virtual address the MR exposes it at
 * @access_flags: IB_ACCESS_* rights
 *
 * The MR is listed by resource tracking with the owner of @pd.
 *
 * Return: the MR, to be freed with ib_dereg_mr(), or an ERR_PTR():
 * -EOPNOTSUPP if the device cannot register user memory, -EINVAL for
 * IB_ACCESS_ON_DEMAND on a device without on-demand paging, or the
 * driver's error.
 */
struct ib_mr *ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			     u64 virt_addr, int access_flags)
{
	struct ib_device *dev = pd->device;
	struct ib_mr *mr;

	if (!dev->ops.reg_user_mr || !dev->ops.dereg_mr)
		return ERR_PTR(-EOPNOTSUPP);
	if ((access_flags & IB_ACCESS_ON_DEMAND) &&
	    !(dev->attrs.kernel_cap_flags & IBK_ON_DEMAND_PAGING))
		return ERR_PTR(-EINVAL);

	mr = dev->ops.reg_user_mr(pd, start, length, virt_addr, access_flags,
				  NULL);
	if (IS_ERR(mr))
		return mr;

	mr->iova = virt_addr;
	mr->length = length;
	mr->dm = NULL;
	mr->type = IB_MR_TYPE_USER;
	mr->pd = pd;
	mr->device = dev;
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_parent_name(&mr->res, &pd->res);
	rdma_restrack_add(&mr->res);
	atomic_inc(&pd->usecnt);
	return mr;
}
EXPORT_SYMBOL(ib_reg_user_mr);

/**
 * ib_advise_mr() - give the device advice about the use of memory regions
 * @pd: the protection domain of the MRs
 * @advice: what to do (prefetch for reading or writing, ...)
 * @flags: IB_UVERBS_ADVISE_MR_FLAG_FLUSH to wait until it is done
 * @sg_list: the ranges, by lkey, address and length
 * @num_sge: the number of ranges; 0 does nothing
 *
 * Return: 0, -EOPNOTSUPP if the device takes no advice, or the driver's
 * error.
 */
int ib_advise_mr(struct ib_pd *pd, enum ib_uverbs_advise_mr_advice advice,
		 u32 flags, struct ib_sge *sg_list, u32 num_sge)
{
	struct ib_device *dev = pd->device;

	if (!dev->ops.advise_mr)
		return -EOPNOTSUPP;
	if (!num_sge)
		return 0;
	return dev->ops.advise_mr(pd, advice, flags, sg_list, num_sge, NULL);
}
EXPORT_SYMBOL(ib_advise_mr);
