/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The requester: a QP's send WQEs turned into packets.
 */
#ifndef SR_REQ_H
#define SR_REQ_H

struct sr_qp;

void sr_req_kick(struct sr_qp *qp);
void sr_req_run(struct sr_qp *qp);

#endif /* SR_REQ_H */
