/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rings of work requests and completions (struct rxe_queue_buf of
 * <rdma/rdma_user_rxe.h>): a user's SQ, RQ, SRQ and CQ are mapped into
 * its process, where rdma-core's rxe provider produces WQEs and consumes
 * CQEs; a kernel consumer's are the same rings, unmapped.
 *
 * A ring has two ends, the producer's and the consumer's; the kernel is
 * one of them, or both.  Each end the kernel plays keeps its index here
 * (@prod, @cons), publishes it to the shared header with release
 * semantics after the slot is written or read, and never reads it back:
 * a user may write anything anywhere in the mapping.  The other end's
 * index is read from the header with acquire semantics; every count and
 * slot is taken modulo the slots (masked), so a slot pointer always lies
 * in the ring and a count never exceeds its depth, whatever the user
 * wrote.  The
 * contents of a slot the user produced may change under the kernel:
 * copy before checking.
 *
 * Locking: none here.  Each end is serialized by its owner (the CQ's
 * lock for its producer, the QP's send lock for the SQ's consumer, ...);
 * the two ends need no lock between them.
 */
#ifndef SR_QUEUE_H
#define SR_QUEUE_H

#include <linux/types.h>
#include <asm/barrier.h>
#include <rdma/rdma_user_rxe.h>

/* Which end of a ring a user plays, if any. */
enum sr_queue_user {
	SR_QUEUE_KERNEL,		/* none: a kernel consumer's ring */
	SR_QUEUE_USER_PRODUCES,		/* a user's SQ, RQ or SRQ */
	SR_QUEUE_USER_CONSUMES,		/* a user's CQ */
};

/**
 * struct sr_queue - a ring and the kernel's ends of it
 * @buf: the shared header and the slots (vmalloc_user(): mappable, zeroed)
 * @size: bytes of @buf, whole pages
 * @mask: slots - 1; the slots are a power of two, one is always free
 * @log2_elem: log2 of a slot's bytes
 * @prod: the producer's index, when the kernel produces
 * @cons: the consumer's index, when the kernel consumes
 * @user: the end a user plays
 */
struct sr_queue {
	struct rxe_queue_buf *buf;
	size_t size;
	u32 mask;
	u8 log2_elem;
	u32 prod;
	u32 cons;
	enum sr_queue_user user;
};

int sr_queue_init(struct sr_queue *q, u32 depth, size_t elem,
		  enum sr_queue_user user);
void sr_queue_free(struct sr_queue *q);
int sr_queue_move(struct sr_queue *to, const struct sr_queue *from);

/* Elements the ring can hold. */
static inline u32 sr_queue_depth(const struct sr_queue *q)
{
	return q->mask;
}

/* Bytes of a slot. */
static inline size_t sr_queue_elem(const struct sr_queue *q)
{
	return (size_t)1 << q->log2_elem;
}

static inline void *sr_queue_slot(const struct sr_queue *q, u32 index)
{
	return q->buf->data + ((size_t)(index & q->mask) << q->log2_elem);
}

/*
 * Empties a ring at both ends, the user's included (a QP's move to RESET):
 * neither end may move meanwhile (the owner holds its locks).
 */
static inline void sr_queue_reset(struct sr_queue *q)
{
	q->prod = 0;
	q->cons = 0;
	q->buf->producer_index = 0;
	q->buf->consumer_index = 0;
}

/* ---- the producer's end ----------------------------------------------- */

/* Free slots, as the producer sees them. */
static inline u32 sr_queue_room(const struct sr_queue *q)
{
	/* The consumer is done with the slots before its index: acquire */
	u32 cons = smp_load_acquire(&q->buf->consumer_index);

	return (cons - q->prod - 1) & q->mask;
}

/* The slot to fill next, or NULL if the ring is full. */
static inline void *sr_queue_next(const struct sr_queue *q)
{
	return sr_queue_room(q) ? sr_queue_slot(q, q->prod) : NULL;
}

/* Hands the slot sr_queue_next() gave to the consumer. */
static inline void sr_queue_produced(struct sr_queue *q)
{
	q->prod = (q->prod + 1) & q->mask;
	/* The slot's contents before the index that shows it: release */
	smp_store_release(&q->buf->producer_index, q->prod);
}

/* ---- the consumer's end ----------------------------------------------- */

/* Elements waiting, as the consumer sees them. */
static inline u32 sr_queue_count(const struct sr_queue *q)
{
	/* Pairs with the producer's release: the slots are written */
	u32 prod = smp_load_acquire(&q->buf->producer_index);

	return (prod - q->cons) & q->mask;
}

/* The oldest element, or NULL if the ring is empty. */
static inline void *sr_queue_head(const struct sr_queue *q)
{
	return sr_queue_count(q) ? sr_queue_slot(q, q->cons) : NULL;
}

/* Gives the slot sr_queue_head() gave back to the producer. */
static inline void sr_queue_consumed(struct sr_queue *q)
{
	q->cons = (q->cons + 1) & q->mask;
	/* Done reading the slot before the producer may reuse it: release */
	smp_store_release(&q->buf->consumer_index, q->cons);
}

#endif /* SR_QUEUE_H */
