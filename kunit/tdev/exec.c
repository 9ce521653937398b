// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: executing a send work request, in the engine.
 *
 * Connected QPs of any tdevs talk by QP number; a datagram (UD, GSI, SMI)
 * goes where the fabric routes it (fabric.c).  A SEND copies the sender's
 * bytes into the receiver's next posted receive; an RDMA WRITE or READ
 * copies to or from the memory an rkey of the receiver's PD grants; REG_MR
 * and LOCAL_INV act on an MR of the sender's PD.  Between RoCE devices a
 * message travels as a packet: it arrives only if the receiving device is
 * found by the netdev it comes in on (netdev.c), as a soft RoCE driver
 * finds it for each packet.  What hardware checks is checked here: keys,
 * access rights, bounds and lengths; failures complete with the IBTA
 * status and move the QP (and for the responder's faults, the peer) to
 * the error state.  Integrity MRs check and insert T10-DIF protection
 * information on the way (sig.c).
 *
 * Locking: runs with no lock of the sender held (qp.c's run holds a
 * reference and serialises the QP); takes the receiving QP's lock for a
 * delivery, so that its receive queue is consumed and completed in order.
 * The caller holds rcu_read_lock() for the MR lookups.
 */
#include "tdev_priv.h"

/* ---- cursors: bytes moved between lists of SGEs ---- */

/* A position in a list of SGEs of one PD, or in a WQE's inline data. */
struct tv_cursor {
	struct ib_pd *pd;
	const struct ib_sge *sge;
	int nsge;
	int idx;
	u32 off;
	int access;
	u8 *inline_buf;
	u32 inline_len;
};

static u32 tv_sge_total(const struct ib_sge *sge, int n)
{
	u32 sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += sge[i].length;
	return sum;
}

/* Next contiguous piece of the cursor, at most @max bytes; NULL on error. */
static void *tv_cursor_next(struct tv_cursor *c, u32 max, u32 *len)
{
	const struct ib_sge *s;
	void *va;
	u32 n;

	if (c->inline_buf) {
		if (c->off == c->inline_len)
			return NULL;
		n = min(max, c->inline_len - c->off);
		va = c->inline_buf + c->off;
		c->off += n;
		*len = n;
		return va;
	}
	while (c->idx < c->nsge && c->off == c->sge[c->idx].length) {
		c->idx++;
		c->off = 0;
	}
	if (c->idx == c->nsge)
		return NULL;
	s = &c->sge[c->idx];
	n = min(max, s->length - c->off);
	va = tv_mem_va(c->pd, s->lkey, s->addr + c->off, n, c->access, &n);
	if (!va)
		return NULL;
	*len = n;
	c->off += n;
	return va;
}

/* Gives back the last @n bytes the cursor handed out. */
static void tv_cursor_back(struct tv_cursor *c, u32 n)
{
	c->off -= n;
}

enum tv_copy_result { TV_COPY_OK, TV_COPY_SRC_ERR, TV_COPY_DST_ERR };

static enum tv_copy_result tv_copy(struct tv_cursor *dst,
				   struct tv_cursor *src, u32 len)
{
	while (len) {
		u32 sn, dn;
		void *s = tv_cursor_next(src, len, &sn);
		void *d;

		if (!s)
			return TV_COPY_SRC_ERR;
		d = tv_cursor_next(dst, sn, &dn);
		if (!d)
			return TV_COPY_DST_ERR;
		/* Give back what the destination could not take at once */
		tv_cursor_back(src, sn - dn);
		memcpy(d, s, dn);
		len -= dn;
	}
	return TV_COPY_OK;
}

/* Skips @len bytes of a cursor (the GRH room of a UD receive). */
static void *tv_cursor_skip(struct tv_cursor *c, u32 len)
{
	u32 n;
	void *va = tv_cursor_next(c, len, &n);

	return va && n == len ? va : NULL;
}

/*
 * Integrity MRs among @sge: make their wire view from memory before they
 * are read (@outbound), or move it to memory after they were written.
 */
static void tv_sig_pass(struct ib_pd *pd, const struct ib_sge *sge, int n,
			bool outbound)
{
	struct tdev *td = to_tdev(pd->device);
	struct tv_mr *mr;
	int i;

	for (i = 0; i < n; i++) {
		mr = tv_mr_integrity(pd, sge[i].lkey);
		if (!mr)
			continue;
		if (outbound)
			tv_sig_outbound(td, tv_mr_sig(mr), sge[i].lkey);
		else
			tv_sig_inbound(td, tv_mr_sig(mr), sge[i].lkey);
	}
}

/* ---- the send side ---- */

static struct tv_cursor tv_local(struct tv_qp *qp, struct tv_wqe *wqe,
				 int access)
{
	struct tv_cursor c = {
		.pd = qp->ibqp.pd,
		.sge = wqe->sge,
		.nsge = wqe->num_sge,
		.access = access,
	};

	if (wqe->send_flags & IB_SEND_INLINE) {
		c.inline_buf = (u8 *)&wqe->sge[qp->cap.max_send_sge];
		c.inline_len = wqe->inline_len;
	}
	return c;
}

static u32 tv_wqe_len(const struct tv_wqe *wqe)
{
	if (wqe->send_flags & IB_SEND_INLINE)
		return wqe->inline_len;
	return tv_sge_total(wqe->sge, wqe->num_sge);
}

static bool tv_is_connected(const struct tv_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_RC || qp->ibqp.qp_type == IB_QPT_UC;
}

/* The receive side of a message: fills @rwc, copies the data. */
static void tv_receive(struct tv_qp *qp, struct tv_qp *peer,
		       struct tv_wqe *wqe, u32 len, bool has_data,
		       const struct tv_dest *d, struct tv_recv_copy *r,
		       struct ib_wc *rwc)
{
	bool ud = d;
	struct tv_cursor dst = {
		.pd = peer->ibqp.pd, .sge = r->sge, .nsge = r->num_sge,
		.access = IB_ACCESS_LOCAL_WRITE,
	};
	u32 room = tv_sge_total(r->sge, r->num_sge);

	if (ud) {
		void *grh = room >= TV_GRH_LEN ?
			    tv_cursor_skip(&dst, TV_GRH_LEN) : NULL;

		if (!grh) {
			rwc->status = IB_WC_LOC_LEN_ERR;
			return;
		}
		tv_av_fill_grh(grh, &d->av, len, d->roce, rwc);
		room -= TV_GRH_LEN;
		rwc->byte_len = TV_GRH_LEN;
	}
	if (len > room) {
		rwc->status = IB_WC_LOC_LEN_ERR;
	} else if (has_data) {
		struct tv_cursor src = tv_local(qp, wqe, 0);

		if (!src.inline_buf)
			tv_sig_pass(src.pd, src.sge, src.nsge, true);
		if (tv_copy(&dst, &src, len) != TV_COPY_OK)
			rwc->status = IB_WC_LOC_PROT_ERR;
		else
			tv_sig_pass(dst.pd, r->sge, r->num_sge, false);
	}
	rwc->byte_len += len;
	if (wqe->opcode == IB_WR_SEND_WITH_IMM ||
	    wqe->opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		rwc->wc_flags |= IB_WC_WITH_IMM;
		rwc->ex.imm_data = wqe->ex.imm_data;
	} else if (wqe->opcode == IB_WR_SEND_WITH_INV && !rwc->status) {
		if (tv_invalidate(peer->ibqp.pd, wqe->ex.invalidate_rkey)) {
			rwc->wc_flags |= IB_WC_WITH_INVALIDATE;
			rwc->ex.invalidate_rkey = wqe->ex.invalidate_rkey;
		} else {
			rwc->status = IB_WC_REM_INV_REQ_ERR;
		}
	}
}

/* The LID of the sender's port (InfiniBand), 0 on RoCE. */
static u32 tv_sender_lid(struct tv_qp *qp)
{
	u32 port = READ_ONCE(qp->attr.port_num);

	if (qp->td->params.link_layer != IB_LINK_LAYER_INFINIBAND ||
	    port < 1 || port > qp->td->params.ports)
		return 0;
	return READ_ONCE(qp->td->port[port].lid);
}

/*
 * Delivers a message of @len bytes (a SEND, or a WRITE's immediate) to
 * @peer and completes its receive; returns the sender's status.  @d is
 * where a datagram was routed to, NULL for a connected QP.
 */
static enum ib_wc_status tv_deliver(struct tv_qp *qp, struct tv_qp *peer,
				    struct tv_wqe *wqe, u32 len,
				    bool has_data, const struct tv_dest *d)
{
	bool ud = d;
	struct ib_wc rwc = {
		.status = IB_WC_SUCCESS,
		.opcode = has_data ? IB_WC_RECV : IB_WC_RECV_RDMA_WITH_IMM,
		.qp = &peer->ibqp,
		.src_qp = qp->ibqp.qp_num,
	};
	bool limit = false, comm_est = false;
	struct tv_recv_copy r;
	unsigned long flags;

	spin_lock_irqsave(&peer->lock, flags);
	if (!tv_qp_can_receive(peer->state)) {
		spin_unlock_irqrestore(&peer->lock, flags);
		return ud ? IB_WC_SUCCESS : IB_WC_RETRY_EXC_ERR;
	}
	if (tv_is_connected(peer) && peer->state == IB_QPS_RTR &&
	    !peer->comm_est) {
		peer->comm_est = true;
		comm_est = true;
	}
	if (!tv_qp_take_recv(peer, &r, &limit)) {
		spin_unlock_irqrestore(&peer->lock, flags);
		if (comm_est)
			tv_qp_event(peer, IB_EVENT_COMM_EST);
		return ud ? IB_WC_SUCCESS : IB_WC_RNR_RETRY_EXC_ERR;
	}
	rwc.wr_id = r.wr_id;
	rwc.slid = tv_sender_lid(qp);
	rwc.port_num = peer->attr.port_num;
	rwc.pkey_index = peer->attr.pkey_index;
	if (d) {
		rwc.port_num = d->port;
		rwc.pkey_index = d->pkey_index;
		rwc.sl = rdma_ah_get_sl(&d->av.attr);
	}
	tv_receive(qp, peer, wqe, len, has_data, d, &r, &rwc);
	tv_cq_push(peer->ibqp.recv_cq, &rwc, r.ring, r.index,
		   wqe->send_flags & IB_SEND_SOLICITED);
	if (rwc.status != IB_WC_SUCCESS)
		tv_qp_error_locked(peer);
	spin_unlock_irqrestore(&peer->lock, flags);

	if (comm_est)
		tv_qp_event(peer, IB_EVENT_COMM_EST);
	if (limit)
		tv_srq_limit_event(peer->ibqp.srq);
	if (rwc.status == IB_WC_SUCCESS || ud)
		return IB_WC_SUCCESS;
	return rwc.status == IB_WC_LOC_LEN_ERR ? IB_WC_REM_INV_REQ_ERR :
						 IB_WC_REM_OP_ERR;
}

/*
 * The peer of a connected QP, with a reference; NULL if there is none,
 * or the message would not reach it.
 */
static struct tv_qp *tv_peer_get(struct tv_qp *qp)
{
	struct tv_qp *peer;

	peer = tv_qp_get(READ_ONCE(qp->attr.dest_qp_num));
	if (!peer)
		return NULL;
	if (peer->ibqp.qp_type != qp->ibqp.qp_type ||
	    !tv_packet_arrives(peer->td) ||
	    !tv_qp_can_receive(READ_ONCE(peer->state))) {
		tv_qp_put(peer);
		return NULL;
	}
	return peer;
}

/* A datagram: routed over the fabric, lost if it reaches no QP. */
static enum ib_wc_status tv_exec_datagram(struct tv_qp *qp,
					  struct tv_wqe *wqe, u32 len)
{
	struct tv_dest d;
	enum ib_wc_status status;

	if (!tv_route(qp, wqe, &d))
		return IB_WC_SUCCESS;
	status = tv_deliver(qp, d.qp, wqe, len, true, &d);
	tv_qp_put(d.qp);
	return status;
}

static enum ib_wc_status tv_exec_rdma(struct tv_qp *qp, struct tv_qp *peer,
				      struct tv_wqe *wqe, u32 len)
{
	struct ib_sge remote = {
		.addr = wqe->rdma.remote_addr, .length = len,
		.lkey = wqe->rdma.rkey,
	};
	struct tv_cursor far = { .pd = peer->ibqp.pd, .sge = &remote,
				 .nsge = 1 };
	struct tv_cursor near;
	enum tv_copy_result res;

	if (wqe->opcode == IB_WR_RDMA_READ) {
		near = tv_local(qp, wqe, IB_ACCESS_LOCAL_WRITE);
		far.access = IB_ACCESS_REMOTE_READ;
		tv_sig_pass(far.pd, &remote, 1, true);
		res = tv_copy(&near, &far, len);
		if (res == TV_COPY_SRC_ERR)
			return IB_WC_REM_ACCESS_ERR;
		if (res == TV_COPY_OK)
			tv_sig_pass(near.pd, wqe->sge, wqe->num_sge, false);
	} else {
		near = tv_local(qp, wqe, 0);
		far.access = IB_ACCESS_REMOTE_WRITE;
		if (!near.inline_buf)
			tv_sig_pass(near.pd, wqe->sge, wqe->num_sge, true);
		res = tv_copy(&far, &near, len);
		if (res == TV_COPY_DST_ERR)
			return IB_WC_REM_ACCESS_ERR;
		if (res == TV_COPY_OK)
			tv_sig_pass(far.pd, &remote, 1, false);
	}
	if (res != TV_COPY_OK)
		return IB_WC_LOC_PROT_ERR;
	if (wqe->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		return tv_deliver(qp, peer, wqe, len, false, NULL);
	return IB_WC_SUCCESS;
}

/**
 * tv_exec - execute one send work request
 * @qp: the sending QP, in RTS
 * @wqe: the work request
 * @byte_len: set to the bytes it moves
 *
 * Called by the engine with rcu_read_lock() held and no lock of @qp.
 *
 * Return: the status of the sender's completion.
 */
enum ib_wc_status tv_exec(struct tv_qp *qp, struct tv_wqe *wqe, u32 *byte_len)
{
	u32 len = tv_wqe_len(wqe);
	enum ib_wc_status status;
	struct tv_qp *peer;

	*byte_len = len;
	switch (wqe->opcode) {
	case IB_WR_REG_MR:
	case IB_WR_REG_MR_INTEGRITY:
		return tv_reg_mr(qp->ibqp.pd, wqe);
	case IB_WR_LOCAL_INV:
		return tv_invalidate(qp->ibqp.pd, wqe->ex.invalidate_rkey) ?
		       IB_WC_SUCCESS : IB_WC_LOC_PROT_ERR;
	default:
		break;
	}

	if (tv_is_datagram(qp->ibqp.qp_type))
		return tv_exec_datagram(qp, wqe, len);
	peer = tv_peer_get(qp);
	if (!peer)
		return IB_WC_RETRY_EXC_ERR;
	switch (wqe->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		status = tv_exec_rdma(qp, peer, wqe, len);
		break;
	default:
		status = tv_deliver(qp, peer, wqe, len, true, NULL);
		break;
	}
	tv_qp_put(peer);
	return status;
}
