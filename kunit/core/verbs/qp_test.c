// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_qp: core/verbs/qp.c, creating, modifying, querying
 * and destroying QPs on the test device: the references a QP holds, bad
 * attributes, state changes, the GIDs the address vectors hold, and the
 * consumer's event handler getting the QP's asynchronous events.
 *
 * The test device checks transitions against its own state machine only
 * (no attribute masks, no port or P_Key bounds): those checks are the
 * core's, or the consumer's business.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include "tk.h"
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

	/* Reset straight to RTS: the device's state machine refuses it */
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN),
			-EINVAL);
	/* A port the device lacks: the core refuses it */
	a.qp_state = IB_QPS_INIT;
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

/*
 * A user's modify (ib_modify_qp_with_udata()) of a RoCE QP's path gets its
 * destination MAC from the destination GID; a kernel caller's
 * (ib_modify_qp()) comes resolved and is left as it is.
 */
static void qp_modify_with_udata_roce_dmac(struct kunit *test)
{
	static const u8 ll_mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	const struct tdev_params params = { .roce = true };
	const int rtr = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
	struct ib_udata udata = {};
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a;
	struct ib_qp *qp;

	vk_reinit(test, &params);
	qp = vk_qp_alone(test, IB_QPT_RC);
	vk_qp_init_for_rtr(test, qp, &a);
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	a.max_dest_rd_atomic = 1;
	rdma_ah_set_ah_flags(&a.ah_attr, IB_AH_GRH);
	a.ah_attr.grh.sgid_index = 0;
	a.ah_attr.grh.hop_limit = 1;
	/* An address no route leads to: refused, the QP stays in INIT */
	a.ah_attr.grh.dgid.global.subnet_prefix = cpu_to_be64(0x20010db800000000ULL);
	a.ah_attr.grh.dgid.global.interface_id = cpu_to_be64(1);
	KUNIT_EXPECT_LT(test, ib_modify_qp_with_udata(qp, &a, rtr, &udata), 0);
	KUNIT_EXPECT_EQ(test, vk_state(qp), IB_QPS_INIT);
	KUNIT_EXPECT_NULL(test, qp->av_sgid_attr);

	/* fe80::11:22ff:fe33:4455 is the link-local GID of 02:11:22:33:44:55 */
	a.ah_attr.grh.dgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	a.ah_attr.grh.dgid.global.interface_id = cpu_to_be64(0x001122fffe334455ULL);
	KUNIT_ASSERT_EQ(test, ib_modify_qp_with_udata(qp, &a, rtr, &udata), 0);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_AV, &ia), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal_unaligned(a.ah_attr.roce.dmac, ll_mac));
	vk_qp_alone_free(test, qp);

	/* The kernel's own modify does not touch the MAC it was given */
	qp = vk_qp_alone(test, IB_QPT_RC);
	vk_qp_init_for_rtr(test, qp, &a);
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	a.max_dest_rd_atomic = 1;
	rdma_ah_set_ah_flags(&a.ah_attr, IB_AH_GRH);
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.grh.dgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	a.ah_attr.grh.dgid.global.interface_id = cpu_to_be64(0x001122fffe334455ULL);
	eth_broadcast_addr(a.ah_attr.roce.dmac);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, rtr), 0);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_AV, &ia), 0);
	KUNIT_EXPECT_TRUE(test, is_broadcast_ether_addr(a.ah_attr.roce.dmac));
	vk_qp_alone_free(test, qp);
}

/*
 * Issue 12, lower: the alternate path's port is validated before it is
 * used.  Before the fix rdma_protocol_ib() read port_data[] at the
 * unchecked port: KASAN saw the read past the array.
 */
static void qp_modify_alt_path_port(struct kunit *test)
{
	struct ib_qp *qp = vk_qp_alone(test, IB_QPT_RC);
	int mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
		   IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
		   IB_QP_MIN_RNR_TIMER | IB_QP_ALT_PATH;
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a;

	vk_qp_init_for_rtr(test, qp, &a);
	a.max_dest_rd_atomic = 1;
	a.alt_ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	a.alt_port_num = 1;
	a.alt_timeout = 10;
	rdma_ah_set_port_num(&a.alt_ah_attr, 2);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, mask), -EINVAL);
	rdma_ah_set_port_num(&a.alt_ah_attr, 0);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, mask), -EINVAL);
	rdma_ah_set_port_num(&a.alt_ah_attr, 200);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, vk_state(qp), IB_QPS_INIT);
	/* A valid alternate path with a GRH: its GID is held */
	rdma_ah_set_port_num(&a.alt_ah_attr, 1);
	rdma_ah_set_ah_flags(&a.alt_ah_attr, IB_AH_GRH);
	a.alt_ah_attr.grh.sgid_index = 0;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, mask), 0);
	KUNIT_ASSERT_NOT_NULL(test, qp->alt_path_sgid_attr);
	KUNIT_EXPECT_EQ(test, qp->alt_path_sgid_attr->index, 0U);
	KUNIT_EXPECT_NULL(test, a.alt_ah_attr.grh.sgid_attr);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_ALT_PATH, &ia), 0);
	KUNIT_EXPECT_PTR_EQ(test, a.alt_ah_attr.grh.sgid_attr,
			    qp->alt_path_sgid_attr);
	vk_qp_alone_free(test, qp);
}

/* What a QP's event handler got, and with which context. */
struct tk_qp_events {
	atomic_t n[IB_EVENT_WQ_FATAL + 1];
	struct ib_qp *qp;
	bool wrong;
};

static void tk_qp_event(struct ib_event *e, void *ctx)
{
	struct tk_qp_events *ev = ctx;

	if (e->element.qp != ev->qp || e->event > IB_EVENT_WQ_FATAL)
		ev->wrong = true;
	else
		atomic_inc(&ev->n[e->event]);
}

/* A QP with tk_qp_event as its event handler. */
static struct ib_qp *tk_qp_with_events(struct kunit *test,
				       struct tk_qp_events *ev,
				       struct ib_cq *cq, struct ib_srq *srq)
{
	struct vk *v = test->priv;
	struct ib_qp_init_attr ia = {
		.qp_type = IB_QPT_RC, .send_cq = cq, .recv_cq = cq, .srq = srq,
		.event_handler = tk_qp_event, .qp_context = ev,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 8, .max_recv_wr = srq ? 0 : 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_qp *qp;

	memset(ev, 0, sizeof(*ev));
	qp = ib_create_qp(v->pd, &ia);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	ev->qp = qp;
	KUNIT_EXPECT_PTR_EQ(test, qp->qp_context, (void *)ev);
	return qp;
}

/*
 * The consumer's handler gets the QP's affiliated events, from the
 * device's interrupt context: QP_FATAL, COMM_EST (a message arrives in
 * RTR), LAST_WQE_REACHED (a QP on an SRQ enters the error state).
 */
static void qp_async_events(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_srq_init_attr sa = { .srq_type = IB_SRQT_BASIC,
				       .attr = { .max_wr = 4, .max_sge = 1 } };
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct tk_qp_events ea, eb;
	struct ib_qp_attr a = {};
	struct ib_srq *srq;
	struct ib_qp *qa, *qb;
	struct ib_send_wr s = { .opcode = IB_WR_SEND };
	const struct ib_send_wr *bad;
	struct ib_recv_wr r = {};
	const struct ib_recv_wr *rbad;
	struct ib_wc wc[4];

	srq = ib_create_srq(v->pd, &sa);
	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	qa = tk_qp_with_events(test, &ea, cq, NULL);
	qb = tk_qp_with_events(test, &eb, cq, srq);
	KUNIT_ASSERT_EQ(test, vk_connect(qa, qb->qp_num), 0);
	/* b only as far as RTR: the first message establishes it */
	a.qp_state = IB_QPS_INIT;
	a.port_num = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qb, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), 0);
	a.qp_state = IB_QPS_RTR;
	a.dest_qp_num = qa->qp_num;
	a.path_mtu = IB_MTU_1024;
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(&a.ah_attr, 1);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qb, &a, IB_QP_STATE | IB_QP_AV |
					   IB_QP_PATH_MTU | IB_QP_DEST_QPN |
					   IB_QP_RQ_PSN |
					   IB_QP_MAX_DEST_RD_ATOMIC |
					   IB_QP_MIN_RNR_TIMER), 0);
	KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, &r, &rbad), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(qa, &s, &bad), 0);
	KUNIT_ASSERT_EQ(test, vk_poll_wait(cq, 1, wc), 1);
	KUNIT_EXPECT_PTR_EQ(test, wc[0].qp, qb);
	KUNIT_EXPECT_EQ(test, atomic_read(&eb.n[IB_EVENT_COMM_EST]), 1);

	tdev_qp_fatal(qa);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&ea.n[IB_EVENT_QP_FATAL]) == 1));
	KUNIT_EXPECT_EQ(test, vk_state(qa), IB_QPS_ERR);

	a.qp_state = IB_QPS_ERR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qb, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&eb.n[IB_EVENT_QP_LAST_WQE_REACHED]) == 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&ea.n[IB_EVENT_QP_LAST_WQE_REACHED]), 0);
	KUNIT_EXPECT_FALSE(test, ea.wrong || eb.wrong);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qa), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qb), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	ib_free_cq(cq);
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
	KUNIT_CASE(qp_modify_with_udata_roce_dmac),
	KUNIT_CASE(qp_modify_alt_path_port),
	KUNIT_CASE(qp_async_events),
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
