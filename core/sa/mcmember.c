// SPDX-License-Identifier: GPL-2.0
/*
 * MCMemberRecord queries for mcast.c: a port's joins (SET) and leaves
 * (DELETE) of multicast groups, sent for the multicast layer's own SA
 * client.
 *
 * No state of its own; queries are query.c's.
 */
#include "abi/ib_core/sa_query.h"
#include "sa/internal.h"

struct sa_mcmember_query {
	sa_mcmember_done_t done;
	void *context;
};

static void sa_mcmember_done(struct ib_sa_query *query, int status,
			     const struct ib_sa_mad *mad)
{
	struct sa_mcmember_query *q = sa_query_priv(query);
	struct ib_sa_mcmember_rec rec;

	if (!mad) {
		q->done(status, NULL, q->context);
		return;
	}
	wire_mcmember_unpack(mad->data, &rec);
	q->done(0, &rec, q->context);
}

/**
 * sa_mcmember_query - send an MCMemberRecord to a port's SA
 * @client: the SA client the query counts for
 * @device: the device
 * @port_num: the port
 * @method: IB_MGMT_METHOD_SET (join) or IB_SA_METHOD_DELETE (leave)
 * @rec: the record
 * @comp_mask: IB_SA_MCMEMBER_REC_* bits
 * @timeout_ms: how long the answer may take, retries included
 * @done: called once with 0 and the SA's record, or an error and NULL
 * @context: for @done
 * @handle: the query, for ib_sa_cancel_query(), out
 *
 * Sleeps (GFP_KERNEL).
 *
 * Return: the query's id (>= 0) when @done will come, or an errno.
 */
int sa_mcmember_query(struct ib_sa_client *client, struct ib_device *device,
		      u32 port_num, u8 method,
		      const struct ib_sa_mcmember_rec *rec,
		      ib_sa_comp_mask comp_mask, unsigned long timeout_ms,
		      sa_mcmember_done_t done, void *context,
		      struct ib_sa_query **handle)
{
	struct sa_mcmember_query *q;
	struct ib_sa_query *query;
	struct ib_sa_mad *mad;

	query = sa_query_new(client, device, port_num, sizeof(*q), GFP_KERNEL);
	if (IS_ERR(query))
		return PTR_ERR(query);
	q = sa_query_priv(query);
	q->done = done;
	q->context = context;
	mad = sa_query_mad(query, method, cpu_to_be16(IB_SA_ATTR_MC_MEMBER_REC),
			   comp_mask);
	wire_mcmember_pack(rec, mad->data);
	return sa_query_send(query, timeout_ms, sa_mcmember_done, NULL,
			     GFP_KERNEL, handle);
}
