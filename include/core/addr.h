/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address translation for the modules built on ib_core: the export of
 * core/addr/ that <rdma/ib_addr.h> does not declare (the target declares
 * it in a header private to its core, and its rdma_cm calls it).
 *
 * Declarations only: nothing here is reached by an exported prototype, so
 * including it changes no symbol version.
 */
#ifndef OOT_INCLUDE_CORE_ADDR_H
#define OOT_INCLUDE_CORE_ADDR_H

struct net_device;
struct rdma_dev_addr;

void rdma_copy_src_l2_addr(struct rdma_dev_addr *dev_addr,
			   const struct net_device *dev);

#endif
