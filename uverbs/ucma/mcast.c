// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast groups of userspace's IDs: JOIN_IP_MCAST (a full member, an
 * IPv4 or IPv6 group), JOIN_MCAST (any family, full or send-only full
 * member) and LEAVE_MCAST.  A group has a number of its own in ucma_mcs,
 * published once the join was started and its number given out; the
 * join's outcome is an event (MULTICAST_JOIN or _ERROR) that carries the
 * group's uid and number.
 */
#include <linux/slab.h>
#include <rdma/ib_sa.h>
#include "internal.h"

/*
 * The groups userspace names; the xarray's lock also protects each ID's
 * list of groups, and keeps a group's ID in memory while it is looked up
 * (an ID forgets its groups before its memory goes).
 */
DEFINE_XARRAY_ALLOC(ucma_mcs);

/* Unlinks @mc from its ID and ucma_mcs, under ucma_mcs' lock. */
static void ucma_mc_unlink(struct ucma_mc *mc)
{
	list_del(&mc->ctx_link);
	__xa_erase(&ucma_mcs, mc->id);
}

/**
 * ucma_mc_forget_all - free the groups of an ID being torn down
 * @ctx: the ID, its rdma_cm ID destroyed (which left the groups)
 */
void ucma_mc_forget_all(struct ucma_ctx *ctx)
{
	struct ucma_mc *mc, *next;

	xa_lock(&ucma_mcs);
	list_for_each_entry_safe(mc, next, &ctx->mcs, ctx_link) {
		ucma_mc_unlink(mc);
		kfree(mc);
	}
	xa_unlock(&ucma_mcs);
}

/*
 * Joins @addr (@size bytes) on ID @id of @file as @join_state, for
 * userspace's @uid; the group's number goes to @response.
 */
static int ucma_join(struct ucma_file *file, u32 id, u64 uid,
		     const struct sockaddr *addr, u16 size, u8 join_state,
		     u64 response)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct ucma_ctx *ctx;
	struct ucma_mc *mc;
	int ret;

	ctx = ucma_ctx_get(file, id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mc = kzalloc(sizeof(*mc), GFP_KERNEL);
	if (!mc) {
		ret = -ENOMEM;
		goto out;
	}
	mc->ctx = ctx;
	mc->uid = uid;
	memcpy(&mc->addr, addr, size);

	xa_lock(&ucma_mcs);
	ret = __xa_alloc(&ucma_mcs, &mc->id, NULL, xa_limit_32b, GFP_KERNEL);
	if (ret) {
		xa_unlock(&ucma_mcs);
		kfree(mc);
		goto out;
	}
	list_add_tail(&mc->ctx_link, &ctx->mcs);
	xa_unlock(&ucma_mcs);

	ret = rdma_join_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr,
				  join_state, mc);
	if (ret)
		goto err_unlink;
	resp.id = mc->id;
	if (copy_to_user(u64_to_user_ptr(response), &resp, sizeof(resp))) {
		ret = -EFAULT;
		rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
		ucma_event_purge_mc(mc);
		goto err_unlink;
	}
	xa_store(&ucma_mcs, mc->id, mc, 0);
	goto out;

err_unlink:
	xa_lock(&ucma_mcs);
	ucma_mc_unlink(mc);
	xa_unlock(&ucma_mcs);
	kfree(mc);
out:
	ucma_ctx_done(ctx);
	return ret;
}

/* The join state of JOIN_MCAST's flags, or 0 for none known */
static u8 ucma_join_state(u16 flags)
{
	switch (flags) {
	case RDMA_MC_JOIN_FLAG_FULLMEMBER:
		return BIT(FULLMEMBER_JOIN);
	case RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER:
		return BIT(SENDONLY_FULLMEMBER_JOIN);
	default:
		return 0;
	}
}

/**
 * ucma_cmd_join_ip_mcast - JOIN_IP_MCAST: join an IPv4 or IPv6 group
 * @file: the file
 * @buf: struct rdma_ucm_join_ip_mcast
 * @in_len: unused
 * @out_len: room for struct rdma_ucm_create_id_resp
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_join_ip_mcast(struct ucma_file *file, void *buf,
		       u32 in_len, u32 out_len)
{
	struct rdma_ucm_join_ip_mcast *cmd = buf;
	u16 size;

	size = rdma_addr_size_in6(&cmd->addr);
	if (!size)
		return -EINVAL;
	if (out_len < sizeof(struct rdma_ucm_create_id_resp))
		return -ENOSPC;
	return ucma_join(file, cmd->id, cmd->uid, (struct sockaddr *)&cmd->addr,
			 size, BIT(FULLMEMBER_JOIN), cmd->response);
}

/**
 * ucma_cmd_join_mcast - JOIN_MCAST: join a group of any address family
 * @file: the file
 * @buf: struct rdma_ucm_join_mcast
 * @in_len: unused
 * @out_len: room for struct rdma_ucm_create_id_resp
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_join_mcast(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len)
{
	struct rdma_ucm_join_mcast *cmd = buf;
	struct sockaddr *addr;
	u8 state;

	addr = (struct sockaddr *)&cmd->addr;
	if (!rdma_addr_size_kss(&cmd->addr))
		return -EINVAL;
	if (out_len < sizeof(struct rdma_ucm_create_id_resp))
		return -ENOSPC;
	if (cmd->addr_size != rdma_addr_size(addr))
		return -EINVAL;
	state = ucma_join_state(cmd->join_flags);
	if (!state)
		return -EINVAL;
	return ucma_join(file, cmd->id, cmd->uid, addr, cmd->addr_size, state,
			 cmd->response);
}

/*
 * The group @id of @file, with a reference on its ID's memory; ERR_PTR
 * -ENOENT (no such group) or -EINVAL (another file's).
 */
static struct ucma_mc *ucma_mc_get(struct ucma_file *file, u32 id)
{
	struct ucma_mc *mc;

	xa_lock(&ucma_mcs);
	mc = xa_load(&ucma_mcs, id);
	if (!mc)
		mc = ERR_PTR(-ENOENT);
	else if (READ_ONCE(mc->ctx->file) != file)
		mc = ERR_PTR(-EINVAL);
	else
		kref_get(&mc->ctx->kref);
	xa_unlock(&ucma_mcs);
	return mc;
}

/*
 * Takes the group off the table for its leave, unless a racing leave or
 * teardown did.  The caller holds the ID's lock.
 */
static bool ucma_mc_claim(struct ucma_mc *mc, u32 id)
{
	bool mine;

	xa_lock(&ucma_mcs);
	mine = xa_load(&ucma_mcs, id) == mc;
	if (mine)
		ucma_mc_unlink(mc);
	xa_unlock(&ucma_mcs);
	return mine;
}

/**
 * ucma_cmd_leave_mcast - LEAVE_MCAST: leave a group
 * @file: the file
 * @buf: struct rdma_ucm_destroy_id (the group's number)
 * @in_len: unused
 * @out_len: room for struct rdma_ucm_destroy_id_resp
 *
 * Return: 0 or a negative errno (-ENXIO when the ID's device went).
 */
int ucma_cmd_leave_mcast(struct ucma_file *file, void *buf,
		     u32 in_len, u32 out_len)
{
	struct rdma_ucm_destroy_id_resp resp = {};
	struct rdma_ucm_destroy_id *cmd = buf;
	struct ucma_ctx *ctx;
	struct ucma_mc *mc;
	int ret = 0;

	mc = ucma_mc_get(file, cmd->id);
	if (IS_ERR(mc))
		return PTR_ERR(mc);
	ctx = mc->ctx;
	mutex_lock(&ctx->lock);
	if (!ctx->cm_id) {
		ret = -ENXIO;
		goto out;
	}
	if (!ucma_mc_claim(mc, cmd->id)) {
		ret = -ENOENT;
		goto out;
	}
	rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
	ucma_event_purge_mc(mc);
	resp.events_reported = mc->events_reported;
	kfree(mc);
	if (copy_to_user(u64_to_user_ptr(cmd->response), &resp, sizeof(resp)))
		ret = -EFAULT;
out:
	ucma_ctx_done(ctx);
	return ret;
}
