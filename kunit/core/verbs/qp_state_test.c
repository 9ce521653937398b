// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_qp_state: core/verbs/qp_state.c, the QP state
 * transition table (ib_modify_qp_is_ok()): which attributes each transition
 * of each QP type requires and allows.
 */
#include <kunit/test.h>
#include <rdma/ib_verbs.h>

struct qp_trans_case {
	const char *name;
	enum ib_qp_state cur, next;
	enum ib_qp_type type;
	int mask;
	bool ok;
};

#define S	IB_QP_STATE
#define RC_INIT	(S | IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS)
#define UD_INIT	(S | IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY)
#define RC_RTR	(S | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | \
		 IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)
#define UC_RTR	(S | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN)
#define RC_RTS	(S | IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | \
		 IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC)

static const struct qp_trans_case qp_trans_cases[] = {
	{ "rc reset-init", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_RC, RC_INIT, true },
	{ "rc reset-init no port", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_RC,
	  RC_INIT & ~IB_QP_PORT, false },
	{ "rc reset-init no access", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_RC,
	  RC_INIT & ~IB_QP_ACCESS_FLAGS, false },
	{ "rc reset-init with qkey", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_RC,
	  RC_INIT | IB_QP_QKEY, false },
	{ "ud reset-init", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_UD, UD_INIT, true },
	{ "ud reset-init no qkey", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_UD,
	  UD_INIT & ~IB_QP_QKEY, false },
	{ "ud reset-init with access", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_UD,
	  UD_INIT | IB_QP_ACCESS_FLAGS, false },
	{ "gsi reset-init", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_GSI,
	  S | IB_QP_PKEY_INDEX | IB_QP_QKEY, true },
	{ "gsi reset-init with port", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_GSI,
	  S | IB_QP_PKEY_INDEX | IB_QP_QKEY | IB_QP_PORT, false },
	{ "raw reset-init", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_RAW_PACKET,
	  S | IB_QP_PORT, true },
	{ "xrc_ini reset-init", IB_QPS_RESET, IB_QPS_INIT, IB_QPT_XRC_INI,
	  RC_INIT, true },
	{ "rc reset-rtr", IB_QPS_RESET, IB_QPS_RTR, IB_QPT_RC, RC_RTR, false },
	{ "rc reset-rts", IB_QPS_RESET, IB_QPS_RTS, IB_QPT_RC, RC_RTS, false },
	{ "rc reset-err", IB_QPS_RESET, IB_QPS_ERR, IB_QPT_RC, S, false },
	{ "rc reset-reset", IB_QPS_RESET, IB_QPS_RESET, IB_QPT_RC, S, true },
	{ "rc init-init empty", IB_QPS_INIT, IB_QPS_INIT, IB_QPT_RC, S, true },
	{ "rc init-init port", IB_QPS_INIT, IB_QPS_INIT, IB_QPT_RC,
	  S | IB_QP_PORT, true },
	{ "rc init-rtr", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_RC, RC_RTR, true },
	{ "rc init-rtr no min_rnr", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_RC,
	  RC_RTR & ~IB_QP_MIN_RNR_TIMER, false },
	{ "rc init-rtr alt path", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_RC,
	  RC_RTR | IB_QP_ALT_PATH | IB_QP_PKEY_INDEX, true },
	{ "rc init-rtr sq_psn", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_RC,
	  RC_RTR | IB_QP_SQ_PSN, false },
	{ "uc init-rtr", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_UC, UC_RTR, true },
	{ "uc init-rtr responder attrs", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_UC,
	  UC_RTR | IB_QP_MAX_DEST_RD_ATOMIC, false },
	{ "ud init-rtr", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_UD, S, true },
	{ "ud init-rtr av", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_UD, S | IB_QP_AV,
	  false },
	{ "xrc_tgt init-rtr", IB_QPS_INIT, IB_QPS_RTR, IB_QPT_XRC_TGT, RC_RTR,
	  true },
	{ "rc init-rts", IB_QPS_INIT, IB_QPS_RTS, IB_QPT_RC, RC_RTS, false },
	{ "rc rtr-rts", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RC, RC_RTS, true },
	{ "rc rtr-rts no retry", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RC,
	  RC_RTS & ~IB_QP_RETRY_CNT, false },
	{ "rc rtr-rts cur_state", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RC,
	  RC_RTS | IB_QP_CUR_STATE | IB_QP_MIN_RNR_TIMER, true },
	{ "uc rtr-rts", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_UC, S | IB_QP_SQ_PSN,
	  true },
	{ "uc rtr-rts timeout", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_UC,
	  S | IB_QP_SQ_PSN | IB_QP_TIMEOUT, false },
	{ "ud rtr-rts", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_UD, S | IB_QP_SQ_PSN,
	  true },
	{ "ud rtr-rts no psn", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_UD, S, false },
	{ "xrc_tgt rtr-rts", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_XRC_TGT,
	  S | IB_QP_TIMEOUT | IB_QP_SQ_PSN, true },
	{ "raw rtr-rts rate", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RAW_PACKET,
	  S | IB_QP_RATE_LIMIT, true },
	{ "rc rtr-rts rate", IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RC,
	  RC_RTS | IB_QP_RATE_LIMIT, false },
	{ "rc rts-rts min_rnr", IB_QPS_RTS, IB_QPS_RTS, IB_QPT_RC,
	  S | IB_QP_MIN_RNR_TIMER, true },
	{ "uc rts-rts min_rnr", IB_QPS_RTS, IB_QPS_RTS, IB_QPT_UC,
	  S | IB_QP_MIN_RNR_TIMER, false },
	{ "rc rts-rts av", IB_QPS_RTS, IB_QPS_RTS, IB_QPT_RC, S | IB_QP_AV,
	  false },
	{ "rc rts-sqd notify", IB_QPS_RTS, IB_QPS_SQD, IB_QPT_RC,
	  S | IB_QP_EN_SQD_ASYNC_NOTIFY, true },
	{ "rc rts-rtr", IB_QPS_RTS, IB_QPS_RTR, IB_QPT_RC, S, false },
	{ "rc rts-init", IB_QPS_RTS, IB_QPS_INIT, IB_QPT_RC, S, false },
	{ "rc sqd-sqd av+port", IB_QPS_SQD, IB_QPS_SQD, IB_QPT_RC,
	  S | IB_QP_AV | IB_QP_PORT | IB_QP_MAX_DEST_RD_ATOMIC, true },
	{ "uc sqd-sqd port", IB_QPS_SQD, IB_QPS_SQD, IB_QPT_UC,
	  S | IB_QP_PORT, false },
	{ "xrc_tgt sqd-sqd retry", IB_QPS_SQD, IB_QPS_SQD, IB_QPT_XRC_TGT,
	  S | IB_QP_RETRY_CNT, false },
	{ "xrc_ini sqd-sqd retry", IB_QPS_SQD, IB_QPS_SQD, IB_QPT_XRC_INI,
	  S | IB_QP_RETRY_CNT, true },
	{ "rc sqd-rts", IB_QPS_SQD, IB_QPS_RTS, IB_QPT_RC, S, true },
	{ "ud sqe-rts", IB_QPS_SQE, IB_QPS_RTS, IB_QPT_UD,
	  S | IB_QP_CUR_STATE | IB_QP_QKEY, true },
	{ "uc sqe-rts access", IB_QPS_SQE, IB_QPS_RTS, IB_QPT_UC,
	  S | IB_QP_ACCESS_FLAGS, true },
	{ "rc sqe-rts access", IB_QPS_SQE, IB_QPS_RTS, IB_QPT_RC,
	  S | IB_QP_ACCESS_FLAGS, false },
	{ "rc err-reset", IB_QPS_ERR, IB_QPS_RESET, IB_QPT_RC, S, true },
	{ "rc err-err", IB_QPS_ERR, IB_QPS_ERR, IB_QPT_RC, S, true },
	{ "rc err-rts", IB_QPS_ERR, IB_QPS_RTS, IB_QPT_RC, RC_RTS, false },
	{ "rc err-init", IB_QPS_ERR, IB_QPS_INIT, IB_QPT_RC, RC_INIT, false },
	{ "rc init cur_state", IB_QPS_INIT, IB_QPS_INIT, IB_QPT_RC,
	  S | IB_QP_CUR_STATE, false },
	{ "rc reserved bit", IB_QPS_RTS, IB_QPS_RTS, IB_QPT_RC,
	  S | IB_QP_RESERVED1, false },
	{ "bad current state", IB_QPS_ERR + 1, IB_QPS_RESET, IB_QPT_RC, S,
	  false },
	{ "bad next state", IB_QPS_RESET, IB_QPS_ERR + 1, IB_QPT_RC, S, false },
	{ "bad qp type", IB_QPS_RESET, IB_QPS_RESET, IB_QPT_MAX, S, false },
	{ "driver qp type", IB_QPS_RESET, IB_QPS_RESET, IB_QPT_DRIVER, S,
	  false },
};

static void qp_trans_desc(const struct qp_trans_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(qp_trans, qp_trans_cases, qp_trans_desc);

static void qp_state_table(struct kunit *test)
{
	const struct qp_trans_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ib_modify_qp_is_ok(c->cur, c->next, c->type,
						 c->mask), c->ok);
}

/* Every state may go to Reset; every state but Reset may go to Error. */
static void qp_state_reset_and_error(struct kunit *test)
{
	enum ib_qp_type types[] = { IB_QPT_RC, IB_QPT_UC, IB_QPT_UD,
				    IB_QPT_GSI, IB_QPT_XRC_INI };
	int s, t;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		for (s = IB_QPS_RESET; s <= IB_QPS_ERR; s++) {
			KUNIT_EXPECT_TRUE(test, ib_modify_qp_is_ok(s,
					  IB_QPS_RESET, types[t], S));
			KUNIT_EXPECT_EQ(test, ib_modify_qp_is_ok(s, IB_QPS_ERR,
					types[t], S), s != IB_QPS_RESET);
		}
	}
}

/* Without any attribute, only the parameterless transitions are legal. */
static void qp_state_state_only(struct kunit *test)
{
	int ok = 0, s, n;

	for (s = IB_QPS_RESET; s <= IB_QPS_ERR; s++)
		for (n = IB_QPS_RESET; n <= IB_QPS_ERR; n++)
			ok += ib_modify_qp_is_ok(s, n, IB_QPT_RC, S);
	/*
	 * R->R, I->R, I->E, I->I, RTR->R, RTR->E, RTS->R, RTS->E, RTS->RTS,
	 * RTS->SQD, SQD->R, SQD->E, SQD->RTS, SQD->SQD, SQE->R, SQE->E,
	 * SQE->RTS, E->R, E->E
	 */
	KUNIT_EXPECT_EQ(test, ok, 19);
}

static struct kunit_case qp_state_cases[] = {
	KUNIT_CASE_PARAM(qp_state_table, qp_trans_gen_params),
	KUNIT_CASE(qp_state_reset_and_error),
	KUNIT_CASE(qp_state_state_only),
	{}
};

static struct kunit_suite qp_state_suite = {
	.name = "rdma_core_qp_state",
	.test_cases = qp_state_cases,
};

kunit_test_suites(&qp_state_suite);
