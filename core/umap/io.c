// SPDX-License-Identifier: GPL-2.0
/*
 * Device memory mapped into a process through a uverbs file.
 *
 * Every such mapping is recorded in the file's umaps list (a struct
 * rdma_umap_priv in vma->vm_private_data, under the file's umap_lock), so
 * that ib_uverbs can zap the process's page table entries when the device
 * goes away: the memory may vanish with it.  ib_uverbs installs the VMA
 * operations that copy and drop these records; they live in its module,
 * as the VMA outlives no open file of it.
 */
#include "abi/ib_core/ib_core_uverbs.h"

/**
 * rdma_umap_priv_init() - record a mapping of a uverbs file
 * @priv: the record, allocated by the caller, owned by the mapping
 * @vma: the mapping; its file is the uverbs file
 * @entry: the mmap entry it maps, or NULL; the record takes a reference
 *
 * The record is freed when the mapping is closed.
 */
void rdma_umap_priv_init(struct rdma_umap_priv *priv,
			 struct vm_area_struct *vma,
			 struct rdma_user_mmap_entry *entry)
{
	struct ib_uverbs_file *ufile = vma->vm_file->private_data;

	*priv = (struct rdma_umap_priv){ .vma = vma, .entry = entry };
	if (entry)
		kref_get(&entry->ref);
	vma->vm_private_data = priv;

	mutex_lock(&ufile->umap_lock);
	list_add_tail(&priv->list, &ufile->umaps);
	mutex_unlock(&ufile->umap_lock);
}
EXPORT_SYMBOL(rdma_umap_priv_init);

/* A shared mapping of exactly @size bytes of @ufile, from its mmap(). */
static bool umap_vma_ok(struct ib_uverbs_file *ufile,
			struct vm_area_struct *vma, unsigned long size)
{
	if (vma->vm_end - vma->vm_start != size ||
	    !(vma->vm_flags & VM_SHARED))
		return false;
	/* A driver calling this outside ib_uverbs' mmap() is a bug. */
	if (WARN_ON_ONCE(!vma->vm_file || vma->vm_file->private_data != ufile))
		return false;
	lockdep_assert_held(&ufile->device->disassociate_srcu);
	return true;
}

/**
 * rdma_user_mmap_io() - map device memory into the process, from a
 *	driver's ops.mmap
 * @ucontext: the user context of the file being mapped
 * @vma: the mapping, exactly @size bytes, shared
 * @pfn: the first page frame of the memory
 * @size: bytes to map
 * @prot: the page protection (pgprot_noncached() and the like)
 * @entry: the mmap entry being mapped, or NULL
 *
 * Called within ib_uverbs' mmap(), which holds the file's device
 * (disassociate_srcu).
 *
 * Return: 0; -EINVAL if @vma is not shared, its size is not @size or it is
 * not a mapping of @ucontext's file; -ENOMEM; -EAGAIN if the pages could
 * not be mapped.
 */
int rdma_user_mmap_io(struct ib_ucontext *ucontext, struct vm_area_struct *vma,
		      unsigned long pfn, unsigned long size, pgprot_t prot,
		      struct rdma_user_mmap_entry *entry)
{
	struct rdma_umap_priv *priv;

	if (!umap_vma_ok(ucontext->ufile, vma, size))
		return -EINVAL;
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;
	vma->vm_page_prot = prot;
	if (!io_remap_pfn_range(vma, vma->vm_start, pfn, size, prot)) {
		rdma_umap_priv_init(priv, vma, entry);
		return 0;
	}
	kfree(priv);
	return -EAGAIN;
}
EXPORT_SYMBOL(rdma_user_mmap_io);
