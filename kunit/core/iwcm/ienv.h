/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment of the iw_cm suites: two test iWARP devices on the wire
 * (iwd.h), a QP on each, and consumers (struct tc) whose handler records
 * every event iw_cm delivers.  Each case gets a fresh one (ienv_init,
 * ienv_exit as the suite's init and exit).
 *
 * Waits are bounded (IENV_WAIT_S) only so that a broken case ends; no
 * case asserts on time.
 */
#ifndef RDMA_KUNIT_IENV_H
#define RDMA_KUNIT_IENV_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/in.h>
#include <linux/wait.h>
#include <rdma/iw_cm.h>
#include "iwd.h"

#define IENV_WAIT_S	120
#define TC_MAX_EV	16
#define TC_PDATA	32
#define IENV_PORT	4420

/**
 * struct tc_ev - an event a consumer's handler got
 * @type: the event
 * @status: its status
 * @cm_id: the identifier it came with (a new one for a request)
 * @laddr: its local address
 * @raddr: its remote address
 * @ord: its ORD
 * @ird: its IRD
 * @len: its private data length
 * @pdata: the first TC_PDATA bytes of its private data
 */
struct tc_ev {
	enum iw_cm_event_type type;
	int status;
	struct iw_cm_id *cm_id;
	struct sockaddr_in laddr;
	struct sockaddr_in raddr;
	u8 ord;
	u8 ird;
	u8 len;
	u8 pdata[TC_PDATA];
};

/**
 * struct tc - a consumer of iw_cm
 * @lock: protects @ev, @n, @late
 * @wq: woken at every event
 * @ev: the events, in the order the handler got them
 * @n: how many it got (also beyond TC_MAX_EV)
 * @late: events it got after @gone was set
 * @ret: the handler's return value per event type; set before
 * @child: the context a request's new identifier gets, or NULL
 * @gate: if set, the handler waits for it before returning
 * @gone: the identifier was destroyed: any event now is late
 */
struct tc {
	spinlock_t lock;
	wait_queue_head_t wq;
	struct tc_ev ev[TC_MAX_EV];
	int n;
	int late;
	int ret[IW_CM_EVENT_CLOSE + 1];
	struct tc *child;
	struct completion *gate;
	bool gone;
};

/**
 * struct ienv - a case's world
 * @test: the case
 * @d1: the active side's device
 * @d2: the passive side's device
 * @qa: the active side's QP (on @d1)
 * @qp: the passive side's QP (on @d2)
 * @a: the active consumer
 * @l: the listening consumer
 * @p: the passive consumer (@l's requests get it as context)
 * @act: the active identifier, or NULL once gone
 * @lis: the listening identifier, or NULL once gone
 * @child: the passive identifier of the last request, or NULL once gone
 */
struct ienv {
	struct kunit *test;
	struct iwd *d1;
	struct iwd *d2;
	struct ib_qp *qa;
	struct ib_qp *qp;
	struct tc a;
	struct tc l;
	struct tc p;
	struct iw_cm_id *act;
	struct iw_cm_id *lis;
	struct iw_cm_id *child;
};

int ienv_init(struct kunit *test);
void ienv_exit(struct kunit *test);

void tc_init(struct tc *tc);
struct tc *ienv_tc(struct kunit *test);
int tc_handler(struct iw_cm_id *cm_id, struct iw_cm_event *event);
bool tc_wait(struct tc *tc, int n);
int tc_count(struct tc *tc);
struct tc_ev tc_get(struct tc *tc, int i);
void tc_gone(struct tc *tc);
int tc_late(struct tc *tc);

struct sockaddr_in ienv_sin(u32 host, u16 port);
struct iw_cm_id *ienv_listen(struct ienv *env, struct iwd *d, struct tc *tc,
			     u16 port, int backlog);
struct iw_cm_id *ienv_connect(struct ienv *env, struct tc *tc,
			      struct ib_qp *qp, u16 lport, u16 port,
			      const char *pdata);
void ienv_connected_from(struct ienv *env, u16 lport);
void ienv_connected(struct ienv *env);
void ienv_destroy(struct iw_cm_id **cm_id, struct tc *tc);
int ienv_qp_refs(struct ib_qp *qp);
bool ienv_wait_refs(struct ib_qp *qp, int n);

#endif
