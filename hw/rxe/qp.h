/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Queue pairs: their rings (a send queue of struct rxe_send_wqe, a
 * receive queue of struct rxe_recv_wqe unless the QP uses an SRQ), their
 * number in the device's table, and their state and attributes as
 * modify_qp sets them.  The requester (req.c) turns send WQEs into
 * packets, the responder (resp.c) turns packets into receive completions.
 */
#ifndef SR_QP_H
#define SR_QP_H

#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
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
#define SR_QPN_GSI		1
#define SR_QPN_FIRST		0x11
#define SR_QPN_LAST		0xffffff
/* Atomics whose results a responder keeps for their duplicates */
#define SR_RESP_ATOMICS		16

/**
 * struct sr_qp - a queue pair
 * @ibqp: the core's (the core allocates the whole: INIT_RDMA_OBJ_SIZE)
 * @sq: the send queue, produced by the user for a user's QP
 * @sq_mm: a user QP's mapping entry of @sq, or NULL
 * @rq: the receive queue, unless the QP uses an SRQ (then unused)
 * @rq_mm: a user QP's mapping entry of @rq, or NULL
 * @ref: the device table's reference and one per user on the data path
 *	(sr_qp_get()); the last put completes @unused
 * @unused: what destroy_qp waits for, the QP out of the table
 * @lock: (interrupts off) serializes the state and the attributes below
 *	against modify_qp and query_qp; the data path reads @state without
 *	it (READ_ONCE) and works on a state it saw
 * @state: the QP's state
 * @max_send_sge: scatter entries a send WQE may have (its slot holds them)
 * @max_inline: inline bytes a send WQE may carry
 * @max_recv_sge: scatter entries a receive WQE may have
 * @sq_sig_all: every send WQE completes, signaled or not
 * @attr: the attributes modify_qp set, as query_qp reports them; its
 *	ah_attr holds no GID reference (the path is @av)
 * @av: the primary path (RC and UC), from @attr.ah_attr
 * @sq_lock: (interrupts off) a kernel QP's producer end of @sq
 *	(post_send, from any context)
 * @rq_lock: (interrupts off) a kernel QP's producer end of @rq
 * @req_lock: (BH off) the requester: @sq's consumer end and @req_psn;
 *	taken before @resp_lock and any CQ's lock
 * @req_psn: the PSN of the requester's next packet
 * @req_flags: SR_REQ_PENDING (req.c), atomic bit operations
 * @work: what a caller with interrupts off cannot do (run the
 *	requester, flush the RQ in ERR), and what a requester's run leaves
 *	over its budget
 * @resp_lock: (BH off) the responder: @rq's consumer end, @srq_wqe and
 *	the RC receive state below
 * @srq_wqe: a QP on an SRQ: the WQE the responder took from it (a WQE of
 *	the SRQ's max_sge), else NULL
 *
 * RC, the send side (req_lock; comp.c and req.c):
 * @sends: the kernel's state of each WQE, by its slot in @sq
 * @req_next: the ring index of the WQE the requester sends from next
 *	(from @sq's consumer index up to its producer's)
 * @comp_psn: the oldest PSN not acknowledged
 * @sent_psn: the PSN after the newest one sent
 * @retries: timeouts left before the oldest WQE fails (retry_cnt)
 * @rnr_retries: RNR NAKs left (rnr_retry; 7 is for ever)
 * @rnr_wait: sending waits for the timer after an RNR NAK
 * @timer: the retransmit (and RNR) timer
 *
 * RC, the receive side (resp_lock; resp.c):
 * @resp_psn: the PSN expected next
 * @resp_msn: messages completed (the AETH's MSN)
 * @resp_nak: a sequence NAK went out for the gap at @resp_psn
 * @resp_send: a send is being placed in the WQE at the RQ's head (or in
 *	@srq_wqe), @resp_off bytes of it so far
 * @resp_off: see @resp_send
 * @resp_write: a write is in progress, to @resp_va in the MR of
 *	@resp_rkey, @resp_left bytes left of @resp_wlen
 * @resp_rkey: see @resp_write; each packet looks the MR up again, so that
 *	one invalidated meanwhile takes no more of the message
 * @resp_va: see @resp_write
 * @resp_left: see @resp_write
 * @resp_wlen: see @resp_write
 * @resp_atomics: the last atomics' PSNs and original values, for their
 *	duplicates (answered again, not done again)
 * @resp_atomic_next: where the next one goes in @resp_atomics
 */
struct sr_qp {
	struct ib_qp ibqp;
	struct sr_queue sq;
	struct sr_mmap *sq_mm;
	struct sr_queue rq;
	struct sr_mmap *rq_mm;
	refcount_t ref;
	struct completion unused;
	spinlock_t lock;
	enum ib_qp_state state;
	u32 max_send_sge;
	u32 max_inline;
	u32 max_recv_sge;
	bool sq_sig_all;
	struct ib_qp_attr attr;
	struct sr_av av;
	spinlock_t sq_lock;
	spinlock_t rq_lock;
	spinlock_t req_lock;
	u32 req_psn;
	unsigned long req_flags;
	struct work_struct work;
	spinlock_t resp_lock;
	struct rxe_recv_wqe *srq_wqe;

	struct sr_send *sends;
	u32 req_next;
	u32 comp_psn;
	u32 sent_psn;
	u8 retries;
	u8 rnr_retries;
	bool rnr_wait;
	struct timer_list timer;

	u32 resp_psn;
	u32 resp_msn;
	bool resp_nak;
	bool resp_send;
	u32 resp_off;
	bool resp_write;
	u32 resp_rkey;
	u64 resp_va;
	u32 resp_left;
	u32 resp_wlen;
	struct sr_atomic_res {
		u32 psn;
		bool valid;
		u64 orig;
	} resp_atomics[SR_RESP_ATOMICS];
	u8 resp_atomic_next;
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

struct sr_dev;

struct sr_qp *sr_qp_get(struct sr_dev *sdev, u32 qpn);
void sr_qp_put(struct sr_qp *qp);
bool sr_qp_to_err(struct sr_qp *qp);

/* A QP of datagrams: UD, or the GSI QP (QP1, UD to the wire). */
static inline bool sr_qp_is_ud(const struct sr_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI;
}

/*
 * The QP's state as the data path sees it (modify_qp may change it), and
 * with it what modify_qp set before it (release, sr_modify_qp()).
 */
static inline enum ib_qp_state sr_qp_state(const struct sr_qp *qp)
{
	/* Pairs with the release in sr_modify_qp() and sr_qp_to_err() */
	return smp_load_acquire(&qp->state);
}

#endif /* SR_QP_H */
