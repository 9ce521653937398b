/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RMPP (rmpp.c): segmentation and reassembly of the MADs of kernel-RMPP
 * agents, as send.c and recv.c use it.  Declarations only.
 */
#ifndef OOT_CORE_MAD_RMPP_H
#define OOT_CORE_MAD_RMPP_H

#include "internal.h"

/* What a send does after the hardware gave back one of its segments. */
enum rmpp_step {
	RMPP_STEP_NONE,		/* not RMPP, or all sent and acknowledged */
	RMPP_STEP_POST,		/* post the next segment (set up) */
	RMPP_STEP_WAIT_ACK,	/* the window is sent: wait for an ACK */
};

void rmpp_send_init(struct mad_send *ms, int mad_size);
void rmpp_send_plain(struct mad_send *ms);
void rmpp_send_first(struct mad_send *ms);
enum rmpp_step rmpp_send_step(struct mad_send *ms);
unsigned long rmpp_ack_timeout(struct mad_send *ms);
bool rmpp_send_timeout(struct mad_send *ms);
int rmpp_send_ack(struct mad_send *ms, u32 seg, u32 newwin);
struct ib_mad_recv_wc *rmpp_recv(struct mad_agent *ma,
				 struct ib_mad_recv_wc *rwc);
void rmpp_recv_flush(struct mad_agent *ma);

#endif
