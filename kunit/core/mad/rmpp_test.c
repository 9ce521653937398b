// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mad_rmpp: core/mad/rmpp.c between two test
 * devices.  A request of many segments from a kernel-RMPP agent is
 * reassembled for the receiving agent and answered with a response of
 * many segments, reassembled in turn; segments made by hand (from an
 * agent that does RMPP itself) that are out of order, repeated, of a bad
 * version, type or length are dropped, counted and, where the IBTA says
 * so, aborted; a transfer repaired by a retransmission completes.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "menv.h"
#include "tk.h"

#define RT_CLASS	0x30		/* vendor, second range: OUI, RMPP */
#define RT_OUI		0x05
#define RT_HDR		IB_MGMT_VENDOR_HDR
#define RT_SEG		(sizeof(struct ib_mad) - RT_HDR)	/* 216 */
#define RT_LEN		3000

/**
 * struct rt_agent - an RMPP agent of a case and what reached it
 * @agent: the agent
 * @answer: answer each request with a response of the same length
 * @wq: woken on each callback
 * @nrecv: MADs (messages) received
 * @nsend: sends reported
 * @len: mad_len of the last message
 * @segs: its buffers
 * @ok: its data was the pattern rt_byte() makes for its TID
 * @status: the status of the last send reported
 */
struct rt_agent {
	struct ib_mad_agent *agent;
	bool answer;
	wait_queue_head_t wq;
	atomic_t nrecv;
	atomic_t nsend;
	int len;
	int segs;
	bool ok;
	enum ib_wc_status status;
};

static u8 rt_byte(u32 tid_lo, int i)
{
	return (tid_lo * 31 + i * 7) & 0xff;
}

/* Whether the data of a reassembled message is the pattern, in order. */
static bool rt_check_data(const struct ib_mad_recv_wc *rwc, u32 tid_lo)
{
	const struct ib_mad_recv_buf *rb;
	int i = 0, n, left = rwc->mad_len - RT_HDR;
	const u8 *d;

	list_for_each_entry(rb, &rwc->rmpp_list, list) {
		d = (const u8 *)rb->mad + RT_HDR;
		for (n = 0; n < RT_SEG && left; n++, left--, i++)
			if (d[n] != rt_byte(tid_lo, i))
				return false;
	}
	return !left;
}

/* A send of @len data bytes with RMPP from @a, the pattern of @tid_lo. */
static struct ib_mad_send_buf *rt_msg(struct rt_agent *a, struct ib_ah *ah,
				      u8 method, __be64 tid, int len,
				      u16 pkey_index, u32 qpn)
{
	struct ib_mad_send_buf *buf;
	struct ib_vendor_mad *v;
	u32 lo = be64_to_cpu(tid) & 0xffffffff;
	int seg, i;
	u8 *d;

	buf = ib_create_send_mad(a->agent, qpn, pkey_index, 1, RT_HDR, len,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf))
		return buf;
	v = buf->mad;
	v->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	v->mad_hdr.mgmt_class = RT_CLASS;
	v->mad_hdr.class_version = 1;
	v->mad_hdr.method = method;
	v->mad_hdr.tid = tid;
	v->oui[2] = RT_OUI;
	for (seg = 1, i = 0; seg <= buf->seg_count; seg++) {
		d = ib_get_rmpp_segment(buf, seg);
		for (; i < seg * buf->seg_size && i < len; i++)
			d[i - (seg - 1) * buf->seg_size] = rt_byte(lo, i);
	}
	buf->ah = ah;
	return buf;
}

static void rt_recv(struct ib_mad_agent *agent, struct ib_mad_send_buf *sb,
		    struct ib_mad_recv_wc *rwc)
{
	struct rt_agent *a = agent->context;
	const struct ib_mad_hdr *h = &rwc->recv_buf.mad->mad_hdr;
	u32 lo = be64_to_cpu(h->tid) & 0xffffffff;
	struct ib_mad_recv_buf *rb;
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;

	a->segs = 0;
	list_for_each_entry(rb, &rwc->rmpp_list, list)
		a->segs++;
	a->len = rwc->mad_len;
	a->ok = rt_check_data(rwc, lo);
	if (a->answer && !ib_response_mad(h)) {
		ah = ib_create_ah_from_wc(agent->qp->pd, rwc->wc,
					  rwc->recv_buf.grh, agent->port_num);
		buf = IS_ERR(ah) ? NULL :
		      rt_msg(a, ah, h->method | IB_MGMT_METHOD_RESP, h->tid,
			     rwc->mad_len - RT_HDR, rwc->wc->pkey_index,
			     rwc->wc->src_qp);
		if (!IS_ERR_OR_NULL(buf)) {
			buf->context[0] = ah;
			if (ib_post_send_mad(buf, NULL))
				ib_free_send_mad(buf);
		}
	}
	ib_free_recv_mad(rwc);
	atomic_inc(&a->nrecv);
	wake_up(&a->wq);
}

static void rt_send(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
	struct rt_agent *a = agent->context;

	a->status = wc->status;
	menv_send_done(wc->send_buf, &a->nsend, &a->wq);
}

/* An RMPP agent of class RT_CLASS with method GET; @user: user RMPP. */
static struct rt_agent *rt_agent(struct kunit *test, struct tdev *td,
				 bool user)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = RT_CLASS,
		.mgmt_class_version = 1,
		.oui = { 0, 0, RT_OUI },
	};
	struct rt_agent *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	init_waitqueue_head(&a->wq);
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	a->agent = ib_register_mad_agent(&td->ibdev, 1, IB_QPT_GSI, &req,
					 IB_MGMT_RMPP_VERSION, rt_send,
					 rt_recv, a,
					 user ? IB_MAD_USER_RMPP : 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(a->agent), "agent: %ld",
			       PTR_ERR(a->agent));
	return a;
}

static bool rt_wait(struct rt_agent *a, atomic_t *v, int want)
{
	return wait_event_timeout(a->wq, atomic_read(v) >= want,
				  msecs_to_jiffies(MENV_WAIT_MS * 2)) > 0;
}

struct rt_pair {
	struct tdev *a, *b;
	struct menv_agent *plain;	/* A's agent for menv_ah() */
	struct ib_ah *ah;		/* from A to B */
};

static void rt_pair_make(struct kunit *test, struct rt_pair *p, bool roce)
{
	if (roce) {
		tk_roce_pair(test, "ktmad%d", &p->a, &p->b);
	} else {
		p->a = menv_dev(test, false);
		p->b = menv_dev(test, false);
	}
	p->plain = menv_agent(test, &p->a->ibdev, 1, IB_QPT_GSI, 0, 0, 0, 0);
	p->ah = menv_ah(test, p->plain->agent, &p->b->ibdev, 1);
}

static void rt_pair_free(struct rt_pair *p)
{
	rdma_destroy_ah(p->ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(p->plain);
	tdev_destroy(p->b);
	tdev_destroy(p->a);
}

/* A long request and its long response, reassembled at both ends. */
static void rt_roundtrip(struct kunit *test, bool roce)
{
	struct rt_pair p;
	struct rt_agent *req, *resp;
	struct ib_mad_send_buf *buf;
	__be64 tid;

	rt_pair_make(test, &p, roce);
	/* On A, nothing registered on GET: a sender of the class */
	req = rt_agent(test, p.a, false);
	resp = rt_agent(test, p.b, false);
	resp->answer = true;
	tid = cpu_to_be64((u64)req->agent->hi_tid << 32 | 0x51);
	buf = rt_msg(req, p.ah, IB_MGMT_METHOD_GET, tid, RT_LEN, 0, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	KUNIT_EXPECT_EQ(test, buf->seg_count, DIV_ROUND_UP(RT_LEN, RT_SEG));
	KUNIT_EXPECT_EQ(test, buf->seg_size, (int)RT_SEG);
	KUNIT_EXPECT_NULL(test, ib_get_rmpp_segment(buf, buf->seg_count + 1));
	KUNIT_EXPECT_NULL(test, ib_get_rmpp_segment(buf, 0));
	buf->timeout_ms = 4000;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);

	KUNIT_EXPECT_TRUE(test, rt_wait(resp, &resp->nrecv, 1));
	KUNIT_EXPECT_EQ(test, resp->len, RT_HDR + RT_LEN);
	KUNIT_EXPECT_EQ(test, resp->segs, DIV_ROUND_UP(RT_LEN, RT_SEG));
	KUNIT_EXPECT_TRUE(test, resp->ok);
	KUNIT_EXPECT_TRUE(test, rt_wait(req, &req->nsend, 1));
	KUNIT_EXPECT_EQ(test, req->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&req->nrecv), 1);
	KUNIT_EXPECT_EQ(test, req->len, RT_HDR + RT_LEN);
	KUNIT_EXPECT_TRUE(test, req->ok);
	KUNIT_EXPECT_TRUE(test, rt_wait(resp, &resp->nsend, 1));
	KUNIT_EXPECT_EQ(test, resp->status, IB_WC_SUCCESS);

	ib_unregister_mad_agent(resp->agent);
	ib_unregister_mad_agent(req->agent);
	rt_pair_free(&p);
}

static void rt_roundtrip_ib(struct kunit *test)
{
	rt_roundtrip(test, false);
}

static void rt_roundtrip_roce(struct kunit *test)
{
	rt_roundtrip(test, true);
}

/* A segment made by hand: @flags, @seg, @paylen; @ver and @type too. */
static void rt_post_seg(struct kunit *test, struct rt_agent *a,
			struct ib_ah *ah, u32 tid_lo, u8 ver, u8 type,
			u8 flags, u32 seg, u32 paylen)
{
	struct ib_mad_send_buf *buf;
	struct ib_rmpp_mad *m;
	int i;

	buf = ib_create_send_mad(a->agent, 1, 0, 0, IB_MGMT_RMPP_HDR,
				 IB_MGMT_RMPP_DATA, GFP_KERNEL,
				 IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	m = buf->mad;
	m->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	m->mad_hdr.mgmt_class = RT_CLASS;
	m->mad_hdr.class_version = 1;
	m->mad_hdr.method = IB_MGMT_METHOD_GET;
	m->mad_hdr.tid = cpu_to_be64((u64)a->agent->hi_tid << 32 | tid_lo);
	m->rmpp_hdr.rmpp_version = ver;
	m->rmpp_hdr.rmpp_type = type;
	ib_set_rmpp_flags(&m->rmpp_hdr, flags | IB_MGMT_RMPP_FLAG_ACTIVE);
	m->rmpp_hdr.seg_num = cpu_to_be32(seg);
	m->rmpp_hdr.paylen_newwin = cpu_to_be32(paylen);
	((struct ib_vendor_mad *)m)->oui[2] = RT_OUI;
	for (i = 0; i < RT_SEG; i++)
		((u8 *)m)[RT_HDR + i] = rt_byte(tid_lo, (seg - 1) * RT_SEG + i);
	buf->ah = ah;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
}

/**
 * struct rt_bad - a transfer made by hand and what it must do
 * @desc: the row's name
 * @ver: the RMPP version of its segments
 * @type: their RMPP type
 * @flags: the flags of its first segment
 * @seg: its number
 * @paylen: its payload length
 */
struct rt_bad {
	const char *desc;
	u8 ver, type, flags;
	u32 seg, paylen;
};

static const struct rt_bad rt_bad_rows[] = {
	{ "first segment numbered 2", 1, IB_MGMT_RMPP_TYPE_DATA,
	  IB_MGMT_RMPP_FLAG_FIRST, 2, 3 * 220 },
	{ "no first flag", 1, IB_MGMT_RMPP_TYPE_DATA, 0, 1, 0 },
	{ "version 2", 2, IB_MGMT_RMPP_TYPE_DATA,
	  IB_MGMT_RMPP_FLAG_FIRST | IB_MGMT_RMPP_FLAG_LAST, 1, 220 },
	{ "type 9", 1, 9, IB_MGMT_RMPP_FLAG_FIRST, 1, 220 },
	{ "only segment longer than a MAD", 1, IB_MGMT_RMPP_TYPE_DATA,
	  IB_MGMT_RMPP_FLAG_FIRST | IB_MGMT_RMPP_FLAG_LAST, 1, 221 },
	{ "only segment shorter than its header", 1, IB_MGMT_RMPP_TYPE_DATA,
	  IB_MGMT_RMPP_FLAG_FIRST | IB_MGMT_RMPP_FLAG_LAST, 1, 3 },
	{ "ack for no transfer", 1, IB_MGMT_RMPP_TYPE_ACK, 0, 1, 1 },
};

static void rt_bad_desc(const struct rt_bad *r, char *desc)
{
	strscpy(desc, r->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rt_bad_rows, rt_bad_rows, rt_bad_desc);

/* Each bad transfer is dropped and counted, and nothing is delivered. */
static void rt_bad(struct kunit *test)
{
	const struct rt_bad *r = test->param_value;
	struct rt_agent *user, *rcv;
	struct rt_pair p;
	u64 before;

	rt_pair_make(test, &p, false);
	user = rt_agent(test, p.a, true);
	rcv = rt_agent(test, p.b, false);
	before = menv_counter(&p.b->ibdev, 1, "drop_rmpp");
	KUNIT_ASSERT_NE(test, before, U64_MAX);
	rt_post_seg(test, user, p.ah, 7, r->ver, r->type, r->flags, r->seg,
		    r->paylen);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(menv_counter(&p.b->ibdev, 1,
							 "drop_rmpp") ==
					    before + 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&rcv->nrecv), 0);
	/* A good transfer of one segment still goes through */
	rt_post_seg(test, user, p.ah, 8, 1, IB_MGMT_RMPP_TYPE_DATA,
		    IB_MGMT_RMPP_FLAG_FIRST | IB_MGMT_RMPP_FLAG_LAST, 1, 220);
	KUNIT_EXPECT_TRUE(test, rt_wait(rcv, &rcv->nrecv, 1));
	KUNIT_EXPECT_EQ(test, rcv->len, (int)sizeof(struct ib_mad));
	KUNIT_EXPECT_EQ(test, rcv->segs, 1);
	ib_unregister_mad_agent(rcv->agent);
	ib_unregister_mad_agent(user->agent);
	rt_pair_free(&p);
}

/*
 * Three segments sent 1, 1 again, 3, 2, 3: the repeated first segment is
 * acknowledged again, the early third dropped (a gap), and the message
 * is whole once 2 and 3 came in order.
 */
static void rt_reorder_and_repeat(struct kunit *test)
{
	const u8 f = IB_MGMT_RMPP_FLAG_FIRST, l = IB_MGMT_RMPP_FLAG_LAST;
	struct rt_agent *user, *rcv;
	struct rt_pair p;
	u64 before;

	rt_pair_make(test, &p, false);
	user = rt_agent(test, p.a, true);
	rcv = rt_agent(test, p.b, false);
	before = menv_counter(&p.b->ibdev, 1, "drop_rmpp");
	rt_post_seg(test, user, p.ah, 9, 1, IB_MGMT_RMPP_TYPE_DATA, f, 1,
		    3 * 220);
	rt_post_seg(test, user, p.ah, 9, 1, IB_MGMT_RMPP_TYPE_DATA, f, 1,
		    3 * 220);
	rt_post_seg(test, user, p.ah, 9, 1, IB_MGMT_RMPP_TYPE_DATA, l, 3,
		    220);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(menv_counter(&p.b->ibdev, 1,
							 "drop_rmpp") ==
					    before + 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&rcv->nrecv), 0);
	rt_post_seg(test, user, p.ah, 9, 1, IB_MGMT_RMPP_TYPE_DATA, 0, 2, 0);
	rt_post_seg(test, user, p.ah, 9, 1, IB_MGMT_RMPP_TYPE_DATA, l, 3,
		    220);
	KUNIT_EXPECT_TRUE(test, rt_wait(rcv, &rcv->nrecv, 1));
	KUNIT_EXPECT_EQ(test, rcv->segs, 3);
	KUNIT_EXPECT_EQ(test, rcv->len, RT_HDR + 3 * (int)RT_SEG);
	KUNIT_EXPECT_TRUE(test, rcv->ok);
	KUNIT_EXPECT_EQ(test, menv_counter(&p.b->ibdev, 1, "drop_rmpp"),
			before + 1);
	ib_unregister_mad_agent(rcv->agent);
	ib_unregister_mad_agent(user->agent);
	rt_pair_free(&p);
}

/* Nobody acknowledges: the send ends with a timeout after its retries. */
static void rt_no_ack(struct kunit *test)
{
	struct rt_agent *req;
	struct rt_pair p;
	struct ib_mad_send_buf *buf;

	rt_pair_make(test, &p, false);
	req = rt_agent(test, p.a, false);
	/* No agent of the class on B: segment 1 is dropped there */
	buf = rt_msg(req, p.ah, IB_MGMT_METHOD_GET,
		     cpu_to_be64((u64)req->agent->hi_tid << 32 | 3), RT_LEN,
		     0, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	buf->timeout_ms = 100;
	buf->retries = 2;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait(req, &req->nsend, 1));
	KUNIT_EXPECT_EQ(test, req->status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&req->nrecv), 0);
	ib_unregister_mad_agent(req->agent);
	rt_pair_free(&p);
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE(rt_roundtrip_ib),
	KUNIT_CASE(rt_roundtrip_roce),
	KUNIT_CASE_PARAM(rt_bad, rt_bad_rows_gen_params),
	KUNIT_CASE(rt_reorder_and_repeat),
	KUNIT_CASE(rt_no_ack),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "rdma_core_mad_rmpp",
	.test_cases = rt_cases,
};
kunit_test_suite(rt_suite);
