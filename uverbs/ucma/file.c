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

/* The commands by number; GET_OPTION has never been implemented */
static const ucma_cmd_fn ucma_cmds[] = {
	[RDMA_USER_CM_CMD_CREATE_ID]	 = ucma_create_id,
	[RDMA_USER_CM_CMD_DESTROY_ID]	 = ucma_destroy_id,
	[RDMA_USER_CM_CMD_BIND_IP]	 = ucma_bind_ip,
	[RDMA_USER_CM_CMD_RESOLVE_IP]	 = ucma_resolve_ip,
	[RDMA_USER_CM_CMD_RESOLVE_ROUTE] = ucma_resolve_route,
	[RDMA_USER_CM_CMD_QUERY_ROUTE]	 = ucma_query_route,
	[RDMA_USER_CM_CMD_CONNECT]	 = ucma_connect,
	[RDMA_USER_CM_CMD_LISTEN]	 = ucma_listen,
	[RDMA_USER_CM_CMD_ACCEPT]	 = ucma_accept,
	[RDMA_USER_CM_CMD_REJECT]	 = ucma_reject,
	[RDMA_USER_CM_CMD_DISCONNECT]	 = ucma_disconnect,
	[RDMA_USER_CM_CMD_INIT_QP_ATTR]	 = ucma_init_qp_attr,
	[RDMA_USER_CM_CMD_GET_EVENT]	 = ucma_get_event,
	[RDMA_USER_CM_CMD_SET_OPTION]	 = ucma_set_option,
	[RDMA_USER_CM_CMD_NOTIFY]	 = ucma_notify,
	[RDMA_USER_CM_CMD_JOIN_IP_MCAST] = ucma_join_ip_mcast,
	[RDMA_USER_CM_CMD_LEAVE_MCAST]	 = ucma_leave_mcast,
	[RDMA_USER_CM_CMD_MIGRATE_ID]	 = ucma_migrate_id,
	[RDMA_USER_CM_CMD_QUERY]	 = ucma_query,
	[RDMA_USER_CM_CMD_BIND]		 = ucma_bind,
	[RDMA_USER_CM_CMD_RESOLVE_ADDR]	 = ucma_resolve_addr,
	[RDMA_USER_CM_CMD_JOIN_MCAST]	 = ucma_join_mcast,
};

/*
 * The framing's errors, as in-tree: -EACCES for a file used by another
 * security context than its opener's, -EINVAL for a short header, an
 * unknown command or input longer than the write, -ENOSYS for a known
 * command never implemented.
 */
static ssize_t ucma_write(struct file *filp, const char __user *buf,
			  size_t len, loff_t *pos)
{
	struct ucma_file *file = filp->private_data;
	struct rdma_ucm_cmd_hdr hdr;
	ucma_cmd_fn fn;
	int ret;

	if (!ib_safe_file_access(filp))
		return -EACCES;
	if (len < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;
	if (hdr.cmd >= ARRAY_SIZE(ucma_cmds))
		return -EINVAL;
	fn = ucma_cmds[array_index_nospec(hdr.cmd, ARRAY_SIZE(ucma_cmds))];
	if (sizeof(hdr) + hdr.in > len)
		return -EINVAL;
	if (!fn)
		return -ENOSYS;
	ret = fn(file, buf + sizeof(hdr), hdr.in, hdr.out);
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
