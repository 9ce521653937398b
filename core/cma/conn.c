// SPDX-License-Identifier: GPL-2.0
/*
 * Connections, as ULPs drive them: connect, accept, reject, disconnect,
 * notify.  Each call checks the ID's state and hands over to the CM of
 * the ID's port (ib.c for InfiniBand and RoCE, iw.c for iWARP).
 *
 * rdma_connect_locked() and rdma_accept() run under the ID's handler lock
 * (from its handler, or under rdma_lock_handler()), so that no event of
 * the ID races with them.
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

static bool cma_ib(struct cma_id *priv)
{
	return rdma_cap_ib_cm(priv->id.device, priv->id.port_num);
}

static bool cma_iw(struct cma_id *priv)
{
	return rdma_cap_iw_cm(priv->id.device, priv->id.port_num);
}

/**
 * rdma_connect_locked - start a connection, under the handler lock
 * @id: the ID, its route resolved
 * @conn_param: the connection's parameters and private data; the QP
 *	number and SRQ flag are used when the ID has no QP of its own
 *
 * A UD ID resolves the remote QP with a SIDR REQ.  The result comes as
 * ESTABLISHED (or CONNECT_RESPONSE without QP), REJECTED, UNREACHABLE
 * or CONNECT_ERROR.
 *
 * Return: 0; -EINVAL in another state or for private data that does not
 * fit; -ENOSYS for a device without CM; the CM's errors.
 */
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param)
{
	struct cma_id *priv = to_cma(id);
	int ret;

	if (!cma_move(priv, CMA_ROUTE_RESOLVED, CMA_CONNECT))
		return -EINVAL;
	if (!id->qp) {
		priv->qp_num = conn_param->qp_num;
		priv->srq = conn_param->srq;
	}
	if (cma_ib(priv))
		ret = id->qp_type == IB_QPT_UD ?
		      cma_ib_sidr_query(priv, conn_param) :
		      cma_ib_connect(priv, conn_param);
	else if (cma_iw(priv))
		ret = cma_iw_connect(priv, conn_param);
	else
		ret = -ENOSYS;
	if (ret)
		cma_move(priv, CMA_CONNECT, CMA_ROUTE_RESOLVED);
	return ret;
}
EXPORT_SYMBOL(rdma_connect_locked);

/**
 * rdma_connect - start a connection
 * @id: the ID, its route resolved
 * @conn_param: as for rdma_connect_locked()
 *
 * Takes the handler lock: not to be called from the ID's own handler
 * (use rdma_connect_locked() there).
 *
 * Return: as rdma_connect_locked().
 */
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct cma_id *priv = to_cma(id);
	int ret;

	mutex_lock(&priv->handler_mutex);
	ret = rdma_connect_locked(id, conn_param);
	mutex_unlock(&priv->handler_mutex);
	return ret;
}
EXPORT_SYMBOL(rdma_connect);

/**
 * rdma_connect_ece - start a connection with ECE options
 * @id: the ID, its route resolved
 * @conn_param: as for rdma_connect_locked()
 * @ece: the enhanced connection establishment options to offer
 *
 * Return: as rdma_connect().
 */
int rdma_connect_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		     struct rdma_ucm_ece *ece)
{
	struct cma_id *priv = to_cma(id);

	priv->ece.vendor_id = ece->vendor_id;
	priv->ece.attr_mod = ece->attr_mod;
	return rdma_connect(id, conn_param);
}
EXPORT_SYMBOL(rdma_connect_ece);

static int cma_accept(struct cma_id *priv, struct rdma_conn_param *param)
{
	if (cma_ib(priv)) {
		if (priv->id.qp_type == IB_QPT_UD)
			return cma_ib_sidr_reply(priv, param, IB_SIDR_SUCCESS,
						 param ? param->private_data : NULL,
						 param ? param->private_data_len : 0);
		return param ? cma_ib_accept(priv, param) :
			       cma_ib_accept_noparam(priv);
	}
	if (cma_iw(priv))
		return cma_iw_accept(priv, param);
	return -ENOSYS;
}

/**
 * rdma_accept - accept a connection request
 * @id: the new ID of a CONNECT_REQUEST event; its handler lock held
 *	(from the handler, or under rdma_lock_handler())
 * @conn_param: the parameters and private data of the answer, or NULL
 *	(a ULP that drives its QP itself, or a UD ID's plain acceptance)
 *
 * The ID's QP goes to RTR and RTS; ESTABLISHED follows when the peer
 * confirms.  On failure the request is rejected.
 *
 * Return: 0; -EINVAL in another state; the QP's or the CM's errors.
 */
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct cma_id *priv = to_cma(id);
	int ret;

	lockdep_assert_held(&priv->handler_mutex);
	if (cma_state(priv) != CMA_CONNECT)
		return -EINVAL;
	if (!id->qp && conn_param) {
		priv->qp_num = conn_param->qp_num;
		priv->srq = conn_param->srq;
	}
	ret = cma_accept(priv, conn_param);
	if (ret) {
		cma_qp_to_error(priv);
		rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	}
	return ret;
}
EXPORT_SYMBOL(rdma_accept);

/**
 * rdma_accept_ece - accept a connection request with ECE options
 * @id: as for rdma_accept()
 * @conn_param: as for rdma_accept()
 * @ece: the ECE options accepted
 *
 * Return: as rdma_accept().
 */
int rdma_accept_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		    struct rdma_ucm_ece *ece)
{
	struct cma_id *priv = to_cma(id);

	priv->ece.vendor_id = ece->vendor_id;
	priv->ece.attr_mod = ece->attr_mod;
	return rdma_accept(id, conn_param);
}
EXPORT_SYMBOL(rdma_accept_ece);

/**
 * rdma_reject - reject a connection request
 * @id: the new ID of a CONNECT_REQUEST event
 * @private_data: private data for the peer, or NULL
 * @private_data_len: its length
 * @reason: the IB CM reject reason (IB_CM_REJ_CONSUMER_DEFINED lets the
 *	peer read the private data with rdma_consumer_reject_data())
 *
 * Return: 0; -EINVAL for an ID without a connection request; the CM's
 * errors.
 */
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason)
{
	struct cma_id *priv = to_cma(id);

	if (!priv->cm.ib)
		return -EINVAL;
	if (cma_ib(priv))
		return cma_ib_reject(priv, private_data, private_data_len,
				     reason);
	if (cma_iw(priv))
		return cma_iw_reject(priv, private_data, private_data_len);
	return -EINVAL;
}
EXPORT_SYMBOL(rdma_reject);

/**
 * rdma_disconnect - end a connection
 * @id: the ID
 *
 * The QP goes to the error state and the peer is told (DREQ, or the DREP
 * answering its DREQ).  DISCONNECTED follows, then TIMEWAIT_EXIT.
 *
 * Return: 0; -EINVAL for an ID without connection; the QP's errors.
 */
int rdma_disconnect(struct rdma_cm_id *id)
{
	struct cma_id *priv = to_cma(id);

	if (!priv->cm.ib)
		return -EINVAL;
	if (cma_ib(priv))
		return cma_ib_disconnect(priv);
	if (cma_iw(priv))
		return iw_cm_disconnect(priv->cm.iw, 0);
	return -EINVAL;
}
EXPORT_SYMBOL(rdma_disconnect);

/**
 * rdma_notify - tell the CM of an event of the ID's QP
 * @id: the ID
 * @event: the QP's event (IB_EVENT_COMM_EST: the first message arrived
 *	before the RTU)
 *
 * Return: 0; -EINVAL for an ID without connection; ib_cm's errors on
 * InfiniBand channel adapters (others ignore the event).
 */
int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event)
{
	struct cma_id *priv = to_cma(id);

	if (!priv->cm.ib)
		return -EINVAL;
	if (id->device->node_type == RDMA_NODE_IB_CA)
		return ib_cm_notify(priv->cm.ib, event);
	return 0;
}
EXPORT_SYMBOL(rdma_notify);
