// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the resources of a steering flow (uverbs/objects/
 * flow_res.c): flow_resources_alloc() makes room for a number of specs,
 * flow_resources_add() takes a usecnt on each flow action or counters
 * object added, and ib_uverbs_flow_resources_free() gives them all back.
 * Adding past the room, or an object of another type, adds nothing (and
 * neither oopses nor warns).  The objects are the case's own, with only
 * the usecnt the set touches.
 */
#include <kunit/test.h>
#include <rdma/uverbs_std_types.h>

/* A usecnt the objects start with, so that a reset to 0 would show. */
#define FR_USECNT	2

static struct ib_flow_action *fr_action(struct kunit *test)
{
	struct ib_flow_action *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	atomic_set(&a->usecnt, FR_USECNT);
	return a;
}

static struct ib_counters *fr_counters(struct kunit *test)
{
	struct ib_counters *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	atomic_set(&c->usecnt, FR_USECNT);
	return c;
}

static void flow_res_alloc(struct kunit *test)
{
	struct ib_uflow_resources *res = flow_resources_alloc(3);

	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_EXPECT_EQ(test, res->max, (size_t)3);
	KUNIT_EXPECT_EQ(test, res->num, (size_t)0);
	KUNIT_EXPECT_EQ(test, res->collection_num, (size_t)0);
	KUNIT_EXPECT_EQ(test, res->counters_num, (size_t)0);
	KUNIT_EXPECT_NOT_NULL(test, res->collection);
	KUNIT_EXPECT_NOT_NULL(test, res->counters);
	ib_uverbs_flow_resources_free(res);

	/* No specs: an empty set that takes nothing */
	res = flow_resources_alloc(0);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_EXPECT_EQ(test, res->max, (size_t)0);
	KUNIT_EXPECT_EQ(test, res->num, (size_t)0);
	ib_uverbs_flow_resources_free(res);

	/* Freeing no set is nothing */
	ib_uverbs_flow_resources_free(NULL);
}

static void flow_res_add_and_free(struct kunit *test)
{
	struct ib_flow_action *a1 = fr_action(test), *a2 = fr_action(test);
	struct ib_counters *c1 = fr_counters(test);
	struct ib_uflow_resources *res = flow_resources_alloc(3);

	KUNIT_ASSERT_NOT_NULL(test, res);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_HANDLE, a1);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, c1);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_HANDLE, a2);
	KUNIT_EXPECT_EQ(test, res->num, (size_t)3);
	KUNIT_EXPECT_EQ(test, res->collection_num, (size_t)2);
	KUNIT_EXPECT_EQ(test, res->counters_num, (size_t)1);
	KUNIT_EXPECT_PTR_EQ(test, res->collection[0], a1);
	KUNIT_EXPECT_PTR_EQ(test, res->collection[1], a2);
	KUNIT_EXPECT_PTR_EQ(test, res->counters[0], c1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a1->usecnt), FR_USECNT + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a2->usecnt), FR_USECNT + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c1->usecnt), FR_USECNT + 1);

	/* Each reference goes with the set */
	ib_uverbs_flow_resources_free(res);
	KUNIT_EXPECT_EQ(test, atomic_read(&a1->usecnt), FR_USECNT);
	KUNIT_EXPECT_EQ(test, atomic_read(&a2->usecnt), FR_USECNT);
	KUNIT_EXPECT_EQ(test, atomic_read(&c1->usecnt), FR_USECNT);
}

static void flow_res_one_kind_fills(struct kunit *test)
{
	struct ib_uflow_resources *res = flow_resources_alloc(3);
	struct ib_counters *c[3];
	int i;

	/* The room is for any mix: all of it counters (KASAN watches) */
	KUNIT_ASSERT_NOT_NULL(test, res);
	for (i = 0; i < 3; i++) {
		c[i] = fr_counters(test);
		flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, c[i]);
	}
	KUNIT_EXPECT_EQ(test, res->num, (size_t)3);
	KUNIT_EXPECT_EQ(test, res->counters_num, (size_t)3);
	KUNIT_EXPECT_EQ(test, res->collection_num, (size_t)0);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_PTR_EQ(test, res->counters[i], c[i]);
		KUNIT_EXPECT_EQ(test, atomic_read(&c[i]->usecnt), FR_USECNT + 1);
	}
	ib_uverbs_flow_resources_free(res);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&c[i]->usecnt), FR_USECNT);
}

static void flow_res_same_object_twice(struct kunit *test)
{
	struct ib_counters *c = fr_counters(test);
	struct ib_uflow_resources *res = flow_resources_alloc(2);

	/* One object used by two specs: two references, both given back */
	KUNIT_ASSERT_NOT_NULL(test, res);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, c);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, c);
	KUNIT_EXPECT_EQ(test, res->counters_num, (size_t)2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->usecnt), FR_USECNT + 2);
	ib_uverbs_flow_resources_free(res);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->usecnt), FR_USECNT);
}

static void flow_res_full(struct kunit *test)
{
	struct ib_flow_action *a1 = fr_action(test), *a2 = fr_action(test);
	struct ib_counters *c = fr_counters(test);
	struct ib_uflow_resources *res = flow_resources_alloc(1);

	KUNIT_ASSERT_NOT_NULL(test, res);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_HANDLE, a1);
	/* Beyond the room: not added, no reference taken, either kind */
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_HANDLE, a2);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, c);
	KUNIT_EXPECT_EQ(test, res->num, (size_t)1);
	KUNIT_EXPECT_EQ(test, res->collection_num, (size_t)1);
	KUNIT_EXPECT_EQ(test, res->counters_num, (size_t)0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a2->usecnt), FR_USECNT);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->usecnt), FR_USECNT);
	ib_uverbs_flow_resources_free(res);
	KUNIT_EXPECT_EQ(test, atomic_read(&a1->usecnt), FR_USECNT);

	/* A set made for no spec takes nothing */
	res = flow_resources_alloc(0);
	KUNIT_ASSERT_NOT_NULL(test, res);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, c);
	KUNIT_EXPECT_EQ(test, res->num, (size_t)0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->usecnt), FR_USECNT);
	ib_uverbs_flow_resources_free(res);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->usecnt), FR_USECNT);
}

static void flow_res_other_type(struct kunit *test)
{
	struct ib_counters *c = fr_counters(test);
	struct ib_uflow_resources *res = flow_resources_alloc(2);

	/* A spec that is no object (an Ethernet match): not added */
	KUNIT_ASSERT_NOT_NULL(test, res);
	flow_resources_add(res, IB_FLOW_SPEC_ETH, c);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_DROP, c);
	KUNIT_EXPECT_EQ(test, res->num, (size_t)0);
	KUNIT_EXPECT_EQ(test, res->collection_num, (size_t)0);
	KUNIT_EXPECT_EQ(test, res->counters_num, (size_t)0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->usecnt), FR_USECNT);
	/* The room is still there for real objects */
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, c);
	flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, c);
	KUNIT_EXPECT_EQ(test, res->num, (size_t)2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->usecnt), FR_USECNT + 2);
	ib_uverbs_flow_resources_free(res);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->usecnt), FR_USECNT);
}

static struct kunit_case flow_res_cases[] = {
	KUNIT_CASE(flow_res_alloc),
	KUNIT_CASE(flow_res_add_and_free),
	KUNIT_CASE(flow_res_one_kind_fills),
	KUNIT_CASE(flow_res_same_object_twice),
	KUNIT_CASE(flow_res_full),
	KUNIT_CASE(flow_res_other_type),
	{}
};

static struct kunit_suite flow_res_suite = {
	.name = "rdma_uverbs_flow_res",
	.test_cases = flow_res_cases,
};

kunit_test_suites(&flow_res_suite);
