// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of an ID's life, each a call of rdma_cm under the ID's
 * lock: CREATE_ID and DESTROY_ID, BIND_IP and BIND, RESOLVE_IP,
 * RESOLVE_ADDR and RESOLVE_ROUTE, LISTEN, CONNECT, ACCEPT, REJECT,
 * DISCONNECT, INIT_QP_ATTR and NOTIFY.
 *
 * As in-tree, a command reads its whole structure from userspace whatever
 * the header's length says (CONNECT and ACCEPT excepted: their ECE fields
 * are optional), and addresses are checked for family and size before
 * the ID is looked up.
 */
#include <linux/slab.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_marshall.h>
#include "internal.h"

/* The QP type of a port space: IB leaves it to userspace; -EINVAL for others */
static int ucma_ps_qp_type(const struct rdma_ucm_create_id *cmd)
{
	if (cmd->ps == RDMA_PS_IB)
		return cmd->qp_type;
	if (cmd->ps == RDMA_PS_TCP)
		return IB_QPT_RC;
	if (cmd->ps == RDMA_PS_UDP || cmd->ps == RDMA_PS_IPOIB)
		return IB_QPT_UD;
	return -EINVAL;
}

/**
 * ucma_cmd_create_id - CREATE_ID: a new ID in a port space
 * @file: the file the ID belongs to
 * @buf: struct rdma_ucm_create_id
 * @in_len: unused
 * @out_len: room for struct rdma_ucm_create_id_resp
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_create_id(struct ucma_file *file, void *buf,
		   u32 in_len, u32 out_len)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct rdma_ucm_create_id *cmd = buf;
	struct rdma_cm_id *cm_id;
	struct ucma_ctx *ctx;
	int qp_type;

	qp_type = ucma_ps_qp_type(cmd);
	if (qp_type < 0)
		return qp_type;

	ctx = ucma_ctx_alloc(file);
	if (!ctx)
		return -ENOMEM;
	ctx->uid = cmd->uid;
	cm_id = rdma_create_user_id(ucma_event_handler, ctx, cmd->ps, qp_type);
	if (IS_ERR(cm_id)) {
		ucma_ctx_put(ctx);
		return PTR_ERR(cm_id);
	}
	ctx->cm_id = cm_id;

	resp.id = ctx->id;
	if (copy_to_user(u64_to_user_ptr(cmd->response), &resp, sizeof(resp))) {
		ucma_ctx_teardown(ctx);
		return -EFAULT;
	}
	mutex_lock(&file->lock);
	ucma_ctx_publish(ctx, file);
	mutex_unlock(&file->lock);
	return 0;
}

/**
 * ucma_cmd_destroy_id - DESTROY_ID: destroy an ID and its queued events
 * @file: the file
 * @buf: struct rdma_ucm_destroy_id
 * @in_len: unused
 * @out_len: room for struct rdma_ucm_destroy_id_resp
 *
 * Userspace waits until it acknowledged the events_reported returned.
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_destroy_id(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len)
{
	struct rdma_ucm_destroy_id_resp resp = {};
	struct rdma_ucm_destroy_id *cmd = buf;
	struct ucma_ctx *ctx;

	ctx = ucma_ctx_unpublish(file, cmd->id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	resp.events_reported = ucma_ctx_teardown(ctx);
	if (copy_to_user(u64_to_user_ptr(cmd->response), &resp, sizeof(resp)))
		return -EFAULT;
	return 0;
}

/* rdma_bind_addr() of ID @id of @file */
static int ucma_do_bind(struct ucma_file *file, u32 id, struct sockaddr *addr)
{
	struct ucma_ctx *ctx = ucma_ctx_get(file, id, false);
	int ret;

	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_bind_addr(ctx->cm_id, addr);
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_bind_ip - BIND_IP: bind an ID to an IPv4 or IPv6 address
 * @file: the file
 * @buf: struct rdma_ucm_bind_ip
 * @in_len: unused
 * @out_len: unused
 *
 * Return: 0 or a negative errno (-EINVAL for another family).
 */
int ucma_cmd_bind_ip(struct ucma_file *file, void *buf,
		 u32 in_len, u32 out_len)
{
	struct rdma_ucm_bind_ip *cmd = buf;

	if (!rdma_addr_size_in6(&cmd->addr))
		return -EINVAL;
	return ucma_do_bind(file, cmd->id, (struct sockaddr *)&cmd->addr);
}

/**
 * ucma_cmd_bind - BIND: bind an ID to an address of a given size
 * @file: the file
 * @buf: struct rdma_ucm_bind
 * @in_len: unused
 * @out_len: unused
 *
 * Return: 0 or a negative errno (-EINVAL unless the size is the
 * family's).
 */
int ucma_cmd_bind(struct ucma_file *file, void *buf,
	      u32 in_len, u32 out_len)
{
	struct rdma_ucm_bind *cmd = buf;

	if (cmd->reserved || !cmd->addr_size ||
	    cmd->addr_size != rdma_addr_size_kss(&cmd->addr))
		return -EINVAL;
	return ucma_do_bind(file, cmd->id, (struct sockaddr *)&cmd->addr);
}

/* rdma_resolve_addr() of ID @id of @file */
static int ucma_do_resolve(struct ucma_file *file, u32 id,
			   struct sockaddr *src, struct sockaddr *dst,
			   u32 timeout_ms)
{
	struct ucma_ctx *ctx = ucma_ctx_get(file, id, false);
	int ret;

	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_resolve_addr(ctx->cm_id, src, dst, timeout_ms);
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_resolve_ip - RESOLVE_IP: resolve an IP destination (and source)
 * @file: the file
 * @buf: struct rdma_ucm_resolve_ip
 * @in_len: unused
 * @out_len: unused
 *
 * Return: 0 or a negative errno; ADDR_RESOLVED or ADDR_ERROR follows.
 */
int ucma_cmd_resolve_ip(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len)
{
	struct rdma_ucm_resolve_ip *cmd = buf;

	if ((cmd->src_addr.sin6_family && !rdma_addr_size_in6(&cmd->src_addr)) ||
	    !rdma_addr_size_in6(&cmd->dst_addr))
		return -EINVAL;
	return ucma_do_resolve(file, cmd->id, (struct sockaddr *)&cmd->src_addr,
			       (struct sockaddr *)&cmd->dst_addr,
			       cmd->timeout_ms);
}

/**
 * ucma_cmd_resolve_addr - RESOLVE_ADDR: resolve addresses of given sizes
 * @file: the file
 * @buf: struct rdma_ucm_resolve_addr
 * @in_len: unused
 * @out_len: unused
 *
 * Return: 0 or a negative errno; ADDR_RESOLVED or ADDR_ERROR follows.
 */
int ucma_cmd_resolve_addr(struct ucma_file *file, void *buf,
		      u32 in_len, u32 out_len)
{
	struct rdma_ucm_resolve_addr *cmd = buf;

	if (cmd->reserved ||
	    (cmd->src_size && cmd->src_size != rdma_addr_size_kss(&cmd->src_addr)) ||
	    !cmd->dst_size || cmd->dst_size != rdma_addr_size_kss(&cmd->dst_addr))
		return -EINVAL;
	return ucma_do_resolve(file, cmd->id, (struct sockaddr *)&cmd->src_addr,
			       (struct sockaddr *)&cmd->dst_addr,
			       cmd->timeout_ms);
}

/**
 * ucma_cmd_resolve_route - RESOLVE_ROUTE: find the path of a resolved ID
 * @file: the file
 * @buf: struct rdma_ucm_resolve_route
 * @in_len: unused
 * @out_len: unused
 *
 * Return: 0 or a negative errno; ROUTE_RESOLVED or ROUTE_ERROR follows.
 */
int ucma_cmd_resolve_route(struct ucma_file *file, void *buf,
		       u32 in_len, u32 out_len)
{
	struct rdma_ucm_resolve_route *cmd = buf;
	struct ucma_ctx *ctx;
	int ret;

	ctx = ucma_ctx_get(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_resolve_route(ctx->cm_id, cmd->timeout_ms);
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_listen - LISTEN: listen for connection requests
 * @file: the file
 * @buf: struct rdma_ucm_listen
 * @in_len: unused
 * @out_len: unused
 *
 * A backlog of 0 or above the max_backlog sysctl is max_backlog.
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_listen(struct ucma_file *file, void *buf,
		u32 in_len, u32 out_len)
{
	int max_backlog = ucma_max_backlog();
	struct rdma_ucm_listen *cmd = buf;
	struct ucma_ctx *ctx;
	int ret;

	ctx = ucma_ctx_get(file, cmd->id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (!cmd->backlog || cmd->backlog > max_backlog)
		cmd->backlog = max_backlog;
	atomic_set(&ctx->backlog, cmd->backlog);
	ret = rdma_listen(ctx->cm_id, cmd->backlog);
	ucma_ctx_done(ctx);
	return ret;
}

/* The rdma_cm form of userspace's connection parameters (data in @src) */
static void ucma_conn_param(struct rdma_cm_id *cm_id,
			   struct rdma_conn_param *dst,
			   const struct rdma_ucm_conn_param *src)
{
	*dst = (struct rdma_conn_param) {
		.private_data = src->private_data,
		.private_data_len = src->private_data_len,
		.responder_resources = src->responder_resources,
		.initiator_depth = src->initiator_depth,
		.flow_control = src->flow_control,
		.retry_count = src->retry_count,
		.rnr_retry_count = src->rnr_retry_count,
		.srq = src->srq,
		.qp_num = src->qp_num & 0xffffff,
	};
	/* Only AF_IB users choose the Q_Key; IP port spaces have theirs */
	if (cm_id->route.addr.src_addr.ss_family == AF_IB)
		dst->qkey = src->qkey;
}

/**
 * ucma_cmd_connect - CONNECT: start a connection (or a UD service lookup)
 * @file: the file
 * @buf: struct rdma_ucm_connect, the ECE fields optional
 * @in_len: the bytes of @in userspace gave
 * @out_len: unused
 *
 * Return: 0 or a negative errno; the outcome comes as an event.
 */
int ucma_cmd_connect(struct ucma_file *file, void *buf,
		 u32 in_len, u32 out_len)
{
	struct rdma_conn_param param;
	struct rdma_ucm_connect *cmd = buf;
	struct rdma_ucm_ece ece = {};
	struct ucma_ctx *ctx;
	int ret;

	if (!cmd->conn_param.valid)
		return -EINVAL;
	ctx = ucma_ctx_get(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ucma_conn_param(ctx->cm_id, &param, &cmd->conn_param);
	if (in_len >= offsetofend(typeof(*cmd), ece))
		ece = cmd->ece;
	ret = rdma_connect_ece(ctx->cm_id, &param, &ece);
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_accept - ACCEPT: accept a connection request, or (without valid
 *	parameters) complete an active connection whose QP userspace moved
 * @file: the file
 * @buf: struct rdma_ucm_accept, the ECE fields optional
 * @in_len: the bytes of @in userspace gave
 * @out_len: unused
 *
 * Accepting gives the new ID its uid: from then on its events are
 * reported.
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_accept(struct ucma_file *file, void *buf,
		u32 in_len, u32 out_len)
{
	struct rdma_conn_param param, *pp = NULL;
	struct rdma_ucm_ece ece = {};
	struct rdma_ucm_accept *cmd = buf;
	struct ucma_ctx *ctx;
	int ret;

	ctx = ucma_ctx_get(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (in_len >= offsetofend(typeof(*cmd), ece))
		ece = cmd->ece;
	if (cmd->conn_param.valid) {
		ucma_conn_param(ctx->cm_id, &param, &cmd->conn_param);
		pp = &param;
	}
	rdma_lock_handler(ctx->cm_id);
	ret = rdma_accept_ece(ctx->cm_id, pp, &ece);
	if (!ret && pp)
		ctx->uid = cmd->uid;
	rdma_unlock_handler(ctx->cm_id);
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_reject - REJECT: refuse a connection request
 * @file: the file
 * @buf: struct rdma_ucm_reject
 * @in_len: unused
 * @out_len: unused
 *
 * The reason is consumer defined (also for 0) or "vendor option not
 * supported" (an ECE refusal).
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_reject(struct ucma_file *file, void *buf,
		u32 in_len, u32 out_len)
{
	struct rdma_ucm_reject *cmd = buf;
	struct ucma_ctx *ctx;
	int ret;

	if (!cmd->reason)
		cmd->reason = IB_CM_REJ_CONSUMER_DEFINED;
	if (cmd->reason != IB_CM_REJ_CONSUMER_DEFINED &&
	    cmd->reason != IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED)
		return -EINVAL;
	ctx = ucma_ctx_get(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_reject(ctx->cm_id, cmd->private_data, cmd->private_data_len,
			  cmd->reason);
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_disconnect - DISCONNECT: end a connection
 * @file: the file
 * @buf: struct rdma_ucm_disconnect
 * @in_len: unused
 * @out_len: unused
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_disconnect(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len)
{
	struct rdma_ucm_disconnect *cmd = buf;
	struct ucma_ctx *ctx;
	int ret;

	ctx = ucma_ctx_get(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_disconnect(ctx->cm_id);
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_init_qp_attr - INIT_QP_ATTR: the attributes that move userspace's
 *	QP to a state, as rdma_cm knows them from the connection
 * @file: the file
 * @buf: struct rdma_ucm_init_qp_attr
 * @in_len: unused
 * @out_len: room for struct ib_uverbs_qp_attr
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_init_qp_attr(struct ucma_file *file, void *buf,
		      u32 in_len, u32 out_len)
{
	struct ib_uverbs_qp_attr resp = {};
	struct rdma_ucm_init_qp_attr *cmd = buf;
	struct ib_qp_attr attr = {};
	struct ucma_ctx *ctx;
	int mask = 0;
	int ret;

	if (cmd->qp_state > IB_QPS_ERR)
		return -EINVAL;
	ctx = ucma_ctx_get(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	attr.qp_state = cmd->qp_state;
	ret = rdma_init_qp_attr(ctx->cm_id, &attr, &mask);
	if (!ret) {
		resp.qp_attr_mask = mask;
		ib_copy_qp_attr_to_user(ctx->cm_id->device, &resp, &attr);
		if (copy_to_user(u64_to_user_ptr(cmd->response), &resp,
				 sizeof(resp)))
			ret = -EFAULT;
	}
	ucma_ctx_done(ctx);
	return ret;
}

/**
 * ucma_cmd_notify - NOTIFY: pass a QP event of userspace's to rdma_cm
 * @file: the file
 * @buf: struct rdma_ucm_notify
 * @in_len: unused
 * @out_len: unused
 *
 * Return: 0 or a negative errno (-EINVAL for an ID on no device).
 */
int ucma_cmd_notify(struct ucma_file *file, void *buf,
		u32 in_len, u32 out_len)
{
	struct rdma_ucm_notify *cmd = buf;
	struct ucma_ctx *ctx;
	int ret;

	ctx = ucma_ctx_get(file, cmd->id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = -EINVAL;
	if (ctx->cm_id->device)
		ret = rdma_notify(ctx->cm_id, (enum ib_event_type)cmd->event);
	ucma_ctx_done(ctx);
	return ret;
}
