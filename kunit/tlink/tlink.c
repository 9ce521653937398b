// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tlink: the link type "tdev", so that "rdma link add NAME type
 * tdev netdev NDEV" makes a test device (rdma_kunit_tdev) on a net device,
 * the way rdma_rxe makes soft RoCE devices.  ib_core loads this module by
 * its alias rdma-link-tdev.
 *
 * Its devices are RoCE test devices that users may delete ("rdma link
 * delete"), with hardware counters: per port the packets and bytes of the
 * net device (rx_bytes is optional, off until "rdma statistic set"
 * enables it), per device the PDs allocated on it.  A device goes when its
 * net device does, and all of them when the module is unloaded.
 *
 * The devices carry a driver id of their own (RDMA_DRIVER_CXGB3: its
 * driver left Linux in 5.5 and nothing in the lab uses it) so that they
 * can be found among the other test devices.  No lock: the core
 * serialises registrations, and the notifier only queues unregistrations.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include "tdev.h"
#include "rdma_version.h"

#define TLINK_DRIVER_ID RDMA_DRIVER_CXGB3

enum { TLINK_RX_PACKETS, TLINK_TX_PACKETS, TLINK_RX_BYTES };

static const struct rdma_stat_desc tlink_port_descs[] = {
	[TLINK_RX_PACKETS] = { .name = "rx_packets" },
	[TLINK_TX_PACKETS] = { .name = "tx_packets" },
	[TLINK_RX_BYTES] = { .name = "rx_bytes", .flags = IB_STAT_FLAG_OPTIONAL },
};

static const struct rdma_stat_desc tlink_dev_descs[] = {
	{ .name = "pds" },
};

static struct rdma_hw_stats *tlink_alloc_port_stats(struct ib_device *dev,
						    u32 port)
{
	struct rdma_hw_stats *stats;

	stats = rdma_alloc_hw_stats_struct(tlink_port_descs,
					   ARRAY_SIZE(tlink_port_descs),
					   RDMA_HW_STATS_DEFAULT_LIFESPAN);
	if (stats)
		__set_bit(TLINK_RX_BYTES, stats->is_disabled);
	return stats;
}

static struct rdma_hw_stats *tlink_alloc_dev_stats(struct ib_device *dev)
{
	return rdma_alloc_hw_stats_struct(tlink_dev_descs,
					  ARRAY_SIZE(tlink_dev_descs),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int tlink_get_hw_stats(struct ib_device *dev,
			      struct rdma_hw_stats *stats, u32 port, int index)
{
	struct tdev *td = to_tdev(dev);
	struct rtnl_link_stats64 ns;

	if (!port) {
		stats->value[0] = atomic_read(&td->npds);
		return stats->num_counters;
	}
	dev_get_stats(td->params.ndev, &ns);
	stats->value[TLINK_RX_PACKETS] = ns.rx_packets;
	stats->value[TLINK_TX_PACKETS] = ns.tx_packets;
	stats->value[TLINK_RX_BYTES] = ns.rx_bytes;
	return stats->num_counters;
}

/* The "hardware" counts rx_bytes whether it is shown or not. */
static int tlink_modify_hw_stat(struct ib_device *dev, u32 port,
				unsigned int index, bool enable)
{
	return index == TLINK_RX_BYTES ? 0 : -EINVAL;
}

static const struct ib_device_ops tlink_stats_ops = {
	.alloc_hw_device_stats = tlink_alloc_dev_stats,
	.alloc_hw_port_stats = tlink_alloc_port_stats,
	.get_hw_stats = tlink_get_hw_stats,
	.modify_hw_stat = tlink_modify_hw_stat,
};

/* tdev's query_device, which every test device has; ours adds a flag. */
static int (*tlink_tdev_query_device)(struct ib_device *device,
				      struct ib_device_attr *attr,
				      struct ib_udata *udata);

static int tlink_query_device(struct ib_device *device,
			      struct ib_device_attr *attr,
			      struct ib_udata *udata)
{
	int ret = tlink_tdev_query_device(device, attr, udata);

	attr->kernel_cap_flags |= IBK_ALLOW_USER_UNREG;
	return ret;
}

static int tlink_newlink(const char *name, struct net_device *ndev)
{
	struct tdev_params p = {
		.name = name,
		.link_layer = IB_LINK_LAYER_ETHERNET,
		.ndev = ndev,
		.dealloc_driver = true,
		.driver_id = TLINK_DRIVER_ID,
	};
	struct ib_device *other;
	struct tdev *td;
	int ret;

	/* One device per net device, as for rxe. */
	other = ib_device_get_by_netdev(ndev, TLINK_DRIVER_ID);
	if (other) {
		ib_device_put(other);
		return -EEXIST;
	}
	td = tdev_create(&p);
	if (IS_ERR(td))
		return PTR_ERR(td);
	tlink_tdev_query_device = td->ibdev.ops.query_device;
	td->ibdev.ops.query_device = tlink_query_device;
	ib_set_device_ops(&td->ibdev, &tlink_stats_ops);
	ret = tdev_register(td);
	if (ret)
		ib_dealloc_device(&td->ibdev);
	return ret;
}

static struct rdma_link_ops tlink_ops = {
	.type = "tdev",
	.newlink = tlink_newlink,
};

/* A net device going away takes its test device with it. */
static int tlink_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *dev;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	dev = ib_device_get_by_netdev(ndev, TLINK_DRIVER_ID);
	if (dev) {
		ib_unregister_device_queued(dev);
		ib_device_put(dev);
	}
	return NOTIFY_DONE;
}

static struct notifier_block tlink_nb = {
	.notifier_call = tlink_netdev_event,
};

static int __init tlink_init(void)
{
	int ret = register_netdevice_notifier(&tlink_nb);

	if (ret)
		return ret;
	rdma_link_register(&tlink_ops);
	return 0;
}

static void __exit tlink_exit(void)
{
	rdma_link_unregister(&tlink_ops);
	unregister_netdevice_notifier(&tlink_nb);
	ib_unregister_driver(TLINK_DRIVER_ID);
}

module_init(tlink_init);
module_exit(tlink_exit);

MODULE_ALIAS_RDMA_LINK("tdev");
MODULE_DESCRIPTION("Link type \"tdev\": test devices with counters on net devices");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
