// SPDX-License-Identifier: GPL-2.0
/*
 * The hardware counters of a registered device: the driver's counter sets
 * (one for the device, one per port), reading them with the lifespan the
 * driver asked for, enabling optional ones, and their directories
 * /sys/class/infiniband/<dev>/hw_counters/ and ports/<n>/hw_counters/.
 *
 * device->hw_stats_data is set up by registration before the device is
 * added to sysfs (counters_sysfs_prepare()) and freed after sysfs is gone
 * and every registration reference dropped (counters_free()), so sysfs
 * readers and netlink handlers holding a registration reference may use
 * it without a lock of their own.  Each set's values, timestamp, lifespan
 * and disabled bits are protected by its stats->lock.
 */
#include "abi/ib_core/device.h"
#include <rdma/ib_sysfs.h>
#include "counters/internal.h"

#define COUNTERS_LIFESPAN	(-1)	/* counters_attr.index of "lifespan" */
#define COUNTERS_MAX_LIFESPAN_MS 10000

/* One file of a hw_counters directory. */
struct counters_attr {
	union {
		struct device_attribute dev;	/* the device's directory */
		struct ib_port_attribute port;	/* a port's directory */
	};
	int index;	/* the counter, or COUNTERS_LIFESPAN */
};

/* A counter set and its hw_counters directory. */
struct counters_set {
	struct rdma_hw_stats *stats;	/* NULL: the driver has no such set */
	struct counters_attr *attrs;
	struct attribute **list;
	struct attribute_group group;
	bool in_sysfs;			/* a port's group was created */
};

struct hw_stats_device_data {
	struct counters_set dev;
	u32 nsets;			/* entries of @port, rdma_end_port() + 1 */
	struct counters_set port[];	/* by port number */
};

/**
 * counters_refresh() - bring a set's values up to date
 * @device: the device
 * @stats: one of its sets; the caller holds stats->lock
 * @port: the set's port, 0 for the device's set
 * @index: the counter wanted, or stats->num_counters for all
 * @force: ask the driver even if the last full reading is younger than
 *	the lifespan
 *
 * Return: 0, or the driver's error.
 */
int counters_refresh(struct ib_device *device, struct rdma_hw_stats *stats,
		     u32 port, int index, bool force)
{
	int ret;

	lockdep_assert_held(&stats->lock);
	if (!force && time_is_after_eq_jiffies(stats->timestamp + stats->lifespan))
		return 0;
	ret = device->ops.get_hw_stats(device, stats, port, index);
	if (ret < 0)
		return ret;
	if (ret == stats->num_counters)
		stats->timestamp = jiffies;
	return 0;
}

/**
 * counters_port_stats() - the counter set of a port
 * @device: a registered device
 * @port: the port
 *
 * Return: the set, or NULL for an invalid port or one without counters.
 */
struct rdma_hw_stats *counters_port_stats(struct ib_device *device, u32 port)
{
	struct hw_stats_device_data *data = device->hw_stats_data;

	if (!data || !rdma_is_port_valid(device, port))
		return NULL;
	return data->port[port].stats;
}

/**
 * counters_modify() - enable or disable an optional counter of a port
 * @device: a registered device
 * @port: the port
 * @index: the counter; it must have IB_STAT_FLAG_OPTIONAL
 * @enable: the new state
 *
 * Return: 0; -EOPNOTSUPP if the driver cannot; -EINVAL for a port without
 * counters, an unknown counter or one that is not optional; or the
 * driver's error.
 */
int counters_modify(struct ib_device *device, u32 port, unsigned int index,
		    bool enable)
{
	struct rdma_hw_stats *stats = counters_port_stats(device, port);
	int ret = 0;

	if (!device->ops.modify_hw_stat)
		return -EOPNOTSUPP;
	if (!stats || index >= stats->num_counters ||
	    !(stats->descs[index].flags & IB_STAT_FLAG_OPTIONAL))
		return -EINVAL;
	mutex_lock(&stats->lock);
	if (enable == test_bit(index, stats->is_disabled)) {
		ret = device->ops.modify_hw_stat(device, port, index, enable);
		if (!ret)
			assign_bit(index, stats->is_disabled, !enable);
	}
	mutex_unlock(&stats->lock);
	return ret;
}

/* Text of a counter file or of "lifespan". */
static ssize_t counters_show(struct ib_device *device, struct counters_set *set,
			     u32 port, int index, char *buf)
{
	struct rdma_hw_stats *stats = set->stats;
	ssize_t ret = 0;
	u64 value = 0;
	int ms = 0;

	mutex_lock(&stats->lock);
	if (index == COUNTERS_LIFESPAN) {
		ms = jiffies_to_msecs(stats->lifespan);
	} else {
		ret = counters_refresh(device, stats, port, index, false);
		value = stats->value[index];
	}
	mutex_unlock(&stats->lock);
	if (ret)
		return ret;
	if (index == COUNTERS_LIFESPAN)
		return sysfs_emit(buf, "%d\n", ms);
	return sysfs_emit(buf, "%llu\n", value);
}

/* Writing "lifespan": milliseconds, 0 to COUNTERS_MAX_LIFESPAN_MS. */
static ssize_t counters_store(struct counters_set *set, const char *buf,
			      size_t count)
{
	int ms, ret;

	ret = kstrtoint(buf, 10, &ms);
	if (ret)
		return ret;
	if (ms < 0 || ms > COUNTERS_MAX_LIFESPAN_MS)
		return -EINVAL;
	mutex_lock(&set->stats->lock);
	set->stats->lifespan = msecs_to_jiffies(ms);
	mutex_unlock(&set->stats->lock);
	return count;
}

static ssize_t counters_dev_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct ib_device *device = container_of(dev, struct ib_device, dev);
	struct counters_attr *ca = container_of(attr, struct counters_attr, dev);

	return counters_show(device, &device->hw_stats_data->dev, 0, ca->index,
			     buf);
}

static ssize_t counters_dev_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct ib_device *device = container_of(dev, struct ib_device, dev);

	return counters_store(&device->hw_stats_data->dev, buf, count);
}

static ssize_t counters_port_show(struct ib_device *device, u32 port,
				  struct ib_port_attribute *attr, char *buf)
{
	struct counters_attr *ca = container_of(attr, struct counters_attr, port);

	return counters_show(device, &device->hw_stats_data->port[port], port,
			     ca->index, buf);
}

static ssize_t counters_port_store(struct ib_device *device, u32 port,
				   struct ib_port_attribute *attr,
				   const char *buf, size_t count)
{
	return counters_store(&device->hw_stats_data->port[port], buf, count);
}

/* Fill @ca as file @name of a device (@port 0) or port directory. */
static struct attribute *counters_attr_init(struct counters_attr *ca,
					    bool port, const char *name,
					    int index)
{
	struct attribute *attr = port ? &ca->port.attr : &ca->dev.attr;
	bool lifespan = index == COUNTERS_LIFESPAN;

	sysfs_attr_init(attr);
	attr->name = name;
	attr->mode = lifespan ? 0644 : 0444;
	ca->index = index;
	if (port) {
		ca->port.show = counters_port_show;
		ca->port.store = lifespan ? counters_port_store : NULL;
	} else {
		ca->dev.show = counters_dev_show;
		ca->dev.store = lifespan ? counters_dev_store : NULL;
	}
	return attr;
}

/* The files of a set: its counters that are not optional, and lifespan. */
static int counters_set_files(struct counters_set *set, bool port)
{
	struct rdma_hw_stats *stats = set->stats;
	int i, n = 0;

	set->attrs = kcalloc(stats->num_counters + 1, sizeof(*set->attrs),
			     GFP_KERNEL);
	set->list = kcalloc(stats->num_counters + 2, sizeof(*set->list),
			    GFP_KERNEL);
	if (!set->attrs || !set->list)
		return -ENOMEM;
	for (i = 0; i < stats->num_counters; i++) {
		if (stats->descs[i].flags & IB_STAT_FLAG_OPTIONAL)
			continue;
		set->list[n] = counters_attr_init(&set->attrs[n], port,
						  stats->descs[i].name, i);
		n++;
	}
	set->list[n] = counters_attr_init(&set->attrs[n], port, "lifespan",
					  COUNTERS_LIFESPAN);
	set->group.name = "hw_counters";
	set->group.attrs = set->list;
	return 0;
}

static void counters_set_free(struct counters_set *set)
{
	kfree(set->list);
	kfree(set->attrs);
	rdma_free_hw_stats_struct(set->stats);
}

/* Take the driver's new set @stats for @port and read it once. */
static int counters_set_init(struct ib_device *device, struct counters_set *set,
			     struct rdma_hw_stats *stats, u32 port)
{
	int ret;

	if (!stats)
		return -ENOMEM;
	set->stats = stats;
	if (!stats->descs || stats->num_counters <= 0)
		return -EINVAL;
	mutex_lock(&stats->lock);
	ret = device->ops.get_hw_stats(device, stats, port, stats->num_counters);
	if (ret == stats->num_counters)
		stats->timestamp = jiffies;
	mutex_unlock(&stats->lock);
	if (ret != stats->num_counters)
		return ret < 0 ? ret : -EINVAL;
	return counters_set_files(set, port);
}

/* Put the device's hw_counters group in the first free slot of groups. */
static int counters_add_device_group(struct ib_device *device,
				     struct attribute_group *group)
{
	unsigned int i;

	/* The last slot stays NULL: it ends the list. */
	for (i = 0; i < ARRAY_SIZE(device->groups) - 1; i++) {
		if (!device->groups[i]) {
			device->groups[i] = group;
			device->hw_stats_attr_index = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int counters_setup(struct ib_device *device,
			  struct hw_stats_device_data *data)
{
	const struct ib_device_ops *ops = &device->ops;
	u32 port;
	int ret;

	if (ops->alloc_hw_device_stats) {
		ret = counters_set_init(device, &data->dev,
					ops->alloc_hw_device_stats(device), 0);
		if (!ret)
			ret = counters_add_device_group(device, &data->dev.group);
		if (ret)
			return ret;
	}
	if (!ops->alloc_hw_port_stats)
		return 0;
	rdma_for_each_port(device, port) {
		ret = counters_set_init(device, &data->port[port],
					ops->alloc_hw_port_stats(device, port),
					port);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * counters_sysfs_prepare() - take a device's counter sets at registration
 * @device: a device being registered, not yet added to sysfs
 *
 * Asks the driver for its device and port counter sets, reads them once
 * and adds the device's hw_counters group to device->groups.  A driver
 * without get_hw_stats has no counters.
 *
 * Return: 0, or an errno (nothing is left allocated).
 */
int counters_sysfs_prepare(struct ib_device *device)
{
	struct hw_stats_device_data *data;
	u32 nsets = rdma_end_port(device) + 1;
	int ret;

	if (!device->ops.get_hw_stats || (!device->ops.alloc_hw_device_stats &&
					  !device->ops.alloc_hw_port_stats))
		return 0;
	data = kzalloc(struct_size(data, port, nsets), GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	data->nsets = nsets;
	device->hw_stats_data = data;
	ret = counters_setup(device, data);
	if (ret)
		counters_free(device);
	return ret;
}

/**
 * counters_port_sysfs_add() - create ports/<n>/hw_counters
 * @device: the device
 * @port: the port
 * @kobj: the port's directory
 *
 * Return: 0 (also for a port without counters), or an errno.
 */
int counters_port_sysfs_add(struct ib_device *device, u32 port,
			    struct kobject *kobj)
{
	struct hw_stats_device_data *data = device->hw_stats_data;
	struct counters_set *set;
	int ret;

	if (!data || !data->port[port].stats)
		return 0;
	set = &data->port[port];
	ret = sysfs_create_group(kobj, &set->group);
	set->in_sysfs = !ret;
	return ret;
}

/**
 * counters_port_sysfs_del() - remove ports/<n>/hw_counters if it exists
 * @device: the device
 * @port: the port
 * @kobj: the port's directory
 */
void counters_port_sysfs_del(struct ib_device *device, u32 port,
			     struct kobject *kobj)
{
	struct hw_stats_device_data *data = device->hw_stats_data;

	if (!data || !data->port[port].in_sysfs)
		return;
	sysfs_remove_group(kobj, &data->port[port].group);
	data->port[port].in_sysfs = false;
}

/**
 * counters_free() - free a device's counter sets
 * @device: the device, out of sysfs and without registration references
 */
void counters_free(struct ib_device *device)
{
	struct hw_stats_device_data *data = device->hw_stats_data;
	u32 i;

	if (!data)
		return;
	if (data->dev.stats &&
	    device->groups[device->hw_stats_attr_index] == &data->dev.group)
		device->groups[device->hw_stats_attr_index] = NULL;
	counters_set_free(&data->dev);
	for (i = 0; i < data->nsets; i++)
		counters_set_free(&data->port[i]);
	kfree(data);
	device->hw_stats_data = NULL;
}
