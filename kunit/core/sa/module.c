// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_sa: the KUnit suites of core/sa/ (the SA client), against an
 * SA of their own on a test fabric (sar.h).  KUnit runs them when the
 * module loads.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit suites of the RDMA core's SA client");
MODULE_LICENSE("GPL");
