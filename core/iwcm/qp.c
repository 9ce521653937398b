// SPDX-License-Identifier: GPL-2.0
/*
 * The QP of a connection: the driver's references on it (iw_get_qp,
 * iw_add_ref, iw_rem_ref), the state moves that close a connection, and
 * iw_cm_init_qp_attr.  An identifier holds one reference on its QP from
 * connect or accept until the connection is over (iwcm_id.qp, under its
 * lock).
 */
#include "abi/iw_cm/iwcm.h"
#include "internal.h"

/* The QP of @qpn on @device, with a reference of ours; NULL if none. */
struct ib_qp *iwcm_qp_get(struct ib_device *device, u32 qpn)
{
	struct ib_qp *qp = device->ops.iw_get_qp(device, qpn);

	if (qp)
		device->ops.iw_add_ref(qp);
	return qp;
}

/* Give a reference back; no lock of ours held. */
void iwcm_qp_put(struct ib_device *device, struct ib_qp *qp)
{
	device->ops.iw_rem_ref(qp);
}

/* @id's QP and its reference, for the caller to give back. */
struct ib_qp *iwcm_qp_take(struct iwcm_id *id)
{
	struct ib_qp *qp = id->qp;

	lockdep_assert_held(&id->lock);
	id->qp = NULL;
	return qp;
}

/*
 * Move @qp to @state (SQD: close gracefully, ERR: reset).  The driver
 * closes the connection; its error is of no interest, as the QP may have
 * moved on already when the peer closed first.
 */
void iwcm_qp_move(struct ib_qp *qp, enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };

	ib_modify_qp(qp, &attr, IB_QP_STATE);
}

/* The states in which an identifier's QP may be set up. */
static bool iwcm_qp_attr_state(struct iwcm_id *id)
{
	bool ok;

	spin_lock_irq(&id->lock);
	ok = id->state == IWCM_IDLE || id->state == IWCM_CONN_SENT ||
	     id->state == IWCM_CONN_RECV || id->state == IWCM_ESTABLISHED;
	spin_unlock_irq(&id->lock);
	return ok;
}

/**
 * iw_cm_init_qp_attr - the attributes of a QP state change for iWARP
 * @cm_id: the identifier the QP is for, not listening, closing or
 *	destroyed
 * @qp_attr: qp_state says which move (INIT, RTR or RTS); gets the
 *	attributes to set
 * @qp_attr_mask: gets the mask for ib_modify_qp()
 *
 * INIT and RTR: the state and the access flags (remote read and write);
 * RTS: nothing, the driver moves the QP when the connection is up.
 *
 * Return: 0, or -EINVAL for another state of either.
 */
int iw_cm_init_qp_attr(struct iw_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	if (!iwcm_qp_attr_state(to_iwcm_id(cm_id)))
		return -EINVAL;
	switch (qp_attr->qp_state) {
	case IB_QPS_INIT:
	case IB_QPS_RTR:
		qp_attr->qp_access_flags = IB_ACCESS_REMOTE_READ |
					   IB_ACCESS_REMOTE_WRITE;
		*qp_attr_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS;
		return 0;
	case IB_QPS_RTS:
		*qp_attr_mask = 0;
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL(iw_cm_init_qp_attr);
