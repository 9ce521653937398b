// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_device: the KUnit suites of core/device/ and core/netdev/, one
 * file per source file they test (kunit/Kbuild lists them).  KUnit runs
 * them when the module loads.
 */
#include <linux/module.h>
#include "rdma_version.h"

MODULE_DESCRIPTION("KUnit suites of the RDMA core's devices and netdevs");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
