// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cm_conn: connections between two test devices,
 * over InfiniBand and RoCE.  REQ, REP and RTU with private data both
 * ways and the fields of their events; ib_cm_init_qp_attr() taking both
 * QPs through INIT, RTR and RTS with what the messages said; the calls
 * each state refuses; ib_cm_notify() (COMM_EST before the RTU);
 * disconnection by either side (DREQ, DREP, time wait and its end); a
 * DREQ and a REP nobody answers; an alternate path, and one the passive
 * side cannot take.
 */
#include <kunit/test.h>
#include "cenv.h"

#define CT_SID		cpu_to_be64(0x0000000000cd0001ULL)
#define CT_REQ_PSN	0x123456
#define CT_REP_PSN	0x654321

static const bool ct_links[] = { false, true };
KUNIT_ARRAY_PARAM(ct_link, ct_links, cenv_link_desc);

/* The passive side's view of the REQ */
static void ct_check_req(struct kunit *test, struct cenv *env,
			 struct cenv_event *e, struct ib_cm_id *listen,
			 struct ib_cm_req_param *req)
{
	const struct ib_cm_req_event_param *p = &e->ev.param.req_rcvd;
	struct sa_path_rec *path = &e->path;

	KUNIT_EXPECT_EQ(test, e->state, IB_CM_REQ_RCVD);
	KUNIT_EXPECT_PTR_NE(test, e->id, listen);
	KUNIT_EXPECT_PTR_EQ(test, p->listen_id, listen);
	KUNIT_EXPECT_PTR_EQ(test, e->id->context, listen->context);
	KUNIT_EXPECT_EQ(test, e->id->service_id, CT_SID);
	KUNIT_EXPECT_PTR_EQ(test, e->id->device, env->s[1].dev);
	KUNIT_EXPECT_EQ(test, p->port, 1);
	KUNIT_EXPECT_EQ(test, p->bth_pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, p->remote_ca_guid, env->s[0].dev->node_guid);
	KUNIT_EXPECT_EQ(test, p->remote_qpn, env->s[0].qp->qp_num);
	KUNIT_EXPECT_EQ(test, p->qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, p->starting_psn, CT_REQ_PSN);
	/* The sender's resources are the receiver's depth and back */
	KUNIT_EXPECT_EQ(test, p->responder_resources, req->initiator_depth);
	KUNIT_EXPECT_EQ(test, p->initiator_depth, req->responder_resources);
	KUNIT_EXPECT_EQ(test, (int)p->local_cm_response_timeout,
			req->remote_cm_response_timeout);
	KUNIT_EXPECT_EQ(test, (int)p->remote_cm_response_timeout,
			req->local_cm_response_timeout);
	KUNIT_EXPECT_EQ(test, (int)p->flow_control, 1);
	KUNIT_EXPECT_EQ(test, (int)p->retry_count, req->retry_count);
	KUNIT_EXPECT_EQ(test, (int)p->rnr_retry_count, req->rnr_retry_count);
	KUNIT_EXPECT_EQ(test, (int)p->srq, 0);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata, req->private_data_len,
					    0x11));
	/* The path seen from the passive side: its own GID is the source */
	KUNIT_ASSERT_PTR_EQ(test, p->primary_path, &e->path);
	KUNIT_EXPECT_NULL(test, p->alternate_path);
	KUNIT_EXPECT_EQ(test, memcmp(&path->sgid, &env->s[1].gid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&path->dgid, &env->s[0].gid, 16), 0);
	KUNIT_EXPECT_EQ(test, path->pkey, cpu_to_be16(0xffff));
	KUNIT_EXPECT_EQ(test, path->mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, path->rate, IB_RATE_10_GBPS);
	KUNIT_EXPECT_EQ(test, path->packet_life_time, CENV_LIFE_TIME);
	KUNIT_EXPECT_EQ(test, path->service_id, CT_SID);
	if (env->roce) {
		KUNIT_EXPECT_EQ(test, path->rec_type, SA_PATH_REC_TYPE_ROCE_V2);
		KUNIT_EXPECT_TRUE(test, e->has_sgid_attr);
		KUNIT_EXPECT_EQ(test, memcmp(&e->sgid, &env->s[1].gid, 16), 0);
	} else {
		KUNIT_EXPECT_EQ(test, path->rec_type, SA_PATH_REC_TYPE_IB);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(path)),
				(u32)env->s[0].lid);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(path)),
				(u32)env->s[1].lid);
	}
}

/* The active side's view of the REP */
static void ct_check_rep(struct kunit *test, struct cenv *env,
			 struct cenv_event *e, struct ib_cm_rep_param *rep)
{
	const struct ib_cm_rep_event_param *p = &e->ev.param.rep_rcvd;

	KUNIT_EXPECT_EQ(test, e->state, IB_CM_REP_RCVD);
	KUNIT_EXPECT_EQ(test, p->remote_ca_guid, env->s[1].dev->node_guid);
	KUNIT_EXPECT_EQ(test, p->remote_qpn, env->s[1].qp->qp_num);
	KUNIT_EXPECT_EQ(test, p->starting_psn, CT_REP_PSN);
	KUNIT_EXPECT_EQ(test, p->responder_resources, rep->initiator_depth);
	KUNIT_EXPECT_EQ(test, p->initiator_depth, rep->responder_resources);
	KUNIT_EXPECT_EQ(test, (int)p->rnr_retry_count, rep->rnr_retry_count);
	KUNIT_EXPECT_EQ(test, (int)p->flow_control, 1);
	KUNIT_EXPECT_EQ(test, (int)p->srq, 0);
	KUNIT_EXPECT_EQ(test, (int)p->failover_accepted, 0);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata, rep->private_data_len,
					    0x22));
}

/* The address vector of an RTR: to the peer's LID, or GID and MAC */
static void ct_check_av(struct kunit *test, struct cenv *env, int side,
			struct ib_qp_attr *attr)
{
	struct cenv_side *peer = &env->s[!side];
	const struct ib_global_route *grh;

	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&attr->ah_attr), 1U);
	if (env->roce) {
		KUNIT_EXPECT_EQ(test, attr->ah_attr.type,
				RDMA_AH_ATTR_TYPE_ROCE);
		KUNIT_ASSERT_TRUE(test, rdma_ah_get_ah_flags(&attr->ah_attr) &
					IB_AH_GRH);
		grh = rdma_ah_read_grh(&attr->ah_attr);
		KUNIT_EXPECT_EQ(test, memcmp(&grh->dgid, &peer->gid, 16), 0);
		KUNIT_EXPECT_EQ(test, memcmp(attr->ah_attr.roce.dmac,
					     peer->td->ndev->dev_addr,
					     ETH_ALEN), 0);
	} else {
		KUNIT_EXPECT_EQ(test, attr->ah_attr.type, RDMA_AH_ATTR_TYPE_IB);
		KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr->ah_attr),
				(u32)peer->lid);
	}
}

static const int ct_rtr_mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			       IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			       IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
static const int ct_rts_mask = IB_QP_STATE | IB_QP_SQ_PSN | IB_QP_TIMEOUT |
			       IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			       IB_QP_MAX_QP_RD_ATOMIC;
static const int ct_init_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS |
				IB_QP_PKEY_INDEX | IB_QP_PORT;

/* The passive side: INIT before the REP, RTR and RTS after it */
static void ct_passive_qp(struct kunit *test, struct cenv *env,
			  struct ib_cm_id *id, struct ib_cm_req_param *req,
			  struct ib_cm_rep_param *rep)
{
	struct ib_qp_attr attr;
	int mask;

	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(id, rep), 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_REP_SENT);
	/* One REP per REQ */
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(id, rep), -EINVAL);

	cenv_qp_step(env, 1, id, IB_QPS_RTR, &attr, &mask);
	KUNIT_EXPECT_EQ(test, mask & ct_rtr_mask, ct_rtr_mask);
	KUNIT_EXPECT_EQ(test, attr.dest_qp_num, env->s[0].qp->qp_num);
	KUNIT_EXPECT_EQ(test, attr.rq_psn, CT_REP_PSN);
	KUNIT_EXPECT_EQ(test, attr.path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, attr.max_dest_rd_atomic, rep->responder_resources);
	ct_check_av(test, env, 1, &attr);

	cenv_qp_step(env, 1, id, IB_QPS_RTS, &attr, &mask);
	KUNIT_EXPECT_EQ(test, mask & ct_rts_mask, ct_rts_mask);
	KUNIT_EXPECT_EQ(test, attr.sq_psn, CT_REQ_PSN);
	KUNIT_EXPECT_EQ(test, attr.retry_cnt, req->retry_count);
	KUNIT_EXPECT_EQ(test, attr.rnr_retry, req->rnr_retry_count);
	KUNIT_EXPECT_EQ(test, attr.max_rd_atomic, rep->initiator_depth);
	KUNIT_EXPECT_NE(test, attr.timeout, 0);
	KUNIT_EXPECT_EQ(test, cenv_qp_state(env, 1), IB_QPS_RTS);
}

/* The active side: RTR and RTS once the REP is in */
static void ct_active_qp(struct kunit *test, struct cenv *env,
			 struct ib_cm_id *id, struct ib_cm_req_param *req,
			 struct ib_cm_rep_param *rep)
{
	struct ib_qp_attr attr;
	int mask;

	cenv_qp_step(env, 0, id, IB_QPS_RTR, &attr, &mask);
	KUNIT_EXPECT_EQ(test, mask & ct_rtr_mask, ct_rtr_mask);
	KUNIT_EXPECT_EQ(test, attr.dest_qp_num, env->s[1].qp->qp_num);
	KUNIT_EXPECT_EQ(test, attr.rq_psn, CT_REQ_PSN);
	KUNIT_EXPECT_EQ(test, attr.path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, attr.max_dest_rd_atomic, rep->initiator_depth);
	ct_check_av(test, env, 0, &attr);

	cenv_qp_step(env, 0, id, IB_QPS_RTS, &attr, &mask);
	KUNIT_EXPECT_EQ(test, mask & ct_rts_mask, ct_rts_mask);
	KUNIT_EXPECT_EQ(test, attr.sq_psn, CT_REP_PSN);
	KUNIT_EXPECT_EQ(test, attr.retry_cnt, req->retry_count);
	KUNIT_EXPECT_EQ(test, attr.rnr_retry, rep->rnr_retry_count);
	KUNIT_EXPECT_EQ(test, attr.max_rd_atomic, rep->responder_resources);
	KUNIT_EXPECT_NE(test, attr.timeout, 0);
	KUNIT_EXPECT_EQ(test, cenv_qp_state(env, 0), IB_QPS_RTS);
}

/* INIT attributes: the port, P_Key index and remote access */
static void ct_check_init(struct kunit *test, struct ib_qp_attr *attr,
			  int mask)
{
	int rd = IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC;

	KUNIT_EXPECT_EQ(test, mask & ct_init_mask, ct_init_mask);
	KUNIT_EXPECT_EQ(test, attr->port_num, 1);
	KUNIT_EXPECT_EQ(test, attr->pkey_index, 0);
	KUNIT_EXPECT_TRUE(test, attr->qp_access_flags & IB_ACCESS_REMOTE_WRITE);
	/* Both sides have responder resources: reads and atomics too */
	KUNIT_EXPECT_EQ(test, attr->qp_access_flags & rd, rd);
}

/* The private data of conn_establish(), off the stack (KASAN frames) */
struct ct_data {
	u8 big[IB_CM_RTU_PRIVATE_DATA_SIZE + 1];
	u8 req[IB_CM_REQ_PRIVATE_DATA_SIZE];
	u8 rep[IB_CM_REP_PRIVATE_DATA_SIZE];
	u8 rtu[IB_CM_RTU_PRIVATE_DATA_SIZE];
};

/* REQ -> REP -> RTU, both QPs to RTS, private data both ways */
static void conn_establish(struct kunit *test)
{
	struct cenv *env = cenv_new(test, *(const bool *)test->param_value);
	struct ct_data *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	u8 *big, *req_data, *rep_data, *rtu_data;
	struct ib_cm_id *listen, *a, *b;
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct cenv_event *e;
	struct ib_qp_attr attr;
	int mask;

	KUNIT_ASSERT_NOT_NULL(test, d);
	big = d->big;
	req_data = d->req;
	rep_data = d->rep;
	rtu_data = d->rtu;
	cenv_fill(req_data, IB_CM_REQ_PRIVATE_DATA_SIZE, 0x11);
	cenv_fill(rep_data, IB_CM_REP_PRIVATE_DATA_SIZE, 0x22);
	cenv_fill(rtu_data, IB_CM_RTU_PRIVATE_DATA_SIZE, 0x33);
	listen = cenv_listen(env, 1, CT_SID);
	a = cenv_req_ready(env, CT_SID, &path, &req);
	req.private_data = req_data;
	req.private_data_len = IB_CM_REQ_PRIVATE_DATA_SIZE;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, a->service_id, CT_SID);
	/* One REQ at a time; nothing else of a passive side */
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(a, &req), -EINVAL);
	cenv_rep_param(env, &rep);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(a, &rep), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rtu(a, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(a, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_mra(a, CENV_CM_TIMEOUT, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(a, IB_EVENT_COMM_EST), -EINVAL);
	/* The active QP may go to INIT now, not to RTR */
	cenv_qp_step(env, 0, a, IB_QPS_INIT, &attr, &mask);
	ct_check_init(test, &attr, mask);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(a, &attr, &mask), -EINVAL);

	e = cenv_expect(env, 1, IB_CM_REQ_RECEIVED);
	ct_check_req(test, env, e, listen, &req);
	b = e->id;
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, b->remote_id, a->local_id);
	KUNIT_EXPECT_EQ(test, b->remote_cm_qpn, 1U);
	/* The listener is still a listener, with nothing to reply */
	KUNIT_EXPECT_EQ(test, listen->state, IB_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(listen, &rep), -EINVAL);

	cenv_qp_step(env, 1, b, IB_QPS_INIT, &attr, &mask);
	ct_check_init(test, &attr, mask);
	/* A REP with too much private data: refused, state kept */
	rep.private_data = big;
	rep.private_data_len = IB_CM_REP_PRIVATE_DATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(b, &rep), -EINVAL);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_REQ_RCVD);
	rep.private_data = rep_data;
	rep.private_data_len = IB_CM_REP_PRIVATE_DATA_SIZE;
	ct_passive_qp(test, env, b, &req, &rep);

	e = cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	ct_check_rep(test, env, e, &rep);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_REP_RCVD);
	KUNIT_EXPECT_EQ(test, a->remote_id, b->local_id);
	/* COMM_EST is for the passive side */
	KUNIT_EXPECT_EQ(test, ib_cm_notify(a, IB_EVENT_COMM_EST), -EINVAL);
	ct_active_qp(test, env, a, &req, &rep);

	KUNIT_EXPECT_EQ(test, ib_send_cm_rtu(a, big,
					     IB_CM_RTU_PRIVATE_DATA_SIZE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_REP_RCVD);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(a, rtu_data,
					     IB_CM_RTU_PRIVATE_DATA_SIZE), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rtu(a, NULL, 0), -EINVAL);

	e = cenv_expect(env, 1, IB_CM_RTU_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, b);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata,
					    IB_CM_RTU_PRIVATE_DATA_SIZE, 0x33));
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(b, IB_EVENT_COMM_EST), -EISCONN);
	/* The attributes stay available once established */
	attr.qp_state = IB_QPS_RTS;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(b, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.sq_psn, CT_REQ_PSN);
	KUNIT_EXPECT_EQ(test, cenv_qp_state(env, 0), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, cenv_qp_state(env, 1), IB_QPS_RTS);
	/* Nothing unexpected came */
	KUNIT_EXPECT_EQ(test, env->s[0].rec.n, 1);
	KUNIT_EXPECT_EQ(test, env->s[1].rec.n, 2);
}

/*
 * ib_cm_notify(COMM_EST) on the passive side before the RTU: established
 * at once, USER_ESTABLISHED reported, the late RTU ignored.
 */
static void conn_comm_est(struct kunit *test)
{
	struct cenv *env = cenv_new(test, *(const bool *)test->param_value);
	struct ib_cm_id *a, *b;
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct cenv_event *e;

	cenv_listen(env, 1, CT_SID);
	a = cenv_req_ready(env, CT_SID, &path, &req);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	b = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	/* Not before the REP */
	KUNIT_EXPECT_EQ(test, ib_cm_notify(b, IB_EVENT_COMM_EST), -EINVAL);
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(b, &rep), 0);
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	/* Events other than COMM_EST and PATH_MIG are not the CM's */
	KUNIT_EXPECT_EQ(test, ib_cm_notify(b, IB_EVENT_SQ_DRAINED), -EINVAL);
	/* Only an established connection can migrate */
	KUNIT_EXPECT_EQ(test, ib_cm_notify(b, IB_EVENT_PATH_MIG), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(b, IB_EVENT_COMM_EST), 0);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_ESTABLISHED);
	e = cenv_expect(env, 1, IB_CM_USER_ESTABLISHED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, b);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(b, IB_EVENT_COMM_EST), -EISCONN);

	/* The RTU comes to an established ID; then the active side leaves */
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(a, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_DREQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_RTU_RECEIVED), 0);
}

/*
 * A REQ with an alternate path: the passive side sees it from its end,
 * and its QP gets it with RTR (and is armed for migration with RTS).
 */
static void conn_alternate_path(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	const struct sa_path_rec *p;
	struct sa_path_rec path, alt;
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct ib_qp_attr attr;
	struct cenv_event *e;
	struct ib_cm_id *a, *b;
	int mask;

	cenv_listen(env, 1, CT_SID);
	a = cenv_id(env, 0);
	cenv_path(env, 0, &path);
	alt = path;
	alt.sl = 5;
	alt.flow_label = cpu_to_be32(0x12345);
	alt.traffic_class = 7;
	cenv_req_param(env, 0, &path, CT_SID, &req);
	req.alternate_path = &alt;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	e = cenv_expect(env, 1, IB_CM_REQ_RECEIVED);
	b = e->id;
	p = e->ev.param.req_rcvd.alternate_path;
	KUNIT_ASSERT_PTR_EQ(test, p, (const struct sa_path_rec *)&e->alt);
	KUNIT_EXPECT_EQ(test, p->rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, p->sl, 5);
	KUNIT_EXPECT_EQ(test, p->flow_label, cpu_to_be32(0x12345));
	KUNIT_EXPECT_EQ(test, p->traffic_class, 7);
	KUNIT_EXPECT_EQ(test, memcmp(&p->sgid, &env->s[1].gid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&p->dgid, &env->s[0].gid, 16), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid((struct sa_path_rec *)p)),
			(u32)env->s[0].lid);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid((struct sa_path_rec *)p)),
			(u32)env->s[1].lid);
	KUNIT_EXPECT_EQ(test, p->pkey, path.pkey);
	KUNIT_EXPECT_EQ(test, p->mtu, path.mtu);
	/* The primary path stays the primary */
	KUNIT_EXPECT_EQ(test, e->path.sl, path.sl);

	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(b, &rep), 0);
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(b, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_ALT_PATH);
	KUNIT_EXPECT_EQ(test, attr.alt_port_num, 1);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr.alt_ah_attr), 5);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr.alt_ah_attr),
			(u32)env->s[0].lid);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(b, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_PATH_MIG_STATE);
	KUNIT_EXPECT_EQ(test, attr.path_mig_state, IB_MIG_REARM);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

/*
 * An alternate path to a GID the passive device does not have: the REQ
 * is rejected (INVALID_ALT_GID, the GID as additional information), and
 * the listener's consumer never sees it.
 */
static void conn_alternate_bad_gid(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	const struct ib_cm_rej_event_param *r;
	struct sa_path_rec path, alt;
	struct ib_cm_req_param req;
	struct cenv_event *e;
	struct ib_cm_id *a;

	cenv_listen(env, 1, CT_SID);
	a = cenv_id(env, 0);
	cenv_path(env, 0, &path);
	alt = path;
	alt.dgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	alt.dgid.global.interface_id = cpu_to_be64(0x0badbadbadbadbadULL);
	cenv_req_param(env, 0, &path, CT_SID, &req);
	req.alternate_path = &alt;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	e = cenv_expect(env, 0, IB_CM_REJ_RECEIVED);
	r = &e->ev.param.rej_rcvd;
	KUNIT_EXPECT_EQ(test, r->reason, IB_CM_REJ_INVALID_ALT_GID);
	KUNIT_EXPECT_EQ(test, (int)r->ari_length, 16);
	KUNIT_EXPECT_EQ(test, memcmp(e->info, &alt.dgid, 16), 0);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_REQ_RECEIVED), 0);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

struct ct_dir {
	bool roce;
	int from;	/* the side that disconnects */
	const char *name;
};

static const struct ct_dir ct_dirs[] = {
	{ false, 0, "ib-active" },
	{ false, 1, "ib-passive" },
	{ true, 0, "roce-active" },
	{ true, 1, "roce-passive" },
};

static void ct_dir_desc(const struct ct_dir *d, char *desc)
{
	strscpy(desc, d->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_dir, ct_dirs, ct_dir_desc);

/* DREQ, DREP, time wait, its end, on both sides; from either side */
static void conn_disconnect(struct kunit *test)
{
	const struct ct_dir *d = test->param_value;
	struct cenv *env = cenv_new(test, d->roce);
	u8 dreq[IB_CM_DREQ_PRIVATE_DATA_SIZE + 1];
	u8 drep[IB_CM_DREP_PRIVATE_DATA_SIZE + 1];
	struct ib_cm_id *id[2];
	int to = !d->from;
	struct cenv_event *e;

	cenv_fill(dreq, sizeof(dreq), 0x44);
	cenv_fill(drep, sizeof(drep), 0x55);
	cenv_connect(env, CT_SID, &id[0], &id[1]);
	/* A DREP answers a DREQ only */
	KUNIT_EXPECT_EQ(test, ib_send_cm_drep(id[to], NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(id[d->from], dreq,
					      IB_CM_DREQ_PRIVATE_DATA_SIZE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, id[d->from]->state, IB_CM_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(id[d->from], dreq,
					      IB_CM_DREQ_PRIVATE_DATA_SIZE),
			0);
	KUNIT_EXPECT_EQ(test, id[d->from]->state, IB_CM_DREQ_SENT);
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(id[d->from], NULL, 0), -EINVAL);

	e = cenv_expect(env, to, IB_CM_DREQ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, id[to]);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_DREQ_RCVD);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata,
					    IB_CM_DREQ_PRIVATE_DATA_SIZE,
					    0x44));
	KUNIT_EXPECT_EQ(test, ib_send_cm_drep(id[to], drep,
					      IB_CM_DREP_PRIVATE_DATA_SIZE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, id[to]->state, IB_CM_DREQ_RCVD);
	KUNIT_ASSERT_EQ(test, ib_send_cm_drep(id[to], drep,
					      IB_CM_DREP_PRIVATE_DATA_SIZE),
			0);
	KUNIT_EXPECT_EQ(test, ib_send_cm_drep(id[to], NULL, 0), -EINVAL);

	e = cenv_expect(env, d->from, IB_CM_DREP_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, id[d->from]);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_TIMEWAIT);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata,
					    IB_CM_DREP_PRIVATE_DATA_SIZE,
					    0x55));

	/* Both sides leave time wait on their own, idle again */
	e = cenv_expect(env, to, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_PTR_EQ(test, e->id, id[to]);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	e = cenv_expect(env, d->from, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_PTR_EQ(test, e->id, id[d->from]);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, id[0]->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, id[1]->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_DREQ_ERROR), 0);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_DREQ_ERROR), 0);
}

/* A DREQ nobody answers: DREQ_ERROR, then time wait and its end */
static void conn_dreq_timeout(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	cenv_connect(env, CT_SID, &a, &b);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_DREQ_RECEIVED);
	e = cenv_expect(env, 0, IB_CM_DREQ_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->ev.param.send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_TIMEWAIT);
	e = cenv_expect(env, 0, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
	/* The passive side may still answer, into the void */
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_DREQ_RCVD);
	KUNIT_EXPECT_EQ(test, ib_send_cm_drep(b, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_DREP_RECEIVED), 0);
}

/* A REP nobody answers: REP_ERROR, the passive ID idle again */
static void conn_rep_timeout(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct cenv_event *e;

	cenv_listen(env, 1, CT_SID);
	a = cenv_req_ready(env, CT_SID, &path, &req);
	req.max_cm_retries = 1;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(a, &req), 0);
	b = cenv_expect(env, 1, IB_CM_REQ_RECEIVED)->id;
	cenv_rep_param(env, &rep);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(b, &rep), 0);
	cenv_expect(env, 0, IB_CM_REP_RECEIVED);
	/* No RTU */
	e = cenv_expect(env, 1, IB_CM_REP_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, e->id, b);
	KUNIT_EXPECT_EQ(test, e->ev.param.send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(b, &rep), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_REP_RCVD);
}

static struct kunit_case conn_cases[] = {
	KUNIT_CASE_PARAM(conn_establish, ct_link_gen_params),
	KUNIT_CASE_PARAM(conn_comm_est, ct_link_gen_params),
	KUNIT_CASE_PARAM(conn_disconnect, ct_dir_gen_params),
	KUNIT_CASE(conn_dreq_timeout),
	KUNIT_CASE(conn_rep_timeout),
	KUNIT_CASE(conn_alternate_path),
	KUNIT_CASE(conn_alternate_bad_gid),
	{}
};

static struct kunit_suite conn_suite = {
	.name = "rdma_core_cm_conn",
	.test_cases = conn_cases,
};

kunit_test_suite(conn_suite);
