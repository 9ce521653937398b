// SPDX-License-Identifier: GPL-2.0
/*
 * One attempt at reaching an IP destination from this host: the route to
 * it in a namespace, the source address the route picks, the hop limit,
 * the netdev that sends, and the hardware address of the next hop.
 *
 *  - The namespace and the outgoing interface are the caller's (the
 *    rdma_dev_addr's net and bound_dev_if), or those of the netdev of the
 *    rdma_dev_addr's GID attribute.  An IPv6 link-local address needs an
 *    interface: its scope id gives it when nothing else does, and
 *    contradicting the bound interface is an error, as for sockets.
 *  - A route through the loopback netdev means the destination is an
 *    address of this host: the netdev that owns it (or the bound one)
 *    sends, and the destination hardware address is its own.
 *  - Otherwise the next hop's neighbour entry gives the hardware address.
 *    An entry that is not valid yet is asked to resolve (ARP, neighbour
 *    discovery) and the attempt answers -ENODATA without waiting: the
 *    caller (resolve.c) tries again when the neighbour table changes.
 *  - A routed destination behind an InfiniBand netdev (IPoIB) has no
 *    neighbour entry of its own to read: the attempt answers
 *    -EADDRNOTAVAIL.
 *
 * Does not sleep; no lock of ours.  The RCU read section covers the
 * netdevs read without a reference.
 */
#include "abi/ib_core/addr.h"
#include "addr/internal.h"
#include "core/addr.h"

/* What the route lookup found: the dst is held until route_put(). */
struct route_hop {
	struct dst_entry *dst;
	bool gateway;
	int hoplimit;
};

static void route_put(struct route_hop *hop, sa_family_t family)
{
	if (family == AF_INET)
		ip_rt_put(container_of(hop->dst, struct rtable, dst));
	else
		dst_release(hop->dst);
}

static int route_v4(struct net *net, int oif, struct sockaddr_in *src,
		    const struct sockaddr_in *dst, struct route_hop *hop)
{
	struct flowi4 fl4 = {
		.flowi4_oif = oif,
		.saddr = src->sin_addr.s_addr,
		.daddr = dst->sin_addr.s_addr,
	};
	struct rtable *rt;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	src->sin_addr.s_addr = fl4.saddr;
	hop->dst = &rt->dst;
	hop->gateway = rt->rt_uses_gateway;
	hop->hoplimit = ip4_dst_hoplimit(&rt->dst);
	return 0;
}

/*
 * The interface an IPv6 lookup must use: @oif, else the scope id of a
 * link-local destination or source.  -EINVAL when a link-local address
 * has no interface or names another one than @oif.
 */
static int route_v6_oif(int oif, const struct sockaddr_in6 *src,
			const struct sockaddr_in6 *dst)
{
	const struct sockaddr_in6 *ends[] = { dst, src };
	bool needs_oif = false;
	int i;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		if (!(ipv6_addr_type(&ends[i]->sin6_addr) & IPV6_ADDR_LINKLOCAL))
			continue;
		needs_oif = true;
		if (!ends[i]->sin6_scope_id)
			continue;
		if (oif && oif != ends[i]->sin6_scope_id)
			return -EINVAL;
		oif = ends[i]->sin6_scope_id;
	}
	return needs_oif && !oif ? -EINVAL : oif;
}

static int route_v6(struct net *net, int oif, struct sockaddr_in6 *src,
		    const struct sockaddr_in6 *dst, struct route_hop *hop)
{
	struct flowi6 fl6 = {
		.daddr = dst->sin6_addr,
		.saddr = src->sin6_addr,
	};
	struct dst_entry *d;

	if (!IS_ENABLED(CONFIG_IPV6))
		return -EAFNOSUPPORT;
	oif = route_v6_oif(oif, src, dst);
	if (oif < 0)
		return oif;
	fl6.flowi6_oif = oif;
	d = ipv6_stub->ipv6_dst_lookup_flow(net, NULL, &fl6, NULL);
	if (IS_ERR(d))
		return PTR_ERR(d);
	src->sin6_addr = fl6.saddr;
	if (ipv6_addr_type(&fl6.saddr) & IPV6_ADDR_LINKLOCAL)
		src->sin6_scope_id = d->dev->ifindex;
	hop->dst = d;
	hop->gateway = container_of(d, struct rt6_info, dst)->rt6i_flags &
		       RTF_GATEWAY;
	hop->hoplimit = ip6_dst_hoplimit(d);
	return 0;
}

/*
 * The source side, under RCU: the netdev that sends (for a route through
 * loopback: @oif's netdev, else the owner of the destination address), its
 * L2 addresses and the network type.  Return: 0, or -ENODEV when a local
 * destination has no netdev.
 */
static int route_source_rcu(struct net *net, int oif,
			    const struct sockaddr *dst,
			    const struct route_hop *hop,
			    struct rdma_dev_addr *addr)
{
	struct net_device *ndev = READ_ONCE(hop->dst->dev);

	if (ndev->flags & IFF_LOOPBACK) {
		ndev = oif ? dev_get_by_index_rcu(net, oif) :
			     local_find_ndev_rcu(net, dst);
		if (!ndev)
			return -ENODEV;
	}
	rdma_copy_src_l2_addr(addr, ndev);
	if (hop->gateway && ndev->type != ARPHRD_INFINIBAND)
		addr->network = dst->sa_family == AF_INET ? RDMA_NETWORK_IPV4 :
							    RDMA_NETWORK_IPV6;
	else
		addr->network = RDMA_NETWORK_IB;
	addr->hoplimit = hop->hoplimit;
	return 0;
}

/*
 * The next hop's hardware address into addr->dst_dev_addr.  Return: 0;
 * -ENODATA while its neighbour entry is being resolved.
 */
static int route_neighbour(const struct route_hop *hop,
			   const struct sockaddr *dst,
			   struct rdma_dev_addr *addr)
{
	const void *daddr = dst->sa_family == AF_INET ?
		(const void *)&((const struct sockaddr_in *)dst)->sin_addr :
		(const void *)&((const struct sockaddr_in6 *)dst)->sin6_addr;
	struct neighbour *n;
	int ret = 0;

	if (hop->dst->dev->flags & IFF_LOOPBACK) {
		memcpy(addr->dst_dev_addr, addr->src_dev_addr, MAX_ADDR_LEN);
		return 0;
	}
	if (hop->gateway && addr->network == RDMA_NETWORK_IB)
		return -EADDRNOTAVAIL;
	n = dst_neigh_lookup(hop->dst, daddr);
	if (!n)
		return -ENODATA;
	if (READ_ONCE(n->nud_state) & NUD_VALID) {
		memset(addr->dst_dev_addr, 0, MAX_ADDR_LEN);
		neigh_ha_snapshot(addr->dst_dev_addr, n, hop->dst->dev);
	} else {
		neigh_event_send(n, NULL);
		ret = -ENODATA;
	}
	neigh_release(n);
	return ret;
}

/*
 * The namespace and interface of a GID attribute's netdev, under RCU.
 */
static int route_gid_ndev_rcu(const struct rdma_dev_addr *addr,
			      struct net **net, int *oif)
{
	struct net_device *ndev;

	if (!addr->sgid_attr)
		return -EINVAL;
	ndev = rdma_read_gid_attr_ndev_rcu(addr->sgid_attr);
	if (IS_ERR(ndev))
		return PTR_ERR(ndev);
	*net = dev_net(ndev);
	*oif = ndev->ifindex;
	return 0;
}

/**
 * route_attempt - one attempt at resolving @dst from @src
 * @net: the namespace (ignored with @by_gid_attr)
 * @src: the source address, or the family's any address; the route's
 *	source address is written back
 * @dst: the destination, of @src's family (AF_INET or AF_INET6)
 * @addr: bound_dev_if in; the source and destination L2 addresses,
 *	bound_dev_if, network and hoplimit out
 * @by_gid_attr: route from the netdev (and its namespace) of
 *	addr->sgid_attr instead of @net and addr->bound_dev_if
 * @neigh: also find the next hop's hardware address (else
 *	addr->dst_dev_addr is left alone)
 *
 * Return: 0 when @addr is complete; -ENODATA while the next hop's hardware
 * address is being resolved; the routing error; -EINVAL for a link-local
 * address without a usable interface or a missing GID attribute; -ENODEV.
 */
int route_attempt(struct net *net, struct sockaddr *src,
		  const struct sockaddr *dst, struct rdma_dev_addr *addr,
		  bool by_gid_attr, bool neigh)
{
	struct route_hop hop;
	int oif = addr->bound_dev_if;
	int ret;

	rcu_read_lock();
	if (by_gid_attr) {
		ret = route_gid_ndev_rcu(addr, &net, &oif);
		if (ret)
			goto out_unlock;
	}
	if (dst->sa_family == AF_INET)
		ret = route_v4(net, oif, (struct sockaddr_in *)src,
			       (const struct sockaddr_in *)dst, &hop);
	else
		ret = route_v6(net, oif, (struct sockaddr_in6 *)src,
			       (const struct sockaddr_in6 *)dst, &hop);
	if (ret)
		goto out_unlock;
	ret = route_source_rcu(net, oif, dst, &hop, addr);
	rcu_read_unlock();
	if (!ret && neigh)
		ret = route_neighbour(&hop, dst, addr);
	route_put(&hop, dst->sa_family);
	return ret;

out_unlock:
	rcu_read_unlock();
	return ret;
}

/**
 * route_roce_network - the network between two GIDs from a RoCE GID entry
 * @sgid_attr: the source GID entry, held; routes from its netdev
 * @dgid: the destination GID
 * @network: RDMA_NETWORK_IPV4 or _IPV6 when the route has a gateway (only
 *	RoCE v2 crosses it), else RDMA_NETWORK_IB, out
 *
 * The route only: no neighbour is looked up.  Does not sleep.
 *
 * Return: 0; -EINVAL when the GIDs are not of one IP family; the errors of
 * route_attempt().
 */
int route_roce_network(const struct ib_gid_attr *sgid_attr,
		       const union ib_gid *dgid,
		       enum rdma_network_type *network)
{
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
	} src, dst;
	struct rdma_dev_addr addr = { .sgid_attr = sgid_attr };
	int ret;

	rdma_gid2ip((struct sockaddr *)&src, &sgid_attr->gid);
	rdma_gid2ip((struct sockaddr *)&dst, dgid);
	if (src.sa.sa_family != dst.sa.sa_family)
		return -EINVAL;
	ret = route_attempt(NULL, &src.sa, &dst.sa, &addr, true, false);
	if (!ret)
		*network = addr.network;
	return ret;
}
