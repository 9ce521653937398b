/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared receive queues: a ring of receive WQEs (struct rxe_recv_wqe and
 * its scatter list) that the consumer produces, in the kernel
 * (ib_post_srq_recv()) or in the process that maps it, and the responder
 * of every QP attached consumes.
 */
#ifndef SR_SRQ_H
#define SR_SRQ_H

#include <linux/overflow.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include "mmap.h"
#include "queue.h"

/* The device's limits (query_device) */
#define SR_MAX_SRQ	(1 << 16)
#define SR_MAX_SRQ_WR	((1 << 15) - 1)
#define SR_MAX_SRQ_SGE	32

/**
 * struct sr_srq - a shared receive queue
 * @ibsrq: the core's (the core allocates the whole: INIT_RDMA_OBJ_SIZE)
 * @lock: (interrupts off) serializes a kernel SRQ's producer end (post_srq_recv), the
 *	ring's consumer end, its replacement by a resize, and @limit
 * @q: the ring, produced by the user for a user's SRQ
 * @mm: a user SRQ's mapping entry, which owns @q's buffer; NULL for a
 *	kernel SRQ
 * @max_sge: scatter entries a WQE may have (the slot holds them)
 * @limit: the armed limit (IB_SRQ_LIMIT), 0 when not armed
 */
struct sr_srq {
	struct ib_srq ibsrq;
	spinlock_t lock;
	struct sr_queue q;
	struct sr_mmap *mm;
	u32 max_sge;
	u32 limit;
};

static inline struct sr_srq *to_sr_srq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct sr_srq, ibsrq);
}

int sr_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		  struct ib_udata *udata);
int sr_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		  enum ib_srq_attr_mask mask, struct ib_udata *udata);
int sr_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int sr_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int sr_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		     const struct ib_recv_wr **bad_wr);
bool sr_srq_take(struct sr_srq *srq, struct rxe_recv_wqe *wqe);

/* Bytes of a receive WQE with @max_sge scatter entries. */
static inline size_t sr_rwqe_size(u32 max_sge)
{
	return struct_size((struct rxe_recv_wqe *)NULL, dma.sge, max_sge);
}

#endif /* SR_SRQ_H */
