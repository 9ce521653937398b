// SPDX-License-Identifier: GPL-2.0
/*
 * write() commands: the legacy framing (struct ib_uverbs_cmd_hdr, lengths
 * in 4-byte words including the header, the response pointer as the
 * request's first u64) and the extended one (IB_USER_VERBS_CMD_FLAG_EXTENDED,
 * struct ib_uverbs_ex_cmd_hdr with the response pointer, lengths in
 * 8-byte words), checked in the target's order with its errnos, then cut
 * into the core request and response (attrs->ucore) and the driver's data
 * (attrs->driver_udata) for the command's handler.
 *
 * Also the helpers handlers read their request and write their response
 * with; they work for write() and for ioctl() INVOKE_WRITE alike.
 */
#include <linux/cred.h>
#include <rdma/ib.h>
#include "internal.h"

/* A user buffer and its length, or NULL when empty. */
static void udata_set(struct ib_udata *udata, const void __user *in,
		      size_t inlen, void __user *out, size_t outlen)
{
	udata->inbuf = inlen ? in : NULL;
	udata->inlen = inlen;
	udata->outbuf = outlen ? out : NULL;
	udata->outlen = outlen;
}

static int check_ex_lengths(const struct ib_uverbs_cmd_hdr *hdr,
			    const struct ib_uverbs_ex_cmd_hdr *ex, size_t count,
			    const struct uverbs_api_write_method *cmd)
{
	size_t words = count - sizeof(*hdr) - sizeof(*ex);
	size_t out_bytes;

	if ((hdr->in_words + ex->provider_in_words) * 8 != words)
		return -EINVAL;
	if (hdr->in_words * 8 < cmd->req_size)
		return -ENOSPC;
	if (ex->cmd_hdr_reserved)
		return -EINVAL;
	if (!ex->response)
		return hdr->out_words || ex->provider_out_words ? -EINVAL : 0;
	if (!hdr->out_words && !ex->provider_out_words)
		return -EINVAL;
	if (hdr->out_words * 8 < cmd->resp_size)
		return -ENOSPC;
	out_bytes = (hdr->out_words + ex->provider_out_words) * 8;
	if (!access_ok(u64_to_user_ptr(ex->response), out_bytes))
		return -EFAULT;
	return 0;
}

static int check_lengths(struct ib_uverbs_cmd_hdr *hdr, size_t count,
			 const struct uverbs_api_write_method *cmd)
{
	if (hdr->in_words * 4 != count)
		return -EINVAL;
	if (count < cmd->req_size + sizeof(*hdr)) {
		/*
		 * rdma-core v18 and v19 send DESTROY_CQ 8 bytes short; the
		 * target takes it, so do we.
		 */
		if (hdr->command == IB_USER_VERBS_CMD_DESTROY_CQ &&
		    count == 16) {
			hdr->in_words = 6;
			return 0;
		}
		return -ENOSPC;
	}
	if (hdr->out_words * 4 < cmd->resp_size)
		return -ENOSPC;
	return 0;
}

/* Legacy framing: @buf is past the header. */
static int split_legacy(struct uverbs_attr_bundle *attrs,
			const struct ib_uverbs_cmd_hdr *hdr,
			const char __user *buf,
			const struct uverbs_api_write_method *cmd)
{
	size_t in_len = hdr->in_words * 4 - sizeof(*hdr);
	size_t out_len = hdr->out_words * 4;
	u64 response = 0;

	if (cmd->has_resp && get_user(response, (const u64 __user *)buf))
		return -EFAULT;
	if (cmd->has_udata) {
		udata_set(&attrs->driver_udata, buf + cmd->req_size,
			  in_len - cmd->req_size,
			  u64_to_user_ptr(response + cmd->resp_size),
			  cmd->has_resp ? out_len - cmd->resp_size : 0);
		in_len = cmd->req_size;
		if (cmd->has_resp)
			out_len = cmd->resp_size;
	}
	udata_set(&attrs->ucore, buf, in_len, u64_to_user_ptr(response),
		  out_len);
	return 0;
}

/* Extended framing: @buf is past both headers. */
static void split_ex(struct uverbs_attr_bundle *attrs,
		     const struct ib_uverbs_cmd_hdr *hdr,
		     const struct ib_uverbs_ex_cmd_hdr *ex,
		     const char __user *buf)
{
	void __user *resp = u64_to_user_ptr(ex->response);

	udata_set(&attrs->ucore, buf, hdr->in_words * 8, resp,
		  hdr->out_words * 8);
	udata_set(&attrs->driver_udata, buf + attrs->ucore.inlen,
		  ex->provider_in_words * 8, resp + attrs->ucore.outlen,
		  ex->provider_out_words * 8);
}

/* Read and check the headers; @buf moves past them. */
static const struct uverbs_api_write_method *
read_headers(struct uverbs_api *uapi, const char __user **buf, size_t count,
	     struct ib_uverbs_cmd_hdr *hdr, struct ib_uverbs_ex_cmd_hdr *ex)
{
	const struct uverbs_api_write_method *cmd;
	int ret;

	if (count < sizeof(*hdr))
		return ERR_PTR(-EINVAL);
	if (copy_from_user(hdr, *buf, sizeof(*hdr)))
		return ERR_PTR(-EFAULT);
	*buf += sizeof(*hdr);
	cmd = uverbs_uapi_write_method(uapi, hdr->command);
	if (IS_ERR(cmd))
		return cmd;
	if (!cmd->is_ex) {
		ret = check_lengths(hdr, count, cmd);
		return ret ? ERR_PTR(ret) : cmd;
	}
	if (count < sizeof(*hdr) + sizeof(*ex))
		return ERR_PTR(-EINVAL);
	if (copy_from_user(ex, *buf, sizeof(*ex)))
		return ERR_PTR(-EFAULT);
	*buf += sizeof(*ex);
	ret = check_ex_lengths(hdr, ex, count, cmd);
	return ret ? ERR_PTR(ret) : cmd;
}

static int write_run(struct ib_uverbs_file *ufile,
		     const struct uverbs_api_write_method *cmd,
		     const struct ib_uverbs_cmd_hdr *hdr,
		     const struct ib_uverbs_ex_cmd_hdr *ex,
		     const char __user *buf)
{
	struct uverbs_call call = {};
	struct uverbs_attr_bundle *attrs = &call.bundle;
	int ret = 0;

	call.uapi = ufile->device->uapi;
	attrs->ufile = ufile;
	if (cmd->is_ex)
		split_ex(attrs, hdr, ex, buf);
	else
		ret = split_legacy(attrs, hdr, buf, cmd);
	if (ret)
		return ret;

	ret = cmd->handler(attrs);
	if (attrs->uobject)
		uverbs_finalize_object(attrs->uobject, UVERBS_ACCESS_NEW, true,
				       !ret, attrs);
	uverbs_call_free_chunks(&call);
	return ret;
}

/**
 * uverbs_write() - the write of /dev/infiniband/uverbsN
 * @filp: the file
 * @buf: one command, its headers first
 * @count: its length, which the headers must describe exactly
 * @pos: unused
 *
 * Return: @count, or the error of the framing (-EINVAL, -ENOSPC,
 * -EFAULT, -EOPNOTSUPP for an unknown command) or of the command;
 * -EACCES if the caller's credentials are not the opener's.
 */
ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	const struct uverbs_api_write_method *cmd;
	struct ib_uverbs_ex_cmd_hdr ex;
	struct ib_uverbs_cmd_hdr hdr;
	int srcu_key;
	int ret;

	if (!ib_safe_file_access(filp)) {
		pr_err_once("uverbs: process %d (%s) wrote to a file opened with other credentials\n",
			    task_tgid_vnr(current), current->comm);
		return -EACCES;
	}
	cmd = read_headers(ufile->device->uapi, &buf, count, &hdr, &ex);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);

	srcu_key = srcu_read_lock(&ufile->device->disassociate_srcu);
	ret = write_run(ufile, cmd, &hdr, &ex, buf);
	srcu_read_unlock(&ufile->device->disassociate_srcu, srcu_key);
	return ret ?: count;
}

/**
 * uverbs_write_request() - read a command's core request
 * @attrs: the command's bundle
 * @req: filled with the request, zero-extended if the caller sent less
 * @req_len: its size
 *
 * Return: 0; -EFAULT; -EOPNOTSUPP if the caller sent more, not all zero
 * (a newer request this kernel does not know).
 */
int uverbs_write_request(struct uverbs_attr_bundle *attrs, void *req,
			 size_t req_len)
{
	size_t len = min(attrs->ucore.inlen, req_len);

	if (copy_from_user(req, attrs->ucore.inbuf, len))
		return -EFAULT;
	if (len < req_len)
		memset(req + len, 0, req_len - len);
	else if (attrs->ucore.inlen > req_len &&
		 !ib_is_buffer_cleared(attrs->ucore.inbuf + req_len,
				       attrs->ucore.inlen - req_len))
		return -EOPNOTSUPP;
	return 0;
}

/**
 * uverbs_write_response() - write a command's core response
 * @attrs: the command's bundle
 * @resp: the response
 * @resp_len: its size; truncated to the caller's buffer, whose rest is
 *	zeroed
 *
 * Return: 0 or -EFAULT.
 */
int uverbs_write_response(struct uverbs_attr_bundle *attrs, const void *resp,
			  size_t resp_len)
{
	size_t outlen = attrs->ucore.outlen;

	if (uverbs_attr_is_valid(attrs, UVERBS_ATTR_CORE_OUT))
		return uverbs_copy_to_struct_or_zero(attrs,
						     UVERBS_ATTR_CORE_OUT,
						     resp, resp_len);
	if (copy_to_user(attrs->ucore.outbuf, resp, min(outlen, resp_len)))
		return -EFAULT;
	if (resp_len < outlen &&
	    clear_user(attrs->ucore.outbuf + resp_len, outlen - resp_len))
		return -EFAULT;
	return 0;
}

/**
 * uverbs_write_response_length() - the response_length of an extended
 *	response
 * @attrs: the command's bundle
 * @resp_len: the size of the response the kernel knows
 *
 * Return: the bytes of it the caller will get.
 */
u32 uverbs_write_response_length(struct uverbs_attr_bundle *attrs,
				 size_t resp_len)
{
	return min_t(size_t, attrs->ucore.outlen, resp_len);
}

/**
 * uverbs_write_request_start() - read the fixed part of a request that
 *	ends in an array
 * @attrs: the command's bundle
 * @iter: set to the rest of the request
 * @req: the fixed part
 * @req_len: its size
 *
 * Return: 0; -ENOSPC if the request is shorter; -EFAULT.
 */
int uverbs_write_request_start(struct uverbs_attr_bundle *attrs,
			       struct uverbs_req_iter *iter, void *req,
			       size_t req_len)
{
	const void __user *in = attrs->ucore.inbuf;
	size_t avail = attrs->ucore.inlen;

	if (avail < req_len)
		return -ENOSPC;
	/* The driver's part, if any, follows the fixed part */
	iter->cur = in + req_len;
	iter->end = in + avail;
	return copy_from_user(req, in, req_len) ? -EFAULT : 0;
}

/**
 * uverbs_write_request_next() - read the next piece of a request
 * @iter: the rest of the request
 * @val: the piece
 * @len: its size
 *
 * Return: 0; -ENOSPC past the end; -EFAULT.
 */
int uverbs_write_request_next(struct uverbs_req_iter *iter, void *val,
			      size_t len)
{
	if (len > iter->end - iter->cur)
		return -ENOSPC;
	if (copy_from_user(val, iter->cur, len))
		return -EFAULT;
	iter->cur += len;
	return 0;
}

/**
 * uverbs_write_request_next_ptr() - skip the next piece of a request
 * @iter: the rest of the request
 * @len: the piece's size
 *
 * Return: the piece's user address, or ERR_PTR(-ENOSPC) past the end.
 */
const void __user *uverbs_write_request_next_ptr(struct uverbs_req_iter *iter,
						 size_t len)
{
	const void __user *piece = iter->cur;

	if (len > iter->end - iter->cur)
		return (const void __force __user *)ERR_PTR(-ENOSPC);
	iter->cur += len;
	return piece;
}

/**
 * uverbs_write_request_finish() - the request has nothing more
 * @iter: the rest of the request
 *
 * Return: 0, or -EOPNOTSUPP if what is left is not all zero.
 */
int uverbs_write_request_finish(struct uverbs_req_iter *iter)
{
	return ib_is_buffer_cleared(iter->cur, iter->end - iter->cur) ?
		0 : -EOPNOTSUPP;
}

/**
 * uverbs_get_cleared_udata() - empty driver data, for destroying an
 *	object while unwinding a failed command
 * @attrs: the command's bundle, whose driver_udata is cleared
 *
 * Return: &attrs->driver_udata.
 */
struct ib_udata *uverbs_get_cleared_udata(struct uverbs_attr_bundle *attrs)
{
	attrs->driver_udata = (struct ib_udata){};
	return &attrs->driver_udata;
}
