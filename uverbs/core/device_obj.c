// SPDX-License-Identifier: GPL-2.0
/*
 * The framework's methods of UVERBS_OBJECT_DEVICE: GET_CONTEXT, over
 * ioctl() and write(), which makes the file's user context, and
 * INVOKE_WRITE, which runs any write() command with ioctl() framing.  The
 * standard objects add the device's other methods (queries) in trees of
 * their own.
 */
#include "internal.h"

/* write() GET_CONTEXT: the context and its async event file, together. */
static int uverbs_cmd_get_context(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_get_context_resp resp = {};
	struct ib_uverbs_get_context cmd;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = uverbs_ucontext_alloc(attrs);
	if (ret)
		return ret;
	uobj = uobj_alloc(UVERBS_OBJECT_ASYNC_EVENT, attrs, &ibdev);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto err_ucontext;
	}
	resp.async_fd = uobj->id;
	resp.num_comp_vectors = attrs->ufile->device->num_comp_vectors;
	ret = uverbs_write_response(attrs, &resp, sizeof(resp));
	if (!ret)
		ret = uverbs_ucontext_install(attrs);
	if (ret)
		goto err_uobj;
	uverbs_async_file_init(container_of(uobj,
					    struct ib_uverbs_async_event_file,
					    uobj));
	rdma_alloc_commit_uobject(uobj, attrs);
	return 0;

err_uobj:
	rdma_alloc_abort_uobject(uobj, attrs, false);
err_ucontext:
	uverbs_ucontext_discard(attrs);
	return ret;
}

/* ioctl() GET_CONTEXT: the async event file comes by ASYNC_EVENT_ALLOC. */
static int UVERBS_HANDLER(UVERBS_METHOD_GET_CONTEXT)(
	struct uverbs_attr_bundle *attrs)
{
	u64 support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	u32 vectors = attrs->ufile->device->num_comp_vectors;
	int err;

	/* Both outputs are optional: only a copy that faults fails */
	err = uverbs_copy_to(attrs, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
			     &support, sizeof(support));
	if (!IS_UVERBS_COPY_ERR(err))
		err = uverbs_copy_to(attrs,
				     UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
				     &vectors, sizeof(vectors));
	if (IS_UVERBS_COPY_ERR(err))
		return err;
	err = uverbs_ucontext_alloc(attrs);
	if (err)
		return err;
	err = uverbs_ucontext_install(attrs);
	if (err)
		uverbs_ucontext_discard(attrs);
	return err;
}

/*
 * A write() handler that creates an object leaves it in attrs->uobject
 * (write() has no attribute to finalize it by): commit it if the handler
 * succeeded, abort it otherwise.
 */
static int invoke_write_handler(const struct uverbs_api_write_method *wm,
				struct uverbs_attr_bundle *attrs)
{
	int err;

	attrs->uobject = NULL;
	err = wm->handler(attrs);
	if (attrs->uobject)
		uverbs_finalize_object(attrs->uobject, UVERBS_ACCESS_NEW, true,
				       err == 0, attrs);
	return err;
}

/*
 * A write() command in ioctl() framing: CORE_IN and CORE_OUT are its core
 * request and response, UHW_IN and UHW_OUT its driver data.
 */
static int UVERBS_HANDLER(UVERBS_METHOD_INVOKE_WRITE)(
	struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_api_write_method *wm;
	u32 num;
	int err = uverbs_get_const(&num, attrs, UVERBS_ATTR_WRITE_CMD);

	if (err)
		return err;
	wm = uverbs_uapi_write_method(attrs->ufile->device->uapi, num);
	if (IS_ERR(wm))
		return PTR_ERR(wm);
	uverbs_fill_udata(attrs, &attrs->ucore, UVERBS_ATTR_CORE_IN,
			  UVERBS_ATTR_CORE_OUT);
	/* The core structures must fit whole, as with write() */
	if (attrs->ucore.outlen < wm->resp_size ||
	    attrs->ucore.inlen < wm->req_size)
		return -ENOSPC;
	return invoke_write_handler(wm, attrs);
}

/* Attribute order in a method does not matter: the tree indexes them. */
DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_GET_CONTEXT,
	UVERBS_ATTR_UHW(),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
			    UVERBS_ATTR_TYPE(u64), UA_OPTIONAL),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
			    UVERBS_ATTR_TYPE(u32), UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_INVOKE_WRITE,
	UVERBS_ATTR_UHW(),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CORE_OUT, UVERBS_ATTR_MIN_SIZE(0),
			    UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CORE_IN,
			   UVERBS_ATTR_MIN_SIZE(sizeof(u32)), UA_OPTIONAL),
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_WRITE_CMD, enum ib_uverbs_write_cmds,
			     UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_DEVICE,
			      &UVERBS_METHOD(UVERBS_METHOD_GET_CONTEXT),
			      &UVERBS_METHOD(UVERBS_METHOD_INVOKE_WRITE));

const struct uapi_definition uverbs_def_device_engine[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_DEVICE),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_DEVICE,
		UVERBS_WRITE(IB_USER_VERBS_CMD_GET_CONTEXT,
			     uverbs_cmd_get_context,
			     UVERBS_WRITE_UDATA_IO(
				     struct ib_uverbs_get_context,
				     struct ib_uverbs_get_context_resp))),
	{}
};
