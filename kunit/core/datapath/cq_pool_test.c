// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cq_pool: core/datapath/cq_pool.c, CQs shared
 * through the device's pool (ib_cq_pool_get(), ib_cq_pool_put()): sharing,
 * growing, refusing, per completion vector, and carrying traffic.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>
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

/* A CQ of the pool per vector: the hint picks it, modulo the vectors. */
static void pool_per_vector(struct kunit *test)
{
	struct tdev_params params = { .vectors = 4 };
	struct ib_cq *cq[8];
	struct vk *v;
	int i, n;

	vk_reinit(test, &params);
	v = test->priv;
	n = min_t(int, 4, num_online_cpus());
	for (i = 0; i < 8; i++) {
		cq[i] = ib_cq_pool_get(v->dev, 8, i, IB_POLL_SOFTIRQ);
		KUNIT_ASSERT_FALSE(test, IS_ERR(cq[i]));
		KUNIT_EXPECT_EQ(test, cq[i]->comp_vector, (u32)(i % n));
		if (i >= n)
			KUNIT_EXPECT_PTR_EQ(test, cq[i], cq[i - n]);
	}
	for (i = 0; i < 8; i++)
		ib_cq_pool_put(cq[i], 8);
}

/*
 * The hint is honoured as given, whatever was asked before: out of order,
 * repeated, past the vectors in use (modulo them); a negative hint gets
 * any vector in use.  A pool that spread gets round-robin like
 * ib_alloc_cq_any() would match a hint sequence in order only by chance.
 */
static void pool_hint_honoured(struct kunit *test)
{
	static const int hints[] = { 1, 1, 0, 3, 2, 0, 5, 1, 0, 0 };
	struct tdev_params params = { .vectors = 4 };
	struct ib_cq *cq[ARRAY_SIZE(hints)], *any[4];
	struct vk *v;
	int i, n;

	vk_reinit(test, &params);
	v = test->priv;
	n = min_t(int, 4, num_online_cpus());
	for (i = 0; i < ARRAY_SIZE(hints); i++) {
		cq[i] = ib_cq_pool_get(v->dev, 8, hints[i], IB_POLL_WORKQUEUE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(cq[i]));
		KUNIT_EXPECT_EQ_MSG(test, cq[i]->comp_vector,
				    (u32)(hints[i] % n), "hint %d of %d vectors",
				    hints[i], n);
		/* One CQ per vector while it has room */
		if (i && hints[i] % n == hints[0] % n)
			KUNIT_EXPECT_PTR_EQ(test, cq[i], cq[0]);
	}
	for (i = 0; i < ARRAY_SIZE(any); i++) {
		any[i] = ib_cq_pool_get(v->dev, 8, -1, IB_POLL_WORKQUEUE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(any[i]));
		KUNIT_EXPECT_LT(test, any[i]->comp_vector, (u32)n);
	}
	for (i = 0; i < ARRAY_SIZE(hints); i++)
		ib_cq_pool_put(cq[i], 8);
	for (i = 0; i < ARRAY_SIZE(any); i++)
		ib_cq_pool_put(any[i], 8);
}

/*
 * Stands in for a CPU coming online between the two times the pool counts
 * the vectors it may use (min(num_comp_vectors, online CPUs)): while the
 * core's cq_poll_pick_vector() runs for the target device, the device
 * has two vectors instead of one.
 */
static struct ib_device *pool_hotplug_dev;
static atomic_t pool_hotplug_hits;

static int pool_pick_enter(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ib_device *dev = (void *)regs_get_kernel_argument(regs, 0);
	bool *hit = (bool *)ri->data;

	*hit = dev == READ_ONCE(pool_hotplug_dev) && num_online_cpus() > 1;
	if (*hit) {
		WRITE_ONCE(dev->num_comp_vectors, 2);
		atomic_inc(&pool_hotplug_hits);
	}
	return 0;
}

static int pool_pick_return(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	if (*(bool *)ri->data)
		WRITE_ONCE(pool_hotplug_dev->num_comp_vectors, 1);
	return 0;
}

static struct kretprobe pool_pick_probe = {
	.kp.symbol_name = "cq_poll_pick_vector",
	.entry_handler = pool_pick_enter,
	.handler = pool_pick_return,
	.data_size = sizeof(bool),
	.maxactive = 4,
};

/*
 * Issue 12, lower: the pool picked a vector with one count and grew sets
 * of CQs with the other: after CPU hotplug it could ask for a vector it
 * never makes a CQ for, and grew sets until CQs ran out.  Each get asks
 * for a whole CQ, so each one that does not find room must grow the
 * pool.
 */
static void pool_vector_after_hotplug(struct kunit *test)
{
	struct vk *v = test->priv;
	u32 max = v->dev->attrs.max_cqe;
	struct ib_cq *cq[4];
	int i;

	KUNIT_ASSERT_EQ(test, v->dev->num_comp_vectors, 1);
	KUNIT_ASSERT_GT(test, num_online_cpus(), 1U);
	atomic_set(&pool_hotplug_hits, 0);
	WRITE_ONCE(pool_hotplug_dev, v->dev);
	KUNIT_ASSERT_EQ(test, register_kretprobe(&pool_pick_probe), 0);
	for (i = 0; i < 4; i++) {
		cq[i] = ib_cq_pool_get(v->dev, max, -1, IB_POLL_WORKQUEUE);
		if (IS_ERR(cq[i]))
			break;
		KUNIT_EXPECT_EQ(test, cq[i]->comp_vector, 0U);
	}
	unregister_kretprobe(&pool_pick_probe);
	WRITE_ONCE(pool_hotplug_dev, NULL);
	KUNIT_EXPECT_EQ(test, i, 4);
	if (i < 4)
		KUNIT_FAIL(test, "get %d: %ld", i, PTR_ERR(cq[i]));
	/* The pick saw two vectors each time: the case did what it says */
	KUNIT_EXPECT_EQ(test, atomic_read(&pool_hotplug_hits), 4);
	KUNIT_EXPECT_EQ(test, v->dev->num_comp_vectors, 1);
	while (i--)
		ib_cq_pool_put(cq[i], max);
}

static struct kunit_case cq_pool_cases[] = {
	KUNIT_CASE(pool_shares),
	KUNIT_CASE(pool_grows_when_full),
	KUNIT_CASE(pool_refuses),
	KUNIT_CASE(pool_cq_carries_traffic),
	KUNIT_CASE(pool_per_vector),
	KUNIT_CASE(pool_hint_honoured),
	KUNIT_CASE(pool_vector_after_hotplug),
	{}
};

static struct kunit_suite cq_pool_suite = {
	.name = "rdma_core_cq_pool",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = cq_pool_cases,
};

kunit_test_suites(&cq_pool_suite);
