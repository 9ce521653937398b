// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_recv: hw/rxe/recv.c, the receive path's checks.
 * Packets as the UDP socket hands them over (data at the UDP header, the
 * IPv4 header before it), linear or with their headers in a page
 * fragment: a good one is counted received and, with no queue pair,
 * dropped for its QPN; every broken one is dropped by the first check it
 * fails and counted there, once; none is leaked (kmemleak) or read beyond
 * its end (KASAN).
 */
#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include "dev.h"
#include "icrc.h"
#include "recv.h"
#include "skb.h"
#include "wire.h"

#define RT_IP_UDP	(sizeof(struct iphdr) + sizeof(struct udphdr))

static void rt_free(struct kunit_resource *res)
{
	struct sr_dev *sdev = res->data;

	sr_counters_free(&sdev->counters);
}

/* A device as the receive path sees it: its counters, all 0. */
static struct sr_dev *rt_dev(struct kunit *test)
{
	struct sr_dev *sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_EQ(test, sr_counters_init(&sdev->counters), 0);
	if (!kunit_alloc_resource(test, NULL, rt_free, GFP_KERNEL, sdev)) {
		sr_counters_free(&sdev->counters);
		KUNIT_ASSERT_FAILURE(test, "no room to track the counters");
	}
	return sdev;
}

/*
 * An skb of @len bytes of @img (IPv4 header on), the last @in_frag of
 * them in a page fragment, its data at the UDP header as UDP hands it
 * over.
 */
static struct sk_buff *rt_skb(struct kunit *test, const u8 *img,
			      unsigned int len, unsigned int in_frag)
{
	struct sk_buff *skb = rxe_kunit_skb(test, img, len, in_frag);

	skb_set_transport_header(skb, sizeof(struct iphdr));
	__skb_pull(skb, sizeof(struct iphdr));
	return skb;
}

/*
 * The image of an IPv4 RoCEv2 packet around @t (BTH on, @tlen bytes,
 * ICRC excluded), its ICRC written if @seal; freed with the test.
 */
static u8 *rt_image(struct kunit *test, const void *t, unsigned int tlen,
		    bool seal)
{
	unsigned int len = RT_IP_UDP + tlen + SR_ICRC_BYTES;
	u8 *img = kunit_kzalloc(test, len, GFP_KERNEL);
	struct iphdr *ip = (struct iphdr *)img;
	struct udphdr *udp = (struct udphdr *)(ip + 1);
	struct sk_buff *skb;

	KUNIT_ASSERT_NOT_NULL(test, img);
	*ip = (struct iphdr){ .version = 4, .ihl = 5, .ttl = 64,
			      .protocol = IPPROTO_UDP,
			      .tot_len = htons(len),
			      .frag_off = htons(IP_DF),
			      .saddr = htonl(0x0a0b0002),
			      .daddr = htonl(0x0a0b0001) };
	*udp = (struct udphdr){ .source = htons(49152),
				.dest = htons(ROCE_V2_UDP_DPORT),
				.len = htons(len - sizeof(*ip)) };
	memcpy(udp + 1, t, tlen);
	if (seal) {
		skb = rt_skb(test, img, len, 0);
		KUNIT_ASSERT_EQ(test, sr_icrc_put(skb, tlen + SR_ICRC_BYTES),
				0);
		KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, -(int)sizeof(*ip),
						    img, len), 0);
		kfree_skb(skb);
	}
	return img;
}

/* Every counter's value, checked against @want (counter, value pairs). */
static void rt_expect(struct kunit *test, struct sr_dev *sdev,
		      const u64 *want)
{
	int i;

	for (i = 0; i < SR_NR_COUNTERS; i++)
		KUNIT_EXPECT_EQ_MSG(test, sr_counter_read(&sdev->counters, i),
				    want[i], "counter %d", i);
}

/*
 * A transport packet of @op with @hdrs bytes of extended headers and
 * @pay bytes of payload (a multiple of 4), to QP @qpn; its length.
 */
static unsigned int rt_transport(u8 *t, u8 op, unsigned int hdrs,
				 unsigned int pay, u32 qpn)
{
	sr_bth_init(t, op, false, 0, 0xffff, qpn, false, 7);
	memset(t + SR_BTH_BYTES, 0x5a, hdrs + pay);
	return SR_BTH_BYTES + hdrs + pay;
}

/* Receives @img (@len bytes from IP on, @in_frag of them in a frag). */
static void rt_recv(struct kunit *test, struct sr_dev *sdev, const u8 *img,
		    unsigned int len, unsigned int in_frag)
{
	sr_recv(sdev, rt_skb(test, img, len, in_frag));
}

static void rt_good(struct kunit *test)
{
	struct sr_dev *sdev = rt_dev(test);
	u64 want[SR_NR_COUNTERS] = {};
	u8 t[64];
	unsigned int tlen = rt_transport(t, IB_OPCODE_RC_SEND_ONLY, 0, 32,
					 0x123456);
	unsigned int len = RT_IP_UDP + tlen + SR_ICRC_BYTES;
	u8 *img = rt_image(test, t, tlen, true);

	rt_recv(test, sdev, img, len, 0);
	want[SR_RCVD_PKTS] = 1;
	want[SR_DROP_QPN] = 1;
	rt_expect(test, sdev, want);

	/* The same with its headers in a fragment, or only its ICRC */
	rt_recv(test, sdev, img, len, len - RT_IP_UDP);
	rt_recv(test, sdev, img, len, SR_ICRC_BYTES);
	rt_recv(test, sdev, img, len, tlen - 2);
	want[SR_RCVD_PKTS] = 4;
	want[SR_DROP_QPN] = 4;
	rt_expect(test, sdev, want);
}

/* A broken ICRC, wherever the broken byte lies. */
static void rt_bad_icrc(struct kunit *test)
{
	struct sr_dev *sdev = rt_dev(test);
	u64 want[SR_NR_COUNTERS] = {};
	u8 t[64];
	unsigned int tlen = rt_transport(t, IB_OPCODE_UD_SEND_ONLY, 8, 16, 2);
	unsigned int len = RT_IP_UDP + tlen + SR_ICRC_BYTES;
	u8 *img = rt_image(test, t, tlen, true);
	unsigned int at[] = { RT_IP_UDP + 2, RT_IP_UDP + 12, len - 8,
			      len - 1 };
	int i;

	for (i = 0; i < ARRAY_SIZE(at); i++) {
		img[at[i]] ^= 0x10;
		rt_recv(test, sdev, img, len, i & 1 ? len - RT_IP_UDP : 0);
		img[at[i]] ^= 0x10;
	}
	want[SR_DROP_ICRC] = ARRAY_SIZE(at);
	rt_expect(test, sdev, want);
}

/* Headers that fail sr_parse(): each counted by its reason, once. */
static void rt_refused(struct kunit *test)
{
	struct sr_dev *sdev = rt_dev(test);
	u64 want[SR_NR_COUNTERS] = {};
	unsigned int tlen, len;
	u8 t[64], *img;

	/* An opcode nobody speaks */
	tlen = rt_transport(t, 0xff, 0, 16, 1);
	img = rt_image(test, t, tlen, true);
	rt_recv(test, sdev, img, RT_IP_UDP + tlen + SR_ICRC_BYTES, 0);
	want[SR_DROP_OPCODE]++;
	rt_expect(test, sdev, want);

	/* Transport version 1 */
	tlen = rt_transport(t, IB_OPCODE_RC_SEND_ONLY, 0, 16, 1);
	t[1] |= 1;
	img = rt_image(test, t, tlen, true);
	rt_recv(test, sdev, img, RT_IP_UDP + tlen + SR_ICRC_BYTES, 0);
	want[SR_DROP_VERSION]++;
	rt_expect(test, sdev, want);

	/* A RETH cut short, linear and with the cut in a fragment */
	tlen = rt_transport(t, IB_OPCODE_RC_RDMA_WRITE_FIRST, 0, 8, 1);
	img = rt_image(test, t, tlen, true);
	len = RT_IP_UDP + tlen + SR_ICRC_BYTES;
	rt_recv(test, sdev, img, len, 0);
	rt_recv(test, sdev, img, len, len - RT_IP_UDP - 4);
	want[SR_DROP_LENGTH] += 2;
	rt_expect(test, sdev, want);

	/* Payload on an ACK */
	tlen = rt_transport(t, IB_OPCODE_RC_ACKNOWLEDGE, 4, 8, 1);
	img = rt_image(test, t, tlen, true);
	rt_recv(test, sdev, img, RT_IP_UDP + tlen + SR_ICRC_BYTES, 0);
	want[SR_DROP_PAYLOAD]++;
	rt_expect(test, sdev, want);
}

/* Shorter than a BTH, down to an empty datagram. */
static void rt_runts(struct kunit *test)
{
	struct sr_dev *sdev = rt_dev(test);
	u64 want[SR_NR_COUNTERS] = {};
	u8 t[SR_BTH_BYTES];
	u8 *img;
	unsigned int n;

	rt_transport(t, IB_OPCODE_RC_SEND_ONLY, 0, 0, 1);
	img = rt_image(test, t, sizeof(t), false);
	for (n = 0; n <= SR_BTH_BYTES + SR_ICRC_BYTES; n++) {
		struct udphdr *udp = (void *)(img + sizeof(struct iphdr));

		udp->len = htons(sizeof(*udp) + n);
		rt_recv(test, sdev, img, RT_IP_UDP + n, n > 6 ? 6 : 0);
	}
	/* Only the last has room for a BTH and an ICRC: its ICRC is wrong */
	want[SR_DROP_LENGTH] = SR_BTH_BYTES + SR_ICRC_BYTES;
	want[SR_DROP_ICRC] = 1;
	rt_expect(test, sdev, want);
}

/* A packet for a netdev with no device: freed, nothing counted. */
static void rt_no_device(struct kunit *test)
{
	u8 t[64];
	unsigned int tlen = rt_transport(t, IB_OPCODE_RC_SEND_ONLY, 0, 16, 1);
	u8 *img = rt_image(test, t, tlen, true);
	struct sk_buff *skb;

	skb = rt_skb(test, img, RT_IP_UDP + tlen + SR_ICRC_BYTES, 0);
	skb->dev = init_net.loopback_dev;
	KUNIT_EXPECT_EQ(test, sr_udp_recv(NULL, skb), 0);
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE(rt_good),
	KUNIT_CASE(rt_bad_icrc),
	KUNIT_CASE(rt_refused),
	KUNIT_CASE(rt_runts),
	KUNIT_CASE(rt_no_device),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "rdma_rxe_recv",
	.test_cases = rt_cases,
};
kunit_test_suite(rt_suite);
