// SPDX-License-Identifier: GPL-2.0
/*
 * Routes: the path record a connection uses.  On RoCE it is built here
 * from what address resolution found (GIDs of the IP addresses, the next
 * hop's MAC, the hop limit, the netdev's MTU) and the ID's ToS and ACK
 * timeout; on InfiniBand the SA answers a PathRecord query; on iWARP
 * there is nothing to resolve.  A ULP may also give the path itself
 * (rdma_set_ib_path).
 *
 * The route belongs to the ID (id.route.path_rec); it is written in
 * CMA_ROUTE_QUERY by the one query in flight and freed with the ID.  An
 * SA query holds a reference on its ID; its callback always comes, with
 * -EINTR when cancelled.
 */
#include "abi/rdma_cm/cma.h"
#include <linux/if_vlan.h>
#include "core/gid.h"
#include "internal.h"

struct ib_sa_client cma_sa_client;

/**
 * cma_route_init - register rdma_cm as an SA client
 */
void cma_route_init(void)
{
	ib_sa_register_client(&cma_sa_client);
}

/**
 * cma_route_exit - unregister the SA client
 */
void cma_route_exit(void)
{
	ib_sa_unregister_client(&cma_sa_client);
}

/**
 * cma_route_free - free an ID's path records
 * @priv: the ID, no longer used by anyone
 */
void cma_route_free(struct cma_id *priv)
{
	struct rdma_route *route = &priv->id.route;

	kfree(route->path_rec);
	kfree(route->path_rec_inbound);
	kfree(route->path_rec_outbound);
	route->path_rec = NULL;
	route->path_rec_inbound = NULL;
	route->path_rec_outbound = NULL;
	route->num_pri_alt_paths = 0;
}

/* The traffic class a VLAN device (or its real device) maps @prio to */
static int cma_vlan_tc(struct net_device *vlan, int prio)
{
	struct net_device *real = vlan_dev_real_dev(vlan);

	if (real->num_tc)
		return netdev_get_prio_tc_map(real, prio);
	return (vlan_dev_get_egress_qos_mask(vlan, prio) & VLAN_PRIO_MASK) >>
	       VLAN_PRIO_SHIFT;
}

static int cma_lower_tc(struct net_device *lower,
			struct netdev_nested_priv *np)
{
	int *tc = np->data;

	if (is_vlan_dev(lower))
		*tc = cma_vlan_tc(lower, *tc);
	else if (lower->num_tc)
		*tc = netdev_get_prio_tc_map(lower, *tc);
	else
		*tc = 0;
	/* only the first lower device counts */
	return 1;
}

/* The service level of a ToS on a netdev: its priority's traffic class */
static u8 cma_tos_to_sl(struct net_device *ndev, u8 tos)
{
	int prio = rt_tos2priority(tos);
	int tc = prio;
	struct netdev_nested_priv np = { .data = &tc };
	bool lower;

	if (is_vlan_dev(ndev))
		return cma_vlan_tc(ndev, prio);
	/* the first lower device (a bond's slave...) decides, if any */
	rcu_read_lock();
	lower = netdev_walk_all_lower_dev_rcu(ndev, cma_lower_tc, &np);
	rcu_read_unlock();
	if (lower)
		return tc;
	return ndev->num_tc ? netdev_get_prio_tc_map(ndev, prio) : 0;
}

/* RoCE v2: a flow label from the IPv6 source's, or from the ports */
static __be32 cma_flow_label(struct cma_id *priv)
{
	struct sockaddr_in6 *src6 = (struct sockaddr_in6 *)cma_src(priv);
	u32 fl = 0;

	if (cma_family(priv) == AF_INET6)
		fl = be32_to_cpu(src6->sin6_flowinfo) & IB_GRH_FLOWLABEL_MASK;
	if (!fl)
		fl = ((u32)ntohs(cma_ports_port(cma_src(priv))) * 31 +
		      ntohs(cma_ports_port(cma_dst(priv)))) &
		     IB_GRH_FLOWLABEL_MASK;
	return cpu_to_be32(fl);
}

/**
 * cma_route_roce_l2 - the Ethernet part of a RoCE path record
 * @priv: the ID, its address resolved
 * @rec: the record: its type (from the GID type the network asks for)
 *	and destination MAC are set
 *
 * Return: 0, or -ENODEV when the ID's netdev is gone.
 */
int cma_route_roce_l2(struct cma_id *priv, struct sa_path_rec *rec)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	enum ib_gid_type gid_type = priv->gid_type;
	enum ib_gid_type wanted;
	struct net_device *ndev;

	ndev = dev_addr->bound_dev_if ?
	       dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if) : NULL;
	if (!ndev)
		return -ENODEV;
	dev_put(ndev);
	if ((dev_addr->network == RDMA_NETWORK_IPV4 ||
	     dev_addr->network == RDMA_NETWORK_IPV6) &&
	    (roce_gid_type_mask_support(priv->id.device, priv->id.port_num) &
	     BIT(IB_GID_TYPE_ROCE_UDP_ENCAP)))
		gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP;
	wanted = ib_network_to_gid_type(dev_addr->network);
	if (gid_type < wanted)
		gid_type = wanted;
	rec->rec_type = sa_conv_gid_to_pathrec_type(gid_type);
	rec->roce.route_resolved = true;
	sa_path_set_dmac(rec, dev_addr->dst_dev_addr);
	return 0;
}

/* Fills a RoCE path record; the ID's qp_mutex held for its options */
static int cma_roce_path(struct cma_id *priv, struct sa_path_rec *rec,
			 struct net_device *ndev)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	u8 tos;

	lockdep_assert_held(&priv->qp_mutex);
	tos = priv->tos_set ? priv->tos :
	      cma_main_roce_tos(priv->cdev, priv->id.port_num);
	rdma_ip2gid(cma_src(priv), &rec->sgid);
	rdma_ip2gid(cma_dst(priv), &rec->dgid);
	rec->hop_limit = cma_family(priv) == AF_IB ? 1 : dev_addr->hoplimit;
	rec->reversible = 1;
	rec->pkey = cpu_to_be16(0xffff);
	rec->mtu_selector = IB_SA_EQ;
	rec->mtu = iboe_get_mtu(ndev->mtu);
	rec->sl = cma_tos_to_sl(ndev, tos);
	rec->traffic_class = tos;
	rec->rate_selector = IB_SA_EQ;
	rec->rate = IB_RATE_PORT_CURRENT;
	rec->packet_life_time_selector = IB_SA_EQ;
	/* an ACK timeout is about twice the packet lifetime */
	rec->packet_life_time = priv->ack_timeout_set && priv->ack_timeout ?
				priv->ack_timeout - 1 :
				CMA_ROCE_PACKET_LIFETIME;
	if (rdma_protocol_roce_udp_encap(priv->id.device, priv->id.port_num))
		rec->flow_label = cma_flow_label(priv);
	return rec->mtu ? 0 : -EINVAL;
}

static int cma_resolve_roce(struct cma_id *priv)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ROUTE_RESOLVED };
	struct sa_path_rec *rec;
	struct net_device *ndev;
	int ret;

	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	ret = cma_route_roce_l2(priv, rec);
	if (ret)
		goto err;
	ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
	if (!ndev) {
		ret = -ENODEV;
		goto err;
	}
	mutex_lock(&priv->qp_mutex);
	ret = cma_roce_path(priv, rec, ndev);
	mutex_unlock(&priv->qp_mutex);
	dev_put(ndev);
	if (ret)
		goto err;
	priv->id.route.path_rec = rec;
	priv->id.route.num_pri_alt_paths = 1;
	ret = cma_queue_event(priv, CMA_ROUTE_QUERY, CMA_ROUTE_RESOLVED,
			      &event);
	if (ret)
		cma_route_free(priv);
	else
		cma_neigh_watch(priv);
	return ret;

err:
	kfree(rec);
	return ret;
}

/**
 * struct cma_path_work - an SA path query and its answer
 * @work: delivers the answer from cma_wq (the SA's callback may not sleep)
 * @priv: the ID; the query holds a reference on it
 * @status: the query's status
 * @rec: the first path record of the answer
 */
struct cma_path_work {
	struct work_struct work;
	struct cma_id *priv;
	int status;
	struct sa_path_rec rec;
};

static void cma_path_work_run(struct work_struct *work)
{
	struct cma_path_work *pw = container_of(work, struct cma_path_work,
						work);
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ROUTE_RESOLVED };
	struct cma_id *priv = pw->priv;
	struct sa_path_rec *rec = NULL;
	int status = pw->status;

	if (!status) {
		rec = kmemdup(&pw->rec, sizeof(*rec), GFP_KERNEL);
		status = rec ? 0 : -ENOMEM;
	}
	kfree(pw);
	if (status) {
		event.event = RDMA_CM_EVENT_ROUTE_ERROR;
		event.status = status;
	}
	mutex_lock(&priv->handler_mutex);
	if (!cma_move(priv, CMA_ROUTE_QUERY,
		      status ? CMA_ADDR_RESOLVED : CMA_ROUTE_RESOLVED)) {
		mutex_unlock(&priv->handler_mutex);
		kfree(rec);
		cma_put(priv);
		return;
	}
	if (rec) {
		priv->id.route.path_rec = rec;
		priv->id.route.num_pri_alt_paths = 1;
	}
	cma_deliver_unlock_put(priv, &event);
}

static void cma_path_done(int status, struct sa_path_rec *resp, int num,
			  void *context)
{
	struct cma_path_work *pw = context;

	pw->status = status;
	if (!status && (num < 1 || !resp))
		pw->status = -ENODATA;
	if (!pw->status)
		pw->rec = resp[0];
	queue_work(cma_wq, &pw->work);
}

static int cma_resolve_ib_path(struct cma_id *priv, unsigned long timeout_ms)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct sa_path_rec rec = { .rec_type = SA_PATH_REC_TYPE_IB };
	struct cma_path_work *pw;
	ib_sa_comp_mask mask;
	struct sockaddr_in6 *sin6;
	struct sockaddr_ib *sib;
	int ret;

	rdma_addr_get_sgid(dev_addr, &rec.sgid);
	rdma_addr_get_dgid(dev_addr, &rec.dgid);
	rec.pkey = cpu_to_be16(ib_addr_get_pkey(dev_addr));
	rec.numb_path = 1;
	rec.reversible = 1;
	rec.service_id = rdma_get_service_id(&priv->id, cma_dst(priv));
	mask = IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID | IB_SA_PATH_REC_PKEY |
	       IB_SA_PATH_REC_NUMB_PATH | IB_SA_PATH_REC_REVERSIBLE |
	       IB_SA_PATH_REC_SERVICE_ID;
	switch (cma_family(priv)) {
	case AF_INET:
		rec.qos_class = cpu_to_be16((u16)priv->tos);
		mask |= IB_SA_PATH_REC_QOS_CLASS;
		break;
	case AF_INET6:
		sin6 = (struct sockaddr_in6 *)cma_src(priv);
		rec.traffic_class = (u8)(be32_to_cpu(sin6->sin6_flowinfo) >> 20);
		mask |= IB_SA_PATH_REC_TRAFFIC_CLASS;
		break;
	case AF_IB:
		sib = (struct sockaddr_ib *)cma_src(priv);
		rec.traffic_class = (u8)(be32_to_cpu(sib->sib_flowinfo) >> 20);
		mask |= IB_SA_PATH_REC_TRAFFIC_CLASS;
		break;
	}
	pw = kzalloc(sizeof(*pw), GFP_KERNEL);
	if (!pw)
		return -ENOMEM;
	INIT_WORK(&pw->work, cma_path_work_run);
	pw->priv = priv;
	priv->timeout_ms = timeout_ms;
	ret = ib_sa_path_rec_get(&cma_sa_client, priv->id.device,
				 priv->id.port_num, &rec, mask, timeout_ms,
				 GFP_KERNEL, cma_path_done, pw, &priv->query);
	if (ret < 0) {
		kfree(pw);
		return ret;
	}
	priv->query_id = ret;
	return 0;
}

/**
 * cma_route_cancel - cancel an ID's SA path query
 * @priv: the ID, which was in CMA_ROUTE_QUERY
 */
void cma_route_cancel(struct cma_id *priv)
{
	if (priv->query)
		ib_sa_cancel_query(priv->query_id, priv->query);
}

/**
 * rdma_resolve_route - resolve the route to an ID's destination
 * @id: the ID, its address resolved
 * @timeout_ms: how long an SA query may take
 *
 * The result comes as RDMA_CM_EVENT_ROUTE_RESOLVED (id->route.path_rec
 * set) or RDMA_CM_EVENT_ROUTE_ERROR (the address stays resolved).
 *
 * Return: 0 when the event will come; -EINVAL for a zero timeout or in
 * another state; -ENODEV when the ID's netdev is gone (RoCE); -ENOSYS
 * for a port without a known transport; the SA client's errors.
 */
int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms)
{
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ROUTE_RESOLVED };
	struct cma_id *priv = to_cma(id);
	int ret;

	if (!timeout_ms)
		return -EINVAL;
	if (!cma_move(priv, CMA_ADDR_RESOLVED, CMA_ROUTE_QUERY))
		return -EINVAL;

	cma_get(priv);
	if (rdma_cap_ib_sa(id->device, id->port_num)) {
		ret = cma_resolve_ib_path(priv, timeout_ms);
		if (!ret)
			return 0;	/* the query's callback puts */
	} else if (rdma_protocol_roce(id->device, id->port_num)) {
		ret = cma_resolve_roce(priv);
	} else if (rdma_protocol_iwarp(id->device, id->port_num)) {
		ret = cma_queue_event(priv, CMA_ROUTE_QUERY,
				      CMA_ROUTE_RESOLVED, &event);
	} else {
		ret = -ENOSYS;
	}
	if (ret)
		cma_move(priv, CMA_ROUTE_QUERY, CMA_ADDR_RESOLVED);
	cma_put(priv);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_route);

/**
 * rdma_set_ib_path - give an ID its route
 * @id: the ID, its address resolved
 * @path_rec: the path record, copied
 *
 * Return: 0 (the route is resolved, without event); -EINVAL in another
 * state; -ENOMEM; -ENODEV for a RoCE ID whose netdev is gone.
 */
int rdma_set_ib_path(struct rdma_cm_id *id, struct sa_path_rec *path_rec)
{
	struct cma_id *priv = to_cma(id);
	struct sa_path_rec *rec;
	int ret;

	if (!cma_move(priv, CMA_ADDR_RESOLVED, CMA_ROUTE_RESOLVED))
		return -EINVAL;
	rec = kmemdup(path_rec, sizeof(*rec), GFP_KERNEL);
	if (!rec) {
		ret = -ENOMEM;
		goto err;
	}
	if (rdma_protocol_roce(id->device, id->port_num)) {
		ret = cma_route_roce_l2(priv, rec);
		if (ret) {
			kfree(rec);
			goto err;
		}
	}
	kfree(id->route.path_rec);
	id->route.path_rec = rec;
	id->route.num_pri_alt_paths = 1;
	return 0;

err:
	cma_move(priv, CMA_ROUTE_RESOLVED, CMA_ADDR_RESOLVED);
	return ret;
}
EXPORT_SYMBOL(rdma_set_ib_path);
