/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What QP creation and destruction ask of the R/W API (core/rw.c).
 *
 * A kernel QP created with cap.max_rdma_ctxs reserves send queue room and,
 * on devices that need memory registration for RDMA READ, MR pools for that
 * many R/W contexts.  ib_create_qp_kernel() calls these in this order:
 * rw_qp_reserve_caps() before the driver creates the QP, rw_qp_create_pools()
 * after; ib_destroy_qp_user() calls rw_qp_destroy_pools() before the driver
 * destroys it.
 */
#ifndef OOT_CORE_RW_PRIV_H
#define OOT_CORE_RW_PRIV_H

struct ib_device;
struct ib_qp;
struct ib_qp_init_attr;

void rw_qp_reserve_caps(struct ib_device *dev, struct ib_qp_init_attr *attr);
int rw_qp_create_pools(struct ib_qp *qp, struct ib_qp_init_attr *attr);
void rw_qp_destroy_pools(struct ib_qp *qp);

#endif
