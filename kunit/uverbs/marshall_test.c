// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for ib_uverbs' marshalling helpers (uverbs/marshall.c):
 * address vectors, QP attributes and path records copied into and out of
 * the layouts of <rdma/ib_user_verbs.h> and <rdma/ib_user_sa.h>.
 *
 * Every field gets a value of its own, so that a field copied into
 * another's place shows; the destination starts filled with MR_JUNK, so
 * that a reserved byte or an unused GRH left as it was shows too.  OPA
 * vectors with an extended LID are converted with the subnet prefix of
 * the device's port: the case's device has a GID 0 of its own with the
 * prefix MR_PREFIX.
 */
#include <kunit/test.h>
#include <rdma/ib_marshall.h>
#include <rdma/opa_addr.h>
#include <asm/unaligned.h>
#include "tk.h"

#define MR_JUNK		0xa5
/* The subnet prefix of the device's port 1 (2001:db8:0:1::/64). */
#define MR_PREFIX	0x20010db800000001ULL

/* The bytes of MR_PREFIX, as a GID holds them. */
static const u8 mr_prefix_raw[8] = {
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x01
};

/* The interface ID OPA gives the extended LID 0x12345 (OUI 00:06:6a). */
static const u8 mr_opa_id_12345[8] = {
	0x00, 0x06, 0x6a, 0x00, 0x00, 0x01, 0x23, 0x45
};

static int mr_init(struct kunit *test)
{
	struct tdev_params p = { .name = "ktmr%d", .driver_gids = true };
	union ib_gid gid0 = {
		.global.subnet_prefix = cpu_to_be64(MR_PREFIX),
		.global.interface_id = cpu_to_be64(0x0002c9030000abcdULL),
	};
	struct tdev *td = tk_new_dev(test, &p);

	KUNIT_ASSERT_EQ(test, tdev_set_gid(td, 1, 0, &gid0), 0);
	if (tdev_register(td)) {
		tdev_destroy(td);
		KUNIT_FAIL(test, "the test device did not register");
		return -ENODEV;
	}
	test->priv = td;
	return 0;
}

static void mr_exit(struct kunit *test)
{
	if (test->priv)
		tdev_destroy(test->priv);
}

static struct ib_device *mr_dev(struct kunit *test)
{
	return &((struct tdev *)test->priv)->ibdev;
}

static void mr_gid(union ib_gid *gid, u8 first)
{
	int i;

	for (i = 0; i < sizeof(gid->raw); i++)
		gid->raw[i] = first + i;
}

/* An address vector of @type with every field set, port 1. */
static void mr_ah(struct rdma_ah_attr *ah, enum rdma_ah_attr_type type,
		  u32 dlid, bool grh)
{
	union ib_gid dgid;

	memset(ah, 0, sizeof(*ah));
	ah->type = type;
	rdma_ah_set_port_num(ah, 1);
	rdma_ah_set_sl(ah, 0x9);
	rdma_ah_set_static_rate(ah, 0x7);
	if (type != RDMA_AH_ATTR_TYPE_ROCE) {
		rdma_ah_set_dlid(ah, dlid);
		rdma_ah_set_path_bits(ah, 0x3);
	} else {
		memset(ah->roce.dmac, 0x42, sizeof(ah->roce.dmac));
	}
	mr_gid(&dgid, 0x10);
	if (grh)
		rdma_ah_set_grh(ah, &dgid, 0xabcde, 4, 0x40, 0x22);
	else	/* a GRH in the vector that does not count */
		ah->grh.dgid = dgid;
}

static void mr_expect_no_grh(struct kunit *test,
			     const struct ib_uverbs_ah_attr *dst)
{
	KUNIT_EXPECT_EQ(test, dst->is_global, 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(&dst->grh, 0, sizeof(dst->grh)));
}

/* The GRH mr_ah() set, as userspace sees it. */
static void mr_expect_grh(struct kunit *test,
			  const struct ib_uverbs_ah_attr *dst)
{
	union ib_gid dgid;

	mr_gid(&dgid, 0x10);
	KUNIT_EXPECT_EQ(test, dst->is_global, 1);
	KUNIT_EXPECT_EQ(test, memcmp(dst->grh.dgid, dgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, dst->grh.flow_label, 0xabcdeu);
	KUNIT_EXPECT_EQ(test, dst->grh.sgid_index, 4);
	KUNIT_EXPECT_EQ(test, dst->grh.hop_limit, 0x40);
	KUNIT_EXPECT_EQ(test, dst->grh.traffic_class, 0x22);
	KUNIT_EXPECT_EQ(test, dst->grh.reserved, 0);
}

static void marshall_ah_ib(struct kunit *test)
{
	struct ib_uverbs_ah_attr dst;
	struct rdma_ah_attr ah;

	/* No GRH: the user's GRH part is zero whatever the vector holds */
	mr_ah(&ah, RDMA_AH_ATTR_TYPE_IB, 0x1234, false);
	memset(&dst, MR_JUNK, sizeof(dst));
	ib_copy_ah_attr_to_user(mr_dev(test), &dst, &ah);
	KUNIT_EXPECT_EQ(test, dst.dlid, 0x1234);
	KUNIT_EXPECT_EQ(test, dst.sl, 0x9);
	KUNIT_EXPECT_EQ(test, dst.src_path_bits, 0x3);
	KUNIT_EXPECT_EQ(test, dst.static_rate, 0x7);
	KUNIT_EXPECT_EQ(test, dst.port_num, 1);
	KUNIT_EXPECT_EQ(test, dst.reserved, 0);
	mr_expect_no_grh(test, &dst);

	/* With one, field by field */
	mr_ah(&ah, RDMA_AH_ATTR_TYPE_IB, 0x1234, true);
	memset(&dst, MR_JUNK, sizeof(dst));
	ib_copy_ah_attr_to_user(mr_dev(test), &dst, &ah);
	KUNIT_EXPECT_EQ(test, dst.dlid, 0x1234);
	KUNIT_EXPECT_EQ(test, dst.src_path_bits, 0x3);
	KUNIT_EXPECT_EQ(test, dst.reserved, 0);
	mr_expect_grh(test, &dst);
}

static void marshall_ah_roce(struct kunit *test)
{
	struct ib_uverbs_ah_attr dst;
	struct rdma_ah_attr ah;

	/* RoCE has no LID and no path bits; the MAC is not userspace's */
	mr_ah(&ah, RDMA_AH_ATTR_TYPE_ROCE, 0, true);
	memset(&dst, MR_JUNK, sizeof(dst));
	ib_copy_ah_attr_to_user(mr_dev(test), &dst, &ah);
	KUNIT_EXPECT_EQ(test, dst.dlid, 0);
	KUNIT_EXPECT_EQ(test, dst.src_path_bits, 0);
	KUNIT_EXPECT_EQ(test, dst.sl, 0x9);
	KUNIT_EXPECT_EQ(test, dst.static_rate, 0x7);
	KUNIT_EXPECT_EQ(test, dst.port_num, 1);
	KUNIT_EXPECT_EQ(test, dst.reserved, 0);
	mr_expect_grh(test, &dst);
}

static void marshall_ah_opa_extended_lid(struct kunit *test)
{
	struct ib_uverbs_ah_attr dst;
	struct rdma_ah_attr ah;

	/*
	 * A LID above 16 bits: an InfiniBand vector whose GRH carries it,
	 * under the port's subnet prefix, GID index 0, hop limit 1
	 */
	mr_ah(&ah, RDMA_AH_ATTR_TYPE_OPA, 0x12345, false);
	memset(&dst, MR_JUNK, sizeof(dst));
	ib_copy_ah_attr_to_user(mr_dev(test), &dst, &ah);
	KUNIT_EXPECT_EQ(test, dst.is_global, 1);
	KUNIT_EXPECT_EQ(test, memcmp(dst.grh.dgid, mr_prefix_raw, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst.grh.dgid + 8, mr_opa_id_12345, 8), 0);
	KUNIT_EXPECT_EQ(test, dst.grh.sgid_index, 0);
	KUNIT_EXPECT_EQ(test, dst.grh.hop_limit, 1);
	KUNIT_EXPECT_EQ(test, dst.grh.flow_label, 0u);
	KUNIT_EXPECT_EQ(test, dst.grh.traffic_class, 0);
	KUNIT_EXPECT_EQ(test, dst.grh.reserved, 0);
	KUNIT_EXPECT_EQ(test, dst.dlid, 0x2345);
	KUNIT_EXPECT_EQ(test, dst.sl, 0x9);
	KUNIT_EXPECT_EQ(test, dst.static_rate, 0x7);
	KUNIT_EXPECT_EQ(test, dst.port_num, 1);
	KUNIT_EXPECT_EQ(test, dst.reserved, 0);
	/* The vector itself is left alone */
	KUNIT_EXPECT_EQ(test, ah.type, RDMA_AH_ATTR_TYPE_OPA);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ah), 0x12345u);
	KUNIT_EXPECT_FALSE(test, rdma_ah_get_ah_flags(&ah) & IB_AH_GRH);

	/* A GRH of its own is replaced by the one that carries the LID */
	mr_ah(&ah, RDMA_AH_ATTR_TYPE_OPA, 0x12345, true);
	ib_copy_ah_attr_to_user(mr_dev(test), &dst, &ah);
	KUNIT_EXPECT_EQ(test, memcmp(dst.grh.dgid + 8, mr_opa_id_12345, 8), 0);
	KUNIT_EXPECT_EQ(test, dst.grh.sgid_index, 0);
}

static void marshall_ah_opa_as_is(struct kunit *test)
{
	struct ib_uverbs_ah_attr dst;
	struct rdma_ah_attr ah;

	/* A LID that fits 16 bits (up to the permissive LID): as it is */
	mr_ah(&ah, RDMA_AH_ATTR_TYPE_OPA, 0xffff, false);
	memset(&dst, MR_JUNK, sizeof(dst));
	ib_copy_ah_attr_to_user(mr_dev(test), &dst, &ah);
	KUNIT_EXPECT_EQ(test, dst.dlid, 0xffff);
	KUNIT_EXPECT_EQ(test, dst.src_path_bits, 0x3);
	KUNIT_EXPECT_EQ(test, dst.reserved, 0);
	mr_expect_no_grh(test, &dst);

	/* The port cannot be queried: no conversion, no GRH made up */
	tdev_fail(test->priv, TDEV_FAIL_QUERY_PORT, true);
	mr_ah(&ah, RDMA_AH_ATTR_TYPE_OPA, 0x12345, false);
	memset(&dst, MR_JUNK, sizeof(dst));
	ib_copy_ah_attr_to_user(mr_dev(test), &dst, &ah);
	tdev_fail(test->priv, TDEV_FAIL_QUERY_PORT, false);
	mr_expect_no_grh(test, &dst);
	KUNIT_EXPECT_EQ(test, dst.dlid, 0x2345);
	KUNIT_EXPECT_EQ(test, dst.src_path_bits, 0x3);
	KUNIT_EXPECT_EQ(test, dst.reserved, 0);

	/* A port the device does not have: the same, and its number kept */
	mr_ah(&ah, RDMA_AH_ATTR_TYPE_OPA, 0x12345, true);
	rdma_ah_set_port_num(&ah, 7);
	memset(&dst, MR_JUNK, sizeof(dst));
	ib_copy_ah_attr_to_user(mr_dev(test), &dst, &ah);
	KUNIT_EXPECT_EQ(test, dst.port_num, 7);
	mr_expect_grh(test, &dst);
}

static void marshall_qp_attr(struct kunit *test)
{
	struct ib_uverbs_qp_attr dst;
	struct ib_qp_attr qa = {
		.qp_state = IB_QPS_RTS, .cur_qp_state = IB_QPS_RTR,
		.path_mtu = IB_MTU_2048, .path_mig_state = IB_MIG_REARM,
		.qkey = 0x11111111, .rq_psn = 0x222222, .sq_psn = 0x333333,
		.dest_qp_num = 0x444444, .qp_access_flags = 0x55,
		.cap = { .max_send_wr = 601, .max_recv_wr = 602,
			 .max_send_sge = 603, .max_recv_sge = 604,
			 .max_inline_data = 605 },
		.pkey_index = 0x0707, .alt_pkey_index = 0x0808,
		.en_sqd_async_notify = 1, .sq_draining = 1,
		.max_rd_atomic = 11, .max_dest_rd_atomic = 12,
		.min_rnr_timer = 13, .port_num = 1, .timeout = 14,
		.retry_cnt = 6, .rnr_retry = 5, .alt_port_num = 2,
		.alt_timeout = 15,
	};
	int i;

	mr_ah(&qa.ah_attr, RDMA_AH_ATTR_TYPE_IB, 0x1234, true);
	mr_ah(&qa.alt_ah_attr, RDMA_AH_ATTR_TYPE_IB, 0x4321, false);
	memset(&dst, MR_JUNK, sizeof(dst));
	/* The mask is the caller's: it is left as it is */
	dst.qp_attr_mask = 0x0badf00d;
	ib_copy_qp_attr_to_user(mr_dev(test), &dst, &qa);
	KUNIT_EXPECT_EQ(test, dst.qp_attr_mask, 0x0badf00du);
	KUNIT_EXPECT_EQ(test, dst.qp_state, (u32)IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, dst.cur_qp_state, (u32)IB_QPS_RTR);
	KUNIT_EXPECT_EQ(test, dst.path_mtu, (u32)IB_MTU_2048);
	KUNIT_EXPECT_EQ(test, dst.path_mig_state, (u32)IB_MIG_REARM);
	KUNIT_EXPECT_EQ(test, dst.qkey, 0x11111111u);
	KUNIT_EXPECT_EQ(test, dst.rq_psn, 0x222222u);
	KUNIT_EXPECT_EQ(test, dst.sq_psn, 0x333333u);
	KUNIT_EXPECT_EQ(test, dst.dest_qp_num, 0x444444u);
	KUNIT_EXPECT_EQ(test, dst.qp_access_flags, 0x55u);
	KUNIT_EXPECT_EQ(test, dst.max_send_wr, 601u);
	KUNIT_EXPECT_EQ(test, dst.max_recv_wr, 602u);
	KUNIT_EXPECT_EQ(test, dst.max_send_sge, 603u);
	KUNIT_EXPECT_EQ(test, dst.max_recv_sge, 604u);
	KUNIT_EXPECT_EQ(test, dst.max_inline_data, 605u);
	KUNIT_EXPECT_EQ(test, dst.pkey_index, 0x0707);
	KUNIT_EXPECT_EQ(test, dst.alt_pkey_index, 0x0808);
	KUNIT_EXPECT_EQ(test, dst.en_sqd_async_notify, 1);
	KUNIT_EXPECT_EQ(test, dst.sq_draining, 1);
	KUNIT_EXPECT_EQ(test, dst.max_rd_atomic, 11);
	KUNIT_EXPECT_EQ(test, dst.max_dest_rd_atomic, 12);
	KUNIT_EXPECT_EQ(test, dst.min_rnr_timer, 13);
	KUNIT_EXPECT_EQ(test, dst.port_num, 1);
	KUNIT_EXPECT_EQ(test, dst.timeout, 14);
	KUNIT_EXPECT_EQ(test, dst.retry_cnt, 6);
	KUNIT_EXPECT_EQ(test, dst.rnr_retry, 5);
	KUNIT_EXPECT_EQ(test, dst.alt_port_num, 2);
	KUNIT_EXPECT_EQ(test, dst.alt_timeout, 15);
	for (i = 0; i < sizeof(dst.reserved); i++)
		KUNIT_EXPECT_EQ(test, dst.reserved[i], 0);
	/* Both address vectors, each as ib_copy_ah_attr_to_user() gives it */
	KUNIT_EXPECT_EQ(test, dst.ah_attr.dlid, 0x1234);
	mr_expect_grh(test, &dst.ah_attr);
	KUNIT_EXPECT_EQ(test, dst.ah_attr.reserved, 0);
	KUNIT_EXPECT_EQ(test, dst.alt_ah_attr.dlid, 0x4321);
	KUNIT_EXPECT_EQ(test, dst.alt_ah_attr.sl, 0x9);
	mr_expect_no_grh(test, &dst.alt_ah_attr);
	KUNIT_EXPECT_EQ(test, dst.alt_ah_attr.reserved, 0);
}

/* A path record with each common member set, of @type. */
static void mr_path(struct sa_path_rec *rec, enum sa_path_rec_type type)
{
	memset(rec, 0, sizeof(*rec));
	rec->rec_type = type;
	mr_gid(&rec->dgid, 0x10);
	mr_gid(&rec->sgid, 0x30);
	rec->flow_label = cpu_to_be32(0x000abcde);
	rec->hop_limit = 0x40;
	rec->traffic_class = 0x22;
	rec->reversible = 1;
	rec->numb_path = 3;
	rec->pkey = cpu_to_be16(0xffff);
	rec->sl = 0x9;
	rec->mtu_selector = 2;
	rec->mtu = IB_MTU_4096;
	rec->rate_selector = 1;
	rec->rate = IB_RATE_100_GBPS;
	rec->packet_life_time_selector = 3;
	rec->packet_life_time = 18;
	rec->preference = 7;
}

/* The common members of mr_path() in the user layout. */
static void mr_expect_path_common(struct kunit *test,
				  const struct ib_user_path_rec *u)
{
	KUNIT_EXPECT_EQ(test, be32_to_cpu(u->flow_label), 0x000abcdeu);
	KUNIT_EXPECT_EQ(test, u->hop_limit, 0x40);
	KUNIT_EXPECT_EQ(test, u->traffic_class, 0x22);
	KUNIT_EXPECT_EQ(test, u->reversible, 1u);
	KUNIT_EXPECT_EQ(test, u->numb_path, 3);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u->pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, u->sl, 0x9);
	KUNIT_EXPECT_EQ(test, u->mtu_selector, 2);
	KUNIT_EXPECT_EQ(test, u->mtu, (u32)IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, u->rate_selector, 1);
	KUNIT_EXPECT_EQ(test, u->rate, IB_RATE_100_GBPS);
	KUNIT_EXPECT_EQ(test, u->packet_life_time_selector, 3);
	KUNIT_EXPECT_EQ(test, u->packet_life_time, 18);
	KUNIT_EXPECT_EQ(test, u->preference, 7);
}

static void marshall_path_to_user(struct kunit *test)
{
	struct ib_user_path_rec u;
	struct sa_path_rec rec;
	union ib_gid gid;

	/* InfiniBand: 16-bit LIDs, network order on both sides */
	mr_path(&rec, SA_PATH_REC_TYPE_IB);
	sa_path_set_slid(&rec, 0x0102);
	sa_path_set_dlid(&rec, 0x0304);
	sa_path_set_raw_traffic(&rec, 1);
	memset(&u, MR_JUNK, sizeof(u));
	ib_copy_path_rec_to_user(&u, &rec);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u.slid), 0x0102);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u.dlid), 0x0304);
	KUNIT_EXPECT_EQ(test, u.raw_traffic, 1u);
	mr_gid(&gid, 0x10);
	KUNIT_EXPECT_EQ(test, memcmp(u.dgid, gid.raw, 16), 0);
	mr_gid(&gid, 0x30);
	KUNIT_EXPECT_EQ(test, memcmp(u.sgid, gid.raw, 16), 0);
	mr_expect_path_common(test, &u);

	/* RoCE: no LIDs, no raw traffic */
	mr_path(&rec, SA_PATH_REC_TYPE_ROCE_V2);
	memset(rec.roce.dmac, 0xee, sizeof(rec.roce.dmac));
	memset(&u, MR_JUNK, sizeof(u));
	ib_copy_path_rec_to_user(&u, &rec);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u.slid), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u.dlid), 0);
	KUNIT_EXPECT_EQ(test, u.raw_traffic, 0u);
	KUNIT_EXPECT_EQ(test, memcmp(u.sgid, gid.raw, 16), 0);
	mr_expect_path_common(test, &u);
}

static void marshall_path_opa_to_user(struct kunit *test)
{
	struct ib_user_path_rec u;
	struct sa_path_rec rec;
	union ib_gid gid;

	/* OPA LIDs under the multicast base fit the user's 16 bits */
	mr_path(&rec, SA_PATH_REC_TYPE_OPA);
	sa_path_set_slid(&rec, 0x0102);
	sa_path_set_dlid(&rec, 0x0304);
	sa_path_set_raw_traffic(&rec, 1);
	memset(&u, MR_JUNK, sizeof(u));
	ib_copy_path_rec_to_user(&u, &rec);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u.slid), 0x0102);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u.dlid), 0x0304);
	KUNIT_EXPECT_EQ(test, u.raw_traffic, 1u);
	mr_gid(&gid, 0x10);
	KUNIT_EXPECT_EQ(test, memcmp(u.dgid, gid.raw, 16), 0);
	mr_expect_path_common(test, &u);

	/* An extended LID travels in the GIDs' interface IDs, LIDs zero */
	rec.opa.dlid = cpu_to_be32(0x12345);
	memset(&u, MR_JUNK, sizeof(u));
	ib_copy_path_rec_to_user(&u, &rec);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u.slid), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(u.dlid), 0);
	KUNIT_EXPECT_EQ(test, memcmp(u.dgid, gid.raw, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(u.dgid + 8, mr_opa_id_12345, 8), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(u.sgid + 8),
			0x00066a0000000102ULL);
	mr_expect_path_common(test, &u);
	/* The record itself is left alone */
	KUNIT_EXPECT_EQ(test, rec.rec_type, SA_PATH_REC_TYPE_OPA);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&rec)), 0x12345u);
}

/* A user path record with each member set. */
static void mr_user_path(struct ib_user_path_rec *u)
{
	union ib_gid gid;

	memset(u, 0, sizeof(*u));
	mr_gid(&gid, 0x10);
	memcpy(u->dgid, gid.raw, 16);
	mr_gid(&gid, 0x30);
	memcpy(u->sgid, gid.raw, 16);
	u->dlid = cpu_to_be16(0x0304);
	u->slid = cpu_to_be16(0x0102);
	u->raw_traffic = 1;
	u->flow_label = cpu_to_be32(0x000abcde);
	u->reversible = 1;
	u->mtu = IB_MTU_4096;
	u->pkey = cpu_to_be16(0xffff);
	u->hop_limit = 0x40;
	u->traffic_class = 0x22;
	u->numb_path = 3;
	u->sl = 0x9;
	u->mtu_selector = 2;
	u->rate_selector = 1;
	u->rate = IB_RATE_100_GBPS;
	u->packet_life_time_selector = 3;
	u->packet_life_time = 18;
	u->preference = 7;
}

static void marshall_path_from_user(struct kunit *test)
{
	struct ib_user_path_rec u, back;
	struct sa_path_rec rec, want;

	mr_user_path(&u);
	memset(&rec, MR_JUNK, sizeof(rec));
	ib_copy_path_rec_from_user(&rec, &u);
	KUNIT_EXPECT_EQ(test, rec.rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&rec)), 0x0102u);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&rec)), 0x0304u);
	KUNIT_EXPECT_EQ(test, sa_path_get_raw_traffic(&rec), 1);
	/* What the user layout lacks is zero: as mr_path() makes it */
	mr_path(&want, SA_PATH_REC_TYPE_IB);
	sa_path_set_slid(&want, 0x0102);
	sa_path_set_dlid(&want, 0x0304);
	sa_path_set_raw_traffic(&want, 1);
	KUNIT_EXPECT_EQ(test, memcmp(&rec, &want, sizeof(rec)), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rec.service_id), 0ULL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.qos_class), 0);
	KUNIT_EXPECT_EQ(test, rec.flags, 0u);
	/* And back: the same user record */
	ib_copy_path_rec_to_user(&back, &rec);
	KUNIT_EXPECT_EQ(test, memcmp(&back, &u, sizeof(u)), 0);
}

static void marshall_path_opa_from_user(struct kunit *test)
{
	struct ib_user_path_rec u, back;
	struct sa_path_rec rec;
	union ib_gid gid;

	/*
	 * An OPA GID as source: an OPA record, both LIDs from the GIDs'
	 * low 32 bits (the destination's too, OPA GID or not); the user's
	 * 16-bit LIDs are not used
	 */
	mr_user_path(&u);
	put_unaligned_be64(0x00066a0000012345ULL, u.sgid + 8);
	memset(&rec, MR_JUNK, sizeof(rec));
	ib_copy_path_rec_from_user(&rec, &u);
	KUNIT_EXPECT_EQ(test, rec.rec_type, SA_PATH_REC_TYPE_OPA);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&rec)), 0x12345u);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&rec)), 0x1c1d1e1fu);
	KUNIT_EXPECT_EQ(test, sa_path_get_raw_traffic(&rec), 1);
	KUNIT_EXPECT_EQ(test, memcmp(rec.sgid.raw, u.sgid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(rec.dgid.raw, u.dgid, 16), 0);
	KUNIT_EXPECT_EQ(test, rec.sl, 0x9);
	KUNIT_EXPECT_EQ(test, rec.preference, 7);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rec.service_id), 0ULL);
	KUNIT_EXPECT_EQ(test, rec.opa.l2_8B, 0);
	KUNIT_EXPECT_EQ(test, rec.opa.qos_type, 0);
	KUNIT_EXPECT_EQ(test, rec.flags, 0u);

	/* An OPA GID as destination only: OPA as well */
	mr_user_path(&u);
	put_unaligned_be64(0x00066a0000012345ULL, u.dgid + 8);
	ib_copy_path_rec_from_user(&rec, &u);
	KUNIT_EXPECT_EQ(test, rec.rec_type, SA_PATH_REC_TYPE_OPA);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&rec)), 0x12345u);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&rec)), 0x3c3d3e3fu);

	/*
	 * Back to the user: extended LIDs go in the GIDs' interface IDs
	 * (the destination's comes back as it was), the LIDs are zero
	 */
	ib_copy_path_rec_to_user(&back, &rec);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(back.dlid), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(back.slid), 0);
	KUNIT_EXPECT_EQ(test, memcmp(back.dgid, u.dgid, 16), 0);
	mr_gid(&gid, 0x30);
	KUNIT_EXPECT_EQ(test, memcmp(back.sgid, gid.raw, 8), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(back.sgid + 8),
			0x00066a003c3d3e3fULL);
}

static struct kunit_case marshall_cases[] = {
	KUNIT_CASE(marshall_ah_ib),
	KUNIT_CASE(marshall_ah_roce),
	KUNIT_CASE(marshall_ah_opa_extended_lid),
	KUNIT_CASE(marshall_ah_opa_as_is),
	KUNIT_CASE(marshall_qp_attr),
	KUNIT_CASE(marshall_path_to_user),
	KUNIT_CASE(marshall_path_opa_to_user),
	KUNIT_CASE(marshall_path_from_user),
	KUNIT_CASE(marshall_path_opa_from_user),
	{}
};

static struct kunit_suite marshall_suite = {
	.name = "rdma_uverbs_marshall",
	.init = mr_init,
	.exit = mr_exit,
	.test_cases = marshall_cases,
};

kunit_test_suites(&marshall_suite);
