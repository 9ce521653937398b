// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_icrc: hw/rxe/icrc.c, the ICRC of RoCEv2 packets,
 * against a packet a RoCE NIC sent, over IPv4 and IPv6, in the linear area
 * and in page fragments, and what it must and must not cover.
 */
#include <kunit/test.h>
#include <linux/skbuff.h>
#include "icrc.h"
#include "skb.h"
#include "wire.h"

/*
 * A CNP as a ConnectX-4 Lx sent it, from the IPv4 header on (published
 * with scapy's RoCE tests): TOS 0xc2, UDP checksum 0, BECN set, 16 bytes
 * of zeros, ICRC 82 fd 00 2a.
 */
static const u8 it_cnp[] = {
	0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11,
	0x91, 0x61, 0x0a, 0x00, 0x11, 0x01, 0x0a, 0x00, 0x12, 0x01,
	0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,
	0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x01, 0x18,
	0x00, 0x00, 0x00, 0x00,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x82, 0xfd, 0x00, 0x2a,
};

/* Its masked bytes: TOS, TTL, IP checksum, UDP checksum, BTH byte 4. */
static const u8 it_cnp_masked[] = { 1, 8, 10, 11, 26, 27, 32 };

/*
 * An RC SEND_ONLY of 16 bytes over IPv6 (traffic class 0x12, flow label
 * 0x34567, hop limit 64), its ICRC worked out apart from this code.
 */
static const u8 it_v6[] = {
	0x61, 0x23, 0x45, 0x67, 0x00, 0x28, 0x11, 0x40,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,
	0xc1, 0x23, 0x12, 0xb7, 0x00, 0x28, 0xab, 0xcd,
	0x04, 0x40, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
	0x80, 0x00, 0x00, 0x05,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0xad, 0x57, 0xaf, 0x39,
};

static const u8 it_v6_masked[] = { 0, 1, 2, 3, 7, 46, 47, 52 };

/* Transport bytes (BTH to ICRC's end) of a packet of @len from IP on. */
static unsigned int it_tlen(const u8 *pkt, unsigned int len)
{
	unsigned int iplen = pkt[0] >> 4 == 4 ? (pkt[0] & 0xf) * 4 : 40;

	return len - iplen - 8;
}

static void it_check_vector(struct kunit *test, const u8 *pkt,
			    unsigned int len, unsigned int in_frag)
{
	unsigned int tlen = it_tlen(pkt, len);
	struct sk_buff *skb = rxe_kunit_skb(test, pkt, len, in_frag);
	u8 icrc[4];

	KUNIT_EXPECT_TRUE(test, sr_icrc_ok(skb, tlen));
	/* Written again over zeros, it is the same four bytes */
	memset(icrc, 0, sizeof(icrc));
	KUNIT_ASSERT_EQ(test, skb_store_bits(skb, len - 4, icrc, 4), 0);
	KUNIT_EXPECT_FALSE(test, sr_icrc_ok(skb, tlen));
	KUNIT_EXPECT_EQ(test, sr_icrc_put(skb, tlen), 0);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, len - 4, icrc, 4), 0);
	KUNIT_EXPECT_EQ(test, memcmp(icrc, pkt + len - 4, 4), 0);
	kfree_skb(skb);
}

/* The NIC's ICRC, linear and with the payload in a page fragment. */
static void it_nic_packet(struct kunit *test)
{
	unsigned int split;

	it_check_vector(test, it_cnp, sizeof(it_cnp), 0);
	/* Fragments that start in the BTH, the zeros, and the ICRC */
	for (split = 4; split <= 30; split += 13)
		it_check_vector(test, it_cnp, sizeof(it_cnp), split);
}

static void it_ipv6(struct kunit *test)
{
	it_check_vector(test, it_v6, sizeof(it_v6), 0);
	it_check_vector(test, it_v6, sizeof(it_v6), 17);
}

/*
 * Every bit outside the masked fields is covered (a CRC catches each
 * single-bit error); the masked fields are not, so a router may change
 * them.
 */
static void it_coverage(struct kunit *test, const u8 *pkt, unsigned int len,
			const u8 *masked, unsigned int nmasked)
{
	unsigned int tlen = it_tlen(pkt, len), i, j;
	struct sk_buff *skb = rxe_kunit_skb(test, pkt, len, 0);
	bool is_masked;

	for (i = 0; i < len - 4; i++) {
		is_masked = false;
		for (j = 0; j < nmasked; j++)
			is_masked |= masked[j] == i;
		/* Not the IP version: that tells where UDP starts */
		if (i == 0 && pkt[0] >> 4 == 6)
			skb->data[0] ^= 0x01;
		else
			skb->data[i] ^= 0x10;
		KUNIT_EXPECT_EQ_MSG(test, sr_icrc_ok(skb, tlen), is_masked,
				    "byte %u", i);
		memcpy(skb->data, pkt, len);
	}
	kfree_skb(skb);
}

static void it_covers_ipv4(struct kunit *test)
{
	it_coverage(test, it_cnp, sizeof(it_cnp), it_cnp_masked,
		    ARRAY_SIZE(it_cnp_masked));
}

static void it_covers_ipv6(struct kunit *test)
{
	it_coverage(test, it_v6, sizeof(it_v6), it_v6_masked,
		    ARRAY_SIZE(it_v6_masked));
}

/* Packets the ICRC cannot be worked out for are refused, not read past. */
static void it_bad(struct kunit *test)
{
	unsigned int tlen = it_tlen(it_cnp, sizeof(it_cnp));
	struct sk_buff *skb = rxe_kunit_skb(test, it_cnp, sizeof(it_cnp), 0);

	/* Longer than the packet, shorter than a BTH and ICRC */
	KUNIT_EXPECT_EQ(test, sr_icrc_put(skb, tlen + 1), -EINVAL);
	KUNIT_EXPECT_FALSE(test, sr_icrc_ok(skb, tlen + 1));
	KUNIT_EXPECT_EQ(test, sr_icrc_put(skb, 15), -EINVAL);
	KUNIT_EXPECT_FALSE(test, sr_icrc_ok(skb, 3));
	/* Neither IPv4 nor IPv6 */
	skb->data[0] = 0x55;
	KUNIT_EXPECT_EQ(test, sr_icrc_put(skb, tlen), -EINVAL);
	KUNIT_EXPECT_FALSE(test, sr_icrc_ok(skb, tlen));
	/* An IPv4 header length below 20 bytes */
	skb->data[0] = 0x44;
	KUNIT_EXPECT_FALSE(test, sr_icrc_ok(skb, tlen));
	/* IPv4 options: the UDP header is past them, outside the packet */
	skb->data[0] = 0x4f;
	KUNIT_EXPECT_FALSE(test, sr_icrc_ok(skb, tlen));
	kfree_skb(skb);
}

static struct kunit_case it_cases[] = {
	KUNIT_CASE(it_nic_packet),
	KUNIT_CASE(it_ipv6),
	KUNIT_CASE(it_covers_ipv4),
	KUNIT_CASE(it_covers_ipv6),
	KUNIT_CASE(it_bad),
	{}
};

static struct kunit_suite it_suite = {
	.name = "rdma_rxe_icrc",
	.test_cases = it_cases,
};
kunit_test_suite(it_suite);
