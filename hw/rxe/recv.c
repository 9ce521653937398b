// SPDX-License-Identifier: GPL-2.0
/*
 * The receive path, in the softirq that delivered the packet: find the
 * device, check the packet before anything trusts it (headers, ICRC,
 * destination), count it, and hand it on.  What fails a check is counted
 * by reason (counters.h) and dropped.
 */
#include <linux/if_vlan.h>
#include <linux/udp.h>
#include <rdma/ib_verbs.h>
#include "dev.h"
#include "icrc.h"
#include "recv.h"
#include "wire.h"

/* The device a packet that arrived on @ndev is for, with a reference. */
static struct ib_device *sr_recv_dev(struct net_device *ndev)
{
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	/* Over a VLAN: the device is its real netdev's */
	if (!ibdev && is_vlan_dev(ndev))
		ibdev = ib_device_get_by_netdev(vlan_dev_real_dev(ndev),
						RDMA_DRIVER_RXE);
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
	struct ib_device *ibdev = sr_recv_dev(skb->dev);

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
	/* No queue pair exists yet: every destination is unknown */
	sr_count(&sdev->counters, SR_DROP_QPN);
drop:
	kfree_skb(skb);
}
