// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions (mr.h): made, mapped and freed.  Their keys are their
 * index in the device's table (sr_dev.mrs) shifted past a key byte that
 * the ULP may change between fast registrations; lkey and rkey are the
 * same.  An MR enters the table whole (reserved, then published) and
 * leaves it before it is torn down: the data path finds MRs there under
 * RCU (mem.c), so dereg_mr waits for the users it has and frees the MR
 * after a grace period.
 */
#include <linux/slab.h>
#include "dev.h"
#include "mr.h"

/* A new MR of @pd with an index in the device's table, not yet in it. */
static struct sr_mr *sr_mr_new(struct ib_pd *pd, int access)
{
	struct sr_dev *sdev = to_sr_dev(pd->device);
	struct sr_mr *mr;
	u32 index;
	int ret;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	/* Reserved: lookups find nothing there until sr_mr_publish() */
	ret = xa_alloc(&sdev->mrs, &index, NULL, XA_LIMIT(1, SR_MAX_MR),
		       GFP_KERNEL);
	if (ret) {
		kfree(mr);
		return ERR_PTR(ret == -EBUSY ? -EINVAL : ret);
	}
	mr->ibmr.lkey = index << 8;
	mr->ibmr.rkey = mr->ibmr.lkey;
	mr->pd = pd;
	mr->access = access;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->unused);
	return mr;
}

/* Puts a whole MR in its slot, where the data path finds it by @key. */
static void sr_mr_publish(struct sr_dev *sdev, struct sr_mr *mr, u32 key)
{
	mr->key = key;
	/* The slot is reserved: storing allocates nothing, cannot fail */
	xa_store(&sdev->mrs, mr->ibmr.lkey >> 8, mr, GFP_KERNEL);
}

/*
 * Frees an MR out of the table (its slot may already be another's) that
 * no lookup holds any longer.
 */
static void sr_mr_free(struct sr_mr *mr)
{
	kvfree(mr->upages);
	kfree(mr->pages);
	kfree_rcu(mr, rcu);
}

/* Undoes sr_mr_new() for an MR that never was in the table. */
static void sr_mr_discard(struct sr_dev *sdev, struct sr_mr *mr)
{
	xa_erase(&sdev->mrs, mr->ibmr.lkey >> 8);
	sr_mr_free(mr);
}

/* A user MR's pages, in order, from the pages the core pinned. */
static int sr_mr_user_pages(struct sr_mr *mr, struct ib_umem *umem)
{
	struct sg_page_iter iter;
	u32 n = 0;

	mr->n_upages = ib_umem_num_pages(umem);
	mr->upages = kvcalloc(mr->n_upages, sizeof(*mr->upages), GFP_KERNEL);
	if (!mr->upages)
		return -ENOMEM;
	for_each_sgtable_page(&umem->sgt_append.sgt, &iter, 0) {
		if (n == mr->n_upages)
			break;
		mr->upages[n++] = sg_page_iter_page(&iter);
	}
	mr->n_upages = n;
	mr->uoff = ib_umem_offset(umem);
	return 0;
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
	sr_mr_publish(to_sr_dev(pd->device), mr, mr->ibmr.lkey);
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
	int ret;

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
	ret = sr_mr_user_pages(mr, umem);
	if (ret) {
		sr_mr_discard(to_sr_dev(pd->device), mr);
		ib_umem_release(umem);
		return ERR_PTR(ret);
	}
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	sr_mr_publish(to_sr_dev(pd->device), mr, mr->ibmr.lkey);
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
		sr_mr_discard(to_sr_dev(pd->device), mr);
		return ERR_PTR(-ENOMEM);
	}
	mr->max_pages = max_num_sg;
	/* Key 0: found by no key until a registration gives it one */
	sr_mr_publish(to_sr_dev(pd->device), mr, 0);
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
 * Takes the MR out of the table, waits until the data path no longer uses
 * it, then frees it (after a grace period: a lookup may still see it).
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int sr_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct sr_dev *sdev = to_sr_dev(ibmr->device);
	struct sr_mr *mr = to_sr_mr(ibmr);

	xa_erase(&sdev->mrs, ibmr->lkey >> 8);
	if (!refcount_dec_and_test(&mr->ref))
		wait_for_completion(&mr->unused);
	ib_umem_release(mr->umem);
	sr_mr_free(mr);
	return 0;
}
