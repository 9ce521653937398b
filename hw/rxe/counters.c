// SPDX-License-Identifier: GPL-2.0
/*
 * The counters' names and reading them.  See counters.h.
 */
#include <linux/cpumask.h>
#include <rdma/ib_verbs.h>
#include "counters.h"

/* Names as sysfs shows them; the in-tree driver's first, in its order. */
static const struct rdma_stat_desc sr_counter_descs[SR_NR_COUNTERS] = {
	[SR_SENT_PKTS] = { .name = "sent_pkts" },
	[SR_RCVD_PKTS] = { .name = "rcvd_pkts" },
	[SR_DUPLICATE_REQUEST] = { .name = "duplicate_request" },
	[SR_OUT_OF_SEQ_REQUEST] = { .name = "out_of_seq_request" },
	[SR_RCVD_RNR_ERR] = { .name = "rcvd_rnr_err" },
	[SR_SEND_RNR_ERR] = { .name = "send_rnr_err" },
	[SR_RCVD_SEQ_ERR] = { .name = "rcvd_seq_err" },
	[SR_ACK_DEFERRED] = { .name = "ack_deferred" },
	[SR_RETRY_EXCEEDED_ERR] = { .name = "retry_exceeded_err" },
	[SR_RETRY_RNR_EXCEEDED_ERR] = { .name = "retry_rnr_exceeded_err" },
	[SR_COMPLETER_RETRY_ERR] = { .name = "completer_retry_err" },
	[SR_SEND_ERR] = { .name = "send_err" },
	[SR_LINK_DOWNED] = { .name = "link_downed" },
	[SR_RDMA_SENDS] = { .name = "rdma_sends" },
	[SR_RDMA_RECVS] = { .name = "rdma_recvs" },
	[SR_DROP_OPCODE] = { .name = "drop_bad_opcode" },
	[SR_DROP_VERSION] = { .name = "drop_bad_version" },
	[SR_DROP_LENGTH] = { .name = "drop_bad_length" },
	[SR_DROP_PAYLOAD] = { .name = "drop_bad_payload" },
	[SR_DROP_ICRC] = { .name = "drop_bad_icrc" },
	[SR_DROP_QPN] = { .name = "drop_bad_qpn" },
	[SR_DROP_TRANSPORT] = { .name = "drop_bad_transport" },
	[SR_DROP_STATE] = { .name = "drop_bad_state" },
	[SR_DROP_PKEY] = { .name = "drop_bad_pkey" },
	[SR_DROP_QKEY] = { .name = "drop_bad_qkey" },
	[SR_DROP_NO_WQE] = { .name = "drop_no_wqe" },
	[SR_DROP_PSN] = { .name = "drop_bad_psn" },
	[SR_DROP_ADDRESS] = { .name = "drop_bad_address" },
};

/* The counter of each reason sr_parse() gives for a refusal. */
static const u8 sr_drop_counter[] = {
	[SR_BAD_OPCODE] = SR_DROP_OPCODE,
	[SR_BAD_VERSION] = SR_DROP_VERSION,
	[SR_BAD_LENGTH] = SR_DROP_LENGTH,
	[SR_BAD_PAYLOAD] = SR_DROP_PAYLOAD,
};

/**
 * sr_counters_init - make a device's counters, all 0
 * @c: the counters
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int sr_counters_init(struct sr_counters *c)
{
	c->pcpu = alloc_percpu(struct sr_counts);
	return c->pcpu ? 0 : -ENOMEM;
}

/**
 * sr_counters_free - free a device's counters
 * @c: the counters; nothing counts any longer
 */
void sr_counters_free(struct sr_counters *c)
{
	free_percpu(c->pcpu);
	c->pcpu = NULL;
}

/**
 * sr_counter_read - the count of one counter, over every CPU
 * @c: the counters
 * @i: which
 *
 * Return: the sum; counts made meanwhile may or may not be in it.
 */
u64 sr_counter_read(const struct sr_counters *c, enum sr_counter i)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(c->pcpu, cpu)->v[i]);
	return sum;
}

/**
 * sr_count_drop - count a packet sr_parse() refused
 * @c: the counters of the device that received it
 * @why: the reason sr_parse() gave; SR_OK counts nothing
 */
void sr_count_drop(struct sr_counters *c, enum sr_bad why)
{
	if (why != SR_OK && why < ARRAY_SIZE(sr_drop_counter))
		sr_count(c, sr_drop_counter[why]);
}

/**
 * sr_counters_alloc_stats - the hw_stats of a port, for the core
 *
 * For the alloc_hw_port_stats verb: the device counts for its one port.
 *
 * Return: the structure, or NULL.
 */
struct rdma_hw_stats *sr_counters_alloc_stats(void)
{
	return rdma_alloc_hw_stats_struct(sr_counter_descs, SR_NR_COUNTERS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/**
 * sr_counters_fill - read every counter into the core's hw_stats
 * @c: the counters
 * @stats: from sr_counters_alloc_stats()
 *
 * For the get_hw_stats verb, which returns SR_NR_COUNTERS after it.
 */
void sr_counters_fill(const struct sr_counters *c, struct rdma_hw_stats *stats)
{
	int i;

	for (i = 0; i < SR_NR_COUNTERS; i++)
		stats->value[i] = sr_counter_read(c, i);
}
