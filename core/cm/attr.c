// SPDX-License-Identifier: GPL-2.0
/*
 * What a connection's QP needs from the CM at each state it is moved
 * to (ib_cm_init_qp_attr()), and the names of the reject reasons.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"

/*
 * States in which both QPs are known: the passive side from the REQ on,
 * the active side from the REP on; and those of an active side that has
 * only sent its REQ (enough for INIT).
 */
#define CM_BOTH_QPS (BIT(IB_CM_ESTABLISHED) | BIT(IB_CM_REQ_RCVD) |	\
		     BIT(IB_CM_MRA_REQ_SENT) | BIT(IB_CM_REP_SENT) |	\
		     BIT(IB_CM_MRA_REP_RCVD) | BIT(IB_CM_REP_RCVD) |	\
		     BIT(IB_CM_MRA_REP_SENT))
#define CM_OWN_QP (BIT(IB_CM_REQ_SENT) | BIT(IB_CM_MRA_REQ_RCVD))

static bool cm_has_conn(const struct cm_id_priv *priv, bool need_peer)
{
	unsigned long states = need_peer ? CM_BOTH_QPS :
				CM_BOTH_QPS | CM_OWN_QP;

	return states & BIT(priv->id.state);
}

static void cm_attr_init(struct cm_id_priv *priv, struct ib_qp_attr *a,
			 int *mask)
{
	/* Reads and atomics only when we accept some */
	int access = priv->responder_resources ?
		     IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
		     IB_ACCESS_REMOTE_ATOMIC : IB_ACCESS_REMOTE_WRITE;

	a->port_num = priv->av.port->num;
	a->pkey_index = priv->av.pkey_index;
	a->qp_access_flags = access;
	*mask = IB_QP_STATE | IB_QP_PORT | IB_QP_PKEY_INDEX |
		IB_QP_ACCESS_FLAGS;
}

/* The alternate path's attributes (IB_QP_ALT_PATH) */
static void cm_attr_alt(struct cm_id_priv *priv, struct ib_qp_attr *a)
{
	a->alt_ah_attr = priv->alt_av.attr;
	a->alt_timeout = priv->alt_av.timeout;
	a->alt_pkey_index = priv->alt_av.pkey_index;
	a->alt_port_num = priv->alt_av.port->num;
}

static void cm_attr_rtr(struct cm_id_priv *priv, struct ib_qp_attr *a,
			int *mask)
{
	bool reads = priv->qp_type == IB_QPT_RC ||
		     priv->qp_type == IB_QPT_XRC_TGT;
	int m = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
		IB_QP_RQ_PSN;

	a->ah_attr = priv->av.attr;
	a->dest_qp_num = priv->remote_qpn;
	a->path_mtu = priv->path_mtu;
	a->rq_psn = priv->rq_psn;
	if (reads) {
		/* The responder's side of RDMA reads and atomics */
		m |= IB_QP_MIN_RNR_TIMER | IB_QP_MAX_DEST_RD_ATOMIC;
		a->min_rnr_timer = 0;
		a->max_dest_rd_atomic = priv->responder_resources;
	}
	if (priv->alt_av.valid) {
		m |= IB_QP_ALT_PATH;
		cm_attr_alt(priv, a);
	}
	*mask = m;
}

static void cm_attr_rts(struct cm_id_priv *priv, struct ib_qp_attr *a,
			int *mask)
{
	bool sends = priv->qp_type == IB_QPT_RC ||
		     priv->qp_type == IB_QPT_XRC_INI;
	bool acks = sends || priv->qp_type == IB_QPT_XRC_TGT;
	int m = IB_QP_STATE | IB_QP_SQ_PSN;

	if (priv->id.lap_state != IB_CM_LAP_UNINIT && priv->alt_av.valid) {
		/* After a LAP: the running QP loads the new alternate path */
		cm_attr_alt(priv, a);
		a->path_mig_state = IB_MIG_REARM;
		*mask = IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE;
		return;
	}
	a->sq_psn = priv->sq_psn;
	if (sends) {
		/* The requester's retries and outstanding reads */
		m |= IB_QP_MAX_QP_RD_ATOMIC | IB_QP_RNR_RETRY |
		     IB_QP_RETRY_CNT;
		a->max_rd_atomic = priv->initiator_depth;
		a->rnr_retry = priv->rnr_retry_count;
		a->retry_cnt = priv->retry_count;
	}
	if (acks) {
		m |= IB_QP_TIMEOUT;
		a->timeout = priv->av.timeout;
	}
	if (priv->alt_av.valid) {
		m |= IB_QP_PATH_MIG_STATE;
		a->path_mig_state = IB_MIG_REARM;
	}
	*mask = m;
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

/* The reasons' names, as the target words them (sorted by name) */
static const char *const cm_rej_names[] = {
	[IB_CM_REJ_CONSUMER_DEFINED] = "consumer defined",
	[IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID] = "duplicate local comm ID",
	[IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES] = "insufficient resp resources",
	[IB_CM_REJ_INVALID_ALT_FLOW_LABEL] = "invalid alt flow label",
	[IB_CM_REJ_INVALID_ALT_GID] = "invalid alt GID",
	[IB_CM_REJ_INVALID_ALT_HOP_LIMIT] = "invalid alt hop limit",
	[IB_CM_REJ_INVALID_ALT_LID] = "invalid alt LID",
	[IB_CM_REJ_INVALID_ALT_PACKET_RATE] = "invalid alt packet rate",
	[IB_CM_REJ_INVALID_ALT_SL] = "invalid alt SL",
	[IB_CM_REJ_INVALID_ALT_TRAFFIC_CLASS] = "invalid alt traffic class",
	[IB_CM_REJ_INVALID_CLASS_VERSION] = "invalid class version",
	[IB_CM_REJ_INVALID_COMM_ID] = "invalid comm ID",
	[IB_CM_REJ_INVALID_COMM_INSTANCE] = "invalid comm instance",
	[IB_CM_REJ_INVALID_FLOW_LABEL] = "invalid flow label",
	[IB_CM_REJ_INVALID_GID] = "invalid GID",
	[IB_CM_REJ_INVALID_HOP_LIMIT] = "invalid hop limit",
	[IB_CM_REJ_INVALID_LID] = "invalid LID",
	[IB_CM_REJ_INVALID_MTU] = "invalid MTU",
	[IB_CM_REJ_INVALID_PACKET_RATE] = "invalid packet rate",
	[IB_CM_REJ_INVALID_RNR_RETRY] = "invalid RNR retry",
	[IB_CM_REJ_INVALID_SERVICE_ID] = "invalid service ID",
	[IB_CM_REJ_INVALID_SL] = "invalid SL",
	[IB_CM_REJ_INVALID_TRAFFIC_CLASS] = "invalid traffic class",
	[IB_CM_REJ_INVALID_TRANSPORT_TYPE] = "invalid transport type",
	[IB_CM_REJ_NO_EEC] = "no EEC",
	[IB_CM_REJ_NO_QP] = "no QP",
	[IB_CM_REJ_NO_RESOURCES] = "no resources",
	[IB_CM_REJ_PORT_CM_REDIRECT] = "port CM redirect",
	[IB_CM_REJ_PORT_REDIRECT] = "port redirect",
	[IB_CM_REJ_RDC_NOT_EXIST] = "RDC not exist",
	[IB_CM_REJ_STALE_CONN] = "stale conn",
	[IB_CM_REJ_TIMEOUT] = "timeout",
	[IB_CM_REJ_UNSUPPORTED] = "unsupported",
	[IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED] = "vendor option is not supported",
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
