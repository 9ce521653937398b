// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_alloc: core/device/device.c, allocating and
 * freeing devices and filling their ops (ib_alloc_device(),
 * ib_set_device_ops(), ib_dealloc_device()).
 */
#include <kunit/test.h>
#include "tk.h"

static void alloc_initialises_fields(struct kunit *test)
{
	struct tdev *td = tk_new_dev(test, NULL);
	struct ib_device *dev;
	unsigned int i;

	dev = &td->ibdev;
	KUNIT_EXPECT_PTR_EQ(test, (void *)dev, (void *)td);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&dev->client_data));
	KUNIT_EXPECT_TRUE(test, list_empty(&dev->event_handler_list));
	for (i = 0; i < ARRAY_SIZE(dev->cq_pools); i++)
		KUNIT_EXPECT_TRUE(test, list_empty(&dev->cq_pools[i]));
	KUNIT_EXPECT_NOT_NULL(test, dev->res);
	KUNIT_EXPECT_NOT_NULL(test, dev->dev.class);
	KUNIT_EXPECT_STREQ(test, dev->dev.class->name, "infiniband");
	KUNIT_EXPECT_NULL(test, dev->port_data);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&dev->dev));
	tdev_destroy(td);
}

static void alloc_too_small(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, _ib_alloc_device(sizeof(struct ib_device) - 1));
}

static int tk_other_query_pkey(struct ib_device *d, u32 p, u16 i, u16 *k)
{
	*k = 0x1234;
	return 0;
}

static int tk_other_query_gid(struct ib_device *d, u32 p, int i,
			      union ib_gid *g)
{
	return -EOPNOTSUPP;
}

struct tk_big_pd {
	struct ib_pd ibpd;
	char pad[64];
};

static const struct ib_device_ops tk_other_ops = {
	.driver_id = RDMA_DRIVER_SIW,
	.uverbs_abi_ver = 7,
	.query_pkey = tk_other_query_pkey,
	.query_gid = tk_other_query_gid,
	INIT_RDMA_OBJ_SIZE(ib_pd, tk_big_pd, ibpd),
};

static void set_device_ops_fills_unset_only(struct kunit *test)
{
	struct tdev *td = tk_new_dev(test, NULL);
	struct ib_device *dev;
	size_t pd_size;

	dev = &td->ibdev;
	pd_size = dev->ops.size_ib_pd;
	KUNIT_EXPECT_EQ(test, pd_size, sizeof(struct tdev_pd));
	KUNIT_EXPECT_NULL(test, dev->ops.query_gid);
	ib_set_device_ops(dev, &tk_other_ops);
	/* Set before: kept.  Unset: taken. */
	KUNIT_EXPECT_PTR_NE(test, (void *)dev->ops.query_pkey,
			    (void *)tk_other_query_pkey);
	KUNIT_EXPECT_PTR_EQ(test, (void *)dev->ops.query_gid,
			    (void *)tk_other_query_gid);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_pd, pd_size);
	KUNIT_EXPECT_EQ(test, dev->ops.driver_id, RDMA_DRIVER_SIW);
	KUNIT_EXPECT_EQ(test, dev->ops.uverbs_abi_ver, 7U);
	KUNIT_EXPECT_NOT_NULL(test, dev->ops.owner);
	tdev_destroy(td);
}

static void set_device_ops_sizes(struct kunit *test)
{
	struct ib_device *dev = _ib_alloc_device(sizeof(*dev));

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_pd, 0UL);
	ib_set_device_ops(dev, &tk_other_ops);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_pd, sizeof(struct tk_big_pd));
	ib_dealloc_device(dev);
}

static void dealloc_registered_refused(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktkeep%d");
	struct ib_device *found;

	ib_dealloc_device(&td->ibdev);
	found = ib_device_get_by_name(dev_name(&td->ibdev.dev),
				      RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	tdev_destroy(td);
}

static struct kunit_case alloc_cases[] = {
	KUNIT_CASE(alloc_initialises_fields),
	KUNIT_CASE(alloc_too_small),
	KUNIT_CASE(set_device_ops_fills_unset_only),
	KUNIT_CASE(set_device_ops_sizes),
	KUNIT_CASE(dealloc_registered_refused),
	{}
};

static struct kunit_suite alloc_suite = {
	.name = "rdma_core_alloc",
	.test_cases = alloc_cases,
};

kunit_test_suites(&alloc_suite);
