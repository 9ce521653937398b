// SPDX-License-Identifier: GPL-2.0
/*
 * Address vectors (av.h) from the core's AH attributes.  Control path.
 */
#include <linux/string.h>
#include <rdma/ib_cache.h>
#include "av.h"

/**
 * sr_av_from_attr - the address vector of AH attributes
 * @av: filled in
 * @attr: RoCE attributes with a GRH whose source GID (sgid_attr, which
 *	the core holds) is a RoCE v2 one of the device
 *
 * Context: any.
 * Return: 0, -EINVAL for attributes that are not RoCE v2's, or -ENODEV
 * when the source GID has no netdev.
 */
int sr_av_from_attr(struct sr_av *av, const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid;
	struct net_device *ndev;

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	sgid = grh->sgid_attr;
	if (!sgid || sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	*av = (struct sr_av){
		.net = rdma_gid_attr_network_type(sgid),
		.flow_label = grh->flow_label,
		.traffic_class = grh->traffic_class,
		.hop_limit = grh->hop_limit,
		.sgid_index = grh->sgid_index,
	};
	memcpy(&av->saddr, sgid->gid.raw, sizeof(av->saddr));
	memcpy(&av->daddr, grh->dgid.raw, sizeof(av->daddr));
	memcpy(av->dmac, attr->roce.dmac, ETH_ALEN);
	/* The held GID keeps its netdev pointer; the netdev may be going */
	rcu_read_lock();
	ndev = rcu_dereference(sgid->ndev);
	if (ndev)
		av->ifindex = ndev->ifindex;
	rcu_read_unlock();
	if (!ndev)
		return -ENODEV;
	/* Both ends of one family: an IPv4 source wants an IPv4 destination */
	if ((av->net == RDMA_NETWORK_IPV4) !=
	    ipv6_addr_v4mapped(&av->daddr))
		return -EINVAL;
	return 0;
}
