/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resource tracking for the modules built on ib_core: the exports that
 * <rdma/restrack.h> does not declare (the target declares them in a header
 * private to its core), and what ib_core reads of the objects it cannot
 * see from <rdma/ib_verbs.h>.
 *
 * An object embeds a struct rdma_restrack_entry ("res"), prepares it with
 * rdma_restrack_new() and names its owner (rdma_restrack_set_name() or
 * rdma_restrack_parent_name()), makes it visible with rdma_restrack_add()
 * once it is fully created and hides it again before it is destroyed:
 * rdma_restrack_del(), or rdma_restrack_begin_del() before a destroy that
 * may fail followed by rdma_restrack_commit_del() or
 * rdma_restrack_abort_del().  ib_core finds the device of an entry from
 * the object around it, by the entry's type.
 *
 * Declarations only: nothing here is reached by an exported prototype, so
 * including it changes no symbol version.
 */
#ifndef OOT_INCLUDE_CORE_RESTRACK_H
#define OOT_INCLUDE_CORE_RESTRACK_H

#include <linux/types.h>
#include <rdma/restrack.h>

struct rdma_cm_id;

/**
 * struct restrack_cm_id - a CM ID as resource tracking sees it
 * @res: the tracking entry, of type RDMA_RESTRACK_CM_ID; the connection
 *	manager embeds this structure in its private ID and passes &@res to
 *	the rdma_restrack_*() calls
 * @id: the CM ID; its device, port, port space, QP type and addresses
 *	are reported
 * @qp_num: the number of the ID's QP, 0 while it has none
 * @state: the connection manager's state of the ID, as reported to users
 */
struct restrack_cm_id {
	struct rdma_restrack_entry res;
	struct rdma_cm_id *id;
	u32 qp_num;
	u8 state;
};

/* Creating: prepare the entry, publish it; its owner is named between. */
void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type);
void rdma_restrack_add(struct rdma_restrack_entry *res);
void rdma_restrack_set_name(struct rdma_restrack_entry *res,
			    const char *caller);
void rdma_restrack_parent_name(struct rdma_restrack_entry *dst,
			       const struct rdma_restrack_entry *parent);

/* Destroying, at once or around a destroy that may fail. */
void rdma_restrack_del(struct rdma_restrack_entry *res);
void rdma_restrack_begin_del(struct rdma_restrack_entry *res);
void rdma_restrack_commit_del(struct rdma_restrack_entry *res);
void rdma_restrack_abort_del(struct rdma_restrack_entry *res);

/* Changing an object that readers may be reporting. */
void rdma_restrack_sync(struct rdma_restrack_entry *res);

#endif
