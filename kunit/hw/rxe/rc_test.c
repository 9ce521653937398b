// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_rxe_rc: the RC data path of hw/rxe (req.c, comp.c,
 * resp.c) end to end over lo (loop.h), between two QPs whose PSNs start
 * just before the 24-bit wrap: sends of several packets with immediate
 * data and of none, writes of several packets to an odd address and with
 * immediate data, reads (of several packets, of none, between a send and
 * a write, one with a response lost, one not allowed), atomics (swapped
 * and not, added, an ACK lost: answered again and not done again, an
 * address not aligned); then what the protocol is for: an RNR NAK waited out, a
 * lost request packet (a sequence NAK and a rewind), a lost ACK (a
 * timeout, a duplicate and its ACK again), a write the remote MR does not
 * allow (both QPs to ERR), a peer that never answers (retries exhausted);
 * UC: sends and writes, a lost packet losing its message only; and fast
 * registration: REG_MR, a write by its rkey, a send with invalidate,
 * REG_MR, send and LOCAL_INV in one chain, and what they refuse; and
 * packets from an address that is not the peer's, dropped.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/scatterlist.h>
#include "dev.h"
#include "loop.h"
#include "mem.h"
#include "post.h"

/* Where the PSNs start: the 24-bit wrap within the first messages */
#define RT_PSN		0xfffffd
/*
 * Local ACK timeouts: 4.3 s where recovery must not wait for the timer
 * (a case waits 2 s at most for a completion, and no descheduled VM
 * reaches 4 s), 4 ms where the timer is what recovers.
 */
#define RT_SLOW		20
#define RT_FAST		10

/* One QP's way to @peer, through INIT and RTR to RTS. */
static void rt_connect(struct kunit *test, struct lp_env *env,
		       struct sr_qp *qp, u32 peer_qpn, u8 retry, u8 timeout,
		       const char *addr)
{
	struct ib_qp_attr a = {
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ |
				   IB_ACCESS_REMOTE_ATOMIC,
		.path_mtu = IB_MTU_1024,
		.dest_qp_num = peer_qpn,
		.rq_psn = RT_PSN,
		.sq_psn = RT_PSN,
		.max_dest_rd_atomic = 2,
		.max_rd_atomic = 2,
		.min_rnr_timer = 1,
		.timeout = timeout,
		.retry_cnt = retry,
		.rnr_retry = 7,
	};

	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_INIT, IB_QP_PKEY_INDEX |
					IB_QP_PORT | IB_QP_ACCESS_FLAGS, &a),
			0);
	lp_path(test, env, &a.ah_attr, addr);
	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_RTR, IB_QP_AV |
					IB_QP_PATH_MTU | IB_QP_DEST_QPN |
					IB_QP_RQ_PSN |
					IB_QP_MAX_DEST_RD_ATOMIC |
					IB_QP_MIN_RNR_TIMER, &a), 0);
	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_RTS, IB_QP_SQ_PSN |
					IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
					IB_QP_RNR_RETRY |
					IB_QP_MAX_QP_RD_ATOMIC, &a), 0);
}

/* Two RC QPs connected to each other, with local ACK timeout @timeout. */
static void rt_pair(struct kunit *test, struct lp_env *env,
		    struct sr_qp **a, struct sr_qp **b, u8 timeout)
{
	*a = lp_qp(test, env, IB_QPT_RC, NULL, IB_QPS_RESET);
	*b = lp_qp(test, env, IB_QPT_RC, NULL, IB_QPS_RESET);
	rt_connect(test, env, *a, (*b)->ibqp.qp_num, 7, timeout, "127.0.0.1");
	rt_connect(test, env, *b, (*a)->ibqp.qp_num, 7, timeout, "127.0.0.1");
}

static int rt_post(struct sr_qp *qp, struct ib_rdma_wr *wr)
{
	const struct ib_send_wr *bad;

	return sr_post_send(&qp->ibqp, &wr->wr, &bad);
}

/* A signaled WR of @op over @len bytes of @buf (lkey of the device's MR). */
static void rt_wr(struct lp_env *env, struct ib_rdma_wr *wr,
		  struct ib_sge *sge, u64 id, enum ib_wr_opcode op, void *buf,
		  u32 len)
{
	*sge = (struct ib_sge){ (uintptr_t)buf, len, env->mr->ibmr.lkey };
	*wr = (struct ib_rdma_wr){
		.wr = { .wr_id = id, .opcode = op, .sg_list = sge,
			.num_sge = 1, .send_flags = IB_SEND_SIGNALED },
	};
}

static u8 *rt_buf(struct kunit *test, u32 len, u8 seed)
{
	u8 *p = kunit_kmalloc(test, len, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < len; i++)
		p[i] = seed + i * 11 + (i >> 8);
	return p;
}

static u64 rt_count(struct lp_env *env, enum sr_counter c)
{
	return sr_counter_read(&env->sdev->counters, c);
}

/* Sends of three packets (across the PSN wrap) and of none. */
static void rt_send(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	u8 *src = rt_buf(test, 3000, 1), *dst = rt_buf(test, 4096, 0);
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct sr_qp *a, *b;
	struct ib_wc wc;

	rt_pair(test, env, &a, &b, RT_SLOW);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 1, dst, 4096), 0);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 2, dst, 4096), 0);
	rt_wr(env, &wr, &sge, 10, IB_WR_SEND_WITH_IMM, src, 3000);
	wr.wr.ex.imm_data = cpu_to_be32(0x12345678);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 3000);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc.ex.imm_data), 0x12345678);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 3000), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 10);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_SEND);

	rt_wr(env, &wr, &sge, 11, IB_WR_SEND, src, 0);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 11);
	/* Three packets and one, each answered; nothing sent again */
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_COMPLETER_RETRY_ERR), 0);
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_DUPLICATE_REQUEST), 0);
	/* Both ends are the device's: two sends, two receives */
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_RDMA_SENDS), 2);
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_RDMA_RECVS), 2);
}

/* A DMA MR that remote reads and writes may use. */
static struct sr_mr *rt_remote_mr(struct kunit *test, struct lp_env *env)
{
	struct ib_mr *ibmr = sr_get_dma_mr(env->pd, IB_ACCESS_LOCAL_WRITE |
					   IB_ACCESS_REMOTE_WRITE |
					   IB_ACCESS_REMOTE_READ |
					   IB_ACCESS_REMOTE_ATOMIC);

	KUNIT_ASSERT_FALSE(test, IS_ERR(ibmr));
	ibmr->device = &env->sdev->ibdev;
	ibmr->pd = env->pd;
	return to_sr_mr(ibmr);
}

/* Writes of five packets to an odd address, and with immediate data. */
static void rt_write(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_mr *mr = rt_remote_mr(test, env);
	u8 *src = rt_buf(test, 5000, 3), *dst = rt_buf(test, 6000, 0);
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct sr_qp *a, *b;
	struct ib_wc wc;

	rt_pair(test, env, &a, &b, RT_SLOW);
	memset(dst, 0, 6000);
	rt_wr(env, &wr, &sge, 20, IB_WR_RDMA_WRITE, src, 5000);
	wr.remote_addr = (uintptr_t)dst + 7;
	wr.rkey = mr->ibmr.rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 20);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 7, src, 5000), 0);
	KUNIT_EXPECT_EQ(test, dst[6], 0);
	KUNIT_EXPECT_EQ(test, dst[5007], 0);
	/* No receive WQE was used */
	lp_expect_none(test, to_sr_cq(b->ibqp.recv_cq));

	/* With immediate data: a receive WQE completes, its buffer unused */
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 5, src, 16), 0);
	rt_wr(env, &wr, &sge, 21, IB_WR_RDMA_WRITE_WITH_IMM, src + 100, 10);
	wr.wr.ex.imm_data = cpu_to_be32(7);
	wr.remote_addr = (uintptr_t)dst;
	wr.rkey = mr->ibmr.rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 5);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 10);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc.ex.imm_data), 7);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src + 100, 10), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 21);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

/*
 * Reads of five packets, of none, in between a send and a write (all
 * complete in order), one whose second response is lost (asked for again
 * from there), and one the remote MR does not allow.
 */
static void rt_read(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_mr *mr = rt_remote_mr(test, env);
	u8 *remote = rt_buf(test, 6000, 5), *local = rt_buf(test, 6000, 0);
	u8 *msg = rt_buf(test, 100, 9);
	struct ib_rdma_wr wr[3];
	struct ib_sge sge[3];
	struct sr_qp *a, *b;
	struct ib_wc wc;
	int i;

	rt_pair(test, env, &a, &b, RT_SLOW);
	memset(local, 0, 6000);
	rt_wr(env, &wr[0], &sge[0], 70, IB_WR_RDMA_READ, local + 3, 5000);
	wr[0].remote_addr = (uintptr_t)remote + 1;
	wr[0].rkey = mr->ibmr.rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr[0]), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 70);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, memcmp(local + 3, remote + 1, 5000), 0);
	KUNIT_EXPECT_EQ(test, local[2], 0);
	KUNIT_EXPECT_EQ(test, local[5003], 0);

	/* A send, a read of nothing, a write: in order */
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 1, local, 6000), 0);
	rt_wr(env, &wr[0], &sge[0], 71, IB_WR_SEND, msg, 100);
	rt_wr(env, &wr[1], &sge[1], 72, IB_WR_RDMA_READ, local, 0);
	wr[1].remote_addr = (uintptr_t)remote;
	wr[1].rkey = mr->ibmr.rkey;
	rt_wr(env, &wr[2], &sge[2], 73, IB_WR_RDMA_WRITE, msg, 100);
	wr[2].remote_addr = (uintptr_t)remote + 3000;
	wr[2].rkey = mr->ibmr.rkey;
	wr[0].wr.next = &wr[1].wr;
	wr[1].wr.next = &wr[2].wr;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr[0]), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test,
				  lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
		KUNIT_EXPECT_EQ(test, wc.wr_id, 71 + i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	}
	KUNIT_EXPECT_EQ(test, memcmp(remote + 3000, msg, 100), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.byte_len, 100);

	/* The second response lost: the read again from there */
	memset(local, 0, 6000);
	lp_lose(env, BIT(2));
	rt_wr(env, &wr[0], &sge[0], 74, IB_WR_RDMA_READ, local, 4000);
	wr[0].remote_addr = (uintptr_t)remote;
	wr[0].rkey = mr->ibmr.rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr[0]), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 74);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(local, remote, 4000), 0);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_RCVD_SEQ_ERR), 1);
	/* The gap asked for them at once, not the timer */
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_COMPLETER_RETRY_ERR), 0);
	lp_lose(env, 0);

	/* The device's MR: local write only, no remote read */
	rt_wr(env, &wr[0], &sge[0], 75, IB_WR_RDMA_READ, local, 64);
	wr[0].remote_addr = (uintptr_t)remote;
	wr[0].rkey = env->mr->ibmr.rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr[0]), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 75);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

static int rt_atomic_post(struct lp_env *env, struct sr_qp *qp, u64 id,
			  enum ib_wr_opcode op, u64 *result, u64 *remote,
			  u32 rkey, u64 compare_add, u64 swap)
{
	struct ib_sge sge = { (uintptr_t)result, sizeof(u64),
			      env->mr->ibmr.lkey };
	struct ib_atomic_wr wr = {
		.wr = { .wr_id = id, .opcode = op, .sg_list = &sge,
			.num_sge = 1, .send_flags = IB_SEND_SIGNALED },
		.remote_addr = (uintptr_t)remote,
		.compare_add = compare_add,
		.swap = swap,
		.rkey = rkey,
	};
	const struct ib_send_wr *bad;

	return sr_post_send(&qp->ibqp, &wr.wr, &bad);
}

/*
 * Compare-and-swap that swaps and one that does not, fetch-and-add, one
 * whose ACK is lost (answered again, not done again), one at an address
 * that is not 8-byte aligned.
 */
static void rt_atomic(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_mr *mr = rt_remote_mr(test, env);
	u64 *remote = kunit_kzalloc(test, 4 * sizeof(u64), GFP_KERNEL);
	u64 *result = kunit_kzalloc(test, sizeof(u64), GFP_KERNEL);
	u32 rkey = mr->ibmr.rkey;
	struct sr_qp *a, *b;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, remote);
	KUNIT_ASSERT_NOT_NULL(test, result);
	/* Its lost ACK waits for the timer */
	rt_pair(test, env, &a, &b, RT_FAST);
	remote[1] = 5;
	KUNIT_ASSERT_EQ(test, rt_atomic_post(env, a, 80,
					     IB_WR_ATOMIC_CMP_AND_SWP, result,
					     &remote[1], rkey, 5, 9), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_COMP_SWAP);
	KUNIT_EXPECT_EQ(test, *result, 5);
	KUNIT_EXPECT_EQ(test, remote[1], 9);
	/* Compared with 5 again: 9 stays */
	KUNIT_ASSERT_EQ(test, rt_atomic_post(env, a, 81,
					     IB_WR_ATOMIC_CMP_AND_SWP, result,
					     &remote[1], rkey, 5, 1), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, *result, 9);
	KUNIT_EXPECT_EQ(test, remote[1], 9);
	KUNIT_ASSERT_EQ(test, rt_atomic_post(env, a, 82,
					     IB_WR_ATOMIC_FETCH_AND_ADD, result,
					     &remote[1], rkey, 3, 0), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_FETCH_ADD);
	KUNIT_EXPECT_EQ(test, *result, 9);
	KUNIT_EXPECT_EQ(test, remote[1], 12);

	/* The ACK (the wire's second packet) lost: added once */
	lp_lose(env, BIT(1));
	KUNIT_ASSERT_EQ(test, rt_atomic_post(env, a, 83,
					     IB_WR_ATOMIC_FETCH_AND_ADD, result,
					     &remote[1], rkey, 100, 0), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, *result, 12);
	KUNIT_EXPECT_EQ(test, remote[1], 112);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_DUPLICATE_REQUEST), 1);
	lp_lose(env, 0);

	/* Not 8-byte aligned */
	KUNIT_ASSERT_EQ(test, rt_atomic_post(env, a, 84,
					     IB_WR_ATOMIC_FETCH_AND_ADD, result,
					     (u64 *)((u8 *)&remote[2] + 4),
					     rkey, 1, 0), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_INV_REQ_ERR);
	KUNIT_EXPECT_EQ(test, remote[2], 0);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

/* A send with no receive WQE: RNR NAKs until one is posted. */
static void rt_rnr(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	u8 *src = rt_buf(test, 100, 5), *dst = rt_buf(test, 100, 0);
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct sr_qp *a, *b;
	struct ib_wc wc;

	rt_pair(test, env, &a, &b, RT_SLOW);
	rt_wr(env, &wr, &sge, 30, IB_WR_SEND, src, 100);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	msleep(50);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_RCVD_RNR_ERR), 1);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_SEND_RNR_ERR), 1);
	lp_expect_none(test, to_sr_cq(a->ibqp.send_cq));
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 3, dst, 100), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 100), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 30);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
}

/*
 * A request packet lost (the next one gets a sequence NAK, the requester
 * goes back), then an ACK lost (a timeout, the packet again, a duplicate
 * ACKed again).
 */
static void rt_loss(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	u8 *src = rt_buf(test, 3000, 9), *dst = rt_buf(test, 4096, 0);
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct sr_qp *a, *b;
	struct ib_wc wc;

	rt_pair(test, env, &a, &b, RT_SLOW);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 1, dst, 4096), 0);
	/* The second of the three packets: the wire's second packet */
	lp_lose(env, BIT(1));
	rt_wr(env, &wr, &sge, 40, IB_WR_SEND, src, 3000);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 3000);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 3000), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_OUT_OF_SEQ_REQUEST), 1);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_RCVD_SEQ_ERR), 1);
	/* The NAK brought it back at once, not the timer */
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_COMPLETER_RETRY_ERR), 0);

	/* One packet, and the ACK (the wire's second) lost: the timer's */
	rt_pair(test, env, &a, &b, RT_FAST);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 2, dst + 3000, 1000), 0);
	lp_lose(env, BIT(1));
	rt_wr(env, &wr, &sge, 41, IB_WR_SEND, src, 500);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 41);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_COMPLETER_RETRY_ERR), 1);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_DUPLICATE_REQUEST), 1);
	/* The duplicate did not complete a second receive WQE */
	lp_expect_none(test, to_sr_cq(b->ibqp.recv_cq));
	lp_lose(env, 0);
}

/* What a completion handler posts again: @left more WRs like @wr */
struct rt_repost {
	struct sr_qp *qp;
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	int left;
	int ret;
};

/* A send CQ's handler that posts the next WR at once, as ULPs do */
static void rt_repost_now(struct ib_cq *cq, void *ctx)
{
	struct rt_repost *r = ctx;
	int ret;

	if (!r->left)
		return;
	r->left--;
	r->wr.wr.wr_id++;
	ret = rt_post(r->qp, &r->wr);
	if (ret && !r->ret)
		WRITE_ONCE(r->ret, ret);
	sr_req_notify_cq(cq, IB_CQ_NEXT_COMP);
}

/*
 * A QP whose SQ holds one WQE, its completion handler posting the next
 * WR when it hears of the last (in the completer's softirq): each post
 * finds the slot free, the WQE having left the ring before it completed;
 * four writes in all.  (rdma-core's ibv_rc_pingpong does the same from
 * user space, and saw a full ring when the order was the other way.)
 */
static void rt_post_from_completion(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_mr *mr = rt_remote_mr(test, env);
	u8 *src = rt_buf(test, 100, 5), *dst = rt_buf(test, 100, 0);
	struct rt_repost r = { .left = 3 };
	struct sr_qp *a, *b;
	struct ib_cq *cq;
	struct ib_wc wc;
	int i;

	a = lp_qp_sized(test, env, IB_QPT_RC, NULL, IB_QPS_RESET, 1);
	b = lp_qp_sized(test, env, IB_QPT_RC, NULL, IB_QPS_RESET, 1);
	rt_connect(test, env, a, b->ibqp.qp_num, 7, RT_SLOW, "127.0.0.1");
	rt_connect(test, env, b, a->ibqp.qp_num, 7, RT_SLOW, "127.0.0.1");
	r.qp = a;
	rt_wr(env, &r.wr, &r.sge, 90, IB_WR_RDMA_WRITE, src, 100);
	r.wr.remote_addr = (uintptr_t)dst;
	r.wr.rkey = mr->ibmr.rkey;
	cq = a->ibqp.send_cq;
	cq->cq_context = &r;
	cq->comp_handler = rt_repost_now;
	KUNIT_ASSERT_EQ(test, sr_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	KUNIT_ASSERT_EQ(test, rt_post(a, &r.wr), 0);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(cq), &wc));
		KUNIT_EXPECT_EQ(test, wc.wr_id, 90 + i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	}
	KUNIT_EXPECT_EQ(test, READ_ONCE(r.ret), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 100), 0);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

/* A write with an rkey that does not allow it: both QPs end in ERR. */
static void rt_access(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	u8 *src = rt_buf(test, 64, 1), *dst = rt_buf(test, 64, 0);
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct sr_qp *a, *b;
	struct ib_wc wc;

	rt_pair(test, env, &a, &b, RT_SLOW);
	rt_wr(env, &wr, &sge, 50, IB_WR_RDMA_WRITE, src, 64);
	wr.remote_addr = (uintptr_t)dst;
	/* The device's MR: local write only */
	wr.rkey = env->mr->ibmr.rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 50);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, sr_qp_state(a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, sr_qp_state(b), IB_QPS_ERR);
	KUNIT_EXPECT_NE(test, memcmp(dst, src, 64), 0);
}

/* A peer that never answers: retry_cnt timeouts, then the WQE fails. */
static void rt_retries(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_RC, NULL, IB_QPS_RESET);
	u8 *src = rt_buf(test, 64, 1);
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct ib_wc wc;

	/* To a QP number nobody has: every packet is dropped there */
	rt_connect(test, env, a, 0xabcdef, 2, RT_FAST, "127.0.0.1");
	rt_wr(env, &wr, &sge, 60, IB_WR_SEND, src, 64);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	rt_wr(env, &wr, &sge, 61, IB_WR_SEND, src, 64);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 60);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_RETRY_EXC_ERR);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 61);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_COMPLETER_RETRY_ERR), 2);
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_RETRY_EXCEEDED_ERR), 1);
	/* Both packets, three times each */
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_DROP_QPN), 6);
}

/* A fast-registration MR over @npages pages at @buf, page-aligned. */
static struct ib_mr *rt_fr_mr(struct kunit *test, struct lp_env *env,
			      u8 *buf, int npages)
{
	struct ib_mr *mr = sr_alloc_mr(env->pd, IB_MR_TYPE_MEM_REG, 4);
	struct scatterlist sg[4];
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	mr->device = &env->sdev->ibdev;
	mr->pd = env->pd;
	/* As ib_map_mr_sg() sets it before it calls the verb */
	mr->page_size = PAGE_SIZE;
	sg_init_table(sg, npages);
	for (i = 0; i < npages; i++) {
		sg_set_buf(&sg[i], buf + i * PAGE_SIZE, PAGE_SIZE);
		/* The device's DMA is the CPU's: the kernel address */
		sg_dma_address(&sg[i]) = (uintptr_t)(buf + i * PAGE_SIZE);
		sg_dma_len(&sg[i]) = PAGE_SIZE;
	}
	KUNIT_ASSERT_EQ(test, sr_map_mr_sg(mr, sg, npages, NULL), npages);
	return mr;
}

static u8 *rt_pages(struct kunit *test, int npages)
{
	u8 *p = kunit_kzalloc(test, (npages + 1) * PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return PTR_ALIGN(p, PAGE_SIZE);
}

/* A REG_MR WR of @mr under @key; @next follows it in the chain. */
static void rt_reg_wr(struct ib_reg_wr *wr, u64 id, struct ib_mr *mr, u32 key,
		      int access, bool signaled, struct ib_send_wr *next)
{
	*wr = (struct ib_reg_wr){
		.wr = { .wr_id = id, .opcode = IB_WR_REG_MR, .next = next,
			.send_flags = signaled ? IB_SEND_SIGNALED : 0 },
		.mr = mr,
		.key = key,
		.access = access,
	};
}

static int rt_post_wr(struct sr_qp *qp, struct ib_send_wr *wr)
{
	const struct ib_send_wr *bad;

	return sr_post_send(&qp->ibqp, wr, &bad);
}

/* The next completion of @cq: @id, @status and, if it succeeded, @op. */
static void rt_expect(struct kunit *test, struct ib_cq *cq, u64 id,
		      enum ib_wc_status status, enum ib_wc_opcode op)
{
	struct ib_wc wc;

	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, id);
	KUNIT_EXPECT_EQ(test, wc.status, status);
	if (status == IB_WC_SUCCESS)
		KUNIT_EXPECT_EQ(test, wc.opcode, op);
}

/*
 * Fast registration as storage ULPs use it: B registers pages, A writes
 * into them by the rkey (across the page boundary) and ends the
 * registration with a send with invalidate; then A registers a source,
 * sends from it and invalidates it locally, in one chain: each takes
 * effect in order, the invalidation only once the send is acknowledged.
 */
static void rt_fast_reg(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	u8 *page = rt_pages(test, 2), *spage = rt_pages(test, 1);
	u8 *src = rt_buf(test, 3000, 7), *dst = rt_buf(test, 4096, 0);
	struct ib_mr *dmr = rt_fr_mr(test, env, page, 2);
	struct ib_mr *smr = rt_fr_mr(test, env, spage, 1);
	u32 rkey = (dmr->lkey & ~0xff) | 0x11;
	u32 lkey = (smr->lkey & ~0xff) | 0x22;
	struct ib_send_wr inv = {
		.wr_id = 76, .opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED, .ex.invalidate_rkey = lkey,
	};
	struct ib_reg_wr reg;
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct sr_qp *a, *b;
	struct ib_wc wc;

	rt_pair(test, env, &a, &b, RT_SLOW);
	rt_reg_wr(&reg, 70, dmr, rkey, IB_ACCESS_LOCAL_WRITE |
		  IB_ACCESS_REMOTE_WRITE, true, NULL);
	KUNIT_ASSERT_EQ(test, rt_post_wr(b, &reg.wr), 0);
	rt_expect(test, b->ibqp.send_cq, 70, IB_WC_SUCCESS, IB_WC_REG_MR);

	rt_wr(env, &wr, &sge, 71, IB_WR_RDMA_WRITE, src, 3000);
	wr.remote_addr = dmr->iova + PAGE_SIZE - 1000;
	wr.rkey = rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	rt_expect(test, a->ibqp.send_cq, 71, IB_WC_SUCCESS, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(page + PAGE_SIZE - 1000, src, 3000), 0);

	/* Of two packets: the IETH is the last one's */
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 72, dst, 4096), 0);
	rt_wr(env, &wr, &sge, 73, IB_WR_SEND_WITH_INV, src, 2000);
	wr.wr.ex.invalidate_rkey = rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 72);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 2000);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 2000), 0);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, wc.ex.invalidate_rkey, rkey);
	rt_expect(test, a->ibqp.send_cq, 73, IB_WC_SUCCESS, IB_WC_SEND);
	lp_expect_no_mr(test, env->sdev, rkey);

	/* REG_MR (unsignaled), a send from it, LOCAL_INV: one chain */
	memset(spage, 0x5a, 64);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 74, dst, 64), 0);
	rt_wr(env, &wr, &sge, 75, IB_WR_SEND, spage, 64);
	sge.lkey = lkey;
	wr.wr.next = &inv;
	rt_reg_wr(&reg, 77, smr, lkey, IB_ACCESS_LOCAL_WRITE, false,
		  &wr.wr);
	KUNIT_ASSERT_EQ(test, rt_post_wr(a, &reg.wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 74);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(dst, spage, 64), 0);
	rt_expect(test, a->ibqp.send_cq, 75, IB_WC_SUCCESS, IB_WC_SEND);
	rt_expect(test, a->ibqp.send_cq, 76, IB_WC_SUCCESS, IB_WC_LOCAL_INV);
	lp_expect_none(test, to_sr_cq(a->ibqp.send_cq));
	lp_expect_no_mr(test, env->sdev, lkey);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(smr, NULL), 0);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(dmr, NULL), 0);
}

/*
 * What lp_before() does to a key: invalidates it and, with @again, gives
 * the MR the same key once more with @access; and what that said.
 */
struct rt_inv {
	u32 key;
	struct ib_mr *again;
	int access;
	int ret;
};

/* lp_before()'s function: as a LOCAL_INV (and a REG_MR) between packets */
static void rt_invalidate_now(struct lp_env *env, void *arg)
{
	struct rt_inv *inv = arg;
	int ret = sr_mr_invalidate(env->sdev, env->pd, inv->key);

	if (!ret && inv->again)
		ret = sr_mr_register(inv->again, env->pd, inv->key,
				     inv->access);
	WRITE_ONCE(inv->ret, ret);
}

/*
 * A 3-packet write into @mr under @key (registered with remote write),
 * @inv done just before its second packet arrives: the first packet's
 * bytes are placed and nothing after them, the write fails with a remote
 * access NAK and both QPs go to ERR.
 */
static void rt_write_cut(struct kunit *test, struct lp_env *env,
			 struct ib_mr *mr, u8 *page, u32 key,
			 struct rt_inv *inv)
{
	u8 *src = rt_buf(test, 3000, 3);
	struct ib_reg_wr reg;
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct sr_qp *a, *b;

	rt_pair(test, env, &a, &b, RT_SLOW);
	memset(page, 0, PAGE_SIZE);
	rt_reg_wr(&reg, 80, mr, key, IB_ACCESS_LOCAL_WRITE |
		  IB_ACCESS_REMOTE_WRITE, true, NULL);
	KUNIT_ASSERT_EQ(test, rt_post_wr(b, &reg.wr), 0);
	rt_expect(test, b->ibqp.send_cq, 80, IB_WC_SUCCESS, IB_WC_REG_MR);

	lp_before(env, 1, rt_invalidate_now, inv);
	rt_wr(env, &wr, &sge, 81, IB_WR_RDMA_WRITE, src, 3000);
	wr.remote_addr = mr->iova;
	wr.rkey = key;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	rt_expect(test, a->ibqp.send_cq, 81, IB_WC_REM_ACCESS_ERR, 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(inv->ret), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page, src, 1024), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(page + 1024, 0, PAGE_SIZE - 1024));
	KUNIT_EXPECT_EQ(test, sr_qp_state(a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, sr_qp_state(b), IB_QPS_ERR);
	lp_lose(env, 0);
}

/*
 * An MR invalidated while a write into it is under way, between the
 * write's first and second packets: the rest of the message is refused,
 * not placed in the pages the MR had.  Then the same, the key given to
 * the MR again at once but without remote write: refused too, each
 * packet being checked on its own.
 */
static void rt_invalidate_midway(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	u8 *page = rt_pages(test, 1);
	struct ib_mr *mr = rt_fr_mr(test, env, page, 1);
	u32 key = (mr->lkey & ~0xff) | 0x33;
	struct rt_inv gone = { .key = key, .ret = 1 };
	struct rt_inv again = { .key = key, .again = mr, .ret = 1,
				.access = IB_ACCESS_LOCAL_WRITE };

	rt_write_cut(test, env, mr, page, key, &gone);
	lp_expect_no_mr(test, env->sdev, key);
	rt_write_cut(test, env, mr, page, key, &again);
	KUNIT_EXPECT_EQ(test, sr_mr_invalidate(env->sdev, env->pd, key), 0);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(mr, NULL), 0);
}

/*
 * A REG_MR WQE a user's process wrote into its SQ, naming an MR that is
 * free: it names a kernel object, so it fails (LOC_QP_OP_ERR) and the MR
 * stays unregistered.
 */
static void rt_user_reg(struct kunit *test, struct lp_env *env)
{
	struct ib_mr *mr = rt_fr_mr(test, env, rt_pages(test, 1), 1);
	u32 key = (mr->lkey & ~0xff) | 0x44;
	const struct ib_send_wr *bad;
	struct rxe_send_wqe *wqe;
	struct sr_qp *e, *f;

	rt_pair(test, env, &e, &f, RT_SLOW);
	/* What makes it a user's QP to the driver; never dereferenced */
	e->ibqp.uobject = (struct ib_uqp_object *)e;
	wqe = sr_queue_next(&e->sq);
	KUNIT_ASSERT_NOT_NULL(test, wqe);
	memset(wqe, 0, sr_queue_elem(&e->sq));
	wqe->wr.wr_id = 86;
	wqe->wr.opcode = IB_WR_REG_MR;
	wqe->wr.send_flags = IB_SEND_SIGNALED;
	wqe->wr.wr.reg.mr = mr;
	wqe->wr.wr.reg.key = key;
	wqe->wr.wr.reg.access = IB_ACCESS_LOCAL_WRITE;
	sr_queue_produced(&e->sq);
	/* The doorbell: a post of nothing */
	KUNIT_EXPECT_EQ(test, sr_post_send(&e->ibqp, NULL, &bad), 0);
	rt_expect(test, e->ibqp.send_cq, 86, IB_WC_LOC_QP_OP_ERR, 0);
	KUNIT_EXPECT_EQ(test, sr_qp_state(e), IB_QPS_ERR);
	lp_expect_no_mr(test, env->sdev, key);
	e->ibqp.uobject = NULL;
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(mr, NULL), 0);
}

/*
 * What registrations and invalidations refuse: a send that invalidates a
 * key nothing is registered under (REM_INV_REQ_ERR at both ends, both
 * QPs to ERR, the MR left registered), REG_MR of a registered MR,
 * LOCAL_INV of a key not registered and REG_MR from a user's WQE
 * (LOC_QP_OP_ERR, the QP to ERR).
 */
static void rt_fast_reg_bad(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	u8 *page = rt_pages(test, 1);
	u8 *src = rt_buf(test, 64, 3), *dst = rt_buf(test, 64, 0);
	struct ib_mr *mr = rt_fr_mr(test, env, page, 1);
	u32 key = (mr->lkey & ~0xff) | 0x33;
	struct ib_send_wr inv = {
		.wr_id = 85, .opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED, .ex.invalidate_rkey = key + 1,
	};
	struct sr_qp *a, *b, *c, *d;
	struct ib_reg_wr reg;
	struct ib_rdma_wr wr;
	struct ib_sge sge;

	rt_pair(test, env, &a, &b, RT_SLOW);
	rt_reg_wr(&reg, 80, mr, key, IB_ACCESS_LOCAL_WRITE, true, NULL);
	KUNIT_ASSERT_EQ(test, rt_post_wr(b, &reg.wr), 0);
	rt_expect(test, b->ibqp.send_cq, 80, IB_WC_SUCCESS, IB_WC_REG_MR);

	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 81, dst, 64), 0);
	rt_wr(env, &wr, &sge, 82, IB_WR_SEND_WITH_INV, src, 8);
	wr.wr.ex.invalidate_rkey = key + 1;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	rt_expect(test, b->ibqp.recv_cq, 81, IB_WC_REM_INV_REQ_ERR, 0);
	rt_expect(test, a->ibqp.send_cq, 82, IB_WC_REM_INV_REQ_ERR, 0);
	KUNIT_EXPECT_EQ(test, sr_qp_state(a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, sr_qp_state(b), IB_QPS_ERR);
	KUNIT_EXPECT_PTR_EQ(test, sr_mr_get(env->sdev, key), to_sr_mr(mr));
	sr_mr_put(to_sr_mr(mr));

	rt_pair(test, env, &c, &d, RT_SLOW);
	rt_reg_wr(&reg, 83, mr, key + 2, IB_ACCESS_LOCAL_WRITE, true, NULL);
	KUNIT_ASSERT_EQ(test, rt_post_wr(c, &reg.wr), 0);
	rt_expect(test, c->ibqp.send_cq, 83, IB_WC_LOC_QP_OP_ERR, 0);
	KUNIT_EXPECT_EQ(test, sr_qp_state(c), IB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, rt_post_wr(d, &inv), 0);
	rt_expect(test, d->ibqp.send_cq, 85, IB_WC_LOC_QP_OP_ERR, 0);
	KUNIT_EXPECT_EQ(test, sr_qp_state(d), IB_QPS_ERR);
	/* Neither touched the registration */
	KUNIT_EXPECT_PTR_EQ(test, sr_mr_get(env->sdev, key), to_sr_mr(mr));
	sr_mr_put(to_sr_mr(mr));
	rt_user_reg(test, env);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(mr, NULL), 0);
}

/*
 * Packets from an address that is not the connected peer's: dropped and
 * counted, never taken (A reaches B over IPv4, B's peer is A over IPv6);
 * A's one retry runs out.
 */
static void rt_foreign_addr(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_RC, NULL, IB_QPS_RESET);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_RC, NULL, IB_QPS_RESET);
	u8 *src = rt_buf(test, 64, 1), *dst = rt_buf(test, 64, 0);
	struct ib_rdma_wr wr;
	struct ib_sge sge;

	rt_connect(test, env, a, b->ibqp.qp_num, 1, RT_FAST, "127.0.0.1");
	rt_connect(test, env, b, a->ibqp.qp_num, 1, RT_FAST, "::1");
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 1, dst, 64), 0);
	rt_wr(env, &wr, &sge, 90, IB_WR_SEND, src, 64);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	rt_expect(test, a->ibqp.send_cq, 90, IB_WC_RETRY_EXC_ERR, 0);
	lp_expect_none(test, to_sr_cq(b->ibqp.recv_cq));
	/* The first try and its one retry */
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_DROP_ADDRESS), 2);
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_DROP_QPN), 0);
}

/* A UC QP's way to @peer: UC takes no timers, retries or read depths. */
static void rt_connect_uc(struct kunit *test, struct lp_env *env,
			  struct sr_qp *qp, u32 peer_qpn)
{
	struct ib_qp_attr a = {
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE,
		.path_mtu = IB_MTU_1024,
		.dest_qp_num = peer_qpn,
		.rq_psn = RT_PSN,
		.sq_psn = RT_PSN,
	};

	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_INIT, IB_QP_PKEY_INDEX |
					IB_QP_PORT | IB_QP_ACCESS_FLAGS, &a),
			0);
	lp_path(test, env, &a.ah_attr, "127.0.0.1");
	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_RTR, IB_QP_AV |
					IB_QP_PATH_MTU | IB_QP_DEST_QPN |
					IB_QP_RQ_PSN, &a), 0);
	KUNIT_ASSERT_EQ(test, lp_modify(qp, IB_QPS_RTS, IB_QP_SQ_PSN, &a), 0);
}

/*
 * UC: a send of three packets and a write with immediate data arrive; a
 * send that loses a packet completes at the sender and is dropped at the
 * receiver, whose WQE takes the next message instead; no ACK goes back.
 */
static void rt_uc(struct kunit *test)
{
	struct lp_env *env = lp_env(test);
	struct sr_mr *mr = rt_remote_mr(test, env);
	struct sr_qp *a = lp_qp(test, env, IB_QPT_UC, NULL, IB_QPS_RESET);
	struct sr_qp *b = lp_qp(test, env, IB_QPT_UC, NULL, IB_QPS_RESET);
	u8 *src = rt_buf(test, 3000, 7), *dst = rt_buf(test, 8192, 0);
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	struct ib_wc wc;

	rt_connect_uc(test, env, a, b->ibqp.qp_num);
	rt_connect_uc(test, env, b, a->ibqp.qp_num);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 1, dst, 4096), 0);
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 2, dst + 4096, 4096), 0);
	rt_wr(env, &wr, &sge, 90, IB_WR_SEND, src, 3000);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 3000);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 3000), 0);

	/* Its second packet lost: done for the sender, gone for the peer */
	lp_lose(env, BIT(1));
	rt_wr(env, &wr, &sge, 91, IB_WR_SEND, src, 3000);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(a->ibqp.send_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 91);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	lp_expect_none(test, to_sr_cq(b->ibqp.recv_cq));
	lp_lose(env, 0);
	rt_wr(env, &wr, &sge, 92, IB_WR_SEND, src + 1000, 100);
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 100);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 4096, src + 1000, 100), 0);
	KUNIT_EXPECT_GE(test, rt_count(env, SR_OUT_OF_SEQ_REQUEST), 1);

	/* A write with immediate data */
	KUNIT_ASSERT_EQ(test, lp_recv(env, b, 3, dst, 16), 0);
	memset(dst, 0, 4096);
	rt_wr(env, &wr, &sge, 93, IB_WR_RDMA_WRITE_WITH_IMM, src, 2000);
	wr.wr.ex.imm_data = cpu_to_be32(3);
	wr.remote_addr = (uintptr_t)dst + 5;
	wr.rkey = mr->ibmr.rkey;
	KUNIT_ASSERT_EQ(test, rt_post(a, &wr), 0);
	KUNIT_ASSERT_TRUE(test, lp_poll(to_sr_cq(b->ibqp.recv_cq), &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 2000);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 5, src, 2000), 0);
	/* No ACK ever went back: the sender sent, nothing was answered */
	KUNIT_EXPECT_EQ(test, rt_count(env, SR_SENT_PKTS),
			rt_count(env, SR_RCVD_PKTS) + 1);
	KUNIT_EXPECT_EQ(test, sr_dereg_mr(&mr->ibmr, NULL), 0);
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE(rt_send),
	KUNIT_CASE(rt_write),
	KUNIT_CASE(rt_read),
	KUNIT_CASE(rt_atomic),
	KUNIT_CASE(rt_rnr),
	KUNIT_CASE(rt_loss),
	KUNIT_CASE(rt_access),
	KUNIT_CASE(rt_retries),
	KUNIT_CASE(rt_uc),
	KUNIT_CASE(rt_fast_reg),
	KUNIT_CASE(rt_fast_reg_bad),
	KUNIT_CASE(rt_invalidate_midway),
	KUNIT_CASE(rt_post_from_completion),
	KUNIT_CASE(rt_foreign_addr),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "rdma_rxe_rc",
	.test_cases = rt_cases,
};
kunit_test_suite(rt_suite);
