/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/ib_core_uverbs.c in the
 * target: the type definitions that file sees through ib_uverbs' private
 * uverbs.h (../ib_uverbs/types.h) and the core's core_priv.h (types.h,
 * umap.h).  Included first by each of our files that exports symbols the
 * target exports from there (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_IB_CORE_UVERBS_H
#define OOT_ABI_IB_CORE_IB_CORE_UVERBS_H

#include <linux/xarray.h>
#include <linux/kref.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <linux/cdev.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/uverbs_std_types.h>
#ifndef UVERBS_MODULE_NAME
#define UVERBS_MODULE_NAME ib_uverbs
#endif
#include <rdma/uverbs_named_ioctl.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/cgroup_rdma.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/opa_addr.h>
#include <rdma/ib_mad.h>
#include <linux/err.h>
#include <linux/workqueue.h>
#include <rdma/ib_smi.h>
#include <rdma/opa_smi.h>
#include <rdma/restrack.h>
#include "abi/ib_core/types.h"
#include "abi/ib_core/umap.h"
#include "abi/ib_uverbs/types.h"

#endif
