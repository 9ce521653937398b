/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The network the address suites resolve in (topo.c), made by each suite's
 * suite_init and taken down by its suite_exit:
 *
 *   init_net                         namespace "ktaddr"
 *   kta0 10.71.0.1/24  <-- veth -->  kta1 10.71.0.2/24
 *        fd71::1/64                       fd71::2/64
 *        fe80::71:1/64                    fe80::71:2/64
 *
 * In init_net, 10.72.0.0/24 and fd72::/64 are routed through kta1's
 * addresses, 198.51.100.0/24 is unreachable (an "unreachable" route);
 * 10.71.0.9 is on the link but nobody answers for it.  "ktaddr" has no
 * route but its link's.
 *
 * A callback recorder (struct topo_rec) collects what a resolution's
 * callback got.
 */
#ifndef RDMA_KUNIT_ADDR_TOPO_H
#define RDMA_KUNIT_ADDR_TOPO_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/socket.h>
#include <rdma/ib_addr.h>

#define TOPO_NS		"ktaddr"
#define TOPO_DEV0	"kta0"
#define TOPO_DEV1	"kta1"

/* What the suites look up, once the network is up */
struct topo {
	struct net *ns;			/* "ktaddr", held */
	struct net_device *dev0;	/* kta0, held */
	struct net_device *dev1;	/* kta1, held */
	u8 mac0[ETH_ALEN];
	u8 mac1[ETH_ALEN];
};

extern struct topo topo;

int topo_up(struct kunit_suite *suite);
void topo_down(struct kunit_suite *suite);

/* A socket address of either family, from its text */
union topo_sa {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_storage ss;
};

void topo_sa(struct kunit *test, union topo_sa *sa, const char *text);

/**
 * struct topo_rec - what a resolution's callback got
 * @done: completed by each call
 * @calls: how many calls
 * @status: the last status
 * @src: the last source address
 * @in_worker: the last call ran in a workqueue worker
 * @caller: the thread that asked; @from_caller: a call ran in it
 * @block: if set, a call waits for it before returning
 * @entered: completed when a call begins
 */
struct topo_rec {
	struct completion done;
	atomic_t calls;
	int status;
	union topo_sa src;
	bool in_worker;
	struct task_struct *caller;
	bool from_caller;
	struct completion *block;
	struct completion entered;
};

void topo_rec_init(struct topo_rec *rec);
void topo_rec_cb(int status, struct sockaddr *src, struct rdma_dev_addr *addr,
		 void *context);
bool topo_rec_wait(struct topo_rec *rec);
bool topo_rec_done(struct kunit *test, struct topo_rec *rec,
		   struct rdma_dev_addr *a);
void topo_dev_addr(struct rdma_dev_addr *a, struct net *net);
int topo_resolve(struct kunit *test, const char *src, const char *dst,
		 struct rdma_dev_addr *a, unsigned long timeout_ms,
		 struct topo_rec *rec);

#endif
