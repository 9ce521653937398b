// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for page sizes and DMA blocks on made-up mappings.
 *
 * ib_umem_find_best_pgsz() (ib_uverbs) and the block iterator behind
 * rdma_for_each_block() and rdma_umem_for_each_dma_block() (ib_core) read
 * only the DMA addresses and lengths of a mapped scatterlist, so these
 * cases build umems and scatterlists by hand with the addresses they need:
 * huge alignments, gaps and runs of contiguous elements that pinned memory
 * would give only by chance.  umem_test.c runs both on real pinned memory.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

#define DB_MAX_ELEMS	4
#define DB_MAX_BLOCKS	8

/* One element of a made-up mapping: its DMA address and length. */
struct db_elem {
	u64 dma;
	u32 len;
};

/* A scatterlist of @n elements (kunit-allocated) with those addresses. */
static struct scatterlist *db_sgl(struct kunit *test, const struct db_elem *e,
				  unsigned int n)
{
	struct scatterlist *sgl, *sg;
	unsigned int i;

	sgl = kunit_kcalloc(test, n, sizeof(*sgl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, n);
	for_each_sg(sgl, sg, n, i) {
		sg->length = e[i].len;
		sg_dma_address(sg) = e[i].dma;
		sg_dma_len(sg) = e[i].len;
	}
	return sgl;
}

static unsigned int db_count(const struct db_elem *e)
{
	unsigned int n = 0;

	while (n < DB_MAX_ELEMS && e[n].len)
		n++;
	return n;
}

/* A umem of @length bytes at @address mapped as @e says. */
static struct ib_umem *db_umem(struct kunit *test, unsigned long address,
			       size_t length, const struct db_elem *e)
{
	struct ib_umem *umem = kunit_kzalloc(test, sizeof(*umem), GFP_KERNEL);
	unsigned int n = db_count(e);

	KUNIT_ASSERT_NOT_NULL(test, umem);
	umem->address = address;
	umem->iova = address;
	umem->length = length;
	umem->sgt_append.sgt.sgl = db_sgl(test, e, n);
	umem->sgt_append.sgt.nents = n;
	umem->sgt_append.sgt.orig_nents = n;
	return umem;
}

/* ---- ib_umem_find_best_pgsz() ---- */

#define DB_VA	0x7f0000200000UL	/* a 2 MiB aligned user address */
#define DB_SMALL	(SZ_4K | SZ_2M)
#define DB_ALL	(SZ_4K | SZ_2M | SZ_1G)

struct pgsz_case {
	const char *name;
	unsigned long address;
	size_t length;
	struct db_elem elem[DB_MAX_ELEMS];
	unsigned long bitmap;
	u64 virt;
	unsigned long want;
};

static const struct pgsz_case pgsz_cases[] = {
	{ "va_dma_agree_below_2M", DB_VA, SZ_4M, { { 0x40000000, SZ_4M } },
	  DB_ALL, DB_VA, SZ_2M },
	{ "one_page_holds_all", DB_VA, SZ_4M, { { 0x40200000, SZ_4M } },
	  DB_ALL, DB_VA, SZ_1G },
	{ "no_larger_than_needed", DB_VA, SZ_64K, { { 0x40200000, SZ_64K } },
	  SZ_4K | SZ_64K | SZ_2M, DB_VA, SZ_64K },
	{ "va_dma_differ_at_4K", DB_VA + SZ_4K, SZ_2M, { { 0x40200000, SZ_2M } },
	  DB_ALL, DB_VA + SZ_4K, SZ_4K },
	{ "only_2M_does_not_fit", DB_VA + SZ_4K, SZ_2M, { { 0x40200000, SZ_2M } },
	  SZ_2M, DB_VA + SZ_4K, 0 },
	{ "gap_at_2M", DB_VA, SZ_4M,
	  { { 0x40000000, SZ_2M }, { 0x80000000, SZ_2M } }, DB_ALL, DB_VA, SZ_2M },
	{ "gap_at_1M", DB_VA, SZ_2M,
	  { { 0x40000000, SZ_1M }, { 0x80100000, SZ_1M } }, DB_SMALL, DB_VA, SZ_4K },
	{ "contiguous_elements_are_one_run", DB_VA, SZ_2M,
	  { { 0x40000000, SZ_1M }, { 0x40100000, SZ_1M } }, DB_ALL, DB_VA, SZ_2M },
	{ "offset_in_first_page", DB_VA + 0x800, SZ_2M - 0x800,
	  { { 0x40000000, SZ_2M } }, DB_ALL, DB_VA + 0x800, SZ_2M },
	{ "iova_not_the_address", DB_VA + 0x800, SZ_4K,
	  { { 0x40200000, SZ_8K } }, DB_SMALL, 0x800, SZ_2M },
	{ "iova_wraps", DB_VA, SZ_4K, { { 0x40000000, SZ_4K } }, DB_ALL,
	  U64_MAX - 10, 0 },
	{ "below_page_size_always_fits", DB_VA + 0x10, SZ_8K,
	  { { 0x40000000, SZ_4K }, { 0x90000000, SZ_8K } },
	  SZ_512 | SZ_1K, DB_VA + 0x10, SZ_1K },
};

static void pgsz_case_desc(const struct pgsz_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pgsz, pgsz_cases, pgsz_case_desc);

static void find_best_pgsz(struct kunit *test)
{
	const struct pgsz_case *c = test->param_value;
	struct ib_umem *umem = db_umem(test, c->address, c->length, c->elem);

	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, c->bitmap, c->virt),
			c->want);
	KUNIT_EXPECT_EQ(test, umem->iova, c->virt);
}

static struct kunit_case pgsz_test_cases[] = {
	KUNIT_CASE_PARAM(find_best_pgsz, pgsz_gen_params),
	{}
};

static struct kunit_suite pgsz_suite = {
	.name = "rdma_uverbs_find_best_pgsz",
	.test_cases = pgsz_test_cases,
};

/* ---- the block iterator ---- */

struct block_case {
	const char *name;
	struct db_elem elem[DB_MAX_ELEMS];
	unsigned int nents;		/* 0: all of elem */
	unsigned long pgsz;
	u64 want[DB_MAX_BLOCKS];	/* block addresses, 0-terminated */
};

static const struct block_case block_cases[] = {
	{ "pages_of_three_elements",
	  { { 0x10000, 0x3000 }, { 0x20000, 0x1000 }, { 0x21000, 0x2000 } },
	  0, SZ_4K,
	  { 0x10000, 0x11000, 0x12000, 0x20000, 0x21000, 0x22000 } },
	{ "first_entries_only",
	  { { 0x10000, 0x3000 }, { 0x20000, 0x1000 }, { 0x21000, 0x2000 } },
	  1, SZ_4K, { 0x10000, 0x11000, 0x12000 } },
	{ "small_elements_share_a_block",
	  { { 0x10000, 0x800 }, { 0x10800, 0x800 }, { 0x11000, 0x1000 } },
	  0, SZ_4K, { 0x10000, 0x11000 } },
	{ "starts_inside_a_block", { { 0x10800, 0x1000 } }, 0, SZ_4K,
	  { 0x10000, 0x11000 } },
	{ "huge_blocks_across_elements",
	  { { 0x200000, 0x100000 }, { 0x300000, 0x300000 } }, 0, SZ_2M,
	  { 0x200000, 0x400000 } },
	{ "blocks_smaller_than_elements", { { 0x40000, 0x1000 } }, 0, SZ_1K,
	  { 0x40000, 0x40400, 0x40800, 0x40c00 } },
	{ "no_block_size", { { 0x40000, 0x1000 } }, 0, 0, { 0 } },
};

static void block_case_desc(const struct block_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(block, block_cases, block_case_desc);

static void block_iter_sgl(struct kunit *test)
{
	const struct block_case *c = test->param_value;
	unsigned int n = db_count(c->elem);
	struct scatterlist *sgl = db_sgl(test, c->elem, n);
	struct ib_block_iter biter;
	unsigned int i = 0;

	rdma_for_each_block(sgl, &biter, c->nents ?: n, c->pgsz) {
		KUNIT_ASSERT_LT(test, i, (unsigned int)DB_MAX_BLOCKS);
		KUNIT_EXPECT_EQ_MSG(test, rdma_block_iter_dma_address(&biter),
				    c->want[i], "block %u", i);
		i++;
	}
	KUNIT_EXPECT_TRUE_MSG(test, i == DB_MAX_BLOCKS || !c->want[i],
			      "%u blocks, want more", i);
}

static void block_iter_start_clears(struct kunit *test)
{
	struct db_elem e[] = { { 0x10000, 0x1000 } };
	struct scatterlist *sgl = db_sgl(test, e, 1);
	struct ib_block_iter biter;

	memset(&biter, 0xa5, sizeof(biter));
	__rdma_block_iter_start(&biter, sgl, 1, SZ_4K);
	KUNIT_EXPECT_PTR_EQ(test, biter.__sg, sgl);
	KUNIT_EXPECT_EQ(test, biter.__sg_nents, 1U);
	KUNIT_EXPECT_EQ(test, biter.__pg_bit, 12U);
	KUNIT_EXPECT_EQ(test, biter.__sg_advance, 0U);
	KUNIT_EXPECT_EQ(test, biter.__dma_addr, 0ULL);
	KUNIT_EXPECT_EQ(test, biter.__sg_numblocks, (size_t)0);
	KUNIT_EXPECT_TRUE(test, __rdma_block_iter_next(&biter));
	KUNIT_EXPECT_FALSE(test, __rdma_block_iter_next(&biter));
	KUNIT_EXPECT_FALSE(test, __rdma_block_iter_next(&biter));
}

/* Walks @umem in blocks of @pgsz and compares them with @want. */
static void db_umem_blocks(struct kunit *test, struct ib_umem *umem,
			   unsigned long pgsz, const u64 *want, unsigned int n)
{
	struct ib_block_iter biter;
	unsigned int i = 0;

	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		KUNIT_ASSERT_LT(test, i, n);
		KUNIT_EXPECT_EQ_MSG(test, rdma_block_iter_dma_address(&biter),
				    want[i], "pgsz %lx block %u", pgsz, i);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, n);
	KUNIT_EXPECT_EQ(test, (size_t)n, ib_umem_num_dma_blocks(umem, pgsz));
}

static void block_iter_umem(struct kunit *test)
{
	static const struct db_elem e[DB_MAX_ELEMS] = {
		{ 0x10000, 0x2000 }, { 0x30000, 0x1000 },
	};
	static const u64 pages[] = { 0x10000, 0x11000, 0x30000 };
	static const u64 halves[] = { 0x10800, 0x11000, 0x11800, 0x30000,
				      0x30800 };
	static const u64 head[] = { 0x10000, 0x11000 };
	/* From offset 0x900 of the first page to the end of the last */
	struct ib_umem *umem = db_umem(test, DB_VA + 0x900, 0x2700, e);

	db_umem_blocks(test, umem, SZ_4K, pages, ARRAY_SIZE(pages));
	db_umem_blocks(test, umem, SZ_2K, halves, ARRAY_SIZE(halves));
	/* A umem shorter than its mapping stops after its own blocks */
	umem = db_umem(test, DB_VA, 0x1800, e);
	db_umem_blocks(test, umem, SZ_4K, head, ARRAY_SIZE(head));
}

static struct kunit_case block_test_cases[] = {
	KUNIT_CASE_PARAM(block_iter_sgl, block_gen_params),
	KUNIT_CASE(block_iter_start_clears),
	KUNIT_CASE(block_iter_umem),
	{}
};

static struct kunit_suite block_suite = {
	.name = "rdma_core_dma_blocks",
	.test_cases = block_test_cases,
};

kunit_test_suites(&pgsz_suite, &block_suite);
