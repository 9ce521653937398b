/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_kunit_lib: real networks for the suites that need routes and
 * neighbours (address resolution, RoCE destinations): iproute2's "ip" run
 * from the kernel, network namespaces by name, netdevs by name, the one
 * IPv4 setting "ip" cannot make (accept_local).
 *
 * A suite builds its set-up with tnet_ip() ("link add ... type veth peer
 * name ... netns ...", "addr add ...", "route add ...") and takes it down
 * again with it; what it makes is named "kt..." so it cannot collide with
 * anything else of the VM.
 */
#ifndef RDMA_KUNIT_TNET_H
#define RDMA_KUNIT_TNET_H

#include <linux/compiler_attributes.h>
#include <linux/types.h>

struct net;
struct net_device;

int tnet_ip(const char *fmt, ...) __printf(1, 2);
struct net *tnet_netns(const char *name);
struct net_device *tnet_dev(struct net *net, const char *name);
int tnet_accept_local(const char *name);

#endif
