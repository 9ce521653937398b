// SPDX-License-Identifier: GPL-2.0
/*
 * What a user context does with its CQs besides creating and destroying
 * them (cq.c): write() RESIZE_CQ, POLL_CQ (for drivers whose CQs userspace
 * does not read itself), REQ_NOTIFY_CQ and EX_MODIFY_CQ.  Each command
 * uses its CQ shared; the driver serialises the CQ's own state.
 */
#include <rdma/opa_addr.h>
#include "objects.h"

static int cq_resize(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_resize_cq_resp resp = {};
	struct ib_uverbs_resize_cq cmd;
	struct ib_cq *cq;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	cq = objs_get_cq(attrs, cmd.cq_handle);
	if (IS_ERR(cq))
		return PTR_ERR(cq);

	/* The driver tells userspace of the new ring through udata. */
	ret = cq->device->ops.resize_cq(cq, cmd.cqe, &attrs->driver_udata);
	if (!ret) {
		resp.cqe = cq->cqe;
		ret = uverbs_write_response(attrs, &resp, sizeof(resp));
	}
	objs_put_cq(cq);
	return ret;
}

/* A work completion in the ABI's layout. */
static void cq_wc_to_user(struct ib_device *dev, const struct ib_wc *wc,
			  struct ib_uverbs_wc *u)
{
	*u = (struct ib_uverbs_wc) {
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.ex.imm_data = wc->ex.imm_data,
		.qp_num = wc->qp->qp_num,
		.src_qp = wc->src_qp,
		.wc_flags = wc->wc_flags,
		.pkey_index = wc->pkey_index,
		.slid = rdma_cap_opa_ah(dev, wc->port_num) ?
			OPA_TO_IB_UCAST_LID(wc->slid) : ib_lid_cpu16(wc->slid),
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};
}

/*
 * Poll up to @max completions of @cq into the user's array @dst.
 * Return: how many, or a negative errno.
 */
static int cq_poll_to_user(struct ib_cq *cq, struct ib_uverbs_wc __user *dst,
			   u32 max)
{
	struct ib_uverbs_wc uwc;
	struct ib_wc wc;
	u32 n;
	int ret;

	for (n = 0; n < max; n++) {
		ret = ib_poll_cq(cq, 1, &wc);
		if (ret <= 0)
			return ret ?: n;
		cq_wc_to_user(cq->device, &wc, &uwc);
		if (copy_to_user(&dst[n], &uwc, sizeof(uwc)))
			return -EFAULT;
	}
	return n;
}

static int cq_poll(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_poll_cq_resp __user *out = attrs->ucore.outbuf;
	struct ib_uverbs_poll_cq_resp resp = {};
	struct ib_uverbs_poll_cq cmd;
	struct ib_cq *cq;
	u32 room;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	cq = objs_get_cq(attrs, cmd.cq_handle);
	if (IS_ERR(cq))
		return PTR_ERR(cq);

	/* Completions go after the header, never past the user's buffer. */
	room = attrs->ucore.outlen > sizeof(resp) ?
	       (attrs->ucore.outlen - sizeof(resp)) / sizeof(out->wc[0]) : 0;
	ret = cq_poll_to_user(cq, out->wc, min(cmd.ne, room));
	objs_put_cq(cq);
	if (ret < 0)
		return ret;
	resp.count = ret;
	if (copy_to_user(out, &resp, sizeof(resp)))
		return -EFAULT;
	/* Through ioctl() INVOKE_WRITE the output was written directly. */
	if (uverbs_attr_is_valid(attrs, UVERBS_ATTR_CORE_OUT))
		return uverbs_output_written(attrs, UVERBS_ATTR_CORE_OUT);
	return 0;
}

static int cq_req_notify(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_req_notify_cq cmd;
	struct ib_cq *cq;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	cq = objs_get_cq(attrs, cmd.cq_handle);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	/* One event, for the next (solicited) completion; never fails. */
	ib_req_notify_cq(cq, cmd.solicited_only ? IB_CQ_SOLICITED :
						  IB_CQ_NEXT_COMP);
	objs_put_cq(cq);
	return 0;
}

/* Something to change, nothing reserved, nothing but moderation. */
static int cq_modify_check(const struct ib_uverbs_ex_modify_cq *cmd)
{
	if (!cmd->attr_mask || cmd->reserved)
		return -EINVAL;
	return cmd->attr_mask > IB_CQ_MODERATE ? -EOPNOTSUPP : 0;
}

static int cq_modify(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_modify_cq cmd;
	struct ib_cq *cq;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd)) ?:
	      cq_modify_check(&cmd);
	if (ret)
		return ret;
	cq = objs_get_cq(attrs, cmd.cq_handle);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	ret = rdma_set_cq_moderation(cq, cmd.attr.cq_count,
				     cmd.attr.cq_period);
	objs_put_cq(cq);
	return ret;
}

const struct uapi_definition uverbs_def_obj_cq_ops[] = {
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_CQ,
		UVERBS_WRITE(IB_USER_VERBS_CMD_RESIZE_CQ, cq_resize,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_resize_cq,
						   struct ib_uverbs_resize_cq_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(resize_cq),
		UVERBS_WRITE(IB_USER_VERBS_CMD_POLL_CQ, cq_poll,
			     UVERBS_WRITE_IO(struct ib_uverbs_poll_cq,
					     struct ib_uverbs_poll_cq_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(poll_cq),
		UVERBS_WRITE(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, cq_req_notify,
			     UVERBS_WRITE_I(struct ib_uverbs_req_notify_cq)),
		UAPI_DEF_METHOD_NEEDS_FN(req_notify_cq),
		UVERBS_WRITE_EX(IB_USER_VERBS_EX_CMD_MODIFY_CQ, cq_modify,
				UVERBS_WRITE_I(struct ib_uverbs_ex_modify_cq)),
		UAPI_DEF_METHOD_NEEDS_FN(modify_cq)),
	{}
};
