/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_uverbs' drivers/infiniband/core/uverbs_ioctl.c in the target:
 * the type definitions that file sees, with those of its private headers
 * in types.h and api_types.h.  Included first by each of our files that
 * exports symbols the target exports from there (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_UVERBS_UVERBS_IOCTL_H
#define OOT_ABI_IB_UVERBS_UVERBS_IOCTL_H

#include <rdma/rdma_user_ioctl.h>
#include <rdma/uverbs_ioctl.h>
#include <linux/idr.h>
#include <rdma/uverbs_types.h>
#include <rdma/ib_verbs.h>
#include <linux/mutex.h>
#include <linux/kref.h>
#include <linux/completion.h>
#include <linux/cdev.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/uverbs_std_types.h>
#ifndef UVERBS_MODULE_NAME
#define UVERBS_MODULE_NAME ib_uverbs
#endif
#include <rdma/uverbs_named_ioctl.h>
#include "abi/ib_uverbs/types.h"
#include "abi/ib_uverbs/api_types.h"

#endif
