/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive path: every packet that arrives on RoCEv2's port.
 */
#ifndef SR_RECV_H
#define SR_RECV_H

#include <linux/skbuff.h>
#include <net/sock.h>

struct sr_dev;

int sr_udp_recv(struct sock *sk, struct sk_buff *skb);
void sr_recv(struct sr_dev *sdev, struct sk_buff *skb);

#endif /* SR_RECV_H */
