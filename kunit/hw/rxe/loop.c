// SPDX-License-Identifier: GPL-2.0
/*
 * A device over lo for the data-path suites (loop.h).
 */
#include <kunit/resource.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_cache.h>
#include "dev.h"
#include "loop.h"
#include "mem.h"
#include "post.h"
#include "recv.h"

static int lp_udp_recv(struct sock *sk, struct sk_buff *skb)
{
	struct lp_env *env = rcu_dereference_sk_user_data(sk);
	void (*before)(struct lp_env *env, void *arg);
	unsigned int n;

	/* The socket is being released: its user data went first */
	if (!env) {
		kfree_skb(skb);
		return 0;
	}
	n = atomic_inc_return(&env->seen) - 1;
	if (n < BITS_PER_LONG && (READ_ONCE(env->drop) & BIT(n))) {
		kfree_skb(skb);
		return 0;
	}
	/* Once; the exchange pairs with lp_before()'s release */
	if (n == READ_ONCE(env->before_at)) {
		before = xchg(&env->before, NULL);
		if (before)
			before(env, env->before_arg);
	}
	sr_recv(env->sdev, skb);
	return 0;
}

/*
 * From now on, the wire loses the packets @drop names (bit n: nth); an
 * lp_before() function that has not run is forgotten.
 */
void lp_lose(struct lp_env *env, unsigned long drop)
{
	WRITE_ONCE(env->before, NULL);
	atomic_set(&env->seen, 0);
	WRITE_ONCE(env->drop, drop);
}

/*
 * From now on, @fn(@env, @arg) runs once, in the receiving softirq, just
 * before the @n-th packet (0: the next) reaches the device: something
 * that happens between two packets of a message.  No packet is lost.
 */
void lp_before(struct lp_env *env, unsigned int n,
	       void (*fn)(struct lp_env *env, void *arg), void *arg)
{
	lp_lose(env, 0);
	env->before_arg = arg;
	WRITE_ONCE(env->before_at, n);
	/* Argument and place seen by lp_udp_recv()'s exchange that takes it */
	smp_store_release(&env->before, fn);
}

static int lp_sock(struct lp_env *env, bool ipv6, struct socket **sockp)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = env,
		.encap_type = 1,
		.encap_rcv = lp_udp_recv,
	};
	struct udp_port_cfg cfg = {
		.family = ipv6 ? AF_INET6 : AF_INET,
		.local_udp_port = htons(ROCE_V2_UDP_DPORT),
		.ipv6_v6only = ipv6,
	};
	int ret = udp_sock_create(&init_net, &cfg, sockp);

	if (!ret)
		setup_udp_tunnel_sock(&init_net, *sockp, &tcfg);
	return ret;
}

static void lp_env_free(struct kunit_resource *res)
{
	struct lp_env *env = res->data;

	if (env->sk6)
		udp_tunnel_sock_release(env->sk6);
	if (env->sk4)
		udp_tunnel_sock_release(env->sk4);
	/* No packet is in flight once the sockets are gone */
	synchronize_net();
	if (env->mr)
		sr_dereg_mr(&env->mr->ibmr, NULL);
	sr_counters_free(&env->sdev->counters);
	dev_put(env->sdev->ndev);
}

struct lp_env *lp_env(struct kunit *test)
{
	struct lp_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	struct sr_dev *sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	struct ib_mr *ibmr;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, env);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_EQ(test, sr_counters_init(&sdev->counters), 0);
	sdev->ndev = init_net.loopback_dev;
	dev_hold(sdev->ndev);
	xa_init_flags(&sdev->qps, XA_FLAGS_ALLOC);
	xa_init_flags(&sdev->mrs, XA_FLAGS_ALLOC1);
	xa_init_flags(&sdev->ahs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	spin_lock_init(&sdev->atomic_lock);
	env->sdev = sdev;
	if (!kunit_alloc_resource(test, NULL, lp_env_free, GFP_KERNEL, env)) {
		sr_counters_free(&sdev->counters);
		dev_put(sdev->ndev);
		KUNIT_ASSERT_FAILURE(test, "no room to track the device");
	}
	env->pd = kunit_kzalloc(test, sizeof(*env->pd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env->pd);
	env->pd->device = &sdev->ibdev;
	ibmr = sr_get_dma_mr(env->pd, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ibmr));
	ibmr->device = &sdev->ibdev;
	ibmr->pd = env->pd;
	env->mr = to_sr_mr(ibmr);

	ret = lp_sock(env, false, &env->sk4);
	if (ret == -EADDRINUSE)
		kunit_skip(test, "port 4791 is taken (a RoCEv2 driver?)");
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, lp_sock(env, true, &env->sk6), 0);
	return env;
}

static void lp_cq_free(struct kunit_resource *res)
{
	sr_destroy_cq(res->data, NULL);
}

struct sr_cq *lp_cq(struct kunit *test, struct lp_env *env)
{
	struct ib_cq_init_attr attr = { .cqe = 256 };
	struct sr_cq *cq = kunit_kzalloc(test, sizeof(*cq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cq);
	cq->ibcq.device = &env->sdev->ibdev;
	KUNIT_ASSERT_EQ(test, sr_create_cq(&cq->ibcq, &attr, NULL), 0);
	if (!kunit_alloc_resource(test, NULL, lp_cq_free, GFP_KERNEL,
				  &cq->ibcq)) {
		sr_destroy_cq(&cq->ibcq, NULL);
		KUNIT_ASSERT_FAILURE(test, "no room to track the CQ");
	}
	return cq;
}

static void lp_srq_event(struct ib_event *ev, void *ctx)
{
	struct lp_env *env = ctx;

	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		env->srq_events++;
}

static void lp_srq_free(struct kunit_resource *res)
{
	sr_destroy_srq(res->data, NULL);
}

struct sr_srq *lp_srq(struct kunit *test, struct lp_env *env,
			     u32 limit)
{
	struct ib_srq_init_attr init = {
		.attr = { .max_wr = 8, .max_sge = 2, .srq_limit = limit },
		.srq_type = IB_SRQT_BASIC,
	};
	struct sr_srq *srq = kunit_kzalloc(test, sizeof(*srq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, srq);
	srq->ibsrq.device = &env->sdev->ibdev;
	srq->ibsrq.pd = env->pd;
	srq->ibsrq.event_handler = lp_srq_event;
	srq->ibsrq.srq_context = env;
	KUNIT_ASSERT_EQ(test, sr_create_srq(&srq->ibsrq, &init, NULL), 0);
	if (!kunit_alloc_resource(test, NULL, lp_srq_free, GFP_KERNEL,
				  &srq->ibsrq)) {
		sr_destroy_srq(&srq->ibsrq, NULL);
		KUNIT_ASSERT_FAILURE(test, "no room to track the SRQ");
	}
	return srq;
}

static void lp_qp_free(struct kunit_resource *res)
{
	sr_destroy_qp(res->data, NULL);
}

int lp_modify(struct sr_qp *qp, enum ib_qp_state state, int mask,
		     struct ib_qp_attr *a)
{
	a->qp_state = state;
	return sr_modify_qp(&qp->ibqp, a, mask | IB_QP_STATE, NULL);
}

/*
 * A kernel QP of @type with room for @max_wr sends and receives, on its own
 * CQ (on @srq if not NULL), as the core hands it to create_qp, moved to
 * @state (RESET to RTS).
 */
struct sr_qp *lp_qp_sized(struct kunit *test, struct lp_env *env,
				 enum ib_qp_type type, struct sr_srq *srq,
				 enum ib_qp_state state, u32 max_wr)
{
	struct ib_qp_init_attr init = {
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = max_wr, .max_recv_wr = max_wr,
			 .max_send_sge = 3, .max_recv_sge = 3,
			 .max_inline_data = 64 },
	};
	struct sr_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	struct sr_cq *cq = lp_cq(test, env);
	struct ib_qp_attr a = { .qkey = LP_QKEY, .port_num = 1 };

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->ibqp.device = &env->sdev->ibdev;
	qp->ibqp.pd = env->pd;
	qp->ibqp.qp_type = type;
	qp->ibqp.send_cq = &cq->ibcq;
	qp->ibqp.recv_cq = &cq->ibcq;
	qp->ibqp.srq = srq ? &srq->ibsrq : NULL;
	init.srq = qp->ibqp.srq;
	KUNIT_ASSERT_EQ(test, sr_create_qp(&qp->ibqp, &init, NULL), 0);
	if (!kunit_alloc_resource(test, NULL, lp_qp_free, GFP_KERNEL,
				  &qp->ibqp)) {
		sr_destroy_qp(&qp->ibqp, NULL);
		KUNIT_ASSERT_FAILURE(test, "no room to track the QP");
	}
	if (state == IB_QPS_RESET || !sr_qp_is_ud(qp))
		return qp;
	/* The GSI QP's port is its device's: no IB_QP_PORT */
	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_INIT, IB_QP_PKEY_INDEX |
					(type == IB_QPT_GSI ? 0 : IB_QP_PORT) |
					IB_QP_QKEY, &a), 0);
	if (state == IB_QPS_INIT)
		return qp;
	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_RTR, 0, &a), 0);
	if (state == IB_QPS_RTR)
		return qp;
	a.sq_psn = 100;
	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_RTS, IB_QP_SQ_PSN, &a), 0);
	return qp;
}

struct sr_qp *lp_qp(struct kunit *test, struct lp_env *env,
			   enum ib_qp_type type, struct sr_srq *srq,
			   enum ib_qp_state state)
{
	return lp_qp_sized(test, env, type, srq, state, 8);
}

static void lp_ah_free(struct kunit_resource *res)
{
	sr_destroy_ah(res->data, 0);
}

/**
 * lp_path - RoCE v2 attributes from and to @addr over lo
 * @test: the test
 * @env: the device
 * @a: filled in (its source GID attribute freed with the test)
 * @addr: "127.0.0.1" or "::1"
 */
void lp_path(struct kunit *test, struct lp_env *env, struct rdma_ah_attr *a,
	     const char *addr)
{
	struct ib_gid_attr *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	__be32 v4;

	KUNIT_ASSERT_NOT_NULL(test, g);
	g->gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP;
	RCU_INIT_POINTER(g->ndev, env->sdev->ndev);
	if (in4_pton(addr, -1, (u8 *)&v4, -1, NULL))
		ipv6_addr_set_v4mapped(v4, (struct in6_addr *)g->gid.raw);
	else
		KUNIT_ASSERT_EQ(test, in6_pton(addr, -1, g->gid.raw, -1, NULL),
				1);
	memset(a, 0, sizeof(*a));
	a->type = RDMA_AH_ATTR_TYPE_ROCE;
	a->ah_flags = IB_AH_GRH;
	a->grh.dgid = g->gid;
	a->grh.sgid_attr = g;
	a->grh.hop_limit = 64;
}

/* An AH of @pd from and to @addr ("127.0.0.1" or "::1") over lo. */
struct sr_ah *lp_ah(struct kunit *test, struct lp_env *env,
		    struct ib_pd *pd, const char *addr)
{
	struct sr_ah *ah = kunit_kzalloc(test, sizeof(*ah), GFP_KERNEL);
	struct rdma_ah_init_attr init = { .flags = RDMA_CREATE_AH_SLEEPABLE };
	struct rdma_ah_attr a;

	KUNIT_ASSERT_NOT_NULL(test, ah);
	lp_path(test, env, &a, addr);
	init.ah_attr = &a;
	ah->ibah.device = &env->sdev->ibdev;
	ah->ibah.pd = pd;
	KUNIT_ASSERT_EQ(test, sr_create_ah(&ah->ibah, &init, NULL), 0);
	if (!kunit_alloc_resource(test, NULL, lp_ah_free, GFP_KERNEL,
				  &ah->ibah)) {
		sr_destroy_ah(&ah->ibah, 0);
		KUNIT_ASSERT_FAILURE(test, "no room to track the AH");
	}
	return ah;
}

/* A completion of @cq, waited for up to 2 s; false if none came. */
bool lp_poll(struct sr_cq *cq, struct ib_wc *wc)
{
	unsigned long end = jiffies + 2 * HZ;

	do {
		if (sr_poll_cq(&cq->ibcq, 1, wc) == 1)
			return true;
		usleep_range(2000, 5000);
	} while (time_before(jiffies, end));
	return false;
}

/* No completion in @cq, after the packets in flight had time. */
void lp_expect_none(struct kunit *test, struct sr_cq *cq)
{
	struct ib_wc wc;

	msleep(100);
	KUNIT_EXPECT_EQ(test, sr_poll_cq(&cq->ibcq, 1, &wc), 0);
}

/*
 * No MR answers to @key.  One that wrongly does is let go again, so that
 * its dereg_mr does not wait for ever and the case ends.
 */
void lp_expect_no_mr(struct kunit *test, struct sr_dev *sdev, u32 key)
{
	struct sr_mr *mr = sr_mr_get(sdev, key);

	KUNIT_EXPECT_NULL_MSG(test, mr, "key %#x", key);
	if (mr)
		sr_mr_put(mr);
}

int lp_recv(struct lp_env *env, struct sr_qp *qp, u64 id, void *buf,
		   u32 len)
{
	struct ib_sge sge = { .addr = (uintptr_t)buf, .length = len,
			      .lkey = env->mr->ibmr.lkey };
	struct ib_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;

	return sr_post_recv(&qp->ibqp, &wr, &bad);
}

int lp_srq_recv(struct lp_env *env, struct sr_srq *srq, u64 id,
		       void *buf, u32 len)
{
	struct ib_sge sge = { .addr = (uintptr_t)buf, .length = len,
			      .lkey = env->mr->ibmr.lkey };
	struct ib_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;

	return sr_post_srq_recv(&srq->ibsrq, &wr, &bad);
}

