// SPDX-License-Identifier: GPL-2.0
/*
 * Shared receive queues of a user context: their object, creation
 * (write() CREATE_SRQ and CREATE_XSRQ, ioctl() SRQ_CREATE), write()
 * MODIFY_SRQ and QUERY_SRQ, destruction (write() DESTROY_SRQ, ioctl()
 * SRQ_DESTROY).
 *
 * ib_core creates an SRQ (ib_create_srq_user()) with usecnts on its PD,
 * its CQ (XRC and tag-matching SRQs) and its XRC domain; the object holds
 * a reference on its async event file and, for an XRC SRQ, on the object
 * of its XRC domain (uxrcd->refcnt).  Destroying it answers how many of
 * its asynchronous events userspace has read.
 */
#include "objects.h"

static int srq_free(struct ib_uobject *uobj, enum rdma_remove_reason why,
		    struct uverbs_attr_bundle *attrs)
{
	struct ib_usrq_object *usrq =
		container_of(uobj, struct ib_usrq_object, uevent.uobject);
	int ret;

	ret = ib_destroy_srq_user(uobj->object, &attrs->driver_udata);
	if (ret)
		return ret;
	if (usrq->uxrcd)
		atomic_dec(&usrq->uxrcd->refcnt);
	uverbs_uevent_release(&usrq->uevent);
	return 0;
}

/**
 * struct srq_params - an SRQ to create
 * @attr: type, sizes, CQ and XRC domain; the sizes are updated
 * @pd: its PD
 * @xrcd_uobj: the object of its XRC domain (XRC SRQs)
 * @user_handle: what its events carry
 * @event_attr: the attribute that may name its async event file
 */
struct srq_params {
	struct ib_srq_init_attr attr;
	struct ib_pd *pd;
	struct ib_uobject *xrcd_uobj;
	u64 user_handle;
	u16 event_attr;
};

/* Create the SRQ of @usrq; on failure nothing is left. */
static struct ib_srq *srq_create(struct uverbs_attr_bundle *attrs,
				 struct ib_usrq_object *usrq,
				 struct srq_params *p)
{
	struct ib_srq *srq;

	objs_uevent_init(&usrq->uevent, p->user_handle);
	usrq->uevent.event_file = uverbs_async_file_get(attrs, p->event_attr);
	usrq->uxrcd = NULL;
	p->attr.event_handler = uverbs_srq_event_handler;

	srq = ib_create_srq_user(p->pd, &p->attr, usrq, &attrs->driver_udata);
	if (IS_ERR(srq)) {
		uverbs_uevent_release(&usrq->uevent);
		return srq;
	}
	if (p->xrcd_uobj) {
		usrq->uxrcd = container_of(p->xrcd_uobj, struct ib_uxrcd_object,
					   uobject);
		atomic_inc(&usrq->uxrcd->refcnt);
	}
	usrq->uevent.uobject.object = srq;
	return srq;
}

/* What a write() creation looked up, to give back when it is done. */
struct srq_refs {
	struct ib_uobject *xrcd;
	struct ib_cq *cq;
	struct ib_pd *pd;
};

static void srq_refs_put(struct srq_refs *r)
{
	if (r->xrcd)
		uobj_put_read(r->xrcd);
	if (r->cq)
		objs_put_cq(r->cq);
	if (r->pd)
		objs_put_pd(r->pd);
}

/* The XRC domain and CQ an SRQ of its type needs, then its PD. */
static int srq_get_objects(struct uverbs_attr_bundle *attrs,
			   const struct ib_uverbs_create_xsrq *cmd,
			   struct srq_params *p, struct srq_refs *r)
{
	struct ib_uobject *xrcd;
	struct ib_cq *cq;
	struct ib_pd *pd;

	if (cmd->srq_type == IB_SRQT_XRC) {
		xrcd = uobj_get_read(UVERBS_OBJECT_XRCD, cmd->xrcd_handle,
				     attrs);
		if (IS_ERR(xrcd))
			return -EINVAL;
		r->xrcd = xrcd;
		p->attr.ext.xrc.xrcd = xrcd->object;
		if (!p->attr.ext.xrc.xrcd)
			return -EINVAL;
		p->xrcd_uobj = xrcd;
	}
	if (ib_srq_has_cq(cmd->srq_type)) {
		cq = objs_get_cq(attrs, cmd->cq_handle);
		if (IS_ERR(cq))
			return PTR_ERR(cq);
		r->cq = cq;
		p->attr.ext.cq = cq;
	}
	pd = objs_get_pd(attrs, cmd->pd_handle);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	r->pd = pd;
	p->pd = pd;
	return 0;
}

/* write() CREATE_SRQ and CREATE_XSRQ, from the extended request. */
static int srq_create_write(struct uverbs_attr_bundle *attrs,
			    const struct ib_uverbs_create_xsrq *cmd)
{
	struct ib_uverbs_create_srq_resp resp = {};
	struct srq_params p = {
		.attr = {
			.srq_type = cmd->srq_type,
			.attr = { .max_wr = cmd->max_wr,
				  .max_sge = cmd->max_sge,
				  .srq_limit = cmd->srq_limit },
		},
		.user_handle = cmd->user_handle,
		/* No such attribute in write(): the default async file */
		.event_attr = UVERBS_ATTR_CREATE_SRQ_EVENT_FD,
	};
	struct srq_refs r = {};
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_srq *srq;
	int ret;

	uobj = uobj_alloc(UVERBS_OBJECT_SRQ, attrs, &dev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	if (cmd->srq_type == IB_SRQT_TM)
		p.attr.ext.tag_matching.max_num_tags = cmd->max_num_tags;
	ret = srq_get_objects(attrs, cmd, &p, &r);
	srq = ret ? ERR_PTR(ret) :
		    srq_create(attrs, container_of(uobj, struct ib_usrq_object,
						   uevent.uobject), &p);
	srq_refs_put(&r);
	if (IS_ERR(srq)) {
		uobj_alloc_abort(uobj, attrs);
		return PTR_ERR(srq);
	}
	uobj_finalize_uobj_create(uobj, attrs);

	resp.srq_handle = uobj->id;
	resp.max_wr = p.attr.attr.max_wr;
	resp.max_sge = p.attr.attr.max_sge;
	if (cmd->srq_type == IB_SRQT_XRC)
		resp.srqn = srq->ext.xrc.srq_num;
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static int srq_create_legacy(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_xsrq x = { .srq_type = IB_SRQT_BASIC };
	struct ib_uverbs_create_srq cmd;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	x.response = cmd.response;
	x.user_handle = cmd.user_handle;
	x.pd_handle = cmd.pd_handle;
	x.max_wr = cmd.max_wr;
	x.max_sge = cmd.max_sge;
	x.srq_limit = cmd.srq_limit;
	return srq_create_write(attrs, &x);
}

static int srq_create_x(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_xsrq cmd;
	int ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));

	return ret ?: srq_create_write(attrs, &cmd);
}

static int srq_modify(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_modify_srq cmd;
	struct ib_srq_attr attr;
	struct ib_srq *srq;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	attr = (struct ib_srq_attr) {
		.srq_limit = cmd.srq_limit,
		.max_wr = cmd.max_wr,
	};
	srq = objs_get_srq(attrs, cmd.srq_handle);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	/* A resize tells userspace of the new ring through udata. */
	ret = srq->device->ops.modify_srq(srq, &attr, cmd.attr_mask,
					  &attrs->driver_udata);
	objs_put_srq(srq);
	return ret;
}

static int srq_query(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_srq_resp resp = {};
	struct ib_uverbs_query_srq cmd;
	struct ib_srq_attr attr;
	struct ib_srq *srq;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	srq = objs_get_srq(attrs, cmd.srq_handle);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	ret = ib_query_srq(srq, &attr);
	objs_put_srq(srq);
	if (ret)
		return ret;
	resp.max_wr = attr.max_wr;
	resp.max_sge = attr.max_sge;
	resp.srq_limit = attr.srq_limit;
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static u32 srq_events_read(struct ib_uobject *uobj)
{
	return container_of(uobj, struct ib_uevent_object,
			    uobject)->events_reported;
}

static int srq_destroy_write(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_srq_resp resp = {};
	struct ib_uverbs_destroy_srq cmd;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uobj_get_destroy(UVERBS_OBJECT_SRQ, cmd.srq_handle, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	resp.events_reported = srq_events_read(uobj);
	uobj_put_destroy(uobj);
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

/* ioctl() SRQ_CREATE: the type and what it needs (CQ, XRC domain). */
static int srq_type_from_attrs(struct uverbs_attr_bundle *attrs,
			       struct srq_params *p)
{
	struct ib_srq_init_attr *a = &p->attr;
	struct ib_uobject *xrcd;

	if (ib_srq_has_cq(a->srq_type)) {
		a->ext.cq = uverbs_attr_get_obj(attrs,
						UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE);
		if (IS_ERR(a->ext.cq))
			return PTR_ERR(a->ext.cq);
	}
	switch (a->srq_type) {
	case IB_SRQT_BASIC:
		return 0;
	case IB_SRQT_TM:
		return uverbs_copy_from(&a->ext.tag_matching.max_num_tags,
					attrs,
					UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS);
	case IB_SRQT_XRC:
		xrcd = uverbs_attr_get_uobject(attrs,
					       UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE);
		if (IS_ERR(xrcd))
			return PTR_ERR(xrcd);
		a->ext.xrc.xrcd = xrcd->object;
		if (!a->ext.xrc.xrcd)
			return -EINVAL;
		p->xrcd_uobj = xrcd;
		return 0;
	default:
		return -EINVAL;
	}
}

static int srq_params_from_attrs(struct uverbs_attr_bundle *attrs,
				 struct srq_params *p)
{
	struct ib_srq_attr *a = &p->attr.attr;
	int ret;

	ret = uverbs_copy_from(&a->max_sge, attrs,
			       UVERBS_ATTR_CREATE_SRQ_MAX_SGE);
	if (!ret)
		ret = uverbs_copy_from(&a->max_wr, attrs,
				       UVERBS_ATTR_CREATE_SRQ_MAX_WR);
	if (!ret)
		ret = uverbs_copy_from(&a->srq_limit, attrs,
				       UVERBS_ATTR_CREATE_SRQ_LIMIT);
	if (!ret)
		ret = uverbs_copy_from(&p->user_handle, attrs,
				       UVERBS_ATTR_CREATE_SRQ_USER_HANDLE);
	if (!ret)
		ret = uverbs_get_const(&p->attr.srq_type, attrs,
				       UVERBS_ATTR_CREATE_SRQ_TYPE);
	if (ret)
		return ret;
	p->pd = uverbs_attr_get_obj(attrs, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE);
	p->event_attr = UVERBS_ATTR_CREATE_SRQ_EVENT_FD;
	return srq_type_from_attrs(attrs, p);
}

static int UVERBS_HANDLER(UVERBS_METHOD_SRQ_CREATE)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	struct srq_params p = {};
	struct ib_srq *srq;
	int ret;

	ret = srq_params_from_attrs(attrs, &p);
	if (ret)
		return ret;
	srq = srq_create(attrs, container_of(uobj, struct ib_usrq_object,
					     uevent.uobject), &p);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_SRQ_HANDLE);

	ret = uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
			     &p.attr.attr.max_wr, sizeof(p.attr.attr.max_wr));
	if (!ret)
		ret = uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
				     &p.attr.attr.max_sge,
				     sizeof(p.attr.attr.max_sge));
	if (!ret && p.attr.srq_type == IB_SRQT_XRC)
		ret = uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
				     &srq->ext.xrc.srq_num,
				     sizeof(srq->ext.xrc.srq_num));
	return ret;
}

static int UVERBS_HANDLER(UVERBS_METHOD_SRQ_DESTROY)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_srq_resp resp = {
		.events_reported = srq_events_read(
			uverbs_attr_get_uobject(attrs,
						UVERBS_ATTR_DESTROY_SRQ_HANDLE)),
	};

	return uverbs_copy_to(attrs, UVERBS_ATTR_DESTROY_SRQ_RESP, &resp,
			      sizeof(resp));
}

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_SRQ_CREATE,
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
			UVERBS_ACCESS_NEW, UA_MANDATORY),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, UVERBS_OBJECT_PD,
			UVERBS_ACCESS_READ, UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_CREATE_SRQ_TYPE,
			     enum ib_uverbs_srq_type, UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_USER_HANDLE,
			   UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_MAX_WR,
			   UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_MAX_SGE,
			   UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_LIMIT,
			   UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE, UVERBS_OBJECT_XRCD,
			UVERBS_ACCESS_READ, UA_OPTIONAL),
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, UVERBS_OBJECT_CQ,
			UVERBS_ACCESS_READ, UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS,
			   UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
	UVERBS_ATTR_FD(UVERBS_ATTR_CREATE_SRQ_EVENT_FD,
		       UVERBS_OBJECT_ASYNC_EVENT, UVERBS_ACCESS_READ,
		       UA_OPTIONAL),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
			    UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
	UVERBS_ATTR_UHW());

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_SRQ_DESTROY,
	UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
			UVERBS_ACCESS_DESTROY, UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_DESTROY_SRQ_RESP,
			    UVERBS_ATTR_TYPE(struct ib_uverbs_destroy_srq_resp),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(
	UVERBS_OBJECT_SRQ,
	UVERBS_TYPE_ALLOC_IDR_SZ(sizeof(struct ib_usrq_object), srq_free),
	&UVERBS_METHOD(UVERBS_METHOD_SRQ_CREATE),
	&UVERBS_METHOD(UVERBS_METHOD_SRQ_DESTROY));

const struct uapi_definition uverbs_def_obj_srq[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_SRQ,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_srq)),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_SRQ,
		UVERBS_WRITE(IB_USER_VERBS_CMD_CREATE_SRQ, srq_create_legacy,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_create_srq,
						   struct ib_uverbs_create_srq_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(create_srq),
		UVERBS_WRITE(IB_USER_VERBS_CMD_CREATE_XSRQ, srq_create_x,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_create_xsrq,
						   struct ib_uverbs_create_srq_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(create_srq),
		UVERBS_WRITE(IB_USER_VERBS_CMD_DESTROY_SRQ, srq_destroy_write,
			     UVERBS_WRITE_IO(struct ib_uverbs_destroy_srq,
					     struct ib_uverbs_destroy_srq_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(destroy_srq),
		UVERBS_WRITE(IB_USER_VERBS_CMD_MODIFY_SRQ, srq_modify,
			     UVERBS_WRITE_UDATA_I(struct ib_uverbs_modify_srq)),
		UAPI_DEF_METHOD_NEEDS_FN(modify_srq),
		UVERBS_WRITE(IB_USER_VERBS_CMD_QUERY_SRQ, srq_query,
			     UVERBS_WRITE_IO(struct ib_uverbs_query_srq,
					     struct ib_uverbs_query_srq_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(query_srq)),
	{}
};
