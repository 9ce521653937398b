// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: the fabric between test devices, and how a datagram
 * finds its receiver on it.
 *
 * Every registered tdev is on the fabric.  A datagram (UD, GSI or SMI
 * send) is routed the way a subnet routes it:
 *
 *  - from an InfiniBand port, by the address vector's destination LID to
 *    the active InfiniBand port that has that LID (LIDs are unique when
 *    the devices are made: the lowest free LID from 1 on, per port), or,
 *    when no port has the LID and the vector has a GRH, by its
 *    destination GID to the port whose GID table holds it (a router);
 *  - from a RoCE port, by the destination GID of the vector's GRH to the
 *    RoCE port whose GID table holds it with the source GID's type, and
 *    only if that port's device is the one its netdev leads to
 *    (netdev.c), as a soft RoCE driver finds the device of a packet;
 *  - then, on the receiving port, by QP number: 0 and 1 are that port's
 *    QP0 and QP1, other numbers a UD QP of the receiving device bound to
 *    that port.  QP0 talks only to QP0.
 *
 * At the receiving QP the IBTA's key rules apply: the Q_Key of the work
 * request (or the sender's own, when the request's has its high bit set)
 * must be IB_QP1_QKEY for QP1 and the QP's Q_Key for a UD QP (QP0 has
 * none); the P_Key the sender used (its table entry at the work
 * request's index for QP1, at the QP's index else) must match the
 * receiving QP's entry (UD) or an entry of the port's table (QP1, whose
 * index the completion reports).  A message that fails any of this is
 * lost, as on a wire.
 *
 * Locking: tv_fabric_lock (IRQ-safe) serialises changes of the list of
 * devices, which the engine walks under rcu_read_lock(); a device leaves
 * it before it is unregistered and a grace period passes before it can
 * be freed.  LIDs, P_Keys and port states are read with READ_ONCE(): the
 * engine never takes tdev->lock.  tv_lids hands out LIDs.
 */
#include <linux/idr.h>
#include <linux/rculist.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include "tdev_priv.h"

#define TV_MAX_UCAST_LID	0xbfff

static LIST_HEAD(tv_fabric);
static DEFINE_SPINLOCK(tv_fabric_lock);
static DEFINE_IDA(tv_lids);

/**
 * tv_lids_alloc - give every InfiniBand port of a new device its LID
 * @td: the device, being created
 *
 * Return: 0 or -ENOSPC/-ENOMEM (the LIDs given so far are kept for
 * tv_lids_free()).
 */
int tv_lids_alloc(struct tdev *td)
{
	u32 port;
	int lid;

	if (td->params.link_layer != IB_LINK_LAYER_INFINIBAND)
		return 0;
	for (port = 1; port <= td->params.ports; port++) {
		lid = ida_alloc_range(&tv_lids, 1, TV_MAX_UCAST_LID,
				      GFP_KERNEL);
		if (lid < 0)
			return lid;
		td->port[port].lid = lid;
		td->port[port].lid_id = lid;
	}
	return 0;
}

/**
 * tv_lids_free - give back the LIDs tv_lids_alloc() handed out
 * @td: the device, being freed
 */
void tv_lids_free(struct tdev *td)
{
	u32 port;

	for (port = 1; port <= td->params.ports; port++) {
		if (td->port[port].lid_id)
			ida_free(&tv_lids, td->port[port].lid_id);
		td->port[port].lid_id = 0;
	}
}

/**
 * tv_fabric_join - a registered device can be reached
 * @td: the device
 */
void tv_fabric_join(struct tdev *td)
{
	unsigned long flags;

	spin_lock_irqsave(&tv_fabric_lock, flags);
	if (!td->on_fabric) {
		list_add_tail_rcu(&td->fabric, &tv_fabric);
		td->on_fabric = true;
	}
	spin_unlock_irqrestore(&tv_fabric_lock, flags);
}

/**
 * tv_fabric_leave - a device can no longer be reached
 * @td: the device, about to be unregistered or freed
 *
 * Sleeps: returns once no engine can be routing to it.
 */
void tv_fabric_leave(struct tdev *td)
{
	unsigned long flags;
	bool was;

	spin_lock_irqsave(&tv_fabric_lock, flags);
	was = td->on_fabric;
	if (was) {
		list_del_rcu(&td->fabric);
		td->on_fabric = false;
	}
	spin_unlock_irqrestore(&tv_fabric_lock, flags);
	if (was)
		synchronize_rcu();
}

static bool tv_is_ib(const struct tdev *td)
{
	return td->params.link_layer == IB_LINK_LAYER_INFINIBAND;
}

/* The active InfiniBand port with @lid; under rcu_read_lock(). */
static bool tv_find_lid(u16 lid, struct tdev **out, u32 *port)
{
	struct tdev *td;
	u32 p;

	list_for_each_entry_rcu(td, &tv_fabric, fabric) {
		if (!tv_is_ib(td))
			continue;
		for (p = 1; p <= td->params.ports; p++) {
			if (READ_ONCE(td->port[p].lid) == lid &&
			    READ_ONCE(td->port[p].state) == IB_PORT_ACTIVE) {
				*out = td;
				*port = p;
				return true;
			}
		}
	}
	return false;
}

/* The port of a device of @ll whose GID table holds @gid of @type. */
static bool tv_find_gid(const union ib_gid *gid, enum ib_gid_type type,
			enum rdma_link_layer ll, struct tdev **out, u32 *port)
{
	const struct ib_gid_attr *attr;
	struct tdev *td;
	u32 p;

	list_for_each_entry_rcu(td, &tv_fabric, fabric) {
		if (td->params.link_layer != ll)
			continue;
		for (p = 1; p <= td->params.ports; p++) {
			attr = rdma_find_gid_by_port(&td->ibdev, gid, type, p,
						     NULL);
			if (IS_ERR(attr))
				continue;
			rdma_put_gid_attr(attr);
			*out = td;
			*port = p;
			return true;
		}
	}
	return false;
}

/* The receiving port of a datagram sent with @av; under rcu_read_lock(). */
static bool tv_find_port(struct tdev *from, const struct tv_av *av,
			 struct tdev **to, u32 *port)
{
	bool grh = rdma_ah_get_ah_flags(&av->attr) & IB_AH_GRH;

	if (tv_is_ib(from)) {
		if (tv_find_lid(rdma_ah_get_dlid(&av->attr), to, port))
			return true;
		return grh && tv_find_gid(&av->attr.grh.dgid, IB_GID_TYPE_IB,
					  IB_LINK_LAYER_INFINIBAND, to, port);
	}
	if (!grh || !tv_find_gid(&av->attr.grh.dgid, av->gid_type,
				 IB_LINK_LAYER_ETHERNET, to, port))
		return false;
	return tv_packet_arrives(*to);
}

/* The receiving QP on @td's @port, with a reference; NULL if none. */
static struct tv_qp *tv_find_qp(struct tdev *td, u32 port, u32 qpn,
				enum ib_qp_type from)
{
	struct tv_qp *qp;

	if (qpn <= 1) {
		qp = tv_sqp_get(td, port, qpn);
		if (qp && (qpn == 0) != (from == IB_QPT_SMI)) {
			tv_qp_put(qp);
			return NULL;
		}
		return qp;
	}
	if (from == IB_QPT_SMI)
		return NULL;
	qp = tv_qp_get(qpn);
	if (!qp)
		return NULL;
	if (qp->td != td || qp->ibqp.qp_type != IB_QPT_UD ||
	    READ_ONCE(qp->attr.port_num) != port) {
		tv_qp_put(qp);
		return NULL;
	}
	return qp;
}

static u16 tv_pkey_at(struct tdev *td, u32 port, u32 index)
{
	if (index >= td->params.pkey_tbl_len)
		return 0;
	return READ_ONCE(td->port[port].pkeys[index]);
}

/* IBTA P_Key matching: same key, not both limited members. */
static bool tv_pkey_match(u16 a, u16 b)
{
	return (a & 0x7fff) && (a & 0x7fff) == (b & 0x7fff) &&
	       ((a | b) & 0x8000);
}

/* The P_Key check of the receiving QP; sets the completion's index. */
static bool tv_pkey_accept(struct tv_qp *peer, u32 port, u16 pkey,
			   u16 *index)
{
	struct tdev *td = peer->td;
	u32 i;

	if (peer->ibqp.qp_type == IB_QPT_GSI) {
		for (i = 0; i < td->params.pkey_tbl_len; i++) {
			if (tv_pkey_match(pkey, tv_pkey_at(td, port, i))) {
				*index = i;
				return true;
			}
		}
		return false;
	}
	*index = READ_ONCE(peer->attr.pkey_index);
	return tv_pkey_match(pkey, tv_pkey_at(td, port, *index));
}

/* The key checks at the receiving QP. */
static bool tv_keys_accept(struct tv_qp *qp, struct tv_qp *peer,
			   struct tv_wqe *wqe, struct tv_dest *d)
{
	u32 qkey = wqe->ud.remote_qkey;
	u32 sport = READ_ONCE(qp->attr.port_num);
	u16 pkey;

	if (peer->ibqp.qp_type == IB_QPT_SMI) {
		d->pkey_index = 0;
		return true;
	}
	if (qkey & IB_QP_SET_QKEY)
		qkey = READ_ONCE(qp->attr.qkey);
	if (peer->ibqp.qp_type == IB_QPT_GSI ? qkey != IB_QP1_QKEY :
	    qkey != READ_ONCE(peer->attr.qkey))
		return false;
	pkey = tv_pkey_at(qp->td, sport, qp->ibqp.qp_type == IB_QPT_GSI ?
			  wqe->ud.pkey_index : READ_ONCE(qp->attr.pkey_index));
	return tv_pkey_accept(peer, d->port, pkey, &d->pkey_index);
}

/**
 * tv_route - where a datagram goes
 * @qp: the sending UD, GSI or SMI QP
 * @wqe: the work request, with its address handle
 * @d: filled with the receiving QP (with a reference: tv_qp_put() it),
 *	its port, the P_Key index and the sender's address vector
 *
 * Called by the engine under rcu_read_lock().
 *
 * Return: true if the datagram reaches a QP that accepts it.
 */
bool tv_route(struct tv_qp *qp, struct tv_wqe *wqe, struct tv_dest *d)
{
	struct tdev *to;
	struct tv_qp *peer;

	tv_ah_read(wqe->ud.ah, &d->av);
	if (!tv_find_port(qp->td, &d->av, &to, &d->port))
		return false;
	peer = tv_find_qp(to, d->port, wqe->ud.remote_qpn, qp->ibqp.qp_type);
	if (!peer)
		return false;
	if (!tv_qp_can_receive(READ_ONCE(peer->state)) ||
	    !tv_keys_accept(qp, peer, wqe, d)) {
		tv_qp_put(peer);
		return false;
	}
	d->qp = peer;
	d->roce = !tv_is_ib(to);
	return true;
}

/**
 * tdev_set_sm_lid - point a port at its subnet manager
 * @td: the device
 * @port: a valid port
 * @sm_lid: the LID of the port that runs the SM (query_port's sm_lid)
 *
 * The core learns of it when the test raises IB_EVENT_SM_CHANGE
 * (tdev_port_event()).
 *
 * Return: 0 or -EINVAL.
 */
int tdev_set_sm_lid(struct tdev *td, u32 port, u16 sm_lid)
{
	if (port < 1 || port > td->params.ports)
		return -EINVAL;
	spin_lock(&td->lock);
	WRITE_ONCE(td->port[port].sm_lid, sm_lid);
	spin_unlock(&td->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(tdev_set_sm_lid);

/**
 * tdev_set_lid - give a port another LID, as a subnet manager would
 * @td: the device
 * @port: a valid port
 * @lid: the LID; the fabric routes to the first active port that has it
 *
 * The core learns of it when the test raises IB_EVENT_LID_CHANGE.
 *
 * Return: 0 or -EINVAL.
 */
int tdev_set_lid(struct tdev *td, u32 port, u16 lid)
{
	if (port < 1 || port > td->params.ports)
		return -EINVAL;
	spin_lock(&td->lock);
	WRITE_ONCE(td->port[port].lid, lid);
	spin_unlock(&td->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(tdev_set_lid);
