// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_cm: the KUnit suites of core/cm/ (ib_cm), between two test
 * devices that exchange MADs over InfiniBand and over RoCE (cenv.h).
 * KUnit runs them when the module loads.
 */
#include <linux/module.h>
#include "rdma_version.h"

MODULE_DESCRIPTION("KUnit suites of the InfiniBand connection manager");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
