// SPDX-License-Identifier: GPL-2.0
/*
 * ib_core module entry: brings up the core's subsystems in order (work
 * queues, the device class, RDMA netlink, the CQ pool's client, RoCE GID
 * management, address resolution, the MAD layer, the SA client and its
 * multicast groups) and tears them down in reverse.
 */
#include "abi/ib_core/device.h"
#include "addr/internal.h"
#include "device/internal.h"
#include "datapath/internal.h"
#include "netdev/internal.h"
#include "nl/internal.h"
#include "mad/client.h"
#include "sa/client.h"
#include "rdma_version.h"

/* Shared work queues; created at load, destroyed at unload, no lock. */
struct workqueue_struct *ib_wq;
EXPORT_SYMBOL_GPL(ib_wq);
struct workqueue_struct *ib_comp_wq;
struct workqueue_struct *ib_comp_unbound_wq;
/* Runs ib_unregister_device_queued() requests. */
struct workqueue_struct *ib_unreg_wq;
/* Ordered: port events update the caches and reach handlers in order. */
struct workqueue_struct *ib_event_wq;

static void ib_core_destroy_wqs(void)
{
	if (ib_event_wq)
		destroy_workqueue(ib_event_wq);
	if (ib_unreg_wq)
		destroy_workqueue(ib_unreg_wq);
	if (ib_comp_unbound_wq)
		destroy_workqueue(ib_comp_unbound_wq);
	if (ib_comp_wq)
		destroy_workqueue(ib_comp_wq);
	if (ib_wq)
		destroy_workqueue(ib_wq);
}

static int ib_core_create_wqs(void)
{
	ib_wq = alloc_workqueue("infiniband", 0, 0);
	ib_comp_wq = alloc_workqueue("ib-comp-wq",
				     WQ_HIGHPRI | WQ_MEM_RECLAIM | WQ_SYSFS, 0);
	ib_comp_unbound_wq = alloc_workqueue("ib-comp-unb-wq",
					     WQ_UNBOUND | WQ_HIGHPRI |
					     WQ_MEM_RECLAIM | WQ_SYSFS,
					     WQ_UNBOUND_MAX_ACTIVE);
	ib_unreg_wq = alloc_workqueue("ib-unreg-wq", WQ_UNBOUND,
				      WQ_UNBOUND_MAX_ACTIVE);
	ib_event_wq = alloc_ordered_workqueue("ib-event-wq", WQ_MEM_RECLAIM);
	if (ib_wq && ib_comp_wq && ib_comp_unbound_wq && ib_unreg_wq &&
	    ib_event_wq)
		return 0;
	ib_core_destroy_wqs();
	return -ENOMEM;
}

static int __init ib_core_init(void)
{
	int ret;

	ret = ib_core_create_wqs();
	if (ret)
		return ret;
	ret = ibdev_class_register();
	if (ret)
		goto err_wqs;
	/* RDMA netlink: a socket in every namespace, then nldev on it. */
	netlink_init();
	ret = netns_init();
	if (ret)
		goto err_class;
	nldev_init();
	/* The first client, so that it is the last removed from a device. */
	ret = cq_pool_client_register();
	if (ret)
		goto err_nl;
	ret = roce_gids_init();
	if (ret)
		goto err_pool;
	ret = resolve_init();
	if (ret)
		goto err_gids;
	/* Before any ULP's client: QP0 and QP1 exist when their add() runs */
	ret = port_client_register();
	if (ret)
		goto err_resolve;
	/* The SA client's agents on QP1, then multicast groups over it */
	ret = sa_port_init();
	if (ret)
		goto err_mad;
	ret = sa_mcast_init();
	if (ret)
		goto err_sa;
	return 0;

err_sa:
	sa_port_exit();
err_mad:
	port_client_unregister();
err_resolve:
	resolve_exit();
err_gids:
	roce_gids_exit();
err_pool:
	cq_pool_client_unregister();
err_nl:
	nldev_exit();
	netns_exit();
err_class:
	ibdev_class_unregister();
err_wqs:
	ib_core_destroy_wqs();
	return ret;
}

static void __exit ib_core_exit(void)
{
	sa_mcast_exit();
	sa_port_exit();
	port_client_unregister();
	resolve_exit();
	roce_gids_exit();
	cq_pool_client_unregister();
	nldev_exit();
	netns_exit();
	ibdev_class_unregister();
	ib_core_destroy_wqs();
}

module_init(ib_core_init);
module_exit(ib_core_exit);

MODULE_DESCRIPTION("RDMA core: device model and kernel verbs");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
