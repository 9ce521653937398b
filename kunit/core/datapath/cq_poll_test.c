// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cq_poll: core/datapath/cq_poll.c, CQs the core
 * polls for their consumer (ib_alloc_cq() and ib_alloc_cq_any(), in every
 * poll context, ib_process_cq_direct(), ib_free_cq()), with completions
 * and their events coming from every kind of interrupt context the test
 * device has, on several completion vectors.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/irq_poll.h>
#include "tk.h"
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

static const enum ib_poll_context event_ctxs[] = {
	IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE, IB_POLL_UNBOUND_WORKQUEUE,
};

KUNIT_ARRAY_PARAM(event_ctx, event_ctxs, vk_poll_ctx_desc);

/*
 * Completions that land between the core's last poll and its re-arm get
 * no event of their own: the core must re-arm with
 * IB_CQ_REPORT_MISSED_EVENTS and poll again when the driver says some
 * arrived.  On a device with late_cqes every completion that arrives
 * while the CQ is not armed lands exactly then, so each round of traffic
 * ends with some that only the re-arm's answer reveals.
 */
static void cq_rearm_reports_missed(struct kunit *test)
{
	enum ib_poll_context ctx = *(const enum ib_poll_context *)test->param_value;
	struct tdev_params params = { .late_cqes = true };
	struct vk_counter c;
	struct vk_pair p;

	vk_reinit(test, &params);
	vk_counter_init(&c, 20 * 32);
	vk_pair_make(test, &p, IB_QPT_RC, ctx, NULL);
	vk_traffic(test, &p, &c, 20);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 20 * 32);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.errors), 0);
	vk_pair_free(test, &p);
}

/* A device's interrupt context, and how the core polls the CQ. */
struct cq_exec_case {
	enum tdev_exec exec;
	enum ib_poll_context ctx;
};

static const struct cq_exec_case cq_exec_cases[] = {
	{ TDEV_EXEC_HRTIMER, IB_POLL_WORKQUEUE },
	{ TDEV_EXEC_IRQ_WORK, IB_POLL_SOFTIRQ },
	{ TDEV_EXEC_IRQ_WORK, IB_POLL_UNBOUND_WORKQUEUE },
	{ TDEV_EXEC_TIMER, IB_POLL_SOFTIRQ },
	{ TDEV_EXEC_TIMER, IB_POLL_WORKQUEUE },
	{ TDEV_EXEC_WORK, IB_POLL_SOFTIRQ },
	{ TDEV_EXEC_WORK, IB_POLL_DIRECT },
};

static void cq_exec_desc(const struct cq_exec_case *c, char *desc)
{
	char ctx[KUNIT_PARAM_DESC_SIZE];

	vk_poll_ctx_desc(&c->ctx, ctx);
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, %s", vk_exec_name(c->exec),
		 ctx);
}

KUNIT_ARRAY_PARAM(cq_exec, cq_exec_cases, cq_exec_desc);

/*
 * Completion events come from the device's interrupt context (hard
 * interrupts, softirq or a work item): the core's handler for each poll
 * context takes it from there, on a device with four vectors (the
 * receive CQ on the last one).
 */
static void cq_poll_from_interrupts(struct kunit *test)
{
	const struct cq_exec_case *c = test->param_value;
	struct tdev_params params = { .exec = c->exec, .vectors = 4 };
	struct vk_counter counter;
	struct vk_pair p;
	int i;

	vk_reinit(test, &params);
	vk_counter_init(&counter, 0);
	vk_pair_make_split(test, &p, IB_QPT_RC, c->ctx, NULL);
	KUNIT_EXPECT_EQ(test, p.rcq->comp_vector, 3U);
	for (i = 0; i < 4; i++) {
		vk_post_counted(test, &p, &counter, 8, 8);
		KUNIT_ASSERT_TRUE(test, vk_counter_wait(&counter,
				c->ctx == IB_POLL_DIRECT ? p.cq : NULL, 8 + 16 * i) &&
				vk_counter_wait(&counter,
				c->ctx == IB_POLL_DIRECT ? p.rcq : NULL, 16 * (i + 1)));
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&counter.n), 64);
	KUNIT_EXPECT_EQ(test, atomic_read(&counter.errors), 0);
	vk_pair_free(test, &p);
}

/*
 * How much a softirq-polled CQ handles per round.  irq_poll calls the
 * CQ's poll function with a budget; the core must handle at most that
 * many completions per call (so one busy CQ cannot hold a CPU's softirq),
 * keep the CQ scheduled when it used the whole budget, and re-arm when it
 * did not, so that nothing is lost.  The core asks irq_poll for the
 * target's 256 per round; the case stands between irq_poll and the core
 * (cq->iop.poll, struct irq_poll being public) and hands the core a
 * budget of 3, recording what each round returned.
 */
#define CQ_ROUND_BUDGET	3

static int (*cq_round_poll)(struct irq_poll *iop, int budget);
static atomic_t cq_rounds, cq_round_over, cq_round_full;

static int cq_round_wrap(struct irq_poll *iop, int budget)
{
	int done = cq_round_poll(iop, min(budget, CQ_ROUND_BUDGET));

	atomic_inc(&cq_rounds);
	if (done > CQ_ROUND_BUDGET)
		atomic_inc(&cq_round_over);
	if (done == CQ_ROUND_BUDGET)
		atomic_inc(&cq_round_full);
	return done;
}

static void cq_softirq_round(struct kunit *test)
{
	struct vk_counter c;
	struct vk_pair p;
	int i;

	vk_counter_init(&c, 0);
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_SOFTIRQ, NULL);
	KUNIT_EXPECT_EQ(test, p.cq->iop.weight, 256);
	atomic_set(&cq_rounds, 0);
	atomic_set(&cq_round_over, 0);
	atomic_set(&cq_round_full, 0);
	/* Nothing is scheduled yet: no work was posted */
	irq_poll_disable(&p.cq->iop);
	cq_round_poll = p.cq->iop.poll;
	p.cq->iop.poll = cq_round_wrap;
	irq_poll_enable(&p.cq->iop);
	for (i = 0; i < 20; i++) {
		vk_post_counted(test, &p, &c, 16, 16);
		KUNIT_ASSERT_TRUE(test, vk_counter_wait(&c, NULL, 32 * (i + 1)));
	}
	irq_poll_disable(&p.cq->iop);
	p.cq->iop.poll = cq_round_poll;
	irq_poll_enable(&p.cq->iop);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 640);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq_round_over), 0);
	/* At least 640 / 3 rounds, some of them with the budget used up */
	KUNIT_EXPECT_GE(test, atomic_read(&cq_rounds), 640 / CQ_ROUND_BUDGET);
	KUNIT_EXPECT_GT(test, atomic_read(&cq_round_full), 0);
	vk_pair_free(test, &p);
}

/* ib_alloc_cq_any() spreads CQs over the vectors in use, in turn. */
static void cq_alloc_any_spreads(struct kunit *test)
{
	struct tdev_params params = { .vectors = 4 };
	struct ib_cq *cq[8];
	unsigned long used = 0;
	struct vk *v;
	int i, n;

	vk_reinit(test, &params);
	v = test->priv;
	n = min_t(int, 4, num_online_cpus());
	for (i = 0; i < 8; i++) {
		cq[i] = ib_alloc_cq_any(v->dev, NULL, 16, IB_POLL_WORKQUEUE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(cq[i]));
		KUNIT_EXPECT_LT(test, cq[i]->comp_vector, (u32)n);
		used |= BIT(cq[i]->comp_vector);
	}
	KUNIT_EXPECT_EQ(test, used, BIT(n) - 1);
	for (i = 0; i < 8; i++)
		ib_free_cq(cq[i]);
	/* Bad input: a poll context that does not exist */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_cq_any(v->dev, NULL, 16, 9)),
			-EINVAL);
}

/* Posts @n RDMA WRITEs of nothing on @qp, signaled or not, wr_cqe NULL. */
static void cq_post_no_cqe(struct kunit *test, struct ib_qp *qp, int n,
			   bool signaled)
{
	struct ib_rdma_wr w = {
		.wr = { .opcode = IB_WR_RDMA_WRITE,
			.send_flags = signaled ? IB_SEND_SIGNALED : 0 },
	};
	const struct ib_send_wr *bad;
	int i;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ib_post_send(qp, &w.wr, &bad), 0);
}

/*
 * Issue 12, lower: work requests posted unsignaled without a wr_cqe (the
 * R/W API's inner ones) complete when they are flushed, and have no
 * wr_cqe: that is no error.  Before the fix each such completion was
 * warned about (once).  A successful completion without one is a
 * consumer's bug, reported each time (rate limited).
 */
static void cq_poll_no_wr_cqe(struct kunit *test)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_SQD };
	struct vk_pair p;
	u64 mark;

	/* Unsignaled ones held in SQD, then flushed: no report */
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	mark = tk_log_mark();
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.a, &a, IB_QP_STATE), 0);
	cq_post_no_cqe(test, p.a, 4, false);
	a.qp_state = IB_QPS_ERR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.a, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(ib_req_notify_cq(p.cq,
				IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS) > 0));
	msleep(20);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, -1), 4);
	KUNIT_EXPECT_EQ(test, tk_log_count(mark, "without a wr_cqe"), 0);
	vk_pair_free(test, &p);

	/* Successful ones: a consumer's bug, reported each time */
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	mark = tk_log_mark();
	cq_post_no_cqe(test, p.a, 2, true);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(ib_req_notify_cq(p.cq,
				IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS) > 0));
	msleep(20);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, -1), 2);
	KUNIT_EXPECT_EQ(test, tk_log_count(mark, "without a wr_cqe"), 2);
	vk_pair_free(test, &p);
}

static void cq_direct_budget(struct kunit *test)
{
	struct vk_pair p;
	struct vk_counter c;
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };

	vk_counter_init(&c, 22);
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	vk_post_counted(test, &p, &c, 22, 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.b, &a, IB_QP_STATE), 0);
	/* The flushes arrive together */
	KUNIT_ASSERT_TRUE(test, tk_wait_for(ib_req_notify_cq(p.cq,
				IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS) > 0));
	msleep(20);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, 4), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 4);
	/* A budget past one batch of the direct poll (8): not one more */
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, 9), 9);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 13);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, -1), 9);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 22);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, -1), 0);
	vk_pair_free(test, &p);
}

/*
 * A completion event that races the CQ's free: the poll work it queued
 * must not run on the freed CQ (each poll context the core polls in).
 */
static void cq_free_races_event(struct kunit *test)
{
	static const enum ib_poll_context ctxs[] = {
		IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE, IB_POLL_UNBOUND_WORKQUEUE,
	};
	struct vk *v = test->priv;
	struct ib_cq *cq;
	int i, n;

	for (n = 0; n < 50; n++) {
		for (i = 0; i < ARRAY_SIZE(ctxs); i++) {
			cq = ib_alloc_cq(v->dev, NULL, 16, 0, ctxs[i]);
			KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
			/* What the driver does when a completion arrives */
			cq->comp_handler(cq, cq->cq_context);
			ib_free_cq(cq);
		}
	}
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
	struct vk *v = test->priv;
	int cqs = atomic_read(&v->td->ncqs);
	struct ib_cq *cq = vk_cq(test, 16, IB_POLL_WORKQUEUE);
	struct ib_qp *qp = vk_qp(test, IB_QPT_UD, cq, cq, NULL);

	KUNIT_EXPECT_EQ(test, atomic_read(&v->td->ncqs), cqs + 1);
	ib_free_cq(cq);		/* a caller bug: warned about, not done */
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->td->ncqs), cqs + 1);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
	/* Freed: the driver destroyed it */
	KUNIT_EXPECT_EQ(test, atomic_read(&v->td->ncqs), cqs);
}

static struct kunit_case cq_poll_cases[] = {
	KUNIT_CASE_PARAM(cq_poll_delivers_all, poll_ctx_gen_params),
	KUNIT_CASE_PARAM(cq_poll_from_interrupts, cq_exec_gen_params),
	KUNIT_CASE(cq_alloc_any_spreads),
	KUNIT_CASE(cq_poll_no_wr_cqe),
	KUNIT_CASE(cq_direct_budget),
	KUNIT_CASE(cq_softirq_round),
	KUNIT_CASE_PARAM(cq_rearm_reports_missed, event_ctx_gen_params),
	KUNIT_CASE(cq_alloc_bad_and_any),
	KUNIT_CASE(cq_free_races_event),
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
