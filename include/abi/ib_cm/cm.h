/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_cm's drivers/infiniband/core/cm.c in the target: the
 * type definitions that file sees.  Included first by each of our files
 * that exports ib_cm symbols (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CM_CM_H
#define OOT_ABI_IB_CM_CM_H

#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/err.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/random.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>
#include <linux/kdev_t.h>
#include <linux/etherdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_sysfs.h>
#include <rdma/ibta_vol1_c12.h>
#include <rdma/ib_mad.h>
#include <linux/list.h>
#include <linux/cgroup_rdma.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/ib_verbs.h>
#include <rdma/opa_addr.h>
#include <rdma/restrack.h>
#include <linux/tracepoint.h>
#include <trace/misc/rdma.h>
#include "abi/ib_core/types.h"

#endif
