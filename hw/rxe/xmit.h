/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transmit path: a route to an address vector, a packet with room for
 * its IP and UDP headers, and its sending through the IP stack.
 */
#ifndef SR_XMIT_H
#define SR_XMIT_H

#include <linux/skbuff.h>
#include <net/dst.h>
#include "av.h"

struct sr_dev;

struct dst_entry *sr_route(struct sr_dev *sdev, const struct sr_av *av);
struct sk_buff *sr_pkt_new(const struct dst_entry *dst,
			   const struct sr_av *av, unsigned int len, gfp_t gfp);
int sr_xmit(struct sr_dev *sdev, struct dst_entry *dst,
	    const struct sr_av *av, struct sk_buff *skb, __be16 sport);

#endif /* SR_XMIT_H */
