// SPDX-License-Identifier: GPL-2.0
/*
 * Making, freeing and resizing the rings of queue.h; producing and
 * consuming are inline there.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "queue.h"

/* A slot is at least a cache line: the two ends rarely share one. */
#define SR_QUEUE_MIN_ELEM	L1_CACHE_BYTES
/* The most slots a ring has; the device's limits are far below. */
#define SR_QUEUE_MAX_SLOTS	(1U << 17)

/**
 * sr_queue_init - make an empty ring
 * @q: the ring
 * @depth: elements it must hold, at least 1
 * @elem: bytes of an element, at least 1
 * @user: the end a user plays, if any
 *
 * The ring holds @depth elements or more (sr_queue_depth() says how
 * many: the slots are a power of two, and one is always free), each in a
 * slot of a power of two bytes, at least a cache line.  Its header says
 * so to the user (log2_elem_size, index_mask); the kernel never reads
 * those back.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @depth or @elem is 0 or too large, -ENOMEM.
 */
int sr_queue_init(struct sr_queue *q, u32 depth, size_t elem,
		  enum sr_queue_user user)
{
	size_t bytes;
	u32 slots;

	if (!depth || depth >= SR_QUEUE_MAX_SLOTS || !elem || elem > SZ_1M)
		return -EINVAL;
	slots = roundup_pow_of_two(depth + 1);
	q->log2_elem = order_base_2(max_t(size_t, elem, SR_QUEUE_MIN_ELEM));
	bytes = size_add(sizeof(*q->buf),
			 array_size(slots, (size_t)1 << q->log2_elem));
	if (bytes > SIZE_MAX - PAGE_SIZE)
		return -EINVAL;
	q->size = PAGE_ALIGN(bytes);
	q->buf = vmalloc_user(q->size);
	if (!q->buf)
		return -ENOMEM;
	q->mask = slots - 1;
	q->prod = 0;
	q->cons = 0;
	q->user = user;
	q->buf->log2_elem_size = q->log2_elem;
	q->buf->index_mask = q->mask;
	return 0;
}

/**
 * sr_queue_free - free a ring's buffer
 * @q: the ring; no user maps it any longer
 */
void sr_queue_free(struct sr_queue *q)
{
	vfree(q->buf);
	q->buf = NULL;
}

/* The producer's index of @q: the kernel's own, or the user's. */
static u32 sr_queue_prod_of(const struct sr_queue *q)
{
	if (q->user == SR_QUEUE_USER_PRODUCES)
		/* As sr_queue_count() reads it */
		return smp_load_acquire(&q->buf->producer_index);
	return q->prod;
}

/* The consumer's index of @q, likewise. */
static u32 sr_queue_cons_of(const struct sr_queue *q)
{
	if (q->user == SR_QUEUE_USER_CONSUMES)
		/* As sr_queue_room() reads it */
		return smp_load_acquire(&q->buf->consumer_index);
	return q->cons;
}

/**
 * sr_queue_move - move the elements of one ring into a new one
 * @to: the new ring, empty, with the slot size of @from
 * @from: the old ring, neither of whose ends moves meanwhile (its owner
 *	holds both ends' locks; a user end is the user's to hold still, as
 *	rdma-core does around a resize)
 *
 * Copies the elements @from's consumer has not consumed, oldest first, to
 * the start of @to, whose producer then stands after them.  @from is left
 * as it is: a user may still map it.
 *
 * Return: 0; -EINVAL if @to's slots differ or @to cannot hold them all.
 */
int sr_queue_move(struct sr_queue *to, const struct sr_queue *from)
{
	u32 cons = sr_queue_cons_of(from);
	u32 n = (sr_queue_prod_of(from) - cons) & from->mask;
	u32 i;

	if (to->log2_elem != from->log2_elem || n > sr_queue_depth(to) ||
	    to->prod != to->cons)
		return -EINVAL;
	for (i = 0; i < n; i++)
		memcpy(sr_queue_slot(to, i), sr_queue_slot(from, cons + i),
		       sr_queue_elem(to));
	to->prod = n;
	to->cons = 0;
	to->buf->producer_index = n;
	to->buf->consumer_index = 0;
	return 0;
}
