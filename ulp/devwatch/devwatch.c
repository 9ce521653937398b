// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_devwatch: an ib_client that logs every RDMA device added and
 * removed, and every asynchronous event dispatched on it.
 *
 * Per device it keeps a struct devwatch (the client data), created in add()
 * and freed in remove(); the core serialises the two for one device, and
 * the event handler is unregistered before the struct goes.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include "rdma_version.h"

struct devwatch {
	struct ib_event_handler handler;
};

static struct ib_client devwatch_client;

static void devwatch_event(struct ib_event_handler *handler,
			   struct ib_event *event)
{
	struct ib_device *device = handler->device;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		ibdev_info(device, "event %s (%d) on port %u\n",
			   ib_event_msg(event->event), event->event,
			   event->element.port_num);
		break;
	default:
		ibdev_info(device, "event %s (%d)\n",
			   ib_event_msg(event->event), event->event);
		break;
	}
}

static int devwatch_add(struct ib_device *device)
{
	struct devwatch *dw = kzalloc(sizeof(*dw), GFP_KERNEL);

	if (!dw)
		return -ENOMEM;
	ibdev_info(device, "added: %u port(s), node GUID %016llx\n",
		   rdma_end_port(device) - rdma_start_port(device) + 1,
		   be64_to_cpu(device->node_guid));
	ib_set_client_data(device, &devwatch_client, dw);
	INIT_IB_EVENT_HANDLER(&dw->handler, device, devwatch_event);
	ib_register_event_handler(&dw->handler);
	return 0;
}

static void devwatch_remove(struct ib_device *device, void *client_data)
{
	struct devwatch *dw = client_data;

	ib_unregister_event_handler(&dw->handler);
	ibdev_info(device, "removed: %u port(s), node GUID %016llx\n",
		   rdma_end_port(device) - rdma_start_port(device) + 1,
		   be64_to_cpu(device->node_guid));
	kfree(dw);
}

static struct ib_client devwatch_client = {
	.name = "devwatch",
	.add = devwatch_add,
	.remove = devwatch_remove,
	.no_kverbs_req = 1,
};

static int __init devwatch_init(void)
{
	return ib_register_client(&devwatch_client);
}

static void __exit devwatch_exit(void)
{
	ib_unregister_client(&devwatch_client);
}

module_init(devwatch_init);
module_exit(devwatch_exit);

MODULE_DESCRIPTION("Log RDMA devices and their asynchronous events");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
