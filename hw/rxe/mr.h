/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory regions: what an lkey or rkey names.  A DMA MR covers all kernel
 * memory (its addresses are kernel virtual ones: the device's DMA is the
 * CPU's, ib_virt_dma_ops); a user MR, the pages of a user buffer the
 * core pinned (struct ib_umem); a fast-registration MR, the page list a
 * kernel ULP maps into it (ib_map_mr_sg()).
 */
#ifndef SR_MR_H
#define SR_MR_H

#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

/* The device's limits (query_device) */
#define SR_MAX_MR		(1 << 16)
#define SR_MAX_FAST_REG_PAGES	512

/**
 * struct sr_mr - a memory region
 * @ibmr: the core's (lkey and rkey: the table index above the key byte)
 * @umem: a user MR's pinned pages, or NULL
 * @pages: a fast-registration MR's page list (@max_pages addresses), or
 *	NULL
 * @max_pages: what @pages holds
 * @npages: what the last ib_map_mr_sg() put in it
 * @access: the access flags it was made with
 */
struct sr_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	u64 *pages;
	u32 max_pages;
	u32 npages;
	int access;
};

static inline struct sr_mr *to_sr_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct sr_mr, ibmr);
}

struct ib_mr *sr_get_dma_mr(struct ib_pd *pd, int access);
struct ib_mr *sr_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			     u64 iova, int access, struct ib_udata *udata);
struct ib_mr *sr_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			  u32 max_num_sg);
int sr_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset);
int sr_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

#endif /* SR_MR_H */
