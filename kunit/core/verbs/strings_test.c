// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_strings: core/verbs/strings.c, the names of
 * asynchronous events and completion statuses (ib_event_msg(),
 * ib_wc_status_msg()).
 */
#include <kunit/test.h>
#include <rdma/ib_verbs.h>

/* Each of @names[0..@n) is a name of its own: not empty, not @unknown. */
static void strings_expect_distinct(struct kunit *test, const char **names,
				    int n, const char *unknown)
{
	int i, j;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_NOT_NULL(test, names[i]);
		KUNIT_EXPECT_GT(test, strlen(names[i]), 0UL);
		KUNIT_EXPECT_STRNEQ(test, names[i], unknown);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, names[i], names[j]);
	}
}

static void strings_every_event_named(struct kunit *test)
{
	const char *names[IB_EVENT_WQ_FATAL + 1];
	int e;

	for (e = IB_EVENT_CQ_ERR; e <= IB_EVENT_WQ_FATAL; e++)
		names[e] = ib_event_msg(e);
	strings_expect_distinct(test, names, ARRAY_SIZE(names),
				"unrecognized event");
}

static void strings_unknown_event(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, ib_event_msg(IB_EVENT_WQ_FATAL + 1),
			   "unrecognized event");
	KUNIT_EXPECT_STREQ(test, ib_event_msg((enum ib_event_type)-1),
			   "unrecognized event");
	KUNIT_EXPECT_STREQ(test, ib_event_msg((enum ib_event_type)100000),
			   "unrecognized event");
}

static void strings_every_status_named(struct kunit *test)
{
	const char *names[IB_WC_GENERAL_ERR + 1];
	int st;

	for (st = IB_WC_SUCCESS; st <= IB_WC_GENERAL_ERR; st++)
		names[st] = ib_wc_status_msg(st);
	strings_expect_distinct(test, names, ARRAY_SIZE(names),
				"unrecognized status");
}

static void strings_unknown_status(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, ib_wc_status_msg(IB_WC_GENERAL_ERR + 1),
			   "unrecognized status");
	KUNIT_EXPECT_STREQ(test, ib_wc_status_msg((enum ib_wc_status)-1),
			   "unrecognized status");
}

static void strings_meaningful(struct kunit *test)
{
	KUNIT_EXPECT_NOT_NULL(test, strstr(ib_wc_status_msg(IB_WC_WR_FLUSH_ERR),
					   "flush"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(ib_wc_status_msg(IB_WC_SUCCESS),
					   "success"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(ib_event_msg(IB_EVENT_PORT_ACTIVE),
					   "active"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(ib_event_msg(IB_EVENT_SRQ_LIMIT_REACHED),
					   "limit"));
}

static struct kunit_case strings_cases[] = {
	KUNIT_CASE(strings_every_event_named),
	KUNIT_CASE(strings_unknown_event),
	KUNIT_CASE(strings_every_status_named),
	KUNIT_CASE(strings_unknown_status),
	KUNIT_CASE(strings_meaningful),
	{}
};

static struct kunit_suite strings_suite = {
	.name = "rdma_core_strings",
	.test_cases = strings_cases,
};

kunit_test_suites(&strings_suite);
