// SPDX-License-Identifier: GPL-2.0
/*
 * User objects: their life from allocation to destruction, whatever their
 * class (idr.c keeps handles, fd.c files).
 *
 * An object's kref counts: its creator until commit or abort, then its
 * handle (the IDR slot or the file's private_data); its place on the
 * file's uobjects list; every lookup in progress.  The memory goes with
 * the last reference, after an RCU grace period, as IDR lookups find
 * objects under RCU alone.
 *
 * uobj->usecnt is the lock of the public header: a positive count of
 * commands sharing the object (UVERBS_LOOKUP_READ), -1 while one command
 * has it exclusively (WRITE, DESTROY's destruction, and from allocation to
 * commit).  Nobody waits for it: a command that cannot take it fails with
 * -EBUSY.
 *
 * ufile->hw_destroy_rwsem is held for read from an allocation's begin to
 * its commit or abort and across a destruction, and for write by the
 * teardown of the whole file (cleanup.c), so that the teardown never runs
 * beside either.  The uobjects list changes under uobjects_lock with the
 * rwsem held for read, or under the rwsem held for write.
 */
#include "abi/ib_uverbs/rdma_core.h"
#include "internal.h"

static void uobj_free(struct kref *ref)
{
	kfree_rcu(container_of(ref, struct ib_uobject, ref), rcu);
}

/**
 * uverbs_uobject_put() - drop a reference to a user object
 * @uobject: the object
 *
 * The last reference frees it (after an RCU grace period).
 */
void uverbs_uobject_put(struct ib_uobject *uobject)
{
	kref_put(&uobject->ref, uobj_free);
}
EXPORT_SYMBOL(uverbs_uobject_put);

/* Take @uobj for @mode; false if another command holds it against us. */
bool uverbs_uobj_trylock(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	switch (mode) {
	case UVERBS_LOOKUP_READ:
		return atomic_add_unless(&uobj->usecnt, 1, -1);
	case UVERBS_LOOKUP_WRITE:
		return atomic_cmpxchg(&uobj->usecnt, 0, -1) == 0;
	case UVERBS_LOOKUP_DESTROY:
		break;
	}
	return true;
}

void uverbs_uobj_unlock(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	/* A DESTROY lookup took no use count: the object is on its way out */
	if (mode == UVERBS_LOOKUP_READ)
		atomic_dec(&uobj->usecnt);
	else if (mode == UVERBS_LOOKUP_WRITE)
		atomic_set(&uobj->usecnt, 0);
}

/* Put an object on its file's list, newest first; the list holds a ref. */
static void uobj_list(struct ib_uobject *uobj)
{
	struct ib_uverbs_file *ufile = uobj->ufile;
	unsigned long flags;

	uverbs_uobject_get(uobj);
	spin_lock_irqsave(&ufile->uobjects_lock, flags);
	list_add(&uobj->list, &ufile->uobjects);
	spin_unlock_irqrestore(&ufile->uobjects_lock, flags);
}

static void uobj_unlist(struct ib_uobject *uobj)
{
	struct ib_uverbs_file *ufile = uobj->ufile;
	unsigned long flags;

	if (list_empty(&uobj->list))
		return;
	spin_lock_irqsave(&ufile->uobjects_lock, flags);
	list_del_init(&uobj->list);
	spin_unlock_irqrestore(&ufile->uobjects_lock, flags);
	/* The list's reference. */
	uverbs_uobject_put(uobj);
}

/**
 * uverbs_uobj_destroy_locked() - destroy an object the caller holds
 *	exclusively
 * @uobj: the object
 * @reason: RDMA_REMOVE_DESTROY (a command: the handle goes too, the
 *	object stays locked and the caller puts its lookup reference),
 *	RDMA_REMOVE_ABORT (an allocation not committed: the creator's
 *	reference goes), or a teardown's reason (the object is unlocked)
 * @attrs: the command's bundle, or one with the file and context
 *
 * Called with ufile->hw_destroy_rwsem held.  Only the driver can refuse,
 * and then nothing changed.
 *
 * Return: 0, or the error of the type's destroy.
 */
int uverbs_uobj_destroy_locked(struct ib_uobject *uobj,
			       enum rdma_remove_reason reason,
			       struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_type_class *class =
		uobj->uapi_object->type_class;
	int ret;

	lockdep_assert_held(&uobj->ufile->hw_destroy_rwsem);

	if (reason == RDMA_REMOVE_ABORT) {
		class->alloc_abort(uobj);
	} else if (uobj->object) {
		ret = class->destroy_hw(uobj, reason, attrs);
		if (ret)
			return ret;
		uobj->object = NULL;
	}
	uobj->context = NULL;

	if (reason == RDMA_REMOVE_DESTROY)
		class->remove_handle(uobj);
	else
		atomic_set(&uobj->usecnt, 0);
	uobj_unlist(uobj);
	if (reason == RDMA_REMOVE_ABORT)
		uverbs_uobject_put(uobj);
	return 0;
}

/**
 * uobj_destroy() - destroy an object a command looked up for DESTROY
 * @uobj: the object
 * @attrs: the command's bundle
 *
 * On success the object's handle is gone and the caller ends with
 * uobj_put_destroy().
 *
 * Return: 0; -EBUSY if another command is using the object; the driver's
 * error.
 */
int uobj_destroy(struct ib_uobject *uobj, struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = attrs->ufile;
	int ret = -EBUSY;

	down_read(&ufile->hw_destroy_rwsem);
	if (uverbs_uobj_trylock(uobj, UVERBS_LOOKUP_WRITE)) {
		ret = uverbs_uobj_destroy_locked(uobj, RDMA_REMOVE_DESTROY,
						 attrs);
		if (ret)
			uverbs_uobj_unlock(uobj, UVERBS_LOOKUP_WRITE);
	}
	up_read(&ufile->hw_destroy_rwsem);
	return ret;
}

/**
 * __uobj_get_destroy() - look an object up and destroy it
 * @obj: its type in the device's tree
 * @id: its handle
 * @attrs: the command's bundle
 *
 * Return: the object, its hardware object destroyed, to end with
 * uobj_put_destroy(); or an ERR_PTR of the lookup or the destruction.
 */
struct ib_uobject *__uobj_get_destroy(const struct uverbs_api_object *obj,
				      u32 id, struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *victim =
		rdma_lookup_get_uobject(obj, attrs->ufile, id,
					UVERBS_LOOKUP_DESTROY, attrs);
	int err = PTR_ERR_OR_ZERO(victim);

	if (!err) {
		err = uobj_destroy(victim, attrs);
		if (!err)
			return victim;
		/* Still there: give back what the lookup took */
		rdma_lookup_put_uobject(victim, UVERBS_LOOKUP_DESTROY);
	}
	return ERR_PTR(err);
}

/**
 * __uobj_perform_destroy() - destroy an object by handle
 * @obj: its type in the device's tree
 * @id: its handle
 * @attrs: the command's bundle
 *
 * Return: 0 or the error of __uobj_get_destroy().
 */
int __uobj_perform_destroy(const struct uverbs_api_object *obj, u32 id,
			   struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *gone = __uobj_get_destroy(obj, id, attrs);

	if (!IS_ERR(gone))
		uobj_put_destroy(gone);
	return PTR_ERR_OR_ZERO(gone);
}

/**
 * uverbs_uobj_alloc() - a new object of a type, for its class's
 *	alloc_begin
 * @obj: the type
 * @attrs: the command's bundle; its context is set to the file's if it
 *	has none
 *
 * The object is locked exclusively and on no list; the caller holds its
 * only reference.
 *
 * Return: the object; ERR_PTR(-EIO) once the device is disassociated,
 * -EINVAL before GET_CONTEXT, -ENOMEM.
 */
struct ib_uobject *uverbs_uobj_alloc(const struct uverbs_api_object *obj,
				     struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_type *type = READ_ONCE(obj->type_attrs);
	struct ib_ucontext *ucontext;
	struct ib_uobject *uobj;

	if (!attrs->context) {
		ucontext = ib_uverbs_get_ucontext_file(attrs->ufile);
		if (IS_ERR(ucontext))
			return ERR_CAST(ucontext);
		attrs->context = ucontext;
	}
	if (!type)
		return ERR_PTR(-EIO);
	uobj = kzalloc(type->obj_size, GFP_KERNEL);
	if (!uobj)
		return ERR_PTR(-ENOMEM);
	uobj->ufile = attrs->ufile;
	uobj->context = attrs->context;
	uobj->uapi_object = obj;
	INIT_LIST_HEAD(&uobj->list);
	atomic_set(&uobj->usecnt, -1);
	kref_init(&uobj->ref);
	return uobj;
}

/* Lookups of handles of any IDR type (UVERBS_IDR_ANY_OBJECT). */
static struct ib_uobject *uobj_lookup_any(struct ib_uverbs_file *ufile, s64 id)
{
	return uverbs_idr_class.lookup_get(NULL, ufile, id,
					   UVERBS_LOOKUP_READ);
}

/**
 * rdma_lookup_get_uobject() - find an object by handle and lock it
 * @obj: the type, uapi_get_object()'s answer (ERR_PTR(-ENOMSG) for any
 *	IDR type)
 * @ufile: the file whose handle it is
 * @id: the handle (an IDR id or a file descriptor)
 * @mode: shared (READ) or exclusive (WRITE) use, or DESTROY
 * @attrs: the command's bundle, whose context becomes the object's; or
 *	NULL
 *
 * Return: the object, to release with rdma_lookup_put_uobject(); or
 * ERR_PTR: -EINVAL (no such type, or the handle is of another type),
 * -ENOENT or -EBADF (no such handle), -EIO (the device is gone; DESTROY
 * still works), -EBUSY (another command holds it).
 */
struct ib_uobject *rdma_lookup_get_uobject(const struct uverbs_api_object *obj,
					   struct ib_uverbs_file *ufile, s64 id,
					   enum rdma_lookup_mode mode,
					   struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;
	int ret = 0;

	if (obj == ERR_PTR(-ENOMSG))
		uobj = uobj_lookup_any(ufile, id);
	else if (!IS_ERR(obj) && obj->type_class)
		uobj = obj->type_class->lookup_get(obj, ufile, id, mode);
	else
		uobj = ERR_PTR(-EINVAL);
	if (IS_ERR(uobj))
		return uobj;

	if (!IS_ERR(obj) && uobj->uapi_object != obj)
		ret = -EINVAL;
	else if (mode != UVERBS_LOOKUP_DESTROY && !uverbs_ufile_ibdev(ufile))
		ret = -EIO;
	else if (!uverbs_uobj_trylock(uobj, mode))
		ret = -EBUSY;
	if (ret) {
		uobj->uapi_object->type_class->lookup_put(uobj, mode);
		uverbs_uobject_put(uobj);
		return ERR_PTR(ret);
	}
	if (attrs)
		attrs->context = uobj->context;
	return uobj;
}

/**
 * rdma_lookup_put_uobject() - release an object rdma_lookup_get_uobject()
 *	returned
 * @uobj: the object
 * @mode: the mode it was looked up with
 */
void rdma_lookup_put_uobject(struct ib_uobject *uobj,
			     enum rdma_lookup_mode mode)
{
	uverbs_uobj_unlock(uobj, mode);
	uobj->uapi_object->type_class->lookup_put(uobj, mode);
	uverbs_uobject_put(uobj);
}

/**
 * rdma_alloc_begin_uobject() - start creating an object
 * @obj: its type
 * @attrs: the command's bundle
 *
 * The teardown of the file waits until the creation is committed or
 * aborted.
 *
 * Return: the object, locked, with its handle reserved; or ERR_PTR:
 * -EINVAL (no such type), -EIO (the file is being torn down or the device
 * is gone), the class's error.
 */
struct ib_uobject *rdma_alloc_begin_uobject(const struct uverbs_api_object *obj,
					    struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = attrs->ufile;
	struct ib_uobject *uobj;

	if (IS_ERR(obj) || !obj->type_class)
		return ERR_PTR(-EINVAL);
	if (!down_read_trylock(&ufile->hw_destroy_rwsem))
		return ERR_PTR(-EIO);
	uobj = obj->type_class->alloc_begin(obj, attrs);
	if (IS_ERR(uobj))
		up_read(&ufile->hw_destroy_rwsem);
	return uobj;
}

/**
 * rdma_alloc_commit_uobject() - make a created object visible
 * @uobj: the object; the caller's reference passes to its handle
 * @attrs: the command's bundle
 */
void rdma_alloc_commit_uobject(struct ib_uobject *uobj,
			       struct uverbs_attr_bundle *attrs)
{
	/*
	 * The file's teardown cannot run before up_read(): the order of
	 * unlocking and listing does not matter.
	 */
	atomic_set(&uobj->usecnt, 0);
	uobj_list(uobj);
	uobj->uapi_object->type_class->alloc_commit(uobj);
	up_read(&attrs->ufile->hw_destroy_rwsem);
}

/**
 * rdma_alloc_abort_uobject() - undo the creation of an object
 * @uobj: the object; the caller's reference goes
 * @attrs: the command's bundle
 * @hw_obj_valid: the hardware object exists and is destroyed first
 *
 * A hardware object the driver refuses to destroy is committed instead,
 * for the file's teardown to retry.
 */
void rdma_alloc_abort_uobject(struct ib_uobject *uobj,
			      struct uverbs_attr_bundle *attrs,
			      bool hw_obj_valid)
{
	struct ib_uverbs_file *ufile = uobj->ufile;

	if (hw_obj_valid &&
	    uobj->uapi_object->type_class->destroy_hw(uobj, RDMA_REMOVE_ABORT,
						      attrs)) {
		rdma_alloc_commit_uobject(uobj, attrs);
		return;
	}
	uverbs_uobj_destroy_locked(uobj, RDMA_REMOVE_ABORT, attrs);
	up_read(&ufile->hw_destroy_rwsem);
}

/**
 * rdma_assign_uobject() - give a new object the handle of an old one
 * @to_uobj: the old object, looked up WRITE; it is destroyed and the
 *	caller ends with uobj_put_destroy()
 * @new_uobj: the new object, not yet committed; the caller commits it
 * @attrs: the command's bundle
 *
 * If the driver refuses to destroy the old object, it keeps its new
 * handle until the file's teardown.
 */
void rdma_assign_uobject(struct ib_uobject *to_uobj, struct ib_uobject *new_uobj,
			 struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_type_class *class =
		to_uobj->uapi_object->type_class;

	if (to_uobj->uapi_object != new_uobj->uapi_object ||
	    !class->swap_uobjects)
		return;
	class->swap_uobjects(to_uobj, new_uobj);
	uverbs_uobj_destroy_locked(to_uobj, RDMA_REMOVE_DESTROY, attrs);
}

/* The lookup that serves an attribute's access (not NEW). */
static enum rdma_lookup_mode uobj_mode_of(enum uverbs_obj_access access)
{
	if (access == UVERBS_ACCESS_READ)
		return UVERBS_LOOKUP_READ;
	if (access == UVERBS_ACCESS_WRITE)
		return UVERBS_LOOKUP_WRITE;
	return UVERBS_LOOKUP_DESTROY;
}

/**
 * uverbs_get_uobject_from_file() - the object an attribute names
 * @object_id: its type's id
 * @access: what the method does with it
 * @id: the handle from userspace
 * @attrs: the command's bundle
 *
 * Return: the object (new for UVERBS_ACCESS_NEW), or an ERR_PTR.
 */
struct ib_uobject *uverbs_get_uobject_from_file(u16 object_id,
						enum uverbs_obj_access access,
						s64 id,
						struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_api_object *obj =
		uapi_get_object(attrs->ufile->device->uapi, object_id);

	if (access == UVERBS_ACCESS_NEW)
		return rdma_alloc_begin_uobject(obj, attrs);
	if (access != UVERBS_ACCESS_READ && access != UVERBS_ACCESS_WRITE &&
	    access != UVERBS_ACCESS_DESTROY)
		return ERR_PTR(-EOPNOTSUPP);
	return rdma_lookup_get_uobject(obj, attrs->ufile, id,
				       uobj_mode_of(access), attrs);
}

/**
 * uverbs_finalize_object() - end a command's use of an attribute's object
 * @uobj: the object (NULL for a DESTROY whose object already went)
 * @access: what the method did with it
 * @hw_obj_valid: for NEW, the handler created the hardware object
 * @commit: the handler succeeded: a NEW object is committed, else aborted
 * @attrs: the command's bundle
 */
void uverbs_finalize_object(struct ib_uobject *uobj,
			    enum uverbs_obj_access access, bool hw_obj_valid,
			    bool commit, struct uverbs_attr_bundle *attrs)
{
	if (access != UVERBS_ACCESS_NEW) {
		/* A DESTROY's object may have gone with the handler */
		if (uobj)
			rdma_lookup_put_uobject(uobj, uobj_mode_of(access));
	} else if (commit) {
		rdma_alloc_commit_uobject(uobj, attrs);
	} else {
		rdma_alloc_abort_uobject(uobj, attrs, hw_obj_valid);
	}
}
