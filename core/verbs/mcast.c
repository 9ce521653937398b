// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching UD QPs to multicast groups and detaching them.
 *
 * A QP holds a usecnt on itself for each group it is attached to, so that
 * it cannot be destroyed while attached.  The caller serialises the
 * attachments of one QP.
 */
#include "abi/ib_core/verbs.h"

/* A LID that InfiniBand reserves for multicast (and not the permissive). */
static bool mcast_lid_is_multicast(u16 lid)
{
	return lid >= be16_to_cpu(IB_MULTICAST_LID_BASE) &&
	       lid != be16_to_cpu(IB_LID_PERMISSIVE);
}

static bool mcast_port_is_ib(struct ib_device *dev, u32 port)
{
	return rdma_port_get_link_layer(dev, port) == IB_LINK_LAYER_INFINIBAND;
}

/*
 * Can the QP's port be other than InfiniBand?  Once the QP is in INIT or
 * later its port is known; before that, any of the device's ports may
 * become it.
 */
static bool mcast_qp_may_be_off_ib(struct ib_qp *qp)
{
	struct ib_qp_init_attr init_attr = {};
	struct ib_qp_attr attr = {};
	u32 port;

	if (!ib_query_qp(qp, &attr, IB_QP_STATE | IB_QP_PORT, &init_attr) &&
	    attr.qp_state >= IB_QPS_INIT)
		return !mcast_port_is_ib(qp->device, attr.port_num);

	rdma_for_each_port(qp->device, port)
		if (!mcast_port_is_ib(qp->device, port))
			return true;
	return false;
}

/*
 * The LID of a group must be a multicast LID on InfiniBand; the RoCE annex
 * has Ethernet ports ignore it.
 */
static bool mcast_lid_ok(struct ib_qp *qp, u16 lid)
{
	return mcast_lid_is_multicast(lid) || mcast_qp_may_be_off_ib(qp);
}

/* Attach (@op the driver's attach_mcast, @delta 1) or detach (-1). */
static int mcast_change(struct ib_qp *qp, union ib_gid *gid, u16 lid,
			int (*op)(struct ib_qp *, union ib_gid *, u16),
			int delta)
{
	int ret;

	if (!op)
		return -EOPNOTSUPP;
	if (!rdma_is_multicast_addr((struct in6_addr *)gid->raw) ||
	    qp->qp_type != IB_QPT_UD || !mcast_lid_ok(qp, lid))
		return -EINVAL;
	ret = op(qp, gid, lid);
	if (!ret)
		atomic_add(delta, &qp->usecnt);
	return ret;
}

/**
 * ib_attach_mcast() - attach a UD QP to a multicast group
 * @qp: the QP
 * @gid: the group's multicast GID
 * @lid: the group's multicast LID (ignored on Ethernet ports)
 *
 * Return: 0; -EOPNOTSUPP if the device has no multicast; -EINVAL for a
 * GID that is not multicast, a QP that is not UD, or a LID that is not a
 * multicast LID on InfiniBand; or the driver's error.
 */
int ib_attach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	return mcast_change(qp, gid, lid, qp->device->ops.attach_mcast, 1);
}
EXPORT_SYMBOL(ib_attach_mcast);

/**
 * ib_detach_mcast() - detach a UD QP from a multicast group
 * @qp: the QP
 * @gid: the group's multicast GID
 * @lid: the group's multicast LID
 *
 * Return: as ib_attach_mcast().
 */
int ib_detach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	return mcast_change(qp, gid, lid, qp->device->ops.detach_mcast, -1);
}
EXPORT_SYMBOL(ib_detach_mcast);
