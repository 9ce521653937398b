// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs of userspace, created for ib_uverbs.
 *
 * Unlike ib_create_qp_kernel(), creation takes no use counts on the PD,
 * CQs, SRQ and WQ table: ib_uverbs takes them with ib_qp_usecnt_inc()
 * once the QP's user object is set up, and ib_destroy_qp_user() gives them
 * back.  XRC target QPs belong to their XRC domain (qp_xrc.c): the user
 * gets a handle on one.
 *
 * Locking: none of its own; the caller serialises the life of one QP.
 */
#include "abi/ib_core/verbs.h"
#include "verbs/internal.h"
#include "core/user_verbs.h"
#include "core/restrack.h"

/*
 * The driver's QP, owned by @uobj and the current task, or with @udata and
 * @uobj NULL by the kernel module @caller.
 */
static struct ib_qp *qp_user_create(struct ib_device *dev, struct ib_pd *pd,
				    struct ib_qp_init_attr *attr,
				    struct ib_udata *udata,
				    struct ib_uqp_object *uobj,
				    const char *caller)
{
	struct ib_qp *qp;
	int ret;

	if (!dev->ops.create_qp || !dev->ops.destroy_qp)
		return ERR_PTR(-EOPNOTSUPP);

	qp = qp_alloc(dev, pd, attr);
	if (!qp)
		return ERR_PTR(-ENOMEM);
	qp->uobject = uobj;
	rdma_restrack_new(&qp->res, RDMA_RESTRACK_QP);
	rdma_restrack_set_name(&qp->res, udata ? NULL : caller);

	ret = dev->ops.create_qp(qp, attr, udata);
	if (ret) {
		rdma_restrack_put(&qp->res);
		kfree(qp);
		return ERR_PTR(ret);
	}
	/* The driver must not replace the CQs the caller chose */
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	rdma_restrack_add(&qp->res);
	return qp;
}

/**
 * ib_create_qp_user() - create a queue pair for a user
 * @dev: the device
 * @pd: the QP's protection domain; NULL for an XRC target QP
 * @attr: its type, CQs, SRQ, XRC domain and capabilities; on success the
 *	capabilities are updated to what the device granted
 * @udata: the user's driver data (not passed for XRC target QPs, which
 *	belong to their XRC domain)
 * @uobj: the QP's user object
 * @caller: the creating module's name, the owner of XRC target QPs
 *
 * Takes no use counts on the objects the QP is created with; the caller
 * does with ib_qp_usecnt_inc().  Resource tracking lists a user's QP with
 * the current task as its owner, an XRC target QP with @caller.
 *
 * Return: the QP (for an XRC target QP, the user's handle on it) or an
 * ERR_PTR(): -EOPNOTSUPP if the device cannot create QPs, -ENOMEM, or the
 * driver's error.
 */
struct ib_qp *ib_create_qp_user(struct ib_device *dev, struct ib_pd *pd,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata,
				struct ib_uqp_object *uobj, const char *caller)
{
	struct ib_qp *real, *handle;

	if (attr->qp_type != IB_QPT_XRC_TGT)
		return qp_user_create(dev, pd, attr, udata, uobj, NULL);

	real = qp_user_create(dev, pd, attr, NULL, NULL, caller);
	if (IS_ERR(real))
		return real;
	handle = qp_xrc_adopt(real, attr);
	if (IS_ERR(handle)) {
		ib_destroy_qp(real);
		return handle;
	}
	handle->uobject = uobj;
	return handle;
}
EXPORT_SYMBOL(ib_create_qp_user);
