// SPDX-License-Identifier: GPL-2.0
/*
 * The net devices of RoCE and iWARP ports.
 *
 * port_data[port].netdev is written under the port's netdev_lock and read
 * under RCU; the port holds a reference (dev_hold) on its netdev until the
 * driver sets another one or the device is unregistered or freed.
 */
#include "abi_device.h"
#include "dev_priv.h"

/**
 * ibdev_port_netdev_get - the net device of a port, with a reference
 * @device: the device
 * @port: a valid port number
 *
 * Return: the netdev (release with dev_put()), or NULL.
 */
struct net_device *ibdev_port_netdev_get(struct ib_device *device, u32 port)
{
	struct net_device *ndev;

	if (!device->port_data)
		return NULL;
	rcu_read_lock();
	ndev = rcu_dereference(device->port_data[port].netdev);
	dev_hold(ndev);
	rcu_read_unlock();
	return ndev;
}

/* Put @ndev on @port; returns the netdev it replaces (still held). */
static struct net_device *ibdev_port_netdev_swap(struct ib_device *device,
						 u32 port,
						 struct net_device *ndev)
{
	struct ib_port_data *pdata = &device->port_data[port];
	struct net_device *old;
	unsigned long flags;

	spin_lock_irqsave(&pdata->netdev_lock, flags);
	old = rcu_dereference_protected(pdata->netdev,
					lockdep_is_held(&pdata->netdev_lock));
	if (old != ndev) {
		dev_hold(ndev);
		rcu_assign_pointer(pdata->netdev, ndev);
	} else {
		old = NULL;
	}
	spin_unlock_irqrestore(&pdata->netdev_lock, flags);
	return old;
}

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
	struct net_device *old;
	int ret;

	if (!rdma_is_port_valid(ib_dev, port))
		return -EINVAL;
	ret = ibdev_port_data_alloc(ib_dev);
	if (ret)
		return ret;
	old = ibdev_port_netdev_swap(ib_dev, port, ndev);
	if (old) {
		synchronize_rcu();
		dev_put(old);
	}
	if (ibdev_is_registered(ib_dev))
		ibdev_cache_port_reload(ib_dev, port);
	return 0;
}
EXPORT_SYMBOL(ib_device_set_netdev);

void ibdev_netdevs_release(struct ib_device *device)
{
	struct net_device *old;
	u32 port;

	if (!device->port_data)
		return;
	rdma_for_each_port(device, port) {
		old = ibdev_port_netdev_swap(device, port, NULL);
		if (old) {
			synchronize_rcu();
			dev_put(old);
		}
	}
}

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

	while ((device = ibdev_get_next_live(&index))) {
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
