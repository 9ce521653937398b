// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_rxe: the module, its link type ("rdma link add NAME type rxe
 * netdev DEV") and the netdev notifier that ties each device to its
 * netdev.  Documentation/rxe.rst.
 */
#include <linux/module.h>
#include <rdma/rdma_netlink.h>
#include "dev.h"
#include "net.h"
#include "rdma_version.h"

static int sr_newlink(const char *name, struct net_device *ndev)
{
	return sr_dev_add(name, ndev);
}

static struct rdma_link_ops sr_link_ops = {
	.type = "rxe",
	.newlink = sr_newlink,
};

static int sr_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	if (!ibdev)
		return NOTIFY_DONE;
	sr_dev_netdev_event(to_sr_dev(ibdev), event);
	ib_device_put(ibdev);
	return NOTIFY_OK;
}

static struct notifier_block sr_netdev_nb = {
	.notifier_call = sr_netdev_event,
};

static int __init sr_init(void)
{
	int ret;

	ret = sr_net_register();
	if (ret)
		return ret;
	ret = register_netdevice_notifier(&sr_netdev_nb);
	if (ret) {
		sr_net_unregister();
		return ret;
	}
	rdma_link_register(&sr_link_ops);
	return 0;
}

static void __exit sr_exit(void)
{
	rdma_link_unregister(&sr_link_ops);
	ib_unregister_driver(RDMA_DRIVER_RXE);
	unregister_netdevice_notifier(&sr_netdev_nb);
	sr_net_unregister();
}

module_init(sr_init);
module_exit(sr_exit);

MODULE_DESCRIPTION("Soft RoCEv2 driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
MODULE_ALIAS_RDMA_LINK("rxe");
