// SPDX-License-Identifier: GPL-2.0
/*
 * MIGRATE_ID, written on the file an ID moves to, naming the file it
 * leaves by descriptor: the ID and its queued events (its groups' and its
 * connection requests' too) change file.  The handler lock of the rdma_cm
 * ID keeps new events out meanwhile; ucma_ids' lock orders the change
 * against lookups and destruction.
 */
#include <linux/file.h>
#include "internal.h"

/* Moves @ctx's events and list entry from @from to @to; the reported count */
static int ucma_migrate_events(struct ucma_ctx *ctx, struct ucma_file *from,
			       struct ucma_file *to)
{
	struct ucma_event *uev, *next;
	LIST_HEAD(moving);
	int reported;

	mutex_lock(&from->lock);
	list_del_init(&ctx->file_link);
	list_for_each_entry_safe(uev, next, &from->events, link)
		if (uev->ctx == ctx)
			list_move_tail(&uev->link, &moving);
	reported = ctx->events_reported;
	mutex_unlock(&from->lock);

	mutex_lock(&to->lock);
	list_add_tail(&ctx->file_link, &to->ctxs);
	list_splice_tail(&moving, &to->events);
	mutex_unlock(&to->lock);
	if (!list_empty(&moving))
		wake_up_interruptible(&to->wait);
	return reported;
}

/* Points @ctx at @to, unless it stopped being @from's published ID @id */
static bool ucma_migrate_switch(struct ucma_ctx *ctx, u32 id,
				struct ucma_file *from, struct ucma_file *to)
{
	bool ok;

	xa_lock(&ucma_ids);
	ok = xa_load(&ucma_ids, id) == ctx && ctx->file == from;
	if (ok)
		ctx->file = to;
	xa_unlock(&ucma_ids);
	return ok;
}

/*
 * ID @id of the rdma_cm file @filp (NULL: no open file at the descriptor),
 * locked as ucma_ctx_get() gives it.
 */
static struct ucma_ctx *ucma_migrate_find(struct file *filp, u32 id)
{
	if (!filp)
		return ERR_PTR(-ENOENT);
	if (filp->f_op != &ucma_fops)
		return ERR_PTR(-EINVAL);
	return ucma_ctx_get(filp->private_data, id, false);
}

/* The move itself, new events held off by the handler lock */
static int ucma_migrate_move(struct ucma_ctx *ctx, u32 id,
			     struct ucma_file *from, struct ucma_file *to,
			     u32 *reported)
{
	int ret = 0;

	rdma_lock_handler(ctx->cm_id);
	if (ucma_migrate_switch(ctx, id, from, to))
		*reported = ucma_migrate_events(ctx, from, to);
	else
		ret = -ENOENT;
	rdma_unlock_handler(ctx->cm_id);
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_migrate_id - MIGRATE_ID: move an ID to this file
 * @file: the file the ID moves to
 * @buf: struct rdma_ucm_migrate_id: the ID and the descriptor of its file
 * @in_len: unused
 * @out_len: unused (as in-tree, the response is written whole)
 *
 * Return: 0 or a negative errno: -ENOENT for no open file at the
 * descriptor, -EINVAL for a file that is not rdma_cm's, the ID's lookup
 * errors.
 */
int ucma_cmd_migrate_id(struct ucma_file *file, void *buf,
			u32 in_len, u32 out_len)
{
	struct rdma_ucm_migrate_resp resp = {};
	struct rdma_ucm_migrate_id *cmd = buf;
	struct ucma_ctx *ctx;
	struct fd from;
	int ret;

	from = fdget(cmd->fd);
	ctx = ucma_migrate_find(from.file, cmd->id);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
	} else {
		ret = ucma_migrate_move(ctx, cmd->id, from.file->private_data,
					file, &resp.events_reported);
		if (!ret && copy_to_user(u64_to_user_ptr(cmd->response), &resp,
					 sizeof(resp)))
			ret = -EFAULT;
	}
	if (from.file)
		fdput(from);
	return ret;
}
