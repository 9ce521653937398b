// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for user mappings: ib_core's mmap entries and device memory
 * mappings (core/umap/: rdma_user_mmap_entry_insert, _insert_range, _get,
 * _get_pgoff, _put, _remove, rdma_user_mmap_io, rdma_umap_priv_init) and
 * ib_uverbs' mmap() with the zap of a disassociated file's mappings
 * (uverbs/core/mmap.c).
 *
 * The test device's mmap maps its one page of "device memory" (filled
 * with 0x5a) for the mmap entry its alloc_ucontext inserts (uvk.h); the
 * case maps it through the real /dev/infiniband/uverbsN into the borrowed
 * address space and reads it back.
 */
#include <kunit/test.h>
#include <linux/mman.h>
#include "tobj.h"

/**
 * struct mt - one case's fixture (test->priv)
 * @u: the test device
 * @f: its open uverbsN, with a context
 * @afile: the context's async event file
 */
struct mt {
	struct uvk *u;
	struct file *f;
	struct file *afile;
};

static struct mt *mt_setup(struct kunit *test, bool disassociate)
{
	struct uvk_params p = { .disassociate = disassociate };
	struct mt *mt = kunit_kzalloc(test, sizeof(*mt), GFP_KERNEL);
	int afd;

	KUNIT_ASSERT_NOT_NULL(test, mt);
	mt->u = uvk_new(test, &p);
	mt->f = uvk_open(mt->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mt->f));
	afd = uvk_get_context(mt->u, mt->f);
	KUNIT_ASSERT_GE(test, afd, 0);
	mt->afile = uvk_take_fd(afd);
	return mt;
}

static void mt_close(struct mt *mt)
{
	uvk_close(mt->u, mt->afile);
	uvk_close(mt->u, mt->f);
}

static unsigned long mt_map(struct mt *mt, size_t len, unsigned long flags,
			    unsigned long pgoff)
{
	return vm_mmap(mt->f, 0, len, PROT_READ | PROT_WRITE, flags,
		       pgoff << PAGE_SHIFT);
}

static u8 mt_byte(struct kunit *test, unsigned long addr)
{
	u8 b = 0;

	KUNIT_EXPECT_EQ(test, copy_from_user(&b, (void __user *)addr, 1), 0ul);
	return b;
}

static void mmap_device_page(struct kunit *test)
{
	struct mt *mt = mt_setup(test, false);
	unsigned long addr;

	/* The context's entry is the first: offset 0 */
	addr = mt_map(mt, PAGE_SIZE, MAP_SHARED, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(addr));
	KUNIT_EXPECT_EQ(test, mt_byte(test, addr), 0x5a);
	KUNIT_EXPECT_EQ(test, mt_byte(test, addr + PAGE_SIZE - 1), 0x5a);

	/* Not the entry's size, not shared, not an entry */
	KUNIT_EXPECT_EQ(test, (long)mt_map(mt, 2 * PAGE_SIZE, MAP_SHARED, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, (long)mt_map(mt, PAGE_SIZE, MAP_PRIVATE, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, (long)mt_map(mt, PAGE_SIZE, MAP_SHARED, 7),
			-EINVAL);
	vm_munmap(addr, PAGE_SIZE);
	mt_close(mt);
	/* The entry went back to the driver once, after the context */
	KUNIT_EXPECT_EQ(test, atomic_read(&mt->u->mmap_free), 1);
}

static void mmap_needs_context(struct kunit *test)
{
	struct uvk *u = uvk_new(test, NULL);
	struct file *f = uvk_open(u);

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, (long)vm_mmap(f, 0, PAGE_SIZE,
					    PROT_READ | PROT_WRITE,
					    MAP_SHARED, 0), -EINVAL);
	uvk_close(u, f);
}

static void mmap_zapped_on_disassociate(struct kunit *test)
{
	struct mt *mt = mt_setup(test, true);
	unsigned long addr;
	u8 b = 0x77;

	addr = mt_map(mt, PAGE_SIZE, MAP_SHARED, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(addr));
	KUNIT_EXPECT_EQ(test, mt_byte(test, addr), 0x5a);
	uvk_unregister(mt->u);
	/* The device memory is gone from the process: a zero page */
	KUNIT_EXPECT_EQ(test, mt_byte(test, addr), 0);
	KUNIT_EXPECT_EQ(test, copy_to_user((void __user *)addr, &b, 1), 0ul);
	KUNIT_EXPECT_EQ(test, mt_byte(test, addr), 0x77);
	KUNIT_EXPECT_EQ(test, *(u8 *)page_address(mt->u->page), 0x5a);
	KUNIT_EXPECT_EQ(test, atomic_read(&mt->u->mmap_free), 1);
	/* No new mapping */
	KUNIT_EXPECT_EQ(test, (long)mt_map(mt, PAGE_SIZE, MAP_SHARED, 0), -EIO);
	vm_munmap(addr, PAGE_SIZE);
	mt_close(mt);
	KUNIT_EXPECT_EQ(test, atomic_read(&mt->u->mmap_free), 1);
}

static void mmap_entries(struct kunit *test)
{
	struct mt *mt = mt_setup(test, false);
	struct ib_ucontext *uc = mt->u->ucontext;
	struct rdma_user_mmap_entry e[4] = {}, *got;
	int frees;

	KUNIT_ASSERT_NOT_NULL(test, uc);
	frees = atomic_read(&mt->u->mmap_free);
	KUNIT_EXPECT_EQ(test, rdma_user_mmap_entry_insert(uc, NULL, PAGE_SIZE),
			-EINVAL);
	/* Ranges of whole pages, the first free one from min_pgoff */
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_range(uc, &e[0],
			3 * PAGE_SIZE - 5, 5, 10), 0);
	KUNIT_EXPECT_EQ(test, e[0].start_pgoff, 5ul);
	KUNIT_EXPECT_EQ(test, e[0].npages, 3ul);
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_range(uc, &e[1],
			3 * PAGE_SIZE, 5, 10), 0);
	KUNIT_EXPECT_EQ(test, e[1].start_pgoff, 8ul);
	/* No room left in [5, 10] */
	KUNIT_EXPECT_EQ(test, rdma_user_mmap_entry_insert_range(uc, &e[2],
			PAGE_SIZE, 5, 10), -ENOMEM);
	/* Anywhere: after the context's own entry at 0 */
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert(uc, &e[3], PAGE_SIZE),
			0);
	KUNIT_EXPECT_EQ(test, e[3].start_pgoff, 1ul);

	/* Found only by the first offset of its range */
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get_pgoff(uc, 6));
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get_pgoff(uc, 1UL << 33));
	got = rdma_user_mmap_entry_get_pgoff(uc, 5);
	KUNIT_EXPECT_PTR_EQ(test, got, &e[0]);
	/* Removed while held: no more lookups, freed at the last put */
	rdma_user_mmap_entry_remove(&e[0]);
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get_pgoff(uc, 5));
	KUNIT_EXPECT_EQ(test, atomic_read(&mt->u->mmap_free), frees);
	KUNIT_EXPECT_EQ(test, rdma_user_mmap_entry_insert_range(uc, &e[2],
			PAGE_SIZE, 5, 7), -ENOMEM);
	if (got)
		rdma_user_mmap_entry_put(got);
	KUNIT_EXPECT_EQ(test, atomic_read(&mt->u->mmap_free), frees + 1);
	/* Its offsets are free again */
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_range(uc, &e[2],
			PAGE_SIZE, 5, 7), 0);
	KUNIT_EXPECT_EQ(test, e[2].start_pgoff, 5ul);
	rdma_user_mmap_entry_remove(&e[1]);
	rdma_user_mmap_entry_remove(&e[2]);
	rdma_user_mmap_entry_remove(&e[3]);
	rdma_user_mmap_entry_remove(NULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&mt->u->mmap_free), frees + 4);
	mt_close(mt);
}

static struct kunit_case mmap_cases[] = {
	KUNIT_CASE(mmap_device_page),
	KUNIT_CASE(mmap_needs_context),
	KUNIT_CASE(mmap_zapped_on_disassociate),
	KUNIT_CASE(mmap_entries),
	{}
};

static struct kunit_suite mmap_suite = {
	.name = "rdma_uverbs_mmap",
	.suite_init = uvk_suite_init,
	.suite_exit = uvk_suite_exit,
	.test_cases = mmap_cases,
};

kunit_test_suites(&mmap_suite);
