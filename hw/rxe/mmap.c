// SPDX-License-Identifier: GPL-2.0
/*
 * Offering a user's rings to mmap() and mapping them (mmap.h says who
 * owns what).  Control path only.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "mmap.h"

static struct sr_mmap *to_sr_mmap(struct rdma_user_mmap_entry *entry)
{
	return container_of(entry, struct sr_mmap, rdma);
}

/**
 * sr_mmap_offer - offer a user's ring to mmap()
 * @uc: the user context that will map it
 * @q: the ring, made by sr_queue_init()
 * @mi: set to what the user passes to mmap() (offset and size)
 *
 * On success the entry owns @q's buffer: free it with sr_mmap_withdraw()
 * (or sr_queue_release()), never with sr_queue_free().
 *
 * Context: process context, may sleep.
 * Return: the entry, or an ERR_PTR (-ENOMEM).
 */
struct sr_mmap *sr_mmap_offer(struct ib_ucontext *uc, struct sr_queue *q,
			      struct mminfo *mi)
{
	struct sr_mmap *mm;
	int ret;

	/* struct mminfo's size is 32 bits; no ring of the device's is near */
	if (q->size > U32_MAX)
		return ERR_PTR(-ENOMEM);
	mm = kzalloc(sizeof(*mm), GFP_KERNEL);
	if (!mm)
		return ERR_PTR(-ENOMEM);
	ret = rdma_user_mmap_entry_insert(uc, &mm->rdma, q->size);
	if (ret) {
		kfree(mm);
		return ERR_PTR(ret);
	}
	mm->buf = q->buf;
	mi->offset = rdma_user_mmap_get_offset(&mm->rdma);
	mi->size = q->size;
	mi->pad = 0;
	return mm;
}

/**
 * sr_ring_make - make a ring, a user's offered to its mmap()
 * @q: the ring (sr_queue_init())
 * @mm: set to the entry that owns a user's ring, NULL for a kernel's
 * @n: elements it must hold
 * @elem: bytes of an element
 * @user: the end a user plays, when there is a user (@udata)
 * @udata: a user's verb call, or NULL for a kernel consumer's
 * @mi: for a user, where to map it
 *
 * Free it with sr_queue_release(@q, *@mm).
 *
 * Context: process context, may sleep.
 * Return: 0, or what sr_queue_init() or sr_mmap_offer() returned.
 */
int sr_ring_make(struct sr_queue *q, struct sr_mmap **mm, u32 n, size_t elem,
		 enum sr_queue_user user, struct ib_udata *udata,
		 struct mminfo *mi)
{
	int ret;

	ret = sr_queue_init(q, n, elem, udata ? user : SR_QUEUE_KERNEL);
	if (ret)
		return ret;
	*mm = NULL;
	if (!udata)
		return 0;
	*mm = sr_mmap_offer(sr_udata_ucontext(udata), q, mi);
	if (IS_ERR(*mm)) {
		ret = PTR_ERR(*mm);
		sr_queue_free(q);
	}
	return ret;
}

/**
 * sr_mmap_withdraw - no new mapping of a ring
 * @mm: its entry, or NULL
 *
 * Mappings already made keep their pages; the buffer is freed once no
 * mmap() is in progress.
 */
void sr_mmap_withdraw(struct sr_mmap *mm)
{
	if (mm)
		rdma_user_mmap_entry_remove(&mm->rdma);
}

/**
 * sr_queue_release - free a ring, mapped or not
 * @q: the ring
 * @mm: the entry that owns its buffer, or NULL if @q owns it
 */
void sr_queue_release(struct sr_queue *q, struct sr_mmap *mm)
{
	if (mm) {
		sr_mmap_withdraw(mm);
		q->buf = NULL;
	} else {
		sr_queue_free(q);
	}
}

/**
 * sr_mmap - the device's mmap(): map a ring offered to this context
 * @uc: the user context of the uverbs file
 * @vma: the mapping, shared and the ring's exact size
 *
 * Context: ib_uverbs' mmap(), process context.
 * Return: 0, or -EINVAL if no ring is offered at the offset, or the
 * mapping is private or of another size.
 */
int sr_mmap(struct ib_ucontext *uc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry;
	int ret;

	entry = rdma_user_mmap_entry_get(uc, vma);
	if (!entry)
		return -EINVAL;
	ret = remap_vmalloc_range(vma, to_sr_mmap(entry)->buf, 0);
	rdma_user_mmap_entry_put(entry);
	return ret;
}

/**
 * sr_mmap_free - the core's last reference to an entry is gone
 * @entry: the entry
 */
void sr_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct sr_mmap *mm = to_sr_mmap(entry);

	vfree(mm->buf);
	kfree(mm);
}
