// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: memory regions and what a key reaches in memory.
 *
 * DMA MRs reach all of memory; fast-registration MRs (IB_MR_TYPE_MEM_REG,
 * and IB_MR_TYPE_SG_GAPS when the device advertises it) hold a page list
 * built by map_mr_sg and become usable with an IB_WR_REG_MR work request
 * (tv_reg_mr()), until invalidated (tv_invalidate()).  tv_mem_va() turns a
 * key and an address into a kernel address for datapath.c.
 *
 * Keys: an MR's index in tv_mrs shifted left by 8, plus the low byte its
 * owner chooses with IB_WR_REG_MR; TDEV_LOCAL_DMA_LKEY reaches all of
 * memory for local access.
 *
 * Locking: tv_mrs is an xarray with its own locking.  An MR has no lock:
 * it is owned by the consumer, who serialises map, register and
 * invalidate, and does not deregister it while work requests use it.
 */
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include "tdev_priv.h"

#define TV_MAX_PAGES	256

/* All MRs by index (the key without its low byte). */
static DEFINE_XARRAY_ALLOC1(tv_mrs);

/**
 * struct tv_mr - a memory region
 * @ibmr: the core's MR
 * @key: the key the "hardware" holds, for lkey/rkey checks; ibmr's keys run
 *	ahead of it between ib_update_fast_reg_key() and the IB_WR_REG_MR
 * @dma: a DMA MR: all of memory, no page list
 * @valid: a fast-registration MR registered by IB_WR_REG_MR and not
 *	invalidated since
 * @access: access rights (IB_ACCESS_*)
 * @pages: the page list built by map_mr_sg; for an SG_GAPS MR, the start
 *	address of each segment
 * @seg_len: SG_GAPS MRs only: the length of each segment of @pages
 * @npages: pages in @pages
 * @max_pages: capacity of @pages
 *
 * Owned by the consumer, who serialises map, register and invalidate.
 */
struct tv_mr {
	struct ib_mr ibmr;
	u32 key;
	bool dma;
	bool valid;
	int access;
	u64 *pages;
	u32 *seg_len;
	u32 npages;
	u32 max_pages;
};

static struct tv_mr *to_tmr(struct ib_mr *m)
{
	return container_of(m, struct tv_mr, ibmr);
}

/* ---- what a key reaches ---- */

/* Like tv_mem_va() for the bytes at @off of an SG_GAPS MR's segments. */
static void *tv_seg_va(struct tv_mr *mr, u64 off, u32 len, u32 *chunk)
{
	u32 i;

	for (i = 0; i < mr->npages && off >= mr->seg_len[i]; i++)
		off -= mr->seg_len[i];
	if (i == mr->npages)
		return NULL;
	*chunk = min_t(u64, len, mr->seg_len[i] - off);
	return (void *)(uintptr_t)(mr->pages[i] + off);
}

/**
 * tv_mem_va - the kernel address of memory a key grants
 * @pd: the PD the access is made in
 * @key: the lkey or rkey
 * @addr: the first byte, an address in the key's MR
 * @len: the bytes wanted from @addr on
 * @access: the IB_ACCESS_* rights needed
 * @chunk: set to how many bytes from @addr on are contiguous there
 *
 * Return: the kernel address of [@addr, @addr + @len), or NULL if @key
 * does not grant that.
 */
void *tv_mem_va(struct ib_pd *pd, u32 key, u64 addr, u32 len, int access,
		u32 *chunk)
{
	struct tv_mr *mr;
	u64 off, psz;

	*chunk = len;
	if (key == TDEV_LOCAL_DMA_LKEY && key == pd->local_dma_lkey &&
	    !(access & (IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE)))
		return (void *)(uintptr_t)addr;

	mr = xa_load(&tv_mrs, key >> 8);
	if (!mr || mr->ibmr.pd != pd || mr->key != key)
		return NULL;
	if ((access & ~IB_ACCESS_LOCAL_WRITE) & ~mr->access)
		return NULL;
	if (mr->dma)
		return (void *)(uintptr_t)addr;
	if (!mr->valid || addr < mr->ibmr.iova ||
	    addr + len > mr->ibmr.iova + mr->ibmr.length)
		return NULL;

	if (mr->seg_len)
		return tv_seg_va(mr, addr - mr->ibmr.iova, len, chunk);
	psz = mr->ibmr.page_size;
	off = addr - mr->ibmr.iova + (mr->ibmr.iova & (psz - 1));
	*chunk = min_t(u64, len, psz - off % psz);
	return (void *)(uintptr_t)(mr->pages[off / psz] + off % psz);
}

/**
 * tv_invalidate - invalidate a fast-registration MR (LOCAL_INV, SEND_WITH_INV)
 * @pd: the PD of the QP that invalidates
 * @key: the MR's current key
 *
 * Return: false if @key names no such MR of @pd.
 */
bool tv_invalidate(struct ib_pd *pd, u32 key)
{
	struct tv_mr *mr = xa_load(&tv_mrs, key >> 8);

	if (!mr || mr->dma || mr->ibmr.pd != pd || mr->key != key)
		return false;
	mr->valid = false;
	return true;
}

/**
 * tv_reg_mr - execute an IB_WR_REG_MR work request
 * @pd: the PD of the QP it was posted on
 * @reg: the work request
 *
 * Return: the sender's completion status.
 */
enum ib_wc_status tv_reg_mr(struct ib_pd *pd, const struct ib_reg_wr *reg)
{
	struct tv_mr *mr = to_tmr(reg->mr);

	if (mr->dma || reg->mr->pd != pd ||
	    (reg->key >> 8) != (reg->mr->lkey >> 8))
		return IB_WC_MW_BIND_ERR;
	mr->key = reg->key;
	mr->ibmr.lkey = reg->key;
	mr->ibmr.rkey = reg->key;
	mr->access = reg->access;
	mr->valid = true;
	return IB_WC_SUCCESS;
}

/* ---- the verbs ---- */

static struct tv_mr *tv_mr_new(struct ib_pd *pd, int access)
{
	struct tv_mr *mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	u32 idx;

	if (!mr)
		return NULL;
	if (xa_alloc(&tv_mrs, &idx, mr, XA_LIMIT(1, 0xffffff), GFP_KERNEL)) {
		kfree(mr);
		return NULL;
	}
	mr->access = access;
	mr->key = idx << 8;
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	return mr;
}

static struct ib_mr *tv_get_dma_mr(struct ib_pd *pd, int access)
{
	struct tv_mr *mr = tv_mr_new(pd, access);

	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->dma = true;
	/* tv_mem_va() compares the PD before the core sets ibmr.pd */
	mr->ibmr.pd = pd;
	return &mr->ibmr;
}

static struct ib_mr *tv_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
				 u32 max_num_sg)
{
	struct tv_mr *mr;

	if (type != IB_MR_TYPE_MEM_REG && type != IB_MR_TYPE_SG_GAPS)
		return ERR_PTR(-EINVAL);
	if (!max_num_sg || max_num_sg > TV_MAX_PAGES)
		return ERR_PTR(-EINVAL);
	mr = tv_mr_new(pd, 0);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->pages = kcalloc(max_num_sg, sizeof(*mr->pages), GFP_KERNEL);
	if (type == IB_MR_TYPE_SG_GAPS)
		mr->seg_len = kcalloc(max_num_sg, sizeof(*mr->seg_len),
				      GFP_KERNEL);
	if (!mr->pages || (type == IB_MR_TYPE_SG_GAPS && !mr->seg_len)) {
		xa_erase(&tv_mrs, mr->ibmr.lkey >> 8);
		kfree(mr->seg_len);
		kfree(mr->pages);
		kfree(mr);
		return ERR_PTR(-ENOMEM);
	}
	mr->max_pages = max_num_sg;
	return &mr->ibmr;
}

static int tv_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct tv_mr *mr = to_tmr(ibmr);

	xa_erase(&tv_mrs, ibmr->lkey >> 8);
	kfree(mr->seg_len);
	kfree(mr->pages);
	kfree(mr);
	return 0;
}

static int tv_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct tv_mr *mr = to_tmr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

/*
 * An SG_GAPS MR maps each element as a segment of its own, whatever its
 * alignment; the MR's addresses run on from one segment to the next.
 */
static int tv_map_gaps(struct tv_mr *mr, struct scatterlist *sgl,
		       int sg_nents, unsigned int *sg_offset)
{
	unsigned int skip = sg_offset ? *sg_offset : 0;
	struct scatterlist *sg;
	int i;

	mr->ibmr.length = 0;
	for_each_sg(sgl, sg, sg_nents, i) {
		if (i == mr->max_pages || sg_dma_len(sg) <= skip)
			break;
		mr->pages[i] = sg_dma_address(sg) + skip;
		mr->seg_len[i] = sg_dma_len(sg) - skip;
		mr->ibmr.length += mr->seg_len[i];
		skip = 0;
	}
	mr->npages = i;
	if (i)
		mr->ibmr.iova = mr->pages[0];
	return i;
}

static int tv_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
			int sg_nents, unsigned int *sg_offset)
{
	struct tv_mr *mr = to_tmr(ibmr);

	mr->npages = 0;
	if (mr->seg_len)
		return tv_map_gaps(mr, sg, sg_nents, sg_offset);
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, tv_set_page);
}

const struct ib_device_ops tdev_mr_ops = {
	.get_dma_mr = tv_get_dma_mr,
	.alloc_mr = tv_alloc_mr,
	.dereg_mr = tv_dereg_mr,
	.map_mr_sg = tv_map_mr_sg,
};
