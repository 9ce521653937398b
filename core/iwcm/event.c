// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's events and their delivery.
 *
 * The driver reports an event through cm_id->event_handler, in any
 * context.  The upcall copies it (with its private data) into a record,
 * queues the record on the identifier and, if the queue was empty, queues
 * the identifier's work on iwcm_wq; it fails with -ENOMEM when the record
 * cannot be allocated or the identifier already has as many events queued
 * as its role allows (a listener's backlog: the driver then refuses the
 * connection).
 *
 * The work takes the records oldest first until the queue is empty and
 * hands each to the state machine below, which calls the consumer's
 * handler: one event of an identifier at a time, in order.  A connect
 * request makes a new identifier for the listener's handler.  A handler's
 * non-zero return gives the identifier up (id.c).  The identifier's
 * lock (internal.h) guards its state and queue; handlers run without it.
 */
#include "abi/iw_cm/iwcm.h"
#include "internal.h"

/**
 * struct iwcm_event - an event queued on an identifier
 * @entry: in iwcm_id.events
 * @ev: the event as the driver reported it, its private data pointing to
 *	@pdata
 * @pdata: a copy of the private data
 */
struct iwcm_event {
	struct list_head entry;
	struct iw_cm_event ev;
	u8 pdata[];
};

int iwcm_event_upcall(struct iw_cm_id *cm_id, struct iw_cm_event *event)
{
	u8 len = event->private_data ? event->private_data_len : 0;
	struct iwcm_id *id = to_iwcm_id(cm_id);
	struct iwcm_event *rec;
	unsigned long flags;
	int ret = -ENOMEM;

	rec = kmalloc(struct_size(rec, pdata, len), GFP_ATOMIC);
	if (!rec)
		return -ENOMEM;
	rec->ev = *event;
	rec->ev.private_data = len ? memcpy(rec->pdata, event->private_data,
					    len) : NULL;
	rec->ev.private_data_len = len;

	spin_lock_irqsave(&id->lock, flags);
	if (id->queued < id->limit) {
		iwcm_id_get(id);
		if (!id->queued++)
			queue_work(iwcm_wq, &id->work);
		list_add_tail(&rec->entry, &id->events);
		rec = NULL;
		ret = 0;
	}
	spin_unlock_irqrestore(&id->lock, flags);
	kfree(rec);
	return ret;
}

/* The oldest event; @last says whether it was the only one. */
static struct iwcm_event *iwcm_event_pop(struct iwcm_id *id, bool *last)
{
	struct iwcm_event *rec;

	spin_lock_irq(&id->lock);
	rec = list_first_entry(&id->events, struct iwcm_event, entry);
	list_del(&rec->entry);
	*last = !--id->queued;
	spin_unlock_irq(&id->lock);
	return rec;
}

static bool iwcm_listening(struct iwcm_id *id)
{
	bool ret;

	spin_lock_irq(&id->lock);
	ret = id->state == IWCM_LISTEN;
	spin_unlock_irq(&id->lock);
	return ret;
}

/*
 * A connect request on @listener: a new identifier, in CONN_RECV, for the
 * listener's handler.  Nobody takes it if the listener is going or its
 * handler refuses: it is rejected and given up.  If it cannot be made,
 * the request stays unanswered, as the driver's MPA timeout will see.
 */
static void iwcm_on_request(struct iwcm_id *listener, struct iw_cm_event *ev)
{
	struct iw_cm_id *cm_id;
	struct iwcm_id *child;

	cm_id = iw_create_cm_id(listener->id.device, listener->id.cm_handler,
				listener->id.context);
	if (IS_ERR(cm_id))
		return;
	child = to_iwcm_id(cm_id);
	cm_id->provider_data = ev->provider_data;
	cm_id->local_addr = listener->id.local_addr;
	cm_id->remote_addr = ev->remote_addr;
	cm_id->m_local_addr = ev->local_addr;
	cm_id->m_remote_addr = ev->remote_addr;
	child->state = IWCM_CONN_RECV;
	child->limit = IWCM_PASSIVE_EVENTS;
	if (!iwcm_listening(listener) || cm_id->cm_handler(cm_id, ev))
		iwcm_id_abandon(child);
}

/*
 * The peer's answer to our connect: established, or refused (the QP is
 * given back and the identifier is idle again).  The addresses the
 * consumer sees are its own, the driver's go to m_*.
 */
static int iwcm_on_reply(struct iwcm_id *id, struct iw_cm_event *ev)
{
	struct ib_qp *qp = NULL;

	spin_lock_irq(&id->lock);
	if (id->state != IWCM_CONN_SENT) {
		spin_unlock_irq(&id->lock);
		return 0;
	}
	if (ev->status) {
		qp = iwcm_qp_take(id);
		id->state = IWCM_IDLE;
	} else {
		id->id.m_local_addr = ev->local_addr;
		id->id.m_remote_addr = ev->remote_addr;
		ev->local_addr = id->id.local_addr;
		ev->remote_addr = id->id.remote_addr;
		id->state = IWCM_ESTABLISHED;
	}
	id->busy = false;
	wake_up_all(&id->wait);
	spin_unlock_irq(&id->lock);
	if (qp)
		iwcm_qp_put(id->id.device, qp);
	return id->id.cm_handler(&id->id, ev);
}

/* Our accept went through: the passive side is connected. */
static int iwcm_on_established(struct iwcm_id *id, struct iw_cm_event *ev)
{
	spin_lock_irq(&id->lock);
	if (id->state != IWCM_CONN_RECV) {
		spin_unlock_irq(&id->lock);
		return 0;
	}
	id->state = IWCM_ESTABLISHED;
	id->busy = false;
	wake_up_all(&id->wait);
	spin_unlock_irq(&id->lock);
	return id->id.cm_handler(&id->id, ev);
}

/* The peer started closing; the consumer hears of it at the close. */
static void iwcm_on_disconnect(struct iwcm_id *id)
{
	spin_lock_irq(&id->lock);
	if (id->state == IWCM_ESTABLISHED)
		id->state = IWCM_CLOSING;
	spin_unlock_irq(&id->lock);
}

/* The connection is over (the driver moved the QP to the error state). */
static int iwcm_on_close(struct iwcm_id *id, struct iw_cm_event *ev)
{
	struct ib_qp *qp;

	spin_lock_irq(&id->lock);
	if (id->state != IWCM_ESTABLISHED && id->state != IWCM_CLOSING) {
		spin_unlock_irq(&id->lock);
		return 0;
	}
	id->state = IWCM_IDLE;
	qp = iwcm_qp_take(id);
	spin_unlock_irq(&id->lock);
	iwcm_qp_put(id->id.device, qp);
	return id->id.cm_handler(&id->id, ev);
}

/* One event through the state machine; the handler's return value. */
static int iwcm_event_process(struct iwcm_id *id, struct iw_cm_event *ev)
{
	switch (ev->event) {
	case IW_CM_EVENT_CONNECT_REQUEST:
		iwcm_on_request(id, ev);
		return 0;
	case IW_CM_EVENT_CONNECT_REPLY:
		return iwcm_on_reply(id, ev);
	case IW_CM_EVENT_ESTABLISHED:
		return iwcm_on_established(id, ev);
	case IW_CM_EVENT_DISCONNECT:
		iwcm_on_disconnect(id);
		return 0;
	case IW_CM_EVENT_CLOSE:
		return iwcm_on_close(id, ev);
	}
	return 0;
}

/* Mark a delivery in progress, unless @id is torn down. */
static bool iwcm_handler_enter(struct iwcm_id *id)
{
	bool ok;

	spin_lock_irq(&id->lock);
	ok = !id->dropping;
	id->in_handler = ok;
	spin_unlock_irq(&id->lock);
	return ok;
}

static void iwcm_handler_exit(struct iwcm_id *id)
{
	spin_lock_irq(&id->lock);
	id->in_handler = false;
	wake_up_all(&id->wait);
	spin_unlock_irq(&id->lock);
}

static void iwcm_event_deliver(struct iwcm_id *id, struct iw_cm_event *ev)
{
	int ret;

	if (!iwcm_handler_enter(id))
		return;
	ret = iwcm_event_process(id, ev);
	iwcm_handler_exit(id);
	if (ret)
		iwcm_id_abandon(id);
}

/*
 * The work of an identifier: its events, oldest first, until the queue
 * is empty.  Each holds a reference, so @id lives until the last is put;
 * an event queued after that finds the queue empty and queues the work
 * again.
 */
void iwcm_event_work(struct work_struct *work)
{
	struct iwcm_id *id = container_of(work, struct iwcm_id, work);
	struct iwcm_event *rec;
	bool last;

	do {
		rec = iwcm_event_pop(id, &last);
		iwcm_event_deliver(id, &rec->ev);
		kfree(rec);
		iwcm_id_put(id);
	} while (!last);
}
