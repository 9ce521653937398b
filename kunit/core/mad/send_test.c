// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mad_send: core/mad/send.c between two test
 * devices on one fabric, InfiniBand (QP1 by LID) and RoCE (QP1 by GID,
 * with a GRH, over IPv6 and IPv4): requests answered and matched by TID,
 * unsolicited sends, timeouts after retries, cancel and modify (also from the handler of
 * the answer), a response from another port, unregistration with sends
 * outstanding, bad posts.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include "menv.h"
#include "tk.h"
#include "tnet.h"

/* A vendor class of the first range: no OUI, no RMPP. */
#define ST_CLASS	0x09
#define ST_TIMEOUT_MS	2000

struct st_pair {
	struct tdev *a, *b;
	struct menv_agent *req;		/* A's agent, registers nothing */
	struct ib_ah *ah;		/* from A to B's port 1 */
};

/* How a pair's devices reach each other */
enum st_fabric {
	ST_IB,		/* InfiniBand, by LID */
	ST_ROCE,	/* RoCE, by the ports' first RoCEv2 GIDs */
	ST_ROCE4,	/* RoCE over IPv4: the GRH buffer holds an IPv4 header */
};

/* IPv4 addresses on the RoCE pair's veth ends, and their GIDs awaited. */
static void st_pair_ipv4(struct kunit *test, struct st_pair *p)
{
	KUNIT_ASSERT_EQ(test, tnet_ip("addr add 10.97.0.1/24 dev ktrpv0"), 0);
	KUNIT_ASSERT_EQ(test, tnet_ip("addr add 10.97.0.2/24 dev ktrpv1"), 0);
	/* An answer's AH resolves the asker's MAC by ARP over the link */
	KUNIT_ASSERT_EQ(test, tnet_accept_local("ktrpv0"), 0);
	KUNIT_ASSERT_EQ(test, tnet_accept_local("ktrpv1"), 0);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(menv_has_gid4(&p->a->ibdev, 1) &&
					    menv_has_gid4(&p->b->ibdev, 1)));
}

static void st_pair_make(struct kunit *test, struct st_pair *p,
			 enum st_fabric f)
{
	if (f != ST_IB) {
		tk_roce_pair(test, "ktmad%d", &p->a, &p->b);
		if (f == ST_ROCE4)
			st_pair_ipv4(test, p);
	} else {
		p->a = menv_dev(test, false);
		p->b = menv_dev(test, false);
	}
	p->req = menv_agent(test, &p->a->ibdev, 1, IB_QPT_GSI, 0, 0, 0, 0);
	p->ah = menv_ah_family(test, p->req->agent, &p->b->ibdev, 1,
			       f == ST_ROCE4);
}

static void st_pair_free(struct st_pair *p)
{
	rdma_destroy_ah(p->ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(p->req);
	tdev_destroy(p->b);
	tdev_destroy(p->a);
}

/* A GET from A's agent to B with @timeout_ms, posted. */
static struct ib_mad_send_buf *st_post_get(struct kunit *test,
					   struct st_pair *p, u8 data,
					   int timeout_ms)
{
	struct ib_mad_send_buf *buf;

	buf = menv_mad(test, p->req, p->ah, 1, ST_CLASS, 1, IB_MGMT_METHOD_GET,
		       data);
	buf->timeout_ms = timeout_ms;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	return buf;
}

/* A's port has sent at least one MAD (the request waits for its answer). */
static void st_wait_sent(struct kunit *test, struct st_pair *p)
{
	KUNIT_EXPECT_TRUE(test, tk_wait_for(menv_counter(&p->a->ibdev, 1,
							 "sent") >= 1));
}

/*
 * A request from A's agent to B's, answered, matched (from where it went:
 * over IPv4, the GID made of the IPv4 header's source) and reported.
 */
static void st_request_response(struct kunit *test, enum st_fabric f)
{
	struct st_pair p;
	struct menv_agent *resp;
	struct ib_mad_send_buf *buf;

	st_pair_make(test, &p, f);
	resp = menv_agent(test, &p.b->ibdev, 1, IB_QPT_GSI, ST_CLASS, 1,
			  IB_MGMT_METHOD_GET, 0);
	resp->answer = true;
	buf = menv_mad(test, p.req, p.ah, 1, ST_CLASS, 1, IB_MGMT_METHOD_GET,
		       0x77);
	buf->timeout_ms = ST_TIMEOUT_MS;
	buf->context[1] = buf;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);

	KUNIT_EXPECT_TRUE(test, menv_wait(&resp->nrecv, 1, resp));
	KUNIT_EXPECT_EQ(test, resp->last_recv.method, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_FALSE(test, resp->last_had_send);
	KUNIT_EXPECT_EQ(test, resp->last_data[0], 0x77);
	KUNIT_EXPECT_EQ(test, resp->answer_err, 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&p.req->nsend, 1, p.req));
	KUNIT_EXPECT_EQ(test, atomic_read(&p.req->nrecv), 1);
	KUNIT_EXPECT_TRUE(test, p.req->last_had_send);
	KUNIT_EXPECT_EQ(test, p.req->last_recv.method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p.req->last_recv.tid),
			(u64)p.req->agent->hi_tid << 32 | 0x77);
	KUNIT_EXPECT_EQ(test, p.req->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_PTR_EQ(test, p.req->last_context, (void *)buf);
	KUNIT_EXPECT_EQ(test, p.req->last_retries, 0);
	/* The answer's own send completed too */
	KUNIT_EXPECT_TRUE(test, menv_wait(&resp->nsend, 1, resp));
	KUNIT_EXPECT_EQ(test, resp->last_status, IB_WC_SUCCESS);

	menv_agent_free(resp);
	st_pair_free(&p);
}

static void st_request_response_ib(struct kunit *test)
{
	st_request_response(test, ST_IB);
}

static void st_request_response_roce(struct kunit *test)
{
	st_request_response(test, ST_ROCE);
}

static void st_request_response_roce4(struct kunit *test)
{
	st_request_response(test, ST_ROCE4);
}

/* Unsolicited: reported once sent, received without a request. */
static void st_unsolicited(struct kunit *test)
{
	struct st_pair p;
	struct menv_agent *rcv;
	struct ib_mad_send_buf *buf;

	st_pair_make(test, &p, ST_IB);
	rcv = menv_agent(test, &p.b->ibdev, 1, IB_QPT_GSI, ST_CLASS, 1,
			 IB_MGMT_METHOD_SEND, 0);
	buf = menv_mad(test, p.req, p.ah, 1, ST_CLASS, 1, IB_MGMT_METHOD_SEND,
		       3);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&p.req->nsend, 1, p.req));
	KUNIT_EXPECT_EQ(test, p.req->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, menv_wait(&rcv->nrecv, 1, rcv));
	KUNIT_EXPECT_EQ(test, rcv->last_recv.method, IB_MGMT_METHOD_SEND);
	KUNIT_EXPECT_EQ(test, rcv->last_len, (int)sizeof(struct ib_mad));
	menv_agent_free(rcv);
	st_pair_free(&p);
}

/* Nobody answers: the request goes 1 + retries times, then times out. */
static void st_timeout_retries(struct kunit *test)
{
	struct st_pair p;
	struct ib_mad_send_buf *buf;
	u64 before;

	st_pair_make(test, &p, ST_IB);
	before = menv_counter(&p.b->ibdev, 1, "drop_no_agent");
	buf = menv_mad(test, p.req, p.ah, 1, ST_CLASS, 1, IB_MGMT_METHOD_GET,
		       9);
	buf->timeout_ms = 100;
	buf->retries = 2;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&p.req->nsend, 1, p.req));
	KUNIT_EXPECT_EQ(test, p.req->last_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, p.req->last_retries, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.req->nrecv), 0);
	/* B's MAD layer saw all three and had no agent for them */
	KUNIT_EXPECT_TRUE(test, tk_wait_for(menv_counter(&p.b->ibdev, 1,
							 "drop_no_agent") ==
					    before + 3));
	st_pair_free(&p);
}

/* A cancelled request is reported with IB_WC_WR_FLUSH_ERR, once. */
static void st_cancel(struct kunit *test)
{
	struct st_pair p;
	struct ib_mad_send_buf *buf;

	st_pair_make(test, &p, ST_IB);
	buf = st_post_get(test, &p, 4, 60000);
	/* Sent and waiting for its response, then cancelled */
	st_wait_sent(test, &p);
	msleep(50);
	KUNIT_EXPECT_EQ(test, ib_modify_mad(buf, 0), 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&p.req->nsend, 1, p.req));
	KUNIT_EXPECT_EQ(test, p.req->last_status, IB_WC_WR_FLUSH_ERR);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.req->nsend), 1);
	st_pair_free(&p);
}

/*
 * The requester cancels its request from the handler of the response:
 * the request is answered, so its end comes once, after the handler has
 * returned, with success.
 */
static void st_cancel_in_response(struct kunit *test)
{
	struct st_pair p;
	struct menv_agent *resp;

	st_pair_make(test, &p, ST_IB);
	resp = menv_agent(test, &p.b->ibdev, 1, IB_QPT_GSI, ST_CLASS, 1,
			  IB_MGMT_METHOD_GET, 0);
	resp->answer = true;
	p.req->cancel_in_recv = true;
	st_post_get(test, &p, 0x78, ST_TIMEOUT_MS);
	KUNIT_EXPECT_TRUE(test, menv_wait(&p.req->nsend, 1, p.req));
	KUNIT_EXPECT_EQ(test, atomic_read(&p.req->nrecv), 1);
	KUNIT_EXPECT_FALSE(test, p.req->sent_in_recv);
	KUNIT_EXPECT_EQ(test, p.req->last_status, IB_WC_SUCCESS);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.req->nsend), 1);
	KUNIT_EXPECT_TRUE(test, menv_wait(&resp->nsend, 1, resp));
	menv_agent_free(resp);
	st_pair_free(&p);
}

/*
 * A response with a waiting request's TID from another port than the one
 * the request went to is not its answer: dropped ("drop_no_request"), and
 * the request goes on waiting: the answer from the port it went to, after
 * the fake, is matched and completes it.
 */
static void st_response_from_another_peer(struct kunit *test)
{
	struct tdev *c = menv_dev(test, false);
	struct menv_agent *other, *resp;
	struct ib_mad_send_buf *buf, *fake, *real;
	struct ib_ah *ah, *back;
	struct st_pair p;
	u64 before;

	st_pair_make(test, &p, ST_IB);
	resp = menv_agent(test, &p.b->ibdev, 1, IB_QPT_GSI, ST_CLASS, 1,
			  IB_MGMT_METHOD_GET, 0);
	other = menv_agent(test, &c->ibdev, 1, IB_QPT_GSI, 0, 0, 0, 0);
	ah = menv_ah(test, other->agent, &p.a->ibdev, 1);
	back = menv_ah(test, resp->agent, &p.a->ibdev, 1);
	before = menv_counter(&p.a->ibdev, 1, "drop_no_request");
	buf = st_post_get(test, &p, 0x5a, 60000);
	KUNIT_EXPECT_TRUE(test, menv_wait(&resp->nrecv, 1, resp));

	fake = menv_mad(test, other, ah, 1, ST_CLASS, 1,
			IB_MGMT_METHOD_GET_RESP, 0x5a);
	((struct ib_mad_hdr *)fake->mad)->tid =
		((struct ib_mad_hdr *)buf->mad)->tid;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(fake, NULL), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(menv_counter(&p.a->ibdev, 1,
							 "drop_no_request") ==
					    before + 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&p.req->nsend), 0);

	real = menv_mad(test, resp, back, 1, ST_CLASS, 1,
			IB_MGMT_METHOD_GET_RESP, 0x5b);
	((struct ib_mad_hdr *)real->mad)->tid =
		((struct ib_mad_hdr *)buf->mad)->tid;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(real, NULL), 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&p.req->nsend, 1, p.req));
	KUNIT_EXPECT_EQ(test, p.req->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.req->nrecv), 1);
	KUNIT_EXPECT_EQ(test, p.req->last_data[0], 0x5b);
	KUNIT_EXPECT_EQ(test, menv_counter(&p.a->ibdev, 1, "drop_no_request"),
			before + 1);
	KUNIT_EXPECT_TRUE(test, menv_wait(&other->nsend, 1, other));
	KUNIT_EXPECT_TRUE(test, menv_wait(&resp->nsend, 1, resp));
	rdma_destroy_ah(back, RDMA_DESTROY_AH_SLEEPABLE);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(other);
	menv_agent_free(resp);
	tdev_destroy(c);
	st_pair_free(&p);
}

/* A shorter timeout takes effect from now; a buffer not posted: -EINVAL. */
static void st_modify(struct kunit *test)
{
	struct st_pair p;
	struct ib_mad_send_buf *buf, *idle;

	st_pair_make(test, &p, ST_IB);
	idle = menv_mad(test, p.req, p.ah, 1, ST_CLASS, 1, IB_MGMT_METHOD_GET,
			5);
	KUNIT_EXPECT_EQ(test, ib_modify_mad(idle, 100), -EINVAL);
	ib_free_send_mad(idle);

	buf = st_post_get(test, &p, 6, 60000);
	KUNIT_EXPECT_EQ(test, ib_modify_mad(buf, 50), 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&p.req->nsend, 1, p.req));
	KUNIT_EXPECT_EQ(test, p.req->last_status, IB_WC_RESP_TIMEOUT_ERR);
	st_pair_free(&p);
}

/* Unregistration ends what is outstanding, and no handler runs after. */
static void st_unregister_outstanding(struct kunit *test)
{
	struct st_pair p;
	int i;

	st_pair_make(test, &p, ST_IB);
	for (i = 0; i < 8; i++)
		st_post_get(test, &p, 10 + i, 60000);
	menv_agent_free(p.req);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.req->nsend), 8);
	KUNIT_EXPECT_EQ(test, p.req->last_status, IB_WC_WR_FLUSH_ERR);
	rdma_destroy_ah(p.ah, RDMA_DESTROY_AH_SLEEPABLE);
	tdev_destroy(p.b);
	tdev_destroy(p.a);
}

/* What ib_post_send_mad() refuses, and the buffer it names. */
static void st_bad_post(struct kunit *test)
{
	struct st_pair p;
	struct ib_mad_send_buf *good, *noah, *bad = NULL;
	struct ib_mad_agent *quiet;

	st_pair_make(test, &p, ST_IB);
	good = menv_mad(test, p.req, p.ah, 1, ST_CLASS, 1, IB_MGMT_METHOD_SEND,
			1);
	noah = menv_mad(test, p.req, NULL, 1, ST_CLASS, 1, IB_MGMT_METHOD_SEND,
			2);
	good->next = noah;
	KUNIT_EXPECT_EQ(test, ib_post_send_mad(good, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, noah);
	KUNIT_EXPECT_TRUE(test, menv_wait(&p.req->nsend, 1, p.req));
	/* Posted twice */
	KUNIT_EXPECT_EQ(test, ib_post_send_mad(noah, NULL), -EINVAL);
	ib_free_send_mad(noah);

	/* A timeout needs a recv_handler */
	quiet = ib_register_mad_agent(&p.a->ibdev, 1, IB_QPT_GSI, NULL, 0,
				      p.req->agent->send_handler, NULL, NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(quiet));
	good = ib_create_send_mad(quiet, 1, 0, 0, IB_MGMT_MAD_HDR,
				  IB_MGMT_MAD_DATA, GFP_KERNEL,
				  IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(good));
	good->ah = p.ah;
	good->timeout_ms = 10;
	KUNIT_EXPECT_EQ(test, ib_post_send_mad(good, NULL), -EINVAL);
	ib_free_send_mad(good);
	ib_unregister_mad_agent(quiet);
	st_pair_free(&p);
}

/* ib_create_send_mad(): what fits one MAD, and RMPP only for RMPP agents */
static void st_create_send_mad(struct kunit *test)
{
	struct tdev *a = menv_dev(test, false);
	struct menv_agent *m = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI, 0,
					  0, 0, 0);
	struct ib_mad_send_buf *buf;

	buf = ib_create_send_mad(m->agent, 1, 0, 0, IB_MGMT_MAD_HDR,
				 IB_MGMT_MAD_DATA + 1, GFP_KERNEL, 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR(buf), -EINVAL);
	buf = ib_create_send_mad(m->agent, 1, 0, 1, IB_MGMT_RMPP_HDR, 10,
				 GFP_KERNEL, 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR(buf), -EINVAL);
	buf = ib_create_send_mad(m->agent, 1, 3, 0, IB_MGMT_VENDOR_HDR, 10,
				 GFP_KERNEL, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	KUNIT_EXPECT_EQ(test, buf->hdr_len, IB_MGMT_VENDOR_HDR);
	KUNIT_EXPECT_EQ(test, buf->data_len, 10);
	KUNIT_EXPECT_EQ(test, buf->seg_count, 0);
	KUNIT_EXPECT_PTR_EQ(test, buf->mad_agent, m->agent);
	KUNIT_EXPECT_NULL(test, ib_get_rmpp_segment(buf, 1));
	ib_free_send_mad(buf);
	menv_agent_free(m);
	tdev_destroy(a);
}

static struct kunit_case st_cases[] = {
	KUNIT_CASE(st_request_response_ib),
	KUNIT_CASE(st_request_response_roce),
	KUNIT_CASE(st_request_response_roce4),
	KUNIT_CASE(st_unsolicited),
	KUNIT_CASE(st_timeout_retries),
	KUNIT_CASE(st_cancel),
	KUNIT_CASE(st_cancel_in_response),
	KUNIT_CASE(st_response_from_another_peer),
	KUNIT_CASE(st_modify),
	KUNIT_CASE(st_unregister_outstanding),
	KUNIT_CASE(st_bad_post),
	KUNIT_CASE(st_create_send_mad),
	{}
};

static struct kunit_suite st_suite = {
	.name = "rdma_core_mad_send",
	.test_cases = st_cases,
};
kunit_test_suite(st_suite);
