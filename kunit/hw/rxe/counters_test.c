// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_counters: hw/rxe/counters.c, the names user space
 * sees (the in-tree driver's, then the drop reasons), counts made on
 * every CPU and in every context summed, and the core's hw_stats filled.
 */
#include <kunit/test.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include "counters.h"

/* The in-tree rdma_rxe's hw_counters, which tools and scripts read. */
static const char *const ct_intree[] = {
	"sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request",
	"rcvd_rnr_err", "send_rnr_err", "rcvd_seq_err", "ack_deferred",
	"retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err",
	"send_err", "link_downed", "rdma_sends", "rdma_recvs",
};

static struct sr_counters *ct_new(struct kunit *test)
{
	struct sr_counters *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, sr_counters_init(c), 0);
	return c;
}

static void ct_names(struct kunit *test)
{
	struct rdma_hw_stats *st = sr_counters_alloc_stats();
	int i, j;

	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_EQ(test, st->num_counters, SR_NR_COUNTERS);
	for (i = 0; i < ARRAY_SIZE(ct_intree); i++)
		KUNIT_EXPECT_STREQ(test, st->descs[i].name, ct_intree[i]);
	for (i = 0; i < st->num_counters; i++) {
		KUNIT_ASSERT_NOT_NULL(test, st->descs[i].name);
		KUNIT_EXPECT_NE(test, strlen(st->descs[i].name), 0);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, st->descs[i].name,
					    st->descs[j].name);
	}
	rdma_free_hw_stats_struct(st);
}

static long ct_count_here(void *arg)
{
	struct sr_counters *c = arg;
	unsigned long flags;

	sr_count(c, SR_SENT_PKTS);
	local_bh_disable();
	sr_count(c, SR_SENT_PKTS);
	local_bh_enable();
	local_irq_save(flags);
	sr_count(c, SR_SENT_PKTS);
	local_irq_restore(flags);
	return 0;
}

/* Three counts on each CPU, in task, softirq-off and irq-off context. */
static void ct_every_cpu(struct kunit *test)
{
	struct sr_counters *c = ct_new(test);
	int cpu, n = 0;

	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_SENT_PKTS), 0);
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, work_on_cpu_safe(cpu, ct_count_here, c),
				0);
		n++;
	}
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_SENT_PKTS), 3 * n);
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_RCVD_PKTS), 0);
	sr_counters_free(c);
	KUNIT_EXPECT_TRUE(test, !c->pcpu);
}

/* Each refusal of sr_parse() has a counter of its own. */
static void ct_drops(struct kunit *test)
{
	static const struct {
		enum sr_bad why;
		enum sr_counter i;
	} map[] = {
		{ SR_BAD_OPCODE, SR_DROP_OPCODE },
		{ SR_BAD_VERSION, SR_DROP_VERSION },
		{ SR_BAD_LENGTH, SR_DROP_LENGTH },
		{ SR_BAD_PAYLOAD, SR_DROP_PAYLOAD },
	};
	struct sr_counters *c = ct_new(test);
	int i, k;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		for (k = 0; k <= i; k++)
			sr_count_drop(c, map[i].why);
	}
	for (i = 0; i < ARRAY_SIZE(map); i++)
		KUNIT_EXPECT_EQ(test, sr_counter_read(c, map[i].i), i + 1);
	/* Not a refusal, or no reason we know: nothing counted */
	sr_count_drop(c, SR_OK);
	sr_count_drop(c, SR_BAD_PAYLOAD + 1);
	sr_count_drop(c, 200);
	for (i = 0; i < SR_NR_COUNTERS; i++) {
		u64 want = 0;

		for (k = 0; k < ARRAY_SIZE(map); k++)
			if (map[k].i == i)
				want = k + 1;
		KUNIT_EXPECT_EQ_MSG(test, sr_counter_read(c, i), want,
				    "counter %d", i);
	}
	sr_counters_free(c);
}

/* The core's structure gets every counter's sum. */
static void ct_fill(struct kunit *test)
{
	struct sr_counters *c = ct_new(test);
	struct rdma_hw_stats *st = sr_counters_alloc_stats();
	int i, k;

	KUNIT_ASSERT_NOT_NULL(test, st);
	for (i = 0; i < SR_NR_COUNTERS; i++)
		for (k = 0; k < i; k++)
			sr_count(c, i);
	memset(st->value, 0xff, sizeof(u64) * st->num_counters);
	sr_counters_fill(c, st);
	for (i = 0; i < SR_NR_COUNTERS; i++)
		KUNIT_EXPECT_EQ(test, st->value[i], i);
	rdma_free_hw_stats_struct(st);
	sr_counters_free(c);
}

static struct kunit_case ct_cases[] = {
	KUNIT_CASE(ct_names),
	KUNIT_CASE(ct_every_cpu),
	KUNIT_CASE(ct_drops),
	KUNIT_CASE(ct_fill),
	{}
};

static struct kunit_suite ct_suite = {
	.name = "rdma_rxe_counters",
	.test_cases = ct_cases,
};
kunit_test_suite(ct_suite);
