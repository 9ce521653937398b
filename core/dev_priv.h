/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device model's internal interface, shared by the files of ib_core
 * that implement it.
 *
 * Only declarations live here: a structure defined in this header would be
 * folded into the symbol CRC of every export of the files that include it
 * (Documentation/abi.rst).  Private structures stay in the one .c file that
 * owns them.
 *
 * Lock order (outermost first); no lock is held across a client's add or
 * remove callback, nor across an event handler, except where stated:
 *
 *   device->unregistration_lock   one unregistration (and client removal)
 *                                 of one device at a time; held across
 *                                 client remove callbacks
 *   ibdev_rwsem (registry.c)      names and registration marks of devices
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
 * Unregistration hides the device, drops the registration reference and
 * waits for device->unreg_completion, so no client add can be running when
 * clients are removed.  Memory is held by device->dev's kobject reference.
 */
#ifndef OOT_CORE_DEV_PRIV_H
#define OOT_CORE_DEV_PRIV_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct ib_device;
struct ib_client;
struct ib_event;
struct ib_port_attr;
struct net_device;
struct workqueue_struct;
struct class;

/* main.c */
extern struct workqueue_struct *ib_unreg_wq;
extern struct workqueue_struct *ib_event_wq;

/* registry.c: every allocated device, by index */
int ibdev_registry_insert(struct ib_device *device);
void ibdev_registry_remove(struct ib_device *device);
bool ibdev_is_registered(struct ib_device *device);
struct ib_device *ibdev_get_next_live(unsigned long *index);
struct ib_device *ibdev_get_next_any(unsigned long *index);
void ibdev_unregister_work(struct work_struct *work);

/* device.c */
extern struct class ib_class;
int ibdev_class_register(void);
void ibdev_class_unregister(void);

/* client.c */
void ibdev_add_clients(struct ib_device *device);
void ibdev_remove_clients(struct ib_device *device);

/* event.c */
void ibdev_event_fanout(const struct ib_event *event);

/* port.c */
enum rdma_link_layer ibdev_link_layer(struct ib_device *device, u32 port);
int ibdev_port_data_alloc(struct ib_device *device);
int ibdev_ports_setup(struct ib_device *device);
void ibdev_ports_free(struct ib_device *device);
int ibdev_query_port(struct ib_device *device, u32 port,
		     struct ib_port_attr *attr);

/* netdev.c */
struct net_device *ibdev_port_netdev_get(struct ib_device *device, u32 port);
void ibdev_netdevs_release(struct ib_device *device);

/* cache.c */
int ibdev_cache_setup(struct ib_device *device);
void ibdev_cache_cleanup(struct ib_device *device);
void ibdev_cache_port_reload(struct ib_device *device, u32 port);

/* sysfs.c */
int ibdev_sysfs_add(struct ib_device *device);
void ibdev_sysfs_del(struct ib_device *device);

#endif
