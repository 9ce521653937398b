// SPDX-License-Identifier: GPL-2.0
/*
 * A cm_id's life.
 *
 * Tables (all under cm_lock): local IDs to cm_ids; the connections by
 * the peer's (CA GUID, communication ID), which finds duplicate REQs and
 * SIDR REQs; the connected QPs by the peer's (CA GUID, QPN), which finds
 * stale connections.  A cm_id in a table holds its consumer reference,
 * so a lookup under cm_lock may take another.
 *
 * Events are queued on the cm_id under its lock and delivered in order
 * by its work on cm_wq, one at a time, with no lock held.  A handler
 * that returns nonzero has its cm_id destroyed by that work.
 */
#include "abi/ib_cm/cm.h"
#include <linux/hashtable.h>
#include "internal.h"

#define CM_HASH_BITS	8

static DEFINE_HASHTABLE(cm_ids, CM_HASH_BITS);
static DEFINE_HASHTABLE(cm_remotes, CM_HASH_BITS);
static DEFINE_HASHTABLE(cm_qpns, CM_HASH_BITS);

/* The next local ID to try (under cm_lock); starts at a random value */
static u32 cm_next_id;

static u32 cm_key(__be64 guid, u32 v)
{
	return hash_64(be64_to_cpu(guid) ^ v, 32);
}

static bool cm_id_taken(u32 id)
{
	struct cm_id_priv *p;

	hash_for_each_possible(cm_ids, p, id_node, id)
		if (be32_to_cpu(p->id.local_id) == id)
			return true;
	return false;
}

static void cm_id_publish(struct cm_id_priv *priv)
{
	unsigned long flags;
	u32 id;

	spin_lock_irqsave(&cm_lock, flags);
	if (!cm_next_id)
		cm_next_id = get_random_u32() | 1;
	do {
		id = cm_next_id++;
	} while (!id || cm_id_taken(id));
	priv->id.local_id = cpu_to_be32(id);
	hash_add(cm_ids, &priv->id_node, id);
	spin_unlock_irqrestore(&cm_lock, flags);
}

static void cm_deliver(struct work_struct *work);
static void cm_timewait_end(struct work_struct *work);

/**
 * cm_id_alloc - a new cm_id in the idle state, with a local ID
 * @ibdev: its device
 * @h: its handler (NULL for a passive cm_id: its listener's, later)
 * @context: its context
 *
 * Return: the cm_id with the consumer's reference, or an ERR_PTR.
 */
struct cm_id_priv *cm_id_alloc(struct ib_device *ibdev, ib_cm_handler h,
			       void *context)
{
	struct cm_id_priv *priv = kzalloc(sizeof(*priv), GFP_KERNEL);

	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->id.device = ibdev;
	priv->id.cm_handler = h;
	priv->id.context = context;
	priv->id.state = IB_CM_IDLE;
	priv->id.remote_cm_qpn = 1;
	spin_lock_init(&priv->lock);
	refcount_set(&priv->refs, 1);
	init_completion(&priv->gone);
	INIT_LIST_HEAD(&priv->events);
	INIT_LIST_HEAD(&priv->listen_link);
	INIT_WORK(&priv->work, cm_deliver);
	INIT_DELAYED_WORK(&priv->timewait, cm_timewait_end);
	cm_id_publish(priv);
	return priv;
}

/**
 * cm_id_find - the cm_id of a local ID, referenced
 * @local_id: the ID, as on the wire
 *
 * Return: the cm_id (cm_id_put() it), or NULL.
 */
struct cm_id_priv *cm_id_find(__be32 local_id)
{
	u32 id = be32_to_cpu(local_id);
	struct cm_id_priv *p, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&cm_lock, flags);
	hash_for_each_possible(cm_ids, p, id_node, id) {
		if (p->id.local_id == local_id) {
			refcount_inc(&p->refs);
			found = p;
			break;
		}
	}
	spin_unlock_irqrestore(&cm_lock, flags);
	return found;
}

void cm_id_get(struct cm_id_priv *priv)
{
	refcount_inc(&priv->refs);
}

static void cm_id_free(struct cm_id_priv *priv)
{
	struct cm_event_rec *rec, *next;

	list_for_each_entry_safe(rec, next, &priv->events, link)
		cm_event_free(rec);
	cm_av_release(&priv->av);
	cm_av_release(&priv->alt_av);
	cm_av_release(&priv->lap_av);
	kfree(priv);
}

void cm_id_put(struct cm_id_priv *priv)
{
	if (!refcount_dec_and_test(&priv->refs))
		return;
	if (priv->self_free)
		cm_id_free(priv);
	else
		complete(&priv->gone);
}

static struct cm_id_priv *cm_remote_lookup(__be64 guid, __be32 remote_id)
{
	struct cm_id_priv *p;

	hash_for_each_possible(cm_remotes, p, remote_node,
			       cm_key(guid, be32_to_cpu(remote_id)))
		if (p->remote_ca_guid == guid && p->id.remote_id == remote_id)
			return p;
	return NULL;
}

/**
 * cm_remote_find - the cm_id of a peer's connection, referenced
 * @ca_guid: the peer's CA GUID
 * @remote_id: the peer's communication ID
 *
 * Return: the cm_id (cm_id_put() it), or NULL.
 */
struct cm_id_priv *cm_remote_find(__be64 ca_guid, __be32 remote_id)
{
	struct cm_id_priv *p;
	unsigned long flags;

	spin_lock_irqsave(&cm_lock, flags);
	p = cm_remote_lookup(ca_guid, remote_id);
	if (p)
		refcount_inc(&p->refs);
	spin_unlock_irqrestore(&cm_lock, flags);
	return p;
}

/**
 * cm_remote_insert - enter a cm_id in the table of remote IDs
 * @priv: the cm_id, with remote_ca_guid and id.remote_id set
 *
 * Return: NULL when entered; otherwise the cm_id that has the same peer
 * connection already, referenced, and @priv is not entered.
 */
struct cm_id_priv *cm_remote_insert(struct cm_id_priv *priv)
{
	struct cm_id_priv *p;
	unsigned long flags;

	spin_lock_irqsave(&cm_lock, flags);
	p = cm_remote_lookup(priv->remote_ca_guid, priv->id.remote_id);
	if (p) {
		refcount_inc(&p->refs);
	} else {
		hash_add(cm_remotes, &priv->remote_node,
			 cm_key(priv->remote_ca_guid,
				be32_to_cpu(priv->id.remote_id)));
		priv->in_remote = true;
	}
	spin_unlock_irqrestore(&cm_lock, flags);
	return p;
}

/**
 * cm_qpn_insert - enter a connection's remote QP in the table of QPs
 * @priv: the cm_id, with remote_ca_guid and remote_qpn set
 *
 * Return: NULL when entered; otherwise the cm_id connected to that QP
 * already, referenced, and @priv is not entered.
 */
struct cm_id_priv *cm_qpn_insert(struct cm_id_priv *priv)
{
	u32 key = cm_key(priv->remote_ca_guid, priv->remote_qpn);
	struct cm_id_priv *p, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&cm_lock, flags);
	hash_for_each_possible(cm_qpns, p, qpn_node, key) {
		if (p->remote_ca_guid == priv->remote_ca_guid &&
		    p->remote_qpn == priv->remote_qpn) {
			refcount_inc(&p->refs);
			found = p;
			break;
		}
	}
	if (!found) {
		hash_add(cm_qpns, &priv->qpn_node, key);
		priv->in_qpn = true;
	}
	spin_unlock_irqrestore(&cm_lock, flags);
	return found;
}

/**
 * cm_remote_remove - take a cm_id out of the remote ID and QP tables
 * @priv: the cm_id
 */
void cm_remote_remove(struct cm_id_priv *priv)
{
	unsigned long flags;

	spin_lock_irqsave(&cm_lock, flags);
	if (priv->in_remote)
		hash_del(&priv->remote_node);
	if (priv->in_qpn)
		hash_del(&priv->qpn_node);
	priv->in_remote = false;
	priv->in_qpn = false;
	spin_unlock_irqrestore(&cm_lock, flags);
}

/**
 * cm_event_alloc - an event record
 * @type: the event
 * @gfp: allocation flags
 *
 * Return: the record, or NULL.
 */
struct cm_event_rec *cm_event_alloc(enum ib_cm_event_type type, gfp_t gfp)
{
	struct cm_event_rec *rec = kzalloc(sizeof(*rec), gfp);

	if (rec)
		rec->ev.event = type;
	return rec;
}

void cm_event_free(struct cm_event_rec *rec)
{
	if (!rec)
		return;
	if (rec->rwc)
		ib_free_recv_mad(rec->rwc);
	if (rec->listener)
		cm_id_put(rec->listener);
	kfree(rec);
}

/**
 * cm_queue_event - queue an event for a cm_id's handler
 * @priv: the cm_id, locked
 * @rec: the event; the cm_id owns it from now on
 *
 * Events queued after destruction began are freed with the cm_id.
 */
void cm_queue_event(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	lockdep_assert_held(&priv->lock);
	list_add_tail(&rec->link, &priv->events);
	if (priv->dead || priv->busy)
		return;
	priv->busy = true;
	refcount_inc(&priv->refs);
	queue_work(cm_wq, &priv->work);
}

static struct cm_event_rec *cm_next_event(struct cm_id_priv *priv)
{
	struct cm_event_rec *rec = NULL;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (!priv->dead && !list_empty(&priv->events)) {
		rec = list_first_entry(&priv->events, struct cm_event_rec,
				       link);
		list_del(&rec->link);
	} else {
		priv->busy = false;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return rec;
}

static void cm_deliver(struct work_struct *work)
{
	struct cm_id_priv *priv = container_of(work, struct cm_id_priv, work);
	struct cm_event_rec *rec;
	int ret;

	while ((rec = cm_next_event(priv))) {
		ret = priv->id.cm_handler(&priv->id, &rec->ev);
		cm_event_free(rec);
		if (ret) {
			cm_destroy(priv, ret, true);
			break;
		}
	}
	cm_id_put(priv);
}

/**
 * cm_recv_step - give a received message to a cm_id's state machine
 * @priv: the cm_id the message is for, referenced (dropped here)
 * @type: the event the message makes
 * @rwc: the message: owned by the event when @step queues it, else freed
 * @step: called under the cm_id's lock with the event (its rwc set):
 *	moves the state and queues the event (true), or leaves both (false)
 */
void cm_recv_step(struct cm_id_priv *priv, enum ib_cm_event_type type,
		  struct ib_mad_recv_wc *rwc,
		  bool (*step)(struct cm_id_priv *priv, struct cm_event_rec *rec))
{
	struct cm_event_rec *rec = cm_event_alloc(type, GFP_KERNEL);
	unsigned long flags;
	bool taken = false;

	if (rec) {
		rec->rwc = rwc;
		spin_lock_irqsave(&priv->lock, flags);
		taken = step(priv, rec);
		spin_unlock_irqrestore(&priv->lock, flags);
		if (!taken)
			rec->rwc = NULL;
	}
	if (!taken) {
		cm_event_free(rec);
		ib_free_recv_mad(rwc);
	}
	cm_id_put(priv);
}

/**
 * cm_to_idle - end a connection attempt: idle, out of the peer tables
 * @priv: the cm_id, locked
 */
void cm_to_idle(struct cm_id_priv *priv)
{
	lockdep_assert_held(&priv->lock);
	priv->id.state = IB_CM_IDLE;
	cm_msg_cancel(priv);
	cm_remote_remove(priv);
}

/**
 * cm_enter_timewait - the connection is released; its QP rests a while
 * @priv: the cm_id, locked
 *
 * After the QP's local ACK timeout (which covers the round trip) the
 * cm_id goes idle and its handler gets IB_CM_TIMEWAIT_EXIT.
 */
void cm_enter_timewait(struct cm_id_priv *priv)
{
	unsigned long ms;

	lockdep_assert_held(&priv->lock);
	priv->id.state = IB_CM_TIMEWAIT;
	cm_msg_cancel(priv);
	if (priv->dead)
		return;
	ms = cm_iba_ms(priv->av.timeout);
	refcount_inc(&priv->refs);
	if (!queue_delayed_work(cm_wq, &priv->timewait,
				msecs_to_jiffies(ms)))
		refcount_dec(&priv->refs);
}

static void cm_timewait_end(struct work_struct *work)
{
	struct cm_id_priv *priv = container_of(to_delayed_work(work),
					       struct cm_id_priv, timewait);
	struct cm_event_rec *rec = cm_event_alloc(IB_CM_TIMEWAIT_EXIT,
						  GFP_KERNEL);
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->id.state == IB_CM_TIMEWAIT && !priv->dead) {
		cm_to_idle(priv);
		if (rec)
			cm_queue_event(priv, rec);
		rec = NULL;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	cm_event_free(rec);
	cm_id_put(priv);
}

/* What destruction says to the peer, by state; under the lock */
static void cm_destroy_state(struct cm_id_priv *priv, int err)
{
	__be64 guid = priv->id.device->node_guid;
	struct ib_cm_sidr_rep_param rep = { .status = IB_SIDR_REJECT };

	switch (priv->id.state) {
	case IB_CM_LISTEN:
		cm_listener_remove(priv);
		priv->id.state = IB_CM_IDLE;
		break;
	case IB_CM_SIDR_REQ_SENT:
		cm_to_idle(priv);
		break;
	case IB_CM_SIDR_REQ_RCVD:
		cm_send_sidr_rep_locked(priv, &rep);
		break;
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		cm_msg_cancel(priv);
		cm_send_rej_locked(priv, IB_CM_REJ_TIMEOUT, &guid,
				   sizeof(guid), NULL, 0);
		break;
	case IB_CM_REQ_RCVD:
		if (err == -ENOMEM) {
			/* The peer's retry may find us with memory again */
			cm_to_idle(priv);
			break;
		}
		fallthrough;
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		cm_send_rej_locked(priv, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
				   NULL, 0);
		break;
	case IB_CM_ESTABLISHED:
		cm_send_dreq_locked(priv, NULL, 0);
		fallthrough;
	case IB_CM_DREQ_SENT:
		/* The DREQ went once; its answer finds nothing */
		cm_enter_timewait(priv);
		break;
	case IB_CM_DREQ_RCVD:
		cm_send_drep_locked(priv, NULL, 0);
		break;
	default:
		break;
	}
	cm_msg_cancel(priv);
}

/**
 * cm_destroy - destroy a cm_id
 * @priv: the cm_id
 * @err: why: 0 for ib_destroy_cm_id(), a handler's nonzero return
 * @from_work: called by the cm_id's own delivery work, which holds a
 *	reference: the last reference frees the cm_id
 *
 * Tells the peer what the state calls for, takes the cm_id out of every
 * table and drops its queued events; unless @from_work, waits until
 * nothing refers to it any more and frees it.
 */
void cm_destroy(struct cm_id_priv *priv, int err, bool from_work)
{
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	priv->dead = true;
	cm_destroy_state(priv, err);
	spin_unlock_irqrestore(&priv->lock, flags);

	if (cancel_delayed_work_sync(&priv->timewait))
		cm_id_put(priv);
	spin_lock_irqsave(&cm_lock, flags);
	hash_del(&priv->id_node);
	spin_unlock_irqrestore(&cm_lock, flags);
	cm_remote_remove(priv);

	if (from_work) {
		priv->self_free = true;
		cm_id_put(priv);
		return;
	}
	cm_id_put(priv);
	wait_for_completion(&priv->gone);
	cm_id_free(priv);
}

/**
 * ib_create_cm_id - allocate a communication identifier
 * @device: the device the connection goes through
 * @cm_handler: called for every event of the identifier, in process
 *	context, one event at a time; a nonzero return destroys it
 * @context: the consumer's, in &ib_cm_id.context
 *
 * Return: the identifier in the idle state, or an ERR_PTR.
 */
struct ib_cm_id *ib_create_cm_id(struct ib_device *device,
				 ib_cm_handler cm_handler, void *context)
{
	struct cm_id_priv *priv = cm_id_alloc(device, cm_handler, context);

	return IS_ERR(priv) ? ERR_CAST(priv) : &priv->id;
}
EXPORT_SYMBOL(ib_create_cm_id);

/**
 * ib_destroy_cm_id - destroy a communication identifier
 * @cm_id: the identifier
 *
 * What the state calls for is sent to the peer first (a REJ during
 * establishment, a DREQ or DREP once connected); then this waits until
 * the identifier's handler has returned for the last time.  Not to be
 * called from the identifier's own handler: return nonzero instead.
 */
void ib_destroy_cm_id(struct ib_cm_id *cm_id)
{
	struct cm_id_priv *priv = to_priv(cm_id);

	if (!cm_listener_unshare(priv))
		cm_destroy(priv, 0, false);
}
EXPORT_SYMBOL(ib_destroy_cm_id);
