// SPDX-License-Identifier: GPL-2.0
/*
 * Suite "rdma_cm_id" (core/cma/id.c, strings.c): IDs made and destroyed,
 * the handler lock, the options and their errnos, resource tracking, the
 * event and reject texts.  No device and no connection manager needed.
 */
#include <kunit/test.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/iw_cm.h>
#include <rdma/restrack.h>
#include "tk.h"
#include "cenv.h"

static void event_msg_names(struct kunit *test)
{
	static const struct {
		enum rdma_cm_event_type type;
		const char *text;
	} names[] = {
		{ RDMA_CM_EVENT_ADDR_RESOLVED, "address resolved" },
		{ RDMA_CM_EVENT_ADDR_ERROR, "address error" },
		{ RDMA_CM_EVENT_ROUTE_RESOLVED, "route resolved " },
		{ RDMA_CM_EVENT_ROUTE_ERROR, "route error" },
		{ RDMA_CM_EVENT_CONNECT_REQUEST, "connect request" },
		{ RDMA_CM_EVENT_CONNECT_RESPONSE, "connect response" },
		{ RDMA_CM_EVENT_CONNECT_ERROR, "connect error" },
		{ RDMA_CM_EVENT_UNREACHABLE, "unreachable" },
		{ RDMA_CM_EVENT_REJECTED, "rejected" },
		{ RDMA_CM_EVENT_ESTABLISHED, "established" },
		{ RDMA_CM_EVENT_DISCONNECTED, "disconnected" },
		{ RDMA_CM_EVENT_DEVICE_REMOVAL, "device removal" },
		{ RDMA_CM_EVENT_MULTICAST_JOIN, "multicast join" },
		{ RDMA_CM_EVENT_MULTICAST_ERROR, "multicast error" },
		{ RDMA_CM_EVENT_ADDR_CHANGE, "address change" },
		{ RDMA_CM_EVENT_TIMEWAIT_EXIT, "timewait exit" },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		KUNIT_EXPECT_STREQ(test, rdma_event_msg(names[i].type),
				   names[i].text);
	/* bad input: beyond the last type, and negative */
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(RDMA_CM_EVENT_TIMEWAIT_EXIT + 1),
			   "unrecognized event");
	KUNIT_EXPECT_STREQ(test, rdma_event_msg((enum rdma_cm_event_type)-1),
			   "unrecognized event");
}

static void reject_msg_without_device(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *id = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					IB_QPT_RC);
	struct rdma_cm_event ev = {
		.event = RDMA_CM_EVENT_REJECTED,
		.status = IB_CM_REJ_CONSUMER_DEFINED,
		.param.conn.private_data = "x",
		.param.conn.private_data_len = 1,
	};
	u8 len = 99;

	/* no port, so no transport: no oops, no text of a transport */
	KUNIT_EXPECT_STREQ(test, rdma_reject_msg(id, IB_CM_REJ_CONSUMER_DEFINED),
			   "unrecognized transport");
	KUNIT_EXPECT_NULL(test, rdma_consumer_reject_data(id, &ev, &len));
	KUNIT_EXPECT_EQ(test, len, 0);
	KUNIT_EXPECT_NULL(test, rdma_iw_cm_id(id));
}

static void create_destroy(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *id;

	id = cenv_id(test, c, &init_net, RDMA_PS_UDP, IB_QPT_UD);
	KUNIT_EXPECT_PTR_EQ(test, id->context, (void *)&c->rec);
	KUNIT_EXPECT_EQ(test, id->ps, RDMA_PS_UDP);
	KUNIT_EXPECT_EQ(test, id->qp_type, IB_QPT_UD);
	KUNIT_EXPECT_NULL(test, id->device);
	KUNIT_EXPECT_NULL(test, id->qp);
	KUNIT_EXPECT_PTR_EQ(test, id->route.addr.dev_addr.net, &init_net);
	cenv_destroy(c, id);
	/* a user ID: the caller's namespace */
	id = rdma_create_user_id(NULL, NULL, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_FALSE(test, IS_ERR(id));
	KUNIT_EXPECT_PTR_EQ(test, id->route.addr.dev_addr.net,
			    current->nsproxy->net_ns);
	rdma_destroy_id(id);
}

struct lock_step {
	struct rdma_cm_id *id;
	bool done;
};

static void lock_step_fn(void *arg)
{
	struct lock_step *s = arg;

	rdma_lock_handler(s->id);
	WRITE_ONCE(s->done, true);
	rdma_unlock_handler(s->id);
}

static void handler_lock_excludes(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct lock_step s = {
		.id = cenv_id(test, c, &init_net, RDMA_PS_TCP, IB_QPT_RC),
	};
	struct tk_thread t;

	rdma_lock_handler(s.id);
	tk_start(test, &t, lock_step_fn, &s);
	KUNIT_EXPECT_FALSE(test, tk_join_timeout(&t, 200));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(s.done));
	rdma_unlock_handler(s.id);
	tk_join(&t);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(s.done));
}

static void ack_timeout_by_qp_type(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);

	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(cenv_id(test, c, &init_net,
				RDMA_PS_TCP, IB_QPT_RC), 14), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(cenv_id(test, c, &init_net,
				RDMA_PS_TCP, IB_QPT_XRC_INI), 14), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(cenv_id(test, c, &init_net,
				RDMA_PS_UDP, IB_QPT_UD), 14), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(cenv_id(test, c, &init_net,
				RDMA_PS_TCP, IB_QPT_XRC_TGT), 14), -EINVAL);
}

static void min_rnr_timer_rules(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *rc = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					IB_QPT_RC);

	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(rc, 12), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(rc, 31), 0);
	/* five bits */
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(rc, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(rc, 0xff), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(cenv_id(test, c, &init_net,
				RDMA_PS_TCP, IB_QPT_XRC_TGT), 3), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(cenv_id(test, c, &init_net,
				RDMA_PS_UDP, IB_QPT_UD), 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(cenv_id(test, c, &init_net,
				RDMA_PS_TCP, IB_QPT_XRC_INI), 3), -EINVAL);
}

static void calls_before_any_address(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *id = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					IB_QPT_RC);
	struct rdma_conn_param param = {};
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	int mask = 0;

	/* each needs a state, a device or a connection the ID lacks */
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 1000), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_connect(id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_disconnect(id), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_reject(id, NULL, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_notify(id, IB_EVENT_COMM_EST), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_init_qp_attr(id, &attr, &mask), -EINVAL);
	rdma_lock_handler(id);
	KUNIT_EXPECT_EQ(test, rdma_accept(id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_connect_locked(id, &param), -EINVAL);
	rdma_unlock_handler(id);
	KUNIT_EXPECT_EQ(test, rdma_set_ib_path(id, NULL), -EINVAL);
	/* the state did not move */
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 1000), -EINVAL);
}

static struct kunit_case cma_id_cases[] = {
	KUNIT_CASE(event_msg_names),
	KUNIT_CASE(reject_msg_without_device),
	KUNIT_CASE(create_destroy),
	KUNIT_CASE(handler_lock_excludes),
	KUNIT_CASE(ack_timeout_by_qp_type),
	KUNIT_CASE(min_rnr_timer_rules),
	KUNIT_CASE(calls_before_any_address),
	{}
};

static struct kunit_suite cma_id_suite = {
	.name = "rdma_cm_id",
	.test_cases = cma_id_cases,
};

kunit_test_suites(&cma_id_suite);
