// SPDX-License-Identifier: GPL-2.0
/*
 * GUIDInfoRecord queries: the alias GUIDs of a port, read, set and
 * deleted through its SA (mlx4's SR-IOV GUID service).
 *
 * No state of its own; queries are query.c's.
 */
#include "abi/ib_core/sa_query.h"
#include "sa/internal.h"

struct sa_guid_query {
	void (*callback)(int status, struct ib_sa_guidinfo_rec *resp,
			 void *context);
	void *context;
};

static void sa_guid_done(struct ib_sa_query *query, int status,
			 const struct ib_sa_mad *mad)
{
	struct sa_guid_query *q = sa_query_priv(query);
	struct ib_sa_guidinfo_rec rec;

	if (!mad) {
		q->callback(status, NULL, q->context);
		return;
	}
	wire_guidinfo_unpack(mad->data, &rec);
	q->callback(0, &rec, q->context);
}

/**
 * ib_sa_guid_info_rec_query - read, set or delete a port's alias GUIDs
 * @client: the SA client the query counts for
 * @device: the device
 * @port_num: its InfiniBand port whose SA is asked
 * @rec: the record: LID, block number and the block's eight GUIDs
 * @comp_mask: IB_SA_GUIDINFO_REC_* bits
 * @method: IB_MGMT_METHOD_GET, IB_MGMT_METHOD_SET or IB_SA_METHOD_DELETE
 * @timeout_ms: how long the answer may take, retries included
 * @gfp_mask: allocation flags
 * @callback: called once, from the MAD layer's process context, with 0
 *	and the SA's record (valid during the call), or with an error and
 *	NULL, as for ib_sa_path_rec_get()
 * @context: for @callback
 * @sa_query: the handle for ib_sa_cancel_query(), out
 *
 * Return: the query's id (>= 0) when @callback will come; otherwise
 * -EINVAL (another method, no record or callback) or the errors of
 * ib_sa_path_rec_get().
 */
int ib_sa_guid_info_rec_query(struct ib_sa_client *client,
	struct ib_device *device, u32 port_num, struct ib_sa_guidinfo_rec *rec,
	ib_sa_comp_mask comp_mask, u8 method, unsigned long timeout_ms,
	gfp_t gfp_mask,
	void (*callback)(int status, struct ib_sa_guidinfo_rec *resp,
			 void *context),
	void *context, struct ib_sa_query **sa_query)
{
	struct ib_sa_query *query;
	struct sa_guid_query *q;
	struct ib_sa_mad *mad;

	if (method != IB_MGMT_METHOD_GET && method != IB_MGMT_METHOD_SET &&
	    method != IB_SA_METHOD_DELETE)
		return -EINVAL;
	if (!rec || !callback || !sa_query)
		return -EINVAL;
	query = sa_query_new(client, device, port_num, sizeof(*q), gfp_mask);
	if (IS_ERR(query))
		return PTR_ERR(query);
	q = sa_query_priv(query);
	q->callback = callback;
	q->context = context;
	mad = sa_query_mad(query, method, cpu_to_be16(IB_SA_ATTR_GUID_INFO_REC),
			   comp_mask);
	wire_guidinfo_pack(rec, mad->data);
	return sa_query_send(query, timeout_ms, sa_guid_done, NULL, gfp_mask,
			     sa_query);
}
EXPORT_SYMBOL(ib_sa_guid_info_rec_query);
