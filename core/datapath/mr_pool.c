// SPDX-License-Identifier: GPL-2.0
/*
 * Per-QP pools of memory regions.
 *
 * A pool is a list_head owned by its caller (in ib_core: qp->rdma_mrs and
 * qp->sig_mrs) that strings idle MRs together through mr->qp_entry.  Every
 * pool of a QP is guarded by that QP's qp->mr_lock, an IRQ-safe spinlock,
 * because ULPs take and return MRs from completion handlers; the same lock
 * guards qp->mrs_used, the number of MRs currently taken out of any pool
 * of the QP.  MRs are created and destroyed outside the lock: only list
 * surgery happens under it.
 */
#include "abi/ib_core/mr_pool.h"

static struct ib_mr *mr_pool_alloc_one(struct ib_pd *pd, enum ib_mr_type type,
				       u32 max_num_sg, u32 max_num_meta_sg)
{
	if (type == IB_MR_TYPE_INTEGRITY)
		return ib_alloc_mr_integrity(pd, max_num_sg, max_num_meta_sg);
	return ib_alloc_mr(pd, type, max_num_sg);
}

/* Deregister every MR strung on @mrs, a list nobody else can see. */
static void mr_pool_release(struct list_head *mrs)
{
	struct ib_mr *mr, *next;

	list_for_each_entry_safe(mr, next, mrs, qp_entry) {
		list_del(&mr->qp_entry);
		ib_dereg_mr(mr);
	}
}

/**
 * ib_mr_pool_init - fill a QP's MR pool
 * @qp: QP whose PD the MRs are allocated on and whose mr_lock guards @list
 * @list: the pool to add the MRs to
 * @nr: how many MRs to allocate
 * @type: MR type; %IB_MR_TYPE_INTEGRITY allocates with ib_alloc_mr_integrity()
 * @max_num_sg: data scatter/gather capacity of each MR
 * @max_num_meta_sg: metadata scatter/gather capacity (integrity MRs only)
 *
 * The MRs are allocated first and then added to @list in one step, so other
 * users of the pool never see a partly built batch.  Process context only.
 *
 * Return: 0, or the error of the allocation that failed; then none of the
 * MRs of this call is left allocated and @list is as it was.
 */
int ib_mr_pool_init(struct ib_qp *qp, struct list_head *list, int nr,
		    enum ib_mr_type type, u32 max_num_sg, u32 max_num_meta_sg)
{
	unsigned long irqflags;
	LIST_HEAD(batch);
	struct ib_mr *mr;
	int n;

	for (n = 0; n < nr; n++) {
		mr = mr_pool_alloc_one(qp->pd, type, max_num_sg,
				       max_num_meta_sg);
		if (IS_ERR(mr)) {
			mr_pool_release(&batch);
			return PTR_ERR(mr);
		}
		list_add_tail(&mr->qp_entry, &batch);
	}

	spin_lock_irqsave(&qp->mr_lock, irqflags);
	list_splice_tail(&batch, list);
	spin_unlock_irqrestore(&qp->mr_lock, irqflags);
	return 0;
}
EXPORT_SYMBOL(ib_mr_pool_init);

/**
 * ib_mr_pool_destroy - deregister every idle MR of a pool
 * @qp: QP that owns the pool
 * @list: the pool; empty afterwards
 *
 * MRs currently taken with ib_mr_pool_get() are not on the list and so are
 * not touched: they must be returned (and the pool destroyed again) before
 * the QP goes away.  Process context only.
 */
void ib_mr_pool_destroy(struct ib_qp *qp, struct list_head *list)
{
	unsigned long irqflags;
	LIST_HEAD(idle);

	spin_lock_irqsave(&qp->mr_lock, irqflags);
	list_splice_init(list, &idle);
	spin_unlock_irqrestore(&qp->mr_lock, irqflags);

	mr_pool_release(&idle);
}
EXPORT_SYMBOL(ib_mr_pool_destroy);

/**
 * ib_mr_pool_get - take an idle MR out of a pool
 * @qp: QP that owns the pool
 * @list: the pool
 *
 * Safe in any context, including hard IRQ.
 *
 * Return: the MR, now owned by the caller and counted in qp->mrs_used, or
 * %NULL when the pool is empty.
 */
struct ib_mr *ib_mr_pool_get(struct ib_qp *qp, struct list_head *list)
{
	unsigned long irqflags;
	struct ib_mr *mr;

	spin_lock_irqsave(&qp->mr_lock, irqflags);
	mr = list_first_entry_or_null(list, struct ib_mr, qp_entry);
	if (mr) {
		list_del_init(&mr->qp_entry);
		qp->mrs_used++;
	}
	spin_unlock_irqrestore(&qp->mr_lock, irqflags);
	return mr;
}
EXPORT_SYMBOL(ib_mr_pool_get);

/**
 * ib_mr_pool_put - give an MR taken with ib_mr_pool_get() back to its pool
 * @qp: QP that owns the pool
 * @list: the pool the MR was taken from
 * @mr: the MR
 *
 * The MR goes to the front of the pool, so the next ib_mr_pool_get() reuses
 * it while it is still cache-warm.  Safe in any context.
 */
void ib_mr_pool_put(struct ib_qp *qp, struct list_head *list, struct ib_mr *mr)
{
	unsigned long irqflags;

	spin_lock_irqsave(&qp->mr_lock, irqflags);
	list_add(&mr->qp_entry, list);
	qp->mrs_used--;
	spin_unlock_irqrestore(&qp->mr_lock, irqflags);
}
EXPORT_SYMBOL(ib_mr_pool_put);
