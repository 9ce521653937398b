// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer's calls on an identifier: iw_cm_listen, iw_cm_connect,
 * iw_cm_accept, iw_cm_reject, iw_cm_disconnect.
 *
 * Each checks and changes the state under the identifier's lock, then
 * calls the driver without it; a driver's error puts the state back.
 * Connect, accept and reject are "busy" from the call until the driver's
 * answer (the connect reply, the established event) has been taken, or
 * the call failed: teardown and disconnect wait for that.  A wrong state
 * is -EINVAL; a device without the iWARP CM operations -EOPNOTSUPP.
 */
#include "abi/iw_cm/iwcm.h"
#include "internal.h"

/* Does @device have what connecting and listening need? */
static bool iwcm_device_ok(struct ib_device *device)
{
	const struct ib_device_ops *ops = &device->ops;

	return ops->iw_connect && ops->iw_accept && ops->iw_reject &&
	       ops->iw_create_listen && ops->iw_destroy_listen &&
	       ops->iw_get_qp && ops->iw_add_ref && ops->iw_rem_ref;
}

/*
 * Move @id from @from to @to and make it busy (if @busy), with room for
 * @limit queued events; -EINVAL if it is not in @from or is busy.
 */
static int iwcm_claim(struct iwcm_id *id, enum iwcm_state from,
		      enum iwcm_state to, bool busy, unsigned int limit)
{
	int ret = -EINVAL;

	spin_lock_irq(&id->lock);
	if (id->state == from && !id->busy) {
		id->state = to;
		id->busy = busy;
		id->limit = limit ? limit : id->limit;
		ret = 0;
	}
	spin_unlock_irq(&id->lock);
	return ret;
}

/**
 * iw_cm_listen - listen for connect requests
 * @cm_id: an idle identifier, with local_addr set
 * @backlog: connect requests that may wait for the handler; 0 means the
 *	sysctl net/iw_cm/default_backlog (256 unless changed)
 *
 * Each request reaches the handler as IW_CM_EVENT_CONNECT_REQUEST with a
 * new identifier; beyond @backlog waiting requests the driver is told to
 * refuse.
 *
 * Return: 0; -EINVAL if @cm_id is not idle, @backlog is negative or the
 * device's name is too long for the port mapper; -EOPNOTSUPP for a
 * device that is not an iWARP device; or the driver's error.
 */
int iw_cm_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct iwcm_id *id = to_iwcm_id(cm_id);
	int ret;

	if (!iwcm_device_ok(cm_id->device))
		return -EOPNOTSUPP;
	if (backlog < 0)
		return -EINVAL;
	if (!backlog)
		backlog = iwcm_default_backlog();
	ret = iwcm_claim(id, IWCM_IDLE, IWCM_LISTEN, false, backlog);
	if (ret)
		return ret;
	ret = iwcm_id_map(cm_id);
	if (!ret)
		ret = cm_id->device->ops.iw_create_listen(cm_id, backlog);
	if (ret)
		iwcm_claim(id, IWCM_LISTEN, IWCM_IDLE, false, 0);
	return ret;
}
EXPORT_SYMBOL(iw_cm_listen);

/* Give the QP of a failed connect or accept back: idle, not busy. */
static void iwcm_conn_failed(struct iwcm_id *id)
{
	struct ib_qp *qp;

	spin_lock_irq(&id->lock);
	qp = iwcm_qp_take(id);
	id->state = IWCM_IDLE;
	id->busy = false;
	wake_up_all(&id->wait);
	spin_unlock_irq(&id->lock);
	if (qp)
		iwcm_qp_put(id->id.device, qp);
}

/* The QP of @qpn, with our reference, becomes @id's. */
static int iwcm_conn_bind_qp(struct iwcm_id *id, u32 qpn)
{
	struct ib_qp *qp = iwcm_qp_get(id->id.device, qpn);

	if (!qp)
		return -EINVAL;
	spin_lock_irq(&id->lock);
	id->qp = qp;
	spin_unlock_irq(&id->lock);
	return 0;
}

/**
 * iw_cm_connect - connect to a listening peer
 * @cm_id: an idle identifier, with local_addr and remote_addr set
 * @iw_param: the QP number, private data, ORD and IRD
 *
 * The identifier takes a reference on the QP until the connection is
 * over.  The peer's answer comes as IW_CM_EVENT_CONNECT_REPLY: status 0
 * (established, with the peer's private data) or an error such as
 * -ECONNREFUSED (the QP is given back, the identifier idle again).
 * Disconnect and destroy wait for that answer.
 *
 * Return: 0; -EINVAL if @cm_id is not idle, @iw_param is NULL or names no
 * QP of the device, or the device's name is too long for the port
 * mapper; -EOPNOTSUPP for a device that is not an iWARP device; or the
 * driver's error.
 */
int iw_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param)
{
	struct iwcm_id *id = to_iwcm_id(cm_id);
	int ret;

	if (!iwcm_device_ok(cm_id->device))
		return -EOPNOTSUPP;
	if (!iw_param)
		return -EINVAL;
	ret = iwcm_claim(id, IWCM_IDLE, IWCM_CONN_SENT, true,
			 IWCM_ACTIVE_EVENTS);
	if (ret)
		return ret;
	ret = iwcm_conn_bind_qp(id, iw_param->qpn);
	if (!ret)
		ret = iwcm_id_map(cm_id);
	if (!ret)
		ret = cm_id->device->ops.iw_connect(cm_id, iw_param);
	if (ret)
		iwcm_conn_failed(id);
	return ret;
}
EXPORT_SYMBOL(iw_cm_connect);

/**
 * iw_cm_accept - accept a connect request
 * @cm_id: the identifier of an IW_CM_EVENT_CONNECT_REQUEST, not yet
 *	answered
 * @iw_param: the QP number, private data, ORD and IRD
 *
 * The identifier takes a reference on the QP until the connection is
 * over.  IW_CM_EVENT_ESTABLISHED follows when the peer has the answer;
 * disconnect and destroy wait for it.
 *
 * Return: 0; -EINVAL if @cm_id holds no request to answer, @iw_param is
 * NULL or names no QP of the device; or the driver's error, after which
 * the identifier is idle.
 */
int iw_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param)
{
	struct iwcm_id *id = to_iwcm_id(cm_id);
	int ret;

	if (!iw_param)
		return -EINVAL;
	ret = iwcm_claim(id, IWCM_CONN_RECV, IWCM_CONN_RECV, true, 0);
	if (ret)
		return ret;
	ret = iwcm_conn_bind_qp(id, iw_param->qpn);
	if (ret) {
		iwcm_id_unbusy(id);
		return ret;
	}
	ret = cm_id->device->ops.iw_accept(cm_id, iw_param);
	if (ret)
		iwcm_conn_failed(id);
	return ret;
}
EXPORT_SYMBOL(iw_cm_accept);

/**
 * iw_cm_reject - refuse a connect request
 * @cm_id: the identifier of an IW_CM_EVENT_CONNECT_REQUEST, not yet
 *	answered
 * @private_data: data for the peer, or NULL
 * @private_data_len: its length
 *
 * The peer gets a connect reply with an error and the private data; the
 * identifier is idle and gets no more events.
 *
 * Return: 0; -EINVAL if @cm_id holds no request to answer; or the
 * driver's error.
 */
int iw_cm_reject(struct iw_cm_id *cm_id, const void *private_data,
		 u8 private_data_len)
{
	struct iwcm_id *id = to_iwcm_id(cm_id);
	int ret;

	ret = iwcm_claim(id, IWCM_CONN_RECV, IWCM_IDLE, true, 0);
	if (ret)
		return ret;
	ret = cm_id->device->ops.iw_reject(cm_id, private_data,
					   private_data_len);
	iwcm_id_unbusy(id);
	return ret;
}
EXPORT_SYMBOL(iw_cm_reject);

/*
 * Start closing @id's connection if it is established: its QP, with a
 * reference of ours for the caller.  -EINVAL for a listener; NULL
 * otherwise (already closing or closed, never connected, a request not
 * answered).
 */
static struct ib_qp *iwcm_start_close(struct iwcm_id *id)
{
	struct ib_qp *qp = NULL;

	spin_lock_irq(&id->lock);
	wait_event_lock_irq(id->wait, !id->busy, id->lock);
	switch (id->state) {
	case IWCM_ESTABLISHED:
		id->state = IWCM_CLOSING;
		qp = id->qp;
		id->id.device->ops.iw_add_ref(qp);
		break;
	case IWCM_LISTEN:
		qp = ERR_PTR(-EINVAL);
		break;
	default:
		break;
	}
	spin_unlock_irq(&id->lock);
	return qp;
}

/**
 * iw_cm_disconnect - close a connection
 * @cm_id: the identifier
 * @abrupt: reset the connection (the QP to the error state) rather than
 *	close it gracefully (the QP to SQD, the RDMAC "closing" state)
 *
 * Waits for a connect or accept in progress to be answered.  Only an
 * established connection is closed; IW_CM_EVENT_CLOSE follows.  Closing
 * one that the peer is closing already, or that is over, does nothing.
 *
 * Return: 0; -EINVAL for a listener.
 */
int iw_cm_disconnect(struct iw_cm_id *cm_id, int abrupt)
{
	struct iwcm_id *id = to_iwcm_id(cm_id);
	struct ib_qp *qp;

	qp = iwcm_start_close(id);
	if (IS_ERR_OR_NULL(qp))
		return PTR_ERR_OR_ZERO(qp);
	/* Both sides may be closing: the QP may have moved already. */
	iwcm_qp_move(qp, abrupt ? IB_QPS_ERR : IB_QPS_SQD);
	iwcm_qp_put(cm_id->device, qp);
	return 0;
}
EXPORT_SYMBOL(iw_cm_disconnect);
