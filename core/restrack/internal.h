/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What core/restrack/ offers the rest of ib_core beyond its exports
 * (include/core/restrack.h): a walk over the listed objects of a type.
 *
 * Declarations only (see core/device/internal.h for why).  Locking: each
 * device->res[type].xa's own lock, taken inside these calls only; no other
 * lock is taken under it.
 */
#ifndef OOT_CORE_RESTRACK_INTERNAL_H
#define OOT_CORE_RESTRACK_INTERNAL_H

#include <rdma/restrack.h>

struct ib_device;

struct rdma_restrack_entry *restrack_get_next(struct ib_device *dev,
					      enum rdma_restrack_type type,
					      unsigned long *id, bool details);

#endif
