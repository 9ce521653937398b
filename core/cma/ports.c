// SPDX-License-Identifier: GPL-2.0
/*
 * Port spaces: in each network namespace, the port numbers of RDMA_PS_TCP,
 * _UDP, _IPOIB and _IB, each with the IDs bound to it, as sockets share the
 * ports of a protocol.  An ID binds a port of its own choosing or an
 * ephemeral one from the namespace's local port range.  Sharing follows
 * the socket rules: two IDs that both allow reuse (and neither listens)
 * share; a wildcard address conflicts with every address of its family
 * (of both families unless both are "address family only"); equal
 * addresses conflict.  The service ID a port stands for on the wire is
 * its port space and number.
 *
 * Everything here runs under cma_mutex (main.c), which protects the port
 * spaces and each port's owners.
 */
#include "abi/rdma_cm/cma.h"
#include "internal.h"

/**
 * cma_ports_loopback - whether an address is a loopback address
 * @addr: the address
 */
bool cma_ports_loopback(const struct sockaddr *addr)
{
	switch (addr->sa_family) {
	case AF_INET:
		return ipv4_is_loopback(((const struct sockaddr_in *)addr)->sin_addr.s_addr);
	case AF_INET6:
		return ipv6_addr_loopback(&((const struct sockaddr_in6 *)addr)->sin6_addr);
	case AF_IB:
		return ib_addr_loopback(&((const struct sockaddr_ib *)addr)->sib_addr);
	default:
		return false;
	}
}

static bool cma_zero_addr(const struct sockaddr *addr)
{
	switch (addr->sa_family) {
	case AF_INET:
		return ipv4_is_zeronet(((const struct sockaddr_in *)addr)->sin_addr.s_addr);
	case AF_INET6:
		return ipv6_addr_any(&((const struct sockaddr_in6 *)addr)->sin6_addr);
	case AF_IB:
		return ib_addr_any(&((const struct sockaddr_ib *)addr)->sib_addr);
	default:
		return false;
	}
}

/**
 * cma_ports_any_addr - whether an address binds no particular address
 * @addr: the address
 *
 * Return: true for the zero and the loopback addresses.
 */
bool cma_ports_any_addr(const struct sockaddr *addr)
{
	return cma_zero_addr(addr) || cma_ports_loopback(addr);
}

/**
 * cma_ports_addr_cmp - compare two addresses (without their ports)
 * @a: one
 * @b: the other
 *
 * Return: 0 when equal (for IPv6 link-local addresses, also on the same
 * interface), non-zero otherwise.
 */
int cma_ports_addr_cmp(const struct sockaddr *a, const struct sockaddr *b)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;
	const struct sockaddr_in6 *b6 = (const struct sockaddr_in6 *)b;

	if (a->sa_family != b->sa_family)
		return -1;
	switch (a->sa_family) {
	case AF_INET:
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr !=
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	case AF_INET6:
		if (ipv6_addr_cmp(&a6->sin6_addr, &b6->sin6_addr))
			return 1;
		if ((ipv6_addr_type(&a6->sin6_addr) & IPV6_ADDR_LINKLOCAL) &&
		    a6->sin6_scope_id != b6->sin6_scope_id)
			return 1;
		return 0;
	default:
		return ib_addr_cmp(&((const struct sockaddr_ib *)a)->sib_addr,
				   &((const struct sockaddr_ib *)b)->sib_addr);
	}
}

/**
 * cma_ports_port - the port of an address, in network order
 * @addr: the address; for AF_IB, the low 16 bits of its masked service ID
 */
__be16 cma_ports_port(const struct sockaddr *addr)
{
	const struct sockaddr_ib *sib = (const struct sockaddr_ib *)addr;

	switch (addr->sa_family) {
	case AF_INET:
		return ((const struct sockaddr_in *)addr)->sin_port;
	case AF_INET6:
		return ((const struct sockaddr_in6 *)addr)->sin6_port;
	case AF_IB:
		return htons((u16)(be64_to_cpu(sib->sib_sid) &
				   be64_to_cpu(sib->sib_sid_mask)));
	default:
		return 0;
	}
}

/**
 * cma_ports_set_port - set the port of an address
 * @addr: the address (AF_INET, AF_INET6 or AF_IB)
 * @port: the port, in network order
 */
void cma_ports_set_port(struct sockaddr *addr, __be16 port)
{
	struct sockaddr_ib *sib = (struct sockaddr_ib *)addr;

	switch (addr->sa_family) {
	case AF_INET:
		((struct sockaddr_in *)addr)->sin_port = port;
		break;
	case AF_INET6:
		((struct sockaddr_in6 *)addr)->sin6_port = port;
		break;
	case AF_IB:
		sib->sib_sid = cpu_to_be64((be64_to_cpu(sib->sib_sid) &
					    ~0xffffULL) | ntohs(port));
		sib->sib_sid_mask |= cpu_to_be64(0xffffULL);
		break;
	}
}

/**
 * rdma_get_service_id - the service ID of an ID's address
 * @id: the ID (its port space)
 * @addr: the address
 *
 * Return: an AF_IB address's own service ID; else the port space and the
 * address's port, as the IBTA's IP addressing annex puts them.
 */
__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr)
{
	if (addr->sa_family == AF_IB)
		return ((struct sockaddr_ib *)addr)->sib_sid;
	return cpu_to_be64(((u64)id->ps << 16) | ntohs(cma_ports_port(addr)));
}
EXPORT_SYMBOL(rdma_get_service_id);

/**
 * cma_ports_find - a bound port
 * @net: the namespace
 * @ps: the port space
 * @num: the port number
 *
 * Caller holds cma_mutex.  Return: the port, or NULL.
 */
struct cma_port *cma_ports_find(struct net *net, enum rdma_ucm_port_space ps,
				unsigned short num)
{
	struct xarray *xa = cma_main_ps_xa(net, ps);

	lockdep_assert_held(&cma_mutex);
	return xa ? xa_load(xa, num) : NULL;
}

static void cma_port_join(struct cma_port *port, struct cma_id *priv)
{
	priv->port = port;
	cma_ports_set_port(cma_src(priv), htons(port->num));
	hlist_add_head(&priv->port_link, &port->owners);
}

static int cma_port_new(struct cma_id *priv, enum rdma_ucm_port_space ps,
			unsigned short num)
{
	struct cma_port *port;
	int ret;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->ps = ps;
	port->num = num;
	INIT_HLIST_HEAD(&port->owners);
	ret = xa_insert(cma_main_ps_xa(cma_net(priv), ps), num, port,
			GFP_KERNEL);
	if (ret) {
		kfree(port);
		return ret == -EBUSY ? -EADDRNOTAVAIL : ret;
	}
	cma_port_join(port, priv);
	return 0;
}

/* An ephemeral port: may @priv share @port with its current owners? */
static bool cma_port_shareable(struct cma_port *port, struct cma_id *priv)
{
	struct sockaddr *daddr = cma_dst(priv), *saddr = cma_src(priv);
	struct cma_id *cur;

	hlist_for_each_entry(cur, &port->owners, port_link) {
		struct sockaddr *cdaddr = cma_dst(cur), *csaddr = cma_src(cur);

		if (cur == priv)
			continue;
		if (!cma_ports_any_addr(saddr) && !cma_ports_any_addr(csaddr) &&
		    cma_ports_addr_cmp(saddr, csaddr))
			continue;
		if (!cma_ports_any_addr(daddr) && !cma_ports_any_addr(cdaddr) &&
		    cma_ports_addr_cmp(daddr, cdaddr))
			continue;
		if (cma_ports_port(daddr) && cma_ports_port(cdaddr) &&
		    cma_ports_port(daddr) != cma_ports_port(cdaddr))
			continue;
		return false;
	}
	return true;
}

static int cma_port_any(struct cma_id *priv, enum rdma_ucm_port_space ps)
{
	static unsigned int last;
	struct net *net = cma_net(priv);
	unsigned int tries, num;
	struct cma_port *port;
	int low, high;

	inet_get_local_port_range(net, &low, &high);
	tries = high - low + 1;
	num = low + get_random_u32_below(tries);
	for (; tries; tries--, num = num >= high ? low : num + 1) {
		/* not the port given out last, which may just have closed */
		if (num == last)
			continue;
		port = cma_ports_find(net, ps, num);
		if (!port) {
			if (cma_port_new(priv, ps, num))
				continue;
		} else if (cma_port_shareable(port, priv)) {
			cma_port_join(port, priv);
		} else {
			continue;
		}
		last = num;
		return 0;
	}
	return -EADDRNOTAVAIL;
}

/*
 * May @priv take its bound address's port beside the port's owners?
 * @reuse: whether @priv allows sharing (false when it starts listening).
 */
static int cma_port_conflict(struct cma_port *port, struct cma_id *priv,
			     bool reuse)
{
	struct sockaddr *addr = cma_src(priv);
	struct cma_id *cur;

	hlist_for_each_entry(cur, &port->owners, port_link) {
		struct sockaddr *caddr = cma_src(cur);

		if (cur == priv || (reuse && cur->reuseaddr))
			continue;
		if (priv->afonly && cur->afonly &&
		    addr->sa_family != caddr->sa_family)
			continue;
		if (cma_ports_any_addr(addr) || cma_ports_any_addr(caddr))
			return -EADDRNOTAVAIL;
		if (!cma_ports_addr_cmp(addr, caddr))
			return -EADDRINUSE;
	}
	return 0;
}

static int cma_port_take(struct cma_id *priv, enum rdma_ucm_port_space ps)
{
	unsigned short num = ntohs(cma_ports_port(cma_src(priv)));
	struct cma_port *port;
	int ret;

	if (num < PROT_SOCK && !capable(CAP_NET_BIND_SERVICE))
		return -EACCES;
	port = cma_ports_find(cma_net(priv), ps, num);
	if (!port)
		return cma_port_new(priv, ps, num);
	ret = cma_port_conflict(port, priv, priv->reuseaddr);
	if (!ret)
		cma_port_join(port, priv);
	return ret;
}

/*
 * The port space of an AF_IB address: the one its service ID names, if
 * the ID's port space allows it; the service ID then gets its port space
 * bits and a mask covering them.
 */
static enum rdma_ucm_port_space cma_ib_ps(struct cma_id *priv)
{
	static const struct {
		enum rdma_ucm_port_space ps;
		u64 sid;
	} spaces[] = {
		{ RDMA_PS_IB, RDMA_IB_IP_PS_IB },
		{ RDMA_PS_TCP, RDMA_IB_IP_PS_TCP },
		{ RDMA_PS_UDP, RDMA_IB_IP_PS_UDP },
	};
	struct sockaddr_ib *sib = (struct sockaddr_ib *)cma_src(priv);
	u64 mask = be64_to_cpu(sib->sib_sid_mask) & RDMA_IB_IP_PS_MASK;
	u64 sid = be64_to_cpu(sib->sib_sid) & mask;
	int i;

	for (i = 0; i < ARRAY_SIZE(spaces); i++) {
		if (priv->id.ps != RDMA_PS_IB && priv->id.ps != spaces[i].ps)
			continue;
		if (sid != (spaces[i].sid & mask))
			continue;
		sib->sib_sid = cpu_to_be64(spaces[i].sid |
					   ntohs(cma_ports_port(cma_src(priv))));
		sib->sib_sid_mask = cpu_to_be64(RDMA_IB_IP_PS_MASK |
						be64_to_cpu(sib->sib_sid_mask));
		return spaces[i].ps;
	}
	return 0;
}

/**
 * cma_ports_get - bind an ID's source address's port
 * @priv: the ID, its source address set
 *
 * A port of 0 gets an ephemeral port.
 *
 * Return: 0; -EPROTONOSUPPORT for an unknown port space; -EACCES for a
 * privileged port without CAP_NET_BIND_SERVICE; -EADDRINUSE or
 * -EADDRNOTAVAIL for a conflict; -EADDRNOTAVAIL when no ephemeral port is
 * free.
 */
int cma_ports_get(struct cma_id *priv)
{
	enum rdma_ucm_port_space ps;
	int ret;

	if (cma_family(priv) == AF_IB)
		ps = cma_ib_ps(priv);
	else
		ps = cma_main_ps_xa(cma_net(priv), priv->id.ps) ?
		     priv->id.ps : 0;
	if (!ps)
		return -EPROTONOSUPPORT;

	mutex_lock(&cma_mutex);
	if (!cma_ports_port(cma_src(priv)))
		ret = cma_port_any(priv, ps);
	else
		ret = cma_port_take(priv, ps);
	mutex_unlock(&cma_mutex);
	return ret;
}

/**
 * cma_ports_listen_check - may a bound ID listen on its port?
 * @priv: the ID
 *
 * A listener shares its port with nobody who could take its requests: an
 * ID that allowed reuse gives it up here.
 *
 * Return: 0, or the conflict's errno.
 */
int cma_ports_listen_check(struct cma_id *priv)
{
	int ret;

	if (!priv->reuseaddr)
		return 0;
	mutex_lock(&cma_mutex);
	ret = cma_port_conflict(priv->port, priv, false);
	if (!ret)
		priv->reuseaddr = false;
	mutex_unlock(&cma_mutex);
	return ret;
}

/**
 * cma_ports_release - unbind an ID's port, if it has one
 * @priv: the ID
 */
void cma_ports_release(struct cma_id *priv)
{
	struct cma_port *port = priv->port;

	if (!port)
		return;
	mutex_lock(&cma_mutex);
	hlist_del(&priv->port_link);
	if (hlist_empty(&port->owners)) {
		xa_erase(cma_main_ps_xa(cma_net(priv), port->ps), port->num);
		kfree(port);
	}
	priv->port = NULL;
	mutex_unlock(&cma_mutex);
}

/**
 * rdma_set_reuseaddr - let an ID share its port
 * @id: the ID
 * @reuse: allow sharing
 *
 * Return: 0; -EINVAL once the ID is past binding, or when allowing reuse
 * on a listening ID.
 */
int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse)
{
	struct cma_id *priv = to_cma(id);
	unsigned long flags;
	int ret = -EINVAL;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->state == CMA_IDLE ||
	    (reuse && priv->state != CMA_LISTEN)) {
		priv->reuseaddr = reuse;
		ret = 0;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(rdma_set_reuseaddr);

/**
 * rdma_set_afonly - bind an IPv6 wildcard to its own family only
 * @id: the ID
 * @afonly: non-zero: an IPv6 wildcard does not take IPv4's port
 *
 * Without it, the namespace's bindv6only decides (IPv4 IDs are always
 * "address family only").
 *
 * Return: 0, or -EINVAL once the ID is past binding.
 */
int rdma_set_afonly(struct rdma_cm_id *id, int afonly)
{
	struct cma_id *priv = to_cma(id);
	unsigned long flags;
	int ret = -EINVAL;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->state == CMA_IDLE || priv->state == CMA_ADDR_BOUND) {
		priv->afonly = afonly;
		priv->afonly_set = true;
		ret = 0;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(rdma_set_afonly);
