// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the nldev resource commands (core/nl/res.c): the summary
 * RES_GET and the RES_*_GET listings iproute2's "rdma resource" reads, for
 * objects the verbs of ib_core create on a test device and for user
 * contexts and CM IDs the suite tracks itself.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/in.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include "core/restrack.h"
#include "nlk.h"

/* A device with one object of each kind the verbs track. */
struct rs {
	struct tdev *td;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_mr *mr;
	struct ib_srq *srq;
};

static struct ib_qp *rs_qp(struct kunit *test, struct rs *r,
			   struct ib_srq *srq)
{
	struct ib_qp_init_attr ia = {
		.qp_type = IB_QPT_RC, .send_cq = r->cq, .recv_cq = r->cq,
		.srq = srq, .sq_sig_type = IB_SIGNAL_REQ_WR, .port_num = 1,
		.cap = { .max_send_wr = 8, .max_recv_wr = srq ? 0 : 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_qp *qp = ib_create_qp(r->pd, &ia);

	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	return qp;
}

static int rs_init(struct kunit *test)
{
	struct tdev_params p = { .name = "ktres%d", .ports = 2,
				 .no_mad = true };
	struct ib_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct rs *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	test->priv = r;
	r->td = nlk_tdev(test, &p);
	r->pd = ib_alloc_pd(&r->td->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r->pd));
	r->cq = ib_alloc_cq(&r->td->ibdev, NULL, 64, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r->cq));
	r->qp = rs_qp(test, r, NULL);
	r->mr = ib_alloc_mr(r->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r->mr));
	r->srq = ib_create_srq(r->pd, &sa);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r->srq));
	return 0;
}

static void rs_exit(struct kunit *test)
{
	struct rs *r = test->priv;

	if (!r)
		return;
	if (!IS_ERR_OR_NULL(r->qp))
		ib_destroy_qp(r->qp);
	if (!IS_ERR_OR_NULL(r->srq))
		ib_destroy_srq(r->srq);
	if (!IS_ERR_OR_NULL(r->mr))
		ib_dereg_mr(r->mr);
	if (!IS_ERR_OR_NULL(r->cq))
		ib_free_cq(r->cq);
	if (!IS_ERR_OR_NULL(r->pd))
		ib_dealloc_pd(r->pd);
}

static u32 rs_index(struct kunit *test)
{
	return ((struct rs *)test->priv)->td->ibdev.index;
}

/* The summary's count of @name, or -1. */
static s64 rs_count(struct kunit *test, struct nlattr **tb, const char *name)
{
	struct nlattr *e, *etb[RDMA_NLDEV_ATTR_MAX];
	int rem;

	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_SUMMARY]);
	nla_for_each_nested(e, tb[RDMA_NLDEV_ATTR_RES_SUMMARY], rem) {
		KUNIT_ASSERT_EQ(test, nla_parse_nested_deprecated(etb,
				RDMA_NLDEV_ATTR_MAX - 1, e, NULL, NULL), 0);
		KUNIT_ASSERT_NOT_NULL(test,
				      etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME]);
		KUNIT_ASSERT_NOT_NULL(test,
				      etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR]);
		if (!strcmp(nla_data(etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME]),
			    name))
			return nla_get_u64(etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR]);
	}
	return -1;
}

/* RES_GET: one of each object the verbs made, nothing else. */
static void rs_summary(struct kunit *test)
{
	struct nlk *k = nlk_open(test);

	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_GET, rs_index(test));
	KUNIT_ASSERT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "pd"), 1);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "cq"), 1);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "qp"), 1);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "mr"), 1);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "srq"), 1);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "ctx"), 0);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "cm_id"), 0);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "counter"), -1);
	nlk_new(k, RDMA_NLDEV_CMD_RES_GET);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_GET, 0x7ffffff);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
}

static int rs_summary_msg(struct nlk *k, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	u32 *index = arg;

	KUNIT_ASSERT_EQ(k->test, nlk_parse(nlh, tb), 0);
	KUNIT_ASSERT_NOT_NULL(k->test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	if (nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]) == *index) {
		KUNIT_EXPECT_EQ(k->test, rs_count(k->test, tb, "qp"), 1);
		*index = U32_MAX;
	}
	return 0;
}

/* RES_GET as a dump, the form "rdma resource" without a device uses. */
static void rs_summary_dump(struct kunit *test)
{
	struct nlk *k = nlk_open(test);
	u32 index = rs_index(test);

	nlk_new(k, RDMA_NLDEV_CMD_RES_GET);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, rs_summary_msg, &index), 0);
	KUNIT_EXPECT_EQ(test, index, U32_MAX);
}

/* One listing's entries, each checked by @check. */
struct rs_walk {
	u16 table;
	u16 entry;
	void (*check)(struct kunit *test, struct nlattr **tb, void *arg);
	void *arg;
	int entries;
};

static int rs_walk_msg(struct nlk *k, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX], *etb[RDMA_NLDEV_ATTR_MAX], *e;
	struct rs_walk *w = arg;
	int rem;

	KUNIT_ASSERT_EQ(k->test, nlk_parse(nlh, tb), 0);
	KUNIT_EXPECT_NOT_NULL(k->test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	KUNIT_EXPECT_NOT_NULL(k->test, tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	KUNIT_ASSERT_NOT_NULL(k->test, tb[w->table]);
	nla_for_each_nested(e, tb[w->table], rem) {
		KUNIT_EXPECT_EQ(k->test, nla_type(e), w->entry);
		KUNIT_ASSERT_EQ(k->test, nla_parse_nested_deprecated(etb,
				RDMA_NLDEV_ATTR_MAX - 1, e, NULL, NULL), 0);
		w->entries++;
		if (w->check)
			w->check(k->test, etb, w->arg);
	}
	return 0;
}

static int rs_dump(struct nlk *k, u8 cmd, u32 index, struct rs_walk *w)
{
	nlk_new_dev(k, cmd, index);
	w->entries = 0;
	return nlk_dump(k, rs_walk_msg, w);
}

static void rs_expect_kern(struct kunit *test, struct nlattr **tb)
{
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]);
	KUNIT_EXPECT_STREQ(test, nla_data(tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]),
			   KBUILD_MODNAME);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PID]);
}

static void rs_check_pd(struct kunit *test, struct nlattr **tb, void *arg)
{
	bool *admin = arg;

	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_USECNT]);
	/* The QP, the MR and the SRQ use the PD. */
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[RDMA_NLDEV_ATTR_RES_USECNT]), 3);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PDN]);
	KUNIT_EXPECT_EQ(test, !!tb[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY], *admin);
	rs_expect_kern(test, tb);
}

/* The PD listing; keys only for CAP_NET_ADMIN. */
static void rs_pd(struct kunit *test)
{
	struct nlk *k = nlk_open(test);
	bool admin = true;
	struct rs_walk w = { RDMA_NLDEV_ATTR_RES_PD, RDMA_NLDEV_ATTR_RES_PD_ENTRY,
			     rs_check_pd, &admin };
	const struct cred *old;

	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_PD_GET,
				      rs_index(test), &w), 0);
	KUNIT_EXPECT_EQ(test, w.entries, 1);
	admin = false;
	old = nlk_drop_cap(CAP_NET_ADMIN);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_PD_GET,
				      rs_index(test), &w), 0);
	nlk_restore_cap(old);
	KUNIT_EXPECT_EQ(test, w.entries, 1);
}

static void rs_check_qp(struct kunit *test, struct nlattr **tb, void *arg)
{
	struct ib_qp *qp = arg;

	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_LQPN]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN]),
			qp->qp_num);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_SQ_PSN]);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_TYPE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_RES_TYPE]),
			IB_QPT_RC);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_STATE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_RES_STATE]),
			IB_QPS_RESET);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]), 1);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_RQPN]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE]);
	rs_expect_kern(test, tb);
}

/* The QP listing, whole and filtered by port. */
static void rs_qp_dump(struct kunit *test)
{
	struct rs *r = test->priv;
	struct nlk *k = nlk_open(test);
	struct rs_walk w = { RDMA_NLDEV_ATTR_RES_QP, RDMA_NLDEV_ATTR_RES_QP_ENTRY,
			     rs_check_qp, r->qp };

	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_QP_GET,
				      rs_index(test), &w), 0);
	KUNIT_EXPECT_EQ(test, w.entries, 1);
	/* Port 2 has none: no message at all. */
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_QP_GET, rs_index(test));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 2),
			0);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, k->msgs, 0);
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_QP_GET, rs_index(test));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 9),
			0);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
	nlk_new(k, RDMA_NLDEV_CMD_RES_QP_GET);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
}

static int rs_doit(struct nlk *k, u8 cmd, u32 index, int id_attr, u32 id,
		   u32 port)
{
	nlk_new_dev(k, cmd, index);
	if (id_attr)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req, id_attr, id), 0);
	if (port)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req,
				RDMA_NLDEV_ATTR_PORT_INDEX, port), 0);
	return nlk_doit(k);
}

/* One object by id: objects of ports need their port, the others none. */
static void rs_doits(struct kunit *test)
{
	struct rs *r = test->priv;
	struct nlk *k = nlk_open(test);
	u32 idx = rs_index(test);

	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_PD_GET, idx,
				      RDMA_NLDEV_ATTR_RES_PDN, r->pd->res.id, 0),
			0);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_RES_PDN]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(k->tb[RDMA_NLDEV_ATTR_RES_PDN]),
			r->pd->res.id);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_PD_GET, idx,
				      RDMA_NLDEV_ATTR_RES_PDN, r->pd->res.id, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_PD_GET, idx,
				      RDMA_NLDEV_ATTR_RES_PDN, 0x7fffff, 0),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_PD_GET, idx, 0, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_QP_GET, idx,
				      RDMA_NLDEV_ATTR_RES_LQPN, r->qp->qp_num, 1),
			0);
	rs_check_qp(test, k->tb, r->qp);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_QP_GET, idx,
				      RDMA_NLDEV_ATTR_RES_LQPN, r->qp->qp_num, 0),
			-EINVAL);
	/* The QP is on port 1, not 2. */
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_QP_GET, idx,
				      RDMA_NLDEV_ATTR_RES_LQPN, r->qp->qp_num, 2),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_CQ_GET, idx,
				      RDMA_NLDEV_ATTR_RES_CQN, r->cq->res.id, 0),
			0);
	KUNIT_EXPECT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_RES_CQE]);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_MR_GET, idx,
				      RDMA_NLDEV_ATTR_RES_MRN, r->mr->res.id, 0),
			0);
	KUNIT_EXPECT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_RES_MRLEN]);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_SRQ_GET, 0x7ffffff,
				      RDMA_NLDEV_ATTR_RES_SRQN, r->srq->res.id, 0),
			-EINVAL);
}

static void rs_check_cq(struct kunit *test, struct nlattr **tb, void *arg)
{
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_CQE]);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_USECNT]);
	/* What the CQ counts: its QP uses it to send and to receive. */
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[RDMA_NLDEV_ATTR_RES_USECNT]),
			atomic_read(&((struct ib_cq *)arg)->usecnt));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_POLL_CTX]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_RES_POLL_CTX]),
			IB_POLL_DIRECT);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_CQN]);
	rs_expect_kern(test, tb);
}

static void rs_check_mr(struct kunit *test, struct nlattr **tb, void *arg)
{
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_MRLEN]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_MRN]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_RKEY]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_LKEY]);
	/* An MR belongs to the owner of its PD. */
	rs_expect_kern(test, tb);
}

/* The QPs of an SRQ, as runs of numbers. */
static void rs_check_srq(struct kunit *test, struct nlattr **tb, void *arg)
{
	struct ib_qp **qps = arg;
	struct nlattr *e, *etb[RDMA_NLDEV_ATTR_MAX];
	u32 seen = 0;
	int rem;

	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_SRQN]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_TYPE]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PDN]);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_QP]);
	nla_for_each_nested(e, tb[RDMA_NLDEV_ATTR_RES_QP], rem) {
		KUNIT_ASSERT_EQ(test, nla_parse_nested_deprecated(etb,
				RDMA_NLDEV_ATTR_MAX - 1, e, NULL, NULL), 0);
		if (etb[RDMA_NLDEV_ATTR_RES_LQPN]) {
			seen++;
			continue;
		}
		KUNIT_ASSERT_NOT_NULL(test, etb[RDMA_NLDEV_ATTR_MIN_RANGE]);
		KUNIT_ASSERT_NOT_NULL(test, etb[RDMA_NLDEV_ATTR_MAX_RANGE]);
		seen += nla_get_u32(etb[RDMA_NLDEV_ATTR_MAX_RANGE]) -
			nla_get_u32(etb[RDMA_NLDEV_ATTR_MIN_RANGE]) + 1;
		KUNIT_EXPECT_LE(test, nla_get_u32(etb[RDMA_NLDEV_ATTR_MIN_RANGE]),
				qps[0]->qp_num);
	}
	KUNIT_EXPECT_EQ(test, seen, 3);
	rs_expect_kern(test, tb);
}

/* The CQ, MR and SRQ listings and what each entry carries. */
static void rs_other_dumps(struct kunit *test)
{
	struct rs *r = test->priv;
	struct nlk *k = nlk_open(test);
	struct ib_qp *qps[3];
	struct rs_walk cq = { RDMA_NLDEV_ATTR_RES_CQ, RDMA_NLDEV_ATTR_RES_CQ_ENTRY,
			      rs_check_cq, r->cq };
	struct rs_walk mr = { RDMA_NLDEV_ATTR_RES_MR, RDMA_NLDEV_ATTR_RES_MR_ENTRY,
			      rs_check_mr, NULL };
	struct rs_walk srq = { RDMA_NLDEV_ATTR_RES_SRQ,
			       RDMA_NLDEV_ATTR_RES_SRQ_ENTRY, rs_check_srq, qps };
	int i;

	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_CQ_GET,
				      rs_index(test), &cq), 0);
	KUNIT_EXPECT_EQ(test, cq.entries, 1);
	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_MR_GET,
				      rs_index(test), &mr), 0);
	KUNIT_EXPECT_EQ(test, mr.entries, 1);
	for (i = 0; i < 3; i++)
		qps[i] = rs_qp(test, r, r->srq);
	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_SRQ_GET,
				      rs_index(test), &srq), 0);
	KUNIT_EXPECT_EQ(test, srq.entries, 1);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, ib_destroy_qp(qps[i]), 0);
}

/* _RAW listings: only for CAP_NET_ADMIN, and only if the driver can. */
static void rs_raw(struct kunit *test)
{
	struct nlk *k = nlk_open(test);
	const struct cred *old;

	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_QP_GET_RAW, rs_index(test));
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_CQ_GET_RAW, rs_index(test));
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
	old = nlk_drop_cap(CAP_NET_ADMIN);
	KUNIT_ASSERT_NOT_NULL(test, old);
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_MR_GET_RAW, rs_index(test));
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EPERM);
	nlk_restore_cap(old);
}

static void rs_check_unique(struct kunit *test, struct nlattr **tb, void *arg)
{
	unsigned long *seen = arg;
	u32 pdn;

	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PDN]);
	pdn = nla_get_u32(tb[RDMA_NLDEV_ATTR_RES_PDN]);
	KUNIT_ASSERT_LT(test, pdn, 4096);
	KUNIT_EXPECT_FALSE(test, test_and_set_bit(pdn, seen));
}

#define RS_MANY 700

/* A listing longer than a message continues where it stopped. */
static void rs_many(struct kunit *test)
{
	struct rs *r = test->priv;
	struct nlk *k = nlk_open(test);
	unsigned long *seen = kunit_kzalloc(test, BITS_TO_LONGS(4096) *
					    sizeof(long), GFP_KERNEL);
	struct rs_walk w = { RDMA_NLDEV_ATTR_RES_PD, RDMA_NLDEV_ATTR_RES_PD_ENTRY,
			     rs_check_unique, seen };
	struct ib_pd **pds = kunit_kcalloc(test, RS_MANY, sizeof(*pds),
					   GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, seen);
	KUNIT_ASSERT_NOT_NULL(test, pds);
	for (i = 0; i < RS_MANY; i++) {
		pds[i] = ib_alloc_pd(&r->td->ibdev, 0);
		if (IS_ERR(pds[i]))
			break;
	}
	KUNIT_EXPECT_EQ(test, i, RS_MANY);
	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_PD_GET,
				      rs_index(test), &w), 0);
	KUNIT_EXPECT_EQ(test, w.entries, i + 1);
	KUNIT_EXPECT_GT(test, k->msgs, 1);
	while (i--)
		ib_dealloc_pd(pds[i]);
}

/* A user context and a CM ID the way uverbs and the CM will track them. */
struct rs_user {
	struct ib_ucontext ctx;
	struct rdma_cm_id cm;
	struct restrack_cm_id cm_track;
};

static void rs_check_ctx(struct kunit *test, struct nlattr **tb, void *arg)
{
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_CTXN]);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PID]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_RES_PID]),
			task_pid_vnr(current));
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]);
}

static void rs_check_cm(struct kunit *test, struct nlattr **tb, void *arg)
{
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PS]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_RES_PS]),
			RDMA_PS_TCP);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_STATE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_RES_STATE]), 3);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_LQPN]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN]), 0x42);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_SRC_ADDR]);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_DST_ADDR]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_CM_IDN]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]);
}

static void rs_track_user(struct rs *r, struct rs_user *u)
{
	struct sockaddr_in *src = (struct sockaddr_in *)&u->cm.route.addr.src_addr;

	u->ctx.device = &r->td->ibdev;
	rdma_restrack_new(&u->ctx.res, RDMA_RESTRACK_CTX);
	rdma_restrack_set_name(&u->ctx.res, NULL);
	rdma_restrack_add(&u->ctx.res);

	u->cm.device = &r->td->ibdev;
	u->cm.ps = RDMA_PS_TCP;
	u->cm.qp_type = IB_QPT_RC;
	u->cm.port_num = 1;
	src->sin_family = AF_INET;
	u->cm_track.id = &u->cm;
	u->cm_track.qp_num = 0x42;
	u->cm_track.state = 3;
	rdma_restrack_new(&u->cm_track.res, RDMA_RESTRACK_CM_ID);
	rdma_restrack_set_name(&u->cm_track.res, "ktcm");
	rdma_restrack_add(&u->cm_track.res);
}

/* User contexts and CM IDs are listed with their owners. */
static void rs_ctx_cm_id(struct kunit *test)
{
	struct rs *r = test->priv;
	struct nlk *k = nlk_open(test);
	struct rs_user *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct rs_walk ctx = { RDMA_NLDEV_ATTR_RES_CTX,
			       RDMA_NLDEV_ATTR_RES_CTX_ENTRY, rs_check_ctx, NULL };
	struct rs_walk cm = { RDMA_NLDEV_ATTR_RES_CM_ID,
			      RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, rs_check_cm, NULL };
	u32 idx = rs_index(test);

	KUNIT_ASSERT_NOT_NULL(test, u);
	rs_track_user(r, u);
	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_CTX_GET, idx, &ctx),
			0);
	KUNIT_EXPECT_EQ(test, ctx.entries, 1);
	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_CM_ID_GET, idx, &cm),
			0);
	KUNIT_EXPECT_EQ(test, cm.entries, 1);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_CM_ID_GET, idx,
				      RDMA_NLDEV_ATTR_RES_CM_IDN,
				      u->cm_track.res.id, 1), 0);
	rs_check_cm(test, k->tb, NULL);
	KUNIT_EXPECT_EQ(test, rs_doit(k, RDMA_NLDEV_CMD_RES_CM_ID_GET, idx,
				      RDMA_NLDEV_ATTR_RES_CM_IDN,
				      u->cm_track.res.id, 0), -EINVAL);
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_GET, idx);
	KUNIT_ASSERT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "ctx"), 1);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "cm_id"), 1);
	rdma_restrack_del(&u->cm_track.res);
	rdma_restrack_del(&u->ctx.res);
	KUNIT_EXPECT_NULL(test, u->ctx.res.task);
	KUNIT_EXPECT_EQ(test, rs_dump(k, RDMA_NLDEV_CMD_RES_CTX_GET, idx, &ctx),
			0);
	KUNIT_EXPECT_EQ(test, ctx.entries, 0);
}

/* Driver-specific QPs are counted only when details are asked for. */
static void rs_details(struct kunit *test)
{
	struct rs *r = test->priv;
	struct nlk *k = nlk_open(test);
	struct ib_qp *dd = kunit_kzalloc(test, sizeof(*dd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dd);
	dd->device = &r->td->ibdev;
	dd->qp_type = IB_QPT_DRIVER;
	dd->qp_num = 0x777;
	rdma_restrack_new(&dd->res, RDMA_RESTRACK_QP);
	rdma_restrack_set_name(&dd->res, "ktdd");
	rdma_restrack_add(&dd->res);
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_GET, rs_index(test));
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "qp"), 1);
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_GET, rs_index(test));
	KUNIT_ASSERT_EQ(test, nla_put_u8(k->req, RDMA_NLDEV_ATTR_DRIVER_DETAILS,
					 1), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, rs_count(test, k->tb, "qp"), 2);
	/* The QP listing without details skips it. */
	nlk_new_dev(k, RDMA_NLDEV_CMD_RES_QP_GET, rs_index(test));
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), 0);
	rdma_restrack_del(&dd->res);
}

/* STAT_GET of MRs lists them through the same walk. */
static void rs_stat_mr(struct kunit *test)
{
	struct rs *r = test->priv;
	struct nlk *k = nlk_open(test);
	struct rs_walk w = { RDMA_NLDEV_ATTR_RES_MR, RDMA_NLDEV_ATTR_RES_MR_ENTRY };

	nlk_new_dev(k, RDMA_NLDEV_CMD_STAT_GET, rs_index(test));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_STAT_RES,
					  RDMA_NLDEV_ATTR_RES_MR), 0);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, rs_walk_msg, &w), 0);
	KUNIT_EXPECT_EQ(test, w.entries, 1);
	nlk_new_dev(k, RDMA_NLDEV_CMD_STAT_GET, rs_index(test));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_STAT_RES,
					  RDMA_NLDEV_ATTR_RES_MR), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_RES_MRN,
					  r->mr->res.id), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_RES_MRN]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(k->tb[RDMA_NLDEV_ATTR_RES_MRN]),
			r->mr->res.id);
	/* An unknown STAT_RES. */
	nlk_new_dev(k, RDMA_NLDEV_CMD_STAT_GET, rs_index(test));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_STAT_RES,
					  RDMA_NLDEV_ATTR_RES_PD), 0);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
}

static struct kunit_case rs_cases[] = {
	KUNIT_CASE(rs_summary),
	KUNIT_CASE(rs_summary_dump),
	KUNIT_CASE(rs_pd),
	KUNIT_CASE(rs_qp_dump),
	KUNIT_CASE(rs_doits),
	KUNIT_CASE(rs_other_dumps),
	KUNIT_CASE(rs_raw),
	KUNIT_CASE(rs_many),
	KUNIT_CASE(rs_ctx_cm_id),
	KUNIT_CASE(rs_details),
	KUNIT_CASE(rs_stat_mr),
	{}
};

static struct kunit_suite rs_suite = {
	.name = "rdma_nldev_res",
	.init = rs_init,
	.exit = rs_exit,
	.test_cases = rs_cases,
};

kunit_test_suite(rs_suite);
