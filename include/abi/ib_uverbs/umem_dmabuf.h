/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_uverbs' drivers/infiniband/core/umem_dmabuf.c in the
 * target: the dma-buf headers that file includes, then what its private
 * header uverbs.h brings, with the types uverbs.h defines in types.h.
 * Included first by each of our files that exports symbols the target
 * exports from there (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_UVERBS_UMEM_DMABUF_H
#define OOT_ABI_IB_UVERBS_UMEM_DMABUF_H

#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
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
