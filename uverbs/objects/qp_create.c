// SPDX-License-Identifier: GPL-2.0
/*
 * write() CREATE_QP and EX_CREATE_QP: the objects a new QP uses are named
 * by handle, looked up shared for the time of the command, and the QP is
 * created by objs_qp_create() (qp.c).
 */
#include "objects.h"

/* The creation flags a user may ask for (more are the kernel's). */
#define QP_CREATE_USER_FLAGS						\
	(IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |			\
	 IB_QP_CREATE_CROSS_CHANNEL | IB_QP_CREATE_MANAGED_SEND |	\
	 IB_QP_CREATE_MANAGED_RECV | IB_QP_CREATE_SCATTER_FCS |	\
	 IB_QP_CREATE_CVLAN_STRIPPING | IB_QP_CREATE_SOURCE_QPN |	\
	 IB_QP_CREATE_PCI_WRITE_END_PADDING)

/* What a write() creation looked up, to give back when it is done. */
struct qp_refs {
	struct ib_uobject *xrcd;
	struct ib_pd *pd;
	struct ib_cq *scq, *rcq;
	struct ib_srq *srq;
};

static void qp_refs_put(struct qp_refs *r)
{
	if (r->xrcd)
		uobj_put_read(r->xrcd);
	if (r->pd)
		objs_put_pd(r->pd);
	if (r->scq)
		objs_put_cq(r->scq);
	if (r->rcq && r->rcq != r->scq)
		objs_put_cq(r->rcq);
	if (r->srq)
		objs_put_srq(r->srq);
}

/* Look @handle up as a CQ into *@cq (NULL on failure). */
static int qp_get_cq(struct uverbs_attr_bundle *attrs, u32 handle,
		     struct ib_cq **cq)
{
	struct ib_cq *found = objs_get_cq(attrs, handle);

	*cq = IS_ERR(found) ? NULL : found;
	return PTR_ERR_OR_ZERO(found);
}

static int qp_get_xrcd(struct uverbs_attr_bundle *attrs,
		       const struct ib_uverbs_ex_create_qp *cmd,
		       struct objs_qp_params *p, struct qp_refs *r)
{
	struct ib_uobject *uobj = uobj_get_read(UVERBS_OBJECT_XRCD,
						cmd->pd_handle, attrs);
	struct ib_xrcd *xrcd;

	if (IS_ERR(uobj))
		return -EINVAL;
	r->xrcd = uobj;
	xrcd = uobj->object;
	if (!xrcd)
		return -EINVAL;
	p->xrcd_uobj = uobj;
	p->attr.xrcd = xrcd;
	p->device = xrcd->device;
	return 0;
}

/* The receive side: an SRQ (not an XRC one) and a receive CQ. */
static int qp_get_recv(struct uverbs_attr_bundle *attrs,
		       const struct ib_uverbs_ex_create_qp *cmd,
		       struct qp_refs *r)
{
	struct ib_srq *srq;

	if (cmd->is_srq) {
		srq = objs_get_srq(attrs, cmd->srq_handle);
		if (IS_ERR(srq))
			return PTR_ERR(srq);
		r->srq = srq;
		if (srq->srq_type == IB_SRQT_XRC)
			return -EINVAL;
	}
	if (cmd->recv_cq_handle == cmd->send_cq_handle)
		return 0;
	return qp_get_cq(attrs, cmd->recv_cq_handle, &r->rcq);
}

static int qp_get_objects(struct uverbs_attr_bundle *attrs,
			  struct ib_uverbs_ex_create_qp *cmd,
			  struct objs_qp_params *p, struct qp_refs *r)
{
	int ret;

	if (cmd->qp_type == IB_QPT_XRC_TGT)
		return qp_get_xrcd(attrs, cmd, p, r);

	if (cmd->qp_type == IB_QPT_XRC_INI) {
		/* An XRC initiator has no receive side. */
		cmd->max_recv_wr = 0;
		cmd->max_recv_sge = 0;
	} else {
		ret = qp_get_recv(attrs, cmd, r);
		if (ret)
			return ret;
	}
	ret = qp_get_cq(attrs, cmd->send_cq_handle, &r->scq);
	if (ret)
		return ret;
	if (cmd->qp_type != IB_QPT_XRC_INI && !r->rcq)
		r->rcq = r->scq;

	r->pd = objs_get_pd(attrs, cmd->pd_handle);
	if (IS_ERR(r->pd)) {
		ret = PTR_ERR(r->pd);
		r->pd = NULL;
		return ret;
	}
	p->pd = r->pd;
	p->device = r->pd->device;
	return 0;
}

static int qp_type_check(u8 type)
{
	switch (type) {
	case IB_QPT_UD:
	case IB_QPT_UC:
	case IB_QPT_RC:
	case IB_QPT_XRC_TGT:
	case IB_QPT_XRC_INI:
	case IB_QPT_DRIVER:
		return 0;
	case IB_QPT_RAW_PACKET:
		return capable(CAP_NET_RAW) ? 0 : -EPERM;
	default:
		return -EINVAL;
	}
}

static int qp_params_from_cmd(const struct ib_uverbs_ex_create_qp *cmd,
			      const struct qp_refs *r,
			      struct objs_qp_params *p)
{
	struct ib_qp_init_attr *a = &p->attr;

	if (cmd->create_flags & ~QP_CREATE_USER_FLAGS)
		return -EINVAL;
	if ((cmd->create_flags & IB_QP_CREATE_SOURCE_QPN) &&
	    !capable(CAP_NET_RAW))
		return -EPERM;

	a->qp_type = cmd->qp_type;
	a->send_cq = r->scq;
	a->recv_cq = r->rcq;
	a->srq = r->srq;
	a->sq_sig_type = cmd->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	a->create_flags = cmd->create_flags;
	if (a->create_flags & IB_QP_CREATE_SOURCE_QPN)
		a->source_qpn = cmd->source_qpn;
	a->cap = (struct ib_qp_cap) {
		.max_send_wr = cmd->max_send_wr,
		.max_recv_wr = cmd->max_recv_wr,
		.max_send_sge = cmd->max_send_sge,
		.max_recv_sge = cmd->max_recv_sge,
		.max_inline_data = cmd->max_inline_data,
	};
	p->user_handle = cmd->user_handle;
	/* No such attribute in write(): the default async event file */
	p->event_attr = UVERBS_ATTR_CREATE_QP_EVENT_FD;
	return 0;
}

static struct ib_qp *qp_create_from_cmd(struct uverbs_attr_bundle *attrs,
					struct ib_uqp_object *uqp,
					struct ib_uverbs_ex_create_qp *cmd,
					struct ib_qp_cap *granted)
{
	struct objs_qp_params p = {};
	struct qp_refs r = {};
	struct ib_qp *qp;
	int ret;

	/* No receive WQ tables here (no WQ objects): nothing to name. */
	ret = (cmd->comp_mask & IB_UVERBS_CREATE_QP_MASK_IND_TABLE) ? -EINVAL :
	      qp_get_objects(attrs, cmd, &p, &r);
	if (!ret)
		ret = qp_params_from_cmd(cmd, &r, &p);
	qp = ret ? ERR_PTR(ret) : objs_qp_create(attrs, uqp, &p);
	qp_refs_put(&r);
	*granted = p.attr.cap;
	return qp;
}

/* Both commands, from the extended request. */
static int qp_create_write(struct uverbs_attr_bundle *attrs,
			   struct ib_uverbs_ex_create_qp *cmd)
{
	struct ib_uverbs_ex_create_qp_resp resp = {};
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_qp_cap cap;
	struct ib_qp *qp;
	int ret;

	ret = qp_type_check(cmd->qp_type);
	if (ret)
		return ret;
	uobj = uobj_alloc(UVERBS_OBJECT_QP, attrs, &dev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	qp = qp_create_from_cmd(attrs, container_of(uobj, struct ib_uqp_object,
						    uevent.uobject),
				cmd, &cap);
	if (IS_ERR(qp)) {
		uobj_alloc_abort(uobj, attrs);
		return PTR_ERR(qp);
	}
	uobj_finalize_uobj_create(uobj, attrs);

	resp.base = (struct ib_uverbs_create_qp_resp) {
		.qp_handle = uobj->id,
		.qpn = qp->qp_num,
		.max_send_wr = cap.max_send_wr,
		.max_recv_wr = cap.max_recv_wr,
		.max_send_sge = cap.max_send_sge,
		.max_recv_sge = cap.max_recv_sge,
		.max_inline_data = cap.max_inline_data,
	};
	resp.response_length = uverbs_write_response_length(attrs,
							    sizeof(resp));
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static int qp_create_legacy(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_qp ex = {};
	struct ib_uverbs_create_qp cmd;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ex.user_handle = cmd.user_handle;
	ex.pd_handle = cmd.pd_handle;
	ex.send_cq_handle = cmd.send_cq_handle;
	ex.recv_cq_handle = cmd.recv_cq_handle;
	ex.srq_handle = cmd.srq_handle;
	ex.max_send_wr = cmd.max_send_wr;
	ex.max_recv_wr = cmd.max_recv_wr;
	ex.max_send_sge = cmd.max_send_sge;
	ex.max_recv_sge = cmd.max_recv_sge;
	ex.max_inline_data = cmd.max_inline_data;
	ex.sq_sig_all = cmd.sq_sig_all;
	ex.qp_type = cmd.qp_type;
	ex.is_srq = cmd.is_srq;
	return qp_create_write(attrs, &ex);
}

static int qp_create_ex(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_qp cmd;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if ((cmd.comp_mask & ~IB_UVERBS_CREATE_QP_SUP_COMP_MASK) ||
	    cmd.reserved)
		return -EINVAL;
	return qp_create_write(attrs, &cmd);
}

const struct uapi_definition uverbs_def_obj_qp_create[] = {
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_QP,
		UVERBS_WRITE(IB_USER_VERBS_CMD_CREATE_QP, qp_create_legacy,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_create_qp,
						   struct ib_uverbs_create_qp_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(create_qp),
		UVERBS_WRITE_EX(IB_USER_VERBS_EX_CMD_CREATE_QP, qp_create_ex,
				UVERBS_WRITE_IO_EX(struct ib_uverbs_ex_create_qp,
						   comp_mask,
						   struct ib_uverbs_ex_create_qp_resp,
						   response_length)),
		UAPI_DEF_METHOD_NEEDS_FN(create_qp)),
	{}
};
