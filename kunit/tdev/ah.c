// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: address handles, and the network header that a
 * datagram sent with one carries to its receiver: a GRH on InfiniBand (when
 * the AV has one), and on RoCE always, as the receiving RoCE hardware
 * reports it: an IPv4 header in the last 20 bytes of the room for RoCEv2
 * between IPv4-mapped GIDs, else a GRH, with the network header type in
 * the completion.
 *
 * An AH keeps its own copy of the address vector and of its source GID
 * (the hardware's address vector): the core's GID reference may change
 * with modify_ah while the engine reads the AH.
 *
 * Locking: ah->lock (IRQ-safe, a leaf) protects the address vector and
 * the source GID, written by create_ah and modify_ah, read by the engine.
 * The consumer keeps the AH alive while work requests use it.
 */
#include <linux/ip.h>
#include <net/ipv6.h>
#include <net/ip.h>
#include "tdev_priv.h"

/**
 * struct tv_ah - an address handle
 * @ibah: the core's AH
 * @lock: protects @attr, @sgid and @has_sgid
 * @attr: the address vector, without a GID reference
 * @sgid: the source GID of a GRH
 * @has_sgid: the AV names a source GID entry
 * @gid_type: the type of that entry (RoCE v1 or v2 on RoCE ports)
 */
struct tv_ah {
	struct ib_ah ibah;
	spinlock_t lock;
	struct rdma_ah_attr attr;
	union ib_gid sgid;
	bool has_sgid;
	enum ib_gid_type gid_type;
};

static struct tv_ah *to_tah(struct ib_ah *ibah)
{
	return container_of(ibah, struct tv_ah, ibah);
}

/* Takes in an address vector; the core holds its GID entry meanwhile. */
static void tv_ah_set(struct tv_ah *ah, const struct rdma_ah_attr *attr)
{
	const struct ib_gid_attr *sgid = attr->grh.sgid_attr;
	unsigned long flags;

	spin_lock_irqsave(&ah->lock, flags);
	ah->attr = *attr;
	ah->attr.grh.sgid_attr = NULL;
	ah->has_sgid = (attr->ah_flags & IB_AH_GRH) && sgid;
	if (ah->has_sgid) {
		ah->sgid = sgid->gid;
		ah->gid_type = sgid->gid_type;
	}
	spin_unlock_irqrestore(&ah->lock, flags);
}

/**
 * tv_ah_read - the address vector of an AH, as the engine sends with it
 * @ibah: the AH
 * @av: filled in
 *
 * Any context.
 */
void tv_ah_read(struct ib_ah *ibah, struct tv_av *av)
{
	struct tv_ah *ah = to_tah(ibah);
	unsigned long flags;

	spin_lock_irqsave(&ah->lock, flags);
	av->attr = ah->attr;
	av->sgid = ah->sgid;
	av->has_sgid = ah->has_sgid;
	av->gid_type = ah->gid_type;
	spin_unlock_irqrestore(&ah->lock, flags);
}

/* RoCEv2 over IPv4: the IPv4 header in the last 20 bytes of the room. */
static void tv_fill_ipv4(void *room, const struct tv_av *av, u32 len)
{
	struct iphdr *ip = room + TV_GRH_LEN - sizeof(*ip);

	memset(room, 0, TV_GRH_LEN);
	ip->version = 4;
	ip->ihl = 5;
	ip->tos = av->attr.grh.traffic_class;
	/* IP, UDP, BTH, DETH, payload, ICRC */
	ip->tot_len = cpu_to_be16(sizeof(*ip) + 8 + 12 + 8 + len + 4);
	ip->ttl = av->attr.grh.hop_limit;
	ip->protocol = IPPROTO_UDP;
	memcpy(&ip->saddr, &av->sgid.raw[12], 4);
	memcpy(&ip->daddr, &av->attr.grh.dgid.raw[12], 4);
	ip->check = ip_fast_csum(ip, ip->ihl);
}

/**
 * tv_av_fill_grh - write the network header of a datagram into the
 *	receiver's room, as the receiving hardware does
 * @grh: the first TV_GRH_LEN bytes of the receive buffer
 * @av: the address vector the datagram was sent with
 * @len: the payload length
 * @roce: the datagram arrived on a RoCE port: it always has a network
 *	header, whose type the completion reports
 * @wc: the receive completion, whose flags (and network header type)
 *	are set
 */
bool tv_av_fill_grh(void *grh, const struct tv_av *av, u32 len, bool roce,
		    struct ib_wc *wc)
{
	struct ib_grh *g = grh;
	u8 net = RDMA_NETWORK_IB;

	if (!roce && !(rdma_ah_get_ah_flags(&av->attr) & IB_AH_GRH))
		return false;
	if (roce) {
		if (av->gid_type == IB_GID_TYPE_ROCE)
			net = RDMA_NETWORK_ROCE_V1;
		else if (ipv6_addr_v4mapped((struct in6_addr *)&av->sgid))
			net = RDMA_NETWORK_IPV4;
		else
			net = RDMA_NETWORK_IPV6;
		wc->network_hdr_type = net;
		wc->wc_flags |= IB_WC_WITH_NETWORK_HDR_TYPE;
	}
	wc->wc_flags |= IB_WC_GRH;
	if (net == RDMA_NETWORK_IPV4) {
		tv_fill_ipv4(grh, av, len);
		return true;
	}
	memset(g, 0, sizeof(*g));
	g->version_tclass_flow =
		cpu_to_be32(6 << 28 | av->attr.grh.traffic_class << 20 |
			    av->attr.grh.flow_label);
	g->paylen = cpu_to_be16(len);
	g->next_hdr = roce && net == RDMA_NETWORK_IPV6 ? IPPROTO_UDP : 0x1b;
	g->hop_limit = av->attr.grh.hop_limit;
	if (av->has_sgid)
		g->sgid = av->sgid;
	g->dgid = av->attr.grh.dgid;
	return true;
}

static int tv_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct tv_ah *ah = to_tah(ibah);

	/* Like hardware without a user ABI of its own: empty driver data. */
	if (udata && (udata->inlen || udata->outlen))
		return -EOPNOTSUPP;
	if (!rdma_is_port_valid(ibah->device,
				rdma_ah_get_port_num(init->ah_attr)))
		return -EINVAL;
	spin_lock_init(&ah->lock);
	tv_ah_set(ah, init->ah_attr);
	return 0;
}

static int tv_modify_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	if (!rdma_is_port_valid(ibah->device, rdma_ah_get_port_num(attr)))
		return -EINVAL;
	tv_ah_set(to_tah(ibah), attr);
	return 0;
}

static int tv_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

static int tv_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct tv_ah *ah = to_tah(ibah);
	unsigned long flags;

	spin_lock_irqsave(&ah->lock, flags);
	*attr = ah->attr;
	spin_unlock_irqrestore(&ah->lock, flags);
	return 0;
}

const struct ib_device_ops tdev_ah_ops = {
	.create_ah = tv_create_ah,
	.create_user_ah = tv_create_ah,
	.modify_ah = tv_modify_ah,
	.destroy_ah = tv_destroy_ah,
	.query_ah = tv_query_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, tv_ah, ibah),
};
