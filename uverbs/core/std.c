// SPDX-License-Identifier: GPL-2.0
/*
 * The default handler of destroy methods (DECLARE_UVERBS_NAMED_METHOD_DESTROY
 * in <rdma/uverbs_named_ioctl.h>): the framework destroys the object the
 * method's DESTROY attribute names before calling it (ioctl.c).
 */
#include "abi/ib_uverbs/uverbs_std_types.h"
#include "internal.h"

/**
 * uverbs_destroy_def_handler() - the handler of a plain destroy method
 * @attrs: the method's bundle; its object is destroyed already
 *
 * Return: 0.
 */
int uverbs_destroy_def_handler(struct uverbs_attr_bundle *attrs)
{
	return 0;
}
EXPORT_SYMBOL(uverbs_destroy_def_handler);
