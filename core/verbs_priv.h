/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel verbs files share inside ib_core, and what the rest of
 * the core calls into them for.
 */
#ifndef OOT_CORE_VERBS_PRIV_H
#define OOT_CORE_VERBS_PRIV_H

#include <rdma/ib_verbs.h>

/*
 * A completion vector for a CQ that may use any (core/cq_poll.c): the
 * device's vectors, at most one per online CPU, in turn.
 */
int ib_cq_pick_vector(struct ib_device *dev);

/* How many completion vectors of @dev the core spreads CQs over (>= 1). */
int ib_cq_nr_vectors(struct ib_device *dev);

/*
 * Frees a device's shared CQs (core/cq_pool.c).  The device model calls it
 * when a device unregisters, after every client is removed; the device's
 * cq_pools[] lists and cq_pools_lock are initialised when it is allocated.
 */
void ib_cq_pool_cleanup(struct ib_device *dev);

/*
 * Source GID attribute of an address vector (core/ah.c).
 * verbs_fill_sgid_attr() looks up and references the GID entry that
 * @attr's grh.sgid_index names when the caller gave none, leaving a
 * reference that verbs_unfill_sgid_attr() drops; @taken tells the two
 * apart and is NULL when nothing was taken.
 */
int verbs_fill_sgid_attr(struct ib_device *dev, struct rdma_ah_attr *attr,
			 const struct ib_gid_attr **taken);
void verbs_unfill_sgid_attr(struct rdma_ah_attr *attr,
			    const struct ib_gid_attr *taken);

/*
 * Replaces the reference @cur held on an object's source GID with one on
 * @attr's, returning the new value for the object to store.
 */
const struct ib_gid_attr *verbs_swap_sgid_attr(const struct rdma_ah_attr *attr,
					       const struct ib_gid_attr *cur);

#endif
