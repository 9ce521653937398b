// SPDX-License-Identifier: GPL-2.0
/*
 * DMA mapping for software devices that have no DMA device: the "DMA
 * address" of a buffer is its kernel virtual address, which such drivers
 * dereference directly (see ib_uses_virt_dma() and ib_virt_dma_to_page()).
 */
#include "abi/ib_core/device.h"

/**
 * ib_dma_virt_map_sg() - "map" a scatterlist for a virtual-DMA device
 * @dev: the device; unused, as nothing is mapped
 * @sg: the scatterlist
 * @nents: the number of entries of @sg
 *
 * Sets each entry's DMA address to the kernel virtual address of its data
 * and its DMA length to its length.  The pages must be in the kernel's
 * linear map (no highmem), as for any buffer handed to an RDMA device.
 *
 * Return: @nents; the mapping cannot fail.
 */
int ib_dma_virt_map_sg(struct ib_device *dev, struct scatterlist *sg,
		       int nents)
{
	struct scatterlist *cur = sg;
	int left = nents;

	while (left-- > 0 && cur) {
		cur->dma_address = (dma_addr_t)(uintptr_t)sg_virt(cur);
		sg_dma_len(cur) = cur->length;
		cur = sg_next(cur);
	}
	return nents;
}
EXPORT_SYMBOL(ib_dma_virt_map_sg);
