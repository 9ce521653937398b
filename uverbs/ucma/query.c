// SPDX-License-Identifier: GPL-2.0
/*
 * What userspace asks of an ID: QUERY_ROUTE (addresses, device, port and
 * the route's paths or GIDs) and QUERY with its three options: ADDR (the
 * addresses whatever their family), PATH (the path records in the SA's
 * wire format) and GID (the addresses as AF_IB: GIDs and service IDs).
 */
#include <linux/slab.h>
#include <rdma/ib.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_marshall.h>
#include <rdma/ib_sa.h>
#include "internal.h"

/* An IPv4 or IPv6 address into a sockaddr_in6 field */
static void ucma_ip_addr(struct sockaddr_in6 *dst,
			 const struct sockaddr_storage *src)
{
	size_t len = src->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
						 sizeof(struct sockaddr_in6);

	memcpy(dst, src, len);
}

/*
 * The route's resolved paths; without any, the GIDs of the addresses
 * (@roce: from the IP addresses, with the default P_Key).
 */
static void ucma_route_paths(struct rdma_ucm_query_route_resp *resp,
			     struct rdma_route *route, bool roce)
{
	struct rdma_dev_addr *dev_addr = &route->addr.dev_addr;
	u32 i, n = min_t(u32, route->num_pri_alt_paths, 2);

	resp->num_paths = route->num_pri_alt_paths;
	for (i = 0; i < n; i++)
		ib_copy_path_rec_to_user(&resp->ib_route[i],
					 &route->path_rec[i]);
	if (route->num_pri_alt_paths)
		return;
	if (roce) {
		rdma_ip2gid((struct sockaddr *)&route->addr.src_addr,
			    (union ib_gid *)resp->ib_route[0].sgid);
		rdma_ip2gid((struct sockaddr *)&route->addr.dst_addr,
			    (union ib_gid *)resp->ib_route[0].dgid);
		resp->ib_route[0].pkey = cpu_to_be16(0xffff);
		return;
	}
	rdma_addr_get_sgid(dev_addr, (union ib_gid *)resp->ib_route[0].sgid);
	rdma_addr_get_dgid(dev_addr, (union ib_gid *)resp->ib_route[0].dgid);
	resp->ib_route[0].pkey = cpu_to_be16(ib_addr_get_pkey(dev_addr));
}

static void ucma_route_fill(struct rdma_ucm_query_route_resp *resp,
			    struct rdma_cm_id *cm_id)
{
	struct ib_device *device = cm_id->device;
	struct rdma_route *route = &cm_id->route;
	u32 port = cm_id->port_num;

	ucma_ip_addr(&resp->src_addr, &route->addr.src_addr);
	ucma_ip_addr(&resp->dst_addr, &route->addr.dst_addr);
	if (!device)
		return;
	resp->node_guid = (__force __u64)device->node_guid;
	resp->ibdev_index = device->index;
	resp->port_num = port;
	if (rdma_cap_ib_sa(device, port))
		ucma_route_paths(resp, route, false);
	else if (rdma_protocol_roce(device, port))
		ucma_route_paths(resp, route, true);
	else if (rdma_protocol_iwarp(device, port)) {
		rdma_addr_get_sgid(&route->addr.dev_addr,
				   (union ib_gid *)resp->ib_route[0].sgid);
		rdma_addr_get_dgid(&route->addr.dev_addr,
				   (union ib_gid *)resp->ib_route[0].dgid);
	}
}

/**
 * ucma_cmd_query_route - QUERY_ROUTE: an ID's addresses, device and route
 * @file: the file
 * @buf: struct rdma_ucm_query
 * @in_len: unused
 * @out_len: room for struct rdma_ucm_query_route_resp (older userspace
 *	stops before ibdev_index)
 *
 * Return: 0 or a negative errno.
 */
int ucma_cmd_query_route(struct ucma_file *file, void *buf,
		     u32 in_len, u32 out_len)
{
	struct rdma_ucm_query_route_resp *resp;
	struct rdma_ucm_query *cmd = buf;
	struct ucma_ctx *ctx;
	int ret = 0;

	resp = kzalloc(sizeof(*resp), GFP_KERNEL);
	if (!resp)
		return -ENOMEM;
	ctx = ucma_ctx_get(file, cmd->id, false);
	if (IS_ERR(ctx)) {
		kfree(resp);
		return PTR_ERR(ctx);
	}
	ucma_route_fill(resp, ctx->cm_id);
	ucma_ctx_done(ctx);
	if (copy_to_user(u64_to_user_ptr(cmd->response), resp,
			 min_t(size_t, out_len, sizeof(*resp))))
		ret = -EFAULT;
	kfree(resp);
	return ret;
}

/* The device, port and P_Key of a bound ID (none for an unbound one) */
static void ucma_addr_device(struct rdma_ucm_query_addr_resp *resp,
			     struct rdma_cm_id *cm_id)
{
	if (!cm_id->device)
		return;
	resp->node_guid = (__force __u64)cm_id->device->node_guid;
	resp->ibdev_index = cm_id->device->index;
	resp->port_num = cm_id->port_num;
	resp->pkey = (__force __u16)
		cpu_to_be16(ib_addr_get_pkey(&cm_id->route.addr.dev_addr));
}

static void ucma_addr_copy(struct __kernel_sockaddr_storage *dst, u16 *size,
			   const struct sockaddr_storage *src)
{
	*size = rdma_addr_size((struct sockaddr *)src);
	memcpy(dst, src, *size);
}

static void ucma_query_addr(struct rdma_ucm_query_addr_resp *resp,
			    struct rdma_cm_id *cm_id)
{
	ucma_addr_copy(&resp->src_addr, &resp->src_size,
		       &cm_id->route.addr.src_addr);
	ucma_addr_copy(&resp->dst_addr, &resp->dst_size,
		       &cm_id->route.addr.dst_addr);
	ucma_addr_device(resp, cm_id);
}

/*
 * One end of the ID as AF_IB: the address itself if it is one, else its
 * GID (@src: the source's) and the service ID of its port.
 */
static void ucma_gid_addr(struct __kernel_sockaddr_storage *dst, u16 *size,
			  struct rdma_cm_id *cm_id, bool src, u16 pkey)
{
	struct sockaddr_storage *addr = src ? &cm_id->route.addr.src_addr :
					      &cm_id->route.addr.dst_addr;
	struct sockaddr_ib *sib = (struct sockaddr_ib *)dst;

	*size = sizeof(*sib);
	if (addr->ss_family == AF_IB) {
		memcpy(sib, addr, sizeof(*sib));
		return;
	}
	sib->sib_family = AF_IB;
	sib->sib_pkey = (__force __be16)pkey;
	rdma_read_gids(cm_id, src ? (union ib_gid *)&sib->sib_addr : NULL,
		       src ? NULL : (union ib_gid *)&sib->sib_addr);
	sib->sib_sid = rdma_get_service_id(cm_id, (struct sockaddr *)addr);
}

static void ucma_query_gid(struct rdma_ucm_query_addr_resp *resp,
			   struct rdma_cm_id *cm_id)
{
	ucma_addr_device(resp, cm_id);
	ucma_gid_addr(&resp->src_addr, &resp->src_size, cm_id, true,
		      resp->pkey);
	ucma_gid_addr(&resp->dst_addr, &resp->dst_size, cm_id, false,
		      resp->pkey);
}

/* QUERY's ADDR and GID options: both answer a query_addr_resp */
static int ucma_query_addr_resp(struct rdma_cm_id *cm_id, u32 option,
				void __user *out, u32 out_len)
{
	struct rdma_ucm_query_addr_resp *resp;
	int ret = 0;

	if (out_len < offsetof(struct rdma_ucm_query_addr_resp, ibdev_index))
		return -ENOSPC;
	resp = kzalloc(sizeof(*resp), GFP_KERNEL);
	if (!resp)
		return -ENOMEM;
	if (option == RDMA_USER_CM_QUERY_ADDR)
		ucma_query_addr(resp, cm_id);
	else
		ucma_query_gid(resp, cm_id);
	if (copy_to_user(out, resp, min_t(size_t, out_len, sizeof(*resp))))
		ret = -EFAULT;
	kfree(resp);
	return ret;
}

/* QUERY's PATH option: as many of the ID's paths as @out_len holds */
static int ucma_query_path(struct rdma_cm_id *cm_id, void __user *out,
			   u32 out_len)
{
	struct rdma_ucm_query_path_resp *resp;
	struct rdma_route *route = &cm_id->route;
	u32 i, n;
	int ret = 0;

	if (out_len < sizeof(*resp))
		return -ENOSPC;
	n = min_t(u32, route->num_pri_alt_paths,
		  (out_len - sizeof(*resp)) / sizeof(resp->path_data[0]));
	resp = kzalloc(struct_size(resp, path_data, n), GFP_KERNEL);
	if (!resp)
		return -ENOMEM;
	resp->num_paths = route->num_pri_alt_paths;
	for (i = 0; i < n; i++) {
		struct sa_path_rec ib, *rec = &route->path_rec[i];

		resp->path_data[i].flags = IB_PATH_GMP | IB_PATH_PRIMARY |
					   IB_PATH_BIDIRECTIONAL;
		if (rec->rec_type == SA_PATH_REC_TYPE_OPA) {
			sa_convert_path_opa_to_ib(&ib, rec);
			rec = &ib;
		}
		ib_sa_pack_path(rec, &resp->path_data[i].path_rec);
	}
	if (copy_to_user(out, resp, struct_size(resp, path_data, n)))
		ret = -EFAULT;
	kfree(resp);
	return ret;
}

/**
 * ucma_cmd_query - QUERY: an ID's addresses, paths or GIDs
 * @file: the file
 * @buf: struct rdma_ucm_query
 * @in_len: unused
 * @out_len: room for the option's answer
 *
 * Return: 0 or a negative errno (-ENOSYS for an unknown option).
 */
int ucma_cmd_query(struct ucma_file *file, void *buf,
	       u32 in_len, u32 out_len)
{
	struct rdma_ucm_query *cmd = buf;
	struct ucma_ctx *ctx;
	void __user *out;
	int ret;

	out = u64_to_user_ptr(cmd->response);
	ctx = ucma_ctx_get(file, cmd->id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	switch (cmd->option) {
	case RDMA_USER_CM_QUERY_ADDR:
	case RDMA_USER_CM_QUERY_GID:
		ret = ucma_query_addr_resp(ctx->cm_id, cmd->option, out,
					   out_len);
		break;
	case RDMA_USER_CM_QUERY_PATH:
		ret = ucma_query_path(ctx->cm_id, out, out_len);
		break;
	default:
		ret = -ENOSYS;
		break;
	}
	ucma_ctx_done(ctx);
	return ret;
}
