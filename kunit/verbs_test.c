// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the device-independent parts of ib_core's verbs: event and status
 * names, the QP state table, the scatterlist-to-pages walk and virtual DMA
 * mapping.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

/* ---- rdma_core_strings ---- */

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

/* ---- rdma_core_qp_state ---- */

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

/* ---- rdma_core_sg_to_pages ---- */

#define SGP_MAX 64

/* A page collector standing in for a driver's page list. */
struct sgp {
	struct ib_mr mr;
	u64 pages[SGP_MAX];
	int n;
	int cap;
};

static int sgp_set_page(struct ib_mr *mr, u64 addr)
{
	struct sgp *p = container_of(mr, struct sgp, mr);

	if (p->n == p->cap)
		return -ENOMEM;
	p->pages[p->n++] = addr;
	return 0;
}

static void sgp_init(struct sgp *p, unsigned int page_size, int cap)
{
	memset(p, 0, sizeof(*p));
	p->mr.page_size = page_size;
	p->cap = cap;
}

/* A scatterlist of DMA (address, length) pairs; no pages behind it. */
static void sgp_sgl(struct scatterlist *sgl, const u64 *addr, const u32 *len,
		    int n)
{
	int i;

	sg_init_table(sgl, n);
	for (i = 0; i < n; i++) {
		sg_dma_address(&sgl[i]) = addr[i];
		sg_dma_len(&sgl[i]) = len[i];
	}
}

#define PG 0x1000ULL

static void sgp_one_aligned(struct kunit *test)
{
	u64 a[] = { 0x100000 };
	u32 l[] = { 3 * PG };
	struct scatterlist sgl[1];
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(sgl, a, l, 1);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 1, NULL, sgp_set_page), 1);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.pages[0], 0x100000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[2], 0x102000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.iova, 0x100000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 3 * PG);
}

static void sgp_first_offset(struct kunit *test)
{
	u64 a[] = { 0x100a00, 0x102000 };
	u32 l[] = { 0x1600, 0x800 };
	struct scatterlist sgl[2];
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(sgl, a, l, 2);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 2, NULL, sgp_set_page), 2);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.pages[0], 0x100000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[1], 0x101000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[2], 0x102000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.iova, 0x100a00ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0x1e00ULL);
}

static void sgp_sg_offset_arg(struct kunit *test)
{
	u64 a[] = { 0x200000 };
	u32 l[] = { 2 * PG };
	struct scatterlist sgl[1];
	unsigned int off = 0x1100;
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(sgl, a, l, 1);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 1, &off, sgp_set_page), 1);
	KUNIT_EXPECT_EQ(test, p.n, 1);
	KUNIT_EXPECT_EQ(test, p.pages[0], 0x201000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.iova, 0x201100ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0xf00ULL);
	KUNIT_EXPECT_EQ(test, off, 0U);
}

static void sgp_unaligned_middle_gap(struct kunit *test)
{
	u64 a[] = { 0x100000, 0x300200, 0x400000 };
	u32 l[] = { PG, 0xe00, PG };
	struct scatterlist sgl[3];
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(sgl, a, l, 3);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 3, NULL, sgp_set_page), 1);
	KUNIT_EXPECT_EQ(test, p.n, 1);
	KUNIT_EXPECT_EQ(test, p.mr.length, PG);
}

static void sgp_unaligned_middle_contiguous(struct kunit *test)
{
	u64 a[] = { 0x100000, 0x100800, 0x101400 };
	u32 l[] = { 0x800, 0xc00, 0x1c00 };
	struct scatterlist sgl[3];
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(sgl, a, l, 3);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 3, NULL, sgp_set_page), 3);
	/* 0x100000..0x103000: three pages, none twice */
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.pages[1], 0x101000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[2], 0x102000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0x3000ULL);
}

static void sgp_short_previous_ends_prefix(struct kunit *test)
{
	/* The first element ends mid-page, the next starts elsewhere */
	u64 a[] = { 0x100000, 0x200000 };
	u32 l[] = { 0x800, PG };
	struct scatterlist sgl[2];
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(sgl, a, l, 2);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 2, NULL, sgp_set_page), 1);
	KUNIT_EXPECT_EQ(test, p.n, 1);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0x800ULL);
}

static void sgp_short_last(struct kunit *test)
{
	u64 a[] = { 0x100000, 0x500000, 0x700000 };
	u32 l[] = { PG, 2 * PG, 0x10 };
	struct scatterlist sgl[3];
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(sgl, a, l, 3);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 3, NULL, sgp_set_page), 3);
	KUNIT_EXPECT_EQ(test, p.n, 4);
	KUNIT_EXPECT_EQ(test, p.pages[3], 0x700000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 3 * PG + 0x10);
}

static void sgp_more_than_max(struct kunit *test)
{
	u64 a[] = { 0x100000, 0x200000, 0x300000 };
	u32 l[] = { 2 * PG, 2 * PG, 2 * PG };
	struct scatterlist sgl[3];
	unsigned int off = 0;
	struct sgp p;

	sgp_init(&p, PG, 3);
	sgp_sgl(sgl, a, l, 3);
	/* Three pages fit: the first element and half the second */
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 3, &off, sgp_set_page), 1);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, off, (unsigned int)PG);
	KUNIT_EXPECT_EQ(test, p.mr.length, 3 * PG);
}

static void sgp_nothing_fits(struct kunit *test)
{
	u64 a[] = { 0x100000 };
	u32 l[] = { PG };
	struct scatterlist sgl[1];
	struct sgp p;

	sgp_init(&p, PG, 0);
	sgp_sgl(sgl, a, l, 1);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 1, NULL, sgp_set_page),
			-ENOMEM);
}

static void sgp_bad_args(struct kunit *test)
{
	u64 a[] = { 0x100000 };
	u32 l[] = { PG };
	struct scatterlist sgl[1];
	unsigned int off = PG + 1;
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(sgl, a, l, 1);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 0, NULL, sgp_set_page),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 1, &off, sgp_set_page),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, p.n, 0);
}

static void sgp_large_pages(struct kunit *test)
{
	u64 a[] = { 0x1234000, 0x1240000 };
	u32 l[] = { 0xc000, 0x20000 };
	struct scatterlist sgl[2];
	struct sgp p;

	sgp_init(&p, 0x10000, SGP_MAX);
	sgp_sgl(sgl, a, l, 2);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, sgl, 2, NULL, sgp_set_page), 2);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.pages[0], 0x1230000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[2], 0x1250000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.iova, 0x1234000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0x2c000ULL);
}

static struct kunit_case sgp_cases[] = {
	KUNIT_CASE(sgp_one_aligned),
	KUNIT_CASE(sgp_first_offset),
	KUNIT_CASE(sgp_sg_offset_arg),
	KUNIT_CASE(sgp_unaligned_middle_gap),
	KUNIT_CASE(sgp_unaligned_middle_contiguous),
	KUNIT_CASE(sgp_short_previous_ends_prefix),
	KUNIT_CASE(sgp_short_last),
	KUNIT_CASE(sgp_more_than_max),
	KUNIT_CASE(sgp_nothing_fits),
	KUNIT_CASE(sgp_bad_args),
	KUNIT_CASE(sgp_large_pages),
	{}
};

static struct kunit_suite sgp_suite = {
	.name = "rdma_core_sg_to_pages",
	.test_cases = sgp_cases,
};

/* ---- rdma_core_virt_dma ---- */

static void virt_dma_map_sg(struct kunit *test)
{
	char *a = kunit_kzalloc(test, 300, GFP_KERNEL);
	char *b = kunit_kzalloc(test, 5000, GFP_KERNEL);
	struct scatterlist sgl[2];

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	sg_init_table(sgl, 2);
	sg_set_buf(&sgl[0], a + 10, 200);
	sg_set_buf(&sgl[1], b, 5000);
	KUNIT_EXPECT_EQ(test, ib_dma_virt_map_sg(NULL, sgl, 2), 2);
	KUNIT_EXPECT_EQ(test, sg_dma_address(&sgl[0]), (u64)(uintptr_t)(a + 10));
	KUNIT_EXPECT_EQ(test, sg_dma_len(&sgl[0]), 200U);
	KUNIT_EXPECT_EQ(test, sg_dma_address(&sgl[1]), (u64)(uintptr_t)b);
	KUNIT_EXPECT_EQ(test, sg_dma_len(&sgl[1]), 5000U);
}

static struct kunit_case virt_dma_cases[] = {
	KUNIT_CASE(virt_dma_map_sg),
	{}
};

static struct kunit_suite virt_dma_suite = {
	.name = "rdma_core_virt_dma",
	.test_cases = virt_dma_cases,
};

kunit_test_suites(&strings_suite, &qp_state_suite, &sgp_suite,
		  &virt_dma_suite);

MODULE_DESCRIPTION("KUnit: ib_core verbs helpers");
MODULE_LICENSE("GPL");
