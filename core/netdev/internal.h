/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The internal interface of core/netdev/: net devices beneath RDMA ports.
 * binding.c sits above roce_gids.c; neigh.c serves the verbs.  Declarations only (see
 * core/device/internal.h for why).
 */
#ifndef OOT_CORE_NETDEV_INTERNAL_H
#define OOT_CORE_NETDEV_INTERNAL_H

struct ib_device;
struct rdma_ah_attr;

/* roce_gids.c: started and stopped by core/main.c */
int roce_gids_init(void);
void roce_gids_exit(void);
void roce_gids_scan_device(struct ib_device *device);

/* neigh.c: the destination MAC of a RoCE address vector (sleeps) */
int roce_resolve_dmac(struct rdma_ah_attr *ah_attr);

#endif
