/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_core exports for ib_uverbs that no public header declares (the
 * target declares them in a header private to its core): user QPs and
 * their use counts, and charging user objects to the RDMA cgroup.
 *
 * Declarations only: including it makes no type visible that the
 * profiles do not, so it changes no symbol version.
 */
#ifndef OOT_INCLUDE_CORE_USER_VERBS_H
#define OOT_INCLUDE_CORE_USER_VERBS_H

#include <linux/cgroup_rdma.h>
#include <rdma/ib_verbs.h>

/* User QPs (core/verbs/qp_user.c) and their use counts (qp.c) */
struct ib_qp *ib_create_qp_user(struct ib_device *device, struct ib_pd *pd,
				struct ib_qp_init_attr *init,
				struct ib_udata *driver_data,
				struct ib_uqp_object *owner, const char *module);
void ib_qp_usecnt_inc(struct ib_qp *qp);
void ib_qp_usecnt_dec(struct ib_qp *qp);

/* The RDMA cgroup (core/device/cgroup.c): charge, then give back */
int ib_rdmacg_try_charge(struct ib_rdmacg_object *obj, struct ib_device *dev,
			 enum rdmacg_resource_type type);
void ib_rdmacg_uncharge(struct ib_rdmacg_object *obj, struct ib_device *dev,
			enum rdmacg_resource_type type);

#endif
