// SPDX-License-Identifier: GPL-2.0
/*
 * Shared receive queues (srq.h): their verbs, a kernel consumer's posts,
 * and the responders' taking of WQEs, which reports the limit.
 */
#include <linux/uaccess.h>
#include "dev.h"
#include "post.h"
#include "srq.h"

/* A ring of @max_wr WQEs for @srq, a user's offered to mmap() (@mi). */
static int sr_srq_ring(struct sr_srq *srq, struct sr_queue *q,
		       struct sr_mmap **mm, u32 max_wr, struct ib_udata *udata,
		       struct mminfo *mi)
{
	if (!max_wr || max_wr > SR_MAX_SRQ_WR)
		return -EINVAL;
	return sr_ring_make(q, mm, max_wr, sr_rwqe_size(srq->max_sge),
			    SR_QUEUE_USER_PRODUCES, udata, mi);
}

/* WQEs waiting in @srq. */
static u32 sr_srq_count(const struct sr_srq *srq)
{
	const struct sr_queue *q = &srq->q;

	if (q->user == SR_QUEUE_USER_PRODUCES)
		return sr_queue_count(q);
	return sr_queue_depth(q) - sr_queue_room(q);
}

/**
 * sr_create_srq - the create_srq verb
 * @ibsrq: the SRQ the core allocated
 * @init: a basic SRQ (no XRC, no tag matching), max_wr 1 to SR_MAX_SRQ_WR,
 *	max_sge up to SR_MAX_SRQ_SGE, srq_limit not above max_wr; max_wr
 *	and max_sge are set to what the SRQ has
 * @udata: a user's (response struct rxe_create_srq_resp: where to map the
 *	ring), or NULL
 *
 * Context: process context, may sleep.
 * Return: 0; -EOPNOTSUPP for another SRQ type, -EINVAL for a bad size, a
 * response with no room or a device that has max_srq SRQs, -ENOMEM,
 * -EFAULT.
 */
int sr_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		  struct ib_udata *udata)
{
	struct sr_dev *sdev = to_sr_dev(ibsrq->device);
	struct rxe_create_srq_resp resp = {};
	struct sr_srq *srq = to_sr_srq(ibsrq);
	struct ib_srq_attr *attr = &init->attr;
	int ret;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (attr->max_sge > SR_MAX_SRQ_SGE || attr->srq_limit > attr->max_wr)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	if (!sr_dev_take(&sdev->n_srq, SR_MAX_SRQ))
		return -EINVAL;
	srq->max_sge = max_t(u32, attr->max_sge, 1);
	ret = sr_srq_ring(srq, &srq->q, &srq->mm, attr->max_wr, udata,
			  &resp.mi);
	if (ret)
		goto err;
	spin_lock_init(&srq->lock);
	srq->limit = attr->srq_limit;
	attr->max_wr = sr_queue_depth(&srq->q);
	attr->max_sge = srq->max_sge;
	if (udata && ib_copy_to_udata(udata, &resp, sizeof(resp))) {
		sr_queue_release(&srq->q, srq->mm);
		ret = -EFAULT;
		goto err;
	}
	return 0;

err:
	atomic_dec(&sdev->n_srq);
	return ret;
}

/* A resize to @max_wr: what waits moves to the new ring, oldest first. */
static int sr_srq_resize(struct sr_srq *srq, u32 max_wr,
			 struct ib_udata *udata)
{
	struct rxe_modify_srq_cmd cmd = {};
	struct mminfo mi = {};
	unsigned long flags;
	struct sr_mmap *mm;
	struct sr_queue q;
	int ret;

	if (udata) {
		if (udata->inlen < sizeof(cmd))
			return -EINVAL;
		ret = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
		if (ret)
			return ret;
	}
	ret = sr_srq_ring(srq, &q, &mm, max_wr, udata, &mi);
	if (ret)
		return ret;
	/* Told first: a user sees no new ring unless the call succeeds */
	if (udata && copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &mi,
				  sizeof(mi))) {
		ret = -EFAULT;
		goto out;
	}
	spin_lock_irqsave(&srq->lock, flags);
	if (sr_srq_count(srq) > max_wr || srq->limit > max_wr) {
		ret = -EINVAL;
	} else {
		ret = sr_queue_move(&q, &srq->q);
		if (!ret) {
			/* q and mm take the old ring's place, released below */
			swap(q, srq->q);
			swap(mm, srq->mm);
		}
	}
	spin_unlock_irqrestore(&srq->lock, flags);
out:
	sr_queue_release(&q, mm);
	return ret;
}

/**
 * sr_modify_srq - the modify_srq verb
 * @ibsrq: the SRQ
 * @attr: the new max_wr (IB_SRQ_MAX_WR: a resize) and srq_limit
 *	(IB_SRQ_LIMIT: armed, or disarmed by 0)
 * @mask: which of them
 * @udata: a user's; a resize's command (struct rxe_modify_srq_cmd) says
 *	where to write the new ring's place
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL for a limit above the SRQ's size, a size below what
 * waits or the limit, or another attribute; -ENOMEM; -EFAULT.
 */
int sr_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		  enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct sr_srq *srq = to_sr_srq(ibsrq);
	unsigned long flags;
	int ret;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR) {
		ret = sr_srq_resize(srq, attr->max_wr, udata);
		if (ret)
			return ret;
	}
	if (mask & IB_SRQ_LIMIT) {
		spin_lock_irqsave(&srq->lock, flags);
		ret = attr->srq_limit > sr_queue_depth(&srq->q) ? -EINVAL : 0;
		if (!ret)
			srq->limit = attr->srq_limit;
		spin_unlock_irqrestore(&srq->lock, flags);
		return ret;
	}
	return 0;
}

/**
 * sr_query_srq - the query_srq verb
 * @ibsrq: the SRQ
 * @attr: set to its size, scatter entries and armed limit
 *
 * Return: 0.
 */
int sr_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct sr_srq *srq = to_sr_srq(ibsrq);
	unsigned long flags;

	spin_lock_irqsave(&srq->lock, flags);
	attr->max_wr = sr_queue_depth(&srq->q);
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_irqrestore(&srq->lock, flags);
	return 0;
}

/**
 * sr_destroy_srq - the destroy_srq verb
 * @ibsrq: the SRQ; no QP uses it any longer (the core counts)
 * @udata: unused
 *
 * Return: 0.
 */
int sr_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct sr_srq *srq = to_sr_srq(ibsrq);

	sr_queue_release(&srq->q, srq->mm);
	atomic_dec(&to_sr_dev(ibsrq->device)->n_srq);
	return 0;
}

/**
 * sr_post_srq_recv - the post_srq_recv verb, for a kernel SRQ
 * @ibsrq: the SRQ
 * @wr: a chain of receive work requests
 * @bad_wr: set to the first one not posted, on failure
 *
 * Context: any.
 * Return: 0; -EINVAL for more scatter entries than the SRQ has, -ENOMEM
 * when the ring is full.
 */
int sr_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		     const struct ib_recv_wr **bad_wr)
{
	struct sr_srq *srq = to_sr_srq(ibsrq);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&srq->lock, flags);
	ret = sr_post_recvs(&srq->q, srq->max_sge, wr, bad_wr);
	spin_unlock_irqrestore(&srq->lock, flags);
	return ret;
}

/* Reports that the WQEs waiting fell below the armed limit. */
static void sr_srq_limit_reached(struct sr_srq *srq)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.element.srq = &srq->ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
}

/**
 * sr_srq_take - take the oldest WQE of an SRQ, for a responder
 * @srq: the SRQ
 * @wqe: where to copy it: sr_rwqe_size() of the SRQ's max_sge bytes (the
 *	producer may reuse the slot as soon as it is taken)
 *
 * When the WQEs left fall below the armed limit, the limit is disarmed
 * and IB_EVENT_SRQ_LIMIT_REACHED reported.
 *
 * Context: any.
 * Return: true if a WQE was taken.
 */
bool sr_srq_take(struct sr_srq *srq, struct rxe_recv_wqe *wqe)
{
	bool reached = false;
	unsigned long flags;
	const void *slot;

	spin_lock_irqsave(&srq->lock, flags);
	slot = sr_queue_head(&srq->q);
	if (slot) {
		memcpy(wqe, slot, sr_rwqe_size(srq->max_sge));
		sr_queue_consumed(&srq->q);
		if (srq->limit && sr_srq_count(srq) < srq->limit) {
			srq->limit = 0;
			reached = true;
		}
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	if (reached)
		sr_srq_limit_reached(srq);
	return slot;
}
