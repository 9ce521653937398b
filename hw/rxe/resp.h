/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The responder: packets for a QP turned into receive completions (and,
 * for RC, into writes to memory and acknowledgements).
 */
#ifndef SR_RESP_H
#define SR_RESP_H

#include <linux/skbuff.h>

struct sr_pkt;
struct sr_qp;

bool sr_resp_ud(struct sr_qp *qp, const struct sk_buff *skb,
		const struct sr_pkt *pkt);
void sr_resp_flush(struct sr_qp *qp);
bool sr_resp_rc(struct sr_qp *qp, const struct sk_buff *skb,
		const struct sr_pkt *pkt);
void sr_resp_end(struct sr_qp *qp);

#endif /* SR_RESP_H */
