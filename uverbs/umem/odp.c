// SPDX-License-Identifier: GPL-2.0
/*
 * ib_umem_odp: a range of a process's memory that a device reaches through
 * on-demand paging instead of long-term pins.
 *
 * Nothing is pinned or charged.  The umem watches its range with an MMU
 * interval notifier whose ops are the driver's: when the CPU page tables
 * of the range change (munmap, MADV_DONTNEED, migration, reclaim...), the
 * driver's invalidate op stops the device's translation of the pages and
 * calls ib_umem_odp_unmap_dma_pages() under umem_mutex.  When the device
 * faults on an address, the driver calls ib_umem_odp_map_dma_and_lock(),
 * which looks the pages up (or faults them in) with hmm_range_fault(),
 * DMA-maps the new ones into dma_list and returns with umem_mutex held, so
 * that the driver can program the device before an invalidation can undo
 * it.
 *
 * The range is cut into device pages of 1 << page_shift bytes (the huge
 * page size for IB_ACCESS_HUGETLB); dma_list has one entry per device
 * page, pfn_list one HMM pfn per CPU page, as hmm_range_fault() fills it.
 * A dma_list entry is 0 when its page is not mapped, otherwise the DMA
 * address of the device page with ODP_READ_ALLOWED_BIT and
 * ODP_WRITE_ALLOWED_BIT in its low bits, and npages counts the mapped
 * entries.
 *
 * An implicit umem (ib_umem_odp_alloc_implicit()) has no range, no arrays
 * and no notifier: it only ties the children that the driver allocates
 * under it (ib_umem_odp_alloc_child()) to a process.
 *
 * Each umem holds a reference on the owning process's pid (tgid) and a
 * grab on its mm; a mapping is only made while that process lives and
 * its mm has users.
 *
 * Locking: umem_mutex guards dma_list, npages and the entries of pfn_list
 * that belong to mapped pages, and orders mappings against the notifier's
 * sequence (mmu_interval_read_retry() is checked under it; a driver's
 * invalidate op takes it to call mmu_interval_set_seq()).  hmm_range_fault()
 * runs under the mm's mmap_lock (read), never under umem_mutex.  Pages are
 * dirtied without their page lock: the notifier may be called with it held,
 * and umem_mutex keeps the mapping alive until the invalidation is done.
 */
#include "abi/ib_uverbs/umem_odp.h"

#define ODP_ACCESS_BITS	(ODP_READ_ALLOWED_BIT | ODP_WRITE_ALLOWED_BIT)

/* The device page shift for @access: huge pages for IB_ACCESS_HUGETLB. */
static unsigned int odp_page_shift(int access)
{
#ifdef CONFIG_HUGETLB_PAGE
	if (access & IB_ACCESS_HUGETLB)
		return HPAGE_SHIFT;
#endif
	return PAGE_SHIFT;
}

/*
 * A umem of @device in @mm, owned by the process of @tgid (whose reference
 * it takes over).  The caller sets the range.
 */
static struct ib_umem_odp *odp_alloc(struct ib_device *device,
				     struct mm_struct *mm, struct pid *tgid,
				     bool writable, unsigned int page_shift)
{
	struct ib_umem_odp *odp = kzalloc(sizeof(*odp), GFP_KERNEL);

	if (!odp) {
		put_pid(tgid);
		return NULL;
	}
	odp->umem.ibdev = device;
	odp->umem.owning_mm = mm;
	mmgrab(mm);
	odp->umem.writable = writable;
	odp->umem.is_odp = 1;
	odp->tgid = tgid;
	odp->page_shift = page_shift;
	mutex_init(&odp->umem_mutex);
	return odp;
}

static void odp_free(struct ib_umem_odp *odp)
{
	put_pid(odp->tgid);
	mmdrop(odp->umem.owning_mm);
	kfree(odp);
}

/*
 * Sets the range of @odp to [@addr, @addr + @size) and watches it with
 * @ops: the notifier covers the whole device pages it touches, and the
 * arrays have one entry per device page (dma_list) and CPU page
 * (pfn_list).  The caller holds a user of the mm.
 */
static int odp_init_range(struct ib_umem_odp *odp, unsigned long addr,
			  size_t size,
			  const struct mmu_interval_notifier_ops *ops)
{
	unsigned long pgsz = BIT(odp->page_shift), start, end;
	int ret;

	odp->umem.address = addr;
	odp->umem.length = size;
	if (check_add_overflow(addr, size, &end))
		return -EOVERFLOW;
	start = ALIGN_DOWN(addr, pgsz);
	end = ALIGN(end, pgsz);
	if (end < pgsz)			/* rounding up wrapped */
		return -EOVERFLOW;
	if (end == start)
		return -EINVAL;

	odp->pfn_list = kvcalloc((end - start) >> PAGE_SHIFT,
				 sizeof(*odp->pfn_list),
				 GFP_KERNEL | __GFP_NOWARN);
	odp->dma_list = kvcalloc((end - start) >> odp->page_shift,
				 sizeof(*odp->dma_list),
				 GFP_KERNEL | __GFP_NOWARN);
	ret = -ENOMEM;
	if (odp->pfn_list && odp->dma_list)
		ret = mmu_interval_notifier_insert(&odp->notifier,
						   odp->umem.owning_mm, start,
						   end - start, ops);
	if (ret) {
		kvfree(odp->dma_list);
		kvfree(odp->pfn_list);
	}
	return ret;
}

/*
 * Undoes odp_init_range().  The pages are unmapped while the notifier
 * still watches them: until it is removed, no page can be freed under a
 * mapping without the umem being told.
 */
static void odp_fini_range(struct ib_umem_odp *odp)
{
	mutex_lock(&odp->umem_mutex);
	ib_umem_odp_unmap_dma_pages(odp, 0, U64_MAX);
	mutex_unlock(&odp->umem_mutex);
	mmu_interval_notifier_remove(&odp->notifier);
	kvfree(odp->pfn_list);
	kvfree(odp->dma_list);
}

/**
 * ib_umem_odp_get() - a umem of the caller's memory, for on-demand paging
 * @device: the RDMA device that will access it
 * @addr: the start of the range, a user virtual address of current->mm
 * @size: its length in bytes
 * @access: IB_ACCESS_* flags of the memory region, IB_ACCESS_ON_DEMAND
 *	among them; IB_ACCESS_HUGETLB makes the device pages huge pages
 * @ops: the driver's notifier ops, called when the range's mappings change
 *
 * Nothing is pinned or mapped yet: ib_umem_odp_map_dma_and_lock() does it
 * page by page.  The notifier covers the device pages the range touches.
 *
 * Return: the umem, or an ERR_PTR: -EINVAL without IB_ACCESS_ON_DEMAND or
 * for an empty range, -EOVERFLOW for a range that wraps, -EFAULT for a
 * caller without an address space, -ENOMEM.
 */
struct ib_umem_odp *ib_umem_odp_get(struct ib_device *device,
				    unsigned long addr, size_t size, int access,
				    const struct mmu_interval_notifier_ops *ops)
{
	struct ib_umem_odp *odp;
	int ret;

	if (!(access & IB_ACCESS_ON_DEMAND))
		return ERR_PTR(-EINVAL);
	if (!current->mm)
		return ERR_PTR(-EFAULT);
	odp = odp_alloc(device, current->mm,
			get_task_pid(current->group_leader, PIDTYPE_PID),
			ib_access_writable(access), odp_page_shift(access));
	if (!odp)
		return ERR_PTR(-ENOMEM);
	ret = odp_init_range(odp, addr, size, ops);
	if (ret) {
		odp_free(odp);
		return ERR_PTR(ret);
	}
	return odp;
}
EXPORT_SYMBOL(ib_umem_odp_get);

/**
 * ib_umem_odp_alloc_implicit() - the parent umem of an implicit ODP MR
 * @device: the RDMA device
 * @access: IB_ACCESS_* flags of the memory region
 *
 * The umem has no range and maps nothing; it ties the children made with
 * ib_umem_odp_alloc_child() to the caller's process and mm.
 *
 * Return: the umem, or an ERR_PTR: -EINVAL for IB_ACCESS_HUGETLB, -EFAULT
 * for a caller without an address space, -ENOMEM.
 */
struct ib_umem_odp *ib_umem_odp_alloc_implicit(struct ib_device *device,
					       int access)
{
	struct ib_umem_odp *odp;

	if (access & IB_ACCESS_HUGETLB)
		return ERR_PTR(-EINVAL);
	if (!current->mm)
		return ERR_PTR(-EFAULT);
	odp = odp_alloc(device, current->mm,
			get_task_pid(current->group_leader, PIDTYPE_PID),
			ib_access_writable(access), PAGE_SHIFT);
	if (!odp)
		return ERR_PTR(-ENOMEM);
	odp->is_implicit_odp = true;
	return odp;
}
EXPORT_SYMBOL(ib_umem_odp_alloc_implicit);

/**
 * ib_umem_odp_alloc_child() - a umem for part of an implicit ODP MR
 * @root: the implicit parent, from ib_umem_odp_alloc_implicit()
 * @addr: the start of the range, a user virtual address of @root's mm
 * @size: its length in bytes
 * @ops: the driver's notifier ops for the range
 *
 * The child has @root's device, process, mm and access and regular pages.
 * It may be made from any thread: @root's mm, not current's, is watched.
 * The caller keeps @root alive during the call.
 *
 * Return: the umem, or an ERR_PTR: -EINVAL if @root is not implicit or
 * the range is empty, -EOVERFLOW for a range that wraps, -EFAULT if @root's
 * mm has no users left, -ENOMEM.
 */
struct ib_umem_odp *
ib_umem_odp_alloc_child(struct ib_umem_odp *root, unsigned long addr,
			size_t size, const struct mmu_interval_notifier_ops *ops)
{
	struct mm_struct *mm = root->umem.owning_mm;
	struct ib_umem_odp *odp;
	int ret;

	if (!root->is_implicit_odp)
		return ERR_PTR(-EINVAL);
	/* The notifier may only be registered while the mm has users */
	if (!mmget_not_zero(mm))
		return ERR_PTR(-EFAULT);
	odp = odp_alloc(root->umem.ibdev, mm, get_pid(root->tgid),
			root->umem.writable, PAGE_SHIFT);
	ret = -ENOMEM;
	if (odp) {
		ret = odp_init_range(odp, addr, size, ops);
		if (ret)
			odp_free(odp);
	}
	mmput(mm);
	return ret ? ERR_PTR(ret) : odp;
}
EXPORT_SYMBOL(ib_umem_odp_alloc_child);

/**
 * ib_umem_odp_release() - undo ib_umem_odp_get() or one of the allocs
 * @umem_odp: the umem
 *
 * Unmaps every page still mapped (dirtying those the device could write),
 * stops watching the range and frees the umem.  The driver makes sure
 * first that the device no longer reaches the pages; ib_umem_release()
 * calls this for an ODP umem.
 */
void ib_umem_odp_release(struct ib_umem_odp *umem_odp)
{
	if (!umem_odp->is_implicit_odp)
		odp_fini_range(umem_odp);
	odp_free(umem_odp);
}
EXPORT_SYMBOL(ib_umem_odp_release);

/*
 * Runs hmm_range_fault() on @range until it sees the pages of a sequence
 * no invalidation has passed, and returns 0 with umem_mutex held then, or
 * an errno; -EBUSY when invalidations kept coming for longer than
 * HMM_RANGE_DEFAULT_TIMEOUT.
 */
static int odp_fault_and_lock(struct ib_umem_odp *odp, struct hmm_range *range)
{
	unsigned long timeout = jiffies +
				msecs_to_jiffies(HMM_RANGE_DEFAULT_TIMEOUT);
	struct mm_struct *mm = odp->umem.owning_mm;
	int ret;

	do {
		range->notifier_seq = mmu_interval_read_begin(&odp->notifier);
		mmap_read_lock(mm);
		ret = hmm_range_fault(range);
		mmap_read_unlock(mm);
		if (ret)
			continue;
		mutex_lock(&odp->umem_mutex);
		if (!mmu_interval_read_retry(&odp->notifier,
					     range->notifier_seq))
			return 0;
		mutex_unlock(&odp->umem_mutex);
		ret = -EBUSY;
	} while (ret == -EBUSY && !time_after(jiffies, timeout));
	return ret;
}

/*
 * Maps device page @idx, which starts at the CPU page of HMM pfn @pfn,
 * with the permissions @perm; a page mapped already only gets @perm.
 * Under umem_mutex.
 */
static int odp_map_page(struct ib_umem_odp *odp, size_t idx,
			unsigned long pfn, u64 perm)
{
	struct ib_device *dev = odp->umem.ibdev;
	dma_addr_t *entry = &odp->dma_list[idx];
	dma_addr_t dma;

	if (hmm_pfn_to_map_order(pfn) + PAGE_SHIFT < odp->page_shift) {
		ibdev_dbg(dev, "odp: a page of order %u in a umem of %u-bit pages\n",
			  hmm_pfn_to_map_order(pfn), odp->page_shift);
		return -EINVAL;
	}
	if (!*entry) {
		dma = ib_dma_map_page(dev, hmm_pfn_to_page(pfn), 0,
				      BIT(odp->page_shift), DMA_BIDIRECTIONAL);
		if (ib_dma_mapping_error(dev, dma))
			return -EFAULT;
		odp->npages++;
		*entry = dma;
	}
	*entry = (*entry & ODP_DMA_ADDR_MASK) | perm;
	return 0;
}

/*
 * Maps the device pages [@first, @last) that @range found; without @fault
 * only the pages present, with the permissions their CPU mappings give.
 * Under umem_mutex.
 */
static int odp_map_range(struct ib_umem_odp *odp, struct hmm_range *range,
			 size_t first, size_t last, u64 access_mask,
			 bool fault)
{
	unsigned int order = odp->page_shift - PAGE_SHIFT;
	unsigned long pfn;
	size_t idx;
	u64 perm;
	int ret;

	for (idx = first; idx < last; idx++) {
		pfn = range->hmm_pfns[(idx - first) << order];
		if (!(pfn & HMM_PFN_VALID))	/* not present, not faulted */
			continue;
		perm = access_mask;
		if (!fault)
			perm = ODP_READ_ALLOWED_BIT |
			       (pfn & HMM_PFN_WRITE ? ODP_WRITE_ALLOWED_BIT : 0);
		ret = odp_map_page(odp, idx, pfn, perm);
		if (ret)
			return ret;
	}
	return 0;
}

/* The owning process and a user of its mm, or -EINVAL if they are gone. */
static int odp_get_owner(struct ib_umem_odp *odp, struct task_struct **task)
{
	*task = get_pid_task(odp->tgid, PIDTYPE_PID);
	if (!*task)
		return -EINVAL;
	if (mmget_not_zero(odp->umem.owning_mm))
		return 0;
	put_task_struct(*task);
	return -EINVAL;
}

/**
 * ib_umem_odp_map_dma_and_lock() - map a part of an ODP umem for the device
 * @umem_odp: the umem (not an implicit one)
 * @user_virt: the first user virtual address to map
 * @bcnt: how many bytes from @user_virt; whole device pages are mapped
 * @access_mask: ODP_READ_ALLOWED_BIT, with ODP_WRITE_ALLOWED_BIT for write
 * @fault: fault in the pages that are not present (for write with
 *	ODP_WRITE_ALLOWED_BIT); without it only the present pages are mapped,
 *	with the permissions of their CPU mappings
 *
 * Each device page mapped gets its DMA address in dma_list, with the
 * permission bits in its low bits.  On success umem_mutex is held: the
 * driver programs the device, then unlocks; an invalidation of the range
 * waits for it.
 *
 * Return: the number of device pages the call covered, from the one at
 * @user_virt, with umem_mutex held; or, without it, -EINVAL for an empty or
 * unknown @access_mask, an empty range or a process that has exited,
 * -EFAULT for a range outside the umem or memory that cannot be faulted
 * in, -EPERM for write to memory mapped read-only, -EBUSY when the range
 * kept changing, or another errno of hmm_range_fault() or the mapping.
 */
int ib_umem_odp_map_dma_and_lock(struct ib_umem_odp *umem_odp, u64 user_virt,
				 u64 bcnt, u64 access_mask, bool fault)
{
	unsigned long pgsz = BIT(umem_odp->page_shift);
	struct hmm_range range = { .notifier = &umem_odp->notifier };
	struct task_struct *owner;
	size_t first, last;
	u64 end;
	int ret;

	if (!access_mask || (access_mask & ~ODP_ACCESS_BITS))
		return -EINVAL;
	if (umem_odp->is_implicit_odp || user_virt < ib_umem_start(umem_odp) ||
	    check_add_overflow(user_virt, bcnt, &end) ||
	    end > ib_umem_end(umem_odp))
		return -EFAULT;
	range.start = ALIGN_DOWN(user_virt, pgsz);
	range.end = ALIGN(end, pgsz);
	if (range.start == range.end)
		return -EINVAL;
	first = (range.start - ib_umem_start(umem_odp)) >> umem_odp->page_shift;
	last = (range.end - ib_umem_start(umem_odp)) >> umem_odp->page_shift;
	range.hmm_pfns = &umem_odp->pfn_list[first << (umem_odp->page_shift -
						       PAGE_SHIFT)];
	if (fault)
		range.default_flags = HMM_PFN_REQ_FAULT |
			(access_mask & ODP_WRITE_ALLOWED_BIT ?
			 HMM_PFN_REQ_WRITE : 0);

	ret = odp_get_owner(umem_odp, &owner);
	if (ret)
		return ret;
	ret = odp_fault_and_lock(umem_odp, &range);
	if (!ret) {
		ret = odp_map_range(umem_odp, &range, first, last, access_mask,
				    fault);
		if (ret)
			mutex_unlock(&umem_odp->umem_mutex);
		else
			ret = last - first;
	}
	mmput_async(umem_odp->umem.owning_mm);
	put_task_struct(owner);
	return ret;
}
EXPORT_SYMBOL(ib_umem_odp_map_dma_and_lock);

/* The page that device page @idx starts with, from pfn_list. */
static struct page *odp_page(struct ib_umem_odp *odp, size_t idx)
{
	return hmm_pfn_to_page(odp->pfn_list[idx << (odp->page_shift -
						     PAGE_SHIFT)]);
}

/**
 * ib_umem_odp_unmap_dma_pages() - unmap the mapped pages of a part of a umem
 * @umem_odp: the umem
 * @start_offset: the first user virtual address of the part
 * @bound: the user virtual address after its end
 *
 * Every mapped device page that overlaps [@start_offset, @bound) (clipped
 * to the umem) is unmapped and its dma_list entry cleared; a page the
 * device could write is dirtied.  The caller holds umem_mutex: a driver's
 * invalidate op, ib_umem_odp_release(), or a driver that keeps less of
 * the umem mapped.
 */
void ib_umem_odp_unmap_dma_pages(struct ib_umem_odp *umem_odp, u64 start_offset,
				 u64 bound)
{
	struct ib_device *dev = umem_odp->umem.ibdev;
	u64 start = ib_umem_start(umem_odp);
	size_t idx, last;
	dma_addr_t dma;

	lockdep_assert_held(&umem_odp->umem_mutex);
	if (umem_odp->is_implicit_odp)
		return;
	start_offset = max(start_offset, start);
	bound = min_t(u64, bound, ib_umem_end(umem_odp));
	if (start_offset >= bound)
		return;
	idx = (start_offset - start) >> umem_odp->page_shift;
	last = DIV_ROUND_UP_ULL(bound - start, BIT(umem_odp->page_shift));
	for (; idx < last; idx++) {
		dma = umem_odp->dma_list[idx];
		if (!dma)
			continue;
		ib_dma_unmap_page(dev, dma & ODP_DMA_ADDR_MASK,
				  BIT(umem_odp->page_shift), DMA_BIDIRECTIONAL);
		if (dma & ODP_WRITE_ALLOWED_BIT)
			set_page_dirty(compound_head(odp_page(umem_odp, idx)));
		umem_odp->dma_list[idx] = 0;
		umem_odp->npages--;
	}
}
EXPORT_SYMBOL(ib_umem_odp_unmap_dma_pages);
