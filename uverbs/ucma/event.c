// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_cm's events of userspace's IDs.  rdma_cm calls ucma_event_handler()
 * with the ID's handler lock held; the event is copied into the layout of
 * <rdma/rdma_user_cm.h> and queued on the ID's file for GET_EVENT.
 *
 * A connection request on a listener brings a new rdma_cm ID: it gets a
 * context of its own, owned by the queued event until GET_EVENT hands it
 * out (and publishes it).  Each request queued takes one from the
 * listener's backlog; reading it gives it back.  With none left the
 * handler fails, and rdma_cm rejects and destroys the new ID.
 */
#include <linux/slab.h>
#include <linux/sched/signal.h>
#include <rdma/ib_marshall.h>
#include "internal.h"

static void ucma_event_conn_param(struct rdma_ucm_conn_param *dst,
				  const struct rdma_conn_param *src)
{
	*dst = (struct rdma_ucm_conn_param) {
		.qp_num = src->qp_num,
		.srq = src->srq,
		.flow_control = src->flow_control,
		.initiator_depth = src->initiator_depth,
		.responder_resources = src->responder_resources,
		.retry_count = src->retry_count,
		.rnr_retry_count = src->rnr_retry_count,
		.private_data_len = src->private_data_len,
	};
	if (src->private_data)
		memcpy(dst->private_data, src->private_data,
		       src->private_data_len);
}

static void ucma_event_ud_param(struct ib_device *device,
				struct rdma_ucm_ud_param *dst,
				struct rdma_ud_param *src, bool mcast)
{
	dst->qkey = src->qkey;
	dst->qp_num = src->qp_num;
	ib_copy_ah_attr_to_user(device, &dst->ah_attr, &src->ah_attr);
	/* A multicast event's private_data is the group's context, not data */
	if (mcast || !src->private_data)
		return;
	dst->private_data_len = src->private_data_len;
	memcpy(dst->private_data, src->private_data, dst->private_data_len);
}

/*
 * A queued event for @ctx of rdma_cm event @ev on @cm_id: userspace's
 * handle is the ID's, or the group's for a multicast event.
 */
static struct ucma_event *ucma_event_new(struct ucma_ctx *ctx,
					 struct rdma_cm_id *cm_id,
					 struct rdma_cm_event *ev)
{
	struct ucma_event *uev = kzalloc(sizeof(*uev), GFP_KERNEL);
	bool mcast = ev->event == RDMA_CM_EVENT_MULTICAST_JOIN ||
		     ev->event == RDMA_CM_EVENT_MULTICAST_ERROR;

	if (!uev)
		return NULL;
	uev->ctx = ctx;
	if (mcast) {
		uev->mc = (struct ucma_mc *)ev->param.ud.private_data;
		uev->resp.uid = uev->mc->uid;
		uev->resp.id = uev->mc->id;
	} else {
		uev->resp.uid = ctx->uid;
		uev->resp.id = ctx->id;
	}
	uev->resp.status = ev->status;
	uev->resp.event = ev->event;
	uev->resp.ece = (struct rdma_ucm_ece) {
		.attr_mod = ev->ece.attr_mod,
		.vendor_id = ev->ece.vendor_id,
	};
	if (cm_id->qp_type != IB_QPT_UD)
		ucma_event_conn_param(&uev->resp.param.conn, &ev->param.conn);
	else
		ucma_event_ud_param(cm_id->device, &uev->resp.param.ud,
				    &ev->param.ud, mcast);
	return uev;
}

/* Queues @uev on @file and wakes its readers. */
static void ucma_event_queue(struct ucma_file *file, struct ucma_event *uev)
{
	mutex_lock(&file->lock);
	list_add_tail(&uev->link, &file->events);
	mutex_unlock(&file->lock);
	wake_up_interruptible(&file->wait);
}

/* A connection request on @listener: a new ID, announced by the event. */
static int ucma_event_conn_req(struct ucma_ctx *listener,
			       struct rdma_cm_id *cm_id,
			       struct rdma_cm_event *ev)
{
	struct ucma_event *uev;
	struct ucma_ctx *child;

	if (!atomic_add_unless(&listener->backlog, -1, 0))
		return -ENOMEM;
	child = ucma_ctx_alloc(listener->file);
	if (!child)
		goto err_backlog;
	uev = ucma_event_new(listener, cm_id, ev);
	if (!uev)
		goto err_child;
	child->cm_id = cm_id;
	uev->child = child;
	uev->resp.id = child->id;
	cm_id->context = child;
	ucma_event_queue(listener->file, uev);
	return 0;

err_child:
	/* rdma_cm destroys the new ID when we fail */
	ucma_ctx_put(child);
err_backlog:
	atomic_inc(&listener->backlog);
	return -ENOMEM;
}

/**
 * ucma_event_handler - rdma_cm's event handler of userspace's IDs
 * @cm_id: the ID; its context is its struct ucma_ctx
 * @ev: the event
 *
 * Called under the ID's handler lock.  The events of a new connection's
 * ID are dropped until it is accepted (it has no uid before).  Device
 * removal schedules the destruction of the rdma_cm ID, which must not
 * happen in its own handler.
 *
 * Return: 0, or -ENOMEM to have rdma_cm refuse a connection request.
 */
int ucma_event_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev)
{
	struct ucma_ctx *ctx = cm_id->context;
	struct ucma_event *uev;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return ucma_event_conn_req(ctx, cm_id, ev);

	if (ctx->uid) {
		uev = ucma_event_new(ctx, cm_id, ev);
		if (uev)
			ucma_event_queue(ctx->file, uev);
	}
	if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL && !ctx->dying)
		queue_work(system_unbound_wq, &ctx->removal);
	return 0;
}

static bool ucma_event_any(struct ucma_file *file)
{
	return !list_empty(&file->events);
}

/* Waits for an event on @file; returns with the file's lock held. */
static int ucma_event_wait(struct ucma_file *file)
{
	for (;;) {
		mutex_lock(&file->lock);
		if (ucma_event_any(file))
			return 0;
		mutex_unlock(&file->lock);
		if (file->filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(file->wait, ucma_event_any(file)))
			return -ERESTARTSYS;
	}
}

/* The bookkeeping of reading @uev from @file, under the file's lock. */
static void ucma_event_consumed(struct ucma_file *file,
				struct ucma_event *uev)
{
	list_del(&uev->link);
	uev->ctx->events_reported++;
	if (uev->mc)
		uev->mc->events_reported++;
	if (uev->child) {
		atomic_inc(&uev->ctx->backlog);
		ucma_ctx_publish(uev->child, file);
	}
}

/**
 * ucma_cmd_get_event - GET_EVENT: the oldest event of the file
 * @file: the file
 * @buf: struct rdma_ucm_get_event
 * @in_len: unused: the command is read whole, as in-tree
 * @out_len: room for struct rdma_ucm_event_resp; old 32-bit userspace
 *	leaves out its last two fields
 *
 * Blocks for an event unless the file is non-blocking.
 *
 * Return: 0, -ENOSPC, -EFAULT, -EAGAIN or -ERESTARTSYS.
 */
int ucma_cmd_get_event(struct ucma_file *file, void *buf,
		   u32 in_len, u32 out_len)
{
	struct rdma_ucm_get_event *cmd = buf;
	struct ucma_event *uev;
	int ret;


	ret = ucma_event_wait(file);
	if (ret)
		return ret;
	uev = list_first_entry(&file->events, struct ucma_event, link);
	if (copy_to_user(u64_to_user_ptr(cmd->response), &uev->resp,
			 min_t(size_t, out_len, sizeof(uev->resp)))) {
		mutex_unlock(&file->lock);
		return -EFAULT;
	}
	ucma_event_consumed(file, uev);
	mutex_unlock(&file->lock);
	kfree(uev);
	return 0;
}

/**
 * ucma_event_purge_ctx - drop the queued events of an ID being torn down
 * @ctx: the ID, unpublished, its rdma_cm ID destroyed
 * @children: gets the connection requests not read (their new IDs are
 *	the caller's to tear down)
 *
 * Also takes the ID off its file's list.
 *
 * Return: the number of the ID's events GET_EVENT reported.
 */
int ucma_event_purge_ctx(struct ucma_ctx *ctx, struct list_head *children)
{
	struct ucma_file *file = ctx->file;
	struct ucma_event *uev, *next;
	int reported;

	mutex_lock(&file->lock);
	list_for_each_entry_safe(uev, next, &file->events, link) {
		if (uev->ctx != ctx)
			continue;
		if (uev->child) {
			list_move_tail(&uev->link, children);
			continue;
		}
		list_del(&uev->link);
		kfree(uev);
	}
	list_del_init(&ctx->file_link);
	reported = ctx->events_reported;
	mutex_unlock(&file->lock);
	return reported;
}

/**
 * ucma_event_purge_mc - drop the queued events of a group left
 * @mc: the group; the caller holds its ID's lock, the rdma_cm ID is there
 */
void ucma_event_purge_mc(struct ucma_mc *mc)
{
	struct ucma_ctx *ctx = mc->ctx;
	struct ucma_event *uev, *next;

	rdma_lock_handler(ctx->cm_id);
	mutex_lock(&ctx->file->lock);
	list_for_each_entry_safe(uev, next, &ctx->file->events, link) {
		if (uev->mc != mc)
			continue;
		list_del(&uev->link);
		kfree(uev);
	}
	mutex_unlock(&ctx->file->lock);
	rdma_unlock_handler(ctx->cm_id);
}
