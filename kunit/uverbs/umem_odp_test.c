// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for ib_umem_odp (ib_uverbs): user memory a device reaches
 * through on-demand paging.
 *
 * Like umem_test.c, the suite borrows the address space of the process
 * that loads the module (suite_init), and each case adopts it with
 * kthread_use_mm() and maps anonymous memory there with vm_mmap().  The
 * device is the test double, which has no DMA device: a DMA address is the
 * kernel address of the page, so a case reads and writes through it what
 * the device would.
 *
 * The cases play the driver: their notifier ops (ot_ops) do what a
 * driver's invalidate op does (under umem_mutex: set the sequence, unmap
 * the pages of the range with ib_umem_odp_unmap_dma_pages()) and record
 * each call in the umem's private field.  A case never touches user memory
 * or allocates while it holds umem_mutex: an invalidation takes the mutex
 * under mmap_lock and from reclaim, and lockdep knows it.  ot_map() copies
 * what a mapping left in dma_list and unlocks before the case checks it.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/mmu_notifier.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_umem_odp.h>

#include "tdev.h"

#define OT_MAX_MAPS	4
#define OT_MAX_UMEMS	4
#define OT_RW		(ODP_READ_ALLOWED_BIT | ODP_WRITE_ALLOWED_BIT)
#define OT_ODP_RW	(IB_ACCESS_ON_DEMAND | IB_ACCESS_LOCAL_WRITE)

/* The loader's mm, from suite_init to suite_exit; NULL if there was none. */
static struct mm_struct *ot_mm;

/**
 * struct ot_rec - the calls of the notifier op on one umem (its private)
 * @calls: how many
 * @start: the range of the last one
 * @end: its end
 * @event: its event
 * @mapped: how many pages the umem had mapped when it came
 */
struct ot_rec {
	int calls;
	unsigned long start;
	unsigned long end;
	enum mmu_notifier_event event;
	int mapped;
};

/**
 * struct ot - one case's fixture (test->priv)
 * @td: the test device
 * @thread: the case's thread, which uses ot_mm
 * @map: start of each mapping made with ot_map_mem()
 * @map_len: its length
 * @nmaps: mappings made
 * @odp: umems got and not yet released
 */
struct ot {
	struct tdev *td;
	struct task_struct *thread;
	unsigned long map[OT_MAX_MAPS];
	size_t map_len[OT_MAX_MAPS];
	int nmaps;
	struct ib_umem_odp *odp[OT_MAX_UMEMS];
};

/* What a driver's invalidate op does, and a record of the call. */
static bool ot_invalidate(struct mmu_interval_notifier *mni,
			  const struct mmu_notifier_range *range,
			  unsigned long cur_seq)
{
	struct ib_umem_odp *odp = container_of(mni, struct ib_umem_odp,
					       notifier);
	struct ot_rec *rec = odp->private;

	if (!mmu_notifier_range_blockable(range))
		return false;
	mutex_lock(&odp->umem_mutex);
	mmu_interval_set_seq(mni, cur_seq);
	if (rec) {
		rec->calls++;
		rec->start = range->start;
		rec->end = range->end;
		rec->event = range->event;
		rec->mapped = odp->npages;
	}
	ib_umem_odp_unmap_dma_pages(odp, range->start, range->end);
	mutex_unlock(&odp->umem_mutex);
	return true;
}

static const struct mmu_interval_notifier_ops ot_ops = {
	.invalidate = ot_invalidate,
};

static int ot_suite_init(struct kunit_suite *suite)
{
	ot_mm = get_task_mm(current);
	return 0;
}

static void ot_suite_exit(struct kunit_suite *suite)
{
	if (ot_mm)
		mmput(ot_mm);
	ot_mm = NULL;
}

static int ot_init(struct kunit *test)
{
	struct ot *ot;

	if (!ot_mm)
		kunit_skip(test, "no user address space to borrow");
	ot = kunit_kzalloc(test, sizeof(*ot), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ot);
	ot->td = tdev_create_registered(NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ot->td);
	/* A reference for the thread: if it dies using the mm, exit drops it */
	mmget(ot_mm);
	kthread_use_mm(ot_mm);
	ot->thread = current;
	test->priv = ot;
	return 0;
}

static void ot_exit(struct kunit *test)
{
	struct ot *ot = test->priv;
	int i;

	if (!ot)
		return;
	/* Before the unmaps: no notifier may outlive its umem */
	for (i = 0; i < OT_MAX_UMEMS; i++)
		if (ot->odp[i])
			ib_umem_odp_release(ot->odp[i]);
	/* In the case's thread, or in the loader, whose mm this is too */
	for (i = 0; i < ot->nmaps && current->mm == ot_mm; i++)
		vm_munmap(ot->map[i], ot->map_len[i]);
	if (current == ot->thread) {
		kthread_unuse_mm(ot_mm);
		mmput(ot_mm);
	}
	tdev_destroy(ot->td);
}

static struct ib_device *ot_dev(struct kunit *test)
{
	return &((struct ot *)test->priv)->td->ibdev;
}

/* Maps @len bytes of anonymous memory with @prot in the borrowed mm. */
static unsigned long ot_map_mem(struct kunit *test, size_t len, int prot)
{
	struct ot *ot = test->priv;
	unsigned long addr;

	KUNIT_ASSERT_LT(test, ot->nmaps, OT_MAX_MAPS);
	addr = vm_mmap(NULL, 0, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(addr), "vm_mmap: %ld",
			       (long)addr);
	ot->map[ot->nmaps] = addr;
	ot->map_len[ot->nmaps++] = len;
	return addr;
}

/* Writes @val into the first word of each page of [@addr, +@npages). */
static void ot_touch(struct kunit *test, unsigned long addr,
		     unsigned long npages, u32 val)
{
	unsigned long i;

	for (i = 0; i < npages; i++)
		KUNIT_ASSERT_EQ(test, put_user(val + (u32)i,
			(u32 __user *)(addr + (i << PAGE_SHIFT))), 0);
}

static u32 ot_peek(struct kunit *test, unsigned long addr)
{
	u32 val;

	KUNIT_ASSERT_EQ(test, get_user(val, (u32 __user *)addr), 0);
	return val;
}

/* Keeps @odp for release at exit, with a record of its notifier calls. */
static struct ib_umem_odp *ot_keep(struct kunit *test, struct ib_umem_odp *odp)
{
	struct ot *ot = test->priv;
	struct ot_rec *rec;
	int i;

	if (IS_ERR(odp))
		return odp;
	for (i = 0; i < OT_MAX_UMEMS && ot->odp[i]; i++)
		;
	if (i == OT_MAX_UMEMS)
		ib_umem_odp_release(odp);
	KUNIT_ASSERT_LT(test, i, OT_MAX_UMEMS);
	ot->odp[i] = odp;
	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	mutex_lock(&odp->umem_mutex);
	odp->private = rec;
	mutex_unlock(&odp->umem_mutex);
	return odp;
}

static struct ib_umem_odp *ot_get(struct kunit *test, unsigned long addr,
				  size_t size, int access)
{
	return ot_keep(test, ib_umem_odp_get(ot_dev(test), addr, size, access,
					     &ot_ops));
}

/* Releases @odp now, with ib_umem_release() if @generic. */
static void ot_put(struct kunit *test, struct ib_umem_odp *odp, bool generic)
{
	struct ot *ot = test->priv;
	int i;

	for (i = 0; i < OT_MAX_UMEMS; i++)
		if (ot->odp[i] == odp)
			ot->odp[i] = NULL;
	if (generic)
		ib_umem_release(&odp->umem);
	else
		ib_umem_odp_release(odp);
}

static struct ot_rec *ot_rec(struct ib_umem_odp *odp)
{
	return odp->private;
}

/* Whether this thread holds umem_mutex (as far as the kernel can tell). */
static bool ot_holds(struct ib_umem_odp *odp)
{
#ifdef CONFIG_LOCKDEP
	if (!lockdep_is_held(&odp->umem_mutex))
		return false;
#endif
	return mutex_is_locked(&odp->umem_mutex);
}

/**
 * struct ot_snap - what a mapping call left, copied under umem_mutex
 * @ret: its return value
 * @held: umem_mutex was held on return
 * @npages: the umem's npages
 * @dma: dma_list (all of it)
 */
struct ot_snap {
	int ret;
	bool held;
	int npages;
	dma_addr_t *dma;
};

/* A copy of dma_list and npages, taken under umem_mutex. */
static void ot_snap_locked(struct ib_umem_odp *odp, struct ot_snap *s)
{
	memcpy(s->dma, odp->dma_list,
	       ib_umem_odp_num_pages(odp) * sizeof(*s->dma));
	s->npages = odp->npages;
}

static struct ot_snap *ot_snap_alloc(struct kunit *test,
				     struct ib_umem_odp *odp)
{
	struct ot_snap *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->dma = kunit_kcalloc(test, ib_umem_odp_num_pages(odp),
			       sizeof(*s->dma), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->dma);
	return s;
}

/*
 * ib_umem_odp_map_dma_and_lock(); on success notes that the mutex was
 * held, copies dma_list if @s has room for it and unlocks.  Returns the
 * call's result.
 */
static int ot_map(struct kunit *test, struct ib_umem_odp *odp, u64 va,
		  u64 bcnt, u64 mask, bool fault, struct ot_snap *s)
{
	int ret;

	ret = ib_umem_odp_map_dma_and_lock(odp, va, bcnt, mask, fault);
	s->ret = ret;
	if (ret < 0) {
		s->held = mutex_is_locked(&odp->umem_mutex);
		return ret;
	}
	s->held = ot_holds(odp);
	if (s->dma)
		ot_snap_locked(odp, s);
	mutex_unlock(&odp->umem_mutex);
	return ret;
}

/* Maps and expects @err, with umem_mutex left unlocked. */
static void ot_map_fails(struct kunit *test, struct ib_umem_odp *odp, u64 va,
			 u64 bcnt, u64 mask, bool fault, int err)
{
	struct ot_snap s = {};

	KUNIT_EXPECT_EQ_MSG(test, ot_map(test, odp, va, bcnt, mask, fault, &s),
			    err, "va %llx bcnt %llx mask %llx fault %d", va,
			    bcnt, mask, fault);
	KUNIT_EXPECT_FALSE(test, s.held);
}

static void ot_unmap(struct ib_umem_odp *odp, u64 start, u64 bound)
{
	mutex_lock(&odp->umem_mutex);
	ib_umem_odp_unmap_dma_pages(odp, start, bound);
	mutex_unlock(&odp->umem_mutex);
}

/* The kernel address the device reaches through dma_list entry @dma. */
static u32 *ot_dev_view(dma_addr_t dma)
{
	return (u32 *)(uintptr_t)(dma & ODP_DMA_ADDR_MASK);
}

static dma_addr_t ot_zero_page_dma(void)
{
	return (dma_addr_t)(uintptr_t)page_address(ZERO_PAGE(0));
}

/*
 * The device writes @val through dma_list entry @dma; never into the zero
 * page, where a broken mapping would put it (and every process after).
 */
static void ot_dev_write(struct kunit *test, dma_addr_t dma, u32 val)
{
	KUNIT_ASSERT_NE_MSG(test, dma & ODP_DMA_ADDR_MASK, ot_zero_page_dma(),
			    "a page mapped for write is the zero page");
	*ot_dev_view(dma) = val;
}

/* Whether the page mapped at @addr (present already) is dirty. */
static bool ot_dirty(struct kunit *test, unsigned long addr)
{
	struct page *page;
	bool dirty;

	KUNIT_ASSERT_EQ(test, get_user_pages_fast(addr, 1, 0, &page), 1);
	dirty = PageDirty(page);
	put_page(page);
	return dirty;
}

/* What MADV_DONTNEED does: drops the pages of [@addr, @addr + @len). */
static void ot_zap(struct kunit *test, unsigned long addr, size_t len)
{
	struct vm_area_struct *vma;

	mmap_read_lock(ot_mm);
	vma = vma_lookup(ot_mm, addr);
	if (vma)
		zap_page_range(vma, addr, len);
	mmap_read_unlock(ot_mm);
	KUNIT_ASSERT_NOT_NULL(test, vma);
}

static unsigned int ot_pid_refs(void)
{
	return refcount_read(&task_pid(current)->count);
}

/* ---- ib_umem_odp_get() ---- */

static void odp_get_range(struct kunit *test)
{
	unsigned long base = ot_map_mem(test, 4 * PAGE_SIZE,
					PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp;
	size_t i;

	odp = ot_get(test, base + 100, 3 * PAGE_SIZE, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	KUNIT_EXPECT_TRUE(test, odp->umem.is_odp);
	KUNIT_EXPECT_FALSE(test, odp->is_implicit_odp);
	KUNIT_EXPECT_PTR_EQ(test, odp->umem.ibdev, ot_dev(test));
	KUNIT_EXPECT_PTR_EQ(test, odp->umem.owning_mm, ot_mm);
	KUNIT_EXPECT_PTR_EQ(test, odp->tgid, task_tgid(current));
	KUNIT_EXPECT_EQ(test, odp->umem.address, base + 100);
	KUNIT_EXPECT_EQ(test, odp->umem.length, 3 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, odp->umem.writable);
	KUNIT_EXPECT_EQ(test, odp->page_shift, (unsigned int)PAGE_SHIFT);
	/* The notifier covers the whole pages: 3 pages from offset 100 */
	KUNIT_EXPECT_EQ(test, ib_umem_start(odp), base);
	KUNIT_EXPECT_EQ(test, ib_umem_end(odp), base + 4 * PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, odp->notifier.mm, ot_mm);
	KUNIT_EXPECT_PTR_EQ(test, odp->notifier.ops, &ot_ops);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_num_pages(odp), (size_t)4);
	/* Nothing mapped yet, nothing pinned or charged */
	KUNIT_EXPECT_EQ(test, odp->npages, 0);
	KUNIT_ASSERT_NOT_NULL(test, odp->dma_list);
	KUNIT_ASSERT_NOT_NULL(test, odp->pfn_list);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, odp->dma_list[i], 0ULL);
		KUNIT_EXPECT_EQ(test, odp->pfn_list[i], 0UL);
	}

	/* Read-only access: not writable */
	odp = ot_get(test, base, PAGE_SIZE,
		     IB_ACCESS_ON_DEMAND | IB_ACCESS_REMOTE_READ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	KUNIT_EXPECT_FALSE(test, odp->umem.writable);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_num_pages(odp), (size_t)1);
	/* A zero length inside a page still covers that page (as in-tree) */
	odp = ot_get(test, base + 8, 0, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_num_pages(odp), (size_t)1);
}

/* ib_umem_odp_get() fails with @err, taking no reference it keeps. */
static void ot_get_fails(struct kunit *test, unsigned long addr, size_t size,
			 int access, int err)
{
	int mm_count = atomic_read(&ot_mm->mm_count);
	unsigned int pids = ot_pid_refs();
	struct ib_umem_odp *odp = ot_get(test, addr, size, access);

	KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(odp), err,
			    "addr %lx size %zx access %x", addr, size, access);
	KUNIT_EXPECT_EQ(test, atomic_read(&ot_mm->mm_count), mm_count);
	KUNIT_EXPECT_EQ(test, ot_pid_refs(), pids);
}

static void odp_get_bad_inputs(struct kunit *test)
{
	unsigned long addr = ot_map_mem(test, PAGE_SIZE,
					PROT_READ | PROT_WRITE);
	unsigned long top = ULONG_MAX & PAGE_MASK;
	struct ib_umem_odp *odp;

	/* Not for on-demand paging (in-tree: -EINVAL, and a WARN we omit) */
	ot_get_fails(test, addr, PAGE_SIZE, IB_ACCESS_LOCAL_WRITE, -EINVAL);
	ot_get_fails(test, addr, PAGE_SIZE, 0, -EINVAL);
	/* Empty at a page boundary */
	ot_get_fails(test, addr, 0, OT_ODP_RW, -EINVAL);
	/* addr + size wraps, or its page end does */
	ot_get_fails(test, top, 2 * PAGE_SIZE, OT_ODP_RW, -EOVERFLOW);
	ot_get_fails(test, addr, SIZE_MAX, OT_ODP_RW, -EOVERFLOW);
	ot_get_fails(test, ULONG_MAX - 100, 50, OT_ODP_RW, -EOVERFLOW);
	/* Arrays for 2^34 pages cannot be had (and are not warned about) */
	ot_get_fails(test, addr, 1UL << 46, OT_ODP_RW, -ENOMEM);

	/*
	 * The device's ODP capabilities are the verbs layer's business
	 * (ib_check_mr_access()): like in-tree, the umem does not look at
	 * them, and the test double has none.
	 */
	KUNIT_EXPECT_FALSE(test, ot_dev(test)->attrs.kernel_cap_flags &
			   IBK_ON_DEMAND_PAGING);
	KUNIT_EXPECT_EQ(test, ot_dev(test)->attrs.odp_caps.general_caps, 0ULL);
	odp = ot_get(test, addr, PAGE_SIZE, OT_ODP_RW);
	KUNIT_EXPECT_FALSE(test, IS_ERR(odp));

	/* ib_umem_get() still refuses on-demand paging */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_get(ot_dev(test), addr, PAGE_SIZE,
						  OT_ODP_RW)), -EOPNOTSUPP);

	/* Without an address space (in-tree would oops) */
	kthread_unuse_mm(ot_mm);
	odp = ib_umem_odp_get(ot_dev(test), addr, PAGE_SIZE, OT_ODP_RW,
			      &ot_ops);
	kthread_use_mm(ot_mm);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(odp), -EFAULT);
}

/* ---- ib_umem_odp_map_dma_and_lock() and ib_umem_odp_unmap_dma_pages() ---- */

static void odp_map_read_then_write(struct kunit *test)
{
	unsigned long base = ot_map_mem(test, 4 * PAGE_SIZE,
					PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp;
	struct ot_snap *s;
	dma_addr_t first;
	int i;

	ot_touch(test, base, 3, 0x100);	/* the last page is not touched */
	odp = ot_get(test, base, 4 * PAGE_SIZE, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	s = ot_snap_alloc(test, odp);

	/* Two pages for read, from inside the first */
	KUNIT_ASSERT_EQ(test, ot_map(test, odp, base + 8, PAGE_SIZE,
				     ODP_READ_ALLOWED_BIT, true, s), 2);
	KUNIT_EXPECT_TRUE(test, s->held);
	KUNIT_EXPECT_EQ(test, s->npages, 2);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, s->dma[i] & OT_RW,
				(dma_addr_t)ODP_READ_ALLOWED_BIT);
		KUNIT_EXPECT_EQ(test, *ot_dev_view(s->dma[i]), 0x100U + i);
	}
	KUNIT_EXPECT_EQ(test, s->dma[2], 0ULL);
	KUNIT_EXPECT_EQ(test, s->dma[3], 0ULL);
	first = s->dma[0];

	/* Unmapping a page mapped for read does not dirty it */
	KUNIT_ASSERT_FALSE(test, ot_dirty(test, base + PAGE_SIZE));
	ot_unmap(odp, base + PAGE_SIZE, base + 2 * PAGE_SIZE);
	KUNIT_EXPECT_FALSE(test, ot_dirty(test, base + PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, odp->npages, 1);
	KUNIT_EXPECT_EQ(test, odp->dma_list[1], 0ULL);

	/*
	 * All four for write: the untouched page is faulted in, the mapped
	 * one keeps its address and gains the write bit, nothing is counted
	 * twice.
	 */
	KUNIT_ASSERT_EQ(test, ot_map(test, odp, base, 4 * PAGE_SIZE - 1, OT_RW,
				     true, s), 4);
	KUNIT_EXPECT_TRUE(test, s->held);
	KUNIT_EXPECT_EQ(test, s->npages, 4);
	KUNIT_EXPECT_EQ(test, s->dma[0], (first & ODP_DMA_ADDR_MASK) | OT_RW);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, s->dma[i] & OT_RW, (dma_addr_t)OT_RW);
	/* What the device writes, the process reads */
	ot_dev_write(test, s->dma[3], 0xfeed);
	ot_dev_write(test, s->dma[1], 0xbeef);
	KUNIT_EXPECT_EQ(test, ot_peek(test, base + 3 * PAGE_SIZE), 0xfeedU);
	KUNIT_EXPECT_EQ(test, ot_peek(test, base + PAGE_SIZE), 0xbeefU);

	/* Unmapping a page mapped for write dirties it; bounds are clipped */
	KUNIT_ASSERT_FALSE(test, ot_dirty(test, base + 2 * PAGE_SIZE));
	ot_unmap(odp, base + 2 * PAGE_SIZE + 1, base + 3 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, ot_dirty(test, base + 2 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, odp->dma_list[2], 0ULL);
	KUNIT_EXPECT_EQ(test, odp->npages, 3);
	ot_unmap(odp, 0, base + PAGE_SIZE / 2);		/* page 0 */
	ot_unmap(odp, base + 3 * PAGE_SIZE, U64_MAX);	/* page 3 */
	ot_unmap(odp, base + 2 * PAGE_SIZE, base + 2 * PAGE_SIZE); /* none */
	KUNIT_EXPECT_EQ(test, odp->npages, 1);
	KUNIT_EXPECT_NE(test, odp->dma_list[1], 0ULL);
	KUNIT_ASSERT_FALSE(test, ot_dirty(test, base + PAGE_SIZE));
	ot_put(test, odp, false);
	KUNIT_EXPECT_TRUE(test, ot_dirty(test, base + PAGE_SIZE));
}

/*
 * Without fault only the pages present are mapped, with the permissions
 * of the CPU's mappings; a write fault then breaks the copy-on-write of
 * the zero page, which invalidates the page mapped already.
 */
static void odp_map_present_pages(struct kunit *test)
{
	unsigned long base = ot_map_mem(test, 4 * PAGE_SIZE,
					PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp;
	struct ot_snap *s;
	dma_addr_t zero;
	int calls;

	ot_touch(test, base, 1, 1);				/* written */
	ot_touch(test, base + 2 * PAGE_SIZE, 1, 3);		/* written */
	KUNIT_EXPECT_EQ(test, ot_peek(test, base + 3 * PAGE_SIZE), 0U);
	/* (page 1 is not touched, page 3 is the zero page, read-only) */
	odp = ot_get(test, base, 4 * PAGE_SIZE, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	s = ot_snap_alloc(test, odp);

	KUNIT_ASSERT_EQ(test, ot_map(test, odp, base, 4 * PAGE_SIZE,
				     ODP_READ_ALLOWED_BIT, false, s), 4);
	KUNIT_EXPECT_TRUE(test, s->held);
	KUNIT_EXPECT_EQ(test, s->npages, 3);
	KUNIT_EXPECT_EQ(test, s->dma[0] & OT_RW, (dma_addr_t)OT_RW);
	KUNIT_EXPECT_EQ(test, s->dma[1], 0ULL);
	KUNIT_EXPECT_EQ(test, s->dma[2] & OT_RW, (dma_addr_t)OT_RW);
	KUNIT_EXPECT_EQ(test, s->dma[3] & OT_RW,
			(dma_addr_t)ODP_READ_ALLOWED_BIT);
	KUNIT_EXPECT_EQ(test, *ot_dev_view(s->dma[2]), 3U);
	zero = s->dma[3] & ODP_DMA_ADDR_MASK;
	KUNIT_EXPECT_EQ(test, zero, ot_zero_page_dma());

	/* The page not touched yet, faulted in for write */
	KUNIT_ASSERT_EQ(test, ot_map(test, odp, base + PAGE_SIZE, 4,
				     OT_RW, true, s), 1);
	KUNIT_EXPECT_EQ(test, s->npages, 4);
	KUNIT_EXPECT_EQ(test, s->dma[1] & OT_RW, (dma_addr_t)OT_RW);
	ot_dev_write(test, s->dma[1], 0x5a5a);
	KUNIT_EXPECT_EQ(test, ot_peek(test, base + PAGE_SIZE), 0x5a5aU);

	/* Write to the zero page: a new page, after an invalidation */
	calls = ot_rec(odp)->calls;
	KUNIT_ASSERT_EQ(test, ot_map(test, odp, base + 3 * PAGE_SIZE, PAGE_SIZE,
				     OT_RW, true, s), 1);
	KUNIT_EXPECT_GT(test, ot_rec(odp)->calls, calls);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->event, MMU_NOTIFY_CLEAR);
	KUNIT_EXPECT_LE(test, ot_rec(odp)->start, base + 3 * PAGE_SIZE);
	KUNIT_EXPECT_GE(test, ot_rec(odp)->end, base + 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, s->npages, 4);
	KUNIT_EXPECT_NE(test, s->dma[3] & ODP_DMA_ADDR_MASK, zero);
	KUNIT_EXPECT_EQ(test, s->dma[3] & OT_RW, (dma_addr_t)OT_RW);
	ot_dev_write(test, s->dma[3], 0x77);
	KUNIT_EXPECT_EQ(test, ot_peek(test, base + 3 * PAGE_SIZE), 0x77U);
	KUNIT_EXPECT_EQ(test, ot_peek(test, base), 1U);
}

static void odp_map_bad_inputs(struct kunit *test)
{
	unsigned long base = ot_map_mem(test, 3 * PAGE_SIZE,
					PROT_READ | PROT_WRITE);
	unsigned long ro = ot_map_mem(test, PAGE_SIZE, PROT_READ);
	struct ib_umem_odp *odp, *rodp;
	struct ot_snap *s;

	odp = ot_get(test, base + PAGE_SIZE, PAGE_SIZE, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	s = ot_snap_alloc(test, odp);

	/* No access, or bits that are not permissions */
	ot_map_fails(test, odp, base + PAGE_SIZE, 8, 0, true, -EINVAL);
	ot_map_fails(test, odp, base + PAGE_SIZE, 8, 4, true, -EINVAL);
	/* Outside the umem, or wrapping */
	ot_map_fails(test, odp, base, 8, OT_RW, true, -EFAULT);
	ot_map_fails(test, odp, base + PAGE_SIZE - 1, 2, OT_RW, true, -EFAULT);
	ot_map_fails(test, odp, base + 2 * PAGE_SIZE - 8, 9, OT_RW, true,
		     -EFAULT);
	ot_map_fails(test, odp, base + PAGE_SIZE, U64_MAX, OT_RW, true,
		     -EFAULT);
	/* Nothing at a page boundary */
	ot_map_fails(test, odp, base + PAGE_SIZE, 0, OT_RW, true, -EINVAL);
	ot_map_fails(test, odp, base + 2 * PAGE_SIZE, 0, OT_RW, true, -EINVAL);
	KUNIT_EXPECT_EQ(test, odp->npages, 0);
	/* ... but an empty range inside a page maps that page */
	KUNIT_EXPECT_EQ(test, ot_map(test, odp, base + PAGE_SIZE + 8, 0,
				     ODP_READ_ALLOWED_BIT, true, s), 1);
	KUNIT_EXPECT_TRUE(test, s->held);

	/* Memory gone: a fault fails, a lookup finds nothing to map */
	ot_unmap(odp, 0, U64_MAX);
	vm_munmap(base + PAGE_SIZE, PAGE_SIZE);
	ot_map_fails(test, odp, base + PAGE_SIZE, 8, ODP_READ_ALLOWED_BIT,
		     true, -EFAULT);
	KUNIT_EXPECT_EQ(test, ot_map(test, odp, base + PAGE_SIZE, 8,
				     ODP_READ_ALLOWED_BIT, false, s), 1);
	KUNIT_EXPECT_EQ(test, s->npages, 0);
	KUNIT_EXPECT_EQ(test, s->dma[0], 0ULL);

	/* Write to memory the process may only read */
	rodp = ot_get(test, ro, PAGE_SIZE, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rodp);
	ot_map_fails(test, rodp, ro, PAGE_SIZE, OT_RW, true, -EPERM);
	s = ot_snap_alloc(test, rodp);
	KUNIT_EXPECT_EQ(test, ot_map(test, rodp, ro, PAGE_SIZE,
				     ODP_READ_ALLOWED_BIT, true, s), 1);
	KUNIT_EXPECT_EQ(test, s->dma[0] & OT_RW,
			(dma_addr_t)ODP_READ_ALLOWED_BIT);
}

/* ---- invalidation ---- */

static void odp_invalidate(struct kunit *test)
{
	unsigned long base = ot_map_mem(test, 4 * PAGE_SIZE,
					PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp;
	struct ot_snap *s;
	int calls, i;

	odp = ot_get(test, base, 4 * PAGE_SIZE, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	s = ot_snap_alloc(test, odp);
	KUNIT_ASSERT_EQ(test, ot_map(test, odp, base, 4 * PAGE_SIZE, OT_RW,
				     true, s), 4);
	KUNIT_EXPECT_EQ(test, s->npages, 4);

	/* MADV_DONTNEED of the middle two pages */
	calls = ot_rec(odp)->calls;
	ot_zap(test, base + PAGE_SIZE, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->calls, calls + 1);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->event, MMU_NOTIFY_CLEAR);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->start, base + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->end, base + 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->mapped, 4);
	KUNIT_EXPECT_EQ(test, odp->npages, 2);
	KUNIT_EXPECT_NE(test, odp->dma_list[0], 0ULL);
	KUNIT_EXPECT_EQ(test, odp->dma_list[1], 0ULL);
	KUNIT_EXPECT_EQ(test, odp->dma_list[2], 0ULL);
	KUNIT_EXPECT_NE(test, odp->dma_list[3], 0ULL);

	/* Faulted in again: fresh zeroed pages */
	KUNIT_ASSERT_EQ(test, ot_map(test, odp, base, 4 * PAGE_SIZE, OT_RW,
				     true, s), 4);
	KUNIT_EXPECT_EQ(test, s->npages, 4);
	KUNIT_EXPECT_EQ(test, *ot_dev_view(s->dma[1]), 0U);

	/* munmap of all of it */
	calls = ot_rec(odp)->calls;
	vm_munmap(base, 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->calls, calls + 1);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->event, MMU_NOTIFY_UNMAP);
	KUNIT_EXPECT_EQ(test, ot_rec(odp)->mapped, 4);
	KUNIT_EXPECT_EQ(test, odp->npages, 0);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, odp->dma_list[i], 0ULL);
	ot_map_fails(test, odp, base, PAGE_SIZE, OT_RW, true, -EFAULT);
}

/* ---- implicit parents and their children ---- */

static void odp_implicit_child(struct kunit *test)
{
	unsigned long base = ot_map_mem(test, 4 * PAGE_SIZE,
					PROT_READ | PROT_WRITE);
	struct ib_umem_odp *root, *child, *bad;
	struct ot_snap *s;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_odp_alloc_implicit(ot_dev(test),
			OT_ODP_RW | IB_ACCESS_HUGETLB)), -EINVAL);
	root = ot_keep(test, ib_umem_odp_alloc_implicit(ot_dev(test),
							OT_ODP_RW));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, root);
	KUNIT_EXPECT_TRUE(test, root->is_implicit_odp);
	KUNIT_EXPECT_TRUE(test, root->umem.is_odp);
	KUNIT_EXPECT_TRUE(test, root->umem.writable);
	KUNIT_EXPECT_PTR_EQ(test, root->umem.owning_mm, ot_mm);
	KUNIT_EXPECT_PTR_EQ(test, root->tgid, task_tgid(current));
	KUNIT_EXPECT_EQ(test, root->page_shift, (unsigned int)PAGE_SHIFT);
	KUNIT_EXPECT_NULL(test, root->dma_list);
	KUNIT_EXPECT_NULL(test, root->pfn_list);
	/* It has no range to map or unmap */
	ot_map_fails(test, root, 0, 1, ODP_READ_ALLOWED_BIT, false, -EFAULT);
	ot_map_fails(test, root, base, PAGE_SIZE, ODP_READ_ALLOWED_BIT, true,
		     -EFAULT);
	ot_unmap(root, 0, U64_MAX);

	/* A child, made and mapped where a driver's fault work runs: no mm */
	ot_touch(test, base, 4, 10);
	kthread_unuse_mm(ot_mm);
	child = ib_umem_odp_alloc_child(root, base + PAGE_SIZE, 2 * PAGE_SIZE,
					&ot_ops);
	kthread_use_mm(ot_mm);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, child);
	ot_keep(test, child);
	KUNIT_EXPECT_FALSE(test, child->is_implicit_odp);
	KUNIT_EXPECT_TRUE(test, child->umem.is_odp);
	KUNIT_EXPECT_TRUE(test, child->umem.writable);
	KUNIT_EXPECT_PTR_EQ(test, child->umem.ibdev, ot_dev(test));
	KUNIT_EXPECT_PTR_EQ(test, child->umem.owning_mm, ot_mm);
	KUNIT_EXPECT_PTR_EQ(test, child->tgid, root->tgid);
	KUNIT_EXPECT_PTR_EQ(test, child->notifier.ops, &ot_ops);
	KUNIT_EXPECT_EQ(test, ib_umem_start(child), base + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_umem_end(child), base + 3 * PAGE_SIZE);

	s = ot_snap_alloc(test, child);
	kthread_unuse_mm(ot_mm);
	KUNIT_EXPECT_EQ(test, ot_map(test, child, base + PAGE_SIZE,
				     2 * PAGE_SIZE, ODP_READ_ALLOWED_BIT, true,
				     s), 2);
	kthread_use_mm(ot_mm);
	KUNIT_EXPECT_TRUE(test, s->held);
	KUNIT_EXPECT_EQ(test, s->npages, 2);
	KUNIT_EXPECT_EQ(test, *ot_dev_view(s->dma[0]), 11U);
	KUNIT_EXPECT_EQ(test, *ot_dev_view(s->dma[1]), 12U);

	/* The child's range is watched */
	ot_zap(test, base, 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ot_rec(child)->calls, 1);
	KUNIT_EXPECT_EQ(test, child->npages, 0);
	KUNIT_EXPECT_EQ(test, ot_rec(root)->calls, 0);

	/* Only an implicit umem has children; a child needs a range */
	bad = ib_umem_odp_alloc_child(child, base, PAGE_SIZE, &ot_ops);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(bad), -EINVAL);
	bad = ib_umem_odp_alloc_child(root, base, 0, &ot_ops);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(bad), -EINVAL);
	bad = ib_umem_odp_alloc_child(root, ULONG_MAX & PAGE_MASK,
				      2 * PAGE_SIZE, &ot_ops);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(bad), -EOVERFLOW);

	/* The children go first, then the parent, both through the umem */
	ot_put(test, child, true);
	ot_put(test, root, true);
}

/* ---- huge pages ---- */

/*
 * IB_ACCESS_HUGETLB on memory of regular pages: the umem covers whole
 * huge pages, and a mapping finds the pages too small.
 */
static void odp_hugetlb_on_small_pages(struct kunit *test)
{
	unsigned long map = ot_map_mem(test, 2 * HPAGE_SIZE,
				       PROT_READ | PROT_WRITE);
	unsigned long huge = ALIGN(map, HPAGE_SIZE);
	struct ib_umem_odp *odp;

	/* No transparent huge page can fill a block the VMA does not cover */
	vm_munmap(huge + HPAGE_SIZE - PAGE_SIZE, PAGE_SIZE);
	ot_touch(test, huge, 1, 9);
	odp = ot_get(test, huge + PAGE_SIZE + 8, 16,
		     OT_ODP_RW | IB_ACCESS_HUGETLB);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	KUNIT_EXPECT_EQ(test, odp->page_shift, (unsigned int)HPAGE_SHIFT);
	KUNIT_EXPECT_EQ(test, ib_umem_start(odp), huge);
	KUNIT_EXPECT_EQ(test, ib_umem_end(odp), huge + HPAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_num_pages(odp), (size_t)1);
	ot_map_fails(test, odp, huge + PAGE_SIZE, 16, ODP_READ_ALLOWED_BIT,
		     false, -EINVAL);
	KUNIT_EXPECT_EQ(test, odp->npages, 0);
	KUNIT_EXPECT_EQ(test, odp->dma_list[0], 0ULL);
}

/* ---- page size ---- */

/*
 * ib_umem_find_best_pgsz() of an ODP umem: the umem's own page size, or 0
 * when the device lacks it.  An ODP umem has no scatterlist, so a size
 * worked out from the range alone would be wrong: a 2 MiB-aligned 2 MiB
 * registration would get one 2 MiB page where the driver then maps 512
 * pages of 4 KiB (issue 18, point 1).
 */
static void odp_find_best_pgsz(struct kunit *test)
{
	unsigned long map = ot_map_mem(test, 2 * SZ_2M, PROT_READ | PROT_WRITE);
	unsigned long huge = ALIGN(map, SZ_2M);
	struct ib_umem_odp *odp, *parent;

	odp = ot_get(test, huge, SZ_2M, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(&odp->umem,
			PAGE_SIZE | SZ_2M | SZ_1G, huge), PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, odp->umem.iova, (u64)huge);
	/* Only larger or smaller sizes: none fits */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(&odp->umem,
			SZ_2M | SZ_1G, huge), 0UL);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(&odp->umem,
			SZ_1K | SZ_2K, huge), 0UL);
	/* The IOVA does not matter: the driver maps by the umem's pages */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(&odp->umem,
			PAGE_SIZE | SZ_2M, 0x1000), PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, odp->umem.iova, 0x1000ULL);

	/* A umem of huge pages gets its huge page size */
	odp = ot_get(test, huge + 8, 16, OT_ODP_RW | IB_ACCESS_HUGETLB);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(&odp->umem,
			PAGE_SIZE | HPAGE_SIZE, huge + 8), HPAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(&odp->umem, PAGE_SIZE,
						     huge + 8), 0UL);

	/* An implicit parent covers no range: still its page size */
	parent = ot_keep(test, ib_umem_odp_alloc_implicit(ot_dev(test),
							  OT_ODP_RW));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, parent);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(&parent->umem,
			PAGE_SIZE | SZ_2M, 0), PAGE_SIZE);
}

/* ---- release ---- */

/*
 * Release gives back every reference and stops the notifier: an unmap
 * after it would reach a freed umem (KASAN), and the record stays still.
 */
static void odp_release(struct kunit *test)
{
	unsigned long base = ot_map_mem(test, 2 * PAGE_SIZE,
					PROT_READ | PROT_WRITE);
	int mm_count = atomic_read(&ot_mm->mm_count);
	unsigned int pids = ot_pid_refs();
	struct ib_umem_odp *odp, *child;
	struct ot_rec *rec;
	struct ot_snap *s;

	ot_touch(test, base, 2, 5);
	odp = ot_get(test, base, 2 * PAGE_SIZE, OT_ODP_RW);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	KUNIT_EXPECT_GT(test, atomic_read(&ot_mm->mm_count), mm_count);
	KUNIT_EXPECT_GT(test, ot_pid_refs(), pids);
	s = ot_snap_alloc(test, odp);
	KUNIT_ASSERT_EQ(test, ot_map(test, odp, base, 2 * PAGE_SIZE, OT_RW,
				     true, s), 2);
	rec = ot_rec(odp);
	KUNIT_ASSERT_FALSE(test, ot_dirty(test, base));

	/* ib_umem_release() of an ODP umem unmaps (and dirties) and frees */
	ot_put(test, odp, true);
	KUNIT_EXPECT_TRUE(test, ot_dirty(test, base));
	KUNIT_EXPECT_EQ(test, atomic_read(&ot_mm->mm_count), mm_count);
	KUNIT_EXPECT_EQ(test, ot_pid_refs(), pids);
	vm_munmap(base, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rec->calls, 0);

	/* An implicit parent and a child, released directly */
	odp = ot_keep(test, ib_umem_odp_alloc_implicit(ot_dev(test), 0));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, odp);
	KUNIT_EXPECT_FALSE(test, odp->umem.writable);
	child = ot_keep(test, ib_umem_odp_alloc_child(odp, base, PAGE_SIZE,
						      &ot_ops));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, child);
	KUNIT_EXPECT_FALSE(test, child->umem.writable);
	ot_put(test, child, false);
	ot_put(test, odp, false);
	KUNIT_EXPECT_EQ(test, atomic_read(&ot_mm->mm_count), mm_count);
	KUNIT_EXPECT_EQ(test, ot_pid_refs(), pids);
}

static struct kunit_case odp_cases[] = {
	KUNIT_CASE(odp_get_range),
	KUNIT_CASE(odp_get_bad_inputs),
	KUNIT_CASE(odp_map_read_then_write),
	KUNIT_CASE(odp_map_present_pages),
	KUNIT_CASE(odp_map_bad_inputs),
	KUNIT_CASE(odp_invalidate),
	KUNIT_CASE(odp_implicit_child),
	KUNIT_CASE(odp_hugetlb_on_small_pages),
	KUNIT_CASE(odp_find_best_pgsz),
	KUNIT_CASE(odp_release),
	{}
};

static struct kunit_suite odp_suite = {
	.name = "rdma_uverbs_umem_odp",
	.suite_init = ot_suite_init,
	.suite_exit = ot_suite_exit,
	.init = ot_init,
	.exit = ot_exit,
	.test_cases = odp_cases,
};

kunit_test_suite(odp_suite);
