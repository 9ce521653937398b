// SPDX-License-Identifier: GPL-2.0
/*
 * The receive path, in the softirq that delivered the packet: find the
 * device, check the packet before anything trusts it (headers, ICRC,
 * destination), count it, and hand it on.  What fails a check is counted
 * by reason (counters.h) and dropped.
 */
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/udp.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <rdma/ib_verbs.h>
#include "dev.h"
#include "icrc.h"
#include "comp.h"
#include "qp.h"
#include "recv.h"
#include "resp.h"
#include "wire.h"

/*
 * The netdev that has a packet's destination address: the packet came
 * through the loopback device from a device of this namespace.  RCU.
 */
static struct net_device *sr_recv_local(const struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);

	if (skb->protocol == htons(ETH_P_IP))
		return __ip_dev_find(net, ip_hdr(skb)->daddr, false);
	if (IS_ENABLED(CONFIG_IPV6) && skb->protocol == htons(ETH_P_IPV6))
		return ipv6_stub->ipv6_dev_find(net, &ipv6_hdr(skb)->daddr,
						NULL);
	return NULL;
}

/* The device a packet is for, with a reference, or NULL. */
static struct ib_device *sr_recv_dev(const struct sk_buff *skb)
{
	struct net_device *ndev = skb->dev;
	struct ib_device *ibdev = NULL;

	rcu_read_lock();
	if (ndev->flags & IFF_LOOPBACK)
		ndev = sr_recv_local(skb);
	if (ndev)
		ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	/* Over a VLAN: the device is its real netdev's */
	if (!ibdev && ndev && is_vlan_dev(ndev))
		ibdev = ib_device_get_by_netdev(vlan_dev_real_dev(ndev),
						RDMA_DRIVER_RXE);
	rcu_read_unlock();
	return ibdev;
}

/**
 * sr_udp_recv - a packet arrived on RoCEv2's UDP port
 * @sk: the namespace's socket
 * @skb: the packet; UDP checked its length and checksum, its data is at
 *	the UDP header
 *
 * Context: softirq (the socket's encap_rcv).
 * Return: 0: the packet is consumed, whatever it was.
 */
int sr_udp_recv(struct sock *sk, struct sk_buff *skb)
{
	struct ib_device *ibdev = sr_recv_dev(skb);

	if (!ibdev) {
		kfree_skb(skb);
		return 0;
	}
	sr_recv(to_sr_dev(ibdev), skb);
	ib_device_put(ibdev);
	return 0;
}

/*
 * The checks that need no QP: the headers (sr_parse()), then the ICRC.
 * Fills @pkt; else counts why and returns false.
 */
static bool sr_recv_check(struct sr_dev *sdev, struct sk_buff *skb,
			  struct sr_pkt *pkt)
{
	unsigned int len = skb->len - sizeof(struct udphdr);
	enum sr_bad why;

	/* The headers linear, as far as the packet has them */
	if (skb->len < sizeof(struct udphdr) + SR_BTH_BYTES ||
	    !pskb_may_pull(skb, sizeof(struct udphdr) +
				min_t(unsigned int, len, SR_MAX_HLEN))) {
		sr_count_drop(&sdev->counters, SR_BAD_LENGTH);
		return false;
	}
	why = sr_parse(pkt, skb->data + sizeof(struct udphdr), len);
	if (why != SR_OK) {
		sr_count_drop(&sdev->counters, why);
		return false;
	}
	if (!sr_icrc_ok(skb, len)) {
		sr_count(&sdev->counters, SR_DROP_ICRC);
		return false;
	}
	return true;
}

/*
 * A connected QP (RC, UC) with its path set takes packets only from its
 * peer's address to the address of its own source GID.
 */
static bool sr_recv_from_peer(struct sr_qp *qp, const struct sk_buff *skb)
{
	enum ib_qp_state state = sr_qp_state(qp);
	struct in6_addr from, to;

	if (sr_qp_is_ud(qp) || (state != IB_QPS_RTR && state != IB_QPS_RTS))
		return true;
	if (ip_hdr(skb)->version == 4) {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, &from);
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, &to);
	} else {
		from = ipv6_hdr(skb)->saddr;
		to = ipv6_hdr(skb)->daddr;
	}
	return ipv6_addr_equal(&from, &qp->av.daddr) &&
	       ipv6_addr_equal(&to, &qp->av.saddr);
}

/*
 * Hands a packet that passed the checks to its QP's responder.  True if
 * it was delivered; else it was counted by why it was dropped.
 */
static bool sr_recv_deliver(struct sr_dev *sdev, const struct sk_buff *skb,
			    const struct sr_pkt *pkt)
{
	struct sr_qp *qp = sr_qp_get(sdev, pkt->qpn);
	bool done = false;

	if (!qp) {
		sr_count(&sdev->counters, SR_DROP_QPN);
		return false;
	}
	if (!sr_recv_from_peer(qp, skb))
		sr_count(&sdev->counters, SR_DROP_ADDRESS);
	else if (sr_qp_is_ud(qp) && sr_transport(pkt->opcode) == IB_OPCODE_UD)
		done = sr_resp_ud(qp, skb, pkt);
	else if (qp->ibqp.qp_type == IB_QPT_RC &&
		 sr_transport(pkt->opcode) == IB_OPCODE_RC)
		done = pkt->oi->flags & SR_RESP ? sr_comp_rcv(qp, skb, pkt) :
						  sr_resp_rc(qp, skb, pkt);
	else if (qp->ibqp.qp_type == IB_QPT_UC &&
		 sr_transport(pkt->opcode) == IB_OPCODE_UC)
		done = sr_resp_rc(qp, skb, pkt);
	else
		sr_count(&sdev->counters, SR_DROP_TRANSPORT);
	sr_qp_put(qp);
	return done;
}

/**
 * sr_recv - take in a packet for a device
 * @sdev: the device
 * @skb: the packet, data at its UDP header; consumed
 *
 * Context: softirq.
 */
void sr_recv(struct sr_dev *sdev, struct sk_buff *skb)
{
	struct sr_pkt pkt;

	if (!sr_recv_check(sdev, skb, &pkt))
		goto drop;
	sr_count(&sdev->counters, SR_RCVD_PKTS);
	if (!sr_recv_deliver(sdev, skb, &pkt))
		goto drop;
	consume_skb(skb);
	return;
drop:
	kfree_skb(skb);
}
