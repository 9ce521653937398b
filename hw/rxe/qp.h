/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Queue pairs: their rings (a send queue of struct rxe_send_wqe, a
 * receive queue of struct rxe_recv_wqe unless the QP uses an SRQ), their
 * number in the device's table, and their state and attributes as
 * modify_qp sets them.  The requester, responder and completer, which
 * move work through them, come with the data path.
 */
#ifndef SR_QP_H
#define SR_QP_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include "av.h"
#include "mmap.h"
#include "queue.h"

/* The device's limits (query_device) */
#define SR_MAX_QP		(1 << 16)
#define SR_MAX_QP_WR		((1 << 14) - 1)
#define SR_MAX_SGE		32
#define SR_MAX_INLINE		512
#define SR_MAX_RD_ATOMIC	128
/* QP numbers: 0 and 1 are the special QPs', the rest are handed out */
#define SR_QPN_FIRST		0x11
#define SR_QPN_LAST		0xffffff

/**
 * struct sr_qp - a queue pair
 * @ibqp: the core's (the core allocates the whole: INIT_RDMA_OBJ_SIZE)
 * @sq: the send queue, produced by the user for a user's QP
 * @sq_mm: a user QP's mapping entry of @sq, or NULL
 * @rq: the receive queue, unless the QP uses an SRQ (then unused)
 * @rq_mm: a user QP's mapping entry of @rq, or NULL
 * @lock: (interrupts off) serializes the state and the attributes below
 *	against modify_qp, query_qp and the data path
 * @state: the QP's state
 * @max_send_sge: scatter entries a send WQE may have (its slot holds them)
 * @max_inline: inline bytes a send WQE may carry
 * @max_recv_sge: scatter entries a receive WQE may have
 * @sq_sig_all: every send WQE completes, signaled or not
 * @attr: the attributes modify_qp set, as query_qp reports them; its
 *	ah_attr holds no GID reference (the path is @av)
 * @av: the primary path (RC and UC), from @attr.ah_attr
 */
struct sr_qp {
	struct ib_qp ibqp;
	struct sr_queue sq;
	struct sr_mmap *sq_mm;
	struct sr_queue rq;
	struct sr_mmap *rq_mm;
	spinlock_t lock;
	enum ib_qp_state state;
	u32 max_send_sge;
	u32 max_inline;
	u32 max_recv_sge;
	bool sq_sig_all;
	struct ib_qp_attr attr;
	struct sr_av av;
};

static inline struct sr_qp *to_sr_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct sr_qp, ibqp);
}

int sr_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		 struct ib_udata *udata);
int sr_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_udata *udata);
int sr_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		struct ib_qp_init_attr *init);
int sr_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);

#endif /* SR_QP_H */
