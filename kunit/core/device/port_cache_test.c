// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_port_cache: core/device/port_cache.c, what the core
 * keeps of a port for readers in any context (P_Key table, state, LMC,
 * subnet prefix), and ib_find_pkey() of core/device/port.c, which asks
 * the driver instead.  The test double's P_Key table changes like
 * hardware's: silently, until the double raises IB_EVENT_PKEY_CHANGE.
 */
#include <kunit/test.h>
#include <rdma/ib_cache.h>
#include "tk.h"

/* Not in a public header in 6.1 (the target declares it privately). */
void ib_get_cached_subnet_prefix(struct ib_device *device, u32 port_num,
				 u64 *sn_pfx);

static struct tdev *pc_dev(struct kunit *test, const char *name)
{
	struct tdev_params p = { .name = name, .pkey_tbl_len = 4 };

	return tk_dev(test, &p);
}

/* The cached slot-by-slot table, and the bounds of the arguments. */
static void pkey_get_cached(struct kunit *test)
{
	struct tdev *td = pc_dev(test, "ktpc%d");
	struct ib_device *dev = &td->ibdev;
	u16 pkey = 1;

	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, 1, 0, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, 1, 3, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, 0);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, 1, 4, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, 1, -1, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, 0, 0, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, 2, 0, &pkey), -EINVAL);
	tdev_destroy(td);
}

/*
 * Lookups by partition and exact P_Key; the cache follows the driver's
 * table only when the driver reports the change.
 */
static void pkey_find_follows_event(struct kunit *test)
{
	struct tdev *td = pc_dev(test, "ktpf%d");
	struct ib_device *dev = &td->ibdev;
	u16 ix = 99;

	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(dev, 1, 0xffff, &ix), 0);
	KUNIT_EXPECT_EQ(test, ix, 0);
	/* The membership bit does not matter for the partition */
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(dev, 1, 0x7fff, &ix), 0);
	KUNIT_EXPECT_EQ(test, ib_find_exact_cached_pkey(dev, 1, 0x7fff, &ix),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(dev, 1, 0x1234, &ix), -ENOENT);
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(dev, 3, 0xffff, &ix), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_find_exact_cached_pkey(dev, 0, 0xffff, &ix),
			-EINVAL);

	/* Two limited members of 0x1234; the core is not told yet */
	KUNIT_ASSERT_EQ(test, tdev_set_pkey(td, 1, 2, 0x1234), 0);
	KUNIT_ASSERT_EQ(test, tdev_set_pkey(td, 1, 3, 0x1234), 0);
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(dev, 1, 0x1234, &ix), -ENOENT);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev, 1, 0x1234, &ix), 0);
	KUNIT_EXPECT_EQ(test, ix, 3);

	KUNIT_ASSERT_EQ(test, tdev_port_event(td, 1, IB_EVENT_PKEY_CHANGE), 0);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(!ib_find_cached_pkey(dev, 1, 0x1234,
								  &ix)));
	/* Only limited members: the last of them, as the target answers */
	KUNIT_EXPECT_EQ(test, ix, 3);
	KUNIT_EXPECT_EQ(test, ib_find_exact_cached_pkey(dev, 1, 0x1234, &ix), 0);
	KUNIT_EXPECT_EQ(test, ix, 2);

	/* A full member of the partition wins over the limited ones */
	KUNIT_ASSERT_EQ(test, tdev_set_pkey(td, 1, 1, 0x9234), 0);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev, 1, 0x1234, &ix), 0);
	KUNIT_EXPECT_EQ(test, ix, 1);
	KUNIT_ASSERT_EQ(test, tdev_port_event(td, 1, IB_EVENT_PKEY_CHANGE), 0);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(!ib_find_exact_cached_pkey(dev, 1,
								       0x9234,
								       &ix)));
	KUNIT_EXPECT_EQ(test, ix, 1);
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(dev, 1, 0x1234, &ix), 0);
	KUNIT_EXPECT_EQ(test, ix, 1);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev, 1, 0x4321, &ix), -ENOENT);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev, 2, 0xffff, &ix), -EINVAL);
	tdev_destroy(td);
}

/*
 * A table the driver could not report at registration is missing until a
 * later event brings it; ib_find_pkey() gets the driver's error.
 */
static void pkey_query_fails(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpq%d", .pkey_tbl_len = 2 };
	struct tdev *td = tk_new_dev(test, &p);
	struct ib_device *dev = &td->ibdev;
	u16 pkey, ix;

	tdev_fail(td, TDEV_FAIL_QUERY_PKEY, true);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, 1, 0, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(dev, 1, 0xffff, &ix), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev, 1, 0xffff, &ix), -EIO);
	tdev_fail(td, TDEV_FAIL_QUERY_PKEY, false);
	KUNIT_ASSERT_EQ(test, tdev_port_event(td, 1, IB_EVENT_PKEY_CHANGE), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(!ib_get_cached_pkey(dev, 1, 0,
								 &pkey)));
	KUNIT_EXPECT_EQ(test, pkey, 0xffff);
	tdev_destroy(td);
}

/* A lock of the suite's: the cached lookups run under it, irqs off. */
static DEFINE_SPINLOCK(pc_lock);

/* The cached lookups may be called with interrupts off, under a spinlock. */
static void pkey_atomic_context(struct kunit *test)
{
	struct tdev *td = pc_dev(test, "ktpa%d");
	unsigned long flags;
	int get, find, exact;
	u16 pkey, ix;

	spin_lock_irqsave(&pc_lock, flags);
	get = ib_get_cached_pkey(&td->ibdev, 1, 0, &pkey);
	find = ib_find_cached_pkey(&td->ibdev, 1, 0xffff, &ix);
	exact = ib_find_exact_cached_pkey(&td->ibdev, 1, 0xffff, &ix);
	spin_unlock_irqrestore(&pc_lock, flags);
	KUNIT_EXPECT_EQ(test, get, 0);
	KUNIT_EXPECT_EQ(test, find, 0);
	KUNIT_EXPECT_EQ(test, exact, 0);
	tdev_destroy(td);
}

/* State, LMC and subnet prefix as last reported, updated by port events. */
static void port_cached_attrs(struct kunit *test)
{
	struct tdev *td = pc_dev(test, "ktps%d");
	struct ib_device *dev = &td->ibdev;
	enum ib_port_state state = IB_PORT_NOP;
	u64 prefix = 1;
	u8 lmc = 9;

	KUNIT_EXPECT_EQ(test, ib_get_cached_port_state(dev, 1, &state), 0);
	KUNIT_EXPECT_EQ(test, state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, ib_get_cached_lmc(dev, 1, &lmc), 0);
	KUNIT_EXPECT_EQ(test, lmc, 0);
	ib_get_cached_subnet_prefix(dev, 1, &prefix);
	KUNIT_EXPECT_EQ(test, prefix, 0xfe80000000000000ULL);

	KUNIT_ASSERT_EQ(test, tdev_port_event(td, 1, IB_EVENT_PORT_ERR), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(!ib_get_cached_port_state(dev, 1,
								       &state) &&
					    state == IB_PORT_DOWN));
	KUNIT_ASSERT_EQ(test, tdev_port_event(td, 1, IB_EVENT_PORT_ACTIVE), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(!ib_get_cached_port_state(dev, 1,
								       &state) &&
					    state == IB_PORT_ACTIVE));

	/* Invalid ports */
	KUNIT_EXPECT_EQ(test, ib_get_cached_port_state(dev, 0, &state), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_lmc(dev, 2, &lmc), -EINVAL);
	prefix = 1;
	ib_get_cached_subnet_prefix(dev, 2, &prefix);
	KUNIT_EXPECT_EQ(test, prefix, 1);
	tdev_destroy(td);
}

static struct kunit_case port_cache_cases[] = {
	KUNIT_CASE(pkey_get_cached),
	KUNIT_CASE(pkey_find_follows_event),
	KUNIT_CASE(pkey_query_fails),
	KUNIT_CASE(pkey_atomic_context),
	KUNIT_CASE(port_cached_attrs),
	{}
};

static struct kunit_suite port_cache_suite = {
	.name = "rdma_core_port_cache",
	.test_cases = port_cache_cases,
};

kunit_test_suites(&port_cache_suite);
