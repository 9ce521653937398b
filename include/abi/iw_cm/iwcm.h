/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of iw_cm's drivers/infiniband/core/iwcm.c in the target: the
 * type definitions that file sees.  It includes the public RDMA headers
 * below and its own private header, whose types no export reaches; it
 * sees neither the core's private header nor the port mapper's, so
 * struct rdma_restrack_root, reached through struct ib_device, stays a
 * declaration here.  Included first by each of our files that exports
 * symbols the target exports from there (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IW_CM_IWCM_H
#define OOT_ABI_IW_CM_IWCM_H

#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/sysctl.h>
#include <rdma/iw_cm.h>
#include <rdma/ib_addr.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

#endif
