// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queues (cq.h): their verbs, and sr_cq_post(), the one call
 * through which the data path completes work.
 */
#include <linux/overflow.h>
#include "cq.h"
#include "dev.h"

/*
 * struct ibv_wc's wc_flags, as rdma-core's rxe provider hands them to
 * applications (libibverbs' enum ibv_wc_flags): not the kernel's
 * enum ib_wc_flags, which numbers IP_CSUM_OK and WITH_INVALIDATE the
 * other way round.
 */
#define SR_UWC_GRH		(1 << 0)
#define SR_UWC_WITH_IMM		(1 << 1)
#define SR_UWC_IP_CSUM_OK	(1 << 2)
#define SR_UWC_WITH_INV		(1 << 3)

static u32 sr_uwc_flags(int flags)
{
	return (flags & IB_WC_GRH ? SR_UWC_GRH : 0) |
	       (flags & IB_WC_WITH_IMM ? SR_UWC_WITH_IMM : 0) |
	       (flags & IB_WC_IP_CSUM_OK ? SR_UWC_IP_CSUM_OK : 0) |
	       (flags & IB_WC_WITH_INVALIDATE ? SR_UWC_WITH_INV : 0);
}

/**
 * sr_cq_to_uwc - a completion as a user's CQ holds it
 * @uwc: the user's CQE (struct ibv_wc's layout)
 * @wc: the completion; its qp, if set, gives the QP number
 *
 * Statuses and opcodes are numbered alike on both sides; the flags are
 * not.
 */
void sr_cq_to_uwc(struct ib_uverbs_wc *uwc, const struct ib_wc *wc)
{
	*uwc = (struct ib_uverbs_wc){
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.qp_num = wc->qp ? wc->qp->qp_num : 0,
		.src_qp = wc->src_qp,
		.wc_flags = sr_uwc_flags(wc->wc_flags),
		.pkey_index = wc->pkey_index,
		.slid = wc->slid,
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};
	if (wc->wc_flags & IB_WC_WITH_INVALIDATE)
		uwc->ex.invalidate_rkey = wc->ex.invalidate_rkey;
	else
		uwc->ex.imm_data = wc->ex.imm_data;
}

/* Reports a CQ's overflow to its owner, once. */
static void sr_cq_overflow(struct sr_cq *cq)
{
	struct ib_event ev = {
		.device = cq->ibcq.device,
		.element.cq = &cq->ibcq,
		.event = IB_EVENT_CQ_ERR,
	};

	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
}

/**
 * sr_cq_post - complete a work request
 * @cq: the CQ
 * @wc: the completion
 * @solicited: it completes a receive of a solicited message
 *
 * Puts @wc into the ring and, if the consumer asked for it
 * (req_notify_cq: the next completion, or the next solicited one), calls
 * its completion handler, once per arming.  A full ring is an overflow:
 * the completion is lost, the owner gets IB_EVENT_CQ_ERR (once), and the
 * CQ takes nothing more.
 *
 * Context: any; takes @cq->lock with interrupts off.
 * Return: 0, or -EOVERFLOW.
 */
int sr_cq_post(struct sr_cq *cq, const struct ib_wc *wc, bool solicited)
{
	bool overflow = false, wake = false;
	unsigned long flags;
	void *slot;

	spin_lock_irqsave(&cq->lock, flags);
	slot = cq->overflowed ? NULL : sr_queue_next(&cq->q);
	if (!slot) {
		overflow = !cq->overflowed;
		cq->overflowed = true;
	} else {
		if (cq->mm)
			sr_cq_to_uwc(slot, wc);
		else
			memcpy(slot, wc, sizeof(*wc));
		sr_queue_produced(&cq->q);
		wake = cq->notify == IB_CQ_NEXT_COMP ||
		       (cq->notify == IB_CQ_SOLICITED && solicited);
		if (wake)
			cq->notify = 0;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	if (overflow)
		sr_cq_overflow(cq);
	if (wake)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return slot ? 0 : -EOVERFLOW;
}

/* Bytes of one completion in a CQ's ring. */
static size_t sr_cqe_size(bool user)
{
	return user ? sizeof(struct ib_uverbs_wc) : sizeof(struct ib_wc);
}

/* A ring of @cqe completions, a user's offered to its mmap() (@mi). */
static int sr_cq_ring(struct sr_queue *q, struct sr_mmap **mm, int cqe,
		      struct ib_udata *udata, struct mminfo *mi)
{
	if (cqe < 1 || cqe > SR_MAX_CQE)
		return -EINVAL;
	return sr_ring_make(q, mm, cqe, sr_cqe_size(udata),
			    SR_QUEUE_USER_CONSUMES, udata, mi);
}

/**
 * sr_create_cq - the create_cq verb
 * @ibcq: the CQ the core allocated, its handlers and context set
 * @attr: cqe at least 1 and at most SR_MAX_CQE; no flags
 * @udata: a user's (the response is struct rxe_create_cq_resp: where to
 *	map the ring), or NULL for a kernel CQ
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL for a bad size, a response with no room for the
 * ring's place or a device that has max_cq CQs, -EOPNOTSUPP for flags,
 * -ENOMEM, or -EFAULT.
 */
int sr_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		 struct ib_udata *udata)
{
	struct sr_dev *sdev = to_sr_dev(ibcq->device);
	struct rxe_create_cq_resp resp = {};
	struct sr_cq *cq = to_sr_cq(ibcq);
	int ret;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	if (!sr_dev_take(&sdev->n_cq, SR_MAX_CQ))
		return -EINVAL;
	ret = sr_cq_ring(&cq->q, &cq->mm, attr->cqe, udata, &resp.mi);
	if (ret)
		goto err;
	spin_lock_init(&cq->lock);
	cq->notify = 0;
	cq->overflowed = false;
	ibcq->cqe = sr_queue_depth(&cq->q);
	if (udata && ib_copy_to_udata(udata, &resp, sizeof(resp))) {
		sr_queue_release(&cq->q, cq->mm);
		ret = -EFAULT;
		goto err;
	}
	return 0;

err:
	atomic_dec(&sdev->n_cq);
	return ret;
}

/**
 * sr_destroy_cq - the destroy_cq verb
 * @ibcq: the CQ; no QP uses it any longer (the core counts)
 * @udata: unused
 *
 * A user's mapping keeps the ring's pages until it is unmapped.
 *
 * Return: 0.
 */
int sr_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct sr_cq *cq = to_sr_cq(ibcq);

	sr_queue_release(&cq->q, cq->mm);
	atomic_dec(&to_sr_dev(ibcq->device)->n_cq);
	return 0;
}

/**
 * sr_resize_cq - the resize_cq verb
 * @ibcq: the CQ
 * @cqe: completions the new ring must hold, at least those not yet polled
 * @udata: a user's (response struct rxe_resize_cq_resp: where to map the
 *	new ring; the user holds its end still meanwhile, as rdma-core does),
 *	or NULL
 *
 * The completions not yet polled move to the new ring, oldest first.  A
 * user's mapping of the old ring keeps its pages until it is unmapped.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL for a bad size, one too small for what is waiting,
 * or a response with no room; -ENOMEM; -EFAULT.
 */
int sr_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rxe_resize_cq_resp resp = {};
	struct sr_cq *cq = to_sr_cq(ibcq);
	struct sr_mmap *mm;
	struct sr_queue q;
	unsigned long flags;
	int ret;

	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	ret = sr_cq_ring(&q, &mm, cqe, udata, &resp.mi);
	if (ret)
		return ret;
	/* Told first: a user sees no new ring unless the call succeeds */
	if (udata && ib_copy_to_udata(udata, &resp, sizeof(resp))) {
		ret = -EFAULT;
		goto out;
	}

	spin_lock_irqsave(&cq->lock, flags);
	/* Refused by what waits, not by what the rounded-up ring holds */
	if (sr_queue_depth(&cq->q) - sr_queue_room(&cq->q) > cqe)
		ret = -EINVAL;
	else
		ret = sr_queue_move(&q, &cq->q);
	if (!ret) {
		/* q and mm take the old ring's place, to be released below */
		swap(q, cq->q);
		swap(mm, cq->mm);
		ibcq->cqe = sr_queue_depth(&cq->q);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
out:
	/* The old ring, or the new one that did not take its place */
	sr_queue_release(&q, mm);
	return ret;
}

/**
 * sr_poll_cq - the poll_cq verb, for a kernel CQ
 * @ibcq: the CQ
 * @num_entries: the most completions to take
 * @wc: where to put them, oldest first
 *
 * Context: any.
 * Return: how many were taken, 0 if none was waiting.
 */
int sr_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct sr_cq *cq = to_sr_cq(ibcq);
	unsigned long flags;
	const void *slot;
	int n;

	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num_entries; n++) {
		slot = sr_queue_head(&cq->q);
		if (!slot)
			break;
		memcpy(&wc[n], slot, sizeof(*wc));
		sr_queue_consumed(&cq->q);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/**
 * sr_req_notify_cq - the req_notify_cq verb
 * @ibcq: the CQ
 * @flags: IB_CQ_NEXT_COMP or IB_CQ_SOLICITED, perhaps with
 *	IB_CQ_REPORT_MISSED_EVENTS
 *
 * Arms the completion handler for the next completion, or the next
 * solicited one; an arming for any completion is not narrowed by a later
 * one for solicited completions before it fires.
 *
 * Context: any.
 * Return: 1 if IB_CQ_REPORT_MISSED_EVENTS was asked and completions are
 * waiting (the consumer polls again rather than wait), else 0.
 */
int sr_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct sr_cq *cq = to_sr_cq(ibcq);
	u8 want = flags & IB_CQ_SOLICITED_MASK;
	unsigned long irqflags;
	int missed = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = want;
	if (flags & IB_CQ_REPORT_MISSED_EVENTS)
		missed = sr_queue_room(&cq->q) != sr_queue_depth(&cq->q);
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return missed;
}
