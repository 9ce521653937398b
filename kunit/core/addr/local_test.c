// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_addr_local: core/addr/local.c, the host's side of
 * an address: rdma_addr_size() and its two bounded forms,
 * rdma_copy_src_l2_addr() and rdma_translate_ip(), on the veth pair of
 * topo.h (one end in a namespace of its own).
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <rdma/ib.h>
#include "core/addr.h"
#include "topo.h"

static void addr_size_families(struct kunit *test)
{
	struct sockaddr_storage ss = {};
	struct sockaddr *sa = (struct sockaddr *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	struct __kernel_sockaddr_storage *kss = (void *)&ss;

	ss.ss_family = AF_INET;
	KUNIT_EXPECT_EQ(test, rdma_addr_size(sa), (int)sizeof(struct sockaddr_in));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(in6), (int)sizeof(struct sockaddr_in));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(kss), (int)sizeof(struct sockaddr_in));
	ss.ss_family = AF_INET6;
	KUNIT_EXPECT_EQ(test, rdma_addr_size(sa), (int)sizeof(struct sockaddr_in6));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(in6), (int)sizeof(struct sockaddr_in6));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(kss), (int)sizeof(struct sockaddr_in6));
	/* AF_IB fits a sockaddr_storage, not a sockaddr_in6 */
	ss.ss_family = AF_IB;
	KUNIT_EXPECT_EQ(test, rdma_addr_size(sa), (int)sizeof(struct sockaddr_ib));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(in6), 0);
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(kss), (int)sizeof(struct sockaddr_ib));
	/* Bad input: families RDMA has no address of */
	ss.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, rdma_addr_size(sa), 0);
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(in6), 0);
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(kss), 0);
	ss.ss_family = AF_UNIX;
	KUNIT_EXPECT_EQ(test, rdma_addr_size(sa), 0);
	ss.ss_family = AF_MAX + 7;
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(kss), 0);
}

/* Every byte set, so that what is not written shows */
static void local_dirty(struct rdma_dev_addr *a, struct net *net)
{
	memset(a, 0xaa, sizeof(*a));
	a->net = net;
	a->bound_dev_if = 0;
}

static void expect_l2_of(struct kunit *test, const struct rdma_dev_addr *a,
			 const struct net_device *dev, const u8 *mac)
{
	static const u8 zero[MAX_ADDR_LEN - ETH_ALEN];

	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a->src_dev_addr, mac));
	KUNIT_EXPECT_EQ(test, memcmp(a->src_dev_addr + ETH_ALEN, zero,
				     sizeof(zero)), 0);
	KUNIT_EXPECT_TRUE(test, is_broadcast_ether_addr(a->broadcast));
	KUNIT_EXPECT_EQ(test, a->dev_type, (unsigned short)ARPHRD_ETHER);
	KUNIT_EXPECT_EQ(test, a->bound_dev_if, dev->ifindex);
}

static void copy_src_l2(struct kunit *test)
{
	struct rdma_dev_addr a;

	local_dirty(&a, &init_net);
	rdma_copy_src_l2_addr(&a, topo.dev0);
	expect_l2_of(test, &a, topo.dev0, topo.mac0);
	/* What is not the source's stays the caller's */
	KUNIT_EXPECT_EQ(test, a.dst_dev_addr[0], 0xaa);
	KUNIT_EXPECT_PTR_EQ(test, a.net, &init_net);

	rdma_copy_src_l2_addr(&a, init_net.loopback_dev);
	KUNIT_EXPECT_EQ(test, a.dev_type, (unsigned short)ARPHRD_LOOPBACK);
	KUNIT_EXPECT_EQ(test, a.bound_dev_if, LOOPBACK_IFINDEX);
	KUNIT_EXPECT_TRUE(test, is_zero_ether_addr(a.src_dev_addr));
}

static int translate(struct kunit *test, const char *text,
		     struct rdma_dev_addr *a)
{
	union topo_sa sa;

	topo_sa(test, &sa, text);
	return rdma_translate_ip(&sa.sa, a);
}

static void translate_ip_local(struct kunit *test)
{
	struct rdma_dev_addr a;

	local_dirty(&a, &init_net);
	KUNIT_EXPECT_EQ(test, translate(test, "10.71.0.1", &a), 0);
	expect_l2_of(test, &a, topo.dev0, topo.mac0);
	local_dirty(&a, &init_net);
	KUNIT_EXPECT_EQ(test, translate(test, "fd71::1", &a), 0);
	expect_l2_of(test, &a, topo.dev0, topo.mac0);
	local_dirty(&a, &init_net);
	KUNIT_EXPECT_EQ(test, translate(test, "fe80::71:1", &a), 0);
	expect_l2_of(test, &a, topo.dev0, topo.mac0);
	local_dirty(&a, &init_net);
	KUNIT_EXPECT_EQ(test, translate(test, "127.0.0.1", &a), 0);
	KUNIT_EXPECT_EQ(test, a.dev_type, (unsigned short)ARPHRD_LOOPBACK);
	KUNIT_EXPECT_EQ(test, a.bound_dev_if, LOOPBACK_IFINDEX);
}

/* The address is looked for in the rdma_dev_addr's namespace only */
static void translate_ip_netns(struct kunit *test)
{
	struct rdma_dev_addr a;

	local_dirty(&a, topo.ns);
	KUNIT_EXPECT_EQ(test, translate(test, "10.71.0.2", &a), 0);
	expect_l2_of(test, &a, topo.dev1, topo.mac1);
	local_dirty(&a, topo.ns);
	KUNIT_EXPECT_EQ(test, translate(test, "fd71::2", &a), 0);
	expect_l2_of(test, &a, topo.dev1, topo.mac1);
	/* Not this namespace's */
	local_dirty(&a, &init_net);
	KUNIT_EXPECT_EQ(test, translate(test, "10.71.0.2", &a), -EADDRNOTAVAIL);
	local_dirty(&a, topo.ns);
	KUNIT_EXPECT_EQ(test, translate(test, "10.71.0.1", &a), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, translate(test, "fd71::1", &a), -EADDRNOTAVAIL);
}

/* A bound interface wins over the address, whatever it is */
static void translate_ip_bound(struct kunit *test)
{
	struct sockaddr_storage any = { .ss_family = AF_IB };
	struct rdma_dev_addr a;

	local_dirty(&a, &init_net);
	a.bound_dev_if = topo.dev0->ifindex;
	KUNIT_EXPECT_EQ(test, translate(test, "10.99.0.1", &a), 0);
	expect_l2_of(test, &a, topo.dev0, topo.mac0);
	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&any, &a), 0);
	/* Bad input: an interface index nothing has */
	local_dirty(&a, &init_net);
	a.bound_dev_if = 0x7ffffff0;
	KUNIT_EXPECT_EQ(test, translate(test, "10.71.0.1", &a), -ENODEV);
	KUNIT_EXPECT_EQ(test, a.dst_dev_addr[0], 0xaa);
}

/* Bad input: addresses no netdev has, families that are not IP */
static void translate_ip_unknown(struct kunit *test)
{
	struct sockaddr_storage ss = {};
	struct rdma_dev_addr a;

	local_dirty(&a, &init_net);
	KUNIT_EXPECT_EQ(test, translate(test, "10.99.0.1", &a), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, translate(test, "fd99::1", &a), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, translate(test, "0.0.0.0", &a), -EADDRNOTAVAIL);
	ss.ss_family = AF_IB;
	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&ss, &a),
			-EADDRNOTAVAIL);
	ss.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&ss, &a),
			-EADDRNOTAVAIL);
	/* Nothing written */
	KUNIT_EXPECT_EQ(test, a.src_dev_addr[0], 0xaa);
	KUNIT_EXPECT_EQ(test, a.bound_dev_if, 0);
}

static struct kunit_case addr_local_cases[] = {
	KUNIT_CASE(addr_size_families),
	KUNIT_CASE(copy_src_l2),
	KUNIT_CASE(translate_ip_local),
	KUNIT_CASE(translate_ip_netns),
	KUNIT_CASE(translate_ip_bound),
	KUNIT_CASE(translate_ip_unknown),
	{}
};

static struct kunit_suite addr_local_suite = {
	.name = "rdma_core_addr_local",
	.suite_init = topo_up,
	.suite_exit = topo_down,
	.test_cases = addr_local_cases,
};

kunit_test_suites(&addr_local_suite);
