// SPDX-License-Identifier: GPL-2.0
/*
 * nldev, the RDMA netlink client of devices (RDMA_NL_NLDEV): what its
 * attributes may hold, which handler answers each command and with which
 * permission, and the helpers the command files (dev.c, link.c, sys.c,
 * res.c, stat.c) share: parsing, finding the device a request names,
 * starting and sending replies, walking the devices in a dump.  Also the
 * exported helpers drivers use to add their own attributes.
 *
 * Nothing here is locked: handlers run under the client's rwsem
 * (netlink.c) and hold registration references on devices.
 */
#include "abi/ib_core/nldev.h"
#include "device/internal.h"
#include "nl/internal.h"

#define NL_U8		{ .type = NLA_U8 }
#define NL_U32		{ .type = NLA_U32 }
#define NL_S32		{ .type = NLA_S32 }
#define NL_U64		{ .type = NLA_U64 }
#define NL_S64		{ .type = NLA_S64 }
#define NL_NEST		{ .type = NLA_NESTED }
#define NL_BINARY	{ .type = NLA_BINARY }
/* A NUL-terminated string of at most @max characters. */
#define NL_STR(max)	{ .type = NLA_NUL_STRING, .len = (max) }
/* A string the kernel only sends: a request may carry it empty, at most. */
#define NL_OUT_STR	NL_STR(RDMA_NLDEV_ATTR_EMPTY_STRING)
/* A socket address: any type, at least a sockaddr_storage long. */
#define NL_SOCKADDR	{ .len = sizeof(struct __kernel_sockaddr_storage) }

/*
 * Every attribute a request may carry, and its type.  Those not listed
 * (such as RDMA_NLDEV_ATTR_CAP_FLAGS) are accepted untyped by the lenient
 * commands and refused by the strict ones, as in the target kernel.
 */
static const struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	/* devices and ports */
	[RDMA_NLDEV_ATTR_DEV_INDEX]		= NL_U32,
	[RDMA_NLDEV_ATTR_DEV_NAME]		= NL_STR(IB_DEVICE_NAME_MAX),
	[RDMA_NLDEV_ATTR_PORT_INDEX]		= NL_U32,
	[RDMA_NLDEV_ATTR_FW_VERSION]		= NL_OUT_STR,
	[RDMA_NLDEV_ATTR_NODE_GUID]		= NL_U64,
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID]	= NL_U64,
	[RDMA_NLDEV_ATTR_SUBNET_PREFIX]		= NL_U64,
	[RDMA_NLDEV_ATTR_LID]			= NL_U32,
	[RDMA_NLDEV_ATTR_SM_LID]		= NL_U32,
	[RDMA_NLDEV_ATTR_LMC]			= NL_U8,
	[RDMA_NLDEV_ATTR_PORT_STATE]		= NL_U8,
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]	= NL_U8,
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]		= NL_U8,
	[RDMA_NLDEV_ATTR_NDEV_INDEX]		= NL_U32,
	[RDMA_NLDEV_ATTR_NDEV_NAME]		= NL_STR(IFNAMSIZ),
	[RDMA_NLDEV_ATTR_LINK_TYPE]		= NL_STR(IFNAMSIZ),
	[RDMA_NLDEV_ATTR_DEV_PROTOCOL]		= NL_OUT_STR,
	[RDMA_NLDEV_NET_NS_FD]			= NL_U32,
	[RDMA_NLDEV_ATTR_DEV_DIM]		= NL_U8,
	/* resource summary */
	[RDMA_NLDEV_ATTR_RES_SUMMARY]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY]	= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME] = NL_OUT_STR,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR] = NL_U64,
	/* tracked resources */
	[RDMA_NLDEV_ATTR_RES_QP]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_LQPN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_RQPN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_RQ_PSN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_SQ_PSN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE]	= NL_U8,
	[RDMA_NLDEV_ATTR_RES_TYPE]		= NL_U8,
	[RDMA_NLDEV_ATTR_RES_STATE]		= NL_U8,
	[RDMA_NLDEV_ATTR_RES_PID]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_KERN_NAME]		= NL_OUT_STR,
	[RDMA_NLDEV_ATTR_RES_CM_ID]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY]	= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_PS]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_SRC_ADDR]		= NL_SOCKADDR,
	[RDMA_NLDEV_ATTR_RES_DST_ADDR]		= NL_SOCKADDR,
	[RDMA_NLDEV_ATTR_RES_CQ]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_CQ_ENTRY]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_CQE]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_USECNT]		= NL_U64,
	[RDMA_NLDEV_ATTR_RES_POLL_CTX]		= NL_U8,
	[RDMA_NLDEV_ATTR_RES_MR]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_MR_ENTRY]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_RKEY]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_LKEY]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_IOVA]		= NL_U64,
	[RDMA_NLDEV_ATTR_RES_MRLEN]		= NL_U64,
	[RDMA_NLDEV_ATTR_RES_PD]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_PD_ENTRY]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY]	= NL_U32,
	[RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY] = NL_U32,
	[RDMA_NLDEV_ATTR_RES_PDN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_CQN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_MRN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_CM_IDN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_CTXN]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_RAW]		= NL_BINARY,
	[RDMA_NLDEV_ATTR_RES_CTX]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_CTX_ENTRY]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_SRQ]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_SRQ_ENTRY]		= NL_NEST,
	[RDMA_NLDEV_ATTR_RES_SRQN]		= NL_U32,
	[RDMA_NLDEV_ATTR_MIN_RANGE]		= NL_U32,
	[RDMA_NLDEV_ATTR_MAX_RANGE]		= NL_U32,
	[RDMA_NLDEV_ATTR_RES_SUBTYPE]		= NL_OUT_STR,
	[RDMA_NLDEV_ATTR_DRIVER_DETAILS]	= NL_U8,
	/* driver-specific attributes */
	[RDMA_NLDEV_ATTR_DRIVER]		= NL_NEST,
	[RDMA_NLDEV_ATTR_DRIVER_ENTRY]		= NL_NEST,
	[RDMA_NLDEV_ATTR_DRIVER_STRING]		= NL_OUT_STR,
	[RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE]	= NL_U8,
	[RDMA_NLDEV_ATTR_DRIVER_S32]		= NL_S32,
	[RDMA_NLDEV_ATTR_DRIVER_U32]		= NL_U32,
	[RDMA_NLDEV_ATTR_DRIVER_S64]		= NL_S64,
	[RDMA_NLDEV_ATTR_DRIVER_U64]		= NL_U64,
	/* system */
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]	= NL_U8,
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]	= NL_U8,
	[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE] = NL_U8,
	/* character devices */
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE]	= NL_STR(RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE),
	[RDMA_NLDEV_ATTR_CHARDEV_NAME]		= NL_OUT_STR,
	[RDMA_NLDEV_ATTR_CHARDEV_ABI]		= NL_U64,
	[RDMA_NLDEV_ATTR_CHARDEV]		= NL_U64,
	[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]	= NL_U32,
	/* statistics */
	[RDMA_NLDEV_ATTR_STAT_MODE]		= NL_U32,
	[RDMA_NLDEV_ATTR_STAT_RES]		= NL_U32,
	[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK]	= NL_U32,
	[RDMA_NLDEV_ATTR_STAT_COUNTER]		= NL_NEST,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY]	= NL_NEST,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]	= NL_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]	= NL_NEST,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY]	= NL_NEST,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = NL_STR(0),
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = NL_U64,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX]	= NL_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] = NL_U8,
};

/**
 * nldev_parse() - split a request into its attributes
 * @nlh: the request
 * @tb: RDMA_NLDEV_ATTR_MAX entries, filled
 * @strict: refuse unknown attributes and trailing bytes (the commands
 *	the target parses strictly: GET_CHARDEV, SYS_*, STAT_*)
 * @extack: where to say what is wrong
 *
 * Return: 0, or the errno of the first bad attribute.
 */
int nldev_parse(const struct nlmsghdr *nlh, struct nlattr **tb, bool strict,
		struct netlink_ext_ack *extack)
{
	if (strict)
		return nlmsg_parse(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX - 1,
				   nldev_policy, extack);
	return nlmsg_parse_deprecated(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX - 1,
				      nldev_policy, extack);
}

/**
 * nldev_get_device() - the device a request names by index
 * @skb: the request; its socket's namespace must see the device
 * @tb: its attributes
 *
 * Return: the registered device with a registration reference (drop it
 * with ib_device_put()), or NULL if the request names none, an unknown
 * one or one its namespace cannot see.
 */
struct ib_device *nldev_get_device(struct sk_buff *skb, struct nlattr **tb)
{
	struct ib_device *device;
	unsigned long index, found;

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX])
		return NULL;
	index = nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	found = index;
	device = ibdev_index_get_next_live(&found);
	if (device && (found != index ||
		       !rdma_dev_access_netns(device, sock_net(skb->sk)))) {
		ib_device_put(device);
		device = NULL;
	}
	return device;
}

/**
 * nldev_get_port() - the port a request names
 * @device: the device
 * @tb: the request's attributes
 * @port: set to the port number
 *
 * Return: 0, or -EINVAL if the request names no valid port of @device.
 */
int nldev_get_port(struct ib_device *device, struct nlattr **tb, u32 *port)
{
	if (!tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -EINVAL;
	*port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	return rdma_is_port_valid(device, *port) ? 0 : -EINVAL;
}

/**
 * nldev_get_device_port() - the device and the port a request names
 * @skb: the request
 * @tb: its attributes
 * @port: set to the port number
 *
 * Return: the device with a registration reference (drop it with
 * ib_device_put()), or NULL if the request does not name a device its
 * namespace sees and a valid port of it.
 */
struct ib_device *nldev_get_device_port(struct sk_buff *skb, struct nlattr **tb,
					u32 *port)
{
	struct ib_device *device = nldev_get_device(skb, tb);

	if (device && nldev_get_port(device, tb, port)) {
		ib_device_put(device);
		device = NULL;
	}
	return device;
}

/**
 * nldev_put_handle() - the attributes that name a device in a message
 * @msg: the message
 * @device: the device
 *
 * Return: 0 or -EMSGSIZE.
 */
int nldev_put_handle(struct sk_buff *msg, struct ib_device *device)
{
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, device->index) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_NAME,
			   dev_name(&device->dev)))
		return -EMSGSIZE;
	return 0;
}

/**
 * nldev_reply_new() - start the reply to a request
 * @req: the request's buffer
 * @nlh: the request
 * @cmd: the command the reply is typed with
 * @hdr: set to the reply's header
 *
 * Return: the reply (send it with nldev_reply_send() or free it with
 * nlmsg_free()), or NULL when out of memory.
 */
struct sk_buff *nldev_reply_new(struct sk_buff *req, const struct nlmsghdr *nlh,
				u8 cmd, struct nlmsghdr **hdr)
{
	struct sk_buff *msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	if (!msg)
		return NULL;
	*hdr = nlmsg_put(msg, NETLINK_CB(req).portid, nlh->nlmsg_seq,
			 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), 0, 0);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/**
 * nldev_reply_send() - finish a reply and send it to the requester
 * @req: the request's buffer
 * @msg: the reply, from nldev_reply_new(); consumed
 * @hdr: its header
 *
 * Return: 0 or the errno of sending.
 */
int nldev_reply_send(struct sk_buff *req, struct sk_buff *msg,
		     struct nlmsghdr *hdr)
{
	nlmsg_end(msg, hdr);
	return rdma_nl_unicast(sock_net(req->sk), msg, NETLINK_CB(req).portid);
}

/**
 * nldev_dump_msg() - start the next message of a dump
 * @skb: the dump's buffer
 * @cb: the dump
 * @cmd: the command the message is typed with
 *
 * Return: the header, or NULL if @skb is full.
 */
struct nlmsghdr *nldev_dump_msg(struct sk_buff *skb, struct netlink_callback *cb,
				u8 cmd)
{
	return nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), 0, NLM_F_MULTI);
}

/**
 * nldev_dump_devices() - one message per device for a dump
 * @skb: the dump's buffer
 * @cb: the dump; cb->args[0] is the index of the next device
 * @fill: adds the messages of one device; returns -EMSGSIZE, having
 *	taken its partial message out, when @skb is full
 *
 * Devices the requester's namespace cannot see are skipped, and so is a
 * device @fill fails on for another reason.
 *
 * Return: the length of @skb; 0 ends the dump.
 */
int nldev_dump_devices(struct sk_buff *skb, struct netlink_callback *cb,
		       int (*fill)(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   struct ib_device *device))
{
	unsigned long index = cb->args[0];
	struct ib_device *device;
	int ret;

	while ((device = ibdev_index_get_next_live(&index))) {
		ret = rdma_dev_access_netns(device, sock_net(skb->sk)) ?
		      fill(skb, cb, device) : 0;
		ib_device_put(device);
		if (ret == -EMSGSIZE)
			break;
		index++;
	}
	cb->args[0] = index;
	return skb->len;
}

/* A driver attribute's name, and how to print its value. */
static int nldev_put_driver_name(struct sk_buff *msg, const char *name,
				 bool hex)
{
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_DRIVER_STRING, name))
		return -EMSGSIZE;
	if (hex && nla_put_u8(msg, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE,
			      RDMA_NLDEV_PRINT_TYPE_HEX))
		return -EMSGSIZE;
	return 0;
}

static int nldev_put_driver_u32(struct sk_buff *msg, const char *name,
				u32 value, bool hex)
{
	if (nldev_put_driver_name(msg, name, hex) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_DRIVER_U32, value))
		return -EMSGSIZE;
	return 0;
}

static int nldev_put_driver_u64(struct sk_buff *msg, const char *name,
				u64 value, bool hex)
{
	if (nldev_put_driver_name(msg, name, hex) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_DRIVER_U64, value,
			      RDMA_NLDEV_ATTR_PAD))
		return -EMSGSIZE;
	return 0;
}

/**
 * rdma_nl_put_driver_u32() - add a driver's named u32 to a resource entry
 * @msg: the message being filled (a fill_res_*_entry operation's)
 * @name: the value's name
 * @value: the value, printed in decimal
 *
 * Return: 0 or -EMSGSIZE.
 */
int rdma_nl_put_driver_u32(struct sk_buff *msg, const char *name, u32 value)
{
	return nldev_put_driver_u32(msg, name, value, false);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u32);

/**
 * rdma_nl_put_driver_u32_hex() - add a driver's named u32, shown in hex
 * @msg: the message being filled
 * @name: the value's name
 * @value: the value
 *
 * Return: 0 or -EMSGSIZE.
 */
int rdma_nl_put_driver_u32_hex(struct sk_buff *msg, const char *name,
			       u32 value)
{
	return nldev_put_driver_u32(msg, name, value, true);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u32_hex);

/**
 * rdma_nl_put_driver_u64() - add a driver's named u64 to a resource entry
 * @msg: the message being filled
 * @name: the value's name
 * @value: the value, printed in decimal
 *
 * Return: 0 or -EMSGSIZE.
 */
int rdma_nl_put_driver_u64(struct sk_buff *msg, const char *name, u64 value)
{
	return nldev_put_driver_u64(msg, name, value, false);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u64);

/**
 * rdma_nl_put_driver_u64_hex() - add a driver's named u64, shown in hex
 * @msg: the message being filled
 * @name: the value's name
 * @value: the value
 *
 * Return: 0 or -EMSGSIZE.
 */
int rdma_nl_put_driver_u64_hex(struct sk_buff *msg, const char *name,
			       u64 value)
{
	return nldev_put_driver_u64(msg, name, value, true);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u64_hex);

/**
 * rdma_nl_put_driver_string() - add a driver's named string
 * @msg: the message being filled
 * @name: the value's name
 * @str: the value
 *
 * Return: 0 or -EMSGSIZE.
 */
int rdma_nl_put_driver_string(struct sk_buff *msg, const char *name,
			      const char *str)
{
	if (nldev_put_driver_name(msg, name, false) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DRIVER_STRING, str))
		return -EMSGSIZE;
	return 0;
}
EXPORT_SYMBOL(rdma_nl_put_driver_string);

/**
 * rdma_nl_stat_hwcounter_entry() - add one named counter to a statistics
 *	message
 * @msg: the message, inside its RDMA_NLDEV_ATTR_STAT_HWCOUNTERS nest
 * @name: the counter's name
 * @value: its value
 *
 * Return: 0, or -EMSGSIZE with nothing added.
 */
int rdma_nl_stat_hwcounter_entry(struct sk_buff *msg, const char *name,
				 u64 value)
{
	struct nlattr *entry;

	entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,
			   name) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE,
			      value, RDMA_NLDEV_ATTR_PAD)) {
		nla_nest_cancel(msg, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 0;
}
EXPORT_SYMBOL(rdma_nl_stat_hwcounter_entry);

/* Each command's handlers; ADMIN: the sender needs CAP_NET_ADMIN. */
#define NLDEV_CMD(cmd, _doit, _dump, _flags) \
	[RDMA_NLDEV_CMD_##cmd] = { .doit = _doit, .dump = _dump, .flags = _flags }
#define ADMIN RDMA_NL_ADMIN_PERM

static const struct rdma_nl_cbs nldev_cmds[RDMA_NLDEV_NUM_OPS] = {
	NLDEV_CMD(GET,		dev_get_doit, dev_get_dump, 0),
	NLDEV_CMD(SET,		dev_set_doit, NULL, ADMIN),
	NLDEV_CMD(NEWLINK,	link_newlink, NULL, ADMIN),
	NLDEV_CMD(DELLINK,	link_dellink, NULL, ADMIN),
	NLDEV_CMD(PORT_GET,	dev_port_get_doit, dev_port_get_dump, 0),
	NLDEV_CMD(GET_CHARDEV,	dev_get_chardev, NULL, 0),
	NLDEV_CMD(SYS_GET,	sys_get_doit, NULL, 0),
	NLDEV_CMD(SYS_SET,	sys_set_doit, NULL, ADMIN),
	NLDEV_CMD(RES_GET,	res_summary_doit, res_summary_dump, 0),
	NLDEV_CMD(RES_QP_GET,	res_get_doit, res_get_dump, 0),
	NLDEV_CMD(RES_CM_ID_GET, res_get_doit, res_get_dump, 0),
	NLDEV_CMD(RES_CQ_GET,	res_get_doit, res_get_dump, 0),
	NLDEV_CMD(RES_MR_GET,	res_get_doit, res_get_dump, 0),
	NLDEV_CMD(RES_PD_GET,	res_get_doit, res_get_dump, 0),
	NLDEV_CMD(RES_CTX_GET,	res_get_doit, res_get_dump, 0),
	NLDEV_CMD(RES_SRQ_GET,	res_get_doit, res_get_dump, 0),
	NLDEV_CMD(RES_QP_GET_RAW, res_get_doit, res_get_dump, ADMIN),
	NLDEV_CMD(RES_CQ_GET_RAW, res_get_doit, res_get_dump, ADMIN),
	NLDEV_CMD(RES_MR_GET_RAW, res_get_doit, res_get_dump, ADMIN),
	NLDEV_CMD(STAT_GET,	stat_get_doit, stat_get_dump, 0),
	NLDEV_CMD(STAT_SET,	stat_set_doit, NULL, ADMIN),
	NLDEV_CMD(STAT_DEL,	stat_del_doit, NULL, ADMIN),
	NLDEV_CMD(STAT_GET_STATUS, stat_get_status_doit, NULL, 0),
};

void nldev_init(void)
{
	rdma_nl_register(RDMA_NL_NLDEV, nldev_cmds);
}

void nldev_exit(void)
{
	rdma_nl_unregister(RDMA_NL_NLDEV);
}

MODULE_ALIAS_RDMA_NETLINK(RDMA_NL_NLDEV, 5);
