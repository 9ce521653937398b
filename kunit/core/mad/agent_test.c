// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mad_agent: core/mad/agent.c, the registration
 * rules and their errnos (one row each), conflicts between agents,
 * hi_tids, dispatch to the agent of a class, version and method, and
 * unregistration.
 */
#include <kunit/test.h>
#include "menv.h"
#include "tk.h"

static void at_send(struct ib_mad_agent *a, struct ib_mad_send_wc *wc)
{
}

static void at_recv(struct ib_mad_agent *a, struct ib_mad_send_buf *s,
		    struct ib_mad_recv_wc *rwc)
{
	ib_free_recv_mad(rwc);
}

/**
 * struct at_row - one registration and what it gets
 * @desc: the row's name
 * @roce: on a RoCE port (else InfiniBand)
 * @port: the port number
 * @qpt: the QP type
 * @req: with a registration request
 * @cls: its class
 * @ver: its class version
 * @oui: its OUI's last byte
 * @rmpp: the RMPP version
 * @no_recv: without recv_handler
 * @no_send: without send_handler
 * @flags: registration flags
 * @err: the errno, 0 for success
 */
struct at_row {
	const char *desc;
	bool roce;
	u32 port;
	enum ib_qp_type qpt;
	bool req;
	u8 cls, ver, oui;
	u8 rmpp;
	bool no_recv, no_send;
	u32 flags;
	int err;
};

static const struct at_row at_rows[] = {
	{ "gsi without request", .port = 1, .qpt = IB_QPT_GSI },
	{ "smi directed route", .port = 1, .qpt = IB_QPT_SMI, .req = true,
	  .cls = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, .ver = 1 },
	{ "gsi sa with rmpp", .port = 1, .qpt = IB_QPT_GSI, .req = true,
	  .cls = IB_MGMT_CLASS_SUBN_ADM, .ver = 2, .rmpp = 1 },
	{ "vendor2 with oui", .port = 1, .qpt = IB_QPT_GSI, .req = true,
	  .cls = 0x30, .ver = 1, .oui = 5 },
	{ "user rmpp with request", .port = 1, .qpt = IB_QPT_GSI, .req = true,
	  .cls = IB_MGMT_CLASS_SUBN_ADM, .ver = 2, .rmpp = 1,
	  .flags = IB_MAD_USER_RMPP },
	{ "smi on roce", .roce = true, .port = 1, .qpt = IB_QPT_SMI,
	  .err = -EPROTONOSUPPORT },
	{ "gsi on roce", .roce = true, .port = 1, .qpt = IB_QPT_GSI },
	{ "bad port", .port = 7, .qpt = IB_QPT_GSI, .err = -ENODEV },
	{ "port 0", .port = 0, .qpt = IB_QPT_GSI, .err = -ENODEV },
	{ "ud qp", .port = 1, .qpt = IB_QPT_UD, .err = -EINVAL },
	{ "rmpp version 2", .port = 1, .qpt = IB_QPT_GSI, .rmpp = 2,
	  .err = -EINVAL },
	{ "class version 8", .port = 1, .qpt = IB_QPT_GSI, .req = true,
	  .cls = 0x09, .ver = 8, .err = -EINVAL },
	{ "request without recv_handler", .port = 1, .qpt = IB_QPT_GSI,
	  .req = true, .cls = 0x09, .ver = 1, .no_recv = true,
	  .err = -EINVAL },
	{ "class 0", .port = 1, .qpt = IB_QPT_GSI, .req = true, .cls = 0,
	  .ver = 1, .err = -EINVAL },
	{ "class 0x50", .port = 1, .qpt = IB_QPT_GSI, .req = true,
	  .cls = 0x50, .ver = 1, .err = -EINVAL },
	{ "vendor2 without oui", .port = 1, .qpt = IB_QPT_GSI, .req = true,
	  .cls = 0x30, .ver = 1, .err = -EINVAL },
	{ "rmpp for a class without", .port = 1, .qpt = IB_QPT_GSI,
	  .req = true, .cls = 0x09, .ver = 1, .rmpp = 1, .err = -EINVAL },
	{ "gmp class on smi", .port = 1, .qpt = IB_QPT_SMI, .req = true,
	  .cls = IB_MGMT_CLASS_PERF_MGMT, .ver = 1, .err = -EINVAL },
	{ "smp class on gsi", .port = 1, .qpt = IB_QPT_GSI, .req = true,
	  .cls = IB_MGMT_CLASS_SUBN_LID_ROUTED, .ver = 1, .err = -EINVAL },
	{ "no request, no send_handler", .port = 1, .qpt = IB_QPT_GSI,
	  .no_send = true, .err = -EINVAL },
	{ "no request, user rmpp", .port = 1, .qpt = IB_QPT_GSI,
	  .flags = IB_MAD_USER_RMPP, .err = -EINVAL },
};

static void at_row_desc(const struct at_row *r, char *desc)
{
	strscpy(desc, r->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(at_rows, at_rows, at_row_desc);

static void at_register_rules(struct kunit *test)
{
	const struct at_row *r = test->param_value;
	struct ib_mad_reg_req req = {
		.mgmt_class = r->cls,
		.mgmt_class_version = r->ver,
		.oui = { 0, 0, r->oui },
	};
	struct tdev *td = menv_dev(test, r->roce);
	struct ib_mad_agent *a;

	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	a = ib_register_mad_agent(&td->ibdev, r->port, r->qpt,
				  r->req ? &req : NULL, r->rmpp,
				  r->no_send ? NULL : at_send,
				  r->no_recv ? NULL : at_recv, NULL, r->flags);
	if (r->err) {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(a), r->err);
	} else {
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(a), "%ld", PTR_ERR(a));
		KUNIT_EXPECT_PTR_EQ(test, a->device, &td->ibdev);
		KUNIT_EXPECT_EQ(test, a->port_num, r->port);
		KUNIT_EXPECT_EQ(test, a->qp->qp_num, r->qpt == IB_QPT_SMI ?
				0U : 1U);
		KUNIT_EXPECT_EQ(test, a->rmpp_version, r->rmpp);
		KUNIT_EXPECT_EQ(test, a->flags, r->flags);
		KUNIT_EXPECT_LT(test, a->hi_tid, 1U << 24);
		ib_unregister_mad_agent(a);
	}
	tdev_destroy(td);
}

static struct ib_mad_agent *at_reg(struct tdev *td, u8 cls, u8 ver, u8 oui,
				   u8 method)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = cls,
		.mgmt_class_version = ver,
		.oui = { 0, 0, oui },
	};

	set_bit(method, req.method_mask);
	return ib_register_mad_agent(&td->ibdev, 1, IB_QPT_GSI, &req, 0,
				     at_send, at_recv, NULL, 0);
}

/* A method of a class, version and OUI belongs to one agent of a port. */
static void at_conflicts(struct kunit *test)
{
	struct tdev *td = menv_dev(test, false);
	struct tdev *other = menv_dev(test, false);
	struct ib_mad_agent *a, *b, *c, *d, *e, *f;

	a = at_reg(td, 0x09, 1, 0, IB_MGMT_METHOD_GET);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_EQ(test, PTR_ERR(at_reg(td, 0x09, 1, 0,
					     IB_MGMT_METHOD_GET)), -EINVAL);
	b = at_reg(td, 0x09, 1, 0, IB_MGMT_METHOD_SET);	/* other method */
	c = at_reg(td, 0x09, 2, 0, IB_MGMT_METHOD_GET);	/* other version */
	d = at_reg(td, 0x30, 1, 1, IB_MGMT_METHOD_GET);
	e = at_reg(td, 0x30, 1, 2, IB_MGMT_METHOD_GET);	/* other OUI */
	f = at_reg(other, 0x09, 1, 0, IB_MGMT_METHOD_GET); /* other port */
	KUNIT_EXPECT_FALSE(test, IS_ERR(b) || IS_ERR(c) || IS_ERR(d) ||
			   IS_ERR(e) || IS_ERR(f));
	KUNIT_EXPECT_EQ(test, PTR_ERR(at_reg(td, 0x30, 1, 2,
					     IB_MGMT_METHOD_GET)), -EINVAL);
	KUNIT_EXPECT_NE(test, a->hi_tid, b->hi_tid);
	/* Unregistration frees the method for another agent */
	ib_unregister_mad_agent(a);
	a = at_reg(td, 0x09, 1, 0, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_FALSE(test, IS_ERR(a));
	if (!IS_ERR(a))
		ib_unregister_mad_agent(a);
	if (!IS_ERR(b))
		ib_unregister_mad_agent(b);
	if (!IS_ERR(c))
		ib_unregister_mad_agent(c);
	if (!IS_ERR(d))
		ib_unregister_mad_agent(d);
	if (!IS_ERR(e))
		ib_unregister_mad_agent(e);
	if (!IS_ERR(f))
		ib_unregister_mad_agent(f);
	tdev_destroy(other);
	tdev_destroy(td);
}

/* Unsolicited MADs go by class, version and method; others are dropped. */
static void at_dispatch(struct kunit *test)
{
	struct tdev *a = menv_dev(test, false), *b = menv_dev(test, false);
	struct menv_agent *snd = menv_agent(test, &a->ibdev, 1, IB_QPT_GSI, 0,
					    0, 0, 0);
	struct menv_agent *get = menv_agent(test, &b->ibdev, 1, IB_QPT_GSI,
					    0x0a, 1, IB_MGMT_METHOD_GET, 0);
	struct menv_agent *set = menv_agent(test, &b->ibdev, 1, IB_QPT_GSI,
					    0x0a, 1, IB_MGMT_METHOD_SET, 0);
	struct ib_ah *ah = menv_ah(test, snd->agent, &b->ibdev, 1);
	u64 drops = menv_counter(&b->ibdev, 1, "drop_no_agent");

	ib_post_send_mad(menv_mad(test, snd, ah, 1, 0x0a, 1,
				  IB_MGMT_METHOD_SET, 1), NULL);
	ib_post_send_mad(menv_mad(test, snd, ah, 1, 0x0a, 1,
				  IB_MGMT_METHOD_GET, 2), NULL);
	/* Another version, another method: nobody's */
	ib_post_send_mad(menv_mad(test, snd, ah, 1, 0x0a, 2,
				  IB_MGMT_METHOD_GET, 3), NULL);
	ib_post_send_mad(menv_mad(test, snd, ah, 1, 0x0a, 1,
				  IB_MGMT_METHOD_SEND, 4), NULL);
	KUNIT_EXPECT_TRUE(test, menv_wait(&snd->nsend, 4, snd));
	KUNIT_EXPECT_TRUE(test, menv_wait(&get->nrecv, 1, get));
	KUNIT_EXPECT_TRUE(test, menv_wait(&set->nrecv, 1, set));
	KUNIT_EXPECT_TRUE(test, tk_wait_for(menv_counter(&b->ibdev, 1,
							 "drop_no_agent") ==
					    drops + 2));
	KUNIT_EXPECT_EQ(test, get->last_recv.method, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, set->last_recv.method, IB_MGMT_METHOD_SET);
	KUNIT_EXPECT_EQ(test, atomic_read(&get->nrecv), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&set->nrecv), 1);

	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	menv_agent_free(set);
	menv_agent_free(get);
	menv_agent_free(snd);
	tdev_destroy(b);
	tdev_destroy(a);
}

static struct kunit_case at_cases[] = {
	KUNIT_CASE_PARAM(at_register_rules, at_rows_gen_params),
	KUNIT_CASE(at_conflicts),
	KUNIT_CASE(at_dispatch),
	{}
};

static struct kunit_suite at_suite = {
	.name = "rdma_core_mad_agent",
	.test_cases = at_cases,
};
kunit_test_suite(at_suite);
