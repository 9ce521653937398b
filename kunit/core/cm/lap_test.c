// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_cm_lap: our extension ib_cm_lap() and ib_cm_apr()
 * (include/core/ib_cm_lap.h) on an established InfiniBand connection
 * between the two test devices.  A LAP answered with success (the path
 * from the receiver's end, private data both ways, the new alternate path
 * in both QPs' RTS attributes), answered with a refusal (additional
 * information, no path loaded), left unanswered (IB_CM_LAP_ERROR, then a
 * new LAP may go), ended by a DREQ, and the calls refused.
 */
#include <kunit/test.h>
#include "core/ib_cm_lap.h"
#include "cenv.h"

#define LT_SID		cpu_to_be64(0x0000000000cd0301ULL)
#define LT_SL		6

/* The connection's path with another SL, flow label and traffic class */
static void lt_alt_path(struct cenv *env, struct sa_path_rec *alt)
{
	cenv_path(env, 0, alt);
	alt->sl = LT_SL;
	alt->flow_label = cpu_to_be32(0x5a5a5);
	alt->traffic_class = 9;
}

/* The RTS attributes after a LAP: only the alternate path, to be armed */
static void lt_check_rts(struct kunit *test, struct cenv *env, int side,
			 struct ib_cm_id *id)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTS };
	int mask = 0;

	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE);
	KUNIT_EXPECT_EQ(test, attr.path_mig_state, IB_MIG_REARM);
	KUNIT_EXPECT_EQ(test, attr.alt_port_num, 1);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr.alt_ah_attr), LT_SL);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr.alt_ah_attr),
			(u32)env->s[!side].lid);
}

static void lap_apr_success(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	u8 lap_data[IB_CM_LAP_PRIVATE_DATA_SIZE];
	u8 apr_data[IB_CM_APR_PRIVATE_DATA_SIZE];
	struct sa_path_rec alt, *p;
	struct ib_cm_id *a, *b;
	struct cenv_event *e;

	cenv_fill(lap_data, sizeof(lap_data), 0x51);
	cenv_fill(apr_data, sizeof(apr_data), 0x52);
	cenv_connect(env, LT_SID, &a, &b);
	lt_alt_path(env, &alt);
	KUNIT_ASSERT_EQ(test, ib_cm_lap(a, &alt, lap_data, sizeof(lap_data)),
			0);
	KUNIT_EXPECT_EQ(test, a->lap_state, IB_CM_LAP_SENT);
	/* One LAP at a time, from either side */
	KUNIT_EXPECT_EQ(test, ib_cm_lap(a, &alt, NULL, 0), -EINVAL);

	e = cenv_expect(env, 1, IB_CM_LAP_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, b);
	KUNIT_EXPECT_EQ(test, b->lap_state, IB_CM_LAP_RCVD);
	p = e->ev.param.lap_rcvd.alternate_path;
	KUNIT_ASSERT_PTR_EQ(test, p, &e->alt);
	KUNIT_EXPECT_EQ(test, p->sl, LT_SL);
	KUNIT_EXPECT_EQ(test, p->flow_label, cpu_to_be32(0x5a5a5));
	KUNIT_EXPECT_EQ(test, p->traffic_class, 9);
	KUNIT_EXPECT_EQ(test, p->pkey, alt.pkey);
	KUNIT_EXPECT_EQ(test, p->mtu, alt.mtu);
	KUNIT_EXPECT_EQ(test, memcmp(&p->sgid, &env->s[1].gid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&p->dgid, &env->s[0].gid, 16), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(p)),
			(u32)env->s[0].lid);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(p)),
			(u32)env->s[1].lid);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata, sizeof(lap_data), 0x51));

	KUNIT_ASSERT_EQ(test, ib_cm_apr(b, IB_CM_APR_SUCCESS, NULL, 0,
					apr_data, sizeof(apr_data)), 0);
	KUNIT_EXPECT_EQ(test, b->lap_state, IB_CM_LAP_IDLE);
	/* Answered once */
	KUNIT_EXPECT_EQ(test, ib_cm_apr(b, IB_CM_APR_SUCCESS, NULL, 0, NULL,
					0), -EINVAL);
	e = cenv_expect(env, 0, IB_CM_APR_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, a);
	KUNIT_EXPECT_EQ(test, e->ev.param.apr_rcvd.ap_status,
			IB_CM_APR_SUCCESS);
	KUNIT_EXPECT_EQ(test, (int)e->ev.param.apr_rcvd.info_len, 0);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->pdata, sizeof(apr_data), 0x52));
	KUNIT_EXPECT_EQ(test, a->lap_state, IB_CM_LAP_IDLE);
	lt_check_rts(test, env, 0, a);
	lt_check_rts(test, env, 1, b);
	/* The passive side may load a path too, now that none is under way */
	KUNIT_EXPECT_EQ(test, ib_cm_lap(b, p, NULL, 0), 0);
	cenv_expect(env, 0, IB_CM_LAP_RECEIVED);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

static void lap_apr_refused(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTS };
	u8 info[IB_CM_APR_INFO_LENGTH];
	struct ib_cm_id *a, *b;
	struct sa_path_rec alt;
	struct cenv_event *e;
	int mask = 0;

	cenv_fill(info, sizeof(info), 0x53);
	cenv_connect(env, LT_SID, &a, &b);
	lt_alt_path(env, &alt);
	KUNIT_ASSERT_EQ(test, ib_cm_lap(a, &alt, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_LAP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_cm_apr(b, IB_CM_APR_INVALID_SL, info,
					sizeof(info), NULL, 0), 0);
	e = cenv_expect(env, 0, IB_CM_APR_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.apr_rcvd.ap_status,
			IB_CM_APR_INVALID_SL);
	KUNIT_EXPECT_EQ(test, (int)e->ev.param.apr_rcvd.info_len,
			IB_CM_APR_INFO_LENGTH);
	KUNIT_EXPECT_TRUE(test, cenv_filled(e->info, sizeof(info), 0x53));
	/* No path was loaded: RTS is the connection's own */
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(a, &attr, &mask), 0);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_ALT_PATH);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_SQ_PSN);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

/* Nobody answers: LAP_ERROR after the retries, and the next LAP may go */
static void lap_unanswered(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct sa_path_rec alt;
	struct cenv_event *e;

	cenv_connect(env, LT_SID, &a, &b);
	lt_alt_path(env, &alt);
	KUNIT_ASSERT_EQ(test, ib_cm_lap(a, &alt, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_LAP_RECEIVED);
	e = cenv_expect(env, 0, IB_CM_LAP_ERROR);
	KUNIT_EXPECT_EQ(test, e->ev.param.send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, a->lap_state, IB_CM_LAP_IDLE);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_ESTABLISHED);
	/* The retries were duplicates to the receiver */
	KUNIT_EXPECT_EQ(test, cenv_count(env, 1, IB_CM_LAP_RECEIVED), 1);
	KUNIT_EXPECT_EQ(test, ib_cm_lap(a, &alt, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

/* A DREQ ends a LAP under way: no LAP_ERROR, no APR afterwards */
static void lap_ended_by_dreq(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	struct ib_cm_id *a, *b;
	struct sa_path_rec alt;

	cenv_connect(env, LT_SID, &a, &b);
	lt_alt_path(env, &alt);
	KUNIT_ASSERT_EQ(test, ib_cm_lap(a, &alt, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_LAP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(a, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_DREQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ib_cm_apr(b, IB_CM_APR_SUCCESS, NULL, 0, NULL,
					0), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_send_cm_drep(b, NULL, 0), 0);
	cenv_expect(env, 0, IB_CM_DREP_RECEIVED);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_LAP_ERROR), 0);
	KUNIT_EXPECT_EQ(test, cenv_count(env, 0, IB_CM_APR_RECEIVED), 0);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

static void lap_refused_calls(struct kunit *test)
{
	struct cenv *env = cenv_new(test, false);
	u8 big[IB_CM_LAP_PRIVATE_DATA_SIZE + 1] = {};
	struct ib_cm_id *idle, *a, *b;
	struct sa_path_rec alt, bad;

	idle = cenv_id(env, 0);
	lt_alt_path(env, &alt);
	/* Not connected */
	KUNIT_EXPECT_EQ(test, ib_cm_lap(idle, &alt, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_apr(idle, IB_CM_APR_SUCCESS, NULL, 0,
					NULL, 0), -EINVAL);

	cenv_connect(env, LT_SID, &a, &b);
	KUNIT_EXPECT_EQ(test, ib_cm_lap(a, NULL, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_lap(a, &alt, big, sizeof(big)), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_lap(a, &alt, NULL, 1), -EINVAL);
	/* A LAP cannot change the P_Key or the MTU */
	bad = alt;
	bad.mtu = IB_MTU_4096;
	KUNIT_EXPECT_EQ(test, ib_cm_lap(a, &bad, NULL, 0), -EINVAL);
	/* Nor come from a GID we do not have */
	bad = alt;
	bad.sgid.global.interface_id = cpu_to_be64(0x0badbadbadbadbadULL);
	KUNIT_EXPECT_EQ(test, ib_cm_lap(a, &bad, NULL, 0), -EINVAL);
	/* No LAP received: nothing to answer */
	KUNIT_EXPECT_EQ(test, ib_cm_apr(b, IB_CM_APR_SUCCESS, NULL, 0, NULL,
					0), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->lap_state, IB_CM_LAP_UNINIT);

	KUNIT_ASSERT_EQ(test, ib_cm_lap(a, &alt, NULL, 0), 0);
	cenv_expect(env, 1, IB_CM_LAP_RECEIVED);
	KUNIT_EXPECT_EQ(test, ib_cm_apr(b, IB_CM_APR_INVALID_SL + 1, NULL, 0,
					NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_apr(b, IB_CM_APR_REJECT, big,
					IB_CM_APR_INFO_LENGTH + 1, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_apr(b, IB_CM_APR_REJECT, NULL, 0, big,
					IB_CM_APR_PRIVATE_DATA_SIZE + 1),
			-EINVAL);
	/* The refusals left the LAP to answer */
	KUNIT_EXPECT_EQ(test, ib_cm_apr(b, IB_CM_APR_REJECT, NULL, 0, NULL, 0),
			0);
	cenv_expect(env, 0, IB_CM_APR_RECEIVED);
	KUNIT_EXPECT_EQ(test, cenv_late(env), 0);
}

static struct kunit_case lap_cases[] = {
	KUNIT_CASE(lap_apr_success),
	KUNIT_CASE(lap_apr_refused),
	KUNIT_CASE(lap_unanswered),
	KUNIT_CASE(lap_ended_by_dreq),
	KUNIT_CASE(lap_refused_calls),
	{}
};

static struct kunit_suite lap_suite = {
	.name = "rdma_core_cm_lap",
	.test_cases = lap_cases,
};

kunit_test_suite(lap_suite);
