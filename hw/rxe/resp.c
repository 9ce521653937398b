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
 *
 * RC: packets are taken in PSN order.  A send is placed in one WQE,
 * packet by packet (the WQE stays at the RQ's head, or in srq_wqe, until
 * its last packet); a write goes to the MR its first packet's RETH names,
 * held until its last; an ACK answers each packet that asks for one.  A
 * duplicate is acknowledged again, a packet ahead of the expected PSN gets
 * one sequence NAK per gap, a send with no WQE to take it an RNR NAK; an
 * invalid request or an access the QP may not make is NAKed and moves the
 * QP to ERR.  A read is answered from memory, new or duplicate; an atomic
 * is done once, its duplicates answered from the result kept.
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
#include "xmit.h"

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

/* Moves to the WQE's next scatter entry: false if it has no more. */
static bool sr_scatter_next(struct sr_scatter *sc)
{
	if (sc->next == sc->num_sge)
		return false;
	memcpy(&sc->sge, &sc->wqe->dma.sge[sc->next++], sizeof(sc->sge));
	sc->used = 0;
	return true;
}

/*
 * Writes @len bytes to the WQE's memory, from @buf or else from @skb at
 * @off, where the last write stopped; with neither, only moves on.
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
			if (!sr_scatter_next(sc))
				return IB_WC_LOC_LEN_ERR;
			continue;
		}
		n = min(len, sc->sge.length - sc->used);
		addr = sc->sge.addr + sc->used;
		if (buf || skb) {
			mr = sr_mr_use(sc->sdev, sc->pd, sc->sge.lkey,
				       IB_ACCESS_LOCAL_WRITE, addr, n);
			if (!mr)
				return IB_WC_LOC_PROT_ERR;
			if (buf)
				ret = sr_mr_copy(mr, addr, (void *)buf, n,
						 true);
			else
				ret = sr_mr_from_skb(mr, addr, skb, off, n);
			sr_mr_put(mr);
			if (ret)
				return IB_WC_LOC_PROT_ERR;
		}
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

/*
 * Completes a receive WQE, resp_lock held (completions stay in order);
 * one that succeeded counts in rdma_recvs.
 */
static void sr_resp_complete(struct sr_qp *qp, struct ib_wc *wc, bool se)
{
	if (wc->status == IB_WC_SUCCESS)
		sr_count(&to_sr_dev(qp->ibqp.device)->counters,
			 SR_RDMA_RECVS);
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

/* ---- RC ---------------------------------------------------------------- */

/* The WQE a send in progress goes on, resp_lock held. */
static const struct rxe_recv_wqe *sr_resp_cur_wqe(struct sr_qp *qp,
						  u32 *max_sge)
{
	if (qp->ibqp.srq) {
		*max_sge = to_sr_srq(qp->ibqp.srq)->max_sge;
		return qp->srq_wqe;
	}
	*max_sge = qp->max_recv_sge;
	return sr_queue_head(&qp->rq);
}

/*
 * Sends an ACK, RNR NAK or NAK (@syndrome) for @psn, with the MSN; an
 * atomic's ACK, with its original value, if @orig.
 */
static void sr_resp_ack(struct sr_qp *qp, u8 syndrome, u32 psn,
			const u64 *orig)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	u8 opcode = orig ? IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE :
			   IB_OPCODE_RC_ACKNOWLEDGE;
	const struct sr_opinfo *oi = sr_opinfo(opcode);
	u32 dqpn = qp->attr.dest_qp_num;
	struct sr_atmack *ack;
	struct sr_aeth *aeth;
	struct dst_entry *dst;
	struct sk_buff *skb;

	dst = sr_route(sdev, &qp->av);
	if (IS_ERR(dst))
		return;
	skb = sr_pkt_new(dst, &qp->av, oi->hlen, GFP_ATOMIC);
	if (skb) {
		sr_bth_init(skb->data, opcode, false, 0, SR_PKEY_DEFAULT, dqpn,
			    false, psn);
		aeth = sr_ext(skb->data, oi, SR_AETH);
		aeth->smsn = sr_aeth_pack(syndrome, qp->resp_msn);
		if (orig) {
			ack = sr_ext(skb->data, oi, SR_ATMACK);
			ack->orig = cpu_to_be64(*orig);
		}
		sr_xmit(sdev, dst, &qp->av, skb,
			sr_req_sport(&qp->av, qp->ibqp.qp_num, dqpn));
	}
	dst_release(dst);
}

/* NAK syndromes */
#define SR_NAK_INVALID	(SR_AETH_NAK | SR_NAK_INVALID_REQ)
#define SR_NAK_ACCESS	(SR_AETH_NAK | SR_NAK_REMOTE_ACCESS)
#define SR_NAK_OP	(SR_AETH_NAK | SR_NAK_REMOTE_OP)

/**
 * sr_resp_end - forget the RC message in progress
 * @qp: the QP (resp_lock held, or no packet can reach it any more)
 */
void sr_resp_end(struct sr_qp *qp)
{
	qp->resp_write = false;
	qp->resp_send = false;
}

/* The WQE of a send's first packet; NULL (an RNR NAK) if none waits. */
static const struct rxe_recv_wqe *sr_resp_rc_take(struct sr_qp *qp,
						  u32 *max_sge)
{
	const struct rxe_recv_wqe *wqe = sr_resp_wqe(qp, max_sge);

	if (!wqe)
		sr_count(&to_sr_dev(qp->ibqp.device)->counters,
			 SR_SEND_RNR_ERR);
	return wqe;
}

/*
 * The end of a send with invalidate, placed: the rkey its IETH names is
 * invalidated, or (not an MR of the QP's PD registered so) the receive
 * completes in error and the sender gets an invalid request NAK.
 */
static u8 sr_resp_rc_invalidate(struct sr_qp *qp, const struct sr_pkt *pkt,
				struct ib_wc *wc)
{
	u32 rkey = be32_to_cpu(*(__be32 *)sr_ext(pkt->bth, pkt->oi, SR_IETH));

	if (sr_mr_invalidate(to_sr_dev(qp->ibqp.device), qp->ibqp.pd, rkey)) {
		wc->status = IB_WC_REM_INV_REQ_ERR;
		return SR_NAK_INVALID;
	}
	wc->wc_flags |= IB_WC_WITH_INVALIDATE;
	wc->ex.invalidate_rkey = rkey;
	return 0;
}

/*
 * A send's packet, resp_lock held: placed where the last one stopped.
 * 0, or the syndrome to answer with; @wc filled (and *@done) when the
 * WQE completes, in error or not.
 */
static u8 sr_resp_rc_send(struct sr_qp *qp, const struct sk_buff *skb,
			  const struct sr_pkt *pkt, struct ib_wc *wc,
			  bool *done)
{
	u16 fl = pkt->oi->flags;
	const struct rxe_recv_wqe *wqe;
	struct sr_scatter sc = {
		.sdev = to_sr_dev(qp->ibqp.device),
		.pd = qp->ibqp.pd,
	};
	u32 max_sge;

	if (!!(fl & SR_FIRST) == qp->resp_send)
		return SR_NAK_INVALID;
	if (fl & SR_FIRST) {
		wqe = sr_resp_rc_take(qp, &max_sge);
		if (!wqe)
			return SR_AETH_RNR | qp->attr.min_rnr_timer;
		qp->resp_send = true;
		qp->resp_off = 0;
	} else {
		wqe = sr_resp_cur_wqe(qp, &max_sge);
	}
	sc.wqe = wqe;
	sc.num_sge = min(READ_ONCE(wqe->dma.num_sge), max_sge);
	wc->wr_id = READ_ONCE(wqe->wr_id);
	wc->opcode = IB_WC_RECV;
	/* Past what the packets before placed */
	wc->status = sr_scatter(&sc, NULL, NULL, 0, qp->resp_off);
	if (wc->status == IB_WC_SUCCESS)
		wc->status = sr_scatter(&sc, NULL, skb,
					sizeof(struct udphdr) + pkt->oi->hlen,
					pkt->paylen);
	if (wc->status != IB_WC_SUCCESS) {
		*done = true;
		return wc->status == IB_WC_LOC_LEN_ERR ? SR_NAK_INVALID :
							 SR_NAK_OP;
	}
	qp->resp_off += pkt->paylen;
	if (!(fl & SR_LAST))
		return 0;
	*done = true;
	wc->byte_len = qp->resp_off;
	if (pkt->oi->exts & BIT(SR_IMMDT)) {
		wc->wc_flags |= IB_WC_WITH_IMM;
		wc->ex.imm_data = *(__be32 *)sr_ext(pkt->bth, pkt->oi,
						    SR_IMMDT);
	}
	if (pkt->oi->exts & BIT(SR_IETH))
		return sr_resp_rc_invalidate(qp, pkt, wc);
	return 0;
}

/*
 * A write's first packet: its RETH checked, the whole range in an MR of
 * the rkey (*@mrp, held; NULL for a write of no bytes), or a syndrome.
 */
static u8 sr_resp_rc_write_start(struct sr_qp *qp, const struct sr_pkt *pkt,
				 struct sr_mr **mrp)
{
	const struct sr_reth *reth = sr_ext(pkt->bth, pkt->oi, SR_RETH);
	u64 va = be64_to_cpu(reth->va);
	u32 len = be32_to_cpu(reth->len);

	if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_WRITE))
		return SR_NAK_ACCESS;
	/* An only packet carries it all; a first one less than it all */
	if ((pkt->oi->flags & SR_LAST) ? pkt->paylen != len :
					 pkt->paylen >= len)
		return SR_NAK_INVALID;
	if (len) {
		*mrp = sr_mr_use(to_sr_dev(qp->ibqp.device), qp->ibqp.pd,
				 be32_to_cpu(reth->rkey), IB_ACCESS_REMOTE_WRITE,
				 va, len);
		if (!*mrp)
			return SR_NAK_ACCESS;
	}
	qp->resp_rkey = be32_to_cpu(reth->rkey);
	qp->resp_va = va;
	qp->resp_left = len;
	qp->resp_wlen = len;
	qp->resp_write = true;
	return 0;
}

/*
 * A write's payload into @mr, the MR the first packet found (held; let go
 * here), or for a later packet (@mr NULL) the MR of the message's rkey
 * looked up again: one invalidated since the message began (its key
 * taken away or changed) takes no more of it.  0, or -EACCES.
 */
static int sr_resp_rc_write_place(struct sr_qp *qp, struct sr_mr *mr,
				  const struct sk_buff *skb,
				  const struct sr_pkt *pkt)
{
	int ret = 0;

	if (!mr)
		mr = sr_mr_use(to_sr_dev(qp->ibqp.device), qp->ibqp.pd,
			       qp->resp_rkey, IB_ACCESS_REMOTE_WRITE,
			       qp->resp_va, pkt->paylen);
	if (!mr)
		return -EACCES;
	if (pkt->paylen)
		ret = sr_mr_from_skb(mr, qp->resp_va, skb,
				     sizeof(struct udphdr) + pkt->oi->hlen,
				     pkt->paylen);
	sr_mr_put(mr);
	return ret ? -EACCES : 0;
}

/*
 * A write's packet, resp_lock held.  One with immediate data takes a
 * receive WQE first (else an RNR NAK, nothing changed), which completes.
 */
static u8 sr_resp_rc_write(struct sr_qp *qp, const struct sk_buff *skb,
			   const struct sr_pkt *pkt, struct ib_wc *wc,
			   bool *done)
{
	u16 fl = pkt->oi->flags;
	bool imm = pkt->oi->exts & BIT(SR_IMMDT);
	const struct rxe_recv_wqe *wqe = NULL;
	struct sr_mr *mr = NULL;
	u32 max_sge;
	u8 syn;

	if (!!(fl & SR_FIRST) == qp->resp_write)
		return SR_NAK_INVALID;
	if (imm) {
		wqe = sr_resp_rc_take(qp, &max_sge);
		if (!wqe)
			return SR_AETH_RNR | qp->attr.min_rnr_timer;
	}
	if (fl & SR_FIRST) {
		/* Its length is checked against the RETH's there */
		syn = sr_resp_rc_write_start(qp, pkt, &mr);
		if (syn)
			return syn;
	} else if (pkt->paylen > qp->resp_left ||
		   ((fl & SR_LAST) && pkt->paylen != qp->resp_left)) {
		return SR_NAK_INVALID;
	}
	if ((mr || pkt->paylen) && sr_resp_rc_write_place(qp, mr, skb, pkt))
		return SR_NAK_ACCESS;
	qp->resp_va += pkt->paylen;
	qp->resp_left -= pkt->paylen;
	if (!(fl & SR_LAST) || !imm)
		return 0;
	*done = true;
	wc->wr_id = READ_ONCE(wqe->wr_id);
	wc->opcode = IB_WC_RECV_RDMA_WITH_IMM;
	wc->byte_len = qp->resp_wlen;
	wc->wc_flags |= IB_WC_WITH_IMM;
	wc->ex.imm_data = *(__be32 *)sr_ext(pkt->bth, pkt->oi, SR_IMMDT);
	return 0;
}

/* The read response opcode of packet @i of @n. */
static u8 sr_resp_read_opcode(u32 i, u32 n)
{
	if (n == 1)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY;
	if (!i)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST;
	if (i + 1 == n)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST;
	return IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE;
}

/* Sends response @i of @n of a read of @len bytes at @va of @mr. */
static int sr_resp_read_packet(struct sr_qp *qp, struct dst_entry *dst,
			       struct sr_mr *mr, u64 va, u32 len, u32 psn,
			       u32 i, u32 n)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	u32 mtu = ib_mtu_enum_to_int(qp->attr.path_mtu);
	u32 off = i * mtu, plen = min(mtu, len - off);
	u8 opcode = sr_resp_read_opcode(i, n);
	const struct sr_opinfo *oi = sr_opinfo(opcode);
	u32 dqpn = qp->attr.dest_qp_num;
	struct sr_aeth *aeth;
	struct sk_buff *skb;

	skb = sr_pkt_new(dst, &qp->av, oi->hlen + plen + sr_pad(plen),
			 GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	sr_bth_init(skb->data, opcode, false, sr_pad(plen), SR_PKEY_DEFAULT,
		    dqpn, false, sr_psn_add(psn, i));
	if (oi->exts & BIT(SR_AETH)) {
		aeth = sr_ext(skb->data, oi, SR_AETH);
		aeth->smsn = sr_aeth_pack(SR_AETH_ACK | SR_AETH_NO_CREDITS,
					  qp->resp_msn);
	}
	if (plen && sr_mr_copy(mr, va + off, skb->data + oi->hlen, plen,
			       false)) {
		kfree_skb(skb);
		return -EFAULT;
	}
	memset(skb->data + oi->hlen + plen, 0, sr_pad(plen));
	return sr_xmit(sdev, dst, &qp->av, skb,
		       sr_req_sport(&qp->av, qp->ibqp.qp_num, dqpn));
}

/*
 * A read request (new, or a duplicate: reads are answered again from
 * memory), resp_lock held: its responses, from its PSN on.  0, or the
 * syndrome to answer with.
 */
static u8 sr_resp_rc_read(struct sr_qp *qp, const struct sr_pkt *pkt,
			  u32 *npkts)
{
	const struct sr_reth *reth = sr_ext(pkt->bth, pkt->oi, SR_RETH);
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	u32 mtu = ib_mtu_enum_to_int(qp->attr.path_mtu);
	u64 va = be64_to_cpu(reth->va);
	u32 len = be32_to_cpu(reth->len), i;
	struct sr_mr *mr = NULL;
	struct dst_entry *dst;

	if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_READ))
		return SR_NAK_ACCESS;
	if (len) {
		mr = sr_mr_use(sdev, qp->ibqp.pd, be32_to_cpu(reth->rkey),
			       IB_ACCESS_REMOTE_READ, va, len);
		if (!mr)
			return SR_NAK_ACCESS;
	}
	*npkts = max_t(u32, 1, DIV_ROUND_UP(len, mtu));
	dst = sr_route(sdev, &qp->av);
	/* A response lost here is asked for again */
	for (i = 0; !IS_ERR(dst) && i < *npkts; i++)
		if (sr_resp_read_packet(qp, dst, mr, va, len, pkt->psn, i,
					*npkts))
			break;
	if (!IS_ERR(dst))
		dst_release(dst);
	if (mr)
		sr_mr_put(mr);
	return 0;
}

/*
 * Does an atomic on the 64-bit word (in the CPU's order) its AtomicETH
 * names: 0 and its original value in *@orig, or a syndrome.
 */
static u8 sr_resp_rc_atomic_do(struct sr_qp *qp, const struct sr_pkt *pkt,
			       u64 *orig)
{
	const struct sr_atmeth *ath = sr_ext(pkt->bth, pkt->oi, SR_ATMETH);
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	u64 va = be64_to_cpu(ath->va), val;
	struct sr_mr *mr;
	int ret;

	if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_ATOMIC))
		return SR_NAK_ACCESS;
	if (va & (sizeof(u64) - 1))
		return SR_NAK_INVALID;
	mr = sr_mr_use(sdev, qp->ibqp.pd, be32_to_cpu(ath->rkey),
		       IB_ACCESS_REMOTE_ATOMIC, va, sizeof(u64));
	if (!mr)
		return SR_NAK_ACCESS;
	spin_lock_bh(&sdev->atomic_lock);
	ret = sr_mr_copy(mr, va, orig, sizeof(u64), false);
	if (!ret) {
		if (pkt->opcode == IB_OPCODE_RC_COMPARE_SWAP)
			val = *orig == be64_to_cpu(ath->compare) ?
			      be64_to_cpu(ath->swap_add) : *orig;
		else
			val = *orig + be64_to_cpu(ath->swap_add);
		ret = sr_mr_copy(mr, va, &val, sizeof(u64), true);
	}
	spin_unlock_bh(&sdev->atomic_lock);
	sr_mr_put(mr);
	return ret ? SR_NAK_ACCESS : 0;
}

/* A new or duplicate atomic, resp_lock held. */
static void sr_resp_rc_atomic(struct sr_qp *qp, const struct sr_pkt *pkt,
			      bool dup)
{
	struct sr_atomic_res *r;
	u64 orig;
	u8 syn;
	int i;

	if (dup) {
		/* Answered again from its result, if it is still kept */
		for (i = 0; i < SR_RESP_ATOMICS; i++) {
			r = &qp->resp_atomics[i];
			if (r->valid && r->psn == pkt->psn)
				sr_resp_ack(qp, SR_AETH_ACK |
					    SR_AETH_NO_CREDITS, pkt->psn,
					    &r->orig);
		}
		return;
	}
	syn = qp->resp_send || qp->resp_write ? SR_NAK_INVALID :
		sr_resp_rc_atomic_do(qp, pkt, &orig);
	if (syn) {
		sr_resp_ack(qp, syn, pkt->psn, NULL);
		sr_resp_end(qp);
		sr_resp_failed(qp);
		return;
	}
	r = &qp->resp_atomics[qp->resp_atomic_next++ % SR_RESP_ATOMICS];
	*r = (struct sr_atomic_res){ .psn = pkt->psn, .valid = true,
				     .orig = orig };
	qp->resp_msn = sr_psn_add(qp->resp_msn, 1);
	qp->resp_psn = sr_psn_add(qp->resp_psn, 1);
	sr_resp_ack(qp, SR_AETH_ACK | SR_AETH_NO_CREDITS, pkt->psn, &orig);
}

/*
 * A packet at the expected PSN, resp_lock held: 0 or a syndrome; @wc and
 * *@done as sr_resp_rc_send().
 */
static u8 sr_resp_rc_next(struct sr_qp *qp, const struct sk_buff *skb,
			  const struct sr_pkt *pkt, struct ib_wc *wc,
			  bool *done)
{
	u16 fl = pkt->oi->flags;

	if (!sr_paylen_fits(pkt, ib_mtu_enum_to_int(qp->attr.path_mtu)))
		return SR_NAK_INVALID;
	if (fl & SR_SEND)
		return sr_resp_rc_send(qp, skb, pkt, wc, done);
	if (fl & SR_WRITE)
		return sr_resp_rc_write(qp, skb, pkt, wc, done);
	return SR_NAK_INVALID;
}

/* Sends a new or duplicate read's responses, resp_lock held. */
static void sr_resp_rc_reads(struct sr_qp *qp, const struct sr_pkt *pkt,
			     bool dup)
{
	u32 npkts = 1;
	u8 syn;

	if (!dup && (qp->resp_send || qp->resp_write)) {
		syn = SR_NAK_INVALID;
	} else {
		syn = sr_resp_rc_read(qp, pkt, &npkts);
		if (!syn && dup)
			return;
	}
	if (!syn) {
		qp->resp_msn = sr_psn_add(qp->resp_msn, 1);
		qp->resp_psn = sr_psn_add(qp->resp_psn, npkts);
		return;
	}
	sr_resp_ack(qp, syn, pkt->psn, NULL);
	if (!dup) {
		sr_resp_end(qp);
		sr_resp_failed(qp);
	}
}

/* The end of a packet taken at the expected PSN, resp_lock held. */
static void sr_resp_rc_answer(struct sr_qp *qp, const struct sr_pkt *pkt,
			      u8 syn)
{
	u16 fl = pkt->oi->flags;

	if (!syn) {
		if (fl & SR_LAST) {
			qp->resp_msn = sr_psn_add(qp->resp_msn, 1);
			sr_resp_end(qp);
		}
		qp->resp_psn = sr_psn_add(qp->resp_psn, 1);
		if (pkt->ackreq)
			sr_resp_ack(qp, SR_AETH_ACK | SR_AETH_NO_CREDITS,
				    pkt->psn, NULL);
		return;
	}
	sr_resp_ack(qp, syn, pkt->psn, NULL);
	if ((syn & SR_AETH_TYPE) == SR_AETH_RNR)
		return;
	sr_resp_end(qp);
	sr_resp_failed(qp);
}

/*
 * UC, resp_lock held: no ACKs and no NAKs.  A packet off the expected PSN
 * loses the message in progress (the RQ's WQE waits for the next one; one
 * taken from an SRQ is lost with it), and a message's first packet starts
 * a new one wherever the PSNs are.  A message that fails is dropped.
 */
static void sr_resp_uc(struct sr_qp *qp, const struct sk_buff *skb,
		       const struct sr_pkt *pkt, s32 d)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	struct ib_wc wc = {};
	bool done = false;
	u8 syn;

	if (d) {
		sr_count(&sdev->counters, SR_OUT_OF_SEQ_REQUEST);
		sr_resp_end(qp);
		if (!(pkt->oi->flags & SR_FIRST))
			return;
		qp->resp_psn = pkt->psn;
	}
	syn = sr_resp_rc_next(qp, skb, pkt, &wc, &done);
	if (done) {
		wc.port_num = 1;
		sr_resp_wqe_done(qp);
		sr_resp_complete(qp, &wc, pkt->se);
	}
	if (syn) {
		sr_resp_end(qp);
		return;
	}
	if (pkt->oi->flags & SR_LAST) {
		qp->resp_msn = sr_psn_add(qp->resp_msn, 1);
		sr_resp_end(qp);
	}
	qp->resp_psn = sr_psn_add(qp->resp_psn, 1);
}

/**
 * sr_resp_rc - receive an RC (or UC) request
 * @qp: its destination, an RC or UC QP
 * @skb: the packet, data at its UDP header (sr_recv())
 * @pkt: its parsed headers, a request opcode of the QP's transport
 *
 * Context: softirq.
 * Return: true if it was taken (answered, duplicate or not); false if it
 * was dropped, and counted.
 */
bool sr_resp_rc(struct sr_qp *qp, const struct sk_buff *skb,
		const struct sr_pkt *pkt)
{
	struct sr_dev *sdev = to_sr_dev(qp->ibqp.device);
	enum ib_qp_state state = sr_qp_state(qp);
	struct ib_wc wc = {};
	bool done = false;
	s32 d;
	u8 syn;

	if (state != IB_QPS_RTR && state != IB_QPS_RTS) {
		sr_count(&sdev->counters, SR_DROP_STATE);
		return false;
	}
	if ((pkt->pkey & 0x7fff) != (SR_PKEY_DEFAULT & 0x7fff)) {
		sr_count(&sdev->counters, SR_DROP_PKEY);
		return false;
	}
	spin_lock_bh(&qp->resp_lock);
	d = sr_psn_diff(pkt->psn, qp->resp_psn);
	if (qp->ibqp.qp_type == IB_QPT_UC) {
		sr_resp_uc(qp, skb, pkt, d);
	} else if (d <= 0 && (pkt->oi->flags & (SR_READ | SR_ATOMIC))) {
		qp->resp_nak = false;
		if (d < 0)
			sr_count(&sdev->counters, SR_DUPLICATE_REQUEST);
		if (pkt->oi->flags & SR_READ)
			sr_resp_rc_reads(qp, pkt, d < 0);
		else
			sr_resp_rc_atomic(qp, pkt, d < 0);
	} else if (d < 0) {
		/* Seen: its ACK was lost, or it crossed one */
		sr_count(&sdev->counters, SR_DUPLICATE_REQUEST);
		if (pkt->ackreq)
			sr_resp_ack(qp, SR_AETH_ACK | SR_AETH_NO_CREDITS,
				    sr_psn_add(qp->resp_psn, -1), NULL);
	} else if (d > 0) {
		sr_count(&sdev->counters, SR_OUT_OF_SEQ_REQUEST);
		if (!qp->resp_nak)
			sr_resp_ack(qp, SR_AETH_NAK | SR_NAK_PSN_SEQ,
				    qp->resp_psn, NULL);
		qp->resp_nak = true;
	} else {
		qp->resp_nak = false;
		syn = sr_resp_rc_next(qp, skb, pkt, &wc, &done);
		if (done) {
			wc.port_num = 1;
			sr_resp_wqe_done(qp);
			sr_resp_complete(qp, &wc, pkt->se);
		}
		sr_resp_rc_answer(qp, pkt, syn);
	}
	spin_unlock_bh(&qp->resp_lock);
	if (sr_qp_state(qp) == IB_QPS_ERR)
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
