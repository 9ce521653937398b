// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast groups of UD IDs.  On InfiniBand the SA client joins the
 * group (ib_sa_join_multicast) and its callback gives the ULP the event;
 * on RoCE the group is the IP multicast group itself: the netdev joins it
 * (IGMP for IPv4 under RoCE v2, MLD for IPv6, both under rtnl_lock), the
 * record is built here and the event comes from rdma_cm's work queue.
 *
 * An ID's groups are on its @mcs list under its spinlock.  A group is
 * freed by whoever takes it off the list (leave, or the ID's destruction)
 * after its callback or work item can no longer run.
 */
#include "abi/rdma_cm/cma.h"
#include <net/addrconf.h>
#include "internal.h"

/* What a join gives the SA: the member, the group, and its Q_Key and flow */
#define CMA_MC_MASK (IB_SA_MCMEMBER_REC_JOIN_STATE | IB_SA_MCMEMBER_REC_PKEY | \
		     IB_SA_MCMEMBER_REC_PORT_GID | IB_SA_MCMEMBER_REC_MGID | \
		     IB_SA_MCMEMBER_REC_TRAFFIC_CLASS | \
		     IB_SA_MCMEMBER_REC_FLOW_LABEL | IB_SA_MCMEMBER_REC_SL | \
		     IB_SA_MCMEMBER_REC_QKEY)
#define CMA_MC_IPOIB_MASK (CMA_MC_MASK | IB_SA_MCMEMBER_REC_HOP_LIMIT | \
			   IB_SA_MCMEMBER_REC_MTU | \
			   IB_SA_MCMEMBER_REC_MTU_SELECTOR | \
			   IB_SA_MCMEMBER_REC_RATE | \
			   IB_SA_MCMEMBER_REC_RATE_SELECTOR)

/* The event of a group joined (@status 0) or not */
static void cma_mc_event(struct cma_mc *mc, int status,
			 struct ib_sa_mcmember_rec *rec,
			 struct rdma_cm_event *event)
{
	struct cma_id *priv = mc->id;
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct net_device *ndev;

	event->status = status;
	event->param.ud.private_data = mc->context;
	event->event = RDMA_CM_EVENT_MULTICAST_ERROR;
	if (status)
		return;
	ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
	if (!ib_init_ah_from_mcmember(priv->id.device, priv->id.port_num, rec,
				      ndev, priv->gid_type,
				      &event->param.ud.ah_attr)) {
		event->event = RDMA_CM_EVENT_MULTICAST_JOIN;
		event->param.ud.qp_num = 0xffffff;
		event->param.ud.qkey = priv->qkey;
	}
	dev_put(ndev);
}

/* Delivers a group's event; the return of the handler is not used */
static void cma_mc_deliver(struct cma_mc *mc, struct rdma_cm_event *event)
{
	struct cma_id *priv = mc->id;
	enum cma_state state;

	mutex_lock(&priv->handler_mutex);
	state = cma_state(priv);
	if (state != CMA_DESTROYING && state != CMA_DEVICE_REMOVAL)
		cma_deliver(priv, event);
	mutex_unlock(&priv->handler_mutex);
	rdma_destroy_ah_attr(&event->param.ud.ah_attr);
}

static int cma_ib_mc_done(int status, struct ib_sa_multicast *sa)
{
	struct cma_mc *mc = sa->context;
	struct rdma_cm_event event = {};

	if (!status)
		status = cma_ib_set_qkey(mc->id, be32_to_cpu(sa->rec.qkey));
	cma_mc_event(mc, status, &sa->rec, &event);
	cma_mc_deliver(mc, &event);
	return 0;
}

/* The MGID of an IP group on an InfiniBand port (IPoIB's mapping) */
static void cma_ib_mgid(struct cma_id *priv, const struct sockaddr *addr,
			union ib_gid *mgid)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	unsigned char map[MAX_ADDR_LEN];

	if (cma_ports_any_addr(addr)) {
		memset(mgid, 0, sizeof(*mgid));
		return;
	}
	if (addr->sa_family == AF_IB) {
		memcpy(mgid, &((const struct sockaddr_ib *)addr)->sib_addr,
		       sizeof(*mgid));
		return;
	}
	if (addr->sa_family == AF_INET6 &&
	    (sin6->sin6_addr.s6_addr32[0] & htonl(0xff10a01b)) ==
	    htonl(0xff10a01b)) {
		/* an MGID the SA assigned, given as an IPv6 address */
		memcpy(mgid, &sin6->sin6_addr, sizeof(*mgid));
		return;
	}
	if (addr->sa_family == AF_INET6)
		ipv6_ib_mc_map(&sin6->sin6_addr, dev_addr->broadcast, map);
	else
		ip_ib_mc_map(((const struct sockaddr_in *)addr)->sin_addr.s_addr,
			     dev_addr->broadcast, map);
	/* rdma_cm's signature in UDP groups */
	if (priv->id.ps == RDMA_PS_UDP)
		map[7] = 0x01;
	memcpy(mgid, map + 4, sizeof(*mgid));
}

static int cma_ib_join(struct cma_id *priv, struct cma_mc *mc)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct ib_sa_mcmember_rec rec;
	ib_sa_comp_mask mask;
	int ret;

	ib_addr_get_mgid(dev_addr, &rec.mgid);
	ret = ib_sa_get_mcmember_rec(priv->id.device, priv->id.port_num,
				     &rec.mgid, &rec);
	if (ret)
		return ret;
	ret = cma_ib_set_qkey(priv, 0);
	if (ret)
		return ret;
	cma_ib_mgid(priv, (struct sockaddr *)&mc->addr, &rec.mgid);
	rec.qkey = cpu_to_be32(priv->qkey);
	rdma_addr_get_sgid(dev_addr, &rec.port_gid);
	rec.pkey = cpu_to_be16(ib_addr_get_pkey(dev_addr));
	rec.join_state = mc->join_state;
	/* IPoIB's groups also fix the link: rate, MTU, hop limit */
	mask = priv->id.ps == RDMA_PS_IPOIB ? CMA_MC_IPOIB_MASK : CMA_MC_MASK;
	mc->sa = ib_sa_join_multicast(&cma_sa_client, priv->id.device,
				      priv->id.port_num, &rec, mask,
				      GFP_KERNEL, cma_ib_mc_done, mc);
	return PTR_ERR_OR_ZERO(mc->sa);
}

/* RoCE: the MGID of an IP group (an IPv4-mapped GID for RoCE v2) */
static void cma_roce_mgid(const struct sockaddr *addr, union ib_gid *mgid,
			  enum ib_gid_type gid_type)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;

	memset(mgid, 0, sizeof(*mgid));
	if (addr->sa_family == AF_INET6) {
		memcpy(mgid, &((const struct sockaddr_in6 *)addr)->sin6_addr,
		       sizeof(*mgid));
		return;
	}
	if (gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP) {
		mgid->raw[0] = 0xff;
		mgid->raw[1] = 0x0e;
	}
	mgid->raw[10] = 0xff;
	mgid->raw[11] = 0xff;
	memcpy(&mgid->raw[12], &sin->sin_addr.s_addr, 4);
}

/* The netdev joins or leaves an IP group (IGMP or MLD), under rtnl */
static int cma_netdev_mc(struct net_device *ndev,
			 const struct sockaddr *addr, bool join)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	struct in_device *in_dev;
	int ret = 0;

	rtnl_lock();
	if (addr->sa_family == AF_INET) {
		in_dev = __in_dev_get_rtnl(ndev);
		if (!in_dev)
			ret = -ENODEV;
		else if (join)
			ip_mc_inc_group(in_dev, sin->sin_addr.s_addr);
		else
			ip_mc_dec_group(in_dev, sin->sin_addr.s_addr);
	} else if (join) {
		ret = ipv6_dev_mc_inc(ndev, &sin6->sin6_addr);
	} else {
		ret = ipv6_dev_mc_dec(ndev, &sin6->sin6_addr);
	}
	rtnl_unlock();
	return ret;
}

static void cma_roce_join_work(struct work_struct *work)
{
	struct cma_mc *mc = container_of(work, struct cma_mc, work);
	struct rdma_cm_event event = {};

	cma_mc_event(mc, 0, &mc->rec, &event);
	cma_mc_deliver(mc, &event);
}

static int cma_roce_join(struct cma_id *priv, struct cma_mc *mc)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct sockaddr *addr = (struct sockaddr *)&mc->addr;
	bool send_only = mc->join_state == BIT(SENDONLY_FULLMEMBER_JOIN);
	struct ib_sa_mcmember_rec *rec = &mc->rec;
	struct net_device *ndev;
	int ret = 0;

	if (cma_ports_any_addr(addr) && !cma_ports_loopback(addr))
		return -EINVAL;
	ndev = dev_addr->bound_dev_if ?
	       dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if) : NULL;
	if (!ndev)
		return -ENODEV;
	cma_roce_mgid(addr, &rec->mgid, priv->gid_type);
	rec->pkey = cpu_to_be16(0xffff);
	rec->rate = IB_RATE_PORT_CURRENT;
	rec->hop_limit = 1;
	rec->mtu = iboe_get_mtu(ndev->mtu);
	if (priv->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP) {
		rec->hop_limit = IPV6_DEFAULT_HOPLIMIT;
		if (!send_only) {
			ret = cma_netdev_mc(ndev, addr, true);
			mc->igmp_joined = !ret;
		}
	}
	dev_put(ndev);
	if (!ret && !rec->mtu)
		ret = -EINVAL;
	if (ret)
		goto err;
	ret = cma_ib_set_qkey(priv, 0);
	if (ret)
		goto err;
	rdma_ip2gid(cma_src(priv), &rec->port_gid);
	INIT_WORK(&mc->work, cma_roce_join_work);
	queue_work(cma_wq, &mc->work);
	return 0;

err:
	if (mc->igmp_joined) {
		ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
		if (ndev)
			cma_netdev_mc(ndev, addr, false);
		dev_put(ndev);
	}
	return ret;
}

/**
 * rdma_join_multicast - join a multicast group
 * @id: a UD ID without kernel QP, bound or its address resolved
 * @addr: the group's address
 * @join_state: the join state (BIT() of FULLMEMBER_JOIN...,
 *	SENDONLY_FULLMEMBER_JOIN)
 * @context: returned as the events' private_data
 *
 * RDMA_CM_EVENT_MULTICAST_JOIN (with the group's address handle, QPN
 * 0xffffff and Q_Key) or MULTICAST_ERROR follows.
 *
 * Return: 0; -EINVAL for an ID with a QP, without device, in another
 * state, of another QP type, or for a zero address; -ENODEV without
 * netdev (RoCE); -ENOSYS for a port without multicast; the SA's errors.
 */
int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context)
{
	struct cma_id *priv = to_cma(id);
	enum cma_state state = cma_state(priv);
	bool roce, ib;
	struct cma_mc *mc;
	int ret;

	/* kernel QPs are not attached here; only UD IDs with a device */
	if (id->qp || id->qp_type != IB_QPT_UD || !id->device)
		return -EINVAL;
	if (state != CMA_ADDR_RESOLVED && state != CMA_ADDR_BOUND)
		return -EINVAL;
	roce = rdma_protocol_roce(id->device, id->port_num);
	ib = rdma_cap_ib_mcast(id->device, id->port_num);
	if (!roce && !ib)
		return -ENOSYS;

	mc = kzalloc(sizeof(*mc), GFP_KERNEL);
	if (!mc)
		return -ENOMEM;
	mc->id = priv;
	mc->join_state = join_state;
	mc->context = context;
	memcpy(&mc->addr, addr, rdma_addr_size(addr));
	ret = roce ? cma_roce_join(priv, mc) : cma_ib_join(priv, mc);
	if (ret) {
		kfree(mc);
		return ret;
	}
	spin_lock_irq(&priv->lock);
	list_add(&mc->link, &priv->mcs);
	spin_unlock_irq(&priv->lock);
	return 0;
}
EXPORT_SYMBOL(rdma_join_multicast);

static void cma_mc_free(struct cma_id *priv, struct cma_mc *mc)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct net_device *ndev;

	if (mc->sa) {
		/* no callback of the membership runs after this */
		ib_sa_free_multicast(mc->sa);
	} else {
		cancel_work_sync(&mc->work);
		if (mc->igmp_joined) {
			ndev = dev_get_by_index(dev_addr->net,
						dev_addr->bound_dev_if);
			if (ndev)
				cma_netdev_mc(ndev, (struct sockaddr *)&mc->addr,
					      false);
			dev_put(ndev);
		}
	}
	kfree(mc);
}

/**
 * rdma_leave_multicast - leave a multicast group
 * @id: the ID
 * @addr: the group's address, as given to rdma_join_multicast()
 *
 * No event of the group comes after this returns.  Not to be called
 * from the ID's handler for a group whose event is pending.
 */
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct cma_id *priv = to_cma(id);
	struct cma_mc *mc, *found = NULL;

	spin_lock_irq(&priv->lock);
	list_for_each_entry(mc, &priv->mcs, link) {
		if (!memcmp(&mc->addr, addr, rdma_addr_size(addr))) {
			list_del(&mc->link);
			found = mc;
			break;
		}
	}
	spin_unlock_irq(&priv->lock);
	if (found)
		cma_mc_free(priv, found);
}
EXPORT_SYMBOL(rdma_leave_multicast);

/**
 * cma_mcast_leave_all - leave every group of an ID being destroyed
 * @priv: the ID
 */
void cma_mcast_leave_all(struct cma_id *priv)
{
	struct cma_mc *mc;

	for (;;) {
		spin_lock_irq(&priv->lock);
		mc = list_first_entry_or_null(&priv->mcs, struct cma_mc, link);
		if (mc)
			list_del(&mc->link);
		spin_unlock_irq(&priv->lock);
		if (!mc)
			return;
		cma_mc_free(priv, mc);
	}
}
