// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_qp: hw/rxe/qp.c, queue pairs' control path as a
 * kernel consumer drives it: types and sizes granted and refused, the
 * sizes a QP reports against its rings, numbers, the state machine (the
 * transitions and attributes the specification allows, values beyond
 * what the device takes refused with nothing changed), query, RESET
 * emptying the rings, max_qp.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/inet.h>
#include "dev.h"
#include "qp.h"

static struct sr_dev *qt_dev(struct kunit *test)
{
	struct sr_dev *sdev;

	if (!test->priv) {
		sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, sdev);
		xa_init_flags(&sdev->qps, XA_FLAGS_ALLOC);
		test->priv = sdev;
	}
	return test->priv;
}

static void qt_free(struct kunit_resource *res)
{
	sr_destroy_qp(res->data, NULL);
}

/* A QP as the core hands it to create_qp; its result in @err. */
static struct sr_qp *qt_try(struct kunit *test, enum ib_qp_type type,
			    struct ib_qp_cap *cap, int *err)
{
	struct ib_qp_init_attr init = { .qp_type = type,
					.sq_sig_type = IB_SIGNAL_REQ_WR };
	struct sr_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, qp);
	if (cap)
		init.cap = *cap;
	qp->ibqp.device = &qt_dev(test)->ibdev;
	qp->ibqp.qp_type = type;
	*err = sr_create_qp(&qp->ibqp, &init, NULL);
	if (*err)
		return NULL;
	if (!kunit_alloc_resource(test, NULL, qt_free, GFP_KERNEL,
				  &qp->ibqp)) {
		sr_destroy_qp(&qp->ibqp, NULL);
		KUNIT_ASSERT_FAILURE(test, "no room to track the QP");
	}
	if (cap)
		*cap = init.cap;
	return qp;
}

static struct sr_qp *qt_new(struct kunit *test, enum ib_qp_type type)
{
	struct sr_qp *qp;
	int err;

	qp = qt_try(test, type, NULL, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	return qp;
}

static void qt_create(struct kunit *test)
{
	struct ib_qp_cap cap = { .max_send_wr = 20, .max_recv_wr = 30,
				 .max_send_sge = 2, .max_recv_sge = 3,
				 .max_inline_data = 100 };
	struct ib_qp_cap big;
	struct sr_qp *qp;
	int err;

	qp = qt_try(test, IB_QPT_RC, &cap, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	/* What it reports is what its rings hold */
	KUNIT_EXPECT_GE(test, cap.max_send_wr, 20);
	KUNIT_EXPECT_EQ(test, cap.max_send_wr, sr_queue_depth(&qp->sq));
	KUNIT_EXPECT_GE(test, cap.max_recv_wr, 30);
	KUNIT_EXPECT_EQ(test, cap.max_recv_wr, sr_queue_depth(&qp->rq));
	KUNIT_EXPECT_GE(test, cap.max_send_sge, 2);
	KUNIT_EXPECT_EQ(test, cap.max_recv_sge, 3);
	KUNIT_EXPECT_GE(test, cap.max_inline_data, 100);
	KUNIT_EXPECT_GE(test, sr_queue_elem(&qp->sq),
			sizeof(struct rxe_send_wqe) + cap.max_inline_data);
	KUNIT_EXPECT_GE(test, sr_queue_elem(&qp->sq),
			sizeof(struct rxe_send_wqe) +
			cap.max_send_sge * sizeof(struct rxe_sge));
	KUNIT_EXPECT_GE(test, sr_queue_elem(&qp->rq),
			sizeof(struct rxe_recv_wqe) +
			cap.max_recv_sge * sizeof(struct rxe_sge));
	KUNIT_EXPECT_EQ(test, qp->state, IB_QPS_RESET);
	KUNIT_EXPECT_GE(test, qp->ibqp.qp_num, SR_QPN_FIRST);
	KUNIT_EXPECT_PTR_EQ(test, xa_load(&qt_dev(test)->qps,
					  qp->ibqp.qp_num), (void *)qp);

	KUNIT_EXPECT_NULL(test, qt_try(test, IB_QPT_RAW_PACKET, NULL, &err));
	KUNIT_EXPECT_EQ(test, err, -EOPNOTSUPP);
	KUNIT_EXPECT_NULL(test, qt_try(test, IB_QPT_XRC_INI, NULL, &err));
	KUNIT_EXPECT_EQ(test, err, -EOPNOTSUPP);
	big = (struct ib_qp_cap){ .max_send_wr = SR_MAX_QP_WR + 1 };
	KUNIT_EXPECT_NULL(test, qt_try(test, IB_QPT_RC, &big, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	big = (struct ib_qp_cap){ .max_recv_sge = SR_MAX_SGE + 1 };
	KUNIT_EXPECT_NULL(test, qt_try(test, IB_QPT_UD, &big, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	big = (struct ib_qp_cap){ .max_inline_data = SR_MAX_INLINE + 1 };
	KUNIT_EXPECT_NULL(test, qt_try(test, IB_QPT_UC, &big, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	/* Refusals take no number and count nothing */
	KUNIT_EXPECT_EQ(test, atomic_read(&qt_dev(test)->n_qp), 1);
}

/* A RoCE v2 path to 10.11.0.2 from 10.11.0.1 (its GID attribute). */
static void qt_path(struct kunit *test, struct rdma_ah_attr *ah)
{
	struct ib_gid_attr *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	struct net_device *ndev = kunit_kzalloc(test, sizeof(*ndev),
						GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	RCU_INIT_POINTER(g->ndev, ndev);
	g->gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP;
	ipv6_addr_set_v4mapped(htonl(0x0a0b0001),
			       (struct in6_addr *)g->gid.raw);
	memset(ah, 0, sizeof(*ah));
	ah->type = RDMA_AH_ATTR_TYPE_ROCE;
	ah->ah_flags = IB_AH_GRH;
	ah->grh.sgid_attr = g;
	ipv6_addr_set_v4mapped(htonl(0x0a0b0002),
			       (struct in6_addr *)ah->grh.dgid.raw);
	ah->grh.hop_limit = 64;
}

static int qt_modify(struct sr_qp *qp, struct ib_qp_attr *a, int mask)
{
	return sr_modify_qp(&qp->ibqp, a, mask, NULL);
}

/* RC through INIT, RTR and RTS; what is refused changes nothing. */
static void qt_states(struct kunit *test)
{
	struct sr_qp *qp = qt_new(test, IB_QPT_RC);
	struct ib_qp_init_attr init;
	struct ib_qp_attr a = {}, q;
	int rtr = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
		  IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
		  IB_QP_MIN_RNR_TIMER;
	int rts = IB_QP_STATE | IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
		  IB_QP_RNR_RETRY | IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC;
	int init_mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
			IB_QP_ACCESS_FLAGS;

	/* Not the next state; and INIT without what INIT requires */
	a.qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, IB_QP_STATE), -EINVAL);
	a.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, IB_QP_STATE), -EINVAL);
	a.port_num = 2;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, init_mask), -EINVAL);
	a.port_num = 1;
	a.pkey_index = 1;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, init_mask), -EINVAL);
	a.pkey_index = 0;
	a.qp_access_flags = IB_ACCESS_REMOTE_WRITE;
	/* An attribute the device does not take */
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, init_mask | IB_QP_ALT_PATH),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, qp->state, IB_QPS_RESET);
	KUNIT_ASSERT_EQ(test, qt_modify(qp, &a, init_mask), 0);
	KUNIT_EXPECT_EQ(test, qp->state, IB_QPS_INIT);

	a.qp_state = IB_QPS_RTR;
	qt_path(test, &a.ah_attr);
	a.path_mtu = IB_MTU_1024;
	a.dest_qp_num = 0x123;
	a.rq_psn = 0x1abcdef;	/* 25 bits: the PSN keeps 24 */
	a.max_dest_rd_atomic = SR_MAX_RD_ATOMIC + 1;
	a.min_rnr_timer = 12;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, rtr), -EINVAL);
	a.max_dest_rd_atomic = 4;
	a.dest_qp_num = SR_QPN_LAST + 1;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, rtr), -EINVAL);
	a.dest_qp_num = 0x123;
	a.ah_attr.ah_flags = 0;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, rtr), -EINVAL);
	a.ah_attr.ah_flags = IB_AH_GRH;
	KUNIT_EXPECT_EQ(test, qp->state, IB_QPS_INIT);
	KUNIT_ASSERT_EQ(test, qt_modify(qp, &a, rtr), 0);
	KUNIT_EXPECT_EQ(test, ntohl(qp->av.daddr.s6_addr32[3]), 0x0a0b0002);

	a.qp_state = IB_QPS_RTS;
	a.timeout = 32;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0x654321;
	a.max_rd_atomic = 4;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, rts), -EINVAL);
	a.timeout = 14;
	a.retry_cnt = 8;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, rts), -EINVAL);
	a.retry_cnt = 7;
	KUNIT_ASSERT_EQ(test, qt_modify(qp, &a, rts), 0);

	/* Read back: every attribute as set, the source GID not kept */
	KUNIT_ASSERT_EQ(test, sr_query_qp(&qp->ibqp, &q, 0, &init), 0);
	KUNIT_EXPECT_EQ(test, q.qp_state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, q.qp_access_flags, IB_ACCESS_REMOTE_WRITE);
	KUNIT_EXPECT_EQ(test, q.port_num, 1);
	KUNIT_EXPECT_EQ(test, q.path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, q.dest_qp_num, 0x123);
	KUNIT_EXPECT_EQ(test, q.rq_psn, 0xabcdef);
	KUNIT_EXPECT_EQ(test, q.sq_psn, 0x654321);
	KUNIT_EXPECT_EQ(test, q.max_dest_rd_atomic, 4);
	KUNIT_EXPECT_EQ(test, q.max_rd_atomic, 4);
	KUNIT_EXPECT_EQ(test, q.min_rnr_timer, 12);
	KUNIT_EXPECT_EQ(test, q.timeout, 14);
	KUNIT_EXPECT_EQ(test, q.retry_cnt, 7);
	KUNIT_EXPECT_EQ(test, q.rnr_retry, 7);
	KUNIT_EXPECT_EQ(test, q.ah_attr.grh.hop_limit, 64);
	KUNIT_EXPECT_NULL(test, q.ah_attr.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, init.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, init.cap.max_send_wr, sr_queue_depth(&qp->sq));
	KUNIT_EXPECT_EQ(test, init.sq_sig_type, IB_SIGNAL_REQ_WR);

	/* Back is refused; a wrong current state too; SQD is not supported */
	a.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, IB_QP_STATE), -EINVAL);
	/* RTR to RTS would be a transition; but the QP is in RTS */
	a.qp_state = IB_QPS_RTS;
	a.cur_qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, rts | IB_QP_CUR_STATE),
			-EINVAL);
	a.qp_state = IB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, IB_QP_STATE), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, qp->state, IB_QPS_RTS);
	a.qp_state = IB_QPS_ERR;
	KUNIT_EXPECT_EQ(test, qt_modify(qp, &a, IB_QP_STATE), 0);
}

/* A move to RESET empties both rings, at both ends. */
static void qt_reset(struct kunit *test)
{
	struct ib_qp_cap cap = { .max_send_wr = 8, .max_recv_wr = 8 };
	struct ib_qp_attr a = { .qp_state = IB_QPS_INIT, .port_num = 1,
				.qkey = 0x11111111 };
	struct sr_qp *qp;
	int i;

	qp = qt_try(test, IB_QPT_UD, &cap, &i);
	KUNIT_ASSERT_EQ(test, i, 0);

	KUNIT_ASSERT_EQ(test, qt_modify(qp, &a, IB_QP_STATE | IB_QP_PORT |
					IB_QP_PKEY_INDEX | IB_QP_QKEY), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_NOT_NULL(test, sr_queue_next(&qp->sq));
		sr_queue_produced(&qp->sq);
		KUNIT_ASSERT_NOT_NULL(test, sr_queue_next(&qp->rq));
		sr_queue_produced(&qp->rq);
	}
	sr_queue_consumed(&qp->sq);
	KUNIT_EXPECT_EQ(test, sr_queue_count(&qp->sq), 2);
	a.qp_state = IB_QPS_RESET;
	KUNIT_ASSERT_EQ(test, qt_modify(qp, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, sr_queue_count(&qp->sq), 0);
	KUNIT_EXPECT_EQ(test, sr_queue_count(&qp->rq), 0);
	KUNIT_EXPECT_EQ(test, sr_queue_room(&qp->sq),
			sr_queue_depth(&qp->sq));
	KUNIT_EXPECT_EQ(test, qp->sq.buf->producer_index, 0);
	KUNIT_EXPECT_EQ(test, qp->sq.buf->consumer_index, 0);
	KUNIT_EXPECT_EQ(test, qp->rq.buf->producer_index, 0);
}

/* Numbers unique and given back; no more than max_qp QPs. */
static void qt_numbers(struct kunit *test)
{
	struct sr_dev *sdev = qt_dev(test);
	struct sr_qp *qp[20];
	u32 qpn;
	int i, j, err;

	for (i = 0; i < ARRAY_SIZE(qp); i++) {
		qp[i] = qt_new(test, i & 1 ? IB_QPT_UD : IB_QPT_RC);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, qp[i]->ibqp.qp_num,
					qp[j]->ibqp.qp_num);
	}
	qpn = qp[0]->ibqp.qp_num;
	KUNIT_EXPECT_PTR_EQ(test, xa_load(&sdev->qps, qpn), (void *)qp[0]);
	atomic_set(&sdev->n_qp, SR_MAX_QP);
	KUNIT_EXPECT_NULL(test, qt_try(test, IB_QPT_RC, NULL, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	atomic_set(&sdev->n_qp, ARRAY_SIZE(qp));
}

static struct kunit_case qt_cases[] = {
	KUNIT_CASE(qt_create),
	KUNIT_CASE(qt_states),
	KUNIT_CASE(qt_reset),
	KUNIT_CASE(qt_numbers),
	{}
};

static struct kunit_suite qt_suite = {
	.name = "rdma_rxe_qp",
	.test_cases = qt_cases,
};
kunit_test_suite(qt_suite);
