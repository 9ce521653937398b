// SPDX-License-Identifier: GPL-2.0
/*
 * What the core remembers of a port besides its GIDs (cache.c): its state,
 * LMC and subnet prefix, and its P_Key table, for readers that may not
 * call the driver (any context, e.g. under a spinlock in a ULP's or a
 * driver's data path).
 *
 * The values are taken from the driver when the device registers and after
 * every port event (cache.c queues them): the P_Key table is read slot by
 * slot into a new ib_pkey_cache, which replaces the old one at once.  A
 * port whose driver has no query_pkey, or whose table is empty (iWARP),
 * has no table: lookups in it fail.
 *
 * Locking: device->cache_lock (rwlock) protects port_data[].cache's
 * fields; readers take it for read in any context, writers disable
 * interrupts.  Updates run in process context (they call the driver) and
 * only while the device is registered, or during its registration.
 */
#include "abi/ib_core/cache.h"
#include "device/internal.h"

/* Its members are fixed by the target's symbol versions (abi.rst). */
struct ib_pkey_cache {
	int             table_len;
	u16             table[];
};

/* A P_Key's partition: the P_Key without its membership bit. */
#define PKEY_PARTITION(pkey)	((pkey) & 0x7fff)
#define PKEY_FULL_MEMBER	0x8000

/* The port's table read from the driver, or NULL if it has none. */
static struct ib_pkey_cache *pkey_cache_read(struct ib_device *device,
					     u32 port)
{
	int len = device->port_data[port].immutable.pkey_tbl_len;
	struct ib_pkey_cache *pc;
	int i;

	if (!device->ops.query_pkey || len <= 0)
		return NULL;
	pc = kmalloc(struct_size(pc, table, len), GFP_KERNEL);
	if (!pc)
		return NULL;
	pc->table_len = len;
	for (i = 0; i < len; i++) {
		if (device->ops.query_pkey(device, port, i, &pc->table[i])) {
			dev_warn(&device->dev, "port %u: P_Key %d unreadable\n",
				 port, i);
			kfree(pc);
			return NULL;
		}
	}
	return pc;
}

/**
 * ibdev_port_cache_update - take a port's state, LMC, subnet prefix and
 *	P_Key table from the driver
 * @device: the device, registered or registering
 * @port: a valid port
 *
 * Process context.  What cannot be read keeps its previous value.
 */
void ibdev_port_cache_update(struct ib_device *device, u32 port)
{
	struct ib_port_cache *cache = &device->port_data[port].cache;
	struct ib_pkey_cache *pc = pkey_cache_read(device, port);
	struct ib_port_attr attr;
	unsigned long flags;
	bool have_attr = !ibdev_port_query(device, port, &attr);

	write_lock_irqsave(&device->cache_lock, flags);
	if (have_attr) {
		cache->port_state = attr.state;
		cache->lmc = attr.lmc;
		if (attr.subnet_prefix)
			cache->subnet_prefix = attr.subnet_prefix;
	}
	if (pc)
		swap(cache->pkey, pc);
	write_unlock_irqrestore(&device->cache_lock, flags);
	kfree(pc);
}

/**
 * ibdev_port_cache_cleanup - free the ports' P_Key tables
 * @device: the device, no longer registered
 */
void ibdev_port_cache_cleanup(struct ib_device *device)
{
	struct ib_pkey_cache *pc;
	unsigned long flags;
	u32 port;

	rdma_for_each_port(device, port) {
		write_lock_irqsave(&device->cache_lock, flags);
		pc = device->port_data[port].cache.pkey;
		device->port_data[port].cache.pkey = NULL;
		write_unlock_irqrestore(&device->cache_lock, flags);
		kfree(pc);
	}
}

/* The port's cache, or NULL for an invalid port; cache_lock held. */
static struct ib_port_cache *port_cache(struct ib_device *device, u32 port)
{
	if (!rdma_is_port_valid(device, port) || !device->port_data)
		return NULL;
	return &device->port_data[port].cache;
}

/**
 * ib_get_cached_pkey - read a slot of a port's P_Key table
 * @device_handle: the device
 * @port_num: the port
 * @index: the slot
 * @pkey: the P_Key
 *
 * Any context.
 *
 * Return: 0, or -EINVAL for an invalid port or slot or a port without a
 * table.
 */
int ib_get_cached_pkey(struct ib_device *device_handle, u32 port_num,
		       int index, u16 *pkey)
{
	struct ib_port_cache *cache;
	unsigned long flags;
	int ret = -EINVAL;

	read_lock_irqsave(&device_handle->cache_lock, flags);
	cache = port_cache(device_handle, port_num);
	if (cache && cache->pkey && index >= 0 &&
	    index < cache->pkey->table_len) {
		*pkey = cache->pkey->table[index];
		ret = 0;
	}
	read_unlock_irqrestore(&device_handle->cache_lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_get_cached_pkey);

/*
 * The slot of @pkey's partition in @port's table: with @exact, the slot
 * holding exactly @pkey; otherwise the first full-member slot if there is
 * one, else the last limited-member slot (as the target answers).
 */
static int pkey_find(struct ib_device *device, u32 port, u16 pkey, bool exact,
		     u16 *index)
{
	struct ib_port_cache *cache;
	unsigned long flags;
	int i, ret = -EINVAL;
	int limited = -1;

	read_lock_irqsave(&device->cache_lock, flags);
	cache = port_cache(device, port);
	if (!cache || !cache->pkey)
		goto out;
	ret = -ENOENT;
	for (i = 0; i < cache->pkey->table_len; i++) {
		u16 entry = cache->pkey->table[i];

		if (exact ? entry != pkey :
			    PKEY_PARTITION(entry) != PKEY_PARTITION(pkey))
			continue;
		if (exact || (entry & PKEY_FULL_MEMBER)) {
			*index = i;
			ret = 0;
			goto out;
		}
		limited = i;
	}
	if (limited >= 0) {
		*index = limited;
		ret = 0;
	}
out:
	read_unlock_irqrestore(&device->cache_lock, flags);
	return ret;
}

/**
 * ib_find_cached_pkey - the slot of a partition in a port's P_Key table
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key; its membership bit is ignored
 * @index: the slot: the first with full membership if the table has one,
 *	else the last with limited membership
 *
 * Any context.
 *
 * Return: 0; -ENOENT if the partition is not in the table; -EINVAL for an
 * invalid port or a port without a table.
 */
int ib_find_cached_pkey(struct ib_device *device, u32 port_num, u16 pkey,
			u16 *index)
{
	return pkey_find(device, port_num, pkey, false, index);
}
EXPORT_SYMBOL(ib_find_cached_pkey);

/**
 * ib_find_exact_cached_pkey - the slot of a P_Key in a port's P_Key table
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key, membership bit included
 * @index: the first slot holding exactly @pkey
 *
 * Any context.
 *
 * Return: 0; -ENOENT if no slot holds @pkey; -EINVAL for an invalid port
 * or a port without a table.
 */
int ib_find_exact_cached_pkey(struct ib_device *device, u32 port_num,
			      u16 pkey, u16 *index)
{
	return pkey_find(device, port_num, pkey, true, index);
}
EXPORT_SYMBOL(ib_find_exact_cached_pkey);

/* A copy of the port's state, LMC and prefix; -EINVAL for a bad port. */
static int port_cache_copy(struct ib_device *device, u32 port,
			   struct ib_port_cache *copy)
{
	struct ib_port_cache *cache;
	unsigned long flags;
	int ret = -EINVAL;

	read_lock_irqsave(&device->cache_lock, flags);
	cache = port_cache(device, port);
	if (cache) {
		*copy = *cache;
		ret = 0;
	}
	read_unlock_irqrestore(&device->cache_lock, flags);
	return ret;
}

/**
 * ib_get_cached_lmc - a port's LID mask control, as last reported
 * @device: the device
 * @port_num: the port
 * @lmc: the LMC
 *
 * Any context.
 *
 * Return: 0, or -EINVAL for an invalid port.
 */
int ib_get_cached_lmc(struct ib_device *device, u32 port_num, u8 *lmc)
{
	struct ib_port_cache c;
	int ret = port_cache_copy(device, port_num, &c);

	if (!ret)
		*lmc = c.lmc;
	return ret;
}
EXPORT_SYMBOL(ib_get_cached_lmc);

/**
 * ib_get_cached_port_state - a port's state, as last reported
 * @device: the device
 * @port_num: the port
 * @port_active: the state
 *
 * Any context.
 *
 * Return: 0, or -EINVAL for an invalid port.
 */
int ib_get_cached_port_state(struct ib_device *device, u32 port_num,
			     enum ib_port_state *port_active)
{
	struct ib_port_cache c;
	int ret = port_cache_copy(device, port_num, &c);

	if (!ret)
		*port_active = c.port_state;
	return ret;
}
EXPORT_SYMBOL(ib_get_cached_port_state);

/**
 * ib_get_cached_subnet_prefix - a port's subnet prefix, as last reported
 * @device: the device
 * @port_num: the port; for an invalid one @sn_pfx is left alone
 * @sn_pfx: the prefix (the default fe80::/64 until the port reports one)
 *
 * Any context.  It returns nothing, as in the target.
 */
void ib_get_cached_subnet_prefix(struct ib_device *device, u32 port_num,
				 u64 *sn_pfx)
{
	struct ib_port_cache c;

	if (!port_cache_copy(device, port_num, &c))
		*sn_pfx = c.subnet_prefix;
}
EXPORT_SYMBOL(ib_get_cached_subnet_prefix);
