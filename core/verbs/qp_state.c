// SPDX-License-Identifier: GPL-2.0
/*
 * The QP state machine of the InfiniBand Architecture (IBTA vol. 1,
 * "QP state transitions" and the Modify QP verb): which transitions exist
 * and, for each QP type, which attributes a transition requires and which
 * it accepts.  Drivers call ib_modify_qp_is_ok() to validate a Modify QP.
 *
 * The tables are constant: no locking.
 */
#include "abi/ib_core/verbs.h"

#define QPT(t)		BIT(IB_QPT_##t)
#define QPT_SPECIAL	(QPT(SMI) | QPT(GSI))
#define QPT_DATAGRAM	(QPT(UD) | QPT_SPECIAL)
/* Types with a connected transport and a remote QP number */
#define QPT_CONNECTED	(QPT(UC) | QPT(RC) | QPT(XRC_INI) | QPT(XRC_TGT))
/* Connected types that keep responder resources for RDMA READ/atomics */
#define QPT_RESPONDER	(QPT(RC) | QPT(XRC_TGT))
/* Connected types that send requests which can be retried */
#define QPT_REQUESTER	(QPT(RC) | QPT(XRC_INI))

#define QPS(s)		BIT(IB_QPS_##s)

/* For each current state, the states it may move to. */
static const u8 next_states[IB_QPS_ERR + 1] = {
	[IB_QPS_RESET]	= QPS(RESET) | QPS(INIT),
	[IB_QPS_INIT]	= QPS(RESET) | QPS(ERR) | QPS(INIT) | QPS(RTR),
	[IB_QPS_RTR]	= QPS(RESET) | QPS(ERR) | QPS(RTS),
	[IB_QPS_RTS]	= QPS(RESET) | QPS(ERR) | QPS(RTS) | QPS(SQD),
	[IB_QPS_SQD]	= QPS(RESET) | QPS(ERR) | QPS(RTS) | QPS(SQD),
	[IB_QPS_SQE]	= QPS(RESET) | QPS(ERR) | QPS(RTS),
	[IB_QPS_ERR]	= QPS(RESET) | QPS(ERR),
};

/**
 * struct qp_attr_rule - attributes of one transition for a set of QP types
 * @from: current state
 * @to: next state
 * @types: the QP types (bits of enum ib_qp_type) the rule applies to
 * @req: attributes those types must supply
 * @opt: attributes those types may supply
 *
 * Several rules may match one (@from, @to, type): their masks add up.  A
 * valid transition that no rule names takes no attribute but IB_QP_STATE.
 */
struct qp_attr_rule {
	u8 from;
	u8 to;
	u16 types;
	u32 req;
	u32 opt;
};

#define INIT_ATTRS_UD		(IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY)
#define INIT_ATTRS_SPECIAL	(IB_QP_PKEY_INDEX | IB_QP_QKEY)
#define INIT_ATTRS_CONNECTED	(IB_QP_PKEY_INDEX | IB_QP_PORT | \
				 IB_QP_ACCESS_FLAGS)
#define RTS_OPT_DATAGRAM	(IB_QP_CUR_STATE | IB_QP_QKEY)
#define RTS_OPT_CONNECTED	(IB_QP_CUR_STATE | IB_QP_ALT_PATH | \
				 IB_QP_ACCESS_FLAGS | IB_QP_PATH_MIG_STATE)

static const struct qp_attr_rule qp_attr_rules[] = {
	/* Reset to Init: the port, partition and access rights */
	{ IB_QPS_RESET, IB_QPS_INIT, QPT(UD), INIT_ATTRS_UD, 0 },
	{ IB_QPS_RESET, IB_QPS_INIT, QPT_SPECIAL, INIT_ATTRS_SPECIAL, 0 },
	{ IB_QPS_RESET, IB_QPS_INIT, QPT_CONNECTED, INIT_ATTRS_CONNECTED, 0 },
	{ IB_QPS_RESET, IB_QPS_INIT, QPT(RAW_PACKET), IB_QP_PORT, 0 },
	/* Init to Init: the same, all optional */
	{ IB_QPS_INIT, IB_QPS_INIT, QPT(UD), 0, INIT_ATTRS_UD },
	{ IB_QPS_INIT, IB_QPS_INIT, QPT_SPECIAL, 0, INIT_ATTRS_SPECIAL },
	{ IB_QPS_INIT, IB_QPS_INIT, QPT_CONNECTED, 0, INIT_ATTRS_CONNECTED },
	/* Init to RTR: connected QPs learn their peer */
	{ IB_QPS_INIT, IB_QPS_RTR, QPT_DATAGRAM, 0,
	  IB_QP_PKEY_INDEX | IB_QP_QKEY },
	{ IB_QPS_INIT, IB_QPS_RTR, QPT_CONNECTED,
	  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN,
	  IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX },
	{ IB_QPS_INIT, IB_QPS_RTR, QPT_RESPONDER,
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER, 0 },
	/* RTR to RTS: the send side */
	{ IB_QPS_RTR, IB_QPS_RTS, QPT_DATAGRAM, IB_QP_SQ_PSN,
	  RTS_OPT_DATAGRAM },
	{ IB_QPS_RTR, IB_QPS_RTS, QPT_CONNECTED, IB_QP_SQ_PSN,
	  RTS_OPT_CONNECTED },
	{ IB_QPS_RTR, IB_QPS_RTS, QPT_REQUESTER | QPT(XRC_TGT),
	  IB_QP_TIMEOUT, 0 },
	{ IB_QPS_RTR, IB_QPS_RTS, QPT_REQUESTER,
	  IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC, 0 },
	{ IB_QPS_RTR, IB_QPS_RTS, QPT_RESPONDER, 0, IB_QP_MIN_RNR_TIMER },
	{ IB_QPS_RTR, IB_QPS_RTS, QPT(RAW_PACKET), 0, IB_QP_RATE_LIMIT },
	/* RTS to RTS: tuning a live QP */
	{ IB_QPS_RTS, IB_QPS_RTS, QPT_DATAGRAM, 0, RTS_OPT_DATAGRAM },
	{ IB_QPS_RTS, IB_QPS_RTS, QPT_CONNECTED, 0, RTS_OPT_CONNECTED },
	{ IB_QPS_RTS, IB_QPS_RTS, QPT_RESPONDER, 0, IB_QP_MIN_RNR_TIMER },
	{ IB_QPS_RTS, IB_QPS_RTS, QPT(RAW_PACKET), 0, IB_QP_RATE_LIMIT },
	/* RTS to SQD */
	{ IB_QPS_RTS, IB_QPS_SQD, QPT_DATAGRAM | QPT_CONNECTED, 0,
	  IB_QP_EN_SQD_ASYNC_NOTIFY },
	/* SQD back to RTS */
	{ IB_QPS_SQD, IB_QPS_RTS, QPT_DATAGRAM, 0, RTS_OPT_DATAGRAM },
	{ IB_QPS_SQD, IB_QPS_RTS, QPT_CONNECTED, 0, RTS_OPT_CONNECTED },
	{ IB_QPS_SQD, IB_QPS_RTS, QPT_RESPONDER, 0, IB_QP_MIN_RNR_TIMER },
	/* SQD to SQD: the path and the send parameters may change */
	{ IB_QPS_SQD, IB_QPS_SQD, QPT_DATAGRAM, 0,
	  IB_QP_PKEY_INDEX | IB_QP_QKEY },
	{ IB_QPS_SQD, IB_QPS_SQD, QPT_CONNECTED, 0,
	  IB_QP_AV | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX |
	  IB_QP_PATH_MIG_STATE },
	{ IB_QPS_SQD, IB_QPS_SQD, QPT_REQUESTER | QPT(XRC_TGT), 0,
	  IB_QP_PORT | IB_QP_TIMEOUT },
	{ IB_QPS_SQD, IB_QPS_SQD, QPT_REQUESTER, 0,
	  IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC },
	{ IB_QPS_SQD, IB_QPS_SQD, QPT_RESPONDER, 0,
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER },
	/* SQE (unreliable types only) back to RTS */
	{ IB_QPS_SQE, IB_QPS_RTS, QPT_DATAGRAM, 0, RTS_OPT_DATAGRAM },
	{ IB_QPS_SQE, IB_QPS_RTS, QPT(UC), 0,
	  IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS },
};

/* A current state may be asserted only where IBTA lets one be asserted. */
#define CUR_STATE_FROM	(QPS(RTR) | QPS(RTS) | QPS(SQD) | QPS(SQE))

/**
 * ib_modify_qp_is_ok() - check a QP state transition and its attributes
 * @cur_state: the QP's current state
 * @next_state: the state the caller asks for
 * @type: the QP's type
 * @mask: the attributes the caller supplies (IB_QP_STATE included)
 *
 * Checks that the transition exists, that @mask holds every attribute it
 * requires for @type and nothing it does not accept.
 *
 * Return: true if the Modify QP is legal.
 */
bool ib_modify_qp_is_ok(enum ib_qp_state cur_state, enum ib_qp_state next_state,
			enum ib_qp_type type, enum ib_qp_attr_mask mask)
{
	u32 req = 0, opt = 0;
	unsigned int i;

	if ((unsigned int)cur_state > IB_QPS_ERR ||
	    (unsigned int)next_state > IB_QPS_ERR ||
	    (unsigned int)type >= IB_QPT_MAX)
		return false;
	if (!(next_states[cur_state] & BIT(next_state)))
		return false;
	if ((mask & IB_QP_CUR_STATE) && !(CUR_STATE_FROM & BIT(cur_state)))
		return false;

	for (i = 0; i < ARRAY_SIZE(qp_attr_rules); i++) {
		const struct qp_attr_rule *r = &qp_attr_rules[i];

		if (r->from == cur_state && r->to == next_state &&
		    (r->types & BIT(type))) {
			req |= r->req;
			opt |= r->opt;
		}
	}

	return (mask & req) == req && !(mask & ~(req | opt | IB_QP_STATE));
}
EXPORT_SYMBOL(ib_modify_qp_is_ok);
