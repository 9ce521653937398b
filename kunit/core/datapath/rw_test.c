// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: core/datapath/rw.c, the RDMA read/write API.
 *
 * rdma_core_rw_sizing checks the sizing helpers on a bare, unregistered
 * ib_device (only attrs and port data are read).  The other suites run in
 * the loopback environment of rw_env.h: each case builds two RC QPs
 * connected to each other and moves real data between a local scatterlist
 * and a remote buffer that the peer QP registered with a fast-register WR,
 * through R/W contexts of SGE lists (rdma_core_rw) or of MRs
 * (rdma_core_rw_mr).
 */
#include <kunit/test.h>
#include <linux/crc-t10dif.h>
#include <linux/delay.h>
#include <linux/t10-pi.h>
#include <rdma/rw.h>
#include "rw_env.h"
#include "tk.h"
#include "vk.h"

/* ---- sizing helpers on a bare device ---- */

static struct ib_device *rw_bare_dev(struct kunit *test, bool iwarp)
{
	struct ib_device *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	dev->port_data = kunit_kcalloc(test, 2, sizeof(*dev->port_data),
				       GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev->port_data);
	dev->phys_port_cnt = 1;
	dev->port_data[1].immutable.core_cap_flags =
		iwarp ? RDMA_CORE_PORT_IWARP : RDMA_CORE_PORT_IBA_IB;
	dev->attrs.max_sge_rd = 30;
	dev->attrs.max_fast_reg_page_list_len = 512;
	return dev;
}

static void rw_mr_factor_sge_reads(struct kunit *test)
{
	struct ib_device *dev = rw_bare_dev(test, false);

	/* Without MRs a context needs one READ per max_sge_rd pages. */
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 0), 0U);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 1), 1U);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 30), 1U);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 31), 2U);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 256), 9U);
}

static void rw_mr_factor_iwarp(struct kunit *test)
{
	struct ib_device *dev = rw_bare_dev(test, true);

	/* MRs hold the device's page list, but at most 256 pages. */
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 256), 1U);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 257), 2U);
	dev->attrs.max_fast_reg_page_list_len = 32;
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 100), 4U);
}

static void rw_mr_factor_sgl_rd(struct kunit *test)
{
	struct ib_device *dev = rw_bare_dev(test, false);

	/* A device with max_sgl_rd registers memory: sized by MR pages. */
	dev->attrs.max_sgl_rd = 4;
	dev->attrs.max_fast_reg_page_list_len = 64;
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 64), 1U);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 65), 2U);
}

static void rw_mr_factor_degenerate(struct kunit *test)
{
	struct ib_device *dev = rw_bare_dev(test, true);

	/* A port that does not exist is not iWARP: max_sge_rd applies. */
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, 2, 60), 2U);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, 0, 60), 2U);
	/* No division by zero on a device reporting no limits. */
	dev->attrs.max_fast_reg_page_list_len = 0;
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, RW_PORT, 5), 5U);
	dev->attrs.max_sge_rd = 0;
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(dev, 2, 5), 5U);
}

static void rw_max_send_wr_plain(struct kunit *test)
{
	struct ib_device *dev = rw_bare_dev(test, false);

	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, RW_PORT, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, RW_PORT, 10, 0), 10U);
	/* Integrity contexts register and invalidate: 3 WRs each. */
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, RW_PORT, 10,
						  IB_QP_CREATE_INTEGRITY_EN),
			30U);
}

static void rw_max_send_wr_mr_devices(struct kunit *test)
{
	struct ib_device *iw = rw_bare_dev(test, true);
	struct ib_device *ib = rw_bare_dev(test, false);

	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(iw, RW_PORT, 7, 0), 21U);
	ib->attrs.max_sgl_rd = 2;
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(ib, RW_PORT, 7, 0), 21U);
}

static void rw_max_send_wr_overflow(struct kunit *test)
{
	struct ib_device *dev = rw_bare_dev(test, true);

	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, RW_PORT,
						  UINT_MAX / 3, 0),
			UINT_MAX / 3 * 3);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, RW_PORT,
						  UINT_MAX / 3 + 1, 0),
			UINT_MAX);
}

static struct kunit_case rw_sizing_cases[] = {
	KUNIT_CASE(rw_mr_factor_sge_reads),
	KUNIT_CASE(rw_mr_factor_iwarp),
	KUNIT_CASE(rw_mr_factor_sgl_rd),
	KUNIT_CASE(rw_mr_factor_degenerate),
	KUNIT_CASE(rw_max_send_wr_plain),
	KUNIT_CASE(rw_max_send_wr_mr_devices),
	KUNIT_CASE(rw_max_send_wr_overflow),
	{}
};

static struct kunit_suite rw_sizing_suite = {
	.name = "rdma_core_rw_sizing",
	.test_cases = rw_sizing_cases,
};

/* ---- moving data in the loopback environment ---- */

/* A completion the case waits for. */
struct rw_wait {
	struct ib_cqe cqe;
	int done;
	enum ib_wc_status status;
};

static void rw_wait_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rw_wait *w = container_of(wc->wr_cqe, struct rw_wait, cqe);

	w->status = wc->status;
	w->done++;
}

static void rw_wait_init(struct rw_wait *w)
{
	w->cqe.done = rw_wait_done;
	w->done = 0;
	w->status = IB_WC_GENERAL_ERR;
}

/* Poll until @w completes (VK_WAIT_MS at most); 0 if it did, well. */
static int rw_wait_for(struct rw_env *env, struct rw_wait *w)
{
	unsigned long end = jiffies + msecs_to_jiffies(VK_WAIT_MS);

	while (!w->done && !time_after(jiffies, end)) {
		ib_process_cq_direct(env->cq, 16);
		if (!w->done)
			usleep_range(100, 200);
	}
	if (!w->done)
		return -ETIMEDOUT;
	return w->status == IB_WC_SUCCESS ? 0 : -EIO;
}

/* Register rbuf on the peer with a fast-register WR: the remote buffer. */
static int rw_register_remote(struct rw_env *env)
{
	struct rw_wait w;
	struct ib_reg_wr reg = {};
	int n;

	sg_init_one(&env->rsg, env->rbuf, RW_BUF_LEN);
	if (ib_dma_map_sg(env->dev, &env->rsg, 1, DMA_BIDIRECTIONAL) != 1)
		return -EIO;
	env->rsg_mapped = true;

	env->rmr = ib_alloc_mr(env->pd, IB_MR_TYPE_MEM_REG, RW_PAGES);
	if (IS_ERR(env->rmr)) {
		n = PTR_ERR(env->rmr);
		env->rmr = NULL;
		return n;
	}
	n = ib_map_mr_sg(env->rmr, &env->rsg, 1, NULL, PAGE_SIZE);
	if (n != 1)
		return n < 0 ? n : -EIO;

	rw_wait_init(&w);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_cqe = &w.cqe;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = env->rmr;
	reg.key = env->rmr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
		     IB_ACCESS_REMOTE_WRITE;
	n = ib_post_send(env->peer, &reg.wr, NULL);
	if (n)
		return n;
	return rw_wait_for(env, &w);
}

/*
 * Build the two connected QPs and the remote buffer.  The device attributes
 * the case changed before this call apply to the QPs.
 */
static void rw_env_qps(struct rw_env *env, u32 max_send_sge,
		       u32 max_rdma_ctxs)
{
	struct kunit *test = env->test;

	env->qp = rw_qp_flags(env, max_send_sge, max_rdma_ctxs,
			      env->create_flags, &env->qp_attr);
	env->peer = rw_qp(env, 1, 0, NULL);
	KUNIT_ASSERT_EQ(test, vk_connect(env->qp, env->peer->qp_num), 0);
	KUNIT_ASSERT_EQ(test, vk_connect(env->peer, env->qp->qp_num), 0);
	KUNIT_ASSERT_EQ(test, rw_register_remote(env), 0);
}

/* @nents entries of @esize bytes, slicing lbuf in order. */
static void rw_local_sg(struct rw_env *env, u32 nents, u32 esize)
{
	u32 i;

	sg_init_table(env->lsg, nents);
	for (i = 0; i < nents; i++)
		sg_set_buf(&env->lsg[i], env->lbuf + i * esize, esize);
}

static void rw_fill(u8 *buf, size_t len, u8 seed)
{
	size_t i;

	/* Not periodic within a page or across pages: bytes moved from or to
	 * the wrong place do not match by chance.
	 */
	for (i = 0; i < len; i++)
		buf[i] = (u8)(i * 7 + i / 251 + seed);
}

/*
 * Move lbuf[off, nents * esize) to or from the start of the remote buffer
 * through one R/W context; returns the WR count init gave, or -errno.
 */
static int rw_move(struct rw_env *env, enum dma_data_direction dir,
		   u32 nents, u32 esize, u32 off)
{
	struct rdma_rw_ctx ctx;
	struct rw_wait w;
	int nr, ret;

	rw_local_sg(env, nents, esize);
	nr = rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg, nents, off,
			      env->rmr->iova, env->rmr->rkey, dir);
	if (nr < 0)
		return nr;
	rw_wait_init(&w);
	ret = rdma_rw_ctx_post(&ctx, env->qp, RW_PORT, &w.cqe, NULL);
	if (!ret)
		ret = rw_wait_for(env, &w);
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, nents, dir);
	if (!ret && w.done != 1)
		ret = -EPROTO;		/* only the last WR may complete */
	return ret ? ret : nr;
}

/* WRITE lbuf[off..] and check the remote buffer got exactly that. */
static void rw_check_write(struct rw_env *env, u32 nents, u32 esize,
			   u32 off, int nr_wrs)
{
	struct kunit *test = env->test;
	size_t len = nents * esize - off;

	rw_fill(env->lbuf, RW_BUF_LEN, 3);
	memset(env->rbuf, 0, RW_BUF_LEN);
	KUNIT_ASSERT_EQ(test, rw_move(env, DMA_TO_DEVICE, nents, esize, off),
			nr_wrs);
	KUNIT_EXPECT_EQ(test, memcmp(env->rbuf, env->lbuf + off, len), 0);
	/* Not one byte past the transfer. */
	if (len < RW_BUF_LEN)
		KUNIT_EXPECT_EQ(test, env->rbuf[len], 0);
}

/* READ into lbuf[off..] and check it holds the remote buffer's start. */
static void rw_check_read(struct rw_env *env, u32 nents, u32 esize,
			  u32 off, int nr_wrs)
{
	struct kunit *test = env->test;
	size_t len = nents * esize - off;

	rw_fill(env->rbuf, RW_BUF_LEN, 11);
	memset(env->lbuf, 0, RW_BUF_LEN);
	KUNIT_ASSERT_EQ(test, rw_move(env, DMA_FROM_DEVICE, nents, esize, off),
			nr_wrs);
	KUNIT_EXPECT_EQ(test, memcmp(env->lbuf + off, env->rbuf, len), 0);
	if (off)
		KUNIT_EXPECT_EQ(test, env->lbuf[off - 1], 0);
	if (nents * esize < RW_BUF_LEN)
		KUNIT_EXPECT_EQ(test, env->lbuf[nents * esize], 0);
}

/* ---- R/W contexts with SGE lists ---- */

static void rw_write_single(struct kunit *test)
{
	struct rw_env *env = test->priv;

	rw_env_qps(env, 4, 0);
	rw_check_write(env, 1, PAGE_SIZE, 0, 1);
	rw_check_write(env, 1, 100, 0, 1);
}

static void rw_read_single(struct kunit *test)
{
	struct rw_env *env = test->priv;

	rw_env_qps(env, 4, 0);
	rw_check_read(env, 1, PAGE_SIZE, 0, 1);
	rw_check_read(env, 1, 1, 0, 1);
}

static void rw_write_multi_sge(struct kunit *test)
{
	struct rw_env *env = test->priv;

	/* Four entries, four SGEs per WR: one WR. */
	rw_env_qps(env, 4, 0);
	KUNIT_ASSERT_GE(test, env->qp->max_write_sge, 4U);
	rw_check_write(env, 4, 1000, 0, 1);
}

static void rw_read_multi_sge(struct kunit *test)
{
	struct rw_env *env = test->priv;
	u32 per = 0;

	rw_env_qps(env, 4, 0);
	per = env->qp->max_read_sge;
	KUNIT_ASSERT_GT(test, per, 0U);
	rw_check_read(env, 3, 1500, 0, DIV_ROUND_UP(3, per));
}

static void rw_write_multi_wr(struct kunit *test)
{
	struct rw_env *env = test->priv;

	/* Nine entries at two SGEs per WR: five WRs, one completion. */
	rw_env_qps(env, 2, 0);
	KUNIT_ASSERT_EQ(test, env->qp->max_write_sge, 2U);
	rw_check_write(env, 9, PAGE_SIZE, 0, 5);
	rw_check_write(env, RW_PAGES, PAGE_SIZE, 0, RW_PAGES / 2);
}

static void rw_read_multi_wr(struct kunit *test)
{
	struct rw_env *env = test->priv;
	u32 per;

	rw_env_qps(env, 2, 0);
	per = env->qp->max_read_sge;
	KUNIT_ASSERT_GT(test, per, 0U);
	KUNIT_ASSERT_LE(test, per, 2U);
	rw_check_read(env, 7, 700, 0, DIV_ROUND_UP(7, per));
	rw_check_read(env, RW_PAGES, PAGE_SIZE, 0, DIV_ROUND_UP(RW_PAGES, per));
}

static void rw_write_offset_in_first(struct kunit *test)
{
	struct rw_env *env = test->priv;

	rw_env_qps(env, 2, 0);
	rw_check_write(env, 1, PAGE_SIZE, 100, 1);
	rw_check_write(env, 5, 1000, 999, 3);
}

static void rw_write_offset_skips_entries(struct kunit *test)
{
	struct rw_env *env = test->priv;

	/* 1000 + 10 bytes in: the first entry drops out of the WRs. */
	rw_env_qps(env, 2, 0);
	rw_check_write(env, 5, 1000, 1010, 2);
	/* Exactly at an entry boundary. */
	rw_check_write(env, 5, 1000, 2000, 2);
	/* Into the last entry: a single WR is left. */
	rw_check_write(env, 3, 1000, 2500, 1);
}

static void rw_read_offset(struct kunit *test)
{
	struct rw_env *env = test->priv;

	rw_env_qps(env, 2, 0);
	rw_check_read(env, 4, 1000, 1500, DIV_ROUND_UP(3,
					env->qp->max_read_sge));
	rw_check_read(env, 1, PAGE_SIZE, 4000, 1);
}

static void rw_bad_inputs(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct rdma_rw_ctx ctx;
	u64 ra;
	u32 rk;

	rw_env_qps(env, 2, 0);
	ra = env->rmr->iova;
	rk = env->rmr->rkey;
	rw_local_sg(env, 3, 1000);

	/* No entries. */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, RW_PORT,
					       env->lsg, 0, 0, ra, rk,
					       DMA_TO_DEVICE), -EINVAL);
	/* An offset at or past the end of the data. */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, RW_PORT,
					       env->lsg, 3, 3000, ra, rk,
					       DMA_TO_DEVICE), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, RW_PORT,
					       env->lsg, 3, 100000, ra, rk,
					       DMA_FROM_DEVICE), -EINVAL);
	/* Neither a READ nor a WRITE. */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, RW_PORT,
					       env->lsg, 3, 0, ra, rk,
					       DMA_BIDIRECTIONAL), -EINVAL);
	/* A port the device does not have. */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, 0, env->lsg, 3,
					       0, ra, rk, DMA_TO_DEVICE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, 9, env->lsg, 3,
					       0, ra, rk, DMA_TO_DEVICE),
			-EINVAL);
	/* The failed calls left the QP usable. */
	rw_check_write(env, 3, 1000, 0, 2);
}

static void rw_uninitialised_ctx(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct rdma_rw_ctx ctx = {};
	struct rw_wait w;

	rw_env_qps(env, 2, 0);
	rw_wait_init(&w);
	rw_local_sg(env, 1, 100);
	KUNIT_EXPECT_NULL(test, rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT,
						&w.cqe, NULL));
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_post(&ctx, env->qp, RW_PORT, &w.cqe,
					       NULL), -EINVAL);
	/* Destroying what was never set up does nothing (and no oops). */
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 1,
			    DMA_TO_DEVICE);
	rdma_rw_ctx_destroy_signature(&ctx, env->qp, RW_PORT, env->lsg, 1,
				      NULL, 0, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, w.done, 0);

	/* A context that was set up has WRs; once destroyed, it has none */
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg,
					       1, 0, env->rmr->iova,
					       env->rmr->rkey, DMA_TO_DEVICE), 1);
	KUNIT_EXPECT_NOT_NULL(test, rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT,
						    &w.cqe, NULL));
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 1,
			    DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_post(&ctx, env->qp, RW_PORT, &w.cqe,
					       NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, w.done, 0);
}

/*
 * The signals of a context's chain from @wr up to @stop (the caller's WR,
 * or NULL): no WR but the last is signaled, as their wr_cqe is nobody's;
 * the last is signaled on @cqe when @cqe is given, else not at all (the
 * caller's WR carries the completion).  Returns the WRs counted.
 */
static int rw_expect_signals(struct kunit *test, struct ib_send_wr *wr,
			     struct ib_send_wr *stop, struct ib_cqe *cqe)
{
	int n = 0;

	for (; wr && wr != stop; wr = wr->next, n++) {
		bool last = wr->next == stop;

		if (last && cqe) {
			KUNIT_EXPECT_TRUE_MSG(test,
				wr->send_flags & IB_SEND_SIGNALED,
				"WR %d (opcode %d), the last", n, wr->opcode);
			KUNIT_EXPECT_PTR_EQ(test, wr->wr_cqe, cqe);
		} else {
			KUNIT_EXPECT_FALSE_MSG(test,
				wr->send_flags & IB_SEND_SIGNALED,
				"WR %d (opcode %d) signaled%s", n, wr->opcode,
				last ? ", the last before the caller's" :
				       " inside the chain");
		}
	}
	KUNIT_EXPECT_PTR_EQ(test, wr, stop);
	return n;
}

static void rw_wrs_chain_shape(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_send_wr *wr, *last = NULL;
	struct ib_rdma_wr extra = {};
	struct rdma_rw_ctx ctx;
	struct rw_wait w;
	int nr, n = 0;

	rw_env_qps(env, 2, 0);
	rw_local_sg(env, 5, 1000);
	nr = rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg, 5, 0,
			      env->rmr->iova, env->rmr->rkey, DMA_TO_DEVICE);
	KUNIT_ASSERT_EQ(test, nr, 3);

	/* Unchained: nr WRITEs, the last one signaled on our cqe. */
	rw_wait_init(&w);
	wr = rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT, &w.cqe, NULL);
	for (; wr; last = wr, wr = wr->next) {
		KUNIT_EXPECT_EQ(test, wr->opcode, IB_WR_RDMA_WRITE);
		KUNIT_EXPECT_EQ(test, rdma_wr(wr)->rkey, env->rmr->rkey);
		KUNIT_EXPECT_LE(test, wr->num_sge, 2);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, nr);
	KUNIT_ASSERT_NOT_NULL(test, last);
	KUNIT_EXPECT_PTR_EQ(test, last->wr_cqe, &w.cqe);
	KUNIT_EXPECT_TRUE(test, last->send_flags & IB_SEND_SIGNALED);
	/* Only the last: the others have no wr_cqe to complete on */
	wr = rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT, &w.cqe, NULL);
	KUNIT_EXPECT_EQ(test, rw_expect_signals(test, wr, NULL, &w.cqe), nr);
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 5,
			    DMA_TO_DEVICE);

	/* Chained: the caller's WR follows the last one, none signaled */
	nr = rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg, 5, 0,
			      env->rmr->iova, env->rmr->rkey, DMA_TO_DEVICE);
	KUNIT_ASSERT_EQ(test, nr, 3);
	wr = rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT, NULL, &extra.wr);
	KUNIT_EXPECT_EQ(test, rw_expect_signals(test, wr, &extra.wr, NULL),
			nr);
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 5,
			    DMA_TO_DEVICE);
}

static void rw_post_chained(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_rdma_wr tail = {};
	struct rdma_rw_ctx ctx;
	struct ib_sge sge;
	struct rw_wait w;
	int nr;

	/*
	 * WRITE lbuf[0, 3000) through a context and chain our own WRITE of
	 * lbuf[3000, 4000) after it: one completion, for our WR.
	 */
	rw_env_qps(env, 2, 0);
	rw_fill(env->lbuf, RW_BUF_LEN, 5);
	memset(env->rbuf, 0, RW_BUF_LEN);
	rw_local_sg(env, 3, 1000);
	nr = rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg, 3, 0,
			      env->rmr->iova, env->rmr->rkey, DMA_TO_DEVICE);
	KUNIT_ASSERT_EQ(test, nr, 2);

	sge.addr = ib_dma_map_single(env->dev, env->lbuf + 3000, 1000,
				     DMA_TO_DEVICE);
	KUNIT_ASSERT_FALSE(test, ib_dma_mapping_error(env->dev, sge.addr));
	sge.length = 1000;
	sge.lkey = env->pd->local_dma_lkey;
	rw_wait_init(&w);
	tail.wr.opcode = IB_WR_RDMA_WRITE;
	tail.wr.sg_list = &sge;
	tail.wr.num_sge = 1;
	tail.wr.wr_cqe = &w.cqe;
	tail.wr.send_flags = IB_SEND_SIGNALED;
	tail.remote_addr = env->rmr->iova + 3000;
	tail.rkey = env->rmr->rkey;

	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_post(&ctx, env->qp, RW_PORT, NULL,
					       &tail.wr), 0);
	KUNIT_EXPECT_EQ(test, rw_wait_for(env, &w), 0);
	KUNIT_EXPECT_EQ(test, w.done, 1);
	KUNIT_EXPECT_EQ(test, memcmp(env->rbuf, env->lbuf, 4000), 0);
	ib_dma_unmap_single(env->dev, sge.addr, 1000, DMA_TO_DEVICE);
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 3,
			    DMA_TO_DEVICE);
}

static void rw_signature_unsupported(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_sig_attrs sig = {};
	struct rdma_rw_ctx ctx;

	env->dev->attrs.kernel_cap_flags &= ~IBK_INTEGRITY_HANDOVER;
	rw_env_qps(env, 2, 0);
	rw_local_sg(env, 1, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test,
			rdma_rw_ctx_signature_init(&ctx, env->qp, RW_PORT,
						   env->lsg, 1, NULL, 0, &sig,
						   env->rmr->iova,
						   env->rmr->rkey,
						   DMA_TO_DEVICE),
			-EOPNOTSUPP);
	/* With the capability but a QP without integrity: refused too. */
	env->dev->attrs.kernel_cap_flags |= IBK_INTEGRITY_HANDOVER;
	KUNIT_EXPECT_EQ(test,
			rdma_rw_ctx_signature_init(&ctx, env->qp, RW_PORT,
						   env->lsg, 1, NULL, 0, &sig,
						   env->rmr->iova,
						   env->rmr->rkey,
						   DMA_TO_DEVICE),
			-EINVAL);
	env->dev->attrs.kernel_cap_flags &= ~IBK_INTEGRITY_HANDOVER;
}

static struct kunit_case rw_sge_cases[] = {
	KUNIT_CASE(rw_write_single),
	KUNIT_CASE(rw_read_single),
	KUNIT_CASE(rw_write_multi_sge),
	KUNIT_CASE(rw_read_multi_sge),
	KUNIT_CASE(rw_write_multi_wr),
	KUNIT_CASE(rw_read_multi_wr),
	KUNIT_CASE(rw_write_offset_in_first),
	KUNIT_CASE(rw_write_offset_skips_entries),
	KUNIT_CASE(rw_read_offset),
	KUNIT_CASE(rw_bad_inputs),
	KUNIT_CASE(rw_uninitialised_ctx),
	KUNIT_CASE(rw_wrs_chain_shape),
	KUNIT_CASE(rw_post_chained),
	KUNIT_CASE(rw_signature_unsupported),
	{}
};

static struct kunit_suite rw_sge_suite = {
	.name = "rdma_core_rw",
	.init = rw_env_init,
	.exit = rw_env_exit,
	.test_cases = rw_sge_cases,
};

/* ---- R/W contexts that register memory ---- */

/* Flip ib_core's force_mr parameter the way an administrator would. */
static int rw_set_force_mr(bool on)
{
	return tk_file_write("/sys/module/ib_core/parameters/force_mr",
			     on ? "Y\n" : "N\n");
}

static void rw_mr_env_exit(struct kunit *test)
{
	rw_set_force_mr(false);
	rw_env_exit(test);
}

/* Make the device prefer MRs for READs of more than one entry. */
static void rw_prefer_mr(struct rw_env *env, u32 pages_per_mr)
{
	env->dev->attrs.max_sgl_rd = 1;
	env->dev->attrs.max_fast_reg_page_list_len = pages_per_mr;
}

static void rw_mr_read(struct kunit *test)
{
	struct rw_env *env = test->priv;

	rw_prefer_mr(env, RW_PAGES);
	rw_env_qps(env, 2, 2);
	/* REG_MR + READ, then LOCAL_INV + REG_MR + READ on the reused MR. */
	rw_check_read(env, 4, PAGE_SIZE, 0, 2);
	rw_check_read(env, 4, PAGE_SIZE, 0, 3);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	/* One entry fits the device's SGE READs: no registration. */
	rw_check_read(env, 1, PAGE_SIZE, 0, 1);
}

static void rw_mr_read_offset(struct kunit *test)
{
	struct rw_env *env = test->priv;

	rw_prefer_mr(env, RW_PAGES);
	rw_env_qps(env, 2, 2);
	rw_check_read(env, 3, PAGE_SIZE, 300, 2);
	/* The offset drops the first page; two are left to register. */
	rw_check_read(env, 3, PAGE_SIZE, PAGE_SIZE + 8, 3);
}

static void rw_mr_read_multi_mr(struct kunit *test)
{
	struct rw_env *env = test->priv;

	/* Two pages per MR: five pages take three MRs. */
	rw_prefer_mr(env, 2);
	rw_env_qps(env, 2, 4);
	rw_check_read(env, 5, PAGE_SIZE, 0, 6);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &env->qp->rdma_mrs), 4);
}

static void rw_mr_exhausted(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct rdma_rw_ctx held, other;
	struct scatterlist sg[2];
	u32 per;
	int nr;

	rw_prefer_mr(env, RW_PAGES);
	rw_env_qps(env, 2, 1);
	per = env->qp->max_read_sge;

	/* Hold the pool's only MR with a READ into rbuf's last pages. */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], env->rbuf + (RW_PAGES - 2) * PAGE_SIZE, PAGE_SIZE);
	sg_set_buf(&sg[1], env->rbuf + (RW_PAGES - 1) * PAGE_SIZE, PAGE_SIZE);
	nr = rdma_rw_ctx_init(&held, env->qp, RW_PORT, sg, 2, 0,
			      env->rmr->iova, env->rmr->rkey,
			      DMA_FROM_DEVICE);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 1);

	/* max_sgl_rd only prefers MRs: an empty pool means SGE READs. */
	rw_check_read(env, 4, PAGE_SIZE, 0, DIV_ROUND_UP(4, per));

	/* force_mr needs them: an empty pool is -EAGAIN. */
	KUNIT_ASSERT_EQ(test, rw_set_force_mr(true), 0);
	rw_local_sg(env, 2, PAGE_SIZE);
	nr = rdma_rw_ctx_init(&other, env->qp, RW_PORT, env->lsg, 2, 0,
			      env->rmr->iova, env->rmr->rkey, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, nr, -EAGAIN);
	if (nr > 0)
		rdma_rw_ctx_destroy(&other, env->qp, RW_PORT, env->lsg, 2,
				    DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, rw_set_force_mr(false), 0);

	rdma_rw_ctx_destroy(&held, env->qp, RW_PORT, sg, 2, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
}

static void rw_mr_too_many_pages(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct rdma_rw_ctx ctx;

	/*
	 * Two pages per MR but the entries span two pages each: an MR
	 * cannot take two such entries, so the request is refused and the
	 * MR goes back to the pool.
	 */
	rw_prefer_mr(env, 2);
	rw_env_qps(env, 2, 4);
	rw_local_sg(env, 2, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, RW_PORT,
					       env->lsg, 2, 0, env->rmr->iova,
					       env->rmr->rkey,
					       DMA_FROM_DEVICE), -EINVAL);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &env->qp->rdma_mrs), 4);
}

static void rw_mr_forced_write(struct kunit *test)
{
	struct rw_env *env = test->priv;

	KUNIT_ASSERT_EQ(test, rw_set_force_mr(true), 0);
	env->dev->attrs.max_fast_reg_page_list_len = RW_PAGES;
	rw_env_qps(env, 2, 2);
	KUNIT_EXPECT_EQ(test, rw_list_len(env->qp, &env->qp->rdma_mrs), 2);
	/* Even a single entry registers: REG_MR + WRITE. */
	rw_check_write(env, 1, PAGE_SIZE, 0, 2);
	rw_check_write(env, 8, PAGE_SIZE, 0, 3);
	rw_check_write(env, 3, PAGE_SIZE, 200, 3);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
}

static void rw_mr_forced_read(struct kunit *test)
{
	struct rw_env *env = test->priv;

	KUNIT_ASSERT_EQ(test, rw_set_force_mr(true), 0);
	env->dev->attrs.max_fast_reg_page_list_len = 4;
	rw_env_qps(env, 2, 4);
	rw_check_read(env, RW_PAGES, PAGE_SIZE, 0, 8);
	rw_check_read(env, RW_PAGES, PAGE_SIZE, 0, 12);
}

static void rw_mr_chain_shape(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_send_wr *wr;
	struct rdma_rw_ctx ctx;
	struct rw_wait w;
	u32 key;
	int nr;

	rw_prefer_mr(env, RW_PAGES);
	rw_env_qps(env, 2, 1);
	rw_local_sg(env, 3, PAGE_SIZE);
	nr = rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg, 3, 0,
			      env->rmr->iova, env->rmr->rkey,
			      DMA_FROM_DEVICE);
	KUNIT_ASSERT_EQ(test, nr, 2);

	rw_wait_init(&w);
	wr = rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT, &w.cqe, NULL);
	KUNIT_ASSERT_NOT_NULL(test, wr);
	KUNIT_EXPECT_EQ(test, wr->opcode, IB_WR_REG_MR);
	key = reg_wr(wr)->key;
	KUNIT_EXPECT_EQ(test, key, reg_wr(wr)->mr->lkey);
	KUNIT_EXPECT_EQ(test, reg_wr(wr)->mr->length, 3 * PAGE_SIZE);
	wr = wr->next;
	KUNIT_ASSERT_NOT_NULL(test, wr);
	KUNIT_EXPECT_EQ(test, wr->opcode, IB_WR_RDMA_READ);
	KUNIT_EXPECT_EQ(test, wr->num_sge, 1);
	KUNIT_EXPECT_EQ(test, wr->sg_list[0].lkey, key);
	KUNIT_EXPECT_EQ(test, wr->sg_list[0].length, 3 * PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, wr->wr_cqe, &w.cqe);
	KUNIT_EXPECT_NULL(test, wr->next);
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 3,
			    DMA_FROM_DEVICE);

	/* Handed out but never posted: the next user invalidates first. */
	nr = rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg, 3, 0,
			      env->rmr->iova, env->rmr->rkey,
			      DMA_FROM_DEVICE);
	KUNIT_ASSERT_EQ(test, nr, 3);
	wr = rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT, &w.cqe, NULL);
	KUNIT_EXPECT_EQ(test, wr->opcode, IB_WR_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, wr->ex.invalidate_rkey, key);
	KUNIT_EXPECT_EQ(test, wr->next->opcode, IB_WR_REG_MR);
	KUNIT_EXPECT_NE(test, reg_wr(wr->next)->key, key);
	/* LOCAL_INV, REG_MR, READ: only the READ signaled */
	KUNIT_EXPECT_EQ(test, rw_expect_signals(test, wr, NULL, &w.cqe), 3);
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 3,
			    DMA_FROM_DEVICE);
}

/*
 * A chain of several registrations: each REG_MR and the READ through it,
 * one group per MR.  Unchained, only the very last WR is signaled; chained
 * after the caller's WR, none of the context's is (nvmet and isert chain
 * their response WR and expect its completion only).
 */
static void rw_mr_chain_signals(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_rdma_wr extra = { .wr = { .opcode = IB_WR_SEND } };
	struct ib_send_wr *wr;
	struct rdma_rw_ctx ctx;
	struct rw_wait w;
	int nr;

	rw_prefer_mr(env, 2);
	rw_env_qps(env, 2, 4);
	rw_local_sg(env, 5, PAGE_SIZE);
	rw_wait_init(&w);
	nr = rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg, 5, 0,
			      env->rmr->iova, env->rmr->rkey,
			      DMA_FROM_DEVICE);
	KUNIT_ASSERT_EQ(test, nr, 6);
	wr = rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT, &w.cqe, NULL);
	KUNIT_EXPECT_EQ(test, rw_expect_signals(test, wr, NULL, &w.cqe), nr);
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 5,
			    DMA_FROM_DEVICE);

	/* Again, with MRs that may need invalidating first */
	nr = rdma_rw_ctx_init(&ctx, env->qp, RW_PORT, env->lsg, 5, 0,
			      env->rmr->iova, env->rmr->rkey,
			      DMA_FROM_DEVICE);
	KUNIT_ASSERT_GE(test, nr, 6);
	wr = rdma_rw_ctx_wrs(&ctx, env->qp, RW_PORT, NULL, &extra.wr);
	KUNIT_EXPECT_EQ(test, rw_expect_signals(test, wr, &extra.wr, NULL),
			nr);
	rdma_rw_ctx_destroy(&ctx, env->qp, RW_PORT, env->lsg, 5,
			    DMA_FROM_DEVICE);
}

static struct kunit_case rw_mr_cases[] = {
	KUNIT_CASE(rw_mr_read),
	KUNIT_CASE(rw_mr_read_offset),
	KUNIT_CASE(rw_mr_read_multi_mr),
	KUNIT_CASE(rw_mr_exhausted),
	KUNIT_CASE(rw_mr_too_many_pages),
	KUNIT_CASE(rw_mr_forced_write),
	KUNIT_CASE(rw_mr_forced_read),
	KUNIT_CASE(rw_mr_chain_shape),
	KUNIT_CASE(rw_mr_chain_signals),
	{}
};

static struct kunit_suite rw_mr_suite = {
	.name = "rdma_core_rw_mr",
	.init = rw_env_init,
	.exit = rw_mr_env_exit,
	.test_cases = rw_mr_cases,
};

/* ---- R/W contexts with signature offload ---- */

#define RW_PI_BLOCK	512
#define RW_PI_BLOCKS	8
#define RW_PI_DATA	(RW_PI_BLOCK * RW_PI_BLOCKS)
#define RW_PI_REF		1000
#define RW_PI_APP		0x5aa5

/* Protection information of lbuf's first RW_PI_DATA bytes, and its list. */
struct rw_sig {
	struct t10_pi_tuple *pi;
	struct scatterlist psg;
	struct ib_sig_attrs attrs;
};

static void rw_sig_prepare(struct rw_env *env, struct rw_sig *s)
{
	struct kunit *test = env->test;
	int i;

	env->create_flags = IB_QP_CREATE_INTEGRITY_EN;
	rw_env_qps(env, 2, 2);
	s->pi = kunit_kcalloc(test, RW_PI_BLOCKS, sizeof(*s->pi), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->pi);
	sg_init_one(&s->psg, s->pi, RW_PI_BLOCKS * sizeof(*s->pi));
	memset(&s->attrs, 0, sizeof(s->attrs));
	s->attrs.check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_REFTAG |
			      IB_SIG_CHECK_APPTAG;
	s->attrs.mem.sig_type = IB_SIG_TYPE_T10_DIF;
	s->attrs.mem.sig.dif.bg_type = IB_T10DIF_CRC;
	s->attrs.mem.sig.dif.pi_interval = RW_PI_BLOCK;
	s->attrs.mem.sig.dif.ref_tag = RW_PI_REF;
	s->attrs.mem.sig.dif.ref_remap = true;
	s->attrs.mem.sig.dif.app_tag = RW_PI_APP;
	s->attrs.mem.sig.dif.apptag_check_mask = 0xffff;
	s->attrs.wire.sig_type = IB_SIG_TYPE_NONE;
	rw_fill(env->lbuf, RW_PI_DATA, 9);
	for (i = 0; i < RW_PI_BLOCKS; i++) {
		s->pi[i].guard_tag = cpu_to_be16(crc_t10dif(env->lbuf +
							    i * RW_PI_BLOCK,
							    RW_PI_BLOCK));
		s->pi[i].app_tag = cpu_to_be16(RW_PI_APP);
		s->pi[i].ref_tag = cpu_to_be32(RW_PI_REF + i);
	}
	sg_init_table(env->lsg, 1);
	sg_set_buf(&env->lsg[0], env->lbuf, RW_PI_DATA);
}

/*
 * Move lbuf's first RW_PI_DATA bytes to or from the remote buffer through a
 * signature context; @st gets the integrity MR's status.  Returns the WR
 * count init gave, or -errno.
 */
static int rw_sig_move(struct rw_env *env, struct rw_sig *s,
		       enum dma_data_direction dir, struct ib_mr_status *st)
{
	struct rdma_rw_ctx ctx;
	struct rw_wait w;
	int nr, ret;

	nr = rdma_rw_ctx_signature_init(&ctx, env->qp, RW_PORT, env->lsg, 1,
					&s->psg, 1, &s->attrs, env->rmr->iova,
					env->rmr->rkey, dir);
	if (nr < 0)
		return nr;
	rw_wait_init(&w);
	ret = rdma_rw_ctx_post(&ctx, env->qp, RW_PORT, &w.cqe, NULL);
	if (!ret)
		ret = rw_wait_for(env, &w);
	if (!ret)
		ret = ib_check_mr_status(ctx.reg->mr, IB_MR_CHECK_SIG_STATUS, st);
	rdma_rw_ctx_destroy_signature(&ctx, env->qp, RW_PORT, env->lsg, 1,
				      &s->psg, 1, dir);
	return ret ? ret : nr;
}

/*
 * WRITE through an integrity MR: the memory's PI is checked and stripped,
 * the peer gets the data; a bad tuple is reported by ib_check_mr_status()
 * on the context's MR.
 */
static void rw_sig_write_checks_pi(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_mr_status st;
	struct rw_sig s;

	rw_sig_prepare(env, &s);
	memset(env->rbuf, 0, RW_BUF_LEN);
	KUNIT_EXPECT_EQ(test, rw_sig_move(env, &s, DMA_TO_DEVICE, &st), 2);
	KUNIT_EXPECT_EQ(test, st.fail_status, 0U);
	KUNIT_EXPECT_EQ(test, memcmp(env->rbuf, env->lbuf, RW_PI_DATA), 0);
	KUNIT_EXPECT_EQ(test, env->rbuf[RW_PI_DATA], 0);

	/* Block 5 claims another reference tag; the MR is invalidated first */
	s.pi[5].ref_tag = cpu_to_be32(4242);
	KUNIT_EXPECT_EQ(test, rw_sig_move(env, &s, DMA_TO_DEVICE, &st), 3);
	KUNIT_EXPECT_EQ(test, st.fail_status, (u32)IB_MR_CHECK_SIG_STATUS);
	KUNIT_EXPECT_EQ(test, st.sig_err.err_type, IB_SIG_BAD_REFTAG);
	KUNIT_EXPECT_EQ(test, st.sig_err.expected, (u32)RW_PI_REF + 5);
	KUNIT_EXPECT_EQ(test, st.sig_err.actual, 4242U);
	KUNIT_EXPECT_EQ(test, st.sig_err.sig_err_offset, 5ULL * RW_PI_BLOCK);

	/* A bad application tag */
	s.pi[5].ref_tag = cpu_to_be32(RW_PI_REF + 5);
	s.pi[0].app_tag = cpu_to_be16(1);
	KUNIT_EXPECT_EQ(test, rw_sig_move(env, &s, DMA_TO_DEVICE, &st), 3);
	KUNIT_EXPECT_EQ(test, st.sig_err.err_type, IB_SIG_BAD_APPTAG);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
}

/* READ through an integrity MR: the PI of the data read is generated. */
static void rw_sig_read_generates_pi(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct ib_mr_status st;
	struct rw_sig s;
	int i;

	rw_sig_prepare(env, &s);
	rw_fill(env->rbuf, RW_PI_DATA, 77);
	memset(s.pi, 0, RW_PI_BLOCKS * sizeof(*s.pi));
	KUNIT_EXPECT_EQ(test, rw_sig_move(env, &s, DMA_FROM_DEVICE, &st), 2);
	KUNIT_EXPECT_EQ(test, st.fail_status, 0U);
	KUNIT_EXPECT_EQ(test, memcmp(env->lbuf, env->rbuf, RW_PI_DATA), 0);
	for (i = 0; i < RW_PI_BLOCKS; i++) {
		KUNIT_EXPECT_EQ(test, be16_to_cpu(s.pi[i].guard_tag),
				crc_t10dif(env->rbuf + i * RW_PI_BLOCK,
					   RW_PI_BLOCK));
		KUNIT_EXPECT_EQ(test, be32_to_cpu(s.pi[i].ref_tag),
				(u32)RW_PI_REF + i);
		KUNIT_EXPECT_EQ(test, be16_to_cpu(s.pi[i].app_tag), RW_PI_APP);
	}
}

/* Bad input, and a pool with no integrity MR left. */
static void rw_sig_bad_inputs(struct kunit *test)
{
	struct rw_env *env = test->priv;
	struct rdma_rw_ctx ctx, held[2];
	struct ib_mr_status st;
	struct rw_sig s;
	int i;

	rw_sig_prepare(env, &s);
	/* Neither a READ nor a WRITE; a port the device lacks */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, env->qp, RW_PORT,
				env->lsg, 1, &s.psg, 1, &s.attrs, 0, 0,
				DMA_BIDIRECTIONAL), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, env->qp, 3,
				env->lsg, 1, &s.psg, 1, &s.attrs, 0, 0,
				DMA_TO_DEVICE), -EINVAL);
	/* More entries than an integrity MR maps; none at all */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, env->qp, RW_PORT,
				env->lsg, TDEV_PI_PAGES + 1, &s.psg, 1,
				&s.attrs, 0, 0, DMA_TO_DEVICE), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, env->qp, RW_PORT,
				env->lsg, 0, &s.psg, 1, &s.attrs, 0, 0,
				DMA_TO_DEVICE), -EINVAL);
	/* The peer QP has no integrity */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, env->peer,
				RW_PORT, env->lsg, 1, &s.psg, 1, &s.attrs, 0,
				0, DMA_TO_DEVICE), -EINVAL);
	/* Two contexts hold the pool's two integrity MRs */
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, rdma_rw_ctx_signature_init(&held[i],
					env->qp, RW_PORT, env->lsg, 1, &s.psg,
					1, &s.attrs, env->rmr->iova,
					env->rmr->rkey, DMA_TO_DEVICE), 2);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, env->qp, RW_PORT,
				env->lsg, 1, &s.psg, 1, &s.attrs, 0, 0,
				DMA_TO_DEVICE), -EAGAIN);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 2);
	for (i = 0; i < 2; i++)
		rdma_rw_ctx_destroy_signature(&held[i], env->qp, RW_PORT,
					      env->lsg, 1, &s.psg, 1,
					      DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	/* Destroying it twice, or as a plain context: refused, no harm */
	rdma_rw_ctx_destroy_signature(&held[0], env->qp, RW_PORT, env->lsg, 1,
				      &s.psg, 1, DMA_TO_DEVICE);
	/* And the QP still moves data */
	KUNIT_EXPECT_EQ(test, rw_sig_move(env, &s, DMA_TO_DEVICE, &st), 2);
	KUNIT_EXPECT_EQ(test, st.fail_status, 0U);
}

static struct kunit_case rw_sig_cases[] = {
	KUNIT_CASE(rw_sig_write_checks_pi),
	KUNIT_CASE(rw_sig_read_generates_pi),
	KUNIT_CASE(rw_sig_bad_inputs),
	{}
};

static struct kunit_suite rw_sig_suite = {
	.name = "rdma_core_rw_sig",
	.init = rw_env_init_integrity,
	.exit = rw_env_exit,
	.test_cases = rw_sig_cases,
};

kunit_test_suites(&rw_sizing_suite, &rw_sge_suite, &rw_mr_suite,
		  &rw_sig_suite);
