// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mr: core/verbs/mr.c, allocating and deregistering
 * MRs (ib_alloc_mr(), ib_alloc_mr_integrity(), ib_dereg_mr(),
 * ib_check_mr_status()), with the page-list constraints of ib_map_mr_sg()
 * (core/verbs/mr_map.c) on a page-list MR.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include "vk.h"

static void mr_alloc_and_dereg(struct kunit *test)
{
	struct vk *v = test->priv;
	int pd_users = atomic_read(&v->pd->usecnt);
	struct ib_mr *mr = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 16);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_PTR_EQ(test, mr->pd, v->pd);
	KUNIT_EXPECT_PTR_EQ(test, mr->device, v->dev);
	KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_MEM_REG);
	KUNIT_EXPECT_NULL(test, mr->sig_attrs);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users + 1);
	/* A PD with a live MR cannot go */
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(v->pd, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users);
}

static void mr_alloc_bad(struct kunit *test)
{
	struct vk *v = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr(v->pd, IB_MR_TYPE_INTEGRITY, 4)),
			-EINVAL);
	/* tdev has no IBK_SG_GAPS_REG */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr(v->pd, IB_MR_TYPE_SG_GAPS, 4)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 100000)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr_integrity(v->pd, 4, 4)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

static void mr_status_and_pi_unsupported(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 4);
	struct ib_mr_status st;
	struct scatterlist sg;
	char *buf = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	sg_init_one(&sg, buf, 64);
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS, &st),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(mr, &sg, 1, NULL, NULL, 0, NULL,
					      PAGE_SIZE), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/* A page-aligned zeroed buffer of @n pages, freed by KUnit. */
static u8 *vk_pages(struct kunit *test, int n)
{
	u8 *p = kunit_kzalloc(test, n * PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(p));
	return p;
}

static void mr_map_constraints(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 4);
	u8 *buf = vk_pages(test, 8);
	struct scatterlist sg[3];
	unsigned int off;

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));

	/* First element at an offset, a shorter last element: all mapped */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf + 100, PAGE_SIZE - 100);
	sg_set_buf(&sg[1], buf + 2 * PAGE_SIZE, 10);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(v->dev, sg, 2, DMA_BIDIRECTIONAL), 2);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 2, NULL, PAGE_SIZE), 2);
	KUNIT_EXPECT_EQ(test, mr->iova, (u64)(uintptr_t)(buf + 100));
	KUNIT_EXPECT_EQ(test, mr->length, (u64)PAGE_SIZE - 100 + 10);
	KUNIT_EXPECT_EQ(test, mr->page_size, (unsigned int)PAGE_SIZE);

	/* An unaligned middle element that does not continue: prefix of 1 */
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], buf, PAGE_SIZE);
	sg_set_buf(&sg[1], buf + 3 * PAGE_SIZE + 8, 100);
	sg_set_buf(&sg[2], buf + 5 * PAGE_SIZE, PAGE_SIZE);
	ib_dma_map_sg(v->dev, sg, 3, DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 3, NULL, PAGE_SIZE), 1);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)PAGE_SIZE);

	/* More pages than max_num_sg (4): stops inside the second element */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 3 * PAGE_SIZE);
	sg_set_buf(&sg[1], buf + 4 * PAGE_SIZE, 3 * PAGE_SIZE);
	ib_dma_map_sg(v->dev, sg, 2, DMA_BIDIRECTIONAL);
	off = 0;
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 2, &off, PAGE_SIZE), 1);
	KUNIT_EXPECT_EQ(test, off, (unsigned int)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

static struct kunit_case mr_cases[] = {
	KUNIT_CASE(mr_alloc_and_dereg),
	KUNIT_CASE(mr_alloc_bad),
	KUNIT_CASE(mr_status_and_pi_unsupported),
	KUNIT_CASE(mr_map_constraints),
	{}
};

static struct kunit_suite mr_suite = {
	.name = "rdma_core_mr",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = mr_cases,
};

kunit_test_suites(&mr_suite);
