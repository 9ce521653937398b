// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_pd: core/verbs/pd.c, allocating and freeing PDs:
 * the local DMA lkey from the device or from an internal DMA MR, the
 * unsafe global rkey, driver failures and PDs still in use.
 */
#include <kunit/test.h>
#include "tk.h"

static void pd_local_dma_lkey(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpd%d", .local_dma_lkey = true,
				 .no_mad = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, TDEV_LOCAL_DMA_LKEY);
	KUNIT_EXPECT_PTR_EQ(test, pd->device, &td->ibdev);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, pd->flags, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 1);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	tdev_destroy(td);
}

static void pd_driver_failure(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpdf%d", .local_dma_lkey = true,
				 .no_mad = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd;

	tdev_fail(td, TDEV_FAIL_ALLOC_PD, true);
	pd = ib_alloc_pd(&td->ibdev, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pd), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	tdev_fail(td, TDEV_FAIL_ALLOC_PD, false);
	pd = ib_alloc_pd(&td->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	tdev_fail(td, TDEV_FAIL_DEALLOC_PD, true);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 1);
	tdev_fail(td, TDEV_FAIL_DEALLOC_PD, false);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	tdev_destroy(td);
}

static void pd_busy(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpdb%d", .local_dma_lkey = true,
				 .no_mad = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	atomic_inc(&pd->usecnt);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), -EBUSY);
	/* Still there and usable. */
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 1);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, TDEV_LOCAL_DMA_LKEY);
	atomic_dec(&pd->usecnt);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	tdev_destroy(td);
}

/*
 * Without IBK_LOCAL_DMA_LKEY the PD needs a DMA MR from the driver; a
 * driver without get_dma_mr gets no PD.
 */
static void pd_internal_mr(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpdm%d", .no_mad = true };
	struct tdev_params none = { .name = "ktpdn%d", .no_kverbs = true,
				    .no_mad = true };
	struct tdev *td = tk_dev(test, &p), *nd = tk_dev(test, &none);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_ASSERT_NOT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, pd->__internal_mr->lkey);
	KUNIT_EXPECT_PTR_EQ(test, pd->__internal_mr->pd, pd);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);

	pd = ib_alloc_pd(&nd->ibdev, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pd), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd->npds), 0);
	tdev_destroy(nd);
	tdev_destroy(td);
}

static void pd_unsafe_global_rkey(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpdu%d", .local_dma_lkey = true,
				 .no_mad = true };
	struct tdev_params none = { .name = "ktpdun%d", .local_dma_lkey = true,
				    .no_kverbs = true, .no_mad = true };
	struct tdev *td = tk_dev(test, &p), *nd = tk_dev(test, &none);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_ASSERT_NOT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, pd->unsafe_global_rkey, pd->__internal_mr->rkey);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, TDEV_LOCAL_DMA_LKEY);
	KUNIT_EXPECT_TRUE(test, pd->flags & IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);

	/* The global rkey needs a DMA MR; the local lkey alone does not */
	pd = ib_alloc_pd(&nd->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pd), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd->npds), 0);
	pd = ib_alloc_pd(&nd->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_EXPECT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	tdev_destroy(nd);
	tdev_destroy(td);
}

static struct kunit_case pd_cases[] = {
	KUNIT_CASE(pd_local_dma_lkey),
	KUNIT_CASE(pd_driver_failure),
	KUNIT_CASE(pd_busy),
	KUNIT_CASE(pd_internal_mr),
	KUNIT_CASE(pd_unsafe_global_rkey),
	{}
};

static struct kunit_suite pd_suite = {
	.name = "rdma_core_pd",
	.test_cases = pd_cases,
};

kunit_test_suites(&pd_suite);
