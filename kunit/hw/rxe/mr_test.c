// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_mr: hw/rxe/mr.c, kernel memory regions: keys
 * (non-zero, unique, lkey and rkey alike, the table's index above the key
 * byte), fast-registration MRs refused beyond what the device takes, and
 * their page lists as ib_map_mr_sg() fills them (a full list maps fewer
 * entries; a new map replaces the old).
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include "dev.h"
#include "mr.h"

static struct ib_pd *mt_pd(struct kunit *test)
{
	struct sr_dev *sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	struct ib_pd *pd = kunit_kzalloc(test, sizeof(*pd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, pd);
	xa_init_flags(&sdev->mrs, XA_FLAGS_ALLOC1);
	pd->device = &sdev->ibdev;
	return pd;
}

/* What the core does after the verb: the MR knows its device and PD. */
static struct ib_mr *mt_got(struct kunit *test, struct ib_mr *mr,
			    struct ib_pd *pd)
{
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	mr->device = pd->device;
	mr->pd = pd;
	return mr;
}

static void mt_keys(struct kunit *test)
{
	struct ib_pd *pd = mt_pd(test);
	struct xarray *mrs = &to_sr_dev(pd->device)->mrs;
	struct ib_mr *mr[8];
	int i, j;

	for (i = 0; i < ARRAY_SIZE(mr); i++) {
		mr[i] = mt_got(test, i & 1 ? sr_alloc_mr(pd, IB_MR_TYPE_MEM_REG,
							 4) :
				     sr_get_dma_mr(pd, IB_ACCESS_LOCAL_WRITE),
			       pd);
		KUNIT_EXPECT_NE(test, mr[i]->lkey, 0);
		KUNIT_EXPECT_EQ(test, mr[i]->lkey, mr[i]->rkey);
		KUNIT_EXPECT_EQ(test, mr[i]->lkey & 0xff, 0);
		KUNIT_EXPECT_PTR_EQ(test, xa_load(mrs, mr[i]->lkey >> 8),
				    (void *)to_sr_mr(mr[i]));
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, mr[i]->lkey, mr[j]->lkey);
	}
	KUNIT_EXPECT_EQ(test, mr[0]->length, U64_MAX);
	for (i = 0; i < ARRAY_SIZE(mr); i++) {
		u32 index = mr[i]->lkey >> 8;

		KUNIT_EXPECT_EQ(test, sr_dereg_mr(mr[i], NULL), 0);
		KUNIT_EXPECT_NULL(test, xa_load(mrs, index));
	}
	KUNIT_EXPECT_TRUE(test, xa_empty(mrs));
}

static void mt_alloc_refused(struct kunit *test)
{
	struct ib_pd *pd = mt_pd(test);

	KUNIT_EXPECT_EQ(test, PTR_ERR(sr_alloc_mr(pd, IB_MR_TYPE_SG_GAPS, 4)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(sr_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			PTR_ERR(sr_alloc_mr(pd, IB_MR_TYPE_MEM_REG,
					    SR_MAX_FAST_REG_PAGES + 1)),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, xa_empty(&to_sr_dev(pd->device)->mrs));
}

/* An sg list of @n page-sized, page-aligned pieces of @buf. */
static void mt_sg(struct scatterlist *sg, void *buf, int n)
{
	int i;

	sg_init_table(sg, n);
	for (i = 0; i < n; i++) {
		sg_set_buf(&sg[i], buf + i * PAGE_SIZE, PAGE_SIZE);
		/* The device's DMA is the CPU's: the kernel address */
		sg_dma_address(&sg[i]) = (uintptr_t)(buf + i * PAGE_SIZE);
		sg_dma_len(&sg[i]) = PAGE_SIZE;
	}
}

static void mt_map(struct kunit *test)
{
	struct ib_pd *pd = mt_pd(test);
	void *buf = kunit_kzalloc(test, 8 * PAGE_SIZE, GFP_KERNEL);
	struct scatterlist sg[6];
	struct ib_mr *ibmr;
	struct sr_mr *mr;
	unsigned int off = 100;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf = PTR_ALIGN(buf, PAGE_SIZE);
	ibmr = mt_got(test, sr_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4), pd);
	mr = to_sr_mr(ibmr);
	/* As ib_map_mr_sg() does before it calls the verb */
	ibmr->page_size = PAGE_SIZE;

	mt_sg(sg, buf, 3);
	KUNIT_ASSERT_EQ(test, sr_map_mr_sg(ibmr, sg, 3, NULL), 3);
	KUNIT_EXPECT_EQ(test, mr->npages, 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, mr->pages[i],
				(u64)(uintptr_t)buf + i * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ibmr->iova, (u64)(uintptr_t)buf);
	KUNIT_EXPECT_EQ(test, ibmr->length, 3 * PAGE_SIZE);

	/* More than the list holds: four of six mapped */
	mt_sg(sg, buf, 6);
	KUNIT_EXPECT_EQ(test, sr_map_mr_sg(ibmr, sg, 6, NULL), 4);
	KUNIT_EXPECT_EQ(test, mr->npages, 4);
	KUNIT_EXPECT_EQ(test, ibmr->length, 4 * PAGE_SIZE);

	/* A new map replaces the old; an offset into the first entry */
	mt_sg(sg, buf + 2 * PAGE_SIZE, 2);
	KUNIT_ASSERT_EQ(test, sr_map_mr_sg(ibmr, sg, 2, &off), 2);
	KUNIT_EXPECT_EQ(test, mr->npages, 2);
	KUNIT_EXPECT_EQ(test, mr->pages[0],
			(u64)(uintptr_t)buf + 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ibmr->iova,
			(u64)(uintptr_t)buf + 2 * PAGE_SIZE + 100);
	KUNIT_EXPECT_EQ(test, ibmr->length, 2 * PAGE_SIZE - 100);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(ibmr, NULL), 0);
}

static struct kunit_case mt_cases[] = {
	KUNIT_CASE(mt_keys),
	KUNIT_CASE(mt_alloc_refused),
	KUNIT_CASE(mt_map),
	{}
};

static struct kunit_suite mt_suite = {
	.name = "rdma_rxe_mr",
	.test_cases = mt_cases,
};
kunit_test_suite(mt_suite);
