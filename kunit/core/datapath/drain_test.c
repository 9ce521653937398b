// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_drain: core/datapath/drain.c, draining QPs
 * (ib_drain_qp(), ib_drain_sq(), ib_drain_rq()) in the poll contexts that
 * can wait, with work queued, on an SRQ, and refused on a directly polled
 * CQ.
 */
#include <kunit/test.h>
#include "vk.h"

/* The contexts a drain can wait on (not IB_POLL_DIRECT) */
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
	/* 30 receives, 12 of them consumed by sends: 42 completions queued */
	vk_post_counted(test, &p, &c, 30, 12);
	ib_drain_qp(p.b);
	ib_drain_qp(p.a);
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

static void drain_direct_cq_refused(struct kunit *test)
{
	struct vk_pair p;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	ib_drain_qp(p.a);	/* warns once, returns, changes nothing */
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_RTS);
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
	KUNIT_CASE(drain_direct_cq_refused),
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
