// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_rdma_netdev: core/netdev/rdma_netdev.c, the
 * netdevs a driver runs for a port (rdma_alloc_netdev(),
 * rdma_init_netdev()): the driver's private area and queues, its
 * initialisation with its parameter, and the requests that never reach it.
 */
#include <kunit/test.h>
#include <linux/netdevice.h>
#include "tk.h"

static struct {
	int inits;
	int setups;
	void *param;
	struct net_device *ndev;
	unsigned int txqs;
} rn;

static int rn_initialize(struct ib_device *device, u32 port_num,
			 struct net_device *netdev, void *param)
{
	rn.inits++;
	rn.param = param;
	rn.ndev = netdev;
	return port_num == 1 ? 0 : -EIO;
}

/* IPoIB only; "no queues" asked for with rn.txqs == 0 */
static int rn_get_params(struct ib_device *device, u32 port_num,
			 enum rdma_netdev_t type,
			 struct rdma_netdev_alloc_params *params)
{
	if (type != RDMA_NETDEV_IPOIB)
		return -EOPNOTSUPP;
	params->sizeof_priv = 256;
	params->txqs = rn.txqs;
	params->rxqs = 3;
	params->param = &rn;
	params->initialize_rdma_netdev = rn_initialize;
	return 0;
}

static const struct ib_device_ops rn_ops = {
	.rdma_netdev_get_params = rn_get_params,
};

static void rn_setup(struct net_device *ndev)
{
	rn.setups++;
	ether_setup(ndev);
}

static void rdma_netdev_alloc_init(struct kunit *test)
{
	struct tdev_params p = { .name = "ktrn%d", .ports = 2 };
	struct tdev *td = tk_new_dev(test, &p);
	struct net_device *ndev;

	ib_set_device_ops(&td->ibdev, &rn_ops);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	memset(&rn, 0, sizeof(rn));
	rn.txqs = 2;

	ndev = rdma_alloc_netdev(&td->ibdev, 1, RDMA_NETDEV_IPOIB, "ktrnd%d",
				 NET_NAME_UNKNOWN, rn_setup);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ndev));
	KUNIT_EXPECT_EQ(test, rn.setups, 1);
	KUNIT_EXPECT_EQ(test, ndev->num_tx_queues, 2U);
	KUNIT_EXPECT_EQ(test, ndev->num_rx_queues, 3U);
	KUNIT_EXPECT_NOT_NULL(test, netdev_priv(ndev));
	KUNIT_EXPECT_EQ(test, rdma_init_netdev(&td->ibdev, 1, RDMA_NETDEV_IPOIB,
					       "ktrnd%d", NET_NAME_UNKNOWN,
					       rn_setup, ndev), 0);
	KUNIT_EXPECT_EQ(test, rn.inits, 1);
	KUNIT_EXPECT_PTR_EQ(test, rn.param, (void *)&rn);
	KUNIT_EXPECT_PTR_EQ(test, rn.ndev, ndev);
	/* The driver's error comes back */
	KUNIT_EXPECT_EQ(test, rdma_init_netdev(&td->ibdev, 2, RDMA_NETDEV_IPOIB,
					       "ktrnd%d", NET_NAME_UNKNOWN,
					       rn_setup, ndev), -EIO);

	/* Bad input: a type the driver has no netdev of; ports it lacks */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_alloc_netdev(&td->ibdev, 1,
							RDMA_NETDEV_OPA_VNIC,
							"ktrnd%d",
							NET_NAME_UNKNOWN,
							rn_setup)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_alloc_netdev(&td->ibdev, 0,
							RDMA_NETDEV_IPOIB,
							"ktrnd%d",
							NET_NAME_UNKNOWN,
							rn_setup)), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_init_netdev(&td->ibdev, 3, RDMA_NETDEV_IPOIB,
					       "ktrnd%d", NET_NAME_UNKNOWN,
					       rn_setup, ndev), -EINVAL);
	/* Parameters without queues */
	rn.txqs = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_alloc_netdev(&td->ibdev, 1,
							RDMA_NETDEV_IPOIB,
							"ktrnd%d",
							NET_NAME_UNKNOWN,
							rn_setup)), -EINVAL);
	KUNIT_EXPECT_EQ(test, rn.setups, 1);
	KUNIT_EXPECT_EQ(test, rn.inits, 2);
	free_netdev(ndev);
	tdev_destroy(td);
}

/* Bad input: a driver without such netdevs */
static void rdma_netdev_not_supported(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktrnn%d");
	struct net_device *ndev = tk_netdev_unregistered(test);

	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_alloc_netdev(&td->ibdev, 1,
							RDMA_NETDEV_IPOIB,
							"ktrnd%d",
							NET_NAME_UNKNOWN,
							rn_setup)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_init_netdev(&td->ibdev, 1, RDMA_NETDEV_IPOIB,
					       "ktrnd%d", NET_NAME_UNKNOWN,
					       rn_setup, ndev), -EOPNOTSUPP);
	free_netdev(ndev);
	tdev_destroy(td);
}

static struct kunit_case rdma_netdev_cases[] = {
	KUNIT_CASE(rdma_netdev_alloc_init),
	KUNIT_CASE(rdma_netdev_not_supported),
	{}
};

static struct kunit_suite rdma_netdev_suite = {
	.name = "rdma_core_rdma_netdev",
	.test_cases = rdma_netdev_cases,
};

kunit_test_suites(&rdma_netdev_suite);
