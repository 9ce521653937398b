// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queues of a user context: their object, creation (write()
 * CREATE_CQ and EX_CREATE_CQ, ioctl() CQ_CREATE) and destruction (write()
 * DESTROY_CQ, ioctl() CQ_DESTROY).  Resizing, polling and arming are in
 * cq_ops.c.
 *
 * A CQ's completion events go to its completion channel, if it has one,
 * whose object it holds a reference on (cq->cq_context is the channel's
 * queue); its asynchronous events to an async event file it also holds.
 * Destroying a CQ answers how many of each kind userspace has read
 * (framework's event.c counts them), which libibverbs waits for.  The
 * core allocates a CQ (the driver's size_ib_cq); it is listed by resource
 * tracking with the creating task.
 */
#include "objects.h"

static struct uverbs_comp_file *cq_channel(struct ib_cq *cq)
{
	struct ib_uverbs_event_queue *queue = cq->cq_context;

	return queue ? container_of(queue, struct uverbs_comp_file, ev_queue) :
		       NULL;
}

static int cq_free(struct ib_uobject *uobj, enum rdma_remove_reason why,
		   struct uverbs_attr_bundle *attrs)
{
	struct ib_ucq_object *ucq =
		container_of(uobj, struct ib_ucq_object, uevent.uobject);
	struct ib_cq *cq = uobj->object;
	struct uverbs_comp_file *channel = cq_channel(cq);
	int ret;

	ret = ib_destroy_cq_user(cq, &attrs->driver_udata);
	if (ret)
		return ret;
	uverbs_ucq_release(channel, ucq);
	return 0;
}

/**
 * struct cq_params - what a CQ is created with
 * @attr: its size, completion vector and flags
 * @user_handle: what its events carry
 * @channel: its completion channel (a reference the CQ takes over) or NULL
 * @event_attr: the attribute that may name its async event file
 */
struct cq_params {
	struct ib_cq_init_attr attr;
	u64 user_handle;
	struct uverbs_comp_file *channel;
	u16 event_attr;
};

static struct ib_cq *cq_new(struct uverbs_attr_bundle *attrs,
			    struct ib_ucq_object *ucq, struct cq_params *p)
{
	struct ib_device *dev = attrs->context->device;
	struct ib_cq *cq;
	int ret;

	cq = rdma_zalloc_drv_obj(dev, ib_cq);
	if (!cq)
		return ERR_PTR(-ENOMEM);
	cq->device = dev;
	cq->uobject = ucq;
	cq->comp_handler = uverbs_comp_handler;
	cq->event_handler = uverbs_cq_event_handler;
	cq->cq_context = p->channel ? &p->channel->ev_queue : NULL;
	objs_track_new(&cq->res, RDMA_RESTRACK_CQ);

	ret = dev->ops.create_cq(cq, &p->attr, &attrs->driver_udata);
	if (!ret) {
		rdma_restrack_add(&cq->res);
		return cq;
	}
	rdma_restrack_put(&cq->res);
	kfree(cq);
	return ERR_PTR(ret);
}

/*
 * Create the CQ of @ucq.  On failure nothing is left: the references of
 * @p and of the async event file are dropped.
 */
static struct ib_cq *cq_create(struct uverbs_attr_bundle *attrs,
			       struct ib_ucq_object *ucq, struct cq_params *p)
{
	struct ib_cq *cq = ERR_PTR(-EINVAL);

	INIT_LIST_HEAD(&ucq->comp_list);
	ucq->comp_events_reported = 0;
	objs_uevent_init(&ucq->uevent, p->user_handle);
	ucq->uevent.event_file = uverbs_async_file_get(attrs, p->event_attr);

	if (p->attr.comp_vector < attrs->ufile->device->num_comp_vectors)
		cq = cq_new(attrs, ucq, p);
	if (IS_ERR(cq)) {
		uverbs_ucq_release(p->channel, ucq);
		return cq;
	}
	ucq->uevent.uobject.object = cq;
	return cq;
}

/* The completion channel of file descriptor @fd, referenced; or -1. */
static struct uverbs_comp_file *cq_channel_get(struct uverbs_attr_bundle *attrs,
					       s32 fd)
{
	struct ib_uobject *uobj;

	if (fd < 0)
		return NULL;
	uobj = ufd_get_read(UVERBS_OBJECT_COMP_CHANNEL, fd, attrs);
	if (IS_ERR(uobj))
		return ERR_CAST(uobj);
	uverbs_uobject_get(uobj);
	uobj_put_read(uobj);
	return container_of(uobj, struct uverbs_comp_file, uobj);
}

/* write() CREATE_CQ and EX_CREATE_CQ, from the extended request. */
static int cq_create_write(struct uverbs_attr_bundle *attrs,
			   const struct ib_uverbs_ex_create_cq *cmd)
{
	struct ib_uverbs_ex_create_cq_resp resp = {};
	struct cq_params p = {
		.attr = { .cqe = cmd->cqe, .comp_vector = cmd->comp_vector,
			  .flags = cmd->flags },
		.user_handle = cmd->user_handle,
		/* No such attribute: the default async event file */
		.event_attr = UVERBS_ATTR_CREATE_CQ_EVENT_FD,
	};
	struct ib_ucq_object *ucq;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_cq *cq;

	if (cmd->comp_vector >= attrs->ufile->device->num_comp_vectors)
		return -EINVAL;
	uobj = uobj_alloc(UVERBS_OBJECT_CQ, attrs, &dev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ucq = container_of(uobj, struct ib_ucq_object, uevent.uobject);

	p.channel = cq_channel_get(attrs, cmd->comp_channel);
	cq = IS_ERR(p.channel) ? ERR_CAST(p.channel) :
				 cq_create(attrs, ucq, &p);
	if (IS_ERR(cq)) {
		uobj_alloc_abort(uobj, attrs);
		return PTR_ERR(cq);
	}
	uobj_finalize_uobj_create(uobj, attrs);

	resp.base.cq_handle = uobj->id;
	resp.base.cqe = cq->cqe;
	resp.response_length = uverbs_write_response_length(attrs,
							    sizeof(resp));
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static int cq_create_legacy(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_cq ex = {};
	struct ib_uverbs_create_cq cmd;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ex.user_handle = cmd.user_handle;
	ex.cqe = cmd.cqe;
	ex.comp_vector = cmd.comp_vector;
	ex.comp_channel = cmd.comp_channel;
	return cq_create_write(attrs, &ex);
}

static int cq_create_ex(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_cq cmd;
	int ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	if (cmd.comp_mask || cmd.reserved)
		return -EINVAL;
	return cq_create_write(attrs, &cmd);
}

/* The counts DESTROY_CQ answers, of a CQ that is destroyed. */
static void cq_counts(struct ib_uobject *uobj,
		      struct ib_uverbs_destroy_cq_resp *resp)
{
	struct ib_ucq_object *ucq =
		container_of(uobj, struct ib_ucq_object, uevent.uobject);

	resp->comp_events_reported = ucq->comp_events_reported;
	resp->async_events_reported = ucq->uevent.events_reported;
}

static int cq_destroy_write(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_cq_resp resp = {};
	struct ib_uverbs_destroy_cq cmd;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uobj_get_destroy(UVERBS_OBJECT_CQ, cmd.cq_handle, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	cq_counts(uobj, &resp);
	uobj_put_destroy(uobj);
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

/* ioctl() CQ_CREATE's attributes, into @p (the channel referenced). */
static int cq_params_from_attrs(struct uverbs_attr_bundle *attrs,
				struct cq_params *p)
{
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_copy_from(&p->attr.comp_vector, attrs,
			       UVERBS_ATTR_CREATE_CQ_COMP_VECTOR);
	if (!ret)
		ret = uverbs_copy_from(&p->attr.cqe, attrs,
				       UVERBS_ATTR_CREATE_CQ_CQE);
	if (!ret)
		ret = uverbs_copy_from(&p->user_handle, attrs,
				       UVERBS_ATTR_CREATE_CQ_USER_HANDLE);
	if (!ret)
		ret = uverbs_get_flags32(&p->attr.flags, attrs,
					 UVERBS_ATTR_CREATE_CQ_FLAGS,
					 IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION |
					 IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	if (ret)
		return ret;

	uobj = uverbs_attr_get_uobject(attrs,
				       UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL);
	if (!IS_ERR(uobj)) {
		uverbs_uobject_get(uobj);
		p->channel = container_of(uobj, struct uverbs_comp_file, uobj);
	}
	p->event_attr = UVERBS_ATTR_CREATE_CQ_EVENT_FD;
	return 0;
}

static int UVERBS_HANDLER(UVERBS_METHOD_CQ_CREATE)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_CQ_HANDLE);
	struct ib_device *dev = attrs->context->device;
	struct cq_params p = {};
	struct ib_cq *cq;
	int ret;

	if (!dev->ops.create_cq || !dev->ops.destroy_cq)
		return -EOPNOTSUPP;
	ret = cq_params_from_attrs(attrs, &p);
	if (ret)
		return ret;
	cq = cq_create(attrs, container_of(uobj, struct ib_ucq_object,
					   uevent.uobject), &p);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_CQ_HANDLE);
	return uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cq->cqe,
			      sizeof(cq->cqe));
}

static int UVERBS_HANDLER(UVERBS_METHOD_CQ_DESTROY)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_cq_resp resp = {};

	cq_counts(uverbs_attr_get_uobject(attrs, UVERBS_ATTR_DESTROY_CQ_HANDLE),
		  &resp);
	return uverbs_copy_to(attrs, UVERBS_ATTR_DESTROY_CQ_RESP, &resp,
			      sizeof(resp));
}

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_CQ_CREATE,
	UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_CQ_HANDLE, UVERBS_OBJECT_CQ,
			UVERBS_ACCESS_NEW, UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_CQ_CQE, UVERBS_ATTR_TYPE(u32),
			   UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_CQ_USER_HANDLE,
			   UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_FD(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL,
		       UVERBS_OBJECT_COMP_CHANNEL, UVERBS_ACCESS_READ,
		       UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR,
			   UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_CREATE_CQ_FLAGS,
			     enum ib_uverbs_ex_create_cq_flags),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_CQ_RESP_CQE,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_FD(UVERBS_ATTR_CREATE_CQ_EVENT_FD,
		       UVERBS_OBJECT_ASYNC_EVENT, UVERBS_ACCESS_READ,
		       UA_OPTIONAL),
	UVERBS_ATTR_UHW());

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_CQ_DESTROY,
	UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_CQ_HANDLE, UVERBS_OBJECT_CQ,
			UVERBS_ACCESS_DESTROY, UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_DESTROY_CQ_RESP,
			    UVERBS_ATTR_TYPE(struct ib_uverbs_destroy_cq_resp),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(
	UVERBS_OBJECT_CQ,
	UVERBS_TYPE_ALLOC_IDR_SZ(sizeof(struct ib_ucq_object), cq_free),
	&UVERBS_METHOD(UVERBS_METHOD_CQ_CREATE),
	&UVERBS_METHOD(UVERBS_METHOD_CQ_DESTROY));

const struct uapi_definition uverbs_def_obj_cq[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_CQ,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_cq)),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_CQ,
		UVERBS_WRITE(IB_USER_VERBS_CMD_CREATE_CQ, cq_create_legacy,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_create_cq,
						   struct ib_uverbs_create_cq_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(create_cq),
		UVERBS_WRITE(IB_USER_VERBS_CMD_DESTROY_CQ, cq_destroy_write,
			     UVERBS_WRITE_IO(struct ib_uverbs_destroy_cq,
					     struct ib_uverbs_destroy_cq_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(destroy_cq),
		UVERBS_WRITE_EX(IB_USER_VERBS_EX_CMD_CREATE_CQ, cq_create_ex,
				UVERBS_WRITE_IO_EX(struct ib_uverbs_ex_create_cq,
						   reserved,
						   struct ib_uverbs_ex_create_cq_resp,
						   response_length)),
		UAPI_DEF_METHOD_NEEDS_FN(create_cq)),
	{}
};
