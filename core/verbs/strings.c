// SPDX-License-Identifier: GPL-2.0
/*
 * Human-readable names for asynchronous events and work completion
 * statuses, for log messages of the core and of ULPs.
 */
#include "abi/ib_core/verbs.h"

/* Indexed by enum ib_event_type; read-only, no locking. */
static const char *const event_names[] = {
	[IB_EVENT_CQ_ERR]		= "CQ error",
	[IB_EVENT_QP_FATAL]		= "QP fatal error",
	[IB_EVENT_QP_REQ_ERR]		= "QP invalid request error",
	[IB_EVENT_QP_ACCESS_ERR]	= "QP access violation",
	[IB_EVENT_COMM_EST]		= "communication established",
	[IB_EVENT_SQ_DRAINED]		= "send queue drained",
	[IB_EVENT_PATH_MIG]		= "path migrated",
	[IB_EVENT_PATH_MIG_ERR]		= "path migration failed",
	[IB_EVENT_DEVICE_FATAL]		= "device fatal error",
	[IB_EVENT_PORT_ACTIVE]		= "port active",
	[IB_EVENT_PORT_ERR]		= "port error",
	[IB_EVENT_LID_CHANGE]		= "LID changed",
	[IB_EVENT_PKEY_CHANGE]		= "P_Key table changed",
	[IB_EVENT_SM_CHANGE]		= "subnet manager changed",
	[IB_EVENT_SRQ_ERR]		= "SRQ error",
	[IB_EVENT_SRQ_LIMIT_REACHED]	= "SRQ limit reached",
	[IB_EVENT_QP_LAST_WQE_REACHED]	= "QP last WQE reached",
	[IB_EVENT_CLIENT_REREGISTER]	= "client reregistration requested",
	[IB_EVENT_GID_CHANGE]		= "GID table changed",
	[IB_EVENT_WQ_FATAL]		= "WQ fatal error",
};

/* Indexed by enum ib_wc_status; read-only, no locking. */
static const char *const wc_status_names[] = {
	[IB_WC_SUCCESS]			= "success",
	[IB_WC_LOC_LEN_ERR]		= "local length error",
	[IB_WC_LOC_QP_OP_ERR]		= "local QP operation error",
	[IB_WC_LOC_EEC_OP_ERR]		= "local EE context operation error",
	[IB_WC_LOC_PROT_ERR]		= "local protection error",
	[IB_WC_WR_FLUSH_ERR]		= "work request flushed",
	[IB_WC_MW_BIND_ERR]		= "memory window bind error",
	[IB_WC_BAD_RESP_ERR]		= "bad response",
	[IB_WC_LOC_ACCESS_ERR]		= "local access error",
	[IB_WC_REM_INV_REQ_ERR]		= "remote invalid request",
	[IB_WC_REM_ACCESS_ERR]		= "remote access error",
	[IB_WC_REM_OP_ERR]		= "remote operation error",
	[IB_WC_RETRY_EXC_ERR]		= "transport retry count exceeded",
	[IB_WC_RNR_RETRY_EXC_ERR]	= "RNR retry count exceeded",
	[IB_WC_LOC_RDD_VIOL_ERR]	= "local RDD violation",
	[IB_WC_REM_INV_RD_REQ_ERR]	= "remote invalid RD request",
	[IB_WC_REM_ABORT_ERR]		= "remote aborted",
	[IB_WC_INV_EECN_ERR]		= "invalid EE context number",
	[IB_WC_INV_EEC_STATE_ERR]	= "invalid EE context state",
	[IB_WC_FATAL_ERR]		= "fatal error",
	[IB_WC_RESP_TIMEOUT_ERR]	= "response timeout",
	[IB_WC_GENERAL_ERR]		= "general error",
};

static const char *name_or(const char *const *names, size_t n,
			   unsigned int idx, const char *unknown)
{
	if (idx < n && names[idx])
		return names[idx];
	return unknown;
}

/**
 * ib_event_msg() - name an asynchronous event
 * @event: the event type
 *
 * Return: a constant string naming @event, or "unrecognized event" for a
 * value outside &enum ib_event_type.
 */
const char *__attribute_const__ ib_event_msg(enum ib_event_type event)
{
	return name_or(event_names, ARRAY_SIZE(event_names), event,
		       "unrecognized event");
}
EXPORT_SYMBOL(ib_event_msg);

/**
 * ib_wc_status_msg() - name a work completion status
 * @status: the status of a completion
 *
 * Return: a constant string naming @status, or "unrecognized status" for a
 * value outside &enum ib_wc_status.
 */
const char *__attribute_const__ ib_wc_status_msg(enum ib_wc_status status)
{
	return name_or(wc_status_names, ARRAY_SIZE(wc_status_names), status,
		       "unrecognized status");
}
EXPORT_SYMBOL(ib_wc_status_msg);
