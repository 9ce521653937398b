// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: work requests moving real bytes through ib_core on the test
 * double, the completion API in every poll context, the CQ pool and
 * draining.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <rdma/ib_cache.h>
#include "tdev.h"
#include "verbs_kunit.h"

/* Two QPs of one type on one CQ, connected to each other. */
struct vk_pair {
	struct ib_cq *cq;
	struct ib_qp *a, *b;
};

static void vk_pair_make(struct kunit *test, struct vk_pair *p,
			 enum ib_qp_type type, enum ib_poll_context ctx,
			 struct ib_srq *srq)
{
	p->cq = vk_cq(test, 1024, ctx);
	p->a = vk_qp(test, type, p->cq, p->cq, NULL);
	p->b = vk_qp(test, type, p->cq, p->cq, srq);
	KUNIT_ASSERT_EQ(test, vk_connect(p->a, p->b->qp_num), 0);
	KUNIT_ASSERT_EQ(test, vk_connect(p->b, p->a->qp_num), 0);
}

static void vk_pair_free(struct kunit *test, struct vk_pair *p)
{
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(p->a), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(p->b), 0);
	ib_free_cq(p->cq);
}

static struct ib_sge vk_sge(struct kunit *test, void *buf, u32 len)
{
	struct vk *v = test->priv;

	return (struct ib_sge){
		.addr = ib_dma_map_single(v->dev, buf, len, DMA_BIDIRECTIONAL),
		.length = len,
		.lkey = v->pd->local_dma_lkey,
	};
}

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
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, n + 1, wc), n);
}

static struct ib_wc *vk_find(struct ib_wc *wc, int n, u64 id)
{
	int i;

	for (i = 0; i < n; i++)
		if (wc[i].wr_id == id)
			return &wc[i];
	return NULL;
}

static enum ib_qp_state vk_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a;

	if (ib_query_qp(qp, &a, IB_QP_STATE, &ia))
		return -1;
	return a.qp_state;
}

/* ---- rdma_core_data ---- */

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
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);
	struct ib_qp *qp = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
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
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 1, &wc), 0);
	KUNIT_EXPECT_PTR_EQ(test, qp->pd, v->pd);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
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
	/* A receive posted in Error is flushed at once */
	KUNIT_ASSERT_EQ(test, vk_post_recv(p.b, 20, &rs, 1), 0);
	vk_poll(test, p.cq, wc, 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 20ULL);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
	vk_pair_free(test, &p);
}

/* Registers @len bytes at @buf with a fast-registration MR on @qp. */
static struct ib_mr *vk_reg(struct kunit *test, struct ib_qp *qp, void *buf,
			    u32 len, int access)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 8);
	struct scatterlist *sg = kunit_kzalloc(test, sizeof(*sg), GFP_KERNEL);
	struct ib_reg_wr wr = {
		.wr = { .wr_id = 77, .opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED },
		.access = access,
	};
	const struct ib_send_wr *bad;
	struct ib_wc wc;

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	sg_init_one(sg, buf, len);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(v->dev, sg, 1, DMA_BIDIRECTIONAL), 1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sg, 1, NULL, PAGE_SIZE), 1);
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey) & 0xff);
	wr.mr = mr;
	wr.key = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr.wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 1, &wc), 1);
	KUNIT_ASSERT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_REG_MR);
	return mr;
}

static int vk_rdma(struct ib_qp *qp, u64 id, enum ib_wr_opcode op,
		   struct ib_sge *sge, u64 raddr, u32 rkey)
{
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = id, .opcode = op, .sg_list = sge,
			.num_sge = 1, .send_flags = IB_SEND_SIGNALED },
		.remote_addr = raddr,
		.rkey = rkey,
	};
	const struct ib_send_wr *bad;

	return ib_post_send(qp, &wr.wr, &bad);
}

/* Posts vk_rdma() on @p's QP a and polls its completion into @wc. */
static void vk_rdma_poll(struct kunit *test, struct vk_pair *p, u64 id,
			 enum ib_wr_opcode op, struct ib_sge *sge, u64 raddr,
			 u32 rkey, struct ib_wc *wc)
{
	KUNIT_ASSERT_EQ(test, vk_rdma(p->a, id, op, sge, raddr, rkey), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(p->cq, 1, wc), 1);
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
	mr = vk_reg(test, p.b, target, 2 * PAGE_SIZE,
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
	KUNIT_ASSERT_EQ(test, ib_poll_cq(p.cq, 1, &wc), 1);
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
	mr = vk_reg(test, p.b, remote, PAGE_SIZE, IB_ACCESS_REMOTE_READ);
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
	mr = vk_reg(test, p.b, remote, 100, IB_ACCESS_REMOTE_WRITE);
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
	mr = vk_reg(test, p.b, target, PAGE_SIZE, IB_ACCESS_REMOTE_WRITE);
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
	KUNIT_EXPECT_EQ(test, atomic_read(&srq_limit_events), 0);
	KUNIT_ASSERT_EQ(test, vk_post_send(p.a, 2, IB_WR_SEND, &ss, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq_limit_events), 1);
	vk_poll(test, p.cq, wc, 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 10ULL);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 11ULL);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst + 16, src, 16), 0);
	KUNIT_EXPECT_EQ(test, dst[32], 0);
	/* A QP on an SRQ has no receive queue of its own */
	KUNIT_EXPECT_EQ(test, vk_post_recv(p.b, 1, rs, 1), -EINVAL);
	vk_pair_free(test, &p);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
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
	{}
};

static struct kunit_suite data_suite = {
	.name = "rdma_core_data",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = data_cases,
};

/* ---- rdma_core_sg_gaps ---- */

static int vk_init_gaps(struct kunit *test)
{
	const struct tdev_params params = { .sg_gaps = true };

	return vk_init_with(test, &params);
}

/* Three elements no page-list MR can take together: odd starts and ends. */
struct gaps_layout {
	struct scatterlist sg[3];
	u8 *buf[3];
	u32 off[3], len[3];
};

static void gaps_layout_make(struct kunit *test, struct gaps_layout *g)
{
	static const u32 off[3] = { 100, 7, 0 }, len[3] = { 300, 1000, 50 };
	struct vk *v = test->priv;
	int i;

	sg_init_table(g->sg, 3);
	for (i = 0; i < 3; i++) {
		g->buf[i] = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, g->buf[i]);
		g->off[i] = off[i];
		g->len[i] = len[i];
		sg_set_buf(&g->sg[i], g->buf[i] + off[i], len[i]);
	}
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(v->dev, g->sg, 3, DMA_BIDIRECTIONAL),
			3);
}

/* Registers @mr, mapped already, for remote writes through @qp. */
static void gaps_register(struct kunit *test, struct ib_qp *qp,
			  struct ib_mr *mr)
{
	struct ib_reg_wr wr = {
		.wr = { .wr_id = 78, .opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED },
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
		.mr = mr,
	};
	const struct ib_send_wr *bad;
	struct ib_wc wc;

	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey) & 0xff);
	wr.key = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr.wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 1, &wc), 1);
	KUNIT_ASSERT_EQ(test, wc.status, IB_WC_SUCCESS);
}

/* An SG_GAPS MR maps every element; a page-list MR only the first. */
static void sg_gaps_maps_every_element(struct kunit *test)
{
	struct vk *v = test->priv;
	struct gaps_layout g;
	struct ib_mr *gaps, *pages;

	gaps_layout_make(test, &g);
	gaps = ib_alloc_mr(v->pd, IB_MR_TYPE_SG_GAPS, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(gaps));
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(gaps, g.sg, 3, NULL, PAGE_SIZE), 3);
	KUNIT_EXPECT_EQ(test, gaps->length, (u64)(300 + 1000 + 50));
	KUNIT_EXPECT_EQ(test, gaps->iova, (u64)(uintptr_t)(g.buf[0] + 100));

	pages = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pages));
	/* The first element ends mid-page: it is the whole mappable prefix. */
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(pages, g.sg, 3, NULL, PAGE_SIZE), 1);
	KUNIT_EXPECT_EQ(test, pages->length, (u64)300);

	/* No more elements than the MR was allocated for. */
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(gaps), 0);
	gaps = ib_alloc_mr(v->pd, IB_MR_TYPE_SG_GAPS, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(gaps));
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(gaps, g.sg, 3, NULL, PAGE_SIZE), 2);
	KUNIT_EXPECT_EQ(test, gaps->length, (u64)(300 + 1000));
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(gaps), 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(pages), 0);
}

/* An RDMA WRITE through an SG_GAPS MR lands in each element in turn. */
static void sg_gaps_write_lands_in_each_element(struct kunit *test)
{
	u8 *src = kunit_kzalloc(test, 1350, GFP_KERNEL);
	struct vk *v = test->priv;
	struct gaps_layout g;
	struct vk_pair p;
	struct ib_sge ss;
	struct ib_wc wc;
	struct ib_mr *mr;
	u32 i, at = 0;

	KUNIT_ASSERT_NOT_NULL(test, src);
	for (i = 0; i < 1350; i++)
		src[i] = i % 251 + 1;
	gaps_layout_make(test, &g);
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	mr = ib_alloc_mr(v->pd, IB_MR_TYPE_SG_GAPS, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, g.sg, 3, NULL, PAGE_SIZE), 3);
	gaps_register(test, p.b, mr);

	ss = vk_sge(test, src, 1350);
	vk_rdma_poll(test, &p, 1, IB_WR_RDMA_WRITE, &ss,
		     mr->iova, mr->rkey, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, memcmp(g.buf[i] + g.off[i], src + at,
					     g.len[i]), 0);
		if (g.off[i])
			KUNIT_EXPECT_EQ(test, g.buf[i][g.off[i] - 1], 0);
		KUNIT_EXPECT_EQ(test, g.buf[i][g.off[i] + g.len[i]], 0);
		at += g.len[i];
	}

	/* One byte past the last element is outside the MR. */
	ss.length = 2;
	vk_rdma_poll(test, &p, 2, IB_WR_RDMA_WRITE, &ss,
		     mr->iova + 1349, mr->rkey, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	vk_pair_free(test, &p);
}

static struct kunit_case sg_gaps_cases[] = {
	KUNIT_CASE(sg_gaps_maps_every_element),
	KUNIT_CASE(sg_gaps_write_lands_in_each_element),
	{}
};

static struct kunit_suite sg_gaps_suite = {
	.name = "rdma_core_sg_gaps",
	.init = vk_init_gaps,
	.exit = vk_exit,
	.test_cases = sg_gaps_cases,
};

/* ---- rdma_core_cq_poll ---- */

/* Counts completions dispatched to it; completes @all at @want. */
struct vk_counter {
	struct ib_cqe cqe;
	atomic_t n;
	atomic_t errors;
	int want;
	struct completion all;
};

static void vk_counter_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct vk_counter *c = container_of(wc->wr_cqe, struct vk_counter, cqe);

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		atomic_inc(&c->errors);
	if (atomic_inc_return(&c->n) == c->want)
		complete(&c->all);
}

static void vk_counter_init(struct vk_counter *c, int want)
{
	c->cqe.done = vk_counter_done;
	atomic_set(&c->n, 0);
	atomic_set(&c->errors, 0);
	c->want = want;
	init_completion(&c->all);
}

/* @rounds x 16 sends from a to b: 32 completions per round. */
static void vk_traffic(struct kunit *test, struct vk_pair *p,
		       struct vk_counter *c, int rounds)
{
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_sge s = vk_sge(test, buf, 64);
	struct ib_recv_wr r = { .wr_cqe = &c->cqe, .sg_list = &s, .num_sge = 1 };
	struct ib_send_wr w = { .wr_cqe = &c->cqe, .opcode = IB_WR_SEND,
				.sg_list = &s, .num_sge = 1,
				.send_flags = IB_SEND_SIGNALED };
	const struct ib_recv_wr *rbad;
	const struct ib_send_wr *sbad;
	int i, j;

	for (i = 0; i < rounds; i++) {
		for (j = 0; j < 16; j++)
			KUNIT_ASSERT_EQ(test, ib_post_recv(p->b, &r, &rbad), 0);
		for (j = 0; j < 16; j++)
			KUNIT_ASSERT_EQ(test, ib_post_send(p->a, &w, &sbad), 0);
		if (p->cq->poll_ctx == IB_POLL_DIRECT)
			ib_process_cq_direct(p->cq, -1);
	}
}

static const enum ib_poll_context poll_ctxs[] = {
	IB_POLL_DIRECT, IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE,
	IB_POLL_UNBOUND_WORKQUEUE,
};

static void poll_ctx_desc(const enum ib_poll_context *ctx, char *desc)
{
	static const char *const names[] = {
		[IB_POLL_SOFTIRQ] = "softirq", [IB_POLL_WORKQUEUE] = "workqueue",
		[IB_POLL_UNBOUND_WORKQUEUE] = "unbound workqueue",
		[IB_POLL_DIRECT] = "direct",
	};

	strscpy(desc, names[*ctx], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(poll_ctx, poll_ctxs, poll_ctx_desc);

/* The contexts a drain can wait on (not IB_POLL_DIRECT) */
static const enum ib_poll_context drain_ctxs[] = {
	IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE, IB_POLL_UNBOUND_WORKQUEUE,
};

KUNIT_ARRAY_PARAM(drain_ctx, drain_ctxs, poll_ctx_desc);

static void cq_poll_delivers_all(struct kunit *test)
{
	enum ib_poll_context ctx = *(const enum ib_poll_context *)test->param_value;
	struct vk_counter c;
	struct vk_pair p;

	vk_counter_init(&c, 20 * 32);
	vk_pair_make(test, &p, IB_QPT_RC, ctx, NULL);
	KUNIT_EXPECT_EQ(test, p.cq->poll_ctx, ctx);
	vk_traffic(test, &p, &c, 20);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&c.all, 30 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 20 * 32);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.errors), 0);
	vk_pair_free(test, &p);
}

static void cq_direct_budget(struct kunit *test)
{
	struct vk_pair p;
	struct vk_counter c;
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	u8 *buf = kunit_kzalloc(test, 16, GFP_KERNEL);
	struct ib_sge s = vk_sge(test, buf, 16);
	struct ib_recv_wr r = { .wr_cqe = &c.cqe, .sg_list = &s, .num_sge = 1 };
	const struct ib_recv_wr *bad;
	int i;

	vk_counter_init(&c, 10);
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	for (i = 0; i < 10; i++)
		KUNIT_ASSERT_EQ(test, ib_post_recv(p.b, &r, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p.b, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, 4), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 4);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, -1), 6);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 10);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p.cq, -1), 0);
	vk_pair_free(test, &p);
}

static void cq_alloc_bad_and_any(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *cq;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_cq(v->dev, NULL, 16, 0, 7)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_cq(v->dev, NULL, 100000, 0,
						  IB_POLL_WORKQUEUE)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_cq(v->dev, NULL, 16, 3,
						  IB_POLL_WORKQUEUE)), -EINVAL);
	cq = ib_alloc_cq_any(v->dev, v, 16, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_EQ(test, cq->comp_vector, 0U);
	KUNIT_EXPECT_PTR_EQ(test, cq->cq_context, (void *)v);
	KUNIT_EXPECT_FALSE(test, cq->shared);
	/* The core polls it: direct polling does nothing */
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(cq, -1), 0);
	ib_free_cq(cq);
}

static void cq_free_busy_refused(struct kunit *test)
{
	struct ib_cq *cq = vk_cq(test, 16, IB_POLL_WORKQUEUE);
	struct ib_qp *qp = vk_qp(test, IB_QPT_UD, cq, cq, NULL);

	ib_free_cq(cq);		/* a caller bug: warned about, not done */
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

static struct kunit_case cq_poll_cases[] = {
	KUNIT_CASE_PARAM(cq_poll_delivers_all, poll_ctx_gen_params),
	KUNIT_CASE(cq_direct_budget),
	KUNIT_CASE(cq_alloc_bad_and_any),
	KUNIT_CASE(cq_free_busy_refused),
	{}
};

static struct kunit_suite cq_poll_suite = {
	.name = "rdma_core_cq_poll",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = cq_poll_cases,
};

/* ---- rdma_core_cq_pool ---- */

static void pool_shares(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *c1 = ib_cq_pool_get(v->dev, 100, 0, IB_POLL_WORKQUEUE);
	struct ib_cq *c2 = ib_cq_pool_get(v->dev, 100, -1, IB_POLL_WORKQUEUE);
	struct ib_cq *c3;

	KUNIT_ASSERT_FALSE(test, IS_ERR(c1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(c2));
	KUNIT_EXPECT_PTR_EQ(test, c1, c2);
	KUNIT_EXPECT_TRUE(test, c1->shared);
	KUNIT_EXPECT_EQ(test, c1->cqe_used, 200U);
	KUNIT_EXPECT_EQ(test, c1->poll_ctx, IB_POLL_WORKQUEUE);
	/* Another poll context gets another CQ */
	c3 = ib_cq_pool_get(v->dev, 100, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c3));
	KUNIT_EXPECT_PTR_NE(test, c1, c3);
	/* Shared CQs are not the caller's to destroy, resize or tune */
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(c1, NULL), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(c1, 8192), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(c1, 1, 1), -EOPNOTSUPP);
	ib_cq_pool_put(c1, 100);
	ib_cq_pool_put(c2, 100);
	ib_cq_pool_put(c3, 100);
	KUNIT_EXPECT_EQ(test, c1->cqe_used, 0U);
	KUNIT_EXPECT_EQ(test, c3->cqe_used, 0U);
}

static void pool_grows_when_full(struct kunit *test)
{
	struct vk *v = test->priv;
	u32 max = v->dev->attrs.max_cqe;
	struct ib_cq *c1 = ib_cq_pool_get(v->dev, max - 10, 0,
					  IB_POLL_UNBOUND_WORKQUEUE);
	struct ib_cq *c2, *c3;

	KUNIT_ASSERT_FALSE(test, IS_ERR(c1));
	KUNIT_EXPECT_EQ(test, c1->cqe, (int)max);
	c2 = ib_cq_pool_get(v->dev, 20, 0, IB_POLL_UNBOUND_WORKQUEUE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c2));
	KUNIT_EXPECT_PTR_NE(test, c1, c2);
	/* Room freed on the first is used again */
	ib_cq_pool_put(c1, max - 10);
	c3 = ib_cq_pool_get(v->dev, 30, 0, IB_POLL_UNBOUND_WORKQUEUE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c3));
	KUNIT_EXPECT_PTR_EQ(test, c3, c1);
	ib_cq_pool_put(c2, 20);
	ib_cq_pool_put(c3, 30);
}

static void pool_refuses(struct kunit *test)
{
	struct vk *v = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_cq_pool_get(v->dev, 16, 0,
						     IB_POLL_DIRECT)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_cq_pool_get(v->dev, 0, 0,
						     IB_POLL_WORKQUEUE)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_cq_pool_get(v->dev,
						     v->dev->attrs.max_cqe + 1, 0,
						     IB_POLL_WORKQUEUE)), -EINVAL);
}

static void pool_cq_carries_traffic(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_cq *cq = ib_cq_pool_get(v->dev, 64, 0, IB_POLL_SOFTIRQ);
	struct vk_counter c;
	struct vk_pair p;

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	vk_counter_init(&c, 2 * 32);
	p.cq = cq;
	p.a = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	p.b = vk_qp(test, IB_QPT_RC, cq, cq, NULL);
	KUNIT_ASSERT_EQ(test, vk_connect(p.a, p.b->qp_num), 0);
	KUNIT_ASSERT_EQ(test, vk_connect(p.b, p.a->qp_num), 0);
	vk_traffic(test, &p, &c, 2);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&c.all, 30 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 64);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(p.a), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(p.b), 0);
	ib_cq_pool_put(cq, 64);
}

static struct kunit_case cq_pool_cases[] = {
	KUNIT_CASE(pool_shares),
	KUNIT_CASE(pool_grows_when_full),
	KUNIT_CASE(pool_refuses),
	KUNIT_CASE(pool_cq_carries_traffic),
	{}
};

static struct kunit_suite cq_pool_suite = {
	.name = "rdma_core_cq_pool",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = cq_pool_cases,
};

/* ---- rdma_core_drain ---- */

/* Posts @n receives on b and @sends signaled sends a->b, all counted. */
static void vk_queue_work(struct kunit *test, struct vk_pair *p,
			  struct vk_counter *c, int n, int sends)
{
	u8 *buf = kunit_kzalloc(test, 32, GFP_KERNEL);
	struct ib_sge s = vk_sge(test, buf, 32);
	struct ib_recv_wr r = { .wr_cqe = &c->cqe, .sg_list = &s, .num_sge = 1 };
	struct ib_send_wr w = { .wr_cqe = &c->cqe, .opcode = IB_WR_SEND,
				.sg_list = &s, .num_sge = 1,
				.send_flags = IB_SEND_SIGNALED };
	const struct ib_recv_wr *rbad;
	const struct ib_send_wr *sbad;
	int i;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ib_post_recv(p->b, &r, &rbad), 0);
	for (i = 0; i < sends; i++)
		KUNIT_ASSERT_EQ(test, ib_post_send(p->a, &w, &sbad), 0);
}

static void drain_qp_handles_queued(struct kunit *test)
{
	enum ib_poll_context ctx = *(const enum ib_poll_context *)test->param_value;
	struct vk_counter c;
	struct vk_pair p;

	vk_counter_init(&c, 0);
	vk_pair_make(test, &p, IB_QPT_RC, ctx, NULL);
	/* 30 receives, 12 of them consumed by sends: 42 completions queued */
	vk_queue_work(test, &p, &c, 30, 12);
	ib_drain_qp(p.b);
	ib_drain_qp(p.a);
	/* Draining returns only after every completion was handled */
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 42);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.errors), 0);
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, vk_state(p.b), IB_QPS_ERR);
	vk_pair_free(test, &p);
}

static void drain_sq_and_rq(struct kunit *test)
{
	struct vk_counter c;
	struct vk_pair p;

	vk_counter_init(&c, 0);
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_WORKQUEUE, NULL);
	vk_queue_work(test, &p, &c, 8, 8);
	ib_drain_sq(p.a);
	KUNIT_EXPECT_GE(test, atomic_read(&c.n), 8);
	ib_drain_rq(p.b);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.n), 16);
	vk_pair_free(test, &p);
}

static void drain_direct_cq_refused(struct kunit *test)
{
	struct vk_pair p;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	ib_drain_qp(p.a);	/* warns once, returns, changes nothing */
	KUNIT_EXPECT_EQ(test, vk_state(p.a), IB_QPS_RTS);
	vk_pair_free(test, &p);
}

static void drain_qp_on_srq(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_srq_init_attr sa = {
		.srq_type = IB_SRQT_BASIC, .attr = { .max_wr = 8, .max_sge = 1 },
	};
	struct ib_srq *srq = ib_create_srq(v->pd, &sa);
	struct vk_pair p;

	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_SOFTIRQ, srq);
	ib_drain_qp(p.b);	/* the send queue only */
	KUNIT_EXPECT_EQ(test, vk_state(p.b), IB_QPS_ERR);
	vk_pair_free(test, &p);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
}

static struct kunit_case drain_cases[] = {
	KUNIT_CASE_PARAM(drain_qp_handles_queued, drain_ctx_gen_params),
	KUNIT_CASE(drain_sq_and_rq),
	KUNIT_CASE(drain_direct_cq_refused),
	KUNIT_CASE(drain_qp_on_srq),
	{}
};

static struct kunit_suite drain_suite = {
	.name = "rdma_core_drain",
	.init = vk_init,
	.exit = vk_exit,
	.test_cases = drain_cases,
};

kunit_test_suites(&data_suite, &sg_gaps_suite, &cq_poll_suite, &cq_pool_suite,
		  &drain_suite);
