// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_cq: hw/rxe/cq.c, completion queues as a kernel
 * consumer sees them: sizes refused and granted, completions polled in
 * the order they were posted across the ring's wrap, an overflow reported
 * once, the completion handler called once per arming (and only for a
 * solicited completion when that was asked), resizes that keep what is
 * waiting, posts from interrupt context as a device makes them, and a
 * completion as a user's CQ holds it (struct ibv_wc).
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include "cq.h"
#include "dev.h"

/**
 * struct ct_cq - a CQ under test and what its handlers saw
 * @cq: the CQ (allocated whole, as the core allocates it)
 * @comp_calls: completion handler calls
 * @events: async events; @last_event the last one's
 * @last_event: see @events
 */
struct ct_cq {
	struct sr_cq cq;
	int comp_calls;
	int events;
	enum ib_event_type last_event;
};

static void ct_comp(struct ib_cq *ibcq, void *ctx)
{
	struct ct_cq *t = ctx;

	t->comp_calls++;
}

static void ct_event(struct ib_event *ev, void *ctx)
{
	struct ct_cq *t = ctx;

	t->events++;
	t->last_event = ev->event;
}

static void ct_free(struct kunit_resource *res)
{
	struct ct_cq *t = res->data;

	sr_destroy_cq(&t->cq.ibcq, NULL);
}

/* The device CQs count in (n_cq); one per test. */
static struct ib_device *ct_dev(struct kunit *test)
{
	struct sr_dev *sdev;

	if (!test->priv) {
		sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, sdev);
		test->priv = sdev;
	}
	return &((struct sr_dev *)test->priv)->ibdev;
}

/* A kernel CQ of at least @cqe completions, destroyed with the test. */
static struct ct_cq *ct_new(struct kunit *test, int cqe)
{
	struct ib_cq_init_attr attr = { .cqe = cqe };
	struct ct_cq *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->cq.ibcq.device = ct_dev(test);
	t->cq.ibcq.comp_handler = ct_comp;
	t->cq.ibcq.event_handler = ct_event;
	t->cq.ibcq.cq_context = t;
	KUNIT_ASSERT_EQ(test, sr_create_cq(&t->cq.ibcq, &attr, NULL), 0);
	/* Destroyed before it is freed: resources go last in, first out */
	if (!kunit_alloc_resource(test, NULL, ct_free, GFP_KERNEL, t)) {
		sr_destroy_cq(&t->cq.ibcq, NULL);
		KUNIT_ASSERT_FAILURE(test, "no room to track the CQ");
	}
	return t;
}

static int ct_post(struct ct_cq *t, u64 id, bool solicited)
{
	struct ib_wc wc = { .wr_id = id, .opcode = IB_WC_RECV,
			    .byte_len = id & 0xffff };

	return sr_cq_post(&t->cq, &wc, solicited);
}

/* Polls @n completions, one call, and expects ids @first, @first + 1... */
static void ct_expect(struct kunit *test, struct ct_cq *t, int n, u64 first)
{
	struct ib_wc *wc = kunit_kcalloc(test, n + 1, sizeof(*wc), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, wc);
	KUNIT_ASSERT_EQ(test, sr_poll_cq(&t->cq.ibcq, n + 1, wc), n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, first + i);
		KUNIT_EXPECT_EQ(test, wc[i].byte_len, (first + i) & 0xffff);
		KUNIT_EXPECT_EQ(test, wc[i].opcode, IB_WC_RECV);
	}
	kunit_kfree(test, wc);
}

static void ct_sizes(struct kunit *test)
{
	struct ib_cq_init_attr attr = {};
	struct sr_cq *cq = kunit_kzalloc(test, sizeof(*cq), GFP_KERNEL);
	struct ct_cq *t;
	int bad[] = { 0, -1, SR_MAX_CQE + 1, INT_MAX };
	int i;

	KUNIT_ASSERT_NOT_NULL(test, cq);
	cq->ibcq.device = ct_dev(test);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		attr.cqe = bad[i];
		KUNIT_EXPECT_EQ_MSG(test, sr_create_cq(&cq->ibcq, &attr, NULL),
				    -EINVAL, "cqe %d", bad[i]);
	}
	attr.cqe = 8;
	attr.flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
	KUNIT_EXPECT_EQ(test, sr_create_cq(&cq->ibcq, &attr, NULL),
			-EOPNOTSUPP);

	t = ct_new(test, 1);
	KUNIT_EXPECT_GE(test, t->cq.ibcq.cqe, 1);
	KUNIT_EXPECT_EQ(test, t->cq.ibcq.cqe, sr_queue_depth(&t->cq.q));
	t = ct_new(test, 100);
	KUNIT_EXPECT_GE(test, t->cq.ibcq.cqe, 100);
	t = ct_new(test, SR_MAX_CQE);
	KUNIT_EXPECT_GE(test, t->cq.ibcq.cqe, SR_MAX_CQE);
	KUNIT_EXPECT_EQ(test, ct_post(t, 1, false), 0);
	ct_expect(test, t, 1, 1);
	/* The three made count; refusals do not */
	KUNIT_EXPECT_EQ(test, atomic_read(&to_sr_dev(ct_dev(test))->n_cq), 3);
}

/* No more than max_cq CQs; a destroyed one makes room. */
static void ct_max_cq(struct kunit *test)
{
	struct ib_cq_init_attr attr = { .cqe = 4 };
	struct sr_cq *cq = kunit_kcalloc(test, 2, sizeof(*cq), GFP_KERNEL);
	struct sr_dev *sdev = to_sr_dev(ct_dev(test));
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, cq);
	cq[0].ibcq.device = &sdev->ibdev;
	cq[1].ibcq.device = &sdev->ibdev;
	atomic_set(&sdev->n_cq, SR_MAX_CQ - 1);
	KUNIT_ASSERT_EQ(test, sr_create_cq(&cq[0].ibcq, &attr, NULL), 0);
	ret = sr_create_cq(&cq[1].ibcq, &attr, NULL);
	if (!ret)
		sr_destroy_cq(&cq[1].ibcq, NULL);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&sdev->n_cq), SR_MAX_CQ);
	sr_destroy_cq(&cq[0].ibcq, NULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&sdev->n_cq), SR_MAX_CQ - 1);
	/* Room again: made, and destroyed with the test */
	ct_new(test, 4);
}

/* Oldest first, in batches that wrap the ring several times. */
static void ct_fifo(struct kunit *test)
{
	struct ct_cq *t = ct_new(test, 5);
	int depth = t->cq.ibcq.cqe, round, i;
	struct ib_wc wc[2];
	u64 id = 1;

	KUNIT_EXPECT_EQ(test, sr_poll_cq(&t->cq.ibcq, 4, wc), 0);
	for (round = 0; round < 4 * depth; round++) {
		int n = round % depth + 1;

		for (i = 0; i < n; i++)
			KUNIT_ASSERT_EQ(test, ct_post(t, id + i, false), 0);
		ct_expect(test, t, n, id);
		id += n;
	}
	/* No more than asked for; the rest stays */
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, ct_post(t, id + i, false), 0);
	KUNIT_EXPECT_EQ(test, sr_poll_cq(&t->cq.ibcq, 2, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, id);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, id + 1);
	ct_expect(test, t, 1, id + 2);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 0);
	KUNIT_EXPECT_EQ(test, t->events, 0);
}

/* A full CQ takes nothing more, and says so once. */
static void ct_overflow(struct kunit *test)
{
	struct ct_cq *t = ct_new(test, 4);
	int depth = t->cq.ibcq.cqe, i;

	for (i = 0; i < depth; i++)
		KUNIT_ASSERT_EQ(test, ct_post(t, 10 + i, false), 0);
	KUNIT_EXPECT_EQ(test, t->events, 0);
	KUNIT_EXPECT_EQ(test, ct_post(t, 99, false), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, t->events, 1);
	KUNIT_EXPECT_EQ(test, t->last_event, IB_EVENT_CQ_ERR);
	/* What was there is intact; nothing is taken after the overflow */
	ct_expect(test, t, depth, 10);
	KUNIT_EXPECT_EQ(test, ct_post(t, 100, false), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, t->events, 1);
	ct_expect(test, t, 0, 0);
}

/* The handler, once per arming, for what was asked. */
static void ct_notify(struct kunit *test)
{
	struct ct_cq *t = ct_new(test, 16);
	struct ib_cq *ibcq = &t->cq.ibcq;

	/* Not armed: no call */
	KUNIT_EXPECT_EQ(test, ct_post(t, 1, true), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 0);

	/* The next completion, once */
	KUNIT_EXPECT_EQ(test, sr_req_notify_cq(ibcq, IB_CQ_NEXT_COMP), 0);
	KUNIT_EXPECT_EQ(test, ct_post(t, 2, false), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 1);
	KUNIT_EXPECT_EQ(test, ct_post(t, 3, false), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 1);

	/* The next solicited one: an unsolicited one does not fire it */
	sr_req_notify_cq(ibcq, IB_CQ_SOLICITED);
	KUNIT_EXPECT_EQ(test, ct_post(t, 4, false), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 1);
	KUNIT_EXPECT_EQ(test, ct_post(t, 5, true), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 2);
	KUNIT_EXPECT_EQ(test, ct_post(t, 6, true), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 2);

	/* Armed for any: a later arming for solicited ones does not narrow */
	sr_req_notify_cq(ibcq, IB_CQ_NEXT_COMP);
	sr_req_notify_cq(ibcq, IB_CQ_SOLICITED);
	KUNIT_EXPECT_EQ(test, ct_post(t, 7, false), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 3);
	/* Armed for solicited ones: a later arming for any widens */
	sr_req_notify_cq(ibcq, IB_CQ_SOLICITED);
	sr_req_notify_cq(ibcq, IB_CQ_NEXT_COMP);
	KUNIT_EXPECT_EQ(test, ct_post(t, 8, false), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 4);

	/* Missed events: completions waiting, then none */
	KUNIT_EXPECT_EQ(test, sr_req_notify_cq(ibcq, IB_CQ_NEXT_COMP |
					       IB_CQ_REPORT_MISSED_EVENTS), 1);
	ct_expect(test, t, 8, 1);
	KUNIT_EXPECT_EQ(test, sr_req_notify_cq(ibcq, IB_CQ_NEXT_COMP |
					       IB_CQ_REPORT_MISSED_EVENTS), 0);
	KUNIT_EXPECT_EQ(test, ct_post(t, 9, false), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 5);
	KUNIT_EXPECT_EQ(test, t->events, 0);
}

/* Resizes keep what is waiting, in order, and refuse a ring too small. */
static void ct_resize(struct kunit *test)
{
	struct ct_cq *t = ct_new(test, 8);
	struct ib_cq *ibcq = &t->cq.ibcq;
	int i;

	/* Move the indices off 0 so that what waits wraps the ring */
	for (i = 0; i < 6; i++)
		KUNIT_ASSERT_EQ(test, ct_post(t, 100 + i, false), 0);
	ct_expect(test, t, 6, 100);
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, ct_post(t, 200 + i, false), 0);

	/* Fewer than wait, even where the ring made would hold them */
	KUNIT_EXPECT_EQ(test, sr_resize_cq(ibcq, 4, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_resize_cq(ibcq, 1, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_resize_cq(ibcq, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, sr_resize_cq(ibcq, SR_MAX_CQE + 1, NULL),
			-EINVAL);
	KUNIT_EXPECT_GE(test, ibcq->cqe, 8);

	KUNIT_ASSERT_EQ(test, sr_resize_cq(ibcq, 40, NULL), 0);
	KUNIT_EXPECT_GE(test, ibcq->cqe, 40);
	KUNIT_EXPECT_EQ(test, ibcq->cqe, sr_queue_depth(&t->cq.q));
	for (i = 5; i < 40; i++)
		KUNIT_ASSERT_EQ(test, ct_post(t, 200 + i, false), 0);
	ct_expect(test, t, 40, 200);

	/* Down to what waits, exactly */
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, ct_post(t, 300 + i, false), 0);
	KUNIT_ASSERT_EQ(test, sr_resize_cq(ibcq, 5, NULL), 0);
	KUNIT_EXPECT_GE(test, ibcq->cqe, 5);
	ct_expect(test, t, 5, 300);
	/* The arming survives */
	sr_req_notify_cq(ibcq, IB_CQ_NEXT_COMP);
	KUNIT_ASSERT_EQ(test, sr_resize_cq(ibcq, 20, NULL), 0);
	KUNIT_EXPECT_EQ(test, ct_post(t, 400, false), 0);
	KUNIT_EXPECT_EQ(test, t->comp_calls, 1);
	ct_expect(test, t, 1, 400);
}

/**
 * struct ct_irq - completions posted from a timer's hard interrupt, as a
 *	device posts them
 * @timer: the timer
 * @t: the CQ
 * @left: completions still to post, one per expiry
 * @irq_ok: each post ran in hard interrupt context
 * @ret: the first post's failure
 * @done: all were posted
 */
struct ct_irq {
	struct hrtimer timer;
	struct ct_cq *t;
	int left;
	bool irq_ok;
	int ret;
	struct completion done;
};

static enum hrtimer_restart ct_irq_fire(struct hrtimer *timer)
{
	struct ct_irq *irq = container_of(timer, struct ct_irq, timer);
	int ret;

	irq->irq_ok = irq->irq_ok && in_hardirq();
	ret = ct_post(irq->t, 1000 + irq->left, true);
	if (ret && !irq->ret)
		irq->ret = ret;
	if (--irq->left == 0) {
		complete(&irq->done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* Posts from hard interrupts while the test task polls and arms. */
static void ct_post_irq(struct kunit *test)
{
	struct ct_irq *irq = kunit_kzalloc(test, sizeof(*irq), GFP_KERNEL);
	struct ib_wc wc[4];
	int got = 0, n, i;
	u64 want = 1000 + 64;

	KUNIT_ASSERT_NOT_NULL(test, irq);
	irq->t = ct_new(test, 128);
	irq->left = 64;
	irq->irq_ok = true;
	init_completion(&irq->done);
	hrtimer_init(&irq->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	irq->timer.function = ct_irq_fire;
	/*
	 * Armed before the first post: a task held up for the whole burst
	 * (a busy host) still sees the handler called at least once.
	 */
	sr_req_notify_cq(&irq->t->cq.ibcq, IB_CQ_NEXT_COMP);
	hrtimer_start(&irq->timer, ns_to_ktime(50 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);

	while (got < 64) {
		sr_req_notify_cq(&irq->t->cq.ibcq, IB_CQ_NEXT_COMP);
		n = sr_poll_cq(&irq->t->cq.ibcq, ARRAY_SIZE(wc), wc);
		for (i = 0; i < n; i++, want--)
			KUNIT_EXPECT_EQ(test, wc[i].wr_id, want);
		got += n;
		if (!n && completion_done(&irq->done) &&
		    !sr_req_notify_cq(&irq->t->cq.ibcq, IB_CQ_NEXT_COMP |
				      IB_CQ_REPORT_MISSED_EVENTS))
			break;
		cond_resched();
	}
	wait_for_completion(&irq->done);
	hrtimer_cancel(&irq->timer);
	KUNIT_EXPECT_EQ(test, got, 64);
	KUNIT_EXPECT_TRUE(test, irq->irq_ok);
	KUNIT_EXPECT_EQ(test, irq->ret, 0);
	KUNIT_EXPECT_GE(test, irq->t->comp_calls, 1);
}

/* A completion as rdma-core reads it from a user's CQ. */
static void ct_user_wc(struct kunit *test)
{
	struct ib_qp qp = { .qp_num = 0x123456 };
	struct ib_wc wc = {
		.wr_id = 0x1122334455667788ULL,
		.status = IB_WC_REM_ACCESS_ERR,
		.opcode = IB_WC_RECV_RDMA_WITH_IMM,
		.vendor_err = 7,
		.byte_len = 4096,
		.qp = &qp,
		.src_qp = 0x654321,
		.wc_flags = IB_WC_GRH | IB_WC_WITH_IMM,
		.pkey_index = 3,
		.slid = 0x1234,
		.sl = 5,
		.dlid_path_bits = 6,
		.port_num = 1,
	};
	struct ib_uverbs_wc uwc;

	wc.ex.imm_data = cpu_to_be32(0xdeadbeef);
	memset(&uwc, 0xa5, sizeof(uwc));
	sr_cq_to_uwc(&uwc, &wc);
	KUNIT_EXPECT_EQ(test, sizeof(uwc), 48);
	KUNIT_EXPECT_EQ(test, uwc.wr_id, wc.wr_id);
	KUNIT_EXPECT_EQ(test, uwc.status, IB_WC_REM_ACCESS_ERR);
	/* libibverbs' IBV_WC_RECV_RDMA_WITH_IMM and IBV_WC_RECV: 129, 128 */
	KUNIT_EXPECT_EQ(test, uwc.opcode, 129);
	KUNIT_EXPECT_EQ(test, uwc.vendor_err, 7);
	KUNIT_EXPECT_EQ(test, uwc.byte_len, 4096);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(uwc.ex.imm_data), 0xdeadbeef);
	KUNIT_EXPECT_EQ(test, uwc.qp_num, 0x123456);
	KUNIT_EXPECT_EQ(test, uwc.src_qp, 0x654321);
	/* libibverbs' IBV_WC_GRH and IBV_WC_WITH_IMM */
	KUNIT_EXPECT_EQ(test, uwc.wc_flags, 1 | 2);
	KUNIT_EXPECT_EQ(test, uwc.pkey_index, 3);
	KUNIT_EXPECT_EQ(test, uwc.slid, 0x1234);
	KUNIT_EXPECT_EQ(test, uwc.sl, 5);
	KUNIT_EXPECT_EQ(test, uwc.dlid_path_bits, 6);
	KUNIT_EXPECT_EQ(test, uwc.port_num, 1);
	KUNIT_EXPECT_EQ(test, uwc.reserved, 0);

	/* IBV_WC_WITH_INV is 8 (the kernel's 4 is IBV_WC_IP_CSUM_OK) */
	wc.opcode = IB_WC_RECV;
	wc.wc_flags = IB_WC_WITH_INVALIDATE;
	wc.ex.invalidate_rkey = 0xabcd0102;
	wc.qp = NULL;
	sr_cq_to_uwc(&uwc, &wc);
	KUNIT_EXPECT_EQ(test, uwc.wc_flags, 8);
	KUNIT_EXPECT_EQ(test, uwc.ex.invalidate_rkey, 0xabcd0102);
	KUNIT_EXPECT_EQ(test, uwc.opcode, 128);
	KUNIT_EXPECT_EQ(test, uwc.qp_num, 0);
	wc.wc_flags = IB_WC_IP_CSUM_OK;
	sr_cq_to_uwc(&uwc, &wc);
	KUNIT_EXPECT_EQ(test, uwc.wc_flags, 4);
	/* Flags a user's CQE has no bit for are not passed on */
	wc.wc_flags = IB_WC_WITH_SMAC | IB_WC_WITH_VLAN;
	sr_cq_to_uwc(&uwc, &wc);
	KUNIT_EXPECT_EQ(test, uwc.wc_flags, 0);
}

static struct kunit_case ct_cases[] = {
	KUNIT_CASE(ct_sizes),
	KUNIT_CASE(ct_max_cq),
	KUNIT_CASE(ct_fifo),
	KUNIT_CASE(ct_overflow),
	KUNIT_CASE(ct_notify),
	KUNIT_CASE(ct_resize),
	KUNIT_CASE(ct_post_irq),
	KUNIT_CASE(ct_user_wc),
	{}
};

static struct kunit_suite ct_suite = {
	.name = "rdma_rxe_cq",
	.test_cases = ct_cases,
};
kunit_test_suite(ct_suite);
