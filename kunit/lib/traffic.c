// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: traffic for the verbs and data-path suites (vk.h): pairs
 * of connected QPs, buffers, MR registration, RDMA work requests, and
 * counted completions.
 *
 * Everything here runs on the fixture of vk.c (test->priv).  Buffers come
 * from kunit_kzalloc() and are freed with the case; QPs, CQs and MRs are
 * the case's to free.
 */
#include <linux/delay.h>
#include <linux/scatterlist.h>
#include "vk.h"

/**
 * vk_pair_connect - two QPs connected to each other
 * @test: the case; it fails if a QP cannot be made or connected
 * @p: the pair; @p->cq is set to @cq, and @p->rcq to @cq unless it was
 *	set already (zero it first)
 * @type: the QPs' type
 * @cq: their send CQ (and receive CQ)
 * @srq: the SRQ of @p->b, or NULL
 */
void vk_pair_connect(struct kunit *test, struct vk_pair *p,
		     enum ib_qp_type type, struct ib_cq *cq,
		     struct ib_srq *srq)
{
	p->cq = cq;
	if (!p->rcq)
		p->rcq = cq;
	p->a = vk_qp(test, type, cq, p->rcq, NULL);
	p->b = vk_qp(test, type, cq, p->rcq, srq);
	KUNIT_ASSERT_EQ(test, vk_connect(p->a, p->b->qp_num), 0);
	KUNIT_ASSERT_EQ(test, vk_connect(p->b, p->a->qp_num), 0);
}
EXPORT_SYMBOL_GPL(vk_pair_connect);

/**
 * vk_pair_make - vk_pair_connect() on a new CQ of 1024 entries
 * @test: the case
 * @p: the pair
 * @type: the QPs' type
 * @ctx: how the CQ is polled
 * @srq: the SRQ of @p->b, or NULL
 */
void vk_pair_make(struct kunit *test, struct vk_pair *p,
		  enum ib_qp_type type, enum ib_poll_context ctx,
		  struct ib_srq *srq)
{
	p->rcq = NULL;
	vk_pair_connect(test, p, type, vk_cq(test, 1024, ctx), srq);
}
EXPORT_SYMBOL_GPL(vk_pair_make);

/**
 * vk_pair_make_split - vk_pair_make() with a send CQ and a receive CQ
 * @test: the case
 * @p: the pair
 * @type: the QPs' type
 * @ctx: how both CQs are polled
 * @srq: the SRQ of @p->b, or NULL
 *
 * Both CQs have 1024 entries; the receive CQ is on the device's last
 * completion vector.
 */
void vk_pair_make_split(struct kunit *test, struct vk_pair *p,
			enum ib_qp_type type, enum ib_poll_context ctx,
			struct ib_srq *srq)
{
	struct vk *v = test->priv;

	p->rcq = ib_alloc_cq(v->dev, NULL, 1024, v->dev->num_comp_vectors - 1,
			     ctx);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->rcq));
	vk_pair_connect(test, p, type, vk_cq(test, 1024, ctx), srq);
}
EXPORT_SYMBOL_GPL(vk_pair_make_split);

/**
 * vk_pair_free_qps - destroy the QPs of a pair, not its CQ
 * @test: the case; it fails if a QP is not destroyed
 * @p: the pair
 */
void vk_pair_free_qps(struct kunit *test, struct vk_pair *p)
{
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(p->a), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(p->b), 0);
}
EXPORT_SYMBOL_GPL(vk_pair_free_qps);

/**
 * vk_pair_free - free a pair of vk_pair_make(), its CQs too
 * @test: the case; it fails if a QP is not destroyed
 * @p: the pair
 */
void vk_pair_free(struct kunit *test, struct vk_pair *p)
{
	vk_pair_free_qps(test, p);
	if (p->rcq != p->cq)
		ib_free_cq(p->rcq);
	ib_free_cq(p->cq);
}
EXPORT_SYMBOL_GPL(vk_pair_free);

/**
 * vk_sge - an SGE for a buffer, under the PD's local DMA lkey
 * @test: the case
 * @buf: the buffer (kernel memory)
 * @len: its length
 *
 * Return: the SGE, with @buf mapped with ib_dma_map_single().
 */
struct ib_sge vk_sge(struct kunit *test, void *buf, u32 len)
{
	struct vk *v = test->priv;

	return (struct ib_sge){
		.addr = ib_dma_map_single(v->dev, buf, len, DMA_BIDIRECTIONAL),
		.length = len,
		.lkey = v->pd->local_dma_lkey,
	};
}
EXPORT_SYMBOL_GPL(vk_sge);

/**
 * vk_reg_mr - register a mapped MR with an IB_WR_REG_MR work request
 * @test: the case; it fails unless the registration completes well
 * @qp: a QP in RTS; its send CQ must be empty and one the case polls
 * @mr: the MR, mapped with ib_map_mr_sg(); its key is moved on first
 * @access: the access rights it is registered with
 */
void vk_reg_mr(struct kunit *test, struct ib_qp *qp, struct ib_mr *mr,
	       int access)
{
	struct ib_reg_wr wr = {
		.wr = { .wr_id = 77, .opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED },
		.access = access,
		.mr = mr,
	};
	const struct ib_send_wr *bad;
	struct ib_wc wc;

	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey) & 0xff);
	wr.key = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr.wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, vk_poll_wait(qp->send_cq, 1, &wc), 1);
	KUNIT_ASSERT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_REG_MR);
}
EXPORT_SYMBOL_GPL(vk_reg_mr);

/**
 * vk_reg_buf - register a buffer with a fast-registration MR
 * @test: the case; it fails if that does not work
 * @qp: a QP in RTS of the fixture's PD; its send CQ empty and one the
 *	case polls
 * @buf: the buffer (kernel memory)
 * @len: its length, at most 8 pages
 * @access: the access rights it is registered with
 *
 * Return: the MR, registered; the case deregisters it.
 */
struct ib_mr *vk_reg_buf(struct kunit *test, struct ib_qp *qp, void *buf,
			 u32 len, int access)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 8);
	struct scatterlist *sg = kunit_kzalloc(test, sizeof(*sg), GFP_KERNEL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_ASSERT_NOT_NULL(test, sg);
	sg_init_one(sg, buf, len);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(v->dev, sg, 1, DMA_BIDIRECTIONAL), 1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sg, 1, NULL, PAGE_SIZE), 1);
	vk_reg_mr(test, qp, mr, access);
	return mr;
}
EXPORT_SYMBOL_GPL(vk_reg_buf);

/**
 * vk_rdma - post one signaled RDMA work request of one SGE
 * @qp: the QP
 * @id: its wr_id
 * @op: IB_WR_RDMA_WRITE, IB_WR_RDMA_READ ...
 * @sge: the local buffer
 * @raddr: the remote address
 * @rkey: the remote key
 *
 * Return: ib_post_send()'s result.
 */
int vk_rdma(struct ib_qp *qp, u64 id, enum ib_wr_opcode op,
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
EXPORT_SYMBOL_GPL(vk_rdma);

/**
 * vk_rdma_poll - vk_rdma() on a pair's QP a, and poll its completion
 * @test: the case; it fails if the post fails or nothing completes
 *	within VK_WAIT_MS
 * @p: the pair; its send CQ one the case polls
 * @id: as for vk_rdma()
 * @op: as for vk_rdma()
 * @sge: as for vk_rdma()
 * @raddr: as for vk_rdma()
 * @rkey: as for vk_rdma()
 * @wc: where the completion goes
 */
void vk_rdma_poll(struct kunit *test, struct vk_pair *p, u64 id,
		  enum ib_wr_opcode op, struct ib_sge *sge, u64 raddr,
		  u32 rkey, struct ib_wc *wc)
{
	KUNIT_ASSERT_EQ(test, vk_rdma(p->a, id, op, sge, raddr, rkey), 0);
	KUNIT_ASSERT_EQ(test, vk_poll_wait(p->cq, 1, wc), 1);
}
EXPORT_SYMBOL_GPL(vk_rdma_poll);

static void vk_counter_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct vk_counter *c = container_of(wc->wr_cqe, struct vk_counter, cqe);

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		atomic_inc(&c->errors);
	if (atomic_inc_return(&c->n) == c->want)
		complete(&c->all);
}

/**
 * vk_counter_init - a counter at zero
 * @c: the counter
 * @want: the count that completes c->all (0: never)
 */
void vk_counter_init(struct vk_counter *c, int want)
{
	c->cqe.done = vk_counter_done;
	atomic_set(&c->n, 0);
	atomic_set(&c->errors, 0);
	c->want = want;
	init_completion(&c->all);
}
EXPORT_SYMBOL_GPL(vk_counter_init);

/**
 * vk_counter_wait - wait until a counter reached a count
 * @c: the counter
 * @cq: a CQ polled directly (IB_POLL_DIRECT) that the completions come
 *	to, polled while waiting; or NULL
 * @n: the count
 *
 * Waits at most VK_WAIT_MS.
 *
 * Return: true if the counter reached @n.
 */
bool vk_counter_wait(struct vk_counter *c, struct ib_cq *cq, int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(VK_WAIT_MS);

	while (atomic_read(&c->n) < n && !time_after(jiffies, end)) {
		if (cq && ib_process_cq_direct(cq, -1))
			continue;
		usleep_range(50, 200);
	}
	return atomic_read(&c->n) >= n;
}
EXPORT_SYMBOL_GPL(vk_counter_wait);

/**
 * vk_post_counted - post receives on b and signaled sends a->b, counted
 * @test: the case; it fails if a post fails
 * @p: the pair
 * @c: the counter of every one of their completions
 * @recvs: receives to post on @p->b
 * @sends: sends to post on @p->a, after the receives
 *
 * All of them use one 64-byte buffer.
 */
void vk_post_counted(struct kunit *test, struct vk_pair *p,
		     struct vk_counter *c, int recvs, int sends)
{
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct ib_sge s = vk_sge(test, buf, 64);
	struct ib_recv_wr r = { .wr_cqe = &c->cqe, .sg_list = &s, .num_sge = 1 };
	struct ib_send_wr w = { .wr_cqe = &c->cqe, .opcode = IB_WR_SEND,
				.sg_list = &s, .num_sge = 1,
				.send_flags = IB_SEND_SIGNALED };
	const struct ib_recv_wr *rbad;
	const struct ib_send_wr *sbad;
	int i;

	for (i = 0; i < recvs; i++)
		KUNIT_ASSERT_EQ(test, ib_post_recv(p->b, &r, &rbad), 0);
	for (i = 0; i < sends; i++)
		KUNIT_ASSERT_EQ(test, ib_post_send(p->a, &w, &sbad), 0);
}
EXPORT_SYMBOL_GPL(vk_post_counted);

/**
 * vk_traffic - rounds of 16 sends a->b: 32 counted completions a round
 * @test: the case; it fails if a round does not complete in VK_WAIT_MS
 * @p: the pair, on one CQ; a round starts when the last one completed
 *	(the queues hold 32), a CQ polled directly is polled meanwhile
 * @c: the counter
 * @rounds: how many rounds
 */
void vk_traffic(struct kunit *test, struct vk_pair *p, struct vk_counter *c,
		int rounds)
{
	bool direct = p->cq->poll_ctx == IB_POLL_DIRECT;
	int i, base = atomic_read(&c->n);

	for (i = 0; i < rounds; i++) {
		vk_post_counted(test, p, c, 16, 16);
		KUNIT_ASSERT_TRUE(test, vk_counter_wait(c, direct ? p->cq : NULL,
							base + 32 * (i + 1)));
	}
}
EXPORT_SYMBOL_GPL(vk_traffic);

/**
 * vk_poll_ctx_desc - the name of a poll context, for KUNIT_ARRAY_PARAM()
 * @ctx: the poll context
 * @desc: where the name goes (KUNIT_PARAM_DESC_SIZE bytes)
 */
void vk_poll_ctx_desc(const enum ib_poll_context *ctx, char *desc)
{
	static const char *const names[] = {
		[IB_POLL_SOFTIRQ] = "softirq", [IB_POLL_WORKQUEUE] = "workqueue",
		[IB_POLL_UNBOUND_WORKQUEUE] = "unbound workqueue",
		[IB_POLL_DIRECT] = "direct",
	};

	strscpy(desc, names[*ctx], KUNIT_PARAM_DESC_SIZE);
}
EXPORT_SYMBOL_GPL(vk_poll_ctx_desc);

/**
 * vk_exec_name - the name of a test device's interrupt context
 * @exec: the kind
 *
 * Return: a short name, for parameter descriptions.
 */
const char *vk_exec_name(enum tdev_exec exec)
{
	static const char *const names[] = {
		[TDEV_EXEC_HRTIMER] = "hardirq hrtimer",
		[TDEV_EXEC_IRQ_WORK] = "hardirq irq_work",
		[TDEV_EXEC_WORK] = "work item",
		[TDEV_EXEC_TIMER] = "softirq timer",
	};

	return exec < ARRAY_SIZE(names) ? names[exec] : "?";
}
EXPORT_SYMBOL_GPL(vk_exec_name);
