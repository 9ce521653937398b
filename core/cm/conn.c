// SPDX-License-Identifier: GPL-2.0
/*
 * Connection establishment (IBA 12.6, 12.9): REQ, REP, RTU, MRA, REJ.
 *
 *   active side                         passive side
 *   REQ_SENT   -- REQ -->               (listener) new cm_id REQ_RCVD
 *   REP_RCVD   <-- REP --               REP_SENT
 *   ESTABLISHED -- RTU -->              ESTABLISHED
 *
 * Either side may answer a message it needs time for with an MRA, and
 * reject with a REJ until it is established.  The REQ and the REP go out
 * with retries; the answer to each cancels it.  Duplicates of a REQ or
 * REP (the peer's retries) are answered again with what we sent.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"

/* The message an MRA or REJ is about (MsgMRAed, MsgRejected) */
enum {
	CM_MSG_REQ = 0,
	CM_MSG_REP = 1,
	CM_MSG_OTHER = 2,
};

/* Transport Service Type of a REQ; XRC is "extended", type 1 */
enum {
	CM_TS_RC = 0,
	CM_TS_UC = 1,
	CM_TS_EXTENDED = 3,
	CM_XTS_XRC = 1,
};

static void cm_copy_data(void *to, const void *data, u8 len)
{
	if (len)
		memcpy(to, data, len);
}

/* The packed LID fields of one path of a REQ, by the path's reach */
static void cm_req_lids(const struct sa_path_rec *path, u16 *local,
			u16 *remote)
{
	struct sa_path_rec *p = (struct sa_path_rec *)path;

	if (path->hop_limit <= 1) {
		*local = ntohl(sa_path_get_slid(p));
		*remote = ntohl(sa_path_get_dlid(p));
	} else {
		/* Routed: the LIDs are the routers', which we don't know */
		*local = be16_to_cpu(IB_LID_PERMISSIVE);
		*remote = be16_to_cpu(IB_LID_PERMISSIVE);
	}
}

static void cm_fill_req_primary(struct cm_req_msg *req,
				const struct sa_path_rec *path, u8 ack_to)
{
	u16 local, remote;

	cm_req_lids(path, &local, &remote);
	IBA_SET(CM_REQ_PRIMARY_LOCAL_PORT_LID, req, local);
	IBA_SET(CM_REQ_PRIMARY_REMOTE_PORT_LID, req, remote);
	*IBA_GET_MEM_PTR(CM_REQ_PRIMARY_LOCAL_PORT_GID, req) = path->sgid;
	*IBA_GET_MEM_PTR(CM_REQ_PRIMARY_REMOTE_PORT_GID, req) = path->dgid;
	IBA_SET(CM_REQ_PRIMARY_FLOW_LABEL, req, be32_to_cpu(path->flow_label));
	IBA_SET(CM_REQ_PRIMARY_PACKET_RATE, req, path->rate);
	IBA_SET(CM_REQ_PRIMARY_TRAFFIC_CLASS, req, path->traffic_class);
	IBA_SET(CM_REQ_PRIMARY_HOP_LIMIT, req, path->hop_limit);
	IBA_SET(CM_REQ_PRIMARY_SL, req, path->sl);
	IBA_SET(CM_REQ_PRIMARY_SUBNET_LOCAL, req, path->hop_limit <= 1);
	IBA_SET(CM_REQ_PRIMARY_LOCAL_ACK_TIMEOUT, req, ack_to);
}

static void cm_fill_req_alternate(struct cm_req_msg *req,
				  const struct sa_path_rec *path, u8 ack_to)
{
	u16 local, remote;

	cm_req_lids(path, &local, &remote);
	IBA_SET(CM_REQ_ALTERNATE_LOCAL_PORT_LID, req, local);
	IBA_SET(CM_REQ_ALTERNATE_REMOTE_PORT_LID, req, remote);
	*IBA_GET_MEM_PTR(CM_REQ_ALTERNATE_LOCAL_PORT_GID, req) = path->sgid;
	*IBA_GET_MEM_PTR(CM_REQ_ALTERNATE_REMOTE_PORT_GID, req) = path->dgid;
	IBA_SET(CM_REQ_ALTERNATE_FLOW_LABEL, req,
		be32_to_cpu(path->flow_label));
	IBA_SET(CM_REQ_ALTERNATE_PACKET_RATE, req, path->rate);
	IBA_SET(CM_REQ_ALTERNATE_TRAFFIC_CLASS, req, path->traffic_class);
	IBA_SET(CM_REQ_ALTERNATE_HOP_LIMIT, req, path->hop_limit);
	IBA_SET(CM_REQ_ALTERNATE_SL, req, path->sl);
	IBA_SET(CM_REQ_ALTERNATE_SUBNET_LOCAL, req, path->hop_limit <= 1);
	IBA_SET(CM_REQ_ALTERNATE_LOCAL_ACK_TIMEOUT, req, ack_to);
}

static void cm_fill_req(struct cm_req_msg *req, struct cm_id_priv *priv,
			const struct ib_cm_req_param *p)
{
	bool xrc = p->qp_type == IB_QPT_XRC_INI;

	req->hdr.attr_mod = cpu_to_be32(p->ece.attr_mod);
	IBA_SET(CM_REQ_LOCAL_COMM_ID, req, be32_to_cpu(priv->id.local_id));
	IBA_SET(CM_REQ_VENDOR_ID, req, p->ece.vendor_id);
	IBA_SET(CM_REQ_SERVICE_ID, req, be64_to_cpu(p->service_id));
	IBA_SET(CM_REQ_LOCAL_CA_GUID, req,
		be64_to_cpu(priv->id.device->node_guid));
	IBA_SET(CM_REQ_LOCAL_QPN, req, p->qp_num);
	IBA_SET(CM_REQ_INITIATOR_DEPTH, req, p->initiator_depth);
	IBA_SET(CM_REQ_REMOTE_CM_RESPONSE_TIMEOUT, req,
		p->remote_cm_response_timeout);
	IBA_SET(CM_REQ_TRANSPORT_SERVICE_TYPE, req,
		xrc ? CM_TS_EXTENDED :
		p->qp_type == IB_QPT_UC ? CM_TS_UC : CM_TS_RC);
	if (xrc)
		IBA_SET(CM_REQ_EXTENDED_TRANSPORT_TYPE, req, CM_XTS_XRC);
	IBA_SET(CM_REQ_END_TO_END_FLOW_CONTROL, req, p->flow_control);
	IBA_SET(CM_REQ_STARTING_PSN, req, p->starting_psn);
	IBA_SET(CM_REQ_LOCAL_CM_RESPONSE_TIMEOUT, req,
		p->local_cm_response_timeout);
	IBA_SET(CM_REQ_PARTITION_KEY, req, be16_to_cpu(p->primary_path->pkey));
	IBA_SET(CM_REQ_PATH_PACKET_PAYLOAD_MTU, req, p->primary_path->mtu);
	IBA_SET(CM_REQ_MAX_CM_RETRIES, req, p->max_cm_retries);
	if (!xrc) {
		IBA_SET(CM_REQ_RESPONDER_RESOURCES, req,
			p->responder_resources);
		IBA_SET(CM_REQ_RETRY_COUNT, req, p->retry_count);
		IBA_SET(CM_REQ_RNR_RETRY_COUNT, req, p->rnr_retry_count);
		IBA_SET(CM_REQ_SRQ, req, p->srq);
	}
	cm_fill_req_primary(req, p->primary_path, priv->av.timeout);
	if (p->alternate_path)
		cm_fill_req_alternate(req, p->alternate_path,
				      priv->alt_av.timeout);
	cm_copy_data(IBA_GET_MEM_PTR(CM_REQ_PRIVATE_DATA, req),
		     p->private_data, p->private_data_len);
}

static int cm_check_req_param(const struct ib_cm_req_param *p)
{
	if (!p->primary_path ||
	    p->private_data_len > IB_CM_REQ_PRIVATE_DATA_SIZE ||
	    (p->private_data_len && !p->private_data))
		return -EINVAL;
	if (p->qp_type != IB_QPT_RC && p->qp_type != IB_QPT_UC &&
	    p->qp_type != IB_QPT_XRC_INI)
		return -EINVAL;
	if (p->alternate_path &&
	    (p->alternate_path->pkey != p->primary_path->pkey ||
	     p->alternate_path->mtu != p->primary_path->mtu))
		return -EINVAL;
	return 0;
}

/* Keep what the QP needs of the REQ we send; under the lock */
static void cm_keep_req(struct cm_id_priv *priv,
			const struct ib_cm_req_param *p)
{
	priv->id.service_id = p->service_id;
	priv->qp_type = p->qp_type;
	priv->local_qpn = p->qp_num;
	/* The REQ's starting PSN is the one the peer sends with */
	priv->rq_psn = p->starting_psn;
	priv->path_mtu = p->primary_path->mtu;
	priv->retry_count = p->retry_count;
	priv->rnr_retry_count = p->rnr_retry_count;
	priv->responder_resources = p->responder_resources;
	priv->initiator_depth = p->initiator_depth;
	priv->max_cm_retries = p->max_cm_retries;
	priv->plt = p->primary_path->packet_life_time;
	priv->pkey = p->primary_path->pkey;
	priv->timeout_ms = 2 * cm_iba_ms(priv->plt) +
			   cm_iba_ms(p->remote_cm_response_timeout);
}

/**
 * ib_send_cm_req - start a connection (the active side)
 * @cm_id: an idle identifier
 * @param: the connection: paths, service, QP, timeouts, private data
 *
 * The REQ goes out with @param->max_cm_retries retries, each waiting for
 * twice the path's packet life time plus the peer's response timeout.
 * The peer's REP, REJ or MRA comes to the handler as an event; no
 * answer at all as IB_CM_REQ_ERROR.
 *
 * Return: 0; -EINVAL for a bad @param or an identifier that is not
 * idle; another error when the path or the send fails.
 */
int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct cm_av av = {}, alt = {};
	struct ib_mad_send_buf *msg;
	unsigned long flags;
	int ret;

	ret = cm_check_req_param(param);
	if (ret)
		return ret;
	ret = cm_av_from_path(&av, cm_id->device, param->primary_path,
			      param->ppath_sgid_attr);
	if (!ret && param->alternate_path)
		ret = cm_av_from_path(&alt, cm_id->device,
				      param->alternate_path, NULL);
	if (ret)
		goto out;

	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto unlock;
	}
	swap(priv->av, av);
	swap(priv->alt_av, alt);
	cm_keep_req(priv, param);
	priv->tid = cm_new_tid(priv);
	msg = cm_msg_alloc(priv, CM_REQ_ATTR_ID, priv->tid);
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto unlock;
	}
	cm_fill_req(msg->mad, priv, param);
	ret = cm_msg_post(priv, msg, priv->timeout_ms, priv->max_cm_retries);
	if (!ret)
		cm_id->state = IB_CM_REQ_SENT;
unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
out:
	cm_av_release(&av);
	cm_av_release(&alt);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_req);

static enum ib_qp_type cm_req_qp_type(struct cm_req_msg *req)
{
	switch (IBA_GET(CM_REQ_TRANSPORT_SERVICE_TYPE, req)) {
	case CM_TS_RC:
		return IB_QPT_RC;
	case CM_TS_UC:
		return IB_QPT_UC;
	case CM_TS_EXTENDED:
		if (IBA_GET(CM_REQ_EXTENDED_TRANSPORT_TYPE, req) == CM_XTS_XRC)
			return IB_QPT_XRC_TGT;
		fallthrough;
	default:
		return IB_QPT_MAX;
	}
}

/* The REJ a REQ gets without a cm_id: @arg is the reason */
static void cm_fill_rej_of_req(void *mad, const void *req, const void *arg)
{
	IBA_SET(CM_REJ_REMOTE_COMM_ID, (struct cm_rej_msg *)mad,
		IBA_GET(CM_REQ_LOCAL_COMM_ID, (struct cm_req_msg *)req));
	IBA_SET(CM_REJ_MESSAGE_REJECTED, (struct cm_rej_msg *)mad,
		CM_MSG_REQ);
	IBA_SET(CM_REJ_REASON, (struct cm_rej_msg *)mad,
		*(const enum ib_cm_rej_reason *)arg);
}

static void cm_reject_req(struct cm_port *port, struct ib_mad_recv_wc *rwc,
			  enum ib_cm_rej_reason why)
{
	cm_reply_to(port, rwc, CM_REJ_ATTR_ID, cm_fill_rej_of_req, &why);
}

/* The fields a REQ carries for each of its two paths */
struct cm_req_path {
	u16 local_lid, remote_lid;
	const union ib_gid *local_gid, *remote_gid;
	u32 flow_label;
	u8 rate, traffic_class, hop_limit, sl, ack_to;
};

static void cm_req_primary(struct cm_req_msg *req, struct cm_req_path *f)
{
	f->local_lid = IBA_GET(CM_REQ_PRIMARY_LOCAL_PORT_LID, req);
	f->remote_lid = IBA_GET(CM_REQ_PRIMARY_REMOTE_PORT_LID, req);
	f->local_gid = IBA_GET_MEM_PTR(CM_REQ_PRIMARY_LOCAL_PORT_GID, req);
	f->remote_gid = IBA_GET_MEM_PTR(CM_REQ_PRIMARY_REMOTE_PORT_GID, req);
	f->flow_label = IBA_GET(CM_REQ_PRIMARY_FLOW_LABEL, req);
	f->rate = IBA_GET(CM_REQ_PRIMARY_PACKET_RATE, req);
	f->traffic_class = IBA_GET(CM_REQ_PRIMARY_TRAFFIC_CLASS, req);
	f->hop_limit = IBA_GET(CM_REQ_PRIMARY_HOP_LIMIT, req);
	f->sl = IBA_GET(CM_REQ_PRIMARY_SL, req);
	f->ack_to = IBA_GET(CM_REQ_PRIMARY_LOCAL_ACK_TIMEOUT, req);
}

/* The alternate path's fields; false when the REQ has none */
static bool cm_req_alternate(struct cm_req_msg *req, struct cm_req_path *f)
{
	f->local_lid = IBA_GET(CM_REQ_ALTERNATE_LOCAL_PORT_LID, req);
	f->remote_lid = IBA_GET(CM_REQ_ALTERNATE_REMOTE_PORT_LID, req);
	f->local_gid = IBA_GET_MEM_PTR(CM_REQ_ALTERNATE_LOCAL_PORT_GID, req);
	f->remote_gid = IBA_GET_MEM_PTR(CM_REQ_ALTERNATE_REMOTE_PORT_GID,
					req);
	f->flow_label = IBA_GET(CM_REQ_ALTERNATE_FLOW_LABEL, req);
	f->rate = IBA_GET(CM_REQ_ALTERNATE_PACKET_RATE, req);
	f->traffic_class = IBA_GET(CM_REQ_ALTERNATE_TRAFFIC_CLASS, req);
	f->hop_limit = IBA_GET(CM_REQ_ALTERNATE_HOP_LIMIT, req);
	f->sl = IBA_GET(CM_REQ_ALTERNATE_SL, req);
	f->ack_to = IBA_GET(CM_REQ_ALTERNATE_LOCAL_ACK_TIMEOUT, req);
	return f->local_lid || !ipv6_addr_any((struct in6_addr *)f->local_gid);
}

/*
 * A path as the passive side sees it, from one of a REQ's paths: the
 * sender's "local" is our destination.  The primary path's LID is the
 * one the REQ came from, its MAC the one of the address the REQ gave us.
 */
static void cm_path_from_req(struct sa_path_rec *path,
			     struct cm_req_msg *req, const struct cm_req_path *f,
			     const struct cm_av *av, u16 dlid, bool mac)
{
	const struct ib_gid_attr *gattr = av->attr.grh.sgid_attr;

	if (av->attr.type == RDMA_AH_ATTR_TYPE_ROCE && gattr) {
		path->rec_type = sa_conv_gid_to_pathrec_type(gattr->gid_type);
		if (mac)
			sa_path_set_dmac(path, (u8 *)av->attr.roce.dmac);
		path->roce.route_resolved = false;
	} else {
		path->rec_type = SA_PATH_REC_TYPE_IB;
		sa_path_set_dlid(path, dlid);
		sa_path_set_slid(path, f->remote_lid);
	}
	path->dgid = *f->local_gid;
	path->sgid = *f->remote_gid;
	path->flow_label = cpu_to_be32(f->flow_label);
	path->hop_limit = av->attr.ah_flags & IB_AH_GRH ?
			  av->attr.grh.hop_limit : f->hop_limit;
	path->traffic_class = f->traffic_class;
	path->reversible = 1;
	path->pkey = cpu_to_be16(IBA_GET(CM_REQ_PARTITION_KEY, req));
	path->sl = f->sl;
	path->mtu_selector = IB_SA_EQ;
	path->mtu = IBA_GET(CM_REQ_PATH_PACKET_PAYLOAD_MTU, req);
	path->rate_selector = IB_SA_EQ;
	path->rate = f->rate;
	path->packet_life_time_selector = IB_SA_EQ;
	path->packet_life_time = f->ack_to ? f->ack_to - 1 : 0;
	path->service_id = cpu_to_be64(IBA_GET(CM_REQ_SERVICE_ID, req));
}

/* The event's paths: the primary, and the alternate when the REQ has one */
static void cm_req_paths(struct cm_event_rec *rec, struct cm_req_msg *req,
			 const struct cm_av *av, const struct ib_wc *wc)
{
	struct ib_cm_req_event_param *p = &rec->ev.param.req_rcvd;
	struct cm_req_path f;

	cm_req_primary(req, &f);
	cm_path_from_req(&rec->path[0], req, &f, av, wc->slid, true);
	p->primary_path = &rec->path[0];
	if (cm_req_alternate(req, &f)) {
		cm_path_from_req(&rec->path[1], req, &f, av, f.local_lid, false);
		p->alternate_path = &rec->path[1];
	}
}

/* Keep what the QP needs of a received REQ (the cm_id is private yet) */
static void cm_keep_peer_req(struct cm_id_priv *priv,
			     struct cm_req_msg *req, u8 plt)
{
	priv->id.remote_id = cpu_to_be32(IBA_GET(CM_REQ_LOCAL_COMM_ID, req));
	priv->id.service_id = cpu_to_be64(IBA_GET(CM_REQ_SERVICE_ID, req));
	priv->remote_ca_guid = cpu_to_be64(IBA_GET(CM_REQ_LOCAL_CA_GUID, req));
	priv->tid = req->hdr.tid;
	priv->qp_type = cm_req_qp_type(req);
	priv->remote_qpn = IBA_GET(CM_REQ_LOCAL_QPN, req);
	priv->sq_psn = IBA_GET(CM_REQ_STARTING_PSN, req);
	priv->path_mtu = IBA_GET(CM_REQ_PATH_PACKET_PAYLOAD_MTU, req);
	priv->initiator_depth = IBA_GET(CM_REQ_RESPONDER_RESOURCES, req);
	priv->responder_resources = IBA_GET(CM_REQ_INITIATOR_DEPTH, req);
	priv->retry_count = IBA_GET(CM_REQ_RETRY_COUNT, req);
	priv->rnr_retry_count = IBA_GET(CM_REQ_RNR_RETRY_COUNT, req);
	priv->max_cm_retries = IBA_GET(CM_REQ_MAX_CM_RETRIES, req);
	priv->plt = plt;
	priv->pkey = cpu_to_be16(IBA_GET(CM_REQ_PARTITION_KEY, req));
	priv->av.timeout = cm_ack_timeout(priv->av.port->dev->ack_delay, plt);
	priv->timeout_ms = 2 * cm_iba_ms(plt) +
		cm_iba_ms(IBA_GET(CM_REQ_LOCAL_CM_RESPONSE_TIMEOUT, req));
}

static void cm_req_event(struct cm_event_rec *rec, struct cm_id_priv *priv,
			 struct cm_port *port, struct cm_req_msg *req)
{
	struct ib_cm_req_event_param *p = &rec->ev.param.req_rcvd;
	u16 pkey = 0;

	ib_get_cached_pkey(port->dev->ibdev, port->num,
			   rec->rwc->wc->pkey_index, &pkey);
	p->listen_id = &rec->listener->id;
	p->bth_pkey = pkey;
	p->port = port->num;
	p->ppath_sgid_attr = priv->av.attr.grh.sgid_attr;
	p->remote_ca_guid = priv->remote_ca_guid;
	p->remote_qkey = IBA_GET(CM_REQ_LOCAL_Q_KEY, req);
	p->remote_qpn = priv->remote_qpn;
	p->qp_type = priv->qp_type;
	p->starting_psn = IBA_GET(CM_REQ_STARTING_PSN, req);
	p->responder_resources = priv->responder_resources;
	p->initiator_depth = priv->initiator_depth;
	p->local_cm_response_timeout =
		IBA_GET(CM_REQ_REMOTE_CM_RESPONSE_TIMEOUT, req);
	p->flow_control = IBA_GET(CM_REQ_END_TO_END_FLOW_CONTROL, req);
	p->remote_cm_response_timeout =
		IBA_GET(CM_REQ_LOCAL_CM_RESPONSE_TIMEOUT, req);
	p->retry_count = priv->retry_count;
	p->rnr_retry_count = priv->rnr_retry_count;
	p->srq = IBA_GET(CM_REQ_SRQ, req);
	p->ece.vendor_id = IBA_GET(CM_REQ_VENDOR_ID, req);
	p->ece.attr_mod = be32_to_cpu(req->hdr.attr_mod);
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_REQ_PRIVATE_DATA, req);
}

/* A retry of a REQ we have: answer as before; @dup is referenced */
static void cm_dup_req(struct cm_id_priv *dup, struct cm_port *port,
		       struct ib_mad_recv_wc *rwc)
{
	unsigned long flags;
	bool stale;

	cm_count(port, CM_CTR_RX_DUPLICATES, CM_REQ_ATTR_ID, 1);
	spin_lock_irqsave(&dup->lock, flags);
	if (dup->id.state == IB_CM_MRA_REQ_SENT)
		cm_send_mra_locked(dup);
	stale = dup->id.state == IB_CM_TIMEWAIT;
	spin_unlock_irqrestore(&dup->lock, flags);
	if (stale)
		cm_reject_req(port, rwc, IB_CM_REJ_STALE_CONN);
	cm_id_put(dup);
}

/* Make the passive cm_id of a REQ; it is entered in the peer tables */
static int cm_req_new_id(struct cm_port *port, struct ib_mad_recv_wc *rwc,
			 struct cm_id_priv *lis, struct cm_id_priv **out)
{
	struct cm_req_msg *req = (void *)rwc->recv_buf.mad;
	u8 ack_to = IBA_GET(CM_REQ_PRIMARY_LOCAL_ACK_TIMEOUT, req);
	struct cm_id_priv *priv, *other;
	int ret;

	priv = cm_id_alloc(port->dev->ibdev, lis->id.cm_handler,
			   lis->id.context);
	if (IS_ERR(priv))
		return PTR_ERR(priv);
	ret = cm_av_from_wc(&priv->av, port, rwc);
	if (ret)
		goto fail;
	cm_keep_peer_req(priv, req, ack_to ? ack_to - 1 : 0);
	priv->id.state = IB_CM_REQ_RCVD;
	other = cm_remote_insert(priv);
	if (other) {
		cm_dup_req(other, port, rwc);
		ret = -EALREADY;
		goto fail;
	}
	if (priv->qp_type != IB_QPT_XRC_TGT) {
		other = cm_qpn_insert(priv);
		if (other) {
			/*
			 * The peer reuses a QP we still see connected: that
			 * connection is stale too, and is released (a DREQ if
			 * it is established), as in-tree
			 */
			cm_reject_req(port, rwc, IB_CM_REJ_STALE_CONN);
			ib_send_cm_dreq(&other->id, NULL, 0);
			cm_id_put(other);
			ret = -EALREADY;
			goto fail;
		}
	}
	*out = priv;
	return 0;
fail:
	priv->id.state = IB_CM_IDLE;
	cm_destroy(priv, 0, false);
	return ret;
}

/*
 * The passive QP's alternate path, when the REQ has one; a REQ whose
 * alternate path no port of ours can take is rejected and its cm_id
 * destroyed.
 */
static int cm_req_alt_av(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct sa_path_rec *alt = rec->ev.param.req_rcvd.alternate_path;
	unsigned long flags;
	int ret;

	if (!alt)
		return 0;
	ret = cm_av_from_path(&priv->alt_av, priv->id.device, alt, NULL);
	if (!ret)
		return 0;
	spin_lock_irqsave(&priv->lock, flags);
	cm_send_rej_locked(priv, IB_CM_REJ_INVALID_ALT_GID, &alt->sgid,
			   sizeof(alt->sgid), NULL, 0);
	spin_unlock_irqrestore(&priv->lock, flags);
	cm_destroy(priv, 0, false);
	return ret;
}

/**
 * cm_req_recv - a REQ came in
 * @port: its port
 * @rwc: the REQ
 *
 * A retry of a REQ we know is answered as before.  A REQ for a service
 * nobody listens to is rejected.  Otherwise a new cm_id takes the
 * connection and the listener's handler gets IB_CM_REQ_RECEIVED for it.
 */
void cm_req_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_req_msg *req = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *dup, *lis, *priv;
	struct cm_event_rec *rec;
	unsigned long flags;

	dup = cm_remote_find(cpu_to_be64(IBA_GET(CM_REQ_LOCAL_CA_GUID, req)),
			     cpu_to_be32(IBA_GET(CM_REQ_LOCAL_COMM_ID, req)));
	if (dup) {
		cm_dup_req(dup, port, rwc);
		goto drop;
	}
	if (cm_req_qp_type(req) == IB_QPT_MAX) {
		cm_reject_req(port, rwc, IB_CM_REJ_INVALID_TRANSPORT_TYPE);
		goto drop;
	}
	lis = cm_listener_find(port->dev->ibdev,
			       cpu_to_be64(IBA_GET(CM_REQ_SERVICE_ID, req)));
	if (!lis) {
		cm_reject_req(port, rwc, IB_CM_REJ_INVALID_SERVICE_ID);
		goto drop;
	}
	rec = cm_event_alloc(IB_CM_REQ_RECEIVED, GFP_KERNEL);
	if (!rec || cm_req_new_id(port, rwc, lis, &priv)) {
		kfree(rec);
		cm_id_put(lis);
		goto drop;
	}
	rec->rwc = rwc;
	rec->listener = lis;
	cm_req_paths(rec, req, &priv->av, rwc->wc);
	if (cm_req_alt_av(priv, rec)) {
		rec->rwc = NULL;
		cm_event_free(rec);
		goto drop;
	}
	cm_req_event(rec, priv, port, req);
	spin_lock_irqsave(&priv->lock, flags);
	cm_queue_event(priv, rec);
	spin_unlock_irqrestore(&priv->lock, flags);
	return;
drop:
	ib_free_recv_mad(rwc);
}

/**
 * ib_send_cm_rep - accept a connection request (the passive side)
 * @cm_id: the identifier of a received REQ
 * @param: our QP, its starting PSN, resources, private data
 *
 * The REP goes out with the REQ's number of retries; the peer's RTU
 * ends it (IB_CM_RTU_RECEIVED), as does ib_cm_notify() with
 * IB_EVENT_COMM_EST when data comes before the RTU.
 *
 * Return: 0; -EINVAL for a bad @param or an identifier that did not
 * receive a REQ; another error when the send fails.
 */
int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *msg;
	struct cm_rep_msg *rep;
	unsigned long flags;
	int ret;

	if (param->private_data_len > IB_CM_REP_PRIVATE_DATA_SIZE ||
	    (param->private_data_len && !param->private_data))
		return -EINVAL;
	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_REQ_RCVD &&
	    cm_id->state != IB_CM_MRA_REQ_SENT) {
		ret = -EINVAL;
		goto unlock;
	}
	msg = cm_msg_alloc(priv, CM_REP_ATTR_ID, priv->tid);
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto unlock;
	}
	rep = msg->mad;
	rep->hdr.attr_mod = cpu_to_be32(param->ece.attr_mod);
	IBA_SET(CM_REP_LOCAL_COMM_ID, rep, be32_to_cpu(cm_id->local_id));
	IBA_SET(CM_REP_REMOTE_COMM_ID, rep, be32_to_cpu(cm_id->remote_id));
	IBA_SET(CM_REP_LOCAL_QPN, rep, param->qp_num);
	IBA_SET(CM_REP_VENDOR_ID_H, rep, param->ece.vendor_id >> 16);
	IBA_SET(CM_REP_VENDOR_ID_M, rep, param->ece.vendor_id >> 8);
	IBA_SET(CM_REP_VENDOR_ID_L, rep, param->ece.vendor_id);
	IBA_SET(CM_REP_STARTING_PSN, rep, param->starting_psn);
	IBA_SET(CM_REP_RESPONDER_RESOURCES, rep, param->responder_resources);
	IBA_SET(CM_REP_TARGET_ACK_DELAY, rep, priv->av.port->dev->ack_delay);
	IBA_SET(CM_REP_FAILOVER_ACCEPTED, rep, param->failover_accepted);
	IBA_SET(CM_REP_RNR_RETRY_COUNT, rep, param->rnr_retry_count);
	IBA_SET(CM_REP_LOCAL_CA_GUID, rep, be64_to_cpu(cm_id->device->node_guid));
	if (priv->qp_type != IB_QPT_XRC_TGT) {
		IBA_SET(CM_REP_INITIATOR_DEPTH, rep, param->initiator_depth);
		IBA_SET(CM_REP_END_TO_END_FLOW_CONTROL, rep,
			param->flow_control);
		IBA_SET(CM_REP_SRQ, rep, param->srq);
	}
	cm_copy_data(IBA_GET_MEM_PTR(CM_REP_PRIVATE_DATA, rep),
		     param->private_data, param->private_data_len);
	ret = cm_msg_post(priv, msg, priv->timeout_ms, priv->max_cm_retries);
	if (ret)
		goto unlock;
	cm_id->state = IB_CM_REP_SENT;
	priv->local_qpn = param->qp_num;
	/* The REP's starting PSN is the one the peer sends with */
	priv->rq_psn = param->starting_psn;
	priv->initiator_depth = param->initiator_depth;
	priv->responder_resources = param->responder_resources;
unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rep);

/* Send an RTU; under the lock */
static int cm_send_rtu_locked(struct cm_id_priv *priv, const void *data,
			      u8 len)
{
	struct ib_mad_send_buf *msg;

	msg = cm_msg_alloc(priv, CM_RTU_ATTR_ID, priv->tid);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	IBA_SET(CM_RTU_LOCAL_COMM_ID, (struct cm_rtu_msg *)msg->mad,
		be32_to_cpu(priv->id.local_id));
	IBA_SET(CM_RTU_REMOTE_COMM_ID, (struct cm_rtu_msg *)msg->mad,
		be32_to_cpu(priv->id.remote_id));
	cm_copy_data(IBA_GET_MEM_PTR(CM_RTU_PRIVATE_DATA,
				     (struct cm_rtu_msg *)msg->mad),
		     data, len);
	return cm_msg_post(priv, msg, 0, 0);
}

static void cm_rep_event(struct cm_event_rec *rec,
			 struct cm_rep_msg *rep)
{
	struct ib_cm_rep_event_param *p = &rec->ev.param.rep_rcvd;

	p->remote_ca_guid = cpu_to_be64(IBA_GET(CM_REP_LOCAL_CA_GUID, rep));
	p->remote_qkey = IBA_GET(CM_REP_LOCAL_Q_KEY, rep);
	p->remote_qpn = IBA_GET(CM_REP_LOCAL_QPN, rep);
	p->starting_psn = IBA_GET(CM_REP_STARTING_PSN, rep);
	/* Seen from here: what the peer issues, we accept, and back */
	p->responder_resources = IBA_GET(CM_REP_INITIATOR_DEPTH, rep);
	p->initiator_depth = IBA_GET(CM_REP_RESPONDER_RESOURCES, rep);
	p->target_ack_delay = IBA_GET(CM_REP_TARGET_ACK_DELAY, rep);
	p->failover_accepted = IBA_GET(CM_REP_FAILOVER_ACCEPTED, rep);
	p->flow_control = IBA_GET(CM_REP_END_TO_END_FLOW_CONTROL, rep);
	p->rnr_retry_count = IBA_GET(CM_REP_RNR_RETRY_COUNT, rep);
	p->srq = IBA_GET(CM_REP_SRQ, rep);
	p->ece.vendor_id = IBA_GET(CM_REP_VENDOR_ID_H, rep) << 16 |
			   IBA_GET(CM_REP_VENDOR_ID_M, rep) << 8 |
			   IBA_GET(CM_REP_VENDOR_ID_L, rep);
	p->ece.attr_mod = be32_to_cpu(rep->hdr.attr_mod);
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_REP_PRIVATE_DATA, rep);
}

/* Keep what the QP needs of the peer's REP; under the lock */
static void cm_keep_rep(struct cm_id_priv *priv,
			const struct ib_cm_rep_event_param *p)
{
	priv->remote_qpn = p->remote_qpn;
	priv->sq_psn = p->starting_psn;
	priv->initiator_depth = p->initiator_depth;
	priv->responder_resources = p->responder_resources;
	priv->rnr_retry_count = p->rnr_retry_count;
	priv->target_ack_delay = p->target_ack_delay;
	priv->av.timeout = cm_ack_timeout(p->target_ack_delay, priv->plt);
}

/* A REP for a connection we sent a REQ for; under the lock */
static bool cm_rep_first(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct cm_rep_msg *rep = (void *)rec->rwc->recv_buf.mad;
	struct cm_id_priv *other;

	cm_rep_event(rec, rep);
	priv->id.remote_id = cpu_to_be32(IBA_GET(CM_REP_LOCAL_COMM_ID, rep));
	priv->remote_ca_guid = rec->ev.param.rep_rcvd.remote_ca_guid;
	other = cm_remote_insert(priv);
	if (other) {
		/* Another connection of ours has that peer ID: stale */
		cm_id_put(other);
		return false;
	}
	cm_keep_rep(priv, &rec->ev.param.rep_rcvd);
	if (priv->qp_type != IB_QPT_XRC_INI) {
		other = cm_qpn_insert(priv);
		if (other)
			cm_id_put(other);
	}
	cm_msg_cancel(priv);
	priv->id.state = IB_CM_REP_RCVD;
	cm_queue_event(priv, rec);
	return true;
}

/* A REP in any state; under the lock.  A repeated one gets our answer again. */
static bool cm_rep_locked(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		return cm_rep_first(priv, rec);
	case IB_CM_ESTABLISHED:
		/* Our RTU was lost: the peer sends its REP again */
		cm_count(priv->av.port, CM_CTR_RX_DUPLICATES, CM_REP_ATTR_ID, 1);
		cm_send_rtu_locked(priv, NULL, 0);
		return false;
	case IB_CM_MRA_REP_SENT:
		cm_count(priv->av.port, CM_CTR_RX_DUPLICATES, CM_REP_ATTR_ID, 1);
		cm_send_mra_locked(priv);
		return false;
	default:
		return false;
	}
}

/**
 * cm_rep_recv - a REP came in
 * @port: its port
 * @rwc: the REP
 */
void cm_rep_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_rep_msg *rep = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv = cm_id_find(cpu_to_be32(IBA_GET(CM_REP_REMOTE_COMM_ID, rep)));

	if (priv)
		cm_recv_step(priv, IB_CM_REP_RECEIVED, rwc, cm_rep_locked);
	else
		ib_free_recv_mad(rwc);
}

/**
 * ib_send_cm_rtu - complete a connection (the active side)
 * @cm_id: the identifier, after IB_CM_REP_RECEIVED
 * @private_data: for the peer, or NULL
 * @private_data_len: its length
 *
 * Return: 0; -EINVAL for bad private data or an identifier that has
 * not received a REP; another error when the send fails.
 */
int ib_send_cm_rtu(struct ib_cm_id *cm_id, const void *private_data,
		   u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	unsigned long flags;
	int ret;

	if (private_data_len > IB_CM_RTU_PRIVATE_DATA_SIZE ||
	    (private_data_len && !private_data))
		return -EINVAL;
	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_REP_RCVD &&
	    cm_id->state != IB_CM_MRA_REP_SENT) {
		ret = -EINVAL;
	} else {
		ret = cm_send_rtu_locked(priv, private_data,
					 private_data_len);
		if (!ret)
			cm_id->state = IB_CM_ESTABLISHED;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rtu);

/* An RTU: the passive side is established; under the lock */
static bool cm_rtu_locked(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct cm_rtu_msg *rtu = (void *)rec->rwc->recv_buf.mad;

	if (priv->id.state != IB_CM_REP_SENT &&
	    priv->id.state != IB_CM_MRA_REP_RCVD)
		return false;
	cm_msg_cancel(priv);
	priv->id.state = IB_CM_ESTABLISHED;
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_RTU_PRIVATE_DATA, rtu);
	cm_queue_event(priv, rec);
	return true;
}

/**
 * cm_rtu_recv - an RTU came in: the passive side is established
 * @port: its port
 * @rwc: the RTU
 */
void cm_rtu_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_rtu_msg *rtu = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv = cm_id_find(cpu_to_be32(IBA_GET(CM_RTU_REMOTE_COMM_ID, rtu)));

	if (priv)
		cm_recv_step(priv, IB_CM_RTU_RECEIVED, rwc, cm_rtu_locked);
	else
		ib_free_recv_mad(rwc);
}

/**
 * cm_send_mra_locked - send the MRA kept in the cm_id
 * @priv: the cm_id, locked, in MRA_REQ_SENT or MRA_REP_SENT
 *
 * Return: 0 or the send's error.
 */
int cm_send_mra_locked(struct cm_id_priv *priv)
{
	struct ib_mad_send_buf *msg;
	struct cm_mra_msg *mra;

	msg = cm_msg_alloc(priv, CM_MRA_ATTR_ID, priv->tid);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	mra = msg->mad;
	IBA_SET(CM_MRA_LOCAL_COMM_ID, mra, be32_to_cpu(priv->id.local_id));
	IBA_SET(CM_MRA_REMOTE_COMM_ID, mra, be32_to_cpu(priv->id.remote_id));
	IBA_SET(CM_MRA_MESSAGE_MRAED, mra,
		priv->id.state == IB_CM_MRA_REQ_SENT ? CM_MSG_REQ : CM_MSG_REP);
	IBA_SET(CM_MRA_SERVICE_TIMEOUT, mra, priv->mra.timeout);
	cm_copy_data(IBA_GET_MEM_PTR(CM_MRA_PRIVATE_DATA, mra),
		     priv->mra.data, priv->mra.len);
	return cm_msg_post(priv, msg, 0, 0);
}

/**
 * ib_send_cm_mra - ask the peer for more time to answer
 * @cm_id: the identifier, after IB_CM_REQ_RECEIVED or IB_CM_REP_RECEIVED
 * @service_timeout: the time we need (an IBA time value, 0-31), or'ed
 *	with IB_CM_MRA_FLAG_DELAY to send the MRA only when the peer
 *	sends its message again
 * @private_data: for the peer, or NULL
 * @private_data_len: its length
 *
 * Return: 0; -EINVAL for bad private data or an identifier in another
 * state; another error when the send fails.
 */
int ib_send_cm_mra(struct ib_cm_id *cm_id, u8 service_timeout,
		   const void *private_data, u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	enum ib_cm_state next, prev;
	unsigned long flags;
	int ret = 0;

	if (private_data_len > IB_CM_MRA_PRIVATE_DATA_SIZE ||
	    (private_data_len && !private_data))
		return -EINVAL;
	spin_lock_irqsave(&priv->lock, flags);
	prev = cm_id->state;
	if (prev == IB_CM_REQ_RCVD) {
		next = IB_CM_MRA_REQ_SENT;
	} else if (prev == IB_CM_REP_RCVD) {
		next = IB_CM_MRA_REP_SENT;
	} else {
		ret = -EINVAL;
		goto unlock;
	}
	priv->mra.timeout = service_timeout & 0x1f;
	priv->mra.delay = service_timeout & IB_CM_MRA_FLAG_DELAY;
	priv->mra.len = private_data_len;
	cm_copy_data(priv->mra.data, private_data, private_data_len);
	cm_id->state = next;
	if (!priv->mra.delay) {
		ret = cm_send_mra_locked(priv);
		if (ret)
			cm_id->state = prev;
	}
unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_mra);

/* An MRA for our outstanding message; under the lock */
static bool cm_mra_locked(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct cm_mra_msg *mra = (void *)rec->rwc->recv_buf.mad;
	u8 timeout = IBA_GET(CM_MRA_SERVICE_TIMEOUT, mra);
	u8 what = IBA_GET(CM_MRA_MESSAGE_MRAED, mra);

	if (!priv->msg)
		return false;
	if (what == CM_MSG_REQ && priv->id.state == IB_CM_REQ_SENT)
		priv->id.state = IB_CM_MRA_REQ_RCVD;
	else if (what == CM_MSG_REP && priv->id.state == IB_CM_REP_SENT)
		priv->id.state = IB_CM_MRA_REP_RCVD;
	else
		return false;
	ib_modify_mad(priv->msg, 2 * cm_iba_ms(priv->plt) +
				 cm_iba_ms(timeout));
	rec->ev.param.mra_rcvd.service_timeout = timeout;
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_MRA_PRIVATE_DATA, mra);
	cm_queue_event(priv, rec);
	return true;
}

/**
 * cm_mra_recv - an MRA came in: the peer needs more time
 * @port: its port
 * @rwc: the MRA
 */
void cm_mra_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_mra_msg *mra = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv = cm_id_find(cpu_to_be32(IBA_GET(CM_MRA_REMOTE_COMM_ID, mra)));

	if (priv)
		cm_recv_step(priv, IB_CM_MRA_RECEIVED, rwc, cm_mra_locked);
	else
		ib_free_recv_mad(rwc);
}

/**
 * cm_send_rej_locked - reject, and leave the state that allowed it
 * @priv: the cm_id, locked
 * @why: the reason
 * @ari: additional reject information, or NULL
 * @ari_len: its length
 * @data: private data, or NULL
 * @len: its length
 *
 * Return: 0; -EINVAL in a state with nothing to reject; the send's
 * error.
 */
int cm_send_rej_locked(struct cm_id_priv *priv, enum ib_cm_rej_reason why,
		       const void *ari, u8 ari_len, const void *data, u8 len)
{
	enum ib_cm_state st = priv->id.state;
	struct ib_mad_send_buf *msg;
	struct cm_rej_msg *rej;
	u8 what;

	if (st == IB_CM_REQ_SENT || st == IB_CM_MRA_REQ_RCVD ||
	    st == IB_CM_REQ_RCVD || st == IB_CM_MRA_REQ_SENT)
		what = CM_MSG_REQ;
	else if (st == IB_CM_REP_RCVD || st == IB_CM_MRA_REP_SENT)
		what = CM_MSG_REP;
	else if (st == IB_CM_REP_SENT || st == IB_CM_MRA_REP_RCVD)
		what = CM_MSG_OTHER;
	else
		return -EINVAL;

	msg = cm_msg_alloc(priv, CM_REJ_ATTR_ID, priv->tid);
	if (!IS_ERR(msg)) {
		rej = msg->mad;
		IBA_SET(CM_REJ_LOCAL_COMM_ID, rej,
			be32_to_cpu(priv->id.local_id));
		IBA_SET(CM_REJ_REMOTE_COMM_ID, rej,
			be32_to_cpu(priv->id.remote_id));
		IBA_SET(CM_REJ_MESSAGE_REJECTED, rej, what);
		IBA_SET(CM_REJ_REJECTED_INFO_LENGTH, rej, ari_len);
		IBA_SET(CM_REJ_REASON, rej, why);
		cm_copy_data(IBA_GET_MEM_PTR(CM_REJ_ARI, rej), ari, ari_len);
		cm_copy_data(IBA_GET_MEM_PTR(CM_REJ_PRIVATE_DATA, rej), data,
			     len);
		cm_msg_post(priv, msg, 0, 0);
	}
	if (what == CM_MSG_OTHER)
		cm_enter_timewait(priv);
	else
		cm_to_idle(priv);
	return IS_ERR(msg) ? PTR_ERR(msg) : 0;
}

/**
 * ib_send_cm_rej - reject a connection being established
 * @cm_id: the identifier
 * @reason: why
 * @ari: additional reject information (e.g. a GID), or NULL
 * @ari_length: its length, at most IB_CM_REJ_ARI_LENGTH
 * @private_data: for the peer, or NULL
 * @private_data_len: its length
 *
 * The identifier goes idle, or into timewait after it sent a REP.
 *
 * Return: 0; -EINVAL for bad lengths or an identifier with no
 * connection being established.
 */
int ib_send_cm_rej(struct ib_cm_id *cm_id, enum ib_cm_rej_reason reason,
		   void *ari, u8 ari_length, const void *private_data,
		   u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	unsigned long flags;
	int ret;

	if (ari_length > IB_CM_REJ_ARI_LENGTH ||
	    private_data_len > IB_CM_REJ_PRIVATE_DATA_SIZE ||
	    (ari_length && !ari) || (private_data_len && !private_data))
		return -EINVAL;
	spin_lock_irqsave(&priv->lock, flags);
	ret = cm_send_rej_locked(priv, reason, ari, ari_length, private_data,
				 private_data_len);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rej);

/* The cm_id a REJ is for, referenced, or NULL */
static struct cm_id_priv *cm_rej_target(struct cm_rej_msg *rej)
{
	__be32 ours = cpu_to_be32(IBA_GET(CM_REJ_REMOTE_COMM_ID, rej));
	__be32 theirs = cpu_to_be32(IBA_GET(CM_REJ_LOCAL_COMM_ID, rej));
	struct cm_id_priv *priv;

	if (!ours) {
		/* The peer gave up its REQ before it knew our ID: its ARI
		 * is its CA GUID
		 */
		if (IBA_GET(CM_REJ_REASON, rej) != IB_CM_REJ_TIMEOUT ||
		    IBA_GET(CM_REJ_REJECTED_INFO_LENGTH, rej) < 8)
			return NULL;
		return cm_remote_find(*(__be64 *)IBA_GET_MEM_PTR(CM_REJ_ARI,
								 rej),
				      theirs);
	}
	priv = cm_id_find(ours);
	if (priv && priv->id.remote_id && theirs &&
	    priv->id.remote_id != theirs) {
		cm_id_put(priv);
		return NULL;
	}
	return priv;
}

/* A REJ for a cm_id; under the lock */
static bool cm_rej_locked(struct cm_id_priv *priv, struct cm_event_rec *rec)
{
	struct cm_rej_msg *rej = (void *)rec->rwc->recv_buf.mad;
	enum ib_cm_rej_reason why = IBA_GET(CM_REJ_REASON, rej);

	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		/* Our QP never ran, unless the peer says it is stale */
		if (why == IB_CM_REJ_STALE_CONN)
			cm_enter_timewait(priv);
		else
			cm_to_idle(priv);
		break;
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_DREQ_SENT:
	case IB_CM_ESTABLISHED:
		/* Our QP may have sent: it rests before reuse */
		cm_enter_timewait(priv);
		break;
	default:
		return false;
	}
	rec->ev.param.rej_rcvd.reason = why;
	rec->ev.param.rej_rcvd.ari = IBA_GET_MEM_PTR(CM_REJ_ARI, rej);
	rec->ev.param.rej_rcvd.ari_length =
		min_t(u8, IBA_GET(CM_REJ_REJECTED_INFO_LENGTH, rej),
		      IB_CM_REJ_ARI_LENGTH);
	rec->ev.private_data = IBA_GET_MEM_PTR(CM_REJ_PRIVATE_DATA, rej);
	cm_queue_event(priv, rec);
	return true;
}

/**
 * cm_rej_recv - a REJ came in
 * @port: its port
 * @rwc: the REJ
 */
void cm_rej_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct cm_rej_msg *rej = (void *)rwc->recv_buf.mad;
	struct cm_id_priv *priv = cm_rej_target(rej);

	if (priv)
		cm_recv_step(priv, IB_CM_REJ_RECEIVED, rwc, cm_rej_locked);
	else
		ib_free_recv_mad(rwc);
}

/**
 * cm_conn_send_failed - our REQ or REP went unanswered
 * @priv: the cm_id, locked, in REQ_SENT, MRA_REQ_RCVD, REP_SENT or
 *	MRA_REP_RCVD
 * @st: the send's status
 */
void cm_conn_send_failed(struct cm_id_priv *priv, enum ib_wc_status st)
{
	bool req = priv->id.state == IB_CM_REQ_SENT ||
		   priv->id.state == IB_CM_MRA_REQ_RCVD;
	struct cm_event_rec *rec;

	cm_to_idle(priv);
	rec = cm_event_alloc(req ? IB_CM_REQ_ERROR : IB_CM_REP_ERROR,
			     GFP_ATOMIC);
	if (!rec)
		return;
	rec->ev.param.send_status = st;
	cm_queue_event(priv, rec);
}
