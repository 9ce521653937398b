// SPDX-License-Identifier: GPL-2.0
/*
 * The memory and references of an open /dev/infiniband/uverbsN: struct
 * uverbs_file (internal.h), from its allocation at open() (device.c) to
 * its last reference.
 *
 * A file holds the struct device of the RDMA device it was opened on (its
 * memory) and, for a driver that cannot disassociate, the driver's module,
 * until it is freed.  ufile->ref counts the open file itself and each FD
 * object made through it (async event file, completion channels), which
 * may outlive it; the last reference frees the file and what a
 * disassociation left with it (core/internal.h, "Lifetimes").
 */
#include "internal.h"

/**
 * uverbs_device_put() - drop a reference to a uverbs device
 * @udev: the device; the last reference frees it and its method tree
 */
void uverbs_device_put(struct ib_uverbs_device *udev)
{
	put_device(&udev->dev);
}

/**
 * uverbs_file_alloc() - the memory and references of a new open file
 * @udev: its uverbs device
 * @ibdev: the RDMA device it is opened on; the file holds its struct device
 *
 * Return: the file with one reference (ufile->ref), or NULL.
 */
struct uverbs_file *uverbs_file_alloc(struct ib_uverbs_device *udev,
				      struct ib_device *ibdev)
{
	struct uverbs_file *file = kzalloc(sizeof(*file), GFP_KERNEL);
	struct ib_uverbs_file *ufile;

	if (!file)
		return NULL;
	ufile = &file->base;
	kref_init(&ufile->ref);
	ufile->device = udev;
	mutex_init(&ufile->ucontext_lock);
	INIT_LIST_HEAD(&ufile->list);
	init_rwsem(&ufile->hw_destroy_rwsem);
	spin_lock_init(&ufile->uobjects_lock);
	INIT_LIST_HEAD(&ufile->uobjects);
	mutex_init(&ufile->umap_lock);
	INIT_LIST_HEAD(&ufile->umaps);
	uverbs_idr_init(ufile);
	file->ibdev = ibdev;
	get_device(&ibdev->dev);
	return file;
}

/**
 * uverbs_file_release_ref() - free a file whose last reference went
 * @ref: ufile->ref
 *
 * Everything the file made is destroyed by then; what is left are the
 * handles userspace never destroyed, its default async event file, a
 * disassociated context, and its holds on the devices and the driver.
 */
void uverbs_file_release_ref(struct kref *ref)
{
	struct ib_uverbs_file *ufile =
		container_of(ref, struct ib_uverbs_file, ref);
	struct uverbs_file *file = to_uverbs_file(ufile);
	struct uverbs_device *dev = to_uverbs_device(ufile->device);

	uverbs_idr_release(ufile);
	if (ufile->default_async_file)
		uverbs_uobject_put(&ufile->default_async_file->uobj);
	kfree(file->retired);
	if (ufile->disassociate_page)
		__free_page(ufile->disassociate_page);
	mutex_destroy(&ufile->umap_lock);
	mutex_destroy(&ufile->ucontext_lock);
	put_device(&file->ibdev->dev);
	if (dev->drv_pinned)
		module_put(dev->drv_owner);
	kfree(file);
	uverbs_device_put(&dev->base);
}
