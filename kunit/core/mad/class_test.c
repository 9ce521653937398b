// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mad_class: core/mad/class.c, what the classes
 * say: responses, data offsets, RMPP classes, kernel-RMPP agents.
 */
#include <kunit/test.h>
#include <rdma/ib_mad.h>

static void ct_response(struct kunit *test)
{
	struct ib_mad_hdr h = { .mgmt_class = 0x09 };

	h.method = IB_MGMT_METHOD_GET;
	KUNIT_EXPECT_FALSE(test, ib_response_mad(&h));
	h.method = IB_MGMT_METHOD_GET_RESP;
	KUNIT_EXPECT_TRUE(test, ib_response_mad(&h));
	h.method = IB_MGMT_METHOD_TRAP_REPRESS;
	KUNIT_EXPECT_TRUE(test, ib_response_mad(&h));
	h.method = IB_MGMT_METHOD_SEND;
	KUNIT_EXPECT_FALSE(test, ib_response_mad(&h));
	h.mgmt_class = IB_MGMT_CLASS_BM;
	h.attr_mod = IB_BM_ATTR_MOD_RESP;
	KUNIT_EXPECT_TRUE(test, ib_response_mad(&h));
	h.mgmt_class = 0x09;
	KUNIT_EXPECT_FALSE(test, ib_response_mad(&h));
}

static void ct_offsets(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ib_get_mad_data_offset(IB_MGMT_CLASS_SUBN_ADM),
			IB_MGMT_SA_HDR);
	KUNIT_EXPECT_EQ(test, ib_get_mad_data_offset(IB_MGMT_CLASS_DEVICE_MGMT),
			IB_MGMT_DEVICE_HDR);
	KUNIT_EXPECT_EQ(test, ib_get_mad_data_offset(IB_MGMT_CLASS_BIS),
			IB_MGMT_DEVICE_HDR);
	KUNIT_EXPECT_EQ(test, ib_get_mad_data_offset(0x30), IB_MGMT_VENDOR_HDR);
	KUNIT_EXPECT_EQ(test, ib_get_mad_data_offset(0x4f), IB_MGMT_VENDOR_HDR);
	KUNIT_EXPECT_EQ(test, ib_get_mad_data_offset(0x50), IB_MGMT_MAD_HDR);
	KUNIT_EXPECT_EQ(test, ib_get_mad_data_offset(IB_MGMT_CLASS_PERF_MGMT),
			IB_MGMT_MAD_HDR);
}

static void ct_rmpp_classes(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ib_is_mad_class_rmpp(IB_MGMT_CLASS_SUBN_ADM));
	KUNIT_EXPECT_TRUE(test, ib_is_mad_class_rmpp(IB_MGMT_CLASS_DEVICE_ADM));
	KUNIT_EXPECT_TRUE(test, ib_is_mad_class_rmpp(0x4f));
	KUNIT_EXPECT_FALSE(test, ib_is_mad_class_rmpp(0x2f));
	KUNIT_EXPECT_FALSE(test, ib_is_mad_class_rmpp(IB_MGMT_CLASS_CM));
	KUNIT_EXPECT_FALSE(test, ib_is_mad_class_rmpp(0x50));
}

static void ct_kernel_rmpp(struct kunit *test)
{
	struct ib_mad_agent a = { .rmpp_version = 0 };

	KUNIT_EXPECT_FALSE(test, ib_mad_kernel_rmpp_agent(&a));
	a.rmpp_version = IB_MGMT_RMPP_VERSION;
	KUNIT_EXPECT_TRUE(test, ib_mad_kernel_rmpp_agent(&a));
	a.flags = IB_MAD_USER_RMPP;
	KUNIT_EXPECT_FALSE(test, ib_mad_kernel_rmpp_agent(&a));
}

static struct kunit_case ct_cases[] = {
	KUNIT_CASE(ct_response),
	KUNIT_CASE(ct_offsets),
	KUNIT_CASE(ct_rmpp_classes),
	KUNIT_CASE(ct_kernel_rmpp),
	{}
};

static struct kunit_suite ct_suite = {
	.name = "rdma_core_mad_class",
	.test_cases = ct_cases,
};
kunit_test_suite(ct_suite);
