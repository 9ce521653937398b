// SPDX-License-Identifier: GPL-2.0
/*
 * The standard objects' part of the core method tree: every standard
 * object file chains its definitions here (uverbs/internal.h, "Method
 * tree").  The framework's own definitions are in uverbs_def_engine[].
 */
#include "internal.h"

const struct uapi_definition uverbs_def_objects[] = {
	{}
};
