// SPDX-License-Identifier: GPL-2.0
/*
 * Address vectors, QP attributes and path records in the layouts of the
 * user ABI (<rdma/ib_user_verbs.h>, <rdma/ib_user_sa.h>), for ib_uverbs,
 * rdma_ucm and ib_ucm.  No state, no lock.
 */
#include "abi/ib_uverbs/marshall.h"

/*
 * An OPA address vector with an extended (32-bit) LID as the InfiniBand
 * one userspace understands: a GRH whose destination GID carries the LID
 * in an OPA interface ID under the port's subnet prefix.
 *
 * Return: false if the port cannot be queried; @ib is then unusable.
 */
static bool marshall_opa_as_ib(struct ib_device *device,
			       const struct rdma_ah_attr *opa,
			       struct rdma_ah_attr *ib)
{
	struct ib_port_attr port;

	if (ib_query_port(device, opa->port_num, &port))
		return false;
	*ib = *opa;
	ib->type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_grh(ib, NULL, 0, 0, 1, 0);
	rdma_ah_set_subnet_prefix(ib, cpu_to_be64(port.subnet_prefix));
	rdma_ah_set_interface_id(ib, OPA_MAKE_ID(rdma_ah_get_dlid(opa)));
	return true;
}

/* A GRH as userspace sees it (@dst zeroed by the caller). */
static void marshall_grh(struct ib_uverbs_global_route *dst,
			 const struct ib_global_route *grh)
{
	memcpy(dst->dgid, grh->dgid.raw, sizeof(dst->dgid));
	dst->traffic_class = grh->traffic_class;
	dst->hop_limit = grh->hop_limit;
	dst->sgid_index = grh->sgid_index;
	dst->flow_label = grh->flow_label;
}

/**
 * ib_copy_ah_attr_to_user() - an address vector in the user ABI's layout
 * @device: the device the address vector is for
 * @dst: filled (the GRH part zeroed unless the vector has a GRH)
 * @ah_attr: the address vector
 *
 * OPA vectors with an extended LID are given as InfiniBand vectors with a
 * GRH that carries the LID (as they are given as they are if the port
 * cannot be queried).
 */
void ib_copy_ah_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_ah_attr *dst,
			     struct rdma_ah_attr *ah_attr)
{
	const struct rdma_ah_attr *src = ah_attr;
	struct rdma_ah_attr as_ib;

	if (ah_attr->type == RDMA_AH_ATTR_TYPE_OPA &&
	    rdma_ah_get_dlid(ah_attr) > be16_to_cpu(IB_LID_PERMISSIVE) &&
	    marshall_opa_as_ib(device, ah_attr, &as_ib))
		src = &as_ib;

	memset(dst, 0, sizeof(*dst));
	dst->port_num = rdma_ah_get_port_num(src);
	dst->dlid = rdma_ah_get_dlid(src);
	dst->sl = rdma_ah_get_sl(src);
	dst->src_path_bits = rdma_ah_get_path_bits(src);
	dst->static_rate = rdma_ah_get_static_rate(src);
	if (rdma_ah_get_ah_flags(src) & IB_AH_GRH) {
		dst->is_global = 1;
		marshall_grh(&dst->grh, rdma_ah_read_grh(src));
	}
}
EXPORT_SYMBOL(ib_copy_ah_attr_to_user);

/**
 * ib_copy_qp_attr_to_user() - QP attributes in the user ABI's layout
 * @device: the QP's device
 * @dst: filled, except dst->qp_attr_mask, which is left as it is
 * @src: the attributes
 */
void ib_copy_qp_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_qp_attr *dst,
			     struct ib_qp_attr *src)
{
	u32 mask = dst->qp_attr_mask;

	*dst = (struct ib_uverbs_qp_attr) {
		.qp_attr_mask = mask,
		.qp_state = src->qp_state,
		.cur_qp_state = src->cur_qp_state,
		.path_mtu = src->path_mtu,
		.path_mig_state = src->path_mig_state,
		.qkey = src->qkey,
		.rq_psn = src->rq_psn,
		.sq_psn = src->sq_psn,
		.dest_qp_num = src->dest_qp_num,
		.qp_access_flags = src->qp_access_flags,
		.max_send_wr = src->cap.max_send_wr,
		.max_recv_wr = src->cap.max_recv_wr,
		.max_send_sge = src->cap.max_send_sge,
		.max_recv_sge = src->cap.max_recv_sge,
		.max_inline_data = src->cap.max_inline_data,
		.pkey_index = src->pkey_index,
		.alt_pkey_index = src->alt_pkey_index,
		.en_sqd_async_notify = src->en_sqd_async_notify,
		.sq_draining = src->sq_draining,
		.max_rd_atomic = src->max_rd_atomic,
		.max_dest_rd_atomic = src->max_dest_rd_atomic,
		.min_rnr_timer = src->min_rnr_timer,
		.port_num = src->port_num,
		.timeout = src->timeout,
		.retry_cnt = src->retry_cnt,
		.rnr_retry = src->rnr_retry,
		.alt_port_num = src->alt_port_num,
		.alt_timeout = src->alt_timeout,
	};
	ib_copy_ah_attr_to_user(device, &dst->ah_attr, &src->ah_attr);
	ib_copy_ah_attr_to_user(device, &dst->alt_ah_attr, &src->alt_ah_attr);
}
EXPORT_SYMBOL(ib_copy_qp_attr_to_user);

/*
 * The members both layouts of a path record share, under the same names
 * and types: copied alike in both directions.
 */
#define marshall_path_common(dst, src)					\
	do {								\
		(dst)->reversible = (src)->reversible;			\
		(dst)->numb_path = (src)->numb_path;			\
		(dst)->preference = (src)->preference;			\
		(dst)->pkey = (src)->pkey;				\
		(dst)->sl = (src)->sl;					\
		(dst)->flow_label = (src)->flow_label;			\
		(dst)->hop_limit = (src)->hop_limit;			\
		(dst)->traffic_class = (src)->traffic_class;		\
		(dst)->mtu = (src)->mtu;				\
		(dst)->mtu_selector = (src)->mtu_selector;		\
		(dst)->rate = (src)->rate;				\
		(dst)->rate_selector = (src)->rate_selector;		\
		(dst)->packet_life_time = (src)->packet_life_time;	\
		(dst)->packet_life_time_selector =			\
			(src)->packet_life_time_selector;		\
	} while (0)

/**
 * ib_copy_path_rec_to_user() - a path record in the user ABI's layout
 * @dst: filled
 * @src: the path record; an OPA record is given as an InfiniBand one
 */
void ib_copy_path_rec_to_user(struct ib_user_path_rec *dst,
			      struct sa_path_rec *src)
{
	struct sa_path_rec ib;

	if (src->rec_type == SA_PATH_REC_TYPE_OPA) {
		sa_convert_path_opa_to_ib(&ib, src);
		src = &ib;
	}
	memset(dst, 0, sizeof(*dst));
	memcpy(dst->sgid, src->sgid.raw, sizeof(dst->sgid));
	memcpy(dst->dgid, src->dgid.raw, sizeof(dst->dgid));
	/* 16-bit LIDs in the user layout, network order either way. */
	dst->slid = htons(ntohl(sa_path_get_slid(src)));
	dst->dlid = htons(ntohl(sa_path_get_dlid(src)));
	dst->raw_traffic = sa_path_get_raw_traffic(src);
	marshall_path_common(dst, src);
}
EXPORT_SYMBOL(ib_copy_path_rec_to_user);

/**
 * ib_copy_path_rec_from_user() - a path record from the user ABI's layout
 * @dst: filled; an OPA record when either GID is an OPA GID (the LIDs
 *	come from the GIDs then), else an InfiniBand record
 * @src: the user's path record
 */
void ib_copy_path_rec_from_user(struct sa_path_rec *dst,
				struct ib_user_path_rec *src)
{
	const union ib_gid *sgid = (const union ib_gid *)src->sgid;
	const union ib_gid *dgid = (const union ib_gid *)src->dgid;
	bool opa = ib_is_opa_gid(sgid) || ib_is_opa_gid(dgid);

	memset(dst, 0, sizeof(*dst));
	dst->rec_type = opa ? SA_PATH_REC_TYPE_OPA : SA_PATH_REC_TYPE_IB;
	memcpy(dst->sgid.raw, src->sgid, sizeof(dst->sgid));
	memcpy(dst->dgid.raw, src->dgid, sizeof(dst->dgid));
	sa_path_set_slid(dst, opa ? opa_get_lid_from_gid(sgid) :
				    ntohs(src->slid));
	sa_path_set_dlid(dst, opa ? opa_get_lid_from_gid(dgid) :
				    ntohs(src->dlid));
	sa_path_set_raw_traffic(dst, src->raw_traffic);
	marshall_path_common(dst, src);
}
EXPORT_SYMBOL(ib_copy_path_rec_from_user);
