/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What core/main.c calls of the SA client (core/sa/port.c, core/sa/mcast.c):
 * its two clients, registered at load after the MAD layer's, whose QP1
 * they send on.
 */
#ifndef OOT_CORE_SA_CLIENT_H
#define OOT_CORE_SA_CLIENT_H

int sa_port_init(void);
void sa_port_exit(void);
int sa_mcast_init(void);
void sa_mcast_exit(void);

#endif
