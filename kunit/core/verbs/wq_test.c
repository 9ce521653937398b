// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_wq: core/verbs/wq.c, creating and destroying
 * receive work queues: what the core fills in, the use counts on the PD
 * and the CQ, devices without WQs, driver failures and WQs still in use.
 */
#include <kunit/test.h>
#include "tk.h"

struct wqk {
	struct tdev *td;
	struct ib_pd *pd;
	struct ib_cq *cq;
};

static void wq_event(struct ib_event *ev, void *context)
{
}

static void wqk_make(struct kunit *test, struct wqk *w,
		     const struct tdev_params *p)
{
	w->td = tk_dev(test, p);
	w->pd = ib_alloc_pd(&w->td->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(w->pd));
	w->cq = ib_alloc_cq(&w->td->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(w->cq));
}

static void wqk_free(struct wqk *w)
{
	ib_free_cq(w->cq);
	ib_dealloc_pd(w->pd);
	tdev_destroy(w->td);
}

static void wqk_attr(struct ib_wq_init_attr *a, struct ib_cq *cq,
		     void *context)
{
	*a = (struct ib_wq_init_attr){
		.wq_type = IB_WQT_RQ, .max_wr = 5, .max_sge = 1, .cq = cq,
		.wq_context = context, .event_handler = wq_event,
	};
}

static void wq_create_destroy(struct kunit *test)
{
	struct tdev_params p = { .name = "ktwq%d", .wq = true };
	struct ib_wq_init_attr a;
	struct wqk w;
	struct ib_wq *wq;
	int pd0, cq0;

	wqk_make(test, &w, &p);
	pd0 = atomic_read(&w.pd->usecnt);
	cq0 = atomic_read(&w.cq->usecnt);
	wqk_attr(&a, w.cq, &w);
	wq = ib_create_wq(w.pd, &a);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(wq));
	KUNIT_EXPECT_PTR_EQ(test, wq->device, &w.td->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, wq->pd, w.pd);
	KUNIT_EXPECT_PTR_EQ(test, wq->cq, w.cq);
	KUNIT_EXPECT_EQ(test, wq->wq_type, IB_WQT_RQ);
	KUNIT_EXPECT_PTR_EQ(test, wq->wq_context, (void *)&w);
	KUNIT_EXPECT_TRUE(test, wq->event_handler == wq_event);
	KUNIT_EXPECT_NULL(test, wq->uobject);
	KUNIT_EXPECT_EQ(test, atomic_read(&wq->usecnt), 0);
	/* What the device granted comes back */
	KUNIT_EXPECT_EQ(test, a.max_wr, 8U);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.pd->usecnt), pd0 + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.cq->usecnt), cq0 + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.td->nwqs), 1);
	/* Its PD and CQ cannot go while it exists */
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(w.cq, NULL), -EBUSY);

	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(wq, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.pd->usecnt), pd0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.cq->usecnt), cq0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.td->nwqs), 0);
	wqk_free(&w);
}

static void wq_destroy_refused(struct kunit *test)
{
	struct tdev_params p = { .name = "ktwqb%d", .wq = true };
	struct ib_wq_init_attr a;
	struct wqk w;
	struct ib_wq *wq;
	int pd0;

	wqk_make(test, &w, &p);
	pd0 = atomic_read(&w.pd->usecnt);
	wqk_attr(&a, w.cq, NULL);
	wq = ib_create_wq(w.pd, &a);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(wq));

	/* In a receive WQ table: -EBUSY, the driver is not asked */
	atomic_inc(&wq->usecnt);
	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(wq, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.td->nwqs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.pd->usecnt), pd0 + 1);
	atomic_dec(&wq->usecnt);

	/* The driver refuses: the WQ and its counts stay */
	tdev_fail(w.td, TDEV_FAIL_DESTROY_WQ, true);
	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(wq, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.td->nwqs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.pd->usecnt), pd0 + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.cq->usecnt), 1);
	tdev_fail(w.td, TDEV_FAIL_DESTROY_WQ, false);

	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(wq, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.pd->usecnt), pd0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.td->nwqs), 0);
	wqk_free(&w);
}

static void wq_create_refused(struct kunit *test)
{
	struct tdev_params p = { .name = "ktwqr%d", .wq = true };
	struct tdev_params none = { .name = "ktwqn%d" };
	struct ib_wq_init_attr a;
	struct wqk w, n;
	int pd0;

	/* A device without WQs */
	wqk_make(test, &n, &none);
	wqk_attr(&a, n.cq, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_wq(n.pd, &a)), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&n.pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&n.cq->usecnt), 0);
	wqk_free(&n);

	/* The driver's error: nothing counted */
	wqk_make(test, &w, &p);
	pd0 = atomic_read(&w.pd->usecnt);
	wqk_attr(&a, w.cq, NULL);
	a.max_wr = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_wq(w.pd, &a)), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.pd->usecnt), pd0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.cq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w.td->nwqs), 0);
	wqk_free(&w);
}

static struct kunit_case wq_cases[] = {
	KUNIT_CASE(wq_create_destroy),
	KUNIT_CASE(wq_destroy_refused),
	KUNIT_CASE(wq_create_refused),
	{}
};

static struct kunit_suite wq_suite = {
	.name = "rdma_core_wq",
	.test_cases = wq_cases,
};

kunit_test_suites(&wq_suite);
