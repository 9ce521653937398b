// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_sa_path: ib_init_ah_attr_from_path()
 * (core/sa/path.c), the address vector of a path: InfiniBand paths (LIDs,
 * the source path bits the port's LMC allows, a GRH when the hop limit
 * asks for one, holding its source GID) and RoCE paths, whose route is
 * checked from the source GID's netdev over a veth pair (a routed path
 * must be RoCE v2); bad input.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include "sar.h"
#include "tk.h"
#include "tnet.h"

static const char * const pt_up[] = {
	"netns add ktsapath",
	"link add ktp0 type veth peer name ktp1 netns ktsapath",
	"addr add 10.78.0.1/24 dev ktp0",
	"-n ktsapath addr add 10.78.0.2/24 dev ktp1",
	"link set ktp0 up",
	"-n ktsapath link set ktp1 up",
	"route add 10.79.0.0/24 via 10.78.0.2",
};

static void pt_down(void)
{
	tnet_ip("netns del ktsapath");
	tnet_ip("link del ktp0");
}

static void path_ib(struct kunit *test)
{
	struct sar_env *env = sar_env(test);
	struct ib_device *dev = &env->client->ibdev;
	struct sa_path_rec rec = { .rec_type = SA_PATH_REC_TYPE_IB };
	const struct ib_global_route *grh;
	struct rdma_ah_attr ah;

	rec.ib.dlid = cpu_to_be16(0x33);
	rec.ib.slid = cpu_to_be16(env->client_lid | 1);
	rec.sl = 7;
	rec.rate = IB_RATE_40_GBPS;
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_path(dev, 1, &rec, &ah,
							NULL), 0);
	KUNIT_EXPECT_EQ(test, ah.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ah), 0x33U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&ah), 7);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&ah), IB_RATE_40_GBPS);
	/* LMC 0: no source path bits */
	KUNIT_EXPECT_EQ(test, rdma_ah_get_path_bits(&ah), 0);
	KUNIT_EXPECT_FALSE(test, rdma_ah_get_ah_flags(&ah) & IB_AH_GRH);
	/* A hop limit: a GRH from the path's source GID */
	rdma_query_gid(dev, 1, 0, &rec.sgid);
	rec.dgid = rec.sgid;
	rec.dgid.raw[15] ^= 1;
	rec.hop_limit = 3;
	rec.flow_label = cpu_to_be32(0x55);
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_path(dev, 1, &rec, &ah,
							NULL), 0);
	grh = rdma_ah_read_grh(&ah);
	KUNIT_EXPECT_TRUE(test, rdma_ah_get_ah_flags(&ah) & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 3);
	KUNIT_EXPECT_EQ(test, grh->flow_label, 0x55U);
	KUNIT_EXPECT_NOT_NULL(test, grh->sgid_attr);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->dgid, &rec.dgid, 16), 0);
	rdma_destroy_ah_attr(&ah);
	/* Bad input: a source GID the port has not; a port it lacks */
	rec.sgid.raw[15] ^= 0x80;
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev, 1, &rec, &ah,
							NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev, 2, &rec, &ah,
							NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev, 0, &rec, &ah,
							NULL), -EINVAL);
	sar_env_free(env);
}

/* The slot of the RoCE v2 GID of 10.78.0.1 on @dev's port 1, or -1 */
static int pt_v2_slot(struct ib_device *dev)
{
	const struct ib_gid_attr *attr;
	union ib_gid want;
	int i, found = -1;

	ipv6_addr_set_v4mapped(htonl(0x0a4e0001), (struct in6_addr *)&want);
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

/* A RoCE path to @ip of @type from the GID entry @attr */
static int pt_roce(struct tdev *td, const struct ib_gid_attr *attr,
		   enum sa_path_rec_type type, __be32 ip,
		   struct rdma_ah_attr *ah)
{
	static const u8 dmac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x42 };
	struct sa_path_rec rec = { .rec_type = type };

	rec.sgid = attr ? attr->gid : rec.sgid;
	ipv6_addr_set_v4mapped(ip, (struct in6_addr *)&rec.dgid);
	rec.hop_limit = 64;
	sa_path_set_dmac(&rec, (u8 *)dmac);
	return ib_init_ah_attr_from_path(&td->ibdev, 1, &rec, ah, attr);
}

static void path_roce(struct kunit *test)
{
	struct tdev_params p = { .name = "ktsap%d",
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	const struct ib_gid_attr *attr;
	struct rdma_ah_attr ah;
	struct net_device *ndev;
	struct tdev *td;
	int i, slot;

	pt_down();
	for (i = 0; i < ARRAY_SIZE(pt_up); i++)
		KUNIT_ASSERT_EQ(test, tnet_ip("%s", pt_up[i]), 0);
	ndev = tnet_dev(&init_net, "ktp0");
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	p.ndev = ndev;
	td = tk_dev(test, &p);
	KUNIT_ASSERT_TRUE(test, sar_wait_for((slot = pt_v2_slot(&td->ibdev)) >= 0));
	attr = rdma_get_gid_attr(&td->ibdev, 1, slot);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));

	/* On the link: either RoCE version; the path's MAC and a GRH */
	KUNIT_EXPECT_EQ(test, pt_roce(td, attr, SA_PATH_REC_TYPE_ROCE_V2,
				      htonl(0x0a4e0002), &ah), 0);
	KUNIT_EXPECT_EQ(test, ah.type, RDMA_AH_ATTR_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, ah.roce.dmac[5], 0x42);
	KUNIT_EXPECT_PTR_EQ(test, rdma_ah_read_grh(&ah)->sgid_attr, attr);
	rdma_destroy_ah_attr(&ah);
	KUNIT_EXPECT_EQ(test, pt_roce(td, attr, SA_PATH_REC_TYPE_ROCE_V1,
				      htonl(0x0a4e0002), &ah), 0);
	rdma_destroy_ah_attr(&ah);
	/* Behind a gateway: RoCE v2 only */
	KUNIT_EXPECT_EQ(test, pt_roce(td, attr, SA_PATH_REC_TYPE_ROCE_V2,
				      htonl(0x0a4f0005), &ah), 0);
	rdma_destroy_ah_attr(&ah);
	KUNIT_EXPECT_EQ(test, pt_roce(td, attr, SA_PATH_REC_TYPE_ROCE_V1,
				      htonl(0x0a4f0005), &ah), -EINVAL);
	/* Bad input: no source GID entry; one whose address went */
	KUNIT_EXPECT_EQ(test, pt_roce(td, NULL, SA_PATH_REC_TYPE_ROCE_V2,
				      htonl(0x0a4e0002), &ah), -EINVAL);
	KUNIT_ASSERT_EQ(test, tnet_ip("addr del 10.78.0.1/24 dev ktp0"), 0);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(pt_v2_slot(&td->ibdev) < 0));
	KUNIT_EXPECT_EQ(test, pt_roce(td, attr, SA_PATH_REC_TYPE_ROCE_V2,
				      htonl(0x0a4e0002), &ah), -EINVAL);

	rdma_put_gid_attr(attr);
	tdev_destroy(td);
	dev_put(ndev);
	pt_down();
}

static struct kunit_case sa_path_cases[] = {
	KUNIT_CASE(path_ib),
	KUNIT_CASE(path_roce),
	{}
};

static struct kunit_suite sa_path_suite = {
	.name = "rdma_core_sa_path",
	.test_cases = sa_path_cases,
};

kunit_test_suites(&sa_path_suite);
