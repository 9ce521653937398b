/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Port files of clients, for the modules built on ib_core: the exports of
 * core/device/sysfs.c that the public headers do not declare (the target
 * declares them in a header private to its core; its ib_cm calls them).
 *
 * Declarations only: nothing here is reached by an exported prototype, so
 * including it changes no symbol version.
 */
#ifndef OOT_INCLUDE_CORE_SYSFS_H
#define OOT_INCLUDE_CORE_SYSFS_H

#include <linux/types.h>

struct attribute_group;
struct ib_device;

int ib_port_register_client_groups(struct ib_device *ibdev, u32 port_num,
				   const struct attribute_group **groups);
void ib_port_unregister_client_groups(struct ib_device *ibdev, u32 port_num,
				      const struct attribute_group **groups);

#endif
