// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs (qp.h): their verbs, the control path only.
 */
#include <linux/overflow.h>
#include <linux/slab.h>
#include "comp.h"
#include "dev.h"
#include "qp.h"
#include "req.h"
#include "resp.h"
#include "srq.h"
#include "wire.h"

/*
 * What modify_qp takes: the standard attributes but alternate paths, path
 * migration, SQ drain notification and rate limits.
 */
#define SR_QP_ATTRS	(IB_QP_STATE | IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | \
			 IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY | \
			 IB_QP_AV | IB_QP_PATH_MTU | IB_QP_TIMEOUT | \
			 IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_RQ_PSN | \
			 IB_QP_MAX_QP_RD_ATOMIC | IB_QP_MIN_RNR_TIMER | \
			 IB_QP_SQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | \
			 IB_QP_CAP | IB_QP_DEST_QPN)

/* The QP types the device has, with sizes it can give. */
static int sr_qp_check_init(const struct ib_qp_init_attr *init)
{
	const struct ib_qp_cap *cap = &init->cap;

	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UC &&
	    init->qp_type != IB_QPT_UD && init->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	if (init->create_flags)
		return -EOPNOTSUPP;
	if (cap->max_send_wr > SR_MAX_QP_WR || cap->max_send_sge > SR_MAX_SGE ||
	    cap->max_inline_data > SR_MAX_INLINE)
		return -EINVAL;
	if (!init->srq && (cap->max_recv_wr > SR_MAX_QP_WR ||
			   cap->max_recv_sge > SR_MAX_SGE))
		return -EINVAL;
	return 0;
}

/* The QP's work item (sr_qp.work), on the system workqueue. */
static void sr_qp_work(struct work_struct *work)
{
	struct sr_qp *qp = container_of(work, struct sr_qp, work);

	sr_req_run(qp);
	if (sr_qp_state(qp) == IB_QPS_ERR)
		sr_resp_flush(qp);
}

/* A ring of @n WQEs (at least one) of @size bytes, a user's mapped. */
static int sr_qp_ring(struct sr_queue *q, struct sr_mmap **mm, u32 n,
		      size_t size, struct ib_udata *udata, struct mminfo *mi)
{
	return sr_ring_make(q, mm, max_t(u32, n, 1), size,
			    SR_QUEUE_USER_PRODUCES, udata, mi);
}

/*
 * The send queue, its slots sized for the scatter entries and inline data
 * asked for; what a slot holds is what the QP then has (@cap updated).
 */
static int sr_qp_sq(struct sr_qp *qp, struct ib_qp_cap *cap,
		    struct ib_udata *udata, struct mminfo *mi)
{
	size_t data = max_t(size_t, cap->max_send_sge * sizeof(struct rxe_sge),
			    cap->max_inline_data);
	int ret;

	ret = sr_qp_ring(&qp->sq, &qp->sq_mm, cap->max_send_wr,
			 sizeof(struct rxe_send_wqe) + data, udata, mi);
	if (ret)
		return ret;
	data = sr_queue_elem(&qp->sq) - sizeof(struct rxe_send_wqe);
	qp->max_send_sge = min_t(size_t, data / sizeof(struct rxe_sge),
				 SR_MAX_SGE);
	qp->max_inline = min_t(size_t, data, SR_MAX_INLINE);
	cap->max_send_wr = sr_queue_depth(&qp->sq);
	cap->max_send_sge = qp->max_send_sge;
	cap->max_inline_data = qp->max_inline;
	return 0;
}

/* The receive queue, unless the QP takes its WQEs from an SRQ. */
static int sr_qp_rq(struct sr_qp *qp, struct ib_qp_init_attr *init,
		    struct ib_udata *udata, struct mminfo *mi)
{
	struct ib_qp_cap *cap = &init->cap;
	int ret;

	if (init->srq) {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
		qp->srq_wqe = kmalloc(sr_rwqe_size(to_sr_srq(init->srq)->max_sge),
				      GFP_KERNEL);
		return qp->srq_wqe ? 0 : -ENOMEM;
	}
	qp->max_recv_sge = max_t(u32, cap->max_recv_sge, 1);
	ret = sr_qp_ring(&qp->rq, &qp->rq_mm, cap->max_recv_wr,
			 struct_size((struct rxe_recv_wqe *)NULL, dma.sge,
				     qp->max_recv_sge), udata, mi);
	if (ret)
		return ret;
	cap->max_recv_wr = sr_queue_depth(&qp->rq);
	cap->max_recv_sge = qp->max_recv_sge;
	return 0;
}

static void sr_qp_free_rings(struct sr_qp *qp)
{
	sr_queue_release(&qp->sq, qp->sq_mm);
	if (!qp->ibqp.srq)
		sr_queue_release(&qp->rq, qp->rq_mm);
	kfree(qp->srq_wqe);
	kvfree(qp->sends);
}

/*
 * A number for @qp in the device's table, reserved: packets find the QP
 * only once it is whole (xa_store() in sr_create_qp()).
 */
static int sr_qp_number(struct sr_dev *sdev, struct sr_qp *qp)
{
	u32 qpn;
	int ret;

	/* The GSI QP is QP1; the port has one */
	if (qp->ibqp.qp_type == IB_QPT_GSI) {
		ret = xa_insert(&sdev->qps, SR_QPN_GSI, NULL, GFP_KERNEL);
		if (ret)
			return ret == -EBUSY ? -EINVAL : ret;
		qp->ibqp.qp_num = SR_QPN_GSI;
		return 0;
	}
	ret = xa_alloc_cyclic(&sdev->qps, &qpn, NULL,
			      XA_LIMIT(SR_QPN_FIRST, SR_QPN_LAST),
			      &sdev->next_qpn, GFP_KERNEL);
	if (ret < 0)
		return ret == -EBUSY ? -EINVAL : ret;
	qp->ibqp.qp_num = qpn;
	return 0;
}

/**
 * sr_create_qp - the create_qp verb
 * @ibqp: the QP the core allocated, its type, PD, CQs and SRQ set
 * @init: an RC, UC, UD or GSI QP with no create flags, its sizes within
 *	the device's; the sizes are set to what the QP has
 * @udata: a user's (response struct rxe_create_qp_resp: where to map the
 *	rings), or NULL
 *
 * The QP starts in RESET on port 1 with P_Key index 0.  The GSI QP (the
 * MAD layer's) is QP1.
 *
 * Context: process context, may sleep.
 * Return: 0; -EOPNOTSUPP for another type or create flags; -EINVAL for a
 * size beyond the device's, a response with no room, a second GSI QP, or
 * a device that has max_qp QPs; -ENOMEM; -EFAULT.
 */
int sr_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		 struct ib_udata *udata)
{
	struct sr_dev *sdev = to_sr_dev(ibqp->device);
	struct rxe_create_qp_resp resp = {};
	struct sr_qp *qp = to_sr_qp(ibqp);
	int ret;

	ret = sr_qp_check_init(init);
	if (ret)
		return ret;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	if (!sr_dev_take(&sdev->n_qp, SR_MAX_QP))
		return -EINVAL;
	ret = sr_qp_sq(qp, &init->cap, udata, &resp.sq_mi);
	if (ret)
		goto err_count;
	ret = sr_qp_rq(qp, init, udata, &resp.rq_mi);
	if (ret)
		goto err_sq;
	/* RC and UC: the kernel's state of each send WQE (req.h) */
	if (init->qp_type == IB_QPT_RC || init->qp_type == IB_QPT_UC) {
		qp->sends = kvcalloc(sr_queue_depth(&qp->sq) + 1,
				     sizeof(*qp->sends), GFP_KERNEL);
		if (!qp->sends) {
			ret = -ENOMEM;
			goto err_rq;
		}
	}
	refcount_set(&qp->ref, 1);
	init_completion(&qp->unused);
	spin_lock_init(&qp->lock);
	spin_lock_init(&qp->sq_lock);
	spin_lock_init(&qp->rq_lock);
	spin_lock_init(&qp->req_lock);
	spin_lock_init(&qp->resp_lock);
	INIT_WORK(&qp->work, sr_qp_work);
	sr_comp_init(qp);
	qp->state = IB_QPS_RESET;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->attr = (struct ib_qp_attr){ .port_num = 1 };
	ret = sr_qp_number(sdev, qp);
	if (ret)
		goto err_rq;
	if (udata && ib_copy_to_udata(udata, &resp, sizeof(resp))) {
		ret = -EFAULT;
		xa_erase(&sdev->qps, ibqp->qp_num);
		goto err_rq;
	}
	/* The slot is reserved: storing allocates nothing, cannot fail */
	xa_store(&sdev->qps, ibqp->qp_num, qp, GFP_KERNEL);
	return 0;

err_rq:
	if (!init->srq)
		sr_queue_release(&qp->rq, qp->rq_mm);
	kfree(qp->srq_wqe);
	kvfree(qp->sends);
err_sq:
	sr_queue_release(&qp->sq, qp->sq_mm);
err_count:
	atomic_dec(&sdev->n_qp);
	return ret;
}

/* The values modify_qp would set, checked before anything changes. */
static int sr_qp_check_attr(const struct ib_qp_attr *attr, int mask)
{
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > SR_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > SR_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > SR_QPN_LAST)
		return -EINVAL;
	return 0;
}

/* Stores the attributes @mask names into @qp. */
static void sr_qp_store(struct sr_qp *qp, const struct ib_qp_attr *attr,
			int mask)
{
	struct ib_qp_attr *a = &qp->attr;

	if (mask & IB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_QKEY)
		a->qkey = attr->qkey;
	if (mask & IB_QP_AV) {
		a->ah_attr = attr->ah_attr;
		/* The core holds the source GID; the path is qp->av */
		a->ah_attr.grh.sgid_attr = NULL;
	}
	if (mask & IB_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_RQ_PSN) {
		a->rq_psn = attr->rq_psn & SR_PSN_MASK;
		/* Set on the way to RTR, before the responder runs */
		qp->resp_psn = a->rq_psn;
	}
	if (mask & IB_QP_SQ_PSN) {
		a->sq_psn = attr->sq_psn & SR_PSN_MASK;
		/* Set on the way to RTS, before the requester runs */
		qp->req_psn = a->sq_psn;
	}
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_DEST_QPN)
		a->dest_qp_num = attr->dest_qp_num;
}

/*
 * What a new state does to the work queued: RESET empties the rings at
 * both ends, ERR flushes what waits (and the requester and responder
 * flush what comes after).
 */
static void sr_qp_entered(struct sr_qp *qp, enum ib_qp_state state)
{
	if (state == IB_QPS_RESET) {
		spin_lock_bh(&qp->req_lock);
		sr_queue_reset(&qp->sq);
		if (qp->sends) {
			sr_comp_stop(qp);
			memset(qp->sends, 0, sizeof(*qp->sends) *
			       (sr_queue_depth(&qp->sq) + 1));
			qp->req_next = 0;
		}
		spin_unlock_bh(&qp->req_lock);
		spin_lock_bh(&qp->resp_lock);
		if (!qp->ibqp.srq)
			sr_queue_reset(&qp->rq);
		sr_resp_end(qp);
		memset(qp->resp_atomics, 0, sizeof(qp->resp_atomics));
		spin_unlock_bh(&qp->resp_lock);
	} else if (state == IB_QPS_ERR) {
		sr_req_run(qp);
		sr_resp_flush(qp);
	} else if (state == IB_QPS_RTS && qp->sends) {
		spin_lock_bh(&qp->req_lock);
		sr_comp_start(qp);
		spin_unlock_bh(&qp->req_lock);
	}
}

/**
 * sr_modify_qp - the modify_qp verb
 * @ibqp: the QP
 * @attr: the attributes
 * @mask: which of them; a transition the specification allows, with the
 *	attributes it requires and no others (ib_modify_qp_is_ok())
 * @udata: a user's, unused
 *
 * A move to RESET empties the rings, one to ERR flushes them.  The
 * drained states (SQD, SQE),
 * alternate paths, path migration and rate limits are not supported.
 *
 * Context: process context.
 * Return: 0; -EOPNOTSUPP for what is not supported; -EINVAL for a
 * transition or attribute the QP cannot take.
 */
int sr_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_udata *udata)
{
	struct sr_qp *qp = to_sr_qp(ibqp);
	enum ib_qp_state cur, next;
	unsigned long flags;
	struct sr_av av;
	int ret;

	if (mask & ~SR_QP_ATTRS)
		return -EOPNOTSUPP;
	ret = sr_qp_check_attr(attr, mask);
	if (ret)
		return ret;
	if (mask & IB_QP_AV) {
		ret = sr_av_from_attr(&av, &attr->ah_attr);
		if (ret)
			return ret;
	}
	spin_lock_irqsave(&qp->lock, flags);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (next == IB_QPS_SQD || next == IB_QPS_SQE) {
		ret = -EOPNOTSUPP;
	} else if (cur != qp->state ||
		   !ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask)) {
		ret = -EINVAL;
	} else {
		sr_qp_store(qp, attr, mask);
		if (mask & IB_QP_AV)
			qp->av = av;
		/* The attributes before the state: sr_qp_state() */
		smp_store_release(&qp->state, next);
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (!ret && next != cur)
		sr_qp_entered(qp, next);
	return ret;
}

/**
 * sr_query_qp - the query_qp verb
 * @ibqp: the QP
 * @attr: set to its state and attributes
 * @mask: unused: everything is set
 * @init: set to what it was made with, its sizes as it has them
 *
 * Return: 0.
 */
int sr_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		struct ib_qp_init_attr *init)
{
	struct sr_qp *qp = to_sr_qp(ibqp);
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	spin_unlock_irqrestore(&qp->lock, flags);
	attr->cap = (struct ib_qp_cap){
		.max_send_wr = sr_queue_depth(&qp->sq),
		.max_send_sge = qp->max_send_sge,
		.max_inline_data = qp->max_inline,
		.max_recv_wr = ibqp->srq ? 0 : sr_queue_depth(&qp->rq),
		.max_recv_sge = ibqp->srq ? 0 : qp->max_recv_sge,
	};
	*init = (struct ib_qp_init_attr){
		.qp_type = ibqp->qp_type,
		.send_cq = ibqp->send_cq,
		.recv_cq = ibqp->recv_cq,
		.srq = ibqp->srq,
		.cap = attr->cap,
		.sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
						IB_SIGNAL_REQ_WR,
		.port_num = 1,
	};
	return 0;
}

/**
 * sr_destroy_qp - the destroy_qp verb
 * @ibqp: the QP
 * @udata: unused
 *
 * Takes the QP out of the table and waits until the data path no longer
 * uses it: the core frees it when this returns.  A user's mappings keep
 * the rings' pages until they are unmapped.
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int sr_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sr_dev *sdev = to_sr_dev(ibqp->device);
	struct sr_qp *qp = to_sr_qp(ibqp);

	xa_erase(&sdev->qps, ibqp->qp_num);
	/* No lookup is left between finding the QP and taking it */
	synchronize_rcu();
	if (!refcount_dec_and_test(&qp->ref))
		wait_for_completion(&qp->unused);
	/* Only now: a packet being received may have armed or queued them */
	sr_comp_destroy(qp);
	cancel_work_sync(&qp->work);
	sr_resp_end(qp);
	sr_qp_free_rings(qp);
	atomic_dec(&sdev->n_qp);
	return 0;
}

/**
 * sr_qp_get - the QP a packet names
 * @sdev: the device
 * @qpn: the packet's destination QP
 *
 * Context: any.
 * Return: the QP, held (sr_qp_put()), or NULL if the device has none of
 * that number.
 */
struct sr_qp *sr_qp_get(struct sr_dev *sdev, u32 qpn)
{
	struct sr_qp *qp;

	rcu_read_lock();
	qp = xa_load(&sdev->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->ref))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

/**
 * sr_qp_put - done with a QP sr_qp_get() gave
 * @qp: the QP
 *
 * Context: any.
 */
void sr_qp_put(struct sr_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->unused);
}

/**
 * sr_qp_to_err - move a QP to ERR, the data path having failed a request
 * @qp: the QP
 *
 * Context: any.
 * Return: true if it was not in ERR (the caller flushes what waits).
 */
bool sr_qp_to_err(struct sr_qp *qp)
{
	unsigned long flags;
	bool moved;

	spin_lock_irqsave(&qp->lock, flags);
	moved = qp->state != IB_QPS_ERR;
	/* Pairs with sr_qp_state(), as in sr_modify_qp() */
	smp_store_release(&qp->state, IB_QPS_ERR);
	spin_unlock_irqrestore(&qp->lock, flags);
	return moved;
}
