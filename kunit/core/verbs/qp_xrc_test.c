// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_qp_xrc: core/verbs/qp_xrc.c, XRC target QPs and
 * the handles opened on them: opening by QP number, the events of the
 * real QP heard by every handle, closing, the domain kept busy, and the
 * refusals (another QP type, a number the domain lacks, a real QP given
 * to ib_close_qp()).
 */
#include <kunit/test.h>
#include "core/user_verbs.h"
#include "tk.h"

/* What the event handler of one handle heard. */
struct xrc_heard {
	atomic_t fatal;
	struct ib_qp *qp;	/* the handle the last event named */
};

/* Called from the device's interrupt context. */
static void xrc_event(struct ib_event *ev, void *context)
{
	struct xrc_heard *h = context;

	if (ev->event != IB_EVENT_QP_FATAL)
		return;
	WRITE_ONCE(h->qp, ev->element.qp);
	atomic_inc(&h->fatal);
}

static struct ib_qp *xrc_tgt_create(struct kunit *test, struct tdev *td,
				    struct ib_xrcd *xrcd,
				    struct xrc_heard *heard)
{
	struct ib_qp_init_attr a = {
		.qp_type = IB_QPT_XRC_TGT, .xrcd = xrcd,
		.event_handler = xrc_event, .qp_context = heard,
	};

	return ib_create_qp_user(&td->ibdev, NULL, &a, NULL, NULL, "kunit");
}

static struct ib_qp *xrc_open(struct ib_xrcd *xrcd, enum ib_qp_type type,
			      u32 qpn, struct xrc_heard *heard)
{
	struct ib_qp_open_attr oa = {
		.event_handler = xrc_event, .qp_context = heard,
		.qp_num = qpn, .qp_type = type,
	};

	return ib_open_qp(xrcd, &oa);
}

static void qp_xrc_open_close(struct kunit *test)
{
	struct tdev_params p = { .name = "ktxq%d", .xrc = true };
	struct tdev *td = tk_dev(test, &p);
	struct xrc_heard h0 = {}, h1 = {};
	struct ib_qp *first, *real, *opened;
	struct ib_xrcd *xrcd;

	atomic_set(&h0.fatal, 0);
	atomic_set(&h1.fatal, 0);
	xrcd = ib_alloc_xrcd_user(&td->ibdev, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(xrcd));
	first = xrc_tgt_create(test, td, xrcd, &h0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(first));
	real = first->real_qp;
	KUNIT_ASSERT_TRUE(test, real && real != first);
	KUNIT_EXPECT_EQ(test, atomic_read(&xrcd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 1);

	opened = xrc_open(xrcd, IB_QPT_XRC_TGT, first->qp_num, &h1);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(opened));
	KUNIT_EXPECT_PTR_EQ(test, opened->real_qp, real);
	KUNIT_EXPECT_PTR_NE(test, opened, first);
	KUNIT_EXPECT_EQ(test, opened->qp_num, real->qp_num);
	KUNIT_EXPECT_EQ(test, opened->qp_type, IB_QPT_XRC_TGT);
	KUNIT_EXPECT_PTR_EQ(test, opened->device, &td->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, opened->qp_context, (void *)&h1);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 2);

	/* An event of the real QP reaches each handle, naming that handle */
	tdev_qp_fatal(real);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&h0.fatal) == 1 &&
					    atomic_read(&h1.fatal) == 1));
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(h0.qp), first);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(h1.qp), opened);

	KUNIT_EXPECT_EQ(test, ib_close_qp(opened), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 1);
	/* A closed handle hears no more */
	tdev_qp_fatal(real);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&h0.fatal) == 2));
	KUNIT_EXPECT_EQ(test, atomic_read(&h1.fatal), 1);

	/* The domain is busy while its target QP exists */
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->nxrcds), 1);

	/* The last handle destroys the QP and lets the domain go */
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(first), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&xrcd->usecnt), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&xrcd->tgt_qps));
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), 0);
	tdev_destroy(td);
}

/* Closing the last handle keeps the QP in its domain: it opens again. */
static void qp_xrc_close_last(struct kunit *test)
{
	struct tdev_params p = { .name = "ktxql%d", .xrc = true };
	struct tdev *td = tk_dev(test, &p);
	struct xrc_heard h = {};
	struct ib_qp *first, *real, *again, *more;
	struct ib_xrcd *xrcd;
	u32 qpn;

	xrcd = ib_alloc_xrcd_user(&td->ibdev, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(xrcd));
	first = xrc_tgt_create(test, td, xrcd, &h);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(first));
	real = first->real_qp;
	qpn = first->qp_num;

	KUNIT_EXPECT_EQ(test, ib_close_qp(first), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&xrcd->usecnt), 1);
	again = xrc_open(xrcd, IB_QPT_XRC_TGT, qpn, &h);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(again));
	KUNIT_EXPECT_PTR_EQ(test, again->real_qp, real);
	more = xrc_open(xrcd, IB_QPT_XRC_TGT, qpn, &h);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(more));
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 2);

	/* Not the last: the QP stays, and opens */
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(more), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 1);
	KUNIT_EXPECT_PTR_EQ(test, xa_load(&xrcd->tgt_qps, qpn), real);
	/* The last: gone from the domain, its number opens nothing */
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(again), 0);
	KUNIT_EXPECT_NULL(test, xa_load(&xrcd->tgt_qps, qpn));
	KUNIT_EXPECT_EQ(test, PTR_ERR(xrc_open(xrcd, IB_QPT_XRC_TGT, qpn, &h)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), 0);
	tdev_destroy(td);
}

static void qp_xrc_refused(struct kunit *test)
{
	struct tdev_params p = { .name = "ktxqr%d", .xrc = true };
	struct tdev *td = tk_dev(test, &p);
	struct xrc_heard h = {};
	struct ib_xrcd *xrcd, *other;
	struct ib_qp *first, *real;

	xrcd = ib_alloc_xrcd_user(&td->ibdev, NULL, NULL);
	other = ib_alloc_xrcd_user(&td->ibdev, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(xrcd));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(other));
	first = xrc_tgt_create(test, td, xrcd, &h);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(first));
	real = first->real_qp;

	/* Only XRC target QPs open */
	KUNIT_EXPECT_EQ(test, PTR_ERR(xrc_open(xrcd, IB_QPT_RC, first->qp_num,
					       &h)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(xrc_open(xrcd, IB_QPT_XRC_INI,
					       first->qp_num, &h)), -EINVAL);
	/* A number the domain has no QP of, and another domain's QP */
	KUNIT_EXPECT_EQ(test, PTR_ERR(xrc_open(xrcd, IB_QPT_XRC_TGT,
					       first->qp_num + 1, &h)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(xrc_open(other, IB_QPT_XRC_TGT,
					       first->qp_num, &h)), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 1);

	/* The real QP is no handle */
	KUNIT_EXPECT_EQ(test, ib_close_qp(real), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 1);
	KUNIT_EXPECT_PTR_EQ(test, xa_load(&xrcd->tgt_qps, first->qp_num),
			    real);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(first), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(other, NULL), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), 0);
	tdev_destroy(td);
}

/* ib_close_qp() on an ordinary QP, which is its own real QP. */
static void qp_xrc_close_ordinary(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktxqo%d");
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);
	struct ib_qp_init_attr a = {
		.qp_type = IB_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_cq *cq;
	struct ib_qp *qp;

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	cq = ib_alloc_cq(&td->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	a.send_cq = cq;
	a.recv_cq = cq;
	qp = ib_create_qp(pd, &a);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	KUNIT_EXPECT_EQ(test, ib_close_qp(qp), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&qp->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
	ib_dealloc_pd(pd);
	tdev_destroy(td);
}

static struct kunit_case qp_xrc_cases[] = {
	KUNIT_CASE(qp_xrc_open_close),
	KUNIT_CASE(qp_xrc_close_last),
	KUNIT_CASE(qp_xrc_refused),
	KUNIT_CASE(qp_xrc_close_ordinary),
	{}
};

static struct kunit_suite qp_xrc_suite = {
	.name = "rdma_core_qp_xrc",
	.test_cases = qp_xrc_cases,
};

kunit_test_suites(&qp_xrc_suite);
