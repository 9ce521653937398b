// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_iwcm_race: handlers that return non-zero (iw_cm then
 * gives the identifier up: a request is rejected, a connection reset),
 * and iw_destroy_cm_id() racing the driver's events: it waits for a
 * connect in progress and for a handler that is running, drops what is
 * queued and what comes later, and gives the QP back before it returns.
 */
#include "ienv.h"
#include "tk.h"

/* The listener's handler refuses a request: rejected, still listening. */
static void race_request_refused(struct kunit *test)
{
	struct ienv *env = test->priv;

	env->l.ret[IW_CM_EVENT_CONNECT_REQUEST] = 1;
	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 4);
	env->act = ienv_connect(env, &env->a, env->qa, 5300, IENV_PORT, "a");
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 1));
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 0).status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->rejects), 1);
	KUNIT_EXPECT_EQ(test, tc_count(&env->l), 1);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	ienv_destroy(&env->act, &env->a);
	/* The listener goes on */
	env->l.ret[IW_CM_EVENT_CONNECT_REQUEST] = 0;
	tc_init(&env->a);
	ienv_connected(env);
	KUNIT_EXPECT_EQ(test, tc_count(&env->l), 2);
	KUNIT_EXPECT_EQ(test, tc_count(&env->p), 1);
}

/* The active handler refuses the reply: the connection is reset. */
static void race_reply_refused(struct kunit *test)
{
	struct ienv *env = test->priv;

	env->a.ret[IW_CM_EVENT_CONNECT_REPLY] = 1;
	ienv_connected(env);
	env->act = NULL;
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->p, 2));
	KUNIT_EXPECT_EQ(test, tc_get(&env->p, 1).type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, tc_get(&env->p, 1).status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(env->qa)->to_err), 1);
	KUNIT_EXPECT_TRUE(test, ienv_wait_refs(env->qa, 0));
	KUNIT_EXPECT_TRUE(test, ienv_wait_refs(env->qp, 0));
	iwd_wire_settle();
	/* Its own close was dropped */
	KUNIT_EXPECT_EQ(test, tc_count(&env->a), 1);
	KUNIT_EXPECT_EQ(test, tc_late(&env->a), 0);
}

/* The passive handler refuses established: the connection is reset. */
static void race_established_refused(struct kunit *test)
{
	struct ienv *env = test->priv;

	env->p.ret[IW_CM_EVENT_ESTABLISHED] = 1;
	ienv_connected(env);
	env->child = NULL;
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 2));
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 1).type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 1).status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(env->qp)->to_err), 1);
	KUNIT_EXPECT_TRUE(test, ienv_wait_refs(env->qp, 0));
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_count(&env->p), 1);
	KUNIT_EXPECT_EQ(test, tc_late(&env->p), 0);
}

/* A handler refuses the close: the identifier goes, nothing else. */
static void race_close_refused(struct kunit *test)
{
	struct ienv *env = test->priv;

	env->a.ret[IW_CM_EVENT_CLOSE] = 1;
	ienv_connected(env);
	KUNIT_ASSERT_EQ(test, iw_cm_disconnect(env->child, 0), 0);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 2));
	env->act = NULL;
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 1).type, IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->p, 2));
	KUNIT_EXPECT_TRUE(test, ienv_wait_refs(env->qa, 0));
	/* Closed before it went: no reset */
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(env->qa)->to_err), 0);
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_count(&env->a), 2);
}

/* Destroyed while its close is on the wire: the close is dropped. */
static void race_destroy_closing(struct kunit *test)
{
	struct ienv *env = test->priv;

	ienv_connected(env);
	iwd_wire_hold();
	KUNIT_ASSERT_EQ(test, iw_cm_disconnect(env->act, 1), 0);
	ienv_destroy(&env->act, &env->a);
	/* The QP is given back before destroy returns */
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	iwd_wire_release();
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->p, 2));
	KUNIT_EXPECT_EQ(test, tc_get(&env->p, 1).status, -ECONNRESET);
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_count(&env->a), 1);
	KUNIT_EXPECT_EQ(test, tc_late(&env->a), 0);
}

static void race_destroy_fn(void *arg)
{
	struct iw_cm_id *cm_id = arg;

	iw_destroy_cm_id(cm_id);
}

/*
 * Destroyed while its handler runs, with an event queued behind: destroy
 * waits for the handler and the queued event is dropped.
 */
static void race_destroy_in_handler(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct completion gate;
	struct tk_thread t;

	init_completion(&gate);
	env->a.gate = &gate;
	ienv_connected(env);
	/* A's reply handler waits at the gate; the peer resets */
	KUNIT_ASSERT_EQ(test, iw_cm_disconnect(env->child, 1), 0);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->p, 2));
	iwd_wire_settle();
	tk_expect_blocks(test, &t, race_destroy_fn, env->act);
	env->act = NULL;
	tc_gone(&env->a);
	WRITE_ONCE(env->a.gate, NULL);
	complete_all(&gate);
	tk_join(&t);
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_count(&env->a), 1);
	KUNIT_EXPECT_EQ(test, tc_late(&env->a), 0);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
}

/*
 * Destroyed while connecting: destroy waits for the peer's answer, then
 * resets the connection it made.
 */
static void race_destroy_connecting(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_conn_param param = { .qpn = env->qp->qp_num };
	struct tk_thread t;

	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 4);
	env->act = ienv_connect(env, &env->a, env->qa, 5400, IENV_PORT, NULL);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, 1));
	env->child = tc_get(&env->l, 0).cm_id;
	tk_expect_blocks(test, &t, race_destroy_fn, env->act);
	env->act = NULL;
	KUNIT_ASSERT_EQ(test, iw_cm_accept(env->child, &param), 0);
	tk_join(&t);
	tc_gone(&env->a);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(env->qa)->to_err), 1);
	/* The answer was delivered before destroy went on */
	KUNIT_EXPECT_EQ(test, tc_count(&env->a), 1);
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 0).status, 0);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->p, 2));
	KUNIT_EXPECT_EQ(test, tc_get(&env->p, 1).status, -ECONNRESET);
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_late(&env->a), 0);
}

/*
 * A listener destroyed with requests queued: destroy waits for the one
 * its handler has, the others are dropped (their peers reset by the MPA
 * timeout), the one taken is answered by its new owner.
 */
static void race_destroy_listener(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_id *act[4];
	struct completion gate;
	struct ib_qp *qps[4];
	struct tk_thread t;
	struct tc *a = kunit_kcalloc(test, 4, sizeof(*a), GFP_KERNEL);
	int i, refused = 0;

	KUNIT_ASSERT_NOT_NULL(test, a);
	init_completion(&gate);
	env->l.gate = &gate;
	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 8);
	for (i = 0; i < 4; i++) {
		tc_init(&a[i]);
		qps[i] = iwd_qp_create(env->d1);
		KUNIT_ASSERT_FALSE(test, IS_ERR(qps[i]));
		act[i] = ienv_connect(env, &a[i], qps[i], 5500 + i, IENV_PORT,
				      NULL);
		/* The first is the handler's; the others are reset soon */
		if (!i)
			KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, 1));
		iwd_set_mpa_timeout(2000);
	}
	iwd_wire_settle();
	tk_expect_blocks(test, &t, race_destroy_fn, env->lis);
	env->lis = NULL;
	tc_gone(&env->l);
	WRITE_ONCE(env->l.gate, NULL);
	complete_all(&gate);
	tk_join(&t);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->unlistens), 1);
	env->child = tc_get(&env->l, 0).cm_id;
	KUNIT_EXPECT_EQ(test, iw_cm_reject(env->child, NULL, 0), 0);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_TRUE(test, tc_wait(&a[i], 1));
		KUNIT_EXPECT_EQ(test, tc_get(&a[i], 0).type,
				IW_CM_EVENT_CONNECT_REPLY);
		KUNIT_EXPECT_NE(test, tc_get(&a[i], 0).status, 0);
		refused += tc_get(&a[i], 0).status == -ECONNREFUSED;
	}
	KUNIT_EXPECT_EQ(test, refused, 1);
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_count(&env->l), 1);
	KUNIT_EXPECT_EQ(test, tc_late(&env->l), 0);
	for (i = 0; i < 4; i++) {
		iw_destroy_cm_id(act[i]);
		KUNIT_EXPECT_EQ(test, tc_count(&a[i]), 1);
		KUNIT_EXPECT_EQ(test, ienv_qp_refs(qps[i]), 0);
		ib_destroy_qp(qps[i]);
	}
}

static struct kunit_case iwcm_race_cases[] = {
	KUNIT_CASE(race_request_refused),
	KUNIT_CASE(race_reply_refused),
	KUNIT_CASE(race_established_refused),
	KUNIT_CASE(race_close_refused),
	KUNIT_CASE(race_destroy_closing),
	KUNIT_CASE(race_destroy_in_handler),
	KUNIT_CASE(race_destroy_connecting),
	KUNIT_CASE(race_destroy_listener),
	{}
};

static struct kunit_suite iwcm_race_suite = {
	.name = "rdma_iwcm_race",
	.init = ienv_init,
	.exit = ienv_exit,
	.test_cases = iwcm_race_cases,
};

kunit_test_suites(&iwcm_race_suite);
