/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/rw.c in the target:
 * the type definitions that file sees.  Included first by each of our
 * files that exports symbols the target exports from there
 * (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_RW_H
#define OOT_ABI_IB_CORE_RW_H

#include <linux/memremap.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/pci-p2pdma.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>

#endif
