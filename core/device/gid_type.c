// SPDX-License-Identifier: GPL-2.0
/*
 * GID values and types by name: the zero GID, and the names of the GID
 * types that sysfs (gid_attrs/types/), rdma_cm's configfs and netlink
 * show and take.  InfiniBand and RoCE v1 GIDs share a name, as userspace
 * expects.
 *
 * Constant data; no lock.
 */
#include "abi/ib_core/cache.h"
#include "core/gid.h"
#include "device/internal.h"

/* The GID of all zeroes; never written. */
union ib_gid zgid;
EXPORT_SYMBOL(zgid);

static const char * const ibdev_gid_type_names[] = {
	[IB_GID_TYPE_IB] = "IB/RoCE v1",
	[IB_GID_TYPE_ROCE] = "IB/RoCE v1",
	[IB_GID_TYPE_ROCE_UDP_ENCAP] = "RoCE v2",
};

/**
 * rdma_is_zero_gid - whether a GID is all zeroes (an empty table slot)
 * @gid: the GID
 *
 * Return: true if every byte of @gid is 0.
 */
bool rdma_is_zero_gid(const union ib_gid *gid)
{
	return !memchr_inv(gid, 0, sizeof(*gid));
}
EXPORT_SYMBOL(rdma_is_zero_gid);

/**
 * ib_cache_gid_type_str - the name of a GID type
 * @gid_type: the type
 *
 * Return: "IB/RoCE v1", "RoCE v2", or "Invalid GID type" for a value that
 * is no GID type.
 */
const char *ib_cache_gid_type_str(enum ib_gid_type gid_type)
{
	if ((unsigned int)gid_type < ARRAY_SIZE(ibdev_gid_type_names))
		return ibdev_gid_type_names[gid_type];
	return "Invalid GID type";
}
EXPORT_SYMBOL(ib_cache_gid_type_str);

/**
 * ib_cache_gid_parse_type_str - the GID type of a name
 * @buf: the name, as ib_cache_gid_type_str() writes it, with or without
 *	one trailing newline (text written to a sysfs or configfs file)
 *
 * "IB/RoCE v1" is IB_GID_TYPE_IB, the first type of that name.
 *
 * Return: the type, or -EINVAL for any other text.
 */
int ib_cache_gid_parse_type_str(const char *buf)
{
	size_t len = strlen(buf);
	unsigned int i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(ibdev_gid_type_names); i++)
		if (strlen(ibdev_gid_type_names[i]) == len &&
		    !memcmp(buf, ibdev_gid_type_names[i], len))
			return i;
	return -EINVAL;
}
EXPORT_SYMBOL(ib_cache_gid_parse_type_str);
