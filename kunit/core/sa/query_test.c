// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_sa_query: core/sa/query.c and path.c's queries,
 * guid.c and port.c, against the suite's SA (sar.h) on a test fabric:
 * path and GUIDInfo queries answered, lost (retried, then timed out),
 * late, refused with a status, malformed; cancelled; clients
 * unregistering with queries out; the device removed under a query; the
 * SM's address following SM_CHANGE, PORT_ERR and PORT_ACTIVE, and dropped
 * at once on SM_CHANGE while the port is read again; the SA's
 * ClassPortInfo asked for and its response time used; bad input.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <rdma/ib_cache.h>
#include "sar.h"
#include "tk.h"

/* SA_QUERY_TRIES of core/sa/internal.h: the tries of one query */
#define QT_TRIES	4

struct qt_rec {
	struct completion done;
	atomic_t calls;
	int status;
	int num;
	struct sa_path_rec path;
	struct ib_sa_guidinfo_rec guid;
	bool had_rec;
	bool in_worker;
	struct task_struct *caller;
};

static void qt_init(struct qt_rec *r)
{
	memset(r, 0, sizeof(*r));
	init_completion(&r->done);
	r->caller = current;
}

static void qt_path_cb(int status, struct sa_path_rec *resp, int num,
		       void *context)
{
	struct qt_rec *r = context;

	r->status = status;
	r->num = num;
	r->had_rec = resp;
	if (resp)
		r->path = *resp;
	r->in_worker = current != r->caller && (current->flags & PF_WQ_WORKER);
	atomic_inc(&r->calls);
	complete(&r->done);
}

static void qt_guid_cb(int status, struct ib_sa_guidinfo_rec *resp,
		       void *context)
{
	struct qt_rec *r = context;

	r->status = status;
	r->had_rec = resp;
	if (resp)
		r->guid = *resp;
	atomic_inc(&r->calls);
	complete(&r->done);
}

static bool qt_wait(struct qt_rec *r)
{
	return wait_for_completion_timeout(&r->done, 20 * HZ);
}

static struct ib_sa_client qt_client;

/* A path query from the environment's client port to a GID */
static int qt_path(struct sar_env *env, struct ib_device *dev,
		   unsigned long timeout_ms, struct qt_rec *r,
		   struct ib_sa_query **q)
{
	struct sa_path_rec rec = { .rec_type = SA_PATH_REC_TYPE_IB };

	rdma_query_gid(dev, 1, 0, &rec.sgid);
	rec.dgid = rec.sgid;
	rec.dgid.raw[15] ^= 0x5a;
	rec.numb_path = 1;
	return ib_sa_path_rec_get(&qt_client, dev, 1, &rec,
				  IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID |
				  IB_SA_PATH_REC_NUMB_PATH, timeout_ms,
				  GFP_KERNEL, qt_path_cb, r, q);
}

/*
 * Waits (at most 10 s) for a path query from the client port to fail with
 * -EAGAIN: the port has no SM address.  A query that still went out is
 * waited for, so that its callback does not land in the case's record.
 */
static bool qt_no_sm(struct sar_env *env)
{
	struct ib_sa_query *q;
	struct qt_rec r;
	int i, ret;

	for (i = 0; i < 500; i++) {
		qt_init(&r);
		ret = qt_path(env, &env->client->ibdev, 100, &r, &q);
		if (ret == -EAGAIN)
			return true;
		if (ret >= 0 && !qt_wait(&r))
			return false;
		msleep(20);
	}
	return false;
}

static int qt_init_suite(struct kunit *test)
{
	ib_sa_register_client(&qt_client);
	test->priv = sar_env(test);
	return 0;
}

static void qt_exit_suite(struct kunit *test)
{
	if (test->priv)
		sar_env_free(test->priv);
	ib_sa_unregister_client(&qt_client);
}

static void query_path_answered(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_query *q;
	struct qt_rec r;
	int id;

	qt_init(&r);
	id = qt_path(env, &env->client->ibdev, 2000, &r, &q);
	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, 0);
	KUNIT_EXPECT_EQ(test, r.num, 1);
	KUNIT_EXPECT_TRUE(test, r.had_rec);
	KUNIT_EXPECT_TRUE(test, r.in_worker);
	KUNIT_EXPECT_EQ(test, r.path.rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(r.path.ib.dlid), 0x77);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(r.path.ib.slid), env->client_lid);
	KUNIT_EXPECT_EQ(test, r.path.sl, 5);
	KUNIT_EXPECT_EQ(test, r.path.numb_path, 1);
	KUNIT_EXPECT_EQ(test, env->sa.last_method, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, env->sa.last_comp_mask,
			IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID |
			IB_SA_PATH_REC_NUMB_PATH);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_path), 1);
	/* Cancelling a query that is over does nothing */
	ib_sa_cancel_query(id, q);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.calls), 1);
}

/* Lost requests are sent again; all lost: -ETIMEDOUT after every try */
static void query_lost(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_query *q;
	struct qt_rec r;
	char log[160];
	int from;

	atomic_set(&env->sa.drop, QT_TRIES - 1);
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 800, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_path), 1);

	from = atomic_read(&env->sa.n_dropped);
	atomic_set(&env->sa.drop, 100);
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 400, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, -ETIMEDOUT);
	KUNIT_EXPECT_FALSE(test, r.had_rec);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&env->sa.drop), 100 - QT_TRIES,
			    "dropped (attr/tid):%s",
			    sar_dropped_log(&env->sa, from, log, sizeof(log)));
	atomic_set(&env->sa.drop, 0);
}

/* An answer later than a try, within the query's time, is taken */
static void query_late(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_query *q;
	struct qt_rec r;

	env->sa.delay_ms = 300;
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 2000, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, 0);
	/* Later than the whole query: timed out, the answer dropped */
	env->sa.delay_ms = 1500;
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 400, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, -ETIMEDOUT);
	env->sa.delay_ms = 0;
	msleep(1600);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.calls), 1);
}

/* Bad input from the wire: error statuses, answers that are not answers */
static void query_refused_or_malformed(struct kunit *test)
{
	static const enum sar_fault faults[] = {
		SAR_WRONG_ATTR, SAR_WRONG_METHOD, SAR_DELETE_RESP };
	struct sar_env *env = test->priv;
	struct ib_sa_query *q;
	struct qt_rec r;
	int i;

	env->sa.status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 2000, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, -EINVAL);
	KUNIT_EXPECT_FALSE(test, r.had_rec);
	env->sa.status = 0;
	for (i = 0; i < ARRAY_SIZE(faults); i++) {
		env->sa.fault = faults[i];
		qt_init(&r);
		KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 2000,
					      &r, &q), 0);
		KUNIT_ASSERT_TRUE(test, qt_wait(&r));
		KUNIT_EXPECT_NE_MSG(test, r.status, 0, "fault %d", faults[i]);
		KUNIT_EXPECT_FALSE(test, r.had_rec);
	}
	env->sa.fault = SAR_GOOD;
}

/* A cancelled query ends with -EINTR; a wrong id or handle does nothing */
static void query_cancel(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_query *q;
	struct qt_rec r;
	int id;

	env->sa.delay_ms = 1000;
	qt_init(&r);
	id = qt_path(env, &env->client->ibdev, 5000, &r, &q);
	KUNIT_ASSERT_GE(test, id, 0);
	ib_sa_cancel_query(id + 1, q);
	ib_sa_cancel_query(id, NULL);
	ib_sa_cancel_query(-1, q);
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.calls), 0);
	ib_sa_cancel_query(id, q);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, -EINTR);
	env->sa.delay_ms = 0;
	msleep(1100);	/* the late answer is dropped */
	KUNIT_EXPECT_EQ(test, atomic_read(&r.calls), 1);
}

static void qt_unregister_fn(void *arg)
{
	ib_sa_unregister_client(arg);
}

/* Unregistering a client waits for its queries' callbacks */
static void query_unregister_waits(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct sa_path_rec rec = { .rec_type = SA_PATH_REC_TYPE_IB };
	static struct ib_sa_client mine;
	struct ib_sa_query *q;
	struct tk_thread t;
	struct qt_rec r;

	ib_sa_register_client(&mine);
	env->sa.delay_ms = 500;
	qt_init(&r);
	KUNIT_ASSERT_GE(test, ib_sa_path_rec_get(&mine, &env->client->ibdev, 1,
						 &rec, 0, 3000, GFP_KERNEL,
						 qt_path_cb, &r, &q), 0);
	tk_expect_blocks(test, &t, qt_unregister_fn, &mine);
	tk_join(&t);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.calls), 1);
	KUNIT_EXPECT_EQ(test, r.status, 0);
	env->sa.delay_ms = 0;
}

/* The device goes with a query out: the query ends with -EINTR */
static void query_device_removed(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_query *q;
	struct qt_rec r;

	env->sa.delay_ms = 2000;
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 5000, &r, &q), 0);
	tdev_destroy(env->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.calls), 1);
	KUNIT_EXPECT_EQ(test, r.status, -EINTR);
	env->client = tk_dev_named(test, "ktsac%d");
	env->sa.delay_ms = 0;
	msleep(2100);
}

/* Queries go where the port's SM is, and wait while there is none */
/* A second SA, on a device of its own, whose paths have DLID 0x99 */
static struct sar *qt_other_sa(struct kunit *test)
{
	struct tdev_params sp = { .name = "ktsb%d" };
	struct sar *other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, other);
	other->td = tk_dev(test, &sp);
	other->path_dlid = 0x99;
	KUNIT_ASSERT_EQ(test, sar_start(other, other->td), 0);
	return other;
}

static void query_follows_sm(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct sar *other = qt_other_sa(test);
	struct ib_sa_query *q;
	struct qt_rec r;

	sar_point_sm(test, env->client, other);
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 2000, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(r.path.ib.dlid), 0x99);
	KUNIT_EXPECT_EQ(test, atomic_read(&other->n_path), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_path), 0);

	/* Port down: no SM address; up again: back */
	tdev_port_event(env->client, 1, IB_EVENT_PORT_ERR);
	KUNIT_EXPECT_TRUE(test, qt_no_sm(env));
	tdev_port_event(env->client, 1, IB_EVENT_PORT_ACTIVE);
	sar_point_sm(test, env->client, &env->sa);
	sar_stop(other);
	tdev_destroy(other->td);
}

/*
 * An SM_CHANGE drops the SM's address at once.  While the port is read
 * again (its query_port held, as slow firmware would), queries fail with
 * -EAGAIN and none reaches the SM of before; once the port answers, they
 * go to the new one.
 */
static void query_sm_change_drops_old(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct sar *other = qt_other_sa(test);
	struct ib_sa_query *q;
	struct qt_rec r;
	int before;

	before = atomic_read(&env->sa.n_path);
	tdev_hold_query_port(env->client, true);
	KUNIT_EXPECT_EQ(test, tdev_set_sm_lid(env->client, 1, sar_lid(other->td)), 0);
	KUNIT_EXPECT_TRUE(test, tk_port_event(env->client, 1, IB_EVENT_SM_CHANGE));
	KUNIT_EXPECT_TRUE(test, qt_no_sm(env));
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_path), before);
	tdev_hold_query_port(env->client, false);

	KUNIT_EXPECT_TRUE(test, sar_wait_for(sar_sm_is(env->client, other)));
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 2000, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(r.path.ib.dlid), 0x99);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_path), before);

	sar_point_sm(test, env->client, &env->sa);
	sar_stop(other);
	tdev_destroy(other->td);
}

/*
 * The SA's ClassPortInfo is asked for with each new SM address, and its
 * response time stretches each try: with 0.5 s, a query of 400 ms goes
 * out once where it would go out four times.
 */
static void query_cpi_resp_time(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_query *q;
	struct qt_rec r;
	char log[160];
	int from;

	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_cpi) >= 1));
	env->sa.resp_time = 17;		/* 4.096 us << 17: 537 ms */
	sar_point_sm(test, env->client, &env->sa);
	KUNIT_ASSERT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_cpi) >= 2));
	/* A first query's end orders the ClassPortInfo's answer before it */
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 400, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	atomic_set(&env->sa.n_path, 0);
	from = atomic_read(&env->sa.n_dropped);
	atomic_set(&env->sa.drop, 100);
	qt_init(&r);
	KUNIT_ASSERT_GE(test, qt_path(env, &env->client->ibdev, 400, &r, &q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&env->sa.drop), 100 - 1,
			    "dropped (attr/tid):%s",
			    sar_dropped_log(&env->sa, from, log, sizeof(log)));
	atomic_set(&env->sa.drop, 0);
	env->sa.resp_time = 0;
}

static void query_guid_info(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_guidinfo_rec rec = { .lid = cpu_to_be16(env->client_lid) };
	struct ib_sa_query *q;
	struct qt_rec r;
	int i;

	for (i = 0; i < sizeof(rec.guid_info_list); i++)
		rec.guid_info_list[i] = i + 1;
	qt_init(&r);
	KUNIT_ASSERT_GE(test, ib_sa_guid_info_rec_query(&qt_client,
			&env->client->ibdev, 1, &rec,
			IB_SA_GUIDINFO_REC_LID | IB_SA_GUIDINFO_REC_GID0,
			IB_MGMT_METHOD_SET, 2000, GFP_KERNEL, qt_guid_cb, &r,
			&q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(r.guid.lid), env->client_lid);
	KUNIT_EXPECT_EQ(test, r.guid.guid_info_list[63], 64);
	/* The SA took the Set (last_method may be a ClassPortInfo Get since) */
	KUNIT_EXPECT_EQ(test, env->sa.guids[7], 8);
	qt_init(&r);
	KUNIT_ASSERT_GE(test, ib_sa_guid_info_rec_query(&qt_client,
			&env->client->ibdev, 1, &rec, IB_SA_GUIDINFO_REC_LID,
			IB_SA_METHOD_DELETE, 2000, GFP_KERNEL, qt_guid_cb, &r,
			&q), 0);
	KUNIT_ASSERT_TRUE(test, qt_wait(&r));
	KUNIT_EXPECT_EQ(test, r.status, 0);
	KUNIT_EXPECT_EQ(test, r.guid.guid_info_list[7], 0);
	/* Bad input: a method GUIDInfo has not */
	KUNIT_EXPECT_EQ(test, ib_sa_guid_info_rec_query(&qt_client,
			&env->client->ibdev, 1, &rec, 0, IB_SA_METHOD_GET_TABLE,
			2000, GFP_KERNEL, qt_guid_cb, &r, &q), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_sa_guid_info_rec_query(&qt_client,
			&env->client->ibdev, 1, NULL, 0, IB_MGMT_METHOD_GET,
			2000, GFP_KERNEL, qt_guid_cb, &r, &q), -EINVAL);
}

/* Bad input from the caller: refused at once, no callback */
static void query_bad_input(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct sa_path_rec rec = { .rec_type = SA_PATH_REC_TYPE_IB };
	struct tdev_params eth = { .name = "ktsae%d", .roce = true };
	struct tdev *te = tk_dev(test, &eth);
	struct ib_sa_query *q;
	struct qt_rec r;

	qt_init(&r);
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(&qt_client, &env->client->ibdev,
						 1, NULL, 0, 100, GFP_KERNEL,
						 qt_path_cb, &r, &q), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(&qt_client, &env->client->ibdev,
						 1, &rec, 0, 100, GFP_KERNEL,
						 NULL, &r, &q), -EINVAL);
	rec.rec_type = SA_PATH_REC_TYPE_OPA;
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(&qt_client, &env->client->ibdev,
						 1, &rec, 0, 100, GFP_KERNEL,
						 qt_path_cb, &r, &q), -EINVAL);
	rec.rec_type = SA_PATH_REC_TYPE_IB;
	/* Ports without an SA: none there, RoCE */
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(&qt_client, &env->client->ibdev,
						 2, &rec, 0, 100, GFP_KERNEL,
						 qt_path_cb, &r, &q), -ENODEV);
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(&qt_client, &te->ibdev, 1,
						 &rec, 0, 100, GFP_KERNEL,
						 qt_path_cb, &r, &q), -ENODEV);
	/* An SM LID of 0: no SM to ask */
	KUNIT_ASSERT_EQ(test, tdev_set_sm_lid(env->client, 1, 0), 0);
	tdev_port_event(env->client, 1, IB_EVENT_SM_CHANGE);
	KUNIT_EXPECT_TRUE(test, qt_no_sm(env));
	sar_point_sm(test, env->client, &env->sa);
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.calls), 0);
	tdev_destroy(te);
}

static struct kunit_case sa_query_cases[] = {
	KUNIT_CASE(query_path_answered),
	KUNIT_CASE(query_lost),
	KUNIT_CASE(query_late),
	KUNIT_CASE(query_refused_or_malformed),
	KUNIT_CASE(query_cancel),
	KUNIT_CASE(query_unregister_waits),
	KUNIT_CASE(query_device_removed),
	KUNIT_CASE(query_follows_sm),
	KUNIT_CASE(query_sm_change_drops_old),
	KUNIT_CASE(query_cpi_resp_time),
	KUNIT_CASE(query_guid_info),
	KUNIT_CASE(query_bad_input),
	{}
};

static struct kunit_suite sa_query_suite = {
	.name = "rdma_core_sa_query",
	.init = qt_init_suite,
	.exit = qt_exit_suite,
	.test_cases = sa_query_cases,
};

kunit_test_suites(&sa_query_suite);
