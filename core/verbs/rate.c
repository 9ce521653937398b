// SPDX-License-Identifier: GPL-2.0
/*
 * Static rates (enum ib_rate, the IBTA encoding of address vectors and
 * path records): as multiples of the 2.5 Gb/s base rate, and as the data
 * rate a link of that rate carries.
 *
 * Constant data; no lock.
 */
#include "abi/ib_core/verbs.h"

/*
 * @gbps10: the nominal rate in tenths of Gb/s, whose multiple of 2.5 Gb/s
 * (rounded to the nearest) is the rate's multiplier; @mbps: the data rate
 * of its lanes' signalling (FDR and faster lanes run above their name).
 */
static const struct {
	u16 gbps10;
	u32 mbps;
} ib_rates[] = {
	[IB_RATE_2_5_GBPS] = { 25, 2500 },
	[IB_RATE_5_GBPS] = { 50, 5000 },
	[IB_RATE_10_GBPS] = { 100, 10000 },
	[IB_RATE_20_GBPS] = { 200, 20000 },
	[IB_RATE_30_GBPS] = { 300, 30000 },
	[IB_RATE_40_GBPS] = { 400, 40000 },
	[IB_RATE_60_GBPS] = { 600, 60000 },
	[IB_RATE_80_GBPS] = { 800, 80000 },
	[IB_RATE_120_GBPS] = { 1200, 120000 },
	[IB_RATE_14_GBPS] = { 140, 14062 },
	[IB_RATE_56_GBPS] = { 560, 56250 },
	[IB_RATE_112_GBPS] = { 1120, 112500 },
	[IB_RATE_168_GBPS] = { 1680, 168750 },
	[IB_RATE_25_GBPS] = { 250, 25781 },
	[IB_RATE_100_GBPS] = { 1000, 103125 },
	[IB_RATE_200_GBPS] = { 2000, 206250 },
	[IB_RATE_300_GBPS] = { 3000, 309375 },
	[IB_RATE_28_GBPS] = { 280, 28125 },
	[IB_RATE_50_GBPS] = { 500, 53125 },
	[IB_RATE_400_GBPS] = { 4000, 425000 },
	[IB_RATE_600_GBPS] = { 6000, 637500 },
};

/* Whether @rate is a rate of the table (not PORT_CURRENT, not a gap) */
static bool ib_rate_known(enum ib_rate rate)
{
	return (unsigned int)rate < ARRAY_SIZE(ib_rates) && ib_rates[rate].mbps;
}

/**
 * ib_rate_to_mult - a static rate as a multiple of 2.5 Gb/s
 * @rate: the rate
 *
 * Return: the multiplier (1 for 2.5 Gb/s, 4 for 10 Gb/s, 22 for 56 Gb/s,
 * ...), or -1 for IB_RATE_PORT_CURRENT and values that are no rate.
 */
__attribute_const__ int ib_rate_to_mult(enum ib_rate rate)
{
	if (!ib_rate_known(rate))
		return -1;
	return DIV_ROUND_CLOSEST(ib_rates[rate].gbps10, 25);
}
EXPORT_SYMBOL(ib_rate_to_mult);

/**
 * mult_to_ib_rate - the static rate of a multiple of 2.5 Gb/s
 * @mult: the multiplier, as ib_rate_to_mult() gives it
 *
 * Return: the rate, or IB_RATE_PORT_CURRENT if no rate has that
 * multiplier.
 */
__attribute_const__ enum ib_rate mult_to_ib_rate(int mult)
{
	unsigned int rate;

	for (rate = 0; rate < ARRAY_SIZE(ib_rates); rate++)
		if (ib_rate_known(rate) && ib_rate_to_mult(rate) == mult)
			return rate;
	return IB_RATE_PORT_CURRENT;
}
EXPORT_SYMBOL(mult_to_ib_rate);

/**
 * ib_rate_to_mbps - the data rate of a static rate
 * @rate: the rate
 *
 * Return: Mb/s (2500 for 2.5 Gb/s, 14062 for FDR's 14 Gb/s, 25781 for
 * EDR's 25 Gb/s, ...), or -1 for IB_RATE_PORT_CURRENT and values that are
 * no rate.
 */
__attribute_const__ int ib_rate_to_mbps(enum ib_rate rate)
{
	return ib_rate_known(rate) ? ib_rates[rate].mbps : -1;
}
EXPORT_SYMBOL(ib_rate_to_mbps);
