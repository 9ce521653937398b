// SPDX-License-Identifier: GPL-2.0
/*
 * The glue to iw_cm, for iWARP ports.  iWARP connects TCP endpoints, so
 * addresses go to iw_cm as they are and no header is added.  A listening
 * ID (one bound to an iWARP device, or the internal listener of a
 * wildcard one) owns an iw_cm listen whose context it is; each request
 * becomes a new ID given to the listener's handler.  Events of a
 * connection reach cma_iw_handler() with the ID as the iw_cm ID's context;
 * a handler that returns non-zero has iw_cm destroy its own ID.
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

static int cma_iw_handler(struct iw_cm_id *iw_id, struct iw_cm_event *ev);

/* The RDMA CM event of a connection's iw_cm event (false: none) */
static bool cma_iw_event(struct cma_id *priv, struct rdma_cm_event *event,
			 struct iw_cm_event *ev)
{
	struct sockaddr *laddr = (struct sockaddr *)&ev->local_addr;
	struct sockaddr *raddr = (struct sockaddr *)&ev->remote_addr;

	switch (ev->event) {
	case IW_CM_EVENT_CLOSE:
		event->event = RDMA_CM_EVENT_DISCONNECTED;
		break;
	case IW_CM_EVENT_CONNECT_REPLY:
		memcpy(cma_src(priv), laddr, rdma_addr_size(laddr));
		memcpy(cma_dst(priv), raddr, rdma_addr_size(raddr));
		if (!ev->status)
			event->event = RDMA_CM_EVENT_ESTABLISHED;
		else if (ev->status == -ECONNRESET ||
			 ev->status == -ECONNREFUSED)
			event->event = RDMA_CM_EVENT_REJECTED;
		else if (ev->status == -ETIMEDOUT)
			event->event = RDMA_CM_EVENT_UNREACHABLE;
		else
			event->event = RDMA_CM_EVENT_CONNECT_ERROR;
		break;
	case IW_CM_EVENT_ESTABLISHED:
		event->event = RDMA_CM_EVENT_ESTABLISHED;
		break;
	default:
		return false;
	}
	if (event->event == RDMA_CM_EVENT_ESTABLISHED) {
		event->param.conn.initiator_depth = ev->ird;
		event->param.conn.responder_resources = ev->ord;
	}
	event->status = ev->status;
	event->param.conn.private_data = ev->private_data;
	event->param.conn.private_data_len = ev->private_data_len;
	return true;
}

static int cma_iw_handler(struct iw_cm_id *iw_id, struct iw_cm_event *ev)
{
	struct cma_id *priv = iw_id->context;
	struct rdma_cm_event event = {};

	mutex_lock(&priv->handler_mutex);
	if (cma_state(priv) == CMA_CONNECT && cma_iw_event(priv, &event, ev))
		return cma_deliver_unlock(priv, &event, true);
	mutex_unlock(&priv->handler_mutex);
	return 0;
}

/* A new ID for a request; the listener's handler lock held */
static int cma_iw_new_conn(struct cma_id *listener, struct iw_cm_id *cm_id,
			   struct iw_cm_event *ev)
{
	struct sockaddr *laddr = (struct sockaddr *)&ev->local_addr;
	struct sockaddr *raddr = (struct sockaddr *)&ev->remote_addr;
	struct rdma_cm_event event = {
		.event = RDMA_CM_EVENT_CONNECT_REQUEST,
	};
	struct cma_id *conn;
	int ret;

	conn = cma_id_alloc_conn(listener, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(conn))
		return PTR_ERR(conn);
	rdma_restrack_parent_name(&conn->rt.res, &listener->rt.res);
	conn->state = CMA_CONNECT;
	conn->rt.state = CMA_CONNECT;
	ret = rdma_translate_ip(laddr, &conn->id.route.addr.dev_addr);
	if (ret) {
		cma_destroy_unlock(conn);
		return ret;
	}
	conn->id.port_num = listener->id.port_num;
	mutex_lock(&cma_mutex);
	cma_main_attach(conn, listener->cdev);
	mutex_unlock(&cma_mutex);
	cma_main_track(conn);
	memcpy(cma_src(conn), laddr, rdma_addr_size(laddr));
	memcpy(cma_dst(conn), raddr, rdma_addr_size(raddr));
	conn->cm.iw = cm_id;
	cm_id->context = conn;
	cm_id->cm_handler = cma_iw_handler;

	event.param.conn.private_data = ev->private_data;
	event.param.conn.private_data_len = ev->private_data_len;
	event.param.conn.initiator_depth = ev->ird;
	event.param.conn.responder_resources = ev->ord;
	return cma_deliver_unlock(conn, &event, true);
}

static int cma_iw_req_handler(struct iw_cm_id *cm_id, struct iw_cm_event *ev)
{
	struct cma_id *listener = cm_id->context;
	int ret = -ECONNABORTED;

	mutex_lock(&listener->handler_mutex);
	if (cma_state(listener) == CMA_LISTEN &&
	    (!listener->parent ||
	     cma_state(listener->parent) == CMA_LISTEN))
		ret = cma_iw_new_conn(listener, cm_id, ev);
	mutex_unlock(&listener->handler_mutex);
	return ret;
}

static struct iw_cm_id *cma_iw_new_id(struct cma_id *priv, iw_cm_handler fn)
{
	struct iw_cm_id *cm_id;

	cm_id = iw_create_cm_id(priv->id.device, fn, priv);
	if (IS_ERR(cm_id))
		return cm_id;
	mutex_lock(&priv->qp_mutex);
	cm_id->tos = priv->tos;
	cm_id->tos_set = priv->tos_set;
	mutex_unlock(&priv->qp_mutex);
	cm_id->afonly = priv->afonly;
	memcpy(&cm_id->local_addr, cma_src(priv), rdma_addr_size(cma_src(priv)));
	return cm_id;
}

/**
 * cma_iw_listen - listen on an iWARP device
 * @priv: the ID, in CMA_LISTEN, attached to the device
 * @backlog: the backlog
 *
 * Return: 0, or iw_cm's error.
 */
int cma_iw_listen(struct cma_id *priv, int backlog)
{
	struct iw_cm_id *cm_id;
	int ret;

	cm_id = cma_iw_new_id(priv, cma_iw_req_handler);
	if (IS_ERR(cm_id))
		return PTR_ERR(cm_id);
	ret = iw_cm_listen(cm_id, backlog);
	if (ret) {
		iw_destroy_cm_id(cm_id);
		return ret;
	}
	priv->cm.iw = cm_id;
	return 0;
}

static void cma_iw_param(struct cma_id *priv, struct iw_cm_conn_param *iwp,
			 struct rdma_conn_param *param)
{
	memset(iwp, 0, sizeof(*iwp));
	iwp->qpn = priv->qp_num;
	if (!param)
		return;
	iwp->ord = param->initiator_depth;
	iwp->ird = param->responder_resources;
	iwp->private_data = param->private_data;
	iwp->private_data_len = param->private_data_len;
	if (!priv->id.qp)
		iwp->qpn = param->qp_num;
}

/**
 * cma_iw_connect - connect over iw_cm
 * @priv: the ID, in CMA_CONNECT
 * @param: the connection's parameters, or NULL
 *
 * Return: 0, or the QP's or iw_cm's error.
 */
int cma_iw_connect(struct cma_id *priv, struct rdma_conn_param *param)
{
	struct iw_cm_conn_param iwp;
	struct iw_cm_id *cm_id;
	int ret;

	cm_id = cma_iw_new_id(priv, cma_iw_handler);
	if (IS_ERR(cm_id))
		return PTR_ERR(cm_id);
	memcpy(&cm_id->remote_addr, cma_dst(priv), rdma_addr_size(cma_dst(priv)));
	priv->cm.iw = cm_id;
	ret = cma_qp_to_rtr(priv, param);
	if (!ret) {
		cma_iw_param(priv, &iwp, param);
		ret = iw_cm_connect(cm_id, &iwp);
	}
	if (ret) {
		priv->cm.iw = NULL;
		iw_destroy_cm_id(cm_id);
	}
	return ret;
}

/**
 * cma_iw_accept - accept an iWARP connection request
 * @priv: the new ID
 * @param: the answer's parameters (required)
 *
 * Return: 0; -EINVAL without parameters; the QP's or iw_cm's error.
 */
int cma_iw_accept(struct cma_id *priv, struct rdma_conn_param *param)
{
	struct iw_cm_conn_param iwp;
	int ret;

	if (!param)
		return -EINVAL;
	ret = cma_qp_to_rtr(priv, param);
	if (ret)
		return ret;
	cma_iw_param(priv, &iwp, param);
	return iw_cm_accept(priv->cm.iw, &iwp);
}

/**
 * cma_iw_reject - reject an iWARP connection request
 * @priv: the new ID
 * @data: private data, or NULL
 * @len: its length
 *
 * Return: 0, or iw_cm's error.
 */
int cma_iw_reject(struct cma_id *priv, const void *data, u8 len)
{
	return iw_cm_reject(priv->cm.iw, data, len);
}
