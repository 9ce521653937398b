// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: core/verbs/mr_map.c, mapping scatterlists into MRs.
 *
 * rdma_core_sg_to_pages walks DMA scatterlists into page lists with
 * ib_sg_to_pages() (no device needed); rdma_core_sg_gaps maps SG_GAPS MRs
 * with ib_map_mr_sg() on a test device that advertises IBK_SG_GAPS_REG and
 * carries data through them.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include "vk.h"

/* ---- rdma_core_sg_to_pages ---- */

#define SGP_MAX 64
#define SGP_MAX_SG 3

/*
 * A page collector standing in for a driver's page list, and the
 * scatterlist of DMA (address, length) pairs it maps; no pages behind it.
 */
struct sgp {
	struct ib_mr mr;
	u64 pages[SGP_MAX];
	int n;
	int cap;
	struct scatterlist sgl[SGP_MAX_SG];
};

static int sgp_set_page(struct ib_mr *mr, u64 addr)
{
	struct sgp *p = container_of(mr, struct sgp, mr);

	if (p->n == p->cap)
		return -ENOMEM;
	p->pages[p->n++] = addr;
	return 0;
}

static void sgp_init(struct sgp *p, unsigned int page_size, int cap)
{
	memset(p, 0, sizeof(*p));
	p->mr.page_size = page_size;
	p->cap = cap;
}

/* Fills p->sgl with @n (address, length) pairs. */
static void sgp_sgl(struct sgp *p, const u64 *addr, const u32 *len, int n)
{
	int i;

	sg_init_table(p->sgl, n);
	for (i = 0; i < n; i++) {
		sg_dma_address(&p->sgl[i]) = addr[i];
		sg_dma_len(&p->sgl[i]) = len[i];
	}
}

/* ib_sg_to_pages() of @n (address, length) pairs into @p. */
static int sgp_map(struct sgp *p, const u64 *addr, const u32 *len, int n,
		   unsigned int *sg_offset)
{
	sgp_sgl(p, addr, len, n);
	return ib_sg_to_pages(&p->mr, p->sgl, n, sg_offset, sgp_set_page);
}

#define PG 0x1000ULL

static void sgp_one_aligned(struct kunit *test)
{
	u64 a[] = { 0x100000 };
	u32 l[] = { 3 * PG };
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), NULL), 1);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.pages[0], 0x100000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[2], 0x102000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.iova, 0x100000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 3 * PG);
}

static void sgp_first_offset(struct kunit *test)
{
	u64 a[] = { 0x100a00, 0x102000 };
	u32 l[] = { 0x1600, 0x800 };
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), NULL), 2);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.pages[0], 0x100000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[1], 0x101000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[2], 0x102000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.iova, 0x100a00ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0x1e00ULL);
}

static void sgp_sg_offset_arg(struct kunit *test)
{
	u64 a[] = { 0x200000 };
	u32 l[] = { 2 * PG };
	unsigned int off = 0x1100;
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), &off), 1);
	KUNIT_EXPECT_EQ(test, p.n, 1);
	KUNIT_EXPECT_EQ(test, p.pages[0], 0x201000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.iova, 0x201100ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0xf00ULL);
	KUNIT_EXPECT_EQ(test, off, 0U);
}

static void sgp_unaligned_middle_gap(struct kunit *test)
{
	u64 a[] = { 0x100000, 0x300200, 0x400000 };
	u32 l[] = { PG, 0xe00, PG };
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), NULL), 1);
	KUNIT_EXPECT_EQ(test, p.n, 1);
	KUNIT_EXPECT_EQ(test, p.mr.length, PG);
}

static void sgp_unaligned_middle_contiguous(struct kunit *test)
{
	u64 a[] = { 0x100000, 0x100800, 0x101400 };
	u32 l[] = { 0x800, 0xc00, 0x1c00 };
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), NULL), 3);
	/* 0x100000..0x103000: three pages, none twice */
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.pages[1], 0x101000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[2], 0x102000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0x3000ULL);
}

static void sgp_short_previous_ends_prefix(struct kunit *test)
{
	/* The first element ends mid-page, the next starts elsewhere */
	u64 a[] = { 0x100000, 0x200000 };
	u32 l[] = { 0x800, PG };
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), NULL), 1);
	KUNIT_EXPECT_EQ(test, p.n, 1);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0x800ULL);
}

static void sgp_short_last(struct kunit *test)
{
	u64 a[] = { 0x100000, 0x500000, 0x700000 };
	u32 l[] = { PG, 2 * PG, 0x10 };
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), NULL), 3);
	KUNIT_EXPECT_EQ(test, p.n, 4);
	KUNIT_EXPECT_EQ(test, p.pages[3], 0x700000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 3 * PG + 0x10);
}

static void sgp_more_than_max(struct kunit *test)
{
	u64 a[] = { 0x100000, 0x200000, 0x300000 };
	u32 l[] = { 2 * PG, 2 * PG, 2 * PG };
	unsigned int off = 0;
	struct sgp p;

	sgp_init(&p, PG, 3);
	/* Three pages fit: the first element and half the second */
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), &off), 1);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, off, (unsigned int)PG);
	KUNIT_EXPECT_EQ(test, p.mr.length, 3 * PG);
}

static void sgp_nothing_fits(struct kunit *test)
{
	u64 a[] = { 0x100000 };
	u32 l[] = { PG };
	struct sgp p;

	sgp_init(&p, PG, 0);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), NULL), -ENOMEM);
}

static void sgp_bad_args(struct kunit *test)
{
	u64 a[] = { 0x100000 };
	u32 l[] = { PG };
	unsigned int off = PG + 1;
	struct sgp p;

	sgp_init(&p, PG, SGP_MAX);
	sgp_sgl(&p, a, l, 1);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, p.sgl, 0, NULL, sgp_set_page),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&p.mr, p.sgl, 1, &off, sgp_set_page),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, p.n, 0);
}

static void sgp_large_pages(struct kunit *test)
{
	u64 a[] = { 0x1234000, 0x1240000 };
	u32 l[] = { 0xc000, 0x20000 };
	struct sgp p;

	sgp_init(&p, 0x10000, SGP_MAX);
	KUNIT_EXPECT_EQ(test, sgp_map(&p, a, l, ARRAY_SIZE(a), NULL), 2);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.pages[0], 0x1230000ULL);
	KUNIT_EXPECT_EQ(test, p.pages[2], 0x1250000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.iova, 0x1234000ULL);
	KUNIT_EXPECT_EQ(test, p.mr.length, 0x2c000ULL);
}

static struct kunit_case sgp_cases[] = {
	KUNIT_CASE(sgp_one_aligned),
	KUNIT_CASE(sgp_first_offset),
	KUNIT_CASE(sgp_sg_offset_arg),
	KUNIT_CASE(sgp_unaligned_middle_gap),
	KUNIT_CASE(sgp_unaligned_middle_contiguous),
	KUNIT_CASE(sgp_short_previous_ends_prefix),
	KUNIT_CASE(sgp_short_last),
	KUNIT_CASE(sgp_more_than_max),
	KUNIT_CASE(sgp_nothing_fits),
	KUNIT_CASE(sgp_bad_args),
	KUNIT_CASE(sgp_large_pages),
	{}
};

static struct kunit_suite sgp_suite = {
	.name = "rdma_core_sg_to_pages",
	.test_cases = sgp_cases,
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
	vk_reg_mr(test, p.b, mr,
		  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);

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

kunit_test_suites(&sgp_suite, &sg_gaps_suite);
