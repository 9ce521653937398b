// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel queue pairs: creation, modification, query and destruction (of
 * user QPs too, which qp_user.c creates).
 *
 * Ownership: the core allocates a QP (the driver's size_ib_qp) and frees it
 * after the driver's destroy_qp.  A QP holds a usecnt reference on its PD,
 * its CQs, its SRQ and its WQ table for its whole life
 * (ib_qp_usecnt_inc()), and one GID attribute reference for each of its
 * primary and alternate paths.
 *
 * Locking: the caller serialises create, modify and destroy of one QP, as
 * the verbs API requires; qp->port, qp->av_sgid_attr and
 * qp->alt_path_sgid_attr change only under that rule.  Posting work
 * requests does not touch anything here.
 */
#include "abi/ib_core/verbs.h"
#include "datapath/internal.h"
#include "netdev/internal.h"
#include "verbs/internal.h"
#include "core/user_verbs.h"
#include "core/restrack.h"

/*
 * The use counts a QP holds: on its PD, its CQs, its SRQ and its receive
 * WQ table (those it has).  Fills @cnt and returns how many.
 */
static int qp_ref_targets(struct ib_qp *qp, atomic_t *cnt[5])
{
	int n = 0;

	if (qp->pd)
		cnt[n++] = &qp->pd->usecnt;
	if (qp->send_cq)
		cnt[n++] = &qp->send_cq->usecnt;
	if (qp->recv_cq)
		cnt[n++] = &qp->recv_cq->usecnt;
	if (qp->srq)
		cnt[n++] = &qp->srq->usecnt;
	if (qp->rwq_ind_tbl)
		cnt[n++] = &qp->rwq_ind_tbl->usecnt;
	return n;
}

/**
 * ib_qp_usecnt_inc() - count a QP as a user of the objects it was made with
 * @qp: the QP, created by ib_create_qp_user()
 *
 * Increments the use counts of its PD, CQs, SRQ and receive WQ table
 * (those it has), so that they cannot be destroyed while the QP lives.
 * ib_create_qp_kernel() does it itself; ib_destroy_qp_user() undoes it.
 */
void ib_qp_usecnt_inc(struct ib_qp *qp)
{
	atomic_t *cnt[5];
	int n = qp_ref_targets(qp, cnt);

	while (n--)
		atomic_inc(cnt[n]);
}
EXPORT_SYMBOL(ib_qp_usecnt_inc);

/**
 * ib_qp_usecnt_dec() - undo ib_qp_usecnt_inc()
 * @qp: the QP
 */
void ib_qp_usecnt_dec(struct ib_qp *qp)
{
	atomic_t *cnt[5];
	int n = qp_ref_targets(qp, cnt);

	while (n--)
		atomic_dec(cnt[n]);
}
EXPORT_SYMBOL(ib_qp_usecnt_dec);

/* What a destroyed QP gives back: its use counts and its path GIDs. */
static void qp_drop_refs(struct ib_qp *qp)
{
	ib_qp_usecnt_dec(qp);
	if (qp->av_sgid_attr)
		rdma_put_gid_attr(qp->av_sgid_attr);
	if (qp->alt_path_sgid_attr)
		rdma_put_gid_attr(qp->alt_path_sgid_attr);
}

static int qp_check_init_attr(struct ib_device *dev,
			      const struct ib_qp_init_attr *attr)
{
	if (!dev->ops.create_qp || !dev->ops.destroy_qp)
		return -EOPNOTSUPP;
	/* No XRC domains and no receive WQ tables for kernel QPs here */
	if (attr->qp_type == IB_QPT_XRC_TGT || attr->rwq_ind_tbl)
		return -EOPNOTSUPP;
	if (attr->qp_type != IB_QPT_XRC_INI && attr->qp_type != IB_QPT_DRIVER &&
	    (!attr->send_cq || (!attr->recv_cq && !attr->srq)))
		return -EINVAL;
	/* R/W contexts are sized for one port, which must exist */
	if (attr->cap.max_rdma_ctxs &&
	    !rdma_is_port_valid(dev, attr->port_num))
		return -EINVAL;
	return 0;
}

/**
 * qp_alloc() - allocate a QP for the driver to create
 * @dev: the device
 * @pd: its PD (NULL for XRC target QPs)
 * @attr: its creation attributes
 *
 * Return: the QP, not yet known to the driver, with what the core keeps
 * filled in from @attr; NULL when out of memory.
 */
struct ib_qp *qp_alloc(struct ib_device *dev, struct ib_pd *pd,
		       const struct ib_qp_init_attr *attr)
{
	struct ib_qp *qp;

	qp = rdma_zalloc_drv_obj_numa(dev, ib_qp);
	if (!qp)
		return NULL;

	qp->device = dev;
	qp->pd = pd;
	qp->real_qp = qp;
	qp->qp_type = attr->qp_type;
	qp->srq = attr->srq;
	qp->rwq_ind_tbl = attr->rwq_ind_tbl;
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	qp->event_handler = attr->event_handler;
	qp->qp_context = attr->qp_context;
	qp->port = attr->port_num;
	spin_lock_init(&qp->mr_lock);
	INIT_LIST_HEAD(&qp->rdma_mrs);
	INIT_LIST_HEAD(&qp->sig_mrs);
	INIT_LIST_HEAD(&qp->open_list);
	INIT_LIST_HEAD(&qp->xrcd_list);
	atomic_set(&qp->usecnt, 0);
	return qp;
}

/**
 * ib_create_qp_kernel() - create a queue pair for a kernel consumer
 * @pd: the protection domain of the QP
 * @qp_init_attr: the QP's type, CQs, SRQ and capabilities; on success the
 *	capabilities are updated to what the device granted
 * @caller: the creating module's name (KBUILD_MODNAME of ib_create_qp())
 *
 * A QP with cap.max_rdma_ctxs also gets the send queue room and MR pools
 * of that many R/W API contexts on port @qp_init_attr->port_num.
 *
 * Return: the QP, or an ERR_PTR(): -EOPNOTSUPP when the device cannot
 * create QPs or the type needs XRC domains, -EINVAL for missing CQs or a
 * bad port, -ENOMEM, or the driver's error.
 */
struct ib_qp *ib_create_qp_kernel(struct ib_pd *pd,
				  struct ib_qp_init_attr *qp_init_attr,
				  const char *caller)
{
	struct ib_device *dev = pd->device;
	struct ib_qp *qp;
	int ret;

	ret = qp_check_init_attr(dev, qp_init_attr);
	if (ret)
		return ERR_PTR(ret);

	if (qp_init_attr->cap.max_rdma_ctxs)
		rw_qp_reserve_caps(dev, qp_init_attr);

	qp = qp_alloc(dev, pd, qp_init_attr);
	if (!qp)
		return ERR_PTR(-ENOMEM);

	rdma_restrack_new(&qp->res, RDMA_RESTRACK_QP);
	rdma_restrack_set_name(&qp->res, caller);
	ret = dev->ops.create_qp(qp, qp_init_attr, NULL);
	if (ret) {
		kfree(qp);
		return ERR_PTR(ret);
	}
	/* The driver must not replace the CQs the caller chose */
	qp->send_cq = qp_init_attr->send_cq;
	qp->recv_cq = qp_init_attr->recv_cq;
	ib_qp_usecnt_inc(qp);

	qp->max_write_sge = qp_init_attr->cap.max_send_sge;
	qp->max_read_sge = min_t(u32, qp_init_attr->cap.max_send_sge,
				 dev->attrs.max_sge_rd);
	qp->integrity_en = !!(qp_init_attr->create_flags &
			      IB_QP_CREATE_INTEGRITY_EN);
	rdma_restrack_add(&qp->res);

	if (qp_init_attr->cap.max_rdma_ctxs) {
		ret = rw_qp_create_pools(qp, qp_init_attr);
		if (ret) {
			ib_destroy_qp(qp);
			return ERR_PTR(ret);
		}
	}
	return qp;
}
EXPORT_SYMBOL(ib_create_qp_kernel);

/* Sequence numbers are 24 bits on IB and RoCE; keep what fits. */
static void qp_mask_psns(struct ib_qp *qp, struct ib_qp_attr *attr, int mask)
{
	if ((mask & IB_QP_RQ_PSN) && (attr->rq_psn & ~0xffffffU)) {
		ibdev_warn_ratelimited(qp->device,
				       "QP %u rq_psn %#x truncated to 24 bits\n",
				       qp->qp_num, attr->rq_psn);
		attr->rq_psn &= 0xffffff;
	}
	if ((mask & IB_QP_SQ_PSN) && (attr->sq_psn & ~0xffffffU)) {
		ibdev_warn_ratelimited(qp->device,
				       "QP %u sq_psn %#x truncated to 24 bits\n",
				       qp->qp_num, attr->sq_psn);
		attr->sq_psn &= 0xffffff;
	}
}

/* QPs that talk to one peer, whose RoCE path needs its MAC. */
static bool qp_is_connected(const struct ib_qp *qp)
{
	return qp->qp_type == IB_QPT_RC || qp->qp_type == IB_QPT_UC ||
	       qp->qp_type == IB_QPT_XRC_INI || qp->qp_type == IB_QPT_XRC_TGT;
}

/*
 * Modify for ib_modify_qp() and ib_modify_qp_with_udata(): a user's
 * (@udata set) RoCE path of a connected QP gets its destination MAC
 * resolved here; a kernel caller's comes resolved.
 */
static int qp_modify(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
		     struct ib_udata *udata)
{
	struct ib_device *dev = qp->device;
	const struct ib_gid_attr *av_taken = NULL, *alt_taken = NULL;
	u32 port = (mask & IB_QP_PORT) ? attr->port_num : qp->port;
	int ret;

	if (!dev->ops.modify_qp)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PORT) && !rdma_is_port_valid(dev, attr->port_num))
		return -EINVAL;

	attr->xmit_slave = NULL;
	if (mask & IB_QP_AV) {
		ret = ah_sgid_attr_fill(dev, &attr->ah_attr, &av_taken);
		if (ret)
			return ret;
		if (udata && attr->ah_attr.type == RDMA_AH_ATTR_TYPE_ROCE &&
		    qp_is_connected(qp)) {
			ret = roce_resolve_dmac(&attr->ah_attr);
			if (ret)
				goto out;
		}
	}
	if (mask & IB_QP_ALT_PATH) {
		u32 alt_port = attr->alt_ah_attr.port_num;

		/* Alternate paths and migration exist on InfiniBand only */
		if (!rdma_is_port_valid(dev, port) ||
		    !rdma_is_port_valid(dev, alt_port) ||
		    !rdma_protocol_ib(dev, port) ||
		    !rdma_protocol_ib(dev, alt_port)) {
			ret = -EINVAL;
			goto out;
		}
		ret = ah_sgid_attr_fill(dev, &attr->alt_ah_attr, &alt_taken);
		if (ret)
			goto out;
	}
	if (rdma_is_port_valid(dev, port) && rdma_ib_or_roce(dev, port))
		qp_mask_psns(qp, attr, mask);

	ret = dev->ops.modify_qp(qp, attr, mask, udata);
	if (ret)
		goto out;

	if (mask & IB_QP_PORT)
		qp->port = attr->port_num;
	if (mask & IB_QP_AV)
		qp->av_sgid_attr = ah_sgid_attr_swap(&attr->ah_attr,
							qp->av_sgid_attr);
	if (mask & IB_QP_ALT_PATH)
		qp->alt_path_sgid_attr =
			ah_sgid_attr_swap(&attr->alt_ah_attr,
					     qp->alt_path_sgid_attr);
out:
	if (mask & IB_QP_ALT_PATH)
		ah_sgid_attr_unfill(&attr->alt_ah_attr, alt_taken);
	if (mask & IB_QP_AV)
		ah_sgid_attr_unfill(&attr->ah_attr, av_taken);
	return ret;
}

/**
 * ib_modify_qp() - modify the attributes and state of a queue pair
 * @qp: the QP
 * @qp_attr: the new attribute values
 * @qp_attr_mask: which of @qp_attr's attributes to apply (enum
 *	ib_qp_attr_mask)
 *
 * The driver checks the transition (with ib_modify_qp_is_ok()).  The core
 * references the source GID entry of a new primary or alternate path for
 * as long as the QP uses it; kernel callers pass RoCE address vectors with
 * their destination MAC already resolved (as rdma_cm does).
 *
 * Return: 0, -EOPNOTSUPP if the device cannot modify QPs, -EINVAL for a
 * bad port or an alternate path on a non-IB port, or the driver's error.
 */
int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
		 int qp_attr_mask)
{
	return qp_modify(qp->real_qp, qp_attr, qp_attr_mask, NULL);
}
EXPORT_SYMBOL(ib_modify_qp);

/**
 * ib_modify_qp_with_udata() - modify a queue pair for userspace
 * @ib_qp: the QP
 * @attr: the new attribute values
 * @attr_mask: which of them to apply
 * @udata: the user's driver data
 *
 * As ib_modify_qp(); the destination MAC of a RoCE path of a connected QP
 * is resolved from its destination GID.  Sleeps.
 *
 * Return: as ib_modify_qp(), or the error of resolving a RoCE destination
 * (-EHOSTUNREACH, -ENODEV).
 */
int ib_modify_qp_with_udata(struct ib_qp *ib_qp, struct ib_qp_attr *attr,
			    int attr_mask, struct ib_udata *udata)
{
	return qp_modify(ib_qp->real_qp, attr, attr_mask, udata);
}
EXPORT_SYMBOL(ib_modify_qp_with_udata);

/**
 * ib_query_qp() - read the attributes of a queue pair
 * @qp: the QP
 * @qp_attr: filled with the current attribute values
 * @qp_attr_mask: the attributes the caller wants (drivers may fill more)
 * @qp_init_attr: filled with the QP's creation attributes
 *
 * The source GID attributes returned in the address vectors are the QP's
 * own and stay valid while the QP exists; the caller takes no reference.
 *
 * Return: 0, -EOPNOTSUPP if the device cannot query QPs, or the driver's
 * error.
 */
int ib_query_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
		int qp_attr_mask, struct ib_qp_init_attr *qp_init_attr)
{
	struct ib_qp *real = qp->real_qp;
	int ret;

	if (!real->device->ops.query_qp)
		return -EOPNOTSUPP;

	qp_attr->ah_attr.grh.sgid_attr = NULL;
	qp_attr->alt_ah_attr.grh.sgid_attr = NULL;
	ret = real->device->ops.query_qp(real, qp_attr, qp_attr_mask,
					 qp_init_attr);
	if (ret)
		return ret;

	if (qp_attr->ah_attr.ah_flags & IB_AH_GRH)
		qp_attr->ah_attr.grh.sgid_attr = real->av_sgid_attr;
	if (qp_attr->alt_ah_attr.ah_flags & IB_AH_GRH)
		qp_attr->alt_ah_attr.grh.sgid_attr = real->alt_path_sgid_attr;
	return 0;
}
EXPORT_SYMBOL(ib_query_qp);

/**
 * ib_destroy_qp_user() - destroy a queue pair
 * @qp: the QP
 * @udata: the user's response buffer, NULL for kernel QPs
 *
 * Destroying a handle on an XRC target QP closes it, and destroys the QP
 * itself with its last handle.
 *
 * Return: 0, -EBUSY while the QP is in use (shared with other users or
 * attached to multicast groups), or the driver's error, in which case the
 * QP still exists.
 */
int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata)
{
	int ret;

	if (atomic_read(&qp->usecnt))
		return -EBUSY;
	if (qp->real_qp != qp)
		return qp_xrc_destroy_handle(qp);

	if (!qp->uobject)
		rw_qp_destroy_pools(qp);

	rdma_restrack_begin_del(&qp->res);
	ret = qp->device->ops.destroy_qp(qp, udata);
	if (ret) {
		rdma_restrack_abort_del(&qp->res);
		return ret;
	}
	rdma_restrack_commit_del(&qp->res);

	qp_drop_refs(qp);
	kfree(qp);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_qp_user);
