/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_uverbs' drivers/infiniband/core/uverbs_marshall.c in
 * the target: the type definitions that file sees (it includes no private
 * header).  Included first by each of our files that exports symbols the
 * target exports from there (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_UVERBS_MARSHALL_H
#define OOT_ABI_IB_UVERBS_MARSHALL_H

#include <linux/export.h>
#include <rdma/ib_marshall.h>

#endif
