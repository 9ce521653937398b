// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mad_recv: core/mad/recv.c, malformed and stray
 * MADs sent from another test device: each dropped and counted by its
 * reason, nothing delivered; the receive queue keeps working after.
 */
#include <kunit/test.h>
#include "menv.h"
#include "tk.h"

/**
 * struct rt_row - a MAD to send and the counter it must move
 * @desc: the row's name
 * @base: its base version
 * @cls: its class
 * @method: its method
 * @attr: its attribute ID
 * @counter: the counter of the receiving port that counts it
 */
struct rt_row {
	const char *desc;
	u8 base, cls, method;
	u16 attr;
	const char *counter;
};

static const struct rt_row rt_rows[] = {
	{ "base version 2", 2, 0x0a, IB_MGMT_METHOD_GET, 0x10,
	  "drop_base_version" },
	{ "smp on qp1", 1, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
	  0x10, "drop_wrong_qp" },
	{ "cm get", 1, IB_MGMT_CLASS_CM, IB_MGMT_METHOD_GET, 0x10,
	  "drop_cm_method" },
	{ "unknown class", 1, 0x2f, IB_MGMT_METHOD_GET, 0x10,
	  "drop_no_agent" },
	{ "unknown attribute, no agent", 1, 0x0a, IB_MGMT_METHOD_SET, 0xffee,
	  "drop_no_agent" },
	{ "reply to nothing", 1, 0x0a, IB_MGMT_METHOD_GET_RESP, 0x10,
	  "drop_no_request" },
};

static void rt_row_desc(const struct rt_row *r, char *desc)
{
	strscpy(desc, r->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rt_rows, rt_rows, rt_row_desc);

static void rt_malformed(struct kunit *test)
{
	const struct rt_row *r = test->param_value;
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *snd = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI, 0,
					    0, 0, 0);
	struct menv_agent *rcv = menv_agent(test, &b->ibdev, 1, IB_QPT_GSI,
					    0x0a, 1, IB_MGMT_METHOD_GET, 0);
	struct ib_ah *ah = menv_ah(test, snd->agent, &b->ibdev, 1);
	u64 before = menv_counter(&b->ibdev, 1, r->counter);
	u64 received = menv_counter(&b->ibdev, 1, "received");
	struct ib_mad_send_buf *buf;
	struct ib_mad_hdr *hdr;
	int i;

	KUNIT_ASSERT_NE(test, before, U64_MAX);
	/* More than the receive queue holds: buffers must come back */
	for (i = 0; i < 300; i++) {
		buf = menv_mad(test, snd, ah, 1, r->cls, 1, r->method, i);
		hdr = buf->mad;
		hdr->base_version = r->base;
		hdr->attr_id = cpu_to_be16(r->attr);
		/* A reply to nothing: a TID of no agent of B */
		if (r->method & IB_MGMT_METHOD_RESP)
			hdr->tid = cpu_to_be64(0xfffffeULL << 32 | i);
		KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
		if (i % 64 == 63)
			KUNIT_ASSERT_TRUE(test, menv_wait(&snd->nsend, i + 1,
							  snd));
	}
	KUNIT_EXPECT_TRUE(test, menv_wait(&snd->nsend, 300, snd));
	KUNIT_EXPECT_TRUE(test, tk_wait_for(menv_counter(&b->ibdev, 1,
							 r->counter) ==
					    before + 300));
	KUNIT_EXPECT_EQ(test, menv_counter(&b->ibdev, 1, "received"),
			received + 300);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcv->nrecv), 0);

	/* And a good one still gets through */
	ib_post_send_mad(menv_mad(test, snd, ah, 1, 0x0a, 1,
				  IB_MGMT_METHOD_GET, 1), NULL);
	KUNIT_EXPECT_TRUE(test, menv_wait(&rcv->nrecv, 1, rcv));

	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(rcv);
	menv_agent_free(snd);
	tdev_destroy(b);
	tdev_destroy(a);
}

/* Removing the receiving device while MADs arrive: no leak, no hang. */
static void rt_remove_while_receiving(struct kunit *test)
{
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *snd = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI, 0,
					    0, 0, 0);
	struct ib_ah *ah = menv_ah(test, snd->agent, &b->ibdev, 1);
	int i;

	for (i = 0; i < 100; i++)
		KUNIT_ASSERT_EQ(test, ib_post_send_mad(
			menv_mad(test, snd, ah, 1, 0x0a, 1, IB_MGMT_METHOD_GET,
				 i), NULL), 0);
	tdev_destroy(b);
	KUNIT_EXPECT_TRUE(test, menv_wait(&snd->nsend, 100, snd));
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(snd);
	tdev_destroy(a);
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE_PARAM(rt_malformed, rt_rows_gen_params),
	KUNIT_CASE(rt_remove_while_receiving),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "rdma_core_mad_recv",
	.test_cases = rt_cases,
};
kunit_test_suite(rt_suite);
