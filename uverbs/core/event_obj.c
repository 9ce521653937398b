// SPDX-License-Identifier: GPL-2.0
/*
 * The two event file objects: UVERBS_OBJECT_ASYNC_EVENT (allocated by
 * write() GET_CONTEXT or by its ASYNC_EVENT_ALLOC method) and
 * UVERBS_OBJECT_COMP_CHANNEL (allocated by the CREATE_COMP_CHANNEL
 * command of the standard objects), FD objects whose files event.c reads.
 */
#include "internal.h"

/*
 * The async file stops receiving the device's events; if the device is
 * going, the last event it gets says so.  Its queue stays open until its
 * file is released (event.c).
 */
static void async_file_destroy(struct ib_uobject *uobj,
			       enum rdma_remove_reason why)
{
	struct ib_uverbs_async_event_file *file =
		container_of(uobj, struct ib_uverbs_async_event_file, uobj);

	ib_unregister_event_handler(&file->event_handler);
	if (why == RDMA_REMOVE_DRIVER_REMOVE)
		uverbs_async_event(file, 0, IB_EVENT_DEVICE_FATAL, NULL, NULL);
}

static int UVERBS_HANDLER(UVERBS_METHOD_ASYNC_EVENT_ALLOC)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs,
					UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);

	uverbs_async_file_init(container_of(uobj,
					    struct ib_uverbs_async_event_file,
					    uobj));
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_ASYNC_EVENT_ALLOC,
	UVERBS_ATTR_FD(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
		       UVERBS_OBJECT_ASYNC_EVENT, UVERBS_ACCESS_NEW,
		       UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(
	UVERBS_OBJECT_ASYNC_EVENT,
	UVERBS_TYPE_ALLOC_FD(sizeof(struct ib_uverbs_async_event_file),
			     async_file_destroy, &uverbs_async_event_fops,
			     "[infinibandevent]", O_RDONLY),
	&UVERBS_METHOD(UVERBS_METHOD_ASYNC_EVENT_ALLOC));

/* A channel closes with its object: its CQs are all gone by then. */
static void comp_file_destroy(struct ib_uobject *uobj,
			      enum rdma_remove_reason why)
{
	uverbs_event_queue_close(&container_of(uobj, struct uverbs_comp_file,
					       uobj)->ev_queue);
}

DECLARE_UVERBS_NAMED_OBJECT(
	UVERBS_OBJECT_COMP_CHANNEL,
	UVERBS_TYPE_ALLOC_FD(sizeof(struct uverbs_comp_file),
			     comp_file_destroy, &uverbs_comp_event_fops,
			     "[infinibandevent]", O_RDONLY));

const struct uapi_definition uverbs_def_event_files[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_ASYNC_EVENT),
	/* Channels exist for CQs, which exist for devices with PDs. */
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_COMP_CHANNEL,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_pd)),
	{}
};
