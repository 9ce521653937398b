// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_xrcd: core/verbs/xrcd.c, allocating and freeing
 * XRC domains: what the core fills in, devices without XRC, driver
 * failures and domains still in use.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include "tk.h"

static void xrcd_alloc_free(struct kunit *test)
{
	struct tdev_params p = { .name = "ktxd%d", .xrc = true };
	struct tdev *td = tk_dev(test, &p);
	struct inode *inode = kunit_kzalloc(test, sizeof(*inode), GFP_KERNEL);
	struct ib_xrcd *xrcd;

	KUNIT_ASSERT_NOT_NULL(test, inode);
	xrcd = ib_alloc_xrcd_user(&td->ibdev, inode, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(xrcd));
	KUNIT_EXPECT_PTR_EQ(test, xrcd->device, &td->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, xrcd->inode, inode);
	KUNIT_EXPECT_EQ(test, atomic_read(&xrcd->usecnt), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&xrcd->tgt_qps));
	KUNIT_EXPECT_EQ(test, atomic_read(&td->nxrcds), 1);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->nxrcds), 0);

	/* A kernel domain shared through no file */
	xrcd = ib_alloc_xrcd_user(&td->ibdev, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(xrcd));
	KUNIT_EXPECT_NULL(test, xrcd->inode);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), 0);
	tdev_destroy(td);
}

static void xrcd_unsupported(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktxdn%d");

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_xrcd_user(&td->ibdev, NULL,
							 NULL)),
			-EOPNOTSUPP);
	tdev_destroy(td);
}

static void xrcd_driver_failure(struct kunit *test)
{
	struct tdev_params p = { .name = "ktxdf%d", .xrc = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_xrcd *xrcd;

	/* The driver's error, and nothing left behind (kmemleak) */
	tdev_fail(td, TDEV_FAIL_ALLOC_XRCD, true);
	xrcd = ib_alloc_xrcd_user(&td->ibdev, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(xrcd), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->nxrcds), 0);
	tdev_fail(td, TDEV_FAIL_ALLOC_XRCD, false);

	xrcd = ib_alloc_xrcd_user(&td->ibdev, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(xrcd));
	/* A refused free leaves the domain as it was */
	tdev_fail(td, TDEV_FAIL_DEALLOC_XRCD, true);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->nxrcds), 1);
	KUNIT_EXPECT_PTR_EQ(test, xrcd->device, &td->ibdev);
	tdev_fail(td, TDEV_FAIL_DEALLOC_XRCD, false);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->nxrcds), 0);
	tdev_destroy(td);
}

/* In use (by XRC SRQs or target QPs): -EBUSY, the driver is not asked. */
static void xrcd_busy(struct kunit *test)
{
	struct tdev_params p = { .name = "ktxdb%d", .xrc = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_xrcd *xrcd = ib_alloc_xrcd_user(&td->ibdev, NULL, NULL);

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(xrcd));
	atomic_inc(&xrcd->usecnt);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->nxrcds), 1);
	atomic_dec(&xrcd->usecnt);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->nxrcds), 0);
	tdev_destroy(td);
}

static struct kunit_case xrcd_cases[] = {
	KUNIT_CASE(xrcd_alloc_free),
	KUNIT_CASE(xrcd_unsupported),
	KUNIT_CASE(xrcd_driver_failure),
	KUNIT_CASE(xrcd_busy),
	{}
};

static struct kunit_suite xrcd_suite = {
	.name = "rdma_core_xrcd",
	.test_cases = xrcd_cases,
};

kunit_test_suites(&xrcd_suite);
