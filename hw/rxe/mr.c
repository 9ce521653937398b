// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions (mr.h): made, mapped and freed.  Their keys are their
 * index in the device's table (sr_dev.mrs) shifted past a key byte that
 * the ULP may change between fast registrations; lkey and rkey are the
 * same.  Looking them up for the data path comes with the data path.
 */
#include <linux/slab.h>
#include "dev.h"
#include "mr.h"

/* A new MR of @pd, in the device's table, its keys set. */
static struct sr_mr *sr_mr_new(struct ib_pd *pd, int access)
{
	struct sr_dev *sdev = to_sr_dev(pd->device);
	struct sr_mr *mr;
	u32 index;
	int ret;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	ret = xa_alloc(&sdev->mrs, &index, mr, XA_LIMIT(1, SR_MAX_MR),
		       GFP_KERNEL);
	if (ret) {
		kfree(mr);
		return ERR_PTR(ret == -EBUSY ? -EINVAL : ret);
	}
	mr->ibmr.lkey = index << 8;
	mr->ibmr.rkey = mr->ibmr.lkey;
	mr->access = access;
	return mr;
}

static void sr_mr_free(struct sr_dev *sdev, struct sr_mr *mr)
{
	xa_erase(&sdev->mrs, mr->ibmr.lkey >> 8);
	kfree(mr->pages);
	kfree(mr);
}

/**
 * sr_get_dma_mr - the get_dma_mr verb: an MR of all kernel memory
 * @pd: its PD
 * @access: its access flags
 *
 * Context: process context, may sleep.
 * Return: the MR, or an ERR_PTR (-ENOMEM; -EINVAL when the device has
 * max_mr MRs).
 */
struct ib_mr *sr_get_dma_mr(struct ib_pd *pd, int access)
{
	struct sr_mr *mr = sr_mr_new(pd, access);

	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->ibmr.length = U64_MAX;
	return &mr->ibmr;
}

/**
 * sr_reg_user_mr - the reg_user_mr verb: an MR of a user's buffer
 * @pd: its PD
 * @start: the buffer's address in the process
 * @length: its bytes
 * @iova: the address the MR gives its first byte
 * @access: its access flags
 * @udata: the user's
 *
 * Context: process context, may sleep.
 * Return: the MR, or an ERR_PTR: what pinning the pages returned, -ENOMEM,
 * -EINVAL when the device has max_mr MRs.
 */
struct ib_mr *sr_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			     u64 iova, int access, struct ib_udata *udata)
{
	struct ib_umem *umem;
	struct sr_mr *mr;

	/* No IB_ACCESS_ON_DEMAND: without IBK_ON_DEMAND_PAGING, refused */
	umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(umem))
		return ERR_CAST(umem);
	mr = sr_mr_new(pd, access);
	if (IS_ERR(mr)) {
		ib_umem_release(umem);
		return ERR_CAST(mr);
	}
	mr->umem = umem;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	return &mr->ibmr;
}

/**
 * sr_alloc_mr - the alloc_mr verb: a fast-registration MR
 * @pd: its PD
 * @type: IB_MR_TYPE_MEM_REG, the only one the device has
 * @max_num_sg: pages it can map, at most SR_MAX_FAST_REG_PAGES
 *
 * Context: process context, may sleep.
 * Return: the MR, or an ERR_PTR: -EINVAL for another type, too many pages
 * or a device that has max_mr MRs; -ENOMEM.
 */
struct ib_mr *sr_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			  u32 max_num_sg)
{
	struct sr_mr *mr;

	if (type != IB_MR_TYPE_MEM_REG || !max_num_sg ||
	    max_num_sg > SR_MAX_FAST_REG_PAGES)
		return ERR_PTR(-EINVAL);
	mr = sr_mr_new(pd, 0);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->pages = kcalloc(max_num_sg, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages) {
		sr_mr_free(to_sr_dev(pd->device), mr);
		return ERR_PTR(-ENOMEM);
	}
	mr->max_pages = max_num_sg;
	return &mr->ibmr;
}

/* ib_sg_to_pages()' callback: one more page, if the list has room. */
static int sr_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct sr_mr *mr = to_sr_mr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

/**
 * sr_map_mr_sg - the map_mr_sg verb
 * @ibmr: a fast-registration MR
 * @sg: the scatterlist (DMA addresses: kernel virtual ones)
 * @sg_nents: its entries
 * @sg_offset: bytes to skip in the first, or NULL
 *
 * Replaces the MR's page list; ib_sg_to_pages() sets its iova, length and
 * page size.
 *
 * Return: the entries mapped, fewer than @sg_nents when the list is full.
 */
int sr_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset)
{
	to_sr_mr(ibmr)->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, sr_mr_set_page);
}

/**
 * sr_dereg_mr - the dereg_mr verb
 * @ibmr: the MR
 * @udata: unused
 *
 * Return: 0.
 */
int sr_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct sr_mr *mr = to_sr_mr(ibmr);

	ib_umem_release(mr->umem);
	sr_mr_free(to_sr_dev(ibmr->device), mr);
	return 0;
}
