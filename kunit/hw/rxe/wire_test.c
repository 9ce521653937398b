// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_wire: hw/rxe/wire.c, the opcodes and their headers
 * as the InfiniBand specification lays them out, the checks of a received
 * packet's headers, the BTH a packet is built with, PSN arithmetic.
 */
#include <kunit/test.h>
#include "wire.h"

/* Header bytes (BTH and extended headers) of every opcode we speak. */
static const struct {
	u8 opcode;
	u8 hlen;
} wt_hlen[] = {
	{ IB_OPCODE_RC_SEND_FIRST, 12 },
	{ IB_OPCODE_RC_SEND_MIDDLE, 12 },
	{ IB_OPCODE_RC_SEND_LAST, 12 },
	{ IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE, 16 },
	{ IB_OPCODE_RC_SEND_ONLY, 12 },
	{ IB_OPCODE_RC_SEND_ONLY_WITH_IMMEDIATE, 16 },
	{ IB_OPCODE_RC_RDMA_WRITE_FIRST, 28 },
	{ IB_OPCODE_RC_RDMA_WRITE_MIDDLE, 12 },
	{ IB_OPCODE_RC_RDMA_WRITE_LAST, 12 },
	{ IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, 16 },
	{ IB_OPCODE_RC_RDMA_WRITE_ONLY, 28 },
	{ IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 32 },
	{ IB_OPCODE_RC_RDMA_READ_REQUEST, 28 },
	{ IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST, 16 },
	{ IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE, 12 },
	{ IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST, 16 },
	{ IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY, 16 },
	{ IB_OPCODE_RC_ACKNOWLEDGE, 16 },
	{ IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 24 },
	{ IB_OPCODE_RC_COMPARE_SWAP, 40 },
	{ IB_OPCODE_RC_FETCH_ADD, 40 },
	{ IB_OPCODE_RC_SEND_LAST_WITH_INVALIDATE, 16 },
	{ IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE, 16 },
	{ IB_OPCODE_UC_SEND_FIRST, 12 },
	{ IB_OPCODE_UC_SEND_MIDDLE, 12 },
	{ IB_OPCODE_UC_SEND_LAST, 12 },
	{ IB_OPCODE_UC_SEND_LAST_WITH_IMMEDIATE, 16 },
	{ IB_OPCODE_UC_SEND_ONLY, 12 },
	{ IB_OPCODE_UC_SEND_ONLY_WITH_IMMEDIATE, 16 },
	{ IB_OPCODE_UC_RDMA_WRITE_FIRST, 28 },
	{ IB_OPCODE_UC_RDMA_WRITE_MIDDLE, 12 },
	{ IB_OPCODE_UC_RDMA_WRITE_LAST, 12 },
	{ IB_OPCODE_UC_RDMA_WRITE_LAST_WITH_IMMEDIATE, 16 },
	{ IB_OPCODE_UC_RDMA_WRITE_ONLY, 28 },
	{ IB_OPCODE_UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 32 },
	{ IB_OPCODE_UD_SEND_ONLY, 20 },
	{ IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE, 24 },
};

/* Exactly the opcodes above are known, with those header lengths. */
static void wt_opcodes(struct kunit *test)
{
	bool known[256] = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wt_hlen); i++) {
		const struct sr_opinfo *oi = sr_opinfo(wt_hlen[i].opcode);

		known[wt_hlen[i].opcode] = true;
		KUNIT_ASSERT_NOT_NULL(test, oi);
		KUNIT_EXPECT_EQ_MSG(test, oi->hlen, wt_hlen[i].hlen,
				    "opcode 0x%02x", wt_hlen[i].opcode);
		/* Every opcode is either a requester's or a responder's */
		KUNIT_EXPECT_EQ(test, !(oi->flags & SR_REQ),
				!!(oi->flags & SR_RESP));
	}
	for (i = 0; i < 256; i++)
		if (!known[i])
			KUNIT_EXPECT_NULL_MSG(test, sr_opinfo(i), "opcode 0x%02x",
					      i);
}

/* Extended headers sit in the specification's order. */
static void wt_offsets(struct kunit *test)
{
	const struct sr_opinfo *oi;

	oi = sr_opinfo(IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE);
	KUNIT_EXPECT_EQ(test, oi->off[SR_RETH], 12);
	KUNIT_EXPECT_EQ(test, oi->off[SR_IMMDT], 28);
	oi = sr_opinfo(IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE);
	KUNIT_EXPECT_EQ(test, oi->off[SR_DETH], 12);
	KUNIT_EXPECT_EQ(test, oi->off[SR_IMMDT], 20);
	oi = sr_opinfo(IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE);
	KUNIT_EXPECT_EQ(test, oi->off[SR_AETH], 12);
	KUNIT_EXPECT_EQ(test, oi->off[SR_ATMACK], 16);
	oi = sr_opinfo(IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, oi->off[SR_IETH], 12);
	KUNIT_EXPECT_EQ(test, oi->exts, BIT(SR_IETH));
	oi = sr_opinfo(IB_OPCODE_RC_FETCH_ADD);
	KUNIT_EXPECT_EQ(test, oi->off[SR_ATMETH], 12);
	KUNIT_EXPECT_TRUE(test, oi->flags & SR_ATOMIC);
	KUNIT_EXPECT_FALSE(test, oi->flags & SR_PAYLOAD);
}

/* The BTH's bytes, field by field. */
static void wt_bth_bytes(struct kunit *test)
{
	static const u8 want[SR_BTH_BYTES] = {
		0x04, 0xe0, 0xff, 0xff, 0x00, 0x12, 0x34, 0x56,
		0x80, 0xab, 0xcd, 0xef,
	};
	u8 bth[SR_BTH_BYTES];

	memset(bth, 0x5a, sizeof(bth));
	sr_bth_init(bth, IB_OPCODE_RC_SEND_ONLY, true, 2, 0xffff, 0x123456,
		    true, 0xabcdef);
	KUNIT_EXPECT_EQ(test, memcmp(bth, want, sizeof(want)), 0);
	/* Out-of-range values do not spill into the neighbouring fields */
	sr_bth_init(bth, IB_OPCODE_RC_SEND_ONLY, false, 7, 0, 0xff000001,
		    false, 0x1000002);
	KUNIT_EXPECT_EQ(test, bth[1], 0x40 | 0x30);
	KUNIT_EXPECT_EQ(test, bth[4], 0);
	KUNIT_EXPECT_EQ(test, bth[7], 1);
	KUNIT_EXPECT_EQ(test, bth[8], 0);
	KUNIT_EXPECT_EQ(test, bth[11], 2);
}

/* What sr_bth_init() writes, sr_parse() reads back. */
static void wt_round_trip(struct kunit *test)
{
	u8 buf[64] = {};
	struct sr_pkt p;

	sr_bth_init(buf, IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE, true, 3,
		    0x8001, 0xffffff, false, 0xffffff);
	/* 24 bytes of headers, 5 of payload, 3 of pad, the ICRC */
	KUNIT_ASSERT_EQ(test, sr_parse(&p, buf, 24 + 5 + 3 + 4), SR_OK);
	KUNIT_EXPECT_EQ(test, p.opcode, IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE);
	KUNIT_EXPECT_PTR_EQ(test, p.oi,
			    sr_opinfo(IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE));
	KUNIT_EXPECT_PTR_EQ(test, p.bth, (void *)buf);
	KUNIT_EXPECT_TRUE(test, p.se);
	KUNIT_EXPECT_FALSE(test, p.ackreq);
	KUNIT_EXPECT_EQ(test, p.pad, 3);
	KUNIT_EXPECT_EQ(test, p.pkey, 0x8001);
	KUNIT_EXPECT_EQ(test, p.qpn, 0xffffff);
	KUNIT_EXPECT_EQ(test, p.psn, 0xffffff);
	KUNIT_EXPECT_EQ(test, p.paylen, 5);
	KUNIT_EXPECT_EQ(test, sr_pad(p.paylen), p.pad);
	KUNIT_EXPECT_PTR_EQ(test, sr_ext(buf, p.oi, SR_IMMDT),
			    (void *)&buf[20]);

	/* FECN, BECN and reserved bits are not part of the QPN or PSN */
	sr_bth_init(buf, IB_OPCODE_RC_ACKNOWLEDGE, false, 0, 0xffff, 7, true,
		    9);
	buf[4] = 0xff;
	buf[8] |= 0x7f;
	KUNIT_ASSERT_EQ(test, sr_parse(&p, buf, 16 + 4), SR_OK);
	KUNIT_EXPECT_EQ(test, p.qpn, 7);
	KUNIT_EXPECT_EQ(test, p.psn, 9);
	KUNIT_EXPECT_TRUE(test, p.ackreq);
	KUNIT_EXPECT_EQ(test, p.paylen, 0);
}

/* Every way a packet's headers can be wrong. */
static void wt_parse_bad(struct kunit *test)
{
	u8 buf[64] = {};
	struct sr_pkt p;

	sr_bth_init(buf, IB_OPCODE_RC_SEND_ONLY, false, 0, 0xffff, 1, false, 0);
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 16), SR_OK);
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 15), SR_BAD_LENGTH);
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 0), SR_BAD_LENGTH);
	/* Opcodes we do not speak: reserved, RD, CNP, manufacturer */
	buf[0] = 0x15;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 16), SR_BAD_OPCODE);
	buf[0] = IB_OPCODE_RD_SEND_ONLY;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 16), SR_BAD_OPCODE);
	buf[0] = IB_OPCODE_CNP + 1;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 16), SR_BAD_OPCODE);
	buf[0] = 0xff;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 16), SR_BAD_OPCODE);
	/* UC has no reads, UD no writes */
	buf[0] = IB_OPCODE_UC + IB_OPCODE_RDMA_READ_REQUEST;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 40), SR_BAD_OPCODE);
	buf[0] = IB_OPCODE_UD + IB_OPCODE_RDMA_WRITE_ONLY;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 40), SR_BAD_OPCODE);
	/* Transport version */
	buf[0] = IB_OPCODE_RC_SEND_ONLY;
	buf[1] |= 0x01;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 16), SR_BAD_VERSION);
	buf[1] &= ~SR_BTH_TVER;
	/* A RETH that is not there */
	buf[0] = IB_OPCODE_RC_RDMA_WRITE_ONLY;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 27 + 4), SR_BAD_LENGTH);
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 28 + 4), SR_OK);
	/* Pad longer than what is left */
	buf[0] = IB_OPCODE_RC_SEND_ONLY;
	buf[1] |= 2 << SR_BTH_PAD_SHIFT;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 12 + 1 + 4), SR_BAD_LENGTH);
	/* Pad with no payload */
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 12 + 2 + 4), SR_BAD_PAYLOAD);
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 12 + 2 + 2 + 4), SR_OK);
	KUNIT_EXPECT_EQ(test, p.paylen, 2);
	/* Payload where the opcode carries none */
	buf[0] = IB_OPCODE_RC_ACKNOWLEDGE;
	buf[1] &= ~SR_BTH_PAD;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 16 + 4 + 4), SR_BAD_PAYLOAD);
	buf[0] = IB_OPCODE_RC_RDMA_READ_REQUEST;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 28 + 4 + 4), SR_BAD_PAYLOAD);
	buf[0] = IB_OPCODE_RC_COMPARE_SWAP;
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 40 + 8 + 4), SR_BAD_PAYLOAD);
	KUNIT_EXPECT_EQ(test, sr_parse(&p, buf, 40 + 4), SR_OK);
}

static void wt_paylen_case(struct kunit *test, u8 opcode, u32 paylen,
			   bool fits)
{
	u8 buf[SR_BTH_BYTES + 16] = {};
	struct sr_pkt p;
	u32 hlen = sr_opinfo(opcode)->hlen;

	sr_bth_init(buf, opcode, false, sr_pad(paylen), 0xffff, 1, false, 0);
	KUNIT_ASSERT_EQ(test, sr_parse(&p, buf, hlen + paylen +
				       sr_pad(paylen) + 4), SR_OK);
	KUNIT_EXPECT_EQ_MSG(test, sr_paylen_fits(&p, 1024), fits,
			    "opcode 0x%02x, %u bytes", opcode, paylen);
}

/* First and middle packets carry the MTU, last 1 to MTU, only 0 to MTU. */
static void wt_paylen_fits(struct kunit *test)
{
	wt_paylen_case(test, IB_OPCODE_RC_SEND_FIRST, 1024, true);
	wt_paylen_case(test, IB_OPCODE_RC_SEND_FIRST, 1020, false);
	wt_paylen_case(test, IB_OPCODE_RC_SEND_MIDDLE, 1028, false);
	wt_paylen_case(test, IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE, 1024,
		       true);
	wt_paylen_case(test, IB_OPCODE_UC_RDMA_WRITE_LAST, 1, true);
	wt_paylen_case(test, IB_OPCODE_UC_RDMA_WRITE_LAST, 0, false);
	wt_paylen_case(test, IB_OPCODE_RC_SEND_LAST, 1025, false);
	wt_paylen_case(test, IB_OPCODE_RC_SEND_ONLY, 0, true);
	wt_paylen_case(test, IB_OPCODE_UD_SEND_ONLY, 1024, true);
	wt_paylen_case(test, IB_OPCODE_UD_SEND_ONLY, 1025, false);
	wt_paylen_case(test, IB_OPCODE_RC_ACKNOWLEDGE, 0, true);
}

/* 24-bit PSNs: distances within half the space, across the wrap. */
static void wt_psn(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sr_psn_diff(5, 5), 0);
	KUNIT_EXPECT_EQ(test, sr_psn_diff(6, 5), 1);
	KUNIT_EXPECT_EQ(test, sr_psn_diff(5, 6), -1);
	KUNIT_EXPECT_EQ(test, sr_psn_diff(0, 0xffffff), 1);
	KUNIT_EXPECT_EQ(test, sr_psn_diff(0xffffff, 0), -1);
	KUNIT_EXPECT_EQ(test, sr_psn_diff(0x7fffff, 0), 0x7fffff);
	KUNIT_EXPECT_EQ(test, sr_psn_diff(0x800000, 0), -0x800000);
	KUNIT_EXPECT_EQ(test, sr_psn_diff(0x10, 0xfffff0), 0x20);
	KUNIT_EXPECT_EQ(test, sr_psn_add(0xffffff, 1), 0);
	KUNIT_EXPECT_EQ(test, sr_psn_add(0xfffff0, 0x20), 0x10);
	KUNIT_EXPECT_EQ(test, sr_psn_add(3, 4), 7);
}

/* The AETH: syndrome in the top byte, MSN below. */
static void wt_aeth(struct kunit *test)
{
	struct sr_aeth a;

	a.smsn = sr_aeth_pack(SR_AETH_NAK | SR_NAK_REMOTE_ACCESS, 0x1abcdef);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(a.smsn), 0x62abcdef);
	KUNIT_EXPECT_EQ(test, sr_aeth_syndrome(&a), 0x62);
	KUNIT_EXPECT_EQ(test, sr_aeth_syndrome(&a) & SR_AETH_TYPE,
			SR_AETH_NAK);
	KUNIT_EXPECT_EQ(test, sr_aeth_msn(&a), 0xabcdef);
	a.smsn = sr_aeth_pack(SR_AETH_ACK | SR_AETH_NO_CREDITS, 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(a.smsn), 0x1f000000);
	a.smsn = sr_aeth_pack(SR_AETH_RNR | 14, 3);
	KUNIT_EXPECT_EQ(test, sr_aeth_syndrome(&a) & SR_AETH_VALUE, 14);
	KUNIT_EXPECT_EQ(test, sr_aeth_syndrome(&a) & SR_AETH_TYPE,
			SR_AETH_RNR);
}

/* The RNR timer codes, by the names <rdma/ib_verbs.h> gives them. */
static void wt_rnr_timer(struct kunit *test)
{
	static const struct {
		u8 code;
		u32 us;
	} t[] = {
		{ IB_RNR_TIMER_655_36, 655360 }, { IB_RNR_TIMER_000_01, 10 },
		{ IB_RNR_TIMER_000_02, 20 }, { IB_RNR_TIMER_000_03, 30 },
		{ IB_RNR_TIMER_000_04, 40 }, { IB_RNR_TIMER_000_06, 60 },
		{ IB_RNR_TIMER_000_08, 80 }, { IB_RNR_TIMER_000_12, 120 },
		{ IB_RNR_TIMER_000_16, 160 }, { IB_RNR_TIMER_000_24, 240 },
		{ IB_RNR_TIMER_000_32, 320 }, { IB_RNR_TIMER_000_48, 480 },
		{ IB_RNR_TIMER_000_64, 640 }, { IB_RNR_TIMER_000_96, 960 },
		{ IB_RNR_TIMER_001_28, 1280 }, { IB_RNR_TIMER_001_92, 1920 },
		{ IB_RNR_TIMER_002_56, 2560 }, { IB_RNR_TIMER_003_84, 3840 },
		{ IB_RNR_TIMER_005_12, 5120 }, { IB_RNR_TIMER_007_68, 7680 },
		{ IB_RNR_TIMER_010_24, 10240 }, { IB_RNR_TIMER_015_36, 15360 },
		{ IB_RNR_TIMER_020_48, 20480 }, { IB_RNR_TIMER_030_72, 30720 },
		{ IB_RNR_TIMER_040_96, 40960 }, { IB_RNR_TIMER_061_44, 61440 },
		{ IB_RNR_TIMER_081_92, 81920 }, { IB_RNR_TIMER_122_88, 122880 },
		{ IB_RNR_TIMER_163_84, 163840 }, { IB_RNR_TIMER_245_76, 245760 },
		{ IB_RNR_TIMER_327_68, 327680 }, { IB_RNR_TIMER_491_52, 491520 },
	};
	int i;

	KUNIT_ASSERT_EQ(test, ARRAY_SIZE(t), 32);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		KUNIT_EXPECT_EQ_MSG(test, sr_rnr_timer_us(t[i].code), t[i].us,
				    "code %u", t[i].code);
		/* The AETH's syndrome byte: only the low five bits count */
		KUNIT_EXPECT_EQ(test,
				sr_rnr_timer_us(SR_AETH_RNR | t[i].code),
				t[i].us);
	}
}

/* Local ACK timeout: 4.096 us << t, 0 for none. */
static void wt_ack_timeout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sr_ack_timeout_ns(0), 0);
	KUNIT_EXPECT_EQ(test, sr_ack_timeout_ns(1), 8192);
	KUNIT_EXPECT_EQ(test, sr_ack_timeout_ns(14), 67108864);	/* 67 ms */
	KUNIT_EXPECT_EQ(test, sr_ack_timeout_ns(31), 4096ULL << 31);
	/* Beyond the attribute's five bits: the longest, not a wrap */
	KUNIT_EXPECT_EQ(test, sr_ack_timeout_ns(40), 4096ULL << 31);
}

static struct kunit_case wt_cases[] = {
	KUNIT_CASE(wt_opcodes),
	KUNIT_CASE(wt_offsets),
	KUNIT_CASE(wt_bth_bytes),
	KUNIT_CASE(wt_round_trip),
	KUNIT_CASE(wt_parse_bad),
	KUNIT_CASE(wt_paylen_fits),
	KUNIT_CASE(wt_psn),
	KUNIT_CASE(wt_aeth),
	KUNIT_CASE(wt_rnr_timer),
	KUNIT_CASE(wt_ack_timeout),
	{}
};

static struct kunit_suite wt_suite = {
	.name = "rdma_rxe_wire",
	.test_cases = wt_cases,
};
kunit_test_suite(wt_suite);
