// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cq_pool: core/datapath/cq_pool.c, CQs shared
 * through the device's pool (ib_cq_pool_get(), ib_cq_pool_put()): sharing,
 * growing, refusing, and carrying traffic.
 */
#include <kunit/test.h>
#include "vk.h"

static void pool_shares(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *c1 = ib_cq_pool_get(v->dev, 100, 0, IB_POLL_WORKQUEUE);
	struct ib_cq *c2 = ib_cq_pool_get(v->dev, 100, -1, IB_POLL_WORKQUEUE);
	struct ib_cq *c3;

	KUNIT_ASSERT_FALSE(test, IS_ERR(c1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(c2));
	KUNIT_EXPECT_PTR_EQ(test, c1, c2);
	KUNIT_EXPECT_TRUE(test, c1->shared);
	KUNIT_EXPECT_EQ(test, c1->cqe_used, 200U);
	KUNIT_EXPECT_EQ(test, c1->poll_ctx, IB_POLL_WORKQUEUE);
	/* Another poll context gets another CQ */
	c3 = ib_cq_pool_get(v->dev, 100, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c3));
	KUNIT_EXPECT_PTR_NE(test, c1, c3);
	/* Shared CQs are not the caller's to destroy, resize or tune */
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(c1, NULL), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(c1, 8192), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(c1, 1, 1), -EOPNOTSUPP);
	ib_cq_pool_put(c1, 100);
	ib_cq_pool_put(c2, 100);
	ib_cq_pool_put(c3, 100);
	KUNIT_EXPECT_EQ(test, c1->cqe_used, 0U);
	KUNIT_EXPECT_EQ(test, c3->cqe_used, 0U);
}

static void pool_grows_when_full(struct kunit *test)
{
	struct vk *v = test->priv;
	u32 max = v->dev->attrs.max_cqe;
	struct ib_cq *c1 = ib_cq_pool_get(v->dev, max - 10, 0,
					  IB_POLL_UNBOUND_WORKQUEUE);
	struct ib_cq *c2, *c3;

	KUNIT_ASSERT_FALSE(test, IS_ERR(c1));
	KUNIT_EXPECT_EQ(test, c1->cqe, (int)max);
	c2 = ib_cq_pool_get(v->dev, 20, 0, IB_POLL_UNBOUND_WORKQUEUE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c2));
	KUNIT_EXPECT_PTR_NE(test, c1, c2);
	/* Room freed on the first is used again */
	ib_cq_pool_put(c1, max - 10);
	c3 = ib_cq_pool_get(v->dev, 30, 0, IB_POLL_UNBOUND_WORKQUEUE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c3));
	KUNIT_EXPECT_PTR_EQ(test, c3, c1);
	ib_cq_pool_put(c2, 20);
	ib_cq_pool_put(c3, 30);
}

static void pool_refuses(struct kunit *test)
{
	struct vk *v = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_cq_pool_get(v->dev, 16, 0,
						     IB_POLL_DIRECT)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_cq_pool_get(v->dev, 0, 0,
						     IB_POLL_WORKQUEUE)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_cq_pool_get(v->dev,
						     v->dev->attrs.max_cqe + 1, 0,
						     IB_POLL_WORKQUEUE)), -EINVAL);
}

static void pool_cq_carries_traffic(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *cq = ib_cq_pool_get(v->dev, 64, 0, IB_POLL_SOFTIRQ);
	struct vk_counter c;
	struct vk_pair p;

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	vk_counter_init(&c, 2 * 32);
	vk_pair_connect(test, &p, IB_QPT_RC, cq, NULL);
	vk_traffic(test, &p, &c, 2);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&c.all, 30 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 64);
	vk_pair_free_qps(test, &p);
	ib_cq_pool_put(cq, 64);
}

static struct kunit_case cq_pool_cases[] = {
	KUNIT_CASE(pool_shares),
	KUNIT_CASE(pool_grows_when_full),
	KUNIT_CASE(pool_refuses),
	KUNIT_CASE(pool_cq_carries_traffic),
	{}
};

static struct kunit_suite cq_pool_suite = {
	.name = "rdma_core_cq_pool",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = cq_pool_cases,
};

kunit_test_suites(&cq_pool_suite);
