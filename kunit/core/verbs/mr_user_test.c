// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mr_user: core/verbs/mr_user.c.  The test double
 * has no user memory (no user contexts), so ib_reg_user_mr() is tested
 * on its refusals: the core's own (no reg_user_mr, on-demand paging the
 * device lacks) before the driver's.  ib_advise_mr() reaches the double's
 * prefetch: a range no key grants, and no ranges at all, which the core
 * answers itself.
 */
#include <kunit/test.h>
#include "tk.h"

#define MU_VA	0x10000000ULL

static void mr_user_reg_refused(struct kunit *test)
{
	struct tdev_params p = { .name = "ktmu%d", .local_dma_lkey = true };
	struct tdev_params none = { .name = "ktmun%d", .local_dma_lkey = true,
				    .no_kverbs = true };
	struct tdev *td = tk_dev(test, &p), *nd = tk_dev(test, &none);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);
	struct ib_pd *npd = ib_alloc_pd(&nd->ibdev, 0);
	struct ib_mr *mr;

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_ASSERT_FALSE(test, IS_ERR(npd));
	/* The double's answer: it has no user memory to pin */
	mr = ib_reg_user_mr(pd, MU_VA, 4096, MU_VA, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EOPNOTSUPP);
	/* No on-demand paging on the device: the core refuses first */
	mr = ib_reg_user_mr(pd, MU_VA, 4096, MU_VA,
			    IB_ACCESS_LOCAL_WRITE | IB_ACCESS_ON_DEMAND);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EINVAL);
	/* No reg_user_mr at all: -EOPNOTSUPP before any other check */
	mr = ib_reg_user_mr(npd, MU_VA, 4096, MU_VA, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EOPNOTSUPP);
	mr = ib_reg_user_mr(npd, MU_VA, 4096, MU_VA, IB_ACCESS_ON_DEMAND);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&npd->usecnt), 0);
	ib_dealloc_pd(npd);
	ib_dealloc_pd(pd);
	tdev_destroy(nd);
	tdev_destroy(td);
}

static void mr_user_advise(struct kunit *test)
{
	struct tdev_params p = { .name = "ktma%d", .local_dma_lkey = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);
	void *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_sge sge[2];

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_ASSERT_NOT_NULL(test, buf);
	sge[0] = (struct ib_sge){ .addr = (uintptr_t)buf, .length = 32,
				  .lkey = pd->local_dma_lkey };
	sge[1] = (struct ib_sge){ .addr = (uintptr_t)buf + 32, .length = 32,
				  .lkey = pd->local_dma_lkey };

	/* No ranges: done, the device is not asked */
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, sge, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->advise_calls), 0);

	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
					   IB_UVERBS_ADVISE_MR_FLAG_FLUSH, sge,
					   2), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->advise_calls), 1);

	/* A key of nothing: the device's error comes back */
	sge[1].lkey = 0x7fff0000;
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, sge, 2), -ENOENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->advise_calls), 2);
	ib_dealloc_pd(pd);
	tdev_destroy(td);
}

/* A device that takes no advice: -EOPNOTSUPP, even for no ranges. */
static void mr_user_advise_unsupported(struct kunit *test)
{
	struct tdev_params p = { .name = "ktman%d", .local_dma_lkey = true,
				 .no_kverbs = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);
	struct ib_sge sge = {};

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	sge.lkey = pd->local_dma_lkey;
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, &sge, 1), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, &sge, 0), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->advise_calls), 0);
	ib_dealloc_pd(pd);
	tdev_destroy(td);
}

static struct kunit_case mr_user_cases[] = {
	KUNIT_CASE(mr_user_reg_refused),
	KUNIT_CASE(mr_user_advise),
	KUNIT_CASE(mr_user_advise_unsupported),
	{}
};

static struct kunit_suite mr_user_suite = {
	.name = "rdma_core_mr_user",
	.test_cases = mr_user_cases,
};

kunit_test_suites(&mr_user_suite);
