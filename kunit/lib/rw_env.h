/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_kunit_lib: the loopback environment of the R/W and MR pool suites.
 *
 * Each case gets its own test device (whose PDs use its local DMA lkey), a
 * PD and a CQ polled directly (suite .init = rw_env_init, .exit =
 * rw_env_exit), tunes the device attributes it needs, then makes RC QPs
 * with rw_qp().  The R/W suites go on to connect two of them and
 * move data between a local scatterlist and a remote buffer that the peer
 * QP registered.
 */
#ifndef RDMA_KUNIT_RW_ENV_H
#define RDMA_KUNIT_RW_ENV_H

#include <kunit/test.h>
#include <linux/scatterlist.h>
#include "tdev.h"

#define RW_PORT		1
#define RW_PAGES	16		/* size of the local and remote buffers */
#define RW_BUF_LEN	(RW_PAGES * PAGE_SIZE)

/*
 * One case's objects.  Owned by the case's kthread; the CQ is polled
 * directly from it, so nothing here is shared.  rw_env_exit() frees
 * whatever of it the case made.
 */
struct rw_env {
	struct kunit *test;
	struct tdev *td;
	struct ib_device *dev;		/* &td->ibdev */
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;		/* issues the RDMA READs/WRITEs */
	struct ib_qp *peer;		/* owns the remote buffer */
	struct ib_qp_init_attr qp_attr;	/* what qp was created with */
	u32 create_flags;		/* of qp, e.g. integrity */

	u8 *lbuf;			/* local data, RW_BUF_LEN */
	struct scatterlist lsg[RW_PAGES];

	u8 *rbuf;			/* remote data, RW_BUF_LEN */
	struct scatterlist rsg;
	struct ib_mr *rmr;		/* registers rbuf for the peer */
	bool rsg_mapped;
};

int rw_env_init(struct kunit *test);
int rw_env_init_integrity(struct kunit *test);
void rw_env_exit(struct kunit *test);
struct ib_qp *rw_qp(struct rw_env *env, u32 max_send_sge, u32 max_rdma_ctxs,
		    struct ib_qp_init_attr *out);
struct ib_qp *rw_qp_flags(struct rw_env *env, u32 max_send_sge,
			  u32 max_rdma_ctxs, u32 create_flags,
			  struct ib_qp_init_attr *out);
int rw_list_len(struct ib_qp *qp, struct list_head *list);

#endif
