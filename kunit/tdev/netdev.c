// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: the net devices beneath RoCE test devices.
 *
 * tdev_netdev_create() registers a minimal Ethernet netdev: it drops
 * whatever it is asked to transmit, and is there for the core to see what
 * a RoCE port sees in a real system (a registered netdev, its MAC and
 * addresses, its events).  A params.roce device without a caller's netdev
 * makes one of its own.
 *
 * The "wire" between RoCE test devices: a message for a device arrives on
 * that device's netdev, and, as a soft RoCE driver does for each packet,
 * the receiving side finds the device by that netdev with
 * ib_device_get_by_netdev(), in the engine's (interrupt) context.  A
 * message for a device not found is dropped.
 *
 * Locking: none of its own; the netdev core's.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include "tdev_priv.h"

static netdev_tx_t tdev_netdev_xmit(struct sk_buff *skb,
				    struct net_device *ndev)
{
	ndev->stats.tx_dropped++;
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops tdev_netdev_ops = {
	.ndo_start_xmit = tdev_netdev_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

/**
 * tdev_netdev_create - register an Ethernet netdev for a RoCE port
 * @name: its name or a template ("ktnet%d")
 * @mac: its MAC address, or NULL for a random one
 *
 * Sleeps (takes the RTNL).
 *
 * Return: the netdev, down and without addresses, or an ERR_PTR.  Free
 * it with tdev_netdev_destroy() once no device uses it.
 */
struct net_device *tdev_netdev_create(const char *name, const u8 *mac)
{
	struct net_device *ndev = alloc_etherdev(0);
	int ret;

	if (!ndev)
		return ERR_PTR(-ENOMEM);
	strscpy(ndev->name, name, IFNAMSIZ);
	ndev->netdev_ops = &tdev_netdev_ops;
	if (mac)
		eth_hw_addr_set(ndev, mac);
	else
		eth_hw_addr_random(ndev);
	ret = register_netdev(ndev);
	if (ret) {
		free_netdev(ndev);
		return ERR_PTR(ret);
	}
	return ndev;
}
EXPORT_SYMBOL_GPL(tdev_netdev_create);

/**
 * tdev_netdev_destroy - unregister and free a netdev of tdev_netdev_create()
 * @ndev: the netdev; the ports that had it have let go of it
 *
 * Sleeps.
 */
void tdev_netdev_destroy(struct net_device *ndev)
{
	unregister_netdev(ndev);
	free_netdev(ndev);
}
EXPORT_SYMBOL_GPL(tdev_netdev_destroy);

/**
 * tv_packet_arrives - whether a message for a device reaches it
 * @to: the receiving device
 *
 * Devices without a netdev (InfiniBand) are always reached.  Any context,
 * no lock held.
 *
 * Return: true if the device that @to's netdev belongs to is @to.
 */
bool tv_packet_arrives(struct tdev *to)
{
	struct ib_device *found;

	if (!to->ndev)
		return true;
	found = ib_device_get_by_netdev(to->ndev, to->params.driver_id);
	if (!found)
		return false;
	ib_device_put(found);
	return found == &to->ibdev;
}
