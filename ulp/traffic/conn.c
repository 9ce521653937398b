// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_traffic: the two ends of a run and their connection.
 *
 * Each end gets, on port 1 of its device: a PD, one CQ (IB_POLL_SOFTIRQ)
 * for both queues, an RC QP, a buffer of single pages (mapped contiguously
 * for the CPU with vmap(), DMA-mapped as a scatterlist) and a
 * fast-registration MR over all of it, registered with IB_WR_REG_MR for
 * local and remote access.  The requester also has a few words, mapped
 * with ib_dma_map_single() and used with the PD's local_dma_lkey, where
 * atomics return the old value.
 *
 * Without a connection manager each QP's address vector is built from the
 * other end: InfiniBand uses the peer port's LID; RoCE a GRH to a GID of
 * the peer port (a RoCE v2 GID of an IPv4 address if both ports have one,
 * else RoCE v2, else any type both have, the source GID of the same kind)
 * and the MAC of the peer GID's net device (rdma_read_gid_l2_fields()).
 * Then both QPs go INIT -> RTR -> RTS.
 *
 * traffic_conn_close() undoes whatever traffic_conn_open() got to, after
 * draining the QPs, so no completion can come after it.  Only the run's
 * work item calls these.
 */
#include <linux/dma-mapping.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include "traffic.h"

#define CONN_HOP_LIMIT		64
#define CONN_MIN_RNR_TIMER	12	/* 0.64 ms */
#define CONN_TIMEOUT		18	/* 1.07 s: a debug kernel under TCG acks slowly */
#define CONN_RETRIES		7

/* Names a failed step in run->fail (no spaces: a report value). */
static int conn_failed(struct traffic_run *run, const char *step, int ret)
{
	snprintf(run->fail, sizeof(run->fail), "setup_%s_errno%d", step, ret);
	return ret;
}

/* ---- the buffer ---- */

static int conn_buf_pages(struct traffic_end *e, unsigned long bytes)
{
	unsigned int i;

	e->npages = DIV_ROUND_UP(bytes, PAGE_SIZE);
	e->pages = kcalloc(e->npages, sizeof(*e->pages), GFP_KERNEL);
	if (!e->pages)
		return -ENOMEM;
	for (i = 0; i < e->npages; i++) {
		e->pages[i] = alloc_page(GFP_KERNEL);
		if (!e->pages[i])
			return -ENOMEM;
	}
	e->buf = vmap(e->pages, e->npages, VM_MAP, PAGE_KERNEL);
	return e->buf ? 0 : -ENOMEM;
}

static int conn_buf_map(struct traffic_end *e)
{
	int ret;

	ret = sg_alloc_table_from_pages_segment(&e->sgt, e->pages, e->npages,
						0, (unsigned long)e->npages <<
						PAGE_SHIFT,
						ib_dma_max_seg_size(e->dev),
						GFP_KERNEL);
	if (ret)
		return ret;
	ret = ib_dma_map_sgtable_attrs(e->dev, &e->sgt, DMA_BIDIRECTIONAL, 0);
	e->mapped = !ret;
	return ret;
}

static void conn_buf_free(struct traffic_end *e)
{
	unsigned int i;

	if (e->mapped)
		ib_dma_unmap_sgtable_attrs(e->dev, &e->sgt, DMA_BIDIRECTIONAL,
					   0);
	sg_free_table(&e->sgt);
	if (e->buf)
		vunmap(e->buf);
	for (i = 0; e->pages && i < e->npages; i++)
		if (e->pages[i])
			__free_page(e->pages[i]);
	kfree(e->pages);
}

/* The words atomics return to, on the requester. */
static int conn_res_alloc(struct traffic_run *run, struct traffic_end *e)
{
	size_t len = run->params.depth * sizeof(u64);

	e->res = kzalloc(len, GFP_KERNEL);
	if (!e->res)
		return -ENOMEM;
	e->res_dma = ib_dma_map_single(e->dev, e->res, len, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(e->dev, e->res_dma)) {
		kfree(e->res);
		e->res = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* ---- the objects of one end ---- */

static void conn_qp_event(struct ib_event *event, void *context)
{
	ibdev_warn(event->device, "rdma_traffic: QP event %s (%d)\n",
		   ib_event_msg(event->event), event->event);
}

static int conn_qp(struct traffic_run *run, struct traffic_end *e)
{
	unsigned int depth = run->params.depth;
	struct ib_qp_init_attr init = {
		.event_handler = conn_qp_event,
		.qp_context = run,
		.send_cq = e->cq,
		.recv_cq = e->cq,
		/* + REG_MR and the drain marker */
		.cap.max_send_wr = depth + 2,
		.cap.max_recv_wr = depth + 1,
		.cap.max_send_sge = 1,
		.cap.max_recv_sge = 1,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};
	struct ib_qp *qp = ib_create_qp(e->pd, &init);

	if (IS_ERR(qp))
		return PTR_ERR(qp);
	e->qp = qp;
	return 0;
}

static int conn_objects(struct traffic_run *run, struct traffic_end *e)
{
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_mr *mr;
	int ret;

	pd = ib_alloc_pd(e->dev, 0);
	if (IS_ERR(pd))
		return conn_failed(run, "pd", PTR_ERR(pd));
	e->pd = pd;
	cq = ib_alloc_cq(e->dev, run, 2 * run->params.depth + 4, 0,
			 IB_POLL_SOFTIRQ);
	if (IS_ERR(cq))
		return conn_failed(run, "cq", PTR_ERR(cq));
	e->cq = cq;
	ret = conn_qp(run, e);
	if (ret)
		return conn_failed(run, "qp", ret);
	/*
	 * One page more than the buffer: 6.1's rxe walks its page map one
	 * step past a copy that ends on the last page of a full map (256
	 * pages), which KASAN reports as an out-of-bounds read.  Only where
	 * the device's page lists are long enough.
	 */
	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG,
			 min_t(u32, e->npages + 1,
			       pd->device->attrs.max_fast_reg_page_list_len));
	if (IS_ERR(mr))
		return conn_failed(run, "mr", PTR_ERR(mr));
	e->mr = mr;
	ret = ib_map_mr_sg(mr, e->sgt.sgl, e->sgt.nents, NULL, PAGE_SIZE);
	if (ret != e->sgt.nents)
		return conn_failed(run, "map_mr_sg", ret < 0 ? ret : -EINVAL);
	return 0;
}

static int conn_end_open(struct traffic_run *run, struct traffic_end *e,
			 unsigned long bytes)
{
	int ret;

	ret = conn_buf_pages(e, bytes);
	if (ret)
		return conn_failed(run, "buffer", ret);
	ret = conn_buf_map(e);
	if (ret)
		return conn_failed(run, "dma_map", ret);
	return conn_objects(run, e);
}

/* ---- what both ends allow ---- */

/* The largest power of 4 not above @bytes. */
static unsigned long conn_pow4(unsigned long bytes)
{
	return 1UL << (__fls(bytes) & ~1UL);
}

static bool conn_fast_reg(struct ib_device *dev)
{
	return dev->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS;
}

/*
 * The verbs a run calls.  The client also takes devices that are not
 * kverbs providers by the core's rule (which asks for reg_user_mr too, a
 * userspace verb), so a run checks for what it uses itself.
 */
static bool conn_verbs_ok(struct ib_device *dev)
{
	const struct ib_device_ops *o = &dev->ops;

	return o->alloc_pd && o->create_cq && o->poll_cq && o->req_notify_cq &&
	       o->create_qp && o->modify_qp && o->post_send && o->post_recv &&
	       o->alloc_mr && o->map_mr_sg && o->dereg_mr &&
	       (o->get_dma_mr ||
		(dev->attrs.kernel_cap_flags & IBK_LOCAL_DMA_LKEY));
}

/* InfiniBand or RoCE: iWARP needs a connection manager. */
static bool conn_transport_ok(struct ib_device *dev)
{
	return rdma_protocol_ib(dev, TRAFFIC_PORT) ||
	       rdma_protocol_roce(dev, TRAFFIC_PORT);
}

/* Checks the pair and fits the run's sizes to it. */
static int conn_check(struct traffic_run *run)
{
	struct ib_device *a = run->end[0].dev, *b = run->end[1].dev;
	struct traffic_params *p = &run->params;
	unsigned long pages;

	if (!conn_verbs_ok(a) || !conn_verbs_ok(b))
		return conn_failed(run, "no_kernel_verbs", -EOPNOTSUPP);
	if (!conn_transport_ok(a) || !conn_transport_ok(b))
		return conn_failed(run, "not_ib_or_roce", -EOPNOTSUPP);
	if (rdma_protocol_roce(a, TRAFFIC_PORT) !=
	    rdma_protocol_roce(b, TRAFFIC_PORT))
		return conn_failed(run, "link_layers_differ", -EINVAL);
	if (!conn_fast_reg(a) || !conn_fast_reg(b))
		return conn_failed(run, "no_fast_reg", -EOPNOTSUPP);
	pages = min(a->attrs.max_fast_reg_page_list_len,
		    b->attrs.max_fast_reg_page_list_len);
	if (!pages)
		return conn_failed(run, "no_fast_reg", -EOPNOTSUPP);
	p->max_size = conn_pow4(min(p->max_size, pages * PAGE_SIZE));
	run->atomics = a->attrs.atomic_cap != IB_ATOMIC_NONE &&
		       b->attrs.atomic_cap != IB_ATOMIC_NONE;
	return 0;
}

/* ---- address vectors ---- */

/* How much a GID is preferred: RoCE v2 of IPv4 3, RoCE v2 2, others 1. */
static int conn_gid_rank(const struct ib_gid_attr *attr)
{
	if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return 1;
	return ipv6_addr_v4mapped((const struct in6_addr *)attr->gid.raw) ?
	       3 : 2;
}

/*
 * The first GID of port 1 of @dev with @rank (and @type, if not -1), held;
 * NULL if none.
 */
static const struct ib_gid_attr *conn_find_gid(struct ib_device *dev,
					       int rank, int type)
{
	const struct ib_gid_attr *attr;
	struct ib_port_attr pa;
	int i;

	if (ib_query_port(dev, TRAFFIC_PORT, &pa))
		return NULL;
	for (i = 0; i < pa.gid_tbl_len; i++) {
		attr = rdma_get_gid_attr(dev, TRAFFIC_PORT, i);
		if (IS_ERR(attr))
			continue;
		if (conn_gid_rank(attr) == rank &&
		    (type < 0 || attr->gid_type == type))
			return attr;
		rdma_put_gid_attr(attr);
	}
	return NULL;
}

/* A source GID of @e and a destination GID of @peer of the best kind. */
static int conn_pick_gids(struct traffic_end *e, struct traffic_end *peer,
			  const struct ib_gid_attr **src,
			  const struct ib_gid_attr **dst)
{
	int rank;

	for (rank = 3; rank > 0; rank--) {
		*src = conn_find_gid(e->dev, rank, -1);
		if (!*src)
			continue;
		*dst = conn_find_gid(peer->dev, rank, (*src)->gid_type);
		if (*dst)
			return 0;
		rdma_put_gid_attr(*src);
	}
	return -ENODEV;
}

static int conn_av_roce(struct traffic_end *e, struct traffic_end *peer)
{
	const struct ib_gid_attr *src, *dst;
	union ib_gid dgid;
	u16 vlan;
	int ret;

	ret = conn_pick_gids(e, peer, &src, &dst);
	if (ret)
		return ret;
	dgid = dst->gid;
	rdma_ah_set_grh(&e->av, &dgid, 0, src->index, CONN_HOP_LIMIT, 0);
	ret = rdma_read_gid_l2_fields(dst, &vlan, e->av.roce.dmac);
	rdma_put_gid_attr(src);
	rdma_put_gid_attr(dst);
	return ret;
}

/* The address vector with which @e reaches @peer. */
static int conn_av(struct traffic_end *e, struct traffic_end *peer)
{
	struct ib_port_attr pa;
	int ret;

	e->av.type = rdma_ah_find_type(e->dev, TRAFFIC_PORT);
	rdma_ah_set_port_num(&e->av, TRAFFIC_PORT);
	rdma_ah_set_sl(&e->av, 0);
	if (rdma_protocol_roce(e->dev, TRAFFIC_PORT))
		return conn_av_roce(e, peer);
	ret = ib_query_port(peer->dev, TRAFFIC_PORT, &pa);
	if (!ret)
		rdma_ah_set_dlid(&e->av, pa.lid);
	return ret;
}

/* ---- the QP state machine ---- */

static int conn_access(const struct traffic_run *run)
{
	return IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
	       IB_ACCESS_REMOTE_WRITE |
	       (run->atomics ? IB_ACCESS_REMOTE_ATOMIC : 0);
}

static int conn_init(struct traffic_run *run, struct traffic_end *e)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = TRAFFIC_PORT,
		.qp_access_flags = conn_access(run),
	};

	return ib_modify_qp(e->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			    IB_QP_PORT | IB_QP_ACCESS_FLAGS);
}

static enum ib_mtu conn_mtu(struct traffic_end *e, struct traffic_end *peer)
{
	struct ib_port_attr mine, theirs;

	if (ib_query_port(e->dev, TRAFFIC_PORT, &mine) ||
	    ib_query_port(peer->dev, TRAFFIC_PORT, &theirs))
		return IB_MTU_256;
	return min(mine.active_mtu, theirs.active_mtu);
}

/* Reads in flight: what both devices allow, at most the run's depth. */
static u8 conn_rd_atomic(struct traffic_run *run)
{
	struct ib_device *a = run->end[0].dev, *b = run->end[1].dev;

	return min3(run->params.depth,
		    (unsigned int)min(a->attrs.max_qp_init_rd_atom,
				      a->attrs.max_qp_rd_atom),
		    (unsigned int)min(b->attrs.max_qp_init_rd_atom,
				      b->attrs.max_qp_rd_atom));
}

static int conn_rtr(struct traffic_run *run, struct traffic_end *e,
		    struct traffic_end *peer, u32 psn)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTR,
		.ah_attr = e->av,
		.path_mtu = conn_mtu(e, peer),
		.dest_qp_num = peer->qp->qp_num,
		.rq_psn = psn,
		.max_dest_rd_atomic = conn_rd_atomic(run),
		.min_rnr_timer = CONN_MIN_RNR_TIMER,
	};

	return ib_modify_qp(e->qp, &attr, IB_QP_STATE | IB_QP_AV |
			    IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			    IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
}

static int conn_rts(struct traffic_run *run, struct traffic_end *e, u32 psn)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTS,
		.timeout = CONN_TIMEOUT,
		.retry_cnt = CONN_RETRIES,
		.rnr_retry = CONN_RETRIES,
		.sq_psn = psn,
		.max_rd_atomic = conn_rd_atomic(run),
	};
	int ret;

	ret = ib_modify_qp(e->qp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			   IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			   IB_QP_MAX_QP_RD_ATOMIC);
	e->rts = !ret;
	return ret;
}

/* Both QPs to RTS; the PSN of each direction is random. */
static int conn_connect(struct traffic_run *run)
{
	struct traffic_end *a = &run->end[0], *b = &run->end[1];
	u32 psn_ab = get_random_u32() & 0xffffff;
	u32 psn_ba = get_random_u32() & 0xffffff;
	int ret;

	ret = conn_init(run, a) ?: conn_init(run, b);
	if (ret)
		return conn_failed(run, "init", ret);
	ret = conn_rtr(run, a, b, psn_ba) ?: conn_rtr(run, b, a, psn_ab);
	if (ret)
		return conn_failed(run, "rtr", ret);
	ret = conn_rts(run, a, psn_ab) ?: conn_rts(run, b, psn_ba);
	return ret ? conn_failed(run, "rts", ret) : 0;
}

/* Registers @e's MR with a new key for the run's access. */
static int conn_register(struct traffic_run *run, struct traffic_end *e)
{
	struct ib_reg_wr reg = {
		.wr.opcode = IB_WR_REG_MR,
		.wr.send_flags = IB_SEND_SIGNALED,
		.wr.wr_cqe = &run->slot[0].send_cqe,
		.mr = e->mr,
		.access = conn_access(run),
	};
	int ret;

	ib_update_fast_reg_key(e->mr, ib_inc_rkey(e->mr->rkey));
	reg.key = e->mr->rkey;
	ret = traffic_ops_post_wait(run, e->qp, &reg.wr);
	return ret ? conn_failed(run, "reg_mr", ret) : 0;
}

/**
 * traffic_conn_open() - set up and connect both ends of a run
 * @run: the run, with its devices and parameters set
 *
 * Return: 0, or an errno with the failed step in run->fail; the caller
 * calls traffic_conn_close() in either case.
 */
int traffic_conn_open(struct traffic_run *run)
{
	struct traffic_end *a = &run->end[0], *b = &run->end[1];
	unsigned long bytes;
	int ret;

	traffic_ops_prepare(run);
	ret = conn_check(run);
	if (ret)
		return ret;
	bytes = max_t(unsigned long, run->params.max_size,
		      run->params.depth * sizeof(u64));
	ret = conn_end_open(run, a, bytes) ?: conn_end_open(run, b, bytes);
	if (ret)
		return ret;
	ret = conn_res_alloc(run, a);
	if (ret)
		return conn_failed(run, "atomic_words", ret);
	ret = conn_av(a, b) ?: conn_av(b, a);
	if (ret)
		return conn_failed(run, "address", ret);
	return conn_connect(run) ?: conn_register(run, a) ?:
	       conn_register(run, b);
}

static void conn_end_close(struct traffic_run *run, struct traffic_end *e)
{
	if (e->mr)
		ib_dereg_mr(e->mr);
	if (e->qp)
		ib_destroy_qp(e->qp);
	if (e->cq)
		ib_free_cq(e->cq);
	if (e->res) {
		ib_dma_unmap_single(e->dev, e->res_dma,
				    run->params.depth * sizeof(u64),
				    DMA_BIDIRECTIONAL);
		kfree(e->res);
	}
	conn_buf_free(e);
	if (e->pd)
		ib_dealloc_pd(e->pd);
	/* The device stays named: remove() reads it until the run ends */
	*e = (struct traffic_end){ .dev = e->dev };
}

/**
 * traffic_conn_close() - drain both QPs and free both ends
 * @run: the run
 */
void traffic_conn_close(struct traffic_run *run)
{
	int i;

	for (i = 0; i < 2; i++)
		if (run->end[i].rts)
			ib_drain_qp(run->end[i].qp);
	for (i = 0; i < 2; i++)
		conn_end_close(run, &run->end[i]);
}
