/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/iter.c in the target:
 * the type definitions that file sees (<rdma/iter.h> and, through it,
 * <rdma/ib_umem.h> and <rdma/ib_verbs.h>).  Included first by each of our
 * files that exports symbols the target exports from there
 * (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_ITER_H
#define OOT_ABI_IB_CORE_ITER_H

#include <linux/export.h>
#include <rdma/iter.h>

#endif
