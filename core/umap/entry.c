// SPDX-License-Identifier: GPL-2.0
/*
 * mmap entries of a user context: what a driver offers to map, and the
 * offset userspace passes to mmap() for it.
 *
 * A driver inserts an entry of npages pages; the entry is stored in
 * ucontext->mmap_xa at every page offset of a free range, its first offset
 * (start_pgoff) being what the driver hands to userspace (shifted by
 * PAGE_SHIFT).  The xarray's own lock protects the map and each entry's
 * driver_removed; inserters serialise on the file's umap_lock, so that the
 * range one of them found free stays free until it is filled (only the
 * inserters add to the map).  entry->ref counts the driver's reference,
 * one per mapping of it (core/umap/io.c, and ib_uverbs' copies of VMAs)
 * and one per lookup in progress; the last put takes the offsets out of
 * the map and gives the entry back to the driver (ops.mmap_free), so that
 * an offset is never reused while something still maps it.
 */
#include "abi/ib_core/ib_core_uverbs.h"

/*
 * The first offset >= @start where @npages offsets up to @max are all
 * free in @xa, or -ENOSPC.  Called with the map's lock held.
 */
static s64 umap_find_free(struct xarray *xa, u64 start, u32 npages, u32 max)
{
	struct rdma_user_mmap_entry *busy;
	unsigned long index;

	while (start + npages <= (u64)max + 1) {
		index = start;
		busy = xa_find(xa, &index, max, XA_PRESENT);
		if (!busy || index >= start + npages)
			return start;
		/* Skip the entry in the way (it covers index onwards). */
		start = busy->start_pgoff + busy->npages;
	}
	return -ENOSPC;
}

/* Store @entry at the @npages offsets from @first; undone on failure. */
static int umap_store_range(struct xarray *xa,
			    struct rdma_user_mmap_entry *entry,
			    u32 first, u32 npages)
{
	u32 i;
	int ret;

	for (i = 0; i < npages; i++) {
		ret = xa_insert(xa, first + i, entry, GFP_KERNEL);
		if (ret) {
			while (i--)
				xa_erase(xa, first + i);
			return ret;
		}
	}
	return 0;
}

/**
 * rdma_user_mmap_entry_insert_range() - offer a driver buffer for mmap()
 *	at an offset in a range
 * @ucontext: the user context the mapping will belong to
 * @entry: the driver's entry (embedded in its own structure)
 * @length: bytes to map; the entry covers them in whole pages
 * @min_pgoff: the lowest page offset to hand out
 * @max_pgoff: the highest page offset the entry may cover
 *
 * On success the entry holds one reference, the driver's, which it drops
 * with rdma_user_mmap_entry_remove(); rdma_user_mmap_get_offset() gives
 * the offset to tell userspace.
 *
 * Return: 0; -EINVAL without @entry; -ENOMEM when no free range fits or
 * memory is short.
 */
int rdma_user_mmap_entry_insert_range(struct ib_ucontext *ucontext,
				      struct rdma_user_mmap_entry *entry,
				      size_t length, u32 min_pgoff,
				      u32 max_pgoff)
{
	struct ib_uverbs_file *ufile = ucontext->ufile;
	u64 npages = DIV_ROUND_UP((u64)length, PAGE_SIZE);
	s64 first;
	int ret = -ENOMEM;

	if (!entry)
		return -EINVAL;
	if (npages > U32_MAX)
		return -ENOMEM;
	kref_init(&entry->ref);
	entry->ucontext = ucontext;
	entry->npages = npages;
	entry->driver_removed = false;

	mutex_lock(&ufile->umap_lock);
	xa_lock(&ucontext->mmap_xa);
	first = umap_find_free(&ucontext->mmap_xa, min_pgoff, npages,
			       max_pgoff);
	xa_unlock(&ucontext->mmap_xa);
	if (first >= 0 &&
	    !umap_store_range(&ucontext->mmap_xa, entry, first, npages)) {
		entry->start_pgoff = first;
		ret = 0;
	}
	mutex_unlock(&ufile->umap_lock);
	if (!ret)
		ibdev_dbg(ucontext->device, "mmap entry at pgoff %#lx, %zu pages\n",
			  entry->start_pgoff, entry->npages);
	return ret;
}
EXPORT_SYMBOL(rdma_user_mmap_entry_insert_range);

/**
 * rdma_user_mmap_entry_insert() - offer a driver buffer for mmap()
 * @ucontext: the user context the mapping will belong to
 * @entry: the driver's entry
 * @length: bytes to map
 *
 * rdma_user_mmap_entry_insert_range() over all 32-bit page offsets.
 *
 * Return: 0, -EINVAL without @entry, or -ENOMEM.
 */
int rdma_user_mmap_entry_insert(struct ib_ucontext *ucontext,
				struct rdma_user_mmap_entry *entry,
				size_t length)
{
	/* Any page offset a 32-bit mmap() offset field can carry */
	u32 last_pgoff = U32_MAX;

	return rdma_user_mmap_entry_insert_range(ucontext, entry, length,
						 0, last_pgoff);
}
EXPORT_SYMBOL(rdma_user_mmap_entry_insert);

/**
 * rdma_user_mmap_entry_get_pgoff() - the entry that starts at a page offset
 * @ucontext: the user context
 * @pgoff: the page offset userspace passed to mmap()
 *
 * Return: the entry, with a reference the caller drops with
 * rdma_user_mmap_entry_put(); NULL if no entry starts at @pgoff, or the
 * driver removed it, or it is being freed.
 */
struct rdma_user_mmap_entry *
rdma_user_mmap_entry_get_pgoff(struct ib_ucontext *ucontext,
			       unsigned long pgoff)
{
	struct xarray *xa = &ucontext->mmap_xa;
	struct rdma_user_mmap_entry *hit = NULL;

	if (pgoff <= U32_MAX) {
		xa_lock(xa);
		hit = xa_load(xa, pgoff);
		/*
		 * Only its first offset names an entry; one the driver
		 * removed, or whose last reference is gone, is not there.
		 */
		if (hit && (hit->start_pgoff != pgoff || hit->driver_removed ||
			    !kref_get_unless_zero(&hit->ref)))
			hit = NULL;
		xa_unlock(xa);
	}
	return hit;
}
EXPORT_SYMBOL(rdma_user_mmap_entry_get_pgoff);

/**
 * rdma_user_mmap_entry_get() - the entry a shared mapping asks for
 * @ucontext: the user context
 * @vma: the mapping being made: its offset and its exact size
 *
 * Return: the entry, with a reference (rdma_user_mmap_entry_put()), or
 * NULL if @vma is not shared, no entry starts at its offset, or the
 * entry's size differs from the mapping's.
 */
struct rdma_user_mmap_entry *
rdma_user_mmap_entry_get(struct ib_ucontext *ucontext,
			 struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	struct rdma_user_mmap_entry *found = NULL;

	if (vma->vm_flags & VM_SHARED)
		found = rdma_user_mmap_entry_get_pgoff(ucontext, vma->vm_pgoff);
	/* Only a mapping of the whole entry, no more and no less */
	if (found && len != found->npages * PAGE_SIZE) {
		rdma_user_mmap_entry_put(found);
		found = NULL;
	}
	return found;
}
EXPORT_SYMBOL(rdma_user_mmap_entry_get);

/* The last reference: free the offsets, give the entry back. */
static void umap_entry_release(struct kref *kref)
{
	struct rdma_user_mmap_entry *entry =
		container_of(kref, struct rdma_user_mmap_entry, ref);
	struct ib_ucontext *ucontext = entry->ucontext;
	const struct ib_device_ops *ops = &ucontext->device->ops;
	unsigned long pgoff = entry->start_pgoff;
	unsigned long end = pgoff + entry->npages;

	/* The offsets are free for the next entry */
	xa_lock(&ucontext->mmap_xa);
	while (pgoff < end)
		__xa_erase(&ucontext->mmap_xa, pgoff++);
	xa_unlock(&ucontext->mmap_xa);
	if (ops->mmap_free)
		ops->mmap_free(entry);
}

/**
 * rdma_user_mmap_entry_put() - drop a reference to an mmap entry
 * @entry: the entry
 *
 * The last one frees its offsets and calls the driver's ops.mmap_free.
 */
void rdma_user_mmap_entry_put(struct rdma_user_mmap_entry *entry)
{
	kref_put(&entry->ref, umap_entry_release);
}
EXPORT_SYMBOL(rdma_user_mmap_entry_put);

/**
 * rdma_user_mmap_entry_remove() - withdraw a driver buffer from mmap()
 * @entry: the entry, or NULL
 *
 * No new mapping of @entry can be made; existing ones stay until they are
 * unmapped, and ops.mmap_free is called after the last.  Drops the
 * driver's reference.
 */
void rdma_user_mmap_entry_remove(struct rdma_user_mmap_entry *entry)
{
	struct xarray *xa;

	if (!entry)
		return;
	/* Lookups test driver_removed under the same lock */
	xa = &entry->ucontext->mmap_xa;
	xa_lock(xa);
	entry->driver_removed = true;
	xa_unlock(xa);
	rdma_user_mmap_entry_put(entry);
}
EXPORT_SYMBOL(rdma_user_mmap_entry_remove);
