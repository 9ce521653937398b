// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_cm's module entry: its work queue, the port spaces of every network
 * namespace, the ib_client that gives each RDMA device with a connection
 * manager a struct cma_device (and takes it away, telling the IDs on it),
 * the netdev notifier behind RDMA_CM_EVENT_ADDR_CHANGE, and (neigh.c)
 * the netevent notifier of RoCE routes.
 *
 * cma_mutex protects cma_devices, every cma_device's ID list,
 * cma_listeners (the wildcard listeners, which listen on every device, on
 * devices added later too) and the port spaces' contents.
 */
#include "abi/rdma_cm/cma.h"
#include <linux/netdevice.h>
#include <net/bonding.h>
#include "core/gid.h"
#include "internal.h"
#include "rdma_version.h"

MODULE_AUTHOR("The clean-room RDMA project");
MODULE_DESCRIPTION("RDMA connection manager");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(RDMA_VERSION_STRING);

DEFINE_MUTEX(cma_mutex);
LIST_HEAD(cma_devices);
LIST_HEAD(cma_listeners);
struct workqueue_struct *cma_wq;

/* The four port spaces, in the order of their xarrays */
static const enum rdma_ucm_port_space cma_spaces[] = {
	RDMA_PS_TCP, RDMA_PS_UDP, RDMA_PS_IPOIB, RDMA_PS_IB,
};

/**
 * struct cma_pernet - rdma_cm's state in one network namespace
 * @ps: per port space (cma_spaces[]), port number to struct cma_port;
 *	changed under cma_mutex
 */
struct cma_pernet {
	struct xarray ps[ARRAY_SIZE(cma_spaces)];
};

static unsigned int cma_pernet_id;

/**
 * cma_main_ps_xa - the port numbers of a port space in a namespace
 * @net: the namespace
 * @ps: the port space
 *
 * Return: the xarray of struct cma_port by number, or NULL for a port
 * space rdma_cm does not know.
 */
struct xarray *cma_main_ps_xa(struct net *net, enum rdma_ucm_port_space ps)
{
	struct cma_pernet *pn = net_generic(net, cma_pernet_id);
	int i;

	for (i = 0; i < ARRAY_SIZE(cma_spaces); i++)
		if (cma_spaces[i] == ps)
			return &pn->ps[i];
	return NULL;
}

static int __net_init cma_net_init(struct net *net)
{
	struct cma_pernet *pn = net_generic(net, cma_pernet_id);
	int i;

	for (i = 0; i < ARRAY_SIZE(pn->ps); i++)
		xa_init(&pn->ps[i]);
	return 0;
}

static void __net_exit cma_net_exit(struct net *net)
{
	struct cma_pernet *pn = net_generic(net, cma_pernet_id);
	int i;

	/* IDs hold their namespace: none is bound here any more */
	for (i = 0; i < ARRAY_SIZE(pn->ps); i++)
		xa_destroy(&pn->ps[i]);
}

static struct pernet_operations cma_pernet_ops = {
	.init = cma_net_init,
	.exit = cma_net_exit,
	.id = &cma_pernet_id,
	.size = sizeof(struct cma_pernet),
};

static void cma_dev_put(struct cma_device *cdev)
{
	if (refcount_dec_and_test(&cdev->refs))
		complete(&cdev->unused);
}

/**
 * cma_main_attach - attach an ID to a device
 * @priv: the ID, not attached yet
 * @cdev: the device
 *
 * The ID takes a reference on the device; cma_main_track() then shows it
 * in resource tracking.  Caller holds cma_mutex.
 */
void cma_main_attach(struct cma_id *priv, struct cma_device *cdev)
{
	lockdep_assert_held(&cma_mutex);
	refcount_inc(&cdev->refs);
	priv->cdev = cdev;
	priv->id.device = cdev->device;
	priv->gid_type = cma_main_gid_type(cdev, priv->id.port_num ?
					   priv->id.port_num :
					   rdma_start_port(cdev->device));
	list_add_tail(&priv->dev_link, &cdev->ids);
}

/**
 * cma_main_track - show an ID attached to its device in resource tracking
 * @priv: the ID, once what attached it succeeded
 */
void cma_main_track(struct cma_id *priv)
{
	rdma_restrack_add(&priv->rt.res);
}

/**
 * cma_main_detach - detach an ID from its device, if it has one
 * @priv: the ID
 */
void cma_main_detach(struct cma_id *priv)
{
	struct cma_device *cdev;

	mutex_lock(&cma_mutex);
	cdev = priv->cdev;
	if (cdev)
		list_del_init(&priv->dev_link);
	priv->cdev = NULL;
	mutex_unlock(&cma_mutex);
	if (cdev)
		cma_dev_put(cdev);
}

/**
 * cma_main_find_device - the cma_device of an ib_device
 * @device: the device
 *
 * Caller holds cma_mutex.  Return: the cma_device, or NULL.
 */
struct cma_device *cma_main_find_device(struct ib_device *device)
{
	struct cma_device *cdev;

	lockdep_assert_held(&cma_mutex);
	list_for_each_entry(cdev, &cma_devices, link)
		if (cdev->device == device)
			return cdev;
	return NULL;
}

/**
 * cma_main_gid_type - the GID type IDs use on a port
 * @cdev: the device
 * @port: the port number
 */
enum ib_gid_type cma_main_gid_type(struct cma_device *cdev, u32 port)
{
	return cdev->gid_type[port - rdma_start_port(cdev->device)];
}

/**
 * cma_main_roce_tos - the ToS of IDs that set none, on a port
 * @cdev: the device
 * @port: the port number
 */
u8 cma_main_roce_tos(struct cma_device *cdev, u32 port)
{
	return cdev->roce_tos[port - rdma_start_port(cdev->device)];
}

static bool cma_device_has_cm(struct ib_device *device)
{
	u32 port;

	rdma_for_each_port(device, port)
		if (rdma_cap_ib_cm(device, port) || rdma_cap_iw_cm(device, port))
			return true;
	return false;
}

/* RoCE ports prefer RoCE v2 GIDs where the port has them */
static enum ib_gid_type cma_default_gid_type(struct ib_device *device,
					     u32 port)
{
	unsigned long types;

	if (!rdma_protocol_roce(device, port))
		return IB_GID_TYPE_IB;
	types = roce_gid_type_mask_support(device, port);
	if (types & BIT(IB_GID_TYPE_ROCE_UDP_ENCAP))
		return IB_GID_TYPE_ROCE_UDP_ENCAP;
	return types ? __ffs(types) : IB_GID_TYPE_ROCE;
}

static struct cma_device *cma_device_alloc(struct ib_device *device)
{
	struct cma_device *cdev;
	u32 port;

	cdev = kzalloc(sizeof(*cdev), GFP_KERNEL);
	if (!cdev)
		return NULL;
	cdev->gid_type = kcalloc(device->phys_port_cnt,
				 sizeof(*cdev->gid_type), GFP_KERNEL);
	cdev->roce_tos = kcalloc(device->phys_port_cnt,
				 sizeof(*cdev->roce_tos), GFP_KERNEL);
	if (!cdev->gid_type || !cdev->roce_tos) {
		kfree(cdev->gid_type);
		kfree(cdev->roce_tos);
		kfree(cdev);
		return NULL;
	}
	cdev->device = device;
	INIT_LIST_HEAD(&cdev->ids);
	refcount_set(&cdev->refs, 1);
	init_completion(&cdev->unused);
	rdma_for_each_port(device, port)
		cdev->gid_type[port - rdma_start_port(device)] =
			cma_default_gid_type(device, port);
	return cdev;
}

static void cma_device_free(struct cma_device *cdev)
{
	kfree(cdev->gid_type);
	kfree(cdev->roce_tos);
	kfree(cdev);
}

static struct ib_client cma_client;

static int cma_add_one(struct ib_device *device)
{
	struct cma_device *cdev;
	struct cma_id *listener;
	int ret = 0;

	if (!cma_device_has_cm(device))
		return -EOPNOTSUPP;
	cdev = cma_device_alloc(device);
	if (!cdev)
		return -ENOMEM;

	mutex_lock(&cma_mutex);
	list_add_tail(&cdev->link, &cma_devices);
	list_for_each_entry(listener, &cma_listeners, listen_link) {
		ret = cma_listen_on_device(listener, cdev);
		if (ret)
			break;
	}
	mutex_unlock(&cma_mutex);
	if (ret) {
		/* the client's remove() is not called for a failed add() */
		mutex_lock(&cma_mutex);
		list_del(&cdev->link);
		mutex_unlock(&cma_mutex);
		cma_main_device_drain(cdev);
		cma_device_free(cdev);
		return ret;
	}
	ib_set_client_data(device, &cma_client, cdev);
	return 0;
}

/*
 * Tells one ID that its device goes, and gives back the reference the
 * caller took.  An internal listener still on its parent's list is
 * destroyed (else its parent is destroying it); a ULP's ID gets
 * DEVICE_REMOVAL (and is destroyed if its handler says so), and must then
 * be destroyed by the ULP: the device waits for it.
 */
static void cma_remove_id(struct cma_id *priv)
{
	struct rdma_cm_event event = {
		.event = RDMA_CM_EVENT_DEVICE_REMOVAL,
	};
	bool owned;

	if (priv->internal) {
		mutex_lock(&cma_mutex);
		owned = !list_empty(&priv->listen_link);
		list_del_init(&priv->listen_link);
		mutex_unlock(&cma_mutex);
		cma_put(priv);
		if (owned)
			cma_destroy_internal(priv);
		return;
	}
	mutex_lock(&priv->handler_mutex);
	if (cma_state(priv) == CMA_DESTROYING) {
		mutex_unlock(&priv->handler_mutex);
		cma_put(priv);
		return;
	}
	cma_set_state(priv, CMA_DEVICE_REMOVAL);
	cma_deliver_unlock_put(priv, &event);
}

/**
 * cma_main_device_drain - tell every ID of a device it goes, wait for them
 * @cdev: the device, off cma_devices
 */
void cma_main_device_drain(struct cma_device *cdev)
{
	struct cma_id *priv;

	mutex_lock(&cma_mutex);
	while (!list_empty(&cdev->ids)) {
		priv = list_first_entry(&cdev->ids, struct cma_id, dev_link);
		/* off the list, so that this loop ends; detach is then a no-op */
		list_del_init(&priv->dev_link);
		/* an ID at its last reference is being freed: leave it be */
		if (!cma_tryget(priv))
			continue;
		mutex_unlock(&cma_mutex);

		cma_remove_id(priv);

		mutex_lock(&cma_mutex);
	}
	mutex_unlock(&cma_mutex);

	cma_dev_put(cdev);
	wait_for_completion(&cdev->unused);
}

static void cma_remove_one(struct ib_device *device, void *client_data)
{
	struct cma_device *cdev = client_data;

	mutex_lock(&cma_mutex);
	list_del(&cdev->link);
	mutex_unlock(&cma_mutex);
	cma_main_device_drain(cdev);
	cma_device_free(cdev);
}

static struct ib_client cma_client = {
	.name = "cma",
	.add = cma_add_one,
	.remove = cma_remove_one,
};

/*
 * ADDR_CHANGE: a bonding master failed over to a slave with another
 * hardware address.  Each ID bound to that netdev whose hardware address
 * is no longer the netdev's learns it from a work item.
 */
struct cma_addr_change {
	struct work_struct work;
	struct cma_id *priv;
};

static void cma_addr_change_work(struct work_struct *work)
{
	struct cma_addr_change *ac =
		container_of(work, struct cma_addr_change, work);
	struct cma_id *priv = ac->priv;
	struct rdma_cm_event event = {
		.event = RDMA_CM_EVENT_ADDR_CHANGE,
	};

	enum cma_state state;

	kfree(ac);
	mutex_lock(&priv->handler_mutex);
	state = cma_state(priv);
	if (state != CMA_DESTROYING && state != CMA_DEVICE_REMOVAL) {
		cma_deliver_unlock_put(priv, &event);
	} else {
		mutex_unlock(&priv->handler_mutex);
		cma_put(priv);
	}
}

static void cma_netdev_changed(struct net_device *ndev, struct cma_id *priv)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct cma_addr_change *ac;

	lockdep_assert_held(&cma_mutex);
	if (dev_addr->bound_dev_if != ndev->ifindex ||
	    dev_net(ndev) != dev_addr->net || priv->internal ||
	    !memcmp(dev_addr->src_dev_addr, ndev->dev_addr, ndev->addr_len))
		return;
	ac = kzalloc(sizeof(*ac), GFP_KERNEL);
	if (!ac)
		return;
	memcpy(dev_addr->src_dev_addr, ndev->dev_addr, ndev->addr_len);
	INIT_WORK(&ac->work, cma_addr_change_work);
	ac->priv = priv;
	if (!cma_tryget(priv)) {
		kfree(ac);
		return;
	}
	queue_work(cma_wq, &ac->work);
}

static int cma_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct cma_device *cdev;
	struct cma_id *priv;

	if (event != NETDEV_BONDING_FAILOVER ||
	    !netif_is_bond_master(ndev))
		return NOTIFY_DONE;

	mutex_lock(&cma_mutex);
	list_for_each_entry(cdev, &cma_devices, link)
		list_for_each_entry(priv, &cdev->ids, dev_link)
			cma_netdev_changed(ndev, priv);
	mutex_unlock(&cma_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block cma_netdev_nb = {
	.notifier_call = cma_netdev_event,
};

static int __init cma_init(void)
{
	int ret;

	cma_wq = alloc_ordered_workqueue("rdma_cm", WQ_MEM_RECLAIM);
	if (!cma_wq)
		return -ENOMEM;
	ret = register_pernet_subsys(&cma_pernet_ops);
	if (ret)
		goto err_wq;
	ret = register_netdevice_notifier(&cma_netdev_nb);
	if (ret)
		goto err_pernet;
	ret = cma_neigh_init();
	if (ret)
		goto err_netdev;
	cma_route_init();
	ret = ib_register_client(&cma_client);
	if (ret)
		goto err_sa;
	return 0;

err_sa:
	cma_route_exit();
	cma_neigh_exit();
err_netdev:
	unregister_netdevice_notifier(&cma_netdev_nb);
err_pernet:
	unregister_pernet_subsys(&cma_pernet_ops);
err_wq:
	destroy_workqueue(cma_wq);
	return ret;
}

static void __exit cma_exit(void)
{
	ib_unregister_client(&cma_client);
	cma_route_exit();
	cma_neigh_exit();
	unregister_netdevice_notifier(&cma_netdev_nb);
	unregister_pernet_subsys(&cma_pernet_ops);
	destroy_workqueue(cma_wq);
}

module_init(cma_init);
module_exit(cma_exit);
