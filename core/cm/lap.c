// SPDX-License-Identifier: GPL-2.0
/*
 * Alternate paths of an established connection: LAP (load alternate
 * path) and APR (alternate path response), IBA volume 1, 12.8.  Linux
 * 6.1's CM dropped them; ours keeps them as an extension with exports of
 * its own (include/core/ib_cm_lap.h), after the IBAL API's ib_cm_lap() and
 * ib_cm_apr().
 *
 * One side sends a LAP with a new alternate path (a message out with
 * retries, lap_state LAP_SENT); the peer's consumer sees
 * IB_CM_LAP_RECEIVED with the path from its end (LAP_RCVD) and answers
 * with an APR.  An APR "success" makes the path the connection's
 * alternate on both sides: ib_cm_init_qp_attr() with IB_QPS_RTS then
 * gives only the alternate path and IB_MIG_REARM, to load it into the
 * running QP.  No answer is IB_CM_LAP_ERROR.  A DREQ ends whatever LAP
 * is out.
 */
#include "abi/ib_cm/cm.h"
#include "core/ib_cm_lap.h"
#include "internal.h"

/* How long we may take to answer a LAP we send an APR for: 4.096 us * 2^20 */
#define CM_LAP_RESPONSE_TIME	20

/* The LAP's alternate path fields, from the sender's end */
static void cm_fill_lap_path(struct cm_lap_msg *lap,
			     const struct sa_path_rec *path, u8 ack_to)
{
	struct sa_path_rec *p = (struct sa_path_rec *)path;
	bool local = path->hop_limit <= 1;

	IBA_SET(CM_LAP_ALTERNATE_LOCAL_PORT_LID, lap,
		local ? ntohl(sa_path_get_slid(p)) :
			be16_to_cpu(IB_LID_PERMISSIVE));
	IBA_SET(CM_LAP_ALTERNATE_REMOTE_PORT_LID, lap,
		local ? ntohl(sa_path_get_dlid(p)) :
			be16_to_cpu(IB_LID_PERMISSIVE));
	*IBA_GET_MEM_PTR(CM_LAP_ALTERNATE_LOCAL_PORT_GID, lap) = path->sgid;
	*IBA_GET_MEM_PTR(CM_LAP_ALTERNATE_REMOTE_PORT_GID, lap) = path->dgid;
	IBA_SET(CM_LAP_ALTERNATE_FLOW_LABEL, lap,
		be32_to_cpu(path->flow_label));
	IBA_SET(CM_LAP_ALTERNATE_TRAFFIC_CLASS, lap, path->traffic_class);
	IBA_SET(CM_LAP_ALTERNATE_HOP_LIMIT, lap, path->hop_limit);
	IBA_SET(CM_LAP_ALTERNATE_PACKET_RATE, lap, path->rate);
	IBA_SET(CM_LAP_ALTERNATE_SL, lap, path->sl);
	IBA_SET(CM_LAP_ALTERNATE_SUBNET_LOCAL, lap, local);
	IBA_SET(CM_LAP_ALTERNATE_LOCAL_ACK_TIMEOUT, lap, ack_to);
}

/* The LAP's path as its receiver sees it: the sender's "local" is ours */
static void cm_lap_path(struct sa_path_rec *path, struct cm_lap_msg *lap,
			const struct cm_id_priv *priv)
{
	u8 ack_to = IBA_GET(CM_LAP_ALTERNATE_LOCAL_ACK_TIMEOUT, lap);

	memset(path, 0, sizeof(*path));
	path->rec_type = SA_PATH_REC_TYPE_IB;
	sa_path_set_dlid(path, IBA_GET(CM_LAP_ALTERNATE_LOCAL_PORT_LID, lap));
	sa_path_set_slid(path, IBA_GET(CM_LAP_ALTERNATE_REMOTE_PORT_LID, lap));
	path->dgid = *IBA_GET_MEM_PTR(CM_LAP_ALTERNATE_LOCAL_PORT_GID, lap);
	path->sgid = *IBA_GET_MEM_PTR(CM_LAP_ALTERNATE_REMOTE_PORT_GID, lap);
	path->flow_label = cpu_to_be32(IBA_GET(CM_LAP_ALTERNATE_FLOW_LABEL,
					       lap));
	path->traffic_class = IBA_GET(CM_LAP_ALTERNATE_TRAFFIC_CLASS, lap);
	path->hop_limit = IBA_GET(CM_LAP_ALTERNATE_HOP_LIMIT, lap);
	path->rate_selector = IB_SA_EQ;
	path->rate = IBA_GET(CM_LAP_ALTERNATE_PACKET_RATE, lap);
	path->sl = IBA_GET(CM_LAP_ALTERNATE_SL, lap);
	path->reversible = 1;
	/* The connection's own: a LAP cannot change them */
	path->pkey = priv->pkey;
	path->mtu_selector = IB_SA_EQ;
	path->mtu = priv->path_mtu;
	path->packet_life_time_selector = IB_SA_EQ;
	path->packet_life_time = ack_to ? ack_to - 1 : 0;
	path->service_id = priv->id.service_id;
}

/* A LAP to answer: received while established, and the connection is */
static bool cm_apr_allowed(const struct cm_id_priv *priv)
{
	return priv->id.state == IB_CM_ESTABLISHED &&
	       priv->id.lap_state == IB_CM_LAP_RCVD;
}

/* Whether a connection can take a LAP now (either direction) */
static bool cm_lap_allowed(const struct cm_id_priv *priv)
{
	return priv->id.state == IB_CM_ESTABLISHED &&
	       (priv->qp_type == IB_QPT_RC || priv->qp_type == IB_QPT_UC) &&
	       (priv->id.lap_state == IB_CM_LAP_UNINIT ||
		priv->id.lap_state == IB_CM_LAP_IDLE);
}

static int cm_send_lap_locked(struct cm_id_priv *priv,
			      const struct sa_path_rec *path,
			      const void *data, u8 len)
{
	struct ib_mad_send_buf *msg;
	struct cm_lap_msg *lap;
	int ret;

	msg = cm_msg_alloc(priv, CM_LAP_ATTR_ID, cm_new_tid(priv));
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	lap = msg->mad;
	IBA_SET(CM_LAP_LOCAL_COMM_ID, lap, be32_to_cpu(priv->id.local_id));
	IBA_SET(CM_LAP_REMOTE_COMM_ID, lap, be32_to_cpu(priv->id.remote_id));
	IBA_SET(CM_LAP_REMOTE_QPN_EECN, lap, priv->remote_qpn);
	IBA_SET(CM_LAP_REMOTE_CM_RESPONSE_TIMEOUT, lap, CM_LAP_RESPONSE_TIME);
	cm_fill_lap_path(lap, path, priv->lap_av.timeout);
	if (len)
		memcpy(IBA_GET_MEM_PTR(CM_LAP_PRIVATE_DATA, lap), data, len);
	ret = cm_msg_post(priv, msg, priv->timeout_ms, priv->max_cm_retries);
	if (!ret)
		priv->id.lap_state = IB_CM_LAP_SENT;
	return ret;
}

/**
 * ib_cm_lap - ask the peer to load a new alternate path
 * @cm_id: an established RC or UC connection with no LAP under way
 * @alternate_path: the path, from our end (its P_Key and MTU the
 *	connection's)
 * @private_data: for the peer, or NULL
 * @private_data_len: its length, at most IB_CM_LAP_PRIVATE_DATA_SIZE
 *
 * The peer's answer comes as IB_CM_APR_RECEIVED (the path is the
 * connection's alternate if its status is IB_CM_APR_SUCCESS), no answer
 * as IB_CM_LAP_ERROR.
 *
 * Return: 0; -EINVAL for a bad argument, a path no port of the device can
 * take, or a connection that is not established or has a LAP under way;
 * the send's error.
 */
int ib_cm_lap(struct ib_cm_id *cm_id, struct sa_path_rec *alternate_path,
	      const void *private_data, u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct cm_av av = {};
	unsigned long flags;
	int ret;

	if (!alternate_path ||
	    private_data_len > IB_CM_LAP_PRIVATE_DATA_SIZE ||
	    (private_data_len && !private_data))
		return -EINVAL;
	ret = cm_av_from_path(&av, cm_id->device, alternate_path, NULL);
	if (ret)
		return ret;
	spin_lock_irqsave(&priv->lock, flags);
	if (!cm_lap_allowed(priv) ||
	    alternate_path->mtu != priv->path_mtu ||
	    alternate_path->pkey != priv->pkey) {
		ret = -EINVAL;
	} else {
		swap(priv->lap_av, av);
		ret = cm_send_lap_locked(priv, alternate_path, private_data,
					 private_data_len);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	cm_av_release(&av);
	return ret;
}
EXPORT_SYMBOL_GPL(ib_cm_lap);

/* A LAP for an established connection; under the lock */
static bool cm_lap_locked(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct cm_lap_msg *lap = (void *)rec->rwc->recv_buf.mad;

	if (!cm_lap_allowed(priv))
		return false;
	cm_lap_path(&rec->path[0], lap, priv);
	priv->lap_path = rec->path[0];
	priv->lap_tid = lap->hdr.tid;
	priv->id.lap_state = IB_CM_LAP_RCVD;
	rec->ev.param.lap_rcvd.alternate_path = &rec->path[0];
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_LAP_PRIVATE_DATA, lap);
	cm_queue_event(priv, rec);
	return true;
}

/**
 * cm_lap_recv - a LAP came in
 * @port: its port
 * @rwc: the LAP
 */
void cm_lap_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_lap_msg *lap = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv = cm_id_find(cpu_to_be32(IBA_GET(CM_LAP_REMOTE_COMM_ID, lap)));

	if (priv)
		cm_recv_step(priv, IB_CM_LAP_RECEIVED, rwc, cm_lap_locked);
	else
		ib_free_recv_mad(rwc);
}

static int cm_send_apr_locked(struct cm_id_priv *priv,
			      enum ib_cm_apr_status status,
			      const void *info, u8 info_len,
			      const void *data, u8 len)
{
	struct ib_mad_send_buf *msg;
	struct cm_apr_msg *apr;

	msg = cm_msg_alloc(priv, CM_APR_ATTR_ID, priv->lap_tid);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	apr = msg->mad;
	IBA_SET(CM_APR_LOCAL_COMM_ID, apr, be32_to_cpu(priv->id.local_id));
	IBA_SET(CM_APR_REMOTE_COMM_ID, apr, be32_to_cpu(priv->id.remote_id));
	IBA_SET(CM_APR_AR_STATUS, apr, status);
	IBA_SET(CM_APR_ADDITIONAL_INFORMATION_LENGTH, apr, info_len);
	if (info_len)
		memcpy(IBA_GET_MEM_PTR(CM_APR_ADDITIONAL_INFORMATION, apr), info,
		       info_len);
	if (len)
		memcpy(IBA_GET_MEM_PTR(CM_APR_PRIVATE_DATA, apr), data, len);
	return cm_msg_post(priv, msg, 0, 0);
}

/**
 * ib_cm_apr - answer the peer's LAP
 * @cm_id: the connection, after IB_CM_LAP_RECEIVED
 * @status: IB_CM_APR_SUCCESS to take the path, else why not
 * @info: additional information for the peer, or NULL
 * @info_length: its length, at most IB_CM_APR_INFO_LENGTH
 * @private_data: for the peer, or NULL
 * @private_data_len: its length, at most IB_CM_APR_PRIVATE_DATA_SIZE
 *
 * With IB_CM_APR_SUCCESS the LAP's path becomes the connection's
 * alternate path (ib_cm_init_qp_attr() with IB_QPS_RTS gives it).
 *
 * Return: 0; -EINVAL for a bad argument or a connection with no LAP to
 * answer (or no longer established), or a path no port of the device can take (then nothing is
 * sent: answer again with another status); the send's error.
 */
int ib_cm_apr(struct ib_cm_id *cm_id, enum ib_cm_apr_status status,
	      const void *info, u8 info_length, const void *private_data,
	      u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct sa_path_rec path;
	struct cm_av av = {};
	unsigned long flags;
	int ret;

	if (status > IB_CM_APR_INVALID_SL ||
	    info_length > IB_CM_APR_INFO_LENGTH ||
	    (info_length && !info) ||
	    private_data_len > IB_CM_APR_PRIVATE_DATA_SIZE ||
	    (private_data_len && !private_data))
		return -EINVAL;
	spin_lock_irqsave(&priv->lock, flags);
	ret = cm_apr_allowed(priv) ? 0 : -EINVAL;
	path = priv->lap_path;
	spin_unlock_irqrestore(&priv->lock, flags);
	if (!ret && status == IB_CM_APR_SUCCESS)
		ret = cm_av_from_path(&av, cm_id->device, &path, NULL);
	if (ret)
		return ret;

	spin_lock_irqsave(&priv->lock, flags);
	if (!cm_apr_allowed(priv)) {
		ret = -EINVAL;
	} else {
		ret = cm_send_apr_locked(priv, status, info, info_length,
					 private_data, private_data_len);
		priv->id.lap_state = IB_CM_LAP_IDLE;
		if (status == IB_CM_APR_SUCCESS)
			swap(priv->alt_av, av);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	cm_av_release(&av);
	return ret;
}
EXPORT_SYMBOL_GPL(ib_cm_apr);

/* An APR for our LAP; under the lock */
static bool cm_apr_locked(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct cm_apr_msg *apr = (void *)rec->rwc->recv_buf.mad;
	struct ib_cm_apr_event_param *p = &rec->ev.param.apr_rcvd;

	if (priv->id.state != IB_CM_ESTABLISHED ||
	    priv->id.lap_state != IB_CM_LAP_SENT)
		return false;
	cm_msg_cancel(priv);
	priv->id.lap_state = IB_CM_LAP_IDLE;
	p->ap_status = IBA_GET(CM_APR_AR_STATUS, apr);
	if (p->ap_status == IB_CM_APR_SUCCESS)
		swap(priv->alt_av, priv->lap_av);
	p->apr_info = IBA_GET_MEM_PTR(CM_APR_ADDITIONAL_INFORMATION, apr);
	p->info_len = min_t(u8, IBA_GET(CM_APR_ADDITIONAL_INFORMATION_LENGTH,
					apr), IB_CM_APR_INFO_LENGTH);
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_APR_PRIVATE_DATA, apr);
	cm_queue_event(priv, rec);
	return true;
}

/**
 * cm_apr_recv - an APR came in: our LAP is answered
 * @port: its port
 * @rwc: the APR
 */
void cm_apr_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_apr_msg *apr = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv = cm_id_find(cpu_to_be32(IBA_GET(CM_APR_REMOTE_COMM_ID, apr)));

	if (priv)
		cm_recv_step(priv, IB_CM_APR_RECEIVED, rwc, cm_apr_locked);
	else
		ib_free_recv_mad(rwc);
}

/**
 * cm_lap_send_failed - our LAP went unanswered
 * @priv: the cm_id, locked, established, in LAP_SENT
 * @st: the send's status
 */
void cm_lap_send_failed(struct cm_id_priv *priv, enum ib_wc_status st)
{
	struct cm_event_rec *rec = cm_event_alloc(IB_CM_LAP_ERROR, GFP_ATOMIC);

	priv->id.lap_state = IB_CM_LAP_IDLE;
	if (!rec)
		return;
	rec->ev.param.send_status = st;
	cm_queue_event(priv, rec);
}
