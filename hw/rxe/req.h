/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The requester: a QP's send WQEs turned into packets; and what it shares
 * with the completer (comp.c), which retires them.
 */
#ifndef SR_REQ_H
#define SR_REQ_H

#include <linux/skbuff.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

struct sr_av;
struct sr_qp;

/* What the requester reads of a WQE, once: the user may change the slot. */
struct sr_wqe {
	struct rxe_send_wr wr;
	u32 num_sge;
	u32 inline_len;
};

/**
 * struct sr_send - an RC WQE as the requester and completer keep it, in
 *	the kernel's array beside the SQ (sr_qp.sends), by its slot
 * @w: the WQE as read when the requester took it
 * @len: its message's bytes
 * @npkts: its packets, at least one; 0 while the requester has not
 *	taken the WQE (and again once it completed)
 * @next: the next of them to send (rewound by the completer)
 * @first_psn: the first's PSN; packet i has @first_psn + i
 */
struct sr_send {
	struct sr_wqe w;
	u32 len;
	u32 npkts;
	u32 next;
	u32 first_psn;
};

/* Bits of sr_qp.req_flags */
enum {
	SR_REQ_PENDING,		/* a run was asked for while one was going */
	SR_REQ_TIMER,		/* the QP's timer fired (comp.c) */
};

bool sr_req_op_ok(const struct sr_qp *qp, u32 wr_opcode);
void sr_req_kick(struct sr_qp *qp);
void sr_req_run(struct sr_qp *qp);

void sr_req_complete(struct sr_qp *qp, const struct sr_wqe *w,
		     enum ib_wc_status status);
void sr_req_pop(struct sr_qp *qp, struct sr_send *s, enum ib_wc_status status);
void sr_req_failed(struct sr_qp *qp);
__be16 sr_req_sport(const struct sr_av *av, u32 sqpn, u32 dqpn);
enum ib_wc_status sr_req_scatter(struct sr_qp *qp, const struct sr_wqe *w,
				 const struct rxe_send_wqe *slot,
				 const void *buf, const struct sk_buff *skb,
				 unsigned int skb_off, u32 off, u32 len);

#endif /* SR_REQ_H */
