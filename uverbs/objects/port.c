// SPDX-License-Identifier: GPL-2.0
/*
 * The device's ports and their GIDs, asked by a user context: write() and
 * ioctl() QUERY_PORT, ioctl() QUERY_GID_ENTRY and QUERY_GID_TABLE.  No
 * state, no lock: GID entries are held (rdma_get_gid_attr()) or copied
 * (rdma_query_gid_table()) under the GID cache's own locking.
 */
#include <rdma/ib_cache.h>
#include <rdma/opa_addr.h>
#include "objects.h"

/*
 * The capability mask as userspace reads it: the PortInfo CapabilityMask,
 * except that bit 26 says whether the port's GIDs come from IP addresses.
 */
static u32 port_cap_flags_to_user(const struct ib_port_attr *attr)
{
	u32 flags = attr->port_cap_flags & ~(u32)IB_UVERBS_PCF_IP_BASED_GIDS;

	return attr->ip_gids ? flags | IB_UVERBS_PCF_IP_BASED_GIDS : flags;
}

/* A LID in the 16 bits of the ABI (OPA's extended LIDs cut down). */
static u16 port_lid_to_user(struct ib_device *dev, u32 port, u32 lid)
{
	return rdma_cap_opa_ah(dev, port) ? OPA_TO_IB_UCAST_LID(lid) :
					    ib_lid_cpu16(lid);
}

static void port_attr_to_user(struct ib_device *dev, u32 port,
			      const struct ib_port_attr *a,
			      struct ib_uverbs_query_port_resp *r)
{
	*r = (struct ib_uverbs_query_port_resp) {
		.port_cap_flags = port_cap_flags_to_user(a),
		.max_msg_sz = a->max_msg_sz,
		.bad_pkey_cntr = a->bad_pkey_cntr,
		.qkey_viol_cntr = a->qkey_viol_cntr,
		.gid_tbl_len = a->gid_tbl_len,
		.pkey_tbl_len = a->pkey_tbl_len,
		.lid = port_lid_to_user(dev, port, a->lid),
		.sm_lid = port_lid_to_user(dev, port, a->sm_lid),
		.state = a->state,
		.max_mtu = a->max_mtu,
		.active_mtu = a->active_mtu,
		.lmc = a->lmc,
		.max_vl_num = a->max_vl_num,
		.sm_sl = a->sm_sl,
		.subnet_timeout = a->subnet_timeout,
		.init_type_reply = a->init_type_reply,
		.active_width = a->active_width,
		/* The ABI has no speed above NDR. */
		.active_speed = min_t(u16, a->active_speed, IB_SPEED_NDR),
		.phys_state = a->phys_state,
		.link_layer = rdma_port_get_link_layer(dev, port),
		.flags = rdma_is_grh_required(dev, port) ?
			 IB_UVERBS_QPF_GRH_REQUIRED : 0,
	};
}

static int port_query(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	struct ib_uverbs_query_port_resp resp;
	struct ib_uverbs_query_port cmd;
	struct ib_port_attr attr;
	int ret;

	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = ib_query_port(ucontext->device, cmd.port_num, &attr);
	if (ret)
		return ret;

	port_attr_to_user(ucontext->device, cmd.port_num, &attr, &resp);
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_PORT)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	struct ib_uverbs_query_port_resp_ex resp = {};
	struct ib_port_attr attr;
	u8 port;
	int ret;

	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	if (!ucontext->device->ops.query_port)
		return -EOPNOTSUPP;
	ret = uverbs_get_const(&port, attrs, UVERBS_ATTR_QUERY_PORT_PORT_NUM);
	if (ret)
		return ret;
	ret = ib_query_port(ucontext->device, port, &attr);
	if (ret)
		return ret;

	port_attr_to_user(ucontext->device, port, &attr, &resp.legacy_resp);
	resp.port_cap_flags2 = attr.port_cap_flags2;
	return uverbs_copy_to_struct_or_zero(attrs, UVERBS_ATTR_QUERY_PORT_RESP,
					     &resp, sizeof(resp));
}

/* One GID entry as the ioctl ABI has it; -EINVAL if it left its table. */
static int port_gid_to_user(const struct ib_gid_attr *gid_attr,
			    struct ib_uverbs_gid_entry *entry)
{
	struct net_device *ndev;
	int ret = 0;

	memcpy(entry->gid, gid_attr->gid.raw, sizeof(entry->gid));
	entry->gid_index = gid_attr->index;
	entry->port_num = gid_attr->port_num;
	entry->gid_type = gid_attr->gid_type;

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(gid_attr);
	/* An entry without a netdev has ifindex 0. */
	if (IS_ERR(ndev))
		ret = PTR_ERR(ndev) == -ENODEV ? 0 : PTR_ERR(ndev);
	else
		entry->netdev_ifindex = ndev->ifindex;
	rcu_read_unlock();
	return ret;
}

/*
 * The held GID entry @index of @port: -EINVAL for an invalid port or an
 * index past the table, -ENODATA for an empty slot.
 */
static const struct ib_gid_attr *port_gid_get(struct uverbs_attr_bundle *attrs,
					      u32 port, u32 index)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);

	if (IS_ERR(ucontext))
		return ERR_CAST(ucontext);
	if (!rdma_is_port_valid(ucontext->device, port))
		return ERR_PTR(-EINVAL);
	return rdma_get_gid_attr(ucontext->device, port, index);
}

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_GID_ENTRY)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_gid_entry entry = {};
	const struct ib_gid_attr *gid_attr;
	u32 flags, port, index;
	int ret;

	/* No flags are defined yet. */
	ret = uverbs_get_flags32(&flags, attrs,
				 UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0) ?:
	      uverbs_get_const(&port, attrs,
			       UVERBS_ATTR_QUERY_GID_ENTRY_PORT) ?:
	      uverbs_get_const(&index, attrs,
			       UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX);
	if (ret)
		return ret;
	gid_attr = port_gid_get(attrs, port, index);
	if (IS_ERR(gid_attr))
		return PTR_ERR(gid_attr);
	ret = port_gid_to_user(gid_attr, &entry);
	if (!ret)
		ret = uverbs_copy_to_struct_or_zero(
			attrs, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &entry,
			sizeof(entry));
	rdma_put_gid_attr(gid_attr);
	return ret;
}

/*
 * Copy @n entries to the user's array of entries of @user_size bytes
 * each: cut to what the user knows of, or zero-extended.
 */
static int port_gid_table_to_user(struct uverbs_attr_bundle *attrs,
				  const struct ib_uverbs_gid_entry *entries,
				  size_t n, size_t user_size)
{
	const size_t size = sizeof(*entries);
	const struct uverbs_attr *attr;
	u8 __user *dst;
	size_t i;

	if (user_size == size)
		return uverbs_copy_to(attrs,
				      UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
				      entries, n * size);

	attr = uverbs_attr_get(attrs, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	dst = u64_to_user_ptr(attr->ptr_attr.data);
	for (i = 0; i < n; i++, dst += user_size)
		if (copy_to_user(dst, &entries[i], min(user_size, size)) ||
		    (user_size > size &&
		     clear_user(dst + size, user_size - size)))
			return -EFAULT;
	return uverbs_output_written(attrs,
				     UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
}

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_GID_TABLE)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext;
	struct ib_uverbs_gid_entry *entries;
	size_t user_size;
	ssize_t n;
	int max, ret;
	u32 flags;

	/* No flags are defined yet; entries have a size of their own. */
	ret = uverbs_get_flags32(&flags, attrs,
				 UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 0) ?:
	      uverbs_get_const(&user_size, attrs,
			       UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE) ?:
	      (user_size ? 0 : -EINVAL);
	if (ret)
		return ret;
	/* No room for one entry is -EINVAL too. */
	max = uverbs_attr_ptr_get_array_size(
		attrs, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, user_size);
	if (max <= 0)
		return max ?: -EINVAL;

	ucontext = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	entries = uverbs_kcalloc(attrs, max, sizeof(*entries));
	if (IS_ERR(entries))
		return PTR_ERR(entries);
	n = rdma_query_gid_table(ucontext->device, entries, max);
	if (n < 0)
		return -EINVAL;

	ret = port_gid_table_to_user(attrs, entries, n, user_size);
	if (ret)
		return ret;
	return uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
			      &n, sizeof(n));
}

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_QUERY_PORT,
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_PORT_RESP,
			    UVERBS_ATTR_STRUCT(struct ib_uverbs_query_port_resp_ex,
					       reserved),
			    UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_QUERY_PORT_PORT_NUM, u8, UA_MANDATORY));

/* The attributes of each method, outputs first. */
DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_QUERY_GID_ENTRY,
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
			    UVERBS_ATTR_STRUCT(struct ib_uverbs_gid_entry,
					       netdev_ifindex),
			    UA_MANDATORY),
	UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, u32,
			     UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, u32,
			     UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, u32,
			     UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_QUERY_GID_TABLE,
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
			    UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
			    UVERBS_ATTR_MIN_SIZE(0), UA_MANDATORY),
	UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, u32,
			     UA_OPTIONAL),
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, u64,
			     UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_DEVICE,
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_PORT),
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_GID_ENTRY),
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_GID_TABLE));

const struct uapi_definition uverbs_def_obj_port[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_DEVICE),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_DEVICE,
		UVERBS_WRITE(IB_USER_VERBS_CMD_QUERY_PORT, port_query,
			     UVERBS_WRITE_IO(struct ib_uverbs_query_port,
					     struct ib_uverbs_query_port_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(query_port)),
	{}
};
