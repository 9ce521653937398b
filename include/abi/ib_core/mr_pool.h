/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/mr_pool.c in the target:
 * the type definitions that file sees.  Included first by each of our
 * files that exports symbols the target exports from there
 * (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_MR_POOL_H
#define OOT_ABI_IB_CORE_MR_POOL_H

#include <rdma/ib_verbs.h>
#include <rdma/mr_pool.h>

#endif
