// SPDX-License-Identifier: GPL-2.0
/*
 * Registration and unregistration of devices: the top of the device model.
 * ib_register_device() names the device, sets up its ports, GID tables and
 * sysfs, makes it live and adds the clients; unregistration undoes that in
 * reverse.  device->unregistration_lock serialises the unregistrations of
 * one device and the removal of clients from it.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"

/* The decision of ib_device_check_mandatory: can ULPs use kernel verbs? */
static bool ibdev_has_kverbs(const struct ib_device_ops *ops)
{
	return ops->query_device && ops->query_port && ops->alloc_pd &&
	       ops->dealloc_pd && ops->create_qp && ops->modify_qp &&
	       ops->destroy_qp && ops->post_send && ops->post_recv &&
	       ops->create_cq && ops->destroy_cq && ops->poll_cq &&
	       ops->req_notify_cq && ops->get_dma_mr && ops->reg_user_mr &&
	       ops->dereg_mr && ops->get_port_immutable;
}

static int ibdev_setup(struct ib_device *device, struct device *dma_device)
{
	struct ib_udata uhw = { .outlen = 0, .inlen = 0 };
	int ret;

	if (!device->ops.query_device || !device->ops.query_port ||
	    !device->ops.get_port_immutable)
		return -EOPNOTSUPP;
	device->dma_device = dma_device;
	if (dma_device && !device->dev.parent)
		device->dev.parent = dma_device;
	device->kverbs_provider = ibdev_has_kverbs(&device->ops);
	if (!device->num_comp_vectors)
		device->num_comp_vectors = 1;
	ret = ibdev_port_setup_all(device);
	if (ret)
		return ret;
	memset(&device->attrs, 0, sizeof(device->attrs));
	ret = device->ops.query_device(device, &device->attrs, &uhw);
	if (ret)
		dev_warn(&device->dev, "query_device failed: %d\n", ret);
	return ret;
}

/*
 * Undo the name: back to a device that may register again.  The port data
 * stays (it holds the netdevs the driver set) until the device is freed.
 */
static void ibdev_unsetup(struct ib_device *device)
{
	ibdev_index_drop_name(device);
}

/* The work of ib_unregister_device_queued(); holds a kobject reference. */
static void ibdev_registry_unregister_work(struct work_struct *work)
{
	struct ib_device *device =
		container_of(work, struct ib_device, unregistration_work);

	ib_unregister_device(device);
	put_device(&device->dev);
}

/*
 * The driver's last step of a registration, on a device that is live but
 * has no client yet (ops.enable_driver: e.g. a soft RoCE driver reads its
 * netdev's state into its port and reports the port active).
 */
static int ibdev_registry_enable(struct ib_device *device)
{
	int ret;

	if (!device->ops.enable_driver)
		return 0;
	ret = device->ops.enable_driver(device);
	if (ret)
		dev_warn(&device->dev, "enable_driver failed: %d\n", ret);
	return ret;
}

static bool ibdev_unregister_locked(struct ib_device *device);

/*
 * Take a device whose registration failed after it went live back down;
 * the driver still owns it (and frees it with ib_dealloc_device()).
 */
static void ibdev_registry_undo(struct ib_device *device)
{
	mutex_lock(&device->unregistration_lock);
	ibdev_unregister_locked(device);
	mutex_unlock(&device->unregistration_lock);
}

/**
 * ib_register_device - make a device visible to the system and its clients
 * @device: the device, from ib_alloc_device(), with its operations set
 * @name: its name, or a template with one %d that takes the lowest number
 *	no other device's name uses (e.g. "rxe%d")
 * @dma_device: the device that does DMA for it, or NULL for a software
 *	device that uses virtual addresses (ib_uses_virt_dma())
 *
 * Queries every port's immutable attributes, sets up the port data, GID
 * tables, the RDMA cgroup's accounting and sysfs
 * (/sys/class/infiniband/<name>), makes the device live,
 * lets the driver finish with ops.enable_driver, then adds every
 * registered client.  A device is registered once; it is unregistered with
 * ib_unregister_device() or one of its variants.  If ops.dealloc_driver is
 * set, an asynchronous unregistration may free @device as soon as this
 * returns.
 *
 * Return: 0; -ENFILE if the name is taken or no number is free for the
 * template; -EINVAL for a bad name; -EEXIST if the device was registered
 * already; -EOPNOTSUPP without the query operations; or the error of a
 * driver operation or an allocation.
 */
int ib_register_device(struct ib_device *device, const char *name,
		       struct device *dma_device)
{
	int ret;

	if (ibdev_index_was_used(device))
		return -EEXIST;
	ret = ibdev_index_set_name(device, name);
	if (ret)
		return ret;
	ret = ibdev_setup(device, dma_device);
	if (ret)
		goto err_unsetup;
	ret = ibdev_cache_setup(device);
	if (ret)
		goto err_unsetup;
	ibdev_cgroup_register(device);
	ret = ibdev_sysfs_add(device);
	if (ret)
		goto err_cgroup;

	/* The registration reference, and one for adding the clients. */
	refcount_set(&device->refcount, 2);
	INIT_WORK(&device->unregistration_work, ibdev_registry_unregister_work);
	ibdev_index_go_live(device);
	ret = ibdev_registry_enable(device);
	if (ret) {
		ib_device_put(device);
		ibdev_registry_undo(device);
		return ret;
	}
	ibdev_client_add_all(device);
	ib_device_put(device);
	return 0;

err_cgroup:
	ibdev_cgroup_unregister(device);
	ibdev_cache_cleanup(device);
err_unsetup:
	ibdev_unsetup(device);
	return ret;
}
EXPORT_SYMBOL(ib_register_device);

/*
 * Take @device down, in the order ULPs rely on: hide it from lookups and
 * from clients registering, remove the clients (the CQ pool's last) while
 * the device still works, so that their teardown can still talk to the
 * peer; then drop the registration reference and wait for the others;
 * then tear down sysfs, the GID tables and the port netdevs.
 *
 * Return: true if this call took the device down, false if it was not
 * live (never registered, or another unregistration did it).
 */
static bool ibdev_unregister_locked(struct ib_device *device)
{
	lockdep_assert_held(&device->unregistration_lock);
	if (!ibdev_index_hide(device))
		return false;
	ibdev_client_hide_barrier(device);
	ibdev_client_remove_all(device);
	ib_device_put(device);
	wait_for_completion(&device->unreg_completion);
	ibdev_sysfs_del(device);
	ibdev_cgroup_unregister(device);
	ibdev_cache_cleanup(device);
	ibdev_port_netdevs_release(device);
	ibdev_index_drop_name(device);
	return true;
}

/*
 * Unregister @device, and free it if its driver asked the core to
 * (ops.dealloc_driver).  The caller holds a kobject reference and no
 * registration reference: a concurrent unregistration holds the lock while
 * it waits for the registration references to go.
 */
static void ibdev_unregister(struct ib_device *device)
{
	bool done;

	mutex_lock(&device->unregistration_lock);
	done = ibdev_unregister_locked(device);
	mutex_unlock(&device->unregistration_lock);
	if (done && device->ops.dealloc_driver)
		ib_dealloc_device(device);
}

/**
 * ib_unregister_device - take a registered device away
 * @device: the device
 *
 * The device is hidden from lookups and new clients, then every client's
 * remove() is called (in the reverse order of the clients' registration)
 * while the device still works, then the call waits for every registration
 * reference to be dropped, then sysfs and the GID tables go.  Calls after
 * the first do nothing; concurrent calls return when the device is down.
 * If the driver set ops.dealloc_driver, the core then frees the device
 * (ib_dealloc_device()); else the driver frees it.  Sleeps.
 */
void ib_unregister_device(struct ib_device *device)
{
	get_device(&device->dev);
	ibdev_unregister(device);
	put_device(&device->dev);
}
EXPORT_SYMBOL(ib_unregister_device);

/**
 * ib_unregister_device_and_put - unregister a device found by a lookup
 * @device: the device, with a registration reference the caller holds
 *	from ib_device_get_by_name() or ib_device_get_by_netdev()
 *
 * Drops the caller's reference first, then unregisters the device as
 * ib_unregister_device() does; only meaningful with ops.dealloc_driver.
 */
void ib_unregister_device_and_put(struct ib_device *device)
{
	get_device(&device->dev);
	ib_device_put(device);
	ibdev_unregister(device);
	put_device(&device->dev);
}
EXPORT_SYMBOL(ib_unregister_device_and_put);

/**
 * ib_unregister_device_queued - unregister a device from a work queue
 * @ib_dev: the device; its driver must set ops.dealloc_driver, as the core
 *	frees the device when the work runs
 *
 * Safe to call from contexts that must not wait for clients (e.g. a
 * netdev notifier).  Does nothing for a device without dealloc_driver.
 */
void ib_unregister_device_queued(struct ib_device *ib_dev)
{
	if (!ib_dev->ops.dealloc_driver) {
		dev_warn(&ib_dev->dev,
			 "queued unregistration needs ops.dealloc_driver\n");
		return;
	}
	/* The work is set up by the registration; never registered, no work. */
	if (!ibdev_index_was_used(ib_dev))
		return;
	get_device(&ib_dev->dev);
	if (!queue_work(ib_unreg_wq, &ib_dev->unregistration_work))
		put_device(&ib_dev->dev);
}
EXPORT_SYMBOL(ib_unregister_device_queued);

/**
 * ib_unregister_driver - unregister every device of a driver
 * @driver_id: the driver's ops.driver_id
 *
 * For module unload of drivers that set ops.dealloc_driver: each of its
 * registered devices is unregistered and freed, including those whose
 * queued unregistration has not run yet.
 */
void ib_unregister_driver(enum rdma_driver_id driver_id)
{
	struct ib_device *device;
	unsigned long index = 0;

	while ((device = ibdev_index_get_next_live(&index))) {
		index++;
		if (device->ops.driver_id != driver_id) {
			ib_device_put(device);
			continue;
		}
		ib_unregister_device_and_put(device);
	}
	flush_workqueue(ib_unreg_wq);
}
EXPORT_SYMBOL(ib_unregister_driver);
