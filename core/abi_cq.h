/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile "cq": exports whose target CRC comes from the completion API (ib_alloc_cq, polling, the CQ pool).
 *
 * A file that exports symbols includes exactly one profile, first.  The
 * profile makes visible the same type definitions that the target kernel's
 * exporting file saw, so genksyms computes the same CRC for each export.
 * Add an include here only when scripts/abi-check.py says a type is
 * missing; see Documentation/abi.rst.
 */
#ifndef OOT_CORE_ABI_CQ_H
#define OOT_CORE_ABI_CQ_H

#include <linux/err.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/cgroup_rdma.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/ib_verbs.h>
#include <rdma/opa_addr.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/opa_smi.h>
#include <rdma/restrack.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include "abi_types.h"
#include <trace/events/rdma_core.h>

#endif
