// SPDX-License-Identifier: GPL-2.0
/*
 * The transmit path (xmit.h), in any context but hard interrupt: the IP
 * stack routes the packet, resolves the neighbour and sends it.  A packet
 * for an address of this machine goes through the loopback device and
 * comes back through the receive path (recv.c finds its device by that
 * address), so a device talks to itself, or to another device of the same
 * namespace, with no path of its own and no recursion from the sender
 * into the receiver.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp.h>
#include "dev.h"
#include "icrc.h"
#include "wire.h"
#include "xmit.h"

static struct dst_entry *sr_route4(struct net *net, const struct sr_av *av)
{
	struct flowi4 fl = {
		.flowi4_oif = av->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.daddr = av->daddr.s6_addr32[3],
		.saddr = av->saddr.s6_addr32[3],
	};
	struct rtable *rt = ip_route_output_key(net, &fl);

	return IS_ERR(rt) ? ERR_CAST(rt) : &rt->dst;
}

static struct dst_entry *sr_route6(struct net *net, const struct sr_av *av)
{
	struct flowi6 fl = {
		.flowi6_oif = av->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.daddr = av->daddr,
		.saddr = av->saddr,
	};

	if (!IS_ENABLED(CONFIG_IPV6))
		return ERR_PTR(-EAFNOSUPPORT);
	return ipv6_stub->ipv6_dst_lookup_flow(net, NULL, &fl, NULL);
}

/**
 * sr_route - the route packets to an address vector take
 * @sdev: the device that sends them
 * @av: where they go
 *
 * Context: any but hard interrupt.
 * Return: the route, held (dst_release()), or an ERR_PTR: no route
 * (-ENETUNREACH, -EHOSTUNREACH, ...), -EAFNOSUPPORT for IPv6 in a kernel
 * without it.
 */
struct dst_entry *sr_route(struct sr_dev *sdev, const struct sr_av *av)
{
	struct net *net = dev_net(sdev->ndev);

	if (av->net == RDMA_NETWORK_IPV4)
		return sr_route4(net, av);
	return sr_route6(net, av);
}

/* Bytes of the network header a packet to @av gets. */
static unsigned int sr_ip_hlen(const struct sr_av *av)
{
	return av->net == RDMA_NETWORK_IPV4 ? sizeof(struct iphdr) :
					      sizeof(struct ipv6hdr);
}

/**
 * sr_pkt_new - a packet to send along a route
 * @dst: the route (sr_route())
 * @av: where it goes
 * @len: its transport bytes, BTH to pad: put, for the caller to write
 * @gfp: how to allocate
 *
 * Its data starts at the BTH; headroom is left for the IP and UDP headers
 * and the route's link-layer ones, tailroom for the ICRC (sr_xmit() adds
 * them all).
 *
 * Return: the packet, or NULL.
 */
struct sk_buff *sr_pkt_new(const struct dst_entry *dst,
			   const struct sr_av *av, unsigned int len, gfp_t gfp)
{
	unsigned int head = LL_RESERVED_SPACE(dst->dev) + sr_ip_hlen(av) +
			    sizeof(struct udphdr);
	struct sk_buff *skb;

	skb = alloc_skb(head + len + SR_ICRC_BYTES, gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, head);
	skb_put(skb, len);
	return skb;
}

static void sr_push_udp(struct sk_buff *skb, __be16 sport)
{
	struct udphdr *uh;

	skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = sport;
	uh->dest = htons(ROCE_V2_UDP_DPORT);
	uh->len = htons(skb->len);
	/* IPv4: none (RoCEv2's custom); IPv6 sums it once the ICRC is in */
	uh->check = 0;
}

static void sr_push_ip4(struct net *net, struct sk_buff *skb,
			const struct sr_av *av)
{
	struct iphdr *iph;

	skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	*iph = (struct iphdr){
		.version = 4,
		.ihl = sizeof(*iph) / 4,
		.tos = av->traffic_class,
		.tot_len = htons(skb->len),
		.frag_off = htons(IP_DF),
		.ttl = av->hop_limit,
		.protocol = IPPROTO_UDP,
		.saddr = av->saddr.s6_addr32[3],
		.daddr = av->daddr.s6_addr32[3],
	};
	/* Before the ICRC, which covers the identification field */
	ip_select_ident(net, skb, NULL);
	skb->protocol = htons(ETH_P_IP);
}

static void sr_push_ip6(struct sk_buff *skb, const struct sr_av *av)
{
	struct ipv6hdr *ip6h;

	skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, av->traffic_class, htonl(av->flow_label));
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = av->hop_limit;
	ip6h->saddr = av->saddr;
	ip6h->daddr = av->daddr;
	skb->protocol = htons(ETH_P_IPV6);
}

/**
 * sr_xmit - send a packet
 * @sdev: the device that sends it
 * @dst: its route (sr_route()); the packet takes a reference of its own
 * @av: where it goes
 * @skb: a packet of sr_pkt_new(), its transport bytes written; consumed
 * @sport: the UDP source port (the flow's entropy)
 *
 * Adds the UDP and IP headers and the ICRC, and hands the packet to the
 * IP stack.  Counts it sent if the stack took it.
 *
 * Context: any but hard interrupt.
 * Return: 0, or why the packet was dropped: -ENOBUFS, -EINVAL for one
 * too short for its headers, or what the stack said.
 */
int sr_xmit(struct sr_dev *sdev, struct dst_entry *dst,
	    const struct sr_av *av, struct sk_buff *skb, __be16 sport)
{
	struct net *net = dev_net(sdev->ndev);
	unsigned int len = skb->len + SR_ICRC_BYTES;
	int ret;

	skb_put(skb, SR_ICRC_BYTES);
	sr_push_udp(skb, sport);
	if (av->net == RDMA_NETWORK_IPV4)
		sr_push_ip4(net, skb, av);
	else
		sr_push_ip6(skb, av);
	skb_dst_set(skb, dst_clone(dst));
	ret = sr_icrc_put(skb, len);
	if (ret) {
		kfree_skb(skb);
		return ret;
	}
	if (av->net == RDMA_NETWORK_IPV4) {
		ret = ip_local_out(net, NULL, skb);
	} else {
		udp6_set_csum(false, skb, &av->saddr, &av->daddr,
			      len + sizeof(struct udphdr));
		ret = ip6_local_out(net, NULL, skb);
	}
	/* Congestion still sent it; a drop says nothing more precise */
	ret = net_xmit_eval(ret);
	if (ret > 0)
		ret = -ENOBUFS;
	if (!ret)
		sr_count(&sdev->counters, SR_SENT_PKTS);
	return ret;
}
