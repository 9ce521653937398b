// SPDX-License-Identifier: GPL-2.0
/*
 * Ports: the owner of device->port_data.  Its allocation, the immutable
 * attributes, the net device of each port, queries and changes, and
 * searches of the P_Key and GID tables through them.
 *
 * device->port_data is indexed by port number (rdma_start_port() to
 * rdma_end_port(); index 0 is unused unless the device is a switch).  It is
 * allocated by ib_register_device(), or earlier by ib_device_set_netdev(),
 * and freed with the device; the immutable attributes do not change after
 * registration.
 *
 * port_data[port].netdev is written under that port's netdev_lock and read
 * under RCU; the port holds a reference (dev_hold) on its netdev until
 * another one replaces it or the device is unregistered or freed.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"

/**
 * ibdev_port_link_layer - the link layer of a port
 * @device: the device
 * @port: a valid port number
 *
 * The driver's answer if it has get_link_layer, else InfiniBand for the IB
 * node types and Ethernet for the others.
 */
enum rdma_link_layer ibdev_port_link_layer(struct ib_device *device, u32 port)
{
	if (device->ops.get_link_layer)
		return device->ops.get_link_layer(device, port);
	switch (device->node_type) {
	case RDMA_NODE_IB_CA:
	case RDMA_NODE_IB_SWITCH:
	case RDMA_NODE_IB_ROUTER:
		return IB_LINK_LAYER_INFINIBAND;
	default:
		return IB_LINK_LAYER_ETHERNET;
	}
}

/**
 * ibdev_port_data_alloc - allocate the port data if it is not there yet
 * @device: the device, with phys_port_cnt set
 *
 * Normally ib_register_device() does it; a driver that sets a port's
 * netdev before registering makes it happen earlier.
 */
int ibdev_port_data_alloc(struct ib_device *device)
{
	struct ib_port_data *pdata;
	u32 port;

	if (device->port_data)
		return 0;
	if (!device->phys_port_cnt && !device->is_switch)
		return -EINVAL;
	pdata = kcalloc(rdma_end_port(device) + 1, sizeof(*pdata), GFP_KERNEL);
	if (!pdata)
		return -ENOMEM;
	device->port_data = pdata;
	rdma_for_each_port(device, port) {
		pdata = &device->port_data[port];
		pdata->ib_dev = device;
		spin_lock_init(&pdata->pkey_list_lock);
		spin_lock_init(&pdata->netdev_lock);
		INIT_LIST_HEAD(&pdata->pkey_list);
		INIT_HLIST_NODE(&pdata->ndev_hash_link);
	}
	return 0;
}

int ibdev_port_setup_all(struct ib_device *device)
{
	struct ib_port_data *pdata;
	u32 port;
	int ret;

	ret = ibdev_port_data_alloc(device);
	if (ret)
		return ret;
	/* Drivers may query the port from get_port_immutable. */
	rdma_for_each_port(device, port) {
		pdata = &device->port_data[port];
		ret = device->ops.get_port_immutable(device, port,
						     &pdata->immutable);
		if (ret)
			return ret;
		if (pdata->immutable.gid_tbl_len < 0 ||
		    pdata->immutable.pkey_tbl_len < 0)
			return -EINVAL;
	}
	return 0;
}

/* Port netdevs are released before this (ibdev_port_netdevs_release()). */
void ibdev_port_free_all(struct ib_device *device)
{
	kfree(device->port_data);
	device->port_data = NULL;
}

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

/*
 * ibdev_ndev_hash: every port that has a netdev, keyed by that netdev
 * (through port_data[].ndev_hash_link), so that ib_device_get_by_netdev()
 * is a lookup under RCU that any context may make: soft RoCE drivers make
 * it for each packet they receive.
 * ibdev_ndev_mutex: serialises every change of a port's netdev pointer and
 * of the hash (they sleep: a port leaves the hash for an RCU grace period
 * before it enters again under another key).  Readers take no lock.
 */
static DEFINE_HASHTABLE(ibdev_ndev_hash, 5);
static DEFINE_MUTEX(ibdev_ndev_mutex);

/* Put @ndev on @port; returns the netdev it replaces (still held). */
static struct net_device *ibdev_port_netdev_swap(struct ib_port_data *pdata,
						 struct net_device *ndev)
{
	struct net_device *old;
	unsigned long flags;

	spin_lock_irqsave(&pdata->netdev_lock, flags);
	old = rcu_dereference_protected(pdata->netdev,
					lockdep_is_held(&pdata->netdev_lock));
	dev_hold(ndev);
	rcu_assign_pointer(pdata->netdev, ndev);
	spin_unlock_irqrestore(&pdata->netdev_lock, flags);
	return old;
}

/**
 * ibdev_port_netdev_set - put a net device on a port
 * @device: the device, with its port data allocated
 * @port: a valid port number
 * @ndev: the netdev, or NULL
 *
 * The port takes a reference on @ndev and drops the one on the netdev it
 * had once RCU readers are done with it; the port moves in the netdev hash
 * accordingly.  Setting the netdev a port has already changes nothing.
 * Sleeps.
 */
void ibdev_port_netdev_set(struct ib_device *device, u32 port,
			   struct net_device *ndev)
{
	struct ib_port_data *pdata = &device->port_data[port];
	struct net_device *old;

	mutex_lock(&ibdev_ndev_mutex);
	if (rcu_access_pointer(pdata->netdev) == ndev)
		goto out;
	old = ibdev_port_netdev_swap(pdata, ndev);
	if (hash_hashed(&pdata->ndev_hash_link))
		hash_del_rcu(&pdata->ndev_hash_link);
	/* Readers are done with @old, and with the port under its old key. */
	synchronize_rcu();
	dev_put(old);
	if (ndev)
		hash_add_rcu(ibdev_ndev_hash, &pdata->ndev_hash_link,
			     (unsigned long)ndev);
out:
	mutex_unlock(&ibdev_ndev_mutex);
}

/**
 * ib_device_get_by_netdev - find the device a netdev belongs to
 * @ndev: the net device of one of the device's ports
 * @driver_id: only a device of this driver, or RDMA_DRIVER_UNKNOWN for any
 *
 * Any context.  A device is found from its registration until its
 * unregistration has dropped the last registration reference, so also
 * while its clients are being removed.
 *
 * Return: the device with a registration reference (drop it with
 * ib_device_put()), or NULL.
 */
struct ib_device *ib_device_get_by_netdev(struct net_device *ndev,
					  enum rdma_driver_id driver_id)
{
	struct ib_device *found = NULL;
	struct ib_port_data *pdata;

	rcu_read_lock();
	hash_for_each_possible_rcu(ibdev_ndev_hash, pdata, ndev_hash_link,
				   (unsigned long)ndev) {
		if (rcu_access_pointer(pdata->netdev) != ndev ||
		    (driver_id != RDMA_DRIVER_UNKNOWN &&
		     pdata->ib_dev->ops.driver_id != driver_id))
			continue;
		if (ib_device_try_get(pdata->ib_dev)) {
			found = pdata->ib_dev;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL(ib_device_get_by_netdev);

/* Drop every port's netdev, at unregistration or when the device is freed. */
void ibdev_port_netdevs_release(struct ib_device *device)
{
	u32 port;

	if (!device->port_data)
		return;
	rdma_for_each_port(device, port)
		ibdev_port_netdev_set(device, port, NULL);
}

/* Attributes of an iWARP port come partly from its netdev. */
static void ibdev_iwarp_port_state(struct ib_device *device, u32 port,
				   struct ib_port_attr *attr)
{
	struct net_device *ndev = ibdev_port_netdev_get(device, port);

	if (!ndev)
		return;
	if (netif_running(ndev) && netif_carrier_ok(ndev)) {
		attr->state = IB_PORT_ACTIVE;
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else {
		attr->state = IB_PORT_DOWN;
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}
	dev_put(ndev);
}

int ibdev_port_query(struct ib_device *device, u32 port,
		     struct ib_port_attr *attr)
{
	int ret;

	memset(attr, 0, sizeof(*attr));
	if (device->port_data && rdma_protocol_iwarp(device, port))
		ibdev_iwarp_port_state(device, port, attr);
	ret = device->ops.query_port(device, port, attr);
	if (ret || attr->subnet_prefix || !device->port_data)
		return ret;
	if (ibdev_port_link_layer(device, port) == IB_LINK_LAYER_INFINIBAND) {
		read_lock(&device->cache_lock);
		attr->subnet_prefix = device->port_data[port].cache.subnet_prefix;
		read_unlock(&device->cache_lock);
	}
	return 0;
}

/**
 * ib_query_port - query a port's attributes
 * @device: the device
 * @port_num: the port
 * @port_attr: zeroed, then filled by the driver; an InfiniBand port whose
 *	driver reports no subnet prefix gets the one of its GID table
 *
 * Return: 0, -EINVAL for an invalid port, or the driver's error.
 */
int ib_query_port(struct ib_device *device, u32 port_num,
		  struct ib_port_attr *port_attr)
{
	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	return ibdev_port_query(device, port_num, port_attr);
}
EXPORT_SYMBOL(ib_query_port);

/**
 * ib_query_pkey - read a P_Key table entry
 * @device: the device
 * @port_num: the port
 * @index: index in the port's P_Key table
 * @pkey: the P_Key
 *
 * Return: 0, -EINVAL for an invalid port or index, -EOPNOTSUPP if the
 * driver has no P_Key table, or the driver's error.
 */
int ib_query_pkey(struct ib_device *device, u32 port_num, u16 index, u16 *pkey)
{
	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (!device->ops.query_pkey)
		return -EOPNOTSUPP;
	if (device->port_data &&
	    index >= device->port_data[port_num].immutable.pkey_tbl_len)
		return -EINVAL;
	return device->ops.query_pkey(device, port_num, index, pkey);
}
EXPORT_SYMBOL(ib_query_pkey);

/**
 * ib_find_pkey - the slot of a partition in a port's P_Key table, asking
 *	the driver
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key; its membership bit is ignored
 * @index: the slot: the first with full membership if the table has one,
 *	else the last with limited membership
 *
 * Process context (the driver may sleep); ib_find_cached_pkey() answers
 * from the core's copy in any context.
 *
 * Return: 0; -ENOENT if the partition is not in the table; the error of
 * ib_query_pkey().
 */
int ib_find_pkey(struct ib_device *device, u32 port_num, u16 pkey,
		 u16 *index)
{
	int limited = -1;
	u16 entry;
	int i, ret;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	for (i = 0; i < device->port_data[port_num].immutable.pkey_tbl_len; i++) {
		ret = ib_query_pkey(device, port_num, i, &entry);
		if (ret)
			return ret;
		if ((entry ^ pkey) & 0x7fff)
			continue;
		if (entry & 0x8000) {
			*index = i;
			return 0;
		}
		limited = i;
	}
	if (limited < 0)
		return -ENOENT;
	*index = limited;
	return 0;
}
EXPORT_SYMBOL(ib_find_pkey);

/**
 * ib_find_gid - the port and slot of a GID on a device's InfiniBand ports
 * @device: the device
 * @gid: the GID
 * @port_num: the port, out
 * @index: if not NULL, the slot in that port's GID table, out
 *
 * Ports and slots are searched in order, in the core's GID tables;
 * RoCE and iWARP ports are not searched (their GIDs have types and
 * netdevs: rdma_find_gid()).
 *
 * Return: 0, or -ENOENT if no InfiniBand port has @gid.
 */
int ib_find_gid(struct ib_device *device, union ib_gid *gid,
		u32 *port_num, u16 *index)
{
	union ib_gid slot;
	u32 port;
	int i;

	if (!device->port_data)
		return -ENOENT;
	rdma_for_each_port(device, port) {
		if (!rdma_protocol_ib(device, port))
			continue;
		for (i = 0; i < device->port_data[port].immutable.gid_tbl_len; i++) {
			if (rdma_query_gid(device, port, i, &slot) ||
			    memcmp(&slot, gid, sizeof(slot)))
				continue;
			*port_num = port;
			if (index)
				*index = i;
			return 0;
		}
	}
	return -ENOENT;
}
EXPORT_SYMBOL(ib_find_gid);

/**
 * ib_modify_port - change port attributes
 * @device: the device
 * @port_num: the port
 * @port_modify_mask: IB_PORT_* bits saying what to change
 * @port_modify: the new values
 *
 * A RoCE port whose driver has no modify_port accepts changes of the
 * IB_PORT_CM_SUP capability bit only, and ignores them.
 *
 * Return: 0, -EINVAL for an invalid port, -EOPNOTSUPP, or the driver's
 * error.
 */
int ib_modify_port(struct ib_device *device, u32 port_num,
		   int port_modify_mask, struct ib_port_modify *port_modify)
{
	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (device->ops.modify_port)
		return device->ops.modify_port(device, port_num,
					       port_modify_mask, port_modify);
	if (device->port_data && rdma_protocol_roce(device, port_num) &&
	    (!(port_modify->set_port_cap_mask & ~IB_PORT_CM_SUP) ||
	     !(port_modify->clr_port_cap_mask & ~IB_PORT_CM_SUP)))
		return 0;
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_modify_port);

/**
 * ib_port_immutable_read() - the immutable attributes of a port
 * @dev: the device, registered
 * @port: the port
 *
 * Return: the port's immutable attributes (core capability flags, table
 * lengths, MAD size), constant while the device is registered; NULL for a
 * port the device does not have.
 */
const struct ib_port_immutable *
ib_port_immutable_read(struct ib_device *dev, unsigned int port)
{
	if (!rdma_is_port_valid(dev, port) || !dev->port_data)
		return NULL;
	return &dev->port_data[port].immutable;
}
EXPORT_SYMBOL(ib_port_immutable_read);
