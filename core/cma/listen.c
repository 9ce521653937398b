// SPDX-License-Identifier: GPL-2.0
/*
 * Listening.  An ID bound to a device's address listens on that device
 * through its CM.  A wildcard ID listens on every device: it sits on
 * cma_listeners and owns one internal ID per device (its children), each
 * holding that device's CM listen; devices added later get one too.
 *
 * A request finds its listener by namespace, port space and port among
 * the port's owners in CMA_LISTEN, then by address (the listener's, or a
 * wildcard of a family that takes the request's) and by device (the
 * listener's own, or one its children listen on).
 *
 * cma_mutex protects cma_listeners and the children lists; whoever takes
 * a child off its parent's list under it destroys that child.
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

/**
 * cma_listen_on_device - an internal listener of a wildcard ID on a device
 * @parent: the wildcard listener
 * @cdev: the device
 *
 * Caller holds cma_mutex.  Return: 0 (also when the device does not take
 * the listener's family or namespace), or the CM's error.
 */
int cma_listen_on_device(struct cma_id *parent, struct cma_device *cdev)
{
	struct ib_device *device = cdev->device;
	struct cma_id *child;
	int ret;

	lockdep_assert_held(&cma_mutex);
	if (cma_family(parent) == AF_IB &&
	    !rdma_cap_ib_cm(device, rdma_start_port(device)))
		return 0;
	if (!rdma_dev_access_netns(device, cma_net(parent)))
		return 0;

	child = cma_id_alloc(cma_net(parent), parent->id.event_handler,
			     parent->id.context, parent->id.ps,
			     parent->id.qp_type);
	if (IS_ERR(child))
		return PTR_ERR(child);
	child->internal = true;
	child->parent = parent;
	child->afonly = parent->afonly;
	memcpy(cma_src(child), cma_src(parent), rdma_addr_size(cma_src(parent)));
	child->state = CMA_LISTEN;
	child->rt.state = CMA_LISTEN;
	child->id.port_num = rdma_start_port(device);
	cma_main_attach(child, cdev);
	/* "rdma res" shows it, owned by the wildcard listener's owner */
	rdma_restrack_parent_name(&child->rt.res, &parent->rt.res);
	cma_main_track(child);

	if (rdma_cap_ib_cm(device, rdma_start_port(device)))
		ret = cma_ib_listen(child);
	else if (rdma_cap_iw_cm(device, rdma_start_port(device)))
		ret = cma_iw_listen(child, parent->backlog);
	else
		ret = -ENOSYS;
	/* on failure too: the caller's clean-up destroys the children */
	list_add_tail(&child->listen_link, &parent->children);
	return ret;
}

/* Destroys the children taken off a listener */
static void cma_listen_destroy_children(struct list_head *children)
{
	struct cma_id *child, *next;

	list_for_each_entry_safe(child, next, children, listen_link) {
		list_del_init(&child->listen_link);
		cma_destroy_internal(child);
	}
}

/**
 * cma_listen_cancel - stop a listener
 * @priv: the ID, which was in CMA_LISTEN; no lock of it held
 *
 * A wildcard listener leaves cma_listeners and destroys its children; an
 * internal one leaves its parent (device removal).  A listener on one
 * device stops with its CM ID (id.c).
 */
void cma_listen_cancel(struct cma_id *priv)
{
	LIST_HEAD(children);

	mutex_lock(&cma_mutex);
	list_del_init(&priv->listen_link);
	list_splice_init(&priv->children, &children);
	mutex_unlock(&cma_mutex);
	cma_listen_destroy_children(&children);
}

static int cma_listen_on_all(struct cma_id *priv)
{
	struct cma_device *cdev;
	LIST_HEAD(children);
	int ret = 0;

	mutex_lock(&cma_mutex);
	list_add_tail(&priv->listen_link, &cma_listeners);
	list_for_each_entry(cdev, &cma_devices, link) {
		ret = cma_listen_on_device(priv, cdev);
		if (ret)
			break;
	}
	if (ret) {
		list_del_init(&priv->listen_link);
		list_splice_init(&priv->children, &children);
	}
	mutex_unlock(&cma_mutex);
	cma_listen_destroy_children(&children);
	return ret;
}

/* Listens on the ID's device, or on all of them for a wildcard ID */
static int cma_listen_start(struct cma_id *priv)
{
	struct ib_device *device = priv->id.device;
	u32 port = priv->id.port_num;

	if (!priv->cdev)
		return cma_listen_on_all(priv);
	if (rdma_cap_ib_cm(device, port))
		return cma_ib_listen(priv);
	if (rdma_cap_iw_cm(device, port))
		return cma_iw_listen(priv, priv->backlog);
	return -ENOSYS;
}

/**
 * rdma_listen - listen for connection requests (or SIDR requests)
 * @id: the ID, bound (an unbound one is bound to the IPv4 wildcard)
 * @backlog: the backlog, passed to iWARP devices
 *
 * Requests come as RDMA_CM_EVENT_CONNECT_REQUEST with a new ID.
 *
 * Return: 0; -EINVAL in another state; the binding's errors; -EADDRINUSE
 * or -EADDRNOTAVAIL when the port is shared (rdma_set_reuseaddr) with
 * an ID that conflicts; -ENOSYS for a device without CM; the CM's errors.
 */
int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct cma_id *priv = to_cma(id);
	int ret;

	if (!cma_move(priv, CMA_ADDR_BOUND, CMA_LISTEN)) {
		struct sockaddr_in any = { .sin_family = AF_INET };

		ret = rdma_bind_addr(id, (struct sockaddr *)&any);
		if (ret)
			return ret;
		if (!cma_move(priv, CMA_ADDR_BOUND, CMA_LISTEN))
			return -EINVAL;
	}
	priv->backlog = backlog;
	ret = cma_ports_listen_check(priv);
	if (!ret)
		ret = cma_listen_start(priv);
	if (ret) {
		/* no request can have reached the ID: it is bound again */
		priv->backlog = 0;
		cma_move(priv, CMA_LISTEN, CMA_ADDR_BOUND);
	}
	return ret;
}
EXPORT_SYMBOL(rdma_listen);

/* Does a listener's address take a request for @local? */
static bool cma_listen_addr_match(struct cma_id *l, const struct sockaddr *local)
{
	const struct sockaddr *addr = cma_src(l);

	if (!cma_ports_any_addr(addr))
		return !cma_ports_addr_cmp(addr, local);
	/* a wildcard: of the request's family, or IPv6 without afonly */
	return addr->sa_family == local->sa_family ||
	       (addr->sa_family == AF_INET6 && !l->afonly);
}

static bool cma_listen_dev_match(struct cma_id *l, struct ib_device *device,
				 int ifindex)
{
	struct cma_id *child;

	if (l->cdev)
		return l->id.device == device &&
		       (!l->id.route.addr.dev_addr.bound_dev_if ||
			l->id.route.addr.dev_addr.bound_dev_if == ifindex);
	list_for_each_entry(child, &l->children, listen_link)
		if (child->id.device == device)
			return true;
	return false;
}

/**
 * cma_listen_find - the listener of a request
 * @device: the device the request came in on
 * @port: its port
 * @net: the namespace of the request's net device
 * @ps: the port space
 * @local: our address and port, as the request names them
 * @ifindex: the request's net device
 *
 * Return: the ULP's listener with a reference taken, or NULL.
 */
struct cma_id *cma_listen_find(struct ib_device *device, u32 port,
			       struct net *net, enum rdma_ucm_port_space ps,
			       const struct sockaddr *local, int ifindex)
{
	struct cma_port *bound;
	struct cma_id *l, *found = NULL;

	mutex_lock(&cma_mutex);
	bound = cma_ports_find(net, ps, ntohs(cma_ports_port(local)));
	if (!bound)
		goto out;
	hlist_for_each_entry(l, &bound->owners, port_link) {
		if (cma_state(l) != CMA_LISTEN ||
		    !cma_listen_addr_match(l, local) ||
		    !cma_listen_dev_match(l, device, ifindex))
			continue;
		/* a listener of a specific address first */
		if (!found || cma_ports_any_addr(cma_src(found)))
			found = l;
	}
	if (found)
		cma_get(found);
out:
	mutex_unlock(&cma_mutex);
	return found;
}
