// SPDX-License-Identifier: GPL-2.0
/*
 * The neighbours of RoCE routes.  A RoCE route holds the next hop's MAC,
 * learnt when the address was resolved; when the neighbour table gives
 * that next hop another MAC, the route is stale and the ID gets
 * RDMA_CM_EVENT_UNREACHABLE (-ETIMEDOUT), as in-tree, from its
 * id.net_work on rdma_cm's work queue.
 *
 * cma_neigh_lock (a spinlock: the netevent chain runs in atomic context)
 * protects cma_routes, the IDs with a resolved RoCE route, linked by
 * their @neigh_link.  A queued net_work holds a reference on its ID.
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

static DEFINE_SPINLOCK(cma_neigh_lock);
static LIST_HEAD(cma_routes);

static void cma_neigh_work(struct work_struct *work)
{
	struct cma_id *priv = container_of(work, struct cma_id, id.net_work);
	struct rdma_cm_event event = {
		.event = RDMA_CM_EVENT_UNREACHABLE,
		.status = -ETIMEDOUT,
	};
	enum cma_state state;

	mutex_lock(&priv->handler_mutex);
	state = cma_state(priv);
	if (state != CMA_DESTROYING && state != CMA_DEVICE_REMOVAL) {
		cma_deliver_unlock_put(priv, &event);
	} else {
		mutex_unlock(&priv->handler_mutex);
		cma_put(priv);
	}
}

/**
 * cma_neigh_init_id - prepare an ID's net_work
 * @priv: a new ID
 */
void cma_neigh_init_id(struct cma_id *priv)
{
	INIT_LIST_HEAD(&priv->neigh_link);
	INIT_WORK(&priv->id.net_work, cma_neigh_work);
}

/**
 * cma_neigh_watch - watch the next hop of an ID's resolved RoCE route
 * @priv: the ID
 */
void cma_neigh_watch(struct cma_id *priv)
{
	spin_lock_bh(&cma_neigh_lock);
	if (list_empty(&priv->neigh_link))
		list_add_tail(&priv->neigh_link, &cma_routes);
	spin_unlock_bh(&cma_neigh_lock);
}

/**
 * cma_neigh_unwatch - stop watching an ID's next hop
 * @priv: the ID, being destroyed
 */
void cma_neigh_unwatch(struct cma_id *priv)
{
	spin_lock_bh(&cma_neigh_lock);
	list_del_init(&priv->neigh_link);
	spin_unlock_bh(&cma_neigh_lock);
}

/* Is @priv's destination the neighbour @n, on the same netdev? */
static bool cma_neigh_is_dst(struct cma_id *priv, struct neighbour *n)
{
	const struct sockaddr *dst = cma_dst(priv);
	int family = n->tbl->family;

	if (priv->id.route.addr.dev_addr.bound_dev_if != n->dev->ifindex ||
	    dst->sa_family != family)
		return false;
	if (family == AF_INET)
		return ((const struct sockaddr_in *)dst)->sin_addr.s_addr ==
		       *(const __be32 *)n->primary_key;
	return ipv6_addr_equal(&((const struct sockaddr_in6 *)dst)->sin6_addr,
			       (const struct in6_addr *)n->primary_key);
}

static int cma_neigh_event(struct notifier_block *nb, unsigned long event,
			   void *ctx)
{
	struct neighbour *n = ctx;
	struct cma_id *priv;
	unsigned long flags;

	if (event != NETEVENT_NEIGH_UPDATE ||
	    (n->tbl->family != AF_INET && n->tbl->family != AF_INET6))
		return NOTIFY_DONE;
	spin_lock_irqsave(&cma_neigh_lock, flags);
	list_for_each_entry(priv, &cma_routes, neigh_link) {
		if (!cma_neigh_is_dst(priv, n) ||
		    !memcmp(priv->id.route.addr.dev_addr.dst_dev_addr, n->ha,
			    n->dev->addr_len))
			continue;
		if (!cma_tryget(priv))
			continue;
		if (!queue_work(cma_wq, &priv->id.net_work))
			cma_put(priv);
	}
	spin_unlock_irqrestore(&cma_neigh_lock, flags);
	return NOTIFY_DONE;
}

static struct notifier_block cma_neigh_nb = {
	.notifier_call = cma_neigh_event,
};

/**
 * cma_neigh_init - listen to neighbour updates
 *
 * Return: 0, or the notifier's error.
 */
int cma_neigh_init(void)
{
	return register_netevent_notifier(&cma_neigh_nb);
}

/**
 * cma_neigh_exit - stop listening
 */
void cma_neigh_exit(void)
{
	unregister_netevent_notifier(&cma_neigh_nb);
}
