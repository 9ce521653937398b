// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_net_hdr: core/verbs/net_hdr.c, what the 40 bytes
 * of a received network header are (an IPv6 header or GRH, or an IPv4
 * header in their last 20 bytes after anything), and their GIDs.
 */
#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/checksum.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>

/* A RoCE v2 IPv4 header 10.0.0.1 -> 10.0.0.2 after @first (20 bytes) */
static void hdr_ipv4(union rdma_network_hdr *h, u8 first)
{
	struct iphdr *ip = &h->roce4grh;

	memset(h, first, sizeof(*h));
	memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons(60);
	ip->saddr = htonl(0x0a000001);
	ip->daddr = htonl(0x0a000002);
	ip->check = ip_fast_csum(ip, ip->ihl);
}

/* An IPv6 header (or GRH) fd00::1 -> fd00::2 */
static void hdr_ipv6(union rdma_network_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->ibgrh.version_tclass_flow = cpu_to_be32(6 << 28);
	h->ibgrh.next_hdr = IPPROTO_UDP;
	h->ibgrh.hop_limit = 64;
	h->ibgrh.sgid.raw[0] = 0xfd;
	h->ibgrh.sgid.raw[15] = 1;
	h->ibgrh.dgid.raw[0] = 0xfd;
	h->ibgrh.dgid.raw[15] = 2;
}

static void net_hdr_version(struct kunit *test)
{
	union rdma_network_hdr h;

	hdr_ipv4(&h, 0);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&h), 4);
	/* What precedes the IPv4 header may look like IPv6 */
	hdr_ipv4(&h, 0x60);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&h), 4);
	hdr_ipv6(&h);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&h), 6);
	/* An IPv6 header whose last 20 bytes look like IPv4 but do not sum */
	hdr_ipv4(&h, 0x60);
	h.roce4grh.check ^= htons(1);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&h), 6);
	hdr_ipv4(&h, 0x60);
	h.roce4grh.ihl = 6;
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&h), 6);
	/* Bad input: neither version */
	memset(&h, 0, sizeof(h));
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&h), 0);
	memset(&h, 0xff, sizeof(h));
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&h), 0);
}

static void net_hdr_gids(struct kunit *test)
{
	union rdma_network_hdr h;
	union ib_gid sgid, dgid;
	struct in6_addr want;

	hdr_ipv4(&h, 0x60);
	KUNIT_ASSERT_EQ(test, ib_get_gids_from_rdma_hdr(&h, RDMA_NETWORK_IPV4,
							&sgid, &dgid), 0);
	ipv6_addr_set_v4mapped(htonl(0x0a000001), &want);
	KUNIT_EXPECT_EQ(test, memcmp(&sgid, &want, 16), 0);
	ipv6_addr_set_v4mapped(htonl(0x0a000002), &want);
	KUNIT_EXPECT_EQ(test, memcmp(&dgid, &want, 16), 0);

	hdr_ipv6(&h);
	KUNIT_ASSERT_EQ(test, ib_get_gids_from_rdma_hdr(&h, RDMA_NETWORK_IPV6,
							&sgid, &dgid), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&sgid, &h.ibgrh.sgid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&dgid, &h.ibgrh.dgid, 16), 0);
	KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&h, RDMA_NETWORK_IB,
							&sgid, &dgid), 0);
	KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&h,
							RDMA_NETWORK_ROCE_V1,
							&sgid, &dgid), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&dgid, &h.ibgrh.dgid, 16), 0);
	/* Bad input: no such network type, nowhere to write */
	KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&h,
							RDMA_NETWORK_IPV6 + 1,
							&sgid, &dgid), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&h, RDMA_NETWORK_IPV6,
							NULL, &dgid), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&h, RDMA_NETWORK_IPV6,
							&sgid, NULL), -EINVAL);
}

static struct kunit_case net_hdr_cases[] = {
	KUNIT_CASE(net_hdr_version),
	KUNIT_CASE(net_hdr_gids),
	{}
};

static struct kunit_suite net_hdr_suite = {
	.name = "rdma_core_net_hdr",
	.test_cases = net_hdr_cases,
};

kunit_test_suites(&net_hdr_suite);
