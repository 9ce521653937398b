// SPDX-License-Identifier: GPL-2.0
/*
 * The environment of the iw_cm suites and their recording consumer
 * (ienv.h).
 */
#include <linux/delay.h>
#include <linux/sched.h>
#include "ienv.h"

void tc_init(struct tc *tc)
{
	memset(tc, 0, sizeof(*tc));
	spin_lock_init(&tc->lock);
	init_waitqueue_head(&tc->wq);
}

static void tc_record(struct tc *tc, struct iw_cm_id *cm_id,
		      const struct iw_cm_event *event)
{
	struct tc_ev *e;

	spin_lock(&tc->lock);
	if (tc->gone)
		tc->late++;
	if (tc->n < TC_MAX_EV) {
		e = &tc->ev[tc->n];
		e->type = event->event;
		e->status = event->status;
		e->cm_id = cm_id;
		memcpy(&e->laddr, &event->local_addr, sizeof(e->laddr));
		memcpy(&e->raddr, &event->remote_addr, sizeof(e->raddr));
		e->ord = event->ord;
		e->ird = event->ird;
		e->len = event->private_data_len;
		memcpy(e->pdata, event->private_data,
		       min_t(u8, e->len, TC_PDATA));
	}
	tc->n++;
	spin_unlock(&tc->lock);
	wake_up_all(&tc->wq);
}

/*
 * The consumer's handler: records the event, hands a request's new
 * identifier to the child consumer, waits at the gate, returns what the
 * case chose.  It may sleep, as handlers may (process context).
 */
int tc_handler(struct iw_cm_id *cm_id, struct iw_cm_event *event)
{
	struct tc *tc = cm_id->context;
	struct completion *gate;
	int ret;

	might_sleep();
	/* Before the case can see the request and accept it */
	if (event->event == IW_CM_EVENT_CONNECT_REQUEST && tc->child)
		cm_id->context = tc->child;
	tc_record(tc, cm_id, event);
	gate = READ_ONCE(tc->gate);
	if (gate)
		wait_for_completion_timeout(gate, IENV_WAIT_S * HZ);
	ret = tc->ret[event->event];
	/* A non-zero return gives the identifier up (not a listener's) */
	if (ret && event->event != IW_CM_EVENT_CONNECT_REQUEST)
		tc_gone(tc);
	return ret;
}

/* A consumer of the case's own */
struct tc *ienv_tc(struct kunit *test)
{
	struct tc *tc = kunit_kmalloc(test, sizeof(*tc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tc);
	tc_init(tc);
	return tc;
}

/* Wait until @tc got @n events; false if they did not come. */
bool tc_wait(struct tc *tc, int n)
{
	return wait_event_timeout(tc->wq, READ_ONCE(tc->n) >= n,
				  IENV_WAIT_S * HZ) > 0;
}

int tc_count(struct tc *tc)
{
	return READ_ONCE(tc->n);
}

/* The @i-th event (zeroed if there is none). */
struct tc_ev tc_get(struct tc *tc, int i)
{
	struct tc_ev e = {};

	spin_lock(&tc->lock);
	if (i < min(tc->n, TC_MAX_EV))
		e = tc->ev[i];
	spin_unlock(&tc->lock);
	return e;
}

/* Its identifier is destroyed: no event may come any more. */
void tc_gone(struct tc *tc)
{
	spin_lock(&tc->lock);
	tc->gone = true;
	spin_unlock(&tc->lock);
}

int tc_late(struct tc *tc)
{
	int late;

	spin_lock(&tc->lock);
	late = tc->late;
	spin_unlock(&tc->lock);
	return late;
}

struct sockaddr_in ienv_sin(u32 host, u16 port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(host),
	};

	return sin;
}

/* A listener of @tc on @d at 10.0.0.2:@port; the case fails if not. */
struct iw_cm_id *ienv_listen(struct ienv *env, struct iwd *d, struct tc *tc,
			     u16 port, int backlog)
{
	struct sockaddr_in sin = ienv_sin(0x0a000002, port);
	struct iw_cm_id *cm_id;

	cm_id = iw_create_cm_id(&d->ibdev, tc_handler, tc);
	KUNIT_ASSERT_FALSE(env->test, IS_ERR(cm_id));
	memcpy(&cm_id->local_addr, &sin, sizeof(sin));
	KUNIT_ASSERT_EQ(env->test, iw_cm_listen(cm_id, backlog), 0);
	return cm_id;
}

/*
 * An identifier of @tc on @qp's device connecting from 10.0.0.1:@lport to
 * 10.0.0.2:@port with @pdata; the case fails if the call does.
 */
struct iw_cm_id *ienv_connect(struct ienv *env, struct tc *tc,
			      struct ib_qp *qp, u16 lport, u16 port,
			      const char *pdata)
{
	struct sockaddr_in src = ienv_sin(0x0a000001, lport);
	struct sockaddr_in dst = ienv_sin(0x0a000002, port);
	struct iw_cm_conn_param param = {
		.private_data = pdata,
		.private_data_len = pdata ? strlen(pdata) + 1 : 0,
		.ord = 4,
		.ird = 2,
		.qpn = qp->qp_num,
	};
	struct iw_cm_id *cm_id;

	cm_id = iw_create_cm_id(qp->device, tc_handler, tc);
	KUNIT_ASSERT_FALSE(env->test, IS_ERR(cm_id));
	memcpy(&cm_id->local_addr, &src, sizeof(src));
	memcpy(&cm_id->remote_addr, &dst, sizeof(dst));
	KUNIT_ASSERT_EQ(env->test, iw_cm_connect(cm_id, &param), 0);
	return cm_id;
}

/*
 * The connection every good path starts from: @l listens on @d2 (unless
 * @lis listens already), @a connects from port @lport with "hello" on
 * @qa, @p accepts with "world" on @qp; both sides up.
 */
void ienv_connected_from(struct ienv *env, u16 lport)
{
	struct iw_cm_conn_param param = {
		.private_data = "world",
		.private_data_len = 6,
		.ord = 2,
		.ird = 4,
		.qpn = env->qp->qp_num,
	};
	struct kunit *test = env->test;
	int nl = tc_count(&env->l), na = tc_count(&env->a);
	int np = tc_count(&env->p);

	if (!env->lis)
		env->lis = ienv_listen(env, env->d2, &env->l, IENV_PORT, 8);
	env->act = ienv_connect(env, &env->a, env->qa, lport, IENV_PORT,
				"hello");
	/* This connection's request: the listener's next event */
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->l, nl + 1));
	env->child = tc_get(&env->l, nl).cm_id;
	KUNIT_ASSERT_EQ(test, iw_cm_accept(env->child, &param), 0);
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->a, na + 1));
	KUNIT_ASSERT_TRUE(test, tc_wait(&env->p, np + 1));
	KUNIT_ASSERT_EQ(test, tc_get(&env->a, na).status, 0);
}

/* ienv_connected_from() port 5000 */
void ienv_connected(struct ienv *env)
{
	ienv_connected_from(env, 5000);
}

/* Destroy *@cm_id if the case has not, and mark its consumer. */
void ienv_destroy(struct iw_cm_id **cm_id, struct tc *tc)
{
	if (!*cm_id)
		return;
	iw_destroy_cm_id(*cm_id);
	*cm_id = NULL;
	if (tc)
		tc_gone(tc);
}

/* iw_cm's references on @qp (iw_add_ref minus iw_rem_ref). */
int ienv_qp_refs(struct ib_qp *qp)
{
	return atomic_read(&to_iwd_qp(qp)->iwrefs);
}

/* Wait until iw_cm holds @n references on @qp; false if it does not. */
bool ienv_wait_refs(struct ib_qp *qp, int n)
{
	int i;

	for (i = 0; i < IENV_WAIT_S * 50 && ienv_qp_refs(qp) != n; i++)
		msleep(20);
	return ienv_qp_refs(qp) == n;
}

int ienv_init(struct kunit *test)
{
	struct ienv *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	int ret;

	if (!env)
		return -ENOMEM;
	env->test = test;
	tc_init(&env->a);
	tc_init(&env->l);
	tc_init(&env->p);
	env->l.child = &env->p;
	ret = iwd_wire_start();
	if (ret)
		return ret;
	/* So that a case that leaves a request unanswered still ends */
	iwd_set_mpa_timeout(IENV_WAIT_S * 1000 / 2);
	test->priv = env;
	env->d1 = iwd_create("ktiwa%d");
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->d1));
	env->d2 = iwd_create("ktiwp%d");
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->d2));
	env->qa = iwd_qp_create(env->d1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->qa));
	env->qp = iwd_qp_create(env->d2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->qp));
	return 0;
}

/* @qp, whose references iw_cm must have given back */
static void ienv_qp_free(struct kunit *test, struct ib_qp *qp)
{
	if (IS_ERR_OR_NULL(qp))
		return;
	KUNIT_EXPECT_EQ(test, ienv_qp_refs(qp), 0);
	ib_destroy_qp(qp);
}

/* Identifiers, QPs, devices, wire: what ienv_init() made. */
void ienv_exit(struct kunit *test)
{
	struct ienv *env = test->priv;

	if (!env)
		return;
	/* A case that failed while holding the wire: destroy needs answers */
	iwd_wire_release();
	ienv_destroy(&env->act, &env->a);
	ienv_destroy(&env->child, &env->p);
	ienv_destroy(&env->lis, &env->l);
	iwd_wire_settle();
	ienv_qp_free(test, env->qa);
	ienv_qp_free(test, env->qp);
	if (!IS_ERR_OR_NULL(env->d1))
		iwd_destroy(env->d1);
	if (!IS_ERR_OR_NULL(env->d2))
		iwd_destroy(env->d2);
	iwd_wire_stop();
}
