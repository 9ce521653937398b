// SPDX-License-Identifier: GPL-2.0
/*
 * The InfiniBand speed and width that describe an Ethernet port's rate.
 */
#include "abi/ib_core/verbs.h"
#include <linux/ethtool.h>
#include "device/internal.h"

/* Ethernet rates up to @max (Mb/s) are shown as @width lanes of @speed. */
static const struct {
	u32 max;
	u8 width;
	u16 speed;
} ib_eth_rates[] = {
	{ SPEED_1000,	IB_WIDTH_1X, IB_SPEED_SDR },	/* 2.5 Gb/s */
	{ SPEED_10000,	IB_WIDTH_1X, IB_SPEED_FDR10 },	/* 10 */
	{ SPEED_20000,	IB_WIDTH_4X, IB_SPEED_DDR },	/* 20 */
	{ SPEED_25000,	IB_WIDTH_1X, IB_SPEED_EDR },	/* 25 */
	{ SPEED_40000,	IB_WIDTH_4X, IB_SPEED_FDR10 },	/* 40 */
	{ U32_MAX,	IB_WIDTH_4X, IB_SPEED_EDR },	/* 100 */
};

/* The netdev's link speed in Mb/s, or SPEED_1000 when it does not say. */
static u32 ib_eth_netdev_speed(struct net_device *ndev)
{
	struct ethtool_link_ksettings ks;
	int ret;

	rtnl_lock();
	ret = __ethtool_get_link_ksettings(ndev, &ks);
	rtnl_unlock();
	if (!ret && ks.base.speed != (u32)SPEED_UNKNOWN)
		return ks.base.speed;
	netdev_warn(ndev, "link speed unknown, taking %u Mb/s\n", SPEED_1000);
	return SPEED_1000;
}

/**
 * ib_get_eth_speed - express an Ethernet port's link speed as IB speed/width
 * @dev: the device
 * @port_num: an Ethernet port with a netdev
 * @speed: the IB_SPEED_* value
 * @width: the IB_WIDTH_* value
 *
 * A netdev that reports no speed is taken as 1 Gb/s.  Sleeps (RTNL).
 *
 * Return: 0, -EINVAL if the port is not an Ethernet port, -ENODEV if it
 * has no netdev.
 */
int ib_get_eth_speed(struct ib_device *dev, u32 port_num, u16 *speed,
		     u8 *width)
{
	struct net_device *ndev;
	u32 mbps;
	unsigned int i;

	if (!rdma_is_port_valid(dev, port_num) ||
	    ibdev_port_link_layer(dev, port_num) != IB_LINK_LAYER_ETHERNET)
		return -EINVAL;
	ndev = ibdev_port_netdev_get(dev, port_num);
	if (!ndev)
		return -ENODEV;
	mbps = ib_eth_netdev_speed(ndev);
	dev_put(ndev);
	for (i = 0; mbps > ib_eth_rates[i].max; i++)
		;
	*speed = ib_eth_rates[i].speed;
	*width = ib_eth_rates[i].width;
	return 0;
}
EXPORT_SYMBOL(ib_get_eth_speed);
