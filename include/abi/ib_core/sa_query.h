/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/sa_query.c in the
 * target: the type definitions that file sees.  Included first by each of
 * our files that exports symbols the target exports from there
 * (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_SA_QUERY_H
#define OOT_ABI_IB_CORE_SA_QUERY_H

#include <linux/init.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <linux/dma-mapping.h>
#include <linux/kref.h>
#include <linux/xarray.h>
#include <linux/workqueue.h>
#include <uapi/linux/if_ether.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_netlink.h>
#include <net/netlink.h>
#include <uapi/rdma/ib_user_sa.h>
#include <rdma/ib_marshall.h>
#include <rdma/ib_addr.h>
#include <rdma/opa_addr.h>
#include <rdma/rdma_cm.h>
#include <rdma/ib_sa.h>
#include <linux/list.h>
#include <linux/cgroup_rdma.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/opa_smi.h>
#include <rdma/restrack.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include "abi/ib_core/types.h"

#endif
