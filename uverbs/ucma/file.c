// SPDX-License-Identifier: GPL-2.0
/*
 * An open /dev/infiniband/rdma_cm: librdmacm's event channel.  Commands
 * come by write(): a struct rdma_ucm_cmd_hdr (command, input and output
 * lengths) and the command's structure, whose "response" pointer says
 * where the answer goes.  A command that succeeds returns the length
 * written.  poll() reports queued events; closing the file destroys its
 * IDs.
 */
#include <linux/nospec.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <rdma/ib.h>
#include "internal.h"

/**
 * struct ucma_cmd - how the dispatcher reads a command
 * @fn: the command
 * @size: the size of its structure, read whole whatever the header says
 *	(as in-tree, where every command reads its structure)
 * @min_in: if not 0, the structure may be shorter, down to @min_in
 *	(-EINVAL below): its tail (CONNECT's and ACCEPT's ECE) is optional
 *	and read as zeros when missing
 * @min_out: -ENOSPC for less room for the output
 */
struct ucma_cmd {
	ucma_cmd_fn fn;
	u16 size;
	u16 min_in;
	u16 min_out;
};

#define UCMA_CMD(nr, handler, type, out) \
	[RDMA_USER_CM_CMD_##nr] = { .fn = handler, .size = sizeof(type), \
				    .min_out = (out) }

/* The commands by number; GET_OPTION has never been implemented */
static const struct ucma_cmd ucma_cmds[] = {
	UCMA_CMD(CREATE_ID, ucma_cmd_create_id, struct rdma_ucm_create_id,
		 sizeof(struct rdma_ucm_create_id_resp)),
	UCMA_CMD(DESTROY_ID, ucma_cmd_destroy_id, struct rdma_ucm_destroy_id,
		 sizeof(struct rdma_ucm_destroy_id_resp)),
	UCMA_CMD(BIND_IP, ucma_cmd_bind_ip, struct rdma_ucm_bind_ip, 0),
	UCMA_CMD(RESOLVE_IP, ucma_cmd_resolve_ip, struct rdma_ucm_resolve_ip,
		 0),
	UCMA_CMD(RESOLVE_ROUTE, ucma_cmd_resolve_route,
		 struct rdma_ucm_resolve_route, 0),
	/* Older userspace stops before ibdev_index */
	UCMA_CMD(QUERY_ROUTE, ucma_cmd_query_route, struct rdma_ucm_query,
		 offsetof(struct rdma_ucm_query_route_resp, ibdev_index)),
	[RDMA_USER_CM_CMD_CONNECT] = {
		.fn = ucma_cmd_connect,
		.size = sizeof(struct rdma_ucm_connect),
		.min_in = offsetofend(struct rdma_ucm_connect, reserved),
	},
	UCMA_CMD(LISTEN, ucma_cmd_listen, struct rdma_ucm_listen, 0),
	[RDMA_USER_CM_CMD_ACCEPT] = {
		.fn = ucma_cmd_accept,
		.size = sizeof(struct rdma_ucm_accept),
		.min_in = offsetofend(struct rdma_ucm_accept, reserved),
	},
	UCMA_CMD(REJECT, ucma_cmd_reject, struct rdma_ucm_reject, 0),
	UCMA_CMD(DISCONNECT, ucma_cmd_disconnect, struct rdma_ucm_disconnect,
		 0),
	UCMA_CMD(INIT_QP_ATTR, ucma_cmd_init_qp_attr,
		 struct rdma_ucm_init_qp_attr, sizeof(struct ib_uverbs_qp_attr)),
	/* Old 32-bit userspace leaves the last two fields out */
	UCMA_CMD(GET_EVENT, ucma_cmd_get_event, struct rdma_ucm_get_event,
		 offsetof(struct rdma_ucm_event_resp, reserved)),
	UCMA_CMD(SET_OPTION, ucma_cmd_set_option, struct rdma_ucm_set_option,
		 0),
	UCMA_CMD(NOTIFY, ucma_cmd_notify, struct rdma_ucm_notify, 0),
	UCMA_CMD(JOIN_IP_MCAST, ucma_cmd_join_ip_mcast,
		 struct rdma_ucm_join_ip_mcast, 0),
	UCMA_CMD(LEAVE_MCAST, ucma_cmd_leave_mcast, struct rdma_ucm_destroy_id,
		 sizeof(struct rdma_ucm_destroy_id_resp)),
	UCMA_CMD(MIGRATE_ID, ucma_cmd_migrate_id, struct rdma_ucm_migrate_id,
		 0),
	UCMA_CMD(QUERY, ucma_cmd_query, struct rdma_ucm_query, 0),
	UCMA_CMD(BIND, ucma_cmd_bind, struct rdma_ucm_bind, 0),
	UCMA_CMD(RESOLVE_ADDR, ucma_cmd_resolve_addr,
		 struct rdma_ucm_resolve_addr, 0),
	UCMA_CMD(JOIN_MCAST, ucma_cmd_join_mcast, struct rdma_ucm_join_mcast,
		 0),
};

/* The largest command structure: the dispatcher's buffer */
#define UCMA_CMD_MAX sizeof(struct rdma_ucm_accept)

/*
 * Checks the lengths of command @c (@in and @out from the header) and
 * reads its structure from @src into @buf.
 */
static int ucma_cmd_fetch(const struct ucma_cmd *c, void *buf,
			  const char __user *src, u32 in, u32 out)
{
	size_t len = c->size;

	if (out < c->min_out)
		return -ENOSPC;
	if (c->min_in) {
		if (in < c->min_in)
			return -EINVAL;
		len = min_t(size_t, in, c->size);
	}
	memset(buf, 0, c->size);
	return copy_from_user(buf, src, len) ? -EFAULT : 0;
}

/*
 * The framing's errors, as in-tree: -EACCES for a file used by another
 * security context than its opener's, -EINVAL for a short header, an
 * unknown command or input longer than the write, -ENOSYS for a known
 * command never implemented.
 */
static ssize_t ucma_write(struct file *filp, const char __user *ubuf,
			  size_t len, loff_t *pos)
{
	u64 buf[DIV_ROUND_UP(UCMA_CMD_MAX, sizeof(u64))];
	struct ucma_file *file = filp->private_data;
	struct rdma_ucm_cmd_hdr hdr;
	const struct ucma_cmd *c;
	int ret;

	if (!ib_safe_file_access(filp))
		return -EACCES;
	if (len < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, ubuf, sizeof(hdr)))
		return -EFAULT;
	if (hdr.cmd >= ARRAY_SIZE(ucma_cmds))
		return -EINVAL;
	c = &ucma_cmds[array_index_nospec(hdr.cmd, ARRAY_SIZE(ucma_cmds))];
	if (len - sizeof(hdr) < hdr.in)
		return -EINVAL;
	if (!c->fn)
		return -ENOSYS;
	ret = ucma_cmd_fetch(c, buf, ubuf + sizeof(hdr), hdr.in, hdr.out);
	if (!ret)
		ret = c->fn(file, buf, hdr.in, hdr.out);
	return ret ? ret : len;
}

static __poll_t ucma_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct ucma_file *file = filp->private_data;

	poll_wait(filp, &file->wait, wait);
	return list_empty(&file->events) ? 0 : EPOLLIN | EPOLLRDNORM;
}

static int ucma_open(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	if (!file)
		return -ENOMEM;
	file->filp = filp;
	mutex_init(&file->lock);
	INIT_LIST_HEAD(&file->events);
	INIT_LIST_HEAD(&file->ctxs);
	init_waitqueue_head(&file->wait);
	filp->private_data = file;
	return stream_open(inode, filp);
}

/* The file's first published ID, taken away from commands; or NULL */
static struct ucma_ctx *ucma_file_next_ctx(struct ucma_file *file)
{
	struct ucma_ctx *ctx;

	mutex_lock(&file->lock);
	ctx = list_first_entry_or_null(&file->ctxs, struct ucma_ctx,
				       file_link);
	mutex_unlock(&file->lock);
	if (ctx)
		xa_cmpxchg(&ucma_ids, ctx->id, ctx, NULL, 0);
	return ctx;
}

/*
 * No command runs on the file any more, and no other file's command can
 * move an ID to or from it; IDs join its list only through its own
 * GET_EVENT.  Each teardown also drops the ID's queued events, so the
 * queue is empty once the list is.
 */
static int ucma_release(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = filp->private_data;
	struct ucma_ctx *ctx;

	while ((ctx = ucma_file_next_ctx(file)))
		ucma_ctx_teardown(ctx);
	mutex_destroy(&file->lock);
	kfree(file);
	return 0;
}

const struct file_operations ucma_fops = {
	.owner = THIS_MODULE,
	.open = ucma_open,
	.release = ucma_release,
	.write = ucma_write,
	.poll = ucma_poll,
	.llseek = no_llseek,
};
