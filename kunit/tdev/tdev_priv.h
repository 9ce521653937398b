/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of rdma_kunit_tdev share; not for the suites (tdev.h).
 *
 * The double is a TEST DOUBLE, not a driver for hardware: just real enough
 * for the KUnit suites to drive ib_core with real work requests.  Each file
 * owns one kind of object and says how it is locked:
 *
 *   main.c      module init/exit, the ndevs parameter, the debugfs event file
 *   device.c    device-level ops, PDs, tdev_create/register/destroy
 *   cq.c        completion queues
 *   qp.c        QPs, SRQs and their receive rings
 *   mr.c        MRs, their page lists and what a key reaches in memory
 *   ah.c        address handles and the GRH of a UD message
 *   datapath.c  post_send: work requests executed at post time, memcpy
 *
 * Two QPs of any tdev talk by QP number: a send work request is executed
 * synchronously inside post_send, copying bytes with memcpy from the
 * sender's SGEs into the receiver's posted receive buffers (or from or to
 * the remote MR for RDMA READ/WRITE), and completions go to both CQs before
 * post_send returns.  There are no threads and no work items; a CQ's
 * completion handler runs in the context of the post.
 *
 * Addresses are kernel virtual addresses: the device has no DMA device, so
 * ib_dma_map_*() hand out virtual addresses (ib_uses_virt_dma()).
 *
 * Lock order: a QP's or SRQ's lock is never held while another object's
 * lock is taken; completion and event handlers are called with no lock
 * held.  Lifetime: as the verbs API demands, a consumer does not destroy a
 * QP or MR while work requests use it.
 */
#ifndef RDMA_KUNIT_TDEV_PRIV_H
#define RDMA_KUNIT_TDEV_PRIV_H

#include <rdma/ib_verbs.h>
#include "tdev.h"

#define TV_MAX_WR	1024
#define TV_MAX_SGE	16

/* A posted receive work request. */
struct tv_recv {
	u64 wr_id;		/* also the wr_cqe pointer */
	int num_sge;
	struct ib_sge sge[TV_MAX_SGE];
};

/* A ring of posted receives, inside a QP or an SRQ, under its lock. */
struct tv_rq {
	struct tv_recv *ring;
	u32 size;
	u32 head;
	u32 count;
	u32 max_sge;
};

/**
 * struct tv_qp - a queue pair
 * @ibqp: the core's QP
 * @lock: protects @state, @attr and @rq
 * @state: the QP state
 * @attr: the attributes set by modify_qp
 * @cap: the granted capabilities; constant after create_qp
 * @sig_all: every send work request completes (IB_SIGNAL_ALL_WR);
 *	constant after create_qp
 * @rq: the receive queue (unused with an SRQ)
 */
struct tv_qp {
	struct ib_qp ibqp;
	spinlock_t lock;
	enum ib_qp_state state;
	struct ib_qp_attr attr;
	struct ib_qp_cap cap;
	bool sig_all;
	struct tv_rq rq;
};

static inline struct tv_qp *to_tqp(struct ib_qp *q)
{
	return container_of(q, struct tv_qp, ibqp);
}

/* main.c: the debugfs directory of a registered device */
void tdev_debugfs_add(struct tdev *td);
void tdev_debugfs_remove(struct tdev *td);

/* cq.c */
extern const struct ib_device_ops tdev_cq_ops;
void tv_cq_push(struct ib_cq *ibcq, const struct ib_wc *wc, bool solicited);

/* qp.c */
extern const struct ib_device_ops tdev_qp_ops;
struct tv_qp *tv_qp_lookup(u32 qpn);
enum ib_qp_state tv_qp_state(struct tv_qp *qp);
void tv_qp_error(struct tv_qp *qp);
bool tv_take_recv(struct tv_qp *qp, struct tv_recv *r);

/* mr.c */
extern const struct ib_device_ops tdev_mr_ops;
void *tv_mem_va(struct ib_pd *pd, u32 key, u64 addr, u32 len, int access,
		u32 *chunk);
bool tv_invalidate(struct ib_pd *pd, u32 key);
enum ib_wc_status tv_reg_mr(struct ib_pd *pd, const struct ib_reg_wr *reg);

/* ah.c */
extern const struct ib_device_ops tdev_ah_ops;
bool tv_ah_has_grh(const struct ib_ah *ibah);
void tv_fill_grh(struct ib_grh *grh, const struct ib_ah *ibah, u32 len);

/* datapath.c */
extern const struct ib_device_ops tdev_datapath_ops;

#endif
