// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_iwcm_conn: the good paths of iw_cm (core/iwcm/):
 * listen, connect, the request with the active side's private data and
 * addresses, a connect from port 0 (the driver's port in m_local_addr,
 * the consumer's in its event), accept with private data both ways,
 * established on both sides, graceful and abrupt disconnect from either
 * side and both, the close on both sides, the QP's references and state
 * moves, reject with private data, a connect nobody listens to, and the
 * listen backlog (its default and the sysctl that sets it, requests
 * beyond it refused).
 */
#include <linux/delay.h>
#include "ienv.h"
#include "tk.h"

#define BACKLOG_SYSCTL	"/proc/sys/net/iw_cm/default_backlog"

static void conn_request_fields(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct tc_ev req;

	ienv_connected(env);
	req = tc_get(&env->l, 0);
	KUNIT_EXPECT_EQ(test, req.type, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, req.status, 0);
	KUNIT_EXPECT_EQ(test, req.len, 6);
	KUNIT_EXPECT_STREQ(test, (char *)req.pdata, "hello");
	/* The passive side's view: its own address, then the peer's */
	KUNIT_EXPECT_EQ(test, ntohl(req.laddr.sin_addr.s_addr), 0x0a000002);
	KUNIT_EXPECT_EQ(test, ntohs(req.laddr.sin_port), IENV_PORT);
	KUNIT_EXPECT_EQ(test, ntohl(req.raddr.sin_addr.s_addr), 0x0a000001);
	KUNIT_EXPECT_EQ(test, ntohs(req.raddr.sin_port), 5000);
	/* The active side's ORD is the passive side's IRD, and back */
	KUNIT_EXPECT_EQ(test, req.ird, 4);
	KUNIT_EXPECT_EQ(test, req.ord, 2);
	/* The new identifier: the listener's handler, the child context */
	KUNIT_EXPECT_PTR_NE(test, env->child, env->lis);
	KUNIT_EXPECT_PTR_EQ(test, env->child->context, (void *)&env->p);
	KUNIT_EXPECT_PTR_EQ(test, (void *)env->child->cm_handler,
			    (void *)tc_handler);
	KUNIT_EXPECT_PTR_EQ(test, env->child->device, &env->d2->ibdev);
	KUNIT_EXPECT_EQ(test, memcmp(&env->child->local_addr,
				     &env->lis->local_addr,
				     sizeof(struct sockaddr_in)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&env->child->remote_addr, &req.raddr,
				     sizeof(struct sockaddr_in)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&env->child->m_local_addr, &req.laddr,
				     sizeof(struct sockaddr_in)), 0);
	/* The listener and the active side have one event each so far */
	KUNIT_EXPECT_EQ(test, tc_count(&env->l), 1);
	KUNIT_EXPECT_EQ(test, tc_count(&env->a), 1);
}

static void conn_accept_fields(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct tc_ev rep, est;

	ienv_connected(env);
	rep = tc_get(&env->a, 0);
	KUNIT_EXPECT_EQ(test, rep.type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, rep.status, 0);
	KUNIT_EXPECT_EQ(test, rep.len, 6);
	KUNIT_EXPECT_STREQ(test, (char *)rep.pdata, "world");
	KUNIT_EXPECT_PTR_EQ(test, rep.cm_id, env->act);
	/* The consumer sees its own addresses, the driver's are in m_* */
	KUNIT_EXPECT_EQ(test, memcmp(&rep.laddr, &env->act->local_addr,
				     sizeof(rep.laddr)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&rep.raddr, &env->act->remote_addr,
				     sizeof(rep.raddr)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&env->act->m_local_addr,
				     &env->act->local_addr,
				     sizeof(struct sockaddr_in)), 0);
	est = tc_get(&env->p, 0);
	KUNIT_EXPECT_EQ(test, est.type, IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, est.status, 0);
	KUNIT_EXPECT_PTR_EQ(test, est.cm_id, env->child);
	/* Each side's identifier holds one reference on its QP */
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 1);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qp), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(env->qa)->state),
			IB_QPS_RTS);
}

/*
 * A connect from port 0: the driver picks the port, as TCP would, and
 * reports it with the connect reply; iw_cm keeps it in m_local_addr, and
 * the consumer's event still shows the consumer's own address.
 */
static void conn_ephemeral_port(struct kunit *test)
{
	struct ienv *env = test->priv;
	const struct sockaddr_in *m;
	struct tc_ev req, rep;

	ienv_connected_from(env, 0);
	req = tc_get(&env->l, 0);
	rep = tc_get(&env->a, 0);
	m = (const struct sockaddr_in *)&env->act->m_local_addr;
	KUNIT_EXPECT_GE(test, ntohs(m->sin_port), IWD_EPHEMERAL);
	KUNIT_EXPECT_EQ(test, req.raddr.sin_port, m->sin_port);
	KUNIT_EXPECT_EQ(test, rep.type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, memcmp(&rep.laddr, &env->act->local_addr,
				     sizeof(rep.laddr)), 0);
	KUNIT_EXPECT_EQ(test, rep.laddr.sin_port, 0);
}

/* Close @from's side with @abrupt; both sides must see one CLOSE. */
static void conn_close(struct kunit *test, bool active, int abrupt)
{
	struct ienv *env = test->priv;
	struct ib_qp *qp = active ? env->qa : env->qp;
	struct tc *mine = active ? &env->a : &env->p;
	struct tc *peer = active ? &env->p : &env->a;
	struct iw_cm_id *from;
	struct tc_ev e;

	ienv_connected(env);
	from = active ? env->act : env->child;
	KUNIT_ASSERT_EQ(test, iw_cm_disconnect(from, abrupt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(qp)->to_sqd),
			abrupt ? 0 : 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(qp)->to_err),
			abrupt ? 1 : 0);
	KUNIT_ASSERT_TRUE(test, tc_wait(mine, 2));
	KUNIT_ASSERT_TRUE(test, tc_wait(peer, 2));
	e = tc_get(mine, 1);
	KUNIT_EXPECT_EQ(test, e.type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, e.status, 0);
	/* The peer's DISCONNECT is iw_cm's own; its consumer gets CLOSE */
	e = tc_get(peer, 1);
	KUNIT_EXPECT_EQ(test, e.type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, e.status, abrupt ? -ECONNRESET : 0);
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_count(mine), 2);
	KUNIT_EXPECT_EQ(test, tc_count(peer), 2);
	/* The connection is over: the QPs are given back */
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qp), 0);
	/* Closing again does nothing */
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(from, 0), 0);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(from, 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(qp)->to_sqd) +
			atomic_read(&to_iwd_qp(qp)->to_err), 1);
}

static void conn_close_graceful_active(struct kunit *test)
{
	conn_close(test, true, 0);
}

static void conn_close_graceful_passive(struct kunit *test)
{
	conn_close(test, false, 0);
}

static void conn_close_abrupt_active(struct kunit *test)
{
	conn_close(test, true, 1);
}

static void conn_close_abrupt_passive(struct kunit *test)
{
	conn_close(test, false, 1);
}

/* Both sides close at once: one CLOSE each, both QPs given back. */
static void conn_close_both(struct kunit *test)
{
	struct ienv *env = test->priv;

	ienv_connected(env);
	iwd_wire_hold();
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->act, 0), 0);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->child, 0), 0);
	iwd_wire_release();
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 2));
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->p, 2));
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 1).type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, tc_get(&env->p, 1).type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, tc_count(&env->a), 2);
	KUNIT_EXPECT_EQ(test, tc_count(&env->p), 2);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qp), 0);
}

/* A reject's private data reaches the active side with -ECONNREFUSED. */
static void conn_reject(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_conn_param param = { .qpn = env->qp->qp_num };
	struct tc_ev rep;

	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 8);
	env->act = ienv_connect(env, &env->a, env->qa, 5001, IENV_PORT,
				"let me in");
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, 1));
	env->child = tc_get(&env->l, 0).cm_id;
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 1);
	KUNIT_ASSERT_EQ(test, iw_cm_reject(env->child, "nope", 5), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->rejects), 1);
	/* Answered: neither again */
	KUNIT_EXPECT_EQ(test, iw_cm_reject(env->child, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(env->child, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->rejects), 1);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 1));
	rep = tc_get(&env->a, 0);
	KUNIT_EXPECT_EQ(test, rep.type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, rep.status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, rep.len, 5);
	KUNIT_EXPECT_STREQ(test, (char *)rep.pdata, "nope");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(rep.status),
			   "refused by remote application");
	/* The refused connect gave its QP back at once */
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	/* The rejected identifier gets no event; destroying it rejects no more */
	ienv_destroy(&env->child, &env->p);
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_count(&env->p), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->rejects), 1);
}

/* Destroying a request nobody answered rejects it. */
static void conn_destroy_unanswered(struct kunit *test)
{
	struct ienv *env = test->priv;

	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 8);
	env->act = ienv_connect(env, &env->a, env->qa, 5002, IENV_PORT, NULL);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, 1));
	KUNIT_EXPECT_EQ(test, tc_get(&env->l, 0).len, 0);
	env->child = tc_get(&env->l, 0).cm_id;
	ienv_destroy(&env->child, &env->p);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->rejects), 1);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 1));
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 0).status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 0).len, 0);
}

/* A connect to a port nobody listens on is refused. */
static void conn_no_listener(struct kunit *test)
{
	struct ienv *env = test->priv;

	env->act = ienv_connect(env, &env->a, env->qa, 5003, 9999, "x");
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 1));
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 0).type,
			IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 0).status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	/* Idle again: no connection to close */
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->act, 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(env->qa)->to_err), 0);
}

/* A listen's backlog reaches the driver; 0 means the sysctl's value. */
static void conn_backlog_default(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct tc *other = ienv_tc(test);
	char buf[16];
	struct iw_cm_id *l2;

	KUNIT_ASSERT_EQ(test, tk_file_read(BACKLOG_SYSCTL, buf, sizeof(buf)),
			0);
	KUNIT_EXPECT_STREQ(test, buf, "256\n");
	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->backlog), 256);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->listens), 1);
	KUNIT_ASSERT_EQ(test, tk_file_write(BACKLOG_SYSCTL, "7"), 0);
	l2 = ienv_listen(env, env->d2, other, IENV_PORT + 1, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->backlog), 7);
	/* A backlog of its own wins; the sysctl takes no 0 nor negative */
	ienv_destroy(&l2, other);
	l2 = ienv_listen(env, env->d2, other, IENV_PORT + 1, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->backlog), 3);
	KUNIT_EXPECT_EQ(test, tk_file_write(BACKLOG_SYSCTL, "0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, tk_file_write(BACKLOG_SYSCTL, "-5"), -EINVAL);
	KUNIT_EXPECT_EQ(test, tk_file_write(BACKLOG_SYSCTL, "256"), 0);
	ienv_destroy(&l2, other);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->unlistens), 2);
}

/*
 * More requests than the backlog, while the listener's handler holds the
 * first: iw_cm queues as many as the backlog and refuses the rest (the
 * driver refuses the connection).  The first is in the handler before
 * the others leave, so exactly backlog + 1 are taken.
 */
static void conn_backlog_full(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_id *act[4];
	struct completion gate;
	struct ib_qp *qps[4];
	struct tc *a = kunit_kcalloc(test, 4, sizeof(*a), GFP_KERNEL);
	int i, refused = 0, taken;

	KUNIT_ASSERT_NOT_NULL(test, a);
	init_completion(&gate);
	env->l.child = NULL;
	env->l.gate = &gate;
	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 2);
	for (i = 0; i < 4; i++) {
		tc_init(&a[i]);
		qps[i] = iwd_qp_create(env->d1);
		KUNIT_ASSERT_FALSE(test, IS_ERR(qps[i]));
		if (i == 1)
			iwd_wire_hold();
		act[i] = ienv_connect(env, &a[i], qps[i], 6000 + i, IENV_PORT,
				      "more");
		if (!i)
			KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, 1));
	}
	iwd_wire_release();
	iwd_wire_settle();
	refused = atomic_read(&env->d2->refused);
	KUNIT_EXPECT_EQ(test, refused, 1);
	WRITE_ONCE(env->l.gate, NULL);
	complete_all(&gate);
	taken = 4 - refused;
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, taken));
	for (i = 0; i < taken; i++)
		KUNIT_EXPECT_EQ(test, iw_cm_reject(tc_get(&env->l, i).cm_id,
						   NULL, 0), 0);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_TRUE(test, tc_wait(&a[i], 1));
		KUNIT_EXPECT_EQ(test, tc_get(&a[i], 0).status,
				-ECONNREFUSED);
	}
	for (i = 0; i < taken; i++)
		iw_destroy_cm_id(tc_get(&env->l, i).cm_id);
	for (i = 0; i < 4; i++) {
		iw_destroy_cm_id(act[i]);
		KUNIT_EXPECT_EQ(test, ienv_qp_refs(qps[i]), 0);
		ib_destroy_qp(qps[i]);
	}
	KUNIT_EXPECT_EQ(test, tc_count(&env->l), taken);
}

static struct kunit_case iwcm_conn_cases[] = {
	KUNIT_CASE(conn_request_fields),
	KUNIT_CASE(conn_accept_fields),
	KUNIT_CASE(conn_ephemeral_port),
	KUNIT_CASE(conn_close_graceful_active),
	KUNIT_CASE(conn_close_graceful_passive),
	KUNIT_CASE(conn_close_abrupt_active),
	KUNIT_CASE(conn_close_abrupt_passive),
	KUNIT_CASE(conn_close_both),
	KUNIT_CASE(conn_reject),
	KUNIT_CASE(conn_destroy_unanswered),
	KUNIT_CASE(conn_no_listener),
	KUNIT_CASE(conn_backlog_default),
	KUNIT_CASE(conn_backlog_full),
	{}
};

static struct kunit_suite iwcm_conn_suite = {
	.name = "rdma_iwcm_conn",
	.init = ienv_init,
	.exit = ienv_exit,
	.test_cases = iwcm_conn_cases,
};

kunit_test_suites(&iwcm_conn_suite);
