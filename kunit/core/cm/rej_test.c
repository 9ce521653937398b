// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cm_rej: connections that do not come up.  A REJ
 * from the passive side (reason, ARI, private data; the calls a REJ
 * refuses) and from the active side after the REP; a REQ for a service
 * nobody listens to; a REQ nobody answers (REQ_ERROR after the retries);
 * an MRA that gives the passive side more time than the REQ's timeout,
 * a delayed MRA (sent when the REQ comes again), an MRA for a REP; a REQ
 * from a QP still connected (stale connection), from one whose
 * connection rests in timewait (stale too), from one whose connection's
 * timewait has ended or whose ID was destroyed in it (a new one); a REJ
 * after our REP (into timewait); the REQ's retries waiting for the peer's
 * response timeout.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include "cenv.h"

#define RT_SID		cpu_to_be64(0x0000000000ef0001ULL)
#define RT_SID2		cpu_to_be64(0x0000000000ef0002ULL)
#define RT_ARI_LEN	8
#define RT_PDATA_LEN	20

static const bool rt_links[] = { false, true };
KUNIT_ARRAY_PARAM(rt_link, rt_links, cenv_link_desc);

/* Side 0 sends a REQ from a new ID to side 1; side 1's new ID */
static struct ib_cm_id *rt_req(struct cenv *env, __be64 sid,
			       struct ib_cm_id **a, u8 max_retries)
{
	struct ib_cm_req_param req;
	struct sa_path_rec path;

	*a = cenv_id(env, 0);
	cenv_path(env, 0, &path);
	cenv_req_param(env, 0, &path, sid, &req);
	req.max_cm_retries = max_retries;
	KUNIT_ASSERT_EQ(env->test, ib_send_cm_req(*a, &req), 0);
	return cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
}

/* A REQ as rt_req(), then side 1's REP, which side 0 has had */
static struct ib_cm_id *rt_rep(struct cenv *env, struct ib_cm_id **a,
			       u8 max_retries)
{
	struct ib_cm_rep_param rep;
	struct ib_cm_id *b;

	cenv_listen(env, 1, RT_SID);
	b = rt_req(env, RT_SID, a, max_retries);
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(env->test, ib_send_cm_rep(b, &rep), 0);
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	return b;
}

/* The passive side refuses: REJ with ARI and private data */
static void rej_passive(struct kunit *test)
{
	struct cenv *env = cenv_new(test, *(const bool *)test->param_value);
	u8 pdata[IB_CM_REJ_PRIVATE_DATA_SIZE + 1];
	u8 ari[IB_CM_REJ_ARI_LENGTH + 1];
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *a, *b;
	struct cenv_event *e;
	const u8 *rest;
	int i;

	cenv_fill(pdata, sizeof(pdata), 0x66);
	cenv_fill(ari, sizeof(ari), 0x77);
	cenv_listen(env, 1, RT_SID);
	b = rt_req(env, RT_SID, &a, 3);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rej(b, IB_CM_REJ_CONSUMER_DEFINED,
					     ari, IB_CM_REJ_ARI_LENGTH + 1,
					     NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rej(b, IB_CM_REJ_CONSUMER_DEFINED,
					     NULL, 0, pdata,
					     IB_CM_REJ_PRIVATE_DATA_SIZE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_REQ_RCVD);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rej(b, IB_CM_REJ_CONSUMER_DEFINED,
					     ari, RT_ARI_LEN, pdata,
					     RT_PDATA_LEN), 0);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_IDLE);
	/* Once is enough */
	KUNIT_EXPECT_EQ(test, ib_send_cm_rej(b, IB_CM_REJ_CONSUMER_DEFINED,
					     NULL, 0, NULL, 0), -EINVAL);

	e = cenv_expect(env, 0, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(e->ev.param.rej_rcvd.reason),
			   "consumer defined");
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.ari_length, RT_ARI_LEN);
	KUNIT_ASSERT_NOT_NULL(test, e->ev.param.rej_rcvd.ari);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->info, RT_ARI_LEN, 0x77));
	KUNIT_ASSERT_NOT_NULL(test, e->ev.private_data);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata, RT_PDATA_LEN, 0x66));
	/* What the sender did not fill is zero */
	rest = e->pdata + RT_PDATA_LEN;
	for (i = 0; i < IB_CM_REJ_PRIVATE_DATA_SIZE - RT_PDATA_LEN; i++)
		if (rest[i])
			break;
	KUNIT_EXPECT_EQ(test, i, IB_CM_REJ_PRIVATE_DATA_SIZE - RT_PDATA_LEN);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);

	/* Both IDs are idle again: the active one may try again */
	cenv_path(env, 0, &path);
	cenv_req_param(env, 0, &path, RT_SID, &req);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	b = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	KUNIT_ASSERT_EQ(test, ib_send_cm_rej(b, IB_CM_REJ_NO_RESOURCES, NULL,
					     0, NULL, 0), 0);
	e = cenv_expect(env, 0, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.ari_length, 0);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_REQ_ERROR), 0);
}

/* The active side refuses the REP: both sides idle */
static void rej_active_rep(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	b = rt_rep(env, &a, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rej(a, IB_CM_REJ_INVALID_RNR_RETRY,
					     NULL, 0, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rtu(a, NULL, 0), -EINVAL);
	e = cenv_expect(env, 1, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, b);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_INVALID_RNR_RETRY);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_REP_ERROR), 0);
}

/*
 * A REQ for a service nobody on the passive device listens to (a
 * listener of the same ID on the active device does not count, nor one
 * destroyed before): REJ with "invalid service ID".
 */
static void rej_no_listener(struct kunit *test)
{
	struct cenv *env = cenv_new(test, *(const bool *)test->param_value);
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *a, *gone;
	struct cenv_event *e;

	cenv_listen(env, 0, RT_SID);
	gone = cenv_listen(env, 1, RT_SID);
	cenv_destroy(env, gone);
	cenv_listen(env, 1, RT_SID2);
	a = cenv_req_ready(env, RT_SID, &path, &req);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	e = cenv_expect(env, 0, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_REQ_RECEIVED), 0);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_REQ_RECEIVED), 0);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

/*
 * A REQ the passive side takes and never answers: after its retries the
 * active side gets REQ_ERROR (the retries reach the passive ID as
 * duplicates, not as new REQs).
 */
static void req_timeout(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	cenv_listen(env, 1, RT_SID);
	b = rt_req(env, RT_SID, &a, 2);
	e = cenv_expect(env, 0, IB_CM_REQ_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->ev.param.send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_REQ_RECEIVED), 1);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_REJ_RECEIVED), 0);
}

/*
 * An MRA: the active side waits the MRA's service timeout instead of the
 * REQ's.  The REQ gives up after about 3 s (1 s response timeout and
 * twice the paths' life time, one retry); the MRA asks for 16 s; the REP
 * comes after 6 s and must find the active side still waiting.
 */
static void mra_extends_timeout(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	u8 pdata[IB_CM_MRA_PRIVATE_DATA_SIZE + 1];
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	cenv_fill(pdata, sizeof(pdata), 0x88);
	cenv_listen(env, 1, RT_SID);
	a = cenv_req_ready(env, RT_SID, &path, &req);
	req.remote_cm_response_timeout = 18;
	req.max_cm_retries = 1;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	b = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;

	KUNIT_EXPECT_EQ(test, ib_send_cm_mra(b, 22, pdata,
					     IB_CM_MRA_PRIVATE_DATA_SIZE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_REQ_RCVD);
	KUNIT_ASSERT_EQ(test, ib_send_cm_mra(b, 22, pdata,
					     IB_CM_MRA_PRIVATE_DATA_SIZE), 0);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_MRA_REQ_SENT);
	/* One MRA per message */
	KUNIT_EXPECT_EQ(test, ib_send_cm_mra(b, 22, NULL, 0), -EINVAL);

	e = cenv_expect(env, 0, IB_CM_MRA_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->ev.param.mra_rcvd.service_timeout, 22);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_MRA_REQ_RCVD);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata,
					    IB_CM_MRA_PRIVATE_DATA_SIZE, 0x88));
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_MRA_REQ_RCVD);

	/* Not an assertion on time: the REQ's own timeout passes */
	msleep(6000);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_REQ_ERROR), 0);
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(b, &rep), 0);
	e = cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_REP_RCVD);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_REQ_ERROR), 0);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_RTU_RECEIVED);
}

/*
 * A delayed MRA (IB_CM_MRA_FLAG_DELAY): nothing goes out at the call; the
 * active side's retry of its REQ is answered with the MRA, which then
 * holds the active side until the REP.  Told apart by order, not time:
 * when the MRA arrives, the passive side has counted the retry.
 */
static void mra_delayed(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	cenv_listen(env, 1, RT_SID);
	a = cenv_req_ready(env, RT_SID, &path, &req);
	req.remote_cm_response_timeout = 18;
	req.max_cm_retries = 2;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	b = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	KUNIT_ASSERT_EQ(test, ib_send_cm_mra(b, 22 | IB_CM_MRA_FLAG_DELAY,
					     NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_MRA_REQ_SENT);
	e = cenv_expect(env, 0, IB_CM_MRA_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.mra_rcvd.service_timeout, 22);
	KUNIT_EXPECT_GE(test, cenv_cm_counter(env, 1, "cm_rx_duplicates",
					      "req"), 1);
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(b, &rep), 0);
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_REQ_ERROR), 0);
}

/* Without the MRA, the same REQ does give up: the control of the above */
static void mra_control_no_mra(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *a;
	struct cenv_event *e;

	cenv_listen(env, 1, RT_SID);
	a = cenv_req_ready(env, RT_SID, &path, &req);
	req.remote_cm_response_timeout = 18;
	req.max_cm_retries = 1;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	cenv_expect(env, 1, IB_CM_REQ_RECEIVED);
	e = cenv_expect(env, 0, IB_CM_REQ_ERROR);
	KUNIT_EXPECT_EQ(test, e->ev.param.send_status, IB_WC_RESP_TIMEOUT_ERR);
}

/*
 * An MRA for the REP: the passive side (MRA_REP_RCVD) waits for the RTU
 * longer, and still takes it.
 */
static void mra_for_rep(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	b = rt_rep(env, &a, 1);
	KUNIT_ASSERT_EQ(test, ib_send_cm_mra(a, 21, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_MRA_REP_SENT);
	e = cenv_expect(env, 1, IB_CM_MRA_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, b);
	KUNIT_EXPECT_EQ(test, e->ev.param.mra_rcvd.service_timeout, 21);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_MRA_REP_RCVD);
	/* COMM_EST is taken in MRA_REP_RCVD too; here the RTU comes */
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(a, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_ESTABLISHED);
	e = cenv_expect(env, 1, IB_CM_RTU_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_REP_ERROR), 0);
}

/* Side 0 sends a REQ for RT_SID from its QP again, on a new ID; that ID */
static struct ib_cm_id *rt_req_again(struct cenv *env,
				     struct ib_cm_req_param *req)
{
	struct sa_path_rec path;
	struct ib_cm_id *id = cenv_req_ready(env, RT_SID, &path, req);

	KUNIT_ASSERT_EQ(env->test, ib_send_cm_req(id, req), 0);
	return id;
}

/* Such a REQ is refused as stale: a REJ to the new ID */
static void rt_expect_stale(struct cenv *env)
{
	struct ib_cm_req_param req;
	struct ib_cm_id *again = rt_req_again(env, &req);
	struct cenv_event *e = cenv_expect(env, 0, IB_CM_REJ_RECEIVED);

	KUNIT_EXPECT_PTR_EQ(env->test, e->id, again);
	KUNIT_EXPECT_EQ(env->test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_STALE_CONN);
}

/* Such a REQ is a new connection, on another passive ID than @old */
static void rt_expect_new(struct cenv *env, struct ib_cm_id *old)
{
	struct kunit *test = env->test;
	struct ib_cm_req_param req;
	struct cenv_event *e;

	rt_req_again(env, &req);
	e = cenv_expect(env, 1, IB_CM_REQ_RECEIVED);
	KUNIT_EXPECT_PTR_NE(test, e->id, old);
	KUNIT_EXPECT_EQ(test, e->ev.param.req_rcvd.remote_qpn, req.qp_num);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_REJ_RECEIVED), 0);
}

/*
 * A REQ from a QP the passive side is still connected to: a stale
 * connection.  The new REQ gets REJ "stale conn" and the connection it
 * collides with is disconnected (a DREQ to its active side).
 */
static void req_stale_qpn(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	cenv_connect(env, RT_SID, &a, &b);
	rt_expect_stale(env);
	e = cenv_expect(env, 0, IB_CM_DREQ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_REQ_RECEIVED), 1);
}

/*
 * The passive side rejects after its REP went out: its QP may have run,
 * so the ID rests in timewait (IB_CM_TIMEWAIT_EXIT after it) instead of
 * going idle; so does the active side, which had the REP (IBA 12.9.6).
 */
static void rej_after_rep_timewait(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_rep_param rep;
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	b = rt_rep(env, &a, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rej(b, IB_CM_REJ_CONSUMER_DEFINED,
					     NULL, 0, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_TIMEWAIT);
	cenv_rep_param(env, &rep);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(b, &rep), -EINVAL);
	e = cenv_expect(env, 0, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_TIMEWAIT);
	e = cenv_expect(env, 1, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_PTR_EQ(test, e->id, b);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_IDLE);
	cenv_expect(env, 0, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
}

/*
 * The REQ's retry timer is the peer's response timeout (from the REQ's
 * parameters), not ours: with the peer's at 4.096 us * 2^20 (about 4.3 s)
 * and ours at 4.096 us * 2^8, the first retry is due some 4.8 s after
 * the REQ, so none has come 2 s after it.  (A slow host only delays the
 * retry: the check cannot fail for it.)
 */
static void req_retry_peer_timeout(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *a;

	cenv_listen(env, 1, RT_SID);
	a = cenv_req_ready(env, RT_SID, &path, &req);
	req.remote_cm_response_timeout = 20;
	req.local_cm_response_timeout = 8;
	req.max_cm_retries = 2;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	cenv_expect(env, 1, IB_CM_REQ_RECEIVED);
	msleep(2000);
	KUNIT_EXPECT_EQ(test, cenv_cm_counter(env, 1, "cm_rx_duplicates", "req"), 0);
	KUNIT_EXPECT_EQ(test, cenv_cm_counter(env, 0, "cm_tx_retries", "req"), 0);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_REQ_ERROR), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_REQ_SENT);
}

/*
 * Timewait ends the connection's claim on the peer's QP: once the passive
 * side has had IB_CM_TIMEWAIT_EXIT, a REQ from the same peer QP is a new
 * connection, not a stale one.
 */
static void timewait_exit_frees_qpn(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;

	cenv_connect(env, RT_SID, &a, &b);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_DREQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_drep(b, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_IDLE);
	rt_expect_new(env, b);
}

/*
 * Side 1's ID of a connection from side 0, released by side 0's DREQ and
 * side 1's DREP: it rests in timewait for about 4 s (a packet life time
 * of 4.096 us * 2^18 twice, and the ACK delay), long enough for a REQ's
 * round trip on the slowest host.
 */
static struct ib_cm_id *rt_timewait(struct cenv *env, struct ib_cm_id **a)
{
	struct kunit *test = env->test;
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *b;

	cenv_listen(env, 1, RT_SID);
	*a = cenv_req_ready(env, RT_SID, &path, &req);
	path.packet_life_time = 18;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(*a, &req), 0);
	b = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(b, &rep), 0);
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(*a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_RTU_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(*a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_DREQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_drep(b, NULL, 0), 0);
	cenv_expect(env, 0, IB_CM_DREP_RECEIVED);
	KUNIT_ASSERT_EQ(test, b->state, IB_CM_TIMEWAIT);
	return b;
}

/*
 * A REQ from the peer's QP while our ID of its last connection rests in
 * timewait is stale: a REJ "stale connection", and no REQ event.
 */
static void req_stale_in_timewait(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;

	b = rt_timewait(env, &a);
	rt_expect_stale(env);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_REQ_RECEIVED), 1);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_TIMEWAIT);
}

/*
 * Destroying an ID in timewait ends it, as in-tree: the next REQ from the
 * peer's QP is a new connection.
 */
static void destroy_in_timewait_forgets(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;

	b = rt_timewait(env, &a);
	cenv_destroy(env, b);
	rt_expect_new(env, b);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

static struct kunit_case rej_cases[] = {
	KUNIT_CASE_PARAM(rej_passive, rt_link_gen_params),
	KUNIT_CASE(rej_active_rep),
	KUNIT_CASE_PARAM(rej_no_listener, rt_link_gen_params),
	KUNIT_CASE(req_timeout),
	KUNIT_CASE(mra_extends_timeout),
	KUNIT_CASE(mra_control_no_mra),
	KUNIT_CASE(mra_delayed),
	KUNIT_CASE(mra_for_rep),
	KUNIT_CASE(req_stale_qpn),
	KUNIT_CASE(rej_after_rep_timewait),
	KUNIT_CASE(req_retry_peer_timeout),
	KUNIT_CASE(timewait_exit_frees_qpn),
	KUNIT_CASE(req_stale_in_timewait),
	KUNIT_CASE(destroy_in_timewait_forgets),
	{}
};

static struct kunit_suite rej_suite = {
	.name = "rdma_core_cm_rej",
	.test_cases = rej_cases,
};

kunit_test_suite(rej_suite);
