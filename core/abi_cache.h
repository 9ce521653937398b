/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ABI profile "cache": exports whose target CRC comes from the GID/P_Key cache (rdma_query_gid, ib_dispatch_event).
 *
 * A file that exports symbols includes exactly one profile, first.  The
 * profile makes visible the same type definitions that the target kernel's
 * exporting file saw, so genksyms computes the same CRC for each export.
 * Add an include here only when scripts/abi-check.py says a type is
 * missing; see Documentation/abi.rst.
 */
#ifndef OOT_CORE_ABI_CACHE_H
#define OOT_CORE_ABI_CACHE_H

#include <linux/if_vlan.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>
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

#endif
