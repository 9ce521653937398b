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
	u64 core_support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	u32 num_comp = attrs->ufile->device->num_comp_vectors;
	int ret;

	ret = uverbs_copy_to(attrs, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
			     &num_comp, sizeof(num_comp));
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
			     &core_support, sizeof(core_support));
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	ret = uverbs_ucontext_alloc(attrs);
	if (ret)
		return ret;
	ret = uverbs_ucontext_install(attrs);
	if (ret)
		uverbs_ucontext_discard(attrs);
	return ret;
}

/*
 * A write() command in ioctl() framing: CORE_IN and CORE_OUT are its core
 * request and response, UHW_IN and UHW_OUT its driver data.
 */
static int UVERBS_HANDLER(UVERBS_METHOD_INVOKE_WRITE)(
	struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_api_write_method *cmd;
	u32 command;
	int ret;

	ret = uverbs_get_const(&command, attrs, UVERBS_ATTR_WRITE_CMD);
	if (ret)
		return ret;
	cmd = uverbs_uapi_write_method(attrs->ufile->device->uapi, command);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	uverbs_fill_udata(attrs, &attrs->ucore, UVERBS_ATTR_CORE_IN,
			  UVERBS_ATTR_CORE_OUT);
	if (attrs->ucore.inlen < cmd->req_size ||
	    attrs->ucore.outlen < cmd->resp_size)
		return -ENOSPC;

	attrs->uobject = NULL;
	ret = cmd->handler(attrs);
	if (attrs->uobject)
		uverbs_finalize_object(attrs->uobject, UVERBS_ACCESS_NEW, true,
				       !ret, attrs);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_GET_CONTEXT,
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
			    UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
			    UVERBS_ATTR_TYPE(u64), UA_OPTIONAL),
	UVERBS_ATTR_UHW());

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_INVOKE_WRITE,
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_WRITE_CMD, enum ib_uverbs_write_cmds,
			     UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CORE_IN,
			   UVERBS_ATTR_MIN_SIZE(sizeof(u32)), UA_OPTIONAL),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CORE_OUT, UVERBS_ATTR_MIN_SIZE(0),
			    UA_OPTIONAL),
	UVERBS_ATTR_UHW());

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
