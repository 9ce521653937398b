// SPDX-License-Identifier: GPL-2.0
/*
 * The responder (resp.h), in the softirq that delivered the packet: the
 * checks that need the QP, a receive WQE (from the QP's RQ, read in place,
 * or copied out of its SRQ), the message scattered into the WQE's memory,
 * and the completion.  One packet at a time per QP (resp_lock), so that
 * WQEs complete in the order they were taken.
 *
 * UD: each packet is a whole message, received into one WQE behind the
 * 40 bytes of its GRH (an IPv6 header, or 20 bytes of zeros and an IPv4
 * header).  A message larger than the WQE completes it with a length
 * error; an lkey the QP may not write completes it with a protection
 * error and moves the QP to ERR.
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <rdma/ib_verbs.h>
#include "cq.h"
#include "dev.h"
#include "mem.h"
#include "qp.h"
#include "req.h"
#include "resp.h"
#include "srq.h"
#include "wire.h"

/* The bytes a UD receive puts before the message */
#define SR_GRH_BYTES	40

/**
 * struct sr_scatter - where the next bytes of a message go
 * @sdev: the device
 * @pd: the QP's PD, which the WQE's lkeys must be of
 * @wqe: the WQE (in the ring: the user may change it; read once)
 * @num_sge: its scatter entries, at most what the QP or SRQ has
 * @next: the entry after @sge
 * @sge: the entry being filled, as read
 * @used: its bytes filled
 */
struct sr_scatter {
	struct sr_dev *sdev;
	const struct ib_pd *pd;
	const struct rxe_recv_wqe *wqe;
	u32 num_sge;
	u32 next;
	struct rxe_sge sge;
	u32 used;
};

/*
 * Writes @len bytes to the WQE's memory, from @buf or else from @skb at
 * @off, where the last write stopped.
 */
static enum ib_wc_status sr_scatter(struct sr_scatter *sc, const void *buf,
				    const struct sk_buff *skb,
				    unsigned int off, u32 len)
{
	struct sr_mr *mr;
	u64 addr;
	u32 n;
	int ret;

	while (len) {
		if (sc->used == sc->sge.length) {
			if (sc->next == sc->num_sge)
				return IB_WC_LOC_LEN_ERR;
			memcpy(&sc->sge, &sc->wqe->dma.sge[sc->next++],
			       sizeof(sc->sge));
			sc->used = 0;
			continue;
		}
		n = min(len, sc->sge.length - sc->used);
		addr = sc->sge.addr + sc->used;
		mr = sr_mr_use(sc->sdev, sc->pd, sc->sge.lkey,
			       IB_ACCESS_LOCAL_WRITE, addr, n);
		if (!mr)
			return IB_WC_LOC_PROT_ERR;
		if (buf)
			ret = sr_mr_copy(mr, addr, (void *)buf, n, true);
		else
			ret = sr_mr_from_skb(mr, addr, skb, off, n);
		sr_mr_put(mr);
		if (ret)
			return IB_WC_LOC_PROT_ERR;
		sc->used += n;
		if (buf)
			buf += n;
		off += n;
		len -= n;
	}
	return IB_WC_SUCCESS;
}

/*
 * The WQE a message goes to, resp_lock held: the head of the QP's RQ
 * (left there until it completes), or one taken from its SRQ into the
 * QP's buffer.  NULL if there is none.
 */
static const struct rxe_recv_wqe *sr_resp_wqe(struct sr_qp *qp, u32 *max_sge)
{
	struct ib_srq *ibsrq = qp->ibqp.srq;

	if (!ibsrq) {
		*max_sge = qp->max_recv_sge;
		return sr_queue_head(&qp->rq);
	}
	*max_sge = to_sr_srq(ibsrq)->max_sge;
	return sr_srq_take(to_sr_srq(ibsrq), qp->srq_wqe) ? qp->srq_wqe : NULL;
}

/* Done with the WQE sr_resp_wqe() gave, resp_lock held. */
static void sr_resp_wqe_done(struct sr_qp *qp)
{
	if (!qp->ibqp.srq)
		sr_queue_consumed(&qp->rq);
}

/* The 40 bytes a UD receive starts with, from the packet's IP header. */
static void sr_resp_grh(const struct sk_buff *skb, u8 *grh)
{
	if (ip_hdr(skb)->version == 4) {
		memset(grh, 0, SR_GRH_BYTES - sizeof(struct iphdr));
		memcpy(grh + SR_GRH_BYTES - sizeof(struct iphdr),
		       skb_network_header(skb), sizeof(struct iphdr));
	} else {
		memcpy(grh, skb_network_header(skb), SR_GRH_BYTES);
	}
}

/* Whether a UD packet may reach @qp; counts why not. */
static bool sr_resp_ud_ok(struct sr_dev *sdev, struct sr_qp *qp,
			  const struct sr_pkt *pkt)
{
	const struct sr_deth *deth = sr_ext(pkt->bth, pkt->oi, SR_DETH);
	enum ib_qp_state state = sr_qp_state(qp);
	enum sr_counter why;

	if (state != IB_QPS_RTR && state != IB_QPS_RTS)
		why = SR_DROP_STATE;
	else if ((pkt->pkey & 0x7fff) != (SR_PKEY_DEFAULT & 0x7fff))
		why = SR_DROP_PKEY;
	else if (be32_to_cpu(deth->qkey) != READ_ONCE(qp->attr.qkey))
		why = SR_DROP_QKEY;
	else if (!sr_paylen_fits(pkt, sr_dev_mtu(sdev)))
		why = SR_DROP_LENGTH;
	else
		return true;
	sr_count(&sdev->counters, why);
	return false;
}

/* Scatters a UD message into @wqe and says how it went in @wc. */
static void sr_resp_ud_place(struct sr_qp *qp, const struct sk_buff *skb,
			     const struct sr_pkt *pkt,
			     const struct rxe_recv_wqe *wqe, u32 max_sge,
			     struct ib_wc *wc)
{
	const struct sr_deth *deth = sr_ext(pkt->bth, pkt->oi, SR_DETH);
	struct sr_scatter sc = {
		.sdev = to_sr_dev(qp->ibqp.device),
		.pd = qp->ibqp.pd,
		.wqe = wqe,
		.num_sge = min(READ_ONCE(wqe->dma.num_sge), max_sge),
	};
	bool ipv4 = ip_hdr(skb)->version == 4;
	u8 grh[SR_GRH_BYTES];

	sr_resp_grh(skb, grh);
	wc->status = sr_scatter(&sc, grh, NULL, 0, sizeof(grh));
	if (wc->status == IB_WC_SUCCESS)
		wc->status = sr_scatter(&sc, NULL, skb,
					sizeof(struct udphdr) + pkt->oi->hlen,
					pkt->paylen);
	wc->opcode = IB_WC_RECV;
	wc->byte_len = SR_GRH_BYTES + pkt->paylen;
	wc->src_qp = be32_to_cpu(deth->sqpn) & SR_QPN_MASK;
	wc->wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc->network_hdr_type = ipv4 ? RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6;
	if (pkt->oi->exts & BIT(SR_IMMDT)) {
		wc->wc_flags |= IB_WC_WITH_IMM;
		wc->ex.imm_data = *(__be32 *)sr_ext(pkt->bth, pkt->oi,
						    SR_IMMDT);
	}
	if (skb_mac_header_was_set(skb)) {
		ether_addr_copy(wc->smac, eth_hdr(skb)->h_source);
		wc->wc_flags |= IB_WC_WITH_SMAC;
	}
	wc->port_num = 1;
}

/* Completes a receive WQE, resp_lock held (completions stay in order). */
static void sr_resp_complete(struct sr_qp *qp, struct ib_wc *wc, bool se)
{
	wc->qp = &qp->ibqp;
	sr_cq_post(to_sr_cq(qp->ibqp.recv_cq), wc, se);
}

/* Flushes what waits in the RQ, resp_lock held. */
static void sr_resp_flush_locked(struct sr_qp *qp)
{
	const struct rxe_recv_wqe *wqe;
	struct ib_wc wc = { .status = IB_WC_WR_FLUSH_ERR,
			    .opcode = IB_WC_RECV };

	while ((wqe = sr_queue_head(&qp->rq))) {
		wc.wr_id = READ_ONCE(wqe->wr_id);
		sr_queue_consumed(&qp->rq);
		sr_resp_complete(qp, &wc, false);
	}
}

/*
 * A WQE failed for want of access, resp_lock held: the QP goes to ERR
 * and what waits in the RQ is flushed (the SQ by the requester).
 */
static void sr_resp_failed(struct sr_qp *qp)
{
	if (sr_qp_to_err(qp) && !qp->ibqp.srq)
		sr_resp_flush_locked(qp);
}

/**
 * sr_resp_ud - receive a UD packet
 * @qp: its destination, a UD QP
 * @skb: the packet, data at its UDP header (sr_recv())
 * @pkt: its parsed headers, a UD opcode
 *
 * Context: softirq.
 * Return: true if it completed a WQE (in error or not); false if it was
 * dropped, and counted.
 */
bool sr_resp_ud(struct sr_qp *qp, const struct sk_buff *skb,
		const struct sr_pkt *pkt)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	const struct rxe_recv_wqe *wqe;
	struct ib_wc wc = {};
	u32 max_sge;

	if (!sr_resp_ud_ok(sdev, qp, pkt))
		return false;
	spin_lock_bh(&qp->resp_lock);
	wqe = sr_resp_wqe(qp, &max_sge);
	if (!wqe) {
		spin_unlock_bh(&qp->resp_lock);
		sr_count(&sdev->counters, SR_DROP_NO_WQE);
		return false;
	}
	wc.wr_id = READ_ONCE(wqe->wr_id);
	sr_resp_ud_place(qp, skb, pkt, wqe, max_sge, &wc);
	sr_resp_wqe_done(qp);
	sr_resp_complete(qp, &wc, pkt->se);
	if (wc.status == IB_WC_LOC_PROT_ERR)
		sr_resp_failed(qp);
	spin_unlock_bh(&qp->resp_lock);
	if (wc.status == IB_WC_LOC_PROT_ERR)
		sr_req_kick(qp);
	return true;
}

/**
 * sr_resp_flush - flush a QP's RQ, the QP in ERR
 * @qp: the QP; one on an SRQ has nothing of its own to flush
 *
 * Every WQE waiting completes with IB_WC_WR_FLUSH_ERR, in order.
 *
 * Context: interrupts on (completion handlers run).
 */
void sr_resp_flush(struct sr_qp *qp)
{
	if (qp->ibqp.srq)
		return;
	spin_lock_bh(&qp->resp_lock);
	sr_resp_flush_locked(qp);
	spin_unlock_bh(&qp->resp_lock);
}
