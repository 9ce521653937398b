// SPDX-License-Identifier: GPL-2.0
/*
 * SA queries: one SA MAD to the port's SM address and its answer.
 *
 * A query is made (sa_query_new()), its MAD filled (sa_query_mad() and
 * the record), and sent (sa_query_send()), which gives it an id for
 * ib_sa_cancel_query().  The MAD layer retries it within the caller's
 * timeout.  Its done() hears exactly once: from the receive handler with
 * the answer (0, or -EINVAL for an answer with an error status or that is
 * no answer to it), or from the send handler with -ETIMEDOUT (no answer
 * in time), -EINTR (cancelled, or its port went away) or -EIO.  Then it
 * is released.
 *
 * Lifetime: a query has a reference for its send, dropped by the send
 * handler after done(), and one for each ib_sa_cancel_query() in
 * progress; the last frees its MAD and releases its SM address and its
 * client.  sa_queries maps ids to queries being sent (irq-safe lock:
 * callers cancel and send under their own spinlocks).
 *
 * SA clients (struct ib_sa_client): @users counts the client's own
 * reference and one per query; ib_sa_unregister_client() drops the first
 * and waits for the rest, so that no callback runs after it.
 */
#include "abi/ib_core/sa_query.h"
#include "sa/internal.h"

/* The SA's answer method to each request method */
#define SA_RESP(method)	((method) == IB_MGMT_METHOD_SET ? \
			 IB_MGMT_METHOD_GET_RESP : (method) | IB_MGMT_METHOD_RESP)

struct ib_sa_query {
	struct kref ref;
	struct ib_sa_client *client;
	struct sa_port *port;
	struct sa_sm_ah *sm_ah;
	struct ib_mad_send_buf *send_buf;
	int id;
	bool answered;
	sa_query_done_t done;
	void (*release)(struct ib_sa_query *query);
	u8 priv[] __aligned(sizeof(void *));
};

static DEFINE_XARRAY_FLAGS(sa_queries, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
static u32 sa_next_id;		/* under sa_queries' lock */
static atomic_t sa_tid;

/**
 * sa_client_get - a query's reference on its client
 * @client: the client, or NULL for the core's own queries
 */
void sa_client_get(struct ib_sa_client *client)
{
	if (client)
		atomic_inc(&client->users);
}

/**
 * sa_client_put - drop sa_client_get()'s reference; any context
 * @client: the client, or NULL
 */
void sa_client_put(struct ib_sa_client *client)
{
	if (client && atomic_dec_and_test(&client->users))
		complete(&client->comp);
}

/**
 * ib_sa_register_client - make an SA client ready for queries
 * @client: the client's structure, owned by the caller
 */
void ib_sa_register_client(struct ib_sa_client *client)
{
	atomic_set(&client->users, 1);
	init_completion(&client->comp);
}
EXPORT_SYMBOL(ib_sa_register_client);

/**
 * ib_sa_unregister_client - wait for the client's queries and joins
 * @client: a registered client
 *
 * Sleeps until every query and multicast member of @client is gone: no
 * callback for it runs after this returns.  The caller cancels or frees
 * what it does not want to wait for.
 */
void ib_sa_unregister_client(struct ib_sa_client *client)
{
	sa_client_put(client);
	wait_for_completion(&client->comp);
}
EXPORT_SYMBOL(ib_sa_unregister_client);

/**
 * sa_query_new - a query of a port, before its MAD is filled
 * @client: the SA client it counts for, or NULL (the core's own)
 * @device: the device
 * @port_num: the port
 * @priv_size: bytes for the owner (sa_query_priv())
 * @gfp: allocation flags
 *
 * Return: the query (sent with sa_query_send() or dropped with
 * sa_query_abandon()), or ERR_PTR: -ENODEV for a port without an SA,
 * -EAGAIN while its SM is not known, -ENOMEM.
 */
struct ib_sa_query *sa_query_new(struct ib_sa_client *client,
				 struct ib_device *device, u32 port_num,
				 size_t priv_size, gfp_t gfp)
{
	struct sa_port *port = sa_port_get(device, port_num);
	struct ib_sa_query *query;
	struct ib_mad_send_buf *buf;
	u16 pkey_index;
	struct ib_ah *ah;

	if (!port)
		return ERR_PTR(-ENODEV);
	query = kzalloc(struct_size(query, priv, priv_size), gfp);
	if (!query)
		return ERR_PTR(-ENOMEM);
	query->sm_ah = sa_port_ah_get(port);
	if (!query->sm_ah) {
		kfree(query);
		return ERR_PTR(-EAGAIN);
	}
	ah = sa_ah(query->sm_ah, &pkey_index);
	buf = ib_create_send_mad(sa_port_agent(port), 1, pkey_index, 0,
				 IB_MGMT_SA_HDR, IB_MGMT_SA_DATA, gfp,
				 IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf)) {
		sa_ah_put(query->sm_ah);
		kfree(query);
		return ERR_CAST(buf);
	}
	buf->ah = ah;
	buf->context[0] = query;
	kref_init(&query->ref);
	query->client = client;
	query->port = port;
	query->send_buf = buf;
	query->id = -1;
	return query;
}

/**
 * sa_query_priv - the owner's bytes of a query
 * @query: the query
 *
 * Return: sa_query_new()'s @priv_size bytes, zeroed at first.
 */
void *sa_query_priv(struct ib_sa_query *query)
{
	return query->priv;
}

/**
 * sa_query_mad - fill the SA header of a query's MAD
 * @query: the query
 * @method: IB_MGMT_METHOD_GET, _SET or IB_SA_METHOD_DELETE
 * @attr_id: the record's attribute id (big-endian)
 * @comp_mask: which fields of the record count
 *
 * Return: the MAD; its data is for the record, zeroed.
 */
struct ib_sa_mad *sa_query_mad(struct ib_sa_query *query, u8 method,
			       __be16 attr_id, ib_sa_comp_mask comp_mask)
{
	struct ib_sa_mad *mad = query->send_buf->mad;
	u32 hi_tid = sa_port_agent(query->port)->hi_tid;

	memset(mad, 0, sizeof(*mad));
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = IB_MGMT_CLASS_SUBN_ADM;
	mad->mad_hdr.class_version = IB_SA_CLASS_VERSION;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = attr_id;
	mad->mad_hdr.tid = cpu_to_be64((u64)hi_tid << 32 |
				       (u32)atomic_inc_return(&sa_tid));
	mad->sa_hdr.comp_mask = comp_mask;
	return mad;
}

static void sa_query_free(struct kref *ref)
{
	struct ib_sa_query *query = container_of(ref, struct ib_sa_query, ref);
	struct ib_sa_client *client = query->client;

	ib_free_send_mad(query->send_buf);
	sa_ah_put(query->sm_ah);
	if (query->release)
		query->release(query);
	kfree(query);
	sa_client_put(client);
}

/**
 * sa_query_abandon - drop a query that was not sent
 * @query: from sa_query_new(); its release is not called
 */
void sa_query_abandon(struct ib_sa_query *query)
{
	query->client = NULL;
	query->release = NULL;
	kref_put(&query->ref, sa_query_free);
}

/**
 * sa_query_send - send a query
 * @query: filled by its owner
 * @timeout_ms: how long the answer may take, retries included
 * @done: hears the outcome, once, from a MAD handler (process context)
 * @release: frees what the owner keeps through sa_query_priv(), or NULL;
 *	called after @done, just before the query is freed
 * @gfp: allocation flags of the id
 * @handle: for ib_sa_cancel_query(), out
 *
 * The MAD goes out up to SA_QUERY_TRIES times, each allowed a share of
 * @timeout_ms, or the SA's response time from its ClassPortInfo if that
 * is longer (but never more than @timeout_ms), and at least 1 ms; only as
 * many tries as fit in @timeout_ms.
 *
 * Return: the id (>= 0); or an errno, and the query is gone without
 * @done or @release.
 */
int sa_query_send(struct ib_sa_query *query, unsigned long timeout_ms,
		  sa_query_done_t done, void (*release)(struct ib_sa_query *),
		  gfp_t gfp, struct ib_sa_query **handle)
{
	struct ib_mad_send_buf *buf = query->send_buf;
	unsigned long flags;
	u32 id;
	int ret;

	buf->timeout_ms = clamp(max(timeout_ms / SA_QUERY_TRIES,
				    sa_port_resp_ms(query->port)),
				1UL, max(timeout_ms, 1UL));
	/* As many tries as fit in @timeout_ms, at least one */
	buf->retries = clamp(timeout_ms / buf->timeout_ms, 1UL,
			     (unsigned long)SA_QUERY_TRIES) - 1;
	query->done = done;
	xa_lock_irqsave(&sa_queries, flags);
	ret = __xa_alloc_cyclic(&sa_queries, &id, query, xa_limit_31b,
				&sa_next_id, gfp);
	xa_unlock_irqrestore(&sa_queries, flags);
	if (ret < 0) {
		sa_query_abandon(query);
		return ret;
	}
	query->id = id;
	sa_client_get(query->client);
	query->release = release;
	*handle = query;
	ret = ib_post_send_mad(buf, NULL);
	if (ret) {
		xa_lock_irqsave(&sa_queries, flags);
		__xa_erase(&sa_queries, id);
		xa_unlock_irqrestore(&sa_queries, flags);
		/* Neither done() nor release(): the caller keeps its own */
		query->release = NULL;
		sa_client_put(query->client);
		query->client = NULL;
		kref_put(&query->ref, sa_query_free);
		return ret;
	}
	/* From here on the query may be gone already */
	return id;
}

/**
 * ib_sa_cancel_query - cancel a query in progress
 * @id: the id the query was started with
 * @query: the query handle it returned
 *
 * If the query has not completed, its callback gets -EINTR (from the MAD
 * layer's context, perhaps before this returns); otherwise, or if @id
 * and @query do not belong together, nothing happens.  Any context.
 */
void ib_sa_cancel_query(int id, struct ib_sa_query *query)
{
	struct ib_sa_query *found;
	unsigned long flags;

	if (id < 0)
		return;
	xa_lock_irqsave(&sa_queries, flags);
	found = xa_load(&sa_queries, id);
	if (found == query && query)
		kref_get(&found->ref);
	else
		found = NULL;
	xa_unlock_irqrestore(&sa_queries, flags);
	if (!found)
		return;
	ib_cancel_mad(found->send_buf);
	kref_put(&found->ref, sa_query_free);
}
EXPORT_SYMBOL(ib_sa_cancel_query);

/* Whether @mad is an answer to @query's request, and its outcome. */
static int sa_query_check(struct ib_sa_query *query,
			  const struct ib_mad_recv_wc *recv_wc)
{
	const struct ib_sa_mad *req = query->send_buf->mad;
	const struct ib_sa_mad *mad = (const void *)recv_wc->recv_buf.mad;

	if (recv_wc->wc->status != IB_WC_SUCCESS)
		return -EIO;
	if (recv_wc->mad_len < IB_MGMT_SA_HDR ||
	    mad->mad_hdr.mgmt_class != IB_MGMT_CLASS_SUBN_ADM ||
	    mad->mad_hdr.method != SA_RESP(req->mad_hdr.method) ||
	    mad->mad_hdr.attr_id != req->mad_hdr.attr_id)
		return -EINVAL;
	return mad->mad_hdr.status ? -EINVAL : 0;
}

/**
 * sa_query_recv - the receive handler of the SA agents
 * @agent: a port's agent
 * @send_buf: the request the MAD answers, or NULL
 * @recv_wc: the MAD
 *
 * An answer goes to its query's done(); anything else is dropped.
 */
void sa_query_recv(struct ib_mad_agent *agent, struct ib_mad_send_buf *send_buf,
		   struct ib_mad_recv_wc *recv_wc)
{
	struct ib_sa_query *query = send_buf ? send_buf->context[0] : NULL;
	int status;

	if (query && !query->answered) {
		status = sa_query_check(query, recv_wc);
		query->answered = true;
		query->done(query, status,
			    status ? NULL : (void *)recv_wc->recv_buf.mad);
	}
	ib_free_recv_mad(recv_wc);
}

/**
 * sa_query_sent - the send handler of the SA agents
 * @agent: a port's agent
 * @send_wc: the end of a query's send
 *
 * A query without an answer hears why; then its send's reference goes.
 */
void sa_query_sent(struct ib_mad_agent *agent, struct ib_mad_send_wc *send_wc)
{
	struct ib_sa_query *query = send_wc->send_buf->context[0];
	unsigned long flags;
	int status;

	if (!query->answered) {
		switch (send_wc->status) {
		case IB_WC_RESP_TIMEOUT_ERR:
			status = -ETIMEDOUT;
			break;
		case IB_WC_WR_FLUSH_ERR:
			status = -EINTR;
			break;
		default:
			status = -EIO;
			break;
		}
		query->answered = true;
		query->done(query, status, NULL);
	}
	xa_lock_irqsave(&sa_queries, flags);
	__xa_erase(&sa_queries, query->id);
	xa_unlock_irqrestore(&sa_queries, flags);
	kref_put(&query->ref, sa_query_free);
}

struct sa_cpi_query {
	struct sa_port *port;
};

static void sa_cpi_done(struct ib_sa_query *query, int status,
			const struct ib_sa_mad *mad)
{
	struct sa_cpi_query *q = sa_query_priv(query);
	struct ib_class_port_info cpi;

	if (mad)
		memcpy(&cpi, mad->data, sizeof(cpi));
	sa_port_cpi_done(q->port, mad ? &cpi : NULL);
}

/**
 * sa_query_cpi - ask a port's SA for its ClassPortInfo
 * @port: the port
 * @timeout_ms: how long the answer may take
 *
 * The outcome goes to sa_port_cpi_done().
 *
 * Return: 0 when the query is out; an errno (no query) otherwise.
 */
int sa_query_cpi(struct sa_port *port, unsigned long timeout_ms)
{
	struct ib_sa_query *query, *handle;
	struct sa_cpi_query *q;
	int ret;

	query = sa_query_new(NULL, sa_port_device(port), sa_port_num(port),
			     sizeof(*q), GFP_KERNEL);
	if (IS_ERR(query))
		return PTR_ERR(query);
	q = sa_query_priv(query);
	q->port = port;
	sa_query_mad(query, IB_MGMT_METHOD_GET, IB_MGMT_CLASSPORTINFO_ATTR_ID,
		     0);
	ret = sa_query_send(query, timeout_ms, sa_cpi_done, NULL, GFP_KERNEL,
			    &handle);
	return ret < 0 ? ret : 0;
}
