// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs of a user context: their object, the creation all paths
 * share, ioctl() QP_CREATE, and destruction (write() DESTROY_QP, ioctl()
 * QP_DESTROY).  write() creation is in qp_create.c, modify and query in
 * qp_modify.c, posting in post.c, multicast in mcast.c.
 *
 * A QP holds usecnts on its PD, CQs and SRQ (ib_qp_usecnt_inc()), a
 * reference on its async event file, and on the object of its XRC domain
 * (uxrcd->refcnt) for XRC target QPs.  Destroying it answers how many of
 * its asynchronous events userspace has read.  ib_core allocates and
 * tracks it (ib_create_qp_user()).
 */
#include "objects.h"

/* The creation flags ioctl() QP_CREATE takes. */
#define QP_CREATE_IOCTL_FLAGS						\
	(IB_UVERBS_QP_CREATE_SQ_SIG_ALL |				\
	 IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |			\
	 IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING |			\
	 IB_UVERBS_QP_CREATE_SCATTER_FCS |				\
	 IB_UVERBS_QP_CREATE_CVLAN_STRIPPING)

static int qp_free(struct ib_uobject *uobj, enum rdma_remove_reason why,
		   struct uverbs_attr_bundle *attrs)
{
	struct ib_uqp_object *uqp =
		container_of(uobj, struct ib_uqp_object, uevent.uobject);
	struct ib_qp *qp = uobj->object;
	int ret;

	/*
	 * A user's destroy waits for the user to detach; a teardown
	 * detaches, as attachments are no objects it would destroy.
	 */
	if (why == RDMA_REMOVE_DESTROY) {
		if (!list_empty(&uqp->mcast_list))
			return -EBUSY;
	} else if (qp == qp->real_qp) {
		objs_mcast_detach_all(uqp);
	}

	ret = ib_destroy_qp_user(qp, &attrs->driver_udata);
	if (ret)
		return ret;
	if (uqp->uxrcd)
		atomic_dec(&uqp->uxrcd->refcnt);
	uverbs_uevent_release(&uqp->uevent);
	return 0;
}

/**
 * objs_qp_create() - create the QP of a user object
 * @attrs: the command's bundle
 * @uqp: the QP's object, new
 * @p: what to create; p->attr.cap is updated
 *
 * On success the QP counts as a user of its PD, CQs and SRQ and the
 * object is ready to be committed; on failure nothing is left.
 *
 * Return: the QP, or an ERR_PTR() of ib_create_qp_user().
 */
struct ib_qp *objs_qp_create(struct uverbs_attr_bundle *attrs,
			     struct ib_uqp_object *uqp,
			     struct objs_qp_params *p)
{
	struct ib_qp *qp;

	objs_uevent_init(&uqp->uevent, p->user_handle);
	INIT_LIST_HEAD(&uqp->mcast_list);
	mutex_init(&uqp->mcast_lock);
	uqp->uxrcd = NULL;
	uqp->uevent.event_file = uverbs_async_file_get(attrs, p->event_attr);

	p->attr.event_handler = uverbs_qp_event_handler;
	qp = ib_create_qp_user(p->device, p->pd, &p->attr,
			       &attrs->driver_udata, uqp, KBUILD_MODNAME);
	if (IS_ERR(qp)) {
		uverbs_uevent_release(&uqp->uevent);
		return qp;
	}
	ib_qp_usecnt_inc(qp);
	if (p->xrcd_uobj) {
		uqp->uxrcd = container_of(p->xrcd_uobj, struct ib_uxrcd_object,
					  uobject);
		atomic_inc(&uqp->uxrcd->refcnt);
	}
	uqp->uevent.uobject.object = qp;
	return qp;
}

static int qp_destroy_write(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_qp_resp resp = {};
	struct ib_uverbs_destroy_qp cmd;
	struct ib_uqp_object *uqp;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uobj_get_destroy(UVERBS_OBJECT_QP, cmd.qp_handle, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uqp = container_of(uobj, struct ib_uqp_object, uevent.uobject);
	resp.events_reported = uqp->uevent.events_reported;
	uobj_put_destroy(uobj);
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

/*
 * ioctl() QP_CREATE: creation flags the core knows.  SQ_SIG_ALL is the
 * ABI's own (sq_sig_type); the others need a UD or raw packet QP, and the
 * Ethernet ones a raw packet QP.
 */
static int qp_flags_from_user(struct objs_qp_params *p)
{
	u32 flags = p->attr.create_flags;
	enum ib_qp_type type = p->attr.qp_type;

	p->attr.sq_sig_type = (flags & IB_UVERBS_QP_CREATE_SQ_SIG_ALL) ?
			      IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	flags &= ~IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	p->attr.create_flags = flags;
	if (!flags || type == IB_QPT_DRIVER)
		return 0;
	if (type != IB_QPT_UD && type != IB_QPT_RAW_PACKET)
		return -EINVAL;
	if ((flags & (IB_UVERBS_QP_CREATE_SCATTER_FCS |
		      IB_UVERBS_QP_CREATE_CVLAN_STRIPPING)) &&
	    type != IB_QPT_RAW_PACKET)
		return -EINVAL;
	return 0;
}

static bool qp_attr_given(struct uverbs_attr_bundle *attrs, u16 id)
{
	return uverbs_attr_is_valid(attrs, id);
}

/* ioctl() QP_CREATE of an XRC target QP: an XRC domain and nothing else. */
static int qp_xrc_tgt_from_attrs(struct uverbs_attr_bundle *attrs,
				 struct objs_qp_params *p)
{
	struct ib_xrcd *xrcd;

	if (qp_attr_given(attrs, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE) ||
	    qp_attr_given(attrs, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE) ||
	    qp_attr_given(attrs, UVERBS_ATTR_CREATE_QP_PD_HANDLE) ||
	    qp_attr_given(attrs, UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE))
		return -EINVAL;
	p->xrcd_uobj = uverbs_attr_get_uobject(attrs,
					       UVERBS_ATTR_CREATE_QP_XRCD_HANDLE);
	if (IS_ERR(p->xrcd_uobj))
		return PTR_ERR(p->xrcd_uobj);
	xrcd = p->xrcd_uobj->object;
	if (!xrcd)
		return -EINVAL;
	p->attr.xrcd = xrcd;
	p->device = xrcd->device;
	return 0;
}

/* ... of another QP: a PD, and CQs (none with a receive WQ table). */
static int qp_queues_from_attrs(struct uverbs_attr_bundle *attrs,
				struct objs_qp_params *p)
{
	struct ib_qp_init_attr *a = &p->attr;
	bool ind_tbl = qp_attr_given(attrs,
				     UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE);

	if (qp_attr_given(attrs, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE) ||
	    (a->qp_type == IB_QPT_XRC_INI &&
	     qp_attr_given(attrs, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE)))
		return -EINVAL;
	p->pd = uverbs_attr_get_obj(attrs, UVERBS_ATTR_CREATE_QP_PD_HANDLE);
	if (IS_ERR(p->pd))
		return PTR_ERR(p->pd);
	p->device = p->pd->device;
	/* No receive WQ tables here (no WQ objects): the attribute is refused. */
	if (ind_tbl)
		return -EINVAL;
	a->send_cq = uverbs_attr_get_obj(attrs,
					 UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	if (IS_ERR(a->send_cq))
		return PTR_ERR(a->send_cq);
	if (a->qp_type == IB_QPT_XRC_INI)
		return 0;
	a->recv_cq = uverbs_attr_get_obj(attrs,
					 UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE);
	return PTR_ERR_OR_ZERO(a->recv_cq);
}

static int qp_type_from_attrs(struct uverbs_attr_bundle *attrs,
			      struct objs_qp_params *p)
{
	switch (p->attr.qp_type) {
	case IB_QPT_XRC_TGT:
		return qp_xrc_tgt_from_attrs(attrs, p);
	case IB_QPT_RAW_PACKET:
		if (!capable(CAP_NET_RAW))
			return -EPERM;
		fallthrough;
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
	case IB_QPT_XRC_INI:
	case IB_QPT_DRIVER:
		return qp_queues_from_attrs(attrs, p);
	default:
		return -EINVAL;
	}
}

/* An SRQ, if given, must be of the kind the QP type takes. */
static int qp_srq_from_attrs(struct uverbs_attr_bundle *attrs,
			     struct objs_qp_params *p)
{
	struct ib_srq *srq = uverbs_attr_get_obj(attrs,
					UVERBS_ATTR_CREATE_QP_SRQ_HANDLE);

	if (IS_ERR(srq))
		return 0;
	if ((srq->srq_type == IB_SRQT_XRC) !=
	    (p->attr.qp_type == IB_QPT_XRC_TGT))
		return -EINVAL;
	p->attr.srq = srq;
	return 0;
}

static int qp_params_from_attrs(struct uverbs_attr_bundle *attrs,
				struct objs_qp_params *p,
				struct ib_uverbs_qp_cap *cap)
{
	int ret;

	ret = uverbs_copy_from_or_zero(cap, attrs, UVERBS_ATTR_CREATE_QP_CAP);
	if (!ret)
		ret = uverbs_copy_from(&p->user_handle, attrs,
				       UVERBS_ATTR_CREATE_QP_USER_HANDLE);
	if (!ret)
		ret = uverbs_get_const(&p->attr.qp_type, attrs,
				       UVERBS_ATTR_CREATE_QP_TYPE);
	if (!ret)
		ret = qp_type_from_attrs(attrs, p);
	if (!ret)
		ret = uverbs_get_flags32(&p->attr.create_flags, attrs,
					 UVERBS_ATTR_CREATE_QP_FLAGS,
					 QP_CREATE_IOCTL_FLAGS);
	if (!ret)
		ret = qp_flags_from_user(p);
	if (ret)
		return ret;
	if (qp_attr_given(attrs, UVERBS_ATTR_CREATE_QP_SOURCE_QPN)) {
		/* As write() asks; the target does not (core.rst) */
		if (!capable(CAP_NET_RAW))
			return -EPERM;
		ret = uverbs_copy_from(&p->attr.source_qpn, attrs,
				       UVERBS_ATTR_CREATE_QP_SOURCE_QPN);
		if (ret)
			return ret;
		p->attr.create_flags |= IB_QP_CREATE_SOURCE_QPN;
	}
	return qp_srq_from_attrs(attrs, p);
}

static int UVERBS_HANDLER(UVERBS_METHOD_QP_CREATE)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_QP_HANDLE);
	struct objs_qp_params p = {
		.event_attr = UVERBS_ATTR_CREATE_QP_EVENT_FD,
	};
	struct ib_uverbs_qp_cap cap;
	struct ib_qp *qp;
	int ret;

	ret = qp_params_from_attrs(attrs, &p, &cap);
	if (ret)
		return ret;
	p.attr.cap = (struct ib_qp_cap) {
		.max_send_wr = cap.max_send_wr,
		.max_recv_wr = cap.max_recv_wr,
		.max_send_sge = cap.max_send_sge,
		.max_recv_sge = cap.max_recv_sge,
		.max_inline_data = cap.max_inline_data,
	};
	qp = objs_qp_create(attrs, container_of(uobj, struct ib_uqp_object,
						uevent.uobject), &p);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_QP_HANDLE);

	cap = (struct ib_uverbs_qp_cap) {
		.max_send_wr = p.attr.cap.max_send_wr,
		.max_recv_wr = p.attr.cap.max_recv_wr,
		.max_send_sge = p.attr.cap.max_send_sge,
		.max_recv_sge = p.attr.cap.max_recv_sge,
		.max_inline_data = p.attr.cap.max_inline_data,
	};
	ret = uverbs_copy_to_struct_or_zero(attrs,
					    UVERBS_ATTR_CREATE_QP_RESP_CAP,
					    &cap, sizeof(cap));
	if (ret)
		return ret;
	return uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
			      &qp->qp_num, sizeof(qp->qp_num));
}

static int UVERBS_HANDLER(UVERBS_METHOD_QP_DESTROY)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_DESTROY_QP_HANDLE);
	struct ib_uqp_object *uqp =
		container_of(uobj, struct ib_uqp_object, uevent.uobject);
	struct ib_uverbs_destroy_qp_resp resp = {
		.events_reported = uqp->uevent.events_reported,
	};

	return uverbs_copy_to(attrs, UVERBS_ATTR_DESTROY_QP_RESP, &resp,
			      sizeof(resp));
}

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_QP_CREATE,
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_HANDLE, UVERBS_OBJECT_QP,
			UVERBS_ACCESS_NEW, UA_MANDATORY),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_XRCD_HANDLE, UVERBS_OBJECT_XRCD,
			UVERBS_ACCESS_READ, UA_OPTIONAL),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_PD_HANDLE, UVERBS_OBJECT_PD,
			UVERBS_ACCESS_READ, UA_OPTIONAL),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
			UVERBS_ACCESS_READ, UA_OPTIONAL),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, UVERBS_OBJECT_CQ,
			UVERBS_ACCESS_READ, UA_OPTIONAL),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, UVERBS_OBJECT_CQ,
			UVERBS_ACCESS_READ, UA_OPTIONAL),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE,
			UVERBS_OBJECT_RWQ_IND_TBL, UVERBS_ACCESS_READ,
			UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_QP_USER_HANDLE,
			   UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_QP_CAP,
			   UVERBS_ATTR_STRUCT(struct ib_uverbs_qp_cap,
					      max_inline_data),
			   UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_CREATE_QP_TYPE,
			     enum ib_uverbs_qp_type, UA_MANDATORY),
	UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_CREATE_QP_FLAGS,
			     enum ib_uverbs_qp_create_flags, UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_QP_SOURCE_QPN,
			   UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_QP_RESP_CAP,
			    UVERBS_ATTR_STRUCT(struct ib_uverbs_qp_cap,
					       max_inline_data),
			    UA_MANDATORY),
	UVERBS_ATTR_FD(UVERBS_ATTR_CREATE_QP_EVENT_FD,
		       UVERBS_OBJECT_ASYNC_EVENT, UVERBS_ACCESS_READ,
		       UA_OPTIONAL),
	UVERBS_ATTR_UHW());

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_QP_DESTROY,
	UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_QP_HANDLE, UVERBS_OBJECT_QP,
			UVERBS_ACCESS_DESTROY, UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_DESTROY_QP_RESP,
			    UVERBS_ATTR_TYPE(struct ib_uverbs_destroy_qp_resp),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(
	UVERBS_OBJECT_QP,
	UVERBS_TYPE_ALLOC_IDR_SZ(sizeof(struct ib_uqp_object), qp_free),
	&UVERBS_METHOD(UVERBS_METHOD_QP_CREATE),
	&UVERBS_METHOD(UVERBS_METHOD_QP_DESTROY));

const struct uapi_definition uverbs_def_obj_qp[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_QP,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_qp)),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_QP,
		UVERBS_WRITE(IB_USER_VERBS_CMD_DESTROY_QP, qp_destroy_write,
			     UVERBS_WRITE_IO(struct ib_uverbs_destroy_qp,
					     struct ib_uverbs_destroy_qp_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(destroy_qp)),
	{}
};
