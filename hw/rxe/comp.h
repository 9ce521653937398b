/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The completer: an RC QP's ACKs and NAKs retire its send WQEs, and its
 * timer sends again what was not acknowledged.
 */
#ifndef SR_COMP_H
#define SR_COMP_H

#include <linux/skbuff.h>

struct sr_pkt;
struct sr_qp;

void sr_comp_init(struct sr_qp *qp);
void sr_comp_start(struct sr_qp *qp);
void sr_comp_stop(struct sr_qp *qp);
void sr_comp_destroy(struct sr_qp *qp);

bool sr_comp_may_send(const struct sr_qp *qp);
void sr_comp_sent(struct sr_qp *qp, u32 psn);
void sr_comp_arm(struct sr_qp *qp);
void sr_comp_timer_fired(struct sr_qp *qp);
bool sr_comp_rcv(struct sr_qp *qp, const struct sk_buff *skb,
		 const struct sr_pkt *pkt);

#endif /* SR_COMP_H */
