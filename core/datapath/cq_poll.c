// SPDX-License-Identifier: GPL-2.0
/*
 * The completion API: CQs whose completions the core polls and hands to
 * each work request's struct ib_cqe (wc->wr_cqe->done()).
 *
 * A CQ is polled in one of four contexts chosen at allocation:
 *   IB_POLL_DIRECT             only when its owner calls
 *                              ib_process_cq_direct();
 *   IB_POLL_SOFTIRQ            from irq_poll, in softirq context;
 *   IB_POLL_WORKQUEUE          from a work item on ib_comp_wq;
 *   IB_POLL_UNBOUND_WORKQUEUE  from a work item on ib_comp_unbound_wq
 * (the core's completion workqueues, created in main.c).
 * The event-driven contexts poll a budget of completions at a time, then
 * re-arm with IB_CQ_REPORT_MISSED_EVENTS and poll again if completions
 * arrived meanwhile, so none is left waiting for an event that never
 * comes.
 *
 * Serialisation: irq_poll and a work item never run concurrently with
 * themselves, so each CQ is polled by one context at a time and its
 * batch array cq->wc needs no lock.  ib_process_cq_direct() uses a batch
 * on the stack instead: its callers may poll from several threads.
 */
#include "abi/ib_core/cq.h"
#include "datapath/internal.h"
#include "core/restrack.h"

#define CQ_BATCH		16	/* entries of cq->wc */
#define CQ_DIRECT_BATCH		8	/* stack batch of direct polling */
#define CQ_BUDGET_SOFTIRQ	256
#define CQ_BUDGET_WORKQUEUE	65536
#define CQ_REARM	(IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS)

/*
 * A completion with no wr_cqe.  Flushed work requests that were posted
 * unsignaled may legitimately have none (the R/W API's REG_MR, LOCAL_INV and
 * inner RDMA WRs): nothing to do.  A successful one is a consumer's bug.
 */
static void cq_poll_no_cqe(struct ib_cq *cq, const struct ib_wc *wc)
{
	if (wc->status == IB_WC_SUCCESS)
		dev_warn_ratelimited(&cq->device->dev,
				     "successful completion without a wr_cqe (wr_id %llu)\n",
				     wc->wr_id);
}

/*
 * Poll up to @budget completions (all when @budget is -1) in batches of
 * @batch into @wcs and dispatch each one.
 */
static int cq_dispatch(struct ib_cq *cq, struct ib_wc *wcs, int batch,
		       int budget)
{
	int done = 0;

	while (budget < 0 || done < budget) {
		int want = budget < 0 ? batch : min(batch, budget - done);
		int n, i;

		n = ib_poll_cq(cq, want, wcs);
		if (n <= 0)
			break;
		for (i = 0; i < n; i++) {
			struct ib_wc *wc = &wcs[i];

			if (likely(wc->wr_cqe))
				wc->wr_cqe->done(cq, wc);
			else
				cq_poll_no_cqe(cq, wc);
		}
		done += n;
		if (n < want)
			break;
	}
	return done;
}

/**
 * ib_process_cq_direct() - poll an IB_POLL_DIRECT completion queue
 * @cq: the CQ
 * @budget: the most completions to process, or -1 for all
 *
 * Calls wr_cqe->done() of each completion, in the caller's context.
 *
 * Return: the number of completions processed, 0 for a CQ of another
 * poll context (those are polled by the core).
 */
int ib_process_cq_direct(struct ib_cq *cq, int budget)
{
	struct ib_wc wcs[CQ_DIRECT_BATCH];

	if (cq->poll_ctx != IB_POLL_DIRECT) {
		dev_warn_once(&cq->device->dev,
				"direct polling of a CQ the core polls\n");
		return 0;
	}
	return cq_dispatch(cq, wcs, CQ_DIRECT_BATCH, budget);
}
EXPORT_SYMBOL(ib_process_cq_direct);

static void cq_event_direct(struct ib_cq *cq, void *private)
{
	dev_warn_once(&cq->device->dev, "completion event on a direct-polled CQ\n");
}

static int cq_softirq_poll(struct irq_poll *iop, int budget)
{
	struct ib_cq *cq = container_of(iop, struct ib_cq, iop);
	int done = cq_dispatch(cq, cq->wc, CQ_BATCH, budget);

	if (done < budget) {
		irq_poll_complete(iop);
		if (ib_req_notify_cq(cq, CQ_REARM) > 0)
			irq_poll_sched(iop);
	}
	return done;
}

static void cq_event_softirq(struct ib_cq *cq, void *private)
{
	irq_poll_sched(&cq->iop);
}

static void cq_work_poll(struct work_struct *work)
{
	struct ib_cq *cq = container_of(work, struct ib_cq, work);
	int done = cq_dispatch(cq, cq->wc, CQ_BATCH, CQ_BUDGET_WORKQUEUE);

	if (done >= CQ_BUDGET_WORKQUEUE || ib_req_notify_cq(cq, CQ_REARM) > 0)
		queue_work(cq->comp_wq, &cq->work);
}

static void cq_event_work(struct ib_cq *cq, void *private)
{
	queue_work(cq->comp_wq, &cq->work);
}

static const ib_comp_handler cq_event_handlers[] = {
	[IB_POLL_SOFTIRQ]		= cq_event_softirq,
	[IB_POLL_WORKQUEUE]		= cq_event_work,
	[IB_POLL_UNBOUND_WORKQUEUE]	= cq_event_work,
	[IB_POLL_DIRECT]		= cq_event_direct,
};

/**
 * __ib_alloc_cq() - allocate a completion queue the core polls
 * @dev: the device
 * @private: the CQ's cq_context, for the consumer's own use
 * @nr_cqe: the number of entries
 * @comp_vector: the completion vector (interrupt) of the CQ
 * @poll_ctx: where completions are polled and dispatched
 * @caller: the allocating module's name (KBUILD_MODNAME of ib_alloc_cq())
 *
 * Every work request posted on a QP using this CQ must set wr_cqe; its
 * done() is called with the completion.  Free the CQ with ib_free_cq().
 *
 * Return: the CQ, or an ERR_PTR(): -EINVAL for an unknown poll context,
 * -ENOMEM, or an error of __ib_create_cq().
 */
struct ib_cq *__ib_alloc_cq(struct ib_device *dev, void *private, int nr_cqe,
			    int comp_vector, enum ib_poll_context poll_ctx,
			    const char *caller)
{
	struct ib_cq_init_attr attr = {
		.cqe = nr_cqe,
		.comp_vector = comp_vector,
	};
	struct ib_wc *wcs;
	struct ib_cq *cq;

	if ((unsigned int)poll_ctx > IB_POLL_DIRECT)
		return ERR_PTR(-EINVAL);

	wcs = kmalloc_array(CQ_BATCH, sizeof(*wcs), GFP_KERNEL);
	if (!wcs)
		return ERR_PTR(-ENOMEM);

	cq = __ib_create_cq(dev, cq_event_handlers[poll_ctx], NULL, private,
			    &attr, caller);
	if (IS_ERR(cq)) {
		kfree(wcs);
		return cq;
	}
	cq->wc = wcs;
	cq->poll_ctx = poll_ctx;

	switch (poll_ctx) {
	case IB_POLL_DIRECT:
		return cq;
	case IB_POLL_SOFTIRQ:
		irq_poll_init(&cq->iop, CQ_BUDGET_SOFTIRQ, cq_softirq_poll);
		break;
	case IB_POLL_WORKQUEUE:
	case IB_POLL_UNBOUND_WORKQUEUE:
		INIT_WORK(&cq->work, cq_work_poll);
		cq->comp_wq = poll_ctx == IB_POLL_WORKQUEUE ?
			      ib_comp_wq : ib_comp_unbound_wq;
		break;
	}
	ib_req_notify_cq(cq, IB_CQ_NEXT_COMP);
	return cq;
}
EXPORT_SYMBOL(__ib_alloc_cq);

/* Rotates the vectors of __ib_alloc_cq_any() and of the CQ pool. */
static atomic_t cq_next_vector = ATOMIC_INIT(0);

/* See datapath/internal.h. */
int cq_poll_nr_vectors(struct ib_device *dev)
{
	return max_t(int, min_t(int, dev->num_comp_vectors, num_online_cpus()),
		     1);
}

/* See datapath/internal.h. */
int cq_poll_pick_vector(struct ib_device *dev)
{
	int n = cq_poll_nr_vectors(dev);

	if (n == 1)
		return 0;
	return (unsigned int)atomic_inc_return(&cq_next_vector) % n;
}

/**
 * __ib_alloc_cq_any() - allocate a completion queue on any vector
 * @dev: the device
 * @private: the CQ's cq_context
 * @nr_cqe: the number of entries
 * @poll_ctx: where completions are polled and dispatched
 * @caller: the allocating module's name (KBUILD_MODNAME of
 *	ib_alloc_cq_any())
 *
 * Spreads CQs over the device's completion vectors (at most one per online
 * CPU) in turn.
 *
 * Return: as for __ib_alloc_cq().
 */
struct ib_cq *__ib_alloc_cq_any(struct ib_device *dev, void *private,
				int nr_cqe, enum ib_poll_context poll_ctx,
				const char *caller)
{
	return __ib_alloc_cq(dev, private, nr_cqe, cq_poll_pick_vector(dev),
			     poll_ctx, caller);
}
EXPORT_SYMBOL(__ib_alloc_cq_any);

/**
 * ib_free_cq() - free a completion queue from ib_alloc_cq()
 * @cq: the CQ; no QP may use it any more
 *
 * Stops polling (waiting for a running poll to finish) and destroys the
 * CQ.  A CQ still used by QPs, or one of the CQ pool, is left alone with
 * a warning: that is a caller bug.
 */
void ib_free_cq(struct ib_cq *cq)
{
	struct ib_device *dev = cq->device;
	int ret = 0;

	if (cq->shared) {
		dev_warn_once(&dev->dev, "%s() on a CQ of the CQ pool\n", __func__);
		return;
	}
	if (atomic_read(&cq->usecnt)) {
		dev_warn_once(&dev->dev, "%s() on a CQ QPs still use\n", __func__);
		return;
	}

	if (dev->ops.pre_destroy_cq && dev->ops.pre_destroy_cq(cq))
		ibdev_warn(dev, "quiescing a kernel CQ failed\n");

	/* No poll may run once the CQ is gone */
	if (cq->poll_ctx == IB_POLL_SOFTIRQ)
		irq_poll_disable(&cq->iop);
	else if (cq->poll_ctx != IB_POLL_DIRECT)
		cancel_work_sync(&cq->work);

	rdma_restrack_del(&cq->res);
	if (dev->ops.post_destroy_cq)
		dev->ops.post_destroy_cq(cq);
	else
		ret = dev->ops.destroy_cq(cq, NULL);
	if (ret)
		ibdev_warn(dev, "destroying a kernel CQ failed: %d\n", ret);
	kfree(cq->wc);
	kfree(cq);
}
EXPORT_SYMBOL(ib_free_cq);
