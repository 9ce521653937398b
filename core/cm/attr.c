// SPDX-License-Identifier: GPL-2.0
/*
 * What a connection's QP needs from the CM at each state it is moved
 * to (ib_cm_init_qp_attr()), and the names of the reject reasons.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"

/* The states in which a connection's parameters are known */
static bool cm_has_conn(const struct cm_id_priv *priv, bool need_peer)
{
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		return !need_peer;
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
	case IB_CM_ESTABLISHED:
		return true;
	default:
		return false;
	}
}

static void cm_attr_init(struct cm_id_priv *priv, struct ib_qp_attr *a,
			 int *mask)
{
	*mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX |
		IB_QP_PORT;
	a->qp_access_flags = IB_ACCESS_REMOTE_WRITE;
	if (priv->responder_resources)
		a->qp_access_flags |= IB_ACCESS_REMOTE_READ |
				      IB_ACCESS_REMOTE_ATOMIC;
	a->pkey_index = priv->av.pkey_index;
	a->port_num = priv->av.port->num;
}

static void cm_attr_rtr(struct cm_id_priv *priv, struct ib_qp_attr *a,
			int *mask)
{
	*mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
		IB_QP_RQ_PSN;
	a->ah_attr = priv->av.attr;
	a->path_mtu = priv->path_mtu;
	a->dest_qp_num = priv->remote_qpn;
	a->rq_psn = priv->rq_psn;
	if (priv->qp_type == IB_QPT_RC || priv->qp_type == IB_QPT_XRC_TGT) {
		*mask |= IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
		a->max_dest_rd_atomic = priv->responder_resources;
		a->min_rnr_timer = 0;
	}
	if (priv->alt_av.valid) {
		*mask |= IB_QP_ALT_PATH;
		a->alt_port_num = priv->alt_av.port->num;
		a->alt_pkey_index = priv->alt_av.pkey_index;
		a->alt_timeout = priv->alt_av.timeout;
		a->alt_ah_attr = priv->alt_av.attr;
	}
}

static void cm_attr_rts(struct cm_id_priv *priv, struct ib_qp_attr *a,
			int *mask)
{
	*mask = IB_QP_STATE | IB_QP_SQ_PSN;
	a->sq_psn = priv->sq_psn;
	switch (priv->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_XRC_INI:
		*mask |= IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			 IB_QP_MAX_QP_RD_ATOMIC;
		a->retry_cnt = priv->retry_count;
		a->rnr_retry = priv->rnr_retry_count;
		a->max_rd_atomic = priv->initiator_depth;
		fallthrough;
	case IB_QPT_XRC_TGT:
		*mask |= IB_QP_TIMEOUT;
		a->timeout = priv->av.timeout;
		break;
	default:
		break;
	}
	if (priv->alt_av.valid) {
		*mask |= IB_QP_PATH_MIG_STATE;
		a->path_mig_state = IB_MIG_REARM;
	}
}

/**
 * ib_cm_init_qp_attr - the attributes a connection's QP moves with
 * @cm_id: the identifier of the connection
 * @qp_attr: in: qp_state (IB_QPS_INIT, IB_QPS_RTR or IB_QPS_RTS); out:
 *	the attributes for ib_modify_qp(); the address vectors set are
 *	the connection's, borrowed: valid while the identifier is
 * @qp_attr_mask: out: which attributes are set
 *
 * INIT is known from the REQ on, RTR and RTS once both sides' QPs are.
 *
 * Return: 0; -EINVAL for another state of the QP, or when the
 * connection is not far enough along.
 */
int ib_cm_init_qp_attr(struct ib_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&priv->lock, flags);
	switch (qp_attr->qp_state) {
	case IB_QPS_INIT:
		if (cm_has_conn(priv, false))
			cm_attr_init(priv, qp_attr, qp_attr_mask);
		else
			ret = -EINVAL;
		break;
	case IB_QPS_RTR:
		if (cm_has_conn(priv, true))
			cm_attr_rtr(priv, qp_attr, qp_attr_mask);
		else
			ret = -EINVAL;
		break;
	case IB_QPS_RTS:
		if (cm_has_conn(priv, true))
			cm_attr_rts(priv, qp_attr, qp_attr_mask);
		else
			ret = -EINVAL;
		break;
	default:
		ret = -EINVAL;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_cm_init_qp_attr);

#define CM_REJ_NAME(r, s) [IB_CM_REJ_##r] = s
static const char *const cm_rej_names[] = {
	CM_REJ_NAME(NO_QP, "no QP"),
	CM_REJ_NAME(NO_EEC, "no EEC"),
	CM_REJ_NAME(NO_RESOURCES, "no resources"),
	CM_REJ_NAME(TIMEOUT, "timeout"),
	CM_REJ_NAME(UNSUPPORTED, "unsupported request"),
	CM_REJ_NAME(INVALID_COMM_ID, "invalid communication ID"),
	CM_REJ_NAME(INVALID_COMM_INSTANCE, "invalid communication instance"),
	CM_REJ_NAME(INVALID_SERVICE_ID, "invalid service ID"),
	CM_REJ_NAME(INVALID_TRANSPORT_TYPE, "invalid transport type"),
	CM_REJ_NAME(STALE_CONN, "stale connection"),
	CM_REJ_NAME(RDC_NOT_EXIST, "RDC does not exist"),
	CM_REJ_NAME(INVALID_GID, "invalid GID"),
	CM_REJ_NAME(INVALID_LID, "invalid LID"),
	CM_REJ_NAME(INVALID_SL, "invalid SL"),
	CM_REJ_NAME(INVALID_TRAFFIC_CLASS, "invalid traffic class"),
	CM_REJ_NAME(INVALID_HOP_LIMIT, "invalid hop limit"),
	CM_REJ_NAME(INVALID_PACKET_RATE, "invalid packet rate"),
	CM_REJ_NAME(INVALID_ALT_GID, "invalid alternate GID"),
	CM_REJ_NAME(INVALID_ALT_LID, "invalid alternate LID"),
	CM_REJ_NAME(INVALID_ALT_SL, "invalid alternate SL"),
	CM_REJ_NAME(INVALID_ALT_TRAFFIC_CLASS,
		    "invalid alternate traffic class"),
	CM_REJ_NAME(INVALID_ALT_HOP_LIMIT, "invalid alternate hop limit"),
	CM_REJ_NAME(INVALID_ALT_PACKET_RATE, "invalid alternate packet rate"),
	CM_REJ_NAME(PORT_CM_REDIRECT, "port CM redirect"),
	CM_REJ_NAME(PORT_REDIRECT, "port redirect"),
	CM_REJ_NAME(INVALID_MTU, "invalid MTU"),
	CM_REJ_NAME(INSUFFICIENT_RESP_RESOURCES,
		    "insufficient responder resources"),
	CM_REJ_NAME(CONSUMER_DEFINED, "consumer defined"),
	CM_REJ_NAME(INVALID_RNR_RETRY, "invalid RNR retry count"),
	CM_REJ_NAME(DUPLICATE_LOCAL_COMM_ID,
		    "duplicate local communication ID"),
	CM_REJ_NAME(INVALID_CLASS_VERSION, "invalid class version"),
	CM_REJ_NAME(INVALID_FLOW_LABEL, "invalid flow label"),
	CM_REJ_NAME(INVALID_ALT_FLOW_LABEL, "invalid alternate flow label"),
	CM_REJ_NAME(VENDOR_OPTION_NOT_SUPPORTED,
		    "vendor option not supported"),
};

/**
 * ibcm_reject_msg - the name of a reject reason
 * @reason: an enum ib_cm_rej_reason
 *
 * Return: a constant string; "unrecognized reason" for a value the
 * enumeration does not have.
 */
const char *__attribute_const__ ibcm_reject_msg(int reason)
{
	if (reason >= 0 && reason < ARRAY_SIZE(cm_rej_names) &&
	    cm_rej_names[reason])
		return cm_rej_names[reason];
	return "unrecognized reason";
}
EXPORT_SYMBOL(ibcm_reject_msg);
