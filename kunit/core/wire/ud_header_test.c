// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_wire_ud_header: core/wire/ud_header.c.  The
 * lengths ib_ud_header_init() works out for InfiniBand (with and without
 * GRH), RoCE v1 and RoCEv2 over IPv4 and IPv6, checked against sums done
 * by hand; ib_ud_header_pack() against wire bytes laid out by hand;
 * ib_ud_header_unpack() of what was packed and of headers that are not a
 * UD SEND's; ib_ud_ip4_csum() of a header whose checksum is known.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pack.h>

/* A MAD's 256 bytes */
#define UT_PAYLOAD	256

static void ut_init_ib(struct kunit *test)
{
	struct ib_ud_header h;

	KUNIT_ASSERT_EQ(test, ib_ud_header_init(UT_PAYLOAD, 1, 0, 0, 0, 0, 0,
						0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.lrh_present, 1);
	KUNIT_EXPECT_EQ(test, h.grh_present, 0);
	KUNIT_EXPECT_EQ(test, h.lrh.link_next_header, IB_LNH_IBA_LOCAL);
	/* (8 LRH + 12 BTH + 8 DETH + 256 + 4 ICRC) / 4 */
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.packet_length), 72);
	KUNIT_EXPECT_EQ(test, h.bth.opcode, IB_OPCODE_UD_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, h.bth.pad_count, 0);

	KUNIT_ASSERT_EQ(test, ib_ud_header_init(UT_PAYLOAD, 1, 0, 0, 1, 0, 0,
						0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 1);
	KUNIT_EXPECT_EQ(test, h.lrh.link_next_header, IB_LNH_IBA_GLOBAL);
	/* (8 + 40 GRH + 12 + 8 + 256 + 4) / 4 */
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.packet_length), 82);
	KUNIT_EXPECT_EQ(test, h.grh.ip_version, 6);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.grh.payload_length), 280);
	KUNIT_EXPECT_EQ(test, h.grh.next_header, 0x1b);

	/* 255 bytes with immediate data: one byte of padding */
	KUNIT_ASSERT_EQ(test, ib_ud_header_init(255, 1, 0, 0, 0, 0, 0, 1, &h),
			0);
	KUNIT_EXPECT_EQ(test, h.bth.pad_count, 1);
	KUNIT_EXPECT_EQ(test, h.bth.opcode,
			IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE);
	KUNIT_EXPECT_EQ(test, h.immediate_present, 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.packet_length), 72);
}

static void ut_init_roce(struct kunit *test)
{
	struct ib_ud_header h;

	/* RoCEv2 over IPv4 */
	KUNIT_ASSERT_EQ(test, ib_ud_header_init(UT_PAYLOAD, 0, 1, 0, 0, 4, 1,
						0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.eth_present, 1);
	KUNIT_EXPECT_EQ(test, h.ipv4_present, 1);
	KUNIT_EXPECT_EQ(test, h.grh_present, 0);
	KUNIT_EXPECT_EQ(test, h.udp_present, 1);
	KUNIT_EXPECT_EQ(test, h.ip4.ver, 4);
	KUNIT_EXPECT_EQ(test, h.ip4.hdr_len, 5);
	KUNIT_EXPECT_EQ(test, h.ip4.protocol, IPPROTO_UDP);
	/* 20 IP + 8 UDP + 12 + 8 + 256 + 4 */
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.ip4.tot_len), 308);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.udp.length), 288);

	/* RoCEv2 over IPv6, VLAN-tagged */
	KUNIT_ASSERT_EQ(test, ib_ud_header_init(UT_PAYLOAD, 0, 1, 1, 1, 6, 1,
						0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 1);
	KUNIT_EXPECT_EQ(test, h.ipv4_present, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.eth.type), ETH_P_8021Q);
	KUNIT_EXPECT_EQ(test, h.grh.next_header, IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.grh.payload_length), 288);

	/* RoCE v1: a GRH and no UDP */
	KUNIT_ASSERT_EQ(test, ib_ud_header_init(UT_PAYLOAD, 0, 1, 0, 1, 0, 0,
						0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 1);
	KUNIT_EXPECT_EQ(test, h.grh.next_header, 0x1b);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.grh.payload_length), 280);
}

/* UDP without IP: -EINVAL, and the header is zeroed all the same. */
static void ut_init_bad(struct kunit *test)
{
	struct ib_ud_header h;

	memset(&h, 0x5a, sizeof(h));
	KUNIT_EXPECT_EQ(test, ib_ud_header_init(UT_PAYLOAD, 0, 1, 0, 0, 0, 1,
						0, &h), -EINVAL);
	KUNIT_EXPECT_EQ(test, h.eth_present, 0);
	KUNIT_EXPECT_EQ(test, h.bth.opcode, 0);
	KUNIT_EXPECT_EQ(test, ib_ud_header_init(UT_PAYLOAD, 0, 1, 0, 0, 5, 1,
						0, &h), -EINVAL);
}

/* LRH, GRH, BTH, DETH and immediate data of a QP1 datagram. */
static void ut_fill(struct ib_ud_header *h)
{
	int i;

	ib_ud_header_init(UT_PAYLOAD, 1, 0, 0, 1, 0, 0, 1, h);
	h->lrh.service_level = 3;
	h->lrh.destination_lid = cpu_to_be16(0x1234);
	h->lrh.source_lid = cpu_to_be16(0x0001);
	h->grh.traffic_class = 0xab;
	h->grh.flow_label = cpu_to_be32(0x12345);
	h->grh.hop_limit = 0x40;
	for (i = 0; i < 16; i++) {
		h->grh.source_gid.raw[i] = i;
		h->grh.destination_gid.raw[i] = 0x10 + i;
	}
	h->bth.solicited_event = 1;
	h->bth.pkey = cpu_to_be16(0xffff);
	h->bth.destination_qpn = cpu_to_be32(1);
	h->bth.psn = cpu_to_be32(0x00abcdef);
	h->deth.qkey = cpu_to_be32(IB_QP1_QKEY);
	h->deth.source_qpn = cpu_to_be32(1);
	h->immediate_data = cpu_to_be32(0xdeadbeef);
}

static void ut_pack(struct kunit *test)
{
	static const u8 lrh[8] = { 0x00, 0x33, 0x12, 0x34,
				   0x00, 0x52, 0x00, 0x01 };
	static const u8 grh0[8] = { 0x6a, 0xb1, 0x23, 0x45,
				    0x01, 0x18, 0x1b, 0x40 };
	static const u8 bth[12] = { 0x65, 0x80, 0xff, 0xff, 0x00, 0x00, 0x00,
				    0x01, 0x00, 0xab, 0xcd, 0xef };
	static const u8 deth[8] = { 0x80, 0x01, 0x00, 0x00,
				    0x00, 0x00, 0x00, 0x01 };
	static const u8 imm[4] = { 0xde, 0xad, 0xbe, 0xef };
	struct ib_ud_header h;
	u8 buf[80];
	int i;

	ut_fill(&h);
	memset(buf, 0xcc, sizeof(buf));
	KUNIT_ASSERT_EQ(test, ib_ud_header_pack(&h, buf), 72);
	KUNIT_EXPECT_EQ(test, memcmp(buf, lrh, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 8, grh0, 8), 0);
	for (i = 0; i < 16; i++) {
		KUNIT_EXPECT_EQ(test, buf[16 + i], i);
		KUNIT_EXPECT_EQ(test, buf[32 + i], 0x10 + i);
	}
	KUNIT_EXPECT_EQ(test, memcmp(buf + 48, bth, 12), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 60, deth, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 68, imm, 4), 0);
	KUNIT_EXPECT_EQ(test, buf[72], 0xcc);
}

/* Ethernet, VLAN, IPv4 and UDP in order, 62 bytes in all. */
static void ut_pack_roce(struct kunit *test)
{
	static const u8 eth[18] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
				    0x81, 0x00, 0x00, 0x05, 0x08, 0x00 };
	struct ib_ud_header h;
	u8 buf[80] = {};

	ib_ud_header_init(UT_PAYLOAD, 0, 1, 1, 0, 4, 1, 0, &h);
	memcpy(h.eth.dmac_h, eth, 4);
	memcpy(h.eth.dmac_l, eth + 4, 2);
	memcpy(h.eth.smac_h, eth + 6, 2);
	memcpy(h.eth.smac_l, eth + 8, 4);
	h.vlan.tag = cpu_to_be16(5);
	h.vlan.type = cpu_to_be16(ETH_P_IP);
	h.udp.dport = cpu_to_be16(4791);
	KUNIT_ASSERT_EQ(test, ib_ud_header_pack(&h, buf), 14 + 4 + 20 + 8 +
			12 + 8);
	KUNIT_EXPECT_EQ(test, memcmp(buf, eth, sizeof(eth)), 0);
	KUNIT_EXPECT_EQ(test, buf[18], 0x45);
	KUNIT_EXPECT_EQ(test, buf[18 + 9], IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, buf[38 + 2], 4791 >> 8);
	KUNIT_EXPECT_EQ(test, buf[38 + 3], 4791 & 0xff);
	KUNIT_EXPECT_EQ(test, buf[46], IB_OPCODE_UD_SEND_ONLY);
}

static void ut_unpack(struct kunit *test)
{
	struct ib_ud_header h, back;
	u8 buf[80];

	ut_fill(&h);
	ib_ud_header_pack(&h, buf);
	memset(&back, 0x5a, sizeof(back));
	KUNIT_ASSERT_EQ(test, ib_ud_header_unpack(buf, &back), 0);
	KUNIT_EXPECT_EQ(test, back.lrh_present, 1);
	KUNIT_EXPECT_EQ(test, back.grh_present, 1);
	KUNIT_EXPECT_EQ(test, back.immediate_present, 1);
	KUNIT_EXPECT_EQ(test, memcmp(&back.lrh, &h.lrh, sizeof(h.lrh)), 0);
	/* Field by field: the struct's padding is not the header's */
	KUNIT_EXPECT_EQ(test, back.grh.ip_version, h.grh.ip_version);
	KUNIT_EXPECT_EQ(test, back.grh.traffic_class, h.grh.traffic_class);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.grh.flow_label),
			be32_to_cpu(h.grh.flow_label));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(back.grh.payload_length),
			be16_to_cpu(h.grh.payload_length));
	KUNIT_EXPECT_EQ(test, back.grh.next_header, h.grh.next_header);
	KUNIT_EXPECT_EQ(test, back.grh.hop_limit, h.grh.hop_limit);
	KUNIT_EXPECT_EQ(test, memcmp(&back.grh.source_gid, &h.grh.source_gid,
				     sizeof(h.grh.source_gid)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&back.grh.destination_gid,
				     &h.grh.destination_gid,
				     sizeof(h.grh.destination_gid)), 0);
	KUNIT_EXPECT_EQ(test, back.bth.opcode, h.bth.opcode);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(back.bth.pkey),
			be16_to_cpu(h.bth.pkey));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.bth.destination_qpn),
			be32_to_cpu(h.bth.destination_qpn));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.bth.psn),
			be32_to_cpu(h.bth.psn));
	KUNIT_EXPECT_EQ(test, back.bth.solicited_event, 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.deth.qkey),
			be32_to_cpu(h.deth.qkey));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.deth.source_qpn),
			be32_to_cpu(h.deth.source_qpn));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.immediate_data),
			be32_to_cpu(h.immediate_data));

	/* Without GRH nor immediate data */
	ib_ud_header_init(UT_PAYLOAD, 1, 0, 0, 0, 0, 0, 0, &h);
	ib_ud_header_pack(&h, buf);
	KUNIT_ASSERT_EQ(test, ib_ud_header_unpack(buf, &back), 0);
	KUNIT_EXPECT_EQ(test, back.grh_present, 0);
	KUNIT_EXPECT_EQ(test, back.immediate_present, 0);
}

/* What is not the header of a UD SEND on InfiniBand is refused. */
static void ut_unpack_bad(struct kunit *test)
{
	struct ib_ud_header h, back;
	u8 good[80], buf[80];

	ut_fill(&h);
	ib_ud_header_pack(&h, good);

	memcpy(buf, good, sizeof(buf));
	buf[0] |= 0x01;				/* link version 1 */
	KUNIT_EXPECT_EQ(test, ib_ud_header_unpack(buf, &back), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[1] &= ~0x03;			/* LNH raw */
	KUNIT_EXPECT_EQ(test, ib_ud_header_unpack(buf, &back), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[1] = (buf[1] & ~0x03) | IB_LNH_IP;
	KUNIT_EXPECT_EQ(test, ib_ud_header_unpack(buf, &back), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[8] = 0x4a;				/* GRH version 4 */
	KUNIT_EXPECT_EQ(test, ib_ud_header_unpack(buf, &back), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[8 + 6] = IPPROTO_UDP;		/* GRH next header */
	KUNIT_EXPECT_EQ(test, ib_ud_header_unpack(buf, &back), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[48] = IB_OPCODE_RC_SEND_ONLY;
	KUNIT_EXPECT_EQ(test, ib_ud_header_unpack(buf, &back), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[49] |= 0x01;			/* transport version 1 */
	KUNIT_EXPECT_EQ(test, ib_ud_header_unpack(buf, &back), -EINVAL);
	/* And the good one still goes */
	KUNIT_EXPECT_EQ(test, ib_ud_header_unpack(good, &back), 0);
}

/* 4500 0073 0000 4000 4011 ---- c0a8 0001 c0a8 00c7: checksum b861 */
static void ut_ip4_csum(struct kunit *test)
{
	struct ib_ud_header h = {};
	__sum16 sum;

	h.ip4.tot_len = cpu_to_be16(0x73);
	h.ip4.frag_off = cpu_to_be16(0x4000);
	h.ip4.ttl = 0x40;
	h.ip4.protocol = IPPROTO_UDP;
	h.ip4.check = (__force __sum16)0x1234;	/* not part of the sum */
	h.ip4.saddr = cpu_to_be32(0xc0a80001);
	h.ip4.daddr = cpu_to_be32(0xc0a800c7);
	sum = ib_ud_ip4_csum(&h);
	KUNIT_EXPECT_EQ(test, (__force u16)sum, (__force u16)htons(0xb861));
	/* ver and hdr_len are taken as 4 and 5 whatever the header says */
	h.ip4.ver = 0;
	h.ip4.hdr_len = 15;
	KUNIT_EXPECT_EQ(test, (__force u16)ib_ud_ip4_csum(&h),
			(__force u16)htons(0xb861));
}

static struct kunit_case ut_cases[] = {
	KUNIT_CASE(ut_init_ib),
	KUNIT_CASE(ut_init_roce),
	KUNIT_CASE(ut_init_bad),
	KUNIT_CASE(ut_pack),
	KUNIT_CASE(ut_pack_roce),
	KUNIT_CASE(ut_unpack),
	KUNIT_CASE(ut_unpack_bad),
	KUNIT_CASE(ut_ip4_csum),
	{}
};

static struct kunit_suite ut_suite = {
	.name = "rdma_core_wire_ud_header",
	.test_cases = ut_cases,
};
kunit_test_suite(ut_suite);
