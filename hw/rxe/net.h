/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2's UDP port in each network namespace that has a device: the
 * sockets packets arrive through and leave by.
 */
#ifndef SR_NET_H
#define SR_NET_H

#include <net/net_namespace.h>

int sr_net_register(void);
void sr_net_unregister(void);
int sr_net_open(struct net *net);

#endif /* SR_NET_H */
