// SPDX-License-Identifier: GPL-2.0
/*
 * Paths: PathRecord queries to the SA of an InfiniBand port, and the
 * address vector a path record describes (InfiniBand, or RoCE, whose
 * paths rdma_cm makes itself: there is no SA on RoCE).
 *
 * No state of its own; queries are query.c's.
 */
#include "abi/ib_core/sa_query.h"
#include "addr/internal.h"
#include "sa/internal.h"

/* What a path query keeps for its owner */
struct sa_path_query {
	void (*callback)(int status, struct sa_path_rec *resp, int num_prs,
			 void *context);
	void *context;
};

static void sa_path_done(struct ib_sa_query *query, int status,
			 const struct ib_sa_mad *mad)
{
	struct sa_path_query *q = sa_query_priv(query);
	struct sa_path_rec rec;

	if (!mad) {
		q->callback(status, NULL, 0, q->context);
		return;
	}
	memset(&rec, 0, sizeof(rec));
	rec.rec_type = SA_PATH_REC_TYPE_IB;
	ib_sa_unpack_path((void *)mad->data, &rec);
	q->callback(0, &rec, 1, q->context);
}

/**
 * ib_sa_path_rec_get - ask the SA for a path
 * @client: the SA client the query counts for
 * @device: the device
 * @port_num: its InfiniBand port whose SA is asked
 * @rec: the path wanted, an InfiniBand record; @comp_mask says which of
 *	its fields count
 * @comp_mask: IB_SA_PATH_REC_* bits
 * @timeout_ms: how long the answer may take, retries included
 * @gfp_mask: allocation flags (GFP_ATOMIC where the caller cannot sleep)
 * @callback: called once, from the MAD layer's process context, with 0
 *	and the path (valid during the call), or with an error and NULL:
 *	-ETIMEDOUT, -EINTR (cancelled; the device going away), -EINVAL (the
 *	SA answered with an error status, or not with a path), -EIO
 * @context: for @callback
 * @sa_query: the handle for ib_sa_cancel_query(), out
 *
 * Return: the query's id (>= 0) when @callback will come; otherwise
 * -EINVAL (no record or callback, an OPA record), -ENODEV (a port without
 * an SA), -EAGAIN (its SM is not known yet), -ENOMEM, or the MAD layer's
 * error.
 */
int ib_sa_path_rec_get(struct ib_sa_client *client, struct ib_device *device,
		       u32 port_num, struct sa_path_rec *rec,
		       ib_sa_comp_mask comp_mask, unsigned long timeout_ms,
		       gfp_t gfp_mask,
		       void (*callback)(int status, struct sa_path_rec *resp,
					int num_prs, void *context),
		       void *context, struct ib_sa_query **sa_query)
{
	struct ib_sa_query *query;
	struct sa_path_query *q;
	struct ib_sa_mad *mad;

	if (!rec || !callback || !sa_query || sa_path_is_opa(rec))
		return -EINVAL;
	query = sa_query_new(client, device, port_num, sizeof(*q), gfp_mask);
	if (IS_ERR(query))
		return PTR_ERR(query);
	q = sa_query_priv(query);
	q->callback = callback;
	q->context = context;
	mad = sa_query_mad(query, IB_MGMT_METHOD_GET,
			   cpu_to_be16(IB_SA_ATTR_PATH_REC), comp_mask);
	ib_sa_pack_path(rec, mad->data);
	return sa_query_send(query, timeout_ms, sa_path_done, NULL, gfp_mask,
			     sa_query);
}
EXPORT_SYMBOL(ib_sa_path_rec_get);

/*
 * A RoCE path's route from @sgid_attr: checked once (route_resolved).  A
 * routed path (through a gateway) must be RoCE v2.
 */
static int sa_path_roce_route(struct sa_path_rec *rec,
			      const struct ib_gid_attr *sgid_attr)
{
	enum rdma_network_type network;
	int ret;

	if (rec->roce.route_resolved)
		return 0;
	if (!sgid_attr || !rcu_access_pointer(sgid_attr->ndev))
		return -EINVAL;
	ret = route_roce_network(sgid_attr, &rec->dgid, &network);
	if (ret)
		return ret;
	if ((network == RDMA_NETWORK_IPV4 || network == RDMA_NETWORK_IPV6) &&
	    rec->rec_type != SA_PATH_REC_TYPE_ROCE_V2)
		return -EINVAL;
	rec->roce.route_resolved = true;
	return 0;
}

/* The GRH of a path, with a reference on its source GID entry. */
static int sa_path_grh(struct ib_device *device, u32 port_num,
		       struct sa_path_rec *rec, struct rdma_ah_attr *ah_attr,
		       const struct ib_gid_attr *sgid_attr)
{
	if (sgid_attr) {
		rdma_hold_gid_attr(sgid_attr);
	} else {
		sgid_attr = rdma_find_gid_by_port(device, &rec->sgid,
						  sa_conv_pathrec_to_gid_type(rec),
						  port_num, NULL);
		if (IS_ERR(sgid_attr))
			return PTR_ERR(sgid_attr);
	}
	rdma_move_grh_sgid_attr(ah_attr, &rec->dgid,
				be32_to_cpu(rec->flow_label), rec->hop_limit,
				rec->traffic_class, sgid_attr);
	return 0;
}

/**
 * ib_init_ah_attr_from_path - the address vector of a path
 * @device: the device
 * @port_num: the port the path starts at
 * @rec: the path (InfiniBand, or RoCE with its destination MAC); a RoCE
 *	path's route is checked and marked resolved
 * @ah_attr: the vector, out
 * @sgid_attr: the source GID entry to use, or NULL to find @rec->sgid of
 *	the path's GID type on the port (required for RoCE)
 *
 * An InfiniBand path gets the destination LID, the source path bits its
 * LMC allows and, when its hop limit is not 0, a GRH; a RoCE path always
 * a GRH.  A GRH holds a reference on its source GID entry:
 * rdma_destroy_ah_attr() releases it.
 *
 * Return: 0; -EINVAL for a port the device lacks, a RoCE path without a
 * source GID entry with a netdev, or a routed RoCE path that is not RoCE
 * v2; the routing error of a RoCE path; -ENOENT when the source GID is not
 * on the port.
 */
int ib_init_ah_attr_from_path(struct ib_device *device, u32 port_num,
			      struct sa_path_rec *rec,
			      struct rdma_ah_attr *ah_attr,
			      const struct ib_gid_attr *sgid_attr)
{
	int ret;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);
	rdma_ah_set_port_num(ah_attr, port_num);
	rdma_ah_set_static_rate(ah_attr, rec->rate);
	rdma_ah_set_sl(ah_attr, rec->sl);
	if (sa_path_is_roce(rec)) {
		ret = sa_path_roce_route(rec, sgid_attr);
		if (ret)
			return ret;
		memcpy(ah_attr->roce.dmac, sa_path_get_dmac(rec), ETH_ALEN);
		return sa_path_grh(device, port_num, rec, ah_attr, sgid_attr);
	}
	rdma_ah_set_dlid(ah_attr, be32_to_cpu(sa_path_get_dlid(rec)));
	rdma_ah_set_path_bits(ah_attr, be32_to_cpu(sa_path_get_slid(rec)) &
			      sa_port_path_mask(device, port_num));
	if (!rec->hop_limit)
		return 0;
	return sa_path_grh(device, port_num, rec, ah_attr, sgid_attr);
}
EXPORT_SYMBOL(ib_init_ah_attr_from_path);
