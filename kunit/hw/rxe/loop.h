/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device over the loopback netdev for the data-path suites of
 * rdma_kunit_rxe (ud_test.c, rc_test.c; mem_test.c asks it about keys):
 * its packets leave through sr_xmit(), come back through lo and reach
 * the suite's own RoCEv2 sockets (127.0.0.1 and ::1, port 4791), which
 * hand them to sr_recv() as the driver's sockets do, losing those asked
 * for.  Everything made is freed with the test.
 */
#ifndef RXE_KUNIT_LOOP_H
#define RXE_KUNIT_LOOP_H

#include <kunit/test.h>
#include "ah.h"
#include "cq.h"
#include "mr.h"
#include "qp.h"
#include "srq.h"

/* The Q_Key of the suites' UD QPs */
#define LP_QKEY		0x11111111

/**
 * struct lp_env - a device over lo and what its QPs share
 * @sdev: the device (not registered: the suite is its core)
 * @pd: the PD of everything
 * @mr: a DMA MR of @pd, local write: the lkey of every buffer
 * @sk4: the suite's IPv4 RoCEv2 socket, its packets to sr_recv(@sdev)
 * @sk6: the IPv6 one
 * @srq_events: SRQ limit events seen
 * @drop: packets the sockets drop instead of receiving, by their order
 *	of arrival (bit n: the nth from when it was set), a lossy wire
 * @seen: packets the sockets saw since @drop was set
 * @before: called once, in the receiving softirq, before packet
 *	@before_at (counted as @drop's) reaches the device; NULL for none
 *	(or once it ran)
 * @before_at: see @before
 * @before_arg: @before's argument
 */
struct lp_env {
	struct sr_dev *sdev;
	struct ib_pd *pd;
	struct sr_mr *mr;
	struct socket *sk4;
	struct socket *sk6;
	int srq_events;
	unsigned long drop;
	atomic_t seen;
	void (*before)(struct lp_env *env, void *arg);
	unsigned int before_at;
	void *before_arg;
};

struct lp_env *lp_env(struct kunit *test);
void lp_lose(struct lp_env *env, unsigned long drop);
void lp_before(struct lp_env *env, unsigned int n,
	       void (*fn)(struct lp_env *env, void *arg), void *arg);
struct sr_cq *lp_cq(struct kunit *test, struct lp_env *env);
struct sr_srq *lp_srq(struct kunit *test, struct lp_env *env, u32 limit);
int lp_modify(struct sr_qp *qp, enum ib_qp_state state, int mask,
	      struct ib_qp_attr *a);
struct sr_qp *lp_qp_sized(struct kunit *test, struct lp_env *env,
			  enum ib_qp_type type, struct sr_srq *srq,
			  enum ib_qp_state state, u32 max_wr);
struct sr_qp *lp_qp(struct kunit *test, struct lp_env *env,
		    enum ib_qp_type type, struct sr_srq *srq,
		    enum ib_qp_state state);
void lp_path(struct kunit *test, struct lp_env *env, struct rdma_ah_attr *a,
	     const char *addr);
struct sr_ah *lp_ah(struct kunit *test, struct lp_env *env,
		    struct ib_pd *pd, const char *addr);
bool lp_poll(struct sr_cq *cq, struct ib_wc *wc);
void lp_expect_none(struct kunit *test, struct sr_cq *cq);
void lp_expect_no_mr(struct kunit *test, struct sr_dev *sdev, u32 key);
int lp_recv(struct lp_env *env, struct sr_qp *qp, u64 id, void *buf,
	    u32 len);
int lp_srq_recv(struct lp_env *env, struct sr_srq *srq, u64 id, void *buf,
		u32 len);

#endif /* RXE_KUNIT_LOOP_H */
