// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cm_sidr: service ID resolution (SIDR REQ, SIDR
 * REP) over InfiniBand and RoCE: the answer's QPN, Q_Key, status,
 * additional information and private data; no listener (UNSUPPORTED); a
 * handler that refuses, or an ID destroyed before it answers (REJECT); a
 * request nobody answers (SIDR_REQ_ERROR); bad answers.
 */
#include <kunit/test.h>
#include "cenv.h"

#define SR_SID		cpu_to_be64(0x0000000000fe0001ULL)
#define SR_QPN		0x00abcdef
#define SR_QKEY		0x11110000
#define SR_INFO_LEN	20

static const bool sr_links[] = { false, true };
KUNIT_ARRAY_PARAM(sr_link, sr_links, cenv_link_desc);

/* Side 0 asks side 1 to resolve @sid from a new ID */
static struct ib_cm_id *sr_ask(struct cenv *env, __be64 sid,
			       unsigned long timeout_ms, u8 retries,
			       const u8 *pdata, u8 len)
{
	struct ib_cm_sidr_req_param p = {};
	struct sa_path_rec path;
	struct ib_cm_id *a = cenv_id(env, 0);

	cenv_path(env, 0, &path);
	p.path = &path;
	p.sgid_attr = env->s[0].gid_attr;
	p.service_id = sid;
	p.timeout_ms = timeout_ms;
	p.max_cm_retries = retries;
	p.private_data = pdata;
	p.private_data_len = len;
	KUNIT_ASSERT_EQ(env->test, ib_send_cm_sidr_req(a, &p), 0);
	KUNIT_EXPECT_EQ(env->test, a->state, IB_CM_SIDR_REQ_SENT);
	return a;
}

/* A request answered with a QPN, a Q_Key, information and data */
static void sidr_resolve(struct kunit *test)
{
	struct cenv *env = cenv_new(test, *(const bool *)test->param_value);
	u8 req_data[IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE];
	u8 rep_data[IB_CM_SIDR_REP_PRIVATE_DATA_SIZE + 1];
	u8 info[IB_CM_SIDR_REP_INFO_LENGTH + 1];
	struct ib_cm_sidr_rep_param rep = {};
	const struct ib_cm_sidr_req_event_param *rq;
	const struct ib_cm_sidr_rep_event_param *rp;
	struct ib_cm_id *listen, *a, *b;
	struct sa_path_rec path;
	struct cenv_event *e;

	cenv_path(env, 0, &path);
	cenv_fill(req_data, sizeof(req_data), 0x91);
	cenv_fill(rep_data, sizeof(rep_data), 0x92);
	cenv_fill(info, sizeof(info), 0x93);
	listen = cenv_listen(env, 1, SR_SID);
	a = sr_ask(env, SR_SID, CENV_WAIT_MS / 4, 3, req_data,
		   sizeof(req_data));
	/* One request at a time; an asker has no connection to reply to */
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(a, &(struct ib_cm_rep_param){}),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_req(a,
			&(struct ib_cm_sidr_req_param){
				.path = &path, .sgid_attr = env->s[0].gid_attr,
				.service_id = SR_SID, .timeout_ms = 1000 }),
			-EINVAL);

	e = cenv_expect(env, 1, IB_CM_SIDR_REQ_RECEIVED);
	rq = &e->ev.param.sidr_req_rcvd;
	b = e->id;
	KUNIT_EXPECT_PTR_NE(test, b, listen);
	KUNIT_EXPECT_PTR_EQ(test, rq->listen_id, listen);
	KUNIT_EXPECT_EQ(test, rq->service_id, SR_SID);
	KUNIT_EXPECT_EQ(test, rq->port, 1);
	KUNIT_EXPECT_EQ(test, rq->pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, rq->bth_pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_SIDR_REQ_RCVD);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata, sizeof(req_data), 0x91));
	if (env->roce) {
		KUNIT_EXPECT_TRUE(test, e->has_sgid_attr);
		KUNIT_EXPECT_EQ(test, memcmp(&e->sgid, &env->s[1].gid, 16), 0);
	}
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_SIDR_REQ_RCVD);
	/* Connection calls do not apply */
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(b, &(struct ib_cm_rep_param){}),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_mra(b, CENV_CM_TIMEOUT, NULL, 0),
			-EINVAL);

	rep.qp_num = SR_QPN;
	rep.qkey = SR_QKEY;
	rep.status = IB_SIDR_SUCCESS;
	rep.info = info;
	rep.info_length = IB_CM_SIDR_REP_INFO_LENGTH + 1;
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_rep(b, &rep), -EINVAL);
	rep.info_length = SR_INFO_LEN;
	rep.private_data = rep_data;
	rep.private_data_len = IB_CM_SIDR_REP_PRIVATE_DATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_rep(b, &rep), -EINVAL);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_SIDR_REQ_RCVD);
	rep.private_data_len = IB_CM_SIDR_REP_PRIVATE_DATA_SIZE;
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_rep(b, &rep), 0);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_rep(b, &rep), -EINVAL);

	e = cenv_expect(env, 0, IB_CM_SIDR_REP_RECEIVED);
	rp = &e->ev.param.sidr_rep_rcvd;
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, rp->status, IB_SIDR_SUCCESS);
	KUNIT_EXPECT_EQ(test, rp->qpn, SR_QPN);
	KUNIT_EXPECT_EQ(test, rp->qkey, SR_QKEY);
	KUNIT_ASSERT_NOT_NULL(test, rp->info);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->info, SR_INFO_LEN, 0x93));
	/* The target never sends the information's length: 0 or all of it */
	if (rp->info_len)
		KUNIT_EXPECT_EQ(test, rp->info_len, SR_INFO_LEN);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata,
					    IB_CM_SIDR_REP_PRIVATE_DATA_SIZE,
					    0x92));
	if (env->roce)
		KUNIT_EXPECT_TRUE(test, e->has_sgid_attr);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_SIDR_REQ_ERROR), 0);
}

/* Nobody listens: UNSUPPORTED */
static void sidr_no_listener(struct kunit *test)
{
	struct cenv *env = cenv_new(test, *(const bool *)test->param_value);
	struct cenv_event *e;

	sr_ask(env, SR_SID, CENV_WAIT_MS / 4, 3, NULL, 0);
	e = cenv_expect(env, 0, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.sidr_rep_rcvd.status,
			IB_SIDR_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_SIDR_REQ_RECEIVED), 0);
}

/* A handler that returns nonzero: its ID goes, the asker gets REJECT */
static void sidr_handler_refuses(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *listen;
	struct cenv_event *e;

	listen = cenv_listen(env, 1, SR_SID);
	env->s[1].rec.ret[IB_CM_SIDR_REQ_RECEIVED] = -EINVAL;
	sr_ask(env, SR_SID, CENV_WAIT_MS / 4, 3, NULL, 0);
	e = cenv_expect(env, 0, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.sidr_rep_rcvd.status,
			IB_SIDR_REJECT);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_SIDR_REQ_RECEIVED), 1);
	/* The listener itself stays */
	KUNIT_EXPECT_EQ(test, listen->state, IB_CM_LISTEN);
	env->s[1].rec.ret[IB_CM_SIDR_REQ_RECEIVED] = 0;
	sr_ask(env, SR_SID, CENV_WAIT_MS / 4, 3, NULL, 0);
	cenv_expect(env, 1, IB_CM_SIDR_REQ_RECEIVED);
}

/* The passive ID destroyed before it answers: REJECT */
static void sidr_destroy_unanswered(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	cenv_listen(env, 1, SR_SID);
	a = sr_ask(env, SR_SID, CENV_WAIT_MS / 4, 3, NULL, 0);
	b = cenv_expect(env, 1, IB_CM_SIDR_REQ_RECEIVED)->id;
	cenv_destroy(env, b);
	e = cenv_expect(env, 0, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->ev.param.sidr_rep_rcvd.status,
			IB_SIDR_REJECT);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

/*
 * Nobody answers: SIDR_REQ_ERROR after the retries; the asking ID is
 * idle, and destroying one that is still asking is quiet.
 */
static void sidr_timeout(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *other;
	struct cenv_event *e;

	cenv_listen(env, 1, SR_SID);
	a = sr_ask(env, SR_SID, 500, 1, NULL, 0);
	cenv_expect(env, 1, IB_CM_SIDR_REQ_RECEIVED);
	e = cenv_expect(env, 0, IB_CM_SIDR_REQ_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->ev.param.send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
	/* Retries are duplicates, not new requests */
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_SIDR_REQ_RECEIVED), 1);

	other = sr_ask(env, SR_SID, CENV_WAIT_MS, 3, NULL, 0);
	cenv_expect(env, 1, IB_CM_SIDR_REQ_RECEIVED);
	cenv_destroy(env, other);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_SIDR_REQ_ERROR), 1);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

static struct kunit_case sidr_cases[] = {
	KUNIT_CASE_PARAM(sidr_resolve, sr_link_gen_params),
	KUNIT_CASE_PARAM(sidr_no_listener, sr_link_gen_params),
	KUNIT_CASE(sidr_handler_refuses),
	KUNIT_CASE(sidr_destroy_unanswered),
	KUNIT_CASE(sidr_timeout),
	{}
};

static struct kunit_suite sidr_suite = {
	.name = "rdma_core_cm_sidr",
	.test_cases = sidr_cases,
};

kunit_test_suite(sidr_suite);
