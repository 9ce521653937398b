// SPDX-License-Identifier: GPL-2.0
/*
 * The standard objects' part of the core method tree: every standard
 * object file chains its definitions here (uverbs/internal.h, "Method
 * tree"; objects.h lists the files).  The framework's own definitions are
 * in uverbs_def_engine[].
 */
#include "objects.h"

const struct uapi_definition uverbs_def_objects[] = {
	UAPI_DEF_CHAIN(uverbs_def_obj_device),
	UAPI_DEF_CHAIN(uverbs_def_obj_port),
	UAPI_DEF_CHAIN(uverbs_def_obj_comp_channel),
	UAPI_DEF_CHAIN(uverbs_def_obj_pd),
	UAPI_DEF_CHAIN(uverbs_def_obj_mr),
	UAPI_DEF_CHAIN(uverbs_def_obj_mw),
	UAPI_DEF_CHAIN(uverbs_def_obj_ah),
	UAPI_DEF_CHAIN(uverbs_def_obj_cq),
	UAPI_DEF_CHAIN(uverbs_def_obj_cq_ops),
	UAPI_DEF_CHAIN(uverbs_def_obj_qp),
	UAPI_DEF_CHAIN(uverbs_def_obj_qp_create),
	UAPI_DEF_CHAIN(uverbs_def_obj_qp_modify),
	UAPI_DEF_CHAIN(uverbs_def_obj_post),
	UAPI_DEF_CHAIN(uverbs_def_obj_mcast),
	UAPI_DEF_CHAIN(uverbs_def_obj_srq),
	{}
};
