// SPDX-License-Identifier: GPL-2.0
/*
 * Suite "rdma_cm_conn" (core/cma/addr.c, route.c, listen.c, ib.c,
 * conn.c, qp.c, mcast.c, main.c): two RoCE test devices on the ends of a
 * veth pair (cenv.h), the active side in init_net (10.74.0.1), the
 * passive side in the namespace ktcma (10.74.0.2), connected through
 * ib_cm: address and route resolution, listening, connect, accept,
 * reject, disconnect, a REQ that never leaves (unreachable), UD (SIDR),
 * multicast, device removal, and the errnos of calls made in the wrong
 * state.
 */
#include <kunit/test.h>
#include <linux/debug_locks.h>
#include <linux/etherdevice.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/ib_cache.h>
#include <rdma/restrack.h>
#include "tdev.h"
#include "tk.h"
#include "tnet.h"
#include "cenv.h"

#define PORT	20049

static const char hello[] = "hello from the active side";
static const char answer[] = "accepted";
static const char refusal[] = "not today";

/* An ID of the active side, its address resolved (bound to 10.74.0.1) */
static struct rdma_cm_id *resolved(struct kunit *test, struct cenv_case *c,
				   enum rdma_ucm_port_space ps,
				   enum ib_qp_type qp_type, u16 port)
{
	struct rdma_cm_id *id = cenv_id(test, c, &init_net, ps, qp_type);
	union cenv_sa src, dst;

	cenv_sa(test, &src, "10.74.0.1", 0);
	cenv_sa(test, &dst, "10.74.0.2", port);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(id, &src.sa, &dst.sa, 5000), 0);
	KUNIT_ASSERT_EQ(test, cenv_wait(test, &c->rec, id,
					RDMA_CM_EVENT_ADDR_RESOLVED)->event.status,
			0);
	return id;
}

/* ... and its route resolved */
static struct rdma_cm_id *routed(struct kunit *test, struct cenv_case *c,
				 enum rdma_ucm_port_space ps,
				 enum ib_qp_type qp_type, u16 port)
{
	struct rdma_cm_id *id = resolved(test, c, ps, qp_type, port);

	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 5000), 0);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ROUTE_RESOLVED);
	return id;
}

/* A listener of the passive side, in ktcma, on @addr:PORT */
static struct rdma_cm_id *listener(struct kunit *test, struct cenv_case *c,
				   enum rdma_ucm_port_space ps,
				   enum ib_qp_type qp_type, const char *addr)
{
	struct rdma_cm_id *id = cenv_id(test, c, cenv.ns, ps, qp_type);
	union cenv_sa sa;

	cenv_sa(test, &sa, addr, PORT);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(id, &sa.sa), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(id, 8), 0);
	return id;
}

static void connect_with(struct kunit *test, struct rdma_cm_id *id,
			 const void *data, u8 len)
{
	struct rdma_conn_param param = {
		.private_data = data,
		.private_data_len = len,
		.responder_resources = 1,
		.initiator_depth = 1,
		.retry_count = 7,
		.rnr_retry_count = 7,
	};

	KUNIT_ASSERT_EQ(test, rdma_connect(id, &param), 0);
}

static enum ib_qp_state qp_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	if (ib_query_qp(qp, &attr, IB_QP_STATE, &init))
		return -1;
	return attr.qp_state;
}

static void resolve_addr_and_route(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = resolved(test, c, RDMA_PS_TCP, IB_QPT_RC,
					 PORT);
	struct sa_path_rec *rec;
	union ib_gid sgid, dgid, want;
	union cenv_sa sa;

	KUNIT_EXPECT_PTR_EQ(test, id->device, &c->a->ibdev);
	KUNIT_EXPECT_EQ(test, id->port_num, 1);
	KUNIT_EXPECT_EQ(test, id->route.addr.dev_addr.bound_dev_if,
			cenv.dev0->ifindex);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(
		id->route.addr.dev_addr.dst_dev_addr, cenv.dev1->dev_addr));
	/* the bound port is the ephemeral one, kept across resolution */
	KUNIT_EXPECT_NE(test, ((struct sockaddr_in *)
			       &id->route.addr.src_addr)->sin_port, 0);

	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 5000), 0);
	/* once resolving, not again */
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(id, NULL,
			(struct sockaddr *)&id->route.addr.dst_addr, 5000),
			-EINVAL);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_ASSERT_EQ(test, id->route.num_pri_alt_paths, 1);
	rec = id->route.path_rec;
	KUNIT_ASSERT_NOT_NULL(test, rec);
	cenv_sa(test, &sa, "10.74.0.2", 0);
	rdma_ip2gid(&sa.sa, &want);
	KUNIT_EXPECT_EQ(test, memcmp(&rec->dgid, &want, sizeof(want)), 0);
	rdma_read_gids(id, &sgid, &dgid);
	KUNIT_EXPECT_EQ(test, memcmp(&dgid, &want, sizeof(want)), 0);
	cenv_sa(test, &sa, "10.74.0.1", 0);
	rdma_ip2gid(&sa.sa, &want);
	KUNIT_EXPECT_EQ(test, memcmp(&rec->sgid, &want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&sgid, &want, sizeof(want)), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(rec->roce.dmac,
						 cenv.dev1->dev_addr));
	KUNIT_EXPECT_EQ(test, rec->mtu, iboe_get_mtu(cenv.dev0->mtu));
	KUNIT_EXPECT_EQ(test, rec->pkey, cpu_to_be16(0xffff));
	KUNIT_EXPECT_EQ(test, rec->packet_life_time, 18);
	/* resolved: no second resolution, no ULP path */
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 5000), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_ib_path(id, rec), -EINVAL);
}

static void route_options(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = resolved(test, c, RDMA_PS_TCP, IB_QPT_RC,
					 PORT);

	rdma_set_service_type(id, 0x60);
	KUNIT_ASSERT_EQ(test, rdma_set_ack_timeout(id, 12), 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 5000), 0);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, id->route.path_rec->traffic_class, 0x60);
	/* the ACK timeout is about twice the packet lifetime */
	KUNIT_EXPECT_EQ(test, id->route.path_rec->packet_life_time, 11);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(cenv_id(test, c, &init_net,
				RDMA_PS_TCP, IB_QPT_RC), 0), -EINVAL);
}

static void ulp_given_path(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = resolved(test, c, RDMA_PS_TCP, IB_QPT_RC,
					 PORT);
	struct sa_path_rec path = { .mtu = IB_MTU_1024, .hop_limit = 64 };

	KUNIT_ASSERT_EQ(test, rdma_set_ib_path(id, &path), 0);
	KUNIT_ASSERT_NOT_NULL(test, id->route.path_rec);
	KUNIT_EXPECT_EQ(test, id->route.path_rec->mtu, IB_MTU_1024);
	/* the RoCE part is filled from the resolved address */
	KUNIT_EXPECT_TRUE(test, id->route.path_rec->roce.route_resolved);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(id->route.path_rec->roce.dmac,
						 cenv.dev1->dev_addr));
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 5000), -EINVAL);
}

static void resolve_errors(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					IB_QPT_RC);
	union cenv_sa src, dst;
	int ret;

	/* families must agree */
	cenv_sa(test, &src, "10.74.0.1", 0);
	cenv_sa(test, &dst, "fd74::2", PORT);
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(id, &src.sa, &dst.sa, 5000),
			-EINVAL);
	/* unreachable: an error now, or an ADDR_ERROR event */
	cenv_sa(test, &dst, "198.51.100.7", PORT);
	ret = rdma_resolve_addr(id, NULL, &dst.sa, 5000);
	if (!ret)
		KUNIT_EXPECT_LT(test, cenv_wait(test, &c->rec, id,
				RDMA_CM_EVENT_ADDR_ERROR)->event.status, 0);
	else
		KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_EQ(test, cenv_count(&c->rec, id,
					 RDMA_CM_EVENT_ADDR_RESOLVED), 0);
	/* the ID is bound again: a good destination resolves now */
	cenv_sa(test, &dst, "10.74.0.2", PORT);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(id, NULL, &dst.sa, 5000), 0);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ADDR_RESOLVED);
}

static void loopback_destination(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					IB_QPT_RC);
	union ib_gid sgid, dgid;
	union cenv_sa dst;

	/* the wildcard destination is this host, on some device of it */
	cenv_sa(test, &dst, "0.0.0.0", PORT);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(id, NULL, &dst.sa, 5000), 0);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_ASSERT_NOT_NULL(test, id->device);
	rdma_addr_get_sgid(&id->route.addr.dev_addr, &sgid);
	rdma_addr_get_dgid(&id->route.addr.dev_addr, &dgid);
	KUNIT_EXPECT_EQ(test, memcmp(&sgid, &dgid, sizeof(sgid)), 0);
	/* RoCE needs a netdev for a route, which loopback does not bind */
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 5000), -ENODEV);
}

static void bind_to_device_address(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = cenv_id(test, c, cenv.ns, RDMA_PS_TCP,
					IB_QPT_RC);
	struct rdma_restrack_entry *res;
	union cenv_sa sa;

	cenv_sa(test, &sa, "10.74.0.2", PORT);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(id, &sa.sa), 0);
	KUNIT_EXPECT_PTR_EQ(test, id->device, &c->b->ibdev);
	KUNIT_EXPECT_EQ(test, id->port_num, 1);
	/* the address of the other namespace is not ours here */
	cenv_sa(test, &sa, "10.74.0.1", PORT);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(cenv_id(test, c, cenv.ns,
				RDMA_PS_TCP, IB_QPT_RC), &sa.sa),
			-EADDRNOTAVAIL);
	/* resource tracking knows the bound ID, and gives it back */
	res = rdma_restrack_get_byid(&c->b->ibdev, RDMA_RESTRACK_CM_ID, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(res));
	KUNIT_EXPECT_PTR_EQ(test, rdma_res_to_id(res), id);
	rdma_restrack_put(res);
}

static void init_qp_attr_and_qps(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *rc = resolved(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	struct rdma_cm_id *ud = resolved(test, c, RDMA_PS_UDP, IB_QPT_UD, PORT);
	struct rdma_cm_id *b_id = cenv_id(test, c, cenv.ns, RDMA_PS_TCP,
					  IB_QPT_RC);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_qp_init_attr init = {};
	union cenv_sa sa;
	int mask = 0;

	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(rc, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_PKEY_INDEX |
				    IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	KUNIT_EXPECT_EQ(test, attr.port_num, 1);
	KUNIT_EXPECT_EQ(test, attr.qp_access_flags, 0);

	attr.qp_state = IB_QPS_INIT;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(ud, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_QKEY);
	KUNIT_EXPECT_EQ(test, attr.qkey, RDMA_UDP_QKEY);

	/* an RC QP starts in INIT, a UD one in RTS */
	KUNIT_EXPECT_EQ(test, qp_state(cenv_qp(test, c, rc)), IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, qp_state(cenv_qp(test, c, ud)), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rc->qp->port, 1);

	/* a PD of another device */
	cenv_sa(test, &sa, "10.74.0.2", PORT);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(b_id, &sa.sa), 0);
	init.qp_type = IB_QPT_RC;
	init.send_cq = c->cq[0];
	init.recv_cq = c->cq[0];
	init.cap.max_send_wr = 1;
	init.cap.max_recv_wr = 1;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	KUNIT_EXPECT_EQ(test, rdma_create_qp(b_id, c->pd[0], &init), -EINVAL);
	KUNIT_EXPECT_NULL(test, b_id->qp);
	rdma_destroy_qp(rc);
	KUNIT_EXPECT_NULL(test, rc->qp);
}

/* Waits for the request, then accepts it with a QP, under the handler lock */
static struct rdma_cm_id *accept_request(struct kunit *test,
					 struct cenv_case *c)
{
	const struct cenv_event *req;
	struct rdma_conn_param param = {
		.private_data = answer,
		.private_data_len = sizeof(answer),
		.responder_resources = 1,
		.initiator_depth = 1,
		.rnr_retry_count = 7,
	};
	struct rdma_cm_id *conn;

	req = cenv_wait(test, &c->rec, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	conn = req->id;
	KUNIT_EXPECT_PTR_EQ(test, conn->device, &c->b->ibdev);
	KUNIT_EXPECT_EQ(test, req->data_len,
			IB_CM_REQ_PRIVATE_DATA_SIZE - 36);
	KUNIT_EXPECT_EQ(test, memcmp(req->data, hello, sizeof(hello)), 0);
	cenv_qp(test, c, conn);
	rdma_lock_handler(conn);
	KUNIT_EXPECT_EQ(test, rdma_accept(conn, &param), 0);
	rdma_unlock_handler(conn);
	return conn;
}

static void connect_accept_disconnect(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *l = listener(test, c, RDMA_PS_TCP, IB_QPT_RC,
					"10.74.0.2");
	struct rdma_cm_id *id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	const struct cenv_event *ev;
	struct rdma_cm_id *conn;
	union cenv_sa sa;

	cenv_qp(test, c, id);
	connect_with(test, id, hello, sizeof(hello));
	conn = accept_request(test, c);
	/* the new ID knows both ends */
	cenv_sa(test, &sa, "10.74.0.1", 0);
	KUNIT_EXPECT_EQ(test, ((struct sockaddr_in *)&conn->route.addr.dst_addr)
			->sin_addr.s_addr, sa.in.sin_addr.s_addr);
	KUNIT_EXPECT_EQ(test, ((struct sockaddr_in *)&conn->route.addr.src_addr)
			->sin_port, htons(PORT));
	KUNIT_EXPECT_PTR_EQ(test, conn->context, l->context);

	ev = cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, memcmp(ev->data, answer, sizeof(answer)), 0);
	KUNIT_EXPECT_EQ(test, ev->event.param.conn.qp_num, conn->qp->qp_num);
	cenv_wait(test, &c->rec, conn, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, qp_state(id->qp), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, qp_state(conn->qp), IB_QPS_RTS);
	/* connected: not again */
	KUNIT_EXPECT_EQ(test, rdma_connect(id, NULL), -EINVAL);

	KUNIT_ASSERT_EQ(test, rdma_disconnect(id), 0);
	KUNIT_EXPECT_EQ(test, qp_state(id->qp), IB_QPS_ERR);
	cenv_wait(test, &c->rec, conn, RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_ASSERT_EQ(test, rdma_disconnect(conn), 0);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_DISCONNECTED);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_TIMEWAIT_EXIT);
	cenv_wait(test, &c->rec, conn, RDMA_CM_EVENT_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, cenv_count(&c->rec, id,
					 RDMA_CM_EVENT_DISCONNECTED), 1);
}

/*
 * A ULP's own lock taken in a connection's handler lock (nvmet takes
 * nvmet_config_sem in a queue's handler), and the listener destroyed
 * under that lock (nvmet disables a port so): two different IDs, no
 * cycle, and lockdep (on in the test kernel) must not report one.
 * debug_locks goes to 0 at lockdep's first report.
 */
static void listener_destroyed_under_ulp_lock(struct kunit *test)
{
	static DEFINE_MUTEX(ulp_lock);
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *l = listener(test, c, RDMA_PS_TCP, IB_QPT_RC,
					"10.74.0.2");
	struct rdma_cm_id *id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	struct rdma_cm_id *conn;

	if (!debug_locks)
		kunit_skip(test, "lockdep is off already (an earlier report)");
	cenv_qp(test, c, id);
	connect_with(test, id, hello, sizeof(hello));
	conn = accept_request(test, c);
	cenv_wait(test, &c->rec, conn, RDMA_CM_EVENT_ESTABLISHED);

	rdma_lock_handler(conn);
	mutex_lock(&ulp_lock);
	mutex_unlock(&ulp_lock);
	rdma_unlock_handler(conn);

	mutex_lock(&ulp_lock);
	cenv_destroy(c, l);
	mutex_unlock(&ulp_lock);
	KUNIT_EXPECT_TRUE(test, debug_locks);

	KUNIT_ASSERT_EQ(test, rdma_disconnect(id), 0);
	cenv_wait(test, &c->rec, conn, RDMA_CM_EVENT_DISCONNECTED);
}

static void reject_with_private_data(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id;
	const struct cenv_event *req, *rej;
	struct rdma_cm_event copy;
	const void *data;
	u8 len = 0;

	listener(test, c, RDMA_PS_TCP, IB_QPT_RC, "10.74.0.2");
	id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	connect_with(test, id, hello, sizeof(hello));
	req = cenv_wait(test, &c->rec, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_EQ(test, rdma_reject(req->id, refusal, sizeof(refusal),
					  IB_CM_REJ_CONSUMER_DEFINED), 0);
	rej = cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, rej->event.status, IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, memcmp(rej->data, refusal, sizeof(refusal)), 0);
	KUNIT_EXPECT_STREQ(test, rdma_reject_msg(id, rej->event.status),
			   ibcm_reject_msg(IB_CM_REJ_CONSUMER_DEFINED));
	copy = rej->event;
	copy.param.conn.private_data = rej->data;
	copy.param.conn.private_data_len = rej->data_len;
	data = rdma_consumer_reject_data(id, &copy, &len);
	KUNIT_EXPECT_PTR_EQ(test, data, (const void *)rej->data);
	KUNIT_EXPECT_EQ(test, len, rej->data_len);
	/* another reason is the CM's, without ULP data */
	copy.status = IB_CM_REJ_INVALID_SERVICE_ID;
	KUNIT_EXPECT_NULL(test, rdma_consumer_reject_data(id, &copy, &len));
	KUNIT_EXPECT_EQ(test, len, 0);
}

static void no_listener_on_port(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id;
	const struct cenv_event *ev;

	/* a listener on another port of the same device */
	listener(test, c, RDMA_PS_TCP, IB_QPT_RC, "10.74.0.2");
	id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT + 1);
	connect_with(test, id, NULL, 0);
	ev = cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, ev->event.status, IB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, cenv_count(&c->rec, NULL,
					 RDMA_CM_EVENT_CONNECT_REQUEST), 0);
}

/*
 * A REQ the device fails to send is a REQ nobody answered: the ULP hears
 * RDMA_CM_EVENT_UNREACHABLE with -ETIMEDOUT, and no listener hears of it.
 */
static void req_lost_unreachable(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id;
	const struct cenv_event *ev;

	listener(test, c, RDMA_PS_TCP, IB_QPT_RC, "10.74.0.2");
	id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	tdev_fail(c->a, TDEV_FAIL_SEND_WR, true);
	connect_with(test, id, hello, sizeof(hello));
	ev = cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_UNREACHABLE);
	KUNIT_EXPECT_EQ(test, ev->event.status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, cenv_count(&c->rec, NULL,
					 RDMA_CM_EVENT_CONNECT_REQUEST), 0);
}

static void wildcard_listener_refusing(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id;
	const struct cenv_event *ev;

	listener(test, c, RDMA_PS_TCP, IB_QPT_RC, "0.0.0.0");
	/* the handler refuses: rdma_cm destroys the new ID, ib_cm rejects */
	WRITE_ONCE(c->rec.req_ret, -ECONNREFUSED);
	id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	connect_with(test, id, hello, sizeof(hello));
	cenv_wait(test, &c->rec, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	ev = cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, ev->event.status, IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, cenv_count(&c->rec, NULL,
					 RDMA_CM_EVENT_CONNECT_REQUEST), 1);
}

static void refused_for_memory_is_retried(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_conn_param param = { .responder_resources = 1,
					 .initiator_depth = 1 };
	const struct cenv_event *req;
	struct rdma_cm_id *id, *conn;
	int n;

	listener(test, c, RDMA_PS_TCP, IB_QPT_RC, "10.74.0.2");
	/* -ENOMEM: ib_cm drops the REQ without REJ, the peer retries */
	WRITE_ONCE(c->rec.req_ret, -ENOMEM);
	id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	cenv_qp(test, c, id);
	connect_with(test, id, hello, sizeof(hello));
	cenv_wait_n(test, &c->rec, NULL, RDMA_CM_EVENT_CONNECT_REQUEST, 2);
	WRITE_ONCE(c->rec.req_ret, 0);
	KUNIT_EXPECT_EQ(test, cenv_count(&c->rec, id, RDMA_CM_EVENT_REJECTED),
			0);
	/* a later retry finds the ULP ready: the first request not refused */
	for (n = 3; ; n++) {
		req = cenv_wait_n(test, &c->rec, NULL,
				  RDMA_CM_EVENT_CONNECT_REQUEST, n);
		if (!req->refused)
			break;
	}
	conn = req->id;
	cenv_qp(test, c, conn);
	rdma_lock_handler(conn);
	KUNIT_EXPECT_EQ(test, rdma_accept(conn, &param), 0);
	rdma_unlock_handler(conn);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ESTABLISHED);
}

static void too_much_private_data(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	u8 data[IB_CM_REQ_PRIVATE_DATA_SIZE] = {};
	struct rdma_conn_param param = {
		.private_data = data,
		.private_data_len = IB_CM_REQ_PRIVATE_DATA_SIZE - 36 + 1,
	};

	KUNIT_EXPECT_EQ(test, rdma_connect(id, &param), -EINVAL);
	/* the ID is still routed: a fitting REQ goes */
	param.private_data_len--;
	KUNIT_EXPECT_EQ(test, rdma_connect(id, &param), 0);
}

static void ece_and_connect_locked(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id, *conn;
	struct rdma_ucm_ece ece = { .vendor_id = 0x15b3, .attr_mod = 0x11 };
	struct rdma_conn_param param = { .responder_resources = 1,
					 .initiator_depth = 1 };
	const struct cenv_event *req;
	struct ib_qp_attr attr;
	int mask;

	listener(test, c, RDMA_PS_TCP, IB_QPT_RC, "10.74.0.2");
	id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	cenv_qp(test, c, id);
	KUNIT_ASSERT_EQ(test, rdma_set_ack_timeout(id, 16), 0);
	rdma_lock_handler(id);
	KUNIT_EXPECT_EQ(test, rdma_connect_locked(id, &param), 0);
	rdma_unlock_handler(id);
	req = cenv_wait(test, &c->rec, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	conn = req->id;
	cenv_qp(test, c, conn);
	KUNIT_ASSERT_EQ(test, rdma_set_min_rnr_timer(conn, 5), 0);
	rdma_lock_handler(conn);
	KUNIT_EXPECT_EQ(test, rdma_accept_ece(conn, &param, &ece), 0);
	rdma_unlock_handler(conn);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ESTABLISHED);
	cenv_wait(test, &c->rec, conn, RDMA_CM_EVENT_ESTABLISHED);
	/* the options replace what the connection would give the QP */
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_TIMEOUT);
	KUNIT_EXPECT_EQ(test, attr.timeout, 16);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(conn, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_MIN_RNR_TIMER);
	KUNIT_EXPECT_EQ(test, attr.min_rnr_timer, 5);
	/* established already: ib_cm says so; other events are not its */
	KUNIT_EXPECT_EQ(test, rdma_notify(conn, IB_EVENT_COMM_EST), -EISCONN);
	KUNIT_EXPECT_EQ(test, rdma_notify(conn, IB_EVENT_QP_FATAL), -EINVAL);

	/* a second connection offering ECE */
	id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	cenv_qp(test, c, id);
	KUNIT_EXPECT_EQ(test, rdma_connect_ece(id, &param, &ece), 0);
	req = cenv_wait_n(test, &c->rec, NULL, RDMA_CM_EVENT_CONNECT_REQUEST, 2);
	KUNIT_EXPECT_EQ(test, req->event.ece.vendor_id, ece.vendor_id);
	KUNIT_EXPECT_EQ(test, req->event.ece.attr_mod, ece.attr_mod);
}

static void ud_sidr(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id, *conn;
	const struct cenv_event *req, *est;
	struct rdma_conn_param param = {
		.private_data = answer,
		.private_data_len = sizeof(answer),
	};

	listener(test, c, RDMA_PS_UDP, IB_QPT_UD, "10.74.0.2");
	id = routed(test, c, RDMA_PS_UDP, IB_QPT_UD, PORT);
	cenv_qp(test, c, id);
	connect_with(test, id, hello, sizeof(hello));
	req = cenv_wait(test, &c->rec, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	conn = req->id;
	KUNIT_EXPECT_EQ(test, memcmp(req->data, hello, sizeof(hello)), 0);
	cenv_qp(test, c, conn);
	rdma_lock_handler(conn);
	KUNIT_EXPECT_EQ(test, rdma_accept(conn, &param), 0);
	rdma_unlock_handler(conn);
	est = cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, est->event.param.ud.qp_num, conn->qp->qp_num);
	KUNIT_EXPECT_EQ(test, est->event.param.ud.qkey, RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, memcmp(est->data, answer, sizeof(answer)), 0);
}

static void roce_multicast(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = resolved(test, c, RDMA_PS_UDP, IB_QPT_UD, PORT);
	struct rdma_cm_id *rc = resolved(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	const struct cenv_event *ev;
	union cenv_sa grp, zero;
	int cookie;

	cenv_sa(test, &grp, "239.1.2.3", 0);
	cenv_sa(test, &zero, "0.0.0.0", 0);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(rc, &grp.sa,
				BIT(FULLMEMBER_JOIN), NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(id, &zero.sa,
				BIT(FULLMEMBER_JOIN), NULL), -EINVAL);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(id, &grp.sa,
				BIT(FULLMEMBER_JOIN), &cookie), 0);
	ev = cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_EQ(test, ev->event.status, 0);
	KUNIT_EXPECT_PTR_EQ(test, ev->event.param.ud.private_data,
			    (const void *)&cookie);
	KUNIT_EXPECT_EQ(test, ev->event.param.ud.qp_num, 0xffffff);
	KUNIT_EXPECT_EQ(test, ev->event.param.ud.qkey, RDMA_UDP_QKEY);
	rdma_leave_multicast(id, &grp.sa);
	/* leaving twice, or a group never joined, is harmless */
	rdma_leave_multicast(id, &grp.sa);
	/* with a kernel QP, joins are refused */
	cenv_qp(test, c, id);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(id, &grp.sa,
				BIT(FULLMEMBER_JOIN), NULL), -EINVAL);
}

struct removal {
	struct tdev *td;
};

static void removal_fn(void *arg)
{
	struct removal *r = arg;

	tdev_destroy(r->td);
}

static void device_removal(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = resolved(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	struct rdma_cm_id *wild = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					  IB_QPT_RC);
	struct removal r = { .td = c->a };
	struct tk_thread t;

	/* a wildcard listener's internal listener goes with the device */
	KUNIT_ASSERT_EQ(test, rdma_listen(wild, 4), 0);
	c->a = NULL;
	tk_start(test, &t, removal_fn, &r);
	cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_DEVICE_REMOVAL);
	/* the device waits for the ULP to destroy its ID */
	KUNIT_EXPECT_FALSE(test, tk_join_timeout(&t, 200));
	cenv_destroy(c, id);
	tk_join(&t);
	KUNIT_EXPECT_EQ(test, cenv_count(&c->rec, wild,
					 RDMA_CM_EVENT_DEVICE_REMOVAL), 0);
}

static void neighbour_changes_mac(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);
	struct rdma_cm_id *id = routed(test, c, RDMA_PS_TCP, IB_QPT_RC, PORT);
	struct rdma_cm_id *other = resolved(test, c, RDMA_PS_TCP, IB_QPT_RC,
					    PORT);
	const struct cenv_event *ev;
	int ret;

	/* the next hop moves to another MAC: the route is stale */
	ret = tnet_ip("neigh replace 10.74.0.2 lladdr 02:00:00:00:00:99 dev "
		      CENV_DEV0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ev = cenv_wait(test, &c->rec, id, RDMA_CM_EVENT_UNREACHABLE);
	tnet_ip("neigh del 10.74.0.2 dev " CENV_DEV0);
	KUNIT_EXPECT_EQ(test, ev->event.status, -ETIMEDOUT);
	/* an ID without a route is not told */
	KUNIT_EXPECT_EQ(test, cenv_count(&c->rec, other,
					 RDMA_CM_EVENT_UNREACHABLE), 0);
}

static int conn_suite_init(struct kunit_suite *suite)
{
	return cenv_up(suite);
}

static void conn_suite_exit(struct kunit_suite *suite)
{
	cenv_down(suite);
}

static struct kunit_case cma_conn_cases[] = {
	KUNIT_CASE(resolve_addr_and_route),
	KUNIT_CASE(route_options),
	KUNIT_CASE(ulp_given_path),
	KUNIT_CASE(resolve_errors),
	KUNIT_CASE(loopback_destination),
	KUNIT_CASE(bind_to_device_address),
	KUNIT_CASE(init_qp_attr_and_qps),
	KUNIT_CASE(connect_accept_disconnect),
	KUNIT_CASE(listener_destroyed_under_ulp_lock),
	KUNIT_CASE(reject_with_private_data),
	KUNIT_CASE(no_listener_on_port),
	KUNIT_CASE(req_lost_unreachable),
	KUNIT_CASE(wildcard_listener_refusing),
	KUNIT_CASE(refused_for_memory_is_retried),
	KUNIT_CASE(too_much_private_data),
	KUNIT_CASE(ece_and_connect_locked),
	KUNIT_CASE(ud_sidr),
	KUNIT_CASE(roce_multicast),
	KUNIT_CASE(device_removal),
	/* last: it changes the neighbour table (and restores it) */
	KUNIT_CASE(neighbour_changes_mac),
	{}
};

static struct kunit_suite cma_conn_suite = {
	.name = "rdma_cm_conn",
	.suite_init = conn_suite_init,
	.suite_exit = conn_suite_exit,
	.test_cases = cma_conn_cases,
};

kunit_test_suites(&cma_conn_suite);
