// SPDX-License-Identifier: GPL-2.0
/*
 * The RDMA cgroup controller's view of devices: each registered device is
 * a cgroup RDMA device (device->cg_device, named by the device's name),
 * and user objects are charged to the cgroup of the task that creates
 * them.  The controller (<linux/cgroup_rdma.h>) does its own locking and
 * accounting; nothing here has state.
 */
#include "abi/ib_core/cgroup.h"
#include "device/internal.h"
#include "core/user_verbs.h"

/**
 * ibdev_cgroup_register - make a device known to the RDMA cgroup
 * @device: the device, named, about to become visible to users
 */
void ibdev_cgroup_register(struct ib_device *device)
{
	struct rdmacg_device *cgdev = &device->cg_device;

	cgdev->name = device->name;
	rdmacg_register_device(cgdev);
}

/**
 * ibdev_cgroup_unregister - forget a device in the RDMA cgroup
 * @device: the device, once no user can create objects on it any more;
 *	whatever is still charged to it is dropped
 */
void ibdev_cgroup_unregister(struct ib_device *device)
{
	rdmacg_unregister_device(&device->cg_device);
}

/**
 * ib_rdmacg_try_charge() - charge one resource to the current task's cgroup
 * @cg_obj: the object being created; remembers the charged cgroup
 * @device: the device the object is on
 * @resource_index: RDMACG_RESOURCE_HCA_HANDLE for a user context,
 *	RDMACG_RESOURCE_HCA_OBJECT for another object
 *
 * Return: 0, or -EAGAIN if a limit of the cgroup (or an ancestor) would be
 * exceeded, or -ENOMEM; nothing is charged then.
 */
int ib_rdmacg_try_charge(struct ib_rdmacg_object *cg_obj,
			 struct ib_device *device,
			 enum rdmacg_resource_type resource_index)
{
	struct rdmacg_device *cgdev = &device->cg_device;

	return rdmacg_try_charge(&cg_obj->cg, cgdev, resource_index);
}
EXPORT_SYMBOL(ib_rdmacg_try_charge);

/**
 * ib_rdmacg_uncharge() - give back what ib_rdmacg_try_charge() charged
 * @cg_obj: the object, being destroyed
 * @device: its device
 * @resource_index: the resource it was charged as
 */
void ib_rdmacg_uncharge(struct ib_rdmacg_object *cg_obj,
			struct ib_device *device,
			enum rdmacg_resource_type resource_index)
{
	struct rdmacg_device *cgdev = &device->cg_device;

	rdmacg_uncharge(cg_obj->cg, cgdev, resource_index);
}
EXPORT_SYMBOL(ib_rdmacg_uncharge);
