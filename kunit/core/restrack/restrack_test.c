// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of resource tracking (core/restrack/restrack.c): the
 * rdma_restrack_* exports, and that the verbs of ib_core list their
 * objects, with their owners, exactly while the objects exist.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>
#include "core/restrack.h"
#include "tdev.h"

struct rt {
	struct tdev *td;
	struct ib_device *dev;
};

static int rt_init(struct kunit *test)
{
	struct tdev_params p = { .name = "ktrt%d", .ports = 2,
				 .no_mad = true };
	struct rt *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	if (!r)
		return -ENOMEM;
	r->td = tdev_create_registered(&p);
	if (IS_ERR(r->td))
		return PTR_ERR(r->td);
	r->dev = &r->td->ibdev;
	test->priv = r;
	return 0;
}

static void rt_exit(struct kunit *test)
{
	struct rt *r = test->priv;

	tdev_destroy(r->td);
}

/* A PD-shaped object the suite tracks by hand. */
static struct ib_pd *rt_fake_pd(struct kunit *test, const char *owner)
{
	struct rt *r = test->priv;
	struct ib_pd *pd = kunit_kzalloc(test, sizeof(*pd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pd);
	pd->device = r->dev;
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, owner);
	return pd;
}

/* new, add, get_byid, count, del: an entry is found exactly while listed. */
static void rt_add_del(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_pd *pd = rt_fake_pd(test, "ktowner");
	struct rdma_restrack_entry *res;

	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 0);
	KUNIT_EXPECT_TRUE(test, rdma_is_kernel_res(&pd->res));
	KUNIT_EXPECT_STREQ(test, pd->res.kern_name, "ktowner");
	rdma_restrack_add(&pd->res);
	KUNIT_EXPECT_TRUE(test, pd->res.valid);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 1);
	res = rdma_restrack_get_byid(r->dev, RDMA_RESTRACK_PD, pd->res.id);
	KUNIT_ASSERT_PTR_EQ(test, res, &pd->res);
	KUNIT_EXPECT_EQ(test, rdma_restrack_put(res), 0);
	rdma_restrack_del(&pd->res);
	KUNIT_EXPECT_FALSE(test, pd->res.valid);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_restrack_get_byid(r->dev,
				RDMA_RESTRACK_PD, pd->res.id)), -ENOENT);
	/* Deleting what was never added only drops the owner. */
	pd = rt_fake_pd(test, NULL);
	KUNIT_EXPECT_NOT_NULL(test, pd->res.task);
	rdma_restrack_del(&pd->res);
	KUNIT_EXPECT_NULL(test, pd->res.task);
}

/* Unknown types and ids. */
static void rt_bad_input(struct kunit *test)
{
	struct rt *r = test->priv;

	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_MAX,
						  true), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_restrack_get_byid(r->dev,
				RDMA_RESTRACK_MAX + 3, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_restrack_get_byid(r->dev,
				RDMA_RESTRACK_QP, 0xabcdef)), -ENOENT);
}

/* Ids are handed out in turn; a freed one is not reused at once. */
static void rt_cyclic_ids(struct kunit *test)
{
	struct ib_pd *a = rt_fake_pd(test, "kt"), *b = rt_fake_pd(test, "kt");
	struct ib_pd *c = rt_fake_pd(test, "kt");
	u32 first;

	rdma_restrack_add(&a->res);
	rdma_restrack_add(&b->res);
	KUNIT_EXPECT_NE(test, a->res.id, b->res.id);
	first = a->res.id;
	rdma_restrack_del(&a->res);
	rdma_restrack_add(&c->res);
	KUNIT_EXPECT_NE(test, c->res.id, first);
	rdma_restrack_del(&b->res);
	rdma_restrack_del(&c->res);
}

/* A user's object references its task until it is deleted. */
static void rt_user_owner(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_pd *pd = rt_fake_pd(test, NULL);
	struct ib_mr *mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);
	int uses = refcount_read(&current->usage);

	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_EXPECT_FALSE(test, rdma_is_kernel_res(&pd->res));
	KUNIT_EXPECT_PTR_EQ(test, pd->res.task, current);
	/* An MR in that PD belongs to the same task. */
	mr->device = r->dev;
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_parent_name(&mr->res, &pd->res);
	KUNIT_EXPECT_PTR_EQ(test, mr->res.task, current);
	KUNIT_EXPECT_EQ(test, refcount_read(&current->usage), uses + 1);
	rdma_restrack_add(&pd->res);
	rdma_restrack_add(&mr->res);
	rdma_restrack_del(&mr->res);
	rdma_restrack_del(&pd->res);
	KUNIT_EXPECT_EQ(test, refcount_read(&current->usage), uses - 1);
	/* A kernel parent gives its module's name. */
	pd = rt_fake_pd(test, "ktparent");
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_parent_name(&mr->res, &pd->res);
	KUNIT_EXPECT_STREQ(test, mr->res.kern_name, "ktparent");
	/* An entry that was never added releases its task on its last put. */
	pd = rt_fake_pd(test, NULL);
	KUNIT_EXPECT_EQ(test, rdma_restrack_put(&pd->res), 1);
	KUNIT_EXPECT_NULL(test, pd->res.task);
}

/* no_track: valid, but never listed. */
static void rt_no_track(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_pd *pd = rt_fake_pd(test, "kt");

	rdma_restrack_no_track(&pd->res);
	KUNIT_EXPECT_FALSE(test, rdma_restrack_is_tracked(&pd->res));
	rdma_restrack_add(&pd->res);
	KUNIT_EXPECT_TRUE(test, pd->res.valid);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  true), 0);
	rdma_restrack_sync(&pd->res);
	rdma_restrack_begin_del(&pd->res);
	rdma_restrack_abort_del(&pd->res);
	rdma_restrack_del(&pd->res);
	KUNIT_EXPECT_FALSE(test, pd->res.valid);
}

/* QPs are listed by number; special QPs by number and port. */
static void rt_qp_ids(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_qp *gsi1 = kunit_kzalloc(test, sizeof(*gsi1), GFP_KERNEL);
	struct ib_qp *gsi2 = kunit_kzalloc(test, sizeof(*gsi2), GFP_KERNEL);
	struct ib_qp *dup = kunit_kzalloc(test, sizeof(*dup), GFP_KERNEL);
	struct ib_qp *qps[] = { gsi1, gsi2, dup };
	int i;

	KUNIT_ASSERT_TRUE(test, gsi1 && gsi2 && dup);
	for (i = 0; i < 3; i++) {
		qps[i]->device = r->dev;
		qps[i]->qp_num = 1;
		qps[i]->qp_type = IB_QPT_GSI;
		qps[i]->port = i ? 2 : 1;
		rdma_restrack_new(&qps[i]->res, RDMA_RESTRACK_QP);
		rdma_restrack_set_name(&qps[i]->res, "kt");
		rdma_restrack_add(&qps[i]->res);
	}
	KUNIT_EXPECT_EQ(test, gsi1->res.id, 1 | (1 << 24));
	KUNIT_EXPECT_EQ(test, gsi2->res.id, 1 | (2 << 24));
	/* The same number and port again: not listed. */
	KUNIT_EXPECT_FALSE(test, dup->res.valid);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_QP,
						  false), 2);
	for (i = 0; i < 3; i++)
		rdma_restrack_del(&qps[i]->res);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_QP,
						  false), 0);
}

/* Driver-specific QPs are counted only with details, also after a sync. */
static void rt_driver_detail(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->device = r->dev;
	qp->qp_num = 0x321;
	qp->qp_type = IB_QPT_DRIVER;
	rdma_restrack_new(&qp->res, RDMA_RESTRACK_QP);
	rdma_restrack_set_name(&qp->res, "kt");
	rdma_restrack_add(&qp->res);
	KUNIT_EXPECT_EQ(test, qp->res.id, 0x321);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_QP,
						  false), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_QP,
						  true), 1);
	rdma_restrack_sync(&qp->res);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_QP,
						  false), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_QP,
						  true), 1);
	rdma_restrack_del(&qp->res);
}

/* begin_del hides the object but keeps its id until commit or abort. */
static void rt_begin_commit_abort(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_pd *pd = rt_fake_pd(test, "kt");
	struct ib_pd *other = rt_fake_pd(test, "kt");
	u32 id;

	rdma_restrack_add(&pd->res);
	id = pd->res.id;
	rdma_restrack_begin_del(&pd->res);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_restrack_get_byid(r->dev,
				RDMA_RESTRACK_PD, id)), -ENOENT);
	rdma_restrack_abort_del(&pd->res);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 1);
	KUNIT_EXPECT_PTR_EQ(test, rdma_restrack_get_byid(r->dev,
				RDMA_RESTRACK_PD, id), &pd->res);
	rdma_restrack_put(&pd->res);
	rdma_restrack_begin_del(&pd->res);
	rdma_restrack_commit_del(&pd->res);
	KUNIT_EXPECT_FALSE(test, pd->res.valid);
	rdma_restrack_add(&other->res);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 1);
	rdma_restrack_del(&other->res);
}

struct rt_del {
	struct rdma_restrack_entry *res;
	struct completion done;
};

static int rt_del_thread(void *arg)
{
	struct rt_del *d = arg;

	rdma_restrack_del(d->res);
	complete(&d->done);
	return 0;
}

/* Deleting waits for a reader's reference to be dropped. */
static void rt_del_waits(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_pd *pd = rt_fake_pd(test, "kt");
	struct rdma_restrack_entry *res;
	struct task_struct *t;
	struct rt_del d;

	rdma_restrack_add(&pd->res);
	res = rdma_restrack_get_byid(r->dev, RDMA_RESTRACK_PD, pd->res.id);
	KUNIT_ASSERT_PTR_EQ(test, res, &pd->res);
	d.res = &pd->res;
	init_completion(&d.done);
	t = kthread_run(rt_del_thread, &d, "ktrt_del");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&d.done,
							  msecs_to_jiffies(200)),
			0);
	/* Already unlisted: no new reader can find it. */
	KUNIT_EXPECT_EQ(test, rdma_restrack_get(&pd->res), 1);
	rdma_restrack_put(&pd->res);
	rdma_restrack_put(res);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&d.done, 10 * HZ), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_get(&pd->res), 0);
}

/* The verbs list PDs, CQs, QPs, SRQs and MRs while they exist. */
static void rt_verbs(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_srq_init_attr sa = { .attr = { .max_wr = 4, .max_sge = 1 } };
	struct ib_qp_init_attr qa = {
		.qp_type = IB_QPT_UD, .sq_sig_type = IB_SIGNAL_REQ_WR,
		.port_num = 2,
		.cap = { .max_send_wr = 4, .max_send_sge = 1 },
	};
	struct ib_pd *pd = ib_alloc_pd(r->dev, 0);
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_srq *srq;
	struct ib_mr *mr;

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_EXPECT_STREQ(test, pd->res.kern_name, KBUILD_MODNAME);
	cq = ib_alloc_cq(r->dev, NULL, 8, 0, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_STREQ(test, cq->res.kern_name, KBUILD_MODNAME);
	qa.send_cq = cq;
	qa.recv_cq = cq;
	srq = ib_create_srq(pd, &sa);
	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	qa.srq = srq;
	qp = ib_create_qp(pd, &qa);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_STREQ(test, mr->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_STREQ(test, srq->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_EQ(test, qp->res.id, qp->qp_num);
	KUNIT_EXPECT_PTR_EQ(test, rdma_restrack_get_byid(r->dev,
				RDMA_RESTRACK_QP, qp->qp_num), &qp->res);
	rdma_restrack_put(&qp->res);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_CQ,
						  false), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_SRQ,
						  false), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_MR,
						  false), 1);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_destroy_srq(srq);
	ib_free_cq(cq);
	ib_dealloc_pd(pd);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  true) +
			rdma_restrack_count(r->dev, RDMA_RESTRACK_CQ, true) +
			rdma_restrack_count(r->dev, RDMA_RESTRACK_QP, true) +
			rdma_restrack_count(r->dev, RDMA_RESTRACK_SRQ, true) +
			rdma_restrack_count(r->dev, RDMA_RESTRACK_MR, true), 0);
}

/* A destroy the driver refuses leaves the object listed. */
static void rt_verbs_failures(struct kunit *test)
{
	struct rt *r = test->priv;
	struct ib_pd *pd;

	tdev_fail(r->td, TDEV_FAIL_ALLOC_PD, true);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_alloc_pd(r->dev, 0)));
	tdev_fail(r->td, TDEV_FAIL_ALLOC_PD, false);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 0);
	pd = ib_alloc_pd(r->dev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	tdev_fail(r->td, TDEV_FAIL_DEALLOC_PD, true);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), -EIO);
	tdev_fail(r->td, TDEV_FAIL_DEALLOC_PD, false);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 1);
	KUNIT_EXPECT_PTR_EQ(test, rdma_restrack_get_byid(r->dev,
				RDMA_RESTRACK_PD, pd->res.id), &pd->res);
	rdma_restrack_put(&pd->res);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(r->dev, RDMA_RESTRACK_PD,
						  false), 0);
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE(rt_add_del),
	KUNIT_CASE(rt_bad_input),
	KUNIT_CASE(rt_cyclic_ids),
	KUNIT_CASE(rt_user_owner),
	KUNIT_CASE(rt_no_track),
	KUNIT_CASE(rt_qp_ids),
	KUNIT_CASE(rt_driver_detail),
	KUNIT_CASE(rt_begin_commit_abort),
	KUNIT_CASE(rt_del_waits),
	KUNIT_CASE(rt_verbs),
	KUNIT_CASE(rt_verbs_failures),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "rdma_restrack",
	.init = rt_init,
	.exit = rt_exit,
	.test_cases = rt_cases,
};

kunit_test_suite(rt_suite);
