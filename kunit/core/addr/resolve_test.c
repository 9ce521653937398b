// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_addr_resolve: core/addr/resolve.c, the requests of
 * rdma_resolve_ip() and rdma_addr_cancel() on the network of topo.h: the
 * callback from a workqueue after ARP, timeouts, a route lost while
 * waiting, cancellation (pending, with its callback running, racing with
 * completion), the request's namespace outliving its caller's reference,
 * resolution by a RoCE GID attribute, and bad input.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include "tk.h"
#include "tnet.h"
#include "topo.h"

/* Forget kta0's neighbours, so that the next resolution must ask */
static void flush_neigh(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, tnet_ip("neigh flush dev " TOPO_DEV0), 0);
}

static void resolve_v4_after_arp(struct kunit *test)
{
	struct rdma_dev_addr a;
	struct topo_rec rec;

	flush_neigh(test);
	topo_rec_init(&rec);
	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, topo_resolve(test, NULL, "10.71.0.2", &a, 5000,
					   &rec), 0);
	if (!topo_rec_done(test, &rec, &a))
		return;
	KUNIT_EXPECT_EQ(test, rec.status, 0);
	/* From the workqueue, never in the caller */
	KUNIT_EXPECT_TRUE(test, rec.in_worker);
	KUNIT_EXPECT_FALSE(test, rec.from_caller);
	/* The route's source address comes back */
	KUNIT_EXPECT_EQ(test, rec.src.in.sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, rec.src.in.sin_addr.s_addr, htonl(0x0a470001));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac1));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.src_dev_addr, topo.mac0));
	KUNIT_EXPECT_EQ(test, a.bound_dev_if, topo.dev0->ifindex);
	KUNIT_EXPECT_EQ(test, a.network, RDMA_NETWORK_IB);
	KUNIT_EXPECT_EQ(test, a.hoplimit, 64);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 1);
}

/* Nobody answers for 10.71.0.9: the request times out */
static void resolve_timeout(struct kunit *test)
{
	static const unsigned long timeouts[] = { 0, 300, 2500 };
	struct rdma_dev_addr a;
	struct topo_rec rec;
	int i;

	for (i = 0; i < ARRAY_SIZE(timeouts); i++) {
		topo_rec_init(&rec);
		topo_dev_addr(&a, &init_net);
		KUNIT_ASSERT_EQ(test, topo_resolve(test, NULL, "10.71.0.9", &a,
						   timeouts[i], &rec), 0);
		if (!topo_rec_done(test, &rec, &a))
			return;
		KUNIT_EXPECT_EQ(test, rec.status, -ETIMEDOUT);
		KUNIT_EXPECT_TRUE(test, rec.in_worker);
	}
}

/* The route goes away while the neighbour is awaited: its error, early */
static void resolve_route_lost(struct kunit *test)
{
	struct rdma_dev_addr a;
	struct topo_rec rec;

	KUNIT_ASSERT_EQ(test, tnet_ip("addr add 10.75.0.1/24 dev " TOPO_DEV0), 0);
	topo_rec_init(&rec);
	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, topo_resolve(test, NULL, "10.75.0.9", &a, 60000,
					   &rec), 0);
	KUNIT_EXPECT_EQ(test, tnet_ip("addr del 10.75.0.1/24 dev " TOPO_DEV0), 0);
	if (!topo_rec_done(test, &rec, &a))
		return;
	KUNIT_EXPECT_EQ(test, rec.status, -ENETUNREACH);
}

/* Bad input: refused at once, and no callback ever comes */
static void resolve_bad_input(struct kunit *test)
{
	struct sockaddr_storage ss = {};
	union topo_sa v4, v6;
	struct rdma_dev_addr a;
	struct topo_rec rec;

	topo_rec_init(&rec);
	topo_sa(test, &v4, "10.71.0.2");
	topo_sa(test, &v6, "fd71::2");
	topo_dev_addr(&a, &init_net);
	/* Families that are not IP */
	ss.ss_family = AF_IB;
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(NULL, (struct sockaddr *)&ss, &a,
					      1000, topo_rec_cb, false, &rec),
			-EAFNOSUPPORT);
	ss.ss_family = AF_UNIX;
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(NULL, (struct sockaddr *)&ss, &a,
					      1000, topo_rec_cb, false, &rec),
			-EAFNOSUPPORT);
	ss.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(NULL, (struct sockaddr *)&ss, &a,
					      1000, topo_rec_cb, false, &rec),
			-EAFNOSUPPORT);
	/* Source and destination of two families */
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(&v6.sa, &v4.sa, &a, 1000,
					      topo_rec_cb, false, &rec), -EINVAL);
	/* No namespace, no callback, no destination, no GID attribute */
	a.net = NULL;
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(NULL, &v4.sa, &a, 1000,
					      topo_rec_cb, false, &rec), -EINVAL);
	a.net = &init_net;
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(NULL, &v4.sa, &a, 1000, NULL,
					      false, &rec), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(NULL, NULL, &a, 1000,
					      topo_rec_cb, false, &rec), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(NULL, &v4.sa, &a, 1000,
					      topo_rec_cb, true, &rec), -EINVAL);
	/* A source address this host does not have, or cannot have */
	KUNIT_EXPECT_EQ(test, topo_resolve(test, "10.9.9.9", "10.71.0.2", &a,
					   1000, &rec), -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, topo_resolve(test, "224.0.0.5", "10.71.0.2", &a,
					   1000, &rec), -EINVAL);
	/* No route: the routing error at once */
	KUNIT_EXPECT_EQ(test, topo_resolve(test, NULL, "198.51.100.1", &a,
					   1000, &rec), -EHOSTUNREACH);
	topo_dev_addr(&a, topo.ns);
	KUNIT_EXPECT_EQ(test, topo_resolve(test, NULL, "192.0.2.1", &a, 1000,
					   &rec), -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, topo_resolve(test, NULL, "fd99::1", &a, 1000,
					   &rec), -ENETUNREACH);
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 0);
}

/* A pending request cancelled: no callback, not even at its deadline */
static void cancel_pending(struct kunit *test)
{
	struct rdma_dev_addr a, other;
	struct topo_rec rec;

	topo_rec_init(&rec);
	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, topo_resolve(test, NULL, "10.71.0.9", &a, 1500,
					   &rec), 0);
	rdma_addr_cancel(&a);
	/* Past the deadline and a retry */
	msleep(2000);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 0);
	/* Nothing to cancel: nothing happens */
	topo_dev_addr(&other, &init_net);
	rdma_addr_cancel(&other);
	rdma_addr_cancel(&a);
}

static void cancel_fn(void *arg)
{
	rdma_addr_cancel(arg);
}

/* Cancel while the callback runs: it waits for the callback to return */
static void cancel_waits_for_callback(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(release);
	struct rdma_dev_addr a;
	struct topo_rec rec;
	struct tk_thread t;

	topo_rec_init(&rec);
	rec.block = &release;
	topo_dev_addr(&a, &init_net);
	KUNIT_ASSERT_EQ(test, topo_resolve(test, NULL, "10.71.0.1", &a, 1000,
					   &rec), 0);
	if (!wait_for_completion_timeout(&rec.entered, 20 * HZ)) {
		complete(&release);
		rdma_addr_cancel(&a);
		KUNIT_FAIL(test, "no callback within 20 s");
		return;
	}
	tk_expect_blocks(test, &t, cancel_fn, &a);
	complete(&release);
	tk_join(&t);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 1);
	KUNIT_EXPECT_EQ(test, rec.status, 0);
}

#define RACE_ROUNDS	64

struct race_ctx {
	atomic_t after_cancel;	/* callbacks that ran after cancel returned */
	atomic_t calls;
	bool cancelled[RACE_ROUNDS];
	struct rdma_dev_addr addr[RACE_ROUNDS];
};

static void race_cb(int status, struct sockaddr *src,
		    struct rdma_dev_addr *addr, void *context)
{
	struct race_ctx *ctx = context;
	int i = addr - ctx->addr;

	if (READ_ONCE(ctx->cancelled[i]))
		atomic_inc(&ctx->after_cancel);
	atomic_inc(&ctx->calls);
}

/*
 * Requests that complete at once, cancelled at once: each gets its
 * callback before rdma_addr_cancel() returns, or never.
 */
static void cancel_races_completion(struct kunit *test)
{
	struct race_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	union topo_sa dst;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	topo_sa(test, &dst, "10.71.0.1");
	for (i = 0; i < RACE_ROUNDS; i++) {
		topo_dev_addr(&ctx->addr[i], &init_net);
		KUNIT_ASSERT_EQ(test, rdma_resolve_ip(NULL, &dst.sa,
						      &ctx->addr[i], 1000,
						      race_cb, false, ctx), 0);
		if (i & 1)
			udelay(i * 20);
		rdma_addr_cancel(&ctx->addr[i]);
		WRITE_ONCE(ctx->cancelled[i], true);
	}
	msleep(200);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->after_cancel), 0);
	KUNIT_EXPECT_LE(test, atomic_read(&ctx->calls), RACE_ROUNDS);
}

/* Namespaces that went away, recorded by a pernet exit of the suite's */
static struct net *gone_net;
static atomic_t gone_exits;

static void gone_exit(struct net *net)
{
	if (net == READ_ONCE(gone_net))
		atomic_inc(&gone_exits);
}

static struct pernet_operations gone_ops = {
	.exit = gone_exit,
};

/*
 * The caller lets go of its namespace and the namespace is deleted while a
 * request in it waits: the request keeps the namespace until its callback
 * (-ETIMEDOUT: nobody answers there), and the namespace goes after it.
 */
static void resolve_netns_goes(struct kunit *test)
{
	static const char * const cmds[] = {
		"netns add ktgone",
		"-n ktgone link add ktg0 type veth peer name ktg1",
		"-n ktgone addr add 10.74.0.1/24 dev ktg0",
		"-n ktgone link set ktg0 up",
		"-n ktgone link set ktg1 up",
	};
	struct rdma_dev_addr a;
	struct topo_rec rec;
	struct net *net;
	int i;

	tnet_ip("netns del ktgone");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		KUNIT_ASSERT_EQ(test, tnet_ip("%s", cmds[i]), 0);
	net = tnet_netns("ktgone");
	KUNIT_ASSERT_FALSE(test, IS_ERR(net));
	WRITE_ONCE(gone_net, net);
	atomic_set(&gone_exits, 0);
	if (register_pernet_subsys(&gone_ops)) {
		put_net(net);
		KUNIT_FAIL(test, "register_pernet_subsys");
		return;
	}

	topo_rec_init(&rec);
	topo_dev_addr(&a, net);
	KUNIT_EXPECT_EQ(test, topo_resolve(test, NULL, "10.74.0.9", &a, 3000,
					   &rec), 0);
	put_net(net);
	KUNIT_EXPECT_EQ(test, tnet_ip("netns del ktgone"), 0);
	if (topo_rec_done(test, &rec, &a)) {
		KUNIT_EXPECT_EQ(test, rec.status, -ETIMEDOUT);
		KUNIT_EXPECT_EQ(test, atomic_read(&gone_exits), 0);
	}
	/* Namespaces are dismantled by a work queue: give it 30 s */
	for (i = 0; i < 300 && atomic_read(&gone_exits) != 1; i++)
		msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&gone_exits), 1);
	unregister_pernet_subsys(&gone_ops);
	WRITE_ONCE(gone_net, NULL);
}

/* The same address from each side of the pair: the namespace decides */
static void resolve_in_netns(struct kunit *test)
{
	struct rdma_dev_addr a;
	struct topo_rec rec;

	topo_rec_init(&rec);
	topo_dev_addr(&a, topo.ns);
	KUNIT_ASSERT_EQ(test, topo_resolve(test, NULL, "10.71.0.1", &a, 5000,
					   &rec), 0);
	if (!topo_rec_done(test, &rec, &a))
		return;
	KUNIT_EXPECT_EQ(test, rec.status, 0);
	KUNIT_EXPECT_EQ(test, rec.src.in.sin_addr.s_addr, htonl(0x0a470002));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.src_dev_addr, topo.mac1));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac0));
	KUNIT_EXPECT_EQ(test, a.bound_dev_if, topo.dev1->ifindex);
}

/* The slot of the RoCE v2 GID of 10.71.0.1 on @dev's port 1, or -1 */
static int roce_v4_slot(struct ib_device *dev)
{
	const struct ib_gid_attr *attr;
	union ib_gid want;
	int i, found = -1;

	ipv6_addr_set_v4mapped(htonl(0x0a470001), (struct in6_addr *)&want);
	for (i = 0; i < 16 && found < 0; i++) {
		attr = rdma_get_gid_attr(dev, 1, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    !memcmp(&attr->gid, &want, sizeof(want)))
			found = i;
		rdma_put_gid_attr(attr);
	}
	return found;
}

/*
 * By a GID attribute: routed from its netdev, in its namespace, whatever
 * the rdma_dev_addr says; -EINVAL once the GID is gone from its table.
 */
static void resolve_by_gid_attr(struct kunit *test)
{
	struct tdev_params p = { .name = "ktaddr%d", .ndev = topo.dev0,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	const struct ib_gid_attr *attr;
	union topo_sa src, dst;
	struct rdma_dev_addr a;
	struct topo_rec rec;
	struct tdev *td;
	int slot;

	td = tk_dev(test, &p);
	KUNIT_ASSERT_TRUE(test, tk_wait_for((slot = roce_v4_slot(&td->ibdev)) >= 0));
	attr = rdma_get_gid_attr(&td->ibdev, 1, slot);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	topo_sa(test, &src, "10.71.0.1");
	topo_sa(test, &dst, "10.71.0.2");
	topo_rec_init(&rec);
	topo_dev_addr(&a, topo.ns);		/* not used */
	a.bound_dev_if = LOOPBACK_IFINDEX;	/* not used */
	a.sgid_attr = attr;
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(&src.sa, &dst.sa, &a, 5000,
					      topo_rec_cb, true, &rec), 0);
	if (!topo_rec_done(test, &rec, &a))
		return;
	KUNIT_EXPECT_EQ(test, rec.status, 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a.dst_dev_addr, topo.mac1));
	KUNIT_EXPECT_EQ(test, a.bound_dev_if, topo.dev0->ifindex);
	KUNIT_EXPECT_PTR_EQ(test, a.net, topo.ns);

	/* Bad input: the GID's address is gone */
	KUNIT_ASSERT_EQ(test, tnet_ip("addr del 10.71.0.1/24 dev " TOPO_DEV0), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(roce_v4_slot(&td->ibdev) < 0));
	topo_rec_init(&rec);
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(&src.sa, &dst.sa, &a, 5000,
					      topo_rec_cb, true, &rec), -EINVAL);
	KUNIT_EXPECT_EQ(test, tnet_ip("addr add 10.71.0.1/24 dev " TOPO_DEV0), 0);
	rdma_put_gid_attr(attr);
	tdev_destroy(td);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 0);
}

static struct kunit_case addr_resolve_cases[] = {
	KUNIT_CASE(resolve_v4_after_arp),
	KUNIT_CASE(resolve_timeout),
	KUNIT_CASE(resolve_route_lost),
	KUNIT_CASE(resolve_bad_input),
	KUNIT_CASE(cancel_pending),
	KUNIT_CASE(cancel_waits_for_callback),
	KUNIT_CASE(cancel_races_completion),
	KUNIT_CASE(resolve_netns_goes),
	KUNIT_CASE(resolve_in_netns),
	KUNIT_CASE(resolve_by_gid_attr),
	{}
};

static struct kunit_suite addr_resolve_suite = {
	.name = "rdma_core_addr_resolve",
	.suite_init = topo_up,
	.suite_exit = topo_down,
	.test_cases = addr_resolve_cases,
};

kunit_test_suites(&addr_resolve_suite);
