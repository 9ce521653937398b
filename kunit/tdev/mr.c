// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: memory regions and what a key reaches in memory.
 *
 * DMA MRs reach all of memory; fast-registration MRs (IB_MR_TYPE_MEM_REG,
 * and IB_MR_TYPE_SG_GAPS when the device advertises it) hold a page list
 * built by map_mr_sg and become usable with an IB_WR_REG_MR work request
 * (tv_reg_mr()), until invalidated (tv_invalidate()).  Integrity MRs
 * (params.integrity) map data and metadata with map_mr_sg_pi and register
 * with IB_WR_REG_MR_INTEGRITY; they present the wire view of sig.c, zero
 * based.  tv_mem_va() turns a key and an address into a kernel address
 * for exec.c: addresses are DMA addresses, which tv_dma_va() resolves as
 * the device's DMA does.
 *
 * Keys: an MR's index in tv_mrs shifted left by 8, plus the low byte its
 * owner chooses with IB_WR_REG_MR; TDEV_LOCAL_DMA_LKEY reaches all of
 * memory for local access.
 *
 * Locking: tv_mrs is an xarray with its own locking, read under RCU by the
 * engine; an MR is freed after a grace period.  mr->lock (IRQ-safe, a
 * leaf) protects what registration changes: key, validity and rights.
 * The page lists are the owner's, who maps and registers them in turn and
 * does not remap an MR that work requests use.
 */
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include "tdev_priv.h"

/* All MRs by index (the key without its low byte). */
static DEFINE_XARRAY_ALLOC1(tv_mrs);

/**
 * struct tv_mr - a memory region
 * @ibmr: the core's MR
 * @rcu: frees the MR after the engine's lookups are done
 * @lock: protects @key, @valid and @access
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
 * @meta: while map_mr_sg_pi maps the metadata of an integrity MR
 * @sig: integrity MRs only: the signature state
 */
struct tv_mr {
	struct ib_mr ibmr;
	struct rcu_head rcu;
	spinlock_t lock;
	u32 key;
	bool dma;
	bool valid;
	int access;
	u64 *pages;
	u32 *seg_len;
	u32 npages;
	u32 max_pages;
	bool meta;
	struct tv_sig *sig;
};

static struct tv_mr *to_tmr(struct ib_mr *m)
{
	return container_of(m, struct tv_mr, ibmr);
}

/**
 * tv_mr_sig - the signature state of an integrity MR
 * @mr: the MR
 *
 * Return: its state, NULL for other MRs.
 */
struct tv_sig *tv_mr_sig(struct tv_mr *mr)
{
	return mr->sig;
}

/* ---- what a key reaches ---- */

/* Like tv_mem_va() for the bytes at @off of an SG_GAPS MR's segments. */
static u64 tv_seg_addr(struct tv_mr *mr, u64 off, u32 len, u32 *chunk)
{
	u32 i;

	for (i = 0; i < mr->npages && off >= mr->seg_len[i]; i++)
		off -= mr->seg_len[i];
	if (i == mr->npages)
		return 0;
	*chunk = min_t(u64, len, mr->seg_len[i] - off);
	return mr->pages[i] + off;
}

/* The extent an MR's key grants: the page list's, or the wire view's. */
static bool tv_mr_covers(struct tv_mr *mr, u64 addr, u32 len)
{
	u64 start = mr->sig ? 0 : mr->ibmr.iova;
	u64 size = mr->sig ? mr->sig->wire_len : mr->ibmr.length;

	return addr >= start && addr - start <= size &&
	       len <= size - (addr - start);
}

/* Whether @key of @mr grants @access to [@addr, @addr + @len). */
static bool tv_mr_grants(struct tv_mr *mr, u32 key, u64 addr, u32 len,
			 int access)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&mr->lock, flags);
	ok = mr->key == key && !(access & ~mr->access) &&
	     (mr->dma || (mr->valid && tv_mr_covers(mr, addr, len)));
	spin_unlock_irqrestore(&mr->lock, flags);
	return ok;
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
 * Called under rcu_read_lock().
 *
 * Return: the kernel address of [@addr, @addr + @chunk), or NULL if @key
 * does not grant that.
 */
void *tv_mem_va(struct ib_pd *pd, u32 key, u64 addr, u32 len, int access,
		u32 *chunk)
{
	struct tdev *td = to_tdev(pd->device);
	struct tv_mr *mr;
	u64 off, psz;

	*chunk = len;
	if (key == TDEV_LOCAL_DMA_LKEY && key == pd->local_dma_lkey &&
	    !(access & (IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE)))
		return tv_dma_va(td, addr);

	mr = xa_load(&tv_mrs, key >> 8);
	if (!mr || mr->ibmr.pd != pd || !tv_mr_grants(mr, key, addr, len, access))
		return NULL;
	if (mr->dma)
		return tv_dma_va(td, addr);
	if (mr->sig)
		return mr->sig->wire + addr;
	if (mr->seg_len) {
		addr = tv_seg_addr(mr, addr - mr->ibmr.iova, len, chunk);
		return addr ? tv_dma_va(td, addr) : NULL;
	}
	psz = mr->ibmr.page_size;
	off = addr - mr->ibmr.iova + (mr->ibmr.iova & (psz - 1));
	*chunk = min_t(u64, len, psz - off % psz);
	return tv_dma_va(td, mr->pages[off / psz] + off % psz);
}

/**
 * tv_mr_integrity - the integrity MR a key of a PD names
 * @pd: the PD
 * @key: the key
 *
 * Called under rcu_read_lock().
 *
 * Return: the MR, or NULL if @key names no integrity MR of @pd.
 */
struct tv_mr *tv_mr_integrity(struct ib_pd *pd, u32 key)
{
	struct tv_mr *mr;

	if (key == TDEV_LOCAL_DMA_LKEY)
		return NULL;
	mr = xa_load(&tv_mrs, key >> 8);
	return mr && mr->sig && mr->ibmr.pd == pd ? mr : NULL;
}

/**
 * tv_invalidate - invalidate a fast-registration MR (LOCAL_INV, SEND_WITH_INV)
 * @pd: the PD of the QP that invalidates
 * @key: the MR's current key
 *
 * Called under rcu_read_lock().
 *
 * Return: false if @key names no such MR of @pd.
 */
bool tv_invalidate(struct ib_pd *pd, u32 key)
{
	struct tv_mr *mr = xa_load(&tv_mrs, key >> 8);
	unsigned long flags;
	bool ok;

	if (!mr || mr->dma || mr->ibmr.pd != pd)
		return false;
	spin_lock_irqsave(&mr->lock, flags);
	ok = mr->key == key;
	if (ok)
		mr->valid = false;
	spin_unlock_irqrestore(&mr->lock, flags);
	return ok;
}

/**
 * tv_reg_mr - execute an IB_WR_REG_MR or IB_WR_REG_MR_INTEGRITY
 * @pd: the PD of the QP it was posted on
 * @wqe: the work request
 *
 * Return: the sender's completion status.
 */
enum ib_wc_status tv_reg_mr(struct ib_pd *pd, const struct tv_wqe *wqe)
{
	struct tv_mr *mr = to_tmr(wqe->reg.mr);
	bool integrity = wqe->opcode == IB_WR_REG_MR_INTEGRITY;
	unsigned long flags;

	if (mr->dma || wqe->reg.mr->pd != pd || !mr->sig != !integrity ||
	    (wqe->reg.key >> 8) != (mr->key >> 8))
		return IB_WC_MW_BIND_ERR;
	if (integrity && !tv_sig_register(mr->sig, &wqe->sig))
		return IB_WC_MW_BIND_ERR;
	spin_lock_irqsave(&mr->lock, flags);
	mr->key = wqe->reg.key;
	mr->access = wqe->reg.access;
	mr->valid = true;
	spin_unlock_irqrestore(&mr->lock, flags);
	return IB_WC_SUCCESS;
}

/**
 * tv_mrs_check_empty - at unload, every MR has left the table
 *
 * One left over was never deregistered, or was freed by a dereg_mr other
 * than the double's: a leak of the core or of a suite, named here rather
 * than found later as an orphaned xarray node.
 */
void tv_mrs_check_empty(void)
{
	WARN(!xa_empty(&tv_mrs), "rdma_kunit_tdev: MRs left at unload\n");
}

/* ---- the verbs ---- */

static struct tv_mr *tv_mr_new(struct ib_pd *pd, int access)
{
	struct tv_mr *mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	u32 idx;

	if (!mr)
		return NULL;
	spin_lock_init(&mr->lock);
	mr->access = access;
	/* Lookups compare the PD before the core sets ibmr.pd */
	mr->ibmr.pd = pd;
	if (xa_alloc(&tv_mrs, &idx, mr, XA_LIMIT(1, 0xffffff), GFP_KERNEL)) {
		kfree(mr);
		return NULL;
	}
	mr->key = idx << 8;
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	return mr;
}

static void tv_mr_free_rcu(struct rcu_head *head)
{
	struct tv_mr *mr = container_of(head, struct tv_mr, rcu);

	if (mr->sig) {
		tv_sig_free(mr->sig);
		kfree(mr->sig);
	}
	kfree(mr->seg_len);
	kfree(mr->pages);
	kfree(mr);
}

/* Out of the table at once; freed once the engines' lookups are done. */
static void tv_mr_free(struct tv_mr *mr)
{
	xa_erase(&tv_mrs, mr->key >> 8);
	call_rcu(&mr->rcu, tv_mr_free_rcu);
}

static struct ib_mr *tv_get_dma_mr(struct ib_pd *pd, int access)
{
	struct tv_mr *mr = tv_mr_new(pd, access);

	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->dma = true;
	return &mr->ibmr;
}

/*
 * The double has no user contexts (no alloc_ucontext): uverbs cannot
 * reach it, so a user MR can never be asked for.
 */
static struct ib_mr *tv_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
				    u64 virt_addr, int access,
				    struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
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
		tv_mr_free(mr);
		return ERR_PTR(-ENOMEM);
	}
	mr->max_pages = max_num_sg;
	return &mr->ibmr;
}

static int tv_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	tv_mr_free(to_tmr(ibmr));
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

	if (mr->sig)
		return -EINVAL;
	mr->npages = 0;
	if (mr->seg_len)
		return tv_map_gaps(mr, sg, sg_nents, sg_offset);
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, tv_set_page);
}

/*
 * Advice on MRs: the "hardware" prefetches each range, which a key of the
 * PD must grant; an advice it does not know it refuses.
 */
static int tv_advise_mr(struct ib_pd *pd,
			enum ib_uverbs_advise_mr_advice advice, u32 flags,
			struct ib_sge *sg_list, u32 num_sge,
			struct uverbs_attr_bundle *attrs)
{
	int access = advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE ?
		     IB_ACCESS_LOCAL_WRITE : 0;
	u32 i, chunk;
	bool ok = true;

	atomic_inc(&to_tdev(pd->device)->advise_calls);
	if (advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH &&
	    advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE &&
	    advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT)
		return -EOPNOTSUPP;
	rcu_read_lock();
	for (i = 0; ok && i < num_sge; i++)
		ok = tv_mem_va(pd, sg_list[i].lkey, sg_list[i].addr,
			       sg_list[i].length, access, &chunk);
	rcu_read_unlock();
	return ok ? 0 : -ENOENT;
}

const struct ib_device_ops tdev_mr_ops = {
	.alloc_mr = tv_alloc_mr,
	.dereg_mr = tv_dereg_mr,
	.map_mr_sg = tv_map_mr_sg,
};

/*
 * Two of the operations a kernel verbs provider must have, and advice on
 * its MRs.
 */
const struct ib_device_ops tdev_kverbs_mr_ops = {
	.get_dma_mr = tv_get_dma_mr,
	.reg_user_mr = tv_reg_user_mr,
	.advise_mr = tv_advise_mr,
};

/* ---- integrity MRs (params.integrity) ---- */

static struct ib_mr *tv_alloc_mr_integrity(struct ib_pd *pd,
					   u32 max_num_data_sg,
					   u32 max_num_meta_sg)
{
	struct tv_mr *mr;
	int ret;

	if (!max_num_data_sg || max_num_data_sg > TDEV_PI_PAGES ||
	    max_num_meta_sg > TDEV_PI_PAGES)
		return ERR_PTR(-EINVAL);
	mr = tv_mr_new(pd, 0);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->sig = kzalloc(sizeof(*mr->sig), GFP_KERNEL);
	ret = mr->sig ? tv_sig_init(mr->sig, TDEV_PI_PAGES) : -ENOMEM;
	if (ret) {
		tv_mr_free(mr);
		return ERR_PTR(ret);
	}
	return &mr->ibmr;
}

/* Collects a page of the data, or of the metadata, of an integrity MR. */
static int tv_set_pi_page(struct ib_mr *ibmr, u64 addr)
{
	struct tv_mr *mr = to_tmr(ibmr);
	struct tv_sig *sig = mr->sig;
	u32 *n = mr->meta ? &sig->nmeta : &sig->ndata;

	if (*n == sig->max_pages)
		return -ENOMEM;
	(mr->meta ? sig->meta_pages : sig->data_pages)[(*n)++] = addr;
	return 0;
}

static int tv_map_mr_sg_pi(struct ib_mr *ibmr, struct scatterlist *data_sg,
			   int data_sg_nents, unsigned int *data_sg_offset,
			   struct scatterlist *meta_sg, int meta_sg_nents,
			   unsigned int *meta_sg_offset)
{
	struct tv_mr *mr = to_tmr(ibmr);
	struct tv_sig *sig = mr->sig;
	int n;

	sig->ndata = 0;
	sig->nmeta = 0;
	sig->meta_len = 0;
	mr->meta = false;
	n = ib_sg_to_pages(ibmr, data_sg, data_sg_nents, data_sg_offset,
			   tv_set_pi_page);
	if (n != data_sg_nents)
		return n < 0 ? n : -ENOMEM;
	sig->data_iova = ibmr->iova;
	sig->data_len = ibmr->length;
	sig->page_size = ibmr->page_size;
	if (meta_sg_nents) {
		mr->meta = true;
		n = ib_sg_to_pages(ibmr, meta_sg, meta_sg_nents, meta_sg_offset,
				   tv_set_pi_page);
		mr->meta = false;
		if (n != meta_sg_nents)
			return n < 0 ? n : -ENOMEM;
		sig->meta_iova = ibmr->iova;
		sig->meta_len = ibmr->length;
	}
	/* Zero based: what the wire sees, data then protection information */
	ibmr->iova = 0;
	ibmr->length = sig->data_len + sig->meta_len;
	ibmr->sig_attrs->meta_length = sig->meta_len;
	return tv_sig_map(sig);
}

static int tv_check_mr_status(struct ib_mr *ibmr, u32 check_mask,
			      struct ib_mr_status *st)
{
	struct tv_mr *mr = to_tmr(ibmr);

	if (!mr->sig)
		return -EINVAL;
	return tv_sig_status(mr->sig, check_mask, st);
}

const struct ib_device_ops tdev_integrity_ops = {
	.alloc_mr_integrity = tv_alloc_mr_integrity,
	.map_mr_sg_pi = tv_map_mr_sg_pi,
	.check_mr_status = tv_check_mr_status,
};
