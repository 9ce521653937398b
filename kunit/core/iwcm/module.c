// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_iwcm: the KUnit suites of iw_cm (core/iwcm/), against a
 * test-double iWARP device of their own (iwd.h).  KUnit runs them when
 * the module loads.
 */
#include <linux/module.h>
#include "rdma_version.h"

MODULE_DESCRIPTION("KUnit suites of the iWARP connection manager");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
