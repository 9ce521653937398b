// SPDX-License-Identifier: GPL-2.0
/*
 * The index of devices: every allocated ib_device by device->index, its
 * name, how far its registration has gone, and the walks and lookups over
 * them.  The bottom of the device model: it calls nothing else of ib_core.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"

/*
 * ibdevs: every allocated device, by device->index, from _ib_alloc_device()
 * to ib_dealloc_device().  Its marks say how far registration has gone:
 *   IBDEV_NAMED  holds its name (ib_register_device() to the end of its
 *                unregistration); names are unique among these
 *   IBDEV_LIVE   registered and visible to clients and lookups
 *   IBDEV_USED   ib_register_device() has succeeded once; a device is
 *                registered at most once in its life
 * ibdev_rwsem: held for write to change the marks, the names and the set
 * of devices; for read by walks that must see a consistent set.
 * ibdev_ida: hands out the indices.
 */
static DEFINE_XARRAY(ibdevs);
static DECLARE_RWSEM(ibdev_rwsem);
static DEFINE_IDA(ibdev_ida);
#define IBDEV_NAMED	XA_MARK_0
#define IBDEV_LIVE	XA_MARK_1
#define IBDEV_USED	XA_MARK_2

int ibdev_index_insert(struct ib_device *device)
{
	int id, ret;

	id = ida_alloc(&ibdev_ida, GFP_KERNEL);
	if (id < 0)
		return id;
	device->index = id;
	down_write(&ibdev_rwsem);
	ret = xa_insert(&ibdevs, id, device, GFP_KERNEL);
	up_write(&ibdev_rwsem);
	if (ret)
		ida_free(&ibdev_ida, id);
	return ret;
}

void ibdev_index_remove(struct ib_device *device)
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
static bool ibdev_index_has_mark(struct ib_device *device, xa_mark_t mark)
{
	bool ret;

	xa_lock(&ibdevs);
	ret = xa_load(&ibdevs, device->index) == device &&
	      xa_get_mark(&ibdevs, device->index, mark);
	xa_unlock(&ibdevs);
	return ret;
}

bool ibdev_index_is_live(struct ib_device *device)
{
	return ibdev_index_has_mark(device, IBDEV_LIVE);
}

bool ibdev_index_was_used(struct ib_device *device)
{
	return ibdev_index_has_mark(device, IBDEV_USED);
}

void ibdev_index_go_live(struct ib_device *device)
{
	down_write(&ibdev_rwsem);
	xa_set_mark(&ibdevs, device->index, IBDEV_USED);
	xa_set_mark(&ibdevs, device->index, IBDEV_LIVE);
	up_write(&ibdev_rwsem);
}

bool ibdev_index_hide(struct ib_device *device)
{
	bool live;

	down_write(&ibdev_rwsem);
	live = ibdev_index_has_mark(device, IBDEV_LIVE);
	if (live)
		xa_clear_mark(&ibdevs, device->index, IBDEV_LIVE);
	up_write(&ibdev_rwsem);
	return live;
}

/**
 * ibdev_index_get_next_live - take a registration reference on the next
 *	live device
 * @index: where to start; on return, the index of the device found
 *
 * Return: the device, with a reference the caller drops with
 * ib_device_put(), or NULL when no live device is at or after @index.
 */
struct ib_device *ibdev_index_get_next_live(unsigned long *index)
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
 * ibdev_index_get_next_any - take a kobject reference on the next
 *	allocated device
 * @index: where to start; on return, the index of the device found
 *
 * Return: the device (drop with put_device()), or NULL.
 */
struct ib_device *ibdev_index_get_next_any(unsigned long *index)
{
	struct ib_device *device;

	down_read(&ibdev_rwsem);
	device = xa_find(&ibdevs, index, ULONG_MAX, XA_PRESENT);
	if (device)
		get_device(&device->dev);
	up_read(&ibdev_rwsem);
	return device;
}

/* A named device called @name, or NULL. */
static struct ib_device *ibdev_index_find_name(const char *name)
{
	struct ib_device *device;
	unsigned long index;

	lockdep_assert_held(&ibdev_rwsem);
	xa_for_each_marked(&ibdevs, index, device, IBDEV_NAMED)
		if (!strcmp(dev_name(&device->dev), name))
			return device;
	return NULL;
}

/*
 * The lowest number n for which the template @tmpl (one %d) makes a name
 * no named device has.
 */
static int ibdev_index_lowest_free_number(const char *tmpl)
{
	struct ib_device *device;
	unsigned long index, *used;
	int n, limit = 0, ret;
	char buf[IB_DEVICE_NAME_MAX];

	lockdep_assert_held_write(&ibdev_rwsem);
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

static bool ibdev_index_template_ok(const char *name)
{
	const char *pct = strchr(name, '%');

	return pct && pct[1] == 'd' && !strchr(pct + 2, '%');
}

/* The name @name makes for @device in @buf: itself, or the template's. */
static int ibdev_index_expand_name(const char *name, char *buf)
{
	int n;

	if (!strchr(name, '%')) {
		strscpy(buf, name, IB_DEVICE_NAME_MAX);
		return 0;
	}
	if (!ibdev_index_template_ok(name))
		return -EINVAL;
	n = ibdev_index_lowest_free_number(name);
	if (n < 0)
		return n;
	if (snprintf(buf, IB_DEVICE_NAME_MAX, name, n) >= IB_DEVICE_NAME_MAX)
		return -ENFILE;
	return 0;
}

/**
 * ibdev_index_set_name - give a device its unique name
 * @device: the device
 * @name: the name, or a template with one %d
 *
 * Return: 0; -EINVAL for a bad name or template; -ENFILE if the name is
 * taken or too long once expanded; -ENOMEM.
 */
int ibdev_index_set_name(struct ib_device *device, const char *name)
{
	char buf[IB_DEVICE_NAME_MAX];
	int ret;

	if (!name || !name[0] || strlen(name) >= IB_DEVICE_NAME_MAX ||
	    strchr(name, '/'))
		return -EINVAL;
	down_write(&ibdev_rwsem);
	ret = ibdev_index_expand_name(name, buf);
	if (!ret && ibdev_index_find_name(buf))
		ret = -ENFILE;
	if (!ret)
		ret = dev_set_name(&device->dev, "%s", buf);
	if (!ret) {
		strscpy(device->name, buf, sizeof(device->name));
		xa_set_mark(&ibdevs, device->index, IBDEV_NAMED);
	}
	up_write(&ibdev_rwsem);
	return ret;
}

/* The name of @device is free again for another device. */
void ibdev_index_drop_name(struct ib_device *device)
{
	down_write(&ibdev_rwsem);
	xa_clear_mark(&ibdevs, device->index, IBDEV_NAMED);
	up_write(&ibdev_rwsem);
}

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
	device = ibdev_index_find_name(name);
	if (device && (!ibdev_index_is_live(device) ||
		       (driver_id != RDMA_DRIVER_UNKNOWN &&
			device->ops.driver_id != driver_id) ||
		       !ib_device_try_get(device)))
		device = NULL;
	up_read(&ibdev_rwsem);
	return device;
}
EXPORT_SYMBOL(ib_device_get_by_name);

/**
 * ibdev_index_rename - give a registered device another name
 * @device: the device, with a registration reference held by the caller
 * @name: the new name, used as it is (no template)
 *
 * Return: 0 (also when @name is the current name); -EINVAL for an empty
 * name or one with '/'; -EEXIST if another device has @name; or the
 * error of renaming the device in sysfs.
 */
int ibdev_index_rename(struct ib_device *device, const char *name)
{
	int ret = 0;

	if (!name[0] || strchr(name, '/'))
		return -EINVAL;
	down_write(&ibdev_rwsem);
	if (strcmp(name, dev_name(&device->dev))) {
		if (ibdev_index_find_name(name))
			ret = -EEXIST;
		else
			ret = device_rename(&device->dev, name);
		if (!ret)
			strscpy(device->name, name, sizeof(device->name));
	}
	up_write(&ibdev_rwsem);
	return ret;
}
