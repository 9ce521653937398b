// SPDX-License-Identifier: GPL-2.0
/*
 * nldev system settings: SYS_GET and SYS_SET (the sharing of devices among
 * network namespaces, whether unprivileged users may use controlled
 * Q_Keys), and what pinned memory does at fork.
 *
 * nl_privileged_qkey is a flag read without a lock (READ_ONCE).
 */
#include "abi/ib_core/nldev.h"
#include "core/nldev.h"
#include "nl/internal.h"

/* Unprivileged users may set controlled Q_Keys (SYS_SET). */
static bool nl_privileged_qkey;

/**
 * rdma_nl_get_privileged_qkey() - may the caller use a controlled Q_Key?
 *
 * Return: true if the system allows everybody to (SYS_SET
 * RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE), or the caller has
 * CAP_NET_RAW.
 */
bool rdma_nl_get_privileged_qkey(void)
{
	return READ_ONCE(nl_privileged_qkey) || capable(CAP_NET_RAW);
}
EXPORT_SYMBOL(rdma_nl_get_privileged_qkey);

static int sys_fill(struct sk_buff *msg)
{
	if (nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, netns_shared()) ||
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE,
		       READ_ONCE(nl_privileged_qkey)))
		return -EMSGSIZE;
	/*
	 * Pages pinned for DMA are copied, not shared, when the process
	 * forks (this kernel breaks COW early for them): report it, or
	 * nothing if there is no room.
	 */
	nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1);
	return 0;
}

/* SYS_GET: the system settings. */
int sys_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	int ret;

	ret = nldev_parse(nlh, tb, true, extack);
	if (ret)
		return ret;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_SYS_GET, &hdr);
	if (!msg)
		return -ENOMEM;
	ret = sys_fill(msg);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return nldev_reply_send(skb, msg, hdr);
}

/* A 0/1 flag of SYS_SET. */
static int sys_flag(struct nlattr *attr, bool *value)
{
	u8 v = nla_get_u8(attr);

	if (v > 1)
		return -EINVAL;
	*value = v;
	return 0;
}

/* SYS_SET: one setting per request, the namespace mode first. */
int sys_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	bool value;
	int ret;

	if (nldev_parse(nlh, tb, true, extack))
		return -EINVAL;
	if (tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]) {
		ret = sys_flag(tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE], &value);
		if (!ret)
			ret = netns_set_shared(value);
		if (ret == -EBUSY)
			NL_SET_ERR_MSG_MOD(extack,
					   "other network namespaces exist");
		return ret;
	}
	if (tb[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE]) {
		ret = sys_flag(tb[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE],
			       &value);
		if (!ret)
			WRITE_ONCE(nl_privileged_qkey, value);
		return ret;
	}
	return -EINVAL;
}
