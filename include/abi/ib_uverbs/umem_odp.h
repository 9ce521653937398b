/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_uverbs' drivers/infiniband/core/umem_odp.c in the
 * target: the type definitions that file sees (HMM, the MMU interval
 * notifier, the task and pid types), with those of its private header
 * uverbs.h in types.h.  Included first by each of our files that exports
 * symbols the target exports from there (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_UVERBS_UMEM_ODP_H
#define OOT_ABI_IB_UVERBS_UMEM_ODP_H

#include <linux/types.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/export.h>
#include <linux/vmalloc.h>
#include <linux/hugetlb.h>
#include <linux/interval_tree.h>
#include <linux/hmm.h>
#include <linux/pagemap.h>
#include <rdma/ib_umem_odp.h>
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
#include "abi/ib_uverbs/types.h"

#endif
