// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_cm suites' environment (cenv.h): two test devices with an RC QP
 * each, hand-made path records between them, recording CM handlers.
 *
 * Locking: a recorder's events are appended under its lock by the CM's
 * handler calls and never changed after; a case finds one under the lock
 * and reads it without.  The IDs to destroy at the end are under the
 * environment's lock, which the handler takes to add the IDs the CM makes
 * for incoming REQs and SIDR REQs.  Lock order: rec->lock, then
 * env->lock (never both held here).
 *
 * Teardown (a KUnit resource, so a failed assertion gets it too): every
 * CM ID still known, then the QPs, CQs and PDs, then the devices; RoCE
 * devices before the veth pair beneath them (tk_roce_pair()'s resource,
 * made earlier, is released later).
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include "cenv.h"
#include "tk.h"

/* Where the handler reports for IDs without a context (insert_listen) */
static struct cenv_rec *cenv_shared;
/*
 * Set while an environment goes (under its lock): new incoming IDs are
 * refused
 */
static bool cenv_closing;

static const char * const cenv_names[] = {
	[IB_CM_REQ_ERROR] = "REQ_ERROR",
	[IB_CM_REQ_RECEIVED] = "REQ_RECEIVED",
	[IB_CM_REP_ERROR] = "REP_ERROR",
	[IB_CM_REP_RECEIVED] = "REP_RECEIVED",
	[IB_CM_RTU_RECEIVED] = "RTU_RECEIVED",
	[IB_CM_USER_ESTABLISHED] = "USER_ESTABLISHED",
	[IB_CM_DREQ_ERROR] = "DREQ_ERROR",
	[IB_CM_DREQ_RECEIVED] = "DREQ_RECEIVED",
	[IB_CM_DREP_RECEIVED] = "DREP_RECEIVED",
	[IB_CM_TIMEWAIT_EXIT] = "TIMEWAIT_EXIT",
	[IB_CM_MRA_RECEIVED] = "MRA_RECEIVED",
	[IB_CM_REJ_RECEIVED] = "REJ_RECEIVED",
	[IB_CM_LAP_ERROR] = "LAP_ERROR",
	[IB_CM_LAP_RECEIVED] = "LAP_RECEIVED",
	[IB_CM_APR_RECEIVED] = "APR_RECEIVED",
	[IB_CM_SIDR_REQ_ERROR] = "SIDR_REQ_ERROR",
	[IB_CM_SIDR_REQ_RECEIVED] = "SIDR_REQ_RECEIVED",
	[IB_CM_SIDR_REP_RECEIVED] = "SIDR_REP_RECEIVED",
};

/**
 * cenv_event_name - the name of a kind of CM event, for messages
 * @type: the kind
 *
 * Return: its name, or "?".
 */
const char *cenv_event_name(enum ib_cm_event_type type)
{
	if ((unsigned int)type < ARRAY_SIZE(cenv_names) && cenv_names[type])
		return cenv_names[type];
	return "?";
}

/* How much private data a kind of event carries (<rdma/ib_cm.h>) */
static size_t cenv_pdata_len(enum ib_cm_event_type type)
{
	switch (type) {
	case IB_CM_REQ_RECEIVED:
		return IB_CM_REQ_PRIVATE_DATA_SIZE;
	case IB_CM_REP_RECEIVED:
		return IB_CM_REP_PRIVATE_DATA_SIZE;
	case IB_CM_RTU_RECEIVED:
		return IB_CM_RTU_PRIVATE_DATA_SIZE;
	case IB_CM_REJ_RECEIVED:
		return IB_CM_REJ_PRIVATE_DATA_SIZE;
	case IB_CM_MRA_RECEIVED:
		return IB_CM_MRA_PRIVATE_DATA_SIZE;
	case IB_CM_DREQ_RECEIVED:
		return IB_CM_DREQ_PRIVATE_DATA_SIZE;
	case IB_CM_DREP_RECEIVED:
		return IB_CM_DREP_PRIVATE_DATA_SIZE;
	case IB_CM_SIDR_REQ_RECEIVED:
		return IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE;
	case IB_CM_SIDR_REP_RECEIVED:
		return IB_CM_SIDR_REP_PRIVATE_DATA_SIZE;
	case IB_CM_LAP_RECEIVED:
		return IB_CM_LAP_PRIVATE_DATA_SIZE;
	case IB_CM_APR_RECEIVED:
		return IB_CM_APR_PRIVATE_DATA_SIZE;
	default:
		return 0;
	}
}

/* The GID of a source GID entry an event points at */
static void cenv_copy_sgid(struct cenv_event *e,
			   const struct ib_gid_attr **attr)
{
	if (*attr) {
		e->sgid = (*attr)->gid;
		e->has_sgid_attr = true;
	}
	*attr = NULL;
}

/*
 * Copies what the event points at.  A REJ's ARI and a SIDR REP's
 * additional information are copied whole (72 bytes, their room in the
 * message): the target leaves a SIDR REP's length field 0.
 */
static void cenv_copy(struct cenv_event *e, const struct ib_cm_event *event)
{
	struct ib_cm_req_event_param *req = &e->ev.param.req_rcvd;
	size_t len = cenv_pdata_len(event->event);

	e->ev = *event;
	e->ev.private_data = NULL;
	if (event->private_data && len) {
		memcpy(e->pdata, event->private_data, len);
		e->ev.private_data = e->pdata;
	}
	switch (event->event) {
	case IB_CM_REQ_RECEIVED:
		if (req->primary_path) {
			e->path = *req->primary_path;
			req->primary_path = &e->path;
		}
		if (req->alternate_path) {
			e->alt = *req->alternate_path;
			req->alternate_path = &e->alt;
		}
		cenv_copy_sgid(e, &req->ppath_sgid_attr);
		break;
	case IB_CM_REJ_RECEIVED:
		if (e->ev.param.rej_rcvd.ari) {
			memcpy(e->info, event->param.rej_rcvd.ari,
			       sizeof(e->info));
			e->ev.param.rej_rcvd.ari = e->info;
		}
		break;
	case IB_CM_SIDR_REQ_RECEIVED:
		cenv_copy_sgid(e, &e->ev.param.sidr_req_rcvd.sgid_attr);
		break;
	case IB_CM_SIDR_REP_RECEIVED:
		if (e->ev.param.sidr_rep_rcvd.info) {
			memcpy(e->info, event->param.sidr_rep_rcvd.info,
			       sizeof(e->info));
			e->ev.param.sidr_rep_rcvd.info = e->info;
		}
		cenv_copy_sgid(e, &e->ev.param.sidr_rep_rcvd.sgid_attr);
		break;
	case IB_CM_LAP_RECEIVED:
		e->alt = *event->param.lap_rcvd.alternate_path;
		e->ev.param.lap_rcvd.alternate_path = &e->alt;
		break;
	case IB_CM_APR_RECEIVED:
		if (event->param.apr_rcvd.apr_info) {
			memcpy(e->info, event->param.apr_rcvd.apr_info,
			       sizeof(e->info));
			e->ev.param.apr_rcvd.apr_info = e->info;
		}
		break;
	default:
		break;
	}
}

static void cenv_record(struct cenv_rec *rec, struct ib_cm_id *id,
			const struct ib_cm_event *event)
{
	struct cenv_event *e;
	unsigned long flags;

	spin_lock_irqsave(&rec->lock, flags);
	if (rec->n == CENV_EVENTS) {
		rec->lost++;
		spin_unlock_irqrestore(&rec->lock, flags);
		return;
	}
	e = &rec->ev[rec->n];
	e->id = id;
	e->state = id->state;
	cenv_copy(e, event);
	rec->n++;
	spin_unlock_irqrestore(&rec->lock, flags);
}

/* Adds an ID the CM made for an incoming request; false if refused. */
static bool cenv_track_new(struct cenv *env, struct ib_cm_id *id)
{
	unsigned long flags;
	bool done = false;
	int i;

	spin_lock_irqsave(&env->lock, flags);
	for (i = 0; !cenv_closing && i < CENV_IDS && !done; i++) {
		if (!env->ids[i]) {
			env->ids[i] = id;
			done = true;
		}
	}
	spin_unlock_irqrestore(&env->lock, flags);
	return done;
}

/*
 * Counts events on IDs whose destroy has returned (an ID the CM makes
 * for a request may reuse a destroyed one's memory: it is alive again).
 */
static void cenv_check_alive(struct cenv *env, struct ib_cm_id *id,
			     const struct ib_cm_event *event)
{
	bool fresh = event->event == IB_CM_REQ_RECEIVED ||
		     event->event == IB_CM_SIDR_REQ_RECEIVED;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&env->lock, flags);
	for (i = 0; i < CENV_IDS; i++) {
		if (env->dead[i] != id)
			continue;
		if (fresh)
			env->dead[i] = NULL;
		else
			env->late++;
	}
	spin_unlock_irqrestore(&env->lock, flags);
}

/* Notes an ID whose destroy has returned */
static void cenv_dead(struct cenv *env, struct ib_cm_id *id)
{
	unsigned long flags;

	spin_lock_irqsave(&env->lock, flags);
	env->dead[env->ndead++ % CENV_IDS] = id;
	spin_unlock_irqrestore(&env->lock, flags);
}

/**
 * cenv_late - events that came on IDs after their destroy returned
 * @env: the environment
 *
 * Return: how many (none, if the CM keeps its promise).
 */
int cenv_late(struct cenv *env)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&env->lock, flags);
	n = env->late;
	spin_unlock_irqrestore(&env->lock, flags);
	return n;
}

/**
 * cenv_handler - the recording CM handler
 * @id: the CM ID; its context is the recorder (cenv_shared when NULL)
 * @event: the event
 *
 * Records the event, wakes the case, calls the recorder's hook and
 * returns what the recorder says for this kind of event.  An ID the CM
 * made for a REQ or SIDR REQ joins those destroyed when the case ends
 * (or, when the case is ending, is refused: the CM destroys it); an ID
 * whose event gets a nonzero return is forgotten, the CM destroys it.
 *
 * Return: 0 to keep the ID, else nonzero.
 */
int cenv_handler(struct ib_cm_id *id, const struct ib_cm_event *event)
{
	struct cenv_rec *rec = id->context ? id->context : READ_ONCE(cenv_shared);
	int ret;

	if (!rec)
		return 0;
	cenv_check_alive(rec->env, id, event);
	ret = rec->ret[event->event];
	/*
	 * A new ID is tracked before its event is seen: once recorded, the
	 * case may destroy it (cenv_destroy() forgets it first), and a
	 * later tracking would destroy it twice at the end.
	 */
	if (event->event == IB_CM_REQ_RECEIVED ||
	    event->event == IB_CM_SIDR_REQ_RECEIVED) {
		if (!ret && !cenv_track_new(rec->env, id))
			ret = -ENOSPC;
	} else if (ret) {
		cenv_forget(rec->env, id);
	}
	cenv_record(rec, id, event);
	wake_up_all(&rec->wq);
	if (rec->hook)
		rec->hook(rec, id, event);
	return ret;
}

/**
 * cenv_set_shared - where IDs without a context report
 * @rec: the recorder (ib_cm_insert_listen() listeners have no context)
 */
void cenv_set_shared(struct cenv_rec *rec)
{
	WRITE_ONCE(cenv_shared, rec);
}

/**
 * cenv_track - destroy a CM ID when the case ends
 * @env: the environment
 * @id: the ID
 */
void cenv_track(struct cenv *env, struct ib_cm_id *id)
{
	KUNIT_ASSERT_TRUE_MSG(env->test, cenv_track_new(env, id),
			      "more than %d CM IDs", CENV_IDS);
}

/**
 * cenv_forget - no longer destroy a CM ID when the case ends
 * @env: the environment
 * @id: the ID (the CM destroyed it, or the case does)
 */
void cenv_forget(struct cenv *env, struct ib_cm_id *id)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&env->lock, flags);
	for (i = 0; i < CENV_IDS; i++)
		if (env->ids[i] == id)
			env->ids[i] = NULL;
	spin_unlock_irqrestore(&env->lock, flags);
}

/**
 * cenv_destroy - destroy a CM ID of the case
 * @env: the environment
 * @id: the ID
 */
void cenv_destroy(struct cenv *env, struct ib_cm_id *id)
{
	cenv_forget(env, id);
	ib_destroy_cm_id(id);
	cenv_dead(env, id);
}

/* A new ID may have a destroyed one's memory */
static void cenv_revive(struct cenv *env, struct ib_cm_id *id)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&env->lock, flags);
	for (i = 0; i < CENV_IDS; i++)
		if (env->dead[i] == id)
			env->dead[i] = NULL;
	spin_unlock_irqrestore(&env->lock, flags);
}

/**
 * cenv_id - a new CM ID on a side, reporting to the side's recorder
 * @env: the environment
 * @side: 0 or 1
 *
 * Return: the ID, destroyed when the case ends unless the case destroys
 * it first (cenv_destroy()).
 */
struct ib_cm_id *cenv_id(struct cenv *env, int side)
{
	struct ib_cm_id *id;

	id = ib_create_cm_id(env->s[side].dev, cenv_handler,
			     &env->s[side].rec);
	KUNIT_ASSERT_FALSE_MSG(env->test, IS_ERR(id), "ib_create_cm_id: %ld",
			       PTR_ERR(id));
	cenv_revive(env, id);
	cenv_track(env, id);
	return id;
}

/**
 * cenv_listen - a new CM ID listening on a side
 * @env: the environment
 * @side: 0 or 1
 * @sid: the service ID
 *
 * Return: the ID (see cenv_id()).
 */
struct ib_cm_id *cenv_listen(struct cenv *env, int side, __be64 sid)
{
	struct ib_cm_id *id = cenv_id(env, side);

	KUNIT_ASSERT_EQ(env->test, ib_cm_listen(id, sid), 0);
	return id;
}

/* The first unseen event of a kind, taken; NULL if none yet. */
static struct cenv_event *cenv_take(struct cenv_rec *rec,
				    enum ib_cm_event_type type)
{
	struct cenv_event *found = NULL;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&rec->lock, flags);
	for (i = 0; i < rec->n && !found; i++) {
		if (!rec->ev[i].taken && rec->ev[i].ev.event == type) {
			found = &rec->ev[i];
			found->taken = true;
		}
	}
	spin_unlock_irqrestore(&rec->lock, flags);
	return found;
}

/* The case's failure message: the events a side has seen */
static void cenv_dump(struct cenv *env, int side, enum ib_cm_event_type want)
{
	struct cenv_rec *rec = &env->s[side].rec;
	char line[256];
	int i, len = 0;

	line[0] = '\0';
	for (i = 0; i < READ_ONCE(rec->n) && len < sizeof(line); i++)
		len += scnprintf(line + len, sizeof(line) - len, " %s",
				 cenv_event_name(rec->ev[i].ev.event));
	KUNIT_FAIL(env->test, "side %d: no %s within %d ms; events:%s", side,
		   cenv_event_name(want), CENV_WAIT_MS, line);
}

/**
 * cenv_expect - wait for the next event of a kind on a side
 * @env: the environment
 * @side: 0 or 1
 * @type: the kind
 *
 * The case fails (and ends) if none comes within CENV_WAIT_MS.
 *
 * Return: the event, a copy that stays until the case ends.
 */
struct cenv_event *cenv_expect(struct cenv *env, int side,
			       enum ib_cm_event_type type)
{
	struct cenv_rec *rec = &env->s[side].rec;
	struct cenv_event *e = NULL;

	wait_event_timeout(rec->wq, (e = cenv_take(rec, type)) != NULL,
			   msecs_to_jiffies(CENV_WAIT_MS));
	if (!e) {
		cenv_dump(env, side, type);
		KUNIT_ASSERT_NOT_NULL(env->test, e);
	}
	return e;
}

/**
 * cenv_count - how many events of a kind a side has had so far
 * @env: the environment
 * @side: 0 or 1
 * @type: the kind
 *
 * Return: the count, seen or not.
 */
int cenv_count(struct cenv *env, int side, enum ib_cm_event_type type)
{
	struct cenv_rec *rec = &env->s[side].rec;
	unsigned long flags;
	int i, n = 0;

	spin_lock_irqsave(&rec->lock, flags);
	for (i = 0; i < rec->n; i++)
		n += rec->ev[i].ev.event == type;
	spin_unlock_irqrestore(&rec->lock, flags);
	return n;
}

/**
 * cenv_fill - fill private data with a pattern
 * @buf: the data
 * @len: its length
 * @seed: what tells this pattern from others
 */
void cenv_fill(u8 *buf, size_t len, u8 seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = seed ^ (u8)(i * 13 + 1);
}

/**
 * cenv_filled - whether data holds a pattern of cenv_fill()
 * @buf: the data
 * @len: how much of it to check
 * @seed: the pattern's seed
 *
 * Return: true if it does.
 */
bool cenv_filled(const u8 *buf, size_t len, u8 seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != (u8)(seed ^ (u8)(i * 13 + 1)))
			return false;
	return true;
}

/**
 * cenv_path - the path from one side to the other, as an SA would give
 *	it (InfiniBand) or rdma_cm would make it (RoCE v2, with the peer's
 *	MAC); packet life time CENV_LIFE_TIME
 * @env: the environment
 * @from: the side it starts at
 * @rec: the path, out
 */
void cenv_path(struct cenv *env, int from, struct sa_path_rec *rec)
{
	struct cenv_side *s = &env->s[from], *d = &env->s[!from];
	u8 mac[ETH_ALEN];

	memset(rec, 0, sizeof(*rec));
	rec->sgid = s->gid;
	rec->dgid = d->gid;
	rec->pkey = cpu_to_be16(0xffff);
	rec->reversible = 1;
	rec->numb_path = 1;
	rec->mtu_selector = IB_SA_EQ;
	rec->mtu = IB_MTU_1024;
	rec->rate_selector = IB_SA_EQ;
	rec->rate = IB_RATE_10_GBPS;
	rec->packet_life_time_selector = IB_SA_EQ;
	rec->packet_life_time = CENV_LIFE_TIME;
	if (env->roce) {
		rec->rec_type = SA_PATH_REC_TYPE_ROCE_V2;
		rec->hop_limit = 64;
		ether_addr_copy(mac, d->td->ndev->dev_addr);
		sa_path_set_dmac(rec, mac);
	} else {
		rec->rec_type = SA_PATH_REC_TYPE_IB;
		sa_path_set_slid(rec, s->lid);
		sa_path_set_dlid(rec, d->lid);
	}
}

/**
 * cenv_req_param - a REQ for the RC QP of a side
 * @env: the environment
 * @from: the side
 * @path: its primary path (cenv_path())
 * @sid: the service ID
 * @p: the parameters, out: response timeouts of CENV_CM_TIMEOUT, three
 *	retries, PSN 0x123456, responder resources 3, initiator depth 2,
 *	retry count 5, RNR retry count 6, flow control, no private data
 */
void cenv_req_param(struct cenv *env, int from, struct sa_path_rec *path,
		    __be64 sid, struct ib_cm_req_param *p)
{
	memset(p, 0, sizeof(*p));
	p->primary_path = path;
	p->ppath_sgid_attr = env->s[from].gid_attr;
	p->service_id = sid;
	p->qp_num = env->s[from].qp->qp_num;
	p->qp_type = IB_QPT_RC;
	p->starting_psn = 0x123456;
	p->responder_resources = 3;
	p->initiator_depth = 2;
	p->remote_cm_response_timeout = CENV_CM_TIMEOUT;
	p->local_cm_response_timeout = CENV_CM_TIMEOUT;
	p->flow_control = 1;
	p->retry_count = 5;
	p->rnr_retry_count = 6;
	p->max_cm_retries = 3;
}

/**
 * cenv_req_ready - a new ID of side 0 and the REQ it is to send
 * @env: the environment
 * @sid: the service ID
 * @path: out: side 0's path (cenv_path()), which @p points to
 * @p: out: cenv_req_param()'s parameters, for a case to change
 *
 * Return: the ID, tracked (cenv_id()).
 */
struct ib_cm_id *cenv_req_ready(struct cenv *env, __be64 sid,
				struct sa_path_rec *path,
				struct ib_cm_req_param *p)
{
	struct ib_cm_id *id = cenv_id(env, 0);

	cenv_path(env, 0, path);
	cenv_req_param(env, 0, path, sid, p);
	return id;
}

/**
 * cenv_rep_param - a REP for the RC QP of side 1
 * @env: the environment
 * @p: the parameters, out: PSN 0x654321, responder resources 4,
 *	initiator depth 1, RNR retry count 7, flow control, no private data
 */
void cenv_rep_param(struct cenv *env, struct ib_cm_rep_param *p)
{
	memset(p, 0, sizeof(*p));
	p->qp_num = env->s[1].qp->qp_num;
	p->starting_psn = 0x654321;
	p->responder_resources = 4;
	p->initiator_depth = 1;
	p->rnr_retry_count = 7;
	p->flow_control = 1;
}

/**
 * cenv_connect - a connection from side 0 to a new listener of side 1
 * @env: the environment
 * @sid: the listener's service ID (a new one for each call)
 * @active: side 0's ID, out
 * @passive: side 1's ID, out
 *
 * REQ, REP and RTU with cenv_req_param() and cenv_rep_param(); the QPs
 * stay as they are.  The case fails if an event does not come.
 */
void cenv_connect(struct cenv *env, __be64 sid, struct ib_cm_id **active,
		  struct ib_cm_id **passive)
{
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct kunit *test = env->test;

	cenv_listen(env, 1, sid);
	*active = cenv_id(env, 0);
	cenv_path(env, 0, &path);
	cenv_req_param(env, 0, &path, sid, &req);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(*active, &req), 0);
	*passive = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(*passive, &rep), 0);
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(*active, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_RTU_RECEIVED);
	KUNIT_ASSERT_EQ(test, (*active)->state, IB_CM_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, (*passive)->state, IB_CM_ESTABLISHED);
}

/**
 * cenv_qp_step - move a side's QP to a state with ib_cm's attributes
 * @env: the environment
 * @side: 0 or 1
 * @id: the CM ID of its connection
 * @state: IB_QPS_INIT, _RTR or _RTS
 * @attr: the attributes ib_cm_init_qp_attr() gave, out
 * @mask: their mask, out
 *
 * The case fails if ib_cm_init_qp_attr() or ib_modify_qp() does.
 */
void cenv_qp_step(struct cenv *env, int side, struct ib_cm_id *id,
		  enum ib_qp_state state, struct ib_qp_attr *attr, int *mask)
{
	memset(attr, 0, sizeof(*attr));
	*mask = 0;
	attr->qp_state = state;
	KUNIT_ASSERT_EQ(env->test, ib_cm_init_qp_attr(id, attr, mask), 0);
	KUNIT_ASSERT_TRUE(env->test, *mask & IB_QP_STATE);
	KUNIT_ASSERT_EQ(env->test,
			ib_modify_qp(env->s[side].qp, attr, *mask), 0);
}

/**
 * cenv_qp_state - the state of a side's QP
 * @env: the environment
 * @side: 0 or 1
 *
 * Return: the state ib_query_qp() gives, or -1 if it fails.
 */
enum ib_qp_state cenv_qp_state(struct cenv *env, int side)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	if (ib_query_qp(env->s[side].qp, &attr, IB_QP_STATE, &init))
		return (enum ib_qp_state)-1;
	return attr.qp_state;
}

/* The RoCE v2 link-local GID of a side's port, held; -ENOENT if none yet */
static int cenv_roce_gid(struct cenv_side *s)
{
	const struct ib_gid_attr *attr;
	int i;

	for (i = 0; i < s->dev->port_data[1].immutable.gid_tbl_len; i++) {
		attr = rdma_get_gid_attr(s->dev, 1, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    attr->gid.raw[0] == 0xfe && attr->gid.raw[1] == 0x80) {
			s->gid = attr->gid;
			s->gid_attr = attr;
			return 0;
		}
		rdma_put_gid_attr(attr);
	}
	return -ENOENT;
}

static void cenv_side_init(struct cenv *env, int side)
{
	struct ib_qp_init_attr qpa = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct cenv_side *s = &env->s[side];
	struct kunit *test = env->test;
	struct ib_port_attr pa;
	int i;

	s->dev = &s->td->ibdev;
	KUNIT_ASSERT_EQ(test, ib_query_port(s->dev, 1, &pa), 0);
	s->lid = pa.lid;
	if (env->roce) {
		/* The core adds the GIDs of a netdev from a work queue */
		for (i = 0; i < 1000 && cenv_roce_gid(s); i++)
			msleep(20);
		KUNIT_ASSERT_NOT_NULL_MSG(test, s->gid_attr,
					  "side %d: no RoCE v2 GID", side);
	} else {
		KUNIT_ASSERT_EQ(test, rdma_query_gid(s->dev, 1, 0, &s->gid), 0);
	}
	s->pd = ib_alloc_pd(s->dev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->pd));
	s->cq = ib_alloc_cq(s->dev, NULL, 16, 0, IB_POLL_DIRECT);
	if (IS_ERR(s->cq)) {
		s->cq = NULL;
		KUNIT_ASSERT_FAILURE(test, "ib_alloc_cq");
	}
	qpa.send_cq = s->cq;
	qpa.recv_cq = s->cq;
	s->qp = ib_create_qp(s->pd, &qpa);
	if (IS_ERR(s->qp)) {
		s->qp = NULL;
		KUNIT_ASSERT_FAILURE(test, "ib_create_qp");
	}
}

/* Destroys every ID still known; IDs arriving meanwhile are refused. */
static void cenv_destroy_ids(struct cenv *env)
{
	struct ib_cm_id *id;
	unsigned long flags;
	int i;

	for (;;) {
		id = NULL;
		spin_lock_irqsave(&env->lock, flags);
		cenv_closing = true;
		for (i = 0; i < CENV_IDS && !id; i++) {
			id = env->ids[i];
			env->ids[i] = NULL;
		}
		spin_unlock_irqrestore(&env->lock, flags);
		if (!id)
			break;
		ib_destroy_cm_id(id);
	}
}

static void cenv_free(struct cenv *env)
{
	struct cenv_side *s;
	unsigned long flags;
	int i;

	cenv_destroy_ids(env);
	for (i = 1; i >= 0; i--) {
		s = &env->s[i];
		if (s->qp)
			ib_destroy_qp(s->qp);
		if (s->cq)
			ib_free_cq(s->cq);
		if (s->pd && !IS_ERR(s->pd))
			ib_dealloc_pd(s->pd);
		if (s->gid_attr)
			rdma_put_gid_attr(s->gid_attr);
		if (s->td)
			tdev_destroy(s->td);
	}
	WRITE_ONCE(cenv_shared, NULL);
	spin_lock_irqsave(&env->lock, flags);
	cenv_closing = false;
	spin_unlock_irqrestore(&env->lock, flags);
	kvfree(env);
}

static void cenv_free_res(struct kunit_resource *res)
{
	cenv_free(res->data);
}

/**
 * cenv_new - the environment of a case
 * @test: the case; fails if it cannot be made
 * @roce: two RoCE devices on a veth pair, else two InfiniBand devices
 *
 * Return: the environment, freed when the case ends.
 */
struct cenv *cenv_new(struct kunit *test, bool roce)
{
	struct tdev_params p = { .name = "ktcm%d" };
	struct tdev *a = NULL, *b = NULL;
	struct kunit_resource *res;
	struct cenv *env;
	int i;

	if (roce)
		tk_roce_pair(test, "ktcm%d", &a, &b);
	env = kvzalloc(sizeof(*env), GFP_KERNEL);
	if (!env) {
		if (b)
			tdev_destroy(b);
		if (a)
			tdev_destroy(a);
		KUNIT_ASSERT_FAILURE(test, "no memory");
	}
	env->test = test;
	env->roce = roce;
	spin_lock_init(&env->lock);
	env->s[0].td = a;
	env->s[1].td = b;
	for (i = 0; i < 2; i++) {
		env->s[i].rec.env = env;
		env->s[i].rec.side = i;
		spin_lock_init(&env->s[i].rec.lock);
		init_waitqueue_head(&env->s[i].rec.wq);
	}
	res = kunit_alloc_resource(test, NULL, cenv_free_res, GFP_KERNEL, env);
	if (!res) {
		cenv_free(env);
		KUNIT_ASSERT_FAILURE(test, "no memory");
	}
	if (!roce) {
		env->s[0].td = tk_dev(test, &p);
		env->s[1].td = tk_dev(test, &p);
	}
	cenv_side_init(env, 0);
	cenv_side_init(env, 1);
	return env;
}

/**
 * cenv_link_desc - the name of a link-layer parameter
 * @roce: the parameter
 * @desc: its name, out
 */
void cenv_link_desc(const bool *roce, char *desc)
{
	strscpy(desc, *roce ? "roce" : "ib", KUNIT_PARAM_DESC_SIZE);
}

/**
 * cenv_cm_counter - one of ib_cm's message counters, read from sysfs
 * @env: the environment
 * @side: whose device (port 1)
 * @group: "cm_tx_msgs", "cm_tx_retries", "cm_rx_msgs" or "cm_rx_duplicates"
 * @msg: "req", "mra", ... "apr"
 *
 * Return: its value, or -1 when it cannot be read.
 */
long cenv_cm_counter(struct cenv *env, int side, const char *group,
		     const char *msg)
{
	char path[128], buf[32];
	long val;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/%s/%s",
		 dev_name(&env->s[side].dev->dev), group, msg);
	memset(buf, 0, sizeof(buf));
	if (tk_file_read(path, buf, sizeof(buf) - 1) ||
	    kstrtol(strim(buf), 10, &val))
		return -1;
	return val;
}
