// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_ah: hw/rxe/av.c and ah.c, address vectors from
 * RoCE v2 attributes (IPv4 and IPv6, what is refused) and address
 * handles' numbers (non-zero, unique, given back), in atomic context as
 * ULPs make them.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/inet.h>
#include "ah.h"
#include "dev.h"

static struct sr_dev *at_dev(struct kunit *test)
{
	struct sr_dev *sdev;

	if (!test->priv) {
		sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, sdev);
		xa_init_flags(&sdev->ahs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
		test->priv = sdev;
	}
	return test->priv;
}

/* A RoCE v2 source GID of @addr ("10.0.0.1" or "fe80::1"). */
static struct ib_gid_attr *at_sgid(struct kunit *test, const char *addr)
{
	struct ib_gid_attr *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	struct net_device *ndev = kunit_kzalloc(test, sizeof(*ndev),
						GFP_KERNEL);
	__be32 v4;

	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	ndev->ifindex = 7;
	RCU_INIT_POINTER(g->ndev, ndev);
	g->gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP;
	g->index = 3;
	if (in4_pton(addr, -1, (u8 *)&v4, -1, NULL))
		ipv6_addr_set_v4mapped(v4, (struct in6_addr *)g->gid.raw);
	else
		KUNIT_ASSERT_EQ(test, in6_pton(addr, -1, g->gid.raw, -1, NULL),
				1);
	return g;
}

static void at_attr(struct kunit *test, struct rdma_ah_attr *a,
		    const struct ib_gid_attr *sgid, const char *dst)
{
	struct ib_gid_attr *d = at_sgid(test, dst);
	static const u8 mac[ETH_ALEN] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };

	memset(a, 0, sizeof(*a));
	a->type = RDMA_AH_ATTR_TYPE_ROCE;
	a->ah_flags = IB_AH_GRH;
	a->grh.dgid = d->gid;
	a->grh.sgid_attr = sgid;
	a->grh.sgid_index = sgid->index;
	a->grh.flow_label = 0x12345;
	a->grh.traffic_class = 0x88;
	a->grh.hop_limit = 17;
	memcpy(a->roce.dmac, mac, ETH_ALEN);
}

static void at_av(struct kunit *test)
{
	struct ib_gid_attr *v4 = at_sgid(test, "10.11.0.1");
	struct ib_gid_attr *v6 = at_sgid(test, "fe80::1");
	struct ib_gid_attr *nodev;
	struct rdma_ah_attr a;
	struct sr_av av;

	at_attr(test, &a, v4, "10.11.0.2");
	KUNIT_ASSERT_EQ(test, sr_av_from_attr(&av, &a), 0);
	KUNIT_EXPECT_EQ(test, av.net, RDMA_NETWORK_IPV4);
	KUNIT_EXPECT_EQ(test, ntohl(av.saddr.s6_addr32[3]), 0x0a0b0001);
	KUNIT_EXPECT_EQ(test, ntohl(av.daddr.s6_addr32[3]), 0x0a0b0002);
	KUNIT_EXPECT_EQ(test, av.flow_label, 0x12345);
	KUNIT_EXPECT_EQ(test, av.traffic_class, 0x88);
	KUNIT_EXPECT_EQ(test, av.hop_limit, 17);
	KUNIT_EXPECT_EQ(test, av.sgid_index, 3);
	KUNIT_EXPECT_EQ(test, av.ifindex, 7);
	KUNIT_EXPECT_EQ(test, av.dmac[5], 0x56);

	at_attr(test, &a, v6, "fe80::2");
	KUNIT_ASSERT_EQ(test, sr_av_from_attr(&av, &a), 0);
	KUNIT_EXPECT_EQ(test, av.net, RDMA_NETWORK_IPV6);
	KUNIT_EXPECT_EQ(test, av.daddr.s6_addr[15], 2);
	KUNIT_EXPECT_EQ(test, av.saddr.s6_addr[0], 0xfe);

	/* Refused: mixed families, no GRH, no source GID, RoCE v1, IB */
	at_attr(test, &a, v4, "fe80::2");
	KUNIT_EXPECT_EQ(test, sr_av_from_attr(&av, &a), -EINVAL);
	at_attr(test, &a, v6, "10.11.0.2");
	KUNIT_EXPECT_EQ(test, sr_av_from_attr(&av, &a), -EINVAL);
	at_attr(test, &a, v4, "10.11.0.2");
	a.ah_flags = 0;
	KUNIT_EXPECT_EQ(test, sr_av_from_attr(&av, &a), -EINVAL);
	at_attr(test, &a, v4, "10.11.0.2");
	a.grh.sgid_attr = NULL;
	KUNIT_EXPECT_EQ(test, sr_av_from_attr(&av, &a), -EINVAL);
	at_attr(test, &a, v4, "10.11.0.2");
	a.type = RDMA_AH_ATTR_TYPE_IB;
	KUNIT_EXPECT_EQ(test, sr_av_from_attr(&av, &a), -EINVAL);
	/* A source GID whose netdev is gone */
	nodev = at_sgid(test, "10.11.0.1");
	RCU_INIT_POINTER(nodev->ndev, NULL);
	at_attr(test, &a, nodev, "10.11.0.2");
	KUNIT_EXPECT_EQ(test, sr_av_from_attr(&av, &a), -ENODEV);
	/* RoCE v1 source GIDs, over both families' addresses */
	v4->gid_type = IB_GID_TYPE_ROCE;
	at_attr(test, &a, v4, "10.11.0.2");
	KUNIT_EXPECT_EQ(test, sr_av_from_attr(&av, &a), -EINVAL);
	v6->gid_type = IB_GID_TYPE_ROCE;
	at_attr(test, &a, v6, "fe80::2");
	KUNIT_EXPECT_EQ(test, sr_av_from_attr(&av, &a), -EINVAL);
}

/* An AH's memory, as the core allocates it before create_ah. */
static struct sr_ah *at_alloc(struct kunit *test)
{
	struct sr_ah *ah = kunit_kzalloc(test, sizeof(*ah), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ah);
	ah->ibah.device = &at_dev(test)->ibdev;
	return ah;
}

static int at_create(struct sr_ah *ah, struct rdma_ah_attr *a, u32 flags)
{
	struct rdma_ah_init_attr init = { .ah_attr = a, .flags = flags };

	return sr_create_ah(&ah->ibah, &init, NULL);
}

/* Numbers: non-zero, unique, in the table until the AH goes. */
static void at_numbers(struct kunit *test)
{
	struct ib_gid_attr *v4 = at_sgid(test, "10.11.0.1");
	struct sr_dev *sdev = at_dev(test);
	struct sr_ah *ah[40];
	struct rdma_ah_attr a;
	int err, i, j;

	at_attr(test, &a, v4, "10.11.0.2");
	for (i = 0; i < ARRAY_SIZE(ah); i++) {
		ah[i] = at_alloc(test);
		/* Half of them as a ULP in atomic context makes them */
		if (i & 1) {
			local_bh_disable();
			err = at_create(ah[i], &a, 0);
			local_bh_enable();
		} else {
			err = at_create(ah[i], &a, RDMA_CREATE_AH_SLEEPABLE);
		}
		KUNIT_ASSERT_EQ(test, err, 0);
		KUNIT_EXPECT_NE(test, ah[i]->num, 0);
		KUNIT_EXPECT_LE(test, ah[i]->num, SR_MAX_AH);
		KUNIT_EXPECT_PTR_EQ(test, xa_load(&sdev->ahs, ah[i]->num),
				    (void *)ah[i]->path);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, ah[i]->num, ah[j]->num);
	}
	for (i = 0; i < ARRAY_SIZE(ah); i++) {
		KUNIT_EXPECT_EQ(test, sr_destroy_ah(&ah[i]->ibah, 0), 0);
		KUNIT_EXPECT_NULL(test, xa_load(&sdev->ahs, ah[i]->num));
	}
	KUNIT_EXPECT_TRUE(test, xa_empty(&sdev->ahs));

	/* A refused AH takes no number */
	a.ah_flags = 0;
	KUNIT_EXPECT_EQ(test, at_create(at_alloc(test), &a, 0), -EINVAL);
	KUNIT_EXPECT_TRUE(test, xa_empty(&sdev->ahs));
}

/* The data path's reading: by number, for the AH's PD only, until gone. */
static void at_read(struct kunit *test)
{
	struct ib_gid_attr *v6 = at_sgid(test, "fe80::1");
	struct sr_dev *sdev = at_dev(test);
	struct ib_pd pd = {}, other = {};
	struct sr_ah *ah = at_alloc(test);
	struct rdma_ah_attr a;
	struct sr_av av;
	u32 num;

	at_attr(test, &a, v6, "fe80::2");
	ah->ibah.pd = &pd;
	KUNIT_ASSERT_EQ(test, at_create(ah, &a, 0), 0);
	num = ah->num;
	memset(&av, 0, sizeof(av));
	KUNIT_EXPECT_EQ(test, sr_ah_read(sdev, num, &pd, &av), 0);
	KUNIT_EXPECT_EQ(test, av.net, RDMA_NETWORK_IPV6);
	KUNIT_EXPECT_EQ(test, av.daddr.s6_addr[15], 2);
	KUNIT_EXPECT_EQ(test, av.flow_label, 0x12345);
	KUNIT_EXPECT_EQ(test, av.ifindex, 7);
	/* Another PD's QP, numbers never given, a destroyed AH */
	KUNIT_EXPECT_EQ(test, sr_ah_read(sdev, num, &other, &av), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_ah_read(sdev, 0, &pd, &av), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_ah_read(sdev, num + 1, &pd, &av), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_ah_read(sdev, U32_MAX, &pd, &av), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_destroy_ah(&ah->ibah, 0), 0);
	KUNIT_EXPECT_EQ(test, sr_ah_read(sdev, num, &pd, &av), -EINVAL);
}

static struct kunit_case at_cases[] = {
	KUNIT_CASE(at_av),
	KUNIT_CASE(at_numbers),
	KUNIT_CASE(at_read),
	{}
};

static struct kunit_suite at_suite = {
	.name = "rdma_rxe_ah",
	.test_cases = at_cases,
};
kunit_test_suite(at_suite);
