// SPDX-License-Identifier: GPL-2.0
/*
 * ib_uverbs: RDMA from userspace.
 *
 * For now the module holds what RDMA drivers need to register user memory
 * (umem/); it has no state of its own, so nothing to set up at load.  The
 * /dev/infiniband/uverbsN character devices will start here.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("RDMA from userspace: user memory regions (ib_umem)");
MODULE_LICENSE("GPL");
