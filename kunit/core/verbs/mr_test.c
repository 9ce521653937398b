// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of core/verbs/mr.c: allocating and deregistering MRs
 * (ib_alloc_mr(), ib_alloc_mr_integrity(), ib_dereg_mr(),
 * ib_check_mr_status()), with the page-list constraints of ib_map_mr_sg()
 * (core/verbs/mr_map.c) on a page-list MR (rdma_core_mr); and integrity MRs
 * on a device with T10-DIF offload, whose protection information is
 * checked as data moves through them (rdma_core_mr_integrity).
 */
#include <kunit/test.h>
#include <linux/crc-t10dif.h>
#include <linux/delay.h>
#include <linux/scatterlist.h>
#include <linux/t10-pi.h>
#include "vk.h"

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

/* ---- rdma_core_mr_integrity ---- */

#define PI_BLOCK	512
#define PI_BLOCKS	4
#define PI_DATA		(PI_BLOCK * PI_BLOCKS)
#define PI_REF		100
#define PI_APP		0x1234

static int vk_init_integrity(struct kunit *test)
{
	const struct tdev_params params = { .integrity = true };

	return vk_init_with(test, &params);
}

/* Data and its T10-DIF tuples (CRC guard, ref tags from PI_REF) */
struct pi_buf {
	u8 *data;
	struct t10_pi_tuple *pi;
	struct scatterlist dsg, psg;
};

static void pi_buf_make(struct kunit *test, struct pi_buf *b)
{
	struct vk *v = test->priv;
	int i;

	b->data = kunit_kzalloc(test, PI_DATA, GFP_KERNEL);
	b->pi = kunit_kcalloc(test, PI_BLOCKS, sizeof(*b->pi), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->data);
	KUNIT_ASSERT_NOT_NULL(test, b->pi);
	for (i = 0; i < PI_DATA; i++)
		b->data[i] = i * 13 + 1;
	for (i = 0; i < PI_BLOCKS; i++) {
		b->pi[i].guard_tag =
			cpu_to_be16(crc_t10dif(b->data + i * PI_BLOCK, PI_BLOCK));
		b->pi[i].app_tag = cpu_to_be16(PI_APP);
		b->pi[i].ref_tag = cpu_to_be32(PI_REF + i);
	}
	sg_init_one(&b->dsg, b->data, PI_DATA);
	sg_init_one(&b->psg, b->pi, PI_BLOCKS * sizeof(*b->pi));
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(v->dev, &b->dsg, 1,
					    DMA_BIDIRECTIONAL), 1);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(v->dev, &b->psg, 1,
					    DMA_BIDIRECTIONAL), 1);
}

static void pi_domain(struct ib_sig_domain *d)
{
	d->sig_type = IB_SIG_TYPE_T10_DIF;
	d->sig.dif.bg_type = IB_T10DIF_CRC;
	d->sig.dif.pi_interval = PI_BLOCK;
	d->sig.dif.ref_tag = PI_REF;
	d->sig.dif.ref_remap = true;
	d->sig.dif.app_tag = PI_APP;
	d->sig.dif.apptag_check_mask = 0xffff;
}

/* Register @mr with IB_WR_REG_MR_INTEGRITY on @qp; its CQ polled here. */
static void pi_register(struct kunit *test, struct ib_qp *qp,
			struct ib_mr *mr)
{
	struct ib_reg_wr wr = {
		.wr = { .opcode = IB_WR_REG_MR_INTEGRITY,
			.send_flags = IB_SEND_SIGNALED },
		.access = IB_ACCESS_LOCAL_WRITE,
		.mr = mr,
	};
	const struct ib_send_wr *bad;
	struct ib_wc wc;

	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey) & 0xff);
	wr.key = mr->lkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr.wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, vk_poll_wait(qp->send_cq, 1, &wc), 1);
	KUNIT_ASSERT_EQ(test, wc.status, IB_WC_SUCCESS);
}

/* WRITE the wire view of @mr to @raddr/@rkey; returns the status. */
static enum ib_wc_status pi_write(struct kunit *test, struct vk_pair *p,
				  struct ib_mr *mr, u32 len, u64 raddr,
				  u32 rkey)
{
	struct ib_sge sge = { .addr = 0, .length = len, .lkey = mr->lkey };
	struct ib_wc wc;

	vk_rdma_poll(test, p, 9, IB_WR_RDMA_WRITE, &sge, raddr, rkey, &wc);
	return wc.status;
}

static void mr_integrity_alloc(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr_integrity(v->pd, 4, 4);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_INTEGRITY);
	KUNIT_ASSERT_NOT_NULL(test, mr->sig_attrs);
	KUNIT_EXPECT_PTR_EQ(test, mr->pd, v->pd);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
	/* Bad input: no metadata, more pages than the device maps */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr_integrity(v->pd, 4, 0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr_integrity(v->pd,
							    TDEV_PI_PAGES + 1,
							    4)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr(v->pd, IB_MR_TYPE_INTEGRITY,
						  4)), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->pd->usecnt), 0);
}

static void mr_integrity_map_sg_pi(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr_integrity(v->pd, 4, 4);
	struct ib_mr *plain = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 4);
	struct pi_buf b;

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	pi_buf_make(test, &b);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(mr, &b.dsg, 1, NULL, &b.psg, 1,
					      NULL, SZ_4K), 0);
	KUNIT_EXPECT_EQ(test, mr->page_size, (unsigned int)SZ_4K);
	/* Zero-based: the data, then the protection information */
	KUNIT_EXPECT_EQ(test, mr->iova, 0ULL);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)PI_DATA + PI_BLOCKS * 8);
	KUNIT_EXPECT_EQ(test, mr->sig_attrs->meta_length, PI_BLOCKS * 8);
	/* Without metadata */
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(mr, &b.dsg, 1, NULL, NULL, 0,
					      NULL, SZ_4K), 0);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)PI_DATA);
	KUNIT_EXPECT_EQ(test, mr->sig_attrs->meta_length, 0);
	/* Bad input: an MR of another type */
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(plain, &b.dsg, 1, NULL, &b.psg,
					      1, NULL, SZ_4K), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(plain), 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

static void mr_integrity_status(struct kunit *test)
{
	struct vk *v = test->priv;
	struct ib_mr *mr = ib_alloc_mr_integrity(v->pd, 4, 4);
	struct ib_mr *plain = ib_alloc_mr(v->pd, IB_MR_TYPE_MEM_REG, 4);
	struct ib_mr_status st;

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	memset(&st, 0xff, sizeof(st));
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &st), 0);
	KUNIT_EXPECT_EQ(test, st.fail_status, 0U);
	/* Bad input: a check the device does not know, a plain MR */
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(mr, 0x100, &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(plain, IB_MR_CHECK_SIG_STATUS,
						 &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(plain), 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/*
 * Data leaves through an integrity MR whose memory domain has T10-DIF
 * and whose wire has none: the peer gets the data only; the PI in memory
 * is checked on the way, and the first bad tuple is reported by
 * ib_check_mr_status(), once.
 */
static void mr_integrity_write_checks_pi(struct kunit *test)
{
	struct vk *v = test->priv;
	u8 *remote = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	struct ib_mr *mr, *rmr;
	struct ib_mr_status st;
	struct vk_pair p;
	struct pi_buf b;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	rmr = vk_reg_buf(test, p.b, remote, 2 * PAGE_SIZE,
			 IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);
	pi_buf_make(test, &b);
	mr = ib_alloc_mr_integrity(v->pd, 4, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	memset(mr->sig_attrs, 0, sizeof(*mr->sig_attrs));
	mr->sig_attrs->check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_REFTAG |
				    IB_SIG_CHECK_APPTAG;
	pi_domain(&mr->sig_attrs->mem);
	mr->sig_attrs->wire.sig_type = IB_SIG_TYPE_NONE;
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg_pi(mr, &b.dsg, 1, NULL, &b.psg, 1,
					      NULL, SZ_4K), 0);
	pi_register(test, p.a, mr);

	KUNIT_EXPECT_EQ(test, pi_write(test, &p, mr, PI_DATA, rmr->iova,
				       rmr->rkey), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(remote, b.data, PI_DATA), 0);
	KUNIT_EXPECT_EQ(test, remote[PI_DATA], 0);
	KUNIT_ASSERT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &st), 0);
	KUNIT_EXPECT_EQ(test, st.fail_status, 0U);

	/* A bad guard in block 2: still moved, and reported */
	b.pi[2].guard_tag ^= cpu_to_be16(0x8001);
	KUNIT_EXPECT_EQ(test, pi_write(test, &p, mr, PI_DATA, rmr->iova,
				       rmr->rkey), IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &st), 0);
	KUNIT_EXPECT_EQ(test, st.fail_status, (u32)IB_MR_CHECK_SIG_STATUS);
	KUNIT_EXPECT_EQ(test, st.sig_err.err_type, IB_SIG_BAD_GUARD);
	KUNIT_EXPECT_EQ(test, st.sig_err.expected,
			(u32)crc_t10dif(b.data + 2 * PI_BLOCK, PI_BLOCK));
	KUNIT_EXPECT_EQ(test, st.sig_err.actual,
			(u32)be16_to_cpu(b.pi[2].guard_tag));
	KUNIT_EXPECT_EQ(test, st.sig_err.sig_err_offset, 2ULL * PI_BLOCK);
	KUNIT_EXPECT_EQ(test, st.sig_err.key, mr->lkey);
	/* Reported once */
	KUNIT_ASSERT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &st), 0);
	KUNIT_EXPECT_EQ(test, st.fail_status, 0U);

	/* A bad reference tag is reported as such */
	b.pi[2].guard_tag ^= cpu_to_be16(0x8001);
	b.pi[3].ref_tag = cpu_to_be32(7);
	KUNIT_EXPECT_EQ(test, pi_write(test, &p, mr, PI_DATA, rmr->iova,
				       rmr->rkey), IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &st), 0);
	KUNIT_EXPECT_EQ(test, st.sig_err.err_type, IB_SIG_BAD_REFTAG);
	KUNIT_EXPECT_EQ(test, st.sig_err.expected, (u32)PI_REF + 3);
	KUNIT_EXPECT_EQ(test, st.sig_err.actual, 7U);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(rmr), 0);
	vk_pair_free(test, &p);
}

/* With T10-DIF on the wire too, the peer gets each block and its tuple. */
static void mr_integrity_wire_pi(struct kunit *test)
{
	struct vk *v = test->priv;
	u8 *remote = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	struct ib_mr *mr, *rmr;
	struct ib_mr_status st;
	struct vk_pair p;
	struct pi_buf b;
	int i;

	vk_pair_make(test, &p, IB_QPT_RC, IB_POLL_DIRECT, NULL);
	rmr = vk_reg_buf(test, p.b, remote, 2 * PAGE_SIZE,
			 IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);
	pi_buf_make(test, &b);
	mr = ib_alloc_mr_integrity(v->pd, 4, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	memset(mr->sig_attrs, 0, sizeof(*mr->sig_attrs));
	mr->sig_attrs->check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_REFTAG;
	pi_domain(&mr->sig_attrs->mem);
	pi_domain(&mr->sig_attrs->wire);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg_pi(mr, &b.dsg, 1, NULL, &b.psg, 1,
					      NULL, SZ_4K), 0);
	pi_register(test, p.a, mr);
	KUNIT_EXPECT_EQ(test, pi_write(test, &p, mr, mr->length, rmr->iova,
				       rmr->rkey), IB_WC_SUCCESS);
	for (i = 0; i < PI_BLOCKS; i++) {
		u8 *blk = remote + i * (PI_BLOCK + 8);

		KUNIT_EXPECT_EQ(test, memcmp(blk, b.data + i * PI_BLOCK,
					     PI_BLOCK), 0);
		KUNIT_EXPECT_EQ(test, memcmp(blk + PI_BLOCK, &b.pi[i], 8), 0);
	}
	KUNIT_ASSERT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &st), 0);
	KUNIT_EXPECT_EQ(test, st.fail_status, 0U);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(rmr), 0);
	vk_pair_free(test, &p);
}

static struct kunit_case mr_integrity_cases[] = {
	KUNIT_CASE(mr_integrity_alloc),
	KUNIT_CASE(mr_integrity_map_sg_pi),
	KUNIT_CASE(mr_integrity_status),
	KUNIT_CASE(mr_integrity_write_checks_pi),
	KUNIT_CASE(mr_integrity_wire_pi),
	{}
};

static struct kunit_suite mr_integrity_suite = {
	.name = "rdma_core_mr_integrity",
	.init = vk_init_integrity,
	.exit = vk_exit,
	.test_cases = mr_integrity_cases,
};

kunit_test_suites(&mr_suite, &mr_integrity_suite);
