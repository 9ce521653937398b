// SPDX-License-Identifier: GPL-2.0
/*
 * nldev commands about devices and ports: GET (one device, or all in a
 * dump), SET (rename, network namespace, adaptive CQ moderation), PORT_GET
 * (one port, or all ports of a device in a dump) and GET_CHARDEV (the
 * character device of a client such as uverbs or rdma_cm).
 *
 * Handlers hold a registration reference on the device they report; see
 * nl/internal.h for locking.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"
#include "nl/internal.h"

/* The protocol of a device, named after its first port's. */
static const char *dev_protocol(struct ib_device *device)
{
	u32 port = rdma_start_port(device);

	if (rdma_cap_opa_mad(device, port))
		return "opa";
	if (rdma_protocol_ib(device, port))
		return "ib";
	if (rdma_protocol_iwarp(device, port))
		return "iw";
	if (rdma_protocol_roce(device, port))
		return "roce";
	if (rdma_protocol_usnic(device, port))
		return "usnic";
	return NULL;
}

/* What GET reports of a device. */
static int dev_fill(struct sk_buff *msg, struct ib_device *device)
{
	char fw[IB_FW_VERSION_NAME_MAX];
	const char *protocol = dev_protocol(device);

	ib_get_device_fw_str(device, fw);
	if (nldev_put_handle(msg, device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, rdma_end_port(device)) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CAP_FLAGS,
			      device->attrs.device_cap_flags,
			      RDMA_NLDEV_ATTR_PAD) ||
	    (fw[0] && nla_put_string(msg, RDMA_NLDEV_ATTR_FW_VERSION, fw)) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_NODE_GUID,
			      be64_to_cpu(device->node_guid),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID,
			      be64_to_cpu(device->attrs.sys_image_guid),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, device->node_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, device->use_cq_dim) ||
	    (protocol &&
	     nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_PROTOCOL, protocol)))
		return -EMSGSIZE;
	return 0;
}

/* GET with RDMA_NLDEV_ATTR_DEV_INDEX: one device. */
int dev_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *device;
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	int ret;

	if (nldev_parse(nlh, tb, false, extack))
		return -EINVAL;
	device = nldev_get_device(skb, tb);
	if (!device)
		return -EINVAL;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_GET, &hdr);
	ret = msg ? dev_fill(msg, device) : -ENOMEM;
	if (!ret)
		ret = nldev_reply_send(skb, msg, hdr);
	else
		nlmsg_free(msg);
	ib_device_put(device);
	return ret;
}

static int dev_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			struct ib_device *device)
{
	struct nlmsghdr *hdr = nldev_dump_msg(skb, cb, RDMA_NLDEV_CMD_GET);

	if (!hdr)
		return -EMSGSIZE;
	if (dev_fill(skb, device)) {
		nlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	nlmsg_end(skb, hdr);
	return 0;
}

/* GET as a dump: every device the requester's namespace sees. */
int dev_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_dump_devices(skb, cb, dev_dump_one);
}

/* SET with RDMA_NLDEV_ATTR_DEV_NAME. */
static int dev_rename(struct ib_device *device, struct nlattr *attr,
		      struct netlink_ext_ack *extack)
{
	char name[IB_DEVICE_NAME_MAX];
	int ret;

	nla_strscpy(name, attr, sizeof(name));
	if (!name[0]) {
		NL_SET_ERR_MSG_MOD(extack, "empty device name");
		return -EINVAL;
	}
	/* Its own name: nothing changes, nobody is told. */
	if (!strcmp(name, dev_name(&device->dev)))
		return 0;
	ret = ibdev_index_rename(device, name);
	if (!ret)
		ibdev_client_rename_all(device);
	return ret;
}

/*
 * SET with RDMA_NLDEV_NET_NS_FD.  Moving a device needs its user contexts
 * disassociated, exclusive mode, and a move of the device model between
 * namespaces, which ib_core does not have yet.
 */
static int dev_set_netns(struct sk_buff *skb, struct ib_device *device,
			 u32 fd, struct netlink_ext_ack *extack)
{
	struct net *net = get_net_ns_by_fd(fd);
	int ret = -EOPNOTSUPP;

	if (IS_ERR(net))
		return PTR_ERR(net);
	if (!netlink_ns_capable(skb, net->user_ns, CAP_NET_ADMIN))
		ret = -EPERM;
	else
		NL_SET_ERR_MSG_MOD(extack,
				   "devices cannot move between namespaces");
	put_net(net);
	return ret;
}

static int dev_set(struct sk_buff *skb, struct ib_device *device,
		   struct nlattr **tb, struct netlink_ext_ack *extack)
{
	u8 dim;

	if (tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return dev_rename(device, tb[RDMA_NLDEV_ATTR_DEV_NAME], extack);
	if (tb[RDMA_NLDEV_NET_NS_FD])
		return dev_set_netns(skb, device,
				     nla_get_u32(tb[RDMA_NLDEV_NET_NS_FD]),
				     extack);
	if (tb[RDMA_NLDEV_ATTR_DEV_DIM]) {
		dim = nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_DIM]);
		if (dim > 1)
			return -EINVAL;
		device->use_cq_dim = dim;
	}
	return 0;
}

/* SET: one change per request, the first of name, namespace, DIM. */
int dev_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *device;
	int ret;

	if (nldev_parse(nlh, tb, false, extack))
		return -EINVAL;
	device = nldev_get_device(skb, tb);
	if (!device)
		return -EINVAL;
	ret = dev_set(skb, device, tb, extack);
	ib_device_put(device);
	return ret;
}

/* The net device of @port, if the requester's namespace sees it. */
static int dev_port_fill_netdev(struct sk_buff *msg, struct ib_device *device,
				u32 port, const struct net *net)
{
	struct net_device *ndev = ibdev_port_netdev_get(device, port);
	int ret = 0;

	if (!ndev)
		return 0;
	if (net_eq(dev_net(ndev), net) &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_NDEV_INDEX, ndev->ifindex) ||
	     nla_put_string(msg, RDMA_NLDEV_ATTR_NDEV_NAME, ndev->name)))
		ret = -EMSGSIZE;
	dev_put(ndev);
	return ret;
}

/* InfiniBand addressing of a port. */
static int dev_port_fill_ib(struct sk_buff *msg, const struct ib_port_attr *attr)
{
	u64 caps = attr->port_cap_flags | ((u64)attr->port_cap_flags2 << 32);

	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CAP_FLAGS, caps,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_SUBNET_PREFIX,
			      attr->subnet_prefix, RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_LID, attr->lid) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_SM_LID, attr->sm_lid) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_LMC, attr->lmc))
		return -EMSGSIZE;
	return 0;
}

/* What PORT_GET reports of a port. */
static int dev_port_fill(struct sk_buff *msg, struct ib_device *device,
			 u32 port, const struct net *net)
{
	struct ib_port_attr attr;
	int ret;

	if (nldev_put_handle(msg, device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	ret = ib_query_port(device, port, &attr);
	if (ret)
		return ret;
	if (rdma_protocol_ib(device, port) && dev_port_fill_ib(msg, &attr))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_STATE, attr.state) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, attr.phys_state))
		return -EMSGSIZE;
	return dev_port_fill_netdev(msg, device, port, net);
}

/* PORT_GET with a device and a port (the reply is typed GET). */
int dev_port_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *device;
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	u32 port;
	int ret;

	if (nldev_parse(nlh, tb, false, extack))
		return -EINVAL;
	device = nldev_get_device_port(skb, tb, &port);
	if (!device)
		return -EINVAL;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_GET, &hdr);
	ret = msg ? dev_port_fill(msg, device, port, sock_net(skb->sk)) :
		    -ENOMEM;
	if (!ret)
		ret = nldev_reply_send(skb, msg, hdr);
	else
		nlmsg_free(msg);
	ib_device_put(device);
	return ret;
}

/* The ports of @device from cb->args[0] on, one message each. */
static int dev_port_dump_ports(struct sk_buff *skb, struct netlink_callback *cb,
			       struct ib_device *device)
{
	struct nlmsghdr *hdr;
	u32 port = max_t(u32, cb->args[0], rdma_start_port(device));

	for (; port <= rdma_end_port(device); port++) {
		hdr = nldev_dump_msg(skb, cb, RDMA_NLDEV_CMD_PORT_GET);
		if (!hdr)
			break;
		if (dev_port_fill(skb, device, port, sock_net(skb->sk))) {
			nlmsg_cancel(skb, hdr);
			break;
		}
		nlmsg_end(skb, hdr);
	}
	cb->args[0] = port;
	return skb->len;
}

/* PORT_GET as a dump: every port of one device. */
int dev_port_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *device;
	int ret;

	if (nldev_parse(cb->nlh, tb, false, NULL))
		return -EINVAL;
	device = nldev_get_device(skb, tb);
	if (!device)
		return -EINVAL;
	ret = dev_port_dump_ports(skb, cb, device);
	ib_device_put(device);
	return ret;
}

/* Ask the client @name, loading its module if nobody answers. */
static int dev_client_nl_info(struct ib_device *device, const char *name,
			      struct ib_client_nl_info *info)
{
	int ret = ibdev_client_nl_info(device, name, info);

	if (ret == -ENOENT && IS_ENABLED(CONFIG_MODULES)) {
		request_module("rdma-client-%s", name);
		ret = ibdev_client_nl_info(device, name, info);
	}
	if (ret == -ENOENT)
		return -EOPNOTSUPP;
	if (!ret && !info->cdev)
		return -EINVAL;
	return ret;
}

/* The client's answer, after what it added to @msg itself. */
static int dev_chardev_fill(struct sk_buff *msg, struct ib_device *device,
			    const char *name, struct ib_client_nl_info *info)
{
	int ret;

	info->nl_msg = msg;
	ret = dev_client_nl_info(device, name, info);
	if (ret)
		return ret;
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CHARDEV,
			      huge_encode_dev(info->cdev->devt),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CHARDEV_ABI, info->abi,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_NAME,
			   dev_name(info->cdev)))
		ret = -EMSGSIZE;
	put_device(info->cdev);
	return ret;
}

/* Which device and port a GET_CHARDEV is about; port -1 means "any". */
static int dev_chardev_target(struct sk_buff *skb, struct nlattr **tb,
			      struct ib_device **device, u32 *port)
{
	*device = NULL;
	*port = U32_MAX;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX])
		return tb[RDMA_NLDEV_ATTR_PORT_INDEX] ? -EINVAL : 0;
	*device = nldev_get_device(skb, tb);
	if (!*device)
		return -EINVAL;
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX] && nldev_get_port(*device, tb, port)) {
		ib_device_put(*device);
		return -EINVAL;
	}
	return 0;
}

/* GET_CHARDEV: a client's character device, for one device or global. */
int dev_get_chardev(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack)
{
	char name[RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE];
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_client_nl_info info = {};
	struct ib_device *device;
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	int ret;

	if (nldev_parse(nlh, tb, true, extack) ||
	    !tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE])
		return -EINVAL;
	nla_strscpy(name, tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE], sizeof(name));
	ret = dev_chardev_target(skb, tb, &device, &info.port);
	if (ret)
		return ret;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_GET_CHARDEV, &hdr);
	ret = msg ? dev_chardev_fill(msg, device, name, &info) : -ENOMEM;
	if (!ret)
		ret = nldev_reply_send(skb, msg, hdr);
	else
		nlmsg_free(msg);
	if (device)
		ib_device_put(device);
	return ret;
}
