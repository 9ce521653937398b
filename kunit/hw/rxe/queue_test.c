// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_queue: hw/rxe/queue.c and queue.h, the rings shared
 * with rdma-core's rxe provider: their layout as <rdma/rdma_user_rxe.h>
 * gives it, first in first out across the wrap, and a user who writes
 * anything into the shared header without moving the kernel out of the
 * ring or off its own indices.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include "queue.h"

static struct sr_queue *qt_new(struct kunit *test, u32 depth, size_t elem,
			       enum sr_queue_user user)
{
	struct sr_queue *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_ASSERT_EQ(test, sr_queue_init(q, depth, elem, user), 0);
	return q;
}

/* @p is a whole slot of @q's data area. */
static bool qt_in_ring(const struct sr_queue *q, const void *p)
{
	const u8 *data = q->buf->data, *end = (u8 *)q->buf + q->size;

	return (const u8 *)p >= data &&
	       (const u8 *)p + sr_queue_elem(q) <= end &&
	       ((const u8 *)p - data) % sr_queue_elem(q) == 0;
}

/* The uapi header, and rings sized as asked. */
static void qt_layout(struct kunit *test)
{
	struct sr_queue *q;
	u8 *p;
	size_t i;

	KUNIT_EXPECT_EQ(test, offsetof(struct rxe_queue_buf, producer_index),
			128);
	KUNIT_EXPECT_EQ(test, offsetof(struct rxe_queue_buf, consumer_index),
			256);
	KUNIT_EXPECT_EQ(test, offsetof(struct rxe_queue_buf, data), 384);

	/* One element of a CQE's 48 bytes: two slots of a cache line */
	q = qt_new(test, 1, 48, SR_QUEUE_USER_CONSUMES);
	KUNIT_EXPECT_EQ(test, sr_queue_depth(q), 1);
	KUNIT_EXPECT_EQ(test, sr_queue_elem(q), max(64, L1_CACHE_BYTES));
	KUNIT_EXPECT_EQ(test, q->buf->index_mask, 1);
	KUNIT_EXPECT_EQ(test, 1U << q->buf->log2_elem_size, sr_queue_elem(q));
	KUNIT_EXPECT_EQ(test, q->size, PAGE_SIZE);
	sr_queue_free(q);
	KUNIT_EXPECT_NULL(test, q->buf);

	/* 100 of 200 bytes: 128 slots of 256, one kept free */
	q = qt_new(test, 100, 200, SR_QUEUE_USER_PRODUCES);
	KUNIT_EXPECT_EQ(test, sr_queue_depth(q), 127);
	KUNIT_EXPECT_EQ(test, sr_queue_elem(q), 256);
	KUNIT_EXPECT_EQ(test, q->buf->index_mask, 127);
	KUNIT_EXPECT_EQ(test, q->buf->log2_elem_size, 8);
	KUNIT_EXPECT_EQ(test, q->size, PAGE_ALIGN(384 + 128 * 256));
	KUNIT_EXPECT_EQ(test, q->buf->producer_index, 0);
	KUNIT_EXPECT_EQ(test, q->buf->consumer_index, 0);
	/* The slots start zeroed: nothing of another user's shows */
	p = q->buf->data;
	for (i = 0; i < 128 * 256; i++)
		if (p[i])
			break;
	KUNIT_EXPECT_EQ(test, i, 128 * 256);
	/* A depth of a power of two needs the next: one slot stays free */
	sr_queue_free(q);
	q = qt_new(test, 64, 8, SR_QUEUE_KERNEL);
	KUNIT_EXPECT_EQ(test, sr_queue_depth(q), 127);
	sr_queue_free(q);
}

static void qt_bad_init(struct kunit *test)
{
	struct sr_queue q = {};

	KUNIT_EXPECT_EQ(test, sr_queue_init(&q, 0, 64, SR_QUEUE_KERNEL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sr_queue_init(&q, 16, 0, SR_QUEUE_KERNEL),
			-EINVAL);
	/* depth + 1 would wrap to 0 */
	KUNIT_EXPECT_EQ(test, sr_queue_init(&q, U32_MAX, 64, SR_QUEUE_KERNEL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sr_queue_init(&q, 1U << 17, 64, SR_QUEUE_KERNEL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sr_queue_init(&q, 16, SIZE_MAX, SR_QUEUE_KERNEL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sr_queue_init(&q, 16, SZ_1M + 1,
					    SR_QUEUE_KERNEL), -EINVAL);
	KUNIT_EXPECT_NULL(test, q.buf);
	/* The largest accepted */
	KUNIT_ASSERT_EQ(test, sr_queue_init(&q, (1U << 17) - 1, 64,
					    SR_QUEUE_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, sr_queue_depth(&q), (1U << 17) - 1);
	sr_queue_free(&q);
}

static void qt_put(struct kunit *test, struct sr_queue *q, u32 v)
{
	u32 *slot = sr_queue_next(q);

	KUNIT_ASSERT_NOT_NULL(test, slot);
	*slot = v;
	sr_queue_produced(q);
}

static u32 qt_get(struct kunit *test, struct sr_queue *q)
{
	u32 *slot = sr_queue_head(q), v;

	KUNIT_ASSERT_NOT_NULL(test, slot);
	v = *slot;
	sr_queue_consumed(q);
	return v;
}

/* Both ends the kernel's: full, empty, in order across many wraps. */
static void qt_fifo(struct kunit *test)
{
	struct sr_queue *q = qt_new(test, 7, 4, SR_QUEUE_KERNEL);
	u32 in = 0, out = 0, round, n;

	KUNIT_EXPECT_NULL(test, sr_queue_head(q));
	KUNIT_EXPECT_EQ(test, sr_queue_room(q), 7);
	for (n = 0; n < 7; n++)
		qt_put(test, q, in++);
	KUNIT_EXPECT_NULL(test, sr_queue_next(q));
	KUNIT_EXPECT_EQ(test, sr_queue_room(q), 0);
	KUNIT_EXPECT_EQ(test, sr_queue_count(q), 7);
	while (out < in)
		KUNIT_EXPECT_EQ(test, qt_get(test, q), out++);
	KUNIT_EXPECT_NULL(test, sr_queue_head(q));

	/* Batches of 1 to 7, past the wrap many times */
	for (round = 0; round < 100; round++) {
		for (n = 0; n <= round % 7; n++)
			qt_put(test, q, in++);
		KUNIT_EXPECT_EQ(test, sr_queue_count(q), round % 7 + 1);
		KUNIT_EXPECT_EQ(test, sr_queue_room(q), 7 - (round % 7 + 1));
		while (out < in)
			KUNIT_EXPECT_EQ(test, qt_get(test, q), out++);
		/* Each end published where it stands */
		KUNIT_EXPECT_EQ(test, q->buf->producer_index, q->prod);
		KUNIT_EXPECT_EQ(test, q->buf->consumer_index, q->cons);
		KUNIT_EXPECT_LE(test, q->prod, q->mask);
	}
	KUNIT_EXPECT_EQ(test, in, out);
	sr_queue_free(q);
}

/* A user-produced ring (SQ, RQ, SRQ) whose user writes anything. */
static void qt_user_producer(struct kunit *test)
{
	struct sr_queue *q = qt_new(test, 15, 64, SR_QUEUE_USER_PRODUCES);
	struct rxe_queue_buf *b = q->buf;
	static const u32 junk[] = { 16, 17, 31, 0x80000003, U32_MAX };
	u32 *slot;
	int i;

	/* The user fills two slots and moves its index */
	*(u32 *)sr_queue_slot(q, 0) = 0xa;
	*(u32 *)sr_queue_slot(q, 1) = 0xb;
	/* As the provider publishes: the slots, then the index */
	smp_store_release(&b->producer_index, 2);
	KUNIT_EXPECT_EQ(test, sr_queue_count(q), 2);
	KUNIT_EXPECT_EQ(test, qt_get(test, q), 0xa);
	KUNIT_EXPECT_EQ(test, b->consumer_index, 1);

	/* It rewrites the kernel's index, the mask and the slot size */
	b->consumer_index = 9;
	b->index_mask = U32_MAX;
	b->log2_elem_size = 31;
	KUNIT_EXPECT_EQ(test, sr_queue_count(q), 1);
	KUNIT_EXPECT_EQ(test, qt_get(test, q), 0xb);
	KUNIT_EXPECT_EQ(test, b->consumer_index, 2);

	/* Indices beyond the ring are masked into it */
	for (i = 0; i < ARRAY_SIZE(junk); i++) {
		b->producer_index = junk[i];
		KUNIT_EXPECT_LE(test, sr_queue_count(q), sr_queue_depth(q));
		KUNIT_EXPECT_EQ(test, sr_queue_count(q),
				(junk[i] - 2) & 15);
		slot = sr_queue_head(q);
		if (slot)
			KUNIT_EXPECT_TRUE(test, qt_in_ring(q, slot));
	}
	/* Consuming all the user claims stays in the ring */
	b->producer_index = U32_MAX;
	while ((slot = sr_queue_head(q))) {
		KUNIT_ASSERT_TRUE(test, qt_in_ring(q, slot));
		sr_queue_consumed(q);
	}
	KUNIT_EXPECT_EQ(test, q->cons, 15);
	sr_queue_free(q);
}

/* A user-consumed ring (CQ) whose user writes anything. */
static void qt_user_consumer(struct kunit *test)
{
	struct sr_queue *q = qt_new(test, 3, 48, SR_QUEUE_USER_CONSUMES);
	struct rxe_queue_buf *b = q->buf;
	static const u32 junk[] = { 4, 7, 0x40000001, U32_MAX };
	u32 *slot;
	int i;

	qt_put(test, q, 1);
	qt_put(test, q, 2);
	KUNIT_EXPECT_EQ(test, b->producer_index, 2);
	/* The user consumes one, and rewrites the kernel's index */
	/* As the provider publishes its polls */
	smp_store_release(&b->consumer_index, 1);
	b->producer_index = 0;
	KUNIT_EXPECT_EQ(test, sr_queue_room(q), 2);
	qt_put(test, q, 3);
	KUNIT_EXPECT_EQ(test, b->producer_index, 3);
	KUNIT_EXPECT_EQ(test, *(u32 *)sr_queue_slot(q, 2), 3);
	/* Full until the user consumes */
	qt_put(test, q, 4);
	KUNIT_EXPECT_NULL(test, sr_queue_next(q));

	for (i = 0; i < ARRAY_SIZE(junk); i++) {
		b->consumer_index = junk[i];
		KUNIT_EXPECT_EQ(test, sr_queue_room(q), (junk[i] - 4 - 1) & 3);
		slot = sr_queue_next(q);
		if (slot)
			KUNIT_EXPECT_TRUE(test, qt_in_ring(q, slot));
	}
	sr_queue_free(q);
}

/* Fills @q's consumer side from @first: @n elements, oldest @first. */
static void qt_fill_across_wrap(struct kunit *test, struct sr_queue *q,
				u32 first, u32 n)
{
	u32 i;

	/* Move both ends to 5 so the elements wrap */
	for (i = 0; i < 5; i++)
		qt_put(test, q, 0xdead);
	for (i = 0; i < 5; i++)
		qt_get(test, q);
	for (i = 0; i < n; i++)
		qt_put(test, q, first + i);
}

/* A resize keeps the unconsumed elements, in order, and nothing else. */
static void qt_move(struct kunit *test)
{
	struct sr_queue *from = qt_new(test, 7, 4, SR_QUEUE_KERNEL);
	struct sr_queue *to = qt_new(test, 7, 4, SR_QUEUE_KERNEL);
	struct sr_queue *small = qt_new(test, 3, 4, SR_QUEUE_KERNEL);
	struct sr_queue *wide = qt_new(test, 7, 128, SR_QUEUE_KERNEL);
	u32 i;

	qt_fill_across_wrap(test, from, 100, 6);
	KUNIT_EXPECT_EQ(test, qt_get(test, from), 100);

	KUNIT_EXPECT_EQ(test, sr_queue_move(small, from), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_queue_move(wide, from), -EINVAL);
	KUNIT_ASSERT_EQ(test, sr_queue_move(to, from), 0);
	KUNIT_EXPECT_EQ(test, to->buf->producer_index, 5);
	KUNIT_EXPECT_EQ(test, to->buf->consumer_index, 0);
	KUNIT_EXPECT_EQ(test, sr_queue_count(to), 5);
	KUNIT_EXPECT_EQ(test, sr_queue_room(to), 2);
	for (i = 101; i < 106; i++)
		KUNIT_EXPECT_EQ(test, qt_get(test, to), i);
	KUNIT_EXPECT_NULL(test, sr_queue_head(to));
	/* The old ring is as it was: its user may still map it */
	KUNIT_EXPECT_EQ(test, sr_queue_count(from), 5);
	/* Only into an empty ring */
	qt_put(test, to, 1);
	KUNIT_EXPECT_EQ(test, sr_queue_move(to, from), -EINVAL);
	/* Four do not fit a ring of three; three do */
	qt_get(test, from);
	KUNIT_EXPECT_EQ(test, sr_queue_move(small, from), -EINVAL);
	qt_get(test, from);
	KUNIT_ASSERT_EQ(test, sr_queue_move(small, from), 0);
	KUNIT_EXPECT_EQ(test, qt_get(test, small), 103);
	sr_queue_free(from);
	sr_queue_free(to);
	sr_queue_free(small);
	sr_queue_free(wide);
}

/* A user end's index is the user's, read from the header, masked. */
static void qt_move_user(struct kunit *test)
{
	struct sr_queue *cq = qt_new(test, 7, 4, SR_QUEUE_USER_CONSUMES);
	struct sr_queue *srq = qt_new(test, 7, 4, SR_QUEUE_USER_PRODUCES);
	struct sr_queue *to = qt_new(test, 15, 4, SR_QUEUE_USER_CONSUMES);
	struct sr_queue *to2 = qt_new(test, 15, 4, SR_QUEUE_USER_PRODUCES);
	u32 i;

	/* The CQ: four CQEs from 6; the user polled two of them */
	for (i = 0; i < 6; i++)
		qt_put(test, cq, 0xdead);
	/* As the provider publishes its polls */
	smp_store_release(&cq->buf->consumer_index, 6);
	for (i = 0; i < 4; i++)
		qt_put(test, cq, 10 + i);
	cq->buf->consumer_index = 6 + 2 + 0x100;	/* masked: 8 */
	cq->buf->producer_index = 0;	/* the kernel's: not read back */
	KUNIT_ASSERT_EQ(test, sr_queue_move(to, cq), 0);
	KUNIT_EXPECT_EQ(test, to->buf->producer_index, 2);
	KUNIT_EXPECT_EQ(test, *(u32 *)sr_queue_slot(to, 0), 12);
	KUNIT_EXPECT_EQ(test, *(u32 *)sr_queue_slot(to, 1), 13);

	/* The SRQ: the user posted three, the kernel took one */
	for (i = 0; i < 3; i++)
		*(u32 *)sr_queue_slot(srq, i) = 20 + i;
	/* As the provider posts */
	smp_store_release(&srq->buf->producer_index, 3 + 0x800);
	KUNIT_EXPECT_EQ(test, qt_get(test, srq), 20);
	srq->buf->consumer_index = 7;	/* the kernel's: not read back */
	KUNIT_ASSERT_EQ(test, sr_queue_move(to2, srq), 0);
	KUNIT_EXPECT_EQ(test, to2->buf->producer_index, 2);
	KUNIT_EXPECT_EQ(test, sr_queue_count(to2), 2);
	KUNIT_EXPECT_EQ(test, qt_get(test, to2), 21);
	KUNIT_EXPECT_EQ(test, qt_get(test, to2), 22);
	sr_queue_free(cq);
	sr_queue_free(srq);
	sr_queue_free(to);
	sr_queue_free(to2);
}

static struct kunit_case qt_cases[] = {
	KUNIT_CASE(qt_layout),
	KUNIT_CASE(qt_bad_init),
	KUNIT_CASE(qt_fifo),
	KUNIT_CASE(qt_user_producer),
	KUNIT_CASE(qt_user_consumer),
	KUNIT_CASE(qt_move),
	KUNIT_CASE(qt_move_user),
	{}
};

static struct kunit_suite qt_suite = {
	.name = "rdma_rxe_queue",
	.test_cases = qt_cases,
};
kunit_test_suite(qt_suite);
