/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The internal interface of iw_cm, the iWARP connection manager
 * (<rdma/iw_cm.h>).
 *
 *   main.c    module entry: the event work queue, the default_backlog
 *             sysctl (net/iw_cm/default_backlog)
 *   id.c      the connection identifier: creation, references (its own
 *             and the driver's add_ref/rem_ref), teardown, destruction
 *   event.c   the driver's upcall (iw_cm_id.event_handler): events
 *             queued per identifier and delivered to the consumer's
 *             handler, one at a time and in order, from the work queue
 *   conn.c    the consumer's calls: listen, connect, accept, reject,
 *             disconnect
 *   qp.c      the QP of a connection: the driver's references, the state
 *             moves of a disconnect, iw_cm_init_qp_attr
 *   reason.c  iwcm_reject_msg
 *
 * conn.c and event.c sit on id.c and qp.c.
 *
 * Locking: one spinlock per identifier, iwcm_id.lock, taken with
 * interrupts off (drivers may report events from interrupt context).  It
 * protects everything in struct iwcm_id below it; nothing nests inside
 * it but the driver's iw_add_ref() of a QP (an atomic reference count in
 * every driver).  Driver operations that may take the driver's own locks
 * (iw_connect, iw_accept, iw_reject, iw_create_listen, iw_destroy_listen,
 * iw_get_qp, iw_rem_ref, modify_qp) are called with no lock of ours held,
 * and the driver may report events while holding its locks.  Consumer
 * handlers run with no lock held.
 *
 * Lifetime: an identifier holds one reference for its owner (the
 * consumer, until iw_destroy_cm_id() or a handler's non-zero return), one
 * per event queued, and one per driver add_ref(); the last put frees it.
 * Teardown waits until no connect, accept or reject is in progress
 * (@busy: from the call until the driver's answer has been delivered);
 * iw_destroy_cm_id() then waits for a handler that is running, and after
 * it no handler runs: queued and later events are dropped.
 */
#ifndef OOT_CORE_IWCM_INTERNAL_H
#define OOT_CORE_IWCM_INTERNAL_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/iw_cm.h>

/* The states of an identifier. */
enum iwcm_state {
	IWCM_IDLE,		/* new, or its connection is over */
	IWCM_LISTEN,		/* the driver reports connect requests */
	IWCM_CONN_SENT,		/* connecting: waits for the peer's answer */
	IWCM_CONN_RECV,		/* a request, waits for accept or reject */
	IWCM_ESTABLISHED,	/* connected */
	IWCM_CLOSING,		/* disconnecting: waits for the close */
	IWCM_DESTROYING,	/* torn down; events are dropped */
};

/*
 * Events an identifier may have queued: an active connection's reply,
 * disconnect and close (and one spare), a passive connection's
 * established, disconnect and close.  A listener has its backlog.
 */
#define IWCM_ACTIVE_EVENTS	4
#define IWCM_PASSIVE_EVENTS	3

/**
 * struct iwcm_id - a connection identifier
 * @id: what the consumer and the driver see
 * @refs: references (see the header comment); atomic
 * @work: delivers @events; queued on iwcm_wq by the upcall
 * @wait: woken when @busy or @in_handler clears
 * @lock: protects the members below it
 * @state: enum iwcm_state
 * @qp: the connection's QP, with a driver reference of ours, or NULL
 * @busy: a connect, accept or reject is in progress (from the call
 *	until the driver's answer, if one comes, has been taken)
 * @in_handler: the work is delivering an event of this identifier
 * @dropping: torn down: events are no longer delivered
 * @events: queued events (struct iwcm_event), oldest first
 * @queued: length of @events
 * @limit: how long @events may grow; past it the upcall fails
 */
struct iwcm_id {
	struct iw_cm_id id;
	refcount_t refs;
	struct work_struct work;
	wait_queue_head_t wait;
	spinlock_t lock;
	enum iwcm_state state;
	struct ib_qp *qp;
	bool busy;
	bool in_handler;
	bool dropping;
	struct list_head events;
	unsigned int queued;
	unsigned int limit;
};

static inline struct iwcm_id *to_iwcm_id(struct iw_cm_id *cm_id)
{
	return container_of(cm_id, struct iwcm_id, id);
}

/* main.c */
extern struct workqueue_struct *iwcm_wq;
int iwcm_default_backlog(void);

/* id.c */
void iwcm_id_get(struct iwcm_id *id);
bool iwcm_id_put(struct iwcm_id *id);
void iwcm_id_teardown(struct iwcm_id *id);
void iwcm_id_abandon(struct iwcm_id *id);
void iwcm_id_unbusy(struct iwcm_id *id);
int iwcm_id_map(struct iw_cm_id *cm_id);

/* event.c */
int iwcm_event_upcall(struct iw_cm_id *cm_id, struct iw_cm_event *event);
void iwcm_event_work(struct work_struct *work);

/* qp.c */
struct ib_qp *iwcm_qp_get(struct ib_device *device, u32 qpn);
void iwcm_qp_put(struct ib_device *device, struct ib_qp *qp);
struct ib_qp *iwcm_qp_take(struct iwcm_id *id);
void iwcm_qp_move(struct ib_qp *qp, enum ib_qp_state state);

#endif
