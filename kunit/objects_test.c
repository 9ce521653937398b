// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: ib_core verbs objects on the test-double device: QPs, SRQs, CQ
 * objects, MRs and AHs, their reference counting and error paths.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <rdma/ib_cache.h>
#include "tdev.h"
#include "verbs_kunit.h"

/* ---- fixture ---- */

int vk_init(struct kunit *test)
{
	return vk_init_with(test, NULL);
}

/* The fixture on a test device made with @params (NULL: the defaults). */
int vk_init_with(struct kunit *test, const struct tdev_params *params)
{
	struct vk *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);

	if (!v)
		return -ENOMEM;
	v->td = tdev_create_registered(params);
	if (IS_ERR(v->td))
		return PTR_ERR(v->td);
	v->dev = &v->td->ibdev;
	v->pd = ib_alloc_pd(v->dev, 0);
	if (IS_ERR(v->pd)) {
		tdev_destroy(v->td);
		return PTR_ERR(v->pd);
	}
	test->priv = v;
	return 0;
}

void vk_exit(struct kunit *test)
{
	struct vk *v = test->priv;

	ib_dealloc_pd(v->pd);
	tdev_destroy(v->td);
}

struct ib_cq *vk_cq(struct kunit *test, int cqe, enum ib_poll_context ctx)
{
	struct vk *v = test->priv;
	struct ib_cq *cq = ib_alloc_cq(v->dev, NULL, cqe, 0, ctx);

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	return cq;
}

struct ib_qp *vk_qp(struct kunit *test, enum ib_qp_type type,
		    struct ib_cq *scq, struct ib_cq *rcq, struct ib_srq *srq)
{
	struct vk *v = test->priv;
	struct ib_qp_init_attr ia = {
		.qp_type = type,
		.send_cq = scq,
		.recv_cq = rcq,
		.srq = srq,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 32, .max_recv_wr = srq ? 0 : 32,
			 .max_send_sge = 4, .max_recv_sge = 4 },
		.port_num = 1,
	};
	struct ib_qp *qp = ib_create_qp(v->pd, &ia);

	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	return qp;
}

/* Moves an RC/UC QP to RTS connected to @dest, or a UD QP to RTS. */
int vk_connect(struct ib_qp *qp, u32 dest)
{
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT, .port_num = 1, .pkey_index = 0,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
		.qkey = VK_QKEY,
	};
	int init_mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;
	int ret;

	init_mask |= qp->qp_type == IB_QPT_UD ? IB_QP_QKEY : IB_QP_ACCESS_FLAGS;
	ret = ib_modify_qp(qp, &a, init_mask);
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	if (qp->qp_type == IB_QPT_UD) {
		ret = ib_modify_qp(qp, &a, IB_QP_STATE);
	} else {
		a.path_mtu = IB_MTU_4096;
		a.dest_qp_num = dest;
		a.rq_psn = 1;
		a.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
		rdma_ah_set_port_num(&a.ah_attr, 1);
		rdma_ah_set_dlid(&a.ah_attr, 1);
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 1;
		ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV |
				   IB_QP_PATH_MTU | IB_QP_DEST_QPN |
				   IB_QP_RQ_PSN |
				   (qp->qp_type == IB_QPT_RC ?
				    IB_QP_MAX_DEST_RD_ATOMIC |
				    IB_QP_MIN_RNR_TIMER : 0));
	}
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = 1;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN |
			    (qp->qp_type == IB_QPT_RC ?
			     IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			     IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC : 0));
}

/* ---- rdma_core_qp ---- */

static void qp_create_sets_fields_and_refs(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *scq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_cq *rcq = vk_cq(test, 64, IB_POLL_DIRECT);
	int pd_users = atomic_read(&v->pd->usecnt);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, scq, rcq, NULL);

	KUNIT_EXPECT_PTR_EQ(test, qp->device, v->dev);
	KUNIT_EXPECT_PTR_EQ(test, qp->pd, v->pd);
	KUNIT_EXPECT_PTR_EQ(test, qp->send_cq, scq);
	KUNIT_EXPECT_PTR_EQ(test, qp->recv_cq, rcq);
	KUNIT_EXPECT_PTR_EQ(test, qp->real_qp, qp);
	KUNIT_EXPECT_NULL(test, qp->srq);
	KUNIT_EXPECT_NULL(test, qp->uobject);
	KUNIT_EXPECT_EQ(test, qp->qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, qp->port, 1U);
	KUNIT_EXPECT_GE(test, qp->qp_num, 2U);
	KUNIT_EXPECT_EQ(test, qp->max_write_sge, 4U);
	KUNIT_EXPECT_EQ(test, qp->max_read_sge, 4U);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&scq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcq->usecnt), 1);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users);
	KUNIT_EXPECT_EQ(test, atomic_read(&scq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcq->usecnt), 0);
	ib_free_cq(scq);
	ib_free_cq(rcq);
}

static void qp_create_bad_attrs(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp_init_attr ia = {
		.qp_type = IB_QPT_RC, .send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_qp_init_attr bad;

	bad = ia;
	bad.send_cq = NULL;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(v->pd, &bad)), -EINVAL);
	bad = ia;
	bad.recv_cq = NULL;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(v->pd, &bad)), -EINVAL);
	bad = ia;
	bad.qp_type = IB_QPT_XRC_TGT;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(v->pd, &bad)), -EOPNOTSUPP);
	bad = ia;
	bad.qp_type = IB_QPT_RAW_PACKET;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(v->pd, &bad)), -EOPNOTSUPP);
	bad = ia;
	bad.cap.max_send_wr = 100000;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(v->pd, &bad)), -EINVAL);
	bad = ia;
	bad.cap.max_rdma_ctxs = 4;
	bad.port_num = 9;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(v->pd, &bad)), -EINVAL);
	/* Nothing was left holding the CQ */
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 0);
	ib_free_cq(cq);
}

static void qp_modify_to_rts_and_query(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a;

	KUNIT_ASSERT_EQ(test, vk_connect(qp, 1234), 0);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_STATE, &ia), 0);
	KUNIT_EXPECT_EQ(test, a.qp_state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, a.dest_qp_num, 1234U);
	KUNIT_EXPECT_EQ(test, a.path_mtu, IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, a.timeout, 14);
	KUNIT_EXPECT_EQ(test, ia.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_PTR_EQ(test, ia.send_cq, cq);
	KUNIT_EXPECT_EQ(test, ia.cap.max_send_wr, 32U);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

static void qp_modify_invalid(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a = { .qp_state = IB_QPS_RTS };

	/* Reset straight to RTS */
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN),
			-EINVAL);
	/* Reset to Init without the port */
	a.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), -EINVAL);
	/* A port the device lacks */
	a.port_num = 2;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), -EINVAL);
	a.port_num = 0;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_STATE, &ia), 0);
	KUNIT_EXPECT_EQ(test, a.qp_state, IB_QPS_RESET);
	KUNIT_EXPECT_EQ(test, qp->port, 1U);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

static void qp_sqd_error_reset_cycle(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a;

	KUNIT_ASSERT_EQ(test, vk_connect(qp, 5), 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_SQD;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	/* Error, Reset and back to RTS */
	a.qp_state = IB_QPS_ERR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	a.qp_state = IB_QPS_RESET;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	KUNIT_ASSERT_EQ(test, vk_connect(qp, 5), 0);
	a.qp_state = IB_QPS_SQD;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_SQ_PSN, &ia), 0);
	KUNIT_EXPECT_EQ(test, a.qp_state, IB_QPS_SQD);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

/*
 * Move @qp to INIT on port 1, then fill @a for a move to RTR on port 1
 * towards QP 77 with a 1024-byte MTU; the caller adds the rest.
 */
static void vk_qp_init_for_rtr(struct kunit *test, struct ib_qp *qp,
			       struct ib_qp_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->qp_state = IB_QPS_INIT;
	a->port_num = 1;
	a->qp_access_flags = IB_ACCESS_REMOTE_WRITE;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), 0);
	memset(a, 0, sizeof(*a));
	a->qp_state = IB_QPS_RTR;
	a->path_mtu = IB_MTU_1024;
	a->dest_qp_num = 77;
	a->ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(&a->ah_attr, 1);
}

static void qp_rq_psn_truncated(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp *qp = vk_qp(test, IB_QPT_UC, cq, cq, NULL);
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a;

	vk_qp_init_for_rtr(test, qp, &a);
	a.rq_psn = 0x7abcdef;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV |
					   IB_QP_PATH_MTU | IB_QP_DEST_QPN |
					   IB_QP_RQ_PSN), 0);
	KUNIT_EXPECT_EQ(test, a.rq_psn, 0xabcdefU);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_RQ_PSN, &ia), 0);
	KUNIT_EXPECT_EQ(test, a.rq_psn, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

static void qp_av_with_grh_holds_gid(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a;

	vk_qp_init_for_rtr(test, qp, &a);
	a.max_dest_rd_atomic = 1;
	rdma_ah_set_ah_flags(&a.ah_attr, IB_AH_GRH);
	a.ah_attr.grh.sgid_index = 0;
	a.ah_attr.grh.hop_limit = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV |
					   IB_QP_PATH_MTU | IB_QP_DEST_QPN |
					   IB_QP_RQ_PSN |
					   IB_QP_MAX_DEST_RD_ATOMIC |
					   IB_QP_MIN_RNR_TIMER), 0);
	/* The core looked the GID up, kept a reference, and left none here */
	KUNIT_ASSERT_NOT_NULL(test, qp->av_sgid_attr);
	KUNIT_EXPECT_EQ(test, qp->av_sgid_attr->index, 0U);
	KUNIT_EXPECT_NULL(test, a.ah_attr.grh.sgid_attr);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_AV, &ia), 0);
	KUNIT_EXPECT_PTR_EQ(test, a.ah_attr.grh.sgid_attr, qp->av_sgid_attr);

	/* An empty GID slot is refused and changes nothing */
	a.qp_state = IB_QPS_RTR;
	a.ah_attr.grh.sgid_attr = NULL;
	a.ah_attr.grh.sgid_index = 15;
	KUNIT_EXPECT_LT(test, ib_modify_qp(qp, &a, IB_QP_AV), 0);
	KUNIT_EXPECT_EQ(test, qp->av_sgid_attr->index, 0U);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

static void qp_destroy_busy(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);

	/* As a multicast attach or an open of the QP would */
	atomic_inc(&qp->usecnt);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), -EBUSY);
	atomic_dec(&qp->usecnt);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

static void qp_cq_busy_while_attached(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 16 };
	struct ib_cq *cq = ib_create_cq(v->dev, NULL, NULL, NULL, &ca);
	struct ib_qp *qp;

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	qp = vk_qp(test, IB_QPT_UD, cq, cq, NULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

static void qp_pd_busy(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);

	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(v->pd, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

static struct kunit_case qp_cases[] = {
	KUNIT_CASE(qp_create_sets_fields_and_refs),
	KUNIT_CASE(qp_create_bad_attrs),
	KUNIT_CASE(qp_modify_to_rts_and_query),
	KUNIT_CASE(qp_modify_invalid),
	KUNIT_CASE(qp_sqd_error_reset_cycle),
	KUNIT_CASE(qp_rq_psn_truncated),
	KUNIT_CASE(qp_av_with_grh_holds_gid),
	KUNIT_CASE(qp_destroy_busy),
	KUNIT_CASE(qp_cq_busy_while_attached),
	KUNIT_CASE(qp_pd_busy),
	{}
};

static struct kunit_suite qp_suite = {
	.name = "rdma_core_qp",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = qp_cases,
};

/* ---- rdma_core_srq ---- */

static struct ib_srq *vk_srq(struct kunit *test, u32 max_wr, u32 limit)
{
	struct vk *v = test->priv;
	struct ib_srq_init_attr sa = {
		.srq_type = IB_SRQT_BASIC,
		.attr = { .max_wr = max_wr, .max_sge = 2, .srq_limit = limit },
	};
	struct ib_srq *srq = ib_create_srq(v->pd, &sa);

	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	return srq;
}

static void srq_create_query_modify(struct kunit *test)
{
	struct vk *v = test->priv;
	int pd_users = atomic_read(&v->pd->usecnt);
	struct ib_srq *srq = vk_srq(test, 16, 0);
	struct ib_srq_attr a = {};

	KUNIT_EXPECT_PTR_EQ(test, srq->pd, v->pd);
	KUNIT_EXPECT_EQ(test, srq->srq_type, IB_SRQT_BASIC);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users + 1);
	KUNIT_ASSERT_EQ(test, ib_query_srq(srq, &a), 0);
	KUNIT_EXPECT_EQ(test, a.max_wr, 16U);
	KUNIT_EXPECT_EQ(test, a.srq_limit, 0U);
	a.srq_limit = 4;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &a, IB_SRQ_LIMIT), 0);
	KUNIT_ASSERT_EQ(test, ib_query_srq(srq, &a), 0);
	KUNIT_EXPECT_EQ(test, a.srq_limit, 4U);
	a.srq_limit = 17;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &a, IB_SRQ_LIMIT), -EINVAL);
	a.max_wr = 32;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &a, IB_SRQ_MAX_WR), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users);
}

static void srq_create_bad(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_srq_init_attr sa = {
		.srq_type = IB_SRQT_XRC, .attr = { .max_wr = 4, .max_sge = 1 },
	};

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_srq(v->pd, &sa)), -EINVAL);
	sa.srq_type = IB_SRQT_TM;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_srq(v->pd, &sa)), -EINVAL);
	sa.srq_type = IB_SRQT_BASIC;
	sa.attr.max_wr = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_srq(v->pd, &sa)), -EINVAL);
	sa.attr.max_wr = 4;
	sa.attr.max_sge = 100;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_srq(v->pd, &sa)), -EINVAL);
}

static void srq_busy_with_qp(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_srq *srq = vk_srq(test, 16, 0);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, srq);

	KUNIT_EXPECT_PTR_EQ(test, qp->srq, srq);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	ib_free_cq(cq);
}

static struct kunit_case srq_cases[] = {
	KUNIT_CASE(srq_create_query_modify),
	KUNIT_CASE(srq_create_bad),
	KUNIT_CASE(srq_busy_with_qp),
	{}
};

static struct kunit_suite srq_suite = {
	.name = "rdma_core_srq",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = srq_cases,
};

/* ---- rdma_core_cq_object ---- */

static void cqo_handler(struct ib_cq *cq, void *ctx)
{
	atomic_inc(ctx);
}

static void cqo_create_and_notify(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 8 };
	atomic_t events = ATOMIC_INIT(0);
	struct ib_cq *cq = ib_create_cq(v->dev, cqo_handler, NULL, &events, &ca);
	struct ib_qp *qp;
	struct ib_recv_wr wr = { .wr_id = 42 };
	const struct ib_recv_wr *bad;
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	struct ib_wc wc;

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_PTR_EQ(test, cq->cq_context, (void *)&events);
	KUNIT_EXPECT_GE(test, cq->cqe, 8);
	qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	KUNIT_ASSERT_EQ(test, vk_connect(qp, 3), 0);
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	/* The error state flushes the receive: one event, one completion */
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&events), 1);
	KUNIT_EXPECT_GT(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
					       IB_CQ_REPORT_MISSED_EVENTS), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 42ULL);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
					       IB_CQ_REPORT_MISSED_EVENTS), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

static void cqo_create_bad(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 100000 };

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(v->dev, NULL, NULL, NULL, &ca)),
			-EINVAL);
	ca.cqe = 8;
	ca.comp_vector = 5;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(v->dev, NULL, NULL, NULL, &ca)),
			-EINVAL);
	ca.comp_vector = 0;
	ca.flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(v->dev, NULL, NULL, NULL, &ca)),
			-EOPNOTSUPP);
}

static void cqo_resize_and_moderate(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 8 };
	struct ib_cq *cq = ib_create_cq(v->dev, NULL, NULL, NULL, &ca);

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 64), 0);
	KUNIT_EXPECT_EQ(test, cq->cqe, 64);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(cq, 16, 10), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

static void cqo_resize_keeps_completions(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq_init_attr ca = { .cqe = 4 };
	struct ib_cq *cq = ib_create_cq(v->dev, NULL, NULL, NULL, &ca);
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	struct ib_recv_wr wr[3] = {};
	const struct ib_recv_wr *bad;
	struct ib_wc wc[4];
	struct ib_qp *qp;
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	KUNIT_ASSERT_EQ(test, vk_connect(qp, 3), 0);
	for (i = 0; i < 3; i++) {
		wr[i].wr_id = 100 + i;
		wr[i].next = i < 2 ? &wr[i + 1] : NULL;
	}
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	/* Three completions do not fit two entries */
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 16), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 4, wc), 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 100ULL + i);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
}

static struct kunit_case cqo_cases[] = {
	KUNIT_CASE(cqo_create_and_notify),
	KUNIT_CASE(cqo_create_bad),
	KUNIT_CASE(cqo_resize_and_moderate),
	KUNIT_CASE(cqo_resize_keeps_completions),
	{}
};

static struct kunit_suite cqo_suite = {
	.name = "rdma_core_cq_object",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = cqo_cases,
};

/* ---- rdma_core_mr ---- */

static void mr_alloc_and_dereg(struct kunit *test)
{
	struct vk *v = test->priv;
	int pd_users = atomic_read(&v->pd->usecnt);
	struct ib_mr *mr = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 16);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_PTR_EQ(test, mr->pd, v->pd);
	KUNIT_EXPECT_PTR_EQ(test, mr->device, v->dev);
	KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_MEM_REG);
	KUNIT_EXPECT_NULL(test, mr->sig_attrs);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users + 1);
	/* A PD with a live MR cannot go */
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(v->pd, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), pd_users);
}

static void mr_alloc_bad(struct kunit *test)
{
	struct vk *v = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr(v->pd, IB_MR_TYPE_INTEGRITY, 4)),
			-EINVAL);
	/* tdev has no IBK_SG_GAPS_REG */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr(v->pd, IB_MR_TYPE_SG_GAPS, 4)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 100000)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr_integrity(v->pd, 4, 4)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

static void mr_status_and_pi_unsupported(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 4);
	struct ib_mr_status st;
	struct scatterlist sg;
	char *buf = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	sg_init_one(&sg, buf, 64);
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS, &st),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(mr, &sg, 1, NULL, NULL, 0, NULL,
					      PAGE_SIZE), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/* A page-aligned zeroed buffer of @n pages, freed by KUnit. */
static u8 *vk_pages(struct kunit *test, int n)
{
	u8 *p = kunit_kzalloc(test, n * PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(p));
	return p;
}

static void mr_map_constraints(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 4);
	u8 *buf = vk_pages(test, 8);
	struct scatterlist sg[3];
	unsigned int off;

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));

	/* First element at an offset, a shorter last element: all mapped */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf + 100, PAGE_SIZE - 100);
	sg_set_buf(&sg[1], buf + 2 * PAGE_SIZE, 10);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(v->dev, sg, 2, DMA_BIDIRECTIONAL), 2);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 2, NULL, PAGE_SIZE), 2);
	KUNIT_EXPECT_EQ(test, mr->iova, (u64)(uintptr_t)(buf + 100));
	KUNIT_EXPECT_EQ(test, mr->length, (u64)PAGE_SIZE - 100 + 10);
	KUNIT_EXPECT_EQ(test, mr->page_size, (unsigned int)PAGE_SIZE);

	/* An unaligned middle element that does not continue: prefix of 1 */
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], buf, PAGE_SIZE);
	sg_set_buf(&sg[1], buf + 3 * PAGE_SIZE + 8, 100);
	sg_set_buf(&sg[2], buf + 5 * PAGE_SIZE, PAGE_SIZE);
	ib_dma_map_sg(v->dev, sg, 3, DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 3, NULL, PAGE_SIZE), 1);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)PAGE_SIZE);

	/* More pages than max_num_sg (4): stops inside the second element */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 3 * PAGE_SIZE);
	sg_set_buf(&sg[1], buf + 4 * PAGE_SIZE, 3 * PAGE_SIZE);
	ib_dma_map_sg(v->dev, sg, 2, DMA_BIDIRECTIONAL);
	off = 0;
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 2, &off, PAGE_SIZE), 1);
	KUNIT_EXPECT_EQ(test, off, (unsigned int)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

static struct kunit_case mr_cases[] = {
	KUNIT_CASE(mr_alloc_and_dereg),
	KUNIT_CASE(mr_alloc_bad),
	KUNIT_CASE(mr_status_and_pi_unsupported),
	KUNIT_CASE(mr_map_constraints),
	{}
};

static struct kunit_suite mr_suite = {
	.name = "rdma_core_mr",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = mr_cases,
};

/* ---- rdma_core_ah ---- */

static void vk_ib_av(struct rdma_ah_attr *a, bool grh, u8 sgid_index)
{
	memset(a, 0, sizeof(*a));
	a->type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(a, 1);
	rdma_ah_set_dlid(a, 7);
	rdma_ah_set_sl(a, 2);
	if (grh) {
		rdma_ah_set_ah_flags(a, IB_AH_GRH);
		a->grh.sgid_index = sgid_index;
		a->grh.hop_limit = 64;
	}
}

static void ah_create_no_grh(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a, q;
	struct ib_ah *ah;

	vk_ib_av(&a, false, 0);
	ah = rdma_create_ah(v->pd, &a, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_PTR_EQ(test, ah->pd, v->pd);
	KUNIT_EXPECT_EQ(test, ah->type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 1);
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &q), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&q), 7U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&q), 2);
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &a), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

static void ah_create_grh_holds_gid(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a, q;
	union ib_gid gid;
	struct ib_ah *ah;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(v->dev, 1, 0, &gid), 0);
	vk_ib_av(&a, true, 0);
	ah = rdma_create_ah(v->pd, &a, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_ASSERT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, ah->sgid_attr->index, 0U);
	KUNIT_EXPECT_EQ(test, memcmp(&ah->sgid_attr->gid, &gid, sizeof(gid)), 0);
	/* The caller's vector holds no reference afterwards */
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &q), 0);
	KUNIT_EXPECT_PTR_EQ(test, q.grh.sgid_attr, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, 0, NULL), 0);
}

static void ah_create_bad(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a;

	vk_ib_av(&a, true, 15);		/* an empty GID slot */
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_create_ah(v->pd, &a, 0)));
	vk_ib_av(&a, true, 200);	/* beyond the table */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(v->pd, &a, 0)), -EINVAL);
	vk_ib_av(&a, false, 0);
	a.type = RDMA_AH_ATTR_TYPE_ROCE;	/* RoCE needs a GRH */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(v->pd, &a, 0)), -EINVAL);
	vk_ib_av(&a, false, 0);
	rdma_ah_set_port_num(&a, 3);	/* the driver checks the port */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(v->pd, &a, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

static void ah_caller_sgid_attr_checked(struct kunit *test)
{
	struct vk *v = test->priv;
	const struct ib_gid_attr *g = rdma_get_gid_attr(v->dev, 1, 0);
	struct rdma_ah_attr a;
	struct ib_ah *ah;

	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	vk_ib_av(&a, true, 0);
	a.grh.sgid_attr = g;
	ah = rdma_create_ah(v->pd, &a, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_PTR_EQ(test, ah->sgid_attr, g);
	/* The caller's reference is still the caller's */
	KUNIT_EXPECT_PTR_EQ(test, a.grh.sgid_attr, g);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, 0, NULL), 0);
	/* A GID attribute that is not the slot the vector names */
	a.grh.sgid_index = 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(v->pd, &a, 0)), -EINVAL);
	rdma_destroy_ah_attr(&a);
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);
}

static void ah_attr_copy_move_replace(struct kunit *test)
{
	struct vk *v = test->priv;
	struct rdma_ah_attr a, b, c;
	const struct ib_gid_attr *g = rdma_get_gid_attr(v->dev, 1, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	vk_ib_av(&a, true, 0);
	a.grh.sgid_attr = g;			/* a owns one reference */

	rdma_copy_ah_attr(&b, &a);		/* b owns another */
	KUNIT_EXPECT_PTR_EQ(test, b.grh.sgid_attr, g);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&b), 7U);

	vk_ib_av(&c, false, 0);
	rdma_ah_set_dlid(&c, 9);
	rdma_replace_ah_attr(&b, &c);		/* drops b's, c has none */
	KUNIT_EXPECT_NULL(test, b.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&b), 9U);

	rdma_replace_ah_attr(&b, &a);		/* b owns one again */
	KUNIT_EXPECT_PTR_EQ(test, b.grh.sgid_attr, g);

	rdma_move_ah_attr(&c, &b);		/* moves b's to c */
	KUNIT_EXPECT_PTR_EQ(test, c.grh.sgid_attr, g);
	KUNIT_EXPECT_NULL(test, b.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&c), 7U);

	rdma_move_ah_attr(&c, &a);		/* drops c's, takes a's */
	KUNIT_EXPECT_PTR_EQ(test, c.grh.sgid_attr, g);
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);

	rdma_destroy_ah_attr(&c);		/* the last reference */
	KUNIT_EXPECT_NULL(test, c.grh.sgid_attr);
	rdma_destroy_ah_attr(&c);		/* harmless twice */
	rdma_destroy_ah_attr(&b);
	/* KASAN/kmemleak see an unbalanced count at device teardown */
}

static void ah_attr_from_wc_ib(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_wc wc = { .slid = 12, .sl = 3, .dlid_path_bits = 1 };
	struct rdma_ah_attr a;

	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(v->dev, 1, &wc, NULL, &a), 0);
	KUNIT_EXPECT_EQ(test, a.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a), 12U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&a), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_path_bits(&a), 1);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&a), 1U);
	KUNIT_EXPECT_FALSE(test, rdma_ah_get_ah_flags(&a) & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(v->dev, 2, &wc, NULL, &a),
			-EINVAL);
}

static void ah_attr_from_wc_grh(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_wc wc = { .slid = 12, .wc_flags = IB_WC_GRH };
	struct ib_grh grh = {};
	struct rdma_ah_attr a;
	struct ib_ah *ah;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(v->dev, 1, 0, &grh.dgid), 0);
	grh.sgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	grh.sgid.global.interface_id = cpu_to_be64(0x1122334455667788ULL);
	grh.version_tclass_flow = cpu_to_be32(6 << 28 | 0x25 << 20 | 0xabcde);
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(v->dev, 1, &wc, &grh, &a), 0);
	KUNIT_EXPECT_TRUE(test, rdma_ah_get_ah_flags(&a) & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, memcmp(&a.grh.dgid, &grh.sgid, 16), 0);
	KUNIT_EXPECT_EQ(test, a.grh.flow_label, 0xabcdeU);
	KUNIT_EXPECT_EQ(test, a.grh.traffic_class, 0x25);
	KUNIT_ASSERT_NOT_NULL(test, a.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, a.grh.sgid_attr->index, 0U);
	KUNIT_EXPECT_EQ(test, a.grh.sgid_index, 0);
	rdma_destroy_ah_attr(&a);

	ah = ib_create_ah_from_wc(v->pd, &wc, &grh, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE, NULL), 0);

	/* A packet for a GID that is not ours */
	grh.dgid.global.interface_id ^= cpu_to_be64(1);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(v->dev, 1, &wc, &grh, &a),
			-ENOENT);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_create_ah_from_wc(v->pd, &wc, &grh, 1)));
}

static struct kunit_case ah_cases[] = {
	KUNIT_CASE(ah_create_no_grh),
	KUNIT_CASE(ah_create_grh_holds_gid),
	KUNIT_CASE(ah_create_bad),
	KUNIT_CASE(ah_caller_sgid_attr_checked),
	KUNIT_CASE(ah_attr_copy_move_replace),
	KUNIT_CASE(ah_attr_from_wc_ib),
	KUNIT_CASE(ah_attr_from_wc_grh),
	{}
};

static struct kunit_suite ah_suite = {
	.name = "rdma_core_ah",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = ah_cases,
};

kunit_test_suites(&qp_suite, &srq_suite, &cqo_suite, &mr_suite, &ah_suite);
