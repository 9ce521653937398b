// SPDX-License-Identifier: GPL-2.0
/*
 * The container of a set of hardware counters, struct rdma_hw_stats, that
 * drivers allocate in their alloc_hw_device_stats and alloc_hw_port_stats
 * operations and the core frees when the device goes (counters/device.c).
 * The values, the timestamp of the last update and the lifespan are
 * protected by stats->lock.
 */
#include "abi/ib_core/verbs.h"

/**
 * rdma_alloc_hw_stats_struct() - allocate a set of hardware counters
 * @descs: the counters' names and flags, kept by the driver for as long
 *	as the set exists
 * @num_counters: how many entries @descs has
 * @lifespan: milliseconds a reading stays fresh before sysfs asks the
 *	driver again (RDMA_HW_STATS_DEFAULT_LIFESPAN is usual)
 *
 * The values start at zero and every counter enabled.
 *
 * Return: the set (free it with rdma_free_hw_stats_struct()), or NULL for
 * a negative @num_counters or when out of memory.
 */
struct rdma_hw_stats *rdma_alloc_hw_stats_struct(const struct rdma_stat_desc *descs,
						 int num_counters,
						 unsigned long lifespan)
{
	struct rdma_hw_stats *stats;

	if (num_counters < 0)
		return NULL;
	stats = kzalloc(struct_size(stats, value, num_counters), GFP_KERNEL);
	if (!stats)
		return NULL;
	stats->is_disabled = bitmap_zalloc(num_counters, GFP_KERNEL);
	if (!stats->is_disabled) {
		kfree(stats);
		return NULL;
	}
	mutex_init(&stats->lock);
	stats->descs = descs;
	stats->num_counters = num_counters;
	stats->lifespan = msecs_to_jiffies(lifespan);
	return stats;
}
EXPORT_SYMBOL(rdma_alloc_hw_stats_struct);

/**
 * rdma_free_hw_stats_struct() - free a set of hardware counters
 * @stats: the set, or NULL
 */
void rdma_free_hw_stats_struct(struct rdma_hw_stats *stats)
{
	if (!stats)
		return;
	mutex_destroy(&stats->lock);
	bitmap_free(stats->is_disabled);
	kfree(stats);
}
EXPORT_SYMBOL(rdma_free_hw_stats_struct);
