// SPDX-License-Identifier: GPL-2.0
/*
 * Event files: the async event file of a context and the completion
 * channels, both a struct ib_uverbs_event_queue read by userspace.
 *
 * queue->lock (irq-safe: completions arrive in interrupt context) protects
 * the queue's event_list, is_closed, and the per-object lists of unread
 * events (ib_uevent_object.event_list, ib_ucq_object.comp_list) with the
 * counts of events read (events_reported, comp_events_reported).  An event
 * that belongs to an object is on both lists; reading it counts it and
 * takes it off both, destroying the object first drops it uncounted, so
 * that a destroy reports exactly the events userspace has read.  A closed
 * queue takes no more events; reading it returns what is left, then -EIO.
 *
 * The async event file also receives the device's events (a port going
 * down, ...), through an ib_event_handler registered while its object
 * lives; when the device goes away it gets IB_EVENT_DEVICE_FATAL, which it
 * keeps until userspace closes it.
 */
#include <linux/poll.h>
#include "internal.h"

/**
 * struct uverbs_event - one event waiting in a queue
 * @desc: what read() returns (16 bytes async, 8 completion)
 * @node: in the queue's event_list
 * @obj_node: in its object's list of unread events, if @counter is set
 * @counter: its object's count of events read, or NULL
 */
struct uverbs_event {
	union {
		struct ib_uverbs_async_event_desc async;
		struct ib_uverbs_comp_event_desc comp;
	} desc;
	struct list_head node;
	struct list_head obj_node;
	u32 *counter;
};

/**
 * uverbs_event_queue_init() - an empty, open queue
 * @queue: the queue
 */
void uverbs_event_queue_init(struct ib_uverbs_event_queue *queue)
{
	spin_lock_init(&queue->lock);
	INIT_LIST_HEAD(&queue->event_list);
	init_waitqueue_head(&queue->poll_wait);
	queue->is_closed = 0;
	queue->async_queue = NULL;
}

static void event_unlink(struct uverbs_event *ev)
{
	list_del(&ev->node);
	if (ev->counter)
		list_del(&ev->obj_node);
}

static void queue_wake(struct ib_uverbs_event_queue *queue)
{
	wake_up_interruptible(&queue->poll_wait);
	kill_fasync(&queue->async_queue, SIGIO, POLL_IN);
}

/**
 * uverbs_event_queue_close() - close a queue and drop its events
 * @queue: the queue
 *
 * Readers and pollers are woken and see the end (-EIO, EPOLLERR).
 */
void uverbs_event_queue_close(struct ib_uverbs_event_queue *queue)
{
	struct uverbs_event *ev, *next;
	LIST_HEAD(dropped);

	spin_lock_irq(&queue->lock);
	queue->is_closed = 1;
	list_for_each_entry_safe(ev, next, &queue->event_list, node) {
		event_unlink(ev);
		list_add(&ev->node, &dropped);
	}
	spin_unlock_irq(&queue->lock);
	queue_wake(queue);

	list_for_each_entry_safe(ev, next, &dropped, node)
		kfree(ev);
}

/*
 * Queue @ev (its desc filled) on @queue, and on @obj_events with @counter
 * if given; freed instead if the queue is closed.  Any context.
 */
static void queue_event(struct ib_uverbs_event_queue *queue,
			struct uverbs_event *ev, struct list_head *obj_events,
			u32 *counter)
{
	unsigned long flags;

	spin_lock_irqsave(&queue->lock, flags);
	if (queue->is_closed) {
		spin_unlock_irqrestore(&queue->lock, flags);
		kfree(ev);
		return;
	}
	ev->counter = obj_events ? counter : NULL;
	list_add_tail(&ev->node, &queue->event_list);
	if (ev->counter)
		list_add_tail(&ev->obj_node, obj_events);
	spin_unlock_irqrestore(&queue->lock, flags);
	queue_wake(queue);
}

/* Wait for an event; called and returns with the lock held, 0 or error. */
static int queue_wait(struct ib_uverbs_event_queue *queue, struct file *filp)
	__must_hold(&queue->lock)
{
	lockdep_assert_held(&queue->lock);
	while (list_empty(&queue->event_list)) {
		if (queue->is_closed)
			return -EIO;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		spin_unlock_irq(&queue->lock);
		if (wait_event_interruptible(queue->poll_wait,
					     !list_empty(&queue->event_list) ||
					     queue->is_closed)) {
			spin_lock_irq(&queue->lock);
			return -ERESTARTSYS;
		}
		spin_lock_irq(&queue->lock);
	}
	return 0;
}

/* read() of a queue: one event of @size bytes, counted for its object. */
static ssize_t queue_read(struct ib_uverbs_event_queue *queue,
			  struct file *filp, char __user *buf, size_t count,
			  size_t size)
{
	struct uverbs_event *ev;
	int ret;

	spin_lock_irq(&queue->lock);
	ret = queue_wait(queue, filp);
	if (!ret && count < size)
		ret = -EINVAL;
	if (ret) {
		spin_unlock_irq(&queue->lock);
		return ret;
	}
	ev = list_first_entry(&queue->event_list, struct uverbs_event, node);
	if (ev->counter)
		(*ev->counter)++;
	event_unlink(ev);
	spin_unlock_irq(&queue->lock);

	ret = copy_to_user(buf, &ev->desc, size) ? -EFAULT : size;
	kfree(ev);
	return ret;
}

static __poll_t queue_poll(struct ib_uverbs_event_queue *queue,
			   struct file *filp, struct poll_table_struct *wait)
{
	__poll_t mask = 0;

	poll_wait(filp, &queue->poll_wait, wait);
	spin_lock_irq(&queue->lock);
	if (!list_empty(&queue->event_list))
		mask = EPOLLIN | EPOLLRDNORM;
	else if (queue->is_closed)
		mask = EPOLLERR;
	spin_unlock_irq(&queue->lock);
	return mask;
}

/* The queue of an event file; its object is its private_data. */
static struct ib_uverbs_event_queue *async_queue_of(struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;

	return &container_of(uobj, struct ib_uverbs_async_event_file,
			     uobj)->ev_queue;
}

static struct ib_uverbs_event_queue *comp_queue_of(struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;

	return &container_of(uobj, struct uverbs_comp_file, uobj)->ev_queue;
}

static ssize_t async_read(struct file *filp, char __user *buf, size_t count,
			  loff_t *pos)
{
	return queue_read(async_queue_of(filp), filp, buf, count,
			  sizeof(struct ib_uverbs_async_event_desc));
}

static __poll_t async_poll(struct file *filp, struct poll_table_struct *wait)
{
	return queue_poll(async_queue_of(filp), filp, wait);
}

static int async_fasync(int fd, struct file *filp, int on)
{
	return fasync_helper(fd, filp, on, &async_queue_of(filp)->async_queue);
}

static ssize_t comp_read(struct file *filp, char __user *buf, size_t count,
			 loff_t *pos)
{
	return queue_read(comp_queue_of(filp), filp, buf, count,
			  sizeof(struct ib_uverbs_comp_event_desc));
}

static __poll_t comp_poll(struct file *filp, struct poll_table_struct *wait)
{
	return queue_poll(comp_queue_of(filp), filp, wait);
}

static int comp_fasync(int fd, struct file *filp, int on)
{
	return fasync_helper(fd, filp, on, &comp_queue_of(filp)->async_queue);
}

/**
 * uverbs_async_event_release() - the release of an async event file
 * @inode: its inode
 * @filp: the file
 *
 * Its queue stays open after the object is destroyed (so that
 * IB_EVENT_DEVICE_FATAL can be read), and is closed here.
 *
 * Return: 0.
 */
int uverbs_async_event_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;
	int ret;

	if (!uobj)
		return uverbs_uobject_fd_release(inode, filp);
	uverbs_uobject_get(uobj);
	ret = uverbs_uobject_fd_release(inode, filp);
	uverbs_event_queue_close(&container_of(uobj,
					       struct ib_uverbs_async_event_file,
					       uobj)->ev_queue);
	uverbs_uobject_put(uobj);
	return ret;
}

const struct file_operations uverbs_async_event_fops = {
	.owner = THIS_MODULE,
	.read = async_read,
	.poll = async_poll,
	.release = uverbs_async_event_release,
	.fasync = async_fasync,
	.llseek = no_llseek,
};

const struct file_operations uverbs_comp_event_fops = {
	.owner = THIS_MODULE,
	.read = comp_read,
	.poll = comp_poll,
	.release = uverbs_uobject_fd_release,
	.fasync = comp_fasync,
	.llseek = no_llseek,
};

/**
 * uverbs_async_event() - queue an asynchronous event
 * @file: the async event file, or NULL (nothing is queued)
 * @element: what the event is about, as userspace names it: an object's
 *	user_handle, or a port number
 * @event: enum ib_event_type
 * @obj_events: the object's list of unread events, or NULL for an event
 *	of no object
 * @counter: the object's count of events read
 *
 * Any context; an event that cannot be allocated is lost.
 */
void uverbs_async_event(struct ib_uverbs_async_event_file *file, u64 element,
			u32 event, struct list_head *obj_events, u32 *counter)
{
	struct uverbs_event *ev;

	if (!file)
		return;
	ev = kmalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;
	ev->desc.async.element = element;
	ev->desc.async.event_type = event;
	ev->desc.async.reserved = 0;
	queue_event(&file->ev_queue, ev, obj_events, counter);
}

/**
 * uverbs_comp_handler() - the completion handler of a user CQ
 * @cq: the CQ; cq->uobject is its user object
 * @cq_context: the struct ib_uverbs_event_queue of its completion
 *	channel, or NULL if it has none
 */
void uverbs_comp_handler(struct ib_cq *cq, void *cq_context)
{
	struct ib_uverbs_event_queue *queue = cq_context;
	struct ib_ucq_object *ucq = cq->uobject;
	struct uverbs_event *ev;

	if (!queue)
		return;
	ev = kmalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;
	ev->desc.comp.cq_handle = ucq->uevent.uobject.user_handle;
	queue_event(queue, ev, &ucq->comp_list, &ucq->comp_events_reported);
}

static void uevent_report(struct ib_uevent_object *uevent,
			  struct ib_event *event)
{
	uverbs_async_event(uevent->event_file, uevent->uobject.user_handle,
			   event->event, &uevent->event_list,
			   &uevent->events_reported);
}

/**
 * uverbs_cq_event_handler() - event_handler of a user CQ
 * @event: the event
 * @context: unused
 */
void uverbs_cq_event_handler(struct ib_event *event, void *context)
{
	uevent_report(&event->element.cq->uobject->uevent, event);
}

/**
 * uverbs_qp_event_handler() - event_handler of a user QP
 * @event: the event
 * @context: unused
 *
 * An XRC target QP has no user object of its own: its events go nowhere.
 */
void uverbs_qp_event_handler(struct ib_event *event, void *context)
{
	if (event->element.qp->uobject)
		uevent_report(&event->element.qp->uobject->uevent, event);
}

/**
 * uverbs_srq_event_handler() - event_handler of a user SRQ
 * @event: the event
 * @context: unused
 */
void uverbs_srq_event_handler(struct ib_event *event, void *context)
{
	uevent_report(&event->element.srq->uobject->uevent, event);
}

/**
 * uverbs_wq_event_handler() - event_handler of a user WQ
 * @event: the event
 * @context: unused
 */
void uverbs_wq_event_handler(struct ib_event *event, void *context)
{
	uevent_report(&event->element.wq->uobject->uevent, event);
}

/* Drop the unread events on @obj_events (under @queue's lock). */
static void queue_drop_object(struct ib_uverbs_event_queue *queue,
			      struct list_head *obj_events)
{
	struct uverbs_event *ev, *next;
	LIST_HEAD(dropped);

	spin_lock_irq(&queue->lock);
	list_for_each_entry_safe(ev, next, obj_events, obj_node) {
		event_unlink(ev);
		list_add(&ev->node, &dropped);
	}
	spin_unlock_irq(&queue->lock);
	list_for_each_entry_safe(ev, next, &dropped, node)
		kfree(ev);
}

/**
 * uverbs_uevent_release() - an object that reports events goes
 * @uevent: its event part; its unread events are dropped and its
 *	reference to its async event file (if any) is put
 *
 * Called once the object can raise no more events (after the driver
 * destroyed it).
 */
void uverbs_uevent_release(struct ib_uevent_object *uevent)
{
	struct ib_uverbs_async_event_file *file = uevent->event_file;

	if (!file)
		return;
	queue_drop_object(&file->ev_queue, &uevent->event_list);
	uverbs_uobject_put(&file->uobj);
}

/**
 * uverbs_ucq_release() - a user CQ goes
 * @comp_file: its completion channel, or NULL; its unread completion
 *	events are dropped and its reference to the channel put
 * @ucq: the CQ's user object (its async events go too)
 */
void uverbs_ucq_release(struct uverbs_comp_file *comp_file,
			struct ib_ucq_object *ucq)
{
	if (comp_file) {
		queue_drop_object(&comp_file->ev_queue, &ucq->comp_list);
		uverbs_uobject_put(&comp_file->uobj);
	}
	uverbs_uevent_release(&ucq->uevent);
}

static void async_device_event(struct ib_event_handler *handler,
			       struct ib_event *event)
{
	struct ib_uverbs_async_event_file *file =
		container_of(handler, struct ib_uverbs_async_event_file,
			     event_handler);

	uverbs_async_event(file, event->element.port_num, event->event, NULL,
			   NULL);
}

/**
 * uverbs_async_file_init() - start an async event file
 * @file: the file's object, allocated in a context and not yet committed
 *
 * The first async event file of a uverbs file becomes its default one
 * (where objects report unless told otherwise), which the uverbs file
 * holds until it is released.  The file starts receiving the device's
 * events.
 */
void uverbs_async_file_init(struct ib_uverbs_async_event_file *file)
{
	struct ib_uverbs_file *ufile = file->uobj.ufile;

	uverbs_event_queue_init(&file->ev_queue);
	mutex_lock(&ufile->ucontext_lock);
	if (!ufile->default_async_file) {
		uverbs_uobject_get(&file->uobj);
		/* Lockless readers see the file set up (async_file_get). */
		smp_store_release(&ufile->default_async_file, file);
	}
	mutex_unlock(&ufile->ucontext_lock);

	INIT_IB_EVENT_HANDLER(&file->event_handler, file->uobj.context->device,
			      async_device_event);
	ib_register_event_handler(&file->event_handler);
}

/**
 * uverbs_async_file_get() - the async event file an object reports to
 * @attrs: the command's bundle
 * @attr_id: the attribute that may name one (an FD attribute of
 *	UVERBS_OBJECT_ASYNC_EVENT)
 *
 * Return: the named file, else the uverbs file's default one, with a
 * reference (uverbs_uobject_put(&file->uobj)); NULL if there is none.
 */
struct ib_uverbs_async_event_file *
uverbs_async_file_get(struct uverbs_attr_bundle *attrs, u16 attr_id)
{
	struct ib_uverbs_async_event_file *file;
	struct ib_uobject *uobj;

	uobj = uverbs_attr_get_uobject(attrs, attr_id);
	if (IS_ERR(uobj))
		/* Pairs with the release in uverbs_async_file_init(). */
		file = smp_load_acquire(&attrs->ufile->default_async_file);
	else
		file = container_of(uobj, struct ib_uverbs_async_event_file,
				    uobj);
	if (file)
		uverbs_uobject_get(&file->uobj);
	return file;
}
