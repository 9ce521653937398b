// SPDX-License-Identifier: GPL-2.0
/*
 * Resource tracking: every PD, CQ, QP, SRQ, MR, user context, CM ID and
 * counter of a device, by type and id, with who owns it (a kernel module's
 * name or a user task), for "rdma resource" (core/nl/res.c).
 *
 * device->res[type] (struct rdma_restrack_root, allocated with the device
 * by core/device/device.c) maps ids to entries.  The xarray's own lock
 * protects the map; XA_ZERO_ENTRY holds the id of an entry whose deletion
 * has begun (rdma_restrack_begin_del()) until it is committed or aborted.
 * The RESTRACK_DD mark flags driver-specific QPs, shown only on request.
 *
 * An entry's kref counts its users: the object's own reference, from
 * rdma_restrack_new() until deletion, and one per reader that found it in
 * the map (rdma_restrack_get()).  Deletion takes the entry out of the map,
 * drops the object's reference and waits for res->comp, which the last
 * rdma_restrack_put() completes; after that no reader touches the object.
 * res->valid says the entry is published (added and not deleted); it and
 * res->task change only in the object owner's calls, which the owner
 * serialises.
 */
#include "abi/ib_core/restrack.h"
#include "core/restrack.h"
#include "restrack/internal.h"

/* The device of the object around @res, found by the entry's type. */
static struct ib_device *restrack_device(struct rdma_restrack_entry *res)
{
	switch (res->type) {
	case RDMA_RESTRACK_QP:
		return container_of(res, struct ib_qp, res)->device;
	case RDMA_RESTRACK_SRQ:
		return container_of(res, struct ib_srq, res)->device;
	case RDMA_RESTRACK_CQ:
		return container_of(res, struct ib_cq, res)->device;
	case RDMA_RESTRACK_PD:
		return container_of(res, struct ib_pd, res)->device;
	case RDMA_RESTRACK_MR:
		return container_of(res, struct ib_mr, res)->device;
	case RDMA_RESTRACK_COUNTER:
		return container_of(res, struct rdma_counter, res)->device;
	case RDMA_RESTRACK_CTX:
		return container_of(res, struct ib_ucontext, res)->device;
	case RDMA_RESTRACK_CM_ID:
		/* The connection manager's ID (include/core/restrack.h). */
		return container_of(res, struct restrack_cm_id, res)->id->device;
	default:
		return NULL;
	}
}

static struct rdma_restrack_root *restrack_root(struct rdma_restrack_entry *res)
{
	struct ib_device *dev = restrack_device(res);

	if (WARN_ONCE(!dev, "restrack: entry of unknown type %u\n", res->type))
		return NULL;
	return &dev->res[res->type];
}

static bool restrack_type_ok(enum rdma_restrack_type type)
{
	return (unsigned int)type < RDMA_RESTRACK_MAX;
}

/* Driver-specific QP types are listed only when details are asked for. */
static bool restrack_is_driver_detail(struct rdma_restrack_entry *res)
{
	return res->type == RDMA_RESTRACK_QP &&
	       container_of(res, struct ib_qp, res)->qp_type >= IB_QPT_DRIVER;
}

static void restrack_drop_task(struct rdma_restrack_entry *res)
{
	if (!res->task)
		return;
	put_task_struct(res->task);
	res->task = NULL;
}

static void restrack_own_task(struct rdma_restrack_entry *res,
			      struct task_struct *task)
{
	get_task_struct(task);
	restrack_drop_task(res);
	res->task = task;
	res->user = true;
}

/* The object holds (again) the one reference; no reader is waited for. */
static void restrack_reown(struct rdma_restrack_entry *res)
{
	init_completion(&res->comp);
	kref_init(&res->kref);
}

/**
 * rdma_restrack_new() - prepare a tracking entry
 * @res: the entry embedded in the object
 * @type: the object's type
 *
 * The object holds the first reference; rdma_restrack_put() on an entry
 * that was never added releases its owner.
 */
void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type)
{
	res->type = type;
	restrack_reown(res);
}
EXPORT_SYMBOL(rdma_restrack_new);

/**
 * rdma_restrack_set_name() - name the owner of an object
 * @res: the entry
 * @caller: the owning kernel module's name (KBUILD_MODNAME), or NULL for
 *	an object of the current user task, which the entry then references
 */
void rdma_restrack_set_name(struct rdma_restrack_entry *res, const char *caller)
{
	if (!caller)
		restrack_own_task(res, current);
	else
		res->kern_name = caller;
}
EXPORT_SYMBOL(rdma_restrack_set_name);

/**
 * rdma_restrack_parent_name() - give an object the owner of another
 * @dst: the entry of the new object
 * @parent: the entry of the object it is created in (e.g. its PD)
 */
void rdma_restrack_parent_name(struct rdma_restrack_entry *dst,
			       const struct rdma_restrack_entry *parent)
{
	if (!rdma_is_kernel_res(parent)) {
		if (parent->task)
			restrack_own_task(dst, parent->task);
		return;
	}
	dst->kern_name = parent->kern_name;
}
EXPORT_SYMBOL(rdma_restrack_parent_name);

/* A QP's id is its number; special QPs of several ports share numbers. */
static int restrack_insert_qp(struct rdma_restrack_root *rt,
			      struct rdma_restrack_entry *res)
{
	struct ib_qp *qp = container_of(res, struct ib_qp, res);
	u32 id = qp->qp_num;
	int ret;

	if (qp->qp_type == IB_QPT_SMI || qp->qp_type == IB_QPT_GSI)
		id |= qp->port << 24;
	ret = xa_insert(&rt->xa, id, res, GFP_KERNEL);
	if (ret)
		return ret;
	res->id = id;
	if (restrack_is_driver_detail(res))
		xa_set_mark(&rt->xa, id, RESTRACK_DD);
	return 0;
}

static int restrack_insert(struct rdma_restrack_root *rt,
			   struct rdma_restrack_entry *res)
{
	u32 id;
	int ret;

	switch (res->type) {
	case RDMA_RESTRACK_QP:
		return restrack_insert_qp(rt, res);
	case RDMA_RESTRACK_COUNTER:
		/* A counter is known to users by its own number. */
		id = container_of(res, struct rdma_counter, res)->id;
		ret = xa_insert(&rt->xa, id, res, GFP_KERNEL);
		break;
	default:
		ret = xa_alloc_cyclic(&rt->xa, &id, res, xa_limit_32b,
				      &rt->next_id, GFP_KERNEL);
		ret = ret < 0 ? ret : 0;
		break;
	}
	if (!ret)
		res->id = id;
	return ret;
}

/**
 * rdma_restrack_add() - publish a fully created object
 * @res: the entry, from rdma_restrack_new()
 *
 * The object gets its id (a QP its number, a counter its counter id, the
 * others the next free id of their type) and is listed from now on; an
 * entry marked with rdma_restrack_no_track() is only marked valid.  If the
 * id is taken or memory is short, the object is simply not listed.
 */
void rdma_restrack_add(struct rdma_restrack_entry *res)
{
	struct rdma_restrack_root *rt;

	if (res->no_track) {
		res->valid = true;
		return;
	}
	rt = restrack_root(res);
	if (rt)
		res->valid = !restrack_insert(rt, res);
}
EXPORT_SYMBOL(rdma_restrack_add);

/* Drop the object's reference and wait until no reader uses the entry. */
static void restrack_wait_readers(struct rdma_restrack_entry *res)
{
	rdma_restrack_put(res);
	wait_for_completion(&res->comp);
}

/**
 * rdma_restrack_del() - stop tracking an object before it is destroyed
 * @res: the entry
 *
 * Waits until no reader uses the entry and releases its owner task; an
 * entry that was never added only releases its owner.
 */
void rdma_restrack_del(struct rdma_restrack_entry *res)
{
	struct rdma_restrack_root *rt;

	if (res->valid) {
		rt = res->no_track ? NULL : restrack_root(res);
		if (rt)
			xa_erase(&rt->xa, res->id);
		res->valid = false;
		restrack_wait_readers(res);
	}
	restrack_drop_task(res);
}
EXPORT_SYMBOL(rdma_restrack_del);

/* Replace @from by @to at the entry's id; the id stays reserved. */
static void restrack_swap(struct rdma_restrack_entry *res, void *from,
			  void *to)
{
	struct rdma_restrack_root *rt = restrack_root(res);

	if (!rt)
		return;
	xa_lock(&rt->xa);
	/* Replaces an existing slot: nothing to allocate. */
	__xa_cmpxchg(&rt->xa, res->id, from, to, GFP_ATOMIC);
	if (to == res && restrack_is_driver_detail(res))
		__xa_set_mark(&rt->xa, res->id, RESTRACK_DD);
	xa_unlock(&rt->xa);
}

/**
 * rdma_restrack_begin_del() - hide an object whose destruction may fail
 * @res: the entry
 *
 * The object is no longer listed and no reader uses it when this returns,
 * but its id stays reserved: finish with rdma_restrack_commit_del() once
 * the object is destroyed, or rdma_restrack_abort_del() if it survives.
 */
void rdma_restrack_begin_del(struct rdma_restrack_entry *res)
{
	if (!res->valid)
		return;
	if (!res->no_track)
		restrack_swap(res, res, XA_ZERO_ENTRY);
	restrack_wait_readers(res);
}
EXPORT_SYMBOL(rdma_restrack_begin_del);

/**
 * rdma_restrack_abort_del() - list an object again after a failed destroy
 * @res: the entry, after rdma_restrack_begin_del()
 */
void rdma_restrack_abort_del(struct rdma_restrack_entry *res)
{
	if (!res->valid)
		return;
	restrack_reown(res);
	if (!res->no_track)
		restrack_swap(res, XA_ZERO_ENTRY, res);
}
EXPORT_SYMBOL(rdma_restrack_abort_del);

/**
 * rdma_restrack_commit_del() - forget an object after its destruction
 * @res: the entry, after rdma_restrack_begin_del()
 *
 * Frees its id and releases its owner task.
 */
void rdma_restrack_commit_del(struct rdma_restrack_entry *res)
{
	struct rdma_restrack_root *rt;

	if (res->valid && !res->no_track) {
		rt = restrack_root(res);
		if (rt)
			xa_erase(&rt->xa, res->id);
	}
	res->valid = false;
	restrack_drop_task(res);
}
EXPORT_SYMBOL(rdma_restrack_commit_del);

/**
 * rdma_restrack_sync() - wait for the readers of an object
 * @res: the entry
 *
 * When this returns, every reader that found the object before the call
 * is done with it, so a change made before the call (e.g. of mr->pd) is
 * what later readers see.  Not concurrently with rdma_restrack_del().
 */
void rdma_restrack_sync(struct rdma_restrack_entry *res)
{
	if (!res->valid || res->no_track)
		return;
	rdma_restrack_begin_del(res);
	rdma_restrack_abort_del(res);
}
EXPORT_SYMBOL(rdma_restrack_sync);

/**
 * rdma_restrack_get() - take a reader's reference on an entry
 * @res: the entry
 *
 * Return: nonzero if the reference was taken, 0 if the entry is being
 * deleted.
 */
int __must_check rdma_restrack_get(struct rdma_restrack_entry *res)
{
	return kref_get_unless_zero(&res->kref);
}
EXPORT_SYMBOL(rdma_restrack_get);

static void restrack_last_put(struct kref *kref)
{
	struct rdma_restrack_entry *res =
		container_of(kref, struct rdma_restrack_entry, kref);

	/* An entry that was never published dies with its first reference. */
	if (!res->valid)
		restrack_drop_task(res);
	complete(&res->comp);
}

/**
 * rdma_restrack_put() - drop a reference on an entry
 * @res: the entry
 *
 * Return: 1 if this was the last reference, else 0.
 */
int rdma_restrack_put(struct rdma_restrack_entry *res)
{
	return kref_put(&res->kref, restrack_last_put);
}
EXPORT_SYMBOL(rdma_restrack_put);

/**
 * rdma_restrack_get_byid() - find a listed object by type and id
 * @dev: the device
 * @type: the object type
 * @id: the id it is listed under
 *
 * Return: the entry with a reader's reference (drop it with
 * rdma_restrack_put()), ERR_PTR(-ENOENT) if no such object is listed, or
 * ERR_PTR(-EINVAL) for an unknown type.
 */
struct rdma_restrack_entry *rdma_restrack_get_byid(struct ib_device *dev,
						   enum rdma_restrack_type type,
						   u32 id)
{
	struct rdma_restrack_entry *found;
	struct xarray *xa;

	if (!restrack_type_ok(type))
		return ERR_PTR(-EINVAL);
	xa = &dev->res[type].xa;
	xa_lock(xa);
	found = xa_load(xa, id);
	/* An entry whose deletion has begun has no references left. */
	if (found && !rdma_restrack_get(found))
		found = NULL;
	xa_unlock(xa);
	return found ?: ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL(rdma_restrack_get_byid);

/**
 * rdma_restrack_count() - how many objects of a type a device lists
 * @dev: the device
 * @type: the object type
 * @show_details: count driver-specific QPs too
 *
 * Return: the number, or -EINVAL for an unknown type.
 */
int rdma_restrack_count(struct ib_device *dev, enum rdma_restrack_type type,
			bool show_details)
{
	struct rdma_restrack_root *rt;
	struct rdma_restrack_entry *res;
	unsigned long id;
	int n = 0;

	if (!restrack_type_ok(type))
		return -EINVAL;
	rt = &dev->res[type];
	xa_lock(&rt->xa);
	xa_for_each(&rt->xa, id, res)
		if (show_details || !xa_get_mark(&rt->xa, id, RESTRACK_DD))
			n++;
	xa_unlock(&rt->xa);
	return n;
}
EXPORT_SYMBOL(rdma_restrack_count);

/**
 * restrack_get_next() - the next listed object, for a walk
 * @dev: the device
 * @type: the object type, below RDMA_RESTRACK_MAX
 * @id: where to start; on return, the id of the entry found
 * @details: include driver-specific QPs
 *
 * Return: the entry with a reader's reference, or NULL when none is left.
 */
struct rdma_restrack_entry *restrack_get_next(struct ib_device *dev,
					      enum rdma_restrack_type type,
					      unsigned long *id, bool details)
{
	struct rdma_restrack_root *rt = &dev->res[type];
	struct rdma_restrack_entry *res;

	xa_lock(&rt->xa);
	res = xa_find(&rt->xa, id, U32_MAX, XA_PRESENT);
	while (res && ((!details && xa_get_mark(&rt->xa, *id, RESTRACK_DD)) ||
		       !rdma_restrack_get(res)))
		res = xa_find_after(&rt->xa, id, U32_MAX, XA_PRESENT);
	xa_unlock(&rt->xa);
	return res;
}
