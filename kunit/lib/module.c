// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: the helpers the KUnit suite modules share, so that no
 * object is linked into more than one module.  tk.h: test devices, files
 * and threads for the device-model suites; vk.h: the verbs fixture and
 * traffic; rw_env.h: the R/W loopback environment.  It runs nothing of its
 * own; the suite modules load it.
 */
#include <linux/module.h>
#include "rdma_version.h"

MODULE_DESCRIPTION("Helpers of the RDMA core's KUnit suites");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
