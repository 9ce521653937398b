/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware counters inside ib_core: what core/counters/device.c offers the
 * device model's sysfs code (core/device/sysfs.c) and the netlink
 * statistics commands (core/nl/stat.c).
 *
 *   hw_stats.c  rdma_alloc_hw_stats_struct(), rdma_free_hw_stats_struct()
 *   device.c    a device's counter sets, their reading and sysfs files
 *
 * Locking: each set's stats->lock, a leaf lock.  Declarations only (see
 * core/device/internal.h for why); non-static functions are named
 * counters_*.
 */
#ifndef OOT_CORE_COUNTERS_INTERNAL_H
#define OOT_CORE_COUNTERS_INTERNAL_H

#include <linux/types.h>

struct ib_device;
struct kobject;
struct rdma_hw_stats;

int counters_sysfs_prepare(struct ib_device *device);
int counters_port_sysfs_add(struct ib_device *device, u32 port,
			    struct kobject *kobj);
void counters_port_sysfs_del(struct ib_device *device, u32 port,
			     struct kobject *kobj);
void counters_free(struct ib_device *device);

struct rdma_hw_stats *counters_port_stats(struct ib_device *device, u32 port);
int counters_refresh(struct ib_device *device, struct rdma_hw_stats *stats,
		     u32 port, int index, bool force);
int counters_modify(struct ib_device *device, u32 port, unsigned int index,
		    bool enable);

#endif
