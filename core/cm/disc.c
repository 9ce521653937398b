// SPDX-License-Identifier: GPL-2.0
/*
 * Connection release (IBA 12.6.10): DREQ and DREP, then timewait
 * (id.c); and ib_cm_notify(), the consumer's word that its QP saw the
 * connection established (data before the RTU) or migrated.
 *
 *   ESTABLISHED -- DREQ -->  DREQ_RCVD
 *   DREQ_SENT   <-- DREP --  TIMEWAIT
 *   TIMEWAIT
 *
 * The DREQ goes out with retries; the DREP, or the peer's own DREQ,
 * ends it.  A DREQ for a connection we no longer know still gets a
 * DREP, so that the peer can leave.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"

/**
 * cm_send_dreq_locked - send a DREQ and wait for its DREP
 * @priv: the cm_id, locked, established
 * @data: private data, or NULL
 * @len: its length
 *
 * Return: 0, or the send's error (the cm_id is then in timewait).
 */
int cm_send_dreq_locked(struct cm_id_priv *priv, const void *data, u8 len)
{
	struct ib_mad_send_buf *msg;
	struct cm_dreq_msg *dreq;
	int ret;

	/* A LAP under way ends with the connection */
	cm_msg_cancel(priv);
	msg = cm_msg_alloc(priv, CM_DREQ_ATTR_ID, cm_new_tid(priv));
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto fail;
	}
	dreq = msg->mad;
	IBA_SET(CM_DREQ_LOCAL_COMM_ID, dreq, be32_to_cpu(priv->id.local_id));
	IBA_SET(CM_DREQ_REMOTE_COMM_ID, dreq, be32_to_cpu(priv->id.remote_id));
	IBA_SET(CM_DREQ_REMOTE_QPN_EECN, dreq, priv->remote_qpn);
	if (len)
		memcpy(IBA_GET_MEM_PTR(CM_DREQ_PRIVATE_DATA, dreq), data, len);
	ret = cm_msg_post(priv, msg, priv->timeout_ms, priv->max_cm_retries);
	if (ret)
		goto fail;
	priv->id.state = IB_CM_DREQ_SENT;
	return 0;
fail:
	cm_enter_timewait(priv);
	return ret;
}

/**
 * ib_send_cm_dreq - release a connection
 * @cm_id: an established identifier
 * @private_data: for the peer, or NULL
 * @private_data_len: its length
 *
 * The peer's DREP comes as IB_CM_DREP_RECEIVED, no answer as
 * IB_CM_DREQ_ERROR; either way the identifier enters timewait, and
 * IB_CM_TIMEWAIT_EXIT follows.
 *
 * Return: 0; -EINVAL for bad private data or an identifier that is not
 * established; the send's error (the identifier is then in timewait).
 */
int ib_send_cm_dreq(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	unsigned long flags;
	int ret;

	if (private_data_len > IB_CM_DREQ_PRIVATE_DATA_SIZE ||
	    (private_data_len && !private_data))
		return -EINVAL;
	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state == IB_CM_ESTABLISHED)
		ret = cm_send_dreq_locked(priv, private_data,
					  private_data_len);
	else
		ret = -EINVAL;
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_dreq);

/* The DREP of a DREQ without a cm_id */
static void cm_fill_drep_of_dreq(void *mad, const void *req,
				 const void *arg)
{
	IBA_SET(CM_DREP_LOCAL_COMM_ID, (struct cm_drep_msg *)mad,
		IBA_GET(CM_DREQ_REMOTE_COMM_ID, (struct cm_dreq_msg *)req));
	IBA_SET(CM_DREP_REMOTE_COMM_ID, (struct cm_drep_msg *)mad,
		IBA_GET(CM_DREQ_LOCAL_COMM_ID, (struct cm_dreq_msg *)req));
}

/**
 * cm_send_drep_locked - answer the peer's DREQ, enter timewait
 * @priv: the cm_id, locked
 * @data: private data, or NULL
 * @len: its length
 *
 * Return: 0, or the send's error; timewait either way.
 */
int cm_send_drep_locked(struct cm_id_priv *priv, const void *data, u8 len)
{
	struct ib_mad_send_buf *msg;
	struct cm_drep_msg *drep;
	int ret;

	cm_enter_timewait(priv);
	msg = cm_msg_alloc(priv, CM_DREP_ATTR_ID, priv->tid);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	drep = msg->mad;
	IBA_SET(CM_DREP_LOCAL_COMM_ID, drep, be32_to_cpu(priv->id.local_id));
	IBA_SET(CM_DREP_REMOTE_COMM_ID, drep, be32_to_cpu(priv->id.remote_id));
	if (len)
		memcpy(IBA_GET_MEM_PTR(CM_DREP_PRIVATE_DATA, drep), data, len);
	ret = cm_msg_post(priv, msg, 0, 0);
	return ret;
}

/**
 * ib_send_cm_drep - answer the peer's DREQ
 * @cm_id: the identifier, after IB_CM_DREQ_RECEIVED
 * @private_data: for the peer, or NULL
 * @private_data_len: its length
 *
 * The identifier enters timewait; IB_CM_TIMEWAIT_EXIT follows.
 *
 * Return: 0; -EINVAL for bad private data or an identifier that did
 * not receive a DREQ; the send's error.
 */
int ib_send_cm_drep(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	unsigned long flags;
	int ret;

	if (private_data_len > IB_CM_DREP_PRIVATE_DATA_SIZE ||
	    (private_data_len && !private_data))
		return -EINVAL;
	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state == IB_CM_DREQ_RCVD)
		ret = cm_send_drep_locked(priv, private_data,
					  private_data_len);
	else
		ret = -EINVAL;
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_drep);

/* A DREQ for a cm_id; under the lock */
static bool cm_dreq_locked(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct cm_dreq_msg *dreq = (void *)rec->rwc->recv_buf.mad;

	switch (priv->id.state) {
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
	case IB_CM_DREQ_SENT:
	case IB_CM_ESTABLISHED:
		/* Ours (the REP, the DREQ, a LAP) is answered or moot */
		cm_msg_cancel(priv);
		priv->id.state = IB_CM_DREQ_RCVD;
		priv->tid = dreq->hdr.tid;
		rec->ev.private_data = IBA_GET_MEM_PTR(CM_DREQ_PRIVATE_DATA,
						       dreq);
		cm_queue_event(priv, rec);
		return true;
	case IB_CM_TIMEWAIT:
		/* Our DREP was lost */
		cm_count(priv->av.port, CM_CTR_RX_DUPLICATES, CM_DREQ_ATTR_ID,
			 1);
		priv->tid = dreq->hdr.tid;
		cm_send_drep_locked(priv, NULL, 0);
		return false;
	case IB_CM_DREQ_RCVD:
		/* The consumer has not answered yet */
		cm_count(priv->av.port, CM_CTR_RX_DUPLICATES, CM_DREQ_ATTR_ID,
			 1);
		return false;
	default:
		return false;
	}
}

/**
 * cm_dreq_recv - a DREQ came in
 * @port: its port
 * @rwc: the DREQ
 */
void cm_dreq_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_dreq_msg *dreq = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv;

	priv = cm_id_find(cpu_to_be32(IBA_GET(CM_DREQ_REMOTE_COMM_ID, dreq)));
	if (priv && priv->local_qpn != IBA_GET(CM_DREQ_REMOTE_QPN_EECN, dreq)) {
		/* Not this connection's QP: a stale DREQ */
		cm_id_put(priv);
		goto drop;
	}
	if (!priv) {
		cm_reply_to(port, rwc, CM_DREP_ATTR_ID, cm_fill_drep_of_dreq,
			    NULL);
		goto drop;
	}
	cm_recv_step(priv, IB_CM_DREQ_RECEIVED, rwc, cm_dreq_locked);
	return;
drop:
	ib_free_recv_mad(rwc);
}

/* A DREP: our DREQ is answered, or crossed the peer's; under the lock */
static bool cm_drep_locked(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct cm_drep_msg *drep = (void *)rec->rwc->recv_buf.mad;

	if (priv->id.state != IB_CM_DREQ_SENT &&
	    priv->id.state != IB_CM_DREQ_RCVD)
		return false;
	cm_enter_timewait(priv);
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_DREP_PRIVATE_DATA, drep);
	cm_queue_event(priv, rec);
	return true;
}

/**
 * cm_drep_recv - a DREP came in: our DREQ is answered
 * @port: its port
 * @rwc: the DREP
 */
void cm_drep_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_drep_msg *drep = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv = cm_id_find(cpu_to_be32(IBA_GET(CM_DREP_REMOTE_COMM_ID, drep)));

	if (priv)
		cm_recv_step(priv, IB_CM_DREP_RECEIVED, rwc, cm_drep_locked);
	else
		ib_free_recv_mad(rwc);
}

/**
 * cm_dreq_send_failed - our DREQ went unanswered
 * @priv: the cm_id, locked, in DREQ_SENT
 * @st: the send's status
 */
void cm_dreq_send_failed(struct cm_id_priv *priv, enum ib_wc_status st)
{
	struct cm_event_rec *rec = cm_event_alloc(IB_CM_DREQ_ERROR,
						  GFP_ATOMIC);

	cm_enter_timewait(priv);
	if (!rec)
		return;
	rec->ev.param.send_status = st;
	cm_queue_event(priv, rec);
}

/* The QP saw the first packet before the RTU came; under the lock */
static int cm_establish_locked(struct cm_id_priv *priv)
{
	struct cm_event_rec *rec;

	switch (priv->id.state) {
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		break;
	case IB_CM_ESTABLISHED:
		return -EISCONN;
	default:
		return -EINVAL;
	}
	rec = cm_event_alloc(IB_CM_USER_ESTABLISHED, GFP_ATOMIC);
	if (!rec)
		return -ENOMEM;
	cm_msg_cancel(priv);
	priv->id.state = IB_CM_ESTABLISHED;
	cm_queue_event(priv, rec);
	return 0;
}

/* The QP moved to its alternate path: it becomes the primary */
static int cm_migrate_locked(struct cm_id_priv *priv)
{
	if (priv->id.state != IB_CM_ESTABLISHED || !priv->alt_av.valid)
		return -EINVAL;
	swap(priv->av, priv->alt_av);
	return 0;
}

/**
 * ib_cm_notify - tell the CM what the connection's QP saw
 * @cm_id: the identifier
 * @event: IB_EVENT_COMM_EST (data came before the RTU: the passive
 *	side is established, IB_CM_USER_ESTABLISHED follows) or
 *	IB_EVENT_PATH_MIG (the alternate path is now the primary)
 *
 * May be called from a QP's event handler, in atomic context.
 *
 * Return: 0; -EISCONN when already established; -EINVAL for another
 * event or a state it does not fit.
 */
int ib_cm_notify(struct ib_cm_id *cm_id, enum ib_event_type event)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	switch (event) {
	case IB_EVENT_COMM_EST:
		ret = cm_establish_locked(priv);
		break;
	case IB_EVENT_PATH_MIG:
		ret = cm_migrate_locked(priv);
		break;
	default:
		ret = -EINVAL;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_cm_notify);
