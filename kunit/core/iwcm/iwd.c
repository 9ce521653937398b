// SPDX-License-Identifier: GPL-2.0
/*
 * iwd, the device: one iWARP port, PDs, CQs and QPs that keep their state
 * and nothing else (the iw_cm suites move no data), and the QP side of the
 * iw_cm verbs.  See iwd.h.
 */
#include <linux/module.h>
#include "iwd.h"

struct iwd_pd {
	struct ib_pd ibpd;
};

struct iwd_cq {
	struct ib_cq ibcq;
};

static int iwd_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *udata)
{
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	attr->max_qp = 1023;
	attr->max_qp_wr = 64;
	attr->max_send_sge = 4;
	attr->max_recv_sge = 4;
	attr->max_sge_rd = 4;
	attr->max_cq = 16;
	attr->max_cqe = 256;
	attr->max_pd = 16;
	attr->max_qp_rd_atom = 8;
	attr->max_qp_init_rd_atom = 8;
	return 0;
}

static int iwd_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	attr->state = IB_PORT_ACTIVE;
	attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_1024;
	attr->gid_tbl_len = 1;
	attr->max_msg_sz = 1U << 31;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_SDR;
	return 0;
}

static int iwd_port_immutable(struct ib_device *ibdev, u32 port,
			      struct ib_port_immutable *imm)
{
	imm->core_cap_flags = RDMA_CORE_PORT_IWARP;
	imm->gid_tbl_len = 1;
	return 0;
}

/* An RNIC's one GID: its MAC address, zero-padded. */
static int iwd_query_gid(struct ib_device *ibdev, u32 port, int index,
			 union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0x02;
	gid->raw[5] = ibdev->index;
	return 0;
}

static int iwd_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int iwd_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int iwd_create_cq(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			 struct ib_udata *udata)
{
	cq->cqe = attr->cqe;
	return 0;
}

static int iwd_destroy_cq(struct ib_cq *cq, struct ib_udata *udata)
{
	return 0;
}

static int iwd_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
			 struct ib_udata *udata)
{
	struct iwd *d = to_iwd(ibqp->device);
	struct iwd_qp *qp = to_iwd_qp(ibqp);
	u32 qpn;
	int ret;

	if (attr->qp_type != IB_QPT_RC)
		return -EOPNOTSUPP;
	ret = xa_alloc(&d->qps, &qpn, qp, XA_LIMIT(1, 1023), GFP_KERNEL);
	if (ret)
		return ret;
	ibqp->qp_num = qpn;
	atomic_set(&qp->state, IB_QPS_RESET);
	return 0;
}

static int iwd_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct iwd *d = to_iwd(ibqp->device);

	iwd_qp_detach(to_iwd_qp(ibqp));
	xa_erase(&d->qps, ibqp->qp_num);
	return 0;
}

/* iw_cm's references on a QP: an atomic count, no lock (any context). */
static void iwd_iw_add_ref(struct ib_qp *ibqp)
{
	atomic_inc(&to_iwd_qp(ibqp)->iwrefs);
}

static void iwd_iw_rem_ref(struct ib_qp *ibqp)
{
	atomic_dec(&to_iwd_qp(ibqp)->iwrefs);
}

static struct ib_qp *iwd_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct iwd_qp *qp = xa_load(&to_iwd(ibdev)->qps, qpn);

	return qp ? &qp->ibqp : NULL;
}

static const struct ib_device_ops iwd_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.query_device = iwd_query_device,
	.query_port = iwd_query_port,
	.get_port_immutable = iwd_port_immutable,
	.query_gid = iwd_query_gid,
	.alloc_pd = iwd_alloc_pd,
	.dealloc_pd = iwd_dealloc_pd,
	.create_cq = iwd_create_cq,
	.destroy_cq = iwd_destroy_cq,
	.create_qp = iwd_create_qp,
	.modify_qp = iwd_modify_qp,
	.destroy_qp = iwd_destroy_qp,
	.iw_add_ref = iwd_iw_add_ref,
	.iw_rem_ref = iwd_iw_rem_ref,
	.iw_get_qp = iwd_iw_get_qp,
	INIT_RDMA_OBJ_SIZE(ib_pd, iwd_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, iwd_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, iwd_qp, ibqp),
};

/* The PD and CQ the device's QPs use; undone by iwd_destroy(). */
static int iwd_objects(struct iwd *d)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 16 };

	d->pd = ib_alloc_pd(&d->ibdev, 0);
	if (IS_ERR(d->pd))
		return PTR_ERR(d->pd);
	d->cq = ib_create_cq(&d->ibdev, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(d->cq)) {
		ib_dealloc_pd(d->pd);
		return PTR_ERR(d->cq);
	}
	return 0;
}

/**
 * iwd_create - make and register a test iWARP device
 * @name: its name (a template with %d is fine)
 *
 * Return: the device, or an ERR_PTR().
 */
struct iwd *iwd_create(const char *name)
{
	struct iwd *d;
	int ret;

	d = ib_alloc_device(iwd, ibdev);
	if (!d)
		return ERR_PTR(-ENOMEM);
	xa_init_flags(&d->qps, XA_FLAGS_ALLOC1);
	ib_set_device_ops(&d->ibdev, &iwd_ops);
	ib_set_device_ops(&d->ibdev, &iwd_wire_ops);
	d->ibdev.node_type = RDMA_NODE_RNIC;
	d->ibdev.phys_port_cnt = 1;
	d->ibdev.num_comp_vectors = 1;
	d->ibdev.local_dma_lkey = 0x1d1d;
	strscpy(d->ibdev.iw_ifname, "iwdnet", sizeof(d->ibdev.iw_ifname));
	d->ibdev.iw_driver_flags = IW_F_NO_PORT_MAP;
	ret = ib_register_device(&d->ibdev, name, NULL);
	if (ret)
		goto err_free;
	ret = iwd_objects(d);
	if (ret)
		goto err_unregister;
	return d;

err_unregister:
	ib_unregister_device(&d->ibdev);
err_free:
	ib_dealloc_device(&d->ibdev);
	return ERR_PTR(ret);
}

/**
 * iwd_destroy - unregister and free a device made by iwd_create()
 * @d: the device; its QPs destroyed already
 */
void iwd_destroy(struct iwd *d)
{
	ib_destroy_cq(d->cq);
	ib_dealloc_pd(d->pd);
	ib_unregister_device(&d->ibdev);
	xa_destroy(&d->qps);
	ib_dealloc_device(&d->ibdev);
}

/**
 * iwd_qp_create - an RC QP of @d, in the reset state
 * @d: the device
 *
 * Return: the QP (destroy it with ib_destroy_qp()), or an ERR_PTR().
 */
struct ib_qp *iwd_qp_create(struct iwd *d)
{
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.send_cq = d->cq,
		.recv_cq = d->cq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ib_create_qp(d->pd, &attr);
}

/**
 * iwd_fail_next - make the next call of a driver operation fail
 * @d: the device
 * @op: the operation
 * @err: the negative errno it returns
 */
void iwd_fail_next(struct iwd *d, enum iwd_op op, int err)
{
	atomic_set(&d->fail[op], err);
}

/* The error @op must return now, once (0: none). */
int iwd_take_fail(struct iwd *d, enum iwd_op op)
{
	return atomic_xchg(&d->fail[op], 0);
}
