// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cm_counters: core/cm/counters.c, the message
 * counters of each port in sysfs (ports/<n>/cm_tx_msgs, cm_tx_retries,
 * cm_rx_msgs, cm_rx_duplicates), read as a user reads them, after real
 * exchanges between two test devices: a connection made and released
 * (each message counted once, sent on one side and received on the
 * other), and a DREQ nobody answers (its retries sent, counted as such,
 * and received as duplicates).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include "cenv.h"

#define CC_SID		cpu_to_be64(0x0000000000cd0c01ULL)
#define CC_WAIT_MS	5000

static const char *const cc_groups[] = {
	"cm_tx_msgs", "cm_tx_retries", "cm_rx_msgs", "cm_rx_duplicates",
};

static const char *const cc_msgs[] = {
	"req", "mra", "rej", "rep", "rtu", "dreq", "drep", "sidr_req",
	"sidr_rep", "lap", "apr",
};

/*
 * Waits until the counter reads @want: a send is counted when the MAD
 * layer reports its end, which may come after the peer's answer.
 */
static bool cc_reaches(struct cenv *env, int side, const char *group,
		       const char *msg, long want)
{
	int ms;

	for (ms = 0; ms < CC_WAIT_MS; ms += 20) {
		if (cenv_cm_counter(env, side, group, msg) == want)
			return true;
		msleep(20);
	}
	return false;
}

#define CC_EXPECT(env, side, group, msg, want) \
	KUNIT_EXPECT_TRUE_MSG((env)->test, \
			      cc_reaches(env, side, group, msg, want), \
			      "side %d %s/%s is %ld, not %ld", side, group, msg, \
			      cenv_cm_counter(env, side, group, msg), (long)(want))

/* Every file is there and reads 0 before any message. */
static void cc_files(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	unsigned int g, m;

	for (g = 0; g < ARRAY_SIZE(cc_groups); g++)
		for (m = 0; m < ARRAY_SIZE(cc_msgs); m++)
			KUNIT_EXPECT_EQ_MSG(test, cenv_cm_counter(env, 0, cc_groups[g],
							  cc_msgs[m]), 0,
					    "%s/%s", cc_groups[g], cc_msgs[m]);
}

/* REQ, REP, RTU, DREQ, DREP: each sent once by one side, received once. */
static void cc_connection(struct kunit *test)
{
	struct cenv *env = cenv_new(test, true);
	struct ib_cm_id *a, *b;

	cenv_connect(env, CC_SID, &a, &b);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_DREQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_drep(b, NULL, 0), 0);
	cenv_expect(env, 0, IB_CM_DREP_RECEIVED);

	CC_EXPECT(env, 0, "cm_tx_msgs", "req", 1);
	CC_EXPECT(env, 1, "cm_rx_msgs", "req", 1);
	CC_EXPECT(env, 1, "cm_tx_msgs", "rep", 1);
	CC_EXPECT(env, 0, "cm_rx_msgs", "rep", 1);
	CC_EXPECT(env, 0, "cm_tx_msgs", "rtu", 1);
	CC_EXPECT(env, 1, "cm_rx_msgs", "rtu", 1);
	CC_EXPECT(env, 0, "cm_tx_msgs", "dreq", 1);
	CC_EXPECT(env, 1, "cm_rx_msgs", "dreq", 1);
	CC_EXPECT(env, 1, "cm_tx_msgs", "drep", 1);
	CC_EXPECT(env, 0, "cm_rx_msgs", "drep", 1);
	/* Nothing the exchange did not have */
	KUNIT_EXPECT_EQ(test, cenv_cm_counter(env, 0, "cm_tx_msgs", "rep"), 0);
	KUNIT_EXPECT_EQ(test, cenv_cm_counter(env, 1, "cm_tx_msgs", "req"), 0);
	KUNIT_EXPECT_EQ(test, cenv_cm_counter(env, 0, "cm_tx_retries", "req"), 0);
	KUNIT_EXPECT_EQ(test, cenv_cm_counter(env, 1, "cm_rx_duplicates", "req"), 0);
	KUNIT_EXPECT_EQ(test, cenv_cm_counter(env, 0, "cm_rx_msgs", "rej"), 0);
}

/*
 * A DREQ the peer does not answer goes 1 + max_cm_retries times: the
 * retries are counted as sent and as retries, and the peer, which has
 * the first, counts the others as duplicates.
 */
static void cc_dreq_retries(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	long tx, retries;

	cenv_connect(env, CC_SID, &a, &b);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_DREQ_RECEIVED);
	/* The send was counted before its error was reported */
	cenv_expect(env, 0, IB_CM_DREQ_ERROR);
	retries = cenv_cm_counter(env, 0, "cm_tx_retries", "dreq");
	KUNIT_EXPECT_GE(test, retries, 1);
	tx = cenv_cm_counter(env, 0, "cm_tx_msgs", "dreq");
	KUNIT_EXPECT_EQ(test, tx, 1 + retries);
	CC_EXPECT(env, 1, "cm_rx_msgs", "dreq", tx);
	CC_EXPECT(env, 1, "cm_rx_duplicates", "dreq", tx - 1);
	KUNIT_EXPECT_EQ(test, ib_send_cm_drep(b, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_TIMEWAIT_EXIT);
}

static struct kunit_case cc_cases[] = {
	KUNIT_CASE(cc_files),
	KUNIT_CASE(cc_connection),
	KUNIT_CASE(cc_dreq_retries),
	{}
};

static struct kunit_suite cc_suite = {
	.name = "rdma_core_cm_counters",
	.test_cases = cc_cases,
};
kunit_test_suite(cc_suite);
