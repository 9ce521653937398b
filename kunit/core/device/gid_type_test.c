// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_gid_type: core/device/gid_type.c, the zero GID and
 * the names of the GID types, both ways, with the text users write
 * (a trailing newline) and text that names no type.
 */
#include <kunit/test.h>
#include <rdma/ib_cache.h>
#include "core/gid.h"

static void gid_zero(struct kunit *test)
{
	union ib_gid gid = {};
	int i;

	KUNIT_EXPECT_TRUE(test, rdma_is_zero_gid(&zgid));
	KUNIT_EXPECT_TRUE(test, rdma_is_zero_gid(&gid));
	for (i = 0; i < sizeof(gid.raw); i++) {
		gid.raw[i] = 1;
		KUNIT_EXPECT_FALSE(test, rdma_is_zero_gid(&gid));
		gid.raw[i] = 0;
	}
	KUNIT_EXPECT_NULL(test, memchr_inv(&zgid, 0, sizeof(zgid)));
}

static void gid_type_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str(IB_GID_TYPE_IB),
			   "IB/RoCE v1");
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str(IB_GID_TYPE_ROCE),
			   "IB/RoCE v1");
	KUNIT_EXPECT_STREQ(test,
			   ib_cache_gid_type_str(IB_GID_TYPE_ROCE_UDP_ENCAP),
			   "RoCE v2");
	/* Bad input: values that are no type */
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str(IB_GID_TYPE_SIZE),
			   "Invalid GID type");
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str((enum ib_gid_type)-1),
			   "Invalid GID type");
}

static void gid_type_parse(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("IB/RoCE v1"),
			IB_GID_TYPE_IB);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("IB/RoCE v1\n"),
			IB_GID_TYPE_IB);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("RoCE v2"),
			IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("RoCE v2\n"),
			IB_GID_TYPE_ROCE_UDP_ENCAP);
	/* Bad input: empty, prefixes, longer text, case, two newlines */
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("RoCE"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("RoCE v2 "), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("RoCE v22"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("roce v2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("RoCE v2\n\n"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str("Invalid GID type"),
			-EINVAL);
}

static struct kunit_case gid_type_cases[] = {
	KUNIT_CASE(gid_zero),
	KUNIT_CASE(gid_type_names),
	KUNIT_CASE(gid_type_parse),
	{}
};

static struct kunit_suite gid_type_suite = {
	.name = "rdma_core_gid_type",
	.test_cases = gid_type_cases,
};

kunit_test_suites(&gid_type_suite);
