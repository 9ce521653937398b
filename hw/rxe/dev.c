// SPDX-License-Identifier: GPL-2.0
/*
 * The device and its port: what it says of itself (query_device,
 * query_port), its user contexts and PDs, its counters, its verbs (the
 * objects' own files implement them), and its making and freeing.
 * Control path only.
 */
#include <linux/if_arp.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include "ah.h"
#include "cq.h"
#include "dev.h"
#include "mmap.h"
#include "mr.h"
#include "net.h"
#include "post.h"
#include "qp.h"
#include "srq.h"
#include "wire.h"

/* The rxe user ABI (rdma_user_rxe.h); rdma-core's rxe provider takes 2 */
#define SR_UVERBS_ABI_VERSION	2
/* A vendor ID no vendor has (IEEE OUI space); the in-tree driver's too. */
#define SR_VENDOR_ID		0xffffff
#define SR_MAX_PD		0x7ffff
#define SR_GID_TBL_LEN		1024

/**
 * struct sr_pd - a protection domain
 * @ibpd: the core's (the core allocates the whole, INIT_RDMA_OBJ_SIZE)
 */
struct sr_pd {
	struct ib_pd ibpd;
};

static int sr_query_device(struct ib_device *ibdev,
			   struct ib_device_attr *attr, struct ib_udata *udata)
{
	if (udata->inlen || udata->outlen)
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->vendor_id = SR_VENDOR_ID;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_pd = SR_MAX_PD;
	attr->max_pkeys = 1;
	attr->max_cq = SR_MAX_CQ;
	attr->max_cqe = SR_MAX_CQE;
	attr->max_qp = SR_MAX_QP;
	attr->max_qp_wr = SR_MAX_QP_WR;
	attr->max_send_sge = SR_MAX_SGE;
	attr->max_recv_sge = SR_MAX_SGE;
	attr->max_sge_rd = SR_MAX_SGE;
	attr->max_qp_rd_atom = SR_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = SR_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = SR_MAX_RD_ATOMIC;
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->max_ah = SR_MAX_AH;
	attr->max_mr = SR_MAX_MR;
	attr->max_fast_reg_page_list_len = SR_MAX_FAST_REG_PAGES;
	attr->max_srq = SR_MAX_SRQ;
	attr->max_srq_wr = SR_MAX_SRQ_WR;
	attr->max_srq_sge = SR_MAX_SRQ_SGE;
	/* Fast registration: REG_MR, LOCAL_INV, sends with invalidate */
	attr->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS;
	/* "rdma link delete" may take it away */
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	return 0;
}

static bool sr_netdev_up(const struct net_device *ndev)
{
	return netif_running(ndev) && netif_carrier_ok(ndev);
}

static int sr_query_port(struct ib_device *ibdev, u32 port,
			 struct ib_port_attr *attr)
{
	struct net_device *ndev = to_sr_dev(ibdev)->ndev;
	bool up = sr_netdev_up(ndev);

	/* The core zeroed *attr */
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = sr_mtu_of(READ_ONCE(ndev->mtu));
	attr->gid_tbl_len = SR_GID_TBL_LEN;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = 1U << 31;
	/* Takes the RTNL: the core never queries a port under it */
	return ib_get_eth_speed(ibdev, port, &attr->active_speed,
				&attr->active_width);
}

static int sr_get_port_immutable(struct ib_device *ibdev, u32 port,
				 struct ib_port_immutable *imm)
{
	/* RoCEv2, with MADs (and so the CM) through the GSI QP */
	imm->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	imm->max_mad_size = IB_MGMT_MAD_SIZE;
	imm->gid_tbl_len = SR_GID_TBL_LEN;
	imm->pkey_tbl_len = 1;
	return 0;
}

static enum rdma_link_layer sr_get_link_layer(struct ib_device *ibdev,
					      u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int sr_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			 u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int sr_alloc_ucontext(struct ib_ucontext *uc, struct ib_udata *udata)
{
	return 0;
}

static void sr_dealloc_ucontext(struct ib_ucontext *uc)
{
}

/* A PD is nothing but its number (the core's object): counted, no more */
static int sr_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return sr_dev_take(&to_sr_dev(pd->device)->n_pd, SR_MAX_PD) ?
	       0 : -EINVAL;
}

static int sr_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	atomic_dec(&to_sr_dev(pd->device)->n_pd);
	return 0;
}

static struct rdma_hw_stats *sr_alloc_port_stats(struct ib_device *ibdev,
						 u32 port)
{
	return sr_counters_alloc_stats();
}

static int sr_get_hw_stats(struct ib_device *ibdev,
			   struct rdma_hw_stats *stats, u32 port, int index)
{
	sr_counters_fill(&to_sr_dev(ibdev)->counters, stats);
	return SR_NR_COUNTERS;
}

/* The core's last call: nothing of the device is in use any longer. */
static void sr_dealloc_driver(struct ib_device *ibdev)
{
	struct sr_dev *sdev = to_sr_dev(ibdev);

	sr_counters_free(&sdev->counters);
	/* Empty: the core destroyed every AH, QP and MR */
	xa_destroy(&sdev->ahs);
	xa_destroy(&sdev->qps);
	xa_destroy(&sdev->mrs);
	netdev_put(sdev->ndev, &sdev->ndev_tracker);
}

static const struct ib_device_ops sr_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = SR_UVERBS_ABI_VERSION,

	.alloc_hw_port_stats = sr_alloc_port_stats,
	.alloc_mr = sr_alloc_mr,
	.alloc_pd = sr_alloc_pd,
	.alloc_ucontext = sr_alloc_ucontext,
	.create_ah = sr_create_ah,
	.create_cq = sr_create_cq,
	.create_qp = sr_create_qp,
	.create_srq = sr_create_srq,
	.create_user_ah = sr_create_ah,
	.dealloc_driver = sr_dealloc_driver,
	.dealloc_pd = sr_dealloc_pd,
	.dealloc_ucontext = sr_dealloc_ucontext,
	.dereg_mr = sr_dereg_mr,
	.destroy_ah = sr_destroy_ah,
	.destroy_cq = sr_destroy_cq,
	.destroy_qp = sr_destroy_qp,
	.destroy_srq = sr_destroy_srq,
	.get_dma_mr = sr_get_dma_mr,
	.get_hw_stats = sr_get_hw_stats,
	.get_link_layer = sr_get_link_layer,
	.get_port_immutable = sr_get_port_immutable,
	.map_mr_sg = sr_map_mr_sg,
	.mmap = sr_mmap,
	.mmap_free = sr_mmap_free,
	.modify_qp = sr_modify_qp,
	.modify_srq = sr_modify_srq,
	.poll_cq = sr_poll_cq,
	.post_recv = sr_post_recv,
	.post_send = sr_post_send,
	.post_srq_recv = sr_post_srq_recv,
	.query_device = sr_query_device,
	.query_pkey = sr_query_pkey,
	.query_port = sr_query_port,
	.query_qp = sr_query_qp,
	.query_srq = sr_query_srq,
	.reg_user_mr = sr_reg_user_mr,
	.req_notify_cq = sr_req_notify_cq,
	.resize_cq = sr_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, sr_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, sr_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, sr_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, sr_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, sr_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, sr_ucontext, ibuc),
};

/**
 * sr_dev_add - make and register a device over a netdev
 * @name: its name, as "rdma link add" gave it
 * @ndev: an Ethernet netdev that has no device of ours yet
 *
 * Context: process context, RTNL not held (the core's NEWLINK).
 * Return: 0, -EEXIST if @ndev has one, -EINVAL if it is not Ethernet,
 * -EADDRINUSE if RoCEv2's UDP port is taken in @ndev's namespace, or what
 * registering returned.
 */
int sr_dev_add(const char *name, struct net_device *ndev)
{
	struct ib_device *other;
	struct sr_dev *sdev;
	int ret;

	if (ndev->type != ARPHRD_ETHER)
		return -EINVAL;
	other = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	if (other) {
		ib_device_put(other);
		return -EEXIST;
	}
	/* Packets can arrive as soon as the device is registered */
	ret = sr_net_open(dev_net(ndev));
	if (ret)
		return ret;
	sdev = ib_alloc_device(sr_dev, ibdev);
	if (!sdev)
		return -ENOMEM;
	/* From here ib_dealloc_device() undoes it all (dealloc_driver) */
	ib_set_device_ops(&sdev->ibdev, &sr_dev_ops);
	xa_init_flags(&sdev->ahs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&sdev->qps, XA_FLAGS_ALLOC);
	xa_init_flags(&sdev->mrs, XA_FLAGS_ALLOC1);
	spin_lock_init(&sdev->atomic_lock);
	ret = sr_counters_init(&sdev->counters);
	if (ret)
		goto err;
	sdev->ndev = ndev;
	netdev_hold(ndev, &sdev->ndev_tracker, GFP_KERNEL);
	sdev->up = sr_netdev_up(ndev);

	/*
	 * The write() commands beyond the core's defaults that rdma-core's
	 * provider sends: REQ_NOTIFY_CQ (arming goes through the kernel) and
	 * POST_SEND with no work request (the doorbell)
	 */
	sdev->ibdev.uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ) |
				       BIT_ULL(IB_USER_VERBS_CMD_POST_SEND);
	sdev->ibdev.node_type = RDMA_NODE_IB_CA;
	sdev->ibdev.phys_port_cnt = 1;
	sdev->ibdev.num_comp_vectors = num_possible_cpus();
	addrconf_addr_eui48((u8 *)&sdev->ibdev.node_guid, ndev->dev_addr);
	strscpy(sdev->ibdev.node_desc, "rxe", sizeof(sdev->ibdev.node_desc));

	ret = ib_device_set_netdev(&sdev->ibdev, ndev, SR_PORT);
	if (ret)
		goto err;
	ret = ib_register_device(&sdev->ibdev, name, NULL);
	if (ret)
		goto err;
	return 0;

err:
	ib_dealloc_device(&sdev->ibdev);
	return ret;
}

/**
 * sr_dev_netdev_event - follow what happens to the device's netdev
 * @sdev: the device, a reference held
 * @event: NETDEV_*
 *
 * The port goes active and down with the netdev's carrier (an event when
 * that changes); the device goes away with the netdev.
 *
 * Context: the netdev notifier, RTNL held.
 */
void sr_dev_netdev_event(struct sr_dev *sdev, unsigned long event)
{
	struct ib_event ev = {
		.device = &sdev->ibdev,
		.element.port_num = SR_PORT,
	};

	switch (event) {
	case NETDEV_UNREGISTER:
		ib_unregister_device_queued(&sdev->ibdev);
		return;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		if (sr_netdev_up(sdev->ndev) == sdev->up)
			return;
		sdev->up = !sdev->up;
		if (!sdev->up)
			sr_count(&sdev->counters, SR_LINK_DOWNED);
		ev.event = sdev->up ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
		ib_dispatch_event(&ev);
		return;
	}
}
