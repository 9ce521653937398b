// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_data: posting work requests that move real bytes
 * on the test device.  ib_post_send(), ib_post_recv() and ib_post_srq_recv()
 * are inline in <rdma/ib_verbs.h>; what the core does for them here is in
 * core/verbs/qp.c (the error state flushes), mr.c and mr_map.c (fast
 * registration), srq.c and ah.c.  SEND with and without immediate data,
 * RDMA READ and WRITE, invalidation, UD with a GRH, SRQs and their limit.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <rdma/ib_cache.h>
#include <linux/delay.h>
#include "tk.h"
#include "vk.h"

static int vk_post_recv(struct ib_qp *qp, u64 id, struct ib_sge *sge, int n)
{
	struct ib_recv_wr wr = { .wr_id = id, .sg_list = sge, .num_sge = n };
	const struct ib_recv_wr *bad;

	return ib_post_recv(qp, &wr, &bad);
}

static int vk_post_send(struct ib_qp *qp, u64 id, enum ib_wr_opcode op,
			struct ib_sge *sge, int n, int flags)
{
	struct ib_send_wr wr = { .wr_id = id, .opcode = op, .sg_list = sge,
				 .num_sge = n, .send_flags = flags };
	const struct ib_send_wr *bad;

	return ib_post_send(qp, &wr, &bad);
}

/* Polls exactly @n completions (by wr_id order of arrival) into @wc. */
static void vk_poll(struct kunit *test, struct ib_cq *cq, struct ib_wc *wc,
		    int n)
{
	vk_poll_exact(test, cq, wc, n);
}

static struct ib_wc *vk_find(struct ib_wc *wc, int n, u64 id)
{
	int i;

	for (i = 0; i < n; i++)
		if (wc[i].wr_id == id)
			return &wc[i];
	return NULL;
}

static void data_send_recv(struct kunit *test)
{
	struct vk_pair p;
	char *src = kunit_kzalloc(test, 64, GFP_KERNEL);
	char *dst = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_sge ss, rs;
	struct ib_wc wc[3], *w;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	strscpy(src, "the quick brown fox jumps over the lazy dog", 64);
	ss = vk_sge(test, src, 44);
	rs = vk_sge(test, dst, 64);
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 2, &rs, 1), 0);
	KUNIT_ASSERT_EQ(test, vk_post_send(p.a, 1, IB_WR_SEND, &ss, 1,
					   IB_SEND_SIGNALED), 0);
	vk_poll(test, p.cq, wc, 2);
	w = vk_find(wc, 2, 1);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_SEND);
	KUNIT_EXPECT_PTR_EQ(test, w->qp, p.a);
	w = vk_find(wc, 2, 2);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, w->byte_len, 44U);
	KUNIT_EXPECT_EQ(test, w->src_qp, p.a->qp_num);
	KUNIT_EXPECT_PTR_EQ(test, w->qp, p.b);
	KUNIT_EXPECT_FALSE(test, w->wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_STREQ(test, dst, "the quick brown fox jumps over the lazy dog");
	vk_pair_free(test, &p);
}

static void data_send_imm_multi_sge(struct kunit *test)
{
	struct vk_pair p;
	u8 *src = kunit_kzalloc(test, 60, GFP_KERNEL);
	u8 *dst = kunit_kzalloc(test, 128, GFP_KERNEL);
	struct ib_sge ss[3], rs[2];
	struct ib_send_wr wr = { .wr_id = 1, .opcode = IB_WR_SEND_WITH_IMM,
				 .sg_list = ss, .num_sge = 3,
				 .ex.imm_data = cpu_to_be32(0xfeedbeef) };
	const struct ib_send_wr *bad;
	struct ib_wc wc[2];
	int i;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	for (i = 0; i < 60; i++)
		src[i] = i + 1;
	ss[0] = vk_sge(test, src, 10);
	ss[1] = vk_sge(test, src + 10, 20);
	ss[2] = vk_sge(test, src + 30, 30);
	rs[0] = vk_sge(test, dst, 25);
	rs[1] = vk_sge(test, dst + 64, 64);
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 2, rs, 2), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(p.a, &wr, &bad), 0);
	/* Unsignaled: only the receive completes */
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 2ULL);
	KUNIT_EXPECT_EQ(test, wc[0].byte_len, 60U);
	KUNIT_EXPECT_TRUE(test, wc[0].wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc[0].ex.imm_data), 0xfeedbeefU);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 25), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 64, src + 25, 35), 0);
	vk_pair_free(test, &p);
}

static void data_rnr_without_recv(struct kunit *test)
{
	struct vk_pair p;
	char *src = kunit_kzalloc(test, 16, GFP_KERNEL);
	struct ib_sge ss;
	struct ib_wc wc[2];

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	ss = vk_sge(test, src, 16);
	KUNIT_ASSERT_EQ(test, vk_post_send(p.a, 1, IB_WR_SEND, &ss, 1, 0), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_RNR_RETRY_EXC_ERR);
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	/* Now every send is flushed */
	KUNIT_ASSERT_EQ(test, vk_post_send(p.a, 5, IB_WR_SEND, &ss, 1, 0), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 5ULL);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
	vk_pair_free(test, &p);
}

static void data_recv_too_small(struct kunit *test)
{
	struct vk_pair p;
	char *src = kunit_kzalloc(test, 40, GFP_KERNEL);
	char *dst = kunit_kzalloc(test, 16, GFP_KERNEL);
	struct ib_sge ss, rs;
	struct ib_wc wc[3];

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	ss = vk_sge(test, src, 40);
	rs = vk_sge(test, dst, 16);
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 2, &rs, 1), 0);
	KUNIT_ASSERT_EQ(test, vk_post_send(p.a, 1, IB_WR_SEND, &ss, 1,
					   IB_SEND_SIGNALED), 0);
	vk_poll(test, p.cq, wc, 2);
	KUNIT_EXPECT_EQ(test, vk_find(wc, 2, 2)->status, IB_WC_LOC_LEN_ERR);
	KUNIT_EXPECT_EQ(test, vk_find(wc, 2, 1)->status, IB_WC_REM_INV_REQ_ERR);
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, vk_state(p.b), IB_QPS_ERR);
	vk_pair_free(test, &p);
}

static void data_post_bad(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_qp *qp = vk_qp_alone(test, IB_QPT_RC);
	char *buf = kunit_kzalloc(test, 16, GFP_KERNEL);
	struct ib_sge s = vk_sge(test, buf, 16);
	struct ib_send_wr w2 = { .wr_id = 2, .opcode = IB_WR_SEND };
	struct ib_send_wr w1 = { .wr_id = 1, .opcode = IB_WR_SEND,
				 .sg_list = &s, .num_sge = 1, .next = &w2 };
	struct ib_recv_wr r = { .wr_id = 3, .sg_list = &s, .num_sge = 1 };
	const struct ib_recv_wr *rbad = NULL;
	const struct ib_send_wr *bad = NULL;
	struct ib_wc wc;

	/* Receives cannot be posted in Reset, sends not before RTS */
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &r, &rbad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rbad, (const struct ib_recv_wr *)&r);
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &w1, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_send_wr *)&w1);
	KUNIT_ASSERT_EQ(test, vk_connect(qp, qp->qp_num), 0);
	/* Too many SGEs, an opcode RC lacks */
	w1.num_sge = 5;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &w1, &bad), -EINVAL);
	w1.num_sge = 1;
	w1.opcode = IB_WR_ATOMIC_CMP_AND_SWP;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &w1, &bad), -EINVAL);
	r.num_sge = 5;
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &r, &rbad), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(qp->send_cq, 1, &wc), 0);
	KUNIT_EXPECT_PTR_EQ(test, qp->pd, v->pd);
	vk_qp_alone_free(test, qp);
}

static void data_flush_on_error(struct kunit *test)
{
	struct vk_pair p;
	char *dst = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	struct ib_sge rs;
	struct ib_wc wc[6];
	int i;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	rs = vk_sge(test, dst, 64);
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 10 + i, &rs, 1), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.b, &a, IB_QP_STATE), 0);
	vk_poll(test, p.cq, wc, 5);
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 10ULL + i);
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_WR_FLUSH_ERR);
	}
	/* A receive posted in Error is flushed too */
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 20, &rs, 1), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 20ULL);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
	vk_pair_free(test, &p);
}

static void data_rdma_write_then_invalidate(struct kunit *test)
{
	struct vk_pair p;
	u8 *target = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	u8 *src = kunit_kzalloc(test, 300, GFP_KERNEL);
	struct ib_send_wr inv = { .wr_id = 9, .opcode = IB_WR_LOCAL_INV,
				  .send_flags = IB_SEND_SIGNALED };
	const struct ib_send_wr *bad;
	struct ib_sge ss;
	struct ib_wc wc;
	struct ib_mr *mr;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	memset(src, 0xa5, 300);
	mr = vk_reg_buf(test, p.b, target, 2 * PAGE_SIZE,
		    IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);
	ss = vk_sge(test, src, 300);
	/* Across the page boundary of the MR */
	vk_rdma_poll(test, &p, 1, IB_WR_RDMA_WRITE, &ss,
		     mr->iova + PAGE_SIZE - 100, mr->rkey, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(target + PAGE_SIZE - 100, src, 300), 0);
	KUNIT_EXPECT_EQ(test, target[PAGE_SIZE - 101], 0);
	KUNIT_EXPECT_EQ(test, target[PAGE_SIZE + 200], 0);

	inv.ex.invalidate_rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(p.b, &inv, &bad), 0);
	KUNIT_ASSERT_EQ(test, vk_poll_wait(p.cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_LOCAL_INV);

	vk_rdma_poll(test, &p, 2, IB_WR_RDMA_WRITE, &ss,
		     mr->iova, mr->rkey, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	vk_pair_free(test, &p);
}

static void data_rdma_read(struct kunit *test)
{
	struct vk_pair p;
	u8 *remote = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 *local = kunit_kzalloc(test, 512, GFP_KERNEL);
	struct ib_sge ls;
	struct ib_wc wc;
	struct ib_mr *mr;
	int i;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	for (i = 0; i < PAGE_SIZE; i++)
		remote[i] = i * 7;
	mr = vk_reg_buf(test, p.b, remote, PAGE_SIZE, IB_ACCESS_REMOTE_READ);
	ls = vk_sge(test, local, 512);
	vk_rdma_poll(test, &p, 1, IB_WR_RDMA_READ, &ls,
		     mr->iova + 1000, mr->rkey, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 512U);
	KUNIT_EXPECT_EQ(test, memcmp(local, remote + 1000, 512), 0);

	/* The MR grants no remote write */
	vk_rdma_poll(test, &p, 2, IB_WR_RDMA_WRITE, &ls,
		     mr->iova, mr->rkey, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	vk_pair_free(test, &p);
}

static void data_rdma_out_of_bounds(struct kunit *test)
{
	struct vk_pair p;
	u8 *remote = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 *local = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_sge ls;
	struct ib_wc wc;
	struct ib_mr *mr;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	mr = vk_reg_buf(test, p.b, remote, 100, IB_ACCESS_REMOTE_WRITE);
	ls = vk_sge(test, local, 64);
	vk_rdma_poll(test, &p, 1, IB_WR_RDMA_WRITE, &ls,
		     mr->iova + 50, mr->rkey, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	vk_pair_free(test, &p);
}

static void data_write_imm_and_send_inv(struct kunit *test)
{
	struct vk_pair p;
	u8 *target = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 *src = kunit_kzalloc(test, 64, GFP_KERNEL);
	u8 *rbuf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_rdma_wr w = {
		.wr = { .wr_id = 1, .opcode = IB_WR_RDMA_WRITE_WITH_IMM,
			.num_sge = 1, .ex.imm_data = cpu_to_be32(5) },
	};
	struct ib_send_wr s = { .wr_id = 3, .opcode = IB_WR_SEND_WITH_INV,
				.num_sge = 1 };
	const struct ib_send_wr *bad;
	struct ib_sge ss, rs;
	struct ib_wc wc[2];
	struct ib_mr *mr;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	memset(src, 0x3c, 64);
	mr = vk_reg_buf(test, p.b, target, PAGE_SIZE, IB_ACCESS_REMOTE_WRITE);
	ss = vk_sge(test, src, 64);
	rs = vk_sge(test, rbuf, 64);
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 2, &rs, 1), 0);
	w.wr.sg_list = &ss;
	w.remote_addr = mr->iova;
	w.rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(p.a, &w.wr, &bad), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 2ULL);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc[0].ex.imm_data), 5U);
	KUNIT_EXPECT_EQ(test, memcmp(target, src, 64), 0);

	/* SEND_WITH_INV invalidates the receiver's MR */
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 4, &rs, 1), 0);
	s.sg_list = &ss;
	s.ex.invalidate_rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(p.a, &s, &bad), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 4ULL);
	KUNIT_EXPECT_TRUE(test, wc[0].wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, wc[0].ex.invalidate_rkey, mr->rkey);
	KUNIT_ASSERT_EQ(test, vk_rdma(p.a, 5, IB_WR_RDMA_WRITE, &ss, mr->iova,
				      mr->rkey), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	vk_pair_free(test, &p);
}

static void data_ud_with_grh(struct kunit *test)
{
	struct vk *v = test->priv;
	struct vk_pair p;
	u8 *src = kunit_kzalloc(test, 32, GFP_KERNEL);
	u8 *dst = kunit_kzalloc(test, 40 + 64, GFP_KERNEL);
	struct rdma_ah_attr aa = { .type = RDMA_AH_ATTR_TYPE_IB };
	struct ib_ud_wr w = { .wr = { .wr_id = 1, .opcode = IB_WR_SEND,
				      .num_sge = 1,
				      .send_flags = IB_SEND_SIGNALED } };
	const struct ib_send_wr *bad;
	struct ib_grh *grh = (struct ib_grh *)dst;
	struct ib_sge ss, rs;
	union ib_gid gid;
	struct ib_wc wc[2];
	struct ib_ah *ah;

	vk_pair_make(test, &p, IB_QPT_UD, IB_POLL_DIRECT, NULL);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(v->dev, 1, 0, &gid), 0);
	rdma_ah_set_port_num(&aa, 1);
	rdma_ah_set_ah_flags(&aa, IB_AH_GRH);
	aa.grh.dgid = gid;
	aa.grh.hop_limit = 3;
	ah = rdma_create_ah(v->pd, &aa, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	memset(src, 0x42, 32);
	ss = vk_sge(test, src, 32);
	rs = vk_sge(test, dst, 40 + 64);
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 2, &rs, 1), 0);
	w.wr.sg_list = &ss;
	w.ah = ah;
	w.remote_qpn = p.b->qp_num;
	w.remote_qkey = VK_QKEY;
	KUNIT_ASSERT_EQ(test, ib_post_send(p.a, &w.wr, &bad), 0);
	vk_poll(test, p.cq, wc, 2);
	KUNIT_EXPECT_EQ(test, vk_find(wc, 2, 1)->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, vk_find(wc, 2, 2)->byte_len, 40U + 32);
	KUNIT_EXPECT_TRUE(test, vk_find(wc, 2, 2)->wc_flags & IB_WC_GRH);
	KUNIT_EXPECT_EQ(test, vk_find(wc, 2, 2)->src_qp, p.a->qp_num);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 40, src, 32), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->sgid, &gid, 16), 0);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 3);

	/* A wrong Q_Key: sent, but never received */
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 3, &rs, 1), 0);
	w.remote_qkey = VK_QKEY + 1;
	KUNIT_ASSERT_EQ(test, ib_post_send(p.a, &w.wr, &bad), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 1ULL);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE, NULL), 0);
	vk_pair_free(test, &p);
}

static atomic_t srq_limit_events;

static void srq_event(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		atomic_inc(&srq_limit_events);
}

static void data_srq_receive_and_limit(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_srq_init_attr sa = {
		.event_handler = srq_event,
		.srq_type = IB_SRQT_BASIC,
		.attr = { .max_wr = 8, .max_sge = 1, .srq_limit = 2 },
	};
	struct ib_srq *srq = ib_create_srq(v->pd, &sa);
	u8 *src = kunit_kzalloc(test, 16, GFP_KERNEL);
	u8 *dst = kunit_kzalloc(test, 3 * 16, GFP_KERNEL);
	struct ib_recv_wr r = { .num_sge = 1 };
	const struct ib_recv_wr *bad;
	struct ib_sge ss, rs[3];
	struct vk_pair p;
	struct ib_wc wc[2];
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	atomic_set(&srq_limit_events, 0);
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, srq);
	for (i = 0; i < 3; i++) {
		rs[i] = vk_sge(test, dst + 16 * i, 16);
		r.wr_id = 10 + i;
		r.sg_list = &rs[i];
		KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, &r, &bad), 0);
	}
	memset(src, 0x77, 16);
	ss = vk_sge(test, src, 16);
	KUNIT_ASSERT_EQ(test, vk_post_send(p.a, 1, IB_WR_SEND, &ss, 1, 0), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 10ULL);
	/* Two left, the limit: not below it yet */
	KUNIT_EXPECT_EQ(test, atomic_read(&srq_limit_events), 0);
	KUNIT_ASSERT_EQ(test, vk_post_send(p.a, 2, IB_WR_SEND, &ss, 1, 0), 0);
	vk_poll(test, p.cq, &wc[1], 1);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 11ULL);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&srq_limit_events) == 1));
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 16, src, 16), 0);
	KUNIT_EXPECT_EQ(test, dst[32], 0);
	/* A QP on an SRQ has no receive queue of its own */
	KUNIT_EXPECT_EQ(test, vk_post_recv(p.b, 1, rs, 1), -EINVAL);
	vk_pair_free(test, &p);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
}

/*
 * Queues hold what they were made for: a work request that does not fit
 * is refused with -ENOMEM and bad_wr on it, the ones before it are
 * posted.  Unsignaled work requests keep their slots until a later
 * completion of the queue is polled.
 */
static void data_queue_depth(struct kunit *test)
{
	struct vk_pair p;
	u8 *remote = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 *src = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_rdma_wr *w = kunit_kcalloc(test, 33, sizeof(*w), GFP_KERNEL);
	struct ib_recv_wr *r = kunit_kcalloc(test, 33, sizeof(*r), GFP_KERNEL);
	const struct ib_send_wr *bad = NULL;
	const struct ib_recv_wr *rbad = NULL;
	struct ib_sge ss;
	struct ib_wc wc;
	struct ib_mr *mr;
	int i;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	mr = vk_reg_buf(test, p.b, remote, PAGE_SIZE,
			IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, r);
	memset(src, 0xe7, 64);
	ss = vk_sge(test, src, 64);
	for (i = 0; i < 33; i++) {
		w[i].wr.wr_id = i;
		w[i].wr.opcode = IB_WR_RDMA_WRITE;
		w[i].wr.sg_list = &ss;
		w[i].wr.num_sge = 1;
		w[i].wr.next = i < 32 ? &w[i + 1].wr : NULL;
		w[i].remote_addr = mr->iova;
		w[i].rkey = mr->rkey;
		r[i].wr_id = 100 + i;
		r[i].next = i < 32 ? &r[i + 1] : NULL;
	}
	/* 32 unsignaled WRITEs fit; the 33rd does not */
	KUNIT_EXPECT_EQ(test, ib_post_send(p.a, &w[0].wr, &bad), -ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_send_wr *)&w[32].wr);
	KUNIT_EXPECT_EQ(test, ib_post_recv(p.b, r, &rbad), -ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, rbad, (const struct ib_recv_wr *)&r[32]);
	/* Executed, but nothing completed: still no room */
	KUNIT_EXPECT_TRUE(test, tk_wait_for(!memcmp(remote, src, 64)));
	msleep(20);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(p.cq, 1, &wc), 0);
	w[32].wr.send_flags = IB_SEND_SIGNALED;
	KUNIT_EXPECT_EQ(test, ib_post_send(p.a, &w[32].wr, &bad), -ENOMEM);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	vk_pair_free(test, &p);
}

/*
 * The error state flushes what is outstanding, in order, each with
 * IB_WC_WR_FLUSH_ERR, signaled or not: here sends held back in SQD.
 */
static void data_flush_in_order(struct kunit *test)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_SQD };
	char *buf = kunit_kzalloc(test, 16, GFP_KERNEL);
	struct ib_send_wr w[6];
	const struct ib_send_wr *bad;
	struct ib_sge s;
	struct vk_pair p;
	struct ib_wc wc[6];
	int i;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	s = vk_sge(test, buf, 16);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.a, &a, IB_QP_STATE), 0);
	memset(w, 0, sizeof(w));
	for (i = 0; i < 6; i++) {
		w[i].wr_id = 50 + i;
		w[i].opcode = IB_WR_SEND;
		w[i].sg_list = &s;
		w[i].num_sge = 1;
		w[i].send_flags = i % 2 ? IB_SEND_SIGNALED : 0;
		w[i].next = i < 5 ? &w[i + 1] : NULL;
	}
	KUNIT_ASSERT_EQ(test, ib_post_send(p.a, w, &bad), 0);
	msleep(20);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(p.cq, 1, wc), 0);
	a.qp_state = IB_QPS_ERR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.a, &a, IB_QP_STATE), 0);
	vk_poll(test, p.cq, wc, 6);
	for (i = 0; i < 6; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 50ULL + i);
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_WR_FLUSH_ERR);
	}
	vk_pair_free(test, &p);
}

static struct kunit_case data_cases[] = {
	KUNIT_CASE(data_send_recv),
	KUNIT_CASE(data_send_imm_multi_sge),
	KUNIT_CASE(data_rnr_without_recv),
	KUNIT_CASE(data_recv_too_small),
	KUNIT_CASE(data_post_bad),
	KUNIT_CASE(data_flush_on_error),
	KUNIT_CASE(data_rdma_write_then_invalidate),
	KUNIT_CASE(data_rdma_read),
	KUNIT_CASE(data_rdma_out_of_bounds),
	KUNIT_CASE(data_write_imm_and_send_inv),
	KUNIT_CASE(data_ud_with_grh),
	KUNIT_CASE(data_srq_receive_and_limit),
	KUNIT_CASE(data_queue_depth),
	KUNIT_CASE(data_flush_in_order),
	{}
};

static struct kunit_suite data_suite = {
	.name = "rdma_core_data",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = data_cases,
};

/*
 * The same traffic on a device that does real DMA (dma-direct through a
 * platform device): ib_dma_map_*() hand out bus addresses, which the
 * device resolves as a DMA engine would.
 */
static int vk_init_dma(struct kunit *test)
{
	const struct tdev_params params = { .dma_device = true };

	return vk_init_with(test, &params);
}

static void data_dma_addresses(struct kunit *test)
{
	struct vk *v = test->priv;
	char *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_sge s = vk_sge(test, buf, 64);

	KUNIT_EXPECT_FALSE(test, ib_uses_virt_dma(v->dev));
	KUNIT_EXPECT_FALSE(test, ib_dma_mapping_error(v->dev, s.addr));
	/* dma-direct: a bus address, not the kernel's virtual one */
	KUNIT_EXPECT_NE(test, s.addr, (u64)(uintptr_t)buf);
	KUNIT_EXPECT_EQ(test, s.addr, (u64)virt_to_phys(buf));
	ib_dma_unmap_single(v->dev, s.addr, 64, DMA_BIDIRECTIONAL);
}

static void data_dma_send_recv(struct kunit *test)
{
	data_send_recv(test);
}

static void data_dma_rdma_write_then_invalidate(struct kunit *test)
{
	data_rdma_write_then_invalidate(test);
}

static void data_dma_rdma_read(struct kunit *test)
{
	data_rdma_read(test);
}

static struct kunit_case data_dma_cases[] = {
	KUNIT_CASE(data_dma_addresses),
	KUNIT_CASE(data_dma_send_recv),
	KUNIT_CASE(data_dma_rdma_write_then_invalidate),
	KUNIT_CASE(data_dma_rdma_read),
	{}
};

static struct kunit_suite data_dma_suite = {
	.name = "rdma_core_data_dma",
	.init = vk_init_dma,
	.exit = vk_exit,
	.test_cases = data_dma_cases,
};

/*
 * The same traffic between RoCE ports: each message arrives on the
 * receiver's netdev and is delivered after ib_device_get_by_netdev() found
 * the device, in the device's interrupt context (hard, by default).
 */
static int vk_init_roce(struct kunit *test)
{
	const struct tdev_params params = { .roce = true };

	return vk_init_with(test, &params);
}

static void data_roce_send_recv(struct kunit *test)
{
	data_send_recv(test);
}

static void data_roce_write_imm_and_send_inv(struct kunit *test)
{
	data_write_imm_and_send_inv(test);
}

/* A device unknown by its netdev does not get the message. */
static void data_roce_lost_when_not_found(struct kunit *test)
{
	struct vk *v = test->priv;
	char *src = kunit_kzalloc(test, 16, GFP_KERNEL);
	char *dst = kunit_kzalloc(test, 16, GFP_KERNEL);
	struct ib_sge ss, rs;
	struct vk_pair p;
	struct ib_wc wc;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	ss = vk_sge(test, src, 16);
	rs = vk_sge(test, dst, 16);
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 2, &rs, 1), 0);
	/* The port no longer has the netdev the device receives on */
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(v->dev, NULL, 1), 0);
	KUNIT_ASSERT_EQ(test, vk_post_send(p.a, 1, IB_WR_SEND, &ss, 1,
					   IB_SEND_SIGNALED), 0);
	vk_poll(test, p.cq, &wc, 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1ULL);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_RETRY_EXC_ERR);
	vk_pair_free(test, &p);
}

static struct kunit_case data_roce_cases[] = {
	KUNIT_CASE(data_roce_send_recv),
	KUNIT_CASE(data_roce_write_imm_and_send_inv),
	KUNIT_CASE(data_roce_lost_when_not_found),
	{}
};

static struct kunit_suite data_roce_suite = {
	.name = "rdma_core_data_roce",
	.init = vk_init_roce,
	.exit = vk_exit,
	.test_cases = data_roce_cases,
};

kunit_test_suites(&data_suite, &data_dma_suite, &data_roce_suite);
