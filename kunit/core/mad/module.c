// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_mad: the KUnit suites of core/mad/, one file per source file
 * they test (kunit/Kbuild lists them), with their helpers (menv.c).
 * KUnit runs them when the module loads.
 */
#include <linux/module.h>
#include "rdma_version.h"

MODULE_DESCRIPTION("KUnit suites of the RDMA core's MAD layer");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
