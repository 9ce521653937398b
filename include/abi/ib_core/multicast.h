/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/multicast.c in the
 * target: the type definitions that file sees (it does not include the
 * core's private header).  Included first by each of our files that
 * exports symbols the target exports from there (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_MULTICAST_H
#define OOT_ABI_IB_CORE_MULTICAST_H

#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/bitops.h>
#include <linux/random.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>

#endif
