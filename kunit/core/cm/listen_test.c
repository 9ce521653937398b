// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cm_listen: what needs no peer.  The listen rules
 * of ib_cm_listen() and ib_cm_insert_listen() (service IDs per device,
 * a second listener of an ID refused, the IDs the CM assigns and the
 * service IDs of that range a caller may not choose, shared listeners
 * of ib_cm_insert_listen()), ibcm_reject_msg(), and the calls an ID that
 * is idle or listening must refuse.
 */
#include <kunit/test.h>
#include "cenv.h"

#define LT_SID		cpu_to_be64(0x0000000000ab1000ULL)
#define LT_SID2		cpu_to_be64(0x0000000000ab2000ULL)
/* In the CM-assigned range (first byte 0x02), not the assign request */
#define LT_SID_BAD	cpu_to_be64(0x02000000000000abULL)

/* A handler of its own, to tell handlers apart in shared listeners */
static int lt_other_handler(struct ib_cm_id *id,
			    const struct ib_cm_event *event)
{
	return 0;
}

/* ib_cm_listen(): one listener per service ID and device */
static void listen_service_ids(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b, *c, *d;

	a = cenv_id(env, 1);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
	KUNIT_EXPECT_PTR_EQ(test, a->device, env->s[1].dev);
	KUNIT_EXPECT_PTR_EQ(test, a->context, (void *)&env->s[1].rec);
	KUNIT_EXPECT_EQ(test, a->remote_cm_qpn, 1U);
	KUNIT_ASSERT_EQ(test, ib_cm_listen(a, LT_SID), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, a->service_id, LT_SID);
	/* A listening ID cannot listen again */
	KUNIT_EXPECT_EQ(test, ib_cm_listen(a, LT_SID2), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->service_id, LT_SID);

	/* The same ID on the same device: busy; on the other device: fine */
	b = cenv_id(env, 1);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(b, LT_SID), -EBUSY);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_IDLE);
	c = cenv_id(env, 0);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(c, LT_SID), 0);
	/* Another ID on the same device: fine */
	KUNIT_EXPECT_EQ(test, ib_cm_listen(b, LT_SID2), 0);

	/* The ID is free again once its listener is destroyed */
	cenv_destroy(env, a);
	d = cenv_id(env, 1);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(d, LT_SID), 0);
	KUNIT_EXPECT_EQ(test, d->state, IB_CM_LISTEN);
}

/* The CM-assigned range: only the assign request itself is accepted */
static void listen_assigned_ids(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a = cenv_id(env, 1), *b = cenv_id(env, 1);
	struct ib_cm_id *c = cenv_id(env, 1);
	__be64 sid;

	KUNIT_EXPECT_EQ(test, ib_cm_listen(c, LT_SID_BAD), -EINVAL);
	KUNIT_EXPECT_EQ(test, c->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(c, cpu_to_be64(0x02ff000000000000ULL)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, c->state, IB_CM_IDLE);

	KUNIT_ASSERT_EQ(test, ib_cm_listen(a, IB_CM_ASSIGN_SERVICE_ID), 0);
	KUNIT_ASSERT_EQ(test, ib_cm_listen(b, IB_CM_ASSIGN_SERVICE_ID), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, b->state, IB_CM_LISTEN);
	KUNIT_EXPECT_NE(test, a->service_id, b->service_id);
	/*
	 * Assigned IDs are in the assigned range (the target hands out the
	 * range's first value, the assign request's own, first).
	 */
	KUNIT_EXPECT_EQ(test, a->service_id & IB_SERVICE_ID_AGN_MASK,
			IB_CM_ASSIGN_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, b->service_id & IB_SERVICE_ID_AGN_MASK,
			IB_CM_ASSIGN_SERVICE_ID);
	/* ... and a caller cannot choose one of the range by hand */
	sid = b->service_id == IB_CM_ASSIGN_SERVICE_ID ? a->service_id :
							 b->service_id;
	KUNIT_EXPECT_EQ(test, ib_cm_listen(c, sid), -EINVAL);
}

/* ib_cm_insert_listen(): shared by callers with the same handler */
static void insert_listen_shared(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_device *dev = env->s[1].dev;
	struct ib_cm_id *l1, *l2, *bad, *x, *y;

	cenv_set_shared(&env->s[1].rec);
	l1 = ib_cm_insert_listen(dev, cenv_handler, LT_SID);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l1));
	cenv_track(env, l1);
	KUNIT_EXPECT_EQ(test, l1->state, IB_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, l1->service_id, LT_SID);
	KUNIT_EXPECT_PTR_EQ(test, l1->device, dev);
	KUNIT_EXPECT_NULL(test, l1->context);

	/* Same handler: the same ID, one more user */
	l2 = ib_cm_insert_listen(dev, cenv_handler, LT_SID);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l2));
	KUNIT_EXPECT_PTR_EQ(test, l2, l1);
	/* Another handler: refused */
	bad = ib_cm_insert_listen(dev, lt_other_handler, LT_SID);
	KUNIT_EXPECT_TRUE(test, IS_ERR(bad));
	KUNIT_EXPECT_EQ(test, PTR_ERR(bad), -EINVAL);
	/* Another device, another handler: a listener of its own */
	y = ib_cm_insert_listen(env->s[0].dev, lt_other_handler, LT_SID);
	KUNIT_ASSERT_FALSE(test, IS_ERR(y));
	cenv_track(env, y);
	KUNIT_EXPECT_PTR_NE(test, y, l1);
	/* The ID is taken for ib_cm_listen() */
	x = cenv_id(env, 1);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(x, LT_SID), -EBUSY);

	/* The first destroy drops one user: still listening */
	ib_destroy_cm_id(l2);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(x, LT_SID), -EBUSY);
	/* The second ends it */
	cenv_destroy(env, l1);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(x, LT_SID), 0);

	/* A listener with a context of its own is never shared */
	bad = ib_cm_insert_listen(dev, cenv_handler, LT_SID);
	KUNIT_EXPECT_TRUE(test, IS_ERR(bad));
	KUNIT_EXPECT_EQ(test, PTR_ERR(bad), -EINVAL);
	/* Bad service IDs as for ib_cm_listen() */
	bad = ib_cm_insert_listen(dev, cenv_handler, LT_SID_BAD);
	KUNIT_EXPECT_TRUE(test, IS_ERR(bad));
	KUNIT_EXPECT_EQ(test, PTR_ERR(bad), -EINVAL);
	/* The assign request gets an ID of the assigned range */
	l1 = ib_cm_insert_listen(dev, cenv_handler, IB_CM_ASSIGN_SERVICE_ID);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l1));
	cenv_track(env, l1);
	KUNIT_EXPECT_EQ(test, l1->state, IB_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, l1->service_id & IB_SERVICE_ID_AGN_MASK,
			IB_CM_ASSIGN_SERVICE_ID);
}

/* ibcm_reject_msg(): the reasons' names, and the rest unrecognized */
static void reject_msg_strings(struct kunit *test)
{
	static const struct {
		int reason;
		const char *text;
	} known[] = {
		{ IB_CM_REJ_NO_QP, "no QP" },
		{ IB_CM_REJ_TIMEOUT, "timeout" },
		{ IB_CM_REJ_INVALID_SERVICE_ID, "invalid service ID" },
		{ IB_CM_REJ_STALE_CONN, "stale conn" },
		{ IB_CM_REJ_INVALID_GID, "invalid GID" },
		{ IB_CM_REJ_PORT_CM_REDIRECT, "port CM redirect" },
		{ IB_CM_REJ_CONSUMER_DEFINED, "consumer defined" },
		{ IB_CM_REJ_INVALID_ALT_FLOW_LABEL, "invalid alt flow label" },
		{ IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED,
		  "vendor option is not supported" },
	};
	static const int unknown[] = { 0, 34, 36, 255, -1, 100000 };
	const char *none = "unrecognized reason";
	int i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(known[i].reason),
				   known[i].text);
	for (i = 0; i < ARRAY_SIZE(unknown); i++)
		KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(unknown[i]), none);
	/* Every reason <rdma/ib_cm.h> names has a name */
	for (i = IB_CM_REJ_NO_QP; i <= IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED;
	     i++) {
		if (i == 34)
			continue;
		KUNIT_EXPECT_STRNEQ_MSG(test, ibcm_reject_msg(i), none,
					"reason %d", i);
	}
}

/* What an ID must refuse while idle or listening */
static void lt_refuse_sends(struct kunit *test, struct ib_cm_id *id)
{
	struct ib_cm_sidr_rep_param sidr = { .status = IB_SIDR_SUCCESS };
	struct ib_cm_rep_param rep = { .qp_num = 0x77 };
	struct ib_qp_attr attr = {};
	int mask = 0;

	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(id, &rep), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rtu(id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_drep(id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rej(id, IB_CM_REJ_CONSUMER_DEFINED,
					     NULL, 0, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_mra(id, CENV_CM_TIMEOUT, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_rep(id, &sidr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(id, IB_EVENT_COMM_EST), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(id, IB_EVENT_PATH_MIG), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(id, IB_EVENT_QP_FATAL), -EINVAL);
	attr.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(id, &attr, &mask), -EINVAL);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(id, &attr, &mask), -EINVAL);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(id, &attr, &mask), -EINVAL);
	attr.qp_state = IB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(id, &attr, &mask), -EINVAL);
}

static void idle_and_listen_refuse(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *idle = cenv_id(env, 0);
	struct ib_cm_id *listen = cenv_listen(env, 0, LT_SID);
	struct ib_cm_sidr_req_param sidr = {};
	struct ib_cm_req_param req;
	struct sa_path_rec path;

	lt_refuse_sends(test, idle);
	KUNIT_EXPECT_EQ(test, idle->state, IB_CM_IDLE);
	lt_refuse_sends(test, listen);
	KUNIT_EXPECT_EQ(test, listen->state, IB_CM_LISTEN);

	/* A listener cannot connect or resolve */
	cenv_path(env, 0, &path);
	cenv_req_param(env, 0, &path, LT_SID2, &req);
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(listen, &req), -EINVAL);
	sidr.path = &path;
	sidr.service_id = LT_SID2;
	sidr.timeout_ms = 1000;
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_req(listen, &sidr), -EINVAL);
	KUNIT_EXPECT_EQ(test, listen->state, IB_CM_LISTEN);
}

/* Bad REQ and SIDR REQ parameters leave the ID idle */
static void req_bad_params(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *id = cenv_id(env, 0), *other;
	struct ib_cm_sidr_req_param sidr = {};
	u8 data[IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE + 1] = {};
	struct sa_path_rec path, alt;
	struct ib_cm_req_param req;

	cenv_path(env, 0, &path);
	cenv_req_param(env, 0, &path, LT_SID, &req);
	req.primary_path = NULL;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(id, &req), -EINVAL);

	cenv_req_param(env, 0, &path, LT_SID, &req);
	req.qp_type = IB_QPT_UD;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(id, &req), -EINVAL);

	cenv_req_param(env, 0, &path, LT_SID, &req);
	req.private_data = data;
	req.private_data_len = IB_CM_REQ_PRIVATE_DATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(id, &req), -EINVAL);

	/* An alternate path must have the primary's P_Key and MTU */
	cenv_req_param(env, 0, &path, LT_SID, &req);
	alt = path;
	alt.pkey = cpu_to_be16(0x8001);
	req.alternate_path = &alt;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(id, &req), -EINVAL);
	alt = path;
	alt.mtu = IB_MTU_4096;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(id, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_IDLE);

	sidr.path = NULL;
	sidr.service_id = LT_SID;
	sidr.timeout_ms = 1000;
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_req(id, &sidr), -EINVAL);
	sidr.path = &path;
	sidr.private_data = data;
	sidr.private_data_len = IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_req(id, &sidr), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_IDLE);

	/*
	 * A path from a GID no device has, or with a P_Key the port lacks:
	 * on IDs of their own (the target keeps what such a REQ made on the
	 * ID and refuses a later REQ on it).
	 */
	other = cenv_id(env, 0);
	cenv_req_param(env, 0, &path, LT_SID, &req);
	path.sgid.raw[15] ^= 0x5a;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(other, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, other->state, IB_CM_IDLE);
	other = cenv_id(env, 0);
	cenv_path(env, 0, &path);
	path.pkey = cpu_to_be16(0x8123);
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(other, &req), -ENOENT);
	KUNIT_EXPECT_EQ(test, other->state, IB_CM_IDLE);
}

static struct kunit_case listen_cases[] = {
	KUNIT_CASE(listen_service_ids),
	KUNIT_CASE(listen_assigned_ids),
	KUNIT_CASE(insert_listen_shared),
	KUNIT_CASE(reject_msg_strings),
	KUNIT_CASE(idle_and_listen_refuse),
	KUNIT_CASE(req_bad_params),
	{}
};

static struct kunit_suite listen_suite = {
	.name = "rdma_core_cm_listen",
	.test_cases = listen_cases,
};

kunit_test_suite(listen_suite);
