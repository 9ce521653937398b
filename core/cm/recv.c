// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving CM messages: the MAD layer hands each one to the agent of
 * its port (main.c), in process context; it goes to the handler of its
 * attribute, which owns it from then on.  What no handler takes is
 * dropped.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"

/**
 * cm_recv_handler - a CM MAD came in on a port
 * @agent: the port's agent; its context is the cm_port
 * @send_buf: NULL (CM messages answer nothing the MAD layer matches)
 * @rwc: the MAD
 */
void cm_recv_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *rwc)
{
	struct cm_port *port = agent->context;
	__be16 attr = rwc->recv_buf.mad->mad_hdr.attr_id;

	if (rwc->recv_buf.mad->mad_hdr.class_version != CM_CLASS_VERSION)
		goto drop;
	cm_count(port, CM_CTR_RX, attr, 1);
	if (attr == CM_REQ_ATTR_ID)
		cm_req_recv(port, rwc);
	else if (attr == CM_MRA_ATTR_ID)
		cm_mra_recv(port, rwc);
	else if (attr == CM_REJ_ATTR_ID)
		cm_rej_recv(port, rwc);
	else if (attr == CM_REP_ATTR_ID)
		cm_rep_recv(port, rwc);
	else if (attr == CM_RTU_ATTR_ID)
		cm_rtu_recv(port, rwc);
	else if (attr == CM_DREQ_ATTR_ID)
		cm_dreq_recv(port, rwc);
	else if (attr == CM_DREP_ATTR_ID)
		cm_drep_recv(port, rwc);
	else if (attr == CM_SIDR_REQ_ATTR_ID)
		cm_sidr_req_recv(port, rwc);
	else if (attr == CM_SIDR_REP_ATTR_ID)
		cm_sidr_rep_recv(port, rwc);
	else if (attr == CM_LAP_ATTR_ID)
		cm_lap_recv(port, rwc);
	else if (attr == CM_APR_ATTR_ID)
		cm_apr_recv(port, rwc);
	else
		goto drop;
	return;
drop:
	ib_free_recv_mad(rwc);
}
