// SPDX-License-Identifier: GPL-2.0
/*
 * Posting work requests through the kernel: write() POST_SEND, POST_RECV
 * and POST_SRQ_RECV.  The user's work requests (of wqe_size bytes each,
 * which may be larger than the kernel knows) and their scatter/gather
 * entries follow the command; they are turned into a chain of the kernel
 * verbs' work requests, posted with the driver's post_* operation, and
 * freed.  A driver whose queues userspace writes itself (rxe) takes
 * POST_SEND without work requests as its doorbell.
 *
 * The QP or SRQ, and the AH of each UD work request, are used shared for
 * the time of the command.
 */
#include "objects.h"

/* The position (from 1) of @bad in the chain @first; 0 without error. */
static u32 post_bad_index(const void *first, const void *bad,
			  const void *(*next)(const void *))
{
	const void *wr;
	u32 n = 0;

	for (wr = first; wr; wr = next(wr)) {
		n++;
		if (wr == bad)
			break;
	}
	return n;
}

/*
 * The user's arrays after a post command: @count work requests of @size
 * bytes, then @sges scatter/gather entries.  Nothing may follow them.
 */
static int post_arrays(struct uverbs_req_iter *iter, u32 count, u32 size,
		       u32 sges, const void __user **wqes,
		       const struct ib_sge __user **sgls)
{
	*wqes = uverbs_write_request_next_ptr(iter, size_mul(count, size));
	if (IS_ERR(*wqes))
		return PTR_ERR(*wqes);
	*sgls = uverbs_write_request_next_ptr(iter,
					      size_mul(sges,
						       sizeof(struct ib_uverbs_sge)));
	if (IS_ERR(*sgls))
		return PTR_ERR(*sgls);
	return uverbs_write_request_finish(iter);
}

/*
 * A work request of @size bytes followed by room for @num_sge entries,
 * its sg_list pointing there (NULL without entries), filled from @sgls.
 */
static void *post_wr_alloc(size_t size, u32 num_sge,
			   const struct ib_sge __user *sgls, int *err)
{
	size_t head = ALIGN(size, sizeof(struct ib_sge));
	size_t bytes = size_add(head, size_mul(num_sge, sizeof(struct ib_sge)));
	struct ib_sge **sg_list;
	void *wr;

	wr = kmalloc(bytes, GFP_KERNEL | __GFP_NOWARN);
	if (!wr) {
		*err = -ENOMEM;
		return NULL;
	}
	/* sg_list sits at the same place in send and receive WRs. */
	BUILD_BUG_ON(offsetof(struct ib_send_wr, sg_list) !=
		     offsetof(struct ib_recv_wr, sg_list));
	sg_list = wr + offsetof(struct ib_send_wr, sg_list);
	*sg_list = num_sge ? wr + head : NULL;
	if (num_sge && copy_from_user(wr + head, sgls,
				      num_sge * sizeof(struct ib_sge))) {
		kfree(wr);
		*err = -EFAULT;
		return NULL;
	}
	return wr;
}

/* The kernel's send WR for one UD user WR: it names an AH to use. */
static struct ib_send_wr *post_ud_wr(struct uverbs_attr_bundle *attrs,
				     const struct ib_uverbs_send_wr *u,
				     const struct ib_sge __user *sgls, int *err)
{
	struct ib_ud_wr *ud;

	if (u->opcode != IB_WR_SEND && u->opcode != IB_WR_SEND_WITH_IMM) {
		*err = -EINVAL;
		return NULL;
	}
	ud = post_wr_alloc(sizeof(*ud), u->num_sge, sgls, err);
	if (!ud)
		return NULL;
	ud->ah = uobj_get_obj_read(ah, UVERBS_OBJECT_AH, u->wr.ud.ah, attrs);
	if (IS_ERR(ud->ah)) {
		*err = PTR_ERR(ud->ah);
		kfree(ud);
		return NULL;
	}
	ud->remote_qpn = u->wr.ud.remote_qpn;
	ud->remote_qkey = u->wr.ud.remote_qkey;
	return &ud->wr;
}

static struct ib_send_wr *post_rdma_wr(const struct ib_uverbs_send_wr *u,
				       const struct ib_sge __user *sgls,
				       int *err)
{
	struct ib_rdma_wr *rdma = post_wr_alloc(sizeof(*rdma), u->num_sge,
						sgls, err);

	if (!rdma)
		return NULL;
	rdma->remote_addr = u->wr.rdma.remote_addr;
	rdma->rkey = u->wr.rdma.rkey;
	return &rdma->wr;
}

static struct ib_send_wr *post_atomic_wr(const struct ib_uverbs_send_wr *u,
					 const struct ib_sge __user *sgls,
					 int *err)
{
	struct ib_atomic_wr *atomic = post_wr_alloc(sizeof(*atomic),
						    u->num_sge, sgls, err);

	if (!atomic)
		return NULL;
	atomic->remote_addr = u->wr.atomic.remote_addr;
	atomic->compare_add = u->wr.atomic.compare_add;
	atomic->swap = u->wr.atomic.swap;
	atomic->rkey = u->wr.atomic.rkey;
	return &atomic->wr;
}

/* The kernel's send WR for one user WR of a QP that is not UD. */
static struct ib_send_wr *post_conn_wr(const struct ib_uverbs_send_wr *u,
				       const struct ib_sge __user *sgls,
				       int *err)
{
	switch (u->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		return post_rdma_wr(u, sgls, err);
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return post_atomic_wr(u, sgls, err);
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
		return post_wr_alloc(sizeof(struct ib_send_wr), u->num_sge,
				     sgls, err);
	default:
		*err = -EINVAL;
		return NULL;
	}
}

static struct ib_send_wr *post_send_wr(struct uverbs_attr_bundle *attrs,
				       struct ib_qp *qp,
				       const struct ib_uverbs_send_wr *u,
				       const struct ib_sge __user *sgls,
				       int *err)
{
	struct ib_send_wr *wr;

	wr = qp->qp_type == IB_QPT_UD ? post_ud_wr(attrs, u, sgls, err) :
					post_conn_wr(u, sgls, err);
	if (!wr)
		return NULL;
	wr->next = NULL;
	wr->wr_id = u->wr_id;
	wr->num_sge = u->num_sge;
	wr->opcode = u->opcode;
	wr->send_flags = u->send_flags;
	if (u->opcode == IB_WR_SEND_WITH_IMM ||
	    u->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		wr->ex.imm_data = (__force __be32)u->ex.imm_data;
	else if (u->opcode == IB_WR_SEND_WITH_INV)
		wr->ex.invalidate_rkey = u->ex.invalidate_rkey;
	return wr;
}

static void post_send_free(struct ib_send_wr *wr, bool ud)
{
	struct ib_send_wr *next;

	for (; wr; wr = next) {
		next = wr->next;
		if (ud)
			uobj_put_obj_read(ud_wr(wr)->ah);
		kfree(wr);
	}
}

/* The user's work requests as a chain; NULL for none. */
static struct ib_send_wr *post_send_chain(struct uverbs_attr_bundle *attrs,
					  struct ib_qp *qp,
					  const struct ib_uverbs_post_send *cmd,
					  const void __user *wqes,
					  const struct ib_sge __user *sgls,
					  int *err)
{
	struct ib_send_wr *first = NULL, **tail = &first;
	struct ib_uverbs_send_wr *u;
	u32 i, sge = 0;

	u = kmalloc(cmd->wqe_size, GFP_KERNEL | __GFP_NOWARN);
	if (!u) {
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < cmd->wr_count; i++) {
		*err = copy_from_user(u, wqes + (size_t)i * cmd->wqe_size,
				      cmd->wqe_size) ? -EFAULT : 0;
		if (!*err && u->num_sge > cmd->sge_count - sge)
			*err = -EINVAL;
		if (*err)
			break;
		*tail = post_send_wr(attrs, qp, u, sgls + sge, err);
		if (!*tail)
			break;
		tail = &(*tail)->next;
		sge += u->num_sge;
	}
	kfree(u);
	if (*err) {
		post_send_free(first, qp->qp_type == IB_QPT_UD);
		return NULL;
	}
	return first;
}

static const void *post_send_next(const void *wr)
{
	return ((const struct ib_send_wr *)wr)->next;
}

static int post_send(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_post_send_resp resp = {};
	const struct ib_send_wr *bad = NULL;
	const struct ib_sge __user *sgls;
	struct ib_uverbs_post_send cmd;
	struct uverbs_req_iter iter;
	struct ib_send_wr *wr;
	const void __user *wqes;
	struct ib_qp *qp;
	int ret, err = 0;
	bool ud;

	ret = uverbs_write_request_start(attrs, &iter, &cmd, sizeof(cmd));
	if (!ret)
		ret = post_arrays(&iter, cmd.wr_count, cmd.wqe_size,
				  cmd.sge_count, &wqes, &sgls);
	if (ret)
		return ret;
	if (cmd.wqe_size < sizeof(struct ib_uverbs_send_wr))
		return -EINVAL;
	qp = objs_get_qp(attrs, cmd.qp_handle);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	ud = qp->qp_type == IB_QPT_UD;

	wr = post_send_chain(attrs, qp, &cmd, wqes, sgls, &err);
	if (!err) {
		/* No work request: the driver's doorbell (rxe). */
		ret = qp->device->ops.post_send(qp->real_qp, wr, &bad);
		if (ret)
			resp.bad_wr = post_bad_index(wr, bad, post_send_next);
		err = uverbs_write_response(attrs, &resp, sizeof(resp)) ?: ret;
	}
	objs_put_qp(qp);
	post_send_free(wr, ud);
	return err;
}

static void post_recv_free(struct ib_recv_wr *wr)
{
	struct ib_recv_wr *next;

	for (; wr; wr = next) {
		next = wr->next;
		kfree(wr);
	}
}

/* The receive work requests after a post command, as a chain. */
static struct ib_recv_wr *post_recv_chain(struct uverbs_req_iter *iter,
					  u32 count, u32 size, u32 sges,
					  int *err)
{
	struct ib_recv_wr *first = NULL, **tail = &first;
	const struct ib_sge __user *sgls;
	struct ib_uverbs_recv_wr *u;
	const void __user *wqes;
	u32 i, sge = 0;

	*err = size < sizeof(*u) ? -EINVAL :
	       post_arrays(iter, count, size, sges, &wqes, &sgls);
	if (*err)
		return NULL;
	u = kmalloc(size, GFP_KERNEL | __GFP_NOWARN);
	if (!u) {
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < count; i++) {
		*err = copy_from_user(u, wqes + (size_t)i * size, size) ?
		       -EFAULT : 0;
		if (!*err && u->num_sge > sges - sge)
			*err = -EINVAL;
		if (*err)
			break;
		*tail = post_wr_alloc(sizeof(**tail), u->num_sge, sgls + sge,
				      err);
		if (!*tail)
			break;
		(*tail)->next = NULL;
		(*tail)->wr_id = u->wr_id;
		(*tail)->num_sge = u->num_sge;
		tail = &(*tail)->next;
		sge += u->num_sge;
	}
	kfree(u);
	if (*err) {
		post_recv_free(first);
		return NULL;
	}
	return first;
}

static const void *post_recv_next(const void *wr)
{
	return ((const struct ib_recv_wr *)wr)->next;
}

/* Answer a receive post: the 1-based index of the failed WR, if any. */
static int post_recv_answer(struct uverbs_attr_bundle *attrs, int ret,
			    const struct ib_recv_wr *wr,
			    const struct ib_recv_wr *bad)
{
	struct ib_uverbs_post_recv_resp resp = {};

	BUILD_BUG_ON(sizeof(resp) !=
		     sizeof(struct ib_uverbs_post_srq_recv_resp));
	if (ret)
		resp.bad_wr = post_bad_index(wr, bad, post_recv_next);
	return uverbs_write_response(attrs, &resp, sizeof(resp)) ?: ret;
}

static int post_recv(struct uverbs_attr_bundle *attrs)
{
	const struct ib_recv_wr *bad = NULL;
	struct ib_uverbs_post_recv cmd;
	struct uverbs_req_iter iter;
	struct ib_recv_wr *wr;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_write_request_start(attrs, &iter, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	wr = post_recv_chain(&iter, cmd.wr_count, cmd.wqe_size, cmd.sge_count,
			     &ret);
	if (ret)
		return ret;
	qp = objs_get_qp(attrs, cmd.qp_handle);
	if (IS_ERR(qp)) {
		post_recv_free(wr);
		return PTR_ERR(qp);
	}
	ret = qp->device->ops.post_recv(qp->real_qp, wr, &bad);
	objs_put_qp(qp);
	ret = post_recv_answer(attrs, ret, wr, bad);
	post_recv_free(wr);
	return ret;
}

static int post_srq_recv(struct uverbs_attr_bundle *attrs)
{
	const struct ib_recv_wr *bad = NULL;
	struct ib_uverbs_post_srq_recv cmd;
	struct uverbs_req_iter iter;
	struct ib_recv_wr *wr;
	struct ib_srq *srq;
	int ret;

	ret = uverbs_write_request_start(attrs, &iter, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	wr = post_recv_chain(&iter, cmd.wr_count, cmd.wqe_size, cmd.sge_count,
			     &ret);
	if (ret)
		return ret;
	srq = objs_get_srq(attrs, cmd.srq_handle);
	if (IS_ERR(srq)) {
		post_recv_free(wr);
		return PTR_ERR(srq);
	}
	ret = srq->device->ops.post_srq_recv(srq, wr, &bad);
	objs_put_srq(srq);
	ret = post_recv_answer(attrs, ret, wr, bad);
	post_recv_free(wr);
	return ret;
}

const struct uapi_definition uverbs_def_obj_post[] = {
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_QP,
		UVERBS_WRITE(IB_USER_VERBS_CMD_POST_SEND, post_send,
			     UVERBS_WRITE_IO(struct ib_uverbs_post_send,
					     struct ib_uverbs_post_send_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(post_send),
		UVERBS_WRITE(IB_USER_VERBS_CMD_POST_RECV, post_recv,
			     UVERBS_WRITE_IO(struct ib_uverbs_post_recv,
					     struct ib_uverbs_post_recv_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(post_recv)),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_SRQ,
		UVERBS_WRITE(IB_USER_VERBS_CMD_POST_SRQ_RECV, post_srq_recv,
			     UVERBS_WRITE_IO(struct ib_uverbs_post_srq_recv,
					     struct ib_uverbs_post_srq_recv_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(post_srq_recv)),
	{}
};
