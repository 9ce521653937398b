// SPDX-License-Identifier: GPL-2.0
/*
 * The user context of a file: one per file, made by GET_CONTEXT (write()
 * or ioctl()), found by every command (ib_uverbs_get_ucontext_file()),
 * unmade by the file's teardown (cleanup.c).  The bottom layer of the
 * framework (core/internal.h): it calls no other file of it.
 *
 * Creation comes in two steps so that GET_CONTEXT can allocate its async
 * event file in the new context before the context is published:
 * uverbs_ucontext_alloc() makes it (the driver's structure around it,
 * resource tracking with the calling task as owner) into attrs->context,
 * uverbs_ucontext_install() lets the driver set it up and publishes it in
 * ufile->ucontext, under the file's ucontext_lock, unless the file has one
 * already.  The teardown, under hw_destroy_rwsem held for write, gives
 * the context back to the driver; after a disassociation its memory stays
 * with the file (struct uverbs_file.retired) until the file is released,
 * as mappings the driver made may still reach it.
 *
 * A context is charged to the creating task's RDMA cgroup as one
 * hca_handle of its device from its installation (-EAGAIN over the
 * limit) to its teardown.
 */
#include "abi/ib_uverbs/uverbs_main.h"
#include "core/restrack.h"
#include "core/user_verbs.h"
#include "internal.h"

/**
 * ib_uverbs_get_ucontext_file() - the user context of a uverbs file
 * @ufile: the file
 *
 * The caller holds ufile->device->disassociate_srcu for as long as it uses
 * the context (every handler does).
 *
 * Return: the context; ERR_PTR(-EIO) once the device is disassociated;
 * ERR_PTR(-EINVAL) before GET_CONTEXT.
 */
struct ib_ucontext *ib_uverbs_get_ucontext_file(struct ib_uverbs_file *ufile)
{
	/* Pairs with the release store in uverbs_ucontext_install(). */
	struct ib_ucontext *ucontext = smp_load_acquire(&ufile->ucontext);

	if (!uverbs_ufile_ibdev(ufile))
		return ERR_PTR(-EIO);
	return ucontext ?: ERR_PTR(-EINVAL);
}
EXPORT_SYMBOL(ib_uverbs_get_ucontext_file);

/**
 * uverbs_ucontext_alloc() - a new user context for a GET_CONTEXT
 * @attrs: the command's bundle; attrs->context is set
 *
 * Return: 0; -EIO if the device is gone; -ENOMEM.
 */
int uverbs_ucontext_alloc(struct uverbs_attr_bundle *attrs)
{
	struct ib_device *ibdev = uverbs_attrs_ibdev(attrs);
	struct ib_ucontext *ucontext;

	if (!ibdev)
		return -EIO;
	ucontext = rdma_zalloc_drv_obj(ibdev, ib_ucontext);
	if (!ucontext)
		return -ENOMEM;
	ucontext->device = ibdev;
	ucontext->ufile = attrs->ufile;
	xa_init_flags(&ucontext->mmap_xa, XA_FLAGS_ALLOC);
	rdma_restrack_new(&ucontext->res, RDMA_RESTRACK_CTX);
	rdma_restrack_set_name(&ucontext->res, NULL);
	attrs->context = ucontext;
	return 0;
}

static void ucontext_uncharge(struct ib_ucontext *ucontext)
{
	ib_rdmacg_uncharge(&ucontext->cg_obj, ucontext->device,
			   RDMACG_RESOURCE_HCA_HANDLE);
}

/**
 * uverbs_ucontext_install() - set up and publish the context of a file
 * @attrs: the command's bundle, with the context of
 *	uverbs_ucontext_alloc() and the driver's udata
 *
 * On failure the context is still the caller's, to discard.
 *
 * Return: 0; -EIO if the file is being torn down; -EINVAL if the file has
 * a context already; -EAGAIN if the cgroup's hca_handle limit is reached;
 * the driver's error.
 */
int uverbs_ucontext_install(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = attrs->context;
	struct ib_uverbs_file *ufile = attrs->ufile;
	int ret;

	if (!down_read_trylock(&ufile->hw_destroy_rwsem))
		return -EIO;
	mutex_lock(&ufile->ucontext_lock);
	if (ufile->ucontext) {
		ret = -EINVAL;
		goto out;
	}
	ret = ib_rdmacg_try_charge(&ucontext->cg_obj, ucontext->device,
				   RDMACG_RESOURCE_HCA_HANDLE);
	if (ret)
		goto out;
	ret = ucontext->device->ops.alloc_ucontext(ucontext,
						   &attrs->driver_udata);
	if (ret) {
		ucontext_uncharge(ucontext);
		goto out;
	}
	rdma_restrack_add(&ucontext->res);
	/* Readers that see the pointer see the context set up. */
	smp_store_release(&ufile->ucontext, ucontext);
out:
	mutex_unlock(&ufile->ucontext_lock);
	up_read(&ufile->hw_destroy_rwsem);
	return ret;
}

/**
 * uverbs_ucontext_discard() - free a context that was not installed
 * @attrs: the command's bundle; attrs->context is cleared
 */
void uverbs_ucontext_discard(struct uverbs_attr_bundle *attrs)
{
	rdma_restrack_del(&attrs->context->res);
	kfree(attrs->context);
	attrs->context = NULL;
}

/**
 * uverbs_ucontext_teardown() - give a file's context back to the driver
 * @ufile: the file, whose objects are all destroyed
 * @reason: RDMA_REMOVE_CLOSE, or RDMA_REMOVE_DRIVER_REMOVE: the device
 *	goes, so the driver is told (ops.disassociate_ucontext); the caller
 *	has zapped the file's mappings of device memory first
 */
void uverbs_ucontext_teardown(struct ib_uverbs_file *ufile,
			      enum rdma_remove_reason reason)
{
	struct ib_ucontext *ucontext = ufile->ucontext;
	struct ib_device *ibdev = ucontext->device;

	lockdep_assert_held_write(&ufile->hw_destroy_rwsem);
	if (reason == RDMA_REMOVE_DRIVER_REMOVE &&
	    ibdev->ops.disassociate_ucontext)
		ibdev->ops.disassociate_ucontext(ucontext);
	rdma_restrack_del(&ucontext->res);
	ibdev->ops.dealloc_ucontext(ucontext);
	ucontext_uncharge(ucontext);
	WRITE_ONCE(ufile->ucontext, NULL);
	if (reason == RDMA_REMOVE_DRIVER_REMOVE)
		to_uverbs_file(ufile)->retired = ucontext;
	else
		kfree(ucontext);
}
