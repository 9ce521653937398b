// SPDX-License-Identifier: GPL-2.0
/*
 * Service ID resolution (IBA 12.11): a SIDR REQ asks the peer's listener
 * of a service for a UD QP and its Q_Key; the SIDR REP answers.  The
 * REQ goes out with retries; a REQ for a service nobody listens to is
 * answered "unsupported".  A passive cm_id lives from the REQ to its
 * REP and is known meanwhile by the requester's (port, request ID), so
 * that retries of the REQ are not taken twice.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"

/**
 * ib_send_cm_sidr_req - ask a peer for the UD QP of a service
 * @cm_id: an idle identifier
 * @param: the path, the service, the timeout and retries, private data
 *
 * The answer comes as IB_CM_SIDR_REP_RECEIVED, no answer as
 * IB_CM_SIDR_REQ_ERROR; the identifier is idle again after either.
 *
 * Return: 0; -EINVAL for a bad @param or an identifier that is not
 * idle; another error when the path or the send fails.
 */
int ib_send_cm_sidr_req(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_req_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *msg;
	struct cm_sidr_req_msg *req;
	struct cm_av av = {};
	unsigned long flags;
	int ret;

	if (!param->path ||
	    param->private_data_len > IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE ||
	    (param->private_data_len && !param->private_data))
		return -EINVAL;
	ret = cm_av_from_path(&av, cm_id->device, param->path,
			      param->sgid_attr);
	if (ret)
		return ret;
	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto unlock;
	}
	swap(priv->av, av);
	cm_id->service_id = param->service_id;
	priv->tid = cm_new_tid(priv);
	msg = cm_msg_alloc(priv, CM_SIDR_REQ_ATTR_ID, priv->tid);
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto unlock;
	}
	req = msg->mad;
	IBA_SET(CM_SIDR_REQ_REQUESTID, req, be32_to_cpu(cm_id->local_id));
	IBA_SET(CM_SIDR_REQ_PARTITION_KEY, req,
		be16_to_cpu(param->path->pkey));
	IBA_SET(CM_SIDR_REQ_SERVICEID, req, be64_to_cpu(param->service_id));
	if (param->private_data_len)
		memcpy(IBA_GET_MEM_PTR(CM_SIDR_REQ_PRIVATE_DATA, req),
		       param->private_data, param->private_data_len);
	ret = cm_msg_post(priv, msg, max_t(unsigned long,
					   param->timeout_ms, 1),
			  param->max_cm_retries);
	if (!ret)
		cm_id->state = IB_CM_SIDR_REQ_SENT;
unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
	cm_av_release(&av);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_req);

/* Who sent a SIDR REQ: its port's GID, or its LID without a GRH */
static __be64 cm_sidr_sender(const struct ib_mad_recv_wc *rwc)
{
	if (rwc->wc->wc_flags & IB_WC_GRH)
		return rwc->recv_buf.grh->sgid.global.interface_id;
	return cpu_to_be64(rwc->wc->slid);
}

/* The SIDR REP of a SIDR REQ without a cm_id: @arg is the status */
static void cm_fill_sidr_rep_of_req(void *mad, const void *req,
				    const void *arg)
{
	struct cm_sidr_rep_msg *rep = mad;

	IBA_SET(CM_SIDR_REP_REQUESTID, rep,
		IBA_GET(CM_SIDR_REQ_REQUESTID, (struct cm_sidr_req_msg *)req));
	IBA_SET(CM_SIDR_REP_SERVICEID, rep,
		IBA_GET(CM_SIDR_REQ_SERVICEID, (struct cm_sidr_req_msg *)req));
	IBA_SET(CM_SIDR_REP_STATUS, rep, *(const enum ib_cm_sidr_status *)arg);
}

static void cm_sidr_event(struct cm_event_rec *rec, struct cm_id_priv *priv,
			  struct cm_port *port,
			  struct cm_sidr_req_msg *req)
{
	struct ib_cm_sidr_req_event_param *p = &rec->ev.param.sidr_req_rcvd;
	u16 pkey = 0;

	ib_get_cached_pkey(port->dev->ibdev, port->num,
			   rec->rwc->wc->pkey_index, &pkey);
	p->listen_id = &rec->listener->id;
	p->service_id = priv->id.service_id;
	p->sgid_attr = priv->av.attr.grh.sgid_attr;
	p->bth_pkey = pkey;
	p->port = port->num;
	p->pkey = IBA_GET(CM_SIDR_REQ_PARTITION_KEY, req);
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_SIDR_REQ_PRIVATE_DATA, req);
}

/* The passive cm_id of a SIDR REQ, entered in the table of peers */
static struct cm_id_priv *cm_sidr_new_id(struct cm_port *port,
					 struct ib_mad_recv_wc *rwc,
					 struct cm_id_priv *lis)
{
	struct cm_sidr_req_msg *req = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv, *other;

	priv = cm_id_alloc(port->dev->ibdev, lis->id.cm_handler,
			   lis->id.context);
	if (IS_ERR(priv))
		return NULL;
	if (cm_av_from_wc(&priv->av, port, rwc))
		goto fail;
	priv->id.remote_id = cpu_to_be32(IBA_GET(CM_SIDR_REQ_REQUESTID, req));
	priv->id.service_id = cpu_to_be64(IBA_GET(CM_SIDR_REQ_SERVICEID, req));
	priv->remote_ca_guid = cm_sidr_sender(rwc);
	priv->tid = req->hdr.tid;
	other = cm_remote_insert(priv);
	if (other) {
		/* A retry of a SIDR REQ being answered */
		cm_id_put(other);
		goto fail;
	}
	priv->id.state = IB_CM_SIDR_REQ_RCVD;
	return priv;
fail:
	cm_destroy(priv, 0, false);
	return NULL;
}

/**
 * cm_sidr_req_recv - a SIDR REQ came in
 * @port: its port
 * @rwc: the SIDR REQ
 */
void cm_sidr_req_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_sidr_req_msg *req = (void *)rwc->recv_buf.mad;
	enum ib_cm_sidr_status unsupported = IB_SIDR_UNSUPPORTED;
	struct cm_id_priv *lis, *priv;
	struct cm_event_rec *rec;
	unsigned long flags;

	lis = cm_listener_find(port->dev->ibdev,
			       cpu_to_be64(IBA_GET(CM_SIDR_REQ_SERVICEID,
						   req)));
	if (!lis) {
		cm_reply_to(port, rwc, CM_SIDR_REP_ATTR_ID,
			    cm_fill_sidr_rep_of_req, &unsupported);
		goto drop;
	}
	rec = cm_event_alloc(IB_CM_SIDR_REQ_RECEIVED, GFP_KERNEL);
	priv = rec ? cm_sidr_new_id(port, rwc, lis) : NULL;
	if (!priv) {
		kfree(rec);
		cm_id_put(lis);
		goto drop;
	}
	rec->rwc = rwc;
	rec->listener = lis;
	cm_sidr_event(rec, priv, port, req);
	spin_lock_irqsave(&priv->lock, flags);
	cm_queue_event(priv, rec);
	spin_unlock_irqrestore(&priv->lock, flags);
	return;
drop:
	ib_free_recv_mad(rwc);
}

/**
 * cm_send_sidr_rep_locked - answer a SIDR REQ; the cm_id goes idle
 * @priv: the cm_id, locked
 * @param: the answer
 *
 * Return: 0; -EINVAL when the cm_id has no SIDR REQ to answer; the
 * send's error.
 */
int cm_send_sidr_rep_locked(struct cm_id_priv *priv,
			    const struct ib_cm_sidr_rep_param *param)
{
	struct ib_mad_send_buf *msg;
	struct cm_sidr_rep_msg *rep;

	if (priv->id.state != IB_CM_SIDR_REQ_RCVD)
		return -EINVAL;
	cm_to_idle(priv);
	msg = cm_msg_alloc(priv, CM_SIDR_REP_ATTR_ID, priv->tid);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	rep = msg->mad;
	rep->hdr.attr_mod = cpu_to_be32(param->ece.attr_mod);
	IBA_SET(CM_SIDR_REP_REQUESTID, rep, be32_to_cpu(priv->id.remote_id));
	IBA_SET(CM_SIDR_REP_STATUS, rep, param->status);
	IBA_SET(CM_SIDR_REP_ADDITIONAL_INFORMATION_LENGTH, rep,
		param->info_length);
	IBA_SET(CM_SIDR_REP_VENDOR_ID_H, rep, param->ece.vendor_id >> 8);
	IBA_SET(CM_SIDR_REP_VENDOR_ID_L, rep, param->ece.vendor_id);
	IBA_SET(CM_SIDR_REP_QPN, rep, param->qp_num);
	IBA_SET(CM_SIDR_REP_SERVICEID, rep, be64_to_cpu(priv->id.service_id));
	IBA_SET(CM_SIDR_REP_Q_KEY, rep, param->qkey);
	if (param->info_length)
		memcpy(IBA_GET_MEM_PTR(CM_SIDR_REP_ADDITIONAL_INFORMATION, rep),
		       param->info, param->info_length);
	if (param->private_data_len)
		memcpy(IBA_GET_MEM_PTR(CM_SIDR_REP_PRIVATE_DATA, rep),
		       param->private_data, param->private_data_len);
	return cm_msg_post(priv, msg, 0, 0);
}

/**
 * ib_send_cm_sidr_rep - answer a SIDR REQ
 * @cm_id: the identifier, after IB_CM_SIDR_REQ_RECEIVED
 * @param: the status, our UD QP and its Q_Key, information, private data
 *
 * Return: 0; -EINVAL for bad lengths or an identifier with no SIDR REQ
 * to answer; the send's error.
 */
int ib_send_cm_sidr_rep(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_rep_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	unsigned long flags;
	int ret;

	if (param->info_length > IB_CM_SIDR_REP_INFO_LENGTH ||
	    param->private_data_len > IB_CM_SIDR_REP_PRIVATE_DATA_SIZE ||
	    (param->info_length && !param->info) ||
	    (param->private_data_len && !param->private_data))
		return -EINVAL;
	spin_lock_irqsave(&priv->lock, flags);
	ret = cm_send_sidr_rep_locked(priv, param);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_rep);

static void cm_sidr_rep_event(struct cm_event_rec *rec,
			      struct cm_id_priv *priv,
			      struct cm_sidr_rep_msg *rep)
{
	struct ib_cm_sidr_rep_event_param *p = &rec->ev.param.sidr_rep_rcvd;

	p->status = IBA_GET(CM_SIDR_REP_STATUS, rep);
	p->qkey = IBA_GET(CM_SIDR_REP_Q_KEY, rep);
	p->qpn = IBA_GET(CM_SIDR_REP_QPN, rep);
	p->info = IBA_GET_MEM_PTR(CM_SIDR_REP_ADDITIONAL_INFORMATION, rep);
	p->info_len = min_t(u8, IBA_GET(CM_SIDR_REP_ADDITIONAL_INFORMATION_LENGTH,
					rep), IB_CM_SIDR_REP_INFO_LENGTH);
	p->sgid_attr = priv->av.attr.grh.sgid_attr;
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_SIDR_REP_PRIVATE_DATA, rep);
}

/* A SIDR REP for our outstanding SIDR REQ; under the lock */
static bool cm_sidr_rep_locked(struct cm_id_priv *priv,
			       struct cm_event_rec *rec)
{
	if (priv->id.state != IB_CM_SIDR_REQ_SENT)
		return false;
	cm_to_idle(priv);
	cm_sidr_rep_event(rec, priv, (void *)rec->rwc->recv_buf.mad);
	cm_queue_event(priv, rec);
	return true;
}

/**
 * cm_sidr_rep_recv - a SIDR REP came in: our SIDR REQ is answered
 * @port: its port
 * @rwc: the SIDR REP
 */
void cm_sidr_rep_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_sidr_rep_msg *rep = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv = cm_id_find(cpu_to_be32(IBA_GET(CM_SIDR_REP_REQUESTID, rep)));

	if (priv)
		cm_recv_step(priv, IB_CM_SIDR_REP_RECEIVED, rwc,
			     cm_sidr_rep_locked);
	else
		ib_free_recv_mad(rwc);
}

/**
 * cm_sidr_send_failed - our SIDR REQ went unanswered
 * @priv: the cm_id, locked, in SIDR_REQ_SENT
 * @st: the send's status
 */
void cm_sidr_send_failed(struct cm_id_priv *priv, enum ib_wc_status st)
{
	struct cm_event_rec *rec = cm_event_alloc(IB_CM_SIDR_REQ_ERROR,
						  GFP_ATOMIC);

	cm_to_idle(priv);
	if (!rec)
		return;
	rec->ev.param.send_status = st;
	cm_queue_event(priv, rec);
}
