/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user's rings mapped into its process: each ring of a user's CQ, QP or
 * SRQ is offered to mmap() through an entry of the core's (the offset and
 * size rdma-core's rxe provider reads from struct mminfo), and the entry
 * owns the ring's buffer from then on.
 *
 * Lifetime: the object that owns the ring holds the entry's first
 * reference and withdraws it when it is destroyed or resized
 * (sr_mmap_withdraw()); an mmap() in progress holds another.  The buffer
 * is freed with the last reference (sr_mmap_free()).  A mapping does not
 * hold the entry: its pages hold themselves (remap_vmalloc_range() takes
 * a reference on each), so a process that still maps a destroyed CQ
 * keeps its pages and nothing else.
 */
#ifndef SR_MMAP_H
#define SR_MMAP_H

#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/uverbs_ioctl.h>
#include "queue.h"

/**
 * struct sr_ucontext - a user context
 * @ibuc: the core's (the core allocates the whole: INIT_RDMA_OBJ_SIZE)
 *
 * The rings it maps are the core's entries in @ibuc's mmap_xa.
 */
struct sr_ucontext {
	struct ib_ucontext ibuc;
};

/* The user context a user's verb call comes from. */
static inline struct ib_ucontext *sr_udata_ucontext(struct ib_udata *udata)
{
	return &rdma_udata_to_drv_context(udata, struct sr_ucontext,
					  ibuc)->ibuc;
}

/**
 * struct sr_mmap - a ring offered to mmap()
 * @rdma: the core's entry (its offset, pages and references)
 * @buf: the ring's buffer (vmalloc_user()), freed with the entry
 */
struct sr_mmap {
	struct rdma_user_mmap_entry rdma;
	void *buf;
};

struct sr_mmap *sr_mmap_offer(struct ib_ucontext *uc, struct sr_queue *q,
			      struct mminfo *mi);
int sr_ring_make(struct sr_queue *q, struct sr_mmap **mm, u32 n, size_t elem,
		 enum sr_queue_user user, struct ib_udata *udata,
		 struct mminfo *mi);
void sr_mmap_withdraw(struct sr_mmap *mm);
void sr_queue_release(struct sr_queue *q, struct sr_mmap *mm);
int sr_mmap(struct ib_ucontext *uc, struct vm_area_struct *vma);
void sr_mmap_free(struct rdma_user_mmap_entry *entry);

#endif /* SR_MMAP_H */
