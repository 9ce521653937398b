/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/addr.c in the target:
 * the type definitions that file sees.  Included first by each of our
 * files that exports symbols the target exports from there
 * (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_ADDR_H
#define OOT_ABI_IB_CORE_ADDR_H

#include <linux/mutex.h>
#include <linux/inetdevice.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/arp.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <net/netevent.h>
#include <net/ipv6_stubs.h>
#include <net/ip6_route.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>
#include <rdma/ib.h>
#include <rdma/rdma_netlink.h>
#include <net/netlink.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/cgroup_rdma.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/ib_verbs.h>
#include <rdma/opa_addr.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/opa_smi.h>
#include <rdma/restrack.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include "abi/ib_core/types.h"

#endif
