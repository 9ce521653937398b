// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses: binding an ID to a local address (and so to the device and
 * port that have its GID), resolving a destination to hardware addresses
 * through ib_core's rdma_resolve_ip(), and the GIDs of a resolved ID.
 *
 * An address query in flight holds no reference: rdma_destroy_id()
 * cancels it with rdma_addr_cancel(), which waits for its callback.
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

/* Does @port of @device have @gid for the ID's address?  A GID reference. */
static const struct ib_gid_attr *
cma_port_gid(struct cma_id *priv, struct ib_device *device, u32 port,
	     const union ib_gid *gid, enum ib_gid_type gid_type)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	const struct ib_gid_attr *attr;
	struct net_device *ndev = NULL;
	bool ib_addr = dev_addr->dev_type == ARPHRD_INFINIBAND;

	if (!rdma_dev_access_netns(device, dev_addr->net))
		return ERR_PTR(-ENODEV);
	if (ib_addr != rdma_protocol_ib(device, port))
		return ERR_PTR(-ENODEV);
	if (dev_addr->dev_type == ARPHRD_ETHER &&
	    rdma_protocol_roce(device, port)) {
		ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
		if (!ndev)
			return ERR_PTR(-ENODEV);
	} else {
		gid_type = IB_GID_TYPE_IB;
	}
	attr = rdma_find_gid_by_port(device, gid, gid_type, port, ndev);
	dev_put(ndev);
	return attr;
}

/**
 * cma_addr_acquire_dev - attach an ID to the device of its source address
 * @priv: the ID; its rdma_dev_addr filled for the source address
 *
 * Looks for the port whose GID table has the source: for RoCE ports the
 * GID of the IP address (of the port's default GID type) on the bound
 * netdev, for InfiniBand ports the GID of the hardware address.  The ID
 * takes the GID entry (dev_addr->sgid_attr) and the port.
 *
 * Return: 0, -EINVAL for an IPoIB port space on a non-IPoIB address, or
 * -ENODEV when no device has the address.
 */
int cma_addr_acquire_dev(struct cma_id *priv)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	const struct ib_gid_attr *attr;
	union ib_gid ip_gid, hw_gid;
	struct cma_device *cdev;
	u32 port;

	if (dev_addr->dev_type != ARPHRD_INFINIBAND &&
	    priv->id.ps == RDMA_PS_IPOIB)
		return -EINVAL;
	rdma_ip2gid(cma_src(priv), &ip_gid);
	memcpy(&hw_gid, dev_addr->src_dev_addr + rdma_addr_gid_offset(dev_addr),
	       sizeof(hw_gid));

	mutex_lock(&cma_mutex);
	list_for_each_entry(cdev, &cma_devices, link) {
		rdma_for_each_port(cdev->device, port) {
			bool roce = rdma_protocol_roce(cdev->device, port);

			attr = cma_port_gid(priv, cdev->device, port,
					    roce ? &ip_gid : &hw_gid,
					    cma_main_gid_type(cdev, port));
			if (IS_ERR(attr))
				continue;
			priv->id.port_num = port;
			dev_addr->sgid_attr = attr;
			cma_main_attach(priv, cdev);
			mutex_unlock(&cma_mutex);
			return 0;
		}
	}
	mutex_unlock(&cma_mutex);
	return -ENODEV;
}

/* The hardware address (and netdev) of a local address */
static int cma_translate(struct cma_id *priv, const struct sockaddr *addr)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	const struct sockaddr_ib *sib = (const struct sockaddr_ib *)addr;

	if (addr->sa_family != AF_IB)
		return rdma_translate_ip(addr, dev_addr);
	dev_addr->dev_type = ARPHRD_INFINIBAND;
	rdma_addr_set_sgid(dev_addr, (union ib_gid *)&sib->sib_addr);
	ib_addr_set_pkey(dev_addr, ntohs(sib->sib_pkey));
	return 0;
}

/* An IPv6 link-local address names its interface, which the ID binds to */
static int cma_linklocal(struct cma_id *priv, const struct sockaddr *addr)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;

	if (addr->sa_family != AF_INET6 ||
	    !(ipv6_addr_type(&sin6->sin6_addr) & IPV6_ADDR_LINKLOCAL))
		return 0;
	if (!sin6->sin6_scope_id)
		return -EINVAL;
	priv->id.route.addr.dev_addr.bound_dev_if = sin6->sin6_scope_id;
	return 0;
}

/* IPv4 IDs are family-only; IPv6 ones follow bindv6only unless set */
static void cma_default_afonly(struct cma_id *priv, sa_family_t family)
{
	if (priv->afonly_set)
		return;
	if (family == AF_INET)
		priv->afonly = true;
#if IS_ENABLED(CONFIG_IPV6)
	else if (family == AF_INET6)
		priv->afonly = cma_net(priv)->ipv6.sysctl.bindv6only;
#endif
}

/*
 * Binds @priv (CMA_IDLE) to @addr, keeping @daddr as its destination.
 * Leaves it in CMA_ADDR_BOUND, or in CMA_IDLE on error.
 */
static int cma_bind(struct cma_id *priv, const struct sockaddr *addr,
		    const struct sockaddr *daddr)
{
	struct sockaddr *dst = cma_dst(priv);
	int ret;

	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6 &&
	    addr->sa_family != AF_IB)
		return -EAFNOSUPPORT;
	if (!cma_move(priv, CMA_IDLE, CMA_ADDR_BOUND))
		return -EINVAL;

	ret = cma_linklocal(priv, addr);
	if (ret)
		goto err_idle;
	memcpy(cma_src(priv), addr, rdma_addr_size(addr));
	if (!cma_ports_any_addr(addr)) {
		ret = cma_translate(priv, addr);
		if (!ret)
			ret = cma_addr_acquire_dev(priv);
		if (ret)
			goto err_idle;
	}
	cma_default_afonly(priv, addr->sa_family);
	if (daddr != dst)
		memcpy(dst, daddr, rdma_addr_size(addr));
	dst->sa_family = addr->sa_family;

	ret = cma_ports_get(priv);
	if (ret)
		goto err_dev;
	if (priv->cdev)
		cma_main_track(priv);
	return 0;

err_dev:
	cma_main_detach(priv);
	priv->id.device = NULL;
	if (priv->id.route.addr.dev_addr.sgid_attr) {
		rdma_put_gid_attr(priv->id.route.addr.dev_addr.sgid_attr);
		priv->id.route.addr.dev_addr.sgid_attr = NULL;
	}
err_idle:
	cma_move(priv, CMA_ADDR_BOUND, CMA_IDLE);
	return ret;
}

/**
 * rdma_bind_addr - bind an ID to a local address
 * @id: the ID, in its initial state
 * @addr: the address and port (port 0: an ephemeral port); a wildcard or
 *	loopback address binds no device
 *
 * Return: 0; -EAFNOSUPPORT for a family other than AF_INET, AF_INET6 and
 * AF_IB; -EINVAL when already bound, or for an IPv6 link-local address
 * without scope id; -EADDRNOTAVAIL or -ENODEV for an address that is not
 * local or that no RDMA device has; the errors of the port (-EADDRINUSE,
 * -EACCES, -EPROTONOSUPPORT).
 */
int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct cma_id *priv = to_cma(id);

	return cma_bind(priv, addr, cma_dst(priv));
}
EXPORT_SYMBOL(rdma_bind_addr);

/* Binds an unbound ID for a destination: the wildcard of its family */
static int cma_bind_for(struct cma_id *priv, struct sockaddr *src,
			const struct sockaddr *dst)
{
	struct sockaddr_storage any = {};

	if (src && src->sa_family)
		return cma_bind(priv, src, dst);
	any.ss_family = dst->sa_family;
	if (dst->sa_family == AF_INET6) {
		const struct sockaddr_in6 *d6 = (const struct sockaddr_in6 *)dst;

		((struct sockaddr_in6 *)&any)->sin6_scope_id = d6->sin6_scope_id;
		if (ipv6_addr_type(&d6->sin6_addr) & IPV6_ADDR_LINKLOCAL)
			priv->id.route.addr.dev_addr.bound_dev_if =
				d6->sin6_scope_id;
	} else if (dst->sa_family == AF_IB) {
		((struct sockaddr_ib *)&any)->sib_pkey =
			((const struct sockaddr_ib *)dst)->sib_pkey;
	}
	return cma_bind(priv, (struct sockaddr *)&any, dst);
}

static void cma_addr_done(int status, struct sockaddr *src,
			  struct rdma_dev_addr *dev_addr, void *context)
{
	struct cma_id *priv = context;
	struct rdma_cm_event event = {};

	mutex_lock(&priv->handler_mutex);
	if (!cma_move(priv, CMA_ADDR_QUERY, CMA_ADDR_RESOLVED)) {
		mutex_unlock(&priv->handler_mutex);
		return;
	}
	if (cma_ports_addr_cmp(cma_src(priv), src))
		memcpy(cma_src(priv), src, rdma_addr_size(src));
	if (!status && !priv->cdev) {
		status = cma_addr_acquire_dev(priv);
		if (!status)
			cma_main_track(priv);
	}
	if (status) {
		cma_move(priv, CMA_ADDR_RESOLVED, CMA_ADDR_BOUND);
		event.event = RDMA_CM_EVENT_ADDR_ERROR;
		event.status = status;
	} else {
		event.event = RDMA_CM_EVENT_ADDR_RESOLVED;
	}
	cma_deliver_unlock(priv, &event, false);
}

/* Attaches an unbound ID to a device for a loopback destination */
static int cma_bind_loopback(struct cma_id *priv)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct cma_device *cdev, *pick = NULL;
	struct ib_port_attr attr;
	u32 port, pick_port = 0;
	union ib_gid gid;
	u16 pkey;
	int ret;

	mutex_lock(&cma_mutex);
	list_for_each_entry(cdev, &cma_devices, link) {
		if (!rdma_dev_access_netns(cdev->device, dev_addr->net))
			continue;
		rdma_for_each_port(cdev->device, port) {
			if (!pick) {
				pick = cdev;
				pick_port = port;
			}
			if (!ib_query_port(cdev->device, port, &attr) &&
			    attr.state == IB_PORT_ACTIVE) {
				pick = cdev;
				pick_port = port;
				goto found;
			}
		}
	}
	if (!pick) {
		ret = -ENODEV;
		goto out;
	}
found:
	ret = rdma_query_gid(pick->device, pick_port, 0, &gid);
	if (!ret)
		ret = ib_get_cached_pkey(pick->device, pick_port, 0, &pkey);
	if (ret)
		goto out;
	dev_addr->dev_type = rdma_protocol_ib(pick->device, pick_port) ?
			     ARPHRD_INFINIBAND : ARPHRD_ETHER;
	rdma_addr_set_sgid(dev_addr, &gid);
	ib_addr_set_pkey(dev_addr, pkey);
	priv->id.port_num = pick_port;
	cma_main_attach(priv, pick);
out:
	mutex_unlock(&cma_mutex);
	return ret;
}

/* A wildcard or loopback destination: this host, on the ID's device */
static int cma_resolve_loopback(struct cma_id *priv)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ADDR_RESOLVED };
	union ib_gid gid;
	int ret;

	if (!priv->cdev) {
		ret = cma_bind_loopback(priv);
		if (ret)
			return ret;
		cma_main_track(priv);
	}
	rdma_addr_get_sgid(dev_addr, &gid);
	rdma_addr_set_dgid(dev_addr, &gid);
	return cma_queue_event(priv, CMA_ADDR_QUERY, CMA_ADDR_RESOLVED,
			       &event);
}

/* An AF_IB destination: its GID, on the device the ID is bound to */
static int cma_resolve_ib(struct cma_id *priv)
{
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ADDR_RESOLVED };
	struct sockaddr_ib *sib = (struct sockaddr_ib *)cma_dst(priv);

	if (!priv->cdev)
		return -ENODEV;
	rdma_addr_set_dgid(&priv->id.route.addr.dev_addr,
			   (union ib_gid *)&sib->sib_addr);
	return cma_queue_event(priv, CMA_ADDR_QUERY, CMA_ADDR_RESOLVED,
			       &event);
}

/* Binds if needed and enters CMA_ADDR_QUERY */
static int cma_resolve_prepare(struct cma_id *priv, struct sockaddr *src,
			       const struct sockaddr *dst)
{
	int ret;

	if (cma_move(priv, CMA_ADDR_BOUND, CMA_ADDR_QUERY)) {
		memcpy(cma_dst(priv), dst, rdma_addr_size(dst));
	} else {
		ret = cma_bind_for(priv, src, dst);
		if (ret)
			return ret;
		if (!cma_move(priv, CMA_ADDR_BOUND, CMA_ADDR_QUERY))
			return -EINVAL;
	}
	if (cma_family(priv) != dst->sa_family) {
		cma_move(priv, CMA_ADDR_QUERY, CMA_ADDR_BOUND);
		return -EINVAL;
	}
	return 0;
}

/**
 * rdma_resolve_addr - resolve a destination address
 * @id: the ID, in its initial state or bound
 * @src_addr: the source to bind an unbound ID to, or NULL (or family 0)
 *	for the wildcard of @dst_addr's family; ignored for a bound ID
 * @dst_addr: the destination
 * @timeout_ms: how long resolution may take
 *
 * The result comes as RDMA_CM_EVENT_ADDR_RESOLVED (the ID is then on the
 * device that reaches the destination) or RDMA_CM_EVENT_ADDR_ERROR with
 * the error (the ID is bound again and may retry).
 *
 * Return: 0 when the event will come; the binding's errors; -EINVAL in
 * another state or for a destination of another family than the source;
 * the errors of rdma_resolve_ip() (-ENETUNREACH, -EHOSTUNREACH...).
 */
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr, unsigned long timeout_ms)
{
	struct cma_id *priv = to_cma(id);
	int ret;

	ret = cma_resolve_prepare(priv, src_addr, dst_addr);
	if (ret)
		return ret;

	if (cma_ports_any_addr(dst_addr)) {
		ret = cma_resolve_loopback(priv);
	} else if (dst_addr->sa_family == AF_IB) {
		ret = cma_resolve_ib(priv);
	} else {
		/* a retry after an error: the old request may still be queued */
		if (priv->resolving_ip)
			rdma_addr_cancel(&id->route.addr.dev_addr);
		priv->resolving_ip = true;
		ret = rdma_resolve_ip(cma_src(priv), dst_addr,
				      &id->route.addr.dev_addr, timeout_ms,
				      cma_addr_done, false, priv);
	}
	if (ret)
		cma_move(priv, CMA_ADDR_QUERY, CMA_ADDR_BOUND);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_addr);

/**
 * cma_addr_cancel - stop an ID's address resolution
 * @priv: the ID, which was in CMA_ADDR_QUERY; no lock of it held
 */
void cma_addr_cancel(struct cma_id *priv)
{
	rdma_addr_cancel(&priv->id.route.addr.dev_addr);
}

/* One GID of an ID: its IP address's on RoCE, else its hardware one's */
static void cma_read_gid(struct rdma_cm_id *id, bool local, union ib_gid *gid)
{
	struct rdma_addr *addr = &id->route.addr;

	if (!gid)
		return;
	if (!id->device)
		memset(gid, 0, sizeof(*gid));
	else if (rdma_protocol_roce(id->device, id->port_num))
		rdma_ip2gid((struct sockaddr *)(local ? &addr->src_addr :
						       &addr->dst_addr), gid);
	else if (local)
		rdma_addr_get_sgid(&addr->dev_addr, gid);
	else
		rdma_addr_get_dgid(&addr->dev_addr, gid);
}

/**
 * rdma_read_gids - the source and destination GIDs of an ID
 * @cm_id: the ID
 * @sgid: set to the source GID, if not NULL
 * @dgid: set to the destination GID, if not NULL
 *
 * On RoCE the GIDs of the IP addresses; on InfiniBand those of the
 * hardware addresses; zero for an ID without device.
 */
void rdma_read_gids(struct rdma_cm_id *cm_id, union ib_gid *sgid,
		    union ib_gid *dgid)
{
	cma_read_gid(cm_id, true, sgid);
	cma_read_gid(cm_id, false, dgid);
}
EXPORT_SYMBOL(rdma_read_gids);
