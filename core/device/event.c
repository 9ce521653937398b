// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous event handlers of a device.
 *
 * device->event_handler_list is protected by device->event_handler_rwsem:
 * written by (un)registration, read while the event work queued by
 * ib_dispatch_event() (cache.c) calls the handlers.  So a handler is never called after
 * ib_unregister_event_handler() returns, and handlers must not
 * (un)register handlers of the same device.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"

/**
 * ib_register_event_handler - receive a device's asynchronous events
 * @event_handler: set up with INIT_IB_EVENT_HANDLER(); its handler is
 *	called in process context, from the core's event work queue, for
 *	every event of its device (see ib_dispatch_event())
 */
void ib_register_event_handler(struct ib_event_handler *event_handler)
{
	struct ib_device *device = event_handler->device;

	down_write(&device->event_handler_rwsem);
	list_add_tail(&event_handler->list, &device->event_handler_list);
	up_write(&device->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_register_event_handler);

/**
 * ib_unregister_event_handler - stop receiving a device's events
 * @event_handler: a registered handler
 *
 * Waits for a call of the handler in progress.
 */
void ib_unregister_event_handler(struct ib_event_handler *event_handler)
{
	struct ib_device *device = event_handler->device;

	down_write(&device->event_handler_rwsem);
	list_del_init(&event_handler->list);
	up_write(&device->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_unregister_event_handler);

void ibdev_event_fanout(const struct ib_event *event)
{
	struct ib_device *device = event->device;
	struct ib_event_handler *handler;

	down_read(&device->event_handler_rwsem);
	list_for_each_entry(handler, &device->event_handler_list, list)
		handler->handler(handler, (struct ib_event *)event);
	up_read(&device->event_handler_rwsem);
}
