// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mad_smi: core/mad/smi.c on InfiniBand test
 * devices.  A directed-route SMP of hop count 0 loops back to the port's
 * own SMA agent and its answer to the requester without the wire; the
 * send rules refuse what a channel adapter may not send; the receive
 * rules take an SMP at the end of its path and drop one that would need
 * forwarding; LID-routed SMPs go from QP0 to QP0 by LID.
 */
#include <kunit/test.h>
#include <rdma/ib_smi.h>
#include "menv.h"
#include "tk.h"

/*
 * Sets up a directed-route SMP: hops, pointer, direction, and @start, the
 * LID where its directed part starts (DrSLID outbound, DrDLID returning;
 * the other DR LID is permissive): the send rules apply only when @start
 * is the permissive LID.
 */
static void smt_dr(struct ib_mad_send_buf *buf, u8 cnt, u8 ptr, bool back,
		   __be16 start, u8 first_port)
{
	struct ib_smp *smp = buf->mad;

	smp->mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	smp->hop_cnt = cnt;
	smp->hop_ptr = ptr;
	smp->status = back ? IB_SMP_DIRECTION : 0;
	smp->dr_slid = back ? IB_LID_PERMISSIVE : start;
	smp->dr_dlid = back ? start : IB_LID_PERMISSIVE;
	memset(smp->initial_path, 0, sizeof(smp->initial_path));
	smp->initial_path[1] = first_port;
}

/*
 * Hop count 0: to the port's own SMA agent and back, never on the wire.
 * The port has no SM: else ib_core's SA client would ask it for its
 * ClassPortInfo after the registration, from its work queue, and that
 * MAD could go out while the case counts what the port sent.
 */
static void smt_local_loopback(struct kunit *test)
{
	struct tdev_params p = { .name = "ktmad%d" };
	struct tdev *a = tk_new_dev(test, &p);
	struct menv_agent *sma, *req;
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;
	u64 sent;

	KUNIT_ASSERT_EQ(test, tdev_set_sm_lid(a, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, tdev_register(a), 0);
	sma = menv_agent(test, &a->ibdev, 1, IB_QPT_SMI,
			 IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1,
			 IB_MGMT_METHOD_GET, 0);
	sma->answer = true;
	req = menv_agent(test, &a->ibdev, 1, IB_QPT_SMI, 0, 0, 0, 0);
	ah = menv_ah(test, req->agent, &a->ibdev, 1);
	sent = menv_counter(&a->ibdev, 1, "sent");
	buf = menv_mad(test, req, ah, 0, IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1,
		       IB_MGMT_METHOD_GET, 0x21);
	smt_dr(buf, 0, 0, false, IB_LID_PERMISSIVE, 0);
	buf->timeout_ms = 2000;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);

	KUNIT_EXPECT_TRUE(test, menv_wait(&sma->nrecv, 1, sma));
	KUNIT_EXPECT_EQ(test, sma->last_recv.method, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_TRUE(test, menv_wait(&req->nsend, 1, req));
	KUNIT_EXPECT_EQ(test, req->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&req->nrecv), 1);
	KUNIT_EXPECT_TRUE(test, req->last_had_send);
	KUNIT_EXPECT_EQ(test, req->last_recv.method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_TRUE(test, menv_wait(&sma->nsend, 1, sma));
	/* Neither the request nor the answer went to the hardware */
	KUNIT_EXPECT_EQ(test, menv_counter(&a->ibdev, 1, "sent"), sent);

	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(req);
	menv_agent_free(sma);
	tdev_destroy(a);
}

/**
 * struct smt_send - a directed-route SMP to send and whether it may go
 * @desc: the row's name
 * @cnt: its hop count
 * @ptr: its hop pointer
 * @back: the direction bit
 * @first_port: initial_path[1]
 * @err: what ib_post_send_mad() returns
 */
struct smt_send {
	const char *desc;
	u8 cnt, ptr;
	bool back;
	u8 first_port;
	int err;
};

static const struct smt_send smt_send_rows[] = {
	{ "outbound, first hop through port 1", 1, 0, false, 1, 0 },
	{ "outbound, first hop through port 2", 1, 0, false, 2, -EINVAL },
	{ "outbound, pointer already moved", 2, 1, false, 1, -EINVAL },
	{ "hop count 0, pointer 1", 0, 1, false, 0, -EINVAL },
	{ "hop count 64", 64, 0, false, 1, -EINVAL },
	{ "returning from the end of the path", 2, 3, true, 0, 0 },
	{ "returning from the middle", 3, 1, true, 0, -EINVAL },
};

static void smt_send_desc(const struct smt_send *r, char *desc)
{
	strscpy(desc, r->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smt_send_rows, smt_send_rows, smt_send_desc);

static void smt_send_rules(struct kunit *test)
{
	const struct smt_send *r = test->param_value;
	struct tdev *a = menv_dev(test, false);
	struct menv_agent *req;
	struct ib_mad_send_buf *buf;
	struct ib_smp *smp;
	struct ib_ah *ah;

	req = menv_agent(test, &a->ibdev, 1, IB_QPT_SMI, 0, 0, 0, 0);
	ah = menv_ah(test, req->agent, &a->ibdev, 1);
	buf = menv_mad(test, req, ah, 0, IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1,
		       IB_MGMT_METHOD_GET, 1);
	smt_dr(buf, r->cnt, r->ptr, r->back, IB_LID_PERMISSIVE,
	       r->first_port);
	KUNIT_EXPECT_EQ(test, ib_post_send_mad(buf, NULL), r->err);
	if (r->err) {
		ib_free_send_mad(buf);
	} else {
		KUNIT_EXPECT_TRUE(test, menv_wait(&req->nsend, 1, req));
		/* The pointer moved as the rules say (the buffer is freed) */
		smp = (struct ib_smp *)req->last_sent;
		KUNIT_EXPECT_EQ(test, smp->hop_ptr, r->back ? r->cnt : 1);
		if (!r->back)
			KUNIT_EXPECT_EQ(test, smp->return_path[1], 1);
	}
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(req);
	tdev_destroy(a);
}

/**
 * struct smt_recv - a directed-route SMP that arrives, and its fate
 * @desc: the row's name
 * @cnt: its hop count
 * @ptr: its hop pointer
 * @back: the direction bit
 * @arrives: it reaches the agent (else drop_smi counts it)
 */
struct smt_recv {
	const char *desc;
	u8 cnt, ptr;
	bool back;
	bool arrives;
};

static const struct smt_recv smt_recv_rows[] = {
	{ "outbound at its last hop", 1, 1, false, true },
	{ "outbound, more hops to go", 2, 1, false, false },
	{ "returning to its requester", 2, 1, true, true },
	{ "returning, more hops to go", 3, 2, true, false },
	{ "hop count 64", 64, 64, false, false },
};

static void smt_recv_desc(const struct smt_recv *r, char *desc)
{
	strscpy(desc, r->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smt_recv_rows, smt_recv_rows, smt_recv_desc);

/*
 * Sent with the directed part starting at A's LID (a LID-routed start,
 * which the send rules leave alone) to B's LID, so that B's receive rules
 * see the hops as the row has them.
 */
static void smt_recv_rules(struct kunit *test)
{
	const struct smt_recv *r = test->param_value;
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *req, *sma;
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;
	u64 drops;

	sma = menv_agent(test, &b->ibdev, 1, IB_QPT_SMI,
			 IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1,
			 IB_MGMT_METHOD_SET, 0);
	req = menv_agent(test, &a->ibdev, 1, IB_QPT_SMI, 0, 0, 0, 0);
	ah = menv_ah(test, req->agent, &b->ibdev, 1);
	drops = menv_counter(&b->ibdev, 1, "drop_smi");
	buf = menv_mad(test, req, ah, 0, IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1,
		       IB_MGMT_METHOD_SET, 2);
	smt_dr(buf, r->cnt, r->ptr, r->back, cpu_to_be16(a->port[1].lid), 1);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&req->nsend, 1, req));
	if (r->arrives) {
		KUNIT_EXPECT_TRUE(test, menv_wait(&sma->nrecv, 1, sma));
	} else {
		KUNIT_EXPECT_TRUE(test, tk_wait_for(menv_counter(&b->ibdev, 1,
								 "drop_smi") ==
						    drops + 1));
		KUNIT_EXPECT_EQ(test, atomic_read(&sma->nrecv), 0);
	}
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(req);
	menv_agent_free(sma);
	tdev_destroy(b);
	tdev_destroy(a);
}

/* A LID-routed SMP: QP0 to QP0 by LID, answered; QP1 never sees it. */
static void smt_lid_routed(struct kunit *test)
{
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *req, *sma;
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;

	sma = menv_agent(test, &b->ibdev, 1, IB_QPT_SMI,
			 IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, IB_MGMT_METHOD_GET,
			 0);
	sma->answer = true;
	req = menv_agent(test, &a->ibdev, 1, IB_QPT_SMI, 0, 0, 0, 0);
	ah = menv_ah(test, req->agent, &b->ibdev, 1);
	buf = menv_mad(test, req, ah, 0, IB_MGMT_CLASS_SUBN_LID_ROUTED, 1,
		       IB_MGMT_METHOD_GET, 3);
	buf->timeout_ms = 2000;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	KUNIT_EXPECT_TRUE(test, menv_wait(&req->nsend, 1, req));
	KUNIT_EXPECT_EQ(test, req->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&req->nrecv), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&sma->nrecv), 1);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(req);
	menv_agent_free(sma);
	tdev_destroy(b);
	tdev_destroy(a);
}

static struct kunit_case smt_cases[] = {
	KUNIT_CASE(smt_local_loopback),
	KUNIT_CASE_PARAM(smt_send_rules, smt_send_rows_gen_params),
	KUNIT_CASE_PARAM(smt_recv_rules, smt_recv_rows_gen_params),
	KUNIT_CASE(smt_lid_routed),
	{}
};

static struct kunit_suite smt_suite = {
	.name = "rdma_core_mad_smi",
	.test_cases = smt_cases,
};
kunit_test_suite(smt_suite);
