// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_rxe: the KUnit suites of hw/rxe/, one file per source file
 * they test (kunit/Kbuild lists them).  The files of hw/rxe/ that need no
 * device (the wire format, the ICRC, the rings, the counters) are built
 * into this module itself (lib.c), so the suites need no driver loaded.
 */
#include <linux/module.h>
#include "rdma_version.h"

MODULE_DESCRIPTION("KUnit suites of the soft RoCEv2 driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
