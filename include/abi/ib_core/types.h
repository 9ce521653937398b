/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private types whose layout is part of the ABI.
 *
 * <rdma/ib_verbs.h> only declares these, but the target kernel's exporting
 * files define them, and genksyms folds every visible definition into the
 * CRC of each export that reaches it (struct ib_device points to
 * rdma_restrack_root; struct ib_client's callbacks take ib_client_nl_info).
 * Their members are therefore fixed by the target's symbol versions: see
 * Documentation/abi.rst.  Included only by the profiles in this folder.
 */
#ifndef OOT_ABI_IB_CORE_TYPES_H
#define OOT_ABI_IB_CORE_TYPES_H

#include <linux/types.h>
#include <linux/xarray.h>

struct sk_buff;
struct device;

/**
 * struct rdma_restrack_root - the objects of one resource type on a device
 * @xa: object ids to objects, allocated cyclically from @next_id
 * @next_id: the next id to hand out
 */
struct rdma_restrack_root {
	struct xarray xa;
	u32 next_id;
};

/**
 * struct ib_client_nl_info - what a client reports over rdma netlink
 * @nl_msg: the message being built
 * @cdev: the client's character device, if it has one
 * @port: the port the query is for
 * @abi: the client's userspace ABI version
 */
struct ib_client_nl_info {
	struct sk_buff *nl_msg;
	struct device *cdev;
	u32 port;
	u64 abi;
};

#endif
