// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_port: core/device/port.c, querying and modifying
 * ports and the device (ib_query_port(), ib_query_pkey(), ib_modify_port(),
 * ib_modify_device()), the protocol of a port, and finding a device by the
 * netdev of one of its ports (ib_device_get_by_netdev()).
 *
 * The test device answers for any port number and table index: the
 * bounds checks seen here are the core's.
 */
#include <kunit/test.h>
#include <linux/irq_work.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include "tk.h"

static void query_port_valid(struct kunit *test)
{
	struct tdev_params p = { .name = "ktqp%d", .gid_tbl_len = 8,
				 .pkey_tbl_len = 2 };
	struct tdev *td = tk_dev(test, &p);
	struct ib_port_attr attr;

	memset(&attr, 0xa5, sizeof(attr));
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, attr.phys_state, IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, attr.gid_tbl_len, 8);
	KUNIT_EXPECT_EQ(test, attr.pkey_tbl_len, 2U);
	/* The LID the test double's fabric gave the port */
	KUNIT_EXPECT_EQ(test, attr.lid, td->port[1].lid);
	KUNIT_EXPECT_NE(test, attr.lid, 0);
	/* Zeroed before the driver fills it: fields it leaves alone are 0. */
	KUNIT_EXPECT_EQ(test, attr.qkey_viol_cntr, 0U);
	KUNIT_EXPECT_EQ(test, attr.bad_pkey_cntr, 0U);
	KUNIT_EXPECT_EQ(test, attr.subnet_timeout, 0);
	tdev_destroy(td);
}

static void query_port_invalid(struct kunit *test)
{
	struct tdev_params p = { .name = "ktqpi%d", .ports = 2 };
	struct tdev *td = tk_dev(test, &p);
	struct ib_port_attr attr;

	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, 0, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, 3, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, U32_MAX, &attr),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, 2, &attr), 0);
	tdev_fail(td, TDEV_FAIL_QUERY_PORT, true);
	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), -EIO);
	tdev_fail(td, TDEV_FAIL_QUERY_PORT, false);
	tdev_destroy(td);
}

static void query_port_subnet_prefix(struct kunit *test)
{
	struct tdev_params ib = { .name = "ktsp%d" };
	struct tdev_params eth = { .name = "ktspe%d",
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *a = tk_dev(test, &ib), *b = tk_dev(test, &eth);
	struct ib_port_attr attr;

	KUNIT_ASSERT_EQ(test, ib_query_port(&a->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.subnet_prefix, 0xfe80000000000000ULL);
	KUNIT_ASSERT_EQ(test, ib_query_port(&b->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.subnet_prefix, 0ULL);
	tdev_destroy(a);
	tdev_destroy(b);
}

static void query_pkey_cases(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpk%d", .pkey_tbl_len = 4 };
	struct tdev *td = tk_dev(test, &p);
	u16 pkey = 0;

	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 1, 0, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 1, 3, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, 0);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 1, 4, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 0, 0, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 2, 0, &pkey), -EINVAL);
	tdev_fail(td, TDEV_FAIL_QUERY_PKEY, true);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 1, 0, &pkey), -EIO);
	tdev_destroy(td);
}

static void modify_device_cases(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktmd%d");
	struct ib_device_modify m = { .node_desc = "kunit node",
				      .sys_image_guid = 0x1122334455667788ULL };

	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev,
					       IB_DEVICE_MODIFY_NODE_DESC, &m),
			0);
	KUNIT_EXPECT_STREQ(test, td->ibdev.node_desc, "kunit node");
	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev,
					IB_DEVICE_MODIFY_SYS_IMAGE_GUID, &m),
			0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(td->ibdev.attrs.sys_image_guid),
			0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev, 1 << 7, &m),
			-EOPNOTSUPP);
	tdev_fail(td, TDEV_FAIL_MODIFY_DEVICE, true);
	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev,
					       IB_DEVICE_MODIFY_NODE_DESC, &m),
			-EIO);
	tdev_destroy(td);
}

static void modify_port_cases(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktmp%d");
	struct ib_port_modify m = { .set_port_cap_mask = IB_PORT_SM };
	struct ib_port_attr attr;

	KUNIT_ASSERT_EQ(test, ib_modify_port(&td->ibdev, 1, 0, &m), 0);
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_TRUE(test, attr.port_cap_flags & IB_PORT_SM);
	m.set_port_cap_mask = 0;
	m.clr_port_cap_mask = IB_PORT_SM;
	KUNIT_ASSERT_EQ(test, ib_modify_port(&td->ibdev, 1, 0, &m), 0);
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_FALSE(test, attr.port_cap_flags & IB_PORT_SM);
	KUNIT_EXPECT_EQ(test, ib_modify_port(&td->ibdev, 0, 0, &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_modify_port(&td->ibdev, 2, 0, &m), -EINVAL);
	tdev_fail(td, TDEV_FAIL_MODIFY_PORT, true);
	KUNIT_EXPECT_EQ(test, ib_modify_port(&td->ibdev, 1, 0, &m), -EIO);
	tdev_destroy(td);
}

static void protocol_helpers(struct kunit *test)
{
	struct tdev_params ib = { .name = "ktph%d" };
	struct tdev_params eth = { .name = "ktphe%d",
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *a = tk_dev(test, &ib), *b = tk_dev(test, &eth);

	KUNIT_EXPECT_TRUE(test, rdma_protocol_ib(&a->ibdev, 1));
	KUNIT_EXPECT_FALSE(test, rdma_protocol_roce(&a->ibdev, 1));
	KUNIT_EXPECT_TRUE(test, rdma_cap_ib_mad(&a->ibdev, 1));
	KUNIT_EXPECT_TRUE(test, rdma_protocol_roce(&b->ibdev, 1));
	KUNIT_EXPECT_TRUE(test, rdma_protocol_roce_udp_encap(&b->ibdev, 1));
	KUNIT_EXPECT_FALSE(test, rdma_protocol_ib(&b->ibdev, 1));
	tdev_destroy(a);
	tdev_destroy(b);
}

/* A lookup by netdev made in hard interrupt context. */
struct tk_irq_lookup {
	struct irq_work iw;
	struct net_device *ndev;
	struct ib_device *found;
	bool hardirq;
	struct completion done;
};

static void tk_irq_lookup_fn(struct irq_work *iw)
{
	struct tk_irq_lookup *l = container_of(iw, struct tk_irq_lookup, iw);

	l->hardirq = in_hardirq();
	l->found = ib_device_get_by_netdev(l->ndev, RDMA_DRIVER_UNKNOWN);
	if (l->found)
		ib_device_put(l->found);
	complete(&l->done);
}

/*
 * Issue 12, defect 1: soft RoCE drivers look the device up for each packet
 * they receive, in softirq or hard interrupt context.  Before the fix the
 * lookup walked the registry under a sleeping rwsem ("sleeping function
 * called from invalid context").
 */
static void get_by_netdev_atomic(struct kunit *test)
{
	struct tdev_params p = { .name = "ktgba%d", .roce = true };
	struct tdev *td = tk_dev(test, &p);
	struct tk_irq_lookup l = { .ndev = td->ndev };
	u64 mark = tk_log_mark();
	struct ib_device *found;
	unsigned long flags;

	preempt_disable();
	found = ib_device_get_by_netdev(td->ndev, RDMA_DRIVER_UNKNOWN);
	preempt_enable();
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);

	local_irq_save(flags);
	found = ib_device_get_by_netdev(td->ndev, RDMA_DRIVER_UNKNOWN);
	local_irq_restore(flags);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);

	l.iw = IRQ_WORK_INIT_HARD(tk_irq_lookup_fn);
	init_completion(&l.done);
	irq_work_queue(&l.iw);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&l.done, 5 * HZ));
	irq_work_sync(&l.iw);
	KUNIT_EXPECT_TRUE(test, l.hardirq);
	KUNIT_EXPECT_PTR_EQ(test, l.found, &td->ibdev);
	KUNIT_EXPECT_EQ(test, refcount_read(&td->ibdev.refcount), 1);
	KUNIT_EXPECT_EQ(test, tk_log_count(mark, "called from invalid context"),
			0);
	tdev_destroy(td);
}

/* A client that looks its device up by netdev from its remove(). */
static struct {
	struct ib_client client;
	struct ib_device *dev;
	struct ib_device *found;
	bool removed;
} tk_finder;

static int tk_finder_add(struct ib_device *dev)
{
	return dev == tk_finder.dev ? 0 : -EOPNOTSUPP;
}

static void tk_finder_remove(struct ib_device *dev, void *data)
{
	tk_finder.found = ib_device_get_by_netdev(to_tdev(dev)->ndev,
						  RDMA_DRIVER_UNKNOWN);
	if (tk_finder.found)
		ib_device_put(tk_finder.found);
	tk_finder.removed = true;
}

/*
 * Issue 12, defect 1: a device is found by its netdev for as long as it
 * holds registration references, also while its clients are removed.
 * Before the fix the lookup found only devices not yet hidden.
 */
static void get_by_netdev_during_removal(struct kunit *test)
{
	struct tdev_params p = { .name = "ktgbr%d", .roce = true };
	struct tdev *td = tk_dev(test, &p);
	struct net_device *ndev = td->ndev;

	memset(&tk_finder, 0, sizeof(tk_finder));
	tk_finder.client = (struct ib_client){ .name = "kt_finder",
					       .add = tk_finder_add,
					       .remove = tk_finder_remove,
					       .no_kverbs_req = 1 };
	tk_finder.dev = &td->ibdev;
	KUNIT_ASSERT_EQ(test, ib_register_client(&tk_finder.client), 0);
	tdev_unregister(td);
	KUNIT_EXPECT_TRUE(test, tk_finder.removed);
	KUNIT_EXPECT_PTR_EQ(test, tk_finder.found, &td->ibdev);
	/* Once unregistered, it is not found any more */
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev,
							RDMA_DRIVER_UNKNOWN));
	ib_unregister_client(&tk_finder.client);
	tdev_destroy(td);
}

/* Bad input: a netdev no port has, NULL, another driver's id. */
static void get_by_netdev_misses(struct kunit *test)
{
	struct tdev_params p = { .name = "ktgbm%d", .roce = true,
				 .driver_id = RDMA_DRIVER_RXE };
	struct tdev *td = tk_dev(test, &p);
	struct net_device *other = tk_netdev(test);
	struct ib_device *found;

	/* What it does find */
	found = ib_device_get_by_netdev(td->ndev, RDMA_DRIVER_RXE);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(other,
							RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(NULL,
							RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(td->ndev,
							RDMA_DRIVER_SIW));
	/*
	 * No lookup kept a reference.  ib_core's own works hold one for a
	 * while: the GID reread, queued by the registration of @other, goes
	 * through every device, and the event work holds one while it
	 * delivers an event of the device.  A leaked one is the one that
	 * stays.
	 */
	KUNIT_EXPECT_TRUE_MSG(test,
			      tk_wait_for(refcount_read(&td->ibdev.refcount) == 1),
			      "refcount %u", refcount_read(&td->ibdev.refcount));
	tdev_destroy(td);
	tk_netdev_free(other);
}

/*
 * ib_find_gid() finds a GID on the InfiniBand ports only, and says where;
 * the index is optional.
 */
static void find_gid_cases(struct kunit *test)
{
	struct tdev_params ib = { .name = "ktfg%d", .ports = 2,
				  .driver_gids = true };
	struct tdev_params eth = { .name = "ktfge%d", .roce = true };
	struct tdev *td = tk_new_dev(test, &ib), *te = tk_dev(test, &eth);
	union ib_gid gid = { .global = {
		.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL),
		.interface_id = cpu_to_be64(0x1234) } };
	u32 port = 0;
	u16 index = 0;

	KUNIT_ASSERT_EQ(test, tdev_set_gid(td, 2, 3, &gid), 0);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	KUNIT_EXPECT_EQ(test, ib_find_gid(&td->ibdev, &gid, &port, &index), 0);
	KUNIT_EXPECT_EQ(test, port, 2U);
	KUNIT_EXPECT_EQ(test, index, 3);
	port = 0;
	KUNIT_EXPECT_EQ(test, ib_find_gid(&td->ibdev, &gid, &port, NULL), 0);
	KUNIT_EXPECT_EQ(test, port, 2U);
	/* Bad input: a GID nobody has; a RoCE port's GID is not searched */
	gid.raw[15] ^= 1;
	KUNIT_EXPECT_EQ(test, ib_find_gid(&td->ibdev, &gid, &port, &index),
			-ENOENT);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&te->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, ib_find_gid(&te->ibdev, &gid, &port, &index),
			-ENOENT);
	tdev_destroy(te);
	tdev_destroy(td);
}

static struct kunit_case port_cases[] = {
	KUNIT_CASE(query_port_valid),
	KUNIT_CASE(query_port_invalid),
	KUNIT_CASE(query_port_subnet_prefix),
	KUNIT_CASE(query_pkey_cases),
	KUNIT_CASE(modify_device_cases),
	KUNIT_CASE(modify_port_cases),
	KUNIT_CASE(protocol_helpers),
	KUNIT_CASE(get_by_netdev_atomic),
	KUNIT_CASE(get_by_netdev_during_removal),
	KUNIT_CASE(get_by_netdev_misses),
	KUNIT_CASE(find_gid_cases),
	{}
};

static struct kunit_suite port_suite = {
	.name = "rdma_core_port",
	.test_cases = port_cases,
};

kunit_test_suites(&port_suite);
