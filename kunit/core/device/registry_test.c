// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_register: core/device/registry.c, registering and
 * unregistering devices (now, queued, by driver, with references held), and
 * with it the names and lookups of core/device/index.c that registration
 * decides (name templates, ib_device_get_by_name()).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include "tk.h"

static void register_basic(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktbasic%d");
	struct ib_device *dev = &td->ibdev;

	KUNIT_EXPECT_STREQ(test, dev_name(&dev->dev), "ktbasic0");
	KUNIT_EXPECT_STREQ(test, dev->name, "ktbasic0");
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 1);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&dev->dev));
	KUNIT_EXPECT_TRUE(test, ib_uses_virt_dma(dev));
	KUNIT_EXPECT_NULL(test, dev->dma_device);
	tdev_destroy(td);
}

static void register_template_lowest_free(struct kunit *test)
{
	struct tdev_params p = { .name = "ktnum%d" };
	struct tdev *td[4];
	int i;

	for (i = 0; i < 3; i++)
		td[i] = tk_dev(test, &p);
	KUNIT_EXPECT_STREQ(test, td[0]->ibdev.name, "ktnum0");
	KUNIT_EXPECT_STREQ(test, td[1]->ibdev.name, "ktnum1");
	KUNIT_EXPECT_STREQ(test, td[2]->ibdev.name, "ktnum2");
	tdev_destroy(td[1]);
	td[3] = tk_dev(test, &p);
	KUNIT_EXPECT_STREQ(test, td[3]->ibdev.name, "ktnum1");
	tdev_destroy(td[0]);
	tdev_destroy(td[2]);
	tdev_destroy(td[3]);
}

static void register_exact_name_duplicate(struct kunit *test)
{
	struct tdev_params p = { .name = "ktdup" };
	struct tdev *a = tk_dev(test, &p);
	struct tdev *b = tk_new_dev(test, &p);

	KUNIT_EXPECT_EQ(test, tdev_register(b), -ENFILE);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&b->ibdev.dev));
	tdev_destroy(b);
	tdev_destroy(a);
}

static void register_twice(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "kttwice%d");

	KUNIT_EXPECT_EQ(test, ib_register_device(&td->ibdev, "ktother%d", NULL),
			-EEXIST);
	KUNIT_EXPECT_STREQ(test, td->ibdev.name, "kttwice0");
	tdev_destroy(td);
}

static void register_bad_names(struct kunit *test)
{
	static const char * const bad[] = {
		"", "kt%s", "kt%d%d", "kt/x", "kt%x",
		"ktaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	struct tdev *td = tk_new_dev(test, NULL);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, ib_register_device(&td->ibdev, bad[i],
							     NULL),
				    -EINVAL, "name %s", bad[i]);
	KUNIT_EXPECT_EQ(test, ib_register_device(&td->ibdev, NULL, NULL),
			-EINVAL);
	/* Still registrable after the failures. */
	KUNIT_EXPECT_EQ(test, ib_register_device(&td->ibdev, "ktgood%d", NULL),
			0);
	tdev_destroy(td);
}

static void register_immutable_failure(struct kunit *test)
{
	struct tdev_params p = { .name = "ktimm%d" };
	struct tdev *td = tk_new_dev(test, &p);

	tdev_fail(td, TDEV_FAIL_PORT_IMMUTABLE, true);
	KUNIT_EXPECT_EQ(test, tdev_register(td), -EIO);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktimm0",
						      RDMA_DRIVER_UNKNOWN));
	tdev_fail(td, TDEV_FAIL_PORT_IMMUTABLE, false);
	KUNIT_EXPECT_EQ(test, tdev_register(td), 0);
	KUNIT_EXPECT_STREQ(test, td->ibdev.name, "ktimm0");
	tdev_destroy(td);
}

static void register_query_device_failure(struct kunit *test)
{
	struct tdev_params p = { .name = "ktqd%d" };
	struct tdev *td = tk_new_dev(test, &p);

	tdev_fail(td, TDEV_FAIL_QUERY_DEVICE, true);
	KUNIT_EXPECT_EQ(test, tdev_register(td), -EIO);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	tdev_destroy(td);
}

static void register_port_data(struct kunit *test)
{
	struct tdev_params p = { .name = "ktports%d", .ports = 3,
				 .gid_tbl_len = 8, .pkey_tbl_len = 4 };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *dev = &td->ibdev;
	u32 port, n = 0;

	KUNIT_EXPECT_EQ(test, rdma_start_port(dev), 1U);
	KUNIT_EXPECT_EQ(test, rdma_end_port(dev), 3U);
	rdma_for_each_port(dev, port) {
		KUNIT_EXPECT_PTR_EQ(test, dev->port_data[port].ib_dev, dev);
		KUNIT_EXPECT_EQ(test,
				dev->port_data[port].immutable.gid_tbl_len, 8);
		KUNIT_EXPECT_EQ(test,
				dev->port_data[port].immutable.pkey_tbl_len, 4);
		KUNIT_EXPECT_TRUE(test, rdma_protocol_ib(dev, port));
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3U);
	KUNIT_EXPECT_FALSE(test, rdma_is_port_valid(dev, 0));
	KUNIT_EXPECT_FALSE(test, rdma_is_port_valid(dev, 4));
	tdev_destroy(td);
}

static void register_kverbs_decision(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktkv%d");
	const struct ib_device_ops *o = &td->ibdev.ops;
	bool all = o->query_device && o->query_port && o->alloc_pd &&
		   o->dealloc_pd && o->create_qp && o->modify_qp &&
		   o->destroy_qp && o->post_send && o->post_recv &&
		   o->create_cq && o->destroy_cq && o->poll_cq &&
		   o->req_notify_cq && o->get_dma_mr && o->reg_user_mr &&
		   o->dereg_mr && o->get_port_immutable;

	KUNIT_EXPECT_EQ(test, (bool)td->ibdev.kverbs_provider, all);
	tdev_destroy(td);
}

static void register_comp_vectors_default(struct kunit *test)
{
	struct tdev_params p = { .name = "ktcv%d" };
	struct tdev *td = tk_new_dev(test, &p);

	td->ibdev.num_comp_vectors = 0;
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	KUNIT_EXPECT_EQ(test, td->ibdev.num_comp_vectors, 1);
	tdev_destroy(td);
}

static void unregister_twice_and_reregister(struct kunit *test)
{
	struct tdev_params p = { .name = "ktunreg" };
	struct tdev *td = tk_dev(test, &p);
	struct tdev *again;

	ib_unregister_device(&td->ibdev);
	ib_unregister_device(&td->ibdev);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	KUNIT_EXPECT_EQ(test, ib_register_device(&td->ibdev, "ktunreg", NULL),
			-EEXIST);
	/* The name is free again for another device. */
	again = tk_dev(test, &p);
	KUNIT_EXPECT_STREQ(test, again->ibdev.name, "ktunreg");
	tdev_destroy(again);
	tdev_destroy(td);
}

static void get_by_name_refcount(struct kunit *test)
{
	struct tdev_params p = { .name = "ktname%d", .driver_id = RDMA_DRIVER_RXE };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *dev = &td->ibdev, *found;

	found = ib_device_get_by_name("ktname0", RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, dev);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 2);
	found = ib_device_get_by_name("ktname0", RDMA_DRIVER_RXE);
	KUNIT_EXPECT_PTR_EQ(test, found, dev);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 3);
	ib_device_put(dev);
	ib_device_put(dev);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktname0",
						      RDMA_DRIVER_SIW));
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktname1",
						      RDMA_DRIVER_UNKNOWN));
	tdev_unregister(td);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktname0",
						      RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_FALSE(test, ib_device_try_get(dev));
	tdev_destroy(td);
}

static void unregister_waits_for_references(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktwait%d");
	struct ib_device *found;
	struct tk_thread t;

	found = ib_device_get_by_name(td->ibdev.name, RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, found);
	tk_expect_blocks(test, &t, tk_unregister_fn, &td->ibdev);
	/* Hidden from lookups as soon as unregistration starts. */
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name(td->ibdev.name,
						      RDMA_DRIVER_UNKNOWN));
	ib_device_put(found);
	tk_join(&t);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	tdev_destroy(td);
}

static void unregister_and_put(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktandput%d");
	struct ib_device *found;

	found = ib_device_get_by_name(td->ibdev.name, RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, found);
	ib_unregister_device_and_put(found);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	KUNIT_EXPECT_EQ(test, refcount_read(&td->ibdev.refcount), 0);
	tdev_destroy(td);
}

static void dealloc_driver_frees(struct kunit *test)
{
	struct tdev_params p = { .name = "ktdd%d", .dealloc_driver = true };
	struct tdev *td = tk_dev(test, &p);
	int before = atomic_read(&tdev_dealloc_driver_calls);

	tdev_unregister(td);	/* frees td */
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktdd0",
						      RDMA_DRIVER_UNKNOWN));
}

static void unregister_queued(struct kunit *test)
{
	struct tdev_params p = { .name = "ktq%d", .dealloc_driver = true };
	struct tdev *td = tk_dev(test, &p);
	int before = atomic_read(&tdev_dealloc_driver_calls);
	int i;

	ib_unregister_device_queued(&td->ibdev);
	for (i = 0; i < 200 && atomic_read(&tdev_dealloc_driver_calls) == before;
	     i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktq0",
						      RDMA_DRIVER_UNKNOWN));
}

static void unregister_queued_needs_dealloc_driver(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktqn%d");

	ib_unregister_device_queued(&td->ibdev);
	msleep(50);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&td->ibdev.dev));
	tdev_destroy(td);
}

static void unregister_driver_only_its_devices(struct kunit *test)
{
	struct tdev_params mine = { .name = "ktdrv%d", .dealloc_driver = true,
				    .driver_id = RDMA_DRIVER_EFA };
	struct tdev_params other = { .name = "ktnotdrv%d" };
	struct tdev *o = tk_dev(test, &other);
	int before = atomic_read(&tdev_dealloc_driver_calls);

	tk_dev(test, &mine);
	tk_dev(test, &mine);
	ib_unregister_driver(RDMA_DRIVER_EFA);
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 2);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktdrv0",
						      RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktdrv1",
						      RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_TRUE(test, device_is_registered(&o->ibdev.dev));
	tdev_destroy(o);
}

static struct kunit_case register_cases[] = {
	KUNIT_CASE(register_basic),
	KUNIT_CASE(register_template_lowest_free),
	KUNIT_CASE(register_exact_name_duplicate),
	KUNIT_CASE(register_twice),
	KUNIT_CASE(register_bad_names),
	KUNIT_CASE(register_immutable_failure),
	KUNIT_CASE(register_query_device_failure),
	KUNIT_CASE(register_port_data),
	KUNIT_CASE(register_kverbs_decision),
	KUNIT_CASE(register_comp_vectors_default),
	KUNIT_CASE(unregister_twice_and_reregister),
	KUNIT_CASE(get_by_name_refcount),
	KUNIT_CASE(unregister_waits_for_references),
	KUNIT_CASE(unregister_and_put),
	KUNIT_CASE(dealloc_driver_frees),
	KUNIT_CASE(unregister_queued),
	KUNIT_CASE(unregister_queued_needs_dealloc_driver),
	KUNIT_CASE(unregister_driver_only_its_devices),
	{}
};

static struct kunit_suite register_suite = {
	.name = "rdma_core_register",
	.test_cases = register_cases,
};

kunit_test_suites(&register_suite);
