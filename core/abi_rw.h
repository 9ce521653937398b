/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile "rw": exports whose target CRC comes from the RDMA read/write API.
 *
 * A file that exports symbols includes exactly one profile, first.  The
 * profile makes visible the same type definitions that the target kernel's
 * exporting file saw, so genksyms computes the same CRC for each export.
 * Add an include here only when scripts/abi-check.py says a type is
 * missing; see Documentation/abi.rst.
 */
#ifndef OOT_CORE_ABI_RW_H
#define OOT_CORE_ABI_RW_H

#include <linux/memremap.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/pci-p2pdma.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>

#endif
