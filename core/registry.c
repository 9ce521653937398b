// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of devices: indices, names, registration and unregistration,
 * lookup by name.
 */
#include "abi_device.h"
#include "dev_priv.h"

/*
 * Every allocated device, by device->index, from _ib_alloc_device() to
 * ib_dealloc_device().  The marks say how far registration has gone:
 *   IBDEV_NAMED  holds its name (ib_register_device() to the end of its
 *                unregistration); names are unique among these
 *   IBDEV_LIVE   registered and visible to clients and lookups
 *   IBDEV_USED   ib_register_device() has succeeded once; a device is
 *                registered at most once in its life
 * Marks change under ibdev_rwsem held for write; walks that must see a
 * consistent set hold it for read.  ibdev_ida hands out the indices.
 */
static DEFINE_XARRAY(ibdevs);
static DECLARE_RWSEM(ibdev_rwsem);
static DEFINE_IDA(ibdev_ida);
#define IBDEV_NAMED	XA_MARK_0
#define IBDEV_LIVE	XA_MARK_1
#define IBDEV_USED	XA_MARK_2

int ibdev_registry_insert(struct ib_device *device)
{
	int id, ret;

	id = ida_alloc(&ibdev_ida, GFP_KERNEL);
	if (id < 0)
		return id;
	device->index = id;
	ret = xa_insert(&ibdevs, id, device, GFP_KERNEL);
	if (ret)
		ida_free(&ibdev_ida, id);
	return ret;
}

void ibdev_registry_remove(struct ib_device *device)
{
	down_write(&ibdev_rwsem);
	xa_erase(&ibdevs, device->index);
	up_write(&ibdev_rwsem);
	ida_free(&ibdev_ida, device->index);
}

/*
 * Whether @device has @mark.  The index of a freed device may belong to
 * another one by now, so the entry itself is compared.
 */
static bool ibdev_has_mark(struct ib_device *device, xa_mark_t mark)
{
	bool ret;

	xa_lock(&ibdevs);
	ret = xa_load(&ibdevs, device->index) == device &&
	      xa_get_mark(&ibdevs, device->index, mark);
	xa_unlock(&ibdevs);
	return ret;
}

bool ibdev_is_registered(struct ib_device *device)
{
	return ibdev_has_mark(device, IBDEV_LIVE);
}

/**
 * ibdev_get_next_live - take a registration reference on the next live device
 * @index: where to start; on return, the index of the device found
 *
 * Return: the device, with a reference the caller drops with
 * ib_device_put(), or NULL when no live device is at or after @index.
 */
struct ib_device *ibdev_get_next_live(unsigned long *index)
{
	struct ib_device *device;

	down_read(&ibdev_rwsem);
	device = xa_find(&ibdevs, index, ULONG_MAX, IBDEV_LIVE);
	while (device && !ib_device_try_get(device))
		device = xa_find_after(&ibdevs, index, ULONG_MAX, IBDEV_LIVE);
	up_read(&ibdev_rwsem);
	return device;
}

/**
 * ibdev_get_next_any - take a kobject reference on the next allocated device
 * @index: where to start; on return, the index of the device found
 *
 * Return: the device (drop with put_device()), or NULL.
 */
struct ib_device *ibdev_get_next_any(unsigned long *index)
{
	struct ib_device *device;

	down_read(&ibdev_rwsem);
	device = xa_find(&ibdevs, index, ULONG_MAX, XA_PRESENT);
	if (device)
		get_device(&device->dev);
	up_read(&ibdev_rwsem);
	return device;
}

/* A named device called @name, or NULL.  Caller holds ibdev_rwsem. */
static struct ib_device *ibdev_find_name(const char *name)
{
	struct ib_device *device;
	unsigned long index;

	xa_for_each_marked(&ibdevs, index, device, IBDEV_NAMED)
		if (!strcmp(dev_name(&device->dev), name))
			return device;
	return NULL;
}

/*
 * The lowest number n for which the template @tmpl (one %d) makes a name
 * no named device has.  Caller holds ibdev_rwsem for write.
 */
static int ibdev_lowest_free_number(const char *tmpl)
{
	struct ib_device *device;
	unsigned long index, *used;
	int n, limit = 0, ret;
	char buf[IB_DEVICE_NAME_MAX];

	xa_for_each_marked(&ibdevs, index, device, IBDEV_NAMED)
		limit++;
	used = bitmap_zalloc(limit + 1, GFP_KERNEL);
	if (!used)
		return -ENOMEM;
	xa_for_each_marked(&ibdevs, index, device, IBDEV_NAMED) {
		if (sscanf(dev_name(&device->dev), tmpl, &n) != 1 ||
		    n < 0 || n > limit)
			continue;
		snprintf(buf, sizeof(buf), tmpl, n);
		if (!strcmp(buf, dev_name(&device->dev)))
			__set_bit(n, used);
	}
	ret = find_first_zero_bit(used, limit + 1);
	bitmap_free(used);
	return ret;
}

static bool ibdev_template_ok(const char *name)
{
	const char *pct = strchr(name, '%');

	return pct && pct[1] == 'd' && !strchr(pct + 2, '%');
}

/* Give @device its name and the NAMED mark. */
static int ibdev_assign_name(struct ib_device *device, const char *name)
{
	char buf[IB_DEVICE_NAME_MAX];
	int ret, n;

	if (!name || !name[0] || strlen(name) >= IB_DEVICE_NAME_MAX ||
	    strchr(name, '/'))
		return -EINVAL;
	down_write(&ibdev_rwsem);
	if (strchr(name, '%')) {
		ret = -EINVAL;
		if (!ibdev_template_ok(name))
			goto out;
		n = ibdev_lowest_free_number(name);
		ret = n;
		if (n < 0)
			goto out;
		ret = -ENFILE;
		if (snprintf(buf, sizeof(buf), name, n) >= sizeof(buf))
			goto out;
	} else {
		strscpy(buf, name, sizeof(buf));
	}
	ret = -ENFILE;
	if (ibdev_find_name(buf))
		goto out;
	ret = dev_set_name(&device->dev, "%s", buf);
	if (ret)
		goto out;
	strscpy(device->name, buf, sizeof(device->name));
	xa_set_mark(&ibdevs, device->index, IBDEV_NAMED);
out:
	up_write(&ibdev_rwsem);
	return ret;
}

static void ibdev_clear_mark(struct ib_device *device, xa_mark_t mark)
{
	down_write(&ibdev_rwsem);
	xa_clear_mark(&ibdevs, device->index, mark);
	up_write(&ibdev_rwsem);
}

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
	ret = ibdev_ports_setup(device);
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
	ibdev_clear_mark(device, IBDEV_NAMED);
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
 * tables and sysfs (/sys/class/infiniband/<name>), then adds every
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

	if (ibdev_has_mark(device, IBDEV_USED))
		return -EEXIST;
	ret = ibdev_assign_name(device, name);
	if (ret)
		return ret;
	ret = ibdev_setup(device, dma_device);
	if (ret)
		goto err_unsetup;
	ret = ibdev_cache_setup(device);
	if (ret)
		goto err_unsetup;
	ret = ibdev_sysfs_add(device);
	if (ret)
		goto err_cache;

	/* The registration reference, and one for adding the clients. */
	refcount_set(&device->refcount, 2);
	down_write(&ibdev_rwsem);
	xa_set_mark(&ibdevs, device->index, IBDEV_USED);
	xa_set_mark(&ibdevs, device->index, IBDEV_LIVE);
	up_write(&ibdev_rwsem);
	ibdev_add_clients(device);
	ib_device_put(device);
	return 0;

err_cache:
	ibdev_cache_cleanup(device);
err_unsetup:
	ibdev_unsetup(device);
	return ret;
}
EXPORT_SYMBOL(ib_register_device);

/*
 * Take @device down: hide it, wait for every registration reference, remove
 * the clients, tear down sysfs and caches.  Caller holds
 * unregistration_lock and a kobject reference.  @put_caller drops the
 * caller's registration reference once the device is hidden.
 */
static void ibdev_unregister_locked(struct ib_device *device, bool put_caller)
{
	bool live;

	lockdep_assert_held(&device->unregistration_lock);
	down_write(&ibdev_rwsem);
	live = ibdev_has_mark(device, IBDEV_LIVE);
	if (live)
		xa_clear_mark(&ibdevs, device->index, IBDEV_LIVE);
	up_write(&ibdev_rwsem);
	if (put_caller)
		ib_device_put(device);
	if (!live)
		return;

	ib_device_put(device);
	wait_for_completion(&device->unreg_completion);
	ibdev_remove_clients(device);
	ibdev_sysfs_del(device);
	ibdev_cache_cleanup(device);
	ibdev_netdevs_release(device);
	ibdev_clear_mark(device, IBDEV_NAMED);
}

/* Free the device if the driver asked the core to (ops.dealloc_driver). */
static void ibdev_unregister(struct ib_device *device, bool put_caller)
{
	bool dealloc;

	get_device(&device->dev);
	mutex_lock(&device->unregistration_lock);
	dealloc = device->ops.dealloc_driver && ibdev_is_registered(device);
	ibdev_unregister_locked(device, put_caller);
	mutex_unlock(&device->unregistration_lock);
	if (dealloc) {
		device->ops.dealloc_driver(device);
		ib_dealloc_device(device);
	}
	put_device(&device->dev);
}

/**
 * ib_unregister_device - take a registered device away
 * @device: the device
 *
 * Every client's remove() is called (in the reverse order of the clients'
 * registration) after all registration references are dropped, then sysfs
 * and the GID tables go.  Calls after the first do nothing.  If the driver
 * set ops.dealloc_driver, the core calls it and frees the device; else the
 * driver frees it with ib_dealloc_device().  Sleeps.
 */
void ib_unregister_device(struct ib_device *device)
{
	ibdev_unregister(device, false);
}
EXPORT_SYMBOL(ib_unregister_device);

/**
 * ib_unregister_device_and_put - unregister a device found by a lookup
 * @device: the device, with a registration reference the caller holds
 *	from ib_device_get_by_name() or ib_device_get_by_netdev()
 *
 * Drops the caller's reference and unregisters the device as
 * ib_unregister_device() does; only meaningful with ops.dealloc_driver.
 */
void ib_unregister_device_and_put(struct ib_device *device)
{
	ibdev_unregister(device, true);
}
EXPORT_SYMBOL(ib_unregister_device_and_put);

void ibdev_unregister_work(struct work_struct *work)
{
	struct ib_device *device =
		container_of(work, struct ib_device, unregistration_work);

	ib_unregister_device(device);
	put_device(&device->dev);
}

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

	while ((device = ibdev_get_next_live(&index))) {
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

/**
 * ib_device_put - drop a registration reference
 * @device: the device, from ib_device_try_get() or a lookup
 *
 * The last reference lets a waiting unregistration proceed.
 */
void ib_device_put(struct ib_device *device)
{
	if (refcount_dec_and_test(&device->refcount))
		complete(&device->unreg_completion);
}
EXPORT_SYMBOL(ib_device_put);

/**
 * ib_device_get_by_name - find a registered device by name
 * @name: the device's name
 * @driver_id: only a device of this driver, or RDMA_DRIVER_UNKNOWN for any
 *
 * Return: the device with a registration reference (drop it with
 * ib_device_put()), or NULL.
 */
struct ib_device *ib_device_get_by_name(const char *name,
					enum rdma_driver_id driver_id)
{
	struct ib_device *device;

	down_read(&ibdev_rwsem);
	device = ibdev_find_name(name);
	if (device && (!ibdev_is_registered(device) ||
		       (driver_id != RDMA_DRIVER_UNKNOWN &&
			device->ops.driver_id != driver_id) ||
		       !ib_device_try_get(device)))
		device = NULL;
	up_read(&ibdev_rwsem);
	return device;
}
EXPORT_SYMBOL(ib_device_get_by_name);
