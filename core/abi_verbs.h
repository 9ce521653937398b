/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile "verbs": exports whose target CRC comes from the kernel verbs (PD, AH, SRQ, QP, CQ objects, MR, drain).
 *
 * A file that exports symbols includes exactly one profile, first.  The
 * profile makes visible the same type definitions that the target kernel's
 * exporting file saw, so genksyms computes the same CRC for each export.
 * Add an include here only when scripts/abi-check.py says a type is
 * missing; see Documentation/abi.rst.
 */
#ifndef OOT_CORE_ABI_VERBS_H
#define OOT_CORE_ABI_VERBS_H

#include <linux/errno.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/addrconf.h>
#include <linux/security.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_addr.h>
#include <rdma/rw.h>
#include <rdma/lag.h>
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
