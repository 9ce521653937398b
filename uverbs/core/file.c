// SPDX-License-Identifier: GPL-2.0
/*
 * An open /dev/infiniband/uverbsN: struct uverbs_file (internal.h).
 *
 * open() binds the file to the uverbs device and, through it, to the RDMA
 * device of the moment: it holds that device's struct device (its memory)
 * and, for a driver that cannot disassociate, the driver's module, until
 * the file is released.  It refuses a device that is going away.
 *
 * ufile->ref counts the open file itself and each FD object made through
 * it (async event file, completion channels), which may outlive it;
 * release() destroys everything the file made and drops the first, and
 * the last reference frees the file and what a disassociation left with
 * it.  The device's lists_mutex protects its list of open files, which
 * disassociation walks.
 */
#include "abi/ib_uverbs/uverbs_main.h"
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
 * uverbs_device_put() - drop a reference to a uverbs device
 * @udev: the device; the last reference frees it and its method tree
 */
void uverbs_device_put(struct ib_uverbs_device *udev)
{
	put_device(&udev->dev);
}

static struct uverbs_file *file_alloc(struct ib_uverbs_device *udev,
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

/* Bind a new file to the device; with lists_mutex and the SRCU held. */
static int file_bind(struct ib_uverbs_device *udev, struct file *filp)
{
	struct uverbs_device *dev = to_uverbs_device(udev);
	struct ib_device *ibdev;
	struct uverbs_file *file;

	lockdep_assert_held(&udev->lists_mutex);
	ibdev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (!ibdev)
		return -ENXIO;
	if (!rdma_dev_access_netns(ibdev, current->nsproxy->net_ns))
		return -EPERM;
	if (dev->drv_pinned && !try_module_get(dev->drv_owner))
		return -ENODEV;
	file = file_alloc(udev, ibdev);
	if (!file) {
		if (dev->drv_pinned)
			module_put(dev->drv_owner);
		return -ENOMEM;
	}
	filp->private_data = &file->base;
	list_add_tail(&file->base.list, &udev->uverbs_file_list);
	return 0;
}

static int uverbs_open(struct inode *inode, struct file *filp)
{
	struct ib_uverbs_device *udev =
		container_of(inode->i_cdev, struct ib_uverbs_device, cdev);
	int srcu_key;
	int ret;

	/* The file's reference, dropped by its last one. */
	get_device(&udev->dev);
	srcu_key = srcu_read_lock(&udev->disassociate_srcu);
	mutex_lock(&udev->lists_mutex);
	ret = file_bind(udev, filp);
	mutex_unlock(&udev->lists_mutex);
	srcu_read_unlock(&udev->disassociate_srcu, srcu_key);
	if (ret) {
		uverbs_device_put(udev);
		return ret;
	}
	return stream_open(inode, filp);
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

static int uverbs_release(struct inode *inode, struct file *filp)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct ib_uverbs_device *udev = ufile->device;

	uverbs_destroy_ufile_hw(ufile, RDMA_REMOVE_CLOSE);
	mutex_lock(&udev->lists_mutex);
	list_del_init(&ufile->list);
	mutex_unlock(&udev->lists_mutex);
	kref_put(&ufile->ref, uverbs_file_release_ref);
	return 0;
}

const struct file_operations uverbs_file_fops = {
	.owner = THIS_MODULE,
	.write = uverbs_write,
	.open = uverbs_open,
	.release = uverbs_release,
	.llseek = no_llseek,
	.unlocked_ioctl = uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/* For devices with ops.mmap. */
const struct file_operations uverbs_file_mmap_fops = {
	.owner = THIS_MODULE,
	.write = uverbs_write,
	.mmap = uverbs_mmap,
	.open = uverbs_open,
	.release = uverbs_release,
	.llseek = no_llseek,
	.unlocked_ioctl = uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};
