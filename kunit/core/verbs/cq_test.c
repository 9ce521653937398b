// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cq_object: core/verbs/cq.c, CQs as objects
 * (ib_create_cq(), ib_destroy_cq_user(), ib_resize_cq(),
 * rdma_set_cq_moderation()) and their completion events.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include "tk.h"
#include "vk.h"

static void cqo_handler(struct ib_cq *cq, void *ctx)
{
	atomic_inc(ctx);
}

/* Waits until @cq has a completion, without taking it. */
static bool cqo_wait_any(struct ib_cq *cq)
{
	return tk_wait_for(ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
					    IB_CQ_REPORT_MISSED_EVENTS) > 0);
}

static void cqo_create_and_notify(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 8 };
	atomic_t events = ATOMIC_INIT(0);
	struct ib_cq *cq = ib_create_cq(v->dev, cqo_handler, NULL, &events, &ca);
	struct ib_qp *qp;
	struct ib_recv_wr wr = { .wr_id = 42 };
	const struct ib_recv_wr *bad;
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	struct ib_wc wc;

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_PTR_EQ(test, cq->cq_context, (void *)&events);
	KUNIT_EXPECT_GE(test, cq->cqe, 8);
	qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	KUNIT_ASSERT_EQ(test, vk_connect(qp, 3), 0);
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	/* The error state flushes the receive: one event, one completion */
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&events) == 1));
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&events), 1);
	KUNIT_EXPECT_GT(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
					       IB_CQ_REPORT_MISSED_EVENTS), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 42ULL);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
					       IB_CQ_REPORT_MISSED_EVENTS), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

static void cqo_create_bad(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 100000 };

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(v->dev, NULL, NULL, NULL, &ca)),
			-EINVAL);
	ca.cqe = 8;
	ca.comp_vector = 5;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(v->dev, NULL, NULL, NULL, &ca)),
			-EINVAL);
	/* The vector one past the device's last */
	ca.comp_vector = v->dev->num_comp_vectors;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(v->dev, NULL, NULL, NULL, &ca)),
			-EINVAL);
	ca.comp_vector = 0;
	ca.flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(v->dev, NULL, NULL, NULL, &ca)),
			-EOPNOTSUPP);
}

static void cqo_resize_and_moderate(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 8 };
	struct ib_cq *cq = ib_create_cq(v->dev, NULL, NULL, NULL, &ca);

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 64), 0);
	KUNIT_EXPECT_EQ(test, cq->cqe, 64);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 0), -EINVAL);
	u16 count, period;

	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(cq, 16, 10), 0);
	tdev_cq_moderation(cq, &count, &period);
	KUNIT_EXPECT_EQ(test, count, 16);
	KUNIT_EXPECT_EQ(test, period, 10);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

static void cqo_resize_keeps_completions(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 4 };
	struct ib_cq *cq = ib_create_cq(v->dev, NULL, NULL, NULL, &ca);
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	struct ib_recv_wr wr[3] = {};
	const struct ib_recv_wr *bad;
	struct ib_wc wc[4];
	struct ib_qp *qp;
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	KUNIT_ASSERT_EQ(test, vk_connect(qp, 3), 0);
	for (i = 0; i < 3; i++) {
		wr[i].wr_id = 100 + i;
		wr[i].next = i < 2 ? &wr[i + 1] : NULL;
	}
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	/* Flushed together; then three completions do not fit two entries */
	KUNIT_ASSERT_TRUE(test, cqo_wait_any(cq));
	msleep(20);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 16), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 4, wc), 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 100ULL + i);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

struct cqo_err {
	atomic_t n;
	struct ib_cq *cq;
	bool wrong;
};

static void cqo_event(struct ib_event *e, void *ctx)
{
	struct cqo_err *err = ctx;

	if (e->event != IB_EVENT_CQ_ERR || e->element.cq != err->cq)
		err->wrong = true;
	atomic_inc(&err->n);
}

/*
 * A CQ that overflows reports IB_EVENT_CQ_ERR to the event handler given
 * at creation, with its context; the completion that did not fit is lost.
 */
static void cqo_overflow_event(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 2 };
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	struct ib_recv_wr wr[3] = {};
	const struct ib_recv_wr *bad;
	struct cqo_err err = {};
	struct ib_wc wc[4];
	struct ib_cq *cq;
	struct ib_qp *qp;
	int i;

	cq = ib_create_cq(v->dev, NULL, cqo_event, &err, &ca);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	err.cq = cq;
	KUNIT_EXPECT_TRUE(test, cq->event_handler == cqo_event);
	qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	KUNIT_ASSERT_EQ(test, vk_connect(qp, 3), 0);
	for (i = 0; i < 3; i++) {
		wr[i].wr_id = 200 + i;
		wr[i].next = i < 2 ? &wr[i + 1] : NULL;
	}
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&err.n) == 1));
	KUNIT_EXPECT_FALSE(test, err.wrong);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 4, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 200ULL);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 201ULL);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

/* Bad input: what the device cannot do, and CQs the core polls. */
static void cqo_unsupported(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 8 };
	struct ib_cq *cq = ib_create_cq(v->dev, NULL, NULL, NULL, &ca);

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	/* More entries than the device has */
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 100000), -EINVAL);
	KUNIT_EXPECT_EQ(test, cq->cqe, 8);
	v->dev->ops.resize_cq = NULL;
	v->dev->ops.modify_cq = NULL;
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 16), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(cq, 1, 1), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

static struct kunit_case cqo_cases[] = {
	KUNIT_CASE(cqo_create_and_notify),
	KUNIT_CASE(cqo_create_bad),
	KUNIT_CASE(cqo_resize_and_moderate),
	KUNIT_CASE(cqo_resize_keeps_completions),
	KUNIT_CASE(cqo_overflow_event),
	KUNIT_CASE(cqo_unsupported),
	{}
};

static struct kunit_suite cqo_suite = {
	.name = "rdma_core_cq_object",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = cqo_cases,
};

kunit_test_suites(&cqo_suite);
