/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of rdma_cm's drivers/infiniband/core/cma.c in the target: the
 * type definitions that file sees (its own includes, the core's private
 * header and the trace header of the connection manager).  Included first
 * by each file of core/cma/ (Documentation/abi.rst).
 *
 * The target's private rdma_id_private and cma_device are reached by no
 * exported prototype, so they stay out: our own structures take their
 * place in core/cma/internal.h.
 */
#ifndef OOT_ABI_RDMA_CM_CMA_H
#define OOT_ABI_RDMA_CM_CMA_H

#include <linux/completion.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/rbtree.h>
#include <linux/igmp.h>
#include <linux/xarray.h>
#include <linux/inetdevice.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <net/route.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/netevent.h>
#include <net/tcp.h>
#include <net/ipv6.h>
#include <net/ip_fib.h>
#include <net/ip6_route.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/rdma_netlink.h>
#include <rdma/ib.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_sa.h>
#include <rdma/iw_cm.h>
/* what the core's private header includes */
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/cgroup_rdma.h>
#include <rdma/ib_verbs.h>
#include <rdma/opa_addr.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/opa_smi.h>
#include <rdma/restrack.h>
/* the connection manager's trace header */
#include <linux/tracepoint.h>
#include <trace/misc/rdma.h>
#include "abi/ib_core/types.h"

#endif
