/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device model's internal interface: what the files of core/device/
 * offer each other and the rest of ib_core.
 *
 * Layers, bottom first; a file calls only into the layers below it:
 *
 *   index.c     every allocated device by index, names, registration marks
 *   event.c     event handler lists and their fan-out
 *   port.c      port data (owner): immutable attributes, netdev pointers,
 *               queries
 *   device.c    device objects, driver operations, registration references
 *   cache.c     GID tables, cached port state, ib_dispatch_event()
 *   sysfs.c     /sys/class/infiniband/<device>
 *   client.c    clients (ULPs) and their per-device data
 *   registry.c  registration and unregistration, which drive all of the
 *               above
 *
 * printk.c and dma.c are leaves; core/netdev/ sits above cache.c.
 *
 * Only declarations live here: a structure defined in this header would be
 * folded into the symbol CRC of every export of the files that include it
 * (Documentation/abi.rst).  Private structures stay in the one .c file that
 * owns them.  Non-static functions are named ibdev_<file>_*.
 *
 * Lock order (outermost first); no lock is held across a client's add or
 * remove callback, nor across an event handler, except where stated:
 *
 *   device->unregistration_lock   one unregistration (and client removal)
 *                                 of one device at a time; held across
 *                                 client remove callbacks
 *   ibdev_rwsem (index.c)         names and registration marks of devices
 *   ibclient_rwsem (client.c)     registration marks of clients
 *   device->client_data_rwsem     which clients are added to a device
 *   ibdev_gid_mutex (cache.c)     rebuilds of GID tables (calls driver)
 *   device->event_handler_rwsem   the device's event handlers (read held
 *                                 while handlers run)
 *   device->cache_lock            GID table slots, cached port state
 *   port_data[].netdev_lock       a port's netdev pointer
 *
 * Port events run on ib_event_wq (ordered), which takes no lock above
 * except through the cache update and the handlers; unregistration waits
 * for a running one through the registration reference it holds.
 *
 * Lifetime: device->refcount counts "registration references".  It is set
 * when the device goes live; the registration itself holds one, every
 * ib_device_get_by_*() and every client add in progress holds one.
 * Unregistration hides the device (no new client is added, no lookup by
 * name or index finds it), removes the clients while the device still
 * works, then drops the registration reference and waits for
 * device->unreg_completion.  Nobody may wait for the unregistration lock
 * while holding a registration reference.  Memory is held by device->dev's
 * kobject reference.
 */
#ifndef OOT_CORE_DEVICE_INTERNAL_H
#define OOT_CORE_DEVICE_INTERNAL_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct ib_client_nl_info;
struct ib_device;
struct ib_event;
struct ib_port_attr;
struct net_device;
struct workqueue_struct;

/* core/main.c: the core's work queues, alive while ib_core is loaded. */
extern struct workqueue_struct *ib_unreg_wq;
extern struct workqueue_struct *ib_event_wq;

/* index.c */
int ibdev_index_insert(struct ib_device *device);
void ibdev_index_remove(struct ib_device *device);
int ibdev_index_set_name(struct ib_device *device, const char *name);
void ibdev_index_drop_name(struct ib_device *device);
void ibdev_index_go_live(struct ib_device *device);
bool ibdev_index_hide(struct ib_device *device);
bool ibdev_index_is_live(struct ib_device *device);
bool ibdev_index_was_used(struct ib_device *device);
struct ib_device *ibdev_index_get_next_live(unsigned long *index);
struct ib_device *ibdev_index_get_next_any(unsigned long *index);
int ibdev_index_rename(struct ib_device *device, const char *name);

/* event.c */
void ibdev_event_fanout(const struct ib_event *event);

/* port.c */
enum rdma_link_layer ibdev_port_link_layer(struct ib_device *device, u32 port);
int ibdev_port_data_alloc(struct ib_device *device);
int ibdev_port_setup_all(struct ib_device *device);
void ibdev_port_free_all(struct ib_device *device);
int ibdev_port_query(struct ib_device *device, u32 port,
		     struct ib_port_attr *attr);
struct net_device *ibdev_port_netdev_get(struct ib_device *device, u32 port);
void ibdev_port_netdev_set(struct ib_device *device, u32 port,
			   struct net_device *ndev);
void ibdev_port_netdevs_release(struct ib_device *device);

/* device.c */
int ibdev_class_register(void);
void ibdev_class_unregister(void);

/* cache.c */
struct ib_gid_attr;
int ibdev_cache_setup(struct ib_device *device);
void ibdev_cache_cleanup(struct ib_device *device);
void ibdev_cache_port_reload(struct ib_device *device, u32 port);
/* Exported for ib_core's own modules; no public header declares it. */
void ib_get_cached_subnet_prefix(struct ib_device *device, u32 port_num,
				 u64 *sn_pfx);
void ibdev_port_cache_update(struct ib_device *device, u32 port);
void ibdev_port_cache_cleanup(struct ib_device *device);
int ibdev_cache_gid_add(struct ib_device *device, u32 port,
			const union ib_gid *gid, enum ib_gid_type type,
			struct net_device *ndev, u32 first);
void ibdev_cache_gid_del(const struct ib_gid_attr *attr);

/* sysfs.c */
int ibdev_sysfs_add(struct ib_device *device);
void ibdev_sysfs_del(struct ib_device *device);

/* cgroup.c */
void ibdev_cgroup_register(struct ib_device *device);
void ibdev_cgroup_unregister(struct ib_device *device);

/* client.c */
void ibdev_client_add_all(struct ib_device *device);
void ibdev_client_hide_barrier(struct ib_device *device);
void ibdev_client_remove_all(struct ib_device *device);
void ibdev_client_rename_all(struct ib_device *device);
int ibdev_client_nl_info(struct ib_device *device, const char *name,
			 struct ib_client_nl_info *info);

#endif
