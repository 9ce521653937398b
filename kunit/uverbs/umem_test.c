// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for ib_umem (ib_uverbs): pinning user memory for a device.
 *
 * ib_umem_get() pins memory of current->mm, but KUnit runs a case in a
 * kernel thread without one.  mm_alloc() is not exported to modules in
 * 6.1, so the suite borrows the address space of the process that loads
 * the suite module: KUnit runs the suites from finit_module(), so
 * suite_init sees the loader (modprobe) as current and takes a reference
 * to its mm.  Each case adopts that mm with kthread_use_mm(), maps its own
 * anonymous memory there with vm_mmap() and unmaps it at the end; the
 * loader waits in the syscall meanwhile.  Without such an mm (suites built
 * in) the cases are skipped.
 *
 * A case may lower its thread's RLIMIT_MEMLOCK and drop CAP_IPC_LOCK from
 * its credentials; both belong to the case's thread alone.  The device is
 * the test double, which has no DMA device: DMA addresses are kernel
 * addresses, so a case can read through them what the device would see.
 *
 * If a case stops at a failed assertion its thread is gone, and exit runs
 * in the loader: it then only releases what the case left (umems, maps).
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

#include "tdev.h"
#include "rdma_version.h"

#define UT_MAX_MAPS	4
#define UT_MAX_UMEMS	4

/* The loader's mm, from suite_init to suite_exit; NULL if there was none. */
static struct mm_struct *ut_mm;

/**
 * struct ut - one case's fixture (test->priv)
 * @td: the test device
 * @thread: the case's thread, which uses ut_mm
 * @map: start of each mapping made with ut_map()
 * @map_len: its length
 * @nmaps: mappings made
 * @umem: umems got and not yet released
 * @memlock: RLIMIT_MEMLOCK of @thread before the case changed it
 * @memlock_saved: @memlock is valid
 * @creds: the credentials overridden by ut_drop_ipc_lock(), or NULL
 */
struct ut {
	struct tdev *td;
	struct task_struct *thread;
	unsigned long map[UT_MAX_MAPS];
	size_t map_len[UT_MAX_MAPS];
	int nmaps;
	struct ib_umem *umem[UT_MAX_UMEMS];
	unsigned long memlock;
	bool memlock_saved;
	const struct cred *creds;
};

static int ut_suite_init(struct kunit_suite *suite)
{
	ut_mm = get_task_mm(current);
	return 0;
}

static void ut_suite_exit(struct kunit_suite *suite)
{
	if (ut_mm)
		mmput(ut_mm);
	ut_mm = NULL;
}

static int ut_init(struct kunit *test)
{
	struct ut *ut;

	if (!ut_mm)
		kunit_skip(test, "no user address space to borrow");
	ut = kunit_kzalloc(test, sizeof(*ut), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ut);
	ut->td = tdev_create_registered(NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ut->td);
	/* A reference for the thread: if it dies using the mm, exit drops it */
	mmget(ut_mm);
	kthread_use_mm(ut_mm);
	ut->thread = current;
	test->priv = ut;
	return 0;
}

static void ut_set_memlock_raw(unsigned long cur)
{
	task_lock(current->group_leader);
	WRITE_ONCE(current->signal->rlim[RLIMIT_MEMLOCK].rlim_cur, cur);
	task_unlock(current->group_leader);
}

/* What only the case's own thread may undo: limits, credentials, the mm. */
static void ut_exit_thread(struct ut *ut)
{
	if (ut->creds)
		revert_creds(ut->creds);
	if (ut->memlock_saved)
		ut_set_memlock_raw(ut->memlock);
	kthread_unuse_mm(ut_mm);
	mmput(ut_mm);
}

static void ut_exit(struct kunit *test)
{
	struct ut *ut = test->priv;
	int i;

	if (!ut)
		return;
	for (i = 0; i < UT_MAX_UMEMS; i++)
		ib_umem_release(ut->umem[i]);
	/* In the case's thread, or in the loader, whose mm this is too */
	for (i = 0; i < ut->nmaps && current->mm == ut_mm; i++)
		vm_munmap(ut->map[i], ut->map_len[i]);
	if (current == ut->thread)
		ut_exit_thread(ut);
	else if (ut->creds)	/* the thread died overriding its creds */
		put_cred(ut->creds);
	tdev_destroy(ut->td);
}

static struct ib_device *ut_dev(struct kunit *test)
{
	return &((struct ut *)test->priv)->td->ibdev;
}

static s64 ut_pinned(void)
{
	return atomic64_read(&ut_mm->pinned_vm);
}

/* Maps @npages anonymous pages with @prot in the borrowed mm. */
static unsigned long ut_map(struct kunit *test, unsigned long npages, int prot)
{
	struct ut *ut = test->priv;
	size_t len = npages << PAGE_SHIFT;
	unsigned long addr;

	KUNIT_ASSERT_LT(test, ut->nmaps, UT_MAX_MAPS);
	addr = vm_mmap(NULL, 0, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(addr), "vm_mmap: %ld",
			       (long)addr);
	ut->map[ut->nmaps] = addr;
	ut->map_len[ut->nmaps++] = len;
	return addr;
}

static u8 ut_byte(u32 seed, size_t i)
{
	return (u8)((i * 131 + seed) ^ (i >> 8) ^ (seed >> 3));
}

/* Writes the pattern of @seed into [@addr, @addr + @len) of the mm. */
static void ut_fill(struct kunit *test, unsigned long addr, size_t len,
		    u32 seed)
{
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < len; i++)
		buf[i] = ut_byte(seed, i);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)addr, buf, len), 0UL);
	kunit_kfree(test, buf);
}

/* ib_umem_get(); a umem it returns is released at exit unless ut_put(). */
static struct ib_umem *ut_get(struct kunit *test, unsigned long addr,
			      size_t size, int access)
{
	struct ib_umem *umem = ib_umem_get(ut_dev(test), addr, size, access);
	struct ut *ut = test->priv;
	int i;

	if (IS_ERR(umem))
		return umem;
	for (i = 0; i < UT_MAX_UMEMS && ut->umem[i]; i++)
		;
	KUNIT_ASSERT_LT(test, i, UT_MAX_UMEMS);
	ut->umem[i] = umem;
	return umem;
}

static void ut_put(struct kunit *test, struct ib_umem *umem)
{
	struct ut *ut = test->priv;
	int i;

	for (i = 0; i < UT_MAX_UMEMS; i++)
		if (ut->umem[i] == umem)
			ut->umem[i] = NULL;
	ib_umem_release(umem);
}

/* ib_umem_get() must fail with @err and leave pinned_vm as it was. */
static void ut_get_fails(struct kunit *test, unsigned long addr, size_t size,
			 int access, int err)
{
	s64 before = ut_pinned();
	struct ib_umem *umem = ut_get(test, addr, size, access);

	KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(umem), err,
			    "addr %lx size %zx access %x", addr, size, access);
	KUNIT_EXPECT_EQ(test, ut_pinned(), before);
}

/* Sets this thread's RLIMIT_MEMLOCK soft limit, restored at exit. */
static void ut_set_memlock(struct kunit *test, unsigned long bytes)
{
	struct ut *ut = test->priv;

	if (!ut->memlock_saved) {
		ut->memlock = rlimit(RLIMIT_MEMLOCK);
		ut->memlock_saved = true;
	}
	ut_set_memlock_raw(bytes);
}

/* Runs the rest of the case without CAP_IPC_LOCK, or with it again. */
static void ut_ipc_lock(struct kunit *test, bool allowed)
{
	struct ut *ut = test->priv;
	struct cred *cred;

	if (allowed) {
		if (ut->creds)
			revert_creds(ut->creds);
		ut->creds = NULL;
		return;
	}
	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_IPC_LOCK);
	ut->creds = override_creds(cred);
	put_cred(cred);
	KUNIT_ASSERT_FALSE(test, capable(CAP_IPC_LOCK));
}

/* Whether the page at @addr of the mm is pinned for DMA. */
static bool ut_page_pinned(struct kunit *test, unsigned long addr)
{
	struct page *page;
	bool pinned;

	KUNIT_ASSERT_EQ(test, get_user_pages_fast(addr, 1, 0, &page), 1);
	pinned = page_maybe_dma_pinned(page);
	put_page(page);
	return pinned;
}

/* The DMA address of every page of @umem, in order (kunit-allocated). */
static dma_addr_t *ut_page_dma(struct kunit *test, struct ib_umem *umem)
{
	size_t n = ib_umem_num_pages(umem), i = 0;
	struct sg_dma_page_iter it;
	dma_addr_t *dma;

	dma = kunit_kcalloc(test, n, sizeof(*dma), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dma);
	for_each_sgtable_dma_page(&umem->sgt_append.sgt, &it, 0) {
		KUNIT_ASSERT_LT(test, i, n);
		dma[i++] = sg_page_iter_dma_address(&it);
	}
	KUNIT_EXPECT_EQ(test, i, n);
	return dma;
}

/* ---- ib_umem_get() and ib_umem_release() ---- */

static void umem_get_pins_and_maps(struct kunit *test)
{
	unsigned long base = ut_map(test, 5, PROT_READ | PROT_WRITE);
	unsigned long addr = base + 100;
	size_t size = 3 * PAGE_SIZE, i, total = 0;
	struct scatterlist *sg;
	struct ib_umem *umem;
	s64 before = ut_pinned();
	dma_addr_t *dma;
	unsigned int n;

	KUNIT_ASSERT_TRUE(test, ib_uses_virt_dma(ut_dev(test)));
	ut_fill(test, addr, size, 7);
	umem = ut_get(test, addr, size, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);

	KUNIT_EXPECT_PTR_EQ(test, umem->ibdev, ut_dev(test));
	KUNIT_EXPECT_PTR_EQ(test, umem->owning_mm, ut_mm);
	KUNIT_EXPECT_EQ(test, umem->address, addr);
	KUNIT_EXPECT_EQ(test, umem->iova, (u64)addr);
	KUNIT_EXPECT_EQ(test, umem->length, size);
	KUNIT_EXPECT_TRUE(test, umem->writable);
	KUNIT_EXPECT_EQ(test, ib_umem_offset(umem), 100);
	/* 3 pages from offset 100 touch 4 pages, all charged and pinned */
	KUNIT_EXPECT_EQ(test, ib_umem_num_pages(umem), (size_t)4);
	KUNIT_EXPECT_EQ(test, ut_pinned() - before, 4);
	KUNIT_EXPECT_TRUE(test, ut_page_pinned(test, base));
	KUNIT_EXPECT_TRUE(test, ut_page_pinned(test, base + 3 * PAGE_SIZE));
	KUNIT_EXPECT_FALSE(test, ut_page_pinned(test, base + 4 * PAGE_SIZE));

	/* Whole pages from offset 0, mapped: the device sees the data */
	KUNIT_EXPECT_GE(test, umem->sgt_append.sgt.nents, 1U);
	for_each_sgtable_dma_sg(&umem->sgt_append.sgt, sg, n) {
		KUNIT_EXPECT_EQ(test, sg->offset, 0U);
		KUNIT_EXPECT_EQ(test, sg_dma_len(sg) % PAGE_SIZE, 0U);
		total += sg_dma_len(sg);
	}
	KUNIT_EXPECT_EQ(test, total, 4 * PAGE_SIZE);
	dma = ut_page_dma(test, umem);
	for (i = 0; i < size; i += 509) {
		size_t at = 100 + i;
		u8 *dev_view = (u8 *)(uintptr_t)dma[at >> PAGE_SHIFT];

		KUNIT_EXPECT_EQ(test, dev_view[at & ~PAGE_MASK], ut_byte(7, i));
	}

	ut_put(test, umem);
	KUNIT_EXPECT_EQ(test, ut_pinned(), before);
	KUNIT_EXPECT_FALSE(test, ut_page_pinned(test, base));
	KUNIT_EXPECT_FALSE(test, ut_page_pinned(test, base + 3 * PAGE_SIZE));
	ib_umem_release(NULL);
}

static void umem_get_bad_ranges(struct kunit *test)
{
	unsigned long addr = ut_map(test, 1, PROT_READ | PROT_WRITE);
	unsigned long top = ULONG_MAX & PAGE_MASK;

	/* Empty, aligned or not */
	ut_get_fails(test, addr, 0, 0, -EINVAL);
	ut_get_fails(test, addr + 8, 0, IB_ACCESS_LOCAL_WRITE, -EINVAL);
	/* addr + size wraps */
	ut_get_fails(test, top, 2 * PAGE_SIZE, 0, -EINVAL);
	ut_get_fails(test, addr, SIZE_MAX, 0, -EINVAL);
	/* addr + size fits, but its page end wraps */
	ut_get_fails(test, ULONG_MAX - 100, 50, 0, -EINVAL);
	/* More pages than a scatterlist can count */
	ut_get_fails(test, addr, ((size_t)UINT_MAX + 1) << PAGE_SHIFT, 0,
		     -EINVAL);
	/* On-demand paging needs ib_umem_odp */
	ut_get_fails(test, addr, PAGE_SIZE, IB_ACCESS_ON_DEMAND, -EOPNOTSUPP);
	/* Not a user address */
	ut_get_fails(test, top - 16 * PAGE_SIZE, PAGE_SIZE, 0, -EFAULT);
}

/* The target's order: range, then the right to lock, then ODP and size. */
static void umem_get_check_order(struct kunit *test)
{
	unsigned long addr = ut_map(test, 1, PROT_READ | PROT_WRITE);

	ut_ipc_lock(test, false);
	ut_set_memlock(test, 0);
	ut_get_fails(test, ULONG_MAX - 100, 50, 0, -EINVAL);
	ut_get_fails(test, addr, PAGE_SIZE, 0, -EPERM);
	ut_get_fails(test, addr, PAGE_SIZE, IB_ACCESS_ON_DEMAND, -EPERM);
	ut_get_fails(test, addr, 0, 0, -EPERM);
	/* CAP_IPC_LOCK alone is a right to lock memory */
	ut_ipc_lock(test, true);
	ut_get_fails(test, addr, PAGE_SIZE, IB_ACCESS_ON_DEMAND, -EOPNOTSUPP);
	ut_get_fails(test, addr, 0, 0, -EINVAL);
	KUNIT_EXPECT_FALSE(test, IS_ERR(ut_get(test, addr, PAGE_SIZE, 0)));
}

static void umem_get_memlock_limit(struct kunit *test)
{
	unsigned long addr = ut_map(test, 4, PROT_READ | PROT_WRITE);
	s64 before = ut_pinned();
	struct ib_umem *a, *b;

	ut_ipc_lock(test, false);
	ut_set_memlock(test, (before + 2) << PAGE_SHIFT);

	a = ut_get(test, addr, 2 * PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_EXPECT_EQ(test, ut_pinned(), before + 2);
	/* One page more than the limit, counting what is pinned already */
	ut_get_fails(test, addr + 2 * PAGE_SIZE, 1, 0, -ENOMEM);
	ut_put(test, a);
	KUNIT_EXPECT_EQ(test, ut_pinned(), before);
	/* Three pages at once: over the limit as well */
	ut_get_fails(test, addr, 2 * PAGE_SIZE + 1, 0, -ENOMEM);

	/* CAP_IPC_LOCK goes past the limit */
	ut_ipc_lock(test, true);
	b = ut_get(test, addr, 4 * PAGE_SIZE, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, ut_pinned(), before + 4);
	ut_put(test, b);
	KUNIT_EXPECT_EQ(test, ut_pinned(), before);
}

static void umem_get_access(struct kunit *test)
{
	unsigned long ro = ut_map(test, 2, PROT_READ);
	unsigned long rw = ut_map(test, 2, PROT_READ | PROT_WRITE);
	struct ib_umem *umem;

	/* Read-only access to read-only memory: pinned, not writable */
	umem = ut_get(test, ro, 2 * PAGE_SIZE, IB_ACCESS_REMOTE_READ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_EXPECT_FALSE(test, umem->writable);
	ut_put(test, umem);
	/* Any access that lets the device write needs writable memory */
	ut_get_fails(test, ro, PAGE_SIZE, IB_ACCESS_LOCAL_WRITE, -EFAULT);
	ut_get_fails(test, ro, PAGE_SIZE, IB_ACCESS_REMOTE_WRITE, -EFAULT);
	ut_get_fails(test, ro, PAGE_SIZE, IB_ACCESS_REMOTE_ATOMIC, -EFAULT);
	ut_get_fails(test, ro, PAGE_SIZE, IB_ACCESS_MW_BIND, -EFAULT);

	umem = ut_get(test, rw, 2 * PAGE_SIZE,
		      IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_RELAXED_ORDERING);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_EXPECT_TRUE(test, umem->writable);
}

static void umem_get_without_mm(struct kunit *test)
{
	unsigned long addr = ut_map(test, 1, PROT_READ | PROT_WRITE);
	struct ib_umem *umem;

	kthread_unuse_mm(ut_mm);
	umem = ib_umem_get(ut_dev(test), addr, PAGE_SIZE, 0);
	kthread_use_mm(ut_mm);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(umem), -EFAULT);
}

/*
 * A fault after a whole batch of pages was pinned and appended: all of it
 * is unpinned again and nothing stays charged.
 */
static void umem_get_fault_unwinds(struct kunit *test)
{
	unsigned long npages = PAGE_SIZE / sizeof(struct page *) + 80;
	unsigned long addr = ut_map(test, npages + 1, PROT_READ | PROT_WRITE);
	unsigned long hole = addr + (npages << PAGE_SHIFT);
	struct ib_umem *umem;

	vm_munmap(hole, PAGE_SIZE);
	ut_fill(test, addr, npages << PAGE_SHIFT, 1);
	ut_get_fails(test, addr, (npages + 1) << PAGE_SHIFT,
		     IB_ACCESS_LOCAL_WRITE, -EFAULT);
	KUNIT_EXPECT_FALSE(test, ut_page_pinned(test, addr));
	KUNIT_EXPECT_FALSE(test, ut_page_pinned(test, hole - PAGE_SIZE));
	ut_get_fails(test, hole, PAGE_SIZE, 0, -EFAULT);

	/* The same pages without the hole: all pinned (the check can see it) */
	umem = ut_get(test, addr, npages << PAGE_SHIFT, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_EXPECT_TRUE(test, ut_page_pinned(test, addr));
	KUNIT_EXPECT_TRUE(test, ut_page_pinned(test, hole - PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, ib_umem_num_pages(umem), (size_t)npages);
}

/* ---- ib_umem_copy_from() ---- */

static void umem_copy_from_ranges(struct kunit *test)
{
	static const size_t at[][2] = {	/* offset, length */
		{ 0, 1 }, { 0, 3 * PAGE_SIZE }, { 5, PAGE_SIZE },
		{ PAGE_SIZE - 7, 20 }, { 3 * PAGE_SIZE - 1, 1 },
		{ 3 * PAGE_SIZE, 0 },
	};
	unsigned long addr = ut_map(test, 4, PROT_READ | PROT_WRITE) + 300;
	size_t size = 3 * PAGE_SIZE, i, j;
	struct ib_umem *umem;
	u8 *buf;

	ut_fill(test, addr, size, 42);
	umem = ut_get(test, addr, size, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	buf = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	for (i = 0; i < ARRAY_SIZE(at); i++) {
		memset(buf, 0, size);
		KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, at[i][0],
							at[i][1]), 0);
		for (j = 0; j < at[i][1]; j++)
			if (buf[j] != ut_byte(42, at[i][0] + j))
				break;
		KUNIT_EXPECT_EQ_MSG(test, j, at[i][1], "offset %zu", at[i][0]);
	}
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, 0, size + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, 1, size), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, size + 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, 8, SIZE_MAX - 4),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, SIZE_MAX, 2),
			-EINVAL);
}

/* ---- page sizes and the block iterator over a pinned umem ---- */

/*
 * Walks @umem in blocks of @pgsz and checks each block against the pages:
 * block k covers IOVAs from ALIGN_DOWN(iova, pgsz) + k * pgsz, and each
 * page of the umem in it must sit at the same offset from the block's DMA
 * address as its IOVA from the block's IOVA.
 */
static void ut_check_blocks(struct kunit *test, struct ib_umem *umem,
			    unsigned long pgsz)
{
	dma_addr_t *dma = ut_page_dma(test, umem);
	u64 first = umem->iova - ib_umem_offset(umem);	/* IOVA of page 0 */
	u64 bva = ALIGN_DOWN(umem->iova, pgsz);
	struct ib_block_iter biter;
	size_t blocks = 0, pg;

	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		dma_addr_t got = rdma_block_iter_dma_address(&biter);
		u64 lo = max(bva, first), va;

		KUNIT_EXPECT_EQ(test, got & (pgsz - 1), 0ULL);
		for (va = ALIGN_DOWN(lo, PAGE_SIZE); va < bva + pgsz; va += PAGE_SIZE) {
			pg = (va - first) >> PAGE_SHIFT;
			if (pg >= ib_umem_num_pages(umem))
				break;
			KUNIT_EXPECT_EQ_MSG(test, got + (max(va, bva) - bva),
					    dma[pg] + (max(va, bva) - va),
					    "pgsz %lx block %zu page %zu", pgsz,
					    blocks, pg);
		}
		bva += pgsz;
		blocks++;
	}
	KUNIT_EXPECT_EQ_MSG(test, blocks, ib_umem_num_dma_blocks(umem, pgsz),
			    "pgsz %lx", pgsz);
}

static void umem_dma_blocks(struct kunit *test)
{
	static const unsigned long sizes[] = { SZ_512, SZ_1K, SZ_2K, PAGE_SIZE };
	unsigned long addr = ut_map(test, 6, PROT_READ | PROT_WRITE) + 1000;
	struct ib_umem *umem;
	unsigned long best;
	int i;

	umem = ut_get(test, addr, 5 * PAGE_SIZE - 900, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		ut_check_blocks(test, umem, sizes[i]);

	best = ib_umem_find_best_pgsz(umem, PAGE_SIZE | SZ_2M | SZ_1G, addr);
	KUNIT_EXPECT_GE(test, best, PAGE_SIZE);
	ut_check_blocks(test, umem, best);
	/* Sizes up to PAGE_SIZE always fit; the largest is chosen */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_1K | SZ_2K, addr),
			(unsigned long)SZ_2K);
}

/*
 * An IOVA whose page offset differs from the address's fits no page size;
 * the umem's iova follows the call, but its charge does not.
 */
static void umem_find_best_pgsz_iova(struct kunit *test)
{
	unsigned long addr = ut_map(test, 3, PROT_READ | PROT_WRITE) + 100;
	s64 before = ut_pinned();
	struct ib_umem *umem;

	umem = ut_get(test, addr, PAGE_SIZE, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, PAGE_SIZE, 0x10000),
			0UL);
	KUNIT_EXPECT_EQ(test, umem->iova, 0x10000ULL);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, PAGE_SIZE, 0x10064),
			PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, umem->iova, 0x10064ULL);
	/* An IOVA range that wraps */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, PAGE_SIZE,
						     U64_MAX - 100), 0UL);
	KUNIT_EXPECT_EQ(test, ut_pinned(), before + 2);
	ib_umem_find_best_pgsz(umem, PAGE_SIZE, 0x20000);
	ut_put(test, umem);
	KUNIT_EXPECT_EQ(test, ut_pinned(), before);
}

static struct kunit_case umem_cases[] = {
	KUNIT_CASE(umem_get_pins_and_maps),
	KUNIT_CASE(umem_get_bad_ranges),
	KUNIT_CASE(umem_get_check_order),
	KUNIT_CASE(umem_get_memlock_limit),
	KUNIT_CASE(umem_get_access),
	KUNIT_CASE(umem_get_without_mm),
	KUNIT_CASE(umem_get_fault_unwinds),
	KUNIT_CASE(umem_copy_from_ranges),
	KUNIT_CASE(umem_dma_blocks),
	KUNIT_CASE(umem_find_best_pgsz_iova),
	{}
};

static struct kunit_suite umem_suite = {
	.name = "rdma_uverbs_umem",
	.suite_init = ut_suite_init,
	.suite_exit = ut_suite_exit,
	.init = ut_init,
	.exit = ut_exit,
	.test_cases = umem_cases,
};

kunit_test_suite(umem_suite);

MODULE_DESCRIPTION("KUnit suites of ib_uverbs' user memory and of DMA blocks");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
