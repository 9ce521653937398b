// SPDX-License-Identifier: GPL-2.0
/*
 * Draining queue pairs: waiting until every posted work request has
 * completed and its completion has been handled.
 *
 * Unless the driver drains by itself, the QP goes to the error state, which
 * flushes whatever is queued, and a marker work request with its own
 * struct ib_cqe is posted behind it.  Completions of one queue arrive in
 * order, so when the marker's completion is handled everything before it
 * has been handled too.  The marker lives on the drainer's stack until its
 * completion arrives.
 */
#include "abi/ib_core/verbs.h"

/* A marker work request's completion and the wait for it. */
struct drain_marker {
	struct ib_cqe cqe;
	struct completion done;
};

static void drain_marker_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct drain_marker *m = container_of(wc->wr_cqe, struct drain_marker,
					      cqe);

	complete(&m->done);
}

static void drain_marker_init(struct drain_marker *m)
{
	m->cqe.done = drain_marker_done;
	init_completion(&m->done);
}

/* A generic drain needs a CQ to wait on; false to give up. */
static bool drain_can_wait(struct ib_qp *qp, struct ib_cq *cq)
{
	if (!cq) {
		dev_warn_once(&qp->device->dev,
			      "cannot drain QP %u: it has no CQ\n", qp->qp_num);
		return false;
	}
	return true;
}

/*
 * Wait for the marker's completion.  A CQ that the core does not poll
 * (IB_POLL_DIRECT: its owner polls it, e.g. NVMe poll queues) is polled
 * here meanwhile, or the marker would never be handled.
 */
static void drain_wait(struct ib_cq *cq, struct drain_marker *m)
{
	if (cq->poll_ctx != IB_POLL_DIRECT) {
		wait_for_completion(&m->done);
		return;
	}
	do {
		ib_process_cq_direct(cq, -1);
	} while (!wait_for_completion_timeout(&m->done, msecs_to_jiffies(10)));
}

static int drain_to_error(struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int ret = ib_modify_qp(qp, &attr, IB_QP_STATE);

	if (ret)
		ibdev_warn(qp->device, "QP %u to error state for drain: %d\n",
			   qp->qp_num, ret);
	return ret;
}

static void drain_sq_generic(struct ib_qp *qp)
{
	struct drain_marker m;
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &m.cqe,
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED,
		},
	};
	const struct ib_send_wr *bad;
	int ret;

	if (!drain_can_wait(qp, qp->send_cq) || drain_to_error(qp))
		return;

	drain_marker_init(&m);
	ret = ib_post_send(qp, &wr.wr, &bad);
	if (ret) {
		ibdev_warn(qp->device, "QP %u send drain marker: %d\n",
			   qp->qp_num, ret);
		return;
	}
	drain_wait(qp->send_cq, &m);
}

static void drain_rq_generic(struct ib_qp *qp)
{
	struct drain_marker m;
	struct ib_recv_wr wr = { .wr_cqe = &m.cqe };
	const struct ib_recv_wr *bad;
	int ret;

	if (!drain_can_wait(qp, qp->recv_cq) || drain_to_error(qp))
		return;

	drain_marker_init(&m);
	ret = ib_post_recv(qp, &wr, &bad);
	if (ret) {
		ibdev_warn(qp->device, "QP %u receive drain marker: %d\n",
			   qp->qp_num, ret);
		return;
	}
	drain_wait(qp->recv_cq, &m);
}

/**
 * ib_drain_sq() - wait until all send queue completions are handled
 * @qp: the QP; it ends in the error state
 *
 * Uses the driver's drain_sq if it has one.  The caller must leave room in
 * the send queue and its CQ for one more work request, must have allocated
 * the CQ with ib_alloc_cq() (an IB_POLL_DIRECT CQ is polled here while the
 * drain waits), and must not post concurrently.  May sleep.
 */
void ib_drain_sq(struct ib_qp *qp)
{
	void (*own)(struct ib_qp *qp) = qp->device->ops.drain_sq;

	(own ?: drain_sq_generic)(qp);
}
EXPORT_SYMBOL(ib_drain_sq);

/**
 * ib_drain_rq() - wait until all receive queue completions are handled
 * @qp: the QP; it ends in the error state
 *
 * As ib_drain_sq(), for the receive queue and its CQ.
 */
void ib_drain_rq(struct ib_qp *qp)
{
	void (*own)(struct ib_qp *qp) = qp->device->ops.drain_rq;

	(own ?: drain_rq_generic)(qp);
}
EXPORT_SYMBOL(ib_drain_rq);

/**
 * ib_drain_qp() - wait until all completions of a QP are handled
 * @qp: the QP; it ends in the error state
 *
 * Drains the send queue, then the receive queue unless the QP receives
 * from an SRQ.  The rules of ib_drain_sq() apply to both queues.
 */
void ib_drain_qp(struct ib_qp *qp)
{
	bool own_rq = !qp->srq;

	ib_drain_sq(qp);
	if (own_rq)
		ib_drain_rq(qp);
}
EXPORT_SYMBOL(ib_drain_qp);
