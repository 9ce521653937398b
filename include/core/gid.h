/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GID types for the modules built on ib_core: the exports of
 * core/device/gid_type.c and core/netdev/roce_gids.c that the public
 * headers do not declare (the target declares them in a header private
 * to its core; its rdma_cm calls them).
 *
 * Declarations only: nothing here is reached by an exported prototype, so
 * including it changes no symbol version.
 */
#ifndef OOT_INCLUDE_CORE_GID_H
#define OOT_INCLUDE_CORE_GID_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

int ib_cache_gid_parse_type_str(const char *buf);
const char *ib_cache_gid_type_str(enum ib_gid_type gid_type);
unsigned long roce_gid_type_mask_support(struct ib_device *ib_dev, u32 port);

#endif
