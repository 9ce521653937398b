/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile of ib_core's drivers/infiniband/core/ud_header.c in the
 * target: the type definitions that file sees (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_UD_HEADER_H
#define OOT_ABI_IB_CORE_UD_HEADER_H

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/export.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <rdma/ib_pack.h>

#endif
