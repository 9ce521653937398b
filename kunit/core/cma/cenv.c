// SPDX-License-Identifier: GPL-2.0
/*
 * The rdma_cm suites' network, devices and event recorder (cenv.h).
 *
 * cenv is written by suite_init and suite_exit only; cases read it.
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/inet.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include "tdev.h"
#include "tk.h"
#include "tnet.h"
#include "cenv.h"

struct cenv cenv;

static const char * const cenv_cmds[] = {
	"netns add " CENV_NS,
	"link add " CENV_DEV0 " type veth peer name " CENV_DEV1 " netns " CENV_NS,
	"addr add 10.74.0.1/24 dev " CENV_DEV0,
	"addr add fd74::1/64 dev " CENV_DEV0 " nodad",
	"-n " CENV_NS " addr add 10.74.0.2/24 dev " CENV_DEV1,
	"-n " CENV_NS " addr add fd74::2/64 dev " CENV_DEV1 " nodad",
	"link set " CENV_DEV0 " up",
	"-n " CENV_NS " link set " CENV_DEV1 " up",
	"route add unreachable 198.51.100.0/24",
};

/**
 * cenv_up - make the suites' network (suite_init)
 * @suite: the suite
 *
 * Return: 0, or the first failure (the network is taken down again).
 */
int cenv_up(struct kunit_suite *suite)
{
	int i, ret;

	cenv_down(suite);	/* what a crashed run may have left */
	for (i = 0; i < ARRAY_SIZE(cenv_cmds); i++) {
		ret = tnet_ip("%s", cenv_cmds[i]);
		if (ret) {
			pr_err("%s: ip %s: %d\n", suite->name, cenv_cmds[i], ret);
			goto err;
		}
		/* init_net's end: DAD off before the link comes up */
		if (i == 1) {
			ret = tk_file_write("/proc/sys/net/ipv6/conf/" CENV_DEV0
					    "/accept_dad", "0");
			if (ret)
				goto err;
		}
	}
	cenv.ns = tnet_netns(CENV_NS);
	if (IS_ERR(cenv.ns)) {
		ret = PTR_ERR(cenv.ns);
		cenv.ns = NULL;
		goto err;
	}
	cenv.dev0 = tnet_dev(&init_net, CENV_DEV0);
	cenv.dev1 = tnet_dev(cenv.ns, CENV_DEV1);
	if (!cenv.dev0 || !cenv.dev1) {
		ret = -ENODEV;
		goto err;
	}
	return 0;

err:
	cenv_down(suite);
	return ret < 0 ? ret : -EIO;
}

/**
 * cenv_down - take the suites' network down (suite_exit)
 * @suite: the suite
 */
void cenv_down(struct kunit_suite *suite)
{
	if (cenv.dev0)
		dev_put(cenv.dev0);
	if (cenv.dev1)
		dev_put(cenv.dev1);
	if (cenv.ns)
		put_net(cenv.ns);
	memset(&cenv, 0, sizeof(cenv));
	tnet_ip("route del unreachable 198.51.100.0/24");
	tnet_ip("netns del " CENV_NS);
	tnet_ip("link del " CENV_DEV0);
}

/**
 * cenv_wait_gids - wait (at most 10 s) until a RoCE device has an IP's GID
 * @test: the case; fails if it does not come
 * @td: the device
 * @ndev: its netdev
 * @ip: the IPv4 address, text
 */
void cenv_wait_gids(struct kunit *test, struct tdev *td,
		    struct net_device *ndev, const char *ip)
{
	const struct ib_gid_attr *attr = ERR_PTR(-ENOENT);
	union cenv_sa sa;
	union ib_gid gid;
	int i;

	cenv_sa(test, &sa, ip, 0);
	rdma_ip2gid(&sa.sa, &gid);
	for (i = 0; i < 500; i++) {
		attr = rdma_find_gid_by_port(&td->ibdev, &gid,
					     IB_GID_TYPE_ROCE_UDP_ENCAP, 1,
					     ndev);
		if (!IS_ERR(attr))
			break;
		msleep(20);
	}
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(attr), "no GID for %s", ip);
	rdma_put_gid_attr(attr);
}

/**
 * cenv_sa - a socket address from its text and a port
 * @test: the case; fails on text that is no address
 * @sa: the address, out
 * @text: "a.b.c.d", "x::y" or "x::y%ifindex"
 * @port: the port, host order
 */
void cenv_sa(struct kunit *test, union cenv_sa *sa, const char *text,
	     u16 port)
{
	const char *end;

	memset(sa, 0, sizeof(*sa));
	if (in4_pton(text, -1, (u8 *)&sa->in.sin_addr, -1, &end) && !*end) {
		sa->in.sin_family = AF_INET;
		sa->in.sin_port = htons(port);
		return;
	}
	KUNIT_ASSERT_TRUE(test, in6_pton(text, -1, sa->in6.sin6_addr.s6_addr,
					 '%', &end));
	sa->in6.sin6_family = AF_INET6;
	sa->in6.sin6_port = htons(port);
	if (*end == '%')
		KUNIT_ASSERT_EQ(test, kstrtou32(end + 1, 10,
						&sa->in6.sin6_scope_id), 0);
}

/**
 * cenv_rec_init - an empty recorder whose handler returns 0
 * @rec: the recorder
 */
void cenv_rec_init(struct cenv_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	spin_lock_init(&rec->lock);
	init_waitqueue_head(&rec->wq);
}

static int cenv_handler(struct rdma_cm_id *id, struct rdma_cm_event *event)
{
	struct cenv_rec *rec = id->context;
	const void *data = event->param.conn.private_data;
	u8 len = event->param.conn.private_data_len;
	struct cenv_event *ev;
	unsigned long flags;

	if (event->event == RDMA_CM_EVENT_MULTICAST_JOIN ||
	    event->event == RDMA_CM_EVENT_MULTICAST_ERROR ||
	    (id->qp_type == IB_QPT_UD &&
	     (event->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
	      event->event == RDMA_CM_EVENT_ESTABLISHED ||
	      event->event == RDMA_CM_EVENT_UNREACHABLE))) {
		data = event->param.ud.private_data;
		len = event->param.ud.private_data_len;
	}
	spin_lock_irqsave(&rec->lock, flags);
	if (rec->n < CENV_MAX_EVENTS) {
		ev = &rec->ev[rec->n++];
		ev->id = id;
		ev->refused = event->event == RDMA_CM_EVENT_CONNECT_REQUEST &&
			      READ_ONCE(rec->req_ret);
		ev->event = *event;
		ev->data_len = len;
		if (data && event->event != RDMA_CM_EVENT_MULTICAST_JOIN &&
		    event->event != RDMA_CM_EVENT_MULTICAST_ERROR)
			memcpy(ev->data, data, min_t(u8, len, sizeof(ev->data)));
		/* the AH attribute's GID reference is the event's, not ours */
		memset(&ev->event.param, 0, sizeof(ev->event.param));
		if (id->qp_type == IB_QPT_UD) {
			ev->event.param.ud.qp_num = event->param.ud.qp_num;
			ev->event.param.ud.qkey = event->param.ud.qkey;
			ev->event.param.ud.private_data =
				event->event == RDMA_CM_EVENT_MULTICAST_JOIN ||
				event->event == RDMA_CM_EVENT_MULTICAST_ERROR ?
				event->param.ud.private_data : NULL;
		} else {
			ev->event.param.conn.qp_num = event->param.conn.qp_num;
			ev->event.param.conn.responder_resources =
				event->param.conn.responder_resources;
			ev->event.param.conn.initiator_depth =
				event->param.conn.initiator_depth;
		}
	}
	spin_unlock_irqrestore(&rec->lock, flags);
	wake_up_all(&rec->wq);
	return event->event == RDMA_CM_EVENT_CONNECT_REQUEST ?
	       READ_ONCE(rec->req_ret) : READ_ONCE(rec->ret);
}

/* The case's end: its IDs (new ones first), then its devices */
static void cenv_case_free(struct kunit_resource *res)
{
	struct cenv_case *c = res->data;
	int i;

	/* QPs go before their IDs, PDs and CQs after them */
	for (i = c->rec.n - 1; i >= 0; i--)
		if (c->rec.ev[i].event.event == RDMA_CM_EVENT_CONNECT_REQUEST &&
		    !c->rec.ev[i].refused && !c->rec.ev[i].destroyed &&
		    c->rec.ev[i].id->qp)
			rdma_destroy_qp(c->rec.ev[i].id);
	for (i = 0; i < c->n_ids; i++)
		if (c->ids[i] && c->ids[i]->qp)
			rdma_destroy_qp(c->ids[i]);
	for (i = c->rec.n - 1; i >= 0; i--)
		if (c->rec.ev[i].event.event == RDMA_CM_EVENT_CONNECT_REQUEST &&
		    !c->rec.ev[i].refused && !c->rec.ev[i].destroyed)
			rdma_destroy_id(c->rec.ev[i].id);
	for (i = c->n_ids - 1; i >= 0; i--)
		if (c->ids[i])
			rdma_destroy_id(c->ids[i]);
	for (i = 0; i < 2; i++) {
		if (c->cq[i])
			ib_free_cq(c->cq[i]);
		if (c->pd[i])
			ib_dealloc_pd(c->pd[i]);
	}
	if (c->a)
		tdev_destroy(c->a);
	if (c->b)
		tdev_destroy(c->b);
	kfree(c);
}

/**
 * cenv_case - a case's recorder, IDs and devices, freed when it ends
 * @test: the case; fails if they cannot be made
 * @devices: make two RoCE test devices, @a on kcma0 (10.74.0.1) and @b on
 *	kcma1 (10.74.0.2, namespace ktcma), with their IPv4 GIDs
 */
struct cenv_case *cenv_case(struct kunit *test, bool devices)
{
	struct tdev_params p = { .name = "ktcma%d", .roce = true };
	struct kunit_resource *res;
	struct cenv_case *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	cenv_rec_init(&c->rec);
	res = kunit_alloc_resource(test, NULL, cenv_case_free, GFP_KERNEL, c);
	if (!res)
		kfree(c);
	KUNIT_ASSERT_NOT_NULL(test, res);
	if (!devices)
		return c;
	KUNIT_ASSERT_NOT_NULL(test, cenv.dev0);
	p.ndev = cenv.dev0;
	c->a = tk_dev(test, &p);
	p.ndev = cenv.dev1;
	c->b = tk_dev(test, &p);
	cenv_wait_gids(test, c->a, cenv.dev0, "10.74.0.1");
	cenv_wait_gids(test, c->b, cenv.dev1, "10.74.0.2");
	return c;
}

/**
 * cenv_id - an ID recording into the case's recorder
 * @test: the case; fails if the ID cannot be made
 * @c: the case's environment, which destroys the ID at the end
 * @net: the namespace
 * @ps: the port space
 * @qp_type: the QP type
 */
struct rdma_cm_id *cenv_id(struct kunit *test, struct cenv_case *c,
			   struct net *net, enum rdma_ucm_port_space ps,
			   enum ib_qp_type qp_type)
{
	struct rdma_cm_id *id;

	KUNIT_ASSERT_LT(test, c->n_ids, (int)ARRAY_SIZE(c->ids));
	id = rdma_create_id(net, cenv_handler, &c->rec, ps, qp_type);
	KUNIT_ASSERT_FALSE(test, IS_ERR(id));
	c->ids[c->n_ids++] = id;
	return id;
}

/**
 * cenv_destroy - destroy an ID of the case before its end
 * @c: the case's environment
 * @id: an ID of cenv_id(), or the new ID of a CONNECT_REQUEST
 */
void cenv_destroy(struct cenv_case *c, struct rdma_cm_id *id)
{
	int i;

	for (i = 0; i < c->n_ids; i++)
		if (c->ids[i] == id)
			c->ids[i] = NULL;
	for (i = 0; i < c->rec.n; i++)
		if (c->rec.ev[i].id == id &&
		    c->rec.ev[i].event.event == RDMA_CM_EVENT_CONNECT_REQUEST)
			c->rec.ev[i].destroyed = true;
	rdma_destroy_id(id);
}

/* The @n-th event (from 1) of @type on @id (NULL: any), or NULL */
static const struct cenv_event *cenv_find(struct cenv_rec *rec,
					  struct rdma_cm_id *id,
					  enum rdma_cm_event_type type, int n)
{
	const struct cenv_event *found = NULL;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&rec->lock, flags);
	for (i = 0; i < rec->n && !found; i++)
		if ((!id || rec->ev[i].id == id) &&
		    rec->ev[i].event.event == type && !--n)
			found = &rec->ev[i];
	spin_unlock_irqrestore(&rec->lock, flags);
	return found;
}

/**
 * cenv_wait_n - wait for the @n-th event of a type
 * @test: the case; fails if it does not come in CENV_WAIT_MS
 * @rec: the recorder
 * @id: the ID it comes on, or NULL for any
 * @type: the event type
 * @n: which one, from 1
 *
 * Return: the event (recorded events stay).
 */
const struct cenv_event *cenv_wait_n(struct kunit *test, struct cenv_rec *rec,
				     struct rdma_cm_id *id,
				     enum rdma_cm_event_type type, int n)
{
	const struct cenv_event *ev = NULL;
	int i;

	wait_event_timeout(rec->wq, (ev = cenv_find(rec, id, type, n)),
			   msecs_to_jiffies(CENV_WAIT_MS));
	if (!ev) {
		for (i = 0; i < rec->n; i++)
			kunit_info(test, "event %d: %s (%d) status %d\n", i,
				   rdma_event_msg(rec->ev[i].event.event),
				   rec->ev[i].event.event,
				   rec->ev[i].event.status);
	}
	KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "no %s", rdma_event_msg(type));
	return ev;
}

/**
 * cenv_wait - wait for the first event of a type
 * @test: the case; fails if it does not come in CENV_WAIT_MS
 * @rec: the recorder
 * @id: the ID it comes on, or NULL for any
 * @type: the event type
 */
const struct cenv_event *cenv_wait(struct kunit *test, struct cenv_rec *rec,
				   struct rdma_cm_id *id,
				   enum rdma_cm_event_type type)
{
	return cenv_wait_n(test, rec, id, type, 1);
}

/**
 * cenv_count - how many events of a type an ID got
 * @rec: the recorder
 * @id: the ID, or NULL for any
 * @type: the event type
 */
int cenv_count(struct cenv_rec *rec, struct rdma_cm_id *id,
	       enum rdma_cm_event_type type)
{
	unsigned long flags;
	int i, n = 0;

	spin_lock_irqsave(&rec->lock, flags);
	for (i = 0; i < rec->n; i++)
		if ((!id || rec->ev[i].id == id) &&
		    rec->ev[i].event.event == type)
			n++;
	spin_unlock_irqrestore(&rec->lock, flags);
	return n;
}

/**
 * cenv_qp - an RC or UD QP for an ID on one of the case's devices
 * @test: the case; fails if it cannot be made
 * @c: the case's environment (a PD and a CQ per device, made once)
 * @id: the ID, on @c->a or @c->b
 *
 * Return: the QP (id->qp), destroyed with the ID at the case's end.
 */
struct ib_qp *cenv_qp(struct kunit *test, struct cenv_case *c,
		      struct rdma_cm_id *id)
{
	struct ib_qp_init_attr attr = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = id->qp_type,
	};
	int side;

	KUNIT_ASSERT_NOT_NULL(test, id->device);
	side = id->device == &c->b->ibdev;
	if (!c->pd[side]) {
		struct ib_pd *pd = ib_alloc_pd(id->device, 0);

		KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
		c->pd[side] = pd;
	}
	if (!c->cq[side]) {
		struct ib_cq *cq = ib_alloc_cq(id->device, NULL, 16, 0,
					       IB_POLL_DIRECT);

		KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
		c->cq[side] = cq;
	}
	attr.send_cq = c->cq[side];
	attr.recv_cq = c->cq[side];
	KUNIT_ASSERT_EQ(test, rdma_create_qp(id, c->pd[side], &attr), 0);
	return id->qp;
}
