// SPDX-License-Identifier: GPL-2.0
/*
 * Where a RoCE packet goes on the wire: the destination MAC of an address
 * vector, from its destination GID and its source GID.
 *
 *  - A multicast GID maps onto a multicast MAC (IPv4-mapped or IPv6).
 *  - A link-local destination seen from a RoCE v1 source GID is not
 *    routed: it was made from a MAC (EUI-64) and gives that MAC back.
 *  - Any other GID is an IP address: core/addr/ routes it from the source
 *    GID's netdev and resolves the next hop (ARP, neighbour discovery)
 *    while the caller waits; the route's hop limit goes into the GRH.  A
 *    destination that is an address of this host is reached on the
 *    source netdev itself: its own MAC.
 *
 * Sleeps; no lock of ours.
 */
#include <linux/etherdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_verbs.h>
#include "addr/internal.h"
#include "netdev/internal.h"

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
 * Sleeps.  For a routed destination, also sets the GRH's hop limit.
 *
 * Return: 0; -EINVAL without a source GID attribute or when the two GIDs
 * are not of one IP family; -ENODEV when the source GID has no netdev any
 * more; the routing error, or -ETIMEDOUT when the next hop did not answer.
 */
int roce_resolve_dmac(struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *sattr = ah_attr->grh.sgid_attr;
	struct in6_addr *d = (struct in6_addr *)ah_attr->grh.dgid.raw;
	int hoplimit, ret;

	if (!sattr)
		return -EINVAL;
	if (rdma_is_multicast_addr(d)) {
		roce_multicast_mac(&ah_attr->grh.dgid, ah_attr->roce.dmac);
		return 0;
	}
	if (rdma_link_local_addr(d) && sattr->gid_type == IB_GID_TYPE_ROCE) {
		rdma_get_ll_mac(d, ah_attr->roce.dmac);
		return 0;
	}
	ret = resolve_l2_by_gid(sattr, &ah_attr->grh.dgid, ah_attr->roce.dmac,
				&hoplimit);
	if (!ret)
		ah_attr->grh.hop_limit = hoplimit;
	return ret;
}
