// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_srq: core/verbs/srq.c, creating, querying, modifying
 * and destroying SRQs, and SRQs in use by a QP.
 */
#include <kunit/test.h>
#include "vk.h"

static struct ib_srq *vk_srq(struct kunit *test, u32 max_wr, u32 limit)
{
	struct vk *v = test->priv;
	struct ib_srq_init_attr sa = {
		.srq_type = IB_SRQT_BASIC,
		.attr = { .max_wr = max_wr, .max_sge = 2, .srq_limit = limit },
	};
	struct ib_srq *srq = ib_create_srq(v->pd, &sa);

	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	return srq;
}

static void srq_create_query_modify(struct kunit *test)
{
	struct vk *v = test->priv;
	int pd_users = atomic_read(&v->pd->usecnt);
	struct ib_srq *srq = vk_srq(test, 16, 0);
	struct ib_srq_attr a = {};

	KUNIT_EXPECT_PTR_EQ(test, srq->pd, v->pd);
	KUNIT_EXPECT_EQ(test, srq->srq_type, IB_SRQT_BASIC);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users + 1);
	KUNIT_ASSERT_EQ(test, ib_query_srq(srq, &a), 0);
	KUNIT_EXPECT_EQ(test, a.max_wr, 16U);
	KUNIT_EXPECT_EQ(test, a.srq_limit, 0U);
	a.srq_limit = 4;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &a, IB_SRQ_LIMIT), 0);
	KUNIT_ASSERT_EQ(test, ib_query_srq(srq, &a), 0);
	KUNIT_EXPECT_EQ(test, a.srq_limit, 4U);
	a.srq_limit = 17;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &a, IB_SRQ_LIMIT), -EINVAL);
	a.max_wr = 32;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &a, IB_SRQ_MAX_WR), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users);
}

static void srq_create_bad(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_srq_init_attr sa = {
		.srq_type = IB_SRQT_XRC, .attr = { .max_wr = 4, .max_sge = 1 },
	};

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_srq(v->pd, &sa)), -EINVAL);
	sa.srq_type = IB_SRQT_TM;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_srq(v->pd, &sa)), -EINVAL);
	sa.srq_type = IB_SRQT_BASIC;
	sa.attr.max_wr = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_srq(v->pd, &sa)), -EINVAL);
	sa.attr.max_wr = 4;
	sa.attr.max_sge = 100;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_srq(v->pd, &sa)), -EINVAL);
}

static void srq_busy_with_qp(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_srq *srq = vk_srq(test, 16, 0);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, srq);

	KUNIT_EXPECT_PTR_EQ(test, qp->srq, srq);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	ib_free_cq(cq);
}

static struct kunit_case srq_cases[] = {
	KUNIT_CASE(srq_create_query_modify),
	KUNIT_CASE(srq_create_bad),
	KUNIT_CASE(srq_busy_with_qp),
	{}
};

static struct kunit_suite srq_suite = {
	.name = "rdma_core_srq",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = srq_cases,
};

kunit_test_suites(&srq_suite);
