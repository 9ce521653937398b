/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile "mr_pool": exports whose target CRC comes from the MR pool.
 *
 * A file that exports symbols includes exactly one profile, first.  The
 * profile makes visible the same type definitions that the target kernel's
 * exporting file saw, so genksyms computes the same CRC for each export.
 * Add an include here only when scripts/abi-check.py says a type is
 * missing; see Documentation/abi.rst.
 */
#ifndef OOT_CORE_ABI_MR_POOL_H
#define OOT_CORE_ABI_MR_POOL_H

#include <rdma/ib_verbs.h>
#include <rdma/mr_pool.h>

#endif
