// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: core/verbs/port_speed.c, the InfiniBand speed and width that
 * stand for the link speed of a RoCE port's netdev (ib_get_eth_speed()).
 *
 * Its one case was written as part of the suite rdma_core_netdev (see
 * kunit/core/netdev/binding_test.c) and keeps that suite's name, so that
 * its result is still kunit/rdma_core_netdev/eth_speed.
 */
#include <kunit/test.h>
#include "tk.h"

static void eth_speed(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params eth = { .name = "ktes%d", .ports = 2, .ndev = ndev,
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev_params ib = { .name = "ktesi%d" };
	struct tdev *a = tk_dev(test, &eth), *b = tk_dev(test, &ib);
	u16 speed = 0;
	u8 width = 0;

	/* No ethtool: taken as 1 Gb/s, shown as 1X SDR. */
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&a->ibdev, 1, &speed, &width),
			0);
	KUNIT_EXPECT_EQ(test, speed, IB_SPEED_SDR);
	KUNIT_EXPECT_EQ(test, width, IB_WIDTH_1X);
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&b->ibdev, 1, &speed, &width),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&a->ibdev, 3, &speed, &width),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&a->ibdev, NULL, 2), 0);
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&a->ibdev, 2, &speed, &width),
			-ENODEV);
	tdev_destroy(a);
	tdev_destroy(b);
	tk_netdev_free(ndev);
}

static struct kunit_case port_speed_cases[] = {
	KUNIT_CASE(eth_speed),
	{}
};

static struct kunit_suite port_speed_suite = {
	.name = "rdma_core_netdev",
	.test_cases = port_speed_cases,
};

kunit_test_suites(&port_speed_suite);
