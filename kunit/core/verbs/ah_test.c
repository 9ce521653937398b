// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_ah: core/verbs/ah.c, address handles and the GID
 * references of address vectors: creating, querying and destroying AHs,
 * copying, moving and replacing vectors, and vectors made from a
 * completion.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <rdma/ib_cache.h>
#include "tk.h"
#include "vk.h"

static void vk_ib_av(struct rdma_ah_attr *a, bool grh, u8 sgid_index)
{
	memset(a, 0, sizeof(*a));
	a->type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(a, 1);
	rdma_ah_set_dlid(a, 7);
	rdma_ah_set_sl(a, 2);
	if (grh) {
		rdma_ah_set_ah_flags(a, IB_AH_GRH);
		a->grh.sgid_index = sgid_index;
		a->grh.hop_limit = 64;
	}
}

static void ah_create_no_grh(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a, q;
	struct ib_ah *ah;

	vk_ib_av(&a, false, 0);
	ah = rdma_create_ah(v->pd, &a, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_PTR_EQ(test, ah->pd, v->pd);
	KUNIT_EXPECT_EQ(test, ah->type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 1);
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &q), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&q), 7U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&q), 2);
	/* A driver without modify_ah cannot change it */
	v->dev->ops.modify_ah = NULL;
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &a), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

static void ah_create_grh_holds_gid(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a, q;
	union ib_gid gid;
	struct ib_ah *ah;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(v->dev, 1, 0, &gid), 0);
	vk_ib_av(&a, true, 0);
	ah = rdma_create_ah(v->pd, &a, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_ASSERT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, ah->sgid_attr->index, 0U);
	KUNIT_EXPECT_EQ(test, memcmp(&ah->sgid_attr->gid, &gid, sizeof(gid)), 0);
	/* The caller's vector holds no reference afterwards */
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &q), 0);
	KUNIT_EXPECT_PTR_EQ(test, q.grh.sgid_attr, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, 0, NULL), 0);
}

static void ah_create_bad(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a;

	vk_ib_av(&a, true, 15);		/* an empty GID slot */
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_create_ah(v->pd, &a, 0)));
	vk_ib_av(&a, true, 200);	/* beyond the table */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(v->pd, &a, 0)), -EINVAL);
	vk_ib_av(&a, false, 0);
	a.type = RDMA_AH_ATTR_TYPE_ROCE;	/* RoCE needs a GRH */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(v->pd, &a, 0)), -EINVAL);
	vk_ib_av(&a, false, 0);
	rdma_ah_set_port_num(&a, 3);	/* the driver checks the port */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(v->pd, &a, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

static void ah_caller_sgid_attr_checked(struct kunit *test)
{
	struct vk *v = test->priv;
	const struct ib_gid_attr *g = rdma_get_gid_attr(v->dev, 1, 0);
	struct rdma_ah_attr a;
	struct ib_ah *ah;

	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	vk_ib_av(&a, true, 0);
	a.grh.sgid_attr = g;
	ah = rdma_create_ah(v->pd, &a, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_PTR_EQ(test, ah->sgid_attr, g);
	/* The caller's reference is still the caller's */
	KUNIT_EXPECT_PTR_EQ(test, a.grh.sgid_attr, g);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, 0, NULL), 0);
	/* A GID attribute that is not the slot the vector names */
	a.grh.sgid_index = 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(v->pd, &a, 0)), -EINVAL);
	rdma_destroy_ah_attr(&a);
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);
}

static void ah_attr_copy_move_replace(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a, b, c;
	const struct ib_gid_attr *g = rdma_get_gid_attr(v->dev, 1, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	vk_ib_av(&a, true, 0);
	a.grh.sgid_attr = g;			/* a owns one reference */

	rdma_copy_ah_attr(&b, &a);		/* b owns another */
	KUNIT_EXPECT_PTR_EQ(test, b.grh.sgid_attr, g);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&b), 7U);

	vk_ib_av(&c, false, 0);
	rdma_ah_set_dlid(&c, 9);
	rdma_replace_ah_attr(&b, &c);		/* drops b's, c has none */
	KUNIT_EXPECT_NULL(test, b.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&b), 9U);

	rdma_replace_ah_attr(&b, &a);		/* b owns one again */
	KUNIT_EXPECT_PTR_EQ(test, b.grh.sgid_attr, g);

	rdma_move_ah_attr(&c, &b);		/* moves b's to c */
	KUNIT_EXPECT_PTR_EQ(test, c.grh.sgid_attr, g);
	KUNIT_EXPECT_NULL(test, b.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&c), 7U);

	rdma_move_ah_attr(&c, &a);		/* drops c's, takes a's */
	KUNIT_EXPECT_PTR_EQ(test, c.grh.sgid_attr, g);
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);

	rdma_destroy_ah_attr(&c);		/* the last reference */
	KUNIT_EXPECT_NULL(test, c.grh.sgid_attr);
	rdma_destroy_ah_attr(&c);		/* harmless twice */
	rdma_destroy_ah_attr(&b);
	/* KASAN/kmemleak see an unbalanced count at device teardown */
}

/* rdma_modify_ah() gives the AH a new vector, and its GID reference. */
static void ah_modify(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a, q;
	struct ib_ah *ah;

	vk_ib_av(&a, false, 0);
	ah = rdma_create_ah(v->pd, &a, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_NULL(test, ah->sgid_attr);

	vk_ib_av(&a, true, 0);
	rdma_ah_set_dlid(&a, 9);
	KUNIT_ASSERT_EQ(test, rdma_modify_ah(ah, &a), 0);
	KUNIT_ASSERT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, ah->sgid_attr->index, 0U);
	/* The caller's vector holds no reference afterwards */
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &q), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&q), 9U);
	KUNIT_EXPECT_PTR_EQ(test, q.grh.sgid_attr, ah->sgid_attr);

	/* Back to no GRH: the reference goes */
	vk_ib_av(&a, false, 0);
	KUNIT_ASSERT_EQ(test, rdma_modify_ah(ah, &a), 0);
	KUNIT_EXPECT_NULL(test, ah->sgid_attr);

	/* Bad input: another AV type, an empty GID slot; nothing changes */
	a.type = RDMA_AH_ATTR_TYPE_ROCE;
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &a), -EINVAL);
	vk_ib_av(&a, true, 15);
	KUNIT_EXPECT_LT(test, rdma_modify_ah(ah, &a), 0);
	KUNIT_EXPECT_NULL(test, ah->sgid_attr);
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &q), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&q), 7U);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE,
						   NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

/*
 * Replacing a vector with one that names the same GID entry, when the
 * vector being replaced holds the entry's last reference (its device is
 * gone): the new reference is taken before the old one is dropped.
 */
static void ah_replace_same_gid_last_reference(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktrep%d");
	const struct ib_gid_attr *g = rdma_get_gid_attr(&td->ibdev, 1, 0);
	__be64 guid = td->ibdev.node_guid;
	struct rdma_ah_attr a, b;

	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	vk_ib_av(&a, true, 0);
	a.grh.sgid_attr = g;			/* a owns the only reference */
	tdev_destroy(td);			/* the table's goes */
	b = a;					/* b names g, owns nothing */
	rdma_replace_ah_attr(&a, &b);
	KUNIT_ASSERT_PTR_EQ(test, a.grh.sgid_attr, g);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(g->gid.global.interface_id),
			be64_to_cpu(guid));
	rdma_destroy_ah_attr(&a);		/* the last reference */
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);
}

/* A RoCE vector from source GID 0 of port 1 to @dgid */
static void vk_roce_av(struct rdma_ah_attr *a, u64 prefix, u64 iid)
{
	memset(a, 0, sizeof(*a));
	a->type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(a, 1);
	rdma_ah_set_ah_flags(a, IB_AH_GRH);
	a->grh.hop_limit = 64;
	a->grh.dgid.global.subnet_prefix = cpu_to_be64(prefix);
	a->grh.dgid.global.interface_id = cpu_to_be64(iid);
}

static struct ib_ah *ah_query_dmac(struct kunit *test, struct ib_ah *ah,
				   u8 *mac)
{
	struct rdma_ah_attr q;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &q), 0);
	memcpy(mac, q.roce.dmac, ETH_ALEN);
	return ah;
}

/*
 * rdma_create_user_ah() resolves a RoCE vector's destination MAC from its
 * GID (link-local: from the GID; multicast: the group's MAC; else by the
 * route and neighbour); rdma_create_ah() takes a kernel caller's as given.
 */
static void ah_create_user_roce_dmac(struct kunit *test)
{
	static const u8 ll_mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	static const u8 mc_mac[ETH_ALEN] = { 0x33, 0x33, 0x00, 0x03, 0x00, 0x04 };
	const struct tdev_params params = { .roce = true };
	struct ib_udata udata = {};
	struct rdma_ah_attr a;
	struct vk *v;
	u8 mac[ETH_ALEN];

	vk_reinit(test, &params);
	v = test->priv;

	vk_roce_av(&a, 0xfe80000000000000ULL, 0x001122fffe334455ULL);
	rdma_destroy_ah_user(ah_query_dmac(test, rdma_create_user_ah(v->pd, &a, &udata), mac),
			     RDMA_DESTROY_AH_SLEEPABLE, NULL);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal_unaligned(mac, ll_mac));

	vk_roce_av(&a, 0xff0e000000000000ULL, 0x0000000100030004ULL);
	rdma_destroy_ah_user(ah_query_dmac(test, rdma_create_user_ah(v->pd, &a, &udata), mac),
			     RDMA_DESTROY_AH_SLEEPABLE, NULL);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal_unaligned(mac, mc_mac));

	/* The kernel's own AH keeps the MAC it was given */
	vk_roce_av(&a, 0xfe80000000000000ULL, 0x001122fffe334455ULL);
	eth_broadcast_addr(a.roce.dmac);
	rdma_destroy_ah_user(ah_query_dmac(test, rdma_create_ah(v->pd, &a, RDMA_CREATE_AH_SLEEPABLE), mac),
			     RDMA_DESTROY_AH_SLEEPABLE, NULL);
	KUNIT_EXPECT_TRUE(test, is_broadcast_ether_addr(mac));

	/* Bad input: no route to the destination, an empty source GID slot */
	vk_roce_av(&a, 0x20010db800000000ULL, 1);
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_create_user_ah(v->pd, &a, &udata)));
	vk_roce_av(&a, 0xfe80000000000000ULL, 0x001122fffe334455ULL);
	a.grh.sgid_index = 15;
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_create_user_ah(v->pd, &a, &udata)));
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

/*
 * rdma_move_grh_sgid_attr() sets the GRH from a held GID entry (its slot
 * is the source GID index) and hands the reference to the vector: with
 * the device gone, the vector's is the entry's last one, which
 * rdma_destroy_ah_attr() releases (kmemleak and KASAN would see a
 * reference taken or dropped twice).
 */
static void ah_move_grh_sgid_attr(struct kunit *test)
{
	struct tdev_params p = { .name = "ktmg%d", .gid_tbl_len = 4,
				 .driver_gids = true };
	struct tdev *td = tk_new_dev(test, &p);
	union ib_gid gid = { .raw = { 0xfe, 0x80, [15] = 9 } };
	union ib_gid dgid = { .raw = { 0xfe, 0x80, [15] = 7 } };
	const struct ib_gid_attr *g;
	struct rdma_ah_attr a = { .type = RDMA_AH_ATTR_TYPE_IB };
	const struct ib_global_route *grh;

	KUNIT_ASSERT_EQ(test, tdev_set_gid(td, 1, 2, &gid), 0);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	g = rdma_get_gid_attr(&td->ibdev, 1, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	rdma_move_grh_sgid_attr(&a, &dgid, 0x12345, 7, 3, g);
	grh = rdma_ah_read_grh(&a);
	KUNIT_EXPECT_TRUE(test, rdma_ah_get_ah_flags(&a) & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->dgid, &dgid, sizeof(dgid)), 0);
	KUNIT_EXPECT_EQ(test, grh->flow_label, 0x12345U);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 7);
	KUNIT_EXPECT_EQ(test, grh->traffic_class, 3);
	KUNIT_EXPECT_EQ(test, grh->sgid_index, 2);
	KUNIT_EXPECT_PTR_EQ(test, grh->sgid_attr, g);
	tdev_destroy(td);
	KUNIT_EXPECT_EQ(test, memcmp(&g->gid, &gid, sizeof(gid)), 0);
	rdma_destroy_ah_attr(&a);
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);
}

static void ah_attr_from_wc_ib(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_wc wc = { .slid = 12, .sl = 3, .dlid_path_bits = 1 };
	struct rdma_ah_attr a;

	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(v->dev, 1, &wc, NULL, &a), 0);
	KUNIT_EXPECT_EQ(test, a.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a), 12U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&a), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_path_bits(&a), 1);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&a), 1U);
	KUNIT_EXPECT_FALSE(test, rdma_ah_get_ah_flags(&a) & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(v->dev, 2, &wc, NULL, &a),
			-EINVAL);
}

static void ah_attr_from_wc_grh(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_wc wc = { .slid = 12, .wc_flags = IB_WC_GRH };
	struct ib_grh grh = {};
	struct rdma_ah_attr a;
	struct ib_ah *ah;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(v->dev, 1, 0, &grh.dgid), 0);
	grh.sgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	grh.sgid.global.interface_id = cpu_to_be64(0x1122334455667788ULL);
	grh.version_tclass_flow = cpu_to_be32(6 << 28 | 0x25 << 20 | 0xabcde);
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(v->dev, 1, &wc, &grh, &a), 0);
	KUNIT_EXPECT_TRUE(test, rdma_ah_get_ah_flags(&a) & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, memcmp(&a.grh.dgid, &grh.sgid, 16), 0);
	KUNIT_EXPECT_EQ(test, a.grh.flow_label, 0xabcdeU);
	KUNIT_EXPECT_EQ(test, a.grh.traffic_class, 0x25);
	KUNIT_ASSERT_NOT_NULL(test, a.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, a.grh.sgid_attr->index, 0U);
	KUNIT_EXPECT_EQ(test, a.grh.sgid_index, 0);
	rdma_destroy_ah_attr(&a);

	ah = ib_create_ah_from_wc(v->pd, &wc, &grh, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE, NULL), 0);

	/* A packet for a GID that is not ours */
	grh.dgid.global.interface_id ^= cpu_to_be64(1);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(v->dev, 1, &wc, &grh, &a),
			-ENOENT);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_create_ah_from_wc(v->pd, &wc, &grh, 1)));
}

static struct kunit_case ah_cases[] = {
	KUNIT_CASE(ah_create_no_grh),
	KUNIT_CASE(ah_create_grh_holds_gid),
	KUNIT_CASE(ah_create_bad),
	KUNIT_CASE(ah_caller_sgid_attr_checked),
	KUNIT_CASE(ah_attr_copy_move_replace),
	KUNIT_CASE(ah_replace_same_gid_last_reference),
	KUNIT_CASE(ah_modify),
	KUNIT_CASE(ah_create_user_roce_dmac),
	KUNIT_CASE(ah_move_grh_sgid_attr),
	KUNIT_CASE(ah_attr_from_wc_ib),
	KUNIT_CASE(ah_attr_from_wc_grh),
	{}
};

static struct kunit_suite ah_suite = {
	.name = "rdma_core_ah",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = ah_cases,
};

kunit_test_suites(&ah_suite);
