// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_qp: core/verbs/qp.c, creating, modifying, querying
 * and destroying QPs on the test device: the references a QP holds, bad
 * attributes, state changes and the GID an address vector holds.
 */
#include <kunit/test.h>
#include "vk.h"

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
	struct ib_qp *qp = vk_qp_alone(test, IB_QPT_RC);
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
	vk_qp_alone_free(test, qp);
}

static void qp_sqd_error_reset_cycle(struct kunit *test)
{
	struct ib_qp *qp = vk_qp_alone(test, IB_QPT_RC);
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
	vk_qp_alone_free(test, qp);
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
	struct ib_qp *qp = vk_qp_alone(test, IB_QPT_UC);
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
	vk_qp_alone_free(test, qp);
}

static void qp_av_with_grh_holds_gid(struct kunit *test)
{
	struct ib_qp *qp = vk_qp_alone(test, IB_QPT_RC);
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
	vk_qp_alone_free(test, qp);
}

static void qp_destroy_busy(struct kunit *test)
{
	struct ib_qp *qp = vk_qp_alone(test, IB_QPT_RC);

	/* As a multicast attach or an open of the QP would */
	atomic_inc(&qp->usecnt);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), -EBUSY);
	atomic_dec(&qp->usecnt);
	vk_qp_alone_free(test, qp);
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
	struct ib_qp *qp = vk_qp_alone(test, IB_QPT_RC);

	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(v->pd, NULL), -EBUSY);
	vk_qp_alone_free(test, qp);
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

kunit_test_suites(&qp_suite);
