// SPDX-License-Identifier: GPL-2.0
/*
 * ib_uverbs: RDMA from userspace.
 *
 * The module entry: the /dev/infiniband/uverbsN devices come and go with
 * the RDMA devices (core/device.c); ib_umem (umem/) has no state.
 */
#include <linux/module.h>
#include "internal.h"
#include "rdma_version.h"

static int __init uverbs_init(void)
{
	return uverbs_devices_init();
}

static void __exit uverbs_exit(void)
{
	uverbs_devices_exit();
}

module_init(uverbs_init);
module_exit(uverbs_exit);

MODULE_DESCRIPTION("RDMA from userspace: /dev/infiniband/uverbsN and user memory");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
