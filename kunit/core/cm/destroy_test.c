// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cm_destroy: the ends of CM IDs.  An ID destroyed
 * in each state of a connection and what its peer sees then (REJ with
 * "timeout" or "consumer defined", DREQ, DREP); a handler that returns
 * nonzero, whose ID the CM destroys (with a REJ for the peer); an ID
 * destroyed from another thread while its handler runs and more events
 * wait: the destroy waits for the handler, and no event comes once it
 * has returned.  InfiniBand: none of this depends on the link.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include "cenv.h"
#include "tk.h"

#define DT_SID		cpu_to_be64(0x0000000000dd0001ULL)
#define DT_SID2		cpu_to_be64(0x0000000000dd0002ULL)

/* How far a connection goes before one of its IDs is destroyed */
enum dt_stage {
	DT_REQ,		/* A: REQ_SENT, B: REQ_RCVD */
	DT_MRA,		/* A: MRA_REQ_RCVD, B: MRA_REQ_SENT */
	DT_REP,		/* A: REP_RCVD, B: REP_SENT */
	DT_EST,		/* both ESTABLISHED */
	DT_DREQ,	/* A: DREQ_SENT, B: DREQ_RCVD */
	DT_DREP,	/* both TIMEWAIT */
};

struct dt_case {
	const char *name;
	enum dt_stage stage;
	bool mra;		/* an MRA on the way */
	int victim;		/* the side whose ID is destroyed */
	enum ib_cm_state state;	/* the victim's state then */
};

static const struct dt_case dt_cases[] = {
	{ "req-sent", DT_REQ, false, 0, IB_CM_REQ_SENT },
	{ "req-rcvd", DT_REQ, false, 1, IB_CM_REQ_RCVD },
	{ "mra-req-rcvd", DT_MRA, true, 0, IB_CM_MRA_REQ_RCVD },
	{ "mra-req-sent", DT_MRA, true, 1, IB_CM_MRA_REQ_SENT },
	{ "rep-rcvd", DT_REP, false, 0, IB_CM_REP_RCVD },
	{ "rep-sent", DT_REP, false, 1, IB_CM_REP_SENT },
	{ "established", DT_EST, false, 0, IB_CM_ESTABLISHED },
	{ "dreq-sent", DT_DREQ, false, 0, IB_CM_DREQ_SENT },
	{ "dreq-rcvd", DT_DREQ, false, 1, IB_CM_DREQ_RCVD },
	{ "timewait", DT_DREP, false, 0, IB_CM_TIMEWAIT },
};

static void dt_case_desc(const struct dt_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dt_case, dt_cases, dt_case_desc);

/* Takes a connection from side 0 (A) to side 1 (B) up to a stage */
static void dt_reach(struct cenv *env, const struct dt_case *c,
		     struct ib_cm_id **a, struct ib_cm_id **b)
{
	struct kunit *test = env->test;
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;

	cenv_listen(env, 1, DT_SID);
	*a = cenv_id(env, 0);
	cenv_path(env, 0, &path);
	/*
	 * Time wait long enough to catch an ID in it: 2 s on the target
	 * (4.096 us * 2^19), and short enough for the peer's to end within
	 * CENV_WAIT_MS where time wait also counts twice the life time.
	 */
	if (c->stage == DT_DREP)
		path.packet_life_time = 18;
	cenv_req_param(env, 0, &path, DT_SID, &req);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(*a, &req), 0);
	*b = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	if (c->mra) {
		KUNIT_ASSERT_EQ(test, ib_send_cm_mra(*b, 22, NULL, 0), 0);
		cenv_expect(env, 0, IB_CM_MRA_RECEIVED);
	}
	if (c->stage <= DT_MRA)
		return;
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(*b, &rep), 0);
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	if (c->stage == DT_REP)
		return;
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(*a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_RTU_RECEIVED);
	if (c->stage == DT_EST)
		return;
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(*a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_DREQ_RECEIVED);
	if (c->stage == DT_DREQ)
		return;
	KUNIT_ASSERT_EQ(test, ib_send_cm_drep(*b, NULL, 0), 0);
	cenv_expect(env, 0, IB_CM_DREP_RECEIVED);
}

/* The REJ a peer gets for an ID destroyed while connecting */
static void dt_expect_rej(struct cenv *env, int side, struct ib_cm_id *id,
			  enum ib_cm_rej_reason reason)
{
	struct kunit *test = env->test;
	struct cenv_event *e = cenv_expect(env, side, IB_CM_REJ_RECEIVED);
	__be64 guid = env->s[!side].dev->node_guid;

	KUNIT_EXPECT_PTR_EQ(test, e->id, id);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason, reason);
	/* A "timeout" REJ names the CA that timed out */
	if (reason == IB_CM_REJ_TIMEOUT) {
		KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.ari_length,
				sizeof(guid));
		KUNIT_EXPECT_EQ(test, memcmp(e->info, &guid, sizeof(guid)), 0);
	}
}

/* One ID destroyed in a state; what the other side sees */
static void destroy_in_state(struct kunit *test)
{
	const struct dt_case *c = test->param_value;
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *id[2];
	int peer = !c->victim;

	dt_reach(env, c, &id[0], &id[1]);
	KUNIT_ASSERT_EQ(test, id[c->victim]->state, c->state);
	cenv_destroy(env, id[c->victim]);

	switch (c->stage) {
	case DT_REQ:
	case DT_MRA:
		/* The active side gave up; the passive side refused */
		dt_expect_rej(env, peer, id[peer],
			      c->victim == 0 ? IB_CM_REJ_TIMEOUT :
					       IB_CM_REJ_CONSUMER_DEFINED);
		KUNIT_EXPECT_EQ(test, id[peer]->state, IB_CM_IDLE);
		break;
	case DT_REP:
		dt_expect_rej(env, peer, id[peer], IB_CM_REJ_CONSUMER_DEFINED);
		if (peer == 0)
			/* A REJ after a REP: time wait first */
			cenv_expect(env, 0, IB_CM_TIMEWAIT_EXIT);
		KUNIT_EXPECT_EQ(test, id[peer]->state, IB_CM_IDLE);
		break;
	case DT_EST:
		/* A disconnection the peer answers */
		cenv_expect(env, peer, IB_CM_DREQ_RECEIVED);
		KUNIT_EXPECT_EQ(test, ib_send_cm_drep(id[peer], NULL, 0), 0);
		cenv_expect(env, peer, IB_CM_TIMEWAIT_EXIT);
		break;
	case DT_DREQ:
		if (c->victim == 1) {
			/* The destroyed side answered the DREQ */
			cenv_expect(env, 0, IB_CM_DREP_RECEIVED);
		} else {
			KUNIT_EXPECT_EQ(test, ib_send_cm_drep(id[1], NULL, 0),
					0);
		}
		cenv_expect(env, peer, IB_CM_TIMEWAIT_EXIT);
		break;
	case DT_DREP:
		cenv_expect(env, peer, IB_CM_TIMEWAIT_EXIT);
		break;
	}
	KUNIT_EXPECT_EQ(test, cenv_count(env, peer, IB_CM_REQ_ERROR), 0);
	KUNIT_EXPECT_EQ(test, cenv_count(env, peer, IB_CM_REP_ERROR), 0);
	KUNIT_EXPECT_EQ(test, cenv_count(env, peer, IB_CM_DREQ_ERROR), 0);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

/* A listener's handler returns nonzero for a REQ: that REQ is refused */
static void handler_refuses_req(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *listen, *a;
	struct cenv_event *e;

	listen = cenv_listen(env, 1, DT_SID);
	env->s[1].rec.ret[IB_CM_REQ_RECEIVED] = -EINVAL;
	a = cenv_req_ready(env, DT_SID, &path, &req);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	cenv_expect(env, 1, IB_CM_REQ_RECEIVED);
	e = cenv_expect(env, 0, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
	/* The listener stays and takes the next REQ */
	KUNIT_EXPECT_EQ(test, listen->state, IB_CM_LISTEN);
	env->s[1].rec.ret[IB_CM_REQ_RECEIVED] = 0;
	a = cenv_id(env, 0);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	e = cenv_expect(env, 1, IB_CM_REQ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->ev.param.req_rcvd.listen_id, listen);
}

/* The active handler returns nonzero for the REP: REJ to the passive */
static void handler_refuses_rep(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	cenv_listen(env, 1, DT_SID);
	env->s[0].rec.ret[IB_CM_REP_RECEIVED] = -EINVAL;
	a = cenv_req_ready(env, DT_SID, &path, &req);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	b = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(b, &rep), 0);
	/* The handler forgot the ID: the CM destroys it */
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	e = cenv_expect(env, 1, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, b);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_REP_ERROR), 0);
}

/* What the racing destroy shares with the blocked handler */
struct dt_race {
	struct cenv *env;
	struct ib_cm_id *victim;
	struct completion in_handler;
	struct completion gate;
	atomic_t handler_done;
	int done_when_destroyed;
};

/* One case at a time: static, so that no hook outlives it */
static struct dt_race dt_race;

/* B's hook: the REQ's handler waits at the gate */
static void dt_block_hook(struct cenv_rec *rec, struct ib_cm_id *id,
			  const struct ib_cm_event *event)
{
	struct dt_race *r = &dt_race;

	if (event->event != IB_CM_REQ_RECEIVED)
		return;
	complete(&r->in_handler);
	wait_for_completion_timeout(&r->gate, msecs_to_jiffies(CENV_WAIT_MS));
	atomic_set(&r->handler_done, 1);
}

static void dt_destroy_step(void *arg)
{
	struct dt_race *r = arg;

	cenv_destroy(r->env, r->victim);
	r->done_when_destroyed = atomic_read(&r->handler_done);
}

/*
 * B's handler is still in the REQ's event when A gives up (a REJ for B
 * waits behind it) and another thread destroys B's ID: the destroy waits
 * for the handler, and nothing is reported on the ID after it returns.
 */
static void destroy_while_handler_runs(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct dt_race *r = &dt_race;
	struct tk_thread t;
	struct ib_cm_id *a;

	memset(r, 0, sizeof(*r));
	r->env = env;
	init_completion(&r->in_handler);
	init_completion(&r->gate);
	env->s[1].rec.hook = dt_block_hook;
	cenv_listen(env, 1, DT_SID2);
	a = cenv_req_ready(env, DT_SID2, &path, &req);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	if (!wait_for_completion_timeout(&r->in_handler,
					 msecs_to_jiffies(CENV_WAIT_MS))) {
		complete_all(&r->gate);
		KUNIT_ASSERT_FAILURE(test, "no REQ reached the passive side");
	}
	r->victim = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	/* A gives up: a REJ for B's ID, queued behind the running handler */
	cenv_destroy(env, a);
	/* Not an assertion on time: give the REJ a moment to arrive */
	msleep(500);
	tk_start(test, &t, dt_destroy_step, r);
	msleep(200);
	KUNIT_EXPECT_FALSE(test, completion_done(&t.done));
	complete_all(&r->gate);
	KUNIT_ASSERT_TRUE(test, tk_join_timeout(&t, CENV_WAIT_MS));
	KUNIT_EXPECT_EQ(test, r->done_when_destroyed, 1);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

static struct kunit_case destroy_cases[] = {
	KUNIT_CASE_PARAM(destroy_in_state, dt_case_gen_params),
	KUNIT_CASE(handler_refuses_req),
	KUNIT_CASE(handler_refuses_rep),
	KUNIT_CASE(destroy_while_handler_runs),
	{}
};

static struct kunit_suite destroy_suite = {
	.name = "rdma_core_cm_destroy",
	.test_cases = destroy_cases,
};

kunit_test_suite(destroy_suite);
