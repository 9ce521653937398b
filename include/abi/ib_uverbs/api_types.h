/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_uverbs' private method-tree types whose layout is part of the ABI.
 *
 * struct ib_uverbs_device (types.h) points to the device's struct
 * uverbs_api, and struct uverbs_obj_attr of <rdma/uverbs_ioctl.h> to a
 * struct uverbs_api_attr; the target's files that export the ioctl
 * helpers, the object classes and ib_uverbs_get_ucontext_file() see the
 * definitions below, so genksyms folds their members into those CRCs
 * (Documentation/abi.rst).  The member lists and types are the target's;
 * uverbs/core/uapi.c is the code that gives them meaning.  Included by
 * the profiles of those files and by uverbs/internal.h, not by the
 * profile of umem.c, which sees these types only as declarations.
 */
#ifndef OOT_ABI_IB_UVERBS_API_TYPES_H
#define OOT_ABI_IB_UVERBS_API_TYPES_H

#include <linux/types.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

/**
 * struct uverbs_api_write_method - one write() command of a device
 * @handler: runs the command
 * @disabled: the device cannot run it
 * @is_ex: an extended command (IB_USER_VERBS_CMD_FLAG_EXTENDED framing)
 * @has_udata: driver data follows the core request and response
 * @has_resp: the request starts with the u64 response pointer
 * @req_size: bytes of the core request
 * @resp_size: bytes of the core response
 */
struct uverbs_api_write_method {
	int (*handler)(struct uverbs_attr_bundle *attrs);
	u8 disabled:1;
	u8 is_ex:1;
	u8 has_udata:1;
	u8 has_resp:1;
	u8 req_size;
	u8 resp_size;
};

/**
 * struct uverbs_api_attr - one attribute of an ioctl() method of a device
 * @spec: how it is checked, a copy of the definition's
 */
struct uverbs_api_attr {
	struct uverbs_attr_spec spec;
};

/**
 * struct uverbs_api - the method tree of one device
 * @radix: objects, ioctl() methods, their attributes and write()
 *	commands, keyed by the uapi_key_*() encoding of <rdma/uverbs_ioctl.h>
 * @driver_id: the driver's id, which an ioctl() header must carry
 * @num_write: entries of @write_methods
 * @num_write_ex: entries of @write_ex_methods
 * @notsupp_method: what an unknown command in range runs (-EOPNOTSUPP)
 * @write_methods: legacy write() commands by number
 * @write_ex_methods: extended write() commands by number
 */
struct uverbs_api {
	struct xarray radix;
	enum rdma_driver_id driver_id;
	unsigned int num_write;
	unsigned int num_write_ex;
	struct uverbs_api_write_method notsupp_method;
	const struct uverbs_api_write_method **write_methods;
	const struct uverbs_api_write_method **write_ex_methods;
};

#endif
