/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's counters, per CPU so that the data path counts without a
 * shared cache line or a lock; read (summed) only when user space asks,
 * through the core's hw_counters (sysfs and `rdma statistic`).  The first
 * fifteen have the names and meaning of the in-tree driver's; the rest
 * say why received packets were dropped.
 */
#ifndef SR_COUNTERS_H
#define SR_COUNTERS_H

#include <linux/percpu.h>
#include "wire.h"

enum sr_counter {
	SR_SENT_PKTS,
	SR_RCVD_PKTS,
	SR_DUPLICATE_REQUEST,
	SR_OUT_OF_SEQ_REQUEST,
	SR_RCVD_RNR_ERR,
	SR_SEND_RNR_ERR,
	SR_RCVD_SEQ_ERR,
	SR_ACK_DEFERRED,
	SR_RETRY_EXCEEDED_ERR,
	SR_RETRY_RNR_EXCEEDED_ERR,
	SR_COMPLETER_RETRY_ERR,
	SR_SEND_ERR,
	SR_LINK_DOWNED,
	SR_RDMA_SENDS,
	SR_RDMA_RECVS,
	/* drops, by reason */
	SR_DROP_OPCODE,
	SR_DROP_VERSION,
	SR_DROP_LENGTH,
	SR_DROP_PAYLOAD,
	SR_DROP_ICRC,
	SR_DROP_QPN,		/* for no queue pair of the device */
	SR_DROP_TRANSPORT,	/* for a QP of another transport */
	SR_DROP_STATE,		/* for a QP in a state that takes none */
	SR_DROP_PKEY,		/* a P_Key the port does not have */
	SR_DROP_QKEY,		/* a Q_Key not the QP's */
	SR_DROP_NO_WQE,		/* a UD message for a QP with no receive WQE */
	SR_DROP_PSN,		/* a response outside what is outstanding */
	SR_DROP_ADDRESS,	/* RC, UC: not from the peer, or not to its GID */
	SR_NR_COUNTERS
};

/* One CPU's counts. */
struct sr_counts {
	u64 v[SR_NR_COUNTERS];
};

/**
 * struct sr_counters - a device's counters
 * @pcpu: each CPU's counts, changed only by that CPU (this_cpu ops)
 */
struct sr_counters {
	struct sr_counts __percpu *pcpu;
};

struct rdma_hw_stats;

int sr_counters_init(struct sr_counters *c);
void sr_counters_free(struct sr_counters *c);
u64 sr_counter_read(const struct sr_counters *c, enum sr_counter i);
struct rdma_hw_stats *sr_counters_alloc_stats(void);
void sr_counters_fill(const struct sr_counters *c,
		      struct rdma_hw_stats *stats);

/* Counts one of @i, from any context. */
static inline void sr_count(struct sr_counters *c, enum sr_counter i)
{
	this_cpu_inc(c->pcpu->v[i]);
}

void sr_count_drop(struct sr_counters *c, enum sr_bad why);

#endif /* SR_COUNTERS_H */
