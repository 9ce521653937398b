/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The internal interface of core/addr/: IP addresses to RDMA hardware
 * addresses (<rdma/ib_addr.h>).
 *
 *   local.c    the host's side: sockaddr sizes, the netdev that owns a
 *              local address, a netdev's L2 addresses
 *   route.c    one attempt at a destination: route, source address, hop
 *              limit, sending netdev, the next hop's hardware address
 *   resolve.c  requests: tried at once, then again on the workqueue until
 *              the neighbour table answers or their time is up; the
 *              callback, cancellation
 *
 * resolve.c calls route.c, which calls local.c.  core/netdev/neigh.c
 * resolves the destination MAC of RoCE address vectors through
 * resolve_l2_by_gid(); core/sa/path.c checks RoCE paths' routes with
 * route_roce_network().
 *
 * Lock order: resolve_lock (resolve.c) is innermost; no other lock is taken
 * under it, and neither it nor any other lock of ours is held while a
 * route or neighbour is looked up or a callback runs.
 *
 * Declarations only (core/device/internal.h says why).
 */
#ifndef OOT_CORE_ADDR_INTERNAL_H
#define OOT_CORE_ADDR_INTERNAL_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct ib_gid_attr;
struct net;
struct net_device;
struct rdma_dev_addr;
struct sockaddr;
union ib_gid;

/* local.c; RCU read section held, the netdev is not held */
struct net_device *local_find_ndev_rcu(struct net *net,
				       const struct sockaddr *addr);

/* route.c; may be called in any process context, does not sleep */
int route_attempt(struct net *net, struct sockaddr *src,
		  const struct sockaddr *dst, struct rdma_dev_addr *addr,
		  bool by_gid_attr, bool neigh);
int route_roce_network(const struct ib_gid_attr *sgid_attr,
		       const union ib_gid *dgid,
		       enum rdma_network_type *network);

/* resolve.c; started and stopped by core/main.c */
int resolve_init(void);
void resolve_exit(void);
int resolve_l2_by_gid(const struct ib_gid_attr *sgid_attr,
		      const union ib_gid *dgid, u8 *dmac, int *hoplimit);

#endif
