/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of core/verbs/ share: the source GID attribute of an
 * address vector, owned by ah.c and used by qp.c for QP paths; the
 * allocation of QPs and the XRC target QPs of qp_user.c; the type of a
 * received network header (net_hdr.c) for ah.c.
 *
 * Declarations only (see core/device/internal.h for why); non-static
 * functions are named after the file that owns them.
 */
#ifndef OOT_CORE_VERBS_INTERNAL_H
#define OOT_CORE_VERBS_INTERNAL_H

#include <rdma/ib_verbs.h>

/*
 * ah_sgid_attr_fill() looks up and references the GID entry that @attr's
 * grh.sgid_index names when the caller gave none, leaving a reference that
 * ah_sgid_attr_unfill() drops; @taken tells the two apart and is NULL when
 * nothing was taken.
 */
int ah_sgid_attr_fill(struct ib_device *dev, struct rdma_ah_attr *attr,
		      const struct ib_gid_attr **taken);
void ah_sgid_attr_unfill(struct rdma_ah_attr *attr,
			 const struct ib_gid_attr *taken);

/*
 * Replaces the reference @cur held on an object's source GID with one on
 * @attr's, returning the new value for the object to store.
 */
const struct ib_gid_attr *ah_sgid_attr_swap(const struct rdma_ah_attr *attr,
					    const struct ib_gid_attr *cur);

/*
 * qp_alloc() (qp.c) allocates a QP with what the core keeps of its
 * creation attributes, for ib_create_qp_kernel() and ib_create_qp_user().
 */
struct ib_qp *qp_alloc(struct ib_device *dev, struct ib_pd *pd,
		       const struct ib_qp_init_attr *attr);

/*
 * XRC target QPs (qp_xrc.c): qp_xrc_adopt() files a new one in its XRC
 * domain and returns its creator's handle; qp_xrc_destroy_handle() is
 * ib_destroy_qp_user() of a handle.
 */
struct ib_qp *qp_xrc_adopt(struct ib_qp *real, struct ib_qp_init_attr *attr);
int qp_xrc_destroy_handle(struct ib_qp *handle);

/* net_hdr.c: what a received message's network header is */
enum rdma_network_type net_hdr_type(struct ib_device *dev, u32 port,
				    const struct ib_wc *wc,
				    const struct ib_grh *grh);

#endif
