// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_addr: the KUnit suites of core/addr/ (address translation),
 * one file per source file they test, on a veth pair across two network
 * namespaces (topo.h).  KUnit runs them when the module loads.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit suites of the RDMA core's address translation");
MODULE_LICENSE("GPL");
