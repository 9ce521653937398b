// SPDX-License-Identifier: GPL-2.0
/*
 * The device object: what a user context asks of its device.  write()
 * QUERY_DEVICE (the attributes the core cached at registration) and
 * EX_QUERY_DEVICE (asked of the driver, with the extended capabilities);
 * ioctl() QUERY_CONTEXT.  Ports and GIDs are in port.c; GET_CONTEXT and
 * INVOKE_WRITE belong to the framework.  No state, no lock.
 */
#include "objects.h"

/* The attributes every QUERY_DEVICE answer carries. */
static void device_attr_to_user(struct ib_device *dev,
				const struct ib_device_attr *a,
				struct ib_uverbs_query_device_resp *r)
{
	*r = (struct ib_uverbs_query_device_resp) {
		.fw_ver = a->fw_ver,
		.node_guid = dev->node_guid,
		.sys_image_guid = a->sys_image_guid,
		.max_mr_size = a->max_mr_size,
		.page_size_cap = a->page_size_cap,
		.vendor_id = a->vendor_id,
		.vendor_part_id = a->vendor_part_id,
		.hw_ver = a->hw_ver,
		.max_qp = a->max_qp,
		.max_qp_wr = a->max_qp_wr,
		/* The legacy ABI has room for the low half only. */
		.device_cap_flags = lower_32_bits(a->device_cap_flags),
		.max_sge = min(a->max_send_sge, a->max_recv_sge),
		.max_sge_rd = a->max_sge_rd,
		.max_cq = a->max_cq,
		.max_cqe = a->max_cqe,
		.max_mr = a->max_mr,
		.max_pd = a->max_pd,
		.max_qp_rd_atom = a->max_qp_rd_atom,
		.max_ee_rd_atom = a->max_ee_rd_atom,
		.max_res_rd_atom = a->max_res_rd_atom,
		.max_qp_init_rd_atom = a->max_qp_init_rd_atom,
		.max_ee_init_rd_atom = a->max_ee_init_rd_atom,
		.atomic_cap = a->atomic_cap,
		.max_ee = a->max_ee,
		.max_rdd = a->max_rdd,
		.max_mw = a->max_mw,
		.max_raw_ipv6_qp = a->max_raw_ipv6_qp,
		.max_raw_ethy_qp = a->max_raw_ethy_qp,
		.max_mcast_grp = a->max_mcast_grp,
		.max_mcast_qp_attach = a->max_mcast_qp_attach,
		.max_total_mcast_qp_attach = a->max_total_mcast_qp_attach,
		.max_ah = a->max_ah,
		.max_srq = a->max_srq,
		.max_srq_wr = a->max_srq_wr,
		.max_srq_sge = a->max_srq_sge,
		.max_pkeys = a->max_pkeys,
		.local_ca_ack_delay = a->local_ca_ack_delay,
		.phys_port_cnt = min_t(u32, dev->phys_port_cnt, U8_MAX),
	};
}

static int device_query(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	struct ib_uverbs_query_device_resp resp;
	struct ib_uverbs_query_device cmd;
	int ret;

	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	device_attr_to_user(ucontext->device, &ucontext->device->attrs, &resp);
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

/* The extended capabilities, in the layout of the EX response. */
static void device_attr_ex_to_user(const struct ib_device_attr *a,
				   struct ib_uverbs_ex_query_device_resp *r)
{
	const struct ib_odp_caps *odp = &a->odp_caps;

	r->odp_caps.general_caps = odp->general_caps;
	r->odp_caps.per_transport_caps.rc_odp_caps =
		odp->per_transport_caps.rc_odp_caps;
	r->odp_caps.per_transport_caps.uc_odp_caps =
		odp->per_transport_caps.uc_odp_caps;
	r->odp_caps.per_transport_caps.ud_odp_caps =
		odp->per_transport_caps.ud_odp_caps;
	r->xrc_odp_caps = odp->per_transport_caps.xrc_odp_caps;
	r->timestamp_mask = a->timestamp_mask;
	r->hca_core_clock = a->hca_core_clock;
	r->device_cap_flags_ex = a->device_cap_flags;
	r->rss_caps = (struct ib_uverbs_rss_caps) {
		.supported_qpts = a->rss_caps.supported_qpts,
		.max_rwq_indirection_tables =
			a->rss_caps.max_rwq_indirection_tables,
		.max_rwq_indirection_table_size =
			a->rss_caps.max_rwq_indirection_table_size,
	};
	r->max_wq_type_rq = a->max_wq_type_rq;
	r->raw_packet_caps = a->raw_packet_caps;
	r->tm_caps = (struct ib_uverbs_tm_caps) {
		.max_rndv_hdr_size = a->tm_caps.max_rndv_hdr_size,
		.max_num_tags = a->tm_caps.max_num_tags,
		.flags = a->tm_caps.flags,
		.max_ops = a->tm_caps.max_ops,
		.max_sge = a->tm_caps.max_sge,
	};
	r->cq_moderation_caps.max_cq_moderation_count =
		a->cq_caps.max_cq_moderation_count;
	r->cq_moderation_caps.max_cq_moderation_period =
		a->cq_caps.max_cq_moderation_period;
	r->max_dm_size = a->max_dm_size;
}

static int device_query_ex(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	struct ib_uverbs_ex_query_device_resp resp = {};
	struct ib_uverbs_ex_query_device cmd;
	struct ib_device_attr attr = {};
	struct ib_device *dev;
	int ret;

	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	dev = ucontext->device;
	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask || cmd.reserved)
		return -EINVAL;

	ret = dev->ops.query_device(dev, &attr, &attrs->driver_udata);
	if (ret)
		return ret;

	device_attr_to_user(dev, &attr, &resp.base);
	device_attr_ex_to_user(&attr, &resp);
	resp.response_length = uverbs_write_response_length(attrs,
							    sizeof(resp));
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

/* The core's support of optional MR access bits: they are ignored. */
static const u64 device_core_support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_CONTEXT)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	u32 vectors;
	int ret;

	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	if (!ucontext->device->ops.query_ucontext)
		return -EOPNOTSUPP;

	vectors = attrs->ufile->device->num_comp_vectors;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
			     &vectors, sizeof(vectors));
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
			     &device_core_support, sizeof(device_core_support));
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	return ucontext->device->ops.query_ucontext(ucontext, attrs);
}

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_QUERY_CONTEXT,
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
			    UVERBS_ATTR_TYPE(u64), UA_OPTIONAL),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
			    UVERBS_ATTR_TYPE(u32), UA_OPTIONAL));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_DEVICE,
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_CONTEXT));

const struct uapi_definition uverbs_def_obj_device[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_DEVICE),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_DEVICE,
		UVERBS_WRITE(IB_USER_VERBS_CMD_QUERY_DEVICE, device_query,
			     UVERBS_WRITE_IO(struct ib_uverbs_query_device,
					     struct ib_uverbs_query_device_resp)),
		UVERBS_WRITE_EX(IB_USER_VERBS_EX_CMD_QUERY_DEVICE, device_query_ex,
				UVERBS_WRITE_IO_EX(struct ib_uverbs_ex_query_device,
						   reserved,
						   struct ib_uverbs_ex_query_device_resp,
						   response_length)),
		UAPI_DEF_METHOD_NEEDS_FN(query_device)),
	{}
};
