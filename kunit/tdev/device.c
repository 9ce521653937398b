// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: the device.  Its device-level ops (query_device,
 * query_port, query_pkey, query_gid, immutables, modify_device and
 * modify_port), PDs, and the API the suites build devices with
 * (tdev_create(), tdev_register(), tdev_destroy() ...), injected failures
 * (tdev_fail()) and asynchronous events (tdev_port_event(),
 * tdev_device_event()).  tdev_create() puts together the ops of every
 * file of the driver, as the parameters ask.
 *
 * Like hardware, the device answers for any port number or table index it
 * is asked about (a port it lacks is IB_PORT_NOP, a slot it lacks is
 * empty): the core checks those.
 *
 * Locking: struct tdev says what tdev->lock protects (port state, the
 * driver's GID table, node_desc and sys_image_guid changes); it is never
 * held while calling into the core.  Failure bits and counters are atomic.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include "tdev_priv.h"

/* Node GUIDs handed out, one per device. */
static atomic64_t tdev_guid_seq = ATOMIC64_INIT(0);
/* PD numbers. */
static atomic_t tdev_pdn_seq = ATOMIC_INIT(0);
/* XRC domain numbers. */
static atomic_t tdev_xrcdn_seq = ATOMIC_INIT(0);

/* An XRC domain of a tdev (params.xrc). */
struct tdev_xrcd {
	struct ib_xrcd ibxrcd;
	u32 xrcdn;
};

static bool tdev_failing(struct ib_device *ibdev, enum tdev_fail_op op)
{
	return test_bit(op, &to_tdev(ibdev)->fail);
}

/* A port of the device, or NULL for a number it does not have. */
static struct tdev_port *tdev_port(struct tdev *td, u32 port)
{
	return port >= 1 && port <= td->params.ports ? &td->port[port] : NULL;
}

static void tdev_integrity_caps(struct ib_device_attr *attr)
{
	attr->kernel_cap_flags |= IBK_INTEGRITY_HANDOVER;
	attr->max_pi_fast_reg_page_list_len = TDEV_PI_PAGES;
	attr->sig_prot_cap = IB_PROT_T10DIF_TYPE_1 | IB_PROT_T10DIF_TYPE_2 |
			     IB_PROT_T10DIF_TYPE_3;
	attr->sig_guard_cap = IB_GUARD_T10DIF_CRC | IB_GUARD_T10DIF_CSUM;
}

static int tdev_query_device(struct ib_device *ibdev,
			     struct ib_device_attr *attr,
			     struct ib_udata *udata)
{
	struct tdev *td = to_tdev(ibdev);

	if (tdev_failing(ibdev, TDEV_FAIL_QUERY_DEVICE))
		return -EIO;
	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 0x0001000200030000ULL;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = 0xffffff;
	attr->max_qp = 256;
	attr->max_qp_wr = TV_MAX_WR;
	attr->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS;
	if (td->params.local_dma_lkey)
		attr->kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	if (td->params.sg_gaps)
		attr->kernel_cap_flags |= IBK_SG_GAPS_REG;
	if (td->params.integrity)
		tdev_integrity_caps(attr);
	attr->max_send_sge = TV_MAX_SGE;
	attr->max_recv_sge = TV_MAX_SGE;
	attr->max_sge_rd = TV_MAX_SGE;
	attr->max_cq = TV_MAX_CQ;
	attr->max_cqe = TV_MAX_CQE;
	attr->max_mr = 1024;
	attr->max_pd = 256;
	attr->max_qp_rd_atom = 16;
	attr->max_qp_init_rd_atom = 16;
	attr->max_ah = 256;
	attr->max_srq = 64;
	attr->max_srq_wr = TV_MAX_WR;
	attr->max_srq_sge = TV_MAX_SGE;
	attr->max_fast_reg_page_list_len = TV_MAX_PAGES;
	attr->max_pkeys = td->params.pkey_tbl_len;
	if (td->params.mcast) {
		attr->max_mcast_grp = 256;
		attr->max_mcast_qp_attach = TDEV_MAX_MCAST;
		attr->max_total_mcast_qp_attach = 256 * TDEV_MAX_MCAST;
	}
	return 0;
}

static int tdev_query_port(struct ib_device *ibdev, u32 port,
			   struct ib_port_attr *attr)
{
	struct tdev *td = to_tdev(ibdev);
	struct tdev_port *p = tdev_port(td, port);

	/* Bounded: a test that forgets to let go does not hang the core */
	if (READ_ONCE(td->query_port_held))
		wait_event_timeout(td->query_port_wq,
				   !READ_ONCE(td->query_port_held), 10 * HZ);
	if (tdev_failing(ibdev, TDEV_FAIL_QUERY_PORT))
		return -EIO;
	attr->state = IB_PORT_NOP;
	if (p) {
		spin_lock(&td->lock);
		attr->state = p->state;
		attr->port_cap_flags = p->cap_flags;
		if (td->params.link_layer == IB_LINK_LAYER_INFINIBAND) {
			attr->lid = p->lid;
			attr->sm_lid = p->sm_lid;
		}
		spin_unlock(&td->lock);
	}
	attr->phys_state = attr->state == IB_PORT_ACTIVE ?
			   IB_PORT_PHYS_STATE_LINK_UP :
			   IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_1024;
	attr->gid_tbl_len = td->params.gid_tbl_len;
	attr->pkey_tbl_len = td->params.pkey_tbl_len;
	attr->max_msg_sz = 1U << 31;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_SDR;
	return 0;
}

static int tdev_get_port_immutable(struct ib_device *ibdev, u32 port,
				   struct ib_port_immutable *imm)
{
	struct tdev *td = to_tdev(ibdev);

	if (tdev_failing(ibdev, TDEV_FAIL_PORT_IMMUTABLE))
		return -EIO;
	imm->gid_tbl_len = td->params.gid_tbl_len;
	imm->pkey_tbl_len = td->params.pkey_tbl_len;
	if (td->params.link_layer == IB_LINK_LAYER_INFINIBAND) {
		imm->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
		imm->max_mad_size = IB_MGMT_MAD_SIZE;
	} else {
		imm->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE |
				      RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
		imm->max_mad_size = IB_MGMT_MAD_SIZE;
	}
	if (td->params.no_mad) {
		imm->core_cap_flags &= ~(RDMA_CORE_CAP_IB_MAD |
					 RDMA_CORE_CAP_IB_SMI |
					 RDMA_CORE_CAP_IB_CM |
					 RDMA_CORE_CAP_IB_SA);
		imm->max_mad_size = 0;
	}
	return 0;
}

static enum rdma_link_layer tdev_get_link_layer(struct ib_device *ibdev,
						u32 port)
{
	return to_tdev(ibdev)->params.link_layer;
}

/* The port's table: the default P_Key in slot 0 until tdev_set_pkey(). */
static int tdev_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			   u16 *pkey)
{
	struct tdev *td = to_tdev(ibdev);

	if (tdev_failing(ibdev, TDEV_FAIL_QUERY_PKEY))
		return -EIO;
	spin_lock(&td->lock);
	*pkey = td->port[port].pkeys[index];
	spin_unlock(&td->lock);
	return 0;
}

static int tdev_query_gid(struct ib_device *ibdev, u32 port, int index,
			  union ib_gid *gid)
{
	struct tdev *td = to_tdev(ibdev);
	struct tdev_port *p = tdev_port(td, port);

	if (tdev_failing(ibdev, TDEV_FAIL_QUERY_GID))
		return -EIO;
	memset(gid, 0, sizeof(*gid));
	if (!p || index < 0 || index >= TDEV_MAX_GIDS)
		return 0;
	spin_lock(&td->lock);
	*gid = p->gids[index];
	spin_unlock(&td->lock);
	return 0;
}

static void tdev_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	u64 fw = ibdev->attrs.fw_ver;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u.%u",
		 (u16)(fw >> 48), (u16)(fw >> 32), (u16)(fw >> 16));
}

static int tdev_modify_device(struct ib_device *ibdev, int mask,
			      struct ib_device_modify *modify)
{
	struct tdev *td = to_tdev(ibdev);

	if (tdev_failing(ibdev, TDEV_FAIL_MODIFY_DEVICE))
		return -EIO;
	if (mask & ~(IB_DEVICE_MODIFY_SYS_IMAGE_GUID |
		     IB_DEVICE_MODIFY_NODE_DESC))
		return -EOPNOTSUPP;
	spin_lock(&td->lock);
	if (mask & IB_DEVICE_MODIFY_SYS_IMAGE_GUID)
		ibdev->attrs.sys_image_guid = cpu_to_be64(modify->sys_image_guid);
	if (mask & IB_DEVICE_MODIFY_NODE_DESC)
		memcpy(ibdev->node_desc, modify->node_desc,
		       IB_DEVICE_NODE_DESC_MAX);
	spin_unlock(&td->lock);
	return 0;
}

static int tdev_modify_port(struct ib_device *ibdev, u32 port, int mask,
			    struct ib_port_modify *modify)
{
	struct tdev *td = to_tdev(ibdev);
	struct tdev_port *p = tdev_port(td, port);

	if (tdev_failing(ibdev, TDEV_FAIL_MODIFY_PORT))
		return -EIO;
	if (mask & ~(IB_PORT_SHUTDOWN | IB_PORT_RESET_QKEY_CNTR))
		return -EOPNOTSUPP;
	if (!p)
		return 0;
	spin_lock(&td->lock);
	p->cap_flags |= modify->set_port_cap_mask;
	p->cap_flags &= ~modify->clr_port_cap_mask;
	if (mask & IB_PORT_SHUTDOWN)
		p->state = IB_PORT_DOWN;
	spin_unlock(&td->lock);
	return 0;
}

static int tdev_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct tdev_pd *pd = container_of(ibpd, struct tdev_pd, ibpd);

	if (tdev_failing(ibpd->device, TDEV_FAIL_ALLOC_PD))
		return -EIO;
	pd->pdn = atomic_inc_return(&tdev_pdn_seq);
	atomic_inc(&to_tdev(ibpd->device)->npds);
	return 0;
}

static int tdev_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	if (tdev_failing(ibpd->device, TDEV_FAIL_DEALLOC_PD))
		return -EIO;
	atomic_dec(&to_tdev(ibpd->device)->npds);
	return 0;
}

static int tdev_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	struct tdev_xrcd *xrcd = container_of(ibxrcd, struct tdev_xrcd, ibxrcd);

	if (tdev_failing(ibxrcd->device, TDEV_FAIL_ALLOC_XRCD))
		return -EIO;
	xrcd->xrcdn = atomic_inc_return(&tdev_xrcdn_seq);
	atomic_inc(&to_tdev(ibxrcd->device)->nxrcds);
	return 0;
}

static int tdev_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	if (tdev_failing(ibxrcd->device, TDEV_FAIL_DEALLOC_XRCD))
		return -EIO;
	atomic_dec(&to_tdev(ibxrcd->device)->nxrcds);
	return 0;
}

/* The "hardware" takes a GID into its table: the context says where. */
static int tdev_add_gid(const struct ib_gid_attr *attr, void **context)
{
	struct tdev_gid_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->port = attr->port_num;
	ctx->index = attr->index;
	ctx->gid = attr->gid;
	*context = ctx;
	atomic_inc(&to_tdev(attr->device)->ngid_ctxs);
	return 0;
}

static int tdev_del_gid(const struct ib_gid_attr *attr, void **context)
{
	kfree(*context);
	*context = NULL;
	atomic_dec(&to_tdev(attr->device)->ngid_ctxs);
	return 0;
}

static const struct ib_device_ops tdev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.query_device = tdev_query_device,
	.query_port = tdev_query_port,
	.get_port_immutable = tdev_get_port_immutable,
	.get_link_layer = tdev_get_link_layer,
	.query_pkey = tdev_query_pkey,
	.get_dev_fw_str = tdev_get_dev_fw_str,
	.modify_device = tdev_modify_device,
	.modify_port = tdev_modify_port,
	.alloc_pd = tdev_alloc_pd,
	.dealloc_pd = tdev_dealloc_pd,
	INIT_RDMA_OBJ_SIZE(ib_pd, tdev_pd, ibpd),
};

static const struct ib_device_ops tdev_gid_ops = {
	.query_gid = tdev_query_gid,
};

static const struct ib_device_ops tdev_xrcd_ops = {
	.alloc_xrcd = tdev_alloc_xrcd,
	.dealloc_xrcd = tdev_dealloc_xrcd,
	INIT_RDMA_OBJ_SIZE(ib_xrcd, tdev_xrcd, ibxrcd),
};

static const struct ib_device_ops tdev_gid_ctx_ops = {
	.add_gid = tdev_add_gid,
	.del_gid = tdev_del_gid,
};

/* Calls of ops.dealloc_driver, so suites can see the core made them. */
atomic_t tdev_dealloc_driver_calls = ATOMIC_INIT(0);
EXPORT_SYMBOL_GPL(tdev_dealloc_driver_calls);

/*
 * What the driver hangs on a device, freed before the core frees the
 * device: the interrupt contexts and the netdev a RoCE device made.  The
 * ports let go of the netdev first, or unregistering it would wait for
 * them forever.
 */
static void tdev_teardown(struct tdev *td)
{
	struct net_device *own = td->own_ndev;
	u32 port;

	tdev_debugfs_remove(td);
	tv_fabric_leave(td);
	tv_engine_destroy(td);
	tv_lids_free(td);
	if (!own)
		return;
	for (port = 1; port <= td->params.ports; port++)
		ib_device_set_netdev(&td->ibdev, NULL, port);
	td->own_ndev = NULL;
	tdev_netdev_destroy(own);
}

/*
 * ops.dealloc_driver: the core frees the device after this (queued
 * unregistration, ib_unregister_driver(), ib_dealloc_device()).
 */
static void tdev_dealloc_driver(struct ib_device *ibdev)
{
	tdev_teardown(to_tdev(ibdev));
	atomic_inc(&tdev_dealloc_driver_calls);
}

static const struct ib_device_ops tdev_dealloc_ops = {
	.dealloc_driver = tdev_dealloc_driver,
};

static int tdev_check_params(struct tdev_params *p)
{
	if (!p->name)
		p->name = "tdev%d";
	if (!p->ports)
		p->ports = 1;
	if (!p->gid_tbl_len)
		p->gid_tbl_len = 16;
	if (!p->pkey_tbl_len)
		p->pkey_tbl_len = 1;
	if (!p->vectors)
		p->vectors = 1;
	if (p->roce)
		p->link_layer = IB_LINK_LAYER_ETHERNET;
	if (p->link_layer == IB_LINK_LAYER_UNSPECIFIED)
		p->link_layer = IB_LINK_LAYER_INFINIBAND;
	if (p->ports > TDEV_MAX_PORTS || p->gid_tbl_len < 0 ||
	    p->gid_tbl_len > TDEV_MAX_GIDS || p->pkey_tbl_len < 0 ||
	    p->pkey_tbl_len > TDEV_MAX_PKEYS ||
	    p->vectors > TDEV_MAX_VECTORS || p->exec > TDEV_EXEC_TIMER)
		return -EINVAL;
	return 0;
}

static void tdev_set_ops(struct tdev *td)
{
	const struct tdev_params *p = &td->params;
	struct ib_device *ibdev = &td->ibdev;

	ib_set_device_ops(ibdev, &tdev_ops);
	ib_set_device_ops(ibdev, &tdev_cq_ops);
	ib_set_device_ops(ibdev, &tdev_qp_ops);
	ib_set_device_ops(ibdev, &tdev_mr_ops);
	ib_set_device_ops(ibdev, &tdev_ah_ops);
	if (!p->no_kverbs)
		ib_set_device_ops(ibdev, &tdev_kverbs_mr_ops);
	if (p->driver_drain)
		ib_set_device_ops(ibdev, &tdev_drain_ops);
	if (p->integrity)
		ib_set_device_ops(ibdev, &tdev_integrity_ops);
	if (p->driver_gids)
		ib_set_device_ops(ibdev, &tdev_gid_ops);
	if (p->gid_ctx)
		ib_set_device_ops(ibdev, &tdev_gid_ctx_ops);
	if (p->xrc)
		ib_set_device_ops(ibdev, &tdev_xrcd_ops);
	if (p->mcast)
		ib_set_device_ops(ibdev, &tdev_mcast_ops);
	if (p->wq)
		ib_set_device_ops(ibdev, &tdev_wq_ops);
	if (p->dealloc_driver)
		ib_set_device_ops(ibdev, &tdev_dealloc_ops);
	ibdev->ops.driver_id = p->driver_id;
}

static void tdev_init_fields(struct tdev *td)
{
	const struct tdev_params *p = &td->params;
	u32 port;

	spin_lock_init(&td->lock);
	init_waitqueue_head(&td->query_port_wq);
	atomic_set(&td->npds, 0);
	atomic_set(&td->ncqs, 0);
	atomic_set(&td->drain_sq_calls, 0);
	atomic_set(&td->drain_rq_calls, 0);
	atomic_set(&td->nxrcds, 0);
	atomic_set(&td->nwqs, 0);
	atomic_set(&td->advise_calls, 0);
	atomic_set(&td->ngid_ctxs, 0);
	td->ibdev.node_type = RDMA_NODE_IB_CA;
	td->ibdev.phys_port_cnt = p->ports;
	td->ibdev.num_comp_vectors = p->vectors;
	td->ibdev.node_guid = cpu_to_be64(0x0002c90300000000ULL |
					  atomic64_inc_return(&tdev_guid_seq));
	strscpy(td->ibdev.node_desc, "rdma_kunit_tdev", IB_DEVICE_NODE_DESC_MAX);
	if (p->local_dma_lkey)
		td->ibdev.local_dma_lkey = TDEV_LOCAL_DMA_LKEY;
	for (port = 1; port <= p->ports; port++) {
		td->port[port].state = IB_PORT_ACTIVE;
		td->port[port].sm_lid = 1;
		td->port[port].pkeys[0] = 0xffff;
		td->port[port].cap_flags = IB_PORT_CM_SUP;
	}
}

/* The netdev of every port: the caller's, or a RoCE device's own. */
static int tdev_attach_netdev(struct tdev *td)
{
	u32 port;
	int ret;

	td->ndev = td->params.ndev;
	if (!td->ndev && td->params.roce) {
		td->own_ndev = tdev_netdev_create("tdnet%d", NULL);
		if (IS_ERR(td->own_ndev)) {
			ret = PTR_ERR(td->own_ndev);
			td->own_ndev = NULL;
			return ret;
		}
		td->ndev = td->own_ndev;
	}
	for (port = 1; td->ndev && port <= td->params.ports; port++) {
		ret = ib_device_set_netdev(&td->ibdev, td->ndev, port);
		if (ret)
			return ret;
	}
	return 0;
}

/* Frees a device tdev_create() could not finish. */
static void tdev_free_unregistered(struct tdev *td)
{
	if (!td->params.dealloc_driver)
		tdev_teardown(td);
	ib_dealloc_device(&td->ibdev);
}

/**
 * tdev_create - allocate a test device, not registered
 * @params: what to make; NULL for all defaults
 *
 * Return: the device or an ERR_PTR (-EINVAL for bad parameters, -ENOMEM,
 * or the error of registering a RoCE device's netdev).
 */
struct tdev *tdev_create(const struct tdev_params *params)
{
	struct tdev_params p = params ? *params : (struct tdev_params){};
	struct tdev *td;
	int ret;

	ret = tdev_check_params(&p);
	if (ret)
		return ERR_PTR(ret);
	td = ib_alloc_device(tdev, ibdev);
	if (!td)
		return ERR_PTR(-ENOMEM);
	td->params = p;
	tdev_init_fields(td);
	tdev_set_ops(td);
	ret = tv_engine_create(td);
	if (!ret)
		ret = tv_lids_alloc(td);
	if (!ret)
		ret = tdev_attach_netdev(td);
	if (ret) {
		tdev_free_unregistered(td);
		return ERR_PTR(ret);
	}
	return td;
}
EXPORT_SYMBOL_GPL(tdev_create);

/**
 * tdev_register - register a test device with the core
 * @td: from tdev_create()
 *
 * A params.dma_device device registers with the module's platform device
 * as its DMA device.  Once registered, datagrams can reach it (fabric.c).
 *
 * Return: ib_register_device()'s result.
 */
int tdev_register(struct tdev *td)
{
	struct device *dma = td->params.dma_device ? tdev_dma_device() : NULL;
	int ret = ib_register_device(&td->ibdev, td->params.name, dma);

	if (ret)
		return ret;
	tdev_debugfs_add(td);
	tv_fabric_join(td);
	return 0;
}
EXPORT_SYMBOL_GPL(tdev_register);

/**
 * tdev_unregister - unregister a test device
 * @td: the device; with params.dealloc_driver a registered one is freed
 *
 * Also fine for a device that is not (or no longer) registered.
 */
void tdev_unregister(struct tdev *td)
{
	tv_fabric_leave(td);
	tdev_debugfs_remove(td);
	ib_unregister_device(&td->ibdev);
}
EXPORT_SYMBOL_GPL(tdev_unregister);

/**
 * tdev_destroy - unregister (if needed) and free a test device
 * @td: the device
 *
 * A params.dealloc_driver device is freed by the core, which calls its
 * dealloc_driver (at unregistration, or from ib_dealloc_device()).
 */
void tdev_destroy(struct tdev *td)
{
	bool core_frees = td->params.dealloc_driver &&
			  device_is_registered(&td->ibdev.dev);

	tdev_unregister(td);
	if (!core_frees)
		tdev_free_unregistered(td);
}
EXPORT_SYMBOL_GPL(tdev_destroy);

/**
 * tdev_create_registered - tdev_create() and tdev_register()
 * @params: as for tdev_create()
 *
 * Return: the registered device or an ERR_PTR.
 */
struct tdev *tdev_create_registered(const struct tdev_params *params)
{
	struct tdev *td = tdev_create(params);
	int ret;

	if (IS_ERR(td))
		return td;
	ret = tdev_register(td);
	if (ret) {
		tdev_free_unregistered(td);
		return ERR_PTR(ret);
	}
	return td;
}
EXPORT_SYMBOL_GPL(tdev_create_registered);

/**
 * tdev_fail - make an operation fail with -EIO, or succeed again
 * @td: the device
 * @op: the operation
 * @fail: true to fail
 */
void tdev_fail(struct tdev *td, enum tdev_fail_op op, bool fail)
{
	if (fail)
		set_bit(op, &td->fail);
	else
		clear_bit(op, &td->fail);
}
EXPORT_SYMBOL_GPL(tdev_fail);

/**
 * tdev_hold_query_port - make query_port wait, as slow firmware would
 * @td: the device
 * @hold: true to hold every query_port from now on (each for at most
 *	10 s), false to let the waiting ones go
 *
 * query_port then sleeps: hold it only while no caller in atomic context
 * can ask.
 */
void tdev_hold_query_port(struct tdev *td, bool hold)
{
	WRITE_ONCE(td->query_port_held, hold);
	if (!hold)
		wake_up_all(&td->query_port_wq);
}
EXPORT_SYMBOL_GPL(tdev_hold_query_port);

/**
 * tdev_port_event - change a port as an event says and report the event
 * @td: a registered device
 * @port: a valid port
 * @type: IB_EVENT_PORT_ERR (port goes down), IB_EVENT_PORT_ACTIVE (up),
 *	IB_EVENT_LID_CHANGE (LID + 1) or any other event (just reported)
 *
 * The port changes at once; the event is raised later, from the device's
 * interrupt context (ib_dispatch_event() there), in order with the
 * device's other events.
 *
 * Return: 0, or -EBUSY when too many events wait to be raised.
 */
int tdev_port_event(struct tdev *td, u32 port, enum ib_event_type type)
{
	struct ib_event event = {
		.device = &td->ibdev,
		.event = type,
		.element.port_num = port,
	};

	spin_lock(&td->lock);
	if (type == IB_EVENT_PORT_ERR)
		td->port[port].state = IB_PORT_DOWN;
	else if (type == IB_EVENT_PORT_ACTIVE)
		td->port[port].state = IB_PORT_ACTIVE;
	else if (type == IB_EVENT_LID_CHANGE)
		WRITE_ONCE(td->port[port].lid, td->port[port].lid + 1);
	spin_unlock(&td->lock);
	return tv_engine_event(td, &event);
}
EXPORT_SYMBOL_GPL(tdev_port_event);

/**
 * tdev_device_event - report an event of the whole device
 * @td: a registered device
 * @type: e.g. IB_EVENT_DEVICE_FATAL
 *
 * Raised from the device's interrupt context, as tdev_port_event() does.
 *
 * Return: 0, or -EBUSY when too many events wait to be raised.
 */
int tdev_device_event(struct tdev *td, enum ib_event_type type)
{
	struct ib_event event = {
		.device = &td->ibdev,
		.event = type,
	};

	return tv_engine_event(td, &event);
}
EXPORT_SYMBOL_GPL(tdev_device_event);

/**
 * tdev_set_pkey - set a P_Key in the port's table, as a subnet manager would
 * @td: the device
 * @port: a valid port
 * @index: the slot, below params.pkey_tbl_len
 * @pkey: the P_Key (bit 15: full membership; 0 empties the slot)
 *
 * Hardware reports such a change with IB_EVENT_PKEY_CHANGE: the test raises
 * it with tdev_port_event() when it wants the core to know.
 *
 * Return: 0 or -EINVAL.
 */
int tdev_set_pkey(struct tdev *td, u32 port, u16 index, u16 pkey)
{
	if (port < 1 || port > td->params.ports ||
	    index >= td->params.pkey_tbl_len)
		return -EINVAL;
	spin_lock(&td->lock);
	td->port[port].pkeys[index] = pkey;
	spin_unlock(&td->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(tdev_set_pkey);

/**
 * tdev_set_gid - set a GID in the driver's table (params.driver_gids)
 * @td: the device
 * @port: a valid port
 * @index: the slot
 * @gid: the GID (all zero empties the slot)
 *
 * The core reads it at registration and on IB_EVENT_GID_CHANGE.
 *
 * Return: 0 or -EINVAL.
 */
int tdev_set_gid(struct tdev *td, u32 port, int index,
		 const union ib_gid *gid)
{
	if (port < 1 || port > td->params.ports || index < 0 ||
	    index >= td->params.gid_tbl_len)
		return -EINVAL;
	spin_lock(&td->lock);
	td->port[port].gids[index] = *gid;
	spin_unlock(&td->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(tdev_set_gid);
