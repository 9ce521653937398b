// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mad_qp: core/mad/qp.c, the repair of a port's
 * QP1 that left RTS on its own.  The test device puts the QP in the error
 * state as hardware does on a fatal error (an asynchronous event, then
 * every outstanding work request flushed), or in SQE when a send fails;
 * the MAD layer must bring it back, with its receive buffers, and count
 * it.  A QP that cannot be
 * modified stays down, and sends on it fail at once.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include "menv.h"

/* A vendor class of the first range: no OUI, no RMPP. */
#define QT_CLASS	0x09

/* Waits until counter @name of @dev's port 1 reaches @want. */
static bool qt_counter_reaches(struct ib_device *dev, const char *name,
			       u64 want)
{
	int ms;

	for (ms = 0; ms < MENV_WAIT_MS; ms += 20) {
		if (menv_counter(dev, 1, name) == want)
			return true;
		msleep(20);
	}
	return false;
}

/*
 * A GET from @from's agent to @to, answered: both QP1s send and receive.
 * Both agents count their sends, the answer's too, so the exchange ends
 * only when the answer's send has ended as well: the next exchange's
 * counts then start from a settled state.
 */
static void qt_exchange(struct kunit *test, struct menv_agent *from,
			struct ib_device *to, struct menv_agent *resp, u32 tid)
{
	struct ib_ah *ah = menv_ah(test, from->agent, to, 1);
	struct ib_mad_send_buf *buf;
	int nrecv = atomic_read(&resp->nrecv);
	int nanswered = atomic_read(&resp->nsend);
	int nsend = atomic_read(&from->nsend);

	buf = menv_mad(test, from, ah, 1, QT_CLASS, 1, IB_MGMT_METHOD_GET, tid);
	buf->timeout_ms = 2000;
	buf->context[1] = buf;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&resp->nrecv, nrecv + 1, resp));
	KUNIT_EXPECT_TRUE(test, menv_wait(&from->nsend, nsend + 1, from));
	KUNIT_EXPECT_PTR_EQ(test, from->last_context, (void *)buf);
	KUNIT_EXPECT_EQ(test, from->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, from->last_had_send);
	KUNIT_EXPECT_EQ(test, from->last_data[0], (u8)tid);
	KUNIT_EXPECT_TRUE(test, menv_wait(&resp->nsend, nanswered + 1, resp));
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
}

/*
 * @n unsolicited MADs from @from to @to, posted at once: all arrive only
 * if @to's QP1 has as many receive buffers posted.
 */
static void qt_burst(struct kunit *test, struct menv_agent *from,
		     struct ib_device *to, struct menv_agent *rcv, int n)
{
	struct ib_ah *ah = menv_ah(test, from->agent, to, 1);
	int nrecv = atomic_read(&rcv->nrecv);
	int nsend = atomic_read(&from->nsend);
	struct ib_mad_send_buf *buf;
	int i;

	for (i = 0; i < n; i++) {
		buf = menv_mad(test, from, ah, 1, QT_CLASS, 1,
			       IB_MGMT_METHOD_SEND, i);
		KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	}
	KUNIT_EXPECT_TRUE(test, menv_wait(&from->nsend, nsend + n, from));
	KUNIT_EXPECT_TRUE(test, menv_wait(&rcv->nrecv, nrecv + n, rcv));
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
}

/*
 * A's QP1 fails: it is repaired once (Reset -> RTS, receive buffers
 * posted again), and requests go both ways after, answered.
 */
static void qt_repair_after_fatal(struct kunit *test)
{
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *ra = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI,
					   QT_CLASS, 1, IB_MGMT_METHOD_GET, 0);
	struct menv_agent *rb = menv_agent(test, &b->ibdev, 1, IB_QPT_GSI,
					   QT_CLASS, 1, IB_MGMT_METHOD_GET, 0);
	struct menv_agent *sa = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI,
					   QT_CLASS, 1, IB_MGMT_METHOD_SEND, 0);
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	ra->answer = true;
	rb->answer = true;
	KUNIT_ASSERT_EQ(test, menv_counter(&a->ibdev, 1, "qp_repairs"), 0);
	tdev_qp_fatal(ra->agent->qp);
	KUNIT_EXPECT_TRUE(test, qt_counter_reaches(&a->ibdev, "qp_repairs",
						   1));
	KUNIT_ASSERT_EQ(test, ib_query_qp(ra->agent->qp, &attr, IB_QP_STATE,
					  &init), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_RTS);
	/* Twice each way: more than one receive buffer is back */
	qt_exchange(test, ra, &b->ibdev, rb, 0x11);
	qt_exchange(test, rb, &a->ibdev, ra, 0x12);
	qt_exchange(test, ra, &b->ibdev, rb, 0x13);
	qt_exchange(test, rb, &a->ibdev, ra, 0x14);
	/* A burst needs every receive buffer back, not one reposted */
	qt_burst(test, rb, &a->ibdev, sa, 32);
	KUNIT_EXPECT_EQ(test, menv_counter(&a->ibdev, 1, "qp_repairs"), 1);
	KUNIT_EXPECT_EQ(test, menv_counter(&b->ibdev, 1, "qp_repairs"), 0);
	menv_agent_free(sa);
	menv_agent_free(rb);
	menv_agent_free(ra);
	tdev_destroy(b);
	tdev_destroy(a);
}

/*
 * A send fails, and QP1 goes to SQE (as IBA 10.3.1 has it for datagram
 * QPs, and as the test device does): only the send's completion tells,
 * no receive buffer is flushed.  The QP is back in RTS, counted, and
 * requests go both ways after.
 */
static void qt_repair_after_send_error(struct kunit *test)
{
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *ra = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI,
					   QT_CLASS, 1, IB_MGMT_METHOD_GET, 0);
	struct menv_agent *rb = menv_agent(test, &b->ibdev, 1, IB_QPT_GSI,
					   QT_CLASS, 1, IB_MGMT_METHOD_GET, 0);
	struct ib_ah *ah = menv_ah(test, ra->agent, &b->ibdev, 1);
	struct ib_mad_send_buf *buf;
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	ra->answer = true;
	rb->answer = true;
	tdev_fail(a, TDEV_FAIL_SEND_WR, true);
	buf = menv_mad(test, ra, ah, 1, QT_CLASS, 1, IB_MGMT_METHOD_SEND, 0x31);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	KUNIT_ASSERT_TRUE(test, menv_wait(&ra->nsend, 1, ra));
	KUNIT_EXPECT_EQ(test, ra->last_status, IB_WC_LOC_QP_OP_ERR);
	KUNIT_EXPECT_TRUE(test, qt_counter_reaches(&a->ibdev, "qp_repairs",
						   1));
	KUNIT_ASSERT_EQ(test, ib_query_qp(ra->agent->qp, &attr, IB_QP_STATE,
					  &init), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_RTS);
	qt_exchange(test, ra, &b->ibdev, rb, 0x32);
	qt_exchange(test, rb, &a->ibdev, ra, 0x33);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(rb);
	menv_agent_free(ra);
	tdev_destroy(b);
	tdev_destroy(a);
}

/* Two failures in a row: two repairs, and the QP works after both. */
static void qt_repair_twice(struct kunit *test)
{
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *req = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI,
					    0, 0, 0, 0);
	struct menv_agent *rb = menv_agent(test, &b->ibdev, 1, IB_QPT_GSI,
					   QT_CLASS, 1, IB_MGMT_METHOD_GET, 0);

	rb->answer = true;
	tdev_qp_fatal(req->agent->qp);
	KUNIT_EXPECT_TRUE(test, qt_counter_reaches(&a->ibdev, "qp_repairs",
						   1));
	tdev_qp_fatal(req->agent->qp);
	KUNIT_EXPECT_TRUE(test, qt_counter_reaches(&a->ibdev, "qp_repairs",
						   2));
	qt_exchange(test, req, &b->ibdev, rb, 0x21);
	menv_agent_free(rb);
	menv_agent_free(req);
	tdev_destroy(b);
	tdev_destroy(a);
}

/*
 * The QP cannot be modified: it stays in the error state, nothing is
 * counted, and a send fails at once with -EIO instead of waiting for a
 * repair that will not come.  The device still unregisters cleanly.
 */
static void qt_repair_fails(struct kunit *test)
{
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *req = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI,
					    0, 0, 0, 0);
	struct ib_ah *ah = menv_ah(test, req->agent, &b->ibdev, 1);
	struct ib_mad_send_buf *buf;
	int ret = 0, nsend, ms;

	tdev_fail(a, TDEV_FAIL_MODIFY_QP, true);
	tdev_qp_fatal(req->agent->qp);
	/* Until the repair has given up, a send waits, or is flushed */
	for (ms = 0; ms < MENV_WAIT_MS; ms += 20) {
		nsend = atomic_read(&req->nsend);
		buf = menv_mad(test, req, ah, 1, QT_CLASS, 1,
			       IB_MGMT_METHOD_SEND, 1);
		ret = ib_post_send_mad(buf, NULL);
		if (ret)
			break;
		KUNIT_ASSERT_TRUE(test, menv_wait(&req->nsend, nsend + 1, req));
		KUNIT_EXPECT_NE(test, req->last_status, IB_WC_SUCCESS);
		msleep(20);
	}
	KUNIT_EXPECT_EQ(test, ret, -EIO);
	ib_free_send_mad(buf);
	KUNIT_EXPECT_EQ(test, menv_counter(&a->ibdev, 1, "qp_repairs"), 0);
	tdev_fail(a, TDEV_FAIL_MODIFY_QP, false);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(req);
	tdev_destroy(b);
	tdev_destroy(a);
}

static struct kunit_case qt_cases[] = {
	KUNIT_CASE(qt_repair_after_fatal),
	KUNIT_CASE(qt_repair_after_send_error),
	KUNIT_CASE(qt_repair_twice),
	KUNIT_CASE(qt_repair_fails),
	{}
};

static struct kunit_suite qt_suite = {
	.name = "rdma_core_mad_qp",
	.test_cases = qt_cases,
};
kunit_test_suite(qt_suite);
