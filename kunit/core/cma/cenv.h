/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rdma_cm suites' environment (cenv.c).
 *
 * The network, made by the connection suite's suite_init: a veth pair
 * between init_net (kcma0: 10.74.0.1/24, fd74::1/64) and the namespace
 * "ktcma" (kcma1: 10.74.0.2/24, fd74::2/64), IPv6 duplicate address
 * detection off on both ends; 198.51.100.0/24 is unreachable.  Each case
 * that needs devices makes two RoCE test devices, one on each end
 * (cenv_case()).
 *
 * An event recorder (struct cenv_rec) is the context of the IDs a case
 * makes: it keeps every event with its ID, its status and a copy of its
 * private data, and lets the case wait for one.  The IDs of
 * CONNECT_REQUEST events are recorded too; the case accepts or rejects
 * them under rdma_lock_handler(), or the recorder's @req_ret makes the
 * handler refuse them.
 */
#ifndef RDMA_KUNIT_CMA_CENV_H
#define RDMA_KUNIT_CMA_CENV_H

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/wait.h>
#include <rdma/rdma_cm.h>

#define CENV_NS		"ktcma"
#define CENV_DEV0	"kcma0"
#define CENV_DEV1	"kcma1"
#define CENV_MAX_EVENTS	32
/* CM exchanges under TCG with KASAN: generous */
#define CENV_WAIT_MS	60000

struct tdev;

struct cenv {
	struct net *ns;			/* "ktcma", held */
	struct net_device *dev0;	/* kcma0, held */
	struct net_device *dev1;	/* kcma1, held */
};

extern struct cenv cenv;

int cenv_up(struct kunit_suite *suite);
void cenv_down(struct kunit_suite *suite);

void cenv_wait_gids(struct kunit *test, struct tdev *td,
		    struct net_device *ndev, const char *ip);

union cenv_sa {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_storage ss;
};

void cenv_sa(struct kunit *test, union cenv_sa *sa, const char *text,
	     u16 port);

/**
 * struct cenv_event - one recorded event
 * @id: the ID it came on (a new ID for CONNECT_REQUEST)
 * @event: its copy (private data pointers cleared)
 * @data: the first bytes of its private data
 * @data_len: the event's private_data_len
 * @refused: a CONNECT_REQUEST the handler refused (rdma_cm destroyed its ID)
 * @destroyed: the case destroyed the ID already
 */
struct cenv_event {
	struct rdma_cm_id *id;
	struct rdma_cm_event event;
	u8 data[64];
	u8 data_len;
	bool refused;
	bool destroyed;
};

/**
 * struct cenv_rec - the context of a case's IDs
 * @lock: protects @ev and @n
 * @wq: woken at each event
 * @ev: the events, in order
 * @n: how many
 * @req_ret: what the handler returns for CONNECT_REQUEST
 * @ret: what it returns for other events
 */
struct cenv_rec {
	spinlock_t lock;
	wait_queue_head_t wq;
	struct cenv_event ev[CENV_MAX_EVENTS];
	int n;
	int req_ret;
	int ret;
};

/**
 * struct cenv_case - what a case made: its recorder, IDs and devices
 * @rec: the recorder, the context of @ids
 * @a: the RoCE device on kcma0, or NULL
 * @b: the RoCE device on kcma1, or NULL
 * @ids: the IDs of cenv_id()
 * @n_ids: how many
 * @pd: a PD on @a, on @b (cenv_qp())
 * @cq: a CQ on @a, on @b
 */
struct cenv_case {
	struct cenv_rec rec;
	struct tdev *a;
	struct tdev *b;
	struct rdma_cm_id *ids[16];
	int n_ids;
	struct ib_pd *pd[2];
	struct ib_cq *cq[2];
};

void cenv_rec_init(struct cenv_rec *rec);
struct cenv_case *cenv_case(struct kunit *test, bool devices);
struct rdma_cm_id *cenv_id(struct kunit *test, struct cenv_case *c,
			   struct net *net, enum rdma_ucm_port_space ps,
			   enum ib_qp_type qp_type);
void cenv_destroy(struct cenv_case *c, struct rdma_cm_id *id);
struct ib_qp *cenv_qp(struct kunit *test, struct cenv_case *c,
		     struct rdma_cm_id *id);
const struct cenv_event *cenv_wait(struct kunit *test, struct cenv_rec *rec,
				   struct rdma_cm_id *id,
				   enum rdma_cm_event_type type);
const struct cenv_event *cenv_wait_n(struct kunit *test, struct cenv_rec *rec,
				     struct rdma_cm_id *id,
				     enum rdma_cm_event_type type, int n);
int cenv_count(struct cenv_rec *rec, struct rdma_cm_id *id,
	       enum rdma_cm_event_type type);

#endif
