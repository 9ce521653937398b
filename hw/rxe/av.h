/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address vectors: where a packet goes (an AH's, or a connected QP's
 * primary path), reduced from the core's struct rdma_ah_attr to what
 * building the packet's IP and Ethernet headers needs.
 */
#ifndef SR_AV_H
#define SR_AV_H

#include <linux/if_ether.h>
#include <linux/in6.h>
#include <rdma/ib_verbs.h>

/**
 * struct sr_av - an address vector
 * @net: RDMA_NETWORK_IPV4 or RDMA_NETWORK_IPV6
 * @saddr: the source address (the source GID: IPv4 as IPv4-mapped IPv6)
 * @daddr: the destination address, likewise
 * @dmac: the destination MAC, as the core resolved it
 * @flow_label: the GRH's flow label (IPv6's, and the UDP source port's)
 * @traffic_class: the IP header's TOS or traffic class
 * @hop_limit: its TTL or hop limit
 * @sgid_index: the source GID's index in the port's table
 * @ifindex: the source GID's netdev (the device's, or a VLAN's over it):
 *	where the route leaves from
 */
struct sr_av {
	enum rdma_network_type net;
	struct in6_addr saddr;
	struct in6_addr daddr;
	u8 dmac[ETH_ALEN];
	u32 flow_label;
	u8 traffic_class;
	u8 hop_limit;
	u8 sgid_index;
	int ifindex;
};

int sr_av_from_attr(struct sr_av *av, const struct rdma_ah_attr *attr);

#endif /* SR_AV_H */
