// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_mem: hw/rxe/mem.c, memory regions on the data
 * path.  Keys found only with their key byte and only once published; a
 * fast-registration MR found by no key before its registration, then by
 * the key a registration gives it until an invalidation (each refused
 * with another PD, index or key, or in the wrong state); the
 * PD, access and range checks at their edges (the end of the region, a
 * length that wraps); copies in and out across page boundaries for a DMA
 * MR, for a user MR's pages (not contiguous, the region starting inside
 * the first) and from packets whose bytes lie in a page fragment; and
 * dereg_mr waiting for a user of the data path to let go.
 */
#include <kunit/test.h>
#include <linux/highmem.h>
#include <linux/kthread.h>
#include "dev.h"
#include "loop.h"
#include "mem.h"
#include "skb.h"

static struct ib_pd *mm_pd(struct kunit *test)
{
	struct sr_dev *sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	struct ib_pd *pd = kunit_kzalloc(test, sizeof(*pd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, pd);
	xa_init_flags(&sdev->mrs, XA_FLAGS_ALLOC1);
	pd->device = &sdev->ibdev;
	return pd;
}

static struct sr_mr *mm_dma_mr(struct kunit *test, struct ib_pd *pd,
			       int access)
{
	struct ib_mr *ibmr = sr_get_dma_mr(pd, access);

	KUNIT_ASSERT_FALSE(test, IS_ERR(ibmr));
	ibmr->device = pd->device;
	ibmr->pd = pd;
	return to_sr_mr(ibmr);
}

static void mm_get(struct kunit *test)
{
	struct ib_pd *pd = mm_pd(test);
	struct sr_dev *sdev = to_sr_dev(pd->device);
	struct sr_mr *mr = mm_dma_mr(test, pd, IB_ACCESS_LOCAL_WRITE);
	struct ib_mr *fr;
	u32 key = mr->ibmr.lkey;

	KUNIT_EXPECT_PTR_EQ(test, sr_mr_get(sdev, key), mr);
	KUNIT_EXPECT_EQ(test, refcount_read(&mr->ref), 2);
	sr_mr_put(mr);
	KUNIT_EXPECT_EQ(test, refcount_read(&mr->ref), 1);
	/* Another key byte, a neighbour's index, none at all */
	lp_expect_no_mr(test, sdev, key | 1);
	lp_expect_no_mr(test, sdev, key + 0x100);
	lp_expect_no_mr(test, sdev, 0);
	lp_expect_no_mr(test, sdev, U32_MAX);

	/* A fast-registration MR: no key finds it before its registration */
	fr = sr_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fr));
	fr->device = pd->device;
	lp_expect_no_mr(test, sdev, fr->lkey);

	KUNIT_EXPECT_EQ(test, sr_dereg_mr(fr, NULL), 0);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
	lp_expect_no_mr(test, sdev, key);
}

/*
 * A fast-registration MR registered (found by its key, with the access
 * given) and invalidated (found no more), each only from the state and
 * with the key, PD and index it must have.
 */
static void mm_register(struct kunit *test)
{
	struct ib_pd *pd = mm_pd(test), other = {};
	struct sr_dev *sdev = to_sr_dev(pd->device);
	struct sr_mr *dma = mm_dma_mr(test, pd, IB_ACCESS_LOCAL_WRITE);
	struct ib_mr *fr = sr_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	u32 key, idx;

	KUNIT_ASSERT_FALSE(test, IS_ERR(fr));
	fr->device = pd->device;
	idx = fr->lkey & ~0xff;
	key = idx | 0x42;
	/* Not a fast-registration MR, another PD, another index */
	KUNIT_EXPECT_EQ(test, sr_mr_register(&dma->ibmr, pd, dma->ibmr.lkey,
					     0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_mr_register(fr, &other, key, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_mr_register(fr, pd, key + 0x100, 0),
			-EINVAL);
	lp_expect_no_mr(test, sdev, key);

	KUNIT_ASSERT_EQ(test, sr_mr_register(fr, pd, key,
					     IB_ACCESS_REMOTE_WRITE), 0);
	KUNIT_EXPECT_PTR_EQ(test, sr_mr_get(sdev, key), to_sr_mr(fr));
	sr_mr_put(to_sr_mr(fr));
	KUNIT_EXPECT_EQ(test, to_sr_mr(fr)->access, IB_ACCESS_REMOTE_WRITE);
	lp_expect_no_mr(test, sdev, idx | 0x43);
	/* Registered: not again before an invalidation */
	KUNIT_EXPECT_EQ(test, sr_mr_register(fr, pd, idx | 0x43, 0), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, sr_mr_get(sdev, key), to_sr_mr(fr));
	sr_mr_put(to_sr_mr(fr));

	/* Another key byte, another PD, a DMA MR's key: nothing happens */
	KUNIT_EXPECT_EQ(test, sr_mr_invalidate(sdev, pd, idx | 0x43), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_mr_invalidate(sdev, &other, key), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_mr_invalidate(sdev, pd, dma->ibmr.lkey),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sr_mr_invalidate(sdev, pd, 0), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, sr_mr_get(sdev, dma->ibmr.lkey), dma);
	sr_mr_put(dma);
	KUNIT_ASSERT_EQ(test, sr_mr_invalidate(sdev, pd, key), 0);
	lp_expect_no_mr(test, sdev, key);
	KUNIT_EXPECT_EQ(test, sr_mr_invalidate(sdev, pd, key), -EINVAL);

	/* Registered again under the next key byte: only that one finds it */
	KUNIT_ASSERT_EQ(test, sr_mr_register(fr, pd, idx | 0x43, 0), 0);
	lp_expect_no_mr(test, sdev, key);
	KUNIT_EXPECT_PTR_EQ(test, sr_mr_get(sdev, idx | 0x43), to_sr_mr(fr));
	sr_mr_put(to_sr_mr(fr));
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(fr, NULL), 0);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&dma->ibmr, NULL), 0);
}

static void mm_allows(struct kunit *test)
{
	struct ib_pd *pd = mm_pd(test), other = {};
	struct sr_mr *mr = mm_dma_mr(test, pd, IB_ACCESS_LOCAL_WRITE |
					       IB_ACCESS_REMOTE_READ);
	u64 end = 0x10000 + 0x3000;

	/* As a registration of 0x3000 bytes at 0x10000 would set them */
	mr->ibmr.iova = 0x10000;
	mr->ibmr.length = 0x3000;
	KUNIT_EXPECT_TRUE(test, sr_mr_allows(mr, pd, 0, 0x10000, 0x3000));
	KUNIT_EXPECT_TRUE(test, sr_mr_allows(mr, pd, IB_ACCESS_LOCAL_WRITE |
						 IB_ACCESS_REMOTE_READ,
					     0x10000, 1));
	KUNIT_EXPECT_TRUE(test, sr_mr_allows(mr, pd, 0, end, 0));
	KUNIT_EXPECT_TRUE(test, sr_mr_allows(mr, pd, 0, end - 1, 1));
	/* Beyond either end, a length that wraps, another PD or access */
	KUNIT_EXPECT_FALSE(test, sr_mr_allows(mr, pd, 0, end - 1, 2));
	KUNIT_EXPECT_FALSE(test, sr_mr_allows(mr, pd, 0, end, 1));
	KUNIT_EXPECT_FALSE(test, sr_mr_allows(mr, pd, 0, 0xffff, 1));
	KUNIT_EXPECT_FALSE(test, sr_mr_allows(mr, pd, 0, 0x10001, U64_MAX));
	KUNIT_EXPECT_FALSE(test, sr_mr_allows(mr, pd, 0, U64_MAX, 2));
	KUNIT_EXPECT_FALSE(test, sr_mr_allows(mr, &other, 0, 0x10000, 1));
	KUNIT_EXPECT_FALSE(test, sr_mr_allows(mr, pd, IB_ACCESS_REMOTE_WRITE,
					      0x10000, 1));
	KUNIT_EXPECT_FALSE(test, sr_mr_allows(mr, pd, IB_ACCESS_REMOTE_ATOMIC,
					      0x10000, 1));

	/* sr_mr_use(): the same checks, the MR held only when they pass */
	KUNIT_EXPECT_NULL(test, sr_mr_use(to_sr_dev(pd->device), &other,
					  mr->ibmr.lkey, 0, 0x10000, 1));
	KUNIT_EXPECT_EQ(test, refcount_read(&mr->ref), 1);
	KUNIT_EXPECT_PTR_EQ(test, sr_mr_use(to_sr_dev(pd->device), pd,
					    mr->ibmr.lkey, 0, 0x10000, 1), mr);
	KUNIT_EXPECT_EQ(test, refcount_read(&mr->ref), 2);
	sr_mr_put(mr);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

/* @n bytes of a pattern that tells every offset apart. */
static void mm_pattern(u8 *p, unsigned int n, u8 seed)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = seed + i * 7 + (i >> 8);
}

static void mm_copy_dma(struct kunit *test)
{
	struct ib_pd *pd = mm_pd(test);
	struct sr_mr *mr = mm_dma_mr(test, pd, IB_ACCESS_LOCAL_WRITE);
	u8 *region = kunit_kzalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
	u8 *src = kunit_kmalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	u8 *back = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	u64 at;

	KUNIT_ASSERT_NOT_NULL(test, region);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, back);
	mm_pattern(src, 2 * PAGE_SIZE, 3);
	/* Across two page boundaries, from an odd offset */
	at = (uintptr_t)region + PAGE_SIZE - 3;
	KUNIT_EXPECT_EQ(test, sr_mr_copy(mr, at, src, PAGE_SIZE + 10, true),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(region + PAGE_SIZE - 3, src,
				     PAGE_SIZE + 10), 0);
	KUNIT_EXPECT_EQ(test, region[PAGE_SIZE - 4], 0);
	KUNIT_EXPECT_EQ(test, region[2 * PAGE_SIZE + 7], 0);
	KUNIT_EXPECT_EQ(test, sr_mr_copy(mr, at, back, PAGE_SIZE + 10, false),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(back, src, PAGE_SIZE + 10), 0);
	/* Nothing to copy; an address outside the linear map */
	KUNIT_EXPECT_EQ(test, sr_mr_copy(mr, at, back, 0, false), 0);
	KUNIT_EXPECT_EQ(test, sr_mr_copy(mr, 0x10, back, 4, false), -EFAULT);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

/* Frees the pages of mm_user_mr() (what umem's release does). */
static void mm_free_pages(struct kunit_resource *res)
{
	struct page **pages = res->data;
	int i;

	for (i = 0; i < 3; i++)
		if (pages[i])
			__free_page(pages[i]);
}

/*
 * A user MR as registration leaves it (mr.c): three pages that are not
 * neighbours, the region's first byte @off into the first, at @iova.
 */
static struct sr_mr *mm_user_mr(struct kunit *test, struct ib_pd *pd,
				u32 off, u64 iova)
{
	struct sr_mr *mr = mm_dma_mr(test, pd, IB_ACCESS_LOCAL_WRITE);
	struct page **held = kunit_kzalloc(test, 3 * sizeof(*held), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, held);
	KUNIT_ASSERT_NOT_NULL(test, kunit_alloc_resource(test, NULL,
							 mm_free_pages,
							 GFP_KERNEL, held));
	for (i = 0; i < 3; i++) {
		/* The first of two: never neighbours */
		held[i] = alloc_pages(GFP_KERNEL | __GFP_ZERO, 1);
		KUNIT_ASSERT_NOT_NULL(test, held[i]);
		split_page(held[i], 1);
		__free_page(held[i] + 1);
	}
	/* The MR's own list, which dereg_mr frees */
	mr->upages = kmemdup(held, 3 * sizeof(*held), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr->upages);
	mr->n_upages = 3;
	mr->uoff = off;
	mr->ibmr.iova = iova;
	mr->ibmr.length = 3 * PAGE_SIZE - off;
	return mr;
}

static void mm_copy_user(struct kunit *test)
{
	struct ib_pd *pd = mm_pd(test);
	struct sr_mr *mr = mm_user_mr(test, pd, 100, 0x7000000);
	u8 *src = kunit_kmalloc(test, 3 * PAGE_SIZE, GFP_KERNEL);
	u8 *back = kunit_kzalloc(test, 3 * PAGE_SIZE, GFP_KERNEL);
	u32 len = 3 * PAGE_SIZE - 100;
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, back);
	mm_pattern(src, len, 9);
	KUNIT_EXPECT_TRUE(test, sr_mr_allows(mr, pd, 0, 0x7000000, len));
	KUNIT_EXPECT_EQ(test, sr_mr_copy(mr, 0x7000000, src, len, true), 0);
	/* Byte b of the region is at 100 + b of the pages, in turn */
	p = page_address(mr->upages[0]);
	KUNIT_EXPECT_EQ(test, p[99], 0);
	KUNIT_EXPECT_EQ(test, memcmp(p + 100, src, PAGE_SIZE - 100), 0);
	p = page_address(mr->upages[1]);
	KUNIT_EXPECT_EQ(test, memcmp(p, src + PAGE_SIZE - 100, PAGE_SIZE), 0);
	p = page_address(mr->upages[2]);
	KUNIT_EXPECT_EQ(test, memcmp(p, src + 2 * PAGE_SIZE - 100,
				     PAGE_SIZE - 100), 0);
	/* Out again from the middle, across the second boundary */
	KUNIT_EXPECT_EQ(test, sr_mr_copy(mr, 0x7000000 + PAGE_SIZE, back,
					 PAGE_SIZE, false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(back, src + PAGE_SIZE, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

static void mm_from_skb(struct kunit *test)
{
	struct ib_pd *pd = mm_pd(test);
	struct sr_mr *mr = mm_user_mr(test, pd, 0, 0);
	u8 *img = kunit_kmalloc(test, 600, GFP_KERNEL);
	struct sk_buff *skb;
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, img);
	mm_pattern(img, 600, 1);
	/* 600 bytes, the last 400 in a fragment; 500 from offset 50 */
	skb = rxe_kunit_skb(test, img, 600, 400);
	KUNIT_EXPECT_EQ(test, sr_mr_from_skb(mr, PAGE_SIZE - 200, skb, 50,
					     500), 0);
	p = page_address(mr->upages[0]);
	KUNIT_EXPECT_EQ(test, memcmp(p + PAGE_SIZE - 200, img + 50, 200), 0);
	p = page_address(mr->upages[1]);
	KUNIT_EXPECT_EQ(test, memcmp(p, img + 250, 300), 0);
	KUNIT_EXPECT_EQ(test, p[300], 0);
	/* More than the packet has */
	KUNIT_EXPECT_EQ(test, sr_mr_from_skb(mr, 0, skb, 500, 101), -EFAULT);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

/* dereg_mr in a thread of its own */
struct mm_dereg {
	struct ib_mr *ibmr;
	struct completion started;
	struct completion done;
};

static int mm_dereg_thread(void *arg)
{
	struct mm_dereg *d = arg;

	complete(&d->started);
	sr_dereg_mr(d->ibmr, NULL);
	complete(&d->done);
	return 0;
}

/* dereg_mr returns only when the data path has let go. */
static void mm_dereg_waits(struct kunit *test)
{
	struct ib_pd *pd = mm_pd(test);
	struct sr_dev *sdev = to_sr_dev(pd->device);
	struct sr_mr *mr = mm_dma_mr(test, pd, 0);
	struct mm_dereg d = { .ibmr = &mr->ibmr };
	u32 key = mr->ibmr.lkey;
	struct task_struct *t;

	init_completion(&d.started);
	init_completion(&d.done);
	KUNIT_ASSERT_PTR_EQ(test, sr_mr_get(sdev, key), mr);
	t = kthread_run(mm_dereg_thread, &d, "mm_dereg");
	if (IS_ERR(t)) {
		sr_mr_put(mr);
		sr_dereg_mr(&mr->ibmr, NULL);
		KUNIT_ASSERT_FAILURE(test, "no thread");
	}
	/* Running, and still waiting 300 ms later */
	wait_for_completion(&d.started);
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&d.done,
							  msecs_to_jiffies(300)),
			0);
	/* Out of the table already: no new user finds it */
	lp_expect_no_mr(test, sdev, key);
	sr_mr_put(mr);
	wait_for_completion(&d.done);
	KUNIT_EXPECT_TRUE(test, xa_empty(&sdev->mrs));
}

static struct kunit_case mm_cases[] = {
	KUNIT_CASE(mm_get),
	KUNIT_CASE(mm_register),
	KUNIT_CASE(mm_allows),
	KUNIT_CASE(mm_copy_dma),
	KUNIT_CASE(mm_copy_user),
	KUNIT_CASE(mm_from_skb),
	KUNIT_CASE(mm_dereg_waits),
	{}
};

static struct kunit_suite mm_suite = {
	.name = "rdma_rxe_mem",
	.test_cases = mm_cases,
};
kunit_test_suite(mm_suite);
