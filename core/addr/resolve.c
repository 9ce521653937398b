// SPDX-License-Identifier: GPL-2.0
/*
 * Address resolution requests: rdma_resolve_ip() and rdma_addr_cancel().
 *
 * A request is tried at once in the caller's context (route.c).  An error
 * there is the caller's return value.  Otherwise the request is queued on
 * resolve_wq, and its callback runs from there: at once when the first
 * attempt completed the addresses, else after later attempts, which run
 * when the neighbour table reports an entry that became valid, every
 * RESOLVE_RETRY_MS (which also restarts ARP or neighbour discovery that
 * gave up) and at the request's deadline, after which it fails with
 * -ETIMEDOUT.
 *
 * A request holds a reference on the namespace it resolves in, so that
 * the namespace outlives it even if the caller lets go of it.
 *
 * Ownership: a request is on resolve_reqs from when it is queued until its
 * callback has returned.  Whoever takes it off the list frees it: the work
 * after the callback, or rdma_addr_cancel(), which then waits for the work
 * (and a callback in progress) to finish, so that no callback runs after
 * it returns.
 */
#include "abi/ib_core/addr.h"
#include "addr/internal.h"

#define RESOLVE_RETRY_MS	1000
/* How long a RoCE address vector's destination MAC may take */
#define RESOLVE_SYNC_MS		1000

typedef void (*resolve_cb_t)(int status, struct sockaddr *src_addr,
			     struct rdma_dev_addr *addr, void *context);

/**
 * struct resolve_req - one rdma_resolve_ip() request
 * @node: on resolve_reqs (empty once taken off it), under resolve_lock
 * @work: the attempts after the first and the callback
 * @src: the source address, completed by the attempts
 * @dst: the destination
 * @addr: the caller's addresses, filled by the attempts
 * @net: the namespace, held; NULL when resolving by the GID attribute
 * @callback: the caller's
 * @context: its argument
 * @deadline: jiffies after which a pending request fails
 * @status: the last attempt's result; -ENODATA while pending
 * @by_gid_attr: route from the netdev of addr->sgid_attr
 *
 * Only @node is shared; the rest belongs to whoever runs @work.
 */
struct resolve_req {
	struct list_head node;
	struct delayed_work work;
	struct sockaddr_storage src;
	struct sockaddr_storage dst;
	struct rdma_dev_addr *addr;
	struct net *net;
	resolve_cb_t callback;
	void *context;
	unsigned long deadline;
	int status;
	bool by_gid_attr;
};

/* Protects resolve_reqs and each request's node; taken in softirq too. */
static DEFINE_SPINLOCK(resolve_lock);
static LIST_HEAD(resolve_reqs);
static struct workqueue_struct *resolve_wq;

static void resolve_free(struct resolve_req *req)
{
	if (req->net)
		put_net(req->net);
	kfree(req);
}

/* Run the work at @when (jiffies) at the latest; only if still queued. */
static void resolve_arm(struct resolve_req *req, unsigned long when)
{
	unsigned long now = jiffies;

	lockdep_assert_held(&resolve_lock);
	if (!list_empty(&req->node))
		mod_delayed_work(resolve_wq, &req->work,
				 time_after(when, now) ? when - now : 0);
}

static int resolve_attempt(struct resolve_req *req)
{
	return route_attempt(req->net, (struct sockaddr *)&req->src,
			     (struct sockaddr *)&req->dst, req->addr,
			     req->by_gid_attr, true);
}

/* When a pending request tries again: in a while, or at its deadline. */
static unsigned long resolve_next_try(const struct resolve_req *req)
{
	unsigned long next = jiffies + msecs_to_jiffies(RESOLVE_RETRY_MS);

	return time_after(next, req->deadline) ? req->deadline : next;
}

/* Pending: try again.  Returns true when the callback is due. */
static bool resolve_retry(struct resolve_req *req)
{
	req->status = resolve_attempt(req);
	if (!req->status)
		return true;
	if (time_after_eq(jiffies, req->deadline)) {
		req->status = -ETIMEDOUT;
		return true;
	}
	if (req->status != -ENODATA)
		return true;
	spin_lock_bh(&resolve_lock);
	resolve_arm(req, resolve_next_try(req));
	spin_unlock_bh(&resolve_lock);
	return false;
}

static void resolve_work(struct work_struct *work)
{
	struct resolve_req *req =
		container_of(to_delayed_work(work), struct resolve_req, work);
	bool mine;

	if (req->status == -ENODATA && !resolve_retry(req))
		return;
	req->callback(req->status, (struct sockaddr *)&req->src, req->addr,
		      req->context);

	spin_lock_bh(&resolve_lock);
	mine = !list_empty(&req->node);
	list_del_init(&req->node);
	/* A neighbour update may have armed it again during the callback */
	if (mine)
		cancel_delayed_work(&req->work);
	spin_unlock_bh(&resolve_lock);
	/* Not mine: rdma_addr_cancel() took it and frees it after us. */
	if (mine)
		resolve_free(req);
}

/* A neighbour entry became valid: pending requests try again now. */
static int resolve_netevent(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct neighbour *n = ptr;
	struct resolve_req *req;

	if (event != NETEVENT_NEIGH_UPDATE ||
	    !(READ_ONCE(n->nud_state) & NUD_VALID))
		return NOTIFY_DONE;
	spin_lock_bh(&resolve_lock);
	list_for_each_entry(req, &resolve_reqs, node)
		resolve_arm(req, jiffies);
	spin_unlock_bh(&resolve_lock);
	return NOTIFY_DONE;
}

static struct notifier_block resolve_nb = {
	.notifier_call = resolve_netevent,
};

/* Checks and copies the caller's input into @req. */
static int resolve_req_init(struct resolve_req *req, struct sockaddr *src,
			    const struct sockaddr *dst,
			    struct rdma_dev_addr *addr, bool by_gid_attr)
{
	if (!dst || !addr)
		return -EINVAL;
	if (dst->sa_family != AF_INET && dst->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (src && src->sa_family != dst->sa_family)
		return -EINVAL;
	if (by_gid_attr ? !addr->sgid_attr : !addr->net)
		return -EINVAL;

	memcpy(&req->dst, dst, rdma_addr_size(dst));
	if (src)
		memcpy(&req->src, src, rdma_addr_size(src));
	else
		req->src.ss_family = dst->sa_family;
	req->addr = addr;
	req->by_gid_attr = by_gid_attr;
	if (!by_gid_attr) {
		/* A namespace on its way out has no routes left to find. */
		req->net = maybe_get_net(addr->net);
		if (!req->net)
			return -ENETUNREACH;
	}
	return 0;
}

/**
 * rdma_resolve_ip - resolve IP addresses to RDMA hardware addresses
 * @src_addr: the source address, or NULL (or the any address) for the one
 *	the route picks; the callback gets the address used
 * @dst_addr: the destination, AF_INET or AF_INET6; an IPv6 link-local one
 *	needs an interface (@addr->bound_dev_if or its scope id)
 * @addr: in: net (the namespace; held by the request), bound_dev_if (0 for
 *	any), sgid_attr (with @resolve_by_gid_attr); out: the source and
 *	destination hardware addresses, broadcast, dev_type, bound_dev_if,
 *	network, hoplimit.  Must stay valid until the callback.
 * @timeout_ms: how long the destination's hardware address may take
 * @callback: called once from a workqueue, with 0 or an error
 *	(-ETIMEDOUT, or the routing error of a later attempt), unless
 *	rdma_addr_cancel() came first
 * @resolve_by_gid_attr: route from the netdev of @addr->sgid_attr, in its
 *	namespace, instead of @addr->net and @addr->bound_dev_if
 * @context: for @callback
 *
 * Sleeps (allocates).  When the route and the neighbour are known at once,
 * the callback still runs from the workqueue, never before this returns.
 *
 * Return: 0 when the callback will come; otherwise no callback comes and
 * the error is -EINVAL (bad arguments, family mismatch, a link-local
 * address without interface), -EAFNOSUPPORT (not IP), -ENOMEM, the
 * routing error (-ENETUNREACH, -EHOSTUNREACH...), -ENODEV, or
 * -EADDRNOTAVAIL (a routed InfiniBand destination).
 */
int rdma_resolve_ip(struct sockaddr *src_addr, const struct sockaddr *dst_addr,
		    struct rdma_dev_addr *addr, unsigned long timeout_ms,
		    void (*callback)(int status, struct sockaddr *src_addr,
				     struct rdma_dev_addr *addr, void *context),
		    bool resolve_by_gid_attr, void *context)
{
	struct resolve_req *req;
	int ret;

	if (!callback)
		return -EINVAL;
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	INIT_LIST_HEAD(&req->node);
	INIT_DELAYED_WORK(&req->work, resolve_work);
	ret = resolve_req_init(req, src_addr, dst_addr, addr,
			       resolve_by_gid_attr);
	if (ret)
		goto err;
	req->callback = callback;
	req->context = context;
	req->deadline = jiffies + msecs_to_jiffies(timeout_ms);

	req->status = resolve_attempt(req);
	if (req->status && req->status != -ENODATA) {
		ret = req->status;
		goto err;
	}
	spin_lock_bh(&resolve_lock);
	list_add_tail(&req->node, &resolve_reqs);
	resolve_arm(req, req->status ? resolve_next_try(req) : jiffies);
	spin_unlock_bh(&resolve_lock);
	return 0;

err:
	resolve_free(req);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_ip);

/**
 * rdma_addr_cancel - cancel an rdma_resolve_ip() request
 * @addr: the rdma_dev_addr the request was given
 *
 * Cancels the oldest request for @addr that has not completed.  Sleeps: if
 * its callback is running, waits for it to return.  No callback of that
 * request runs after this returns; nothing happens if there is none.
 * Must not be called from the request's own callback.
 */
void rdma_addr_cancel(struct rdma_dev_addr *addr)
{
	struct resolve_req *req, *found = NULL;

	spin_lock_bh(&resolve_lock);
	list_for_each_entry(req, &resolve_reqs, node) {
		if (req->addr == addr) {
			list_del_init(&req->node);
			found = req;
			break;
		}
	}
	spin_unlock_bh(&resolve_lock);
	if (!found)
		return;
	cancel_delayed_work_sync(&found->work);
	resolve_free(found);
}
EXPORT_SYMBOL(rdma_addr_cancel);

struct resolve_wait {
	struct completion done;
	int status;
};

static void resolve_wait_cb(int status, struct sockaddr *src_addr,
			    struct rdma_dev_addr *addr, void *context)
{
	struct resolve_wait *w = context;

	w->status = status;
	complete(&w->done);
}

/**
 * resolve_l2_by_gid - the next hop's MAC from a RoCE source GID to an IP GID
 * @sgid_attr: the source GID, held by the caller; routes from its netdev
 * @dgid: the destination, an IP address as a GID
 * @dmac: the destination MAC, out
 * @hoplimit: the route's hop limit, out
 *
 * Sleeps, for at most RESOLVE_SYNC_MS while the neighbour is resolved.
 *
 * Return: 0; -EINVAL when the two GIDs are not of one IP family; an error
 * of rdma_resolve_ip() or of its callback (-ETIMEDOUT).
 */
int resolve_l2_by_gid(const struct ib_gid_attr *sgid_attr,
		      const union ib_gid *dgid, u8 *dmac, int *hoplimit)
{
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
	} src, dst;
	struct rdma_dev_addr dev_addr = { .sgid_attr = sgid_attr };
	struct resolve_wait w = { .status = 0 };
	int ret;

	rdma_gid2ip((struct sockaddr *)&src, &sgid_attr->gid);
	rdma_gid2ip((struct sockaddr *)&dst, dgid);
	if (src.sa.sa_family != dst.sa.sa_family)
		return -EINVAL;
	init_completion(&w.done);
	ret = rdma_resolve_ip(&src.sa, &dst.sa, &dev_addr, RESOLVE_SYNC_MS,
			      resolve_wait_cb, true, &w);
	if (ret)
		return ret;
	wait_for_completion(&w.done);
	if (w.status)
		return w.status;
	ether_addr_copy(dmac, dev_addr.dst_dev_addr);
	*hoplimit = dev_addr.hoplimit;
	return 0;
}

/**
 * resolve_init - start address resolution (ib_core's load)
 *
 * Return: 0 or -ENOMEM.
 */
int resolve_init(void)
{
	int ret;

	resolve_wq = alloc_workqueue("ib_addr", WQ_UNBOUND, 0);
	if (!resolve_wq)
		return -ENOMEM;
	ret = register_netevent_notifier(&resolve_nb);
	if (ret)
		destroy_workqueue(resolve_wq);
	return ret;
}

/**
 * resolve_exit - stop address resolution (ib_core's unload)
 *
 * Every caller is a module that depends on ib_core and is gone; a request
 * one of them left behind is dropped without its callback.
 */
void resolve_exit(void)
{
	struct resolve_req *req;

	unregister_netevent_notifier(&resolve_nb);
	for (;;) {
		spin_lock_bh(&resolve_lock);
		req = list_first_entry_or_null(&resolve_reqs,
					       struct resolve_req, node);
		if (req)
			list_del_init(&req->node);
		spin_unlock_bh(&resolve_lock);
		if (!req)
			break;
		cancel_delayed_work_sync(&req->work);
		resolve_free(req);
	}
	destroy_workqueue(resolve_wq);
}
