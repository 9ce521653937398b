// SPDX-License-Identifier: GPL-2.0
/*
 * The words of rdma_cm: event names, reject reasons by transport, and the
 * private data of a reject the remote ULP chose.  The texts are those ULPs
 * print in-tree (their logs are read by people and scripts).
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

/**
 * rdma_event_msg - the name of an RDMA CM event
 * @event: the event type
 *
 * Return: a constant string; "unrecognized event" for an unknown type.
 */
const char *__attribute_const__ rdma_event_msg(enum rdma_cm_event_type event)
{
	switch (event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		return "address resolved";
	case RDMA_CM_EVENT_ADDR_ERROR:
		return "address error";
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		/* with the trailing blank of the target's text */
		return "route resolved ";
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return "route error";
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return "connect request";
	case RDMA_CM_EVENT_CONNECT_RESPONSE:
		return "connect response";
	case RDMA_CM_EVENT_CONNECT_ERROR:
		return "connect error";
	case RDMA_CM_EVENT_UNREACHABLE:
		return "unreachable";
	case RDMA_CM_EVENT_REJECTED:
		return "rejected";
	case RDMA_CM_EVENT_ESTABLISHED:
		return "established";
	case RDMA_CM_EVENT_DISCONNECTED:
		return "disconnected";
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return "device removal";
	case RDMA_CM_EVENT_MULTICAST_JOIN:
		return "multicast join";
	case RDMA_CM_EVENT_MULTICAST_ERROR:
		return "multicast error";
	case RDMA_CM_EVENT_ADDR_CHANGE:
		return "address change";
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		return "timewait exit";
	default:
		return "unrecognized event";
	}
}
EXPORT_SYMBOL(rdma_event_msg);

/* The transport of an ID's port: 'i' InfiniBand or RoCE, 'w' iWARP */
static char cma_transport(struct rdma_cm_id *id)
{
	if (!id->device || !rdma_is_port_valid(id->device, id->port_num))
		return 0;
	if (rdma_ib_or_roce(id->device, id->port_num))
		return 'i';
	if (rdma_protocol_iwarp(id->device, id->port_num))
		return 'w';
	return 0;
}

/**
 * rdma_reject_msg - the meaning of a REJECTED event's status
 * @id: the ID that got the event
 * @reason: the event's status
 *
 * Return: ib_cm's text for InfiniBand and RoCE, iw_cm's for iWARP,
 * "unrecognized transport" for an ID without a port.
 */
const char *__attribute_const__ rdma_reject_msg(struct rdma_cm_id *id,
						int reason)
{
	switch (cma_transport(id)) {
	case 'i':
		return ibcm_reject_msg(reason);
	case 'w':
		return iwcm_reject_msg(reason);
	default:
		return "unrecognized transport";
	}
}
EXPORT_SYMBOL(rdma_reject_msg);

static bool cma_consumer_reject(struct rdma_cm_id *id, int reason)
{
	switch (cma_transport(id)) {
	case 'i':
		return reason == IB_CM_REJ_CONSUMER_DEFINED;
	case 'w':
		return reason == -ECONNREFUSED;
	default:
		return false;
	}
}

/**
 * rdma_consumer_reject_data - the private data of a ULP's reject
 * @id: the ID that got the REJECTED event
 * @ev: the event
 * @data_len: set to the data's length, 0 when there is none
 *
 * Return: the private data when the remote ULP rejected (rather than its
 * CM), else NULL.
 */
const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len)
{
	if (!cma_consumer_reject(id, ev->status)) {
		*data_len = 0;
		return NULL;
	}
	*data_len = ev->param.conn.private_data_len;
	return ev->param.conn.private_data;
}
EXPORT_SYMBOL(rdma_consumer_reject_data);
