// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_printk: core/device/printk.c, messages about a
 * device (ibdev_printk() and ibdev_emerg() ... ibdev_info()): their level
 * and prefix, read back from the kernel log.
 */
#include <kunit/test.h>
#include "tk.h"

#define TK_LINE 256

/* The line logged since @mark with @text; the case fails without one. */
static void tk_expect_logged(struct kunit *test, u64 mark, const char *text,
			     int level)
{
	char line[TK_LINE], prefix[8];

	KUNIT_ASSERT_TRUE_MSG(test, tk_log_find(mark, text, line, sizeof(line)),
			      "not logged: %s", text);
	snprintf(prefix, sizeof(prefix), "<%d>", level);
	KUNIT_EXPECT_EQ_MSG(test, strncmp(line, prefix, strlen(prefix)), 0,
			    "%s", line);
}

static void printk_levels(struct kunit *test)
{
	static const struct {
		/* One of ibdev_emerg() ... ibdev_info() */
		void (*fn)(const struct ib_device *dev, const char *fmt, ...)
			__printf(2, 3);
		int level;
	} fns[] = {
		{ ibdev_emerg, 0 }, { ibdev_alert, 1 }, { ibdev_crit, 2 },
		{ ibdev_err, 3 }, { ibdev_warn, 4 }, { ibdev_notice, 5 },
		{ ibdev_info, 6 },
	};
	struct tdev *td = tk_dev_named(test, "ktpk%d");
	char text[64];
	u64 mark = tk_log_mark();
	int i;

	for (i = 0; i < ARRAY_SIZE(fns); i++)
		fns[i].fn(&td->ibdev, "kunit level %d of %s\n", fns[i].level,
			  "ibdev_printk");
	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		snprintf(text, sizeof(text),
			 "%s: kunit level %d of ibdev_printk", td->ibdev.name,
			 fns[i].level);
		tk_expect_logged(test, mark, text, fns[i].level);
	}
	tdev_destroy(td);
}

static void printk_explicit_level(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktpke%d");
	u64 mark = tk_log_mark();
	char text[64];

	ibdev_printk(KERN_NOTICE, &td->ibdev, "kunit explicit %u\n", 42U);
	snprintf(text, sizeof(text), "%s: kunit explicit 42", td->ibdev.name);
	tk_expect_logged(test, mark, text, 5);
	tdev_destroy(td);
}

/* With a DMA device, the message names it and its driver (or bus). */
static void printk_parent_prefix(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpkd%d", .dma_device = true };
	struct tdev *td = tk_dev(test, &p);
	u64 mark = tk_log_mark();
	char text[96];

	ibdev_warn(&td->ibdev, "kunit with parent\n");
	snprintf(text, sizeof(text), "%s %s %s: kunit with parent",
		 dev_driver_string(td->ibdev.dma_device),
		 dev_name(td->ibdev.dma_device), td->ibdev.name);
	tk_expect_logged(test, mark, text, 4);
	tdev_destroy(td);
}

/* Bad input: no device at all. */
static void printk_null_device(struct kunit *test)
{
	u64 mark = tk_log_mark();

	ibdev_printk(KERN_INFO, NULL, "kunit orphan %d\n", 7);
	ibdev_err(NULL, "kunit orphan err\n");
	tk_expect_logged(test, mark, "(no ib_device): kunit orphan 7", 6);
	tk_expect_logged(test, mark, "(no ib_device): kunit orphan err", 3);
}

static struct kunit_case printk_cases[] = {
	KUNIT_CASE(printk_levels),
	KUNIT_CASE(printk_explicit_level),
	KUNIT_CASE(printk_parent_prefix),
	KUNIT_CASE(printk_null_device),
	{}
};

static struct kunit_suite printk_suite = {
	.name = "rdma_core_printk",
	.test_cases = printk_cases,
};

kunit_test_suites(&printk_suite);
