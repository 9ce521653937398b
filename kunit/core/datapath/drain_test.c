// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_drain: core/datapath/drain.c, draining QPs
 * (ib_drain_qp(), ib_drain_sq(), ib_drain_rq()) with work in flight, on
 * separate send and receive CQs in every poll context (a directly polled
 * one is polled by the drain), on an SRQ, with the driver's own drain,
 * and with no room for the marker.
 */
#include <kunit/test.h>
#include "tk.h"
#include "vk.h"

/* The contexts the core polls in */
static const enum ib_poll_context drain_ctxs[] = {
	IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE, IB_POLL_UNBOUND_WORKQUEUE,
};

KUNIT_ARRAY_PARAM(drain_ctx, drain_ctxs, vk_poll_ctx_desc);

static void drain_qp_handles_queued(struct kunit *test)
{
	enum ib_poll_context ctx = *(const enum ib_poll_context *)test->param_value;
	struct vk_counter c;
	struct vk_pair p;

	vk_counter_init(&c, 0);
	vk_pair_make(test, &p, IB_QPT_RC, ctx, NULL);
	/*
	 * 30 receives and 12 sends: 42 completions, whether the sends are
	 * executed (and consume receives) or flushed.  The sender is drained
	 * first: a receiver in the error state would fail the sends.
	 */
	vk_post_counted(test, &p, &c, 30, 12);
	ib_drain_qp(p.a);
	ib_drain_qp(p.b);
	/* Draining returns only after every completion was handled */
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 42);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.errors), 0);
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, vk_state(p.b), IB_QPS_ERR);
	vk_pair_free(test, &p);
}

static void drain_sq_and_rq(struct kunit *test)
{
	struct vk_counter c;
	struct vk_pair p;

	vk_counter_init(&c, 0);
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_WORKQUEUE, NULL);
	vk_post_counted(test, &p, &c, 8, 8);
	ib_drain_sq(p.a);
	KUNIT_EXPECT_GE(test, atomic_read(&c.n), 8);
	ib_drain_rq(p.b);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 16);
	vk_pair_free(test, &p);
}

static const enum ib_poll_context drain_all_ctxs[] = {
	IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE, IB_POLL_UNBOUND_WORKQUEUE,
	IB_POLL_DIRECT,
};

KUNIT_ARRAY_PARAM(drain_all_ctx, drain_all_ctxs, vk_poll_ctx_desc);

/* Steps for tk_start(): drain a QP, or its send queue. */
static void drain_qp_fn(void *qp)
{
	ib_drain_qp(qp);
}

static void drain_sq_fn(void *qp)
{
	ib_drain_sq(qp);
}

/*
 * Work in flight on a send CQ and a receive CQ of their own: the drain
 * returns once every completion of both queues was handled, in error
 * state.  With the sends held in SQD, those are flushed.
 */
static void drain_split_cqs_in_flight(struct kunit *test)
{
	enum ib_poll_context ctx = *(const enum ib_poll_context *)test->param_value;
	struct ib_qp_attr a = { .qp_state = IB_QPS_SQD };
	struct vk_counter c;
	struct tk_thread t;
	struct vk_pair p;

	vk_counter_init(&c, 0);
	vk_pair_make_split(test, &p, IB_QPT_RC, ctx, NULL);
	/* 12 receives on b; a's 8 sends wait in SQD for the drain */
	vk_post_counted(test, &p, &c, 12, 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.a, &a, IB_QP_STATE), 0);
	vk_post_counted(test, &p, &c, 0, 8);
	tk_start(test, &t, drain_qp_fn, p.a);
	KUNIT_ASSERT_TRUE_MSG(test, tk_join_timeout(&t, 10000),
			      "drain of a hangs");
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 8);
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	tk_start(test, &t, drain_qp_fn, p.b);
	KUNIT_ASSERT_TRUE_MSG(test, tk_join_timeout(&t, 10000),
			      "drain of b hangs");
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 20);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.errors), 0);
	KUNIT_EXPECT_EQ(test, vk_state(p.b), IB_QPS_ERR);
	vk_pair_free(test, &p);
}

/*
 * Issue 12, defect 4: a QP whose CQs its owner polls (IB_POLL_DIRECT) is
 * drained too: the drain polls them while it waits.  Before the fix it
 * warned and returned at once, with the QP still in RTS.
 */
static void drain_direct_cq_polled(struct kunit *test)
{
	struct vk_counter c;
	struct tk_thread t;
	struct vk_pair p;

	vk_counter_init(&c, 0);
	vk_pair_make_split(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	vk_post_counted(test, &p, &c, 10, 6);
	tk_start(test, &t, drain_qp_fn, p.a);
	KUNIT_ASSERT_TRUE_MSG(test, tk_join_timeout(&t, 10000),
			      "drain of a hangs");
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	/* a's sends are handled; b's receives wait on b's CQ */
	tk_start(test, &t, drain_qp_fn, p.b);
	KUNIT_ASSERT_TRUE_MSG(test, tk_join_timeout(&t, 10000),
			      "drain of b hangs");
	KUNIT_EXPECT_EQ(test, vk_state(p.b), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 16);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.errors), 0);
	vk_pair_free(test, &p);
}

/* A driver that drains by itself gets the calls; the QP ends drained. */
static void drain_driver_op(struct kunit *test)
{
	struct tdev_params params = { .driver_drain = true };
	struct vk_counter c;
	struct vk_pair p;
	struct vk *v;

	vk_reinit(test, &params);
	v = test->priv;
	vk_counter_init(&c, 0);
	vk_pair_make_split(test, &p, IB_QPT_RC, IB_POLL_WORKQUEUE, NULL);
	vk_post_counted(test, &p, &c, 9, 5);
	ib_drain_qp(p.a);
	ib_drain_qp(p.b);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->td->drain_sq_calls), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->td->drain_rq_calls), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 14);
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, vk_state(p.b), IB_QPS_ERR);
	ib_drain_sq(p.a);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->td->drain_sq_calls), 3);
	vk_pair_free(test, &p);
}

/*
 * Bad input: a send queue with no room for the drain's marker.  The
 * drain reports it and returns instead of waiting for ever.
 */
static void drain_no_room_for_marker(struct kunit *test)
{
	struct ib_rdma_wr w = { .wr = { .opcode = IB_WR_RDMA_WRITE } };
	const struct ib_send_wr *bad;
	struct ib_qp_attr a = { .qp_state = IB_QPS_SQD };
	struct tk_thread t;
	struct vk_pair p;
	u64 mark;
	int i;

	/* Nobody polls the CQ before the drain would */
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.a, &a, IB_QP_STATE), 0);
	/* 32 unsignaled WRs fill the send queue until polled */
	for (i = 0; i < 32; i++)
		KUNIT_ASSERT_EQ(test, ib_post_send(p.a, &w.wr, &bad), 0);
	mark = tk_log_mark();
	tk_start(test, &t, drain_sq_fn, p.a);
	KUNIT_ASSERT_TRUE_MSG(test, tk_join_timeout(&t, 10000),
			      "drain hangs");
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tk_log_count(mark, "send drain marker: -12"), 1);
	vk_pair_free(test, &p);
}

static void drain_qp_on_srq(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_srq_init_attr sa = {
		.srq_type = IB_SRQT_BASIC, .attr = { .max_wr = 8, .max_sge = 1 },
	};
	struct ib_srq *srq = ib_create_srq(v->pd, &sa);
	struct vk_pair p;

	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_SOFTIRQ, srq);
	ib_drain_qp(p.b);	/* the send queue only */
	KUNIT_EXPECT_EQ(test, vk_state(p.b), IB_QPS_ERR);
	vk_pair_free(test, &p);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
}

static struct kunit_case drain_cases[] = {
	KUNIT_CASE_PARAM(drain_qp_handles_queued, drain_ctx_gen_params),
	KUNIT_CASE(drain_sq_and_rq),
	KUNIT_CASE_PARAM(drain_split_cqs_in_flight, drain_all_ctx_gen_params),
	KUNIT_CASE(drain_direct_cq_polled),
	KUNIT_CASE(drain_driver_op),
	KUNIT_CASE(drain_no_room_for_marker),
	KUNIT_CASE(drain_qp_on_srq),
	{}
};

static struct kunit_suite drain_suite = {
	.name = "rdma_core_drain",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = drain_cases,
};

kunit_test_suites(&drain_suite);
