// SPDX-License-Identifier: GPL-2.0
/*
 * The address suites' network and callback recorder (topo.h).
 *
 * topo is written by suite_init and suite_exit only; cases read it.
 */
#include <linux/etherdevice.h>
#include <linux/inet.h>
#include <linux/sched.h>
#include "tnet.h"
#include "topo.h"

struct topo topo;

static const char * const topo_cmds[] = {
	"netns add " TOPO_NS,
	"link add " TOPO_DEV0 " type veth peer name " TOPO_DEV1 " netns " TOPO_NS,
	"addr add 10.71.0.1/24 dev " TOPO_DEV0,
	"addr add fd71::1/64 dev " TOPO_DEV0 " nodad",
	"addr add fe80::71:1/64 dev " TOPO_DEV0 " nodad",
	"-n " TOPO_NS " addr add 10.71.0.2/24 dev " TOPO_DEV1,
	"-n " TOPO_NS " addr add fd71::2/64 dev " TOPO_DEV1 " nodad",
	"-n " TOPO_NS " addr add fe80::71:2/64 dev " TOPO_DEV1 " nodad",
	"link set " TOPO_DEV0 " up",
	"-n " TOPO_NS " link set " TOPO_DEV1 " up",
	"route add 10.72.0.0/24 via 10.71.0.2",
	"-6 route add fd72::/64 via fd71::2",
	"route add unreachable 198.51.100.0/24",
};

/**
 * topo_up - make the suites' network (suite_init)
 * @suite: the suite
 *
 * Return: 0, or the first failure (the network is taken down again).
 */
int topo_up(struct kunit_suite *suite)
{
	int i, ret;

	topo_down(suite);	/* what a crashed run may have left */
	for (i = 0; i < ARRAY_SIZE(topo_cmds); i++) {
		ret = tnet_ip("%s", topo_cmds[i]);
		if (ret) {
			pr_err("%s: ip %s: %d\n", suite->name, topo_cmds[i], ret);
			goto err;
		}
	}
	topo.ns = tnet_netns(TOPO_NS);
	if (IS_ERR(topo.ns)) {
		ret = PTR_ERR(topo.ns);
		topo.ns = NULL;
		goto err;
	}
	topo.dev0 = tnet_dev(&init_net, TOPO_DEV0);
	topo.dev1 = tnet_dev(topo.ns, TOPO_DEV1);
	if (!topo.dev0 || !topo.dev1) {
		ret = -ENODEV;
		goto err;
	}
	ether_addr_copy(topo.mac0, topo.dev0->dev_addr);
	ether_addr_copy(topo.mac1, topo.dev1->dev_addr);
	return 0;

err:
	topo_down(suite);
	return ret < 0 ? ret : -EIO;
}

/**
 * topo_down - take the suites' network down (suite_exit)
 * @suite: the suite
 */
void topo_down(struct kunit_suite *suite)
{
	if (topo.dev0)
		dev_put(topo.dev0);
	if (topo.dev1)
		dev_put(topo.dev1);
	if (topo.ns)
		put_net(topo.ns);
	memset(&topo, 0, sizeof(topo));
	/* Either may be gone already; the veth pair goes with either end. */
	tnet_ip("route del unreachable 198.51.100.0/24");
	tnet_ip("netns del " TOPO_NS);
	tnet_ip("link del " TOPO_DEV0);
}

/**
 * topo_sa - a socket address from its text
 * @test: the case; fails on text that is no address
 * @sa: the address, out
 * @text: "a.b.c.d", "x::y" or "x::y%ifindex"
 */
void topo_sa(struct kunit *test, union topo_sa *sa, const char *text)
{
	const char *end;

	memset(sa, 0, sizeof(*sa));
	if (in4_pton(text, -1, (u8 *)&sa->in.sin_addr, -1, &end) && !*end) {
		sa->in.sin_family = AF_INET;
		return;
	}
	KUNIT_ASSERT_TRUE(test, in6_pton(text, -1, sa->in6.sin6_addr.s6_addr,
					 '%', &end));
	sa->in6.sin6_family = AF_INET6;
	if (*end == '%')
		KUNIT_ASSERT_EQ(test, kstrtou32(end + 1, 10,
						&sa->in6.sin6_scope_id), 0);
}

/**
 * topo_rec_init - an empty recorder for the calling thread
 * @rec: the recorder
 */
void topo_rec_init(struct topo_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	init_completion(&rec->done);
	init_completion(&rec->entered);
	rec->caller = current;
}

/**
 * topo_rec_cb - the callback of rdma_resolve_ip(), recording into a topo_rec
 * @status: the resolution's result
 * @src: the source address used
 * @addr: the resolved addresses
 * @context: the struct topo_rec
 */
void topo_rec_cb(int status, struct sockaddr *src, struct rdma_dev_addr *addr,
		 void *context)
{
	struct topo_rec *rec = context;

	complete(&rec->entered);
	if (rec->block)
		wait_for_completion(rec->block);
	rec->status = status;
	memcpy(&rec->src, src, rdma_addr_size(src));
	rec->in_worker = current->flags & PF_WQ_WORKER;
	if (current == rec->caller)
		rec->from_caller = true;
	atomic_inc(&rec->calls);
	complete(&rec->done);
}

/**
 * topo_rec_wait - wait for a call, at most 20 s (a bound against hangs)
 * @rec: the recorder
 *
 * Return: true if a call came.
 */
bool topo_rec_wait(struct topo_rec *rec)
{
	return wait_for_completion_timeout(&rec->done, 20 * HZ);
}

/**
 * topo_rec_done - wait for a request's callback, or make sure none comes
 * @test: the case; fails when no callback came
 * @rec: the request's recorder
 * @a: the request's addresses
 *
 * A case must not end (an assertion ends it) with a request still out:
 * its callback would write into the case's stack.  Without a callback in
 * 20 s the request is cancelled.
 *
 * Return: true if the callback came.
 */
bool topo_rec_done(struct kunit *test, struct topo_rec *rec,
		   struct rdma_dev_addr *a)
{
	if (topo_rec_wait(rec))
		return true;
	rdma_addr_cancel(a);
	KUNIT_FAIL(test, "no callback within 20 s");
	return false;
}

/**
 * topo_dev_addr - an rdma_dev_addr to resolve in a namespace
 * @a: it
 * @net: the namespace
 */
void topo_dev_addr(struct rdma_dev_addr *a, struct net *net)
{
	memset(a, 0, sizeof(*a));
	a->net = net;
}

/**
 * topo_resolve - rdma_resolve_ip() from text addresses into a recorder
 * @test: the case
 * @src: the source address, or NULL
 * @dst: the destination
 * @a: the addresses (topo_dev_addr())
 * @timeout_ms: the resolution's timeout
 * @rec: the recorder (topo_rec_init())
 *
 * Return: what rdma_resolve_ip() returned.
 */
int topo_resolve(struct kunit *test, const char *src, const char *dst,
		 struct rdma_dev_addr *a, unsigned long timeout_ms,
		 struct topo_rec *rec)
{
	union topo_sa s, d;

	topo_sa(test, &d, dst);
	if (src)
		topo_sa(test, &s, src);
	return rdma_resolve_ip(src ? &s.sa : NULL, &d.sa, a, timeout_ms,
			       topo_rec_cb, false, rec);
}
