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

#include <linux/completion.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

/* The device's limits (query_device) */
#define SR_MAX_MR		(1 << 16)
#define SR_MAX_FAST_REG_PAGES	512
/* No packet's key: table index 0 holds no MR */
#define SR_MR_KEY_BUSY		1

/**
 * struct sr_mr - a memory region
 * @ibmr: the core's (lkey and rkey: the table index above the key byte)
 * @pd: its PD (the core sets @ibmr.pd only after the verb returns, when
 *	the data path may already find the MR)
 * @key: the key the data path finds it by (sr_mr_get(), an acquire that
 *	pairs with the release that sets it): its lkey, set before it is in
 *	the table.  A fast-registration MR has 0, which names no MR, until
 *	a REG_MR work request gives it one, and again once it is
 *	invalidated; SR_MR_KEY_BUSY while a registration writes it.
 * @access: the access flags it was made with (a fast-registration MR:
 *	those of its registration)
 * @ref: the table's reference and one per user on the data path; the
 *	last one put completes @unused
 * @unused: what dereg_mr waits for, the MR out of the table
 * @rcu: frees it once no reader of the table can still see it
 * @umem: a user MR's pinned pages, or NULL
 * @upages: a user MR's pages in order (from @umem), @n_upages of them;
 *	its first byte lies @uoff bytes into the first
 * @n_upages: see @upages
 * @uoff: see @upages
 * @pages: a fast-registration MR's page list (@max_pages addresses), or
 *	NULL
 * @max_pages: what @pages holds
 * @npages: what the last ib_map_mr_sg() put in it
 *
 * Nothing but @ref changes once the MR is in the table, apart from a
 * fast-registration MR's: ib_map_mr_sg() sets its page list and bounds
 * while it has no key (the ULP's rule), a REG_MR work request its access
 * and then its key, and an invalidation takes the key away again
 * (sr_mr_register(), sr_mr_invalidate(): a compare-and-exchange on @key
 * each, so that two of them never interleave).  A user on the data path
 * that found the MR before an invalidation keeps what it found until it
 * lets go.
 */
struct sr_mr {
	struct ib_mr ibmr;
	struct ib_pd *pd;
	u32 key;
	int access;
	refcount_t ref;
	struct completion unused;
	struct rcu_head rcu;
	struct ib_umem *umem;
	struct page **upages;
	u32 n_upages;
	u32 uoff;
	u64 *pages;
	u32 max_pages;
	u32 npages;
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
