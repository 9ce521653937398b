// SPDX-License-Identifier: GPL-2.0
/*
 * The CQ pool: completion queues shared by kernel QPs.
 *
 * A consumer asks for room for nr_cqe completions on a completion vector
 * and gets a shared CQ of the device (cq->shared) with that much unused
 * capacity, or a new one.  New CQs come in sets, one per completion vector
 * in use, each of at least CQ_POOL_MIN_CQE entries.  CQs stay in the pool
 * until the device goes away: the pool is a client of every device
 * (cq_pool_client), whose remove() frees them.
 *
 * Locking: dev->cq_pools[poll_ctx] lists and each pooled CQ's cqe_used are
 * protected by dev->cq_pools_lock (IRQ-safe: puts may come from any
 * context).  Allocation happens outside the lock; the new set is added
 * under it.
 */
#include "abi/ib_core/cq.h"
#include "datapath/internal.h"

#define CQ_POOL_MIN_CQE		4096

/* A pooled CQ on @vector with room for @nr_cqe more, reserved; or NULL. */
static struct ib_cq *cq_pool_take(struct ib_device *dev, unsigned int nr_cqe,
				  int vector, enum ib_poll_context poll_ctx)
{
	struct ib_cq *cq, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&dev->cq_pools_lock, flags);
	list_for_each_entry(cq, &dev->cq_pools[poll_ctx], pool_entry) {
		if (cq->comp_vector == vector &&
		    cq->cqe - cq->cqe_used >= nr_cqe) {
			cq->cqe_used += nr_cqe;
			found = cq;
			break;
		}
	}
	spin_unlock_irqrestore(&dev->cq_pools_lock, flags);
	return found;
}

/* Adds one CQ per vector (0..nvec-1) of @cqe entries to the pool. */
static int cq_pool_grow(struct ib_device *dev, int nvec, unsigned int cqe,
			enum ib_poll_context poll_ctx)
{
	struct ib_cq *cq, *next;
	unsigned long flags;
	LIST_HEAD(set);
	int v;

	for (v = 0; v < nvec; v++) {
		cq = __ib_alloc_cq(dev, NULL, cqe, v, poll_ctx, "ib_core");
		if (IS_ERR(cq))
			goto undo;
		cq->shared = true;
		list_add_tail(&cq->pool_entry, &set);
	}

	spin_lock_irqsave(&dev->cq_pools_lock, flags);
	list_splice_tail(&set, &dev->cq_pools[poll_ctx]);
	spin_unlock_irqrestore(&dev->cq_pools_lock, flags);
	return 0;

undo:
	list_for_each_entry_safe(cq, next, &set, pool_entry) {
		cq->shared = false;
		ib_free_cq(cq);
	}
	return PTR_ERR(cq);
}

/**
 * ib_cq_pool_get() - get room on a shared completion queue
 * @dev: the device
 * @nr_cqe: the number of completions the caller needs room for
 * @comp_vector_hint: the completion vector wanted (taken modulo the
 *	vectors in use), or a negative value for any
 * @poll_ctx: the poll context: IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE or
 *	IB_POLL_UNBOUND_WORKQUEUE
 *
 * Return the room with ib_cq_pool_put() and the same @nr_cqe.
 *
 * Return: the CQ, or an ERR_PTR(): -EINVAL for IB_POLL_DIRECT, no
 * completions, or more than one CQ of the device can hold; or the error of
 * allocating new CQs.
 */
struct ib_cq *ib_cq_pool_get(struct ib_device *dev, unsigned int nr_cqe,
			     int comp_vector_hint,
			     enum ib_poll_context poll_ctx)
{
	int nvec = cq_poll_nr_vectors(dev);
	unsigned int cqe;
	struct ib_cq *cq;
	int vector, ret;

	if ((unsigned int)poll_ctx > IB_POLL_LAST_POOL_TYPE || !nr_cqe ||
	    nr_cqe > dev->attrs.max_cqe)
		return ERR_PTR(-EINVAL);

	/*
	 * Modulo the nvec this call grows sets with: CPU hotplug may change
	 * what cq_poll_pick_vector() counts between the two.
	 */
	vector = (comp_vector_hint < 0 ? cq_poll_pick_vector(dev) :
					 comp_vector_hint) % nvec;
	cqe = min_t(unsigned int, dev->attrs.max_cqe,
		    max_t(unsigned int, nr_cqe, CQ_POOL_MIN_CQE));

	/* A concurrent grow may fill the new set first: try again then */
	for (;;) {
		cq = cq_pool_take(dev, nr_cqe, vector, poll_ctx);
		if (cq)
			return cq;
		ret = cq_pool_grow(dev, nvec, cqe, poll_ctx);
		if (ret)
			return ERR_PTR(ret);
	}
}
EXPORT_SYMBOL(ib_cq_pool_get);

/**
 * ib_cq_pool_put() - give back room on a shared completion queue
 * @cq: the CQ from ib_cq_pool_get()
 * @nr_cqe: the number of completions passed to ib_cq_pool_get()
 */
void ib_cq_pool_put(struct ib_cq *cq, unsigned int nr_cqe)
{
	struct ib_device *dev = cq->device;
	unsigned long flags;

	spin_lock_irqsave(&dev->cq_pools_lock, flags);
	if (nr_cqe > cq->cqe_used) {
		dev_warn_once(&dev->dev, "CQ pool: putting back %u of %u used\n",
				nr_cqe, cq->cqe_used);
		nr_cqe = cq->cqe_used;
	}
	cq->cqe_used -= nr_cqe;
	spin_unlock_irqrestore(&dev->cq_pools_lock, flags);
}
EXPORT_SYMBOL(ib_cq_pool_put);

/*
 * The client's remove(): frees the device's shared CQs.  Every other
 * client is removed by then and has returned its CQs.
 */
static void cq_pool_remove_one(struct ib_device *dev, void *client_data)
{
	struct ib_cq *cq, *next;
	unsigned long flags;
	LIST_HEAD(all);
	int ctx;

	spin_lock_irqsave(&dev->cq_pools_lock, flags);
	for (ctx = 0; ctx <= IB_POLL_LAST_POOL_TYPE; ctx++)
		list_splice_init(&dev->cq_pools[ctx], &all);
	spin_unlock_irqrestore(&dev->cq_pools_lock, flags);

	list_for_each_entry_safe(cq, next, &all, pool_entry) {
		if (cq->cqe_used)
			ibdev_warn(dev, "CQ pool: %u entries still in use\n",
				   cq->cqe_used);
		list_del(&cq->pool_entry);
		cq->shared = false;
		ib_free_cq(cq);
	}
}

/* No add(): the pool needs nothing until a consumer asks for a CQ. */
static struct ib_client cq_pool_client = {
	.name = "cq_pool",
	.no_kverbs_req = true,
	.remove = cq_pool_remove_one,
};

int cq_pool_client_register(void)
{
	return ib_register_client(&cq_pool_client);
}

void cq_pool_client_unregister(void)
{
	ib_unregister_client(&cq_pool_client);
}
