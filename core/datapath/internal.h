/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The internal interface of core/datapath/: what its files share, and the
 * hooks the rest of ib_core calls.
 *
 * Declarations only (see core/device/internal.h for why); non-static
 * functions are named after the file that owns them.
 */
#ifndef OOT_CORE_DATAPATH_INTERNAL_H
#define OOT_CORE_DATAPATH_INTERNAL_H

struct ib_device;
struct ib_qp;
struct ib_qp_init_attr;

/*
 * cq_poll.c: the completion vectors the core spreads CQs over, at most one
 * per online CPU (>= 1), and one of them for a CQ that may use any, in
 * turn.  cq_pool.c creates its sets of CQs on the same vectors.
 */
int cq_poll_nr_vectors(struct ib_device *dev);
int cq_poll_pick_vector(struct ib_device *dev);

/*
 * cq_pool.c: the pool is an ib_client of its own, registered before any
 * other client so that it is removed from a device after all of them, when
 * their CQs are back.  core/main.c calls these at load and unload.
 */
int cq_pool_client_register(void);
void cq_pool_client_unregister(void);

/*
 * rw.c: what QP creation and destruction (core/verbs/qp.c) ask of the R/W
 * API.  A kernel QP created with cap.max_rdma_ctxs reserves send queue room
 * and, on devices that need memory registration for RDMA READ, MR pools for
 * that many R/W contexts: rw_qp_reserve_caps() before the driver creates
 * the QP, rw_qp_create_pools() after; rw_qp_destroy_pools() before the
 * driver destroys it.
 */
void rw_qp_reserve_caps(struct ib_device *dev, struct ib_qp_init_attr *attr);
int rw_qp_create_pools(struct ib_qp *qp, struct ib_qp_init_attr *attr);
void rw_qp_destroy_pools(struct ib_qp *qp);

#endif
