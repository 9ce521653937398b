// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_vf: core/verbs/vf.c, a device's SR-IOV virtual
 * functions through its driver's operations: what reaches the driver, and
 * what does not (ports the device lacks, a driver without the operations).
 */
#include <kunit/test.h>
#include <linux/if_link.h>
#include "tk.h"

/* What the test driver's operations saw */
static struct {
	int calls;
	int vf;
	u32 port;
	u64 guid;
	int arg;
} vf_seen;

static int vf_set_link_state(struct ib_device *device, int vf, u32 port,
			     int state)
{
	vf_seen = (typeof(vf_seen)){ vf_seen.calls + 1, vf, port, 0, state };
	return state == IFLA_VF_LINK_STATE_DISABLE ? -EPERM : 0;
}

static int vf_get_config(struct ib_device *device, int vf, u32 port,
			 struct ifla_vf_info *ivf)
{
	vf_seen = (typeof(vf_seen)){ vf_seen.calls + 1, vf, port };
	ivf->vf = vf;
	ivf->linkstate = IFLA_VF_LINK_STATE_AUTO;
	return 0;
}

static int vf_get_stats(struct ib_device *device, int vf, u32 port,
			struct ifla_vf_stats *stats)
{
	vf_seen = (typeof(vf_seen)){ vf_seen.calls + 1, vf, port };
	stats->rx_packets = 7;
	return 0;
}

static int vf_get_guid(struct ib_device *device, int vf, u32 port,
		       struct ifla_vf_guid *node_guid,
		       struct ifla_vf_guid *port_guid)
{
	vf_seen = (typeof(vf_seen)){ vf_seen.calls + 1, vf, port };
	node_guid->guid = 0x1111;
	port_guid->guid = 0x2222;
	return 0;
}

static int vf_set_guid(struct ib_device *device, int vf, u32 port, u64 guid,
		       int type)
{
	vf_seen = (typeof(vf_seen)){ vf_seen.calls + 1, vf, port, guid, type };
	return 0;
}

static const struct ib_device_ops vf_ops = {
	.set_vf_link_state = vf_set_link_state,
	.get_vf_config = vf_get_config,
	.get_vf_stats = vf_get_stats,
	.get_vf_guid = vf_get_guid,
	.set_vf_guid = vf_set_guid,
};

static void vf_reaches_driver(struct kunit *test)
{
	struct tdev_params p = { .name = "ktvf%d", .ports = 2 };
	struct tdev *td = tk_new_dev(test, &p);
	struct ib_device *dev = &td->ibdev;
	struct ifla_vf_guid node = {}, port = {};
	struct ifla_vf_stats stats = {};
	struct ifla_vf_info info = {};

	ib_set_device_ops(dev, &vf_ops);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	memset(&vf_seen, 0, sizeof(vf_seen));

	KUNIT_EXPECT_EQ(test, ib_set_vf_link_state(dev, 3, 2,
						   IFLA_VF_LINK_STATE_ENABLE), 0);
	KUNIT_EXPECT_EQ(test, vf_seen.vf, 3);
	KUNIT_EXPECT_EQ(test, vf_seen.port, 2U);
	KUNIT_EXPECT_EQ(test, vf_seen.arg, IFLA_VF_LINK_STATE_ENABLE);
	/* The driver's own error comes back */
	KUNIT_EXPECT_EQ(test, ib_set_vf_link_state(dev, 3, 2,
						   IFLA_VF_LINK_STATE_DISABLE),
			-EPERM);
	KUNIT_EXPECT_EQ(test, ib_get_vf_config(dev, 1, 1, &info), 0);
	KUNIT_EXPECT_EQ(test, info.vf, 1U);
	KUNIT_EXPECT_EQ(test, ib_get_vf_stats(dev, 1, 1, &stats), 0);
	KUNIT_EXPECT_EQ(test, stats.rx_packets, 7ULL);
	KUNIT_EXPECT_EQ(test, ib_get_vf_guid(dev, 2, 1, &node, &port), 0);
	KUNIT_EXPECT_EQ(test, node.guid, 0x1111ULL);
	KUNIT_EXPECT_EQ(test, port.guid, 0x2222ULL);
	KUNIT_EXPECT_EQ(test, ib_set_vf_guid(dev, 2, 1, 0xabcdULL,
					     IFLA_VF_IB_PORT_GUID), 0);
	KUNIT_EXPECT_EQ(test, vf_seen.guid, 0xabcdULL);
	KUNIT_EXPECT_EQ(test, vf_seen.arg, IFLA_VF_IB_PORT_GUID);
	KUNIT_EXPECT_EQ(test, vf_seen.calls, 6);

	/* Bad input: ports the device lacks never reach the driver */
	KUNIT_EXPECT_EQ(test, ib_set_vf_link_state(dev, 0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_vf_config(dev, 0, 3, &info), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_vf_stats(dev, 0, 3, &stats), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_vf_guid(dev, 0, 0, &node, &port), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_set_vf_guid(dev, 0, U32_MAX, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, vf_seen.calls, 6);
	tdev_destroy(td);
}

/* Bad input: a driver without SR-IOV */
static void vf_not_supported(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktvfn%d");
	struct ib_device *dev = &td->ibdev;
	struct ifla_vf_guid node, port;
	struct ifla_vf_stats stats;
	struct ifla_vf_info info;

	KUNIT_EXPECT_EQ(test, ib_set_vf_link_state(dev, 0, 1, 0), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_get_vf_config(dev, 0, 1, &info), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_get_vf_stats(dev, 0, 1, &stats), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_get_vf_guid(dev, 0, 1, &node, &port),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_set_vf_guid(dev, 0, 1, 1, 0), -EOPNOTSUPP);
	tdev_destroy(td);
}

static struct kunit_case vf_cases[] = {
	KUNIT_CASE(vf_reaches_driver),
	KUNIT_CASE(vf_not_supported),
	{}
};

static struct kunit_suite vf_suite = {
	.name = "rdma_core_vf",
	.test_cases = vf_cases,
};

kunit_test_suites(&vf_suite);
