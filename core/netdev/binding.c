// SPDX-License-Identifier: GPL-2.0
/*
 * Binding net devices to RoCE and iWARP ports.  The pointer itself, and
 * finding a device by it, is port data (device/port.c); this file keeps
 * what depends on it, the GID tables, in step.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"
#include "netdev/internal.h"

/**
 * ib_device_set_netdev - set the net device of a port
 * @ib_dev: the device
 * @ndev: the netdev, or NULL to clear it
 * @port: the port
 *
 * The port holds a reference on @ndev until it is replaced or the device
 * goes.  Drivers of RoCE devices call this before ib_register_device() and
 * again when the netdev changes; a registered port's GIDs follow the new
 * netdev (asked from the driver again, or made from the netdev's
 * addresses by core/netdev/roce_gids.c).
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
	if (!ib_device_try_get(ib_dev))
		return 0;
	if (ib_dev->ops.query_gid)
		ibdev_cache_port_reload(ib_dev, port);
	else
		roce_gids_scan_device(ib_dev);
	ib_device_put(ib_dev);
	return 0;
}
EXPORT_SYMBOL(ib_device_set_netdev);
