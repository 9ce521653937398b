// SPDX-License-Identifier: GPL-2.0
/*
 * The life of an rdma_cm ID: creation, references, the state, event
 * delivery under the handler lock, destruction, and the options a ULP sets
 * on an ID (ToS, ACK timeout, minimum RNR timer).
 *
 * An ID is freed once its creator destroyed it and every operation in
 * flight (work items, address and SA queries, multicast joins) gave back
 * its reference.  After rdma_destroy_id() has set CMA_DESTROYING under the
 * handler lock no handler of the ID runs again: every path that delivers
 * an event takes the handler lock and checks the state first.
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

/**
 * cma_get - take a reference on an ID
 * @priv: the ID
 */
void cma_get(struct cma_id *priv)
{
	refcount_inc(&priv->refs);
}

/**
 * cma_tryget - take a reference on an ID that may be going
 * @priv: the ID, found on a list under cma_mutex
 *
 * Return: false when the ID's last reference is gone (it is being freed).
 */
bool cma_tryget(struct cma_id *priv)
{
	return refcount_inc_not_zero(&priv->refs);
}

/**
 * cma_put - give a reference on an ID back
 * @priv: the ID
 */
void cma_put(struct cma_id *priv)
{
	if (refcount_dec_and_test(&priv->refs))
		complete(&priv->released);
}

/**
 * cma_state - the state of an ID
 * @priv: the ID
 */
enum cma_state cma_state(struct cma_id *priv)
{
	unsigned long flags;
	enum cma_state state;

	spin_lock_irqsave(&priv->lock, flags);
	state = priv->state;
	spin_unlock_irqrestore(&priv->lock, flags);
	return state;
}

/**
 * cma_move - change an ID's state if it is the one expected
 * @priv: the ID
 * @from: the state expected
 * @to: the new state
 *
 * Return: whether the state was @from (and is now @to).
 */
bool cma_move(struct cma_id *priv, enum cma_state from, enum cma_state to)
{
	unsigned long flags;
	bool moved;

	spin_lock_irqsave(&priv->lock, flags);
	moved = priv->state == from;
	if (moved) {
		priv->state = to;
		priv->rt.state = to;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return moved;
}

/**
 * cma_set_state - set an ID's state
 * @priv: the ID
 * @to: the new state
 *
 * Return: the state before.
 */
enum cma_state cma_set_state(struct cma_id *priv, enum cma_state to)
{
	unsigned long flags;
	enum cma_state old;

	spin_lock_irqsave(&priv->lock, flags);
	old = priv->state;
	priv->state = to;
	priv->rt.state = to;
	spin_unlock_irqrestore(&priv->lock, flags);
	return old;
}

/**
 * cma_id_alloc - allocate an ID
 * @net: its network namespace (the ID holds a reference)
 * @handler: its event handler
 * @context: the ULP's context
 * @ps: its port space
 * @qp_type: the type of QP it connects
 *
 * Return: the ID in CMA_IDLE, or an ERR_PTR.
 */
struct cma_id *cma_id_alloc(struct net *net, rdma_cm_event_handler handler,
			    void *context, enum rdma_ucm_port_space ps,
			    enum ib_qp_type qp_type)
{
	struct cma_id *priv;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->id.event_handler = handler;
	priv->id.context = context;
	priv->id.ps = ps;
	priv->id.qp_type = qp_type;
	priv->id.route.addr.dev_addr.net = get_net(net);
	priv->state = CMA_IDLE;
	priv->gid_type = IB_GID_TYPE_IB;
	spin_lock_init(&priv->lock);
	mutex_init(&priv->handler_mutex);
	mutex_init(&priv->qp_mutex);
	refcount_set(&priv->refs, 1);
	init_completion(&priv->released);
	INIT_LIST_HEAD(&priv->dev_link);
	INIT_LIST_HEAD(&priv->listen_link);
	INIT_LIST_HEAD(&priv->children);
	INIT_LIST_HEAD(&priv->mcs);
	priv->seq_num = get_random_u32() & 0xffffff;
	priv->rt.id = &priv->id;
	cma_neigh_init_id(priv);
	rdma_restrack_new(&priv->rt.res, RDMA_RESTRACK_CM_ID);
	return priv;
}

/*
 * The handler locks of the IDs made for a peer's request, a lockdep class
 * apart from those of the IDs ULPs make (listeners, active sides).
 */
static struct lock_class_key cma_conn_handler_key;

/**
 * cma_id_alloc_conn - allocate the ID of a peer's connection request
 * @listener: the listener it came to; the new ID takes its handler,
 *	context and network namespace
 * @ps: its port space
 * @qp_type: the type of QP it connects
 *
 * As cma_id_alloc(), its handler lock held, in a lockdep class of its
 * own.  A ULP may take a lock of its own in a connection's handler and
 * destroy the listener under that lock (nvmet takes nvmet_config_sem in
 * a queue's handler and disables a port under it): two different IDs and
 * no cycle, but with one class lockdep saw one.  The lock is taken with a
 * trylock, which takes a lock nobody can see yet at once, so that lockdep
 * records no order from the listener's lock (held by the caller) to the
 * connections' either: that order would close the same cycle.
 *
 * Context: the listener's handler lock held.
 * Return: the ID in CMA_IDLE, or an ERR_PTR.
 */
struct cma_id *cma_id_alloc_conn(struct cma_id *listener,
				 enum rdma_ucm_port_space ps,
				 enum ib_qp_type qp_type)
{
	struct cma_id *conn;

	conn = cma_id_alloc(cma_net(listener), listener->id.event_handler,
			    listener->id.context, ps, qp_type);
	if (IS_ERR(conn))
		return conn;
	lockdep_set_class(&conn->handler_mutex, &cma_conn_handler_key);
	/* Nobody can see the ID yet: the trylock takes it, whatever lockdep */
	if (!mutex_trylock(&conn->handler_mutex))
		mutex_lock(&conn->handler_mutex);
	return conn;
}

/**
 * __rdma_create_kernel_id - create an RDMA CM ID for a kernel ULP
 * @net: the network namespace its addresses live in
 * @event_handler: called with each event of the ID, under its handler
 *	lock; a non-zero return destroys the ID
 * @context: the ULP's context, in the ID's @context
 * @ps: the port space (RDMA_PS_TCP, _UDP, _IPOIB or _IB)
 * @qp_type: the type of QP connected through the ID
 * @caller: the module creating it, for resource tracking
 *
 * Return: the ID, or an ERR_PTR (-ENOMEM).
 */
struct rdma_cm_id *
__rdma_create_kernel_id(struct net *net, rdma_cm_event_handler event_handler,
			void *context, enum rdma_ucm_port_space ps,
			enum ib_qp_type qp_type, const char *caller)
{
	struct cma_id *priv;

	priv = cma_id_alloc(net, event_handler, context, ps, qp_type);
	if (IS_ERR(priv))
		return ERR_CAST(priv);
	priv->caller = caller;
	rdma_restrack_set_name(&priv->rt.res, caller);
	return &priv->id;
}
EXPORT_SYMBOL(__rdma_create_kernel_id);

/**
 * rdma_create_user_id - create an RDMA CM ID for a user process
 * @event_handler: as for __rdma_create_kernel_id()
 * @context: the caller's context
 * @ps: the port space
 * @qp_type: the type of QP connected through the ID
 *
 * The ID lives in the calling task's network namespace, which also owns
 * it in resource tracking.
 *
 * Return: the ID, or an ERR_PTR (-ENOMEM).
 */
struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type)
{
	struct cma_id *priv;

	priv = cma_id_alloc(current->nsproxy->net_ns, event_handler, context,
			    ps, qp_type);
	if (IS_ERR(priv))
		return ERR_CAST(priv);
	rdma_restrack_set_name(&priv->rt.res, NULL);
	return &priv->id;
}
EXPORT_SYMBOL(rdma_create_user_id);

/**
 * cma_deliver - give an event to an ID's handler
 * @priv: the ID; caller holds its handler lock
 * @event: the event
 *
 * Return: the handler's return value: non-zero asks the caller to
 * destroy the ID (cma_destroy_unlock()).
 */
int cma_deliver(struct cma_id *priv, struct rdma_cm_event *event)
{
	lockdep_assert_held(&priv->handler_mutex);
	return priv->id.event_handler(&priv->id, event);
}

/*
 * Delivers @event with the handler lock the caller holds, and drops it
 * (no __releases(): 6.1's sparse does not count mutexes, so such a note
 * only unbalances its context check for this function and its callers).
 */
static int cma_deliver_finish(struct cma_id *priv, struct rdma_cm_event *event,
			      bool cm_destroys, bool put)
{
	int ret = cma_deliver(priv, event);

	if (!ret) {
		mutex_unlock(&priv->handler_mutex);
		if (put)
			cma_put(priv);
		return 0;
	}
	if (cm_destroys)
		priv->cm.ib = NULL;
	/*
	 * The handler lock held and the ID not yet CMA_DESTROYING: the
	 * creator's reference keeps it while ours goes.
	 */
	if (put)
		cma_put(priv);
	cma_destroy_unlock(priv);
	return ret;
}

/**
 * cma_deliver_unlock - deliver an event and release the handler lock
 * @priv: the ID; caller holds its handler lock
 * @event: the event
 * @cm_destroys: the event comes from a callback of the ID's ib_cm or iw_cm
 *	ID, which destroys that ID itself when the callback returns non-zero
 *
 * A handler's non-zero return destroys the ID.
 *
 * Return: the handler's return value (the ID is gone when non-zero).
 */
int cma_deliver_unlock(struct cma_id *priv, struct rdma_cm_event *event,
		       bool cm_destroys)
{
	return cma_deliver_finish(priv, event, cm_destroys, false);
}

/**
 * cma_deliver_unlock_put - deliver an event for a holder of a reference
 * @priv: the ID; caller holds its handler lock and a reference, which
 *	this gives back (before destroying the ID, which waits for all)
 * @event: the event
 *
 * Return: the handler's return value (the ID is gone when non-zero).
 */
int cma_deliver_unlock_put(struct cma_id *priv, struct rdma_cm_event *event)
{
	return cma_deliver_finish(priv, event, false, true);
}

/* Stops what an ID has in flight in the state it had */
static void cma_cancel(struct cma_id *priv, enum cma_state old)
{
	switch (old) {
	case CMA_ADDR_QUERY:
		cma_addr_cancel(priv);
		break;
	case CMA_ROUTE_QUERY:
		cma_route_cancel(priv);
		break;
	case CMA_LISTEN:
		cma_listen_cancel(priv);
		break;
	default:
		break;
	}
}

static void cma_destroy_cm(struct cma_id *priv)
{
	if (!priv->cm.ib)
		return;
	if (priv->id.device && rdma_cap_iw_cm(priv->id.device,
					      rdma_start_port(priv->id.device)))
		iw_destroy_cm_id(priv->cm.iw);
	else
		ib_destroy_cm_id(priv->cm.ib);
	priv->cm.ib = NULL;
}

static void cma_free(struct cma_id *priv)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;

	/* before the device may go: tracking finds it through the ID */
	rdma_restrack_del(&priv->rt.res);
	cma_main_detach(priv);
	cma_route_free(priv);
	if (dev_addr->sgid_attr) {
		rdma_put_gid_attr(dev_addr->sgid_attr);
		dev_addr->sgid_attr = NULL;
	}
	put_net(dev_addr->net);
	kfree(priv);
}

static void cma_teardown(struct cma_id *priv, enum cma_state old)
{
	cma_cancel(priv, old);
	cma_neigh_unwatch(priv);
	cma_destroy_cm(priv);
	cma_mcast_leave_all(priv);
	cma_ports_release(priv);
	cma_put(priv);
	wait_for_completion(&priv->released);
	cma_free(priv);
}

/**
 * cma_destroy_unlock - destroy an ID whose handler lock the caller holds
 * @priv: the ID
 *
 * For paths that delivered an event whose handler returned non-zero: the
 * ID becomes CMA_DESTROYING, the handler lock is dropped, and the ID is
 * torn down.  Callers inside an ib_cm or iw_cm callback clear @priv->cm
 * first and let that CM destroy its own ID.
 */
void cma_destroy_unlock(struct cma_id *priv)
{
	enum cma_state old;

	lockdep_assert_held(&priv->handler_mutex);
	old = cma_set_state(priv, CMA_DESTROYING);
	mutex_unlock(&priv->handler_mutex);
	cma_teardown(priv, old);
}

/**
 * cma_destroy_internal - destroy an internal listener
 * @priv: the ID, which no ULP sees
 */
void cma_destroy_internal(struct cma_id *priv)
{
	mutex_lock(&priv->handler_mutex);
	cma_destroy_unlock(priv);
}

/**
 * rdma_destroy_id - destroy an RDMA CM ID
 * @id: the ID
 *
 * Cancels what the ID has in flight (address and route resolution,
 * listens, connections, multicast memberships), waits for a running
 * event handler of the ID and frees it: no handler of it runs after this
 * returns.  Not to be called from the ID's own handler (return non-zero
 * there instead) nor under rdma_lock_handler().  The ULP destroys the
 * ID's QP first.
 */
void rdma_destroy_id(struct rdma_cm_id *id)
{
	struct cma_id *priv = to_cma(id);

	mutex_lock(&priv->handler_mutex);
	cma_destroy_unlock(priv);
}
EXPORT_SYMBOL(rdma_destroy_id);

/**
 * rdma_lock_handler - hold off an ID's event handler
 * @id: the ID
 *
 * While held, no event handler of the ID runs; calls that want the
 * handler's context (rdma_accept() outside the CONNECT_REQUEST handler)
 * may be made.
 */
void rdma_lock_handler(struct rdma_cm_id *id)
{
	mutex_lock(&to_cma(id)->handler_mutex);
}
EXPORT_SYMBOL(rdma_lock_handler);

/**
 * rdma_unlock_handler - let an ID's event handler run again
 * @id: the ID, locked by rdma_lock_handler()
 */
void rdma_unlock_handler(struct rdma_cm_id *id)
{
	mutex_unlock(&to_cma(id)->handler_mutex);
}
EXPORT_SYMBOL(rdma_unlock_handler);

/**
 * rdma_set_service_type - set the type of service of an ID's traffic
 * @id: the ID
 * @tos: the IP type of service; on RoCE the traffic class and the
 *	service level of the route resolved afterwards
 */
void rdma_set_service_type(struct rdma_cm_id *id, int tos)
{
	struct cma_id *priv = to_cma(id);

	mutex_lock(&priv->qp_mutex);
	priv->tos = (u8)tos;
	priv->tos_set = true;
	mutex_unlock(&priv->qp_mutex);
}
EXPORT_SYMBOL(rdma_set_service_type);

/**
 * rdma_set_ack_timeout - set the local ACK timeout of an ID's QP
 * @id: the ID, of an RC or XRC initiator QP
 * @timeout: the timeout, 4.096 us * 2^@timeout; on RoCE it also sets the
 *	packet lifetime of the route resolved afterwards
 *
 * Return: 0, or -EINVAL for another QP type.
 */
int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout)
{
	struct cma_id *priv = to_cma(id);

	if (id->qp_type != IB_QPT_RC && id->qp_type != IB_QPT_XRC_INI)
		return -EINVAL;
	mutex_lock(&priv->qp_mutex);
	priv->ack_timeout = timeout;
	priv->ack_timeout_set = true;
	mutex_unlock(&priv->qp_mutex);
	return 0;
}
EXPORT_SYMBOL(rdma_set_ack_timeout);

/**
 * rdma_set_min_rnr_timer - set the minimum RNR NAK timer of an ID's QP
 * @id: the ID, of an RC or XRC target QP
 * @min_rnr_timer: the IBTA's five-bit encoding of the timer
 *
 * Return: 0, or -EINVAL for a value above 31 or another QP type.
 */
int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer)
{
	struct cma_id *priv = to_cma(id);

	if (min_rnr_timer > 31)
		return -EINVAL;
	if (id->qp_type != IB_QPT_RC && id->qp_type != IB_QPT_XRC_TGT)
		return -EINVAL;
	mutex_lock(&priv->qp_mutex);
	priv->min_rnr = min_rnr_timer;
	priv->min_rnr_set = true;
	mutex_unlock(&priv->qp_mutex);
	return 0;
}
EXPORT_SYMBOL(rdma_set_min_rnr_timer);

/**
 * rdma_res_to_id - the ID of a resource tracking entry
 * @res: an entry of type RDMA_RESTRACK_CM_ID
 *
 * Return: the ID.
 */
struct rdma_cm_id *rdma_res_to_id(struct rdma_restrack_entry *res)
{
	struct cma_id *priv = container_of(res, struct cma_id, rt.res);

	return &priv->id;
}
EXPORT_SYMBOL(rdma_res_to_id);

/**
 * rdma_iw_cm_id - the iw_cm ID beneath an ID
 * @id: the ID
 *
 * Return: the iw_cm ID of an ID on an iWARP device, or NULL.
 */
struct iw_cm_id *rdma_iw_cm_id(struct rdma_cm_id *id)
{
	struct cma_id *priv = to_cma(id);

	if (id->device && id->device->node_type == RDMA_NODE_RNIC)
		return priv->cm.iw;
	return NULL;
}
EXPORT_SYMBOL(rdma_iw_cm_id);

/*
 * An event delivered from cma_wq, when the ID is still in @from (which
 * then becomes @to); it holds a reference on the ID.
 */
struct cma_event_work {
	struct work_struct work;
	struct cma_id *priv;
	enum cma_state from;
	enum cma_state to;
	struct rdma_cm_event event;
};

static void cma_event_work_run(struct work_struct *work)
{
	struct cma_event_work *ew =
		container_of(work, struct cma_event_work, work);
	struct cma_id *priv = ew->priv;

	mutex_lock(&priv->handler_mutex);
	if (cma_move(priv, ew->from, ew->to)) {
		cma_deliver_unlock_put(priv, &ew->event);
	} else {
		mutex_unlock(&priv->handler_mutex);
		cma_put(priv);
	}
	kfree(ew);
}

/**
 * cma_queue_event - deliver an event from rdma_cm's work queue
 * @priv: the ID
 * @from: the state the ID must still be in
 * @to: the state it then takes
 * @event: the event, copied
 *
 * Return: 0, or -ENOMEM.
 */
int cma_queue_event(struct cma_id *priv, enum cma_state from,
		    enum cma_state to, const struct rdma_cm_event *event)
{
	struct cma_event_work *ew;

	ew = kzalloc(sizeof(*ew), GFP_KERNEL);
	if (!ew)
		return -ENOMEM;
	INIT_WORK(&ew->work, cma_event_work_run);
	ew->priv = priv;
	ew->from = from;
	ew->to = to;
	ew->event = *event;
	cma_get(priv);
	queue_work(cma_wq, &ew->work);
	return 0;
}
