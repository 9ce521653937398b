// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_ud: the UD data path of hw/rxe (post.c, req.c,
 * xmit.c, recv.c, resp.c) end to end, through the kernel's own IP stack:
 * a device over the loopback netdev, whose packets leave through
 * sr_xmit(), come back through lo and reach the suite's RoCEv2 sockets
 * (127.0.0.1 and ::1, port 4791), which hand them to sr_recv() as the
 * driver's sockets do.  Messages go from one UD QP to another over IPv4
 * and IPv6, with immediate data, inline, gathered from several entries,
 * and into an SRQ (its limit reported); then what must fail: posts
 * refused (state, opcode, sizes, full rings, posts with interrupts off
 * left to the QP's work), a Q_Key, a P_Key or a state that drops, a
 * missing WQE, a message too long for the buffer or the MTU, an lkey
 * the QP may not use (its QP to ERR and the rest flushed), an AH of
 * another PD.
 *
 * It needs port 4791 free in the initial namespace (no RoCEv2 driver
 * loaded); otherwise it is skipped.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/ip.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include "dev.h"
#include "loop.h"
#include "mem.h"
#include "post.h"

/* A UD send WR to @to through @ah, of @n entries of @sge. */
static void ut_wr(struct ib_ud_wr *wr, u64 id, struct sr_ah *ah,
		  struct sr_qp *to, struct ib_sge *sge, int n)
{
	*wr = (struct ib_ud_wr){
		.wr = { .wr_id = id, .opcode = IB_WR_SEND, .sg_list = sge,
			.num_sge = n, .send_flags = IB_SEND_SIGNALED },
		.ah = &ah->ibah,
		.remote_qpn = to->ibqp.qp_num,
		.remote_qkey = LP_QKEY,
	};
}

static int ut_send(struct lp_env *env, struct sr_qp *qp, struct ib_ud_wr *wr)
{
	const struct ib_send_wr *bad;

	return sr_post_send(&qp->ibqp, &wr->wr, &bad);
}

/* One message each way of the families, checked byte by byte. */
static void ut_message(struct kunit *test, const char *addr, bool ipv4)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_ah *ah = lp_ah(test, env, env->pd, addr);
	u8 *src = kunit_kmalloc(test, 3000, GFP_KERNEL);
	u8 *dst = kunit_kzalloc(test, 4096, GFP_KERNEL);
	struct ib_sge sge[3];
	struct ib_ud_wr wr;
	struct ib_wc wc;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	for (i = 0; i < 3000; i++)
		src[i] = i * 13 + (i >> 8);
	/* Gathered from three entries, one of them empty */
	sge[0] = (struct ib_sge){ (uintptr_t)src, 1000, env->mr->ibmr.lkey };
	sge[1] = (struct ib_sge){ (uintptr_t)src + 1000, 0,
				  env->mr->ibmr.lkey };
	sge[2] = (struct ib_sge){ (uintptr_t)src + 1000, 2000,
				  env->mr->ibmr.lkey };
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 7, dst, 4096), 0);
	ut_wr(&wr, 9, ah, b, sge, 3);
	wr.wr.opcode = IB_WR_SEND_WITH_IMM;
	wr.wr.ex.imm_data = cpu_to_be32(0xabcdef01);
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);

	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 9);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_SEND);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 7);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 40 + 3000);
	KUNIT_EXPECT_EQ(test, wc.src_qp, a->ibqp.qp_num);
	KUNIT_EXPECT_PTR_EQ(test, wc.qp, &b->ibqp);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & IB_WC_GRH);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc.ex.imm_data), 0xabcdef01);
	KUNIT_EXPECT_EQ(test, wc.network_hdr_type,
			ipv4 ? RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 40, src, 3000), 0);
	KUNIT_EXPECT_EQ(test, dst[40 + 3000], 0);
	if (ipv4) {
		/* 20 bytes of zeros, then the IPv4 header */
		KUNIT_EXPECT_EQ(test, dst[0], 0);
		KUNIT_EXPECT_EQ(test, dst[19], 0);
		KUNIT_EXPECT_EQ(test, dst[20], 0x45);
		KUNIT_EXPECT_EQ(test,
				be32_to_cpu(((struct iphdr *)(dst + 20))->saddr),
				INADDR_LOOPBACK);
	} else {
		KUNIT_EXPECT_EQ(test, dst[0] >> 4, 6);
		KUNIT_EXPECT_EQ(test, dst[39], 1);	/* ::1 */
	}
	KUNIT_EXPECT_EQ(test, sr_counter_read(&env->sdev->counters,
					      SR_SENT_PKTS), 1);
	KUNIT_EXPECT_EQ(test, sr_counter_read(&env->sdev->counters,
					      SR_RCVD_PKTS), 1);
	KUNIT_EXPECT_EQ(test, sr_counter_read(&env->sdev->counters,
					      SR_SEND_ERR), 0);
}

static void ut_ipv4(struct kunit *test)
{
	ut_message(test, "127.0.0.1", true);
}

static void ut_ipv6(struct kunit *test)
{
	ut_message(test, "::1", false);
}

/* Inline data, and unsignaled sends that complete nothing. */
static void ut_inline(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	char msg[] = "inline!", *dst = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_sge sge = { (uintptr_t)msg, sizeof(msg), 0 };
	struct ib_ud_wr wr;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 1, dst, 64), 0);
	ut_wr(&wr, 2, ah, b, &sge, 1);
	wr.wr.send_flags = IB_SEND_INLINE;
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	/* The buffer may change once posted: the data went with the WQE */
	msg[0] = 'X';
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.byte_len, 40 + sizeof(msg));
	KUNIT_EXPECT_STREQ(test, dst + 40, "inline!");
	lp_expect_none(test, to_sr_cq(a->ibqp.send_cq));
}

/* An SRQ feeds two QPs; its limit is reported once, when crossed. */
static void ut_srq_feeds(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_srq *srq = lp_srq(test, env, 2);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, srq, IB_QPS_RTS);
	struct sr_qp *c = lp_qp(test, env, IB_QPT_UD, srq, IB_QPS_RTS);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	u8 *dst = kunit_kzalloc(test, 4 * 128, GFP_KERNEL);
	u32 word = 0x01020304;
	struct ib_sge sge = { (uintptr_t)&word, 4, env->mr->ibmr.lkey };
	struct ib_ud_wr wr;
	struct ib_wc wc;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dst);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, lp_srq_recv(env, srq, 10 + i,
						  dst + i * 128, 128), 0);
	for (i = 0; i < 3; i++) {
		ut_wr(&wr, i, ah, i & 1 ? c : b, &sge, 1);
		KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
		KUNIT_ASSERT_TRUE(test,
				  lp_poll(to_sr_cq((i & 1 ? c : b)->ibqp.recv_cq),
					  &wc));
		/* The SRQ's WQEs in the order they were posted */
		KUNIT_EXPECT_EQ(test, wc.wr_id, 10 + i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, memcmp(dst + i * 128 + 40, &word, 4), 0);
		/* Four, three left, two left: below 2 only after the third */
		KUNIT_EXPECT_EQ(test, env->srq_events, i == 2 ? 1 : 0);
	}
	KUNIT_EXPECT_EQ(test, srq->limit, 0);
}

/* Posts refused, and the WRs before a refusal still sent. */
static void ut_post_refused(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *init = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_INIT);
	struct sr_qp *rc = lp_qp(test, env, IB_QPT_RC, NULL, IB_QPS_RESET);
	struct sr_qp *reset = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RESET);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	u8 *big = kunit_kzalloc(test, 1024, GFP_KERNEL);
	struct ib_sge sge[SR_MAX_SGE + 1];
	const struct ib_send_wr *bad;
	const struct ib_recv_wr *rbad;
	struct ib_recv_wr rwr = { .sg_list = sge, .num_sge = 4 };
	struct ib_ud_wr wr, wr2;
	struct ib_wc wc;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, big);
	for (i = 0; i < ARRAY_SIZE(sge); i++)
		sge[i] = (struct ib_sge){ (uintptr_t)big, 8,
					  env->mr->ibmr.lkey };
	ut_wr(&wr, 1, ah, b, sge, 1);
	/* Not yet in RTS, or not UD */
	KUNIT_EXPECT_EQ(test, sr_post_send(&init->ibqp, &wr.wr, &bad),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr.wr);
	KUNIT_EXPECT_EQ(test, sr_post_send(&rc->ibqp, &wr.wr, &bad),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sr_post_recv(&reset->ibqp, &rwr, &rbad),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rbad, &rwr);
	/* Too many entries to receive into */
	KUNIT_EXPECT_EQ(test, sr_post_recv(&b->ibqp, &rwr, &rbad), -EINVAL);
	/* A chain whose second WR has an opcode UD does not send */
	ut_wr(&wr2, 2, ah, b, sge, 1);
	wr2.wr.opcode = IB_WR_RDMA_WRITE;
	wr.wr.next = &wr2.wr;
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 5, big, 128), 0);
	KUNIT_EXPECT_EQ(test, sr_post_send(&a->ibqp, &wr.wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr2.wr);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 5);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	/* Too many entries, too much inline data (what the QP has) */
	wr.wr.next = NULL;
	wr.wr.num_sge = a->max_send_sge + 1;
	KUNIT_EXPECT_EQ(test, ut_send(env, a, &wr), -EINVAL);
	sge[0].length = a->max_inline + 1;
	wr.wr.num_sge = 1;
	wr.wr.send_flags |= IB_SEND_INLINE;
	KUNIT_EXPECT_EQ(test, ut_send(env, a, &wr), -EINVAL);
	lp_expect_none(test, to_sr_cq(a->ibqp.send_cq));
}

/*
 * With interrupts off the poster cannot send: the QP's work does, and
 * meanwhile the SQ fills up (ENOMEM); the RQ too.
 */
static void ut_post_irqs_off(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	u8 *dst = kunit_kzalloc(test, 16 * 64, GFP_KERNEL);
	u32 word = 7;
	struct ib_sge sge = { (uintptr_t)&word, 4, env->mr->ibmr.lkey };
	u32 depth = sr_queue_depth(&a->sq), rdepth = sr_queue_depth(&b->rq);
	struct ib_ud_wr wr;
	struct ib_wc wc;
	int ret = 0, i, got = 0;

	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_ASSERT_LE(test, rdepth, 16U);
	for (i = 0; i < rdepth; i++)
		KUNIT_ASSERT_EQ(test, lp_recv(env, b, i, dst + i * 64, 64), 0);
	KUNIT_EXPECT_EQ(test, lp_recv(env, b, 99, dst, 64), -ENOMEM);
	ut_wr(&wr, 0, ah, b, &sge, 1);
	local_irq_disable();
	for (i = 0; i <= depth && !ret; i++) {
		wr.wr.wr_id = i;
		ret = ut_send(env, a, &wr);
	}
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	KUNIT_EXPECT_EQ(test, i, depth + 1);
	flush_work(&a->work);
	for (i = 0; i < depth; i++) {
		if (!lp_poll(to_sr_cq(a->ibqp.send_cq), &wc))
			break;
		KUNIT_EXPECT_EQ(test, wc.wr_id, i);
	}
	KUNIT_EXPECT_EQ(test, i, depth);
	while (got < depth && lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc)) {
		KUNIT_EXPECT_EQ(test, wc.wr_id, got);
		got++;
	}
	KUNIT_EXPECT_EQ(test, got, min(depth, rdepth));
}

/*
 * More WQEs than one run of the requester takes (its budget): the QP's
 * work sends the rest, in order.
 */
static void ut_budget(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp_sized(test, env, IB_QPT_UD, NULL, IB_QPS_RTS,
				      127);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	u32 word = 7;
	struct ib_sge sge = { (uintptr_t)&word, 4, env->mr->ibmr.lkey };
	struct ib_ud_wr wr;
	struct ib_wc wc;
	int i, ret = 0;

	KUNIT_ASSERT_GE(test, sr_queue_depth(&a->sq), 100U);
	ut_wr(&wr, 0, ah, b, &sge, 1);
	/* Interrupts off: all 100 wait for the work, which runs them */
	local_irq_disable();
	for (i = 0; i < 100 && !ret; i++) {
		wr.wr.wr_id = i;
		ret = ut_send(env, a, &wr);
	}
	local_irq_enable();
	KUNIT_ASSERT_EQ(test, ret, 0);
	for (i = 0; i < 100; i++) {
		if (!lp_poll(to_sr_cq(a->ibqp.send_cq), &wc))
			break;
		KUNIT_EXPECT_EQ(test, wc.wr_id, i);
	}
	KUNIT_EXPECT_EQ(test, i, 100);
	KUNIT_EXPECT_EQ(test, sr_counter_read(&env->sdev->counters,
					      SR_SENT_PKTS), 100);
}

/*
 * Packets a UD QP drops, each counted by why, and no WQE used; and one
 * with the Q_Key that says "the sending QP's own", received.
 */
static void ut_drops(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *empty = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *init = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_INIT);
	struct sr_qp *rc = lp_qp(test, env, IB_QPT_RC, NULL, IB_QPS_RESET);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	struct sr_counters *c = &env->sdev->counters;
	u8 *dst = kunit_kzalloc(test, 64, GFP_KERNEL);
	u32 word = 7;
	struct ib_sge sge = { (uintptr_t)&word, 4, env->mr->ibmr.lkey };
	struct ib_ud_wr wr;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 1, dst, 64), 0);
	KUNIT_ASSERT_EQ(test, lp_recv(env, init, 1, dst, 64), 0);
	/* Another Q_Key */
	ut_wr(&wr, 1, ah, b, &sge, 1);
	wr.remote_qkey = LP_QKEY + 1;
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	/* The QP's own Q_Key (top bit set): a's is b's, received */
	ut_wr(&wr, 2, ah, b, &sge, 1);
	wr.remote_qkey = 0x80000000;
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	ut_wr(&wr, 6, ah, init, &sge, 1);
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	ut_wr(&wr, 3, ah, empty, &sge, 1);
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	ut_wr(&wr, 4, ah, rc, &sge, 1);
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	/* A QP number nobody has */
	ut_wr(&wr, 5, ah, b, &sge, 1);
	wr.remote_qpn = 0xfffffe;
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 40 + 4);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 40, &word, 4), 0);
	msleep(200);
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_SENT_PKTS), 6);
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_RCVD_PKTS), 6);
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_DROP_QKEY), 1);
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_DROP_STATE), 1);
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_DROP_NO_WQE), 1);
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_DROP_TRANSPORT), 1);
	KUNIT_EXPECT_EQ(test, sr_counter_read(c, SR_DROP_QPN), 1);
	lp_expect_none(test, to_sr_cq(b->ibqp.recv_cq));
	lp_expect_none(test, to_sr_cq(init->ibqp.recv_cq));
	/* The sends completed all the same: UD does not know */
	KUNIT_EXPECT_EQ(test, sr_poll_cq(a->ibqp.send_cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
}

/*
 * What fails a WQE: too long for the buffer (the receive completes in
 * error, the QP goes on), an lkey the QP may not use (the QP to ERR,
 * the rest flushed), on the send side a message beyond the MTU or an
 * AH of another PD (the QP to ERR, the rest flushed).
 */
static void ut_wqe_errors(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *a2 = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct ib_pd other = { .device = &env->sdev->ibdev };
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	struct sr_ah *foreign = lp_ah(test, env, &other, "127.0.0.1");
	u8 *buf = kunit_kzalloc(test, 5000, GFP_KERNEL);
	struct ib_sge sge = { (uintptr_t)buf, 8, env->mr->ibmr.lkey };
	struct ib_sge rsge = { (uintptr_t)buf, 64, env->mr->ibmr.lkey + 1 };
	struct ib_recv_wr rwr = { .wr_id = 3, .sg_list = &rsge, .num_sge = 1 };
	const struct ib_recv_wr *rbad;
	struct ib_ud_wr wr;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* 8 bytes into 47: the GRH fits, the message does not */
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 1, buf + 100, 47), 0);
	ut_wr(&wr, 1, ah, b, &sge, 1);
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_LEN_ERR);
	KUNIT_EXPECT_EQ(test, sr_qp_state(b), IB_QPS_RTS);
	/* An lkey of no MR: a protection error, then a flush */
	KUNIT_ASSERT_EQ(test, sr_post_recv(&b->ibqp, &rwr, &rbad), 0);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 4, buf, 64), 0);
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_PROT_ERR);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 4);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, sr_qp_state(b), IB_QPS_ERR);
	/* Posted in ERR: flushed by the QP's work */
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 5, buf, 64), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 5);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);

	/* Sends: all the SQ's in one run, the first failing */
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	sge.length = 4097;
	ut_wr(&wr, 6, ah, b, &sge, 1);
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 6);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_LEN_ERR);
	KUNIT_EXPECT_EQ(test, sr_qp_state(a), IB_QPS_ERR);
	sge.length = 8;
	ut_wr(&wr, 7, ah, b, &sge, 1);
	wr.wr.send_flags = 0;
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 7);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);

	ut_wr(&wr, 8, foreign, b, &sge, 1);
	KUNIT_ASSERT_EQ(test, ut_send(env, a2, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a2->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_QP_OP_ERR);
	KUNIT_EXPECT_EQ(test, sr_qp_state(a2), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, sr_counter_read(&env->sdev->counters,
					      SR_SENT_PKTS), 2);
}

/* A QP moved to ERR flushes both queues; to RESET empties them. */
static void ut_modify_flush(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_qp_attr attr = {};
	struct ib_wc wc;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, lp_recv(env, b, i, buf, 64), 0);
	KUNIT_ASSERT_EQ(test, lp_modify(b, IB_QPS_ERR, 0, &attr), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, sr_poll_cq(b->ibqp.recv_cq, 1, &wc), 1);
		KUNIT_EXPECT_EQ(test, wc.wr_id, i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	}
	KUNIT_ASSERT_EQ(test, lp_modify(b, IB_QPS_RESET, 0, &attr), 0);
	KUNIT_EXPECT_EQ(test, sr_queue_count(&b->rq), 0);
	KUNIT_EXPECT_EQ(test, lp_recv(env, b, 9, buf, 64), -EINVAL);
}

/*
 * The GSI QP is QP1, one per device; it takes MADs as any UD QP takes
 * messages (the Q_Key the MAD layer gives it, 0x80010000) and sends from
 * QP1.
 */
static void ut_gsi(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *gsi = lp_qp(test, env, IB_QPT_GSI, NULL, IB_QPS_RESET);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	struct ib_qp_init_attr init = { .qp_type = IB_QPT_GSI,
					.cap = { .max_send_wr = 1,
						 .max_recv_wr = 1 } };
	struct sr_qp *two = kunit_kzalloc(test, sizeof(*two), GFP_KERNEL);
	struct ib_qp_attr attr = { .qkey = IB_QP1_QKEY };
	u8 *mad = kunit_kzalloc(test, 256 + 40, GFP_KERNEL);
	u8 *out = kunit_kmalloc(test, 256, GFP_KERNEL);
	struct ib_sge sge = { (uintptr_t)out, 256, env->mr->ibmr.lkey };
	struct ib_ud_wr wr;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, two);
	KUNIT_ASSERT_NOT_NULL(test, mad);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, gsi->ibqp.qp_num, 1);
	KUNIT_EXPECT_PTR_EQ(test, xa_load(&env->sdev->qps, 1), gsi);
	/* A second one on the device */
	two->ibqp.device = &env->sdev->ibdev;
	two->ibqp.qp_type = IB_QPT_GSI;
	KUNIT_EXPECT_EQ(test, sr_create_qp(&two->ibqp, &init, NULL), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, xa_load(&env->sdev->qps, 1), gsi);

	/* As the MAD layer brings it up */
	KUNIT_ASSERT_EQ(test, lp_modify(gsi, IB_QPS_INIT, IB_QP_PKEY_INDEX |
					IB_QP_QKEY, &attr), 0);
	KUNIT_ASSERT_EQ(test, lp_modify(gsi, IB_QPS_RTR, 0, &attr), 0);
	attr.sq_psn = 0;
	KUNIT_ASSERT_EQ(test, lp_modify(gsi, IB_QPS_RTS, IB_QP_SQ_PSN, &attr),
			0);
	KUNIT_ASSERT_EQ(test, lp_recv(env, gsi, 1, mad, 256 + 40), 0);
	/*
	 * A Q_Key with its top bit set is a controlled one: a UD QP sends
	 * it only as its own (a peer's GSI QP, say)
	 */
	KUNIT_ASSERT_EQ(test, lp_modify(a, IB_QPS_RTS, IB_QP_QKEY, &attr), 0);
	memset(out, 0x81, 256);
	ut_wr(&wr, 2, ah, gsi, &sge, 1);
	wr.remote_qkey = IB_QP1_QKEY;
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(gsi->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 256 + 40);
	KUNIT_EXPECT_EQ(test, wc.src_qp, a->ibqp.qp_num);
	KUNIT_EXPECT_EQ(test, mad[40], 0x81);
	KUNIT_EXPECT_EQ(test, mad[40 + 255], 0x81);
	/* a's CQ is its send and receive CQ: its send completed first */
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);

	/* And back, from QP1, with its own Q_Key */
	KUNIT_ASSERT_EQ(test, lp_recv(env, a, 3, mad, 256 + 40), 0);
	ut_wr(&wr, 4, ah, a, &sge, 1);
	wr.remote_qkey = IB_QP1_QKEY;
	KUNIT_ASSERT_EQ(test, ut_send(env, gsi, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.src_qp, 1);
}

/* A chain of sends, each posted by the completion handler of the last. */
struct ut_chain {
	struct sr_qp *qp;
	struct ib_ud_wr wr;
	int sent;
	int done;
};

static void ut_chain_comp(struct ib_cq *cq, void *ctx)
{
	struct ut_chain *c = ctx;
	const struct ib_send_wr *bad;
	struct ib_wc wc;

	do {
		while (sr_poll_cq(cq, 1, &wc) == 1) {
			WRITE_ONCE(c->done, c->done + 1);
			if (c->sent == 50)
				continue;
			c->wr.wr.wr_id = c->sent++;
			sr_post_send(&c->qp->ibqp, &c->wr.wr, &bad);
		}
	} while (sr_req_notify_cq(cq, IB_CQ_NEXT_COMP |
				      IB_CQ_REPORT_MISSED_EVENTS) > 0);
}

/*
 * A completion handler that posts from inside the requester's run (as a
 * ULP's may): the run takes the new WQE itself, nothing deadlocks and
 * nothing waits.
 */
static void ut_reentrant(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	struct ib_cq *cq = a->ibqp.send_cq;
	u32 word = 7;
	struct ib_sge sge = { (uintptr_t)&word, 4, env->mr->ibmr.lkey };
	struct ut_chain c = { .qp = a };
	unsigned long end = jiffies + 5 * HZ;

	ut_wr(&c.wr, 0, ah, b, &sge, 1);
	cq->comp_handler = ut_chain_comp;
	cq->cq_context = &c;
	KUNIT_ASSERT_EQ(test, sr_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	c.sent = 1;
	KUNIT_ASSERT_EQ(test, ut_send(env, a, &c.wr), 0);
	while (READ_ONCE(c.done) < 50 && time_before(jiffies, end))
		msleep(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c.done), 50);
	/* Nothing more comes; the handler is done before the CQ goes */
	msleep(50);
	cq->comp_handler = NULL;
	KUNIT_EXPECT_EQ(test, sr_counter_read(&env->sdev->counters,
					      SR_SENT_PKTS), 50);
}

/*
 * WQEs written straight into the SQ, as a user's process may write
 * anything there: more scatter entries than the slot holds, more inline
 * bytes than the QP takes, an AH number nobody has, an opcode nobody
 * knows.  Each completes in error and moves its QP to ERR; none is sent.
 */
static void ut_raw_wqes(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
	struct sr_ah *ah = lp_ah(test, env, env->pd, "127.0.0.1");
	static const struct {
		u32 opcode, flags, num_sge, length, ah_delta;
		enum ib_wc_status want;
	} rows[] = {
		{ IB_WR_SEND, 0, 1000, 0, 0, IB_WC_LOC_LEN_ERR },
		{ IB_WR_SEND, 0, U32_MAX, 0, 0, IB_WC_LOC_LEN_ERR },
		{ IB_WR_SEND, IB_SEND_INLINE, 0, 100000, 0, IB_WC_LOC_LEN_ERR },
		{ IB_WR_SEND, 0, 1, 4, 1000, IB_WC_LOC_QP_OP_ERR },
		{ 77, 0, 1, 4, 0, IB_WC_LOC_QP_OP_ERR },
		{ IB_WR_RDMA_WRITE, 0, 1, 4, 0, IB_WC_LOC_QP_OP_ERR },
	};
	const struct ib_send_wr *bad;
	struct rxe_send_wqe *wqe;
	struct ib_wc wc;
	struct sr_qp *a;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		a = lp_qp(test, env, IB_QPT_UD, NULL, IB_QPS_RTS);
		wqe = sr_queue_next(&a->sq);
		KUNIT_ASSERT_NOT_NULL(test, wqe);
		memset(wqe, 0, sr_queue_elem(&a->sq));
		wqe->wr.wr_id = i;
		wqe->wr.opcode = rows[i].opcode;
		wqe->wr.send_flags = rows[i].flags | IB_SEND_SIGNALED;
		wqe->wr.wr.ud.remote_qpn = b->ibqp.qp_num;
		wqe->wr.wr.ud.remote_qkey = LP_QKEY;
		wqe->wr.wr.ud.ah_num = ah->num + rows[i].ah_delta;
		wqe->dma.num_sge = rows[i].num_sge;
		wqe->dma.length = rows[i].length;
		wqe->dma.sge[0] = (struct rxe_sge){ (uintptr_t)&b, 4,
						    env->mr->ibmr.lkey };
		sr_queue_produced(&a->sq);
		/* The doorbell: a post of nothing */
		KUNIT_EXPECT_EQ(test, sr_post_send(&a->ibqp, NULL, &bad), 0);
		KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
		KUNIT_EXPECT_EQ_MSG(test, wc.status, rows[i].want, "row %d", i);
		KUNIT_EXPECT_EQ(test, sr_qp_state(a), IB_QPS_ERR);
	}
	KUNIT_EXPECT_EQ(test, sr_counter_read(&env->sdev->counters,
					      SR_SENT_PKTS), 0);
}

static struct kunit_case ut_cases[] = {
	KUNIT_CASE(ut_ipv4),
	KUNIT_CASE(ut_ipv6),
	KUNIT_CASE(ut_inline),
	KUNIT_CASE(ut_srq_feeds),
	KUNIT_CASE(ut_post_refused),
	KUNIT_CASE(ut_post_irqs_off),
	KUNIT_CASE(ut_budget),
	KUNIT_CASE(ut_drops),
	KUNIT_CASE(ut_wqe_errors),
	KUNIT_CASE(ut_modify_flush),
	KUNIT_CASE(ut_gsi),
	KUNIT_CASE(ut_reentrant),
	KUNIT_CASE(ut_raw_wqes),
	{}
};

static struct kunit_suite ut_suite = {
	.name = "rdma_rxe_ud",
	.test_cases = ut_cases,
};
kunit_test_suite(ut_suite);
