/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Posting work: a kernel QP's post_send and post_recv, and a user QP's
 * doorbell (post_send with no work request).
 */
#ifndef SR_POST_H
#define SR_POST_H

#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include "queue.h"

int sr_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		 const struct ib_send_wr **bad_wr);
int sr_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		 const struct ib_recv_wr **bad_wr);
int sr_post_recvs(struct sr_queue *q, u32 max_sge,
		  const struct ib_recv_wr *wr, const struct ib_recv_wr **bad_wr);

#endif /* SR_POST_H */
