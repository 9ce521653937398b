/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RDMA netlink exports that <rdma/rdma_netlink.h> does not declare (the
 * target declares them in a header private to its core), for the modules
 * built on ib_core (uverbs, the CM).  Declarations only.
 */
#ifndef OOT_INCLUDE_CORE_NLDEV_H
#define OOT_INCLUDE_CORE_NLDEV_H

#include <linux/types.h>

bool rdma_nl_get_privileged_qkey(void);

#endif
