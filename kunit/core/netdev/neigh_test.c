// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_neigh: core/netdev/neigh.c, the destination MAC of
 * a user's RoCE v2 address vector, resolved through core/addr/ over a
 * veth pair whose other end is in a namespace of its own: the peer's MAC
 * after ARP and the route's hop limit, the port's own address, and a
 * destination nobody answers for.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include "tk.h"
#include "tnet.h"

static const char * const neigh_up[] = {
	"netns add ktneigh",
	"link add ktn0 type veth peer name ktn1 netns ktneigh",
	"addr add 10.76.0.1/24 dev ktn0",
	"-n ktneigh addr add 10.76.0.2/24 dev ktn1",
	"link set ktn0 up",
	"-n ktneigh link set ktn1 up",
};

static void neigh_down(void)
{
	tnet_ip("netns del ktneigh");
	tnet_ip("link del ktn0");
}

/* The slot of the RoCE v2 GID of @ip on port 1, or -1 */
static int neigh_v2_slot(struct ib_device *dev, __be32 ip)
{
	const struct ib_gid_attr *attr;
	union ib_gid want;
	int i, found = -1;

	ipv6_addr_set_v4mapped(ip, (struct in6_addr *)&want);
	for (i = 0; i < 16 && found < 0; i++) {
		attr = rdma_get_gid_attr(dev, 1, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    !memcmp(&attr->gid, &want, sizeof(want)))
			found = i;
		rdma_put_gid_attr(attr);
	}
	return found;
}

/* A user AH from @slot to @ip; its resolved MAC and hop limit, or errno */
static int neigh_user_ah(struct kunit *test, struct ib_pd *pd, int slot,
			 __be32 ip, u8 *mac, u8 *hop_limit)
{
	struct ib_udata udata = {};
	struct rdma_ah_attr a = {}, q;
	struct ib_ah *ah;
	int ret;

	a.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&a, 1);
	rdma_ah_set_ah_flags(&a, IB_AH_GRH);
	a.grh.sgid_index = slot;
	a.grh.hop_limit = 1;
	ipv6_addr_set_v4mapped(ip, (struct in6_addr *)&a.grh.dgid);
	ah = rdma_create_user_ah(pd, &a, &udata);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	ret = rdma_query_ah(ah, &q);
	if (!ret) {
		ether_addr_copy(mac, q.roce.dmac);
		*hop_limit = q.grh.hop_limit;
	}
	rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE, NULL);
	return ret;
}

static void neigh_roce_v2_dmac(struct kunit *test)
{
	struct net_device *ndev0, *ndev1;
	struct tdev_params p = { .name = "ktneigh%d",
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td;
	struct ib_pd *pd;
	struct net *ns;
	u8 mac[ETH_ALEN], hop = 0;
	int i, slot;

	neigh_down();
	for (i = 0; i < ARRAY_SIZE(neigh_up); i++)
		KUNIT_ASSERT_EQ(test, tnet_ip("%s", neigh_up[i]), 0);
	ns = tnet_netns("ktneigh");
	KUNIT_ASSERT_FALSE(test, IS_ERR(ns));
	ndev0 = tnet_dev(&init_net, "ktn0");
	ndev1 = tnet_dev(ns, "ktn1");
	put_net(ns);
	KUNIT_ASSERT_NOT_NULL(test, ndev0);
	KUNIT_ASSERT_NOT_NULL(test, ndev1);
	p.ndev = ndev0;
	td = tk_dev(test, &p);
	pd = ib_alloc_pd(&td->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_ASSERT_TRUE(test, tk_wait_for((slot = neigh_v2_slot(&td->ibdev,
						htonl(0x0a4c0001))) >= 0));

	/* The peer: its MAC after ARP, the route's hop limit */
	KUNIT_EXPECT_EQ(test, neigh_user_ah(test, pd, slot, htonl(0x0a4c0002),
					    mac, &hop), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, ndev1->dev_addr));
	KUNIT_EXPECT_EQ(test, hop, 64);
	/* The port's own address: its own MAC */
	KUNIT_EXPECT_EQ(test, neigh_user_ah(test, pd, slot, htonl(0x0a4c0001),
					    mac, &hop), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, ndev0->dev_addr));
	/* Bad input: nobody answers for the destination */
	KUNIT_EXPECT_EQ(test, neigh_user_ah(test, pd, slot, htonl(0x0a4c0009),
					    mac, &hop), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);

	ib_dealloc_pd(pd);
	tdev_destroy(td);
	dev_put(ndev1);
	dev_put(ndev0);
	neigh_down();
}

static struct kunit_case neigh_cases[] = {
	KUNIT_CASE(neigh_roce_v2_dmac),
	{}
};

static struct kunit_suite neigh_suite = {
	.name = "rdma_core_neigh",
	.test_cases = neigh_cases,
};

kunit_test_suites(&neigh_suite);
