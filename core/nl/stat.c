// SPDX-License-Identifier: GPL-2.0
/*
 * nldev statistics: a port's hardware counters ("rdma statistic show"),
 * their status and the switching of optional ones (STAT_GET,
 * STAT_GET_STATUS, STAT_SET), and per-QP counters (STAT_GET, STAT_SET and
 * STAT_DEL with RDMA_NLDEV_ATTR_STAT_RES).
 *
 * ib_core binds no QP counters: a port's counter mode reads "none", a new
 * counter answers -EOPNOTSUPP, a named one -ENOENT and unbinding -EINVAL,
 * as the target does for a device without counter operations.  The counter sets are
 * core/counters/'s; a set's stats->lock is held while it is read.
 */
#include "abi/ib_core/device.h"
#include "counters/internal.h"
#include "nl/internal.h"

/* The enabled counters of @stats in a STAT_HWCOUNTERS nest. */
static int stat_fill_counters(struct sk_buff *msg, struct rdma_hw_stats *stats)
{
	struct nlattr *table;
	int i;

	lockdep_assert_held(&stats->lock);
	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < stats->num_counters; i++) {
		if (test_bit(i, stats->is_disabled))
			continue;
		if (rdma_nl_stat_hwcounter_entry(msg, stats->descs[i].name,
						 stats->value[i])) {
			nla_nest_cancel(msg, table);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, table);
	return 0;
}

/* The freshly read counters of a port, after its handle. */
static int stat_fill_port(struct sk_buff *msg, struct ib_device *device,
			  u32 port, struct rdma_hw_stats *stats)
{
	int ret;

	if (nldev_put_handle(msg, device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	mutex_lock(&stats->lock);
	ret = counters_refresh(device, stats, port, stats->num_counters, true);
	if (ret)
		ret = -EINVAL;
	else
		ret = stat_fill_counters(msg, stats);
	mutex_unlock(&stats->lock);
	return ret;
}

/* The counter set a STAT command names (device and port), with the device. */
static int stat_port_stats(struct sk_buff *skb, struct nlattr **tb,
			   struct ib_device **device, u32 *port,
			   struct rdma_hw_stats **stats)
{
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -EINVAL;
	*device = nldev_get_device(skb, tb);
	if (!*device)
		return -EINVAL;
	*port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	*stats = counters_port_stats(*device, *port);
	if (!*stats) {
		ib_device_put(*device);
		return -EINVAL;
	}
	return 0;
}

/* STAT_GET without STAT_RES: the hardware counters of a port. */
static int stat_get_port(struct sk_buff *skb, struct nlmsghdr *nlh,
			 struct nlattr **tb)
{
	struct rdma_hw_stats *stats;
	struct ib_device *device;
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	u32 port;
	int ret;

	ret = stat_port_stats(skb, tb, &device, &port, &stats);
	if (ret)
		return ret;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_STAT_GET, &hdr);
	ret = msg ? stat_fill_port(msg, device, port, stats) : -ENOMEM;
	if (!ret)
		ret = nldev_reply_send(skb, msg, hdr);
	else
		nlmsg_free(msg);
	ib_device_put(device);
	return ret;
}

/* The QP counter mode of a port. */
static int stat_fill_qp_mode(struct sk_buff *msg, struct ib_device *device,
			     u32 port)
{
	const struct rdma_counter_mode *mode =
		&device->port_data[port].port_counter.mode;

	if (nldev_put_handle(msg, device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_MODE, mode->mode) ||
	    (mode->mode == RDMA_COUNTER_MODE_AUTO &&
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, mode->mask)))
		return -EMSGSIZE;
	return 0;
}

/* STAT_GET of QPs: one counter, or the port's counter mode. */
static int stat_get_qp(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack, struct nlattr **tb)
{
	struct ib_device *device;
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	u32 port;
	int ret;

	if (tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
		return res_doit_type(skb, nlh, extack, tb,
				     RDMA_RESTRACK_COUNTER,
				     RDMA_NLDEV_CMD_STAT_GET);
	if (!tb[RDMA_NLDEV_ATTR_STAT_MODE])
		return -EINVAL;
	device = nldev_get_device_port(skb, tb, &port);
	if (!device)
		return -EINVAL;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_STAT_GET, &hdr);
	ret = msg ? stat_fill_qp_mode(msg, device, port) : -ENOMEM;
	if (!ret)
		ret = nldev_reply_send(skb, msg, hdr);
	else
		nlmsg_free(msg);
	ib_device_put(device);
	return ret;
}

/* STAT_GET: by STAT_RES, QP counters or MR statistics; else a port's. */
int stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];

	if (nldev_parse(nlh, tb, true, extack))
		return -EINVAL;
	if (!tb[RDMA_NLDEV_ATTR_STAT_RES])
		return stat_get_port(skb, nlh, tb);
	switch (nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_RES])) {
	case RDMA_NLDEV_ATTR_RES_QP:
		return stat_get_qp(skb, nlh, extack, tb);
	case RDMA_NLDEV_ATTR_RES_MR:
		return res_doit_type(skb, nlh, extack, tb, RDMA_RESTRACK_MR,
				     RDMA_NLDEV_CMD_STAT_GET);
	default:
		return -EINVAL;
	}
}

/* STAT_GET as a dump: the QP counters or the MRs of a device. */
int stat_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];

	if (nldev_parse(cb->nlh, tb, true, NULL) ||
	    !tb[RDMA_NLDEV_ATTR_STAT_RES])
		return -EINVAL;
	switch (nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_RES])) {
	case RDMA_NLDEV_ATTR_RES_QP:
		return res_dump_type(skb, cb, tb, RDMA_RESTRACK_COUNTER,
				     RDMA_NLDEV_CMD_STAT_GET);
	case RDMA_NLDEV_ATTR_RES_MR:
		return res_dump_type(skb, cb, tb, RDMA_RESTRACK_MR,
				     RDMA_NLDEV_CMD_STAT_GET);
	default:
		return -EINVAL;
	}
}

/*
 * STAT_SET of a QP counter mode or binding.  There are no QP counters:
 * automatic mode and a new counter are not supported, and the counter a
 * binding names does not exist.
 */
static int stat_set_mode(struct nlattr **tb, struct netlink_ext_ack *extack)
{
	if (!tb[RDMA_NLDEV_ATTR_STAT_RES] ||
	    nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_RES]) != RDMA_NLDEV_ATTR_RES_QP)
		return -EINVAL;
	if (nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_MODE]) != RDMA_COUNTER_MODE_AUTO) {
		if (!tb[RDMA_NLDEV_ATTR_RES_LQPN])
			return -EINVAL;
		if (tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
			return -ENOENT;
	}
	NL_SET_ERR_MSG_MOD(extack, "QP counters are not supported");
	return -EOPNOTSUPP;
}

/* Which optional counters STAT_HWCOUNTERS lists (by index) to enable. */
static int stat_wanted(struct nlattr *list, struct rdma_hw_stats *stats,
		       unsigned long *want)
{
	struct nlattr *attr;
	u32 index;
	int rem;

	nla_for_each_nested(attr, list, rem) {
		if (nla_len(attr) != sizeof(u32))
			return -EINVAL;
		index = nla_get_u32(attr);
		if (index >= stats->num_counters ||
		    !(stats->descs[index].flags & IB_STAT_FLAG_OPTIONAL))
			return -EINVAL;
		__set_bit(index, want);
	}
	return 0;
}

/* STAT_SET with STAT_HWCOUNTERS: exactly the listed optional counters on. */
static int stat_set_optional(struct ib_device *device, u32 port,
			     struct nlattr *list)
{
	struct rdma_hw_stats *stats = counters_port_stats(device, port);
	unsigned long *want;
	int i, ret;

	if (!stats)
		return -EINVAL;
	want = bitmap_zalloc(stats->num_counters, GFP_KERNEL);
	if (!want)
		return -ENOMEM;
	ret = stat_wanted(list, stats, want);
	for (i = 0; !ret && i < stats->num_counters; i++)
		if (stats->descs[i].flags & IB_STAT_FLAG_OPTIONAL)
			ret = counters_modify(device, port, i,
					      test_bit(i, want));
	bitmap_free(want);
	return ret;
}

static int stat_set(struct ib_device *device, u32 port, struct nlattr **tb,
		    struct netlink_ext_ack *extack)
{
	int ret = 0;

	if (tb[RDMA_NLDEV_ATTR_STAT_MODE])
		ret = stat_set_mode(tb, extack);
	if (!ret && tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		ret = stat_set_optional(device, port,
					tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]);
	return ret;
}

/* STAT_SET: QP counter mode or binding, and optional hardware counters. */
int stat_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *device;
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	u32 port;
	int ret;

	if (nldev_parse(nlh, tb, true, extack) ||
	    (!tb[RDMA_NLDEV_ATTR_STAT_MODE] &&
	     !tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]))
		return -EINVAL;
	device = nldev_get_device_port(skb, tb, &port);
	if (!device)
		return -EINVAL;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_STAT_SET, &hdr);
	ret = 0;
	if (!msg || nldev_put_handle(msg, device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		ret = msg ? -EMSGSIZE : -ENOMEM;
	if (!ret)
		ret = stat_set(device, port, tb, extack);
	if (!ret)
		ret = nldev_reply_send(skb, msg, hdr);
	else
		nlmsg_free(msg);
	ib_device_put(device);
	return ret;
}

/*
 * Unbinding QP @qpn from a counter of @port: no QP is bound to a counter,
 * so a QP that exists on the port is not bound to the one named.
 */
static int stat_unbind(struct ib_device *device, u32 port, u32 qpn)
{
	struct rdma_restrack_entry *res;
	struct ib_qp *qp;
	int ret = -EINVAL;

	res = rdma_restrack_get_byid(device, RDMA_RESTRACK_QP, qpn);
	if (IS_ERR(res))
		return -ENOENT;
	qp = container_of(res, struct ib_qp, res);
	/* Raw packet QPs are only shown to those who may use them. */
	if (qp->qp_type == IB_QPT_RAW_PACKET && !capable(CAP_NET_RAW))
		ret = -ENOENT;
	rdma_restrack_put(res);
	return ret;
}

/* STAT_DEL: unbind a QP from a counter. */
int stat_del_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *device;
	u32 port;
	int ret;

	if (nldev_parse(nlh, tb, true, extack) ||
	    !tb[RDMA_NLDEV_ATTR_STAT_RES] || !tb[RDMA_NLDEV_ATTR_PORT_INDEX] ||
	    !tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] ||
	    !tb[RDMA_NLDEV_ATTR_RES_LQPN] ||
	    nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_RES]) != RDMA_NLDEV_ATTR_RES_QP)
		return -EINVAL;
	device = nldev_get_device_port(skb, tb, &port);
	if (!device)
		return -EINVAL;
	ret = stat_unbind(device, port,
			  nla_get_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN]));
	ib_device_put(device);
	return ret;
}

/* One counter's name, index and, if optional, whether it is enabled. */
static int stat_status_entry(struct sk_buff *msg, struct rdma_hw_stats *stats,
			     int i)
{
	bool optional = stats->descs[i].flags & IB_STAT_FLAG_OPTIONAL;
	struct nlattr *entry;

	entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,
			   stats->descs[i].name) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, i) ||
	    (optional &&
	     nla_put_u8(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC,
			!test_bit(i, stats->is_disabled)))) {
		nla_nest_cancel(msg, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 0;
}

static int stat_fill_status(struct sk_buff *msg, struct ib_device *device,
			    u32 port, struct rdma_hw_stats *stats)
{
	struct nlattr *table;
	int i, ret = 0;

	if (nldev_put_handle(msg, device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!table)
		return -EMSGSIZE;
	mutex_lock(&stats->lock);
	for (i = 0; !ret && i < stats->num_counters; i++)
		ret = stat_status_entry(msg, stats, i);
	mutex_unlock(&stats->lock);
	if (ret)
		nla_nest_cancel(msg, table);
	else
		nla_nest_end(msg, table);
	return ret;
}

/* STAT_GET_STATUS: every counter of a port, optional or not. */
int stat_get_status_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct rdma_hw_stats *stats;
	struct ib_device *device;
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	u32 port;
	int ret;

	if (nldev_parse(nlh, tb, true, extack))
		return -EINVAL;
	ret = stat_port_stats(skb, tb, &device, &port, &stats);
	if (ret)
		return ret;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_STAT_GET_STATUS, &hdr);
	ret = msg ? stat_fill_status(msg, device, port, stats) : -ENOMEM;
	if (!ret)
		ret = nldev_reply_send(skb, msg, hdr);
	else
		nlmsg_free(msg);
	ib_device_put(device);
	return ret;
}
