// SPDX-License-Identifier: GPL-2.0
#include "tdev.h"
const struct ib_device_ops tdev_verbs_ops = { };
