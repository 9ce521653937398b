// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mr_pool: core/datapath/mr_pool.c, the MR pools of
 * a QP (ib_mr_pool_init(), ib_mr_pool_get(), ib_mr_pool_put(),
 * ib_mr_pool_destroy()) and the pools a QP gets for its R/W contexts when
 * it is created, in the loopback environment of rw_env.h.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <rdma/mr_pool.h>
#include "rw_env.h"

static void mr_pool_get_put(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_mr *mrs[4];
	LIST_HEAD(pool);
	int i, j;

	env->qp = rw_qp(env, 1, 0, NULL);
	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(env->qp, &pool, 4,
					      IB_MR_TYPE_MEM_REG, 8, 0), 0);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &pool), 4);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);

	for (i = 0; i < 4; i++) {
		mrs[i] = ib_mr_pool_get(env->qp, &pool);
		KUNIT_ASSERT_NOT_NULL(test, mrs[i]);
		KUNIT_EXPECT_PTR_EQ(test, mrs[i]->pd, env->pd);
		KUNIT_EXPECT_EQ(test, mrs[i]->type, IB_MR_TYPE_MEM_REG);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_PTR_NE(test, mrs[i], mrs[j]);
	}
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 4);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &pool), 0);

	for (i = 0; i < 4; i++)
		ib_mr_pool_put(env->qp, &pool, mrs[i]);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &pool), 4);
	ib_mr_pool_destroy(env->qp, &pool);
	KUNIT_EXPECT_TRUE(test, list_empty(&pool));
}

static void mr_pool_exhaustion(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_mr *a, *b;
	LIST_HEAD(pool);

	env->qp = rw_qp(env, 1, 0, NULL);
	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(env->qp, &pool, 2,
					      IB_MR_TYPE_MEM_REG, 4, 0), 0);
	a = ib_mr_pool_get(env->qp, &pool);
	b = ib_mr_pool_get(env->qp, &pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_NULL(test, ib_mr_pool_get(env->qp, &pool));
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 2);	/* NULL took none */

	/* The MR put back last comes out first. */
	ib_mr_pool_put(env->qp, &pool, a);
	KUNIT_EXPECT_PTR_EQ(test, ib_mr_pool_get(env->qp, &pool), a);
	ib_mr_pool_put(env->qp, &pool, b);
	ib_mr_pool_put(env->qp, &pool, a);
	ib_mr_pool_destroy(env->qp, &pool);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
}

static void mr_pool_empty(struct kunit *test)
{
	struct rw_env *env = test->priv;
	LIST_HEAD(pool);

	env->qp = rw_qp(env, 1, 0, NULL);
	KUNIT_EXPECT_EQ(test, ib_mr_pool_init(env->qp, &pool, 0,
					      IB_MR_TYPE_MEM_REG, 4, 0), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&pool));
	KUNIT_EXPECT_NULL(test, ib_mr_pool_get(env->qp, &pool));
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	ib_mr_pool_destroy(env->qp, &pool);	/* no-op on an empty pool */
	KUNIT_EXPECT_TRUE(test, list_empty(&pool));
}

static void mr_pool_init_failure_keeps_list(struct kunit *test)
{
	struct rw_env *env = test->priv;
	LIST_HEAD(pool);

	env->qp = rw_qp(env, 1, 0, NULL);
	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(env->qp, &pool, 2,
					      IB_MR_TYPE_MEM_REG, 4, 0), 0);
	/* The test double cannot hand over integrity: no integrity MRs. */
	env->dev->attrs.kernel_cap_flags &= ~IBK_INTEGRITY_HANDOVER;
	KUNIT_EXPECT_LT(test, ib_mr_pool_init(env->qp, &pool, 3,
					      IB_MR_TYPE_INTEGRITY, 4, 4), 0);
	/* The two MRs that were there stay; none of the failed batch does. */
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &pool), 2);
	ib_mr_pool_destroy(env->qp, &pool);
	KUNIT_EXPECT_TRUE(test, list_empty(&pool));
}

static void mr_pool_destroy_leaves_taken(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_mr *mr;
	LIST_HEAD(pool);

	env->qp = rw_qp(env, 1, 0, NULL);
	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(env->qp, &pool, 3,
					      IB_MR_TYPE_MEM_REG, 4, 0), 0);
	mr = ib_mr_pool_get(env->qp, &pool);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	ib_mr_pool_destroy(env->qp, &pool);
	KUNIT_EXPECT_TRUE(test, list_empty(&pool));
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 1);
	/* The taken MR is still alive (KASAN would see a use after free). */
	KUNIT_EXPECT_PTR_EQ(test, mr->pd, env->pd);
	ib_mr_pool_put(env->qp, &pool, mr);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &pool), 1);
	ib_mr_pool_destroy(env->qp, &pool);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
}

static void mr_pool_qp_creation(struct kunit *test)
{
	struct rw_env *env = test->priv;

	/* A device that reads with SGEs builds no pool for R/W contexts. */
	env->dev->attrs.max_sgl_rd = 0;
	env->qp = rw_qp(env, 1, 4, NULL);
	KUNIT_EXPECT_TRUE(test, list_empty(&env->qp->rdma_mrs));
	KUNIT_EXPECT_TRUE(test, list_empty(&env->qp->sig_mrs));

	/* One that prefers MRs for READs gets one MR per context. */
	env->dev->attrs.max_sgl_rd = 1;
	env->peer = rw_qp(env, 1, 4, NULL);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->peer, &env->peer->rdma_mrs), 4);
	KUNIT_EXPECT_TRUE(test, list_empty(&env->peer->sig_mrs));
	KUNIT_EXPECT_EQ(test, env->peer->mrs_used, 0);
}

static void mr_pool_qp_send_queue_room(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_qp_init_attr attr;

	/* 16 own WRs + 4 contexts of 3 WRs (REG_MR, op, LOCAL_INV). */
	env->dev->attrs.max_sgl_rd = 1;
	env->qp = rw_qp(env, 1, 4, &attr);
	KUNIT_EXPECT_GE(test, attr.cap.max_send_wr, 28U);

	/* Never more than the device has: the QP still gets created. */
	env->dev->attrs.max_qp_wr = 64;
	env->peer = rw_qp(env, 1, 100, &attr);
	KUNIT_EXPECT_LE(test, attr.cap.max_send_wr, 64U);
}

/* Two threads take MRs from one pool and put them back, many times. */
struct mr_pool_racer {
	struct rw_env *env;
	struct list_head *pool;
	struct completion done;
	int missing;
};

static int mr_pool_race_fn(void *arg)
{
	struct mr_pool_racer *r = arg;
	struct ib_mr *mr;
	int i;

	for (i = 0; i < 200000; i++) {
		mr = ib_mr_pool_get(r->env->qp, r->pool);
		if (!mr) {
			r->missing++;
			continue;
		}
		ib_mr_pool_put(r->env->qp, r->pool, mr);
	}
	complete(&r->done);
	return 0;
}

/*
 * Gets and puts from two CPUs at once keep the pool whole: every MR back
 * on the list, the QP's count of MRs in use back at zero.
 */
static void mr_pool_concurrent(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct mr_pool_racer r[2];
	struct task_struct *t;
	LIST_HEAD(pool);
	int i;

	env->qp = rw_qp(env, 1, 0, NULL);
	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(env->qp, &pool, 4,
					      IB_MR_TYPE_MEM_REG, 8, 0), 0);
	for (i = 0; i < 2; i++) {
		r[i] = (struct mr_pool_racer){ .env = env, .pool = &pool };
		init_completion(&r[i].done);
		t = kthread_create(mr_pool_race_fn, &r[i], "ktmrp%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		/* One on each CPU, where there are two */
		if (num_online_cpus() > 1)
			kthread_bind(t, i);
		wake_up_process(t);
	}
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&r[i].done,
								    60 * HZ));
	/* Four MRs, two takers: the pool never runs dry. */
	KUNIT_EXPECT_EQ(test, r[0].missing + r[1].missing, 0);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &pool), 4);
	ib_mr_pool_destroy(env->qp, &pool);
}

static struct kunit_case mr_pool_cases[] = {
	KUNIT_CASE(mr_pool_get_put),
	KUNIT_CASE(mr_pool_concurrent),
	KUNIT_CASE(mr_pool_exhaustion),
	KUNIT_CASE(mr_pool_empty),
	KUNIT_CASE(mr_pool_init_failure_keeps_list),
	KUNIT_CASE(mr_pool_destroy_leaves_taken),
	KUNIT_CASE(mr_pool_qp_creation),
	KUNIT_CASE(mr_pool_qp_send_queue_room),
	{}
};

static struct kunit_suite mr_pool_suite = {
	.name = "rdma_core_mr_pool",
	.init = rw_env_init,
	.exit = rw_env_exit,
	.test_cases = mr_pool_cases,
};

kunit_test_suites(&mr_pool_suite);
