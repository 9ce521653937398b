// SPDX-License-Identifier: GPL-2.0
/*
 * The ICRC: the CRC-32 of Ethernet's FCS over a RoCEv2 packet whose
 * fields that routers may change are masked, sent as the FCS is (the
 * complement, least significant byte first).  It covers:
 *
 *   8 bytes of ones (where InfiniBand has its local route header),
 *   the IP header with IPv4's TOS, TTL and checksum, or IPv6's traffic
 *   class, flow label and hop limit, all ones,
 *   the UDP header with its checksum all ones,
 *   the BTH with its FECN/BECN/reserved byte all ones,
 *   the rest of the transport packet up to the ICRC.
 *
 * The masked part is copied to the stack; the rest is summed where it
 * lies, in the linear area or in page fragments, so that no packet is
 * linearized for its CRC.
 */
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include "icrc.h"
#include "wire.h"

#define SR_LRH_ONES	8
/* The ones, the longest IPv4 header, UDP and the BTH */
#define SR_MASKED_MAX	(SR_LRH_ONES + 60 + sizeof(struct udphdr) + SR_BTH_BYTES)

static __wsum sr_crc_update(const void *buf, int len, __wsum crc)
{
	return (__force __wsum)crc32_le((__force u32)crc, buf, len);
}

/* @crc2 was summed from a seed of 0 over the @len2 bytes after @crc's. */
static __wsum sr_crc_combine(__wsum crc, __wsum crc2, int offset, int len2)
{
	return (__force __wsum)crc32_le_combine((__force u32)crc,
						(__force u32)crc2, len2);
}

static const struct skb_checksum_ops sr_crc_ops = {
	.update = sr_crc_update,
	.combine = sr_crc_combine,
};

/* Length of the IP header at @ip once masked in place, or 0 if not IP. */
static unsigned int sr_mask_ip(u8 *ip)
{
	struct ipv6hdr *ip6 = (struct ipv6hdr *)ip;
	struct iphdr *ip4 = (struct iphdr *)ip;

	switch (ip[0] >> 4) {
	case 4:
		ip4->tos = 0xff;
		ip4->ttl = 0xff;
		ip4->check = (__force __sum16)0xffff;
		return ip4->ihl * 4;
	case 6:
		/* version stays; traffic class and flow label */
		ip[0] |= 0x0f;
		memset(&ip[1], 0xff, 3);
		ip6->hop_limit = 0xff;
		return sizeof(*ip6);
	}
	return 0;
}

/* Length of an IP header from its first byte (IPv4's IHL), 0 if not IP. */
static unsigned int sr_ip_len(u8 first)
{
	switch (first >> 4) {
	case 4:
		return (first & 0xf) * 4;
	case 6:
		return sizeof(struct ipv6hdr);
	}
	return 0;
}

/*
 * The ICRC of @skb, whose network header is the IP header, followed by the
 * UDP header (no IPv6 extension headers) and the BTH, and whose transport
 * packet (BTH to ICRC's end) is @len bytes; *@off is where the packet
 * carries it.  -EINVAL if the network header is neither IPv4 nor IPv6 or
 * the packet is shorter than that.
 */
static int sr_icrc(const struct sk_buff *skb, unsigned int len, u32 *icrc,
		   unsigned int *off)
{
	unsigned int nh = skb_network_offset(skb), iplen, masked, cover;
	u8 buf[SR_MASKED_MAX], *ip = &buf[SR_LRH_ONES];
	struct udphdr *udp;
	struct sr_bth *bth;
	u32 crc;

	if (len < SR_BTH_BYTES + SR_ICRC_BYTES || skb_copy_bits(skb, nh, ip, 1))
		return -EINVAL;
	iplen = sr_ip_len(ip[0]);
	masked = iplen + sizeof(*udp) + SR_BTH_BYTES;
	cover = len - SR_BTH_BYTES - SR_ICRC_BYTES;
	if (iplen < sizeof(struct iphdr) ||
	    SR_LRH_ONES + masked > sizeof(buf) ||
	    nh + masked + cover + SR_ICRC_BYTES > skb->len ||
	    skb_copy_bits(skb, nh, ip, masked) || sr_mask_ip(ip) != iplen)
		return -EINVAL;
	memset(buf, 0xff, SR_LRH_ONES);
	udp = (struct udphdr *)(ip + iplen);
	udp->check = (__force __sum16)0xffff;
	bth = (struct sr_bth *)(udp + 1);
	bth->dqpn |= cpu_to_be32(~SR_QPN_MASK);

	crc = crc32_le(~0, buf, SR_LRH_ONES + masked);
	crc = (__force u32)__skb_checksum(skb, nh + masked, cover,
					  (__force __wsum)crc, &sr_crc_ops);
	*icrc = ~crc;
	*off = nh + masked + cover;
	return 0;
}

/**
 * sr_icrc_ok - does a received packet carry its ICRC
 * @skb: the packet; its network header is the IP header (IPv4 or IPv6,
 *	in the linear area), the UDP header follows it (no IPv6 extension
 *	headers), and the BTH follows that
 * @len: bytes of the transport packet, from the BTH to the ICRC's end
 *
 * Return: true if the packet's last four bytes are its ICRC.
 */
bool sr_icrc_ok(const struct sk_buff *skb, unsigned int len)
{
	unsigned int off;
	__le32 wire;
	u32 icrc;

	return !sr_icrc(skb, len, &icrc, &off) &&
	       !skb_copy_bits(skb, off, &wire, sizeof(wire)) &&
	       le32_to_cpu(wire) == icrc;
}

/**
 * sr_icrc_put - write a packet's ICRC into its last four bytes
 * @skb: as for sr_icrc_ok(); the four bytes exist and are writable
 * @len: bytes of the transport packet, from the BTH to the ICRC's end
 *
 * Return: 0, or -EINVAL if the packet is not what sr_icrc_ok() says.
 */
int sr_icrc_put(struct sk_buff *skb, unsigned int len)
{
	unsigned int off;
	__le32 wire;
	u32 icrc;

	if (sr_icrc(skb, len, &icrc, &off))
		return -EINVAL;
	wire = cpu_to_le32(icrc);
	return skb_store_bits(skb, off, &wire, sizeof(wire));
}
