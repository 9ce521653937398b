// SPDX-License-Identifier: GPL-2.0
/*
 * Where a RoCE packet goes on the wire: the destination MAC of an address
 * vector, from its destination GID and the netdev of its source GID.
 *
 *  - A multicast GID maps onto a multicast MAC (IPv4-mapped or IPv6).
 *  - A link-local GID made from a MAC (EUI-64) gives that MAC back.
 *  - Any other GID is an IP address: the route to it from the source
 *    GID's netdev names the next hop, whose neighbour entry has the MAC;
 *    an entry not resolved yet is resolved (ARP, neighbour discovery)
 *    while the caller waits, for at most ROCE_NEIGH_WAIT_MS.  A destination
 *    that is an address of this host is reached on the source netdev
 *    itself: its own MAC.
 *
 * Sleeps; no lock of ours.
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/ip6_route.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_verbs.h>
#include "netdev/internal.h"

#define ROCE_NEIGH_WAIT_MS	3000
#define ROCE_NEIGH_POLL_MS	10

/*
 * The MAC of @daddr's next hop behind @dst, resolving it if need be.
 * Return: 0, -EHOSTUNREACH when resolution failed or timed out.
 */
static int roce_neigh_ha(struct dst_entry *dst, const void *daddr, u8 *mac)
{
	unsigned int waited = 0;
	struct neighbour *n;
	int ret = -EHOSTUNREACH;

	if (dst->dev->flags & IFF_LOOPBACK)
		return -EADDRNOTAVAIL;	/* the caller's own address */
	n = dst_neigh_lookup(dst, daddr);
	if (!n)
		return -ENOMEM;
	for (;;) {
		if (READ_ONCE(n->nud_state) & NUD_VALID) {
			neigh_ha_snapshot(mac, n, dst->dev);
			ret = 0;
			break;
		}
		if (waited >= ROCE_NEIGH_WAIT_MS ||
		    (READ_ONCE(n->nud_state) & NUD_FAILED))
			break;
		neigh_event_send(n, NULL);
		msleep(ROCE_NEIGH_POLL_MS);
		waited += ROCE_NEIGH_POLL_MS;
	}
	neigh_release(n);
	return ret;
}

static int roce_route_ipv4(struct net_device *ndev, const union ib_gid *sgid,
			   const union ib_gid *dgid, u8 *mac)
{
	struct flowi4 fl4 = {
		.flowi4_oif = ndev->ifindex,
		.saddr = ((const struct in6_addr *)sgid->raw)->s6_addr32[3],
		.daddr = ((const struct in6_addr *)dgid->raw)->s6_addr32[3],
	};
	struct rtable *rt;
	int ret;

	rt = ip_route_output_key(dev_net(ndev), &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	ret = roce_neigh_ha(&rt->dst, &fl4.daddr, mac);
	ip_rt_put(rt);
	return ret;
}

static int roce_route_ipv6(struct net_device *ndev, const union ib_gid *sgid,
			   const union ib_gid *dgid, u8 *mac)
{
	struct flowi6 fl6 = {
		.flowi6_oif = ndev->ifindex,
		.saddr = *(const struct in6_addr *)sgid->raw,
		.daddr = *(const struct in6_addr *)dgid->raw,
	};
	struct dst_entry *dst;
	int ret;

	if (!IS_ENABLED(CONFIG_IPV6))
		return -EAFNOSUPPORT;
	dst = ip6_route_output(dev_net(ndev), NULL, &fl6);
	ret = dst->error;
	if (!ret)
		ret = roce_neigh_ha(dst, &fl6.daddr, mac);
	dst_release(dst);
	return ret;
}

/* A unicast IP destination: routed from @ndev. */
static int roce_resolve_ip(struct net_device *ndev, const union ib_gid *sgid,
			   const union ib_gid *dgid, u8 *mac)
{
	const struct in6_addr *d = (const struct in6_addr *)dgid->raw;
	int ret;

	if (ipv6_addr_v4mapped(d))
		ret = roce_route_ipv4(ndev, sgid, dgid, mac);
	else
		ret = roce_route_ipv6(ndev, sgid, dgid, mac);
	if (ret == -EADDRNOTAVAIL) {
		/* Our own address: the packet stays on the source netdev. */
		ether_addr_copy(mac, ndev->dev_addr);
		ret = 0;
	}
	return ret;
}

static void roce_multicast_mac(const union ib_gid *dgid, u8 *mac)
{
	const struct in6_addr *d = (const struct in6_addr *)dgid->raw;

	if (ipv6_addr_v4mapped(d))
		ip_eth_mc_map(d->s6_addr32[3], mac);
	else
		ipv6_eth_mc_map(d, mac);
}

/**
 * roce_resolve_dmac - fill a RoCE address vector's destination MAC
 * @ah_attr: a RoCE vector with a GRH and its source GID attribute
 *
 * Sleeps.
 *
 * Return: 0; -EINVAL without a source GID attribute; -ENODEV when the
 * source GID has no netdev any more; -EHOSTUNREACH (or the routing error)
 * when the destination cannot be reached.
 */
int roce_resolve_dmac(struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *sattr = ah_attr->grh.sgid_attr;
	struct in6_addr *d = (struct in6_addr *)ah_attr->grh.dgid.raw;
	struct net_device *ndev;
	int ret;

	if (!sattr)
		return -EINVAL;
	if (rdma_is_multicast_addr(d)) {
		roce_multicast_mac(&ah_attr->grh.dgid, ah_attr->roce.dmac);
		return 0;
	}
	if (rdma_link_local_addr(d)) {
		rdma_get_ll_mac(d, ah_attr->roce.dmac);
		return 0;
	}
	rcu_read_lock();
	ndev = rcu_dereference(sattr->ndev);
	dev_hold(ndev);
	rcu_read_unlock();
	if (!ndev)
		return -ENODEV;
	ret = roce_resolve_ip(ndev, &sattr->gid, &ah_attr->grh.dgid,
			      ah_attr->roce.dmac);
	dev_put(ndev);
	return ret;
}
