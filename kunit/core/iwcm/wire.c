// SPDX-License-Identifier: GPL-2.0
/*
 * iwd, the wire: the connection side of the iw_cm verbs and a loopback
 * fabric between every iwd (iwd.h says how it behaves).
 *
 * A connection has two endpoints (struct iwd_ep), the active one made by
 * iw_connect and the passive one made when its request reaches a
 * listener.  What crosses the wire is a message, carried by an ordered
 * work queue: the request, the accept, the reject, an abort, a FIN (a QP
 * moved to SQD) or an RST (a QP moved to the error state).  Events reach
 * iw_cm from the message's work, or from the MPA timer.  An endpoint
 * holds an add_ref() of its cm_id, and its QP (iwd_qp.ep), until its
 * connection is over for it; endpoints are freed when the wire stops.
 *
 * Locking: iwd_lock, a spinlock taken with interrupts off, protects the
 * listeners, the endpoints (their list and every member), iwd_qp.ep, the
 * held messages and the holding flag.  Events are reported to iw_cm
 * under it; iw_cm never calls into the wire with a lock of its own held.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "iwd.h"

enum iwd_ep_state {
	IWD_EP_CONNECTING,	/* active: the request is out */
	IWD_EP_REQUESTED,	/* passive: reported, not answered */
	IWD_EP_ACCEPTING,	/* passive: the accept is out */
	IWD_EP_UP,		/* connected */
	IWD_EP_CLOSING,		/* its QP left RTS: FIN or RST out */
	IWD_EP_DOWN,		/* over for this side */
};

/**
 * struct iwd_ep - one side of a connection
 * @all: on iwd_eps, until the wire stops
 * @cm_id: its cm_id, with our add_ref(), or NULL
 * @qp: its QP (whose @ep points back), or NULL
 * @peer: the other side, or NULL
 * @state: enum iwd_ep_state
 * @laddr: its own address
 * @raddr: the peer's
 * @ord: outbound RDMA reads
 * @ird: inbound RDMA reads
 * @pdata_len: length of @pdata
 * @pdata: the private data of its request, accept or reject
 * @mpa: the MPA timer of a passive endpoint not answered
 */
struct iwd_ep {
	struct list_head all;
	struct iw_cm_id *cm_id;
	struct iwd_qp *qp;
	struct iwd_ep *peer;
	enum iwd_ep_state state;
	struct sockaddr_storage laddr;
	struct sockaddr_storage raddr;
	u8 ord;
	u8 ird;
	u8 pdata_len;
	u8 pdata[IWD_MAX_PDATA];
	struct delayed_work mpa;
};

struct iwd_listener {
	struct list_head entry;
	struct iw_cm_id *cm_id;
};

enum iwd_msg_type {
	IWD_MSG_REQUEST,
	IWD_MSG_ACCEPT,
	IWD_MSG_REJECT,
	IWD_MSG_ABORT,
	IWD_MSG_FIN,
	IWD_MSG_RST,
};

struct iwd_msg {
	struct work_struct work;
	struct list_head held;
	enum iwd_msg_type type;
	struct iwd_ep *ep;
};

static DEFINE_SPINLOCK(iwd_lock);
static LIST_HEAD(iwd_listeners);
static LIST_HEAD(iwd_eps);
static LIST_HEAD(iwd_held);
static LIST_HEAD(iwd_batch);
static bool iwd_holding;
static unsigned int iwd_mpa_ms;
static struct workqueue_struct *iwd_wq;
static struct work_struct iwd_batch_work;

/* An event for @cm_id about @ep's connection. */
static int iwd_report(struct iw_cm_id *cm_id, enum iw_cm_event_type type,
		      int status, struct iwd_ep *ep, const void *pdata, u8 len)
{
	struct iw_cm_event ev = {
		.event = type,
		.status = status,
		.local_addr = ep->laddr,
		.remote_addr = ep->raddr,
		.private_data = (void *)pdata,
		.private_data_len = len,
		.provider_data = ep,
		.ord = ep->ord,
		.ird = ep->ird,
	};

	lockdep_assert_held(&iwd_lock);
	return cm_id->event_handler(cm_id, &ev);
}

/* @ep's side is over: its QP and cm_id go. */
static void iwd_ep_release(struct iwd_ep *ep)
{
	if (ep->qp) {
		ep->qp->ep = NULL;
		ep->qp = NULL;
	}
	if (ep->cm_id) {
		ep->cm_id->rem_ref(ep->cm_id);
		ep->cm_id = NULL;
	}
	ep->state = IWD_EP_DOWN;
}

/* The connection of @ep is over for it, with @status. */
static void iwd_ep_close(struct iwd_ep *ep, int status)
{
	if (!ep || ep->state == IWD_EP_DOWN)
		return;
	if (ep->qp)
		atomic_set(&ep->qp->state, IB_QPS_ERR);
	iwd_report(ep->cm_id, IW_CM_EVENT_CLOSE, status, ep, NULL, 0);
	iwd_ep_release(ep);
}

/* The active @ep's request failed. */
static void iwd_refuse(struct iwd_ep *ep, int status, const void *pdata,
		       u8 len)
{
	if (ep->state != IWD_EP_CONNECTING)
		return;
	iwd_report(ep->cm_id, IW_CM_EVENT_CONNECT_REPLY, status, ep, pdata,
		   len);
	iwd_ep_release(ep);
}

static void iwd_msg_work(struct work_struct *work);

/* Put a message on the wire, or aside while it is held. */
static void iwd_send(enum iwd_msg_type type, struct iwd_ep *ep)
{
	struct iwd_msg *msg = kzalloc(sizeof(*msg), GFP_ATOMIC);

	lockdep_assert_held(&iwd_lock);
	if (!msg)
		return;
	INIT_WORK(&msg->work, iwd_msg_work);
	msg->type = type;
	msg->ep = ep;
	if (iwd_holding)
		list_add_tail(&msg->held, &iwd_held);
	else
		queue_work(iwd_wq, &msg->work);
}

static void iwd_mpa_expired(struct work_struct *work);

static struct iwd_ep *iwd_ep_new(gfp_t gfp)
{
	struct iwd_ep *ep = kzalloc(sizeof(*ep), gfp);

	if (ep) {
		INIT_LIST_HEAD(&ep->all);
		INIT_DELAYED_WORK(&ep->mpa, iwd_mpa_expired);
	}
	return ep;
}

/* The listener for a request to @dst (by port; an address or any). */
static struct iwd_listener *iwd_listener_find(const struct sockaddr_storage *dst)
{
	const struct sockaddr_in *d = (const struct sockaddr_in *)dst;
	struct iwd_listener *l;

	list_for_each_entry(l, &iwd_listeners, entry) {
		const struct sockaddr_in *a =
			(const struct sockaddr_in *)&l->cm_id->m_local_addr;

		if (a->sin_port == d->sin_port &&
		    (a->sin_addr.s_addr == htonl(INADDR_ANY) ||
		     a->sin_addr.s_addr == d->sin_addr.s_addr))
			return l;
	}
	return NULL;
}

/* A request reaches the wire: to a listener, or refused. */
static void iwd_on_request(struct iwd_ep *active)
{
	struct iwd_listener *l = iwd_listener_find(&active->raddr);
	struct iwd_ep *passive = l ? iwd_ep_new(GFP_ATOMIC) : NULL;

	if (!passive) {
		iwd_refuse(active, -ECONNREFUSED, NULL, 0);
		return;
	}
	list_add(&passive->all, &iwd_eps);
	passive->laddr = active->raddr;
	passive->raddr = active->laddr;
	passive->ord = active->ird;
	passive->ird = active->ord;
	passive->peer = active;
	active->peer = passive;
	passive->state = IWD_EP_REQUESTED;
	if (iwd_report(l->cm_id, IW_CM_EVENT_CONNECT_REQUEST, 0, passive,
		       active->pdata, active->pdata_len)) {
		atomic_inc(&to_iwd(l->cm_id->device)->refused);
		passive->state = IWD_EP_DOWN;
		iwd_refuse(active, -ECONNREFUSED, NULL, 0);
		return;
	}
	if (iwd_mpa_ms)
		queue_delayed_work(iwd_wq, &passive->mpa,
				   msecs_to_jiffies(iwd_mpa_ms));
}

/* The accept reaches the active side: both are up. */
static void iwd_on_accept(struct iwd_ep *passive)
{
	struct iwd_ep *active = passive->peer;

	if (passive->state != IWD_EP_ACCEPTING)
		return;
	passive->state = IWD_EP_UP;
	active->state = IWD_EP_UP;
	atomic_set(&passive->qp->state, IB_QPS_RTS);
	atomic_set(&active->qp->state, IB_QPS_RTS);
	iwd_report(active->cm_id, IW_CM_EVENT_CONNECT_REPLY, 0, active,
		   passive->pdata, passive->pdata_len);
	iwd_report(passive->cm_id, IW_CM_EVENT_ESTABLISHED, 0, passive,
		   NULL, 0);
}

/* A graceful close from @ep: the peer hears DISCONNECT, both CLOSE. */
static void iwd_on_fin(struct iwd_ep *ep)
{
	struct iwd_ep *peer = ep->peer;

	if (peer->state == IWD_EP_UP)
		iwd_report(peer->cm_id, IW_CM_EVENT_DISCONNECT, 0, peer,
			   NULL, 0);
	iwd_ep_close(peer, 0);
	iwd_ep_close(ep, 0);
}

static void iwd_msg_handle(struct iwd_msg *msg)
{
	struct iwd_ep *ep = msg->ep;

	switch (msg->type) {
	case IWD_MSG_REQUEST:
		iwd_on_request(ep);
		break;
	case IWD_MSG_ACCEPT:
		iwd_on_accept(ep);
		break;
	case IWD_MSG_REJECT:
		iwd_refuse(ep->peer, -ECONNREFUSED, ep->pdata, ep->pdata_len);
		break;
	case IWD_MSG_ABORT:
		iwd_refuse(ep->peer, -ECONNRESET, NULL, 0);
		break;
	case IWD_MSG_FIN:
		iwd_on_fin(ep);
		break;
	case IWD_MSG_RST:
		iwd_ep_close(ep->peer, -ECONNRESET);
		iwd_ep_close(ep, 0);
		break;
	}
}

static void iwd_msg_work(struct work_struct *work)
{
	struct iwd_msg *msg = container_of(work, struct iwd_msg, work);
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	iwd_msg_handle(msg);
	spin_unlock_irqrestore(&iwd_lock, flags);
	kfree(msg);
}

/* The messages held back, delivered in one go under one lock hold. */
static void iwd_batch_fn(struct work_struct *work)
{
	struct iwd_msg *msg, *next;
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	list_for_each_entry_safe(msg, next, &iwd_batch, held) {
		list_del(&msg->held);
		iwd_msg_handle(msg);
		kfree(msg);
	}
	spin_unlock_irqrestore(&iwd_lock, flags);
}

/* A passive endpoint nobody answered in time: the request is reset. */
static void iwd_mpa_expired(struct work_struct *work)
{
	struct iwd_ep *ep = container_of(to_delayed_work(work), struct iwd_ep,
					 mpa);
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	if (ep->state == IWD_EP_REQUESTED) {
		ep->state = IWD_EP_DOWN;
		iwd_refuse(ep->peer, -ECONNRESET, NULL, 0);
	}
	spin_unlock_irqrestore(&iwd_lock, flags);
}

static void iwd_ep_set_pdata(struct iwd_ep *ep, const void *pdata, u16 len)
{
	ep->pdata_len = len;
	if (len)
		memcpy(ep->pdata, pdata, len);
}

/* Bind @ep to @cm_id and @qp, with our references. */
static void iwd_ep_bind(struct iwd_ep *ep, struct iw_cm_id *cm_id,
			struct iwd_qp *qp)
{
	lockdep_assert_held(&iwd_lock);
	cm_id->add_ref(cm_id);
	cm_id->provider_data = ep;
	ep->cm_id = cm_id;
	ep->qp = qp;
	qp->ep = ep;
}

/*
 * A local address with port 0 gets one, as a TCP stack's connect would:
 * the next of the ephemeral range, in turn (atomic).
 */
static void iwd_pick_port(struct sockaddr_storage *addr)
{
	static atomic_t next = ATOMIC_INIT(0);
	struct sockaddr_in *sin = (struct sockaddr_in *)addr;

	if (sin->sin_family == AF_INET && !sin->sin_port)
		sin->sin_port = htons(IWD_EPHEMERAL +
				      atomic_inc_return(&next) % 16384);
}

static int iwd_iw_connect(struct iw_cm_id *cm_id,
			  struct iw_cm_conn_param *param)
{
	struct iwd *d = to_iwd(cm_id->device);
	unsigned long flags;
	struct iwd_qp *qp;
	struct iwd_ep *ep;
	int ret;

	ret = iwd_take_fail(d, IWD_OP_CONNECT);
	if (ret)
		return ret;
	if (param->private_data_len > IWD_MAX_PDATA ||
	    cm_id->m_remote_addr.ss_family != AF_INET)
		return -EINVAL;
	qp = xa_load(&d->qps, param->qpn);
	if (!qp)
		return -EINVAL;
	ep = iwd_ep_new(GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->laddr = cm_id->m_local_addr;
	iwd_pick_port(&ep->laddr);
	ep->raddr = cm_id->m_remote_addr;
	ep->ord = param->ord;
	ep->ird = param->ird;
	iwd_ep_set_pdata(ep, param->private_data, param->private_data_len);
	ep->state = IWD_EP_CONNECTING;
	spin_lock_irqsave(&iwd_lock, flags);
	list_add(&ep->all, &iwd_eps);
	iwd_ep_bind(ep, cm_id, qp);
	iwd_send(IWD_MSG_REQUEST, ep);
	spin_unlock_irqrestore(&iwd_lock, flags);
	return 0;
}

/* A request we refuse to answer, as failing hardware does: abort it. */
static int iwd_accept_fails(struct iwd_ep *ep, int err)
{
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	if (ep->state == IWD_EP_REQUESTED) {
		ep->state = IWD_EP_DOWN;
		iwd_send(IWD_MSG_ABORT, ep);
	}
	spin_unlock_irqrestore(&iwd_lock, flags);
	return err;
}

static int iwd_iw_accept(struct iw_cm_id *cm_id,
			 struct iw_cm_conn_param *param)
{
	struct iwd *d = to_iwd(cm_id->device);
	struct iwd_ep *ep = cm_id->provider_data;
	unsigned long flags;
	struct iwd_qp *qp;
	int ret;

	ret = iwd_take_fail(d, IWD_OP_ACCEPT);
	if (ret)
		return iwd_accept_fails(ep, ret);
	if (param->private_data_len > IWD_MAX_PDATA)
		return -EINVAL;
	qp = xa_load(&d->qps, param->qpn);
	if (!qp)
		return -EINVAL;
	spin_lock_irqsave(&iwd_lock, flags);
	if (ep->state != IWD_EP_REQUESTED) {
		spin_unlock_irqrestore(&iwd_lock, flags);
		return -ECONNRESET;
	}
	iwd_ep_set_pdata(ep, param->private_data, param->private_data_len);
	ep->ord = param->ord;
	ep->ird = param->ird;
	iwd_ep_bind(ep, cm_id, qp);
	ep->state = IWD_EP_ACCEPTING;
	iwd_send(IWD_MSG_ACCEPT, ep);
	spin_unlock_irqrestore(&iwd_lock, flags);
	return 0;
}

static int iwd_iw_reject(struct iw_cm_id *cm_id, const void *pdata, u8 len)
{
	struct iwd_ep *ep = cm_id->provider_data;
	unsigned long flags;
	int ret = 0;

	atomic_inc(&to_iwd(cm_id->device)->rejects);
	spin_lock_irqsave(&iwd_lock, flags);
	if (ep->state == IWD_EP_REQUESTED) {
		iwd_ep_set_pdata(ep, pdata, len);
		ep->state = IWD_EP_DOWN;
		iwd_send(IWD_MSG_REJECT, ep);
	} else {
		ret = -ECONNRESET;
	}
	spin_unlock_irqrestore(&iwd_lock, flags);
	return ret;
}

static int iwd_iw_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	const struct sockaddr_in *a =
		(const struct sockaddr_in *)&cm_id->m_local_addr;
	struct iwd *d = to_iwd(cm_id->device);
	struct iwd_listener *l;
	unsigned long flags;
	int ret;

	ret = iwd_take_fail(d, IWD_OP_LISTEN);
	if (ret)
		return ret;
	if (a->sin_family != AF_INET)
		return -EAFNOSUPPORT;
	atomic_set(&d->backlog, backlog);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	spin_lock_irqsave(&iwd_lock, flags);
	if (iwd_listener_find(&cm_id->m_local_addr)) {
		spin_unlock_irqrestore(&iwd_lock, flags);
		kfree(l);
		return -EADDRINUSE;
	}
	cm_id->add_ref(cm_id);
	l->cm_id = cm_id;
	list_add_tail(&l->entry, &iwd_listeners);
	atomic_inc(&d->listens);
	spin_unlock_irqrestore(&iwd_lock, flags);
	return 0;
}

static int iwd_iw_destroy_listen(struct iw_cm_id *cm_id)
{
	struct iwd_listener *l, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	list_for_each_entry(l, &iwd_listeners, entry) {
		if (l->cm_id == cm_id) {
			found = l;
			list_del(&l->entry);
			break;
		}
	}
	spin_unlock_irqrestore(&iwd_lock, flags);
	if (!found)
		return -EINVAL;
	atomic_inc(&to_iwd(cm_id->device)->unlistens);
	cm_id->rem_ref(cm_id);
	kfree(found);
	return 0;
}

const struct ib_device_ops iwd_wire_ops = {
	.iw_connect = iwd_iw_connect,
	.iw_accept = iwd_iw_accept,
	.iw_reject = iwd_iw_reject,
	.iw_create_listen = iwd_iw_create_listen,
	.iw_destroy_listen = iwd_iw_destroy_listen,
};

/* A QP's state moves out of RTS close its connection. */
int iwd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct iwd_qp *qp = to_iwd_qp(ibqp);
	struct iwd_ep *ep;
	unsigned long flags;

	if (!(mask & IB_QP_STATE))
		return 0;
	spin_lock_irqsave(&iwd_lock, flags);
	atomic_set(&qp->state, attr->qp_state);
	ep = qp->ep;
	if (attr->qp_state == IB_QPS_SQD) {
		atomic_inc(&qp->to_sqd);
		if (ep && ep->state == IWD_EP_UP) {
			ep->state = IWD_EP_CLOSING;
			iwd_send(IWD_MSG_FIN, ep);
		}
	} else if (attr->qp_state == IB_QPS_ERR) {
		atomic_inc(&qp->to_err);
		if (ep && (ep->state == IWD_EP_UP ||
			   ep->state == IWD_EP_CLOSING)) {
			ep->state = IWD_EP_CLOSING;
			iwd_send(IWD_MSG_RST, ep);
		}
	}
	spin_unlock_irqrestore(&iwd_lock, flags);
	return 0;
}

/* A QP destroyed: its connection no longer has it. */
void iwd_qp_detach(struct iwd_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	if (qp->ep)
		qp->ep->qp = NULL;
	qp->ep = NULL;
	spin_unlock_irqrestore(&iwd_lock, flags);
}

/**
 * iwd_wire_start - bring the wire up, before the first device
 *
 * Return: 0 or -ENOMEM.
 */
int iwd_wire_start(void)
{
	iwd_wq = alloc_ordered_workqueue("iwd_wire", 0);
	if (!iwd_wq)
		return -ENOMEM;
	INIT_WORK(&iwd_batch_work, iwd_batch_fn);
	iwd_mpa_ms = 0;
	iwd_holding = false;
	return 0;
}

/**
 * iwd_wire_hold - keep messages off the wire until iwd_wire_release()
 */
void iwd_wire_hold(void)
{
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	iwd_holding = true;
	spin_unlock_irqrestore(&iwd_lock, flags);
}

/**
 * iwd_wire_release - deliver the held messages, in order, in one go
 */
void iwd_wire_release(void)
{
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	iwd_holding = false;
	list_splice_tail_init(&iwd_held, &iwd_batch);
	spin_unlock_irqrestore(&iwd_lock, flags);
	queue_work(iwd_wq, &iwd_batch_work);
}

/**
 * iwd_wire_settle - wait until every message sent so far was handled
 */
void iwd_wire_settle(void)
{
	flush_workqueue(iwd_wq);
}

/**
 * iwd_set_mpa_timeout - reset requests not answered within @ms (0: never)
 * @ms: the timeout of requests reported from now on
 */
void iwd_set_mpa_timeout(unsigned int ms)
{
	iwd_mpa_ms = ms;
}

/* Whatever a case left: listeners and endpoints give their cm_ids back. */
static void iwd_wire_drop_all(struct list_head *eps)
{
	struct iwd_listener *l, *ln;
	struct iwd_ep *ep;
	unsigned long flags;

	spin_lock_irqsave(&iwd_lock, flags);
	list_for_each_entry_safe(l, ln, &iwd_listeners, entry) {
		list_del(&l->entry);
		l->cm_id->rem_ref(l->cm_id);
		kfree(l);
	}
	list_for_each_entry(ep, &iwd_eps, all)
		iwd_ep_release(ep);
	list_splice_init(&iwd_eps, eps);
	spin_unlock_irqrestore(&iwd_lock, flags);
}

/**
 * iwd_wire_stop - take the wire down, after the cm_ids and devices
 */
void iwd_wire_stop(void)
{
	struct iwd_ep *ep, *next;
	LIST_HEAD(eps);

	iwd_wire_release();
	flush_workqueue(iwd_wq);
	list_for_each_entry(ep, &iwd_eps, all)
		cancel_delayed_work_sync(&ep->mpa);
	flush_workqueue(iwd_wq);
	iwd_wire_drop_all(&eps);
	list_for_each_entry_safe(ep, next, &eps, all)
		kfree(ep);
	destroy_workqueue(iwd_wq);
}
