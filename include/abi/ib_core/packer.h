/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/packer.c in the target:
 * the type definitions that file sees (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_PACKER_H
#define OOT_ABI_IB_CORE_PACKER_H

#include <linux/export.h>
#include <linux/string.h>
#include <rdma/ib_pack.h>

#endif
