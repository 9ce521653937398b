// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_netdev: core/netdev/binding.c, the netdev of each
 * port (ib_device_set_netdev()), the references it holds, and finding a
 * device by its netdev (ib_device_get_by_netdev(), core/device/port.c;
 * see also kunit/core/device/port_test.c).
 *
 * The suite's eth_speed case tests core/verbs/port_speed.c and lives in
 * kunit/core/verbs/port_speed_test.c, in a suite of the same name so that
 * its result keeps its name (kunit/rdma_core_netdev/eth_speed).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include "tk.h"

static void netdev_lookup(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct net_device *other = tk_netdev(test);
	struct tdev_params p = { .name = "ktnd%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET,
				 .driver_id = RDMA_DRIVER_RXE };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *found;

	found = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	found = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	KUNIT_EXPECT_EQ(test, refcount_read(&td->ibdev.refcount), 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev, RDMA_DRIVER_SIW));
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(other,
							RDMA_DRIVER_UNKNOWN));
	tdev_unregister(td);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev,
							RDMA_DRIVER_UNKNOWN));
	tdev_destroy(td);
	tk_netdev_free(ndev);
	tk_netdev_free(other);
}

/*
 * The references a netdev has from the RDMA side, once the GID scans its
 * registration queued have run (they hold it while they scan).
 */
static int tk_netdev_refs(struct net_device *ndev)
{
	flush_workqueue(ib_wq);
	return netdev_refcnt_read(ndev);
}

static void netdev_references(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktnr%d", .ports = 2,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	int base = tk_netdev_refs(ndev);

	KUNIT_EXPECT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 3),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 1), 0);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 2), 0);
	/* Setting the same netdev again takes no second reference. */
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 2), 0);
	KUNIT_EXPECT_GT(test, tk_netdev_refs(ndev), base);
	tdev_unregister(td);
	KUNIT_EXPECT_EQ(test, tk_netdev_refs(ndev), base);
	tdev_destroy(td);
	tk_netdev_free(ndev);
}

static void netdev_released_when_never_registered(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	int base = tk_netdev_refs(ndev);
	struct tdev *td = tk_new_dev(test, &p);

	KUNIT_EXPECT_GT(test, tk_netdev_refs(ndev), base);
	tdev_destroy(td);
	KUNIT_EXPECT_EQ(test, tk_netdev_refs(ndev), base);
	tk_netdev_free(ndev);
}

/* The step of netdev_rcu_reader_outlives(): take the port's netdev away. */
struct tk_unset {
	struct ib_device *dev;
	struct completion go;
};

static void tk_unset_fn(void *arg)
{
	struct tk_unset *u = arg;

	wait_for_completion(&u->go);
	ib_device_set_netdev(u->dev, NULL, 1);
}

/*
 * A reader that found a port's netdev under rcu_read_lock() may use it
 * until rcu_read_unlock(): taking the netdev off the port drops the
 * port's reference only after such readers are done.  The case is the
 * reader; it busy-waits (at most a second) in its read section while
 * another thread takes the netdev away, and watches the reference count.
 */
static void netdev_rcu_reader_outlives(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_new_dev(test, &p);
	struct tk_unset u = { .dev = &td->ibdev };
	struct net_device *seen;
	int refs, i, dropped_inside;
	struct tk_thread t;

	init_completion(&u.go);
	tk_start(test, &t, tk_unset_fn, &u);
	rcu_read_lock();
	seen = rcu_dereference(td->ibdev.port_data[1].netdev);
	refs = netdev_refcnt_read(ndev);
	complete(&u.go);
	for (i = 0; i < 100 && netdev_refcnt_read(ndev) >= refs; i++)
		mdelay(10);
	dropped_inside = refs - netdev_refcnt_read(ndev);
	rcu_read_unlock();
	tk_join(&t);
	KUNIT_EXPECT_PTR_EQ(test, seen, ndev);
	KUNIT_EXPECT_LE_MSG(test, dropped_inside, 0,
			    "the port's reference went inside a read section");
	KUNIT_EXPECT_LT(test, netdev_refcnt_read(ndev), refs);
	tdev_destroy(td);
	tk_netdev_free(ndev);
}

static struct kunit_case netdev_cases[] = {
	KUNIT_CASE(netdev_lookup),
	KUNIT_CASE(netdev_references),
	KUNIT_CASE(netdev_released_when_never_registered),
	KUNIT_CASE(netdev_rcu_reader_outlives),
	{}
};

static struct kunit_suite netdev_suite = {
	.name = "rdma_core_netdev",
	.test_cases = netdev_cases,
};

kunit_test_suites(&netdev_suite);
