/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The invariant CRC of RoCEv2 packets.  Pure: callable from any context.
 */
#ifndef SR_ICRC_H
#define SR_ICRC_H

#include <linux/skbuff.h>

bool sr_icrc_ok(const struct sk_buff *skb, unsigned int len);
int sr_icrc_put(struct sk_buff *skb, unsigned int len);

#endif /* SR_ICRC_H */
