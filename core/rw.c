// SPDX-License-Identifier: GPL-2.0
/*
 * The RDMA read/write API.
 *
 * Placeholder for the QP-creation hooks until the R/W API lands: no send
 * queue room is reserved and no MR pool is built.
 */
#include "abi_rw.h"
#include "rw_priv.h"

void rw_qp_reserve_caps(struct ib_device *dev, struct ib_qp_init_attr *attr)
{
}

int rw_qp_create_pools(struct ib_qp *qp, struct ib_qp_init_attr *attr)
{
	return 0;
}

void rw_qp_destroy_pools(struct ib_qp *qp)
{
}
