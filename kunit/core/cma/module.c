// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_cma: the KUnit suites of core/cma/ (rdma_cm): IDs and their
 * options, port spaces and binds, and connections between two RoCE test
 * devices on a veth pair through ib_cm (cenv.h).  KUnit runs them when
 * the module loads.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit suites of the RDMA connection manager");
MODULE_LICENSE("GPL");
