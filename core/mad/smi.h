/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SMI of a channel adapter port (smi.c): the directed-route rules of
 * the IBTA (14.2.2) for SMPs this port sends and receives.  Declarations
 * only.
 */
#ifndef OOT_CORE_MAD_SMI_H
#define OOT_CORE_MAD_SMI_H

#include <rdma/ib_smi.h>
#include "internal.h"

/* What the SMI does with a directed-route SMP it is to send. */
enum smi_out {
	SMI_OUT_WIRE,		/* send it (its hop pointer advanced) */
	SMI_OUT_LOCAL,		/* it is for this port: loop it back */
	SMI_OUT_DISCARD,	/* the rules forbid it */
};

enum smi_out smi_outgoing(struct ib_smp *smp, u32 port_num);
bool smi_recv(struct mad_port *port, struct mad_qp *mqp, struct mad_rbuf *rb);
void smi_reply(struct mad_port *port, struct mad_qp *mqp,
	       const struct ib_wc *wc, const struct ib_grh *grh,
	       const struct ib_mad *in, struct ib_mad *out, size_t len);

#endif
