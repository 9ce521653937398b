// SPDX-License-Identifier: GPL-2.0
/*
 * Mapping DMA-mapped scatterlists onto fast-registration MRs.
 *
 * An MR registers a run of equal pages.  The largest prefix of a
 * scatterlist that fits that shape is: a first element starting anywhere;
 * then elements that each start on a page boundary right after an element
 * that ended on one, or that continue exactly where the previous one ended;
 * the last element may end anywhere.  ib_sg_to_pages() walks that prefix
 * and hands each page to the driver.  No locking: the MR's owner maps it.
 */
#include "abi/ib_core/verbs.h"

/**
 * ib_map_mr_sg() - map the largest prefix of a scatterlist on an MR
 * @mr: the memory region
 * @sg: the DMA-mapped scatterlist
 * @sg_nents: the number of entries of @sg
 * @sg_offset: if not NULL, on entry the byte offset into the first element
 *	to start at, on return the offset into the first unmapped element
 *	where mapping stopped (0 when every mapped element was mapped whole)
 * @page_size: the page size of the registration
 *
 * Constraints: the first element may start at an offset, each further
 * element must start on a @page_size boundary (after an element that ended
 * on one) or be contiguous with the previous element, and the last one may
 * be shorter than a page; at most max_num_sg pages of the MR are used.  An
 * IB_MR_TYPE_SG_GAPS MR has none of these constraints.
 *
 * Return: the number of elements mapped, or a negative errno:
 * -EOPNOTSUPP if the device cannot map MRs, or the driver's error.
 */
int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size)
{
	const struct ib_device_ops *ops = &mr->device->ops;

	if (!ops->map_mr_sg)
		return -EOPNOTSUPP;

	mr->page_size = page_size;
	return ops->map_mr_sg(mr, sg, sg_nents, sg_offset);
}
EXPORT_SYMBOL(ib_map_mr_sg);

/**
 * ib_map_mr_sg_pi() - map data and protection information on an MR
 * @mr: an IB_MR_TYPE_INTEGRITY memory region
 * @data_sg: the DMA-mapped data scatterlist
 * @data_sg_nents: its number of entries
 * @data_sg_offset: the byte offset into its first entry, may be NULL
 * @meta_sg: the DMA-mapped metadata scatterlist, may be NULL
 * @meta_sg_nents: its number of entries
 * @meta_sg_offset: the byte offset into its first entry, may be NULL
 * @page_size: the page size of the registration
 *
 * Return: the number of data elements mapped, or a negative errno:
 * -EOPNOTSUPP for an MR of another type or a device without integrity
 * MRs, or the driver's error.
 */
int ib_map_mr_sg_pi(struct ib_mr *mr, struct scatterlist *data_sg,
		    int data_sg_nents, unsigned int *data_sg_offset,
		    struct scatterlist *meta_sg, int meta_sg_nents,
		    unsigned int *meta_sg_offset, unsigned int page_size)
{
	const struct ib_device_ops *ops = &mr->device->ops;

	if (mr->type != IB_MR_TYPE_INTEGRITY || !ops->map_mr_sg_pi)
		return -EOPNOTSUPP;

	mr->page_size = page_size;
	return ops->map_mr_sg_pi(mr, data_sg, data_sg_nents, data_sg_offset,
				 meta_sg, meta_sg_nents, meta_sg_offset);
}
EXPORT_SYMBOL(ib_map_mr_sg_pi);

/**
 * ib_sg_to_pages() - turn the largest mappable prefix of a scatterlist into
 *	pages
 * @mr: the memory region; mr->page_size is the page size
 * @sgl: the DMA-mapped scatterlist
 * @sg_nents: the number of entries of @sgl
 * @sg_offset: as for ib_map_mr_sg()
 * @set_page: the driver's callback, called with each page's DMA address in
 *	order; it returns a negative value when the MR's page list is full
 *
 * Sets mr->iova to the DMA address of the first mapped byte and
 * mr->length to the number of bytes mapped.  See ib_map_mr_sg() for the
 * prefix rules.
 *
 * Return: the number of elements mapped whole, or the error of
 * @set_page if not even part of the first element fits, or -EINVAL for no
 * elements or an offset beyond the first element.
 */
int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset, int (*set_page)(struct ib_mr *, u64))
{
	const u64 psize = mr->page_size;
	const u64 pmask = ~(psize - 1);
	unsigned int first_off = sg_offset ? *sg_offset : 0;
	struct scatterlist *sg;
	u64 mapped_end = 0;
	int i, ret;

	if (unlikely(sg_nents <= 0 || !psize || first_off > sg_dma_len(sgl)))
		return -EINVAL;

	mr->iova = sg_dma_address(sgl) + first_off;
	mr->length = 0;

	for_each_sg(sgl, sg, sg_nents, i) {
		u64 start = sg_dma_address(sg) + (i ? 0 : first_off);
		u64 end = sg_dma_address(sg) + sg_dma_len(sg);
		u64 page;

		if (i && ((mapped_end | start) & ~pmask)) {
			/* Not page-joined: only an exact continuation fits */
			if (start != mapped_end)
				break;
			/* Its first page, if any, is already in the list */
			page = ALIGN(mapped_end, psize);
		} else {
			page = start & pmask;
		}

		for (; page < end; page += psize) {
			ret = set_page(mr, page);
			if (ret < 0) {
				u64 stop = max(page, start);

				mr->length += stop - start;
				if (sg_offset)
					*sg_offset = stop - sg_dma_address(sg);
				return (i || stop > start) ? i : ret;
			}
		}
		mr->length += end - start;
		mapped_end = end;
	}

	if (sg_offset)
		*sg_offset = 0;
	return i;
}
EXPORT_SYMBOL(ib_sg_to_pages);
