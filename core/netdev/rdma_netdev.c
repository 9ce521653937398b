// SPDX-License-Identifier: GPL-2.0
/*
 * Net devices a driver runs for a port ("enhanced" IPoIB): the driver says,
 * through ops.rdma_netdev_get_params, how large the netdev's private area
 * is, how many queues it has and how to initialise it; IPoIB allocates
 * and initialises its netdev here.
 *
 * No state, no lock of ours.
 */
#include "abi/ib_core/verbs.h"

/* The driver's parameters for @type on @port_num. */
static int rdma_netdev_params(struct ib_device *device, u32 port_num,
			      enum rdma_netdev_t type,
			      struct rdma_netdev_alloc_params *params)
{
	int ret;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (!device->ops.rdma_netdev_get_params)
		return -EOPNOTSUPP;
	memset(params, 0, sizeof(*params));
	ret = device->ops.rdma_netdev_get_params(device, port_num, type,
						 params);
	if (!ret && (!params->txqs || !params->rxqs))
		ret = -EINVAL;
	return ret;
}

/**
 * rdma_alloc_netdev - allocate the driver's netdev for a port
 * @device: the device
 * @port_num: the port
 * @type: the kind (RDMA_NETDEV_IPOIB)
 * @name: the netdev's name or template
 * @name_assign_type: NET_NAME_*
 * @setup: the caller's setup of the netdev
 *
 * The netdev has the private area and queues the driver asks for; it is
 * not registered.
 *
 * Return: the netdev (free_netdev()), or ERR_PTR: -EINVAL for an invalid
 * port or parameters without queues, -EOPNOTSUPP if the driver has no such
 * netdevs, the driver's error, -ENOMEM.
 */
struct net_device *rdma_alloc_netdev(struct ib_device *device, u32 port_num,
	enum rdma_netdev_t type, const char *name,
	unsigned char name_assign_type, void (*setup)(struct net_device *))
{
	struct rdma_netdev_alloc_params params;
	struct net_device *ndev;
	int ret;

	ret = rdma_netdev_params(device, port_num, type, &params);
	if (ret)
		return ERR_PTR(ret);
	ndev = alloc_netdev_mqs(params.sizeof_priv, name, name_assign_type,
				setup, params.txqs, params.rxqs);
	return ndev ?: ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL(rdma_alloc_netdev);

/**
 * rdma_init_netdev - let the driver initialise a port's netdev
 * @device: the device
 * @port_num: the port
 * @type: the kind (RDMA_NETDEV_IPOIB)
 * @name: unused (the netdev has its name)
 * @name_assign_type: unused
 * @setup: unused (the caller has set the netdev up)
 * @netdev: a netdev allocated with the driver's private area (for example
 *	by rdma_alloc_netdev())
 *
 * Return: the driver's initialisation's result; the errors of
 * rdma_alloc_netdev() before it.
 */
int rdma_init_netdev(struct ib_device *device, u32 port_num,
	enum rdma_netdev_t type, const char *name,
	unsigned char name_assign_type, void (*setup)(struct net_device *),
	struct net_device *netdev)
{
	struct rdma_netdev_alloc_params params;
	int ret;

	ret = rdma_netdev_params(device, port_num, type, &params);
	if (ret)
		return ret;
	if (!params.initialize_rdma_netdev)
		return -EOPNOTSUPP;
	return params.initialize_rdma_netdev(device, port_num, netdev,
					     params.param);
}
EXPORT_SYMBOL(rdma_init_netdev);
