// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_sa_wire: core/sa/wire.c's exports, a PathRecord
 * packed into and unpacked from its 64 bytes: every field at its place,
 * values wider than their field cut to it, what unpacking leaves alone.
 */
#include <kunit/test.h>
#include <asm/unaligned.h>
#include <rdma/ib_sa.h>

static void wire_path_rec(struct sa_path_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_IB;
	rec->service_id = cpu_to_be64(0x1122334455667788ULL);
	rec->dgid.raw[0] = 0xfe;
	rec->dgid.raw[15] = 0x02;
	rec->sgid.raw[0] = 0xfe;
	rec->sgid.raw[15] = 0x01;
	rec->ib.dlid = cpu_to_be16(0x1234);
	rec->ib.slid = cpu_to_be16(0x5678);
	rec->ib.raw_traffic = 1;
	rec->flow_label = cpu_to_be32(0xabcde);
	rec->hop_limit = 0x40;
	rec->traffic_class = 0x21;
	rec->reversible = 1;
	rec->numb_path = 0x7f;
	rec->pkey = cpu_to_be16(0xffff);
	rec->qos_class = cpu_to_be16(0x123);
	rec->sl = 0x9;
	rec->mtu_selector = IB_SA_EQ;
	rec->mtu = IB_MTU_4096;
	rec->rate_selector = IB_SA_GT;
	rec->rate = IB_RATE_100_GBPS;
	rec->packet_life_time_selector = IB_SA_LT;
	rec->packet_life_time = 0x12;
	rec->preference = 0x99;
}

static void wire_path_layout(struct kunit *test)
{
	struct sa_path_rec rec;
	u8 raw[64];

	wire_path_rec(&rec);
	memset(raw, 0x5a, sizeof(raw));
	ib_sa_pack_path(&rec, raw);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(raw), 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, raw[8], 0xfe);
	KUNIT_EXPECT_EQ(test, raw[23], 0x02);
	KUNIT_EXPECT_EQ(test, raw[24], 0xfe);
	KUNIT_EXPECT_EQ(test, raw[39], 0x01);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(raw + 40), 0x1234);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(raw + 42), 0x5678);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(raw + 44),
			0x80000000U | 0xabcde << 8 | 0x40);
	KUNIT_EXPECT_EQ(test, raw[48], 0x21);
	KUNIT_EXPECT_EQ(test, raw[49], 0xff);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(raw + 50), 0xffff);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(raw + 52), 0x1239);
	KUNIT_EXPECT_EQ(test, raw[54], IB_SA_EQ << 6 | IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, raw[55], IB_SA_GT << 6 | IB_RATE_100_GBPS);
	KUNIT_EXPECT_EQ(test, raw[56], IB_SA_LT << 6 | 0x12);
	KUNIT_EXPECT_EQ(test, raw[57], 0x99);
	/* Reserved bytes are zero */
	KUNIT_EXPECT_NULL(test, memchr_inv(raw + 58, 0, 6));
}

static void wire_path_round_trip(struct kunit *test)
{
	struct sa_path_rec rec, back;
	u8 raw[64];

	wire_path_rec(&rec);
	ib_sa_pack_path(&rec, raw);
	memset(&back, 0, sizeof(back));
	back.rec_type = SA_PATH_REC_TYPE_IB;
	back.flags = 0x77;
	ib_sa_unpack_path(raw, &back);
	KUNIT_EXPECT_EQ(test, back.flags, 0x77U);	/* not a wire field */
	back.flags = 0;
	KUNIT_EXPECT_EQ(test, memcmp(&back, &rec, sizeof(rec)), 0);
}

/* Bad input: values wider than their field keep their low bits only */
static void wire_path_narrow_fields(struct kunit *test)
{
	struct sa_path_rec rec, back = {};
	u8 raw[64];

	wire_path_rec(&rec);
	rec.flow_label = cpu_to_be32(0xfff12345);
	rec.ib.raw_traffic = 0xfe;
	rec.numb_path = 0xff;
	rec.reversible = 2;
	rec.sl = 0xf3;
	rec.qos_class = cpu_to_be16(0xf456);
	rec.mtu = 0xff;
	rec.mtu_selector = 0x7;
	ib_sa_pack_path(&rec, raw);
	ib_sa_unpack_path(raw, &back);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.flow_label), 0x12345U);
	KUNIT_EXPECT_EQ(test, back.ib.raw_traffic, 0);
	KUNIT_EXPECT_EQ(test, back.numb_path, 0x7f);
	KUNIT_EXPECT_EQ(test, back.reversible, 0);
	KUNIT_EXPECT_EQ(test, back.sl, 0x3);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(back.qos_class), 0x456);
	KUNIT_EXPECT_EQ(test, back.mtu, 0x3f);
	KUNIT_EXPECT_EQ(test, back.mtu_selector, 0x3);
	/* Neighbouring fields were not touched */
	KUNIT_EXPECT_EQ(test, back.hop_limit, 0x40);
	KUNIT_EXPECT_EQ(test, back.traffic_class, 0x21);
	KUNIT_EXPECT_EQ(test, back.rate, IB_RATE_100_GBPS);
}

static struct kunit_case sa_wire_cases[] = {
	KUNIT_CASE(wire_path_layout),
	KUNIT_CASE(wire_path_round_trip),
	KUNIT_CASE(wire_path_narrow_fields),
	{}
};

static struct kunit_suite sa_wire_suite = {
	.name = "rdma_core_sa_wire",
	.test_cases = sa_wire_cases,
};

kunit_test_suites(&sa_wire_suite);
