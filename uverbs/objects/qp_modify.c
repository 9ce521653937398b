// SPDX-License-Identifier: GPL-2.0
/*
 * Changing and reading a user QP's attributes: write() MODIFY_QP,
 * EX_MODIFY_QP and QUERY_QP.  The core's ib_modify_qp_with_udata()
 * checks the address vectors (a RoCE path needs a GRH), holds their
 * source GIDs and resolves a RoCE destination's MAC address; the driver
 * checks the state transition.  Both commands use the QP shared.
 */
#include <rdma/ib_mad.h>
#include "core/nldev.h"
#include "objects.h"

/* An address vector from the ABI's layout. */
static void qp_dest_from_user(struct ib_device *dev,
			      struct ib_uverbs_qp_dest *u,
			      struct rdma_ah_attr *attr)
{
	attr->type = rdma_ah_find_type(dev, u->port_num);
	rdma_ah_set_port_num(attr, u->port_num);
	rdma_ah_set_dlid(attr, u->dlid);
	rdma_ah_set_sl(attr, u->sl);
	rdma_ah_set_path_bits(attr, u->src_path_bits);
	rdma_ah_set_static_rate(attr, u->static_rate);
	rdma_ah_set_make_grd(attr, false);
	if (!u->is_global) {
		rdma_ah_set_ah_flags(attr, 0);
		return;
	}
	rdma_ah_set_grh(attr, NULL, u->flow_label, u->sgid_index,
			u->hop_limit, u->traffic_class);
	rdma_ah_set_dgid_raw(attr, u->dgid);
}

/* ... and to it. */
static void qp_dest_to_user(const struct rdma_ah_attr *attr,
			    struct ib_uverbs_qp_dest *u)
{
	const struct ib_global_route *grh;

	u->port_num = rdma_ah_get_port_num(attr);
	u->dlid = rdma_ah_get_dlid(attr);
	u->sl = rdma_ah_get_sl(attr);
	u->src_path_bits = rdma_ah_get_path_bits(attr);
	u->static_rate = rdma_ah_get_static_rate(attr);
	u->is_global = !!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH);
	if (!u->is_global)
		return;
	grh = rdma_ah_read_grh(attr);
	memcpy(u->dgid, grh->dgid.raw, sizeof(u->dgid));
	u->flow_label = grh->flow_label;
	u->sgid_index = grh->sgid_index;
	u->hop_limit = grh->hop_limit;
	u->traffic_class = grh->traffic_class;
}

/*
 * The primary path's port: in INIT->RTR the QP's own; in SQD->SQD (the
 * only other transition with a path) the port changes with the path.
 */
static int qp_check_av_port(struct ib_qp *qp, struct ib_uverbs_modify_qp *c)
{
	const u32 av_port = IB_QP_AV | IB_QP_PORT;

	if (!rdma_is_port_valid(qp->device, c->dest.port_num))
		return -EINVAL;
	if ((c->attr_mask & IB_QP_STATE) && c->qp_state == IB_QPS_RTR)
		return c->dest.port_num == qp->real_qp->port ? 0 : -EINVAL;
	if ((c->attr_mask & av_port) == av_port)
		return c->port_num == c->dest.port_num ? 0 : -EINVAL;
	c->attr_mask |= IB_QP_PORT;
	c->port_num = c->dest.port_num;
	return 0;
}

static int qp_check_ports(struct ib_qp *qp, struct ib_uverbs_modify_qp *c)
{
	struct ib_device *dev = qp->device;
	int ret;

	if ((c->attr_mask & IB_QP_PORT) &&
	    !rdma_is_port_valid(dev, c->port_num))
		return -EINVAL;
	if (c->attr_mask & IB_QP_AV) {
		ret = qp_check_av_port(qp, c);
		if (ret)
			return ret;
	}
	if ((c->attr_mask & IB_QP_ALT_PATH) &&
	    (!rdma_is_port_valid(dev, c->alt_port_num) ||
	     c->alt_port_num != c->alt_dest.port_num))
		return -EINVAL;
	return 0;
}

static int qp_check_states(const struct ib_uverbs_modify_qp *c)
{
	if ((c->attr_mask & IB_QP_CUR_STATE) && c->cur_qp_state > IB_QPS_ERR)
		return -EINVAL;
	if ((c->attr_mask & IB_QP_STATE) && c->qp_state > IB_QPS_ERR)
		return -EINVAL;
	/* A controlled Q_Key is for the privileged (RDMA netlink setting). */
	if ((c->attr_mask & IB_QP_QKEY) && (c->qkey & IB_QP_SET_QKEY) &&
	    !rdma_nl_get_privileged_qkey())
		return -EPERM;
	return 0;
}

/* The values @c gives; the mask says which the QP takes. */
static void qp_attr_from_user(struct ib_qp *qp,
			      struct ib_uverbs_ex_modify_qp *cmd,
			      struct ib_qp_attr *a)
{
	struct ib_uverbs_modify_qp *c = &cmd->base;

	a->qp_state = c->qp_state;
	a->cur_qp_state = c->cur_qp_state;
	a->path_mtu = c->path_mtu;
	a->path_mig_state = c->path_mig_state;
	a->qkey = c->qkey;
	a->rq_psn = c->rq_psn;
	a->sq_psn = c->sq_psn;
	a->dest_qp_num = c->dest_qp_num;
	a->qp_access_flags = c->qp_access_flags;
	a->pkey_index = c->pkey_index;
	a->en_sqd_async_notify = c->en_sqd_async_notify;
	a->max_rd_atomic = c->max_rd_atomic;
	a->max_dest_rd_atomic = c->max_dest_rd_atomic;
	a->min_rnr_timer = c->min_rnr_timer;
	a->port_num = c->port_num;
	a->timeout = c->timeout;
	a->retry_cnt = c->retry_cnt;
	a->rnr_retry = c->rnr_retry;
	a->rate_limit = cmd->rate_limit;
	if (c->attr_mask & IB_QP_AV)
		qp_dest_from_user(qp->device, &c->dest, &a->ah_attr);
	if (c->attr_mask & IB_QP_ALT_PATH) {
		a->alt_port_num = c->alt_port_num;
		a->alt_timeout = c->alt_timeout;
		a->alt_pkey_index = c->alt_pkey_index;
		qp_dest_from_user(qp->device, &c->alt_dest, &a->alt_ah_attr);
	}
}

/* Attributes a type of QP does not have are dropped from the mask. */
static int qp_mask_for_type(enum ib_qp_type type, int mask)
{
	if (type == IB_QPT_XRC_INI)
		return mask & ~(IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (type == IB_QPT_XRC_TGT)
		return mask & ~(IB_QP_MAX_QP_RD_ATOMIC | IB_QP_RETRY_CNT |
				IB_QP_RNR_RETRY);
	return mask;
}

static int qp_modify(struct uverbs_attr_bundle *attrs,
		     struct ib_uverbs_ex_modify_qp *cmd)
{
	struct ib_qp_attr *attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	struct ib_qp *qp = attr ? objs_get_qp(attrs, cmd->base.qp_handle) :
				  ERR_PTR(-ENOMEM);
	int ret;

	if (IS_ERR(qp)) {
		kfree(attr);
		return PTR_ERR(qp);
	}
	ret = qp_check_ports(qp, &cmd->base);
	if (!ret)
		ret = qp_check_states(&cmd->base);
	if (!ret) {
		qp_attr_from_user(qp, cmd, attr);
		ret = ib_modify_qp_with_udata(qp, attr,
					      qp_mask_for_type(qp->qp_type,
							       cmd->base.attr_mask),
					      &attrs->driver_udata);
	}
	objs_put_qp(qp);
	kfree(attr);
	return ret;
}

static int qp_modify_legacy(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_modify_qp cmd = {};
	int ret;

	ret = uverbs_write_request(attrs, &cmd.base, sizeof(cmd.base));
	if (ret)
		return ret;
	if (cmd.base.attr_mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	return qp_modify(attrs, &cmd);
}

static int qp_modify_ex(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_modify_qp_resp resp = {};
	struct ib_uverbs_ex_modify_qp cmd;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* The last bit is kept to extend the mask with. */
	if (cmd.base.attr_mask &
	    ~(IB_QP_ATTR_STANDARD_BITS | IB_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	ret = qp_modify(attrs, &cmd);
	if (ret)
		return ret;
	resp.response_length = uverbs_write_response_length(attrs,
							    sizeof(resp));
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static void qp_attr_to_user(const struct ib_qp_attr *a,
			    const struct ib_qp_init_attr *init,
			    struct ib_uverbs_query_qp_resp *r)
{
	qp_dest_to_user(&a->ah_attr, &r->dest);
	qp_dest_to_user(&a->alt_ah_attr, &r->alt_dest);
	r->max_send_wr = init->cap.max_send_wr;
	r->max_recv_wr = init->cap.max_recv_wr;
	r->max_send_sge = init->cap.max_send_sge;
	r->max_recv_sge = init->cap.max_recv_sge;
	r->max_inline_data = init->cap.max_inline_data;
	r->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	r->qkey = a->qkey;
	r->rq_psn = a->rq_psn;
	r->sq_psn = a->sq_psn;
	r->dest_qp_num = a->dest_qp_num;
	r->qp_access_flags = a->qp_access_flags;
	r->pkey_index = a->pkey_index;
	r->alt_pkey_index = a->alt_pkey_index;
	r->qp_state = a->qp_state;
	r->cur_qp_state = a->cur_qp_state;
	r->path_mtu = a->path_mtu;
	r->path_mig_state = a->path_mig_state;
	r->sq_draining = a->sq_draining;
	r->max_rd_atomic = a->max_rd_atomic;
	r->max_dest_rd_atomic = a->max_dest_rd_atomic;
	r->min_rnr_timer = a->min_rnr_timer;
	r->port_num = a->port_num;
	r->timeout = a->timeout;
	r->retry_cnt = a->retry_cnt;
	r->rnr_retry = a->rnr_retry;
	r->alt_port_num = a->alt_port_num;
	r->alt_timeout = a->alt_timeout;
}

/* What QUERY_QP reads, too large for the stack together. */
struct qp_query_buf {
	struct ib_qp_attr attr;
	struct ib_qp_init_attr init;
	struct ib_uverbs_query_qp_resp resp;
};

static int qp_query(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_qp cmd;
	struct qp_query_buf *buf;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	qp = objs_get_qp(attrs, cmd.qp_handle);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto out;
	}
	ret = ib_query_qp(qp, &buf->attr, cmd.attr_mask, &buf->init);
	objs_put_qp(qp);
	if (ret)
		goto out;

	qp_attr_to_user(&buf->attr, &buf->init, &buf->resp);
	ret = uverbs_write_response(attrs, &buf->resp, sizeof(buf->resp));
out:
	kfree(buf);
	return ret;
}

const struct uapi_definition uverbs_def_obj_qp_modify[] = {
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_QP,
		UVERBS_WRITE(IB_USER_VERBS_CMD_MODIFY_QP, qp_modify_legacy,
			     UVERBS_WRITE_I(struct ib_uverbs_modify_qp)),
		UAPI_DEF_METHOD_NEEDS_FN(modify_qp),
		UVERBS_WRITE(IB_USER_VERBS_CMD_QUERY_QP, qp_query,
			     UVERBS_WRITE_IO(struct ib_uverbs_query_qp,
					     struct ib_uverbs_query_qp_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(query_qp),
		UVERBS_WRITE_EX(IB_USER_VERBS_EX_CMD_MODIFY_QP, qp_modify_ex,
				UVERBS_WRITE_IO_EX(struct ib_uverbs_ex_modify_qp,
						   base,
						   struct ib_uverbs_ex_modify_qp_resp,
						   response_length)),
		UAPI_DEF_METHOD_NEEDS_FN(modify_qp)),
	{}
};
