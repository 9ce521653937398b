// SPDX-License-Identifier: GPL-2.0
/*
 * The completer (comp.h), under the send side's lock (req_lock): in the
 * softirq of each ACK or NAK, and in the requester's runs for the timer.
 *
 * The SQ's consumer index is the completer's: a WQE leaves the ring when
 * the ACK that covers its last PSN arrives, so the user cannot reuse a
 * slot whose message may still have to be sent again.  One timer per QP:
 * armed by the first packet sent while it is idle and moved only when an
 * ACK makes progress (a stream of sends never postpones it); it fires
 * while anything sent is unacknowledged, and then the requester goes back
 * to the oldest unacknowledged PSN, retry_cnt times before the WQE fails.
 * An RNR NAK uses the same timer to wait before sending again.
 */
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/udp.h>
#include "comp.h"
#include "counters.h"
#include "dev.h"
#include "qp.h"
#include "req.h"
#include "wire.h"

/* rnr_retry's value that means for ever */
#define SR_RNR_FOREVER	7

/* The QP's timer: the requester's next run deals with it. */
static void sr_comp_timer(struct timer_list *t)
{
	struct sr_qp *qp = from_timer(qp, t, timer);

	set_bit(SR_REQ_TIMER, &qp->req_flags);
	queue_work(system_wq, &qp->work);
}

/**
 * sr_comp_init - set up a QP's completer when the QP is made
 * @qp: the QP
 */
void sr_comp_init(struct sr_qp *qp)
{
	timer_setup(&qp->timer, sr_comp_timer, 0);
}

/**
 * sr_comp_start - a QP enters RTS: nothing is outstanding
 * @qp: the QP, its sq_psn, retry_cnt and rnr_retry set
 *
 * Context: req_lock held.
 */
void sr_comp_start(struct sr_qp *qp)
{
	qp->comp_psn = qp->req_psn;
	qp->sent_psn = qp->req_psn;
	qp->retries = qp->attr.retry_cnt;
	qp->rnr_retries = qp->attr.rnr_retry;
	qp->rnr_wait = false;
}

/**
 * sr_comp_stop - nothing more is to be sent (ERR, RESET)
 * @qp: the QP
 *
 * Context: req_lock held.
 */
void sr_comp_stop(struct sr_qp *qp)
{
	del_timer(&qp->timer);
	qp->rnr_wait = false;
}

/**
 * sr_comp_destroy - the QP goes: its timer is stopped for good
 * @qp: the QP; no packet and no requester run uses it any longer
 *
 * Context: process context.
 */
void sr_comp_destroy(struct sr_qp *qp)
{
	del_timer_sync(&qp->timer);
}

/* Something sent is not acknowledged. */
static bool sr_comp_outstanding(const struct sr_qp *qp)
{
	return qp->comp_psn != qp->sent_psn;
}

/**
 * sr_comp_may_send - may the requester send (not waiting out an RNR NAK)?
 * @qp: the QP
 */
bool sr_comp_may_send(const struct sr_qp *qp)
{
	return !qp->rnr_wait;
}

/* (Re)starts the timer for the QP's timeout, if it has one. */
static void sr_comp_restart(struct sr_qp *qp)
{
	u64 ns = sr_ack_timeout_ns(qp->attr.timeout);

	if (ns)
		mod_timer(&qp->timer, jiffies + nsecs_to_jiffies(ns) + 1);
}

/**
 * sr_comp_arm - make sure the timer runs (it does not move if it does)
 * @qp: the QP, with something to send or sent
 *
 * Context: req_lock held.
 */
void sr_comp_arm(struct sr_qp *qp)
{
	if (!timer_pending(&qp->timer))
		sr_comp_restart(qp);
}

/**
 * sr_comp_sent - the requester sent a packet
 * @qp: the QP
 * @psn: its PSN
 *
 * Context: req_lock held.
 */
void sr_comp_sent(struct sr_qp *qp, u32 psn)
{
	if (sr_psn_diff(sr_psn_add(psn, 1), qp->sent_psn) > 0)
		qp->sent_psn = sr_psn_add(psn, 1);
	sr_comp_arm(qp);
}

/* The WQE in the SQ's oldest slot. */
static struct sr_send *sr_comp_head(struct sr_qp *qp)
{
	return &qp->sends[qp->sq.cons & qp->sq.mask];
}

/* Retires the oldest WQE with @status. */
static void sr_comp_retire(struct sr_qp *qp, enum ib_wc_status status)
{
	struct sr_send *s = sr_comp_head(qp);
	bool at = qp->req_next == qp->sq.cons;

	sr_req_pop(qp, s, status);
	if (at)
		qp->req_next = qp->sq.cons;
}

/* The oldest WQE failed: it completes so, and the QP goes to ERR. */
static void sr_comp_fail(struct sr_qp *qp, enum ib_wc_status status)
{
	if (sr_queue_head(&qp->sq) && sr_comp_head(qp)->npkts)
		sr_comp_retire(qp, status);
	sr_comp_stop(qp);
	sr_req_failed(qp);
}

/* An atomic WQE. */
static bool sr_comp_is_atomic(u32 wr_opcode)
{
	return wr_opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
	       wr_opcode == IB_WR_ATOMIC_FETCH_AND_ADD;
}

static void sr_comp_rewind(struct sr_qp *qp, u32 psn);

/*
 * Everything up to and with @psn arrived: retire what it covers.  A read
 * it covers whose responses did not all come lost them: it is asked for
 * again from the first missing one (its retirement is the responses').
 */
static void sr_comp_ack(struct sr_qp *qp, u32 psn)
{
	struct sr_send *s;

	while (sr_queue_head(&qp->sq)) {
		s = sr_comp_head(qp);
		if (!s->npkts ||
		    sr_psn_diff(sr_psn_add(s->first_psn, s->npkts - 1),
				psn) > 0)
			break;
		/* Answered with data, or lost: see above */
		if (s->w.wr.opcode == IB_WR_RDMA_READ ||
		    sr_comp_is_atomic(s->w.wr.opcode)) {
			sr_comp_rewind(qp, qp->comp_psn);
			return;
		}
		sr_comp_retire(qp, IB_WC_SUCCESS);
	}
	if (sr_psn_diff(sr_psn_add(psn, 1), qp->comp_psn) <= 0)
		return;
	/* Progress */
	qp->comp_psn = sr_psn_add(psn, 1);
	qp->retries = qp->attr.retry_cnt;
	if (sr_comp_outstanding(qp))
		sr_comp_restart(qp);
	else
		del_timer(&qp->timer);
}

/* The requester sends again from @psn on. */
static void sr_comp_rewind(struct sr_qp *qp, u32 psn)
{
	u32 i = qp->sq.cons, n = sr_queue_count(&qp->sq);
	bool found = false;
	struct sr_send *s;
	s32 d;

	for (; n--; i = (i + 1) & qp->sq.mask) {
		s = &qp->sends[i & qp->sq.mask];
		if (!s->npkts)
			break;
		d = sr_psn_diff(psn, s->first_psn);
		if (found) {
			s->next = 0;
		} else if (d >= 0 && d < s->npkts) {
			s->next = d;
			qp->req_next = i;
			found = true;
		}
	}
}

/**
 * sr_comp_timer_fired - the QP's timer fired (the requester saw its bit)
 * @qp: the QP
 *
 * The end of an RNR wait, or a timeout: everything unacknowledged is sent
 * again, retry_cnt times; then the oldest WQE fails.
 *
 * Context: req_lock held.
 */
void sr_comp_timer_fired(struct sr_qp *qp)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);

	if (qp->rnr_wait) {
		qp->rnr_wait = false;
		return;
	}
	if (!sr_comp_outstanding(qp))
		return;
	if (!qp->retries) {
		sr_count(&sdev->counters, SR_RETRY_EXCEEDED_ERR);
		sr_comp_fail(qp, IB_WC_RETRY_EXC_ERR);
		return;
	}
	qp->retries--;
	sr_count(&sdev->counters, SR_COMPLETER_RETRY_ERR);
	sr_comp_rewind(qp, qp->comp_psn);
}

/* An RNR NAK for @psn: wait the time it asks, then send from @psn. */
static void sr_comp_rnr(struct sr_qp *qp, u32 psn, u8 code)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);

	sr_count(&sdev->counters, SR_RCVD_RNR_ERR);
	if (qp->attr.rnr_retry != SR_RNR_FOREVER) {
		if (!qp->rnr_retries) {
			sr_count(&sdev->counters, SR_RETRY_RNR_EXCEEDED_ERR);
			sr_comp_fail(qp, IB_WC_RNR_RETRY_EXC_ERR);
			return;
		}
		qp->rnr_retries--;
	}
	sr_comp_rewind(qp, psn);
	qp->rnr_wait = true;
	mod_timer(&qp->timer,
		  jiffies + usecs_to_jiffies(sr_rnr_timer_us(code)) + 1);
}

/* A NAK for @psn; what came before it arrived. */
static void sr_comp_nak(struct sr_qp *qp, u32 psn, u8 syndrome)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);

	if (psn != qp->comp_psn)
		sr_comp_ack(qp, sr_psn_add(psn, -1));
	if ((syndrome & SR_AETH_TYPE) == SR_AETH_RNR) {
		sr_comp_rnr(qp, psn, syndrome & SR_AETH_VALUE);
		return;
	}
	switch (syndrome & SR_AETH_VALUE) {
	case SR_NAK_PSN_SEQ:
		sr_count(&sdev->counters, SR_RCVD_SEQ_ERR);
		sr_comp_rewind(qp, psn);
		break;
	case SR_NAK_INVALID_REQ:
		sr_comp_fail(qp, IB_WC_REM_INV_REQ_ERR);
		break;
	case SR_NAK_REMOTE_ACCESS:
		sr_comp_fail(qp, IB_WC_REM_ACCESS_ERR);
		break;
	default:
		sr_comp_fail(qp, IB_WC_REM_OP_ERR);
		break;
	}
}

/*
 * An answer with data came for @psn, the oldest unacknowledged: progress,
 * as an ACK's; the oldest WQE retires if @done.
 */
static void sr_comp_answered(struct sr_qp *qp, u32 psn, bool done)
{
	qp->comp_psn = sr_psn_add(psn, 1);
	qp->retries = qp->attr.retry_cnt;
	if (done)
		sr_comp_retire(qp, IB_WC_SUCCESS);
	if (sr_comp_outstanding(qp))
		sr_comp_restart(qp);
	else
		del_timer(&qp->timer);
}

/*
 * A read response at the oldest unacknowledged PSN, which the oldest WQE,
 * a read, awaits: its payload placed, the read retired with its last.
 * False if it is not one (it is dropped).
 */
static bool sr_comp_read_resp(struct sr_qp *qp, const struct sk_buff *skb,
			      const struct sr_pkt *pkt)
{
	u32 mtu = ib_mtu_enum_to_int(qp->attr.path_mtu);
	const struct rxe_send_wqe *slot = sr_queue_head(&qp->sq);
	struct sr_send *s = sr_comp_head(qp);
	enum ib_wc_status status;
	u32 i, off, last;

	if (!slot || !s->npkts || s->w.wr.opcode != IB_WR_RDMA_READ)
		return false;
	i = sr_psn_diff(pkt->psn, s->first_psn);
	if (i >= s->npkts)
		return false;
	off = i * mtu;
	last = i + 1 == s->npkts;
	/*
	 * A response carries the MTU, the read's last one the rest, exactly.
	 * (FIRST marks the first response to a request, which may have been
	 * a read asked for again from the middle.)
	 */
	if (pkt->paylen != (last ? s->len - off : mtu) ||
	    !(pkt->oi->flags & SR_LAST) != !last)
		return false;
	status = sr_req_scatter(qp, &s->w, slot, NULL, skb,
				sizeof(struct udphdr) + pkt->oi->hlen, off,
				pkt->paylen);
	if (status != IB_WC_SUCCESS) {
		sr_comp_fail(qp, status);
		return true;
	}
	/* The read retires with its last response */
	sr_comp_answered(qp, pkt->psn, last);
	return true;
}

/* The started WQE whose PSNs hold @psn, or NULL. */
static struct sr_send *sr_comp_find(struct sr_qp *qp, u32 psn)
{
	u32 i = qp->sq.cons, n = sr_queue_count(&qp->sq);
	struct sr_send *s;
	s32 d;

	for (; n--; i = (i + 1) & qp->sq.mask) {
		s = &qp->sends[i];
		if (!s->npkts)
			break;
		d = sr_psn_diff(psn, s->first_psn);
		if (d >= 0 && d < s->npkts)
			return s;
	}
	return NULL;
}

/* The atomic's answer: its original value, in the CPU's order, placed. */
static bool sr_comp_atomic_ack(struct sr_qp *qp, const struct sr_pkt *pkt)
{
	const struct sr_atmack *ack = sr_ext(pkt->bth, pkt->oi, SR_ATMACK);
	const struct rxe_send_wqe *slot = sr_queue_head(&qp->sq);
	struct sr_send *s = sr_comp_head(qp);
	u64 orig = be64_to_cpu(ack->orig);
	enum ib_wc_status status;

	status = sr_req_scatter(qp, &s->w, slot, &orig, NULL, 0, 0,
				sizeof(orig));
	if (status != IB_WC_SUCCESS)
		sr_comp_fail(qp, status);
	else
		sr_comp_answered(qp, pkt->psn, true);
	return true;
}

/*
 * A read response or an atomic ACK: it acknowledges every request before
 * its WQE (the responder works in order); a gap before it means answers
 * were lost, and the requester asks again from the first missing one.
 */
static bool sr_comp_read(struct sr_qp *qp, const struct sk_buff *skb,
			 const struct sr_pkt *pkt)
{
	bool atomic = pkt->oi->flags & SR_ATOMIC;
	struct sr_send *s;

	if (sr_psn_diff(pkt->psn, qp->comp_psn) < 0 ||
	    sr_psn_diff(pkt->psn, qp->sent_psn) >= 0)
		return false;
	s = sr_comp_find(qp, pkt->psn);
	if (!s || (atomic ? !sr_comp_is_atomic(s->w.wr.opcode) :
			    s->w.wr.opcode != IB_WR_RDMA_READ))
		return false;
	if (sr_psn_diff(s->first_psn, qp->comp_psn) > 0)
		sr_comp_ack(qp, sr_psn_add(s->first_psn, -1));
	if (pkt->psn != qp->comp_psn) {
		sr_count(&to_sr_dev(qp->ibqp.device)->counters,
			 SR_RCVD_SEQ_ERR);
		sr_comp_rewind(qp, qp->comp_psn);
		return true;
	}
	if (atomic)
		return sr_comp_atomic_ack(qp, pkt);
	return sr_comp_read_resp(qp, skb, pkt);
}

/**
 * sr_comp_rcv - an RC QP's response arrived
 * @qp: the QP
 * @skb: the packet, data at its UDP header
 * @pkt: its parsed headers, a response (SR_RESP)
 *
 * Takes ACKs and NAKs whose PSN lies between the oldest unacknowledged
 * and the last sent, and read responses and atomic ACKs in order;
 * anything else is stale or forged, and dropped.
 * Then runs the requester, which may send more (or again).
 *
 * Context: softirq.
 * Return: true if the packet was taken.
 */
bool sr_comp_rcv(struct sr_qp *qp, const struct sk_buff *skb,
		 const struct sr_pkt *pkt)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	enum sr_counter why = SR_DROP_PSN;
	u8 syndrome;

	spin_lock_bh(&qp->req_lock);
	if (sr_qp_state(qp) != IB_QPS_RTS) {
		why = SR_DROP_STATE;
	} else if (pkt->oi->flags & (SR_READ | SR_ATOMIC)) {
		if (sr_comp_read(qp, skb, pkt))
			why = SR_NR_COUNTERS;
	} else if (pkt->opcode == IB_OPCODE_RC_ACKNOWLEDGE &&
		   sr_psn_diff(pkt->psn, qp->comp_psn) >= -1 &&
		   sr_psn_diff(pkt->psn, qp->sent_psn) < 0) {
		syndrome = sr_aeth_syndrome(sr_ext(pkt->bth, pkt->oi,
						   SR_AETH));
		if ((syndrome & SR_AETH_TYPE) == SR_AETH_ACK)
			sr_comp_ack(qp, pkt->psn);
		else
			sr_comp_nak(qp, pkt->psn, syndrome);
		why = SR_NR_COUNTERS;
	}
	spin_unlock_bh(&qp->req_lock);
	if (why != SR_NR_COUNTERS) {
		sr_count(&sdev->counters, why);
		return false;
	}
	sr_req_kick(qp);
	return true;
}
