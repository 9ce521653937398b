// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cq_poll: core/datapath/cq_poll.c, CQs the core
 * polls for their consumer (ib_alloc_cq() and ib_alloc_cq_any(), in every
 * poll context, ib_process_cq_direct(), ib_free_cq()).
 */
#include <kunit/test.h>
#include "vk.h"

static const enum ib_poll_context poll_ctxs[] = {
	IB_POLL_DIRECT, IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE,
	IB_POLL_UNBOUND_WORKQUEUE,
};

KUNIT_ARRAY_PARAM(poll_ctx, poll_ctxs, vk_poll_ctx_desc);

static void cq_poll_delivers_all(struct kunit *test)
{
	enum ib_poll_context ctx = *(const enum ib_poll_context *)test->param_value;
	struct vk_counter c;
	struct vk_pair p;

	vk_counter_init(&c, 20 * 32);
	vk_pair_make(test, &p, IB_QPT_RC, ctx, NULL);
	KUNIT_EXPECT_EQ(test, p.cq->poll_ctx, ctx);
	vk_traffic(test, &p, &c, 20);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&c.all, 30 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 20 * 32);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.errors), 0);
	vk_pair_free(test, &p);
}

static void cq_direct_budget(struct kunit *test)
{
	struct vk_pair p;
	struct vk_counter c;
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };

	vk_counter_init(&c, 10);
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	vk_post_counted(test, &p, &c, 10, 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.b, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, 4), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 4);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, -1), 6);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 10);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, -1), 0);
	vk_pair_free(test, &p);
}

static void cq_alloc_bad_and_any(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *cq;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_cq(v->dev, NULL, 16, 0, 7)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_cq(v->dev, NULL, 100000, 0,
						  IB_POLL_WORKQUEUE)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_cq(v->dev, NULL, 16, 3,
						  IB_POLL_WORKQUEUE)), -EINVAL);
	cq = ib_alloc_cq_any(v->dev, v, 16, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_EQ(test, cq->comp_vector, 0U);
	KUNIT_EXPECT_PTR_EQ(test, cq->cq_context, (void *)v);
	KUNIT_EXPECT_FALSE(test, cq->shared);
	/* The core polls it: direct polling does nothing */
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(cq, -1), 0);
	ib_free_cq(cq);
}

static void cq_free_busy_refused(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 16, IB_POLL_WORKQUEUE);
	struct ib_qp *qp = vk_qp(test, IB_QPT_UD, cq, cq, NULL);

	ib_free_cq(cq);		/* a caller bug: warned about, not done */
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

static struct kunit_case cq_poll_cases[] = {
	KUNIT_CASE_PARAM(cq_poll_delivers_all, poll_ctx_gen_params),
	KUNIT_CASE(cq_direct_budget),
	KUNIT_CASE(cq_alloc_bad_and_any),
	KUNIT_CASE(cq_free_busy_refused),
	{}
};

static struct kunit_suite cq_poll_suite = {
	.name = "rdma_core_cq_poll",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = cq_poll_cases,
};

kunit_test_suites(&cq_poll_suite);
