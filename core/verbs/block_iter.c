// SPDX-License-Identifier: GPL-2.0
/*
 * Walking a DMA-mapped scatterlist in blocks of one device page size.
 *
 * A driver that registers memory with pages of size P (a power of two,
 * often chosen by ib_umem_find_best_pgsz()) walks the mapped list with
 * rdma_for_each_block() or rdma_umem_for_each_dma_block() from
 * <rdma/iter.h>; each step yields the DMA address of one block.  A block
 * starts at the current position and ends at the next multiple of P in DMA
 * address space; elements that end inside a block are taken as part of it
 * (the caller chose P so that they are contiguous), and the position then
 * moves into the element in which the block ends.
 *
 * This runs when MRs are registered, beside ib_sg_to_pages() (mr_map.c),
 * which cuts the same kind of list into pages for fast registration.  The
 * iterator belongs to its caller: no locking.
 */
#include "abi/ib_core/iter.h"

/**
 * __rdma_block_iter_start() - prepare a block iterator
 * @biter: the iterator
 * @sglist: the DMA-mapped scatterlist to walk
 * @nents: how many mapped entries of @sglist to walk
 * @pgsz: the block size, a power of two
 *
 * Every other field of @biter is cleared.  A @pgsz of 0 gives no blocks.
 */
void __rdma_block_iter_start(struct ib_block_iter *biter,
			     struct scatterlist *sglist, unsigned int nents,
			     unsigned long pgsz)
{
	*biter = (struct ib_block_iter){
		.__sg = sglist,
		.__sg_nents = pgsz ? nents : 0,
		.__pg_bit = pgsz ? __fls(pgsz) : 0,
	};
}
EXPORT_SYMBOL(__rdma_block_iter_start);

/* Bytes of the current element not yet walked. */
static u64 block_iter_rest(const struct ib_block_iter *biter)
{
	return sg_dma_len(biter->__sg) - biter->__sg_advance;
}

/**
 * __rdma_block_iter_next() - step to the next block
 * @biter: an iterator set up by __rdma_block_iter_start()
 *
 * Records the current position as the block's address (read it aligned
 * with rdma_block_iter_dma_address()) and moves past the block.
 *
 * Return: true if there was a block, false at the end of the list.
 */
bool __rdma_block_iter_next(struct ib_block_iter *biter)
{
	u64 size = BIT_ULL(biter->__pg_bit);
	u64 to_end;

	if (!biter->__sg || !biter->__sg_nents)
		return false;

	biter->__dma_addr = sg_dma_address(biter->__sg) + biter->__sg_advance;
	to_end = size - (biter->__dma_addr & (size - 1));

	/* Leave every element that ends before or at the block's end. */
	while (block_iter_rest(biter) <= to_end) {
		to_end -= block_iter_rest(biter);
		biter->__sg_advance = 0;
		biter->__sg = sg_next(biter->__sg);
		if (!--biter->__sg_nents || !biter->__sg)
			return true;
	}
	biter->__sg_advance += to_end;
	return true;
}
EXPORT_SYMBOL(__rdma_block_iter_next);
