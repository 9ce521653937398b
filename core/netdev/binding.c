// SPDX-License-Identifier: GPL-2.0
/*
 * Binding net devices to RoCE and iWARP ports, and finding a device by one
 * of its netdevs.  The pointer itself is port data (device/port.c); this
 * file keeps what depends on it, the GID tables, in step.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"

/**
 * ib_device_set_netdev - set the net device of a port
 * @ib_dev: the device
 * @ndev: the netdev, or NULL to clear it
 * @port: the port
 *
 * The port holds a reference on @ndev until it is replaced or the device
 * goes.  Drivers of RoCE devices call this before ib_register_device() and
 * again when the netdev changes; a registered port's core-made GIDs follow
 * the new netdev.
 *
 * Return: 0, -EINVAL for an invalid port, -ENOMEM.
 */
int ib_device_set_netdev(struct ib_device *ib_dev, struct net_device *ndev,
			 unsigned int port)
{
	int ret;

	if (!rdma_is_port_valid(ib_dev, port))
		return -EINVAL;
	ret = ibdev_port_data_alloc(ib_dev);
	if (ret)
		return ret;
	ibdev_port_netdev_set(ib_dev, port, ndev);
	if (ibdev_index_is_live(ib_dev))
		ibdev_cache_port_reload(ib_dev, port);
	return 0;
}
EXPORT_SYMBOL(ib_device_set_netdev);

/**
 * ib_device_get_by_netdev - find the registered device a netdev belongs to
 * @ndev: the net device of one of the device's ports
 * @driver_id: only a device of this driver, or RDMA_DRIVER_UNKNOWN for any
 *
 * Return: the device with a registration reference (drop it with
 * ib_device_put()), or NULL.
 */
struct ib_device *ib_device_get_by_netdev(struct net_device *ndev,
					  enum rdma_driver_id driver_id)
{
	struct ib_device *device;
	unsigned long index = 0;
	u32 port;

	while ((device = ibdev_index_get_next_live(&index))) {
		index++;
		if (driver_id != RDMA_DRIVER_UNKNOWN &&
		    device->ops.driver_id != driver_id)
			goto next;
		rdma_for_each_port(device, port)
			if (rcu_access_pointer(device->port_data[port].netdev) ==
			    ndev)
				return device;
next:
		ib_device_put(device);
	}
	return NULL;
}
EXPORT_SYMBOL(ib_device_get_by_netdev);
