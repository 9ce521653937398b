// SPDX-License-Identifier: GPL-2.0
/*
 * The device page size that fits a umem's DMA mapping.
 *
 * A device that maps an MR with one page size P translates an I/O virtual
 * address by its bits above P: every page of the MR must then be one
 * P-aligned, DMA-contiguous block whose offset bits match the IOVA's.  So,
 * walking the DMA-mapped list as runs of contiguous elements:
 *
 *  - at the start of every run, the IOVA and the DMA address must agree in
 *    the bits below P;
 *  - every run but the first must start at a P-aligned IOVA (the run before
 *    it ends there, so its end is aligned too);
 *  - P need not exceed the smallest supported size whose aligned block
 *    holds the whole range: larger pages would only cost more.
 *
 * Each rule is a set of low bits that must be zero; the lowest bit that
 * some rule sets bounds P.  No locking: the umem's owner calls this.
 *
 * An on-demand-paging umem has no scatterlist: its driver maps it page by
 * page later, in pages of the umem's own size (page_shift), and sizes the
 * MR's translation table for those.  Its only fitting size is that one.
 */
#include "abi/ib_uverbs/umem.h"

/*
 * Bits that bound P because larger pages are pointless: the supported
 * sizes at least as large as the aligned block holding [@first, @last].
 */
static unsigned long pgsz_cover_bound(unsigned long pgsz_bitmap, u64 first,
				      u64 last)
{
	unsigned int order = bits_per(first ^ last);

	return order < BITS_PER_LONG ? pgsz_bitmap & (~0UL << order) : 0;
}

/* Bits that bound P because of where the mapping's runs start. */
static u64 pgsz_run_bound(struct ib_umem *umem, u64 iova)
{
	struct sg_table *sgt = &umem->sgt_append.sgt;
	unsigned long skip = ib_umem_offset(umem);
	dma_addr_t next = 0;
	struct scatterlist *sg;
	unsigned int n;
	u64 bound = 0;

	for_each_sgtable_dma_sg(sgt, sg, n) {
		dma_addr_t dma = sg_dma_address(sg);

		if (!n || dma != next) {
			bound |= (dma + skip) ^ iova;
			if (n)
				bound |= iova;
		}
		next = dma + sg_dma_len(sg);
		iova += sg_dma_len(sg) - skip;
		skip = 0;
	}
	return bound;
}

/* An ODP umem fits only its own page size, if the device supports it. */
static unsigned long pgsz_odp(struct ib_umem *umem, unsigned long pgsz_bitmap)
{
	unsigned long own = BIT(to_ib_umem_odp(umem)->page_shift);

	return pgsz_bitmap & own ? own : 0;
}

/**
 * ib_umem_find_best_pgsz() - the largest device page size that fits a umem
 * @umem: the umem, from ib_umem_get()
 * @pgsz_bitmap: the page sizes the device supports, one bit each
 * @virt: the IOVA the MR will have; stored as the umem's iova
 *
 * The largest size of @pgsz_bitmap that maps the umem at @virt (the file's
 * header says which fit), but no larger than the smallest supported size
 * that holds the whole range in one page.  For an on-demand-paging umem,
 * the umem's own page size.
 *
 * Return: the page size, or 0 if none of @pgsz_bitmap fits (never for a
 * pinned umem and a bitmap with PAGE_SIZE or a smaller size), the range
 * would wrap, or @umem pages on demand in a size @pgsz_bitmap lacks.
 */
unsigned long ib_umem_find_best_pgsz(struct ib_umem *umem,
				     unsigned long pgsz_bitmap, u64 virt)
{
	u64 bound, last;

	umem->iova = virt;
	if (umem->is_odp)
		return pgsz_odp(umem, pgsz_bitmap);
	if (check_add_overflow(virt, (u64)umem->length - 1, &last))
		return 0;

	bound = pgsz_cover_bound(pgsz_bitmap, virt, last) |
		pgsz_run_bound(umem, virt);
	if (bound)
		pgsz_bitmap &= GENMASK(__ffs64(bound), 0);
	return pgsz_bitmap ? BIT(__fls(pgsz_bitmap)) : 0;
}
EXPORT_SYMBOL(ib_umem_find_best_pgsz);
