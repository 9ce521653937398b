// SPDX-License-Identifier: GPL-2.0
/*
 * The glue to ib_cm, for InfiniBand and RoCE ports.
 *
 * IP-based port spaces put a 36-byte header before the ULP's private data
 * of a REQ or SIDR REQ (the IBTA's annex for IP addressing): version 0,
 * the IP version in the high nibble of the second byte, the source port,
 * then the source and destination addresses, IPv4 ones in the last four
 * bytes of their 16.  The service ID carries the port space and the
 * destination port (rdma_get_service_id()).
 *
 * Listening: each listening ID on a device holds an ib_cm listen shared
 * through ib_cm_insert_listen() by every listener of that service ID on
 * the device; a request is matched to its rdma_cm listener by namespace,
 * port space, port and address (listen.c) and becomes a new ID with the
 * listener's handler and context, given to the listener's handler as
 * RDMA_CM_EVENT_CONNECT_REQUEST under both handler locks.
 *
 * ib_cm events of a connection reach cma_ib_handler() with the ID in the
 * ib_cm ID's context.  A handler that returns non-zero makes us clear the
 * ID's ib_cm ID and return non-zero, so that ib_cm destroys its own ID.
 */
#include "abi/rdma_cm/cma.h"
#include "core/addr.h"
#include "internal.h"

/**
 * struct cma_wire_hdr - the header of an IP connection's REQ private data
 * @version: 0
 * @ip_version: the IP version, in the high nibble
 * @port: the source port
 * @src: the source address (IPv4: the last four bytes)
 * @dst: the destination address
 */
struct cma_wire_hdr {
	u8 version;
	u8 ip_version;
	__be16 port;
	u8 src[16];
	u8 dst[16];
} __packed;

static_assert(sizeof(struct cma_wire_hdr) == CMA_HDR_BYTES);

/* The header bytes before a ULP's private data: none for AF_IB IDs */
static size_t cma_ib_hdr_len(struct cma_id *priv)
{
	return cma_family(priv) == AF_IB ? 0 : CMA_HDR_BYTES;
}

static void cma_hdr_put_ip(u8 *out, const struct sockaddr *addr)
{
	memset(out, 0, 16);
	if (addr->sa_family == AF_INET)
		memcpy(out + 12, &((const struct sockaddr_in *)addr)->sin_addr, 4);
	else
		memcpy(out, &((const struct sockaddr_in6 *)addr)->sin6_addr, 16);
}

static int cma_hdr_fill(struct cma_wire_hdr *hdr, struct cma_id *priv)
{
	switch (cma_family(priv)) {
	case AF_INET:
		if (cma_dst(priv)->sa_family != AF_INET)
			return -EAFNOSUPPORT;
		hdr->ip_version = 4 << 4;
		break;
	case AF_INET6:
		hdr->ip_version = 6 << 4;
		break;
	default:
		return -EAFNOSUPPORT;
	}
	hdr->version = 0;
	hdr->port = cma_ports_port(cma_src(priv));
	cma_hdr_put_ip(hdr->src, cma_src(priv));
	cma_hdr_put_ip(hdr->dst, cma_dst(priv));
	return 0;
}

/* One end of a header as a socket address with port @port */
static void cma_hdr_get_ip(struct sockaddr_storage *ss, const u8 *ip,
			   int ipv, __be16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (ipv == 4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, ip + 12, 4);
		sin->sin_port = port;
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, ip, 16);
		sin6->sin6_port = port;
	}
}

/**
 * struct cma_req - what an incoming REQ or SIDR REQ asks for
 * @local: our address and port (the header's destination)
 * @remote: the peer's address and port
 * @ps: the port space, from the service ID
 * @port: the local port of the device it came in on
 * @ndev: the net device of the request (a reference), or NULL
 * @sgid_attr: the GID entry it came in on (RoCE), not referenced
 * @path: our view of the primary path (REQ only)
 * @alt: the alternate path, or NULL
 * @data: the ULP's private data, after the header
 * @data_len: its length
 */
struct cma_req {
	struct sockaddr_storage local;
	struct sockaddr_storage remote;
	enum rdma_ucm_port_space ps;
	u32 port;
	struct net_device *ndev;
	const struct ib_gid_attr *sgid_attr;
	const struct sa_path_rec *path;
	const struct sa_path_rec *alt;
	const u8 *data;
	u8 data_len;
};

static int cma_req_parse(struct ib_cm_id *cm_id, const struct ib_cm_event *ev,
			 struct cma_req *req)
{
	const struct cma_wire_hdr *hdr = ev->private_data;
	u64 sid;
	u8 size;
	int ipv;

	sid = be64_to_cpu(ev->event == IB_CM_REQ_RECEIVED ? cm_id->service_id :
			  ev->param.sidr_req_rcvd.service_id);
	req->ps = (sid >> 16) & 0xffff;
	if (ev->event == IB_CM_REQ_RECEIVED) {
		req->port = ev->param.req_rcvd.port;
		req->sgid_attr = ev->param.req_rcvd.ppath_sgid_attr;
		req->path = ev->param.req_rcvd.primary_path;
		req->alt = ev->param.req_rcvd.alternate_path;
		size = IB_CM_REQ_PRIVATE_DATA_SIZE;
	} else {
		req->port = ev->param.sidr_req_rcvd.port;
		req->sgid_attr = ev->param.sidr_req_rcvd.sgid_attr;
		size = IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE;
	}
	if (req->ps != RDMA_PS_TCP && req->ps != RDMA_PS_UDP &&
	    req->ps != RDMA_PS_IPOIB && req->ps != RDMA_PS_IB)
		return -EINVAL;
	if (!hdr || hdr->version != 0)
		return -EINVAL;
	ipv = hdr->ip_version >> 4;
	if (ipv != 4 && ipv != 6)
		return -EINVAL;
	cma_hdr_get_ip(&req->local, hdr->dst, ipv, htons((u16)sid));
	cma_hdr_get_ip(&req->remote, hdr->src, ipv, hdr->port);
	req->data = (const u8 *)ev->private_data + CMA_HDR_BYTES;
	req->data_len = size - CMA_HDR_BYTES;
	return 0;
}

/* The net device a request came in on: the GID's (RoCE) or IPoIB's */
static struct net_device *cma_req_ndev(struct ib_cm_id *cm_id,
				       const struct ib_cm_event *ev,
				       struct cma_req *req)
{
	struct net_device *ndev = NULL;

	if (rdma_protocol_roce(cm_id->device, req->port)) {
		/* the GID entry's netdev, held before the RCU section ends */
		rcu_read_lock();
		if (req->sgid_attr)
			ndev = rdma_read_gid_attr_ndev_rcu(req->sgid_attr);
		ndev = IS_ERR_OR_NULL(ndev) ? NULL : ndev;
		dev_hold(ndev);
		rcu_read_unlock();
		return ndev;
	}
	return ib_get_net_dev_by_params(cm_id->device, req->port,
					ev->event == IB_CM_REQ_RECEIVED ?
					ev->param.req_rcvd.bth_pkey :
					ev->param.sidr_req_rcvd.bth_pkey,
					req->path ? &req->path->sgid : NULL,
					(struct sockaddr *)&req->local);
}

/* The addresses and device of a new ID made for a request */
static int cma_req_id_setup(struct cma_id *conn, struct cma_id *listener,
			    struct ib_cm_id *cm_id, struct cma_req *req)
{
	struct rdma_route *route = &conn->id.route;
	struct rdma_dev_addr *dev_addr = &route->addr.dev_addr;
	struct cma_device *cdev;
	int n = req->alt ? 2 : 1;

	memcpy(&route->addr.src_addr, &req->local, sizeof(req->local));
	memcpy(&route->addr.dst_addr, &req->remote, sizeof(req->remote));
	rdma_copy_src_l2_addr(dev_addr, req->ndev);
	if (req->path) {
		route->path_rec = kcalloc(n, sizeof(*route->path_rec),
					  GFP_KERNEL);
		if (!route->path_rec)
			return -ENOMEM;
		route->path_rec[0] = *req->path;
		if (req->alt)
			route->path_rec[1] = *req->alt;
		route->num_pri_alt_paths = n;
		rdma_addr_set_sgid(dev_addr, &route->path_rec[0].sgid);
		rdma_addr_set_dgid(dev_addr, &route->path_rec[0].dgid);
		if (!rdma_protocol_roce(cm_id->device, req->port))
			ib_addr_set_pkey(dev_addr, be16_to_cpu(req->path->pkey));
	}
	if (req->sgid_attr) {
		rdma_hold_gid_attr(req->sgid_attr);
		dev_addr->sgid_attr = req->sgid_attr;
	}
	conn->id.port_num = req->port;
	conn->afonly = listener->afonly;

	mutex_lock(&cma_mutex);
	cdev = cma_main_find_device(cm_id->device);
	if (cdev)
		cma_main_attach(conn, cdev);
	mutex_unlock(&cma_mutex);
	if (!cdev)
		return -ENODEV;
	cma_main_track(conn);
	return 0;
}

static void cma_req_event(struct rdma_cm_event *event,
			  const struct ib_cm_event *ev, struct cma_req *req)
{
	const struct ib_cm_req_event_param *p = &ev->param.req_rcvd;

	event->event = RDMA_CM_EVENT_CONNECT_REQUEST;
	if (ev->event == IB_CM_SIDR_REQ_RECEIVED) {
		event->param.ud.private_data = req->data;
		event->param.ud.private_data_len = req->data_len;
		return;
	}
	event->param.conn.private_data = req->data;
	event->param.conn.private_data_len = req->data_len;
	event->param.conn.responder_resources = p->responder_resources;
	event->param.conn.initiator_depth = p->initiator_depth;
	event->param.conn.flow_control = p->flow_control;
	event->param.conn.retry_count = p->retry_count;
	event->param.conn.rnr_retry_count = p->rnr_retry_count;
	event->param.conn.srq = p->srq;
	event->param.conn.qp_num = p->remote_qpn;
	event->ece = p->ece;
}

static int cma_ib_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *ev);
static int cma_sidr_handler(struct ib_cm_id *cm_id,
			    const struct ib_cm_event *ev);

/*
 * A new ID for a request, given to the listener's handler.  Called with
 * the listener's handler lock held and the listener in CMA_LISTEN.
 */
static int cma_req_to_listener(struct cma_id *listener, struct ib_cm_id *cm_id,
			       const struct ib_cm_event *ev,
			       struct cma_req *req)
{
	struct rdma_cm_event event = {};
	struct cma_id *conn;
	bool ud = ev->event == IB_CM_SIDR_REQ_RECEIVED;
	int ret;

	if ((listener->id.qp_type == IB_QPT_UD) != ud)
		return -EINVAL;
	conn = cma_id_alloc_conn(listener, listener->id.ps,
				 listener->id.qp_type);
	if (IS_ERR(conn))
		return PTR_ERR(conn);
	rdma_restrack_parent_name(&conn->rt.res, &listener->rt.res);
	conn->state = CMA_CONNECT;
	conn->rt.state = CMA_CONNECT;
	ret = cma_req_id_setup(conn, listener, cm_id, req);
	if (ret) {
		cma_destroy_unlock(conn);
		return ret;
	}
	conn->cm.ib = cm_id;
	cm_id->context = conn;
	cm_id->cm_handler = ud ? cma_sidr_handler : cma_ib_handler;

	cma_req_event(&event, ev, req);
	/* on a non-zero return ib_cm destroys its ID, which rejects */
	return cma_deliver_unlock(conn, &event, true);
}

/* The handler of the shared ib_cm listens: requests for our listeners */
static int cma_ib_req_handler(struct ib_cm_id *cm_id,
			      const struct ib_cm_event *ev)
{
	struct cma_id *listener;
	struct cma_req req = {};
	int ret;

	if (ev->event != IB_CM_REQ_RECEIVED &&
	    ev->event != IB_CM_SIDR_REQ_RECEIVED)
		return -EINVAL;
	ret = cma_req_parse(cm_id, ev, &req);
	if (ret)
		return ret;
	req.ndev = cma_req_ndev(cm_id, ev, &req);
	if (!req.ndev)
		return -ENODEV;

	listener = cma_listen_find(cm_id->device, req.port,
				   dev_net(req.ndev), req.ps,
				   (struct sockaddr *)&req.local,
				   req.ndev->ifindex);
	if (!listener) {
		ret = -ECONNREFUSED;
		goto out;
	}
	mutex_lock(&listener->handler_mutex);
	if (cma_state(listener) == CMA_LISTEN)
		ret = cma_req_to_listener(listener, cm_id, ev, &req);
	else
		ret = -ECONNABORTED;
	mutex_unlock(&listener->handler_mutex);
	cma_put(listener);
out:
	dev_put(req.ndev);
	return ret;
}

/**
 * cma_ib_listen - listen for an ID bound to (or internal to) a device
 * @priv: the ID, in CMA_LISTEN, attached to an ib_cm device
 *
 * Return: 0, or ib_cm_insert_listen()'s error.
 */
int cma_ib_listen(struct cma_id *priv)
{
	struct ib_cm_id *cm_id;
	__be64 sid = rdma_get_service_id(&priv->id, cma_src(priv));

	cm_id = ib_cm_insert_listen(priv->id.device, cma_ib_req_handler, sid);
	if (IS_ERR(cm_id))
		return PTR_ERR(cm_id);
	priv->cm.ib = cm_id;
	return 0;
}

/* Active side, REP: the QP to RTR and RTS, then RTU; else reject */
static int cma_rep_accepted(struct cma_id *priv)
{
	int ret;

	ret = cma_qp_to_rtr(priv, NULL);
	if (!ret)
		ret = cma_qp_to_rts(priv, NULL);
	if (!ret)
		ret = ib_send_cm_rtu(priv->cm.ib, NULL, 0);
	if (ret) {
		cma_qp_to_error(priv);
		ib_send_cm_rej(priv->cm.ib, IB_CM_REJ_CONSUMER_DEFINED,
			       NULL, 0, NULL, 0);
	}
	return ret;
}

static void cma_rep_event(struct cma_id *priv, struct rdma_cm_event *event,
			  const struct ib_cm_event *ev)
{
	const struct ib_cm_rep_event_param *p = &ev->param.rep_rcvd;

	ib_send_cm_mra(priv->cm.ib, CMA_MRA_SERVICE_TIMEOUT, NULL, 0);
	if (priv->id.qp) {
		event->status = cma_rep_accepted(priv);
		event->event = event->status ? RDMA_CM_EVENT_CONNECT_ERROR :
					       RDMA_CM_EVENT_ESTABLISHED;
	} else {
		event->event = RDMA_CM_EVENT_CONNECT_RESPONSE;
	}
	event->param.conn.private_data = ev->private_data;
	event->param.conn.private_data_len = IB_CM_REP_PRIVATE_DATA_SIZE;
	event->param.conn.responder_resources = p->responder_resources;
	event->param.conn.initiator_depth = p->initiator_depth;
	event->param.conn.flow_control = p->flow_control;
	event->param.conn.rnr_retry_count = p->rnr_retry_count;
	event->param.conn.srq = p->srq;
	event->param.conn.qp_num = p->remote_qpn;
	event->ece = p->ece;
}

/*
 * The RDMA CM event of an ib_cm event of a connection.  Return: false
 * when the event gives the ULP nothing.
 */
static bool cma_conn_event(struct cma_id *priv, struct rdma_cm_event *event,
			   const struct ib_cm_event *ev)
{
	switch (ev->event) {
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
		event->event = RDMA_CM_EVENT_UNREACHABLE;
		event->status = -ETIMEDOUT;
		return true;
	case IB_CM_REP_RECEIVED:
		cma_rep_event(priv, event, ev);
		return true;
	case IB_CM_RTU_RECEIVED:
	case IB_CM_USER_ESTABLISHED:
		event->event = RDMA_CM_EVENT_ESTABLISHED;
		return true;
	case IB_CM_DREQ_ERROR:
		event->status = -ETIMEDOUT;
		fallthrough;
	case IB_CM_DREQ_RECEIVED:
	case IB_CM_DREP_RECEIVED:
		if (!cma_move(priv, CMA_CONNECT, CMA_DISCONNECT))
			return false;
		event->event = RDMA_CM_EVENT_DISCONNECTED;
		return true;
	case IB_CM_TIMEWAIT_EXIT:
		event->event = RDMA_CM_EVENT_TIMEWAIT_EXIT;
		return true;
	case IB_CM_REJ_RECEIVED:
		cma_qp_to_error(priv);
		event->event = RDMA_CM_EVENT_REJECTED;
		event->status = ev->param.rej_rcvd.reason;
		event->param.conn.private_data = ev->private_data;
		event->param.conn.private_data_len = IB_CM_REJ_PRIVATE_DATA_SIZE;
		return true;
	default:
		/* MRA, LAP, APR: nothing for the ULP */
		return false;
	}
}

static int cma_ib_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *ev)
{
	struct cma_id *priv = cm_id->context;
	struct rdma_cm_event event = {};
	enum cma_state wanted;

	/* timewait ends a disconnected ID; all else concerns a connecting one */
	wanted = ev->event == IB_CM_TIMEWAIT_EXIT ? CMA_DISCONNECT :
						    CMA_CONNECT;
	mutex_lock(&priv->handler_mutex);
	if (cma_state(priv) == wanted && cma_conn_event(priv, &event, ev))
		return cma_deliver_unlock(priv, &event, true);
	mutex_unlock(&priv->handler_mutex);
	return 0;
}

/* A REQ's fields but the private data: what it asks, then where and how */
static void cma_req_fill(struct cma_id *priv, struct rdma_conn_param *param,
			 struct ib_cm_req_param *req)
{
	struct rdma_route *route = &priv->id.route;

	/* the ULP's asks; retry counts are three bits on the wire */
	req->initiator_depth = param->initiator_depth;
	req->responder_resources = param->responder_resources;
	req->rnr_retry_count = min_t(u8, param->rnr_retry_count, 7);
	req->retry_count = min_t(u8, param->retry_count, 7);
	req->flow_control = param->flow_control;
	req->ece = priv->ece;
	/* the local QP */
	req->srq = !!priv->srq;
	req->starting_psn = priv->seq_num;
	req->qp_type = priv->id.qp_type;
	req->qp_num = priv->qp_num;
	/* the service and the paths to it */
	req->service_id = rdma_get_service_id(&priv->id, cma_dst(priv));
	req->ppath_sgid_attr = route->addr.dev_addr.sgid_attr;
	req->primary_path = route->path_rec;
	req->primary_path_inbound = route->path_rec_inbound;
	req->primary_path_outbound = route->path_rec_outbound;
	req->alternate_path = route->num_pri_alt_paths > 1 ?
			      &route->path_rec[1] : NULL;
	/* how long ib_cm waits for the peer, and how often it retries */
	req->max_cm_retries = CMA_MAX_CM_RETRIES;
	req->local_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req->remote_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
}

/*
 * The private data of a REQ or SIDR REQ: rdma_cm's header (@off bytes,
 * none for AF_IB) and then the ULP's; *@data is NULL when @len is 0,
 * else the caller frees it.
 */
static int cma_ib_pdata(struct cma_id *priv, struct rdma_conn_param *param,
			size_t off, size_t len, u8 **data)
{
	int ret;

	*data = NULL;
	if (!len)
		return 0;
	*data = kzalloc(len, GFP_KERNEL);
	if (!*data)
		return -ENOMEM;
	if (off) {
		ret = cma_hdr_fill((struct cma_wire_hdr *)*data, priv);
		if (ret) {
			kfree(*data);
			*data = NULL;
			return ret;
		}
	}
	if (param->private_data && param->private_data_len)
		memcpy(*data + off, param->private_data, param->private_data_len);
	return 0;
}

/*
 * What a REQ and a SIDR REQ begin with: their private data (*@data, to
 * be freed; its length in *@len), which must fit in @room, and the ib_cm
 * ID they go from, with handler @h, in priv->cm.ib.
 */
static int cma_ib_start(struct cma_id *priv, struct rdma_conn_param *param,
			size_t room, ib_cm_handler h, u8 **data, u8 *len)
{
	size_t off = cma_ib_hdr_len(priv);
	struct ib_cm_id *cm_id;
	int ret;

	if (off + param->private_data_len > room)
		return -EINVAL;
	*len = off + param->private_data_len;
	ret = cma_ib_pdata(priv, param, off, *len, data);
	if (ret)
		return ret;
	cm_id = ib_create_cm_id(priv->id.device, h, priv);
	if (IS_ERR(cm_id)) {
		kfree(*data);
		return PTR_ERR(cm_id);
	}
	priv->cm.ib = cm_id;
	return 0;
}

/* The end of cma_ib_start()'s send: @ret, its status; @data is freed */
static int cma_ib_sent(struct cma_id *priv, int ret, u8 *data)
{
	struct ib_cm_id *cm_id;

	kfree(data);
	if (ret) {
		cm_id = priv->cm.ib;
		priv->cm.ib = NULL;
		ib_destroy_cm_id(cm_id);
	}
	return ret;
}

/**
 * cma_ib_connect - send the REQ of an ID's connection
 * @priv: the ID, in CMA_CONNECT with a resolved route
 * @param: the connection's parameters and private data
 *
 * Return: 0; -EINVAL when the private data does not fit; ib_cm's errors.
 */
int cma_ib_connect(struct cma_id *priv, struct rdma_conn_param *param)
{
	struct ib_cm_req_param req = {};
	u8 *data;
	int ret;

	ret = cma_ib_start(priv, param, IB_CM_REQ_PRIVATE_DATA_SIZE,
			   cma_ib_handler, &data, &req.private_data_len);
	if (ret)
		return ret;
	req.private_data = data;
	cma_req_fill(priv, param, &req);
	return cma_ib_sent(priv, ib_send_cm_req(priv->cm.ib, &req), data);
}

/**
 * cma_ib_accept - accept a connection request with a REP
 * @priv: the new ID, in CMA_CONNECT
 * @param: the ULP's parameters
 *
 * The ID's QP goes to RTR and RTS first.
 *
 * Return: 0, or the QP's or ib_cm's error.
 */
int cma_ib_accept(struct cma_id *priv, struct rdma_conn_param *param)
{
	struct ib_cm_rep_param rep = {
		/* what the ULP answers */
		.private_data = param->private_data,
		.private_data_len = param->private_data_len,
		.initiator_depth = param->initiator_depth,
		.responder_resources = param->responder_resources,
		.rnr_retry_count = min_t(u8, param->rnr_retry_count, 7),
		.flow_control = param->flow_control,
		.ece = priv->ece,
		/* the local QP */
		.srq = !!priv->srq,
		.starting_psn = priv->seq_num,
		.qp_num = priv->qp_num,
	};
	int ret;

	ret = cma_qp_to_rtr(priv, param);
	if (!ret)
		ret = cma_qp_to_rts(priv, param);
	return ret ?: ib_send_cm_rep(priv->cm.ib, &rep);
}

/**
 * cma_ib_accept_noparam - accept without parameters: the QP moves and RTU
 * @priv: the ID
 *
 * Return: 0, or the error (the connection is then rejected).
 */
int cma_ib_accept_noparam(struct cma_id *priv)
{
	return cma_rep_accepted(priv);
}

/**
 * cma_ib_reject - reject a request (REJ, or a SIDR REP for UD)
 * @priv: the ID
 * @data: private data, or NULL
 * @len: its length
 * @reason: the IB CM reject reason
 *
 * Return: 0, or ib_cm's error.
 */
int cma_ib_reject(struct cma_id *priv, const void *data, u8 len, u8 reason)
{
	if (priv->id.qp_type == IB_QPT_UD)
		return cma_ib_sidr_reply(priv, NULL, IB_SIDR_REJECT, data, len);
	return ib_send_cm_rej(priv->cm.ib, reason, NULL, 0, data, len);
}

/**
 * cma_ib_disconnect - end a connection: the QP to error, DREQ (or DREP)
 * @priv: the ID
 *
 * Return: 0, or the QP's error.
 */
int cma_ib_disconnect(struct cma_id *priv)
{
	int ret;

	ret = cma_qp_to_error(priv);
	if (ret)
		return ret;
	/* a DREQ already came: answer it */
	if (ib_send_cm_dreq(priv->cm.ib, NULL, 0))
		ib_send_cm_drep(priv->cm.ib, NULL, 0);
	return 0;
}

/**
 * cma_ib_set_qkey - fix a UD ID's Q_Key
 * @priv: the ID
 * @qkey: the Q_Key asked for; 0 for the port space's default
 *
 * Return: 0, or -EINVAL for a Q_Key other than the one fixed already.
 */
int cma_ib_set_qkey(struct cma_id *priv, u32 qkey)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct ib_sa_mcmember_rec rec;
	union ib_gid mgid;

	if (qkey) {
		if (priv->qkey && priv->qkey != qkey)
			return -EINVAL;
		priv->qkey = qkey;
		return 0;
	}
	if (priv->qkey)
		return 0;
	/* IPoIB's Q_Key is its broadcast group's; rdma_cm's own otherwise */
	if (priv->id.ps == RDMA_PS_UDP || priv->id.ps == RDMA_PS_IB) {
		priv->qkey = RDMA_UDP_QKEY;
	} else if (priv->id.ps == RDMA_PS_IPOIB) {
		ib_addr_get_mgid(dev_addr, &mgid);
		if (!ib_sa_get_mcmember_rec(priv->id.device, priv->id.port_num,
					    &mgid, &rec))
			priv->qkey = be32_to_cpu(rec.qkey);
	}
	return 0;
}

/**
 * cma_ib_sidr_reply - answer a SIDR REQ
 * @priv: the new UD ID
 * @param: the ULP's parameters (Q_Key), or NULL
 * @status: IB_SIDR_SUCCESS or a refusal
 * @data: private data, or NULL
 * @len: its length
 *
 * Return: 0, -EINVAL for a conflicting Q_Key, or ib_cm's error.
 */
int cma_ib_sidr_reply(struct cma_id *priv, struct rdma_conn_param *param,
		      int status, const void *data, u8 len)
{
	struct ib_cm_sidr_rep_param rep = {};
	int ret;

	if (status == IB_SIDR_SUCCESS) {
		ret = cma_ib_set_qkey(priv, param ? param->qkey : 0);
		if (ret)
			return ret;
		rep.qp_num = priv->qp_num;
		rep.qkey = priv->qkey;
		rep.ece = priv->ece;
	}
	rep.status = status;
	rep.private_data = data;
	rep.private_data_len = len;
	return ib_send_cm_sidr_rep(priv->cm.ib, &rep);
}

/* The SIDR REP of a UD "connection": the peer's QP, Q_Key, and an AH */
static void cma_sidr_event(struct cma_id *priv, struct rdma_cm_event *event,
			   const struct ib_cm_event *ev)
{
	const struct ib_cm_sidr_rep_event_param *rep = &ev->param.sidr_rep_rcvd;
	int ret;

	if (ev->event == IB_CM_SIDR_REQ_ERROR) {
		event->event = RDMA_CM_EVENT_UNREACHABLE;
		event->status = -ETIMEDOUT;
		return;
	}
	event->param.ud.private_data = ev->private_data;
	event->param.ud.private_data_len = IB_CM_SIDR_REP_PRIVATE_DATA_SIZE;
	if (rep->status != IB_SIDR_SUCCESS) {
		event->event = RDMA_CM_EVENT_UNREACHABLE;
		event->status = rep->status;
		return;
	}
	ret = cma_ib_set_qkey(priv, rep->qkey);
	if (!ret)
		ret = ib_init_ah_attr_from_path(priv->id.device,
						priv->id.port_num,
						priv->id.route.path_rec,
						&event->param.ud.ah_attr,
						rep->sgid_attr);
	if (ret) {
		event->event = RDMA_CM_EVENT_ADDR_ERROR;
		event->status = ret;
		return;
	}
	event->event = RDMA_CM_EVENT_ESTABLISHED;
	event->param.ud.qp_num = rep->qpn;
	event->param.ud.qkey = rep->qkey;
}

static int cma_sidr_handler(struct ib_cm_id *cm_id,
			    const struct ib_cm_event *ev)
{
	struct cma_id *priv = cm_id->context;
	struct rdma_cm_event event = {};
	int ret;

	if (ev->event != IB_CM_SIDR_REQ_ERROR &&
	    ev->event != IB_CM_SIDR_REP_RECEIVED)
		return 0;
	mutex_lock(&priv->handler_mutex);
	if (cma_state(priv) != CMA_CONNECT) {
		mutex_unlock(&priv->handler_mutex);
		return 0;
	}
	cma_sidr_event(priv, &event, ev);
	ret = cma_deliver_unlock(priv, &event, true);
	/* the address handle was the handler's to copy */
	rdma_destroy_ah_attr(&event.param.ud.ah_attr);
	return ret;
}

/**
 * cma_ib_sidr_query - resolve a UD destination's QP with a SIDR REQ
 * @priv: the ID, in CMA_CONNECT with a resolved route
 * @param: the private data
 *
 * Return: 0; -EINVAL when the private data does not fit; ib_cm's errors.
 */
int cma_ib_sidr_query(struct cma_id *priv, struct rdma_conn_param *param)
{
	struct ib_cm_sidr_req_param req = {};
	u8 *data;
	int ret;

	ret = cma_ib_start(priv, param, IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE,
			   cma_sidr_handler, &data, &req.private_data_len);
	if (ret)
		return ret;
	req.private_data = data;
	req.path = priv->id.route.path_rec;
	req.sgid_attr = priv->id.route.addr.dev_addr.sgid_attr;
	req.service_id = rdma_get_service_id(&priv->id, cma_dst(priv));
	req.timeout_ms = 1 << (CMA_CM_RESPONSE_TIMEOUT - 8);
	req.max_cm_retries = CMA_MAX_CM_RETRIES;
	return cma_ib_sent(priv, ib_send_cm_sidr_req(priv->cm.ib, &req), data);
}
