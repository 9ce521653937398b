// SPDX-License-Identifier: GPL-2.0
/*
 * XRC target QPs and the handles opened on them.
 *
 * An XRC target QP belongs to its XRC domain, not to one user: the core
 * creates the real QP, files it in xrcd->tgt_qps by QP number and gives
 * every user a handle of its own (struct ib_qp with real_qp pointing at
 * the real QP), from its creation or from ib_open_qp().  Each handle holds
 * a usecnt on the real QP; the real QP holds one on the XRC domain.
 * Asynchronous events of the real QP go to the handler of every handle.
 * The last handle to go destroys the real QP.
 *
 * Locking: xrcd->tgt_qps_rwsem makes looking a QP up and opening a handle
 * on it atomic against closing its last handle (readers: opening; writer:
 * closing the last handle and taking the QP out of the domain).
 * device->qp_open_list_lock (spinlock, taken with interrupts disabled as
 * events arrive in any context) protects the open_list of every real QP.
 */
#include "abi/ib_core/verbs.h"
#include "verbs/internal.h"

/* The event handler of a real XRC target QP: each handle hears of it. */
static void qp_xrc_event_fanout(struct ib_event *event, void *context)
{
	struct ib_qp *real = context;
	struct ib_device *dev = real->device;
	struct ib_event copy = *event;
	struct ib_qp *handle;
	unsigned long flags;

	spin_lock_irqsave(&dev->qp_open_list_lock, flags);
	list_for_each_entry(handle, &real->open_list, open_list) {
		if (!handle->event_handler)
			continue;
		copy.element.qp = handle;
		handle->event_handler(&copy, handle->qp_context);
	}
	spin_unlock_irqrestore(&dev->qp_open_list_lock, flags);
}

static struct ib_qp *qp_xrc_handle_new(struct ib_qp *real,
				       void (*handler)(struct ib_event *, void *),
				       void *context)
{
	struct ib_device *dev = real->device;
	struct ib_qp *handle;
	unsigned long flags;

	handle = kzalloc(sizeof(*handle), GFP_KERNEL);
	if (!handle)
		return ERR_PTR(-ENOMEM);
	handle->device = dev;
	handle->real_qp = real;
	handle->qp_num = real->qp_num;
	handle->qp_type = real->qp_type;
	handle->event_handler = handler;
	handle->qp_context = context;
	atomic_inc(&real->usecnt);

	spin_lock_irqsave(&dev->qp_open_list_lock, flags);
	list_add(&handle->open_list, &real->open_list);
	spin_unlock_irqrestore(&dev->qp_open_list_lock, flags);
	return handle;
}

/**
 * ib_open_qp() - open a handle on an XRC target QP of an XRC domain
 * @xrcd: the XRC domain
 * @qp_open_attr: the QP's type (IB_QPT_XRC_TGT) and number, and the event
 *	handler and context of the handle
 *
 * Return: the handle, to be closed with ib_close_qp(), or an ERR_PTR():
 * -EINVAL for another QP type or a QP number the domain has no QP of,
 * -ENOMEM.
 */
struct ib_qp *ib_open_qp(struct ib_xrcd *xrcd,
			 struct ib_qp_open_attr *qp_open_attr)
{
	struct ib_qp *real, *handle = ERR_PTR(-EINVAL);

	if (qp_open_attr->qp_type != IB_QPT_XRC_TGT)
		return handle;

	down_read(&xrcd->tgt_qps_rwsem);
	real = xa_load(&xrcd->tgt_qps, qp_open_attr->qp_num);
	if (real)
		handle = qp_xrc_handle_new(real, qp_open_attr->event_handler,
					   qp_open_attr->qp_context);
	up_read(&xrcd->tgt_qps_rwsem);
	return handle;
}
EXPORT_SYMBOL(ib_open_qp);

/**
 * ib_close_qp() - close a handle opened on an XRC target QP
 * @qp: the handle, from ib_open_qp()
 *
 * The real QP stays in its domain, also when this was its last handle.
 *
 * Return: 0, or -EINVAL if @qp is a real QP and not a handle.
 */
int ib_close_qp(struct ib_qp *qp)
{
	struct ib_qp *real = qp->real_qp;
	unsigned long flags;

	if (real == qp)
		return -EINVAL;

	spin_lock_irqsave(&real->device->qp_open_list_lock, flags);
	list_del(&qp->open_list);
	spin_unlock_irqrestore(&real->device->qp_open_list_lock, flags);
	atomic_dec(&real->usecnt);
	kfree(qp);
	return 0;
}
EXPORT_SYMBOL(ib_close_qp);

/**
 * qp_xrc_adopt() - give a new XRC target QP to its domain
 * @real: the QP, just created by the driver
 * @attr: its creation attributes: the XRC domain, and the event handler
 *	and context of the creator's handle
 *
 * Return: the creator's handle, or an ERR_PTR(), in which case @real is
 * as it was given and the caller destroys it.
 */
struct ib_qp *qp_xrc_adopt(struct ib_qp *real, struct ib_qp_init_attr *attr)
{
	struct ib_xrcd *xrcd = attr->xrcd;
	struct ib_qp *handle;
	int ret;

	/* The domain owns it: no PD, no CQs, no SRQ of a user's. */
	real->pd = NULL;
	real->send_cq = NULL;
	real->recv_cq = NULL;
	real->srq = NULL;
	real->xrcd = xrcd;
	real->event_handler = qp_xrc_event_fanout;
	real->qp_context = real;

	handle = qp_xrc_handle_new(real, attr->event_handler,
				   attr->qp_context);
	if (IS_ERR(handle))
		return handle;

	down_write(&xrcd->tgt_qps_rwsem);
	ret = xa_err(xa_store(&xrcd->tgt_qps, real->qp_num, real, GFP_KERNEL));
	up_write(&xrcd->tgt_qps_rwsem);
	if (ret) {
		ib_close_qp(handle);
		return ERR_PTR(ret);
	}
	atomic_inc(&xrcd->usecnt);
	return handle;
}

/**
 * qp_xrc_destroy_handle() - destroy a handle, and its QP if it was the last
 * @handle: a handle on an XRC target QP (handle->real_qp != handle)
 *
 * The real QP is destroyed when its last handle goes; if the driver
 * refuses, it stays in its domain (which then cannot be freed).
 *
 * Return: 0.
 */
int qp_xrc_destroy_handle(struct ib_qp *handle)
{
	struct ib_qp *real = handle->real_qp;
	struct ib_xrcd *xrcd = real->xrcd;
	bool last;

	down_write(&xrcd->tgt_qps_rwsem);
	ib_close_qp(handle);
	last = !atomic_read(&real->usecnt);
	if (last)
		xa_erase(&xrcd->tgt_qps, real->qp_num);
	up_write(&xrcd->tgt_qps_rwsem);
	if (!last)
		return 0;

	if (!ib_destroy_qp(real)) {
		atomic_dec(&xrcd->usecnt);
		return 0;
	}
	/* Still the domain's: findable again, and counted. */
	down_write(&xrcd->tgt_qps_rwsem);
	if (xa_err(xa_store(&xrcd->tgt_qps, real->qp_num, real, GFP_KERNEL)))
		ibdev_err(real->device, "XRC target QP %u lost from its domain\n",
			  real->qp_num);
	up_write(&xrcd->tgt_qps_rwsem);
	return 0;
}
