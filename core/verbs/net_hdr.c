// SPDX-License-Identifier: GPL-2.0
/*
 * The network header of a received UD message: the first 40 bytes of its
 * receive buffer hold an InfiniBand GRH, a RoCE v1 GRH, a RoCE v2 IPv6
 * header, or a RoCE v2 IPv4 header in their last 20 bytes (union
 * rdma_network_hdr).  Which one it is, and the GIDs of its two ends.
 *
 * No state, no lock.
 */
#include "abi/ib_core/verbs.h"
#include "verbs/internal.h"

/**
 * ib_get_rdma_header_version - the IP version of a received network header
 * @hdr: the 40 bytes of the header
 *
 * An IPv6 header (or GRH) has version 6 in its first byte.  Without it,
 * the header can only be IPv4.  With it, the last 20 bytes are still taken
 * for an IPv4 header if they have its form (version 4, no options) and a
 * valid checksum, as a RoCE v2 IPv4 header is preceded by 20 bytes of
 * anything.
 *
 * Return: 4, 6, or 0 when the header is neither.
 */
int ib_get_rdma_header_version(const union rdma_network_hdr *hdr)
{
	const struct iphdr *ip4 = &hdr->roce4grh;
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)&hdr->ibgrh;

	if (ip6->version != 6)
		return ip4->version == 4 ? 4 : 0;
	if (ip4->version != 4 || ip4->ihl != 5)
		return 6;
	return ip_fast_csum(ip4, ip4->ihl) ? 6 : 4;
}
EXPORT_SYMBOL(ib_get_rdma_header_version);

/**
 * ib_get_gids_from_rdma_hdr - the GIDs of a received network header
 * @hdr: the 40 bytes of the header
 * @net_type: what it is (net_hdr_type(), or the completion's
 *	network_hdr_type)
 * @sgid: the sender's GID, out (an IPv4 address is mapped into IPv6)
 * @dgid: the receiver's GID, out
 *
 * Return: 0, or -EINVAL for a network type without GIDs or NULL outputs.
 */
int ib_get_gids_from_rdma_hdr(const union rdma_network_hdr *hdr,
			      enum rdma_network_type net_type,
			      union ib_gid *sgid, union ib_gid *dgid)
{
	if (!sgid || !dgid)
		return -EINVAL;
	switch (net_type) {
	case RDMA_NETWORK_IPV4:
		ipv6_addr_set_v4mapped(hdr->roce4grh.saddr,
				       (struct in6_addr *)sgid);
		ipv6_addr_set_v4mapped(hdr->roce4grh.daddr,
				       (struct in6_addr *)dgid);
		return 0;
	case RDMA_NETWORK_IPV6:
	case RDMA_NETWORK_ROCE_V1:
	case RDMA_NETWORK_IB:
		*sgid = hdr->ibgrh.sgid;
		*dgid = hdr->ibgrh.dgid;
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL(ib_get_gids_from_rdma_hdr);

/**
 * net_hdr_type - what the network header of a received message is
 * @dev: the device it arrived on
 * @port: a valid port of @dev
 * @wc: its completion; the driver's network_hdr_type wins when it gives one
 * @grh: the header
 *
 * Return: RDMA_NETWORK_IB on InfiniBand ports; on RoCE ports v1 unless the
 * port speaks v2 and the header is IPv4 or IPv6 carrying UDP.
 */
enum rdma_network_type net_hdr_type(struct ib_device *dev, u32 port,
				    const struct ib_wc *wc,
				    const struct ib_grh *grh)
{
	if (wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE)
		return wc->network_hdr_type;
	if (!rdma_protocol_roce(dev, port))
		return RDMA_NETWORK_IB;
	if (!rdma_protocol_roce_udp_encap(dev, port))
		return RDMA_NETWORK_ROCE_V1;
	if (ib_get_rdma_header_version((const void *)grh) == 4)
		return RDMA_NETWORK_IPV4;
	if (grh->next_hdr == IPPROTO_UDP ||
	    !rdma_protocol_roce_eth_encap(dev, port))
		return RDMA_NETWORK_IPV6;
	return RDMA_NETWORK_ROCE_V1;
}
