// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_rate: core/verbs/rate.c, static rates as multiples
 * of 2.5 Gb/s and as data rates, both ways, and values that are no rate.
 */
#include <kunit/test.h>
#include <rdma/ib_verbs.h>

static const struct {
	enum ib_rate rate;
	int mult;
	int mbps;
} rate_cases[] = {
	{ IB_RATE_2_5_GBPS, 1, 2500 },	{ IB_RATE_5_GBPS, 2, 5000 },
	{ IB_RATE_10_GBPS, 4, 10000 },	{ IB_RATE_20_GBPS, 8, 20000 },
	{ IB_RATE_30_GBPS, 12, 30000 },	{ IB_RATE_40_GBPS, 16, 40000 },
	{ IB_RATE_60_GBPS, 24, 60000 },	{ IB_RATE_80_GBPS, 32, 80000 },
	{ IB_RATE_120_GBPS, 48, 120000 }, { IB_RATE_14_GBPS, 6, 14062 },
	{ IB_RATE_56_GBPS, 22, 56250 },	{ IB_RATE_112_GBPS, 45, 112500 },
	{ IB_RATE_168_GBPS, 67, 168750 }, { IB_RATE_25_GBPS, 10, 25781 },
	{ IB_RATE_100_GBPS, 40, 103125 }, { IB_RATE_200_GBPS, 80, 206250 },
	{ IB_RATE_300_GBPS, 120, 309375 }, { IB_RATE_28_GBPS, 11, 28125 },
	{ IB_RATE_50_GBPS, 20, 53125 },	{ IB_RATE_400_GBPS, 160, 425000 },
	{ IB_RATE_600_GBPS, 240, 637500 },
};

/* Every rate, both ways */
static void rate_every_rate(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rate_cases); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ib_rate_to_mult(rate_cases[i].rate),
				    rate_cases[i].mult, "rate %d",
				    rate_cases[i].rate);
		KUNIT_EXPECT_EQ_MSG(test, ib_rate_to_mbps(rate_cases[i].rate),
				    rate_cases[i].mbps, "rate %d",
				    rate_cases[i].rate);
		KUNIT_EXPECT_EQ_MSG(test, mult_to_ib_rate(rate_cases[i].mult),
				    rate_cases[i].rate, "mult %d",
				    rate_cases[i].mult);
	}
}

/* Bad input: the port's current rate, gaps of the encoding, out of range */
static void rate_no_rate(struct kunit *test)
{
	static const int bad_rates[] = { IB_RATE_PORT_CURRENT, 1, 23, 255, -1 };
	static const int bad_mults[] = { 0, 3, 5, 7, 9, 21, 44, 241, -1,
					 INT_MAX };
	int i;

	for (i = 0; i < ARRAY_SIZE(bad_rates); i++) {
		KUNIT_EXPECT_EQ(test, ib_rate_to_mult(bad_rates[i]), -1);
		KUNIT_EXPECT_EQ(test, ib_rate_to_mbps(bad_rates[i]), -1);
	}
	for (i = 0; i < ARRAY_SIZE(bad_mults); i++)
		KUNIT_EXPECT_EQ_MSG(test, mult_to_ib_rate(bad_mults[i]),
				    IB_RATE_PORT_CURRENT, "mult %d",
				    bad_mults[i]);
}

static struct kunit_case rate_test_cases[] = {
	KUNIT_CASE(rate_every_rate),
	KUNIT_CASE(rate_no_rate),
	{}
};

static struct kunit_suite rate_suite = {
	.name = "rdma_core_rate",
	.test_cases = rate_test_cases,
};

kunit_test_suites(&rate_suite);
