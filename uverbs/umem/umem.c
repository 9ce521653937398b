// SPDX-License-Identifier: GPL-2.0
/*
 * ib_umem: a range of a process's memory pinned for an RDMA device.
 *
 * ib_umem_get() works for the calling process (current->mm):
 *
 *  1. it checks the range and the caller's right to lock memory;
 *  2. it charges the pages the range touches to mm->pinned_vm, which may not
 *     exceed RLIMIT_MEMLOCK unless the caller has CAP_IPC_LOCK;
 *  3. it pins them for the long term (FOLL_LONGTERM), a batch at a time,
 *     appending each batch to the umem's scatterlist (sgt_append), whose
 *     elements start on page boundaries and cover whole pages;
 *  4. it maps the scatterlist for DMA on the device (for a device without a
 *     DMA device the ib_dma_* helpers make DMA addresses kernel addresses).
 *
 * Each step is undone, in reverse, when a later one fails, and by
 * ib_umem_release().  Pages are pinned as for a write even when the access
 * flags are read-only (FOLL_FORCE then), as the target kernel does: the
 * device and the process must see the same pages, so copy-on-write is
 * broken at registration.  Pages are dirtied on release only when the
 * access flags let the device write (ib_access_writable()).
 *
 * The charge is computed from the address and length the umem was made
 * with, which never change (ib_umem_find_best_pgsz() moves only iova).
 *
 * Locking: a umem belongs to the driver that got it; mm->pinned_vm is an
 * atomic counter.  Only the calling process's own memory is pinned, under
 * the locking pin_user_pages_fast() does itself.
 */
#include "abi/ib_uverbs/umem.h"

/* Pages pinned by one call of pin_user_pages_fast(). */
#define UMEM_PIN_BATCH	(PAGE_SIZE / sizeof(struct page *))

/* The number of pages that [@addr, @addr + @len) touches. */
static unsigned long umem_span(unsigned long addr, size_t len)
{
	return (PAGE_ALIGN(addr + len) - (addr & PAGE_MASK)) >> PAGE_SHIFT;
}

/*
 * The checks made before anything is allocated, in the target's order: a
 * range that wraps (-EINVAL), a caller that may not lock memory (-EPERM),
 * on-demand paging, which needs ib_umem_odp (-EOPNOTSUPP), an empty or
 * too large range (-EINVAL), and a caller without an address space
 * (-EFAULT).
 */
static int umem_check(unsigned long addr, size_t size, int access)
{
	unsigned long end;

	if (check_add_overflow(addr, size, &end) || PAGE_ALIGN(end) < end)
		return -EINVAL;
	if (!can_do_mlock())
		return -EPERM;
	if (access & IB_ACCESS_ON_DEMAND)
		return -EOPNOTSUPP;
	if (!size || umem_span(addr, size) > UINT_MAX)
		return -EINVAL;
	if (!current->mm)
		return -EFAULT;
	return 0;
}

/* Adds @npages to @mm->pinned_vm, within RLIMIT_MEMLOCK or CAP_IPC_LOCK. */
static int umem_charge(struct mm_struct *mm, unsigned long npages)
{
	u64 limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;

	if (atomic64_add_return(npages, &mm->pinned_vm) <= limit ||
	    capable(CAP_IPC_LOCK))
		return 0;
	atomic64_sub(npages, &mm->pinned_vm);
	return -ENOMEM;
}

static void umem_uncharge(struct ib_umem *umem)
{
	atomic64_sub(umem_span(umem->address, umem->length),
		     &umem->owning_mm->pinned_vm);
}

/* Unpins every page of the scatterlist and frees it. */
static void umem_unpin(struct ib_umem *umem, bool dirty)
{
	struct sg_table *sgt = &umem->sgt_append.sgt;
	struct scatterlist *sg;
	unsigned int n;

	for_each_sg(sgt->sgl, sg, sgt->orig_nents, n)
		unpin_user_page_range_dirty_lock(sg_page(sg),
						 sg->length >> PAGE_SHIFT,
						 dirty);
	sg_free_append_table(&umem->sgt_append);
}

static unsigned int umem_gup_flags(const struct ib_umem *umem)
{
	return FOLL_LONGTERM | FOLL_WRITE | (umem->writable ? 0 : FOLL_FORCE);
}

/*
 * Pins one batch at @start into @pages and appends it to the scatterlist;
 * @left is how many pages will follow.  Returns the pages pinned or an
 * errno, with nothing of the batch left pinned on error.
 */
static long umem_pin_batch(struct ib_umem *umem, unsigned long start,
			   unsigned long left, struct page **pages)
{
	unsigned int nr = min_t(unsigned long, left, UMEM_PIN_BATCH);
	int got, ret;

	got = pin_user_pages_fast(start, nr, umem_gup_flags(umem), pages);
	if (got <= 0)
		return got ? got : -EFAULT;
	ret = sg_alloc_append_table_from_pages(&umem->sgt_append, pages, got,
					       0, (unsigned long)got << PAGE_SHIFT,
					       ib_dma_max_seg_size(umem->ibdev),
					       left - got, GFP_KERNEL);
	if (ret) {
		unpin_user_pages(pages, got);
		return ret;
	}
	return got;
}

/* Pins the @npages pages of the range; on error the caller unpins. */
static int umem_pin(struct ib_umem *umem, unsigned long npages)
{
	unsigned long start = umem->address & PAGE_MASK;
	struct page **pages;
	long got = 0;

	pages = kmalloc_array(min_t(unsigned long, npages, UMEM_PIN_BATCH),
			      sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	while (npages) {
		got = umem_pin_batch(umem, start, npages, pages);
		if (got < 0)
			break;
		start += got << PAGE_SHIFT;
		npages -= got;
		cond_resched();
	}
	kfree(pages);
	return got < 0 ? got : 0;
}

static int umem_dma_map(struct ib_umem *umem, int access)
{
	unsigned long attrs = 0;

	if (access & IB_ACCESS_RELAXED_ORDERING)
		attrs |= DMA_ATTR_WEAK_ORDERING;
	return ib_dma_map_sgtable_attrs(umem->ibdev, &umem->sgt_append.sgt,
					DMA_BIDIRECTIONAL, attrs);
}

static struct ib_umem *umem_alloc(struct ib_device *device, unsigned long addr,
				  size_t size, int access)
{
	struct ib_umem *umem = kzalloc(sizeof(*umem), GFP_KERNEL);

	if (!umem)
		return NULL;
	umem->ibdev = device;
	umem->address = addr;
	umem->iova = addr;
	umem->length = size;
	umem->writable = ib_access_writable(access);
	umem->owning_mm = current->mm;
	mmgrab(umem->owning_mm);
	return umem;
}

static void umem_free(struct ib_umem *umem)
{
	mmdrop(umem->owning_mm);
	kfree(umem);
}

/**
 * ib_umem_get() - pin and DMA-map a range of the caller's memory
 * @device: the RDMA device that will access it
 * @addr: the start of the range, a user virtual address of current->mm
 * @size: its length in bytes
 * @access: IB_ACCESS_* flags of the memory region
 *
 * The pages are pinned for the long term, charged to the caller's locked
 * memory (RLIMIT_MEMLOCK, unless it has CAP_IPC_LOCK) and DMA-mapped on
 * @device; the umem's iova starts as @addr.
 *
 * Return: the umem, or an ERR_PTR: -EINVAL for a range that is empty or
 * wraps, -EPERM if the caller may not lock memory, -EOPNOTSUPP for
 * IB_ACCESS_ON_DEMAND, -ENOMEM beyond RLIMIT_MEMLOCK or without memory,
 * -EFAULT for a caller without an address space or memory that cannot be
 * pinned with the access asked for, or the errno of pinning or mapping.
 */
struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access)
{
	unsigned long npages;
	struct ib_umem *umem;
	int ret;

	ret = umem_check(addr, size, access);
	if (ret)
		return ERR_PTR(ret);
	umem = umem_alloc(device, addr, size, access);
	if (!umem)
		return ERR_PTR(-ENOMEM);

	npages = umem_span(addr, size);
	ret = umem_charge(umem->owning_mm, npages);
	if (ret)
		goto free;
	ret = umem_pin(umem, npages);
	if (!ret)
		ret = umem_dma_map(umem, access);
	if (!ret)
		return umem;

	umem_unpin(umem, false);
	umem_uncharge(umem);
free:
	umem_free(umem);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_umem_get);

/**
 * ib_umem_release() - undo ib_umem_get() or ib_umem_dmabuf_get*()
 * @umem: the umem, or NULL
 *
 * Unmaps and unpins its pages (dirtying them if the device could write
 * them), gives back the locked-memory charge and frees @umem.  A dma-buf
 * umem goes to ib_umem_dmabuf_release() (dmabuf.c), an ODP umem (is_odp)
 * to ib_umem_odp_release() (odp.c) instead.
 */
void ib_umem_release(struct ib_umem *umem)
{
	if (!umem)
		return;
	if (umem->is_dmabuf) {
		ib_umem_dmabuf_release(to_ib_umem_dmabuf(umem));
		return;
	}
	if (umem->is_odp) {
		ib_umem_odp_release(to_ib_umem_odp(umem));
		return;
	}
	ib_dma_unmap_sgtable_attrs(umem->ibdev, &umem->sgt_append.sgt,
				   DMA_BIDIRECTIONAL, 0);
	umem_unpin(umem, umem->writable);
	umem_uncharge(umem);
	umem_free(umem);
}
EXPORT_SYMBOL(ib_umem_release);

/**
 * ib_umem_copy_from() - copy bytes out of a umem
 * @dst: the kernel buffer to copy to
 * @umem: the umem
 * @offset: the offset in the umem (from its address) to copy from
 * @length: how many bytes to copy
 *
 * Return: 0, or -EINVAL if [@offset, @offset + @length) is not inside the
 * umem.
 */
int ib_umem_copy_from(void *dst, struct ib_umem *umem, size_t offset,
		      size_t length)
{
	struct sg_table *sgt = &umem->sgt_append.sgt;
	size_t done;

	if (offset > umem->length || umem->length - offset < length)
		return -EINVAL;
	done = sg_pcopy_to_buffer(sgt->sgl, sgt->orig_nents, dst, length,
				  ib_umem_offset(umem) + offset);
	return done == length ? 0 : -EINVAL;
}
EXPORT_SYMBOL(ib_umem_copy_from);
