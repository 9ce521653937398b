// SPDX-License-Identifier: GPL-2.0
/*
 * The FD class of user objects: objects that are files of their own (the
 * async event file, completion channels, drivers' event files), named by
 * their file descriptor.
 *
 * Allocation reserves a descriptor and makes an anonymous file with the
 * type's file operations (whose owner module the file pins); commit
 * installs it, its private_data taking the creator's reference, and the
 * object then holds a reference to the uverbs file.  The object is
 * destroyed when its file is released (uverbs_uobject_fd_release(), the
 * release of every such type's file operations), when the uverbs file is
 * torn down, or at disassociation, whichever comes first; only the
 * release frees it.  A lookup holds the file (fget()), so the release
 * never runs beside one.
 *
 * A destroyed object's file pointer is cleared (uobj->object), but its
 * file lives on while userspace has it open, and a descriptor still finds
 * the object.  A lookup therefore refuses an object once its device is
 * gone, dropping the reference it took on the file it found, before
 * anything reads the cleared pointer; the disassociation's teardown
 * waits for the lookups that saw the device (synchronize_srcu()), so the
 * object a lookup returns keeps its file until fd_lookup_put().  The
 * other teardowns cannot meet a lookup: the file's release (the lookup
 * holds the file) and the close of the uverbs file (no command runs on
 * it, and a lookup through another file is refused).
 */
#include "abi/ib_uverbs/rdma_core.h"
#include "internal.h"

static const struct uverbs_obj_fd_type *
fd_type_of(const struct uverbs_api_object *obj)
{
	const struct uverbs_obj_type *type = READ_ONCE(obj->type_attrs);

	return type ? container_of(type, struct uverbs_obj_fd_type, type) :
		      NULL;
}

static bool fd_release_is_ours(const struct file_operations *fops)
{
	return fops->release == uverbs_uobject_fd_release ||
	       fops->release == uverbs_async_event_release;
}

static struct ib_uobject *fd_alloc_begin(const struct uverbs_api_object *obj,
					 struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_fd_type *type;
	struct ib_uobject *uobj;
	struct file *filp;
	int fd;

	uobj = uverbs_uobj_alloc(obj, attrs);
	if (IS_ERR(uobj))
		return uobj;
	type = fd_type_of(obj);
	/* A type whose release is not ours would leak its objects. */
	if (WARN_ON_ONCE(!fd_release_is_ours(type->fops))) {
		fd = -EINVAL;
		goto err;
	}
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		goto err;
	/* private_data stays NULL until commit: an abort's fput is a no-op. */
	filp = anon_inode_getfile(type->name, type->fops, NULL, type->flags);
	if (IS_ERR(filp)) {
		put_unused_fd(fd);
		fd = PTR_ERR(filp);
		goto err;
	}
	uobj->object = filp;
	uobj->id = fd;
	return uobj;

err:
	uverbs_uobject_put(uobj);
	return ERR_PTR(fd);
}

static struct ib_uobject *fd_lookup_get(const struct uverbs_api_object *obj,
					struct ib_uverbs_file *ufile, s64 id,
					enum rdma_lookup_mode mode)
{
	const struct uverbs_obj_fd_type *type;
	struct ib_uobject *uobj;
	struct file *filp;

	if (id < INT_MIN || id > INT_MAX)
		return ERR_PTR(-EINVAL);
	if (mode != UVERBS_LOOKUP_READ)
		return ERR_PTR(-EOPNOTSUPP);
	type = fd_type_of(obj);
	if (!type)
		return ERR_PTR(-EIO);
	filp = fget(id);
	if (!filp)
		return ERR_PTR(-EBADF);
	uobj = filp->private_data;
	if (filp->f_op != type->fops || uobj->ufile != ufile) {
		fput(filp);
		return ERR_PTR(-EBADF);
	}
	/* Its teardown may have run: uobj->object may be cleared already */
	if (!uverbs_ufile_ibdev(ufile)) {
		fput(filp);
		return ERR_PTR(-EIO);
	}
	/* The file reference is kept until fd_lookup_put(). */
	uverbs_uobject_get(uobj);
	return uobj;
}

static void fd_alloc_commit(struct ib_uobject *uobj)
{
	struct file *filp = uobj->object;
	int fd = uobj->id;

	kref_get(&uobj->ufile->ref);
	/* The descriptor is userspace's now; the file names the object. */
	uobj->id = 0;
	filp->private_data = uobj;
	fd_install(fd, filp);
}

static void fd_alloc_abort(struct ib_uobject *uobj)
{
	fput(uobj->object);
	put_unused_fd(uobj->id);
}

static void fd_lookup_put(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	fput(uobj->object);
}

static int fd_destroy_hw(struct ib_uobject *uobj, enum rdma_remove_reason why,
			 struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_fd_type *type =
		container_of(uobj->uapi_object->type_attrs,
			     struct uverbs_obj_fd_type, type);

	type->destroy_object(uobj, why);
	return 0;
}

static void fd_remove_handle(struct ib_uobject *uobj)
{
}

const struct uverbs_obj_type_class uverbs_fd_class = {
	.alloc_begin = fd_alloc_begin,
	.lookup_get = fd_lookup_get,
	.alloc_commit = fd_alloc_commit,
	.alloc_abort = fd_alloc_abort,
	.lookup_put = fd_lookup_put,
	.destroy_hw = fd_destroy_hw,
	.remove_handle = fd_remove_handle,
};
EXPORT_SYMBOL(uverbs_fd_class);

/**
 * uverbs_uobject_fd_release() - the release of an FD object's file
 * @inode: the file's inode
 * @filp: the file
 *
 * Every type of the FD class uses this as its file operations' release
 * (or calls it from its own).  Destroys the object with
 * RDMA_REMOVE_CLOSE unless the uverbs file's teardown, which holds the
 * file's hw_destroy_rwsem, does it; drops the object's reference to the
 * uverbs file and the file's to the object.
 *
 * Return: 0.
 */
int uverbs_uobject_fd_release(struct inode *inode, struct file *filp)
{
	struct ib_uverbs_file *ufile;
	struct ib_uobject *uobj = filp->private_data;
	struct uverbs_attr_bundle attrs = {};

	/* An aborted allocation's file never had an object. */
	if (!uobj)
		return 0;
	ufile = uobj->ufile;
	if (down_read_trylock(&ufile->hw_destroy_rwsem)) {
		attrs.ufile = ufile;
		attrs.context = uobj->context;
		/* No lookup holds the object: it would hold the file. */
		if (uverbs_uobj_trylock(uobj, UVERBS_LOOKUP_WRITE))
			uverbs_uobj_destroy_locked(uobj, RDMA_REMOVE_CLOSE,
						   &attrs);
		up_read(&ufile->hw_destroy_rwsem);
	}
	kref_put(&ufile->ref, uverbs_file_release_ref);
	uverbs_uobject_put(uobj);
	return 0;
}
EXPORT_SYMBOL(uverbs_uobject_fd_release);
