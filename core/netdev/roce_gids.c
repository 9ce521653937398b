// SPDX-License-Identifier: GPL-2.0
/*
 * RoCE GIDs: the GID table of a RoCE port whose driver leaves GIDs to the
 * core follows the port's net device.  It holds, per RoCE version the port
 * speaks (v1: RoCE, v2: RoCE over UDP):
 *
 *  - the default GID, the link-local address made from the netdev's MAC,
 *    in the first slots (slot i for the i-th version);
 *  - one GID per IP address (IPv4 ones mapped into IPv6) of the netdev, of
 *    its VLAN devices, and of the bond it is the active slave of (and that
 *    bond's VLANs), each with the netdev the address is on, in the other
 *    slots.
 *
 * A scan computes that set and makes the table match it: entries that are
 * no longer wanted leave (their netdevs are released at once, so that a
 * netdev can unregister while QPs still hold its GIDs), wanted ones that
 * are missing are added, and handlers get IB_EVENT_GID_CHANGE when
 * anything changed.
 *
 * When: a device gets its first scan when it registers (the roce_gids
 * client's add()); the netdevice, inetaddr and inet6addr notifiers (the
 * last in atomic context) queue one scan of every port (roce_gids_work) on
 * any event that can change the set; ib_device_set_netdev() and
 * rdma_roce_rescan_device() scan one device at once.  A scan holds a
 * registration reference on its device.
 */
#include "abi/ib_core/roce_gid_mgmt.h"
#include "core/gid.h"
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include "device/internal.h"
#include "netdev/internal.h"

/* Serialises scans: a port's table changes one scan at a time. */
static DEFINE_MUTEX(roce_gids_mutex);

static void roce_gids_scan_all(struct work_struct *work);
/* One scan of every port, queued by the notifiers. */
static DECLARE_WORK(roce_gids_work, roce_gids_scan_all);

/* One GID a port should have. */
struct roce_gid {
	union ib_gid gid;
	enum ib_gid_type type;
	struct net_device *ndev;	/* held while the scan runs */
	int slot;			/* the default's slot, else -1 */
	bool present;			/* the table has it already */
};

/* The wanted GIDs of one port, built by a scan. */
struct roce_gid_set {
	struct roce_gid *gids;
	u32 n, max;
	enum ib_gid_type types[2];	/* the port's RoCE versions */
	u32 ntypes;
};

static void roce_gid_from_mac(union ib_gid *gid, const u8 *mac)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0xfe;
	gid->raw[1] = 0x80;
	/* Modified EUI-64: the universal/local bit flipped, ff:fe inserted. */
	gid->raw[8] = mac[0] ^ 2;
	gid->raw[9] = mac[1];
	gid->raw[10] = mac[2];
	gid->raw[11] = 0xff;
	gid->raw[12] = 0xfe;
	gid->raw[13] = mac[3];
	gid->raw[14] = mac[4];
	gid->raw[15] = mac[5];
}

/* Add @gid of @ndev to @set in each RoCE version, once. */
static void roce_gid_set_add(struct roce_gid_set *set, const union ib_gid *gid,
			     struct net_device *ndev, bool is_default)
{
	struct roce_gid *g;
	u32 t, i;

	for (t = 0; t < set->ntypes; t++) {
		for (i = 0; i < set->n; i++) {
			g = &set->gids[i];
			if (g->type == set->types[t] && g->ndev == ndev &&
			    !memcmp(&g->gid, gid, sizeof(*gid)))
				break;
		}
		if (i < set->n || set->n == set->max)
			continue;
		g = &set->gids[set->n++];
		g->gid = *gid;
		g->type = set->types[t];
		g->ndev = ndev;
		dev_hold(ndev);
		g->slot = is_default ? t : -1;
		g->present = false;
	}
}

static void roce_gid_set_add_ipv4(struct roce_gid_set *set,
				  struct net_device *ndev)
{
	struct in_device *in_dev = __in_dev_get_rcu(ndev);
	const struct in_ifaddr *ifa;
	union ib_gid gid;

	if (!in_dev)
		return;
	in_dev_for_each_ifa_rcu(ifa, in_dev) {
		ipv6_addr_set_v4mapped(ifa->ifa_address,
				       (struct in6_addr *)gid.raw);
		roce_gid_set_add(set, &gid, ndev, false);
	}
}

static void roce_gid_set_add_ipv6(struct roce_gid_set *set,
				  struct net_device *ndev)
{
	struct inet6_dev *idev = __in6_dev_get(ndev);
	const struct inet6_ifaddr *ifp;

	if (!idev)
		return;
	read_lock_bh(&idev->lock);
	list_for_each_entry(ifp, &idev->addr_list, if_list)
		roce_gid_set_add(set, (const union ib_gid *)&ifp->addr, ndev,
				 false);
	read_unlock_bh(&idev->lock);
}

/* The addresses of @ndev and of the VLAN devices on it. */
static void roce_gid_set_add_netdev(struct roce_gid_set *set,
				    struct net_device *ndev)
{
	struct net_device *upper;
	struct list_head *iter;

	if (ndev->reg_state != NETREG_REGISTERED)
		return;
	roce_gid_set_add_ipv4(set, ndev);
	roce_gid_set_add_ipv6(set, ndev);
	netdev_for_each_upper_dev_rcu(ndev, upper, iter) {
		if (is_vlan_dev(upper) && vlan_dev_real_dev(upper) == ndev &&
		    upper->reg_state == NETREG_REGISTERED) {
			roce_gid_set_add_ipv4(set, upper);
			roce_gid_set_add_ipv6(set, upper);
		}
	}
}

/* The bond @ndev carries traffic for, if it is one's (active) slave. */
static struct net_device *roce_gid_bond_of(struct net_device *ndev)
{
	struct net_device *master;
	struct bonding *bond;

	if (!netif_is_bond_slave(ndev))
		return NULL;
	master = netdev_master_upper_dev_get_rcu(ndev);
	if (!master || !netif_is_bond_master(master))
		return NULL;
	bond = netdev_priv(master);
	if (BOND_MODE(bond) == BOND_MODE_ACTIVEBACKUP &&
	    rcu_dereference(bond->curr_active_slave) &&
	    rcu_dereference(bond->curr_active_slave)->dev != ndev)
		return NULL;
	return master;
}

/* Everything @ndev's port should have. */
static void roce_gid_set_fill(struct roce_gid_set *set,
			      struct net_device *ndev)
{
	struct net_device *bond;
	union ib_gid gid;

	if (ndev->reg_state != NETREG_REGISTERED)
		return;
	roce_gid_from_mac(&gid, ndev->dev_addr);
	roce_gid_set_add(set, &gid, ndev, true);
	rcu_read_lock();
	roce_gid_set_add_netdev(set, ndev);
	bond = roce_gid_bond_of(ndev);
	if (bond)
		roce_gid_set_add_netdev(set, bond);
	rcu_read_unlock();
}

static void roce_gid_set_release(struct roce_gid_set *set)
{
	u32 i;

	for (i = 0; i < set->n; i++)
		dev_put(set->gids[i].ndev);
	kfree(set->gids);
}

/* The wanted GID equal to @attr's entry, in its slot, or NULL. */
static struct roce_gid *roce_gid_set_find(struct roce_gid_set *set,
					  const struct ib_gid_attr *attr)
{
	struct roce_gid *g;
	u32 i;

	for (i = 0; i < set->n; i++) {
		g = &set->gids[i];
		if (g->type == attr->gid_type &&
		    g->ndev == rcu_access_pointer(attr->ndev) &&
		    !memcmp(&g->gid, &attr->gid, sizeof(g->gid)) &&
		    (g->slot < 0 || g->slot == attr->index))
			return g;
	}
	return NULL;
}

/* Take out what @set does not want; mark what it has.  Return changes. */
static u32 roce_gids_prune(struct ib_device *device, u32 port,
			   struct roce_gid_set *set)
{
	const struct ib_gid_attr *attr;
	struct roce_gid *g;
	u32 i, changes = 0;

	for (i = 0; i < set->max; i++) {
		attr = rdma_get_gid_attr(device, port, i);
		if (IS_ERR(attr))
			continue;
		g = roce_gid_set_find(set, attr);
		if (g && !g->present) {
			g->present = true;
		} else {
			ibdev_cache_gid_del(attr);
			changes++;
		}
		rdma_put_gid_attr(attr);
	}
	return changes;
}

/* Add what @set wants and the table lacks.  Return changes. */
static u32 roce_gids_fill(struct ib_device *device, u32 port,
			  struct roce_gid_set *set)
{
	struct roce_gid *g;
	u32 i, changes = 0;
	int ret;

	for (i = 0; i < set->n; i++) {
		g = &set->gids[i];
		if (g->present)
			continue;
		ret = ibdev_cache_gid_add(device, port, &g->gid, g->type,
					  g->ndev,
					  g->slot < 0 ? set->ntypes : g->slot);
		if (ret >= 0)
			changes++;
		else
			ibdev_warn_ratelimited(device,
					       "port %u: GID %pI6 not added: %d\n",
					       port, g->gid.raw, ret);
	}
	return changes;
}

/* Whether the core keeps @port's GIDs from its netdev. */
static bool roce_gids_managed(struct ib_device *device, u32 port)
{
	return rdma_protocol_roce(device, port) && !device->ops.query_gid;
}

/**
 * roce_gid_type_mask_support - the GID types a port's GIDs can have
 * @ib_dev: the device
 * @port: the port
 *
 * Return: a mask of BIT(enum ib_gid_type): a RoCE port's RoCE versions
 * (IB_GID_TYPE_ROCE for v1, IB_GID_TYPE_ROCE_UDP_ENCAP for v2), or
 * BIT(IB_GID_TYPE_IB) for any other port (and a port the device does not
 * have).
 */
unsigned long roce_gid_type_mask_support(struct ib_device *ib_dev, u32 port)
{
	unsigned long mask = 0;

	if (!rdma_is_port_valid(ib_dev, port) || !ib_dev->port_data ||
	    !rdma_protocol_roce(ib_dev, port))
		return BIT(IB_GID_TYPE_IB);
	if (rdma_protocol_roce_eth_encap(ib_dev, port))
		mask |= BIT(IB_GID_TYPE_ROCE);
	if (rdma_protocol_roce_udp_encap(ib_dev, port))
		mask |= BIT(IB_GID_TYPE_ROCE_UDP_ENCAP);
	return mask;
}
EXPORT_SYMBOL(roce_gid_type_mask_support);

static int roce_gid_set_init(struct roce_gid_set *set,
			     struct ib_device *device, u32 port)
{
	unsigned long mask = roce_gid_type_mask_support(device, port);
	unsigned int type;

	memset(set, 0, sizeof(*set));
	for_each_set_bit(type, &mask, BITS_PER_LONG)
		if (type != IB_GID_TYPE_IB)
			set->types[set->ntypes++] = type;
	set->max = device->port_data[port].immutable.gid_tbl_len;
	if (!set->max)
		return 0;
	set->gids = kcalloc(set->max, sizeof(*set->gids), GFP_KERNEL);
	return set->gids ? 0 : -ENOMEM;
}

/*
 * Make @port's table match its netdev.  The caller holds a registration
 * reference on @device.
 */
static void roce_gids_scan_port(struct ib_device *device, u32 port)
{
	struct roce_gid_set set;
	struct net_device *ndev;
	struct ib_event event;
	u32 changes;

	if (roce_gid_set_init(&set, device, port)) {
		ibdev_warn(device, "port %u: no memory to scan GIDs\n", port);
		return;
	}
	ndev = ibdev_port_netdev_get(device, port);
	if (ndev) {
		roce_gid_set_fill(&set, ndev);
		dev_put(ndev);
	}
	mutex_lock(&roce_gids_mutex);
	changes = roce_gids_prune(device, port, &set);
	changes += roce_gids_fill(device, port, &set);
	mutex_unlock(&roce_gids_mutex);
	roce_gid_set_release(&set);
	if (!changes)
		return;
	event.device = device;
	event.event = IB_EVENT_GID_CHANGE;
	event.element.port_num = port;
	ib_dispatch_event(&event);
}

/**
 * roce_gids_scan_device - bring every core-kept RoCE GID table of a device
 *	up to date with its netdevs
 * @device: a device the caller holds a registration reference on
 *
 * Sleeps.
 */
void roce_gids_scan_device(struct ib_device *device)
{
	u32 port;

	rdma_for_each_port(device, port)
		if (roce_gids_managed(device, port))
			roce_gids_scan_port(device, port);
}

/**
 * rdma_roce_rescan_device - rescan the GIDs of a device's RoCE ports
 * @ibdev: a registered device
 *
 * For drivers whose ports changed netdev or address state in a way the
 * core cannot see.  Sleeps.
 */
void rdma_roce_rescan_device(struct ib_device *ibdev)
{
	if (!ib_device_try_get(ibdev))
		return;
	roce_gids_scan_device(ibdev);
	ib_device_put(ibdev);
}
EXPORT_SYMBOL(rdma_roce_rescan_device);

static void roce_gids_scan_all(struct work_struct *work)
{
	struct ib_device *device;
	unsigned long index = 0;

	while ((device = ibdev_index_get_next_live(&index))) {
		roce_gids_scan_device(device);
		ib_device_put(device);
		index++;
	}
}

static int roce_gids_netdev_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);

	if (ndev->type != ARPHRD_ETHER)
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_REGISTER:
	case NETDEV_UP:
	case NETDEV_UNREGISTER:
	case NETDEV_CHANGEADDR:
	case NETDEV_CHANGEUPPER:
	case NETDEV_BONDING_FAILOVER:
		queue_work(ib_wq, &roce_gids_work);
		break;
	}
	return NOTIFY_DONE;
}

/* Address added or removed: IPv4 under the RTNL, IPv6 in atomic context. */
static int roce_gids_addr_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	if (event == NETDEV_UP || event == NETDEV_DOWN)
		queue_work(ib_wq, &roce_gids_work);
	return NOTIFY_DONE;
}

static struct notifier_block roce_gids_netdev_nb = {
	.notifier_call = roce_gids_netdev_event,
};

static struct notifier_block roce_gids_inet_nb = {
	.notifier_call = roce_gids_addr_event,
};

static struct notifier_block roce_gids_inet6_nb = {
	.notifier_call = roce_gids_addr_event,
};

/* A device's first scan, when it registers. */
static int roce_gids_add_one(struct ib_device *device)
{
	roce_gids_scan_device(device);
	return 0;
}

static struct ib_client roce_gids_client = {
	.name = "roce_gids",
	.no_kverbs_req = true,
	.add = roce_gids_add_one,
	/* No remove(): the GIDs go with the GID tables at unregistration. */
};

/**
 * roce_gids_init - start keeping RoCE GIDs: the client and the notifiers
 *
 * Return: 0, or the error of a registration (everything undone).
 */
int roce_gids_init(void)
{
	int ret;

	ret = ib_register_client(&roce_gids_client);
	if (ret)
		return ret;
	ret = register_inetaddr_notifier(&roce_gids_inet_nb);
	if (ret)
		goto err_client;
	ret = register_inet6addr_notifier(&roce_gids_inet6_nb);
	if (ret)
		goto err_inet;
	ret = register_netdevice_notifier(&roce_gids_netdev_nb);
	if (ret)
		goto err_inet6;
	return 0;

err_inet6:
	unregister_inet6addr_notifier(&roce_gids_inet6_nb);
err_inet:
	unregister_inetaddr_notifier(&roce_gids_inet_nb);
err_client:
	ib_unregister_client(&roce_gids_client);
	return ret;
}

/* Stop: no notifier, no scan queued or running, no client. */
void roce_gids_exit(void)
{
	unregister_netdevice_notifier(&roce_gids_netdev_nb);
	unregister_inet6addr_notifier(&roce_gids_inet6_nb);
	unregister_inetaddr_notifier(&roce_gids_inet_nb);
	cancel_work_sync(&roce_gids_work);
	ib_unregister_client(&roce_gids_client);
}
