// SPDX-License-Identifier: GPL-2.0
/*
 * The uverbs devices: an ib_client that gives every RDMA device able to
 * serve userspace (one with ops.alloc_ucontext) a character device
 * /dev/infiniband/uverbsN of the class infiniband_verbs, and takes it away
 * again, disassociating the files still open on it.
 *
 * Device numbers: the target's fixed range (major 231, minors 192 to 223)
 * for the first 32 devices, a dynamic range for the rest, by index
 * (uverbs_ida).  A device's struct ib_uverbs_device lives until its last
 * file is released (the struct device reference of each open file).
 *
 * Disassociation (remove()): the device stops opening, udev->ib_dev
 * becomes NULL and the driver's methods are revoked, synchronize_srcu()
 * waits for the system calls in progress, then each open file's objects
 * and context are destroyed with RDMA_REMOVE_DRIVER_REMOVE (its async
 * event file reads IB_EVENT_DEVICE_FATAL, its mappings of device memory
 * are zapped); later calls fail with -EIO.  Nothing waits for userspace
 * to close its files.
 *
 * Open files: open() binds a file to the uverbs device and, through it, to
 * the RDMA device of the moment (refusing a device that is going away);
 * release() destroys everything the file made (cleanup.c) and drops the
 * file's first reference (file.c).  The device's lists_mutex protects its
 * list of open files, which disassociation walks.  The top layer of the
 * framework (core/internal.h).
 */
#include <rdma/rdma_netlink.h>
#include "abi/ib_core/types.h"
#include "internal.h"

enum {
	UVERBS_FIXED_MAJOR = 231,
	UVERBS_FIXED_FIRST_MINOR = 192,
	UVERBS_FIXED_MINORS = 32,
	/* The target's bound on uverbs devices. */
	UVERBS_MAX_DEVICES = 8192,
	UVERBS_DYNAMIC_MINORS = UVERBS_MAX_DEVICES - UVERBS_FIXED_MINORS,
};

#define UVERBS_FIXED_BASE MKDEV(UVERBS_FIXED_MAJOR, UVERBS_FIXED_FIRST_MINOR)

/* Set at module load, constant until unload. */
static dev_t uverbs_dynamic_base;
static struct class *uverbs_class;
/* Indexes of the devices (its own lock). */
static DEFINE_IDA(uverbs_ida);

static struct ib_client uverbs_client;

/* ---- open files: open() and release() ---- */

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
	file = uverbs_file_alloc(udev, ibdev);
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

static const struct file_operations uverbs_file_fops = {
	.owner = THIS_MODULE,
	.write = uverbs_write,
	.open = uverbs_open,
	.release = uverbs_release,
	.llseek = no_llseek,
	.unlocked_ioctl = uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/* For devices with ops.mmap. */
static const struct file_operations uverbs_file_mmap_fops = {
	.owner = THIS_MODULE,
	.write = uverbs_write,
	.mmap = uverbs_mmap,
	.open = uverbs_open,
	.release = uverbs_release,
	.llseek = no_llseek,
	.unlocked_ioctl = uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct ib_uverbs_device *to_udev(struct device *dev)
{
	return container_of(dev, struct ib_uverbs_device, dev);
}

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct ib_uverbs_device *udev = to_udev(dev);
	struct ib_device *ibdev;
	int ret = -ENODEV;
	int srcu_key;

	srcu_key = srcu_read_lock(&udev->disassociate_srcu);
	ibdev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (ibdev)
		ret = sysfs_emit(buf, "%s\n", dev_name(&ibdev->dev));
	srcu_read_unlock(&udev->disassociate_srcu, srcu_key);
	return ret;
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct ib_uverbs_device *udev = to_udev(dev);
	struct ib_device *ibdev;
	int ret = -ENODEV;
	int srcu_key;

	srcu_key = srcu_read_lock(&udev->disassociate_srcu);
	ibdev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (ibdev)
		ret = sysfs_emit(buf, "%u\n", ibdev->ops.uverbs_abi_ver);
	srcu_read_unlock(&udev->disassociate_srcu, srcu_key);
	return ret;
}
static DEVICE_ATTR_RO(abi_version);

static struct attribute *uverbs_dev_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_abi_version.attr,
	NULL,
};

static const struct attribute_group uverbs_dev_group = {
	.attrs = uverbs_dev_attrs,
};

/* The last reference: the method tree and the structure go. */
static void udev_release(struct device *dev)
{
	struct ib_uverbs_device *udev = to_udev(dev);

	uverbs_uapi_free(udev->uapi);
	cleanup_srcu_struct(&udev->disassociate_srcu);
	mutex_destroy(&udev->lists_mutex);
	mutex_destroy(&udev->xrcd_tree_mutex);
	kfree(to_uverbs_device(udev));
}

static dev_t udev_devt(int devnum)
{
	if (devnum < UVERBS_FIXED_MINORS)
		return UVERBS_FIXED_BASE + devnum;
	return uverbs_dynamic_base + devnum - UVERBS_FIXED_MINORS;
}

/* A uverbs device for @ibdev, not yet visible; NULL without memory. */
static struct uverbs_device *udev_alloc(struct ib_device *ibdev)
{
	struct uverbs_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	struct ib_uverbs_device *udev;

	if (!dev)
		return NULL;
	udev = &dev->base;
	if (init_srcu_struct(&udev->disassociate_srcu)) {
		kfree(dev);
		return NULL;
	}
	device_initialize(&udev->dev);
	udev->dev.class = uverbs_class;
	udev->dev.parent = ibdev->dev.parent;
	udev->dev.release = udev_release;
	udev->groups[0] = &uverbs_dev_group;
	udev->dev.groups = udev->groups;
	udev->num_comp_vectors = ibdev->num_comp_vectors;
	udev->xrcd_tree = RB_ROOT;
	mutex_init(&udev->xrcd_tree_mutex);
	mutex_init(&udev->lists_mutex);
	INIT_LIST_HEAD(&udev->uverbs_file_list);
	rcu_assign_pointer(udev->ib_dev, ibdev);
	udev->devnum = -1;
	dev->drv_owner = ibdev->ops.owner;
	dev->drv_pinned = !ibdev->ops.disassociate_ucontext;
	return dev;
}

static int uverbs_add_one(struct ib_device *ibdev)
{
	struct ib_uverbs_device *udev;
	struct uverbs_device *dev;
	int ret;

	if (!ibdev->ops.alloc_ucontext)
		return -EOPNOTSUPP;
	dev = udev_alloc(ibdev);
	if (!dev)
		return -ENOMEM;
	udev = &dev->base;
	udev->uapi = uverbs_uapi_alloc(ibdev, NULL);
	if (IS_ERR(udev->uapi)) {
		ret = PTR_ERR(udev->uapi);
		udev->uapi = NULL;
		goto err_put;
	}
	ret = ida_alloc_max(&uverbs_ida, UVERBS_MAX_DEVICES - 1, GFP_KERNEL);
	if (ret < 0)
		goto err_put;
	udev->devnum = ret;
	udev->dev.devt = udev_devt(udev->devnum);
	ret = dev_set_name(&udev->dev, "uverbs%d", udev->devnum);
	if (ret)
		goto err_ida;

	cdev_init(&udev->cdev, ibdev->ops.mmap ? &uverbs_file_mmap_fops :
						 &uverbs_file_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto err_ida;
	ib_set_client_data(ibdev, &uverbs_client, udev);
	return 0;

err_ida:
	ida_free(&uverbs_ida, udev->devnum);
err_put:
	uverbs_device_put(udev);
	return ret;
}

/* Destroy the objects of every file still open; none is opened anew. */
static void udev_disassociate(struct ib_uverbs_device *udev)
{
	struct ib_uverbs_file *ufile;

	rcu_assign_pointer(udev->ib_dev, NULL);
	uverbs_uapi_revoke_methods(udev->uapi);
	synchronize_srcu(&udev->disassociate_srcu);

	mutex_lock(&udev->lists_mutex);
	while (!list_empty(&udev->uverbs_file_list)) {
		ufile = list_first_entry(&udev->uverbs_file_list,
					 struct ib_uverbs_file, list);
		list_del_init(&ufile->list);
		kref_get(&ufile->ref);
		/*
		 * The teardown may drop the last reference of an FD object,
		 * whose release may release the file: not under the mutex.
		 */
		mutex_unlock(&udev->lists_mutex);
		uverbs_destroy_ufile_hw(ufile, RDMA_REMOVE_DRIVER_REMOVE);
		kref_put(&ufile->ref, uverbs_file_release_ref);
		mutex_lock(&udev->lists_mutex);
	}
	mutex_unlock(&udev->lists_mutex);
	uverbs_uapi_revoke_types(udev->uapi);
}

static void uverbs_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct ib_uverbs_device *udev = client_data;

	cdev_device_del(&udev->cdev, &udev->dev);
	ida_free(&uverbs_ida, udev->devnum);
	udev_disassociate(udev);
	uverbs_device_put(udev);
}

/*
 * What RDMA netlink's GET_CHARDEV("uverbs") answers for a device: the
 * character device, the driver's uverbs ABI and, unless the driver opts
 * out, its id, by which libibverbs picks the provider.
 */
static int uverbs_get_nl_info(struct ib_device *ibdev, void *client_data,
			      struct ib_client_nl_info *info)
{
	struct ib_uverbs_device *udev = client_data;

	/* uverbs devices are per device, not per port. */
	if (info->port != U32_MAX)
		return -EINVAL;
	info->abi = ibdev->ops.uverbs_abi_ver;
	info->cdev = &udev->dev;
	if (ibdev->ops.uverbs_no_driver_id_binding)
		return 0;
	return nla_put_u32(info->nl_msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID,
			   ibdev->ops.driver_id);
}

static struct ib_client uverbs_client = {
	.name = "uverbs",
	.no_kverbs_req = true,
	.add = uverbs_add_one,
	.remove = uverbs_remove_one,
	.get_nl_info = uverbs_get_nl_info,
};
MODULE_ALIAS_RDMA_CLIENT("uverbs");

/* /dev/infiniband/uverbsN, readable and writable by everyone. */
static char *uverbs_devnode(struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

static CLASS_ATTR_STRING(abi_version, 0444,
			 __stringify(IB_USER_VERBS_ABI_VERSION));

static int uverbs_class_init(void)
{
	int ret;

	uverbs_class = class_create(THIS_MODULE, "infiniband_verbs");
	if (IS_ERR(uverbs_class))
		return PTR_ERR(uverbs_class);
	uverbs_class->devnode = uverbs_devnode;
	ret = class_create_file(uverbs_class, &class_attr_abi_version.attr);
	if (ret)
		class_destroy(uverbs_class);
	return ret;
}

/**
 * uverbs_devices_init() - device numbers, the class, the client
 *
 * Return: 0 or the error of a registration (logged).
 */
int uverbs_devices_init(void)
{
	int ret;

	ret = register_chrdev_region(UVERBS_FIXED_BASE, UVERBS_FIXED_MINORS,
				     "infiniband_verbs");
	if (ret)
		goto err;
	ret = alloc_chrdev_region(&uverbs_dynamic_base, 0,
				  UVERBS_DYNAMIC_MINORS, "infiniband_verbs");
	if (ret)
		goto err_fixed;
	ret = uverbs_class_init();
	if (ret)
		goto err_dynamic;
	ret = ib_register_client(&uverbs_client);
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_destroy(uverbs_class);
err_dynamic:
	unregister_chrdev_region(uverbs_dynamic_base, UVERBS_DYNAMIC_MINORS);
err_fixed:
	unregister_chrdev_region(UVERBS_FIXED_BASE, UVERBS_FIXED_MINORS);
err:
	pr_err("uverbs: cannot register the uverbs devices (%d)\n", ret);
	return ret;
}

/**
 * uverbs_devices_exit() - undo uverbs_devices_init()
 *
 * Every device is removed first (the client's remove()).  The module
 * cannot be unloading while a file is open: the files hold it.
 */
void uverbs_devices_exit(void)
{
	ib_unregister_client(&uverbs_client);
	class_destroy(uverbs_class);
	unregister_chrdev_region(uverbs_dynamic_base, UVERBS_DYNAMIC_MINORS);
	unregister_chrdev_region(UVERBS_FIXED_BASE, UVERBS_FIXED_MINORS);
}
