// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: the send side.  A send work request is executed
 * synchronously inside post_send: its bytes are copied with memcpy from the
 * sender's SGEs into the peer's posted receive buffers (SEND), or from or
 * to the peer's MR (RDMA READ/WRITE), and its completions go to both CQs
 * before post_send returns.  REG_MR and LOCAL_INV act on the MR at once.
 *
 * Owns nothing of its own: it reads the QPs (qp.c), the receives it takes
 * from them, the memory keys grant (mr.c) and the AHs (ah.c), and completes
 * work on the CQs (cq.c).
 *
 * Locking: takes no lock itself.  The QP state and receives are read under
 * the QP's or SRQ's lock by qp.c's helpers, one at a time; completions are
 * pushed with no lock held, so a completion handler may post again.
 */
#include "tdev_priv.h"

#define TV_GRH_LEN	40

/* ---- cursors: bytes moved between lists of SGEs ---- */

/* A position in a list of SGEs of one PD. */
struct tv_cursor {
	struct ib_pd *pd;
	const struct ib_sge *sge;
	int nsge;
	int idx;
	u32 off;
	int access;
	bool inline_data;	/* addresses are kernel addresses, no key */
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

	while (c->idx < c->nsge && c->off == c->sge[c->idx].length) {
		c->idx++;
		c->off = 0;
	}
	if (c->idx == c->nsge)
		return NULL;
	s = &c->sge[c->idx];
	n = min(max, s->length - c->off);
	if (c->inline_data) {
		va = (void *)(uintptr_t)(s->addr + c->off);
	} else {
		va = tv_mem_va(c->pd, s->lkey, s->addr + c->off, n, c->access,
			       &n);
		if (!va)
			return NULL;
	}
	*len = n;
	c->off += n;
	return va;
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
		src->off -= sn - dn;
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

/* ---- the send side: work requests executed at post time ---- */

/* The sender's completion opcode of each work request opcode (0: SEND). */
static const u8 tv_wc_opcodes[] = {
	[IB_WR_RDMA_WRITE]		= IB_WC_RDMA_WRITE,
	[IB_WR_RDMA_WRITE_WITH_IMM]	= IB_WC_RDMA_WRITE,
	[IB_WR_RDMA_READ]		= IB_WC_RDMA_READ,
	[IB_WR_REG_MR]			= IB_WC_REG_MR,
	[IB_WR_LOCAL_INV]		= IB_WC_LOCAL_INV,
};

static enum ib_wc_opcode tv_wc_opcode(enum ib_wr_opcode op)
{
	return op < ARRAY_SIZE(tv_wc_opcodes) ? tv_wc_opcodes[op] : IB_WC_SEND;
}

static bool tv_opcode_ok(enum ib_qp_type type, enum ib_wr_opcode op)
{
	switch (op) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		return true;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_REG_MR:
	case IB_WR_LOCAL_INV:
		return type != IB_QPT_UD;
	case IB_WR_RDMA_READ:
		return type == IB_QPT_RC;
	default:
		return false;
	}
}

static struct tv_cursor tv_local(struct tv_qp *qp, const struct ib_send_wr *wr,
				 int access)
{
	return (struct tv_cursor){
		.pd = qp->ibqp.pd,
		.sge = wr->sg_list,
		.nsge = wr->num_sge,
		.access = access,
		.inline_data = !!(wr->send_flags & IB_SEND_INLINE),
	};
}

/* Delivers a message of @len bytes (a SEND, or a WRITE's immediate) to
 * @peer; returns the sender's status.
 */
static enum ib_wc_status tv_deliver(struct tv_qp *qp, struct tv_qp *peer,
				    const struct ib_send_wr *wr, u32 len,
				    bool has_data)
{
	bool ud = qp->ibqp.qp_type == IB_QPT_UD;
	struct ib_wc rwc = {
		.status = IB_WC_SUCCESS,
		.opcode = has_data ? IB_WC_RECV : IB_WC_RECV_RDMA_WITH_IMM,
		.qp = &peer->ibqp,
		.src_qp = qp->ibqp.qp_num,
		.port_num = peer->attr.port_num,
		.pkey_index = peer->attr.pkey_index,
		.slid = qp->attr.port_num,
	};
	struct tv_cursor dst;
	struct tv_recv r;
	u32 room;

	if (!tv_take_recv(peer, &r))
		return ud ? IB_WC_SUCCESS : IB_WC_RNR_RETRY_EXC_ERR;
	rwc.wr_id = r.wr_id;

	dst = (struct tv_cursor){ .pd = peer->ibqp.pd, .sge = r.sge,
				  .nsge = r.num_sge,
				  .access = IB_ACCESS_LOCAL_WRITE };
	room = tv_sge_total(r.sge, r.num_sge);
	if (ud) {
		const struct ib_ah *ah = ud_wr(wr)->ah;
		void *grh = room >= TV_GRH_LEN ?
			    tv_cursor_skip(&dst, TV_GRH_LEN) : NULL;

		if (!grh) {
			rwc.status = IB_WC_LOC_LEN_ERR;
			goto out;
		}
		if (tv_ah_has_grh(ah)) {
			tv_fill_grh(grh, ah, len);
			rwc.wc_flags |= IB_WC_GRH;
		}
		room -= TV_GRH_LEN;
		rwc.byte_len = TV_GRH_LEN;
	}
	if (len > room) {
		rwc.status = IB_WC_LOC_LEN_ERR;
	} else if (has_data) {
		struct tv_cursor src = tv_local(qp, wr, 0);

		if (tv_copy(&dst, &src, len) != TV_COPY_OK)
			rwc.status = IB_WC_LOC_PROT_ERR;
	}
	rwc.byte_len += len;
	if (wr->opcode == IB_WR_SEND_WITH_IMM ||
	    wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		rwc.wc_flags |= IB_WC_WITH_IMM;
		rwc.ex.imm_data = wr->ex.imm_data;
	} else if (wr->opcode == IB_WR_SEND_WITH_INV && !rwc.status) {
		if (tv_invalidate(peer->ibqp.pd, wr->ex.invalidate_rkey)) {
			rwc.wc_flags |= IB_WC_WITH_INVALIDATE;
			rwc.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		} else {
			rwc.status = IB_WC_REM_INV_REQ_ERR;
		}
	}
out:
	tv_cq_push(peer->ibqp.recv_cq, &rwc,
		   wr->send_flags & IB_SEND_SOLICITED);
	if (rwc.status == IB_WC_SUCCESS)
		return IB_WC_SUCCESS;
	tv_qp_error(peer);
	if (ud)
		return IB_WC_SUCCESS;
	return rwc.status == IB_WC_LOC_LEN_ERR ? IB_WC_REM_INV_REQ_ERR :
						 IB_WC_REM_OP_ERR;
}

/* The peer of a connected QP, or of a UD work request; NULL if none. */
static struct tv_qp *tv_peer(struct tv_qp *qp, const struct ib_send_wr *wr)
{
	struct tv_qp *peer;
	enum ib_qp_state s;
	u32 qpn;

	qpn = qp->ibqp.qp_type == IB_QPT_UD ? ud_wr(wr)->remote_qpn :
					      qp->attr.dest_qp_num;
	peer = tv_qp_lookup(qpn);
	if (!peer || peer->ibqp.qp_type != qp->ibqp.qp_type)
		return NULL;
	s = tv_qp_state(peer);
	if (s != IB_QPS_RTR && s != IB_QPS_RTS && s != IB_QPS_SQD)
		return NULL;
	if (qp->ibqp.qp_type == IB_QPT_UD &&
	    ud_wr(wr)->remote_qkey != peer->attr.qkey)
		return NULL;
	return peer;
}

static enum ib_wc_status tv_exec_rdma(struct tv_qp *qp, struct tv_qp *peer,
				      const struct ib_send_wr *wr, u32 len)
{
	const struct ib_rdma_wr *rw = rdma_wr(wr);
	struct ib_sge remote = {
		.addr = rw->remote_addr, .length = len, .lkey = rw->rkey,
	};
	struct tv_cursor far = { .pd = peer->ibqp.pd, .sge = &remote,
				 .nsge = 1 };
	struct tv_cursor near;
	enum tv_copy_result res;

	if (wr->opcode == IB_WR_RDMA_READ) {
		near = tv_local(qp, wr, IB_ACCESS_LOCAL_WRITE);
		far.access = IB_ACCESS_REMOTE_READ;
		res = tv_copy(&near, &far, len);
		if (res == TV_COPY_SRC_ERR)
			return IB_WC_REM_ACCESS_ERR;
	} else {
		near = tv_local(qp, wr, 0);
		far.access = IB_ACCESS_REMOTE_WRITE;
		res = tv_copy(&far, &near, len);
		if (res == TV_COPY_DST_ERR)
			return IB_WC_REM_ACCESS_ERR;
	}
	if (res != TV_COPY_OK)
		return IB_WC_LOC_PROT_ERR;
	if (wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		return tv_deliver(qp, peer, wr, len, false);
	return IB_WC_SUCCESS;
}

static enum ib_wc_status tv_exec(struct tv_qp *qp, const struct ib_send_wr *wr,
				 u32 *byte_len)
{
	u32 len = tv_sge_total(wr->sg_list, wr->num_sge);
	struct tv_qp *peer;

	*byte_len = len;
	switch (wr->opcode) {
	case IB_WR_REG_MR:
		return tv_reg_mr(qp->ibqp.pd, reg_wr(wr));
	case IB_WR_LOCAL_INV:
		return tv_invalidate(qp->ibqp.pd, wr->ex.invalidate_rkey) ?
		       IB_WC_SUCCESS : IB_WC_LOC_PROT_ERR;
	default:
		break;
	}

	peer = tv_peer(qp, wr);
	if (!peer)
		return qp->ibqp.qp_type == IB_QPT_UD ? IB_WC_SUCCESS :
						       IB_WC_RETRY_EXC_ERR;
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		return tv_exec_rdma(qp, peer, wr, len);
	default:
		return tv_deliver(qp, peer, wr, len, true);
	}
}

static int tv_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			const struct ib_send_wr **bad_wr)
{
	struct tv_qp *qp = to_tqp(ibqp);

	for (; wr; wr = wr->next) {
		enum ib_qp_state s = tv_qp_state(qp);
		struct ib_wc wc = {
			.wr_id = wr->wr_id,
			.opcode = tv_wc_opcode(wr->opcode),
			.qp = ibqp,
		};

		if (!tv_opcode_ok(ibqp->qp_type, wr->opcode) ||
		    wr->num_sge < 0 || wr->num_sge > qp->cap.max_send_sge ||
		    (s != IB_QPS_RTS && s != IB_QPS_ERR)) {
			*bad_wr = wr;
			return -EINVAL;
		}
		if (s == IB_QPS_ERR)
			wc.status = IB_WC_WR_FLUSH_ERR;
		else
			wc.status = tv_exec(qp, wr, &wc.byte_len);

		if (wc.status || qp->sig_all ||
		    (wr->send_flags & IB_SEND_SIGNALED))
			tv_cq_push(ibqp->send_cq, &wc, false);
		if (wc.status && s != IB_QPS_ERR)
			tv_qp_error(qp);
	}
	return 0;
}

const struct ib_device_ops tdev_datapath_ops = {
	.post_send = tv_post_send,
};
