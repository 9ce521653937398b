// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions on the data path (mem.h), in any context.  A key is
 * looked up in the device's table under RCU and the MR held by a
 * reference for as long as it is used (dereg_mr waits for it); the bytes
 * are reached page by page, through kmap_local_page(), so no region needs
 * a mapping of its own.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include "dev.h"
#include "mem.h"

/**
 * sr_mr_get - find the MR a key names
 * @sdev: the device
 * @key: an lkey or rkey, key byte included
 *
 * Context: any.
 * Return: the MR, held (sr_mr_put()), or NULL if no MR answers to @key.
 */
struct sr_mr *sr_mr_get(struct sr_dev *sdev, u32 key)
{
	struct sr_mr *mr;

	rcu_read_lock();
	mr = xa_load(&sdev->mrs, key >> 8);
	/* Pairs with sr_mr_register()'s release: its access is seen */
	if (mr && (smp_load_acquire(&mr->key) != key ||
		   !refcount_inc_not_zero(&mr->ref)))
		mr = NULL;
	rcu_read_unlock();
	return mr;
}

/**
 * sr_mr_put - done with an MR sr_mr_get() gave
 * @mr: the MR
 *
 * Context: any.
 */
void sr_mr_put(struct sr_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		complete(&mr->unused);
}

/**
 * sr_mr_register - a REG_MR work request: a fast-registration MR gets a key
 * @ibmr: the MR, mapped by ib_map_mr_sg() (its bounds and pages)
 * @pd: the PD of the QP that asks; the MR must be its
 * @key: the key, of the MR's index (the ULP changes only the key byte)
 * @access: the access flags the registration gives
 *
 * Context: any (the requester).
 * Return: 0, or -EINVAL: not a fast-registration MR of @pd, a key of
 * another index, or an MR that is registered (invalidate it first).
 */
int sr_mr_register(struct ib_mr *ibmr, const struct ib_pd *pd, u32 key,
		   int access)
{
	struct sr_mr *mr = to_sr_mr(ibmr);

	if (!mr->pages || mr->pd != pd || key >> 8 != ibmr->lkey >> 8)
		return -EINVAL;
	if (cmpxchg(&mr->key, 0, SR_MR_KEY_BUSY))
		return -EINVAL;
	mr->access = access;
	/* Whoever finds the key sees the access and the mapping before it */
	smp_store_release(&mr->key, key);
	return 0;
}

/**
 * sr_mr_invalidate - a fast-registration MR's key taken away (LOCAL_INV,
 *	or a send with invalidate)
 * @sdev: the device
 * @pd: the PD of the QP that asks; the MR must be its
 * @key: the key it is registered under
 *
 * Lookups no longer find it.  A user that found it before keeps it until
 * it lets go.
 *
 * Context: any.
 * Return: 0, or -EINVAL: no fast-registration MR of @pd is registered
 * under @key.
 */
int sr_mr_invalidate(struct sr_dev *sdev, const struct ib_pd *pd, u32 key)
{
	struct sr_mr *mr;
	int ret = -EINVAL;

	rcu_read_lock();
	mr = xa_load(&sdev->mrs, key >> 8);
	if (mr && mr->pages && mr->pd == pd &&
	    cmpxchg(&mr->key, key, 0) == key)
		ret = 0;
	rcu_read_unlock();
	return ret;
}

/**
 * sr_mr_allows - may a QP of @pd use @len bytes of @mr at @iova so?
 * @mr: the MR
 * @pd: the PD of the QP that uses it
 * @access: the access the use needs: 0 to read it locally, else
 *	IB_ACCESS_LOCAL_WRITE, IB_ACCESS_REMOTE_READ, _WRITE or _ATOMIC
 * @iova: the first byte
 * @len: the bytes, 0 allowed
 *
 * Context: any.
 * Return: true if @mr is @pd's, was made with @access and holds the range.
 */
bool sr_mr_allows(const struct sr_mr *mr, const struct ib_pd *pd,
		  int access, u64 iova, u64 len)
{
	u64 start = mr->ibmr.iova, length = mr->ibmr.length;

	if (mr->pd != pd || (mr->access & access) != access)
		return false;
	/* Within [start, start + length), without overflowing */
	return iova >= start && iova - start <= length &&
	       len <= length - (iova - start);
}

/**
 * sr_mr_use - the MR a key names, if a QP of @pd may use it so
 * @sdev: the device
 * @pd: the QP's PD
 * @key: the lkey or rkey
 * @access: as for sr_mr_allows()
 * @iova: the first byte
 * @len: the bytes
 *
 * Context: any.
 * Return: the MR, held (sr_mr_put()), or NULL: no such key, or a use
 * sr_mr_allows() refuses.
 */
struct sr_mr *sr_mr_use(struct sr_dev *sdev, const struct ib_pd *pd,
			u32 key, int access, u64 iova, u64 len)
{
	struct sr_mr *mr = sr_mr_get(sdev, key);

	if (mr && !sr_mr_allows(mr, pd, access, iova, len)) {
		sr_mr_put(mr);
		mr = NULL;
	}
	return mr;
}

/*
 * The page that holds byte @iova of @mr, which holds it, and the byte's
 * offset there; NULL if it has no page (a DMA MR's address outside the
 * kernel's linear map).
 */
static struct page *sr_mr_page(const struct sr_mr *mr, u64 iova,
			       unsigned int *off)
{
	u64 at;

	if (mr->upages) {
		at = iova - mr->ibmr.iova + mr->uoff;
		*off = offset_in_page(at);
		at >>= PAGE_SHIFT;
		return at < mr->n_upages ? mr->upages[at] : NULL;
	}
	if (mr->pages) {
		u64 psz = mr->ibmr.page_size;

		at = iova - (mr->ibmr.iova & ~(psz - 1));
		if (at / psz >= mr->npages)
			return NULL;
		iova = mr->pages[at / psz] + at % psz;
	}
	/* A kernel virtual address: the device's DMA is the CPU's */
	if (!virt_addr_valid((void *)(uintptr_t)iova))
		return NULL;
	*off = offset_in_page(iova);
	return virt_to_page((void *)(uintptr_t)iova);
}

/* What a walk does with each piece of the region, mapped at @va. */
struct sr_mr_walk {
	int (*piece)(struct sr_mr_walk *walk, void *va, unsigned int len);
	bool to_mr;
	void *buf;
	const struct sk_buff *skb;
	unsigned int skb_off;
};

/* Hands @len bytes of @mr from @iova (which it holds) to @walk, by page. */
static int sr_mr_walk(struct sr_mr *mr, u64 iova, u32 len,
		      struct sr_mr_walk *walk)
{
	unsigned int off, n;
	struct page *page;
	void *va;
	int ret;

	while (len) {
		page = sr_mr_page(mr, iova, &off);
		if (!page)
			return -EFAULT;
		n = min_t(u32, len, PAGE_SIZE - off);
		va = kmap_local_page(page);
		ret = walk->piece(walk, va + off, n);
		kunmap_local(va);
		if (ret)
			return ret;
		iova += n;
		len -= n;
	}
	return 0;
}

static int sr_mr_piece_buf(struct sr_mr_walk *walk, void *va,
			   unsigned int len)
{
	if (walk->to_mr)
		memcpy(va, walk->buf, len);
	else
		memcpy(walk->buf, va, len);
	walk->buf += len;
	return 0;
}

/**
 * sr_mr_copy - copy between a kernel buffer and an MR
 * @mr: the MR, held, which holds the range (sr_mr_use())
 * @iova: the range's first byte
 * @buf: the buffer
 * @len: the bytes
 * @to_mr: into the MR if true, else out of it
 *
 * Context: any.
 * Return: 0, or -EFAULT when a DMA MR's address has no page.
 */
int sr_mr_copy(struct sr_mr *mr, u64 iova, void *buf, u32 len, bool to_mr)
{
	struct sr_mr_walk walk = {
		.piece = sr_mr_piece_buf,
		.to_mr = to_mr,
		.buf = buf,
	};

	return sr_mr_walk(mr, iova, len, &walk);
}

static int sr_mr_piece_skb(struct sr_mr_walk *walk, void *va,
			   unsigned int len)
{
	int ret = skb_copy_bits(walk->skb, walk->skb_off, va, len);

	walk->skb_off += len;
	return ret;
}

/**
 * sr_mr_from_skb - copy bytes of a packet into an MR
 * @mr: the MR, held, which holds the range (sr_mr_use())
 * @iova: the range's first byte
 * @skb: the packet, linear or not
 * @off: where the bytes start, from @skb->data
 * @len: the bytes, which @skb has
 *
 * Context: any.
 * Return: 0, -EFAULT when a DMA MR's address has no page or @skb is
 * shorter than said.
 */
int sr_mr_from_skb(struct sr_mr *mr, u64 iova, const struct sk_buff *skb,
		   unsigned int off, u32 len)
{
	struct sr_mr_walk walk = {
		.piece = sr_mr_piece_skb,
		.skb = skb,
		.skb_off = off,
	};

	return sr_mr_walk(mr, iova, len, &walk);
}
