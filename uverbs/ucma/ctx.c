// SPDX-License-Identifier: GPL-2.0
/*
 * The IDs userspace names by number.  An ID's number is reserved in
 * ucma_ids from its allocation until its memory goes; the entry points at
 * the ID only while it is published, that is while commands of its file
 * may find it.  A connection request's new ID is published when
 * GET_EVENT hands its number out.
 *
 * A command looks an ID up under the xarray's lock, takes a reference on
 * its memory, then its lock: from there until ucma_ctx_done() the
 * rdma_cm ID cannot go.  Teardown unpublishes first, so that no command
 * finds the ID again, clears @cm_id under the lock (commands still on
 * their way find it gone: ENXIO), destroys the rdma_cm ID and drops the
 * events still queued.
 */
#include <linux/slab.h>
#include "internal.h"

DEFINE_XARRAY_ALLOC(ucma_ids);

static void ucma_ctx_removal(struct work_struct *work);

/**
 * ucma_ctx_alloc - a new ID with a reserved number, not yet published
 * @file: the file it will belong to
 *
 * Return: the ID, holding one reference, or NULL.
 */
struct ucma_ctx *ucma_ctx_alloc(struct ucma_file *file)
{
	struct ucma_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	if (xa_alloc(&ucma_ids, &ctx->id, NULL, xa_limit_32b, GFP_KERNEL)) {
		kfree(ctx);
		return NULL;
	}
	ctx->file = file;
	mutex_init(&ctx->lock);
	kref_init(&ctx->kref);
	atomic_set(&ctx->backlog, 0);
	INIT_LIST_HEAD(&ctx->file_link);
	INIT_LIST_HEAD(&ctx->mcs);
	INIT_WORK(&ctx->removal, ucma_ctx_removal);
	return ctx;
}

static void ucma_ctx_free_kref(struct kref *kref)
{
	struct ucma_ctx *ctx = container_of(kref, struct ucma_ctx, kref);

	xa_erase(&ucma_ids, ctx->id);
	mutex_destroy(&ctx->lock);
	kfree(ctx);
}

/**
 * ucma_ctx_put - drop a reference on an ID's memory
 * @ctx: the ID
 */
void ucma_ctx_put(struct ucma_ctx *ctx)
{
	kref_put(&ctx->kref, ucma_ctx_free_kref);
}

/**
 * ucma_ctx_publish - let commands of @file find an ID
 * @ctx: the ID, unpublished
 * @file: its file, whose lock the caller holds
 */
void ucma_ctx_publish(struct ucma_ctx *ctx, struct ucma_file *file)
{
	lockdep_assert_held(&file->lock);
	xa_lock(&ucma_ids);
	ctx->file = file;
	__xa_store(&ucma_ids, ctx->id, ctx, GFP_KERNEL);
	xa_unlock(&ucma_ids);
	list_add_tail(&ctx->file_link, &file->ctxs);
}

/* The published ID @id of @file; the caller holds ucma_ids' lock. */
static struct ucma_ctx *ucma_ctx_find(struct ucma_file *file, u32 id)
{
	struct ucma_ctx *ctx = xa_load(&ucma_ids, id);

	if (!ctx)
		return ERR_PTR(-ENOENT);
	if (ctx->file != file)
		return ERR_PTR(-EINVAL);
	return ctx;
}

/**
 * ucma_ctx_get - the ID a command names, locked
 * @file: the file the command came on
 * @id: the ID's number
 * @need_dev: the ID must be bound to a device
 *
 * Return: the ID with its lock held and a reference, for
 * ucma_ctx_done(); ERR_PTR(-ENOENT) for no such ID, -EINVAL for another
 * file's ID or (with @need_dev) an unbound one, -ENXIO for an ID whose
 * device went.
 */
struct ucma_ctx *ucma_ctx_get(struct ucma_file *file, u32 id, bool need_dev)
{
	struct ucma_ctx *ctx;

	xa_lock(&ucma_ids);
	ctx = ucma_ctx_find(file, id);
	if (!IS_ERR(ctx))
		kref_get(&ctx->kref);
	xa_unlock(&ucma_ids);
	if (IS_ERR(ctx))
		return ctx;

	mutex_lock(&ctx->lock);
	if (!ctx->cm_id || (need_dev && !ctx->cm_id->device)) {
		int err = ctx->cm_id ? -EINVAL : -ENXIO;

		ucma_ctx_done(ctx);
		return ERR_PTR(err);
	}
	return ctx;
}

/**
 * ucma_ctx_done - the end of a command on an ID from ucma_ctx_get()
 * @ctx: the ID
 */
void ucma_ctx_done(struct ucma_ctx *ctx)
{
	mutex_unlock(&ctx->lock);
	ucma_ctx_put(ctx);
}

/**
 * ucma_ctx_unpublish - take ID @id of @file away from commands
 * @file: the file
 * @id: the ID's number
 *
 * Return: the ID, for ucma_ctx_teardown(), or an ERR_PTR as from
 * ucma_ctx_get().
 */
struct ucma_ctx *ucma_ctx_unpublish(struct ucma_file *file, u32 id)
{
	struct ucma_ctx *ctx;

	xa_lock(&ucma_ids);
	ctx = ucma_ctx_find(file, id);
	if (!IS_ERR(ctx))
		__xa_store(&ucma_ids, id, NULL, 0);
	xa_unlock(&ucma_ids);
	return ctx;
}

/*
 * Takes the rdma_cm ID away from the context: NULL if it is gone already.
 * With @dying, device removal no longer schedules the work that does the
 * same (its handler checks @dying under the handler lock).
 */
static struct rdma_cm_id *ucma_ctx_take_cm_id(struct ucma_ctx *ctx,
					      bool dying)
{
	struct rdma_cm_id *cm_id;

	mutex_lock(&ctx->lock);
	cm_id = ctx->cm_id;
	ctx->cm_id = NULL;
	if (cm_id && dying) {
		rdma_lock_handler(cm_id);
		ctx->dying = true;
		rdma_unlock_handler(cm_id);
	}
	mutex_unlock(&ctx->lock);
	return cm_id;
}

/* Its device went: the ID stays for userspace, without its rdma_cm ID. */
static void ucma_ctx_removal(struct work_struct *work)
{
	struct ucma_ctx *ctx = container_of(work, struct ucma_ctx, removal);
	struct rdma_cm_id *cm_id = ucma_ctx_take_cm_id(ctx, false);

	if (cm_id)
		rdma_destroy_id(cm_id);
}

/**
 * ucma_ctx_teardown - destroy an unpublished ID
 * @ctx: the ID; the caller gives up the creator's reference
 *
 * Destroys the rdma_cm ID (waiting for its running handler), the events
 * still queued for it (and the IDs of connection requests not yet read),
 * and its multicast groups.
 *
 * Return: the number of the ID's events GET_EVENT reported.
 */
int ucma_ctx_teardown(struct ucma_ctx *ctx)
{
	struct rdma_cm_id *cm_id = ucma_ctx_take_cm_id(ctx, true);
	struct ucma_event *ev, *next;
	LIST_HEAD(children);
	int reported;

	cancel_work_sync(&ctx->removal);
	if (cm_id)
		rdma_destroy_id(cm_id);

	reported = ucma_event_purge_ctx(ctx, &children);
	list_for_each_entry_safe(ev, next, &children, link) {
		ucma_ctx_teardown(ev->child);
		kfree(ev);
	}
	ucma_mc_forget_all(ctx);
	ucma_ctx_put(ctx);
	return reported;
}
