// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_iwcm_state: the calls of iw_cm (core/iwcm/) in the
 * wrong state and with bad input, and what each leaves behind (the state,
 * the QP's references, nothing sent to the driver); driver errors
 * undone; iw_cm_init_qp_attr's attributes in every state;
 * iwcm_reject_msg's texts.  Errnos as in-tree.
 */
#include "ienv.h"
#include "tdev.h"
#include "tk.h"

/* init_qp_attr's answer for INIT: 0 or the errno */
static int st_qp_attr_ok(struct iw_cm_id *cm_id)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	int mask = 0;

	return iw_cm_init_qp_attr(cm_id, &attr, &mask);
}

static void st_idle(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_conn_param param = { .qpn = env->qa->qp_num };
	struct sockaddr_in src = ienv_sin(0x0a000001, 7000);

	env->act = iw_create_cm_id(&env->d1->ibdev, tc_handler, &env->a);
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->act));
	KUNIT_EXPECT_PTR_EQ(test, env->act->context, (void *)&env->a);
	KUNIT_EXPECT_PTR_EQ(test, env->act->device, &env->d1->ibdev);
	/* No request to answer */
	KUNIT_EXPECT_EQ(test, iw_cm_accept(env->act, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(env->act, "x", 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d1->rejects), 0);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	/* Nothing to close: 0, and no QP moves */
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->act, 0), 0);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->act, 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(env->qa)->to_sqd), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_iwd_qp(env->qa)->to_err), 0);
	KUNIT_EXPECT_EQ(test, st_qp_attr_ok(env->act), 0);
	/* Bad input */
	KUNIT_EXPECT_EQ(test, iw_cm_connect(env->act, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(env->act, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(env->act, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d1->listens), 0);
	/* Still idle: it can listen */
	memcpy(&env->act->local_addr, &src, sizeof(src));
	KUNIT_EXPECT_EQ(test, iw_cm_listen(env->act, 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d1->listens), 1);
}

static void st_listener(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_conn_param param = { .qpn = env->qp->qp_num };

	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 4);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(env->lis, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(env->lis, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(env->lis, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(env->lis, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->lis, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->lis, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_qp_attr_ok(env->lis), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->listens), 1);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qp), 0);
	/* Still listening */
	ienv_connected(env);
	/* Destroying it stops the driver's listener */
	ienv_destroy(&env->lis, &env->l);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->unlistens), 1);
}

static void st_connecting(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_conn_param param = { .qpn = env->qa->qp_num };

	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 4);
	iwd_wire_hold();
	env->act = ienv_connect(env, &env->a, env->qa, 5100, IENV_PORT, NULL);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 1);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(env->act, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(env->act, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(env->act, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(env->act, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_qp_attr_ok(env->act), 0);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 1);
	iwd_wire_release();
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, 1));
	env->child = tc_get(&env->l, 0).cm_id;
	/* A request: accept and reject work; the rest does not */
	KUNIT_EXPECT_EQ(test, iw_cm_listen(env->child, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(env->child, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_qp_attr_ok(env->child), 0);
	/* Disconnect before answering: nothing happens */
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->child, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->rejects), 0);
	/* A QP the device has not: -EINVAL, the request still there */
	param.qpn = 999;
	KUNIT_EXPECT_EQ(test, iw_cm_accept(env->child, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(env->child, NULL, 0), 0);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 1));
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 0).status, -ECONNREFUSED);
}

/* A connect with a QP the device has not: -EINVAL, still idle. */
static void st_bad_qpn(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_conn_param param = { .qpn = 999 };
	struct sockaddr_in dst = ienv_sin(0x0a000002, IENV_PORT);
	struct sockaddr_in src = ienv_sin(0x0a000001, 7001);

	env->act = iw_create_cm_id(&env->d1->ibdev, tc_handler, &env->a);
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->act));
	memcpy(&env->act->local_addr, &src, sizeof(src));
	memcpy(&env->act->remote_addr, &dst, sizeof(dst));
	KUNIT_EXPECT_EQ(test, iw_cm_connect(env->act, &param), -EINVAL);
	param.qpn = 0;
	KUNIT_EXPECT_EQ(test, iw_cm_connect(env->act, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->act, 0), 0);
	iwd_wire_settle();
	KUNIT_EXPECT_EQ(test, tc_count(&env->a), 0);
	/* Still idle */
	KUNIT_EXPECT_EQ(test, iw_cm_listen(env->act, 2), 0);
}

/* The driver's errors are returned and undone. */
static void st_driver_errors(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_conn_param param = { .qpn = env->qa->qp_num };
	struct sockaddr_in dst = ienv_sin(0x0a000002, IENV_PORT);
	struct iw_cm_id *l2;
	struct tc *other = ienv_tc(test);

	/* connect */
	env->act = iw_create_cm_id(&env->d1->ibdev, tc_handler, &env->a);
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->act));
	memcpy(&env->act->remote_addr, &dst, sizeof(dst));
	iwd_fail_next(env->d1, IWD_OP_CONNECT, -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(env->act, &param), -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qa), 0);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(env->act, 0), 0);
	KUNIT_EXPECT_EQ(test, st_qp_attr_ok(env->act), 0);
	/* listen: idle again afterwards, so it can listen */
	l2 = iw_create_cm_id(&env->d2->ibdev, tc_handler, other);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l2));
	memcpy(&l2->local_addr, &dst, sizeof(dst));
	iwd_fail_next(env->d2, IWD_OP_LISTEN, -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(l2, 4), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(l2, 0), 0);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(l2, 4), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->listens), 1);
	/* A second listener on the port: the driver's -EADDRINUSE */
	env->lis = iw_create_cm_id(&env->d2->ibdev, tc_handler, &env->l);
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->lis));
	memcpy(&env->lis->local_addr, &dst, sizeof(dst));
	KUNIT_EXPECT_EQ(test, iw_cm_listen(env->lis, 4), -EADDRINUSE);
	ienv_destroy(&l2, other);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->unlistens), 1);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(env->lis, 4), 0);
}

/* accept's driver error: the identifier is idle, the QP given back. */
static void st_accept_error(struct kunit *test)
{
	struct ienv *env = test->priv;
	struct iw_cm_conn_param param = { .qpn = env->qp->qp_num };

	env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 4);
	env->act = ienv_connect(env, &env->a, env->qa, 5200, IENV_PORT, NULL);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, 1));
	env->child = tc_get(&env->l, 0).cm_id;
	iwd_fail_next(env->d2, IWD_OP_ACCEPT, -EIO);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(env->child, &param), -EIO);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(env->qp), 0);
	/* Idle: no request to answer any more */
	KUNIT_EXPECT_EQ(test, iw_cm_reject(env->child, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(env->child, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->rejects), 0);
	/* The driver aborted the connection */
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 1));
	KUNIT_EXPECT_EQ(test, tc_get(&env->a, 0).status, -ECONNRESET);
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(tc_get(&env->a, 0).status),
			   "reset by remote host");
	ienv_destroy(&env->child, &env->p);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->d2->rejects), 0);
	KUNIT_EXPECT_EQ(test, tc_count(&env->p), 0);
}

/* A device without iWARP CM operations: -EOPNOTSUPP. */
static void st_not_iwarp(struct kunit *test)
{
	struct tdev_params p = { .name = "ktiwib%d", .no_mad = true };
	struct iw_cm_conn_param param = { .qpn = 1 };
	struct iw_cm_id *cm_id;
	struct tdev *td;
	struct tc *tc = ienv_tc(test);

	td = tk_dev(test, &p);
	cm_id = iw_create_cm_id(&td->ibdev, tc_handler, tc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cm_id));
	KUNIT_EXPECT_EQ(test, iw_cm_listen(cm_id, 4), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(cm_id, &param), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(cm_id, 0), 0);
	iw_destroy_cm_id(cm_id);
	tdev_destroy(td);
}

/* A device name the port mapper's messages cannot carry: -EINVAL. */
static void st_long_name(struct kunit *test)
{
	struct sockaddr_in dst = ienv_sin(0x0a000002, IENV_PORT);
	struct iw_cm_conn_param param = {};
	struct iw_cm_id *cm_id;
	struct ib_qp *qp;
	struct iwd *d;
	struct tc *tc = ienv_tc(test);

	d = iwd_create("ktiw_a_device_name_of_32_chars_%d");
	KUNIT_ASSERT_FALSE(test, IS_ERR(d));
	KUNIT_EXPECT_GE(test, strlen(dev_name(&d->ibdev.dev)), 32UL);
	qp = iwd_qp_create(d);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	param.qpn = qp->qp_num;
	cm_id = iw_create_cm_id(&d->ibdev, tc_handler, tc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cm_id));
	memcpy(&cm_id->local_addr, &dst, sizeof(dst));
	memcpy(&cm_id->remote_addr, &dst, sizeof(dst));
	KUNIT_EXPECT_EQ(test, iw_cm_listen(cm_id, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->listens), 0);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(cm_id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(qp), 0);
	KUNIT_EXPECT_EQ(test, st_qp_attr_ok(cm_id), 0);
	iw_destroy_cm_id(cm_id);
	ib_destroy_qp(qp);
	iwd_destroy(d);
}

/* Expect init_qp_attr's answer for @state on @cm_id. */
static void st_expect_attr(struct kunit *test, struct iw_cm_id *cm_id,
			   enum ib_qp_state state, int ret, int want_mask)
{
	struct ib_qp_attr attr = {
		.qp_state = state,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE,
	};
	int mask = -1;

	KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(cm_id, &attr, &mask), ret);
	KUNIT_EXPECT_EQ(test, attr.qp_state, state);
	if (ret) {
		KUNIT_EXPECT_EQ(test, mask, -1);
		KUNIT_EXPECT_EQ(test, attr.qp_access_flags,
				IB_ACCESS_LOCAL_WRITE);
		return;
	}
	KUNIT_EXPECT_EQ(test, mask, want_mask);
	if (want_mask)
		KUNIT_EXPECT_EQ(test, attr.qp_access_flags,
				IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE);
}

static void st_expect_attrs(struct kunit *test, struct iw_cm_id *cm_id,
			    bool ok)
{
	int ret = ok ? 0 : -EINVAL;

	st_expect_attr(test, cm_id, IB_QPS_INIT, ret,
		       IB_QP_STATE | IB_QP_ACCESS_FLAGS);
	st_expect_attr(test, cm_id, IB_QPS_RTR, ret,
		       IB_QP_STATE | IB_QP_ACCESS_FLAGS);
	st_expect_attr(test, cm_id, IB_QPS_RTS, ret, 0);
	/* Other moves are never iw_cm's */
	st_expect_attr(test, cm_id, IB_QPS_RESET, -EINVAL, 0);
	st_expect_attr(test, cm_id, IB_QPS_SQD, -EINVAL, 0);
	st_expect_attr(test, cm_id, IB_QPS_ERR, -EINVAL, 0);
}

/* init_qp_attr in each state: idle, listening, up, closing, closed. */
static void st_init_qp_attr(struct kunit *test)
{
	struct ienv *env = test->priv;

	ienv_connected(env);
	st_expect_attrs(test, env->lis, false);
	st_expect_attrs(test, env->act, true);
	st_expect_attrs(test, env->child, true);
	iwd_wire_hold();
	KUNIT_ASSERT_EQ(test, iw_cm_disconnect(env->act, 0), 0);
	st_expect_attrs(test, env->act, false);
	iwd_wire_release();
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, 2));
	/* Closed: idle again */
	st_expect_attrs(test, env->act, true);
}

static void st_reject_msg(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ECONNRESET),
			   "reset by remote host");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ECONNREFUSED),
			   "refused by remote application");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ETIMEDOUT),
			   "setup timeout");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(0), "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(ECONNREFUSED),
			   "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-EINVAL),
			   "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(INT_MIN),
			   "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(INT_MAX),
			   "unrecognized reason");
}

static struct kunit_case iwcm_state_cases[] = {
	KUNIT_CASE(st_idle),
	KUNIT_CASE(st_listener),
	KUNIT_CASE(st_connecting),
	KUNIT_CASE(st_bad_qpn),
	KUNIT_CASE(st_driver_errors),
	KUNIT_CASE(st_accept_error),
	KUNIT_CASE(st_not_iwarp),
	KUNIT_CASE(st_long_name),
	KUNIT_CASE(st_init_qp_attr),
	KUNIT_CASE(st_reject_msg),
	{}
};

static struct kunit_suite iwcm_state_suite = {
	.name = "rdma_iwcm_state",
	.init = ienv_init,
	.exit = ienv_exit,
	.test_cases = iwcm_state_cases,
};

kunit_test_suites(&iwcm_state_suite);
