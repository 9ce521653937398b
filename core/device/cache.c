// SPDX-License-Identifier: GPL-2.0
/*
 * The GID tables of a device's ports and the events that change them.
 *
 * Each port has a table (port_data[port].cache.gid) of immutable.gid_tbl_len
 * slots, built when the device registers and freed when it unregisters.
 * A slot holds a reference-counted entry whose ib_gid_attr is what
 * rdma_get_gid_attr() hands out; an entry outlives its slot while users
 * hold it, and holds its netdev and a reference on the ib_device's kobject.
 *
 * Where the GIDs come from: a driver with query_gid is asked for each slot;
 * otherwise the core makes the default GID, from the node GUID on an
 * InfiniBand port, or the link-local address of the port's netdev on a RoCE
 * port (one entry per RoCE version the port supports), telling a driver
 * with add_gid about it.
 *
 * The port's other cached attributes are port_cache.c's.
 *
 * Locking: device->cache_lock (rwlock) protects the slots (and what
 * port_cache.c keeps); readers may be in any context, writers disable
 * interrupts.  ibdev_gid_mutex serialises rebuilds of tables
 * (they call the driver, which may sleep).
 */
#include "abi/ib_core/cache.h"
#include "device/internal.h"

/* Serialises rebuilds and teardown of GID tables (they call the driver). */
static DEFINE_MUTEX(ibdev_gid_mutex);

/* One GID; @attr is what users hold.  @context belongs to the driver. */
struct ibdev_gid_entry {
	struct kref kref;
	struct ib_gid_attr attr;
	void *context;
	bool driver_added;	/* the driver's add_gid accepted it */
};

struct ib_gid_table {
	u32 size;
	struct ibdev_gid_entry *slot[];
};

static const u64 ibdev_default_prefix = 0xfe80000000000000ULL;

static struct ib_gid_table *ibdev_gid_table(struct ib_device *device,
					    u32 port)
{
	return device->port_data[port].cache.gid;
}

static void ibdev_gid_entry_release(struct kref *kref)
{
	struct ibdev_gid_entry *entry =
		container_of(kref, struct ibdev_gid_entry, kref);

	/* Retirement released the netdev of an entry that was in a table. */
	dev_put(rcu_dereference_protected(entry->attr.ndev, 1));
	put_device(&entry->attr.device->dev);
	kfree(entry);
}

static struct ibdev_gid_entry *
ibdev_gid_entry_new(struct ib_device *device, u32 port, u16 index,
		    const union ib_gid *gid, enum ib_gid_type type,
		    struct net_device *ndev)
{
	struct ibdev_gid_entry *entry = kzalloc(sizeof(*entry), GFP_KERNEL);

	if (!entry)
		return NULL;
	kref_init(&entry->kref);
	entry->attr.device = device;
	entry->attr.port_num = port;
	entry->attr.index = index;
	entry->attr.gid = *gid;
	entry->attr.gid_type = type;
	get_device(&device->dev);
	dev_hold(ndev);
	RCU_INIT_POINTER(entry->attr.ndev, ndev);
	return entry;
}

/*
 * Take entries out of service once they have left their slots: the driver
 * forgets them, their netdevs are released as soon as RCU readers are done
 * (so that a netdev can unregister while a QP or AH still holds a GID of
 * it), and the table's references are dropped; users may still hold them.
 * Sleeps.
 */
static void ibdev_gid_entries_retire(struct ibdev_gid_entry **entries, u32 n)
{
	struct net_device *ndev;
	bool any_ndev = false;
	u32 i;

	for (i = 0; i < n; i++) {
		struct ibdev_gid_entry *entry = entries[i];
		struct ib_device *device;

		if (!entry)
			continue;
		device = entry->attr.device;
		if (entry->driver_added && device->ops.del_gid)
			device->ops.del_gid(&entry->attr, &entry->context);
		any_ndev |= !!rcu_access_pointer(entry->attr.ndev);
	}
	if (any_ndev)
		synchronize_rcu();
	for (i = 0; i < n; i++) {
		if (!entries[i])
			continue;
		ndev = rcu_replace_pointer(entries[i]->attr.ndev, NULL, true);
		dev_put(ndev);
		kref_put(&entries[i]->kref, ibdev_gid_entry_release);
	}
}

/* The GID type of a driver-reported GID on a RoCE port. */
static enum ib_gid_type ibdev_roce_type(struct ib_device *device, u32 port)
{
	if (rdma_protocol_roce_udp_encap(device, port) &&
	    !rdma_protocol_roce_eth_encap(device, port))
		return IB_GID_TYPE_ROCE_UDP_ENCAP;
	return rdma_protocol_roce(device, port) ? IB_GID_TYPE_ROCE :
						  IB_GID_TYPE_IB;
}

/* Ask the driver for every slot: @slots is filled, empty GIDs stay NULL. */
static int ibdev_gids_from_driver(struct ib_device *device, u32 port,
				  struct ibdev_gid_entry **slots, u32 size)
{
	enum ib_gid_type type = ibdev_roce_type(device, port);
	struct net_device *ndev = ibdev_port_netdev_get(device, port);
	union ib_gid gid;
	int ret = 0;
	u32 i;

	for (i = 0; i < size && !ret; i++) {
		if (device->ops.query_gid(device, port, i, &gid))
			continue;
		if (!memchr_inv(&gid, 0, sizeof(gid)))
			continue;
		slots[i] = ibdev_gid_entry_new(device, port, i, &gid, type,
					       ndev);
		if (!slots[i])
			ret = -ENOMEM;
	}
	dev_put(ndev);
	return ret;
}

/*
 * The GIDs of a port whose driver does not report them, at registration:
 * an InfiniBand port's default GID (from the node GUID).  A RoCE port's
 * GIDs come from its netdev and are kept by core/netdev/roce_gids.c.
 */
static int ibdev_gids_default(struct ib_device *device, u32 port,
			      struct ibdev_gid_entry **slots, u32 size)
{
	union ib_gid gid;

	if (!size || !rdma_protocol_ib(device, port))
		return 0;
	gid.global.subnet_prefix = cpu_to_be64(ibdev_default_prefix);
	gid.global.interface_id = device->node_guid;
	slots[0] = ibdev_gid_entry_new(device, port, 0, &gid, IB_GID_TYPE_IB,
				       NULL);
	return slots[0] ? 0 : -ENOMEM;
}

/* Put a freshly built table in place and retire the old entries. */
static void ibdev_gid_table_swap(struct ib_device *device, u32 port,
				 struct ibdev_gid_entry **slots)
{
	struct ib_gid_table *table = ibdev_gid_table(device, port);
	struct ib_port_cache *cache = &device->port_data[port].cache;
	unsigned long flags;
	u32 i;

	write_lock_irqsave(&device->cache_lock, flags);
	for (i = 0; i < table->size; i++)
		swap(table->slot[i], slots[i]);
	if (table->size && table->slot[0] && rdma_protocol_ib(device, port))
		cache->subnet_prefix =
			be64_to_cpu(table->slot[0]->attr.gid.global.subnet_prefix);
	write_unlock_irqrestore(&device->cache_lock, flags);
	ibdev_gid_entries_retire(slots, table->size);
}

/* Rebuild the GID table of @port.  Caller holds ibdev_gid_mutex. */
static int ibdev_gid_table_fill(struct ib_device *device, u32 port)
{
	struct ib_gid_table *table = ibdev_gid_table(device, port);
	struct ibdev_gid_entry **slots;
	int ret;

	lockdep_assert_held(&ibdev_gid_mutex);
	slots = kcalloc(table->size, sizeof(*slots), GFP_KERNEL);
	if (!slots && table->size)
		return -ENOMEM;
	if (device->ops.query_gid)
		ret = ibdev_gids_from_driver(device, port, slots, table->size);
	else
		ret = ibdev_gids_default(device, port, slots, table->size);
	if (!ret)
		ibdev_gid_table_swap(device, port, slots);
	else
		ibdev_gid_entries_retire(slots, table->size);
	kfree(slots);
	return ret;
}

/* The first free slot at or after @first, or -ENOSPC. */
static int ibdev_gid_free_slot(struct ib_device *device,
			       struct ib_gid_table *table, u32 first)
{
	int found = -ENOSPC;
	u32 i;

	read_lock_irq(&device->cache_lock);
	for (i = first; i < table->size; i++) {
		if (!table->slot[i]) {
			found = i;
			break;
		}
	}
	read_unlock_irq(&device->cache_lock);
	return found;
}

/**
 * ibdev_cache_gid_add - put a GID in a port's table
 * @device: a registered device whose driver does not report GIDs
 * @port: a valid port
 * @gid: the GID
 * @type: its type
 * @ndev: the netdev it belongs to (held by the entry), or NULL
 * @first: the lowest slot to use
 *
 * The driver's add_gid, if it has one, is told; an entry it refuses is
 * not added.  Sleeps.
 *
 * Return: the slot, -ENOSPC when no slot from @first is free, -ENODEV
 * when the table is gone, -ENOMEM, or the driver's error.
 */
int ibdev_cache_gid_add(struct ib_device *device, u32 port,
			const union ib_gid *gid, enum ib_gid_type type,
			struct net_device *ndev, u32 first)
{
	struct ibdev_gid_entry *entry;
	struct ib_gid_table *table;
	int index, ret;

	mutex_lock(&ibdev_gid_mutex);
	table = ibdev_gid_table(device, port);
	index = table ? ibdev_gid_free_slot(device, table, first) : -ENODEV;
	if (index < 0) {
		ret = index;
		goto out;
	}
	ret = -ENOMEM;
	entry = ibdev_gid_entry_new(device, port, index, gid, type, ndev);
	if (!entry)
		goto out;
	if (device->ops.add_gid) {
		ret = device->ops.add_gid(&entry->attr, &entry->context);
		if (ret) {
			ibdev_gid_entries_retire(&entry, 1);
			goto out;
		}
		entry->driver_added = true;
	}
	write_lock_irq(&device->cache_lock);
	table->slot[index] = entry;
	write_unlock_irq(&device->cache_lock);
	ret = index;
out:
	mutex_unlock(&ibdev_gid_mutex);
	return ret;
}

/**
 * ibdev_cache_gid_del - take a GID out of a port's table
 * @attr: a held entry of the table
 *
 * Does nothing if the entry has left its slot already.  Sleeps.
 */
void ibdev_cache_gid_del(const struct ib_gid_attr *attr)
{
	struct ibdev_gid_entry *entry =
		container_of(attr, struct ibdev_gid_entry, attr);
	struct ib_device *device = attr->device;
	struct ib_gid_table *table;
	bool in_slot = false;

	mutex_lock(&ibdev_gid_mutex);
	write_lock_irq(&device->cache_lock);
	table = ibdev_gid_table(device, attr->port_num);
	if (table && attr->index < table->size &&
	    table->slot[attr->index] == entry) {
		table->slot[attr->index] = NULL;
		in_slot = true;
	}
	write_unlock_irq(&device->cache_lock);
	if (in_slot)
		ibdev_gid_entries_retire(&entry, 1);
	mutex_unlock(&ibdev_gid_mutex);
}

/**
 * ibdev_cache_port_reload - rebuild a port's GID table
 * @device: a registered device
 * @port: a valid port
 *
 * After the netdev of a RoCE port changed, or the driver's GIDs did.
 */
void ibdev_cache_port_reload(struct ib_device *device, u32 port)
{
	int ret;

	mutex_lock(&ibdev_gid_mutex);
	if (ibdev_gid_table(device, port)) {
		ret = ibdev_gid_table_fill(device, port);
		if (ret)
			dev_warn(&device->dev, "port %u: GID table not rebuilt: %d\n",
				 port, ret);
	}
	mutex_unlock(&ibdev_gid_mutex);
}

int ibdev_cache_setup(struct ib_device *device)
{
	struct ib_gid_table *table;
	u32 port, size;
	int ret = 0;

	mutex_lock(&ibdev_gid_mutex);
	rdma_for_each_port(device, port) {
		size = device->port_data[port].immutable.gid_tbl_len;
		table = kzalloc(struct_size(table, slot, size), GFP_KERNEL);
		if (!table) {
			ret = -ENOMEM;
			break;
		}
		table->size = size;
		device->port_data[port].cache.subnet_prefix =
			ibdev_default_prefix;
		device->port_data[port].cache.gid = table;
		ret = ibdev_gid_table_fill(device, port);
		if (ret)
			break;
	}
	mutex_unlock(&ibdev_gid_mutex);
	if (ret) {
		ibdev_cache_cleanup(device);
		return ret;
	}
	/* Outside the mutex: query_port may take the RTNL (RoCE speed). */
	rdma_for_each_port(device, port)
		ibdev_port_cache_update(device, port);
	return 0;
}

void ibdev_cache_cleanup(struct ib_device *device)
{
	struct ib_gid_table *table;
	unsigned long flags;
	u32 port;

	mutex_lock(&ibdev_gid_mutex);
	rdma_for_each_port(device, port) {
		table = ibdev_gid_table(device, port);
		if (!table)
			continue;
		write_lock_irqsave(&device->cache_lock, flags);
		device->port_data[port].cache.gid = NULL;
		write_unlock_irqrestore(&device->cache_lock, flags);
		ibdev_gid_entries_retire(table->slot, table->size);
		kfree(table);
	}
	mutex_unlock(&ibdev_gid_mutex);
	ibdev_port_cache_cleanup(device);
}

/*
 * The entry in slot @index of @port, held, or an ERR_PTR: -EINVAL for an
 * invalid port or index, -ENODATA for an empty slot.
 */
static struct ibdev_gid_entry *ibdev_gid_get(struct ib_device *device,
					     u32 port, int index)
{
	struct ibdev_gid_entry *entry = ERR_PTR(-EINVAL);
	struct ib_gid_table *table;

	if (!rdma_is_port_valid(device, port) || !device->port_data)
		return entry;
	read_lock(&device->cache_lock);
	table = ibdev_gid_table(device, port);
	if (table && index >= 0 && index < table->size) {
		entry = table->slot[index];
		if (entry)
			kref_get(&entry->kref);
		else
			entry = ERR_PTR(-ENODATA);
	}
	read_unlock(&device->cache_lock);
	return entry;
}

/**
 * rdma_query_gid - read a GID table entry
 * @device: the device
 * @port_num: the port
 * @index: the slot
 * @gid: the GID
 *
 * Return: 0, or -EINVAL for an invalid port or index or an empty slot.
 */
int rdma_query_gid(struct ib_device *device, u32 port_num, int index,
		   union ib_gid *gid)
{
	struct ibdev_gid_entry *entry = ibdev_gid_get(device, port_num, index);

	if (IS_ERR(entry))
		return -EINVAL;
	*gid = entry->attr.gid;
	kref_put(&entry->kref, ibdev_gid_entry_release);
	return 0;
}
EXPORT_SYMBOL(rdma_query_gid);

/**
 * rdma_get_gid_attr - hold the attributes of a GID table entry
 * @device: the device
 * @port_num: the port
 * @index: the slot
 *
 * Return: the attributes, held until rdma_put_gid_attr(); ERR_PTR(-EINVAL)
 * for an invalid port or index, ERR_PTR(-ENODATA) for an empty slot.
 */
const struct ib_gid_attr *rdma_get_gid_attr(struct ib_device *device,
					    u32 port_num, int index)
{
	struct ibdev_gid_entry *entry = ibdev_gid_get(device, port_num, index);

	return IS_ERR(entry) ? ERR_CAST(entry) : &entry->attr;
}
EXPORT_SYMBOL(rdma_get_gid_attr);

/**
 * rdma_put_gid_attr - release GID attributes
 * @attr: from rdma_get_gid_attr(), rdma_find_gid_by_port() or held with
 *	rdma_hold_gid_attr()
 */
void rdma_put_gid_attr(const struct ib_gid_attr *attr)
{
	struct ibdev_gid_entry *entry =
		container_of(attr, struct ibdev_gid_entry, attr);

	kref_put(&entry->kref, ibdev_gid_entry_release);
}
EXPORT_SYMBOL(rdma_put_gid_attr);

/**
 * rdma_hold_gid_attr - take another reference on held GID attributes
 * @attr: attributes the caller holds
 */
void rdma_hold_gid_attr(const struct ib_gid_attr *attr)
{
	struct ibdev_gid_entry *entry =
		container_of(attr, struct ibdev_gid_entry, attr);

	kref_get(&entry->kref);
}
EXPORT_SYMBOL(rdma_hold_gid_attr);

/*
 * The entry of @gid of @gid_type (and @ndev, if not NULL) in @port's table,
 * held, or NULL.  Any context.
 */
static const struct ib_gid_attr *ibdev_gid_find(struct ib_device *ib_dev,
						u32 port,
						const union ib_gid *gid,
						enum ib_gid_type gid_type,
						struct net_device *ndev)
{
	const struct ib_gid_attr *found = NULL;
	struct ibdev_gid_entry *entry;
	struct ib_gid_table *table;
	u32 i;

	read_lock(&ib_dev->cache_lock);
	table = ibdev_gid_table(ib_dev, port);
	for (i = 0; table && i < table->size; i++) {
		entry = table->slot[i];
		if (!entry || entry->attr.gid_type != gid_type ||
		    memcmp(&entry->attr.gid, gid, sizeof(*gid)) ||
		    (ndev && rcu_access_pointer(entry->attr.ndev) != ndev))
			continue;
		kref_get(&entry->kref);
		found = &entry->attr;
		break;
	}
	read_unlock(&ib_dev->cache_lock);
	return found;
}

/**
 * rdma_find_gid_by_port - find a GID in a port's table
 * @ib_dev: the device
 * @gid: the GID
 * @gid_type: its type
 * @port: the port
 * @ndev: if not NULL, the entry's netdev must be this one
 *
 * Return: the matching entry's attributes, held (rdma_put_gid_attr());
 * ERR_PTR(-EINVAL) for an invalid port, ERR_PTR(-ENOENT) if none matches.
 */
const struct ib_gid_attr *rdma_find_gid_by_port(struct ib_device *ib_dev,
						const union ib_gid *gid,
						enum ib_gid_type gid_type,
						u32 port,
						struct net_device *ndev)
{
	const struct ib_gid_attr *found;

	if (!rdma_is_port_valid(ib_dev, port) || !ib_dev->port_data)
		return ERR_PTR(-EINVAL);
	found = ibdev_gid_find(ib_dev, port, gid, gid_type, ndev);
	return found ?: ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL(rdma_find_gid_by_port);

/**
 * rdma_find_gid - find a GID in any port's table
 * @device: the device
 * @gid: the GID
 * @gid_type: its type
 * @ndev: if not NULL, the entry's netdev must be this one
 *
 * Ports are searched in order; any context.
 *
 * Return: the first matching entry's attributes, held
 * (rdma_put_gid_attr()), or ERR_PTR(-ENOENT).
 */
const struct ib_gid_attr *rdma_find_gid(struct ib_device *device,
					const union ib_gid *gid,
					enum ib_gid_type gid_type,
					struct net_device *ndev)
{
	const struct ib_gid_attr *found = NULL;
	u32 port;

	if (!device->port_data)
		return ERR_PTR(-ENOENT);
	rdma_for_each_port(device, port) {
		found = ibdev_gid_find(device, port, gid, gid_type, ndev);
		if (found)
			break;
	}
	return found ?: ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL(rdma_find_gid);

/**
 * rdma_read_gid_l2_fields - the Ethernet fields of a RoCE GID's netdev
 * @attr: held GID attributes
 * @vlan_id: if not NULL, the VLAN id, or 0xffff when the netdev is no VLAN
 * @smac: if not NULL, the netdev's MAC address (ETH_ALEN bytes)
 *
 * Return: 0, or -ENODEV if the entry has no netdev.
 */
int rdma_read_gid_l2_fields(const struct ib_gid_attr *attr,
			    u16 *vlan_id, u8 *smac)
{
	struct net_device *ndev;
	int ret = -ENODEV;

	rcu_read_lock();
	ndev = rcu_dereference(attr->ndev);
	if (ndev) {
		if (vlan_id)
			*vlan_id = is_vlan_dev(ndev) ? vlan_dev_vlan_id(ndev) :
						       0xffff;
		if (smac)
			ether_addr_copy(smac, ndev->dev_addr);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL(rdma_read_gid_l2_fields);

/**
 * rdma_read_gid_attr_ndev_rcu - the netdev of a GID entry
 * @attr: held GID attributes
 *
 * For the caller's RCU read-side section: the netdev is only valid inside
 * it, and is not held.
 *
 * Return: the netdev; ERR_PTR(-EINVAL) if the entry has left its table
 * (its address went away), ERR_PTR(-ENODEV) if it has no netdev.
 */
struct net_device *rdma_read_gid_attr_ndev_rcu(const struct ib_gid_attr *attr)
{
	const struct ibdev_gid_entry *entry =
		container_of(attr, struct ibdev_gid_entry, attr);
	struct ib_device *device = attr->device;
	struct net_device *ndev = ERR_PTR(-EINVAL);
	struct ib_gid_table *table;
	unsigned long flags;

	read_lock_irqsave(&device->cache_lock, flags);
	table = ibdev_gid_table(device, attr->port_num);
	if (table && attr->index < table->size &&
	    table->slot[attr->index] == entry) {
		ndev = rcu_dereference(attr->ndev);
		if (!ndev)
			ndev = ERR_PTR(-ENODEV);
	}
	read_unlock_irqrestore(&device->cache_lock, flags);
	return ndev;
}
EXPORT_SYMBOL(rdma_read_gid_attr_ndev_rcu);

/**
 * rdma_read_gid_hw_context - the driver's context of a GID entry
 * @attr: held GID attributes
 *
 * Return: what the driver's add_gid stored for the entry (NULL if it
 * stored nothing or has no add_gid).
 */
void *rdma_read_gid_hw_context(const struct ib_gid_attr *attr)
{
	return container_of(attr, struct ibdev_gid_entry, attr)->context;
}
EXPORT_SYMBOL(rdma_read_gid_hw_context);

/* Fill @out from the entry in a table slot; cache_lock held by the caller. */
static void ibdev_gid_entry_export(struct ib_device *device,
				   const struct ibdev_gid_entry *entry,
				   struct ib_uverbs_gid_entry *out)
{
	struct net_device *ndev;

	lockdep_assert_held(&device->cache_lock);
	memcpy(out->gid, &entry->attr.gid, sizeof(out->gid));
	out->gid_index = entry->attr.index;
	out->port_num = entry->attr.port_num;
	out->gid_type = entry->attr.gid_type;
	rcu_read_lock();
	ndev = rcu_dereference(entry->attr.ndev);
	out->netdev_ifindex = ndev ? ndev->ifindex : 0;
	rcu_read_unlock();
}

/* Copy @port's valid entries to @out from @n on; -EINVAL when @max is hit. */
static ssize_t ibdev_gid_table_export(struct ib_device *device, u32 port,
				      struct ib_uverbs_gid_entry *out,
				      ssize_t n, size_t max)
{
	struct ib_gid_table *table;
	unsigned long flags;
	u32 i;

	read_lock_irqsave(&device->cache_lock, flags);
	table = ibdev_gid_table(device, port);
	for (i = 0; table && i < table->size; i++) {
		if (!table->slot[i])
			continue;
		if (n >= (ssize_t)max) {
			n = -EINVAL;
			break;
		}
		ibdev_gid_entry_export(device, table->slot[i], &out[n++]);
	}
	read_unlock_irqrestore(&device->cache_lock, flags);
	return n;
}

/**
 * rdma_query_gid_table - copy the valid GID entries of every port
 * @device: the device
 * @entries: room for @max_entries entries
 * @max_entries: how many fit
 *
 * Each valid entry gives its GID, index, port, type and the ifindex of its
 * netdev (0 if none), port by port in slot order.
 *
 * Return: the number of entries copied, or -EINVAL if there are more than
 * @max_entries.
 */
ssize_t rdma_query_gid_table(struct ib_device *device,
			     struct ib_uverbs_gid_entry *entries,
			     size_t max_entries)
{
	ssize_t n = 0;
	u32 port;

	rdma_for_each_port(device, port) {
		n = ibdev_gid_table_export(device, port, entries, n,
					   max_entries);
		if (n < 0)
			break;
	}
	return n;
}
EXPORT_SYMBOL(rdma_query_gid_table);

/* Events after which the core's view of a port must be brought up to date. */
static bool ibdev_event_is_port_change(enum ib_event_type type)
{
	switch (type) {
	case IB_EVENT_GID_CHANGE:
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
		return true;
	default:
		return false;
	}
}

/*
 * An event on its way to the handlers: it holds a kobject reference on the
 * device until the work has run.
 */
struct ibdev_queued_event {
	struct work_struct work;
	struct ib_event event;
};

/*
 * Bring the core's view of the port up to date after a port event: its
 * cached state and, when the driver reports GIDs, its GID table (asking
 * the driver, which may sleep or take the RTNL).  Only while the device is
 * registered; the registration reference keeps the cache from being torn
 * down meanwhile.
 */
static void ibdev_port_event_update(const struct ib_event *event)
{
	struct ib_device *device = event->device;
	u32 port = event->element.port_num;

	if (!rdma_is_port_valid(device, port) || !ib_device_try_get(device))
		return;
	if (event->event == IB_EVENT_GID_CHANGE && device->ops.query_gid)
		ibdev_cache_port_reload(device, port);
	ibdev_port_cache_update(device, port);
	ib_device_put(device);
}

static void ibdev_event_work(struct work_struct *work)
{
	struct ibdev_queued_event *qe =
		container_of(work, struct ibdev_queued_event, work);
	struct ib_device *device = qe->event.device;

	if (ibdev_event_is_port_change(qe->event.event))
		ibdev_port_event_update(&qe->event);
	ibdev_event_fanout(&qe->event);
	put_device(&device->dev);
	kfree(qe);
}

/**
 * ib_dispatch_event - report an asynchronous event to a device's handlers
 * @event: the event; its device and, for port events, port_num are set
 *
 * Any context: drivers call this from interrupt handlers and tasklets.
 * The event is queued, in order with the device's other events, on the
 * core's ordered event work queue.  There, port events (port active/error,
 * LID, P_Key and GID changes, client reregistration) first update the
 * core's view of the port (state, LMC, and the GID table for
 * IB_EVENT_GID_CHANGE when the driver reports GIDs); then the handlers are
 * called in registration order, in process context, and may sleep.  An
 * event that cannot be queued for lack of memory is logged and dropped.
 */
void ib_dispatch_event(const struct ib_event *event)
{
	struct ibdev_queued_event *qe;

	/* On failure the allocator has said so; the event is lost. */
	qe = kmalloc(sizeof(*qe), GFP_ATOMIC);
	if (!qe)
		return;
	qe->event = *event;
	INIT_WORK(&qe->work, ibdev_event_work);
	get_device(&event->device->dev);
	queue_work(ib_event_wq, &qe->work);
}
EXPORT_SYMBOL(ib_dispatch_event);
