// SPDX-License-Identifier: GPL-2.0
/*
 * A port's special QPs (QP0, QP1) for the MAD layer: bringing one from
 * Reset to RTS, its receive buffers (posted, taken back, posted again),
 * its send queue (a backlog holds what the hardware queue has no room
 * for, posted as sends complete), its repair, and its end.
 *
 * Repair: a QP can leave RTS on its own.  A send that fails puts a UD QP
 * in SQE, or, on some devices, in Error: rdma_rxe does so when the route
 * of a send is gone, as it is while its netdev is down.  A QP in Error
 * flushes its receive buffers and never takes another MAD, so a port
 * would answer no CM or SA message again.  The first completion in
 * error (or a QP error event) marks the QP @repairing: nothing is posted
 * to it from then on, sends wait on the backlog.  Once the hardware has
 * given back every send (and, from Error, every receive buffer), the
 * repair work brings the QP back to RTS (SQE -> RTS; Error -> Reset ->
 * RTS and a new set of receive buffers) and posts the backlog.
 *
 * Locking: mqp->lock (IRQ-safe: ib_post_send_mad() may be called from
 * any context) protects the lists of posted sends and receive buffers,
 * the backlog and the flags.  The hardware is called under it for
 * posting (post_send and post_recv do not call back); the repair work
 * modifies the QP without it, when nothing is posted.
 */
#include "abi/ib_core/mad.h"
#include "internal.h"

#define QP_SEND_DEPTH	128
#define QP_RECV_DEPTH	256

/**
 * qp_alloc_rbuf - a receive buffer for a QP
 * @mqp: the QP
 * @gfp: how to allocate
 *
 * It is mapped for the device while the hardware has it
 * (qp_repost_recv() to qp_recv_taken()), and only then.
 *
 * Return: the buffer or NULL.
 */
struct mad_rbuf *qp_alloc_rbuf(struct mad_qp *mqp, gfp_t gfp)
{
	struct mad_rbuf *rb = kmalloc(sizeof(*rb) + mqp->mad_size, gfp);

	if (!rb)
		return NULL;
	rb->mqp = mqp;
	rb->cqe.done = recv_done;
	rb->len = sizeof(rb->grh) + mqp->mad_size;
	return rb;
}

/**
 * qp_repost_recv - give a receive buffer to the hardware
 * @mqp: the QP
 * @rb: a buffer of qp_alloc_rbuf(), or one qp_recv_taken() gave back
 *
 * A buffer the hardware does not take (the QP is going or under repair,
 * or the buffer cannot be mapped) is freed.
 */
void qp_repost_recv(struct mad_qp *mqp, struct mad_rbuf *rb)
{
	struct ib_device *dev = mqp->port->dev;
	struct ib_sge sge = {
		.length = rb->len,
		.lkey = mqp->port->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_cqe = &rb->cqe, .sg_list = &sge,
				 .num_sge = 1 };
	unsigned long flags;
	int ret = -ESHUTDOWN;

	rb->dma = ib_dma_map_single(dev, &rb->grh, rb->len, DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(dev, rb->dma)) {
		kfree(rb);
		return;
	}
	sge.addr = rb->dma;
	spin_lock_irqsave(&mqp->lock, flags);
	if (!mqp->closing && !mqp->repairing) {
		ret = ib_post_recv(mqp->qp, &wr, NULL);
		if (!ret) {
			list_add_tail(&rb->link, &mqp->recvs);
			mqp->nrecvs++;
		}
	}
	spin_unlock_irqrestore(&mqp->lock, flags);
	if (ret) {
		ib_dma_unmap_single(dev, rb->dma, rb->len, DMA_FROM_DEVICE);
		kfree(rb);
	}
}

/* The QP left RTS: hold every post and (re)start its repair. */
static void qp_repair_kick_locked(struct mad_qp *mqp)
{
	lockdep_assert_held(&mqp->lock);
	if (mqp->closing || mqp->broken)
		return;
	mqp->repairing = true;
	queue_work(mqp->port->wq, &mqp->repair);
}

/**
 * qp_recv_taken - the hardware gave a receive buffer back
 * @mqp: the QP
 * @rb: the buffer, no longer mapped once this returns
 * @ok: it holds a message
 *
 * A receive in error (flushed) means the QP left RTS: its repair starts.
 *
 * Return: true if the buffer is the caller's to handle; false if it was
 * freed (a flushed receive, or the QP is going).
 */
bool qp_recv_taken(struct mad_qp *mqp, struct mad_rbuf *rb, bool ok)
{
	unsigned long flags;
	bool closing;

	spin_lock_irqsave(&mqp->lock, flags);
	list_del(&rb->link);
	mqp->nrecvs--;
	closing = mqp->closing;
	if (!ok)
		qp_repair_kick_locked(mqp);
	spin_unlock_irqrestore(&mqp->lock, flags);
	ib_dma_unmap_single(mqp->port->dev, rb->dma, rb->len, DMA_FROM_DEVICE);
	if (ok && !closing)
		return true;
	kfree(rb);
	return false;
}

/* Maps the SGEs of @ms for the device. */
static int qp_map_send(struct mad_qp *mqp, struct mad_send *ms)
{
	struct ib_device *dev = mqp->port->dev;
	int i;

	for (i = 0; i < ms->nsge; i++) {
		ms->sge[i].addr = ib_dma_map_single(dev, ms->sge_va[i],
						    ms->sge[i].length,
						    DMA_TO_DEVICE);
		if (ib_dma_mapping_error(dev, ms->sge[i].addr))
			goto unmap;
		ms->sge[i].lkey = mqp->port->pd->local_dma_lkey;
	}
	return 0;
unmap:
	while (i--)
		ib_dma_unmap_single(dev, ms->sge[i].addr, ms->sge[i].length,
				    DMA_TO_DEVICE);
	return -ENOMEM;
}

static void qp_unmap_send(struct mad_qp *mqp, struct mad_send *ms)
{
	int i;

	for (i = 0; i < ms->nsge; i++)
		ib_dma_unmap_single(mqp->port->dev, ms->sge[i].addr,
				    ms->sge[i].length, DMA_TO_DEVICE);
}

/* Gives @ms's work request to the hardware; under mqp->lock. */
static int qp_post_locked(struct mad_qp *mqp, struct mad_send *ms)
{
	int ret;

	lockdep_assert_held(&mqp->lock);
	ms->wr.wr.wr_cqe = &ms->cqe;
	ms->wr.wr.sg_list = ms->sge;
	ms->wr.wr.num_sge = ms->nsge;
	ms->wr.wr.opcode = IB_WR_SEND;
	ms->wr.wr.send_flags = IB_SEND_SIGNALED;
	ms->wr.wr.next = NULL;
	ret = ib_post_send(mqp->qp, &ms->wr.wr, NULL);
	if (ret)
		return ret;
	list_add_tail(&ms->qlink, &mqp->posted);
	mqp->nposted++;
	atomic64_inc(&mqp->port->sent);
	return 0;
}

/**
 * qp_post_send - send the current work request of a send
 * @ms: the send, its SGEs set by kernel address (sge_va)
 *
 * Posted now if the hardware queue has room, else when it has (or when
 * the QP is repaired).  Any context.
 *
 * Return: 0, -ESHUTDOWN when the QP is going, -EIO when its repair
 * failed, or a mapping or posting error.
 */
int qp_post_send(struct mad_send *ms)
{
	struct mad_qp *mqp = ms->ma->mqp;
	unsigned long flags;
	int ret;

	ms->cqe.done = qp_send_done;
	ret = qp_map_send(mqp, ms);
	if (ret)
		return ret;
	spin_lock_irqsave(&mqp->lock, flags);
	if (mqp->closing)
		ret = -ESHUTDOWN;
	else if (mqp->broken)
		ret = -EIO;
	else if (!mqp->repairing && mqp->nposted < mqp->max_send)
		ret = qp_post_locked(mqp, ms);
	else
		list_add_tail(&ms->qlink, &mqp->backlog);
	spin_unlock_irqrestore(&mqp->lock, flags);
	if (ret)
		qp_unmap_send(mqp, ms);
	return ret;
}

/* Posts from the backlog while there is room; the failures in @failed. */
static void qp_drain_backlog(struct mad_qp *mqp, struct list_head *failed)
{
	struct mad_send *ms;

	lockdep_assert_held(&mqp->lock);
	while (!mqp->repairing && mqp->nposted < mqp->max_send &&
	       (ms = list_first_entry_or_null(&mqp->backlog, struct mad_send,
					      qlink))) {
		list_del_init(&ms->qlink);
		if (qp_post_locked(mqp, ms))
			list_add_tail(&ms->qlink, failed);
	}
}

/* Sends of @failed, off every list, reported with @status. */
static void qp_fail_sends(struct mad_qp *mqp, struct list_head *failed,
			  enum ib_wc_status status)
{
	struct mad_send *ms, *tmp;

	list_for_each_entry_safe(ms, tmp, failed, qlink) {
		list_del_init(&ms->qlink);
		qp_unmap_send(mqp, ms);
		send_hw_done(ms, status);
	}
}

/**
 * qp_send_done - a send work request of QP0 or QP1 completed
 * @cq: the port's CQ
 * @wc: its completion; one in error means the QP left RTS: its repair
 *	starts
 */
void qp_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct mad_send *ms = container_of(wc->wr_cqe, struct mad_send, cqe);
	struct mad_qp *mqp = ms->ma->mqp;
	unsigned long flags;
	LIST_HEAD(failed);

	spin_lock_irqsave(&mqp->lock, flags);
	list_del_init(&ms->qlink);
	mqp->nposted--;
	if (wc->status != IB_WC_SUCCESS)
		qp_repair_kick_locked(mqp);
	qp_drain_backlog(mqp, &failed);
	spin_unlock_irqrestore(&mqp->lock, flags);

	qp_unmap_send(mqp, ms);
	send_hw_done(ms, wc->status);
	qp_fail_sends(mqp, &failed, IB_WC_GENERAL_ERR);
}

/* An error event means the QP left RTS. */
static void qp_event(struct ib_event *event, void *context)
{
	struct mad_qp *mqp = context;
	unsigned long flags;

	ibdev_err(mqp->port->dev, "MAD QP%u of port %u: event %s\n",
		  event->element.qp->qp_num, mqp->port->port_num,
		  ib_event_msg(event->event));
	switch (event->event) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
		spin_lock_irqsave(&mqp->lock, flags);
		qp_repair_kick_locked(mqp);
		spin_unlock_irqrestore(&mqp->lock, flags);
		break;
	default:
		break;
	}
}

/* Reset -> Init -> RTR -> RTS, with the special QPs' P_Key and Q_Key. */
static int qp_to_rts(struct ib_qp *qp)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.qkey = qp->qp_num ? IB_QP1_QKEY : 0,
	};
	int ret;

	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_QKEY);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

/*
 * The QP's state, once the hardware has given back what the repair waits
 * for (every send; from Error, every receive buffer too), else -EAGAIN:
 * the completion that gives back the last one queues the work again.
 */
static int qp_repair_ready(struct mad_qp *mqp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	bool ready;
	int ret;

	ret = ib_query_qp(mqp->qp, &attr, IB_QP_STATE, &init);
	if (ret)
		return ret;
	spin_lock_irq(&mqp->lock);
	ready = mqp->repairing && !mqp->closing && !mqp->nposted &&
		(attr.qp_state != IB_QPS_ERR || !mqp->nrecvs);
	spin_unlock_irq(&mqp->lock);
	return ready ? attr.qp_state : -EAGAIN;
}

/* Back to RTS from @state, with nothing posted. */
static int qp_repair_state(struct mad_qp *mqp, enum ib_qp_state state)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTS,
		.cur_qp_state = IB_QPS_SQE,
	};
	int ret;

	switch (state) {
	case IB_QPS_RTS:
		return 0;
	case IB_QPS_SQE:
		return ib_modify_qp(mqp->qp, &attr,
				    IB_QP_STATE | IB_QP_CUR_STATE);
	case IB_QPS_ERR:
		attr.qp_state = IB_QPS_RESET;
		ret = ib_modify_qp(mqp->qp, &attr, IB_QP_STATE);
		return ret ?: qp_to_rts(mqp->qp);
	default:
		return -EINVAL;
	}
}

/* The QP cannot be repaired: what waits, and every later send, fails. */
static void qp_repair_failed(struct mad_qp *mqp, int err)
{
	LIST_HEAD(failed);

	ibdev_err(mqp->port->dev, "MAD QP%u of port %u not repaired: %d\n",
		  mqp->qp->qp_num, mqp->port->port_num, err);
	spin_lock_irq(&mqp->lock);
	mqp->broken = true;
	list_splice_init(&mqp->backlog, &failed);
	spin_unlock_irq(&mqp->lock);
	qp_fail_sends(mqp, &failed, IB_WC_GENERAL_ERR);
}

/* Receive buffers posted again up to the QP's depth, then the backlog. */
static void qp_repair_resume(struct mad_qp *mqp)
{
	struct mad_rbuf *rb;
	LIST_HEAD(failed);
	u32 want;

	spin_lock_irq(&mqp->lock);
	mqp->repairing = false;
	want = mqp->max_recv - mqp->nrecvs;
	spin_unlock_irq(&mqp->lock);
	while (want--) {
		rb = qp_alloc_rbuf(mqp, GFP_KERNEL);
		if (!rb)
			break;
		qp_repost_recv(mqp, rb);
	}
	spin_lock_irq(&mqp->lock);
	qp_drain_backlog(mqp, &failed);
	spin_unlock_irq(&mqp->lock);
	qp_fail_sends(mqp, &failed, IB_WC_GENERAL_ERR);
}

static void qp_repair_work(struct work_struct *work)
{
	struct mad_qp *mqp = container_of(work, struct mad_qp, repair);
	int state = qp_repair_ready(mqp);
	int ret;

	if (state == -EAGAIN)
		return;
	ret = state < 0 ? state : qp_repair_state(mqp, state);
	if (ret) {
		qp_repair_failed(mqp, ret);
		return;
	}
	qp_repair_resume(mqp);
	/* Counted once the QP has its receive buffers again */
	if (state != IB_QPS_RTS)
		atomic64_inc(&mqp->port->repairs);
}

/**
 * qp_setup - create a port's QP0 or QP1 and bring it up
 * @mqp: the QP's state, zeroed
 * @port: the port, with its PD and CQ
 * @type: IB_QPT_SMI or IB_QPT_GSI
 *
 * Return: 0 or an error (the QP closed: the caller frees the CQ, then
 * qp_free_recvs()).
 */
int qp_setup(struct mad_qp *mqp, struct mad_port *port, enum ib_qp_type type)
{
	struct ib_qp_init_attr init = {
		.send_cq = port->cq,
		.recv_cq = port->cq,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = type,
		.port_num = port->port_num,
		.qp_context = mqp,
		.event_handler = qp_event,
		.cap = {
			.max_send_wr = QP_SEND_DEPTH,
			.max_recv_wr = QP_RECV_DEPTH,
			.max_send_sge = 2,
			.max_recv_sge = 1,
		},
	};
	struct mad_rbuf *rb;
	u32 i;
	int ret;

	mqp->port = port;
	spin_lock_init(&mqp->lock);
	INIT_WORK(&mqp->repair, qp_repair_work);
	INIT_LIST_HEAD(&mqp->posted);
	INIT_LIST_HEAD(&mqp->backlog);
	INIT_LIST_HEAD(&mqp->recvs);
	mqp->mad_size = sizeof(struct ib_mad);
	mqp->qp = ib_create_qp(port->pd, &init);
	if (IS_ERR(mqp->qp)) {
		ret = PTR_ERR(mqp->qp);
		mqp->qp = NULL;
		return ret;
	}
	mqp->max_send = init.cap.max_send_wr;
	mqp->max_recv = init.cap.max_recv_wr;
	ret = qp_to_rts(mqp->qp);
	if (ret)
		goto err;
	for (i = 0; i < mqp->max_recv; i++) {
		rb = qp_alloc_rbuf(mqp, GFP_KERNEL);
		if (!rb) {
			ret = -ENOMEM;
			goto err;
		}
		qp_repost_recv(mqp, rb);
	}
	return 0;
err:
	qp_close(mqp);
	return ret;
}

/**
 * qp_close - take a port's special QP down
 * @mqp: the QP; no agent uses it any more
 *
 * Nothing is posted after this starts, and the QP is destroyed.  The
 * receive buffers the hardware still had stay on @mqp->recvs until
 * qp_free_recvs(), once the CQ is freed (its work may still hand some
 * back until then).
 */
void qp_close(struct mad_qp *mqp)
{
	unsigned long flags;

	if (!mqp->qp)
		return;
	spin_lock_irqsave(&mqp->lock, flags);
	mqp->closing = true;
	spin_unlock_irqrestore(&mqp->lock, flags);
	cancel_work_sync(&mqp->repair);
	ib_destroy_qp(mqp->qp);
	mqp->qp = NULL;
}

/**
 * qp_free_recvs - free the receive buffers of a closed QP
 * @mqp: the QP, closed, its CQ freed
 */
void qp_free_recvs(struct mad_qp *mqp)
{
	struct mad_rbuf *rb, *tmp;

	list_for_each_entry_safe(rb, tmp, &mqp->recvs, link) {
		list_del(&rb->link);
		ib_dma_unmap_single(mqp->port->dev, rb->dma, rb->len,
				    DMA_FROM_DEVICE);
		kfree(rb);
	}
}
