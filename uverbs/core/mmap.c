// SPDX-License-Identifier: GPL-2.0
/*
 * mmap() of /dev/infiniband/uverbsN: the driver's ops.mmap maps what the
 * offset names (rdma_user_mmap_entry_get() and rdma_user_mmap_io() of
 * core/umap/), and these VMA operations keep the file's record of each
 * mapping of device memory (struct rdma_umap_priv on ufile->umaps, under
 * umap_lock) up to date.
 *
 * When the device goes, uverbs_mmap_zap_all() removes the page table
 * entries of every recorded mapping: the memory may go with the device.
 * A later touch faults here and gets a zero page (the same one for the
 * whole file, so writes do not fail) instead of device memory.  umap_lock
 * nests inside the mmap_lock of the process, as VMA operations run under
 * it; the zap therefore takes one process's mmap_lock at a time.
 */
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include "abi/ib_core/umap.h"
#include "internal.h"

/* A copy of a recorded VMA (fork, split) is recorded too, or zapped. */
static void umap_open(struct vm_area_struct *vma)
{
	struct ib_uverbs_file *ufile = vma->vm_file->private_data;
	struct rdma_umap_priv *opriv = vma->vm_private_data;
	struct rdma_umap_priv *copy = NULL;

	if (!opriv)
		return;
	/* No new record once a disassociation has begun. */
	if (down_read_trylock(&ufile->hw_destroy_rwsem)) {
		if (ufile->ucontext) {
			copy = kzalloc(sizeof(*copy), GFP_KERNEL);
			if (copy)
				rdma_umap_priv_init(copy, vma, opriv->entry);
		}
		up_read(&ufile->hw_destroy_rwsem);
	}
	if (copy)
		return;
	/* The copy cannot be refused: it loses its device memory instead. */
	vma->vm_private_data = NULL;
	zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
}

static void umap_close(struct vm_area_struct *vma)
{
	struct rdma_umap_priv *priv = vma->vm_private_data;
	struct rdma_user_mmap_entry *entry;
	struct ib_uverbs_file *ufile;

	if (!priv)
		return;
	/* The VMA holds the file, so its ufile is still there. */
	ufile = vma->vm_file->private_data;
	mutex_lock(&ufile->umap_lock);
	list_del(&priv->list);
	/* NULL if a zap took the entry's reference already */
	entry = priv->entry;
	mutex_unlock(&ufile->umap_lock);
	if (entry)
		rdma_user_mmap_entry_put(entry);
	kfree(priv);
}

/* Only zapped mappings fault: they get zero pages. */
static vm_fault_t umap_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct ib_uverbs_file *ufile = vma->vm_file->private_data;
	struct page *page;

	if (!vma->vm_private_data)
		return VM_FAULT_SIGBUS;
	if (vma->vm_flags & (VM_WRITE | VM_MAYWRITE)) {
		/*
		 * One zeroed page of the file stands in for device memory in
		 * every writable mapping (rdma_user_mmap_io() maps shared
		 * only: no copy on write).
		 */
		mutex_lock(&ufile->umap_lock);
		if (!ufile->disassociate_page)
			ufile->disassociate_page =
				alloc_page(vmf->gfp_mask | __GFP_ZERO);
		page = ufile->disassociate_page;
		if (page)
			get_page(page);
		mutex_unlock(&ufile->umap_lock);
		if (!page)
			return VM_FAULT_SIGBUS;
	} else {
		page = ZERO_PAGE(vmf->address);
		get_page(page);
	}
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct uverbs_umap_ops = {
	.open = umap_open,
	.close = umap_close,
	.fault = umap_fault,
};

/**
 * uverbs_mmap() - the mmap of /dev/infiniband/uverbsN (devices with
 *	ops.mmap)
 * @filp: the file
 * @vma: the mapping
 *
 * Return: the driver's answer; -EIO once the device is gone; -EINVAL
 * before GET_CONTEXT.
 */
int uverbs_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct ib_ucontext *ucontext;
	int srcu_key;
	int ret;

	srcu_key = srcu_read_lock(&ufile->device->disassociate_srcu);
	ucontext = ib_uverbs_get_ucontext_file(ufile);
	if (IS_ERR(ucontext)) {
		ret = PTR_ERR(ucontext);
	} else {
		vma->vm_ops = &uverbs_umap_ops;
		ret = ucontext->device->ops.mmap(ucontext, vma);
	}
	srcu_read_unlock(&ufile->device->disassociate_srcu, srcu_key);
	return ret;
}

/*
 * The mm of some recorded mapping, with a reference; records of processes
 * already gone are dropped on the way.  NULL when none is left.
 */
static struct mm_struct *umap_next_mm(struct ib_uverbs_file *ufile)
{
	struct rdma_umap_priv *priv, *next;
	struct mm_struct *mm = NULL;

	mutex_lock(&ufile->umap_lock);
	list_for_each_entry_safe(priv, next, &ufile->umaps, list) {
		if (mmget_not_zero(priv->vma->vm_mm)) {
			mm = priv->vma->vm_mm;
			break;
		}
		list_del_init(&priv->list);
		if (priv->entry) {
			rdma_user_mmap_entry_put(priv->entry);
			priv->entry = NULL;
		}
	}
	mutex_unlock(&ufile->umap_lock);
	return mm;
}

/* Zap the recorded mappings of @mm and forget them. */
static void umap_zap_mm(struct ib_uverbs_file *ufile, struct mm_struct *mm)
{
	struct rdma_umap_priv *priv, *next;
	struct vm_area_struct *vma;

	mmap_read_lock(mm);
	mutex_lock(&ufile->umap_lock);
	list_for_each_entry_safe(priv, next, &ufile->umaps, list) {
		vma = priv->vma;
		if (vma->vm_mm != mm)
			continue;
		list_del_init(&priv->list);
		zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
		if (priv->entry) {
			rdma_user_mmap_entry_put(priv->entry);
			priv->entry = NULL;
		}
	}
	mutex_unlock(&ufile->umap_lock);
	mmap_read_unlock(mm);
}

/**
 * uverbs_mmap_zap_all() - take device memory out of every process that
 *	maps it through a file
 * @ufile: the file, being disassociated (hw_destroy_rwsem held for write)
 */
void uverbs_mmap_zap_all(struct ib_uverbs_file *ufile)
{
	struct mm_struct *mm;

	lockdep_assert_held_write(&ufile->hw_destroy_rwsem);
	while ((mm = umap_next_mm(ufile))) {
		umap_zap_mm(ufile, mm);
		mmput(mm);
	}
}
