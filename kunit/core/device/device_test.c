// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_alloc: core/device/device.c, allocating and
 * freeing devices and filling their ops (ib_alloc_device(),
 * ib_set_device_ops(), ib_dealloc_device(), ib_modify_device(),
 * ib_get_device_fw_str(), ib_device_put()).
 */
#include <kunit/test.h>
#include <linux/netdevice.h>
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
	struct ib_device *dev;

	KUNIT_EXPECT_NULL(test, _ib_alloc_device(sizeof(struct ib_device) - 1));
	/* The smallest size that is not too small */
	dev = _ib_alloc_device(sizeof(struct ib_device));
	KUNIT_ASSERT_NOT_NULL(test, dev);
	ib_dealloc_device(dev);
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
	u64 mark = tk_log_mark();

	ib_dealloc_device(&td->ibdev);
	KUNIT_EXPECT_EQ(test, tk_log_count(mark, "not freeing a registered device"),
			1);
	found = ib_device_get_by_name(dev_name(&td->ibdev.dev),
				      RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	tdev_destroy(td);
}

/*
 * Issue 12, defect 5: a driver that frees its own resources through
 * ops.dealloc_driver (rdma_rxe's pools) relies on ib_dealloc_device()
 * calling it, also after a failed registration.  The RoCE test device has
 * a registered netdev of its own that its dealloc_driver unregisters.
 */
static void dealloc_calls_dealloc_driver(struct kunit *test)
{
	struct tdev_params p = { .name = "ktddup", .dealloc_driver = true,
				 .roce = true };
	struct tdev *a = tk_dev_named(test, "ktddup");
	struct tdev *b = tk_new_dev(test, &p);
	int before = atomic_read(&tdev_dealloc_driver_calls);
	char name[IFNAMSIZ];
	struct net_device *nd;

	KUNIT_ASSERT_NOT_NULL(test, b->own_ndev);
	strscpy(name, b->own_ndev->name, sizeof(name));
	/* The name is taken: the registration fails, as rxe's may */
	KUNIT_EXPECT_EQ(test, tdev_register(b), -ENFILE);
	ib_dealloc_device(&b->ibdev);
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
	/* What the driver hung on the device went with it */
	nd = dev_get_by_name(&init_net, name);
	KUNIT_EXPECT_NULL(test, nd);
	if (nd)
		dev_put(nd);
	tdev_destroy(a);
}

/* Never registered at all: ib_dealloc_device() still lets the driver go. */
static void dealloc_unregistered_dealloc_driver(struct kunit *test)
{
	struct tdev_params p = { .dealloc_driver = true };
	struct tdev *td = tk_new_dev(test, &p);
	int before = atomic_read(&tdev_dealloc_driver_calls);

	ib_dealloc_device(&td->ibdev);
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
}

static void fw_str_and_modify_device(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktfw%d");
	struct ib_device_modify m = { .node_desc = "kunit" };
	char fw[IB_FW_VERSION_NAME_MAX] = "x";

	ib_get_device_fw_str(&td->ibdev, fw);
	KUNIT_EXPECT_STREQ(test, fw, "1.2.3");
	/* A driver without get_dev_fw_str reports an empty string */
	td->ibdev.ops.get_dev_fw_str = NULL;
	ib_get_device_fw_str(&td->ibdev, fw);
	KUNIT_EXPECT_STREQ(test, fw, "");
	/* ... and one without modify_device changes nothing */
	td->ibdev.ops.modify_device = NULL;
	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev,
					       IB_DEVICE_MODIFY_NODE_DESC, &m),
			-EOPNOTSUPP);
	KUNIT_EXPECT_STREQ(test, td->ibdev.node_desc, "rdma_kunit_tdev");
	tdev_destroy(td);
}

static struct kunit_case alloc_cases[] = {
	KUNIT_CASE(alloc_initialises_fields),
	KUNIT_CASE(alloc_too_small),
	KUNIT_CASE(set_device_ops_fills_unset_only),
	KUNIT_CASE(set_device_ops_sizes),
	KUNIT_CASE(dealloc_registered_refused),
	KUNIT_CASE(dealloc_calls_dealloc_driver),
	KUNIT_CASE(dealloc_unregistered_dealloc_driver),
	KUNIT_CASE(fw_str_and_modify_device),
	{}
};

static struct kunit_suite alloc_suite = {
	.name = "rdma_core_alloc",
	.test_cases = alloc_cases,
};

kunit_test_suites(&alloc_suite);
