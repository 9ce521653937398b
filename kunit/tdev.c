// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
MODULE_LICENSE("GPL");
