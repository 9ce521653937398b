/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Completion queues: a ring of completions (queue.h) the driver produces
 * and the consumer polls, in the kernel (ib_poll_cq()) or, for a user's
 * CQ, in the process that maps it (rdma-core's rxe provider).
 */
#ifndef SR_CQ_H
#define SR_CQ_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_user_verbs.h>
#include "mmap.h"
#include "queue.h"

/* The most completions a CQ holds (the device's max_cqe) */
#define SR_MAX_CQE	((1 << 16) - 1)
/* The most CQs a device has (max_cq) */
#define SR_MAX_CQ	(1 << 16)

/**
 * struct sr_cq - a completion queue
 * @ibcq: the core's (the core allocates the whole: INIT_RDMA_OBJ_SIZE)
 * @lock: serializes the ring's producer end (sr_cq_post(), from any
 *	context, hence irqsave), a kernel CQ's consumer end (poll_cq), the
 *	ring's replacement by a resize, @notify and @overflowed
 * @q: the ring: of struct ib_wc for a kernel CQ, of struct ib_uverbs_wc
 *	(the layout of struct ibv_wc) for a user's
 * @mm: a user CQ's mapping entry, which owns @q's buffer; NULL for a
 *	kernel CQ
 * @notify: what req_notify_cq armed: 0, IB_CQ_SOLICITED or
 *	IB_CQ_NEXT_COMP; disarmed by the event it asked for
 * @overflowed: a completion found the ring full and IB_EVENT_CQ_ERR was
 *	reported; the CQ is unusable from then on (as a device's is)
 */
struct sr_cq {
	struct ib_cq ibcq;
	spinlock_t lock;
	struct sr_queue q;
	struct sr_mmap *mm;
	u8 notify;
	bool overflowed;
};

static inline struct sr_cq *to_sr_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct sr_cq, ibcq);
}

int sr_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		 struct ib_udata *udata);
int sr_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int sr_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int sr_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int sr_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

int sr_cq_post(struct sr_cq *cq, const struct ib_wc *wc, bool solicited);
void sr_cq_to_uwc(struct ib_uverbs_wc *uwc, const struct ib_wc *wc);

#endif /* SR_CQ_H */
