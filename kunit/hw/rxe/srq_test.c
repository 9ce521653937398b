// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_srq: hw/rxe/srq.c, shared receive queues as a
 * kernel consumer sees them: sizes and limits granted and refused,
 * receive WQEs laid out as the responder (and rdma-core's provider) read
 * them, a full ring and too many scatter entries refused at the right
 * work request, resizes that keep what waits, the limit, max_srq.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include "dev.h"
#include "srq.h"

static struct sr_dev *st_dev(struct kunit *test)
{
	if (!test->priv) {
		test->priv = kunit_kzalloc(test, sizeof(struct sr_dev),
					   GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, test->priv);
	}
	return test->priv;
}

static void st_free(struct kunit_resource *res)
{
	sr_destroy_srq(res->data, NULL);
}

/* A kernel SRQ of @max_wr WQEs of @max_sge entries, or NULL and errno. */
static struct sr_srq *st_try(struct kunit *test, u32 max_wr, u32 max_sge,
			     u32 limit, int *err)
{
	struct ib_srq_init_attr init = {
		.attr = { .max_wr = max_wr, .max_sge = max_sge,
			  .srq_limit = limit },
		.srq_type = IB_SRQT_BASIC,
	};
	struct sr_srq *srq = kunit_kzalloc(test, sizeof(*srq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, srq);
	srq->ibsrq.device = &st_dev(test)->ibdev;
	*err = sr_create_srq(&srq->ibsrq, &init, NULL);
	if (*err)
		return NULL;
	if (!kunit_alloc_resource(test, NULL, st_free, GFP_KERNEL,
				  &srq->ibsrq)) {
		sr_destroy_srq(&srq->ibsrq, NULL);
		KUNIT_ASSERT_FAILURE(test, "no room to track the SRQ");
	}
	KUNIT_EXPECT_GE(test, init.attr.max_wr, max_wr);
	KUNIT_EXPECT_EQ(test, init.attr.max_sge, max(max_sge, 1U));
	return srq;
}

static struct sr_srq *st_new(struct kunit *test, u32 max_wr, u32 max_sge)
{
	struct sr_srq *srq;
	int err;

	srq = st_try(test, max_wr, max_sge, 0, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	return srq;
}

static void st_sizes(struct kunit *test)
{
	struct ib_srq_init_attr xrc = { .srq_type = IB_SRQT_XRC,
					.attr = { .max_wr = 4 } };
	struct sr_srq *srq = kunit_kzalloc(test, sizeof(*srq), GFP_KERNEL);
	struct ib_srq_attr attr;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, srq);
	srq->ibsrq.device = &st_dev(test)->ibdev;
	KUNIT_EXPECT_EQ(test, sr_create_srq(&srq->ibsrq, &xrc, NULL),
			-EOPNOTSUPP);
	KUNIT_EXPECT_NULL(test, st_try(test, 0, 1, 0, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_NULL(test, st_try(test, SR_MAX_SRQ_WR + 1, 1, 0, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_NULL(test, st_try(test, 8, SR_MAX_SRQ_SGE + 1, 0, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_NULL(test, st_try(test, 8, 1, 9, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&st_dev(test)->n_srq), 0);

	srq = st_try(test, SR_MAX_SRQ_WR, SR_MAX_SRQ_SGE, 8, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, sr_query_srq(&srq->ibsrq, &attr), 0);
	KUNIT_EXPECT_GE(test, attr.max_wr, SR_MAX_SRQ_WR);
	KUNIT_EXPECT_EQ(test, attr.max_sge, SR_MAX_SRQ_SGE);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 8);
	/* A slot holds the WQE and every scatter entry */
	KUNIT_EXPECT_GE(test, sr_queue_elem(&srq->q),
			sizeof(struct rxe_recv_wqe) +
			SR_MAX_SRQ_SGE * sizeof(struct rxe_sge));
	KUNIT_EXPECT_EQ(test, atomic_read(&st_dev(test)->n_srq), 1);
}

/* A chain of @n WRs in @wrs, ids from @id, @nsge entries each. */
static struct ib_recv_wr *st_chain(struct ib_recv_wr *wrs, int n, u64 id,
				   int nsge)
{
	static struct ib_sge sge[SR_MAX_SRQ_SGE + 1];
	int i;

	for (i = 0; i < ARRAY_SIZE(sge); i++)
		sge[i] = (struct ib_sge){ .addr = 0x1000 * i + 7,
					  .length = 100 + i, .lkey = 0x42 + i };
	for (i = 0; i < n; i++)
		wrs[i] = (struct ib_recv_wr){ .wr_id = id + i, .sg_list = sge,
					      .num_sge = nsge,
					      .next = i + 1 < n ? &wrs[i + 1] :
								  NULL };
	return wrs;
}

/* Posts such a chain; the result. */
static int st_post(struct sr_srq *srq, int n, u64 id, int nsge,
		   const struct ib_recv_wr **bad, struct ib_recv_wr *wrs)
{
	return sr_post_srq_recv(&srq->ibsrq, st_chain(wrs, n, id, nsge), bad);
}

/* Takes the oldest WQE as the responder will, and checks it. */
static void st_take(struct kunit *test, struct sr_srq *srq, u64 id,
		    int nsge)
{
	const struct rxe_recv_wqe *wqe = sr_queue_head(&srq->q);
	u32 len = 0;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, wqe);
	KUNIT_EXPECT_EQ(test, wqe->wr_id, id);
	KUNIT_EXPECT_EQ(test, wqe->dma.num_sge, nsge);
	for (i = 0; i < nsge; i++) {
		KUNIT_EXPECT_EQ(test, wqe->dma.sge[i].addr, 0x1000 * i + 7);
		KUNIT_EXPECT_EQ(test, wqe->dma.sge[i].length, 100 + i);
		KUNIT_EXPECT_EQ(test, wqe->dma.sge[i].lkey, 0x42 + i);
		len += 100 + i;
	}
	KUNIT_EXPECT_EQ(test, wqe->dma.length, len);
	KUNIT_EXPECT_EQ(test, wqe->dma.resid, len);
	KUNIT_EXPECT_EQ(test, wqe->dma.cur_sge, 0);
	KUNIT_EXPECT_EQ(test, wqe->dma.sge_offset, 0);
	sr_queue_consumed(&srq->q);
}

static void st_post_recv(struct kunit *test)
{
	struct sr_srq *srq = st_new(test, 6, 3);
	int depth = sr_queue_depth(&srq->q), i;
	struct ib_recv_wr *wrs;
	const struct ib_recv_wr *bad = NULL;

	wrs = kunit_kcalloc(test, depth + 2, sizeof(*wrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wrs);
	/* Too many entries: refused at that WR, those before it posted */
	KUNIT_EXPECT_EQ(test, st_post(srq, 2, 10, 3, &bad, wrs), 0);
	KUNIT_EXPECT_EQ(test, st_post(srq, 3, 20, 2, &bad, wrs), 0);
	st_chain(wrs, 3, 30, 3);
	wrs[1].num_sge = 4;
	KUNIT_EXPECT_EQ(test, sr_post_srq_recv(&srq->ibsrq, wrs, &bad),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_recv_wr *)&wrs[1]);
	st_take(test, srq, 10, 3);
	st_take(test, srq, 11, 3);
	st_take(test, srq, 20, 2);
	st_take(test, srq, 21, 2);
	st_take(test, srq, 22, 2);
	st_take(test, srq, 30, 3);
	KUNIT_EXPECT_NULL(test, sr_queue_head(&srq->q));

	/* A full ring: refused at the first WR it has no room for */
	KUNIT_EXPECT_EQ(test, st_post(srq, depth + 2, 100, 1, &bad, wrs),
			-ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, bad,
			    (const struct ib_recv_wr *)&wrs[depth]);
	for (i = 0; i < depth; i++)
		st_take(test, srq, 100 + i, 1);
	KUNIT_EXPECT_NULL(test, sr_queue_head(&srq->q));
}

static void st_modify(struct kunit *test)
{
	struct sr_srq *srq = st_new(test, 8, 2);
	struct ib_srq *ibsrq = &srq->ibsrq;
	struct ib_srq_attr attr = {};
	const struct ib_recv_wr *bad;
	struct ib_recv_wr wrs[6];
	int i;

	/* The limit: not above the SRQ's size; 0 disarms */
	attr.srq_limit = sr_queue_depth(&srq->q) + 1;
	KUNIT_EXPECT_EQ(test, sr_modify_srq(ibsrq, &attr, IB_SRQ_LIMIT, NULL),
			-EINVAL);
	attr.srq_limit = 5;
	KUNIT_EXPECT_EQ(test, sr_modify_srq(ibsrq, &attr, IB_SRQ_LIMIT, NULL),
			0);
	memset(&attr, 0, sizeof(attr));
	sr_query_srq(ibsrq, &attr);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 5);
	KUNIT_EXPECT_EQ(test, sr_modify_srq(ibsrq, &attr, 1 << 5, NULL),
			-EINVAL);

	/* Move the indices off 0, then resize with six waiting */
	KUNIT_ASSERT_EQ(test, st_post(srq, 6, 0, 2, &bad, wrs), 0);
	for (i = 0; i < 6; i++)
		st_take(test, srq, i, 2);
	KUNIT_ASSERT_EQ(test, st_post(srq, 6, 50, 2, &bad, wrs), 0);
	attr.max_wr = 5;
	KUNIT_EXPECT_EQ(test, sr_modify_srq(ibsrq, &attr, IB_SRQ_MAX_WR,
					    NULL), -EINVAL);
	attr.max_wr = 0;
	KUNIT_EXPECT_EQ(test, sr_modify_srq(ibsrq, &attr, IB_SRQ_MAX_WR,
					    NULL), -EINVAL);
	attr.max_wr = 100;
	KUNIT_ASSERT_EQ(test, sr_modify_srq(ibsrq, &attr, IB_SRQ_MAX_WR,
					    NULL), 0);
	sr_query_srq(ibsrq, &attr);
	KUNIT_EXPECT_GE(test, attr.max_wr, 100);
	KUNIT_EXPECT_EQ(test, attr.max_sge, 2);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 5);
	for (i = 0; i < 6; i++)
		st_take(test, srq, 50 + i, 2);
	KUNIT_EXPECT_NULL(test, sr_queue_head(&srq->q));

	/* Not below the armed limit either */
	attr.max_wr = 4;
	KUNIT_EXPECT_EQ(test, sr_modify_srq(ibsrq, &attr, IB_SRQ_MAX_WR,
					    NULL), -EINVAL);
}

/* No more than max_srq SRQs; refusals and destroys give the count back. */
static void st_max_srq(struct kunit *test)
{
	struct sr_dev *sdev = st_dev(test);
	struct sr_srq *srq;
	int err;

	atomic_set(&sdev->n_srq, SR_MAX_SRQ - 1);
	srq = st_new(test, 4, 1);
	KUNIT_EXPECT_NULL(test, st_try(test, 4, 1, 0, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&sdev->n_srq), SR_MAX_SRQ);
	KUNIT_EXPECT_NOT_NULL(test, srq);
}

static struct kunit_case st_cases[] = {
	KUNIT_CASE(st_sizes),
	KUNIT_CASE(st_post_recv),
	KUNIT_CASE(st_modify),
	KUNIT_CASE(st_max_srq),
	{}
};

static struct kunit_suite st_suite = {
	.name = "rdma_rxe_srq",
	.test_cases = st_cases,
};
kunit_test_suite(st_suite);
