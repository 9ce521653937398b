// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_addr_route: core/addr/route.c through
 * rdma_resolve_ip() on the network of topo.h: IPv6 (global and link-local
 * with scope ids), the loopback address and the host's own addresses,
 * destinations behind a gateway (RoCE v2 networks), the source address
 * and the bound interface.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include "tnet.h"
#include "topo.h"

/* Resolve @dst from @src in init_net; the status of the callback */
static int route_run(struct kunit *test, const char *src, const char *dst,
		     struct rdma_dev_addr *a, struct topo_rec *rec)
{
	int ret;

	topo_rec_init(rec);
	ret = topo_resolve(test, src, dst, a, 5000, rec);
	if (ret)
		return ret;
	if (!topo_rec_done(test, rec, a))
		return -ETIME;
	return rec->status;
}

static void route_ipv6(struct kunit *test)
{
	struct rdma_dev_addr a;
	struct topo_rec rec;
	union topo_sa want;

	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, route_run(test, NULL, "fd71::2", &a, &rec), 0);
	topo_sa(test, &want, "fd71::1");
	KUNIT_EXPECT_EQ(test, rec.src.in6.sin6_family, AF_INET6);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&rec.src.in6.sin6_addr,
						&want.in6.sin6_addr));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac1));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.src_dev_addr, topo.mac0));
	KUNIT_EXPECT_EQ(test, a.network, RDMA_NETWORK_IB);
	KUNIT_EXPECT_EQ(test, a.hoplimit, 64);
	/* From the other namespace */
	topo_dev_addr(&a, topo.ns);
	KUNIT_ASSERT_EQ(test, route_run(test, "fd71::2", "fd71::1", &a, &rec), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac0));
}

static void route_ipv6_link_local(struct kunit *test)
{
	struct rdma_dev_addr a;
	struct topo_rec rec;
	char dst[48];

	/* The destination's scope id names the interface */
	snprintf(dst, sizeof(dst), "fe80::71:2%%%d", topo.dev0->ifindex);
	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, route_run(test, NULL, dst, &a, &rec), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac1));
	KUNIT_EXPECT_EQ(test, a.bound_dev_if, topo.dev0->ifindex);
	/* The source picked is link-local too, with the interface's scope */
	KUNIT_EXPECT_TRUE(test, ipv6_addr_type(&rec.src.in6.sin6_addr) &
				IPV6_ADDR_LINKLOCAL);
	KUNIT_EXPECT_EQ(test, rec.src.in6.sin6_scope_id,
			(u32)topo.dev0->ifindex);
	/* ... or the bound interface does */
	topo_dev_addr(&a, &init_net);
	a.bound_dev_if = topo.dev0->ifindex;
	KUNIT_EXPECT_EQ(test, route_run(test, NULL, "fe80::71:2", &a, &rec), 0);
	/* ... or the source's scope id */
	snprintf(dst, sizeof(dst), "fe80::71:1%%%d", topo.dev0->ifindex);
	topo_dev_addr(&a, &init_net);
	KUNIT_EXPECT_EQ(test, route_run(test, dst, "fe80::71:2", &a, &rec), 0);

	/* Bad input: no interface at all, or two that disagree */
	topo_dev_addr(&a, &init_net);
	KUNIT_EXPECT_EQ(test, route_run(test, NULL, "fe80::71:2", &a, &rec),
			-EINVAL);
	snprintf(dst, sizeof(dst), "fe80::71:2%%%d", topo.dev0->ifindex);
	a.bound_dev_if = LOOPBACK_IFINDEX;
	KUNIT_EXPECT_EQ(test, route_run(test, NULL, dst, &a, &rec), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 0);
}

/* The loopback address: the loopback netdev, its own destination */
static void route_loopback(struct kunit *test)
{
	struct rdma_dev_addr a;
	struct topo_rec rec;

	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, route_run(test, NULL, "127.0.0.1", &a, &rec), 0);
	KUNIT_EXPECT_EQ(test, a.dev_type, (unsigned short)ARPHRD_LOOPBACK);
	KUNIT_EXPECT_EQ(test, a.bound_dev_if, LOOPBACK_IFINDEX);
	KUNIT_EXPECT_EQ(test, memcmp(a.dst_dev_addr, a.src_dev_addr,
				     MAX_ADDR_LEN), 0);
	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, route_run(test, NULL, "::1", &a, &rec), 0);
	KUNIT_EXPECT_EQ(test, a.dev_type, (unsigned short)ARPHRD_LOOPBACK);
}

/*
 * An address of this host: the netdev that has it sends, to itself; the
 * bound interface when there is one.
 */
static void route_own_address(struct kunit *test)
{
	static const char * const own[] = { "10.71.0.1", "fd71::1" };
	struct rdma_dev_addr a;
	struct topo_rec rec;
	int i;

	for (i = 0; i < ARRAY_SIZE(own); i++) {
		topo_dev_addr(&a, &init_net);
		KUNIT_ASSERT_EQ(test, route_run(test, NULL, own[i], &a, &rec), 0);
		KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.src_dev_addr, topo.mac0));
		KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac0));
		KUNIT_EXPECT_EQ(test, a.bound_dev_if, topo.dev0->ifindex);
		KUNIT_EXPECT_EQ(test, a.dev_type, (unsigned short)ARPHRD_ETHER);
	}
	topo_dev_addr(&a, topo.ns);
	KUNIT_ASSERT_EQ(test, route_run(test, NULL, "10.71.0.2", &a, &rec), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac1));
}

/*
 * Behind a gateway: the gateway's MAC, and an IP network (RoCE v2 only,
 * RoCE v1 is not routable).
 */
static void route_gateway(struct kunit *test)
{
	struct rdma_dev_addr a;
	struct topo_rec rec;

	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, route_run(test, NULL, "10.72.0.5", &a, &rec), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac1));
	KUNIT_EXPECT_EQ(test, a.network, RDMA_NETWORK_IPV4);
	KUNIT_EXPECT_EQ(test, rec.src.in.sin_addr.s_addr, htonl(0x0a470001));
	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, route_run(test, NULL, "fd72::5", &a, &rec), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac1));
	KUNIT_EXPECT_EQ(test, a.network, RDMA_NETWORK_IPV6);
}

/* The caller's source address and bound interface are kept */
static void route_source_and_bound(struct kunit *test)
{
	struct rdma_dev_addr a;
	struct topo_rec rec;

	KUNIT_ASSERT_EQ(test, tnet_ip("addr add 10.71.0.3/24 dev " TOPO_DEV0), 0);
	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, route_run(test, "10.71.0.3", "10.71.0.2", &a, &rec), 0);
	KUNIT_EXPECT_EQ(test, rec.src.in.sin_addr.s_addr, htonl(0x0a470003));
	topo_dev_addr(&a, &init_net);
	a.bound_dev_if = topo.dev0->ifindex;
	KUNIT_ASSERT_EQ(test, route_run(test, NULL, "10.71.0.2", &a, &rec), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac1));
	/* Bad input: a bound interface that does not exist */
	topo_dev_addr(&a, &init_net);
	a.bound_dev_if = 0x7ffffff0;
	KUNIT_EXPECT_EQ(test, route_run(test, NULL, "10.71.0.2", &a, &rec),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, tnet_ip("addr del 10.71.0.3/24 dev " TOPO_DEV0), 0);
}

static struct kunit_case addr_route_cases[] = {
	KUNIT_CASE(route_ipv6),
	KUNIT_CASE(route_ipv6_link_local),
	KUNIT_CASE(route_loopback),
	KUNIT_CASE(route_own_address),
	KUNIT_CASE(route_gateway),
	KUNIT_CASE(route_source_and_bound),
	{}
};

static struct kunit_suite addr_route_suite = {
	.name = "rdma_core_addr_route",
	.suite_init = topo_up,
	.suite_exit = topo_down,
	.test_cases = addr_route_cases,
};

kunit_test_suites(&addr_route_suite);
