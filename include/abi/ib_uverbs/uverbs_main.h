/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_uverbs' drivers/infiniband/core/uverbs_main.c in the target:
 * the type definitions that file sees, with those of its private headers
 * in types.h and api_types.h and those of ib_core's core_priv.h in
 * ../ib_core/types.h and ../ib_core/umap.h.  Included first by each of our files that
 * exports symbols the target exports from there (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_UVERBS_UVERBS_MAIN_H
#define OOT_ABI_IB_UVERBS_UVERBS_MAIN_H

#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/file.h>
#include <linux/cdev.h>
#include <linux/anon_inodes.h>
#include <linux/slab.h>
#include <linux/sched/mm.h>
#include <linux/uaccess.h>
#include <rdma/ib.h>
#include <rdma/uverbs_std_types.h>
#include <rdma/rdma_netlink.h>
#include <linux/kref.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_user_verbs.h>
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
#include <linux/workqueue.h>
#include <rdma/ib_smi.h>
#include <rdma/opa_smi.h>
#include <rdma/ib_mad.h>
#include <rdma/restrack.h>
#include <rdma/uverbs_types.h>
#include <rdma/uverbs_ioctl.h>
#include "abi/ib_core/types.h"
#include "abi/ib_core/umap.h"
#include "abi/ib_uverbs/types.h"
#include "abi/ib_uverbs/api_types.h"

#endif
