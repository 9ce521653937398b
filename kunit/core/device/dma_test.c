// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_virt_dma: core/device/dma.c, mapping scatterlists
 * for devices without a DMA device (ib_dma_virt_map_sg()).
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

static void virt_dma_map_sg(struct kunit *test)
{
	char *a = kunit_kzalloc(test, 300, GFP_KERNEL);
	char *b = kunit_kzalloc(test, 5000, GFP_KERNEL);
	struct scatterlist sgl[2];

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	sg_init_table(sgl, 2);
	sg_set_buf(&sgl[0], a + 10, 200);
	sg_set_buf(&sgl[1], b, 5000);
	KUNIT_EXPECT_EQ(test, ib_dma_virt_map_sg(NULL, sgl, 2), 2);
	KUNIT_EXPECT_EQ(test, sg_dma_address(&sgl[0]), (u64)(uintptr_t)(a + 10));
	KUNIT_EXPECT_EQ(test, sg_dma_len(&sgl[0]), 200U);
	KUNIT_EXPECT_EQ(test, sg_dma_address(&sgl[1]), (u64)(uintptr_t)b);
	KUNIT_EXPECT_EQ(test, sg_dma_len(&sgl[1]), 5000U);
}

static struct kunit_case virt_dma_cases[] = {
	KUNIT_CASE(virt_dma_map_sg),
	{}
};

static struct kunit_suite virt_dma_suite = {
	.name = "rdma_core_virt_dma",
	.test_cases = virt_dma_cases,
};

kunit_test_suites(&virt_dma_suite);
