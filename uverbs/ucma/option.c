// SPDX-License-Identifier: GPL-2.0
/*
 * SET_OPTION, what rdma_set_option() of librdmacm sends.  Level
 * RDMA_OPTION_ID: the ToS (u8), port reuse and IPv6-only binding (int),
 * the local ACK timeout (u8).  Level RDMA_OPTION_IB: a route given as
 * path records (IB_PATH, from ibacm or the application), reported to
 * userspace as resolved.  Unknown levels and names are -ENOSYS, values of
 * the wrong size -EINVAL.
 */
#include <linux/slab.h>
#include <rdma/ib_marshall.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm_ib.h>
#include "internal.h"

static int ucma_opt_id(struct ucma_ctx *ctx, u32 name, const void *val,
		       u32 len)
{
	switch (name) {
	case RDMA_OPTION_ID_TOS:
		if (len != sizeof(u8))
			return -EINVAL;
		rdma_set_service_type(ctx->cm_id, *(const u8 *)val);
		return 0;
	case RDMA_OPTION_ID_REUSEADDR:
		if (len != sizeof(int))
			return -EINVAL;
		return rdma_set_reuseaddr(ctx->cm_id, !!*(const int *)val);
	case RDMA_OPTION_ID_AFONLY:
		if (len != sizeof(int))
			return -EINVAL;
		return rdma_set_afonly(ctx->cm_id, !!*(const int *)val);
	case RDMA_OPTION_ID_ACK_TIMEOUT:
		if (len != sizeof(u8))
			return -EINVAL;
		return rdma_set_ack_timeout(ctx->cm_id, *(const u8 *)val);
	default:
		return -ENOSYS;
	}
}

/* The primary, bidirectional path among @n records, or NULL */
static const struct ib_path_rec_data *
ucma_primary_path(const struct ib_path_rec_data *recs, u32 n)
{
	const u32 want = IB_PATH_GMP | IB_PATH_PRIMARY | IB_PATH_BIDIRECTIONAL;
	u32 i;

	for (i = 0; i < n; i++)
		if (recs[i].flags == want)
			return &recs[i];
	return NULL;
}

/* IB_PATH: set the route, then report it resolved as RESOLVE_ROUTE would */
static int ucma_opt_ib_path(struct ucma_ctx *ctx, const void *val, u32 len)
{
	const struct ib_path_rec_data *data;
	struct rdma_cm_id *cm_id = ctx->cm_id;
	struct rdma_cm_event ev = {};
	struct sa_path_rec rec = {}, opa;
	int ret;

	if (len % sizeof(*data))
		return -EINVAL;
	data = ucma_primary_path(val, len / sizeof(*data));
	if (!data || !cm_id->device)
		return -EINVAL;

	rec.rec_type = SA_PATH_REC_TYPE_IB;
	ib_sa_unpack_path((void *)data->path_rec, &rec);
	if (rdma_cap_opa_ah(cm_id->device, cm_id->port_num)) {
		sa_convert_path_ib_to_opa(&opa, &rec);
		ret = rdma_set_ib_path(cm_id, &opa);
	} else {
		ret = rdma_set_ib_path(cm_id, &rec);
	}
	if (ret)
		return ret;

	ev.event = RDMA_CM_EVENT_ROUTE_RESOLVED;
	rdma_lock_handler(cm_id);
	ret = ucma_event_handler(cm_id, &ev);
	rdma_unlock_handler(cm_id);
	return ret;
}

static int ucma_opt(struct ucma_ctx *ctx, u32 level, u32 name,
		    const void *val, u32 len)
{
	switch (level) {
	case RDMA_OPTION_ID:
		return ucma_opt_id(ctx, name, val, len);
	case RDMA_OPTION_IB:
		if (name != RDMA_OPTION_IB_PATH)
			return -ENOSYS;
		return ucma_opt_ib_path(ctx, val, len);
	default:
		return -ENOSYS;
	}
}

/**
 * ucma_cmd_set_option - SET_OPTION: set an option of an ID
 * @file: the file
 * @buf: struct rdma_ucm_set_option, pointing at the value
 * @in_len: unused
 * @out_len: unused
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_set_option(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len)
{
	struct rdma_ucm_set_option *cmd = buf;
	struct ucma_ctx *ctx;
	void *val;
	int ret;

	if (cmd->optlen > KMALLOC_MAX_SIZE)
		return -EINVAL;
	ctx = ucma_ctx_get(file, cmd->id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	val = memdup_user(u64_to_user_ptr(cmd->optval), cmd->optlen);
	if (IS_ERR(val)) {
		ret = PTR_ERR(val);
	} else {
		ret = ucma_opt(ctx, cmd->level, cmd->optname, val, cmd->optlen);
		kfree(val);
	}
	ucma_ctx_done(ctx);
	return ret;
}
