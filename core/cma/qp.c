// SPDX-License-Identifier: GPL-2.0
/*
 * An ID's QP: created on the ID's device and port and taken to INIT (UD
 * QPs on to RTS, they need no peer), the attributes of each state from the
 * ID's connection (rdma_init_qp_attr), the moves a connection makes.
 *
 * The ID's qp_mutex protects id.qp and the options read here (ACK
 * timeout, minimum RNR timer).
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

/* INIT attributes without a CM exchange: P_Key index, port, access/Q_Key */
static int cma_ib_qp_init_attr(struct cma_id *priv, struct ib_qp_attr *attr,
			       int *mask)
{
	struct rdma_cm_id *id = &priv->id;
	u16 pkey;
	int ret;

	pkey = rdma_cap_eth_ah(id->device, id->port_num) ? 0xffff :
	       ib_addr_get_pkey(&id->route.addr.dev_addr);
	ret = ib_find_cached_pkey(id->device, id->port_num, pkey,
				  &attr->pkey_index);
	if (ret)
		return ret;
	attr->port_num = id->port_num;
	*mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;
	if (id->qp_type == IB_QPT_UD) {
		ret = cma_ib_set_qkey(priv, 0);
		if (ret)
			return ret;
		attr->qkey = priv->qkey;
		*mask |= IB_QP_QKEY;
	} else {
		attr->qp_access_flags = 0;
		*mask |= IB_QP_ACCESS_FLAGS;
	}
	return 0;
}

static int cma_iw_qp_attr(struct cma_id *priv, struct ib_qp_attr *attr,
			  int *mask)
{
	int ret = 0;

	if (priv->cm.iw) {
		ret = iw_cm_init_qp_attr(priv->cm.iw, attr, mask);
	} else {
		attr->qp_access_flags = 0;
		*mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS;
	}
	attr->port_num = priv->id.port_num;
	*mask |= IB_QP_PORT;
	return ret;
}

/**
 * rdma_init_qp_attr - the attributes of a QP state for an ID's QP
 * @id: the ID, attached to a device
 * @qp_attr: in: qp_state, the state wanted; out: its attributes
 * @qp_attr_mask: out: the attributes set
 *
 * Before a connection exists (and for UD) INIT's attributes come from the
 * ID's port and address; then from the CM's exchange.  An ACK timeout or
 * minimum RNR timer set on the ID replaces the CM's.
 *
 * Return: 0; -ENOSYS for a device without CM; the CM's errors (-EINVAL
 * for a state the connection cannot give yet).
 */
int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask)
{
	struct cma_id *priv = to_cma(id);
	int ret;

	if (!id->device)
		return -EINVAL;
	if (rdma_cap_ib_cm(id->device, id->port_num)) {
		if (!priv->cm.ib || id->qp_type == IB_QPT_UD)
			ret = cma_ib_qp_init_attr(priv, qp_attr, qp_attr_mask);
		else
			ret = ib_cm_init_qp_attr(priv->cm.ib, qp_attr,
						 qp_attr_mask);
		if (qp_attr->qp_state == IB_QPS_RTR)
			qp_attr->rq_psn = priv->seq_num;
	} else if (rdma_cap_iw_cm(id->device, id->port_num)) {
		ret = cma_iw_qp_attr(priv, qp_attr, qp_attr_mask);
	} else {
		return -ENOSYS;
	}
	if ((*qp_attr_mask & IB_QP_TIMEOUT) && priv->ack_timeout_set)
		qp_attr->timeout = priv->ack_timeout;
	if ((*qp_attr_mask & IB_QP_MIN_RNR_TIMER) && priv->min_rnr_set)
		qp_attr->min_rnr_timer = priv->min_rnr;
	return ret;
}
EXPORT_SYMBOL(rdma_init_qp_attr);

/* Takes a new QP to INIT, and a UD QP on to RTS */
static int cma_qp_start(struct cma_id *priv, struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	int mask, ret;

	ret = rdma_init_qp_attr(&priv->id, &attr, &mask);
	if (!ret)
		ret = ib_modify_qp(qp, &attr, mask);
	if (ret || qp->qp_type != IB_QPT_UD)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

/**
 * rdma_create_qp - create the QP of an ID
 * @id: the ID, attached to a device (address resolved, or a new ID of a
 *	request)
 * @pd: a protection domain of the ID's device
 * @qp_init_attr: the QP's attributes; its port is the ID's
 *
 * Return: 0 (the QP is id->qp, in INIT, or RTS for UD); -EINVAL for a PD
 * of another device or an ID without device; ib_create_qp()'s errors;
 * the errors of the move to INIT.
 */
int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *qp_init_attr)
{
	struct cma_id *priv = to_cma(id);
	struct ib_qp *qp;
	int ret;

	if (!id->device || id->device != pd->device)
		return -EINVAL;
	qp_init_attr->port_num = id->port_num;
	qp = ib_create_qp(pd, qp_init_attr);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	ret = cma_qp_start(priv, qp);
	if (ret) {
		ib_destroy_qp(qp);
		return ret;
	}
	mutex_lock(&priv->qp_mutex);
	id->qp = qp;
	priv->qp_num = qp->qp_num;
	priv->rt.qp_num = qp->qp_num;
	priv->srq = qp->srq != NULL;
	mutex_unlock(&priv->qp_mutex);
	return 0;
}
EXPORT_SYMBOL(rdma_create_qp);

/**
 * rdma_destroy_qp - destroy the QP of an ID
 * @id: the ID, whose QP rdma_create_qp() made
 */
void rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct cma_id *priv = to_cma(id);

	mutex_lock(&priv->qp_mutex);
	if (id->qp)
		ib_destroy_qp(id->qp);
	id->qp = NULL;
	priv->rt.qp_num = 0;
	mutex_unlock(&priv->qp_mutex);
}
EXPORT_SYMBOL(rdma_destroy_qp);

/**
 * cma_qp_to_rtr - take an ID's QP (if any) through INIT to RTR
 * @priv: the ID, with a connection
 * @param: the ULP's parameters (responder resources), or NULL
 *
 * Return: 0, or the error of rdma_init_qp_attr() or ib_modify_qp().
 */
int cma_qp_to_rtr(struct cma_id *priv, struct rdma_conn_param *param)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	int mask, ret = 0;

	mutex_lock(&priv->qp_mutex);
	if (!priv->id.qp)
		goto out;
	/* INIT again: the connection may change the defaults */
	ret = rdma_init_qp_attr(&priv->id, &attr, &mask);
	if (!ret)
		ret = ib_modify_qp(priv->id.qp, &attr, mask);
	if (ret)
		goto out;
	attr.qp_state = IB_QPS_RTR;
	ret = rdma_init_qp_attr(&priv->id, &attr, &mask);
	if (ret)
		goto out;
	if (param)
		attr.max_dest_rd_atomic = param->responder_resources;
	ret = ib_modify_qp(priv->id.qp, &attr, mask);
out:
	mutex_unlock(&priv->qp_mutex);
	return ret;
}

/**
 * cma_qp_to_rts - take an ID's QP (if any) to RTS
 * @priv: the ID, its QP in RTR
 * @param: the ULP's parameters (initiator depth), or NULL
 *
 * Return: 0, or the error of rdma_init_qp_attr() or ib_modify_qp().
 */
int cma_qp_to_rts(struct cma_id *priv, struct rdma_conn_param *param)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTS };
	int mask, ret = 0;

	mutex_lock(&priv->qp_mutex);
	if (!priv->id.qp)
		goto out;
	ret = rdma_init_qp_attr(&priv->id, &attr, &mask);
	if (ret)
		goto out;
	if (param)
		attr.max_rd_atomic = param->initiator_depth;
	ret = ib_modify_qp(priv->id.qp, &attr, mask);
out:
	mutex_unlock(&priv->qp_mutex);
	return ret;
}

/**
 * cma_qp_to_error - move an ID's QP (if any) to the error state
 * @priv: the ID
 *
 * Return: 0, or ib_modify_qp()'s error.
 */
int cma_qp_to_error(struct cma_id *priv)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int ret = 0;

	mutex_lock(&priv->qp_mutex);
	if (priv->id.qp)
		ret = ib_modify_qp(priv->id.qp, &attr, IB_QP_STATE);
	mutex_unlock(&priv->qp_mutex);
	return ret;
}
