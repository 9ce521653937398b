// SPDX-License-Identifier: GPL-2.0
/*
 * write() CREATE_COMP_CHANNEL: a new completion channel, the file that
 * completion events of the CQs created on it are read from.  The object
 * and its file are the framework's (UVERBS_OBJECT_COMP_CHANNEL, event.c);
 * a CQ holds a reference on its channel's object (cq.c).
 */
#include "objects.h"

static int comp_channel_create(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_comp_channel_resp resp = {};
	struct ib_uverbs_create_comp_channel cmd;
	struct uverbs_comp_file *channel;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uobj_alloc(UVERBS_OBJECT_COMP_CHANNEL, attrs, &dev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);

	channel = container_of(uobj, struct uverbs_comp_file, uobj);
	uverbs_event_queue_init(&channel->ev_queue);
	uobj_finalize_uobj_create(uobj, attrs);

	/* The file descriptor, installed when the object is committed. */
	resp.fd = uobj->id;
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

const struct uapi_definition uverbs_def_obj_comp_channel[] = {
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_COMP_CHANNEL,
		UVERBS_WRITE(IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, comp_channel_create,
			     UVERBS_WRITE_IO(struct ib_uverbs_create_comp_channel,
					     struct ib_uverbs_create_comp_channel_resp))),
	{}
};
