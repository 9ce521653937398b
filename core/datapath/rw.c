// SPDX-License-Identifier: GPL-2.0
/*
 * The RDMA read/write API: turn a scatterlist into the RDMA READ or WRITE
 * work requests that move it to or from a remote buffer.
 *
 * A context (struct rdma_rw_ctx, laid out by <rdma/rw.h> and allocated by
 * the caller) takes one of four shapes, recorded in ctx->type:
 *
 *  - RW_SINGLE: one SGE, one WR, both inside the context;
 *  - RW_MAP:    an SGE list split over WRs of at most max_write_sge or
 *               max_read_sge SGEs, in one kernel allocation (ctx->map.wrs,
 *               with the SGEs following the WRs; ctx->map.sges points there);
 *  - RW_REG:    the data registered through MRs of the QP's qp->rdma_mrs
 *               pool, one (LOCAL_INV +) REG_MR + RDMA op group per MR;
 *  - RW_SIG:    one integrity MR of qp->sig_mrs (signature offload).
 *
 * A context belongs to its caller, who serialises all calls on it; nothing
 * here takes a lock except the MR pool's qp->mr_lock.  The MRs of RW_REG and
 * RW_SIG contexts are owned by the context from init to destroy.
 */
#include "abi/ib_core/rw.h"
#include "datapath/internal.h"

enum {
	RW_NONE,		/* destroyed, or never initialised */
	RW_SINGLE,
	RW_MAP,
	RW_REG,
	RW_SIG,
};

/*
 * The MR path is the only one iWARP allows for RDMA READ, and optional
 * elsewhere.  force_mr sends every transfer through it, to exercise it on
 * any device.  It is read when a QP is created (to build the MR pool) and
 * when a context is initialised; set it before creating the QPs.
 */
static bool rw_force_mr;
module_param_named(force_mr, rw_force_mr, bool, 0644);
MODULE_PARM_DESC(force_mr, "Register memory for every RDMA READ/WRITE (debug)");

/* MRs larger than this buy little and make the per-QP pools costly. */
#define RW_MR_PAGE_CAP	256U

static bool rw_port_is_iwarp(struct ib_device *dev, u32 port_num)
{
	return rdma_is_port_valid(dev, port_num) &&
	       rdma_protocol_iwarp(dev, port_num);
}

/* Whether contexts on this port may register memory (so need an MR pool). */
static bool rw_may_register(struct ib_device *dev, u32 port_num)
{
	return READ_ONCE(rw_force_mr) || dev->attrs.max_sgl_rd ||
	       rw_port_is_iwarp(dev, port_num);
}

/* Whether a transfer of @nents mapped entries goes through MRs. */
static bool rw_wants_mr(struct ib_device *dev, u32 port_num, bool forced,
			enum dma_data_direction dir, u32 nents)
{
	if (forced)
		return true;
	if (dir != DMA_FROM_DEVICE)
		return false;
	if (rdma_protocol_iwarp(dev, port_num))
		return true;
	return dev->attrs.max_sgl_rd && nents > dev->attrs.max_sgl_rd;
}

static u32 rw_pages_per_mr(struct ib_device *dev, bool integrity)
{
	u32 limit = integrity ? dev->attrs.max_pi_fast_reg_page_list_len :
				dev->attrs.max_fast_reg_page_list_len;

	return min(limit, RW_MR_PAGE_CAP);
}

/* Send queue entries one context needs: the RDMA op (+ REG_MR, LOCAL_INV). */
static unsigned int rw_wqes_per_ctx(struct ib_device *dev, u32 port_num,
				    u32 create_flags)
{
	if ((create_flags & IB_QP_CREATE_INTEGRITY_EN) ||
	    rw_may_register(dev, port_num))
		return 3;
	return 1;
}

static bool rw_dir_valid(enum dma_data_direction dir)
{
	return dir == DMA_TO_DEVICE || dir == DMA_FROM_DEVICE;
}

static void rw_set_rdma_op(struct ib_rdma_wr *wr, enum dma_data_direction dir,
			   u64 remote_addr, u32 rkey, struct ib_sge *sges)
{
	wr->wr.opcode = dir == DMA_TO_DEVICE ? IB_WR_RDMA_WRITE :
					       IB_WR_RDMA_READ;
	wr->wr.sg_list = sges;
	wr->remote_addr = remote_addr;
	wr->rkey = rkey;
}

/* One SGE for a mapped entry, starting @skip bytes into it. */
static void rw_set_sge(struct ib_sge *sge, struct ib_qp *qp,
		       struct scatterlist *sg, u32 skip)
{
	sge->addr = sg_dma_address(sg) + skip;
	sge->length = sg_dma_len(sg) - skip;
	sge->lkey = qp->pd->local_dma_lkey;
}

static int rw_init_single(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			  struct scatterlist *sg, u32 skip, u64 remote_addr,
			  u32 rkey, enum dma_data_direction dir)
{
	memset(&ctx->single.wr, 0, sizeof(ctx->single.wr));
	rw_set_sge(&ctx->single.sge, qp, sg, skip);
	rw_set_rdma_op(&ctx->single.wr, dir, remote_addr, rkey,
		       &ctx->single.sge);
	ctx->single.wr.wr.num_sge = 1;
	ctx->type = RW_SINGLE;
	ctx->nr_ops = 1;
	return 1;
}

static int rw_init_map(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		       struct scatterlist *sg, u32 nents, u32 skip,
		       u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	u32 per_wr = dir == DMA_TO_DEVICE ? qp->max_write_sge :
					    qp->max_read_sge;
	struct ib_rdma_wr *wrs, *wr = NULL;
	struct scatterlist *s;
	struct ib_sge *sges;
	u64 moved = 0;
	u32 nr_wrs;
	int k;

	if (!per_wr)
		return -EINVAL;
	nr_wrs = DIV_ROUND_UP(nents, per_wr);
	wrs = kzalloc(size_add(array_size(nr_wrs, sizeof(*wrs)),
			       array_size(nents, sizeof(*sges))), GFP_KERNEL);
	if (!wrs)
		return -ENOMEM;
	sges = (struct ib_sge *)(wrs + nr_wrs);

	/* Entry k goes to WR k / per_wr; each WR starts where the last ended. */
	for_each_sg(sg, s, nents, k) {
		if (k % per_wr == 0) {
			if (wr)
				wr->wr.next = &wr[1].wr;
			wr = &wrs[k / per_wr];
			rw_set_rdma_op(wr, dir, remote_addr + moved, rkey,
				       &sges[k]);
		}
		rw_set_sge(&sges[k], qp, s, k ? 0 : skip);
		wr->wr.num_sge++;
		moved += sges[k].length;
	}

	ctx->map.wrs = wrs;
	ctx->map.sges = sges;
	ctx->type = RW_MAP;
	ctx->nr_ops = nr_wrs;
	return nr_wrs;
}

/*
 * An MR that was registered and not invalidated by its last user must be
 * invalidated before it is registered again: queue a LOCAL_INV ahead of the
 * REG_MR.  Returns the number of WRs that adds.
 */
static int rw_reg_prep_inv(struct rdma_rw_reg_ctx *reg)
{
	if (!reg->mr->need_inval) {
		reg->inv_wr.next = NULL;
		return 0;
	}
	reg->inv_wr.opcode = IB_WR_LOCAL_INV;
	reg->inv_wr.ex.invalidate_rkey = reg->mr->lkey;
	reg->inv_wr.next = &reg->reg_wr.wr;
	return 1;
}

static struct ib_send_wr *rw_reg_head(struct rdma_rw_reg_ctx *reg)
{
	return reg->inv_wr.next ? &reg->inv_wr : &reg->reg_wr.wr;
}

/* Fill the REG_MR (or REG_MR_INTEGRITY) WR for reg->mr, once mapped. */
static void rw_reg_prep_reg(struct rdma_rw_reg_ctx *reg, struct ib_qp *qp,
			    u32 port_num, enum ib_wr_opcode opcode)
{
	reg->reg_wr.wr.opcode = opcode;
	reg->reg_wr.wr.next = &reg->wr.wr;
	reg->reg_wr.mr = reg->mr;
	reg->reg_wr.key = reg->mr->lkey;
	reg->reg_wr.access = IB_ACCESS_LOCAL_WRITE;
	/* An iWARP READ response lands through the sink STag: remote write. */
	if (rdma_protocol_iwarp(qp->device, port_num))
		reg->reg_wr.access |= IB_ACCESS_REMOTE_WRITE;
	reg->sge.addr = reg->mr->iova;
	reg->sge.length = reg->mr->length;
}

/*
 * Register @nents mapped entries with one MR of the pool and prepare its WR
 * group.  @reg is zeroed.  Returns the number of WRs, or -errno with the MR
 * back in the pool.
 */
static int rw_reg_one(struct rdma_rw_reg_ctx *reg, struct ib_qp *qp,
		      u32 port_num, struct scatterlist *sg, u32 nents,
		      unsigned int skip, u64 remote_addr, u32 rkey,
		      enum dma_data_direction dir)
{
	int nr_inv, mapped;

	reg->mr = ib_mr_pool_get(qp, &qp->rdma_mrs);
	if (!reg->mr)
		return -EAGAIN;

	mapped = ib_map_mr_sg(reg->mr, sg, nents, &skip, PAGE_SIZE);
	if (mapped < 0 || (u32)mapped != nents) {
		ib_mr_pool_put(qp, &qp->rdma_mrs, reg->mr);
		reg->mr = NULL;
		return -EINVAL;
	}

	nr_inv = rw_reg_prep_inv(reg);
	rw_reg_prep_reg(reg, qp, port_num, IB_WR_REG_MR);
	rw_set_rdma_op(&reg->wr, dir, remote_addr, rkey, &reg->sge);
	reg->wr.wr.num_sge = 1;
	/* Where the device can, let the READ invalidate its own sink MR. */
	if (dir == DMA_FROM_DEVICE && rdma_cap_read_inv(qp->device, port_num))
		reg->wr.wr.opcode = IB_WR_RDMA_READ_WITH_INV;
	return nr_inv + 2;
}

static struct scatterlist *rw_sg_skip(struct scatterlist *sg, u32 n)
{
	while (n-- && sg)
		sg = sg_next(sg);
	return sg;
}

static void rw_reg_put_all(struct ib_qp *qp, struct list_head *pool,
			   struct rdma_rw_reg_ctx *regs, u32 nr)
{
	while (nr--)
		ib_mr_pool_put(qp, pool, regs[nr].mr);
	kfree(regs);
}

static int rw_init_reg(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		       u32 port_num, struct scatterlist *sg, u32 nents,
		       u32 skip, u64 remote_addr, u32 rkey,
		       enum dma_data_direction dir)
{
	u32 per_mr = rw_pages_per_mr(qp->device, qp->integrity_en);
	struct rdma_rw_reg_ctx *regs;
	u32 nr_regs, i, chunk;
	int wrs = 0, ret;

	if (!per_mr)
		return -EINVAL;
	nr_regs = DIV_ROUND_UP(nents, per_mr);
	regs = kcalloc(nr_regs, sizeof(*regs), GFP_KERNEL);
	if (!regs)
		return -ENOMEM;

	for (i = 0; i < nr_regs; i++) {
		chunk = min(nents, per_mr);
		ret = rw_reg_one(&regs[i], qp, port_num, sg, chunk, skip,
				 remote_addr, rkey, dir);
		if (ret < 0) {
			rw_reg_put_all(qp, &qp->rdma_mrs, regs, i);
			return ret;
		}
		wrs += ret;
		if (i)
			regs[i - 1].wr.wr.next = rw_reg_head(&regs[i]);
		remote_addr += regs[i].sge.length;
		sg = rw_sg_skip(sg, chunk);
		nents -= chunk;
		skip = 0;
	}

	ctx->reg = regs;
	ctx->type = RW_REG;
	ctx->nr_ops = nr_regs;
	return wrs;
}

/*
 * Find the mapped entry @*skip bytes into the first @nents of @sg; leave in
 * @*skip the offset inside it and in @*left the entries from it on.
 * NULL when the offset is beyond the data.
 */
static struct scatterlist *rw_seek(struct scatterlist *sg, u32 nents,
				   u32 *skip, u32 *left)
{
	for (; sg && nents; sg = sg_next(sg), nents--) {
		if (*skip < sg_dma_len(sg)) {
			*left = nents;
			return sg;
		}
		*skip -= sg_dma_len(sg);
	}
	return NULL;
}

static int rw_init_mapped(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			  u32 port_num, struct scatterlist *sg, u32 nents,
			  u32 skip, u64 remote_addr, u32 rkey,
			  enum dma_data_direction dir)
{
	bool forced = READ_ONCE(rw_force_mr);
	int ret;

	if (rw_wants_mr(qp->device, port_num, forced, dir, nents)) {
		ret = rw_init_reg(ctx, qp, port_num, sg, nents, skip,
				  remote_addr, rkey, dir);
		/*
		 * Only iWARP and force_mr need the MRs; for a device that
		 * merely prefers them (max_sgl_rd) an empty pool is no error.
		 */
		if (ret != -EAGAIN || forced ||
		    rdma_protocol_iwarp(qp->device, port_num))
			return ret;
	}
	if (nents == 1)
		return rw_init_single(ctx, qp, sg, skip, remote_addr, rkey,
				      dir);
	return rw_init_map(ctx, qp, sg, nents, skip, remote_addr, rkey, dir);
}

/**
 * rdma_rw_ctx_init - prepare the WRs of an RDMA READ or WRITE
 * @ctx: context to initialise; owned by the caller until rdma_rw_ctx_destroy()
 * @qp: QP the WRs will be posted on
 * @port_num: port of @qp's connection
 * @sg: local buffer
 * @sg_cnt: number of entries in @sg
 * @sg_offset: bytes of @sg to leave out at its start
 * @remote_addr: remote address of the first byte moved
 * @rkey: remote key covering the remote buffer
 * @dir: %DMA_TO_DEVICE for an RDMA WRITE, %DMA_FROM_DEVICE for an RDMA READ
 *
 * DMA-maps @sg for the device of @qp and builds the WR chain: plain RDMA
 * WRs with the PD's local DMA lkey, or, where the device needs or prefers it
 * (iWARP READ, max_sgl_rd, the force_mr parameter), REG_MR + RDMA WR groups
 * over MRs from the QP's pool.  May sleep.
 *
 * Return: the number of send queue entries the WRs take, or -errno:
 * -EINVAL for an empty @sg, an offset beyond it, a bad port or direction,
 * -EAGAIN when the MR pool is exhausted, -ENOMEM, or a DMA mapping error.
 */
int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	struct ib_device *dev = qp->device;
	struct sg_table sgt = { .sgl = sg, .orig_nents = sg_cnt };
	struct scatterlist *first;
	u32 left;
	int ret;

	if (!sg_cnt || !rw_dir_valid(dir) || !rdma_is_port_valid(dev, port_num))
		return -EINVAL;

	ret = ib_dma_map_sgtable_attrs(dev, &sgt, dir, 0);
	if (ret)
		return ret;

	first = rw_seek(sgt.sgl, sgt.nents, &sg_offset, &left);
	if (!first)
		ret = -EINVAL;
	else
		ret = rw_init_mapped(ctx, qp, port_num, first, left, sg_offset,
				     remote_addr, rkey, dir);
	if (ret < 0)
		ib_dma_unmap_sgtable_attrs(dev, &sgt, dir, 0);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_init);

static int rw_sig_map(struct rdma_rw_reg_ctx *reg,
		      struct sg_table *data, struct sg_table *prot,
		      struct ib_sig_attrs *sig_attrs)
{
	struct ib_mr *mr = reg->mr;

	*mr->sig_attrs = *sig_attrs;
	return ib_map_mr_sg_pi(mr, data->sgl, data->nents, NULL,
			       prot->nents ? prot->sgl : NULL, prot->nents,
			       NULL, SZ_4K);
}

/*
 * The wire view of the integrity MR, set after rw_reg_prep_reg() (which
 * covers the whole MR): without a wire signature the PI stays local and
 * only the data moves.
 */
static void rw_sig_set_sge(struct rdma_rw_reg_ctx *reg)
{
	struct ib_mr *mr = reg->mr;

	reg->sge.addr = mr->iova;
	reg->sge.length = mr->length;
	if (mr->sig_attrs->wire.sig_type == IB_SIG_TYPE_NONE)
		reg->sge.length -= mr->sig_attrs->meta_length;
}

static int rw_sig_check(struct ib_qp *qp, u32 port_num, u32 sg_cnt,
			u32 prot_sg_cnt, enum dma_data_direction dir)
{
	u32 per_mr = rw_pages_per_mr(qp->device, true);

	if (!(qp->device->attrs.kernel_cap_flags & IBK_INTEGRITY_HANDOVER))
		return -EOPNOTSUPP;
	if (!qp->integrity_en || !rw_dir_valid(dir) ||
	    !rdma_is_port_valid(qp->device, port_num))
		return -EINVAL;
	if (!sg_cnt || sg_cnt > per_mr || prot_sg_cnt > per_mr)
		return -EINVAL;
	return 0;
}

/**
 * rdma_rw_ctx_signature_init - prepare an RDMA READ or WRITE with signature
 *	offload
 * @ctx: context to initialise; released with rdma_rw_ctx_destroy_signature()
 * @qp: QP created with %IB_QP_CREATE_INTEGRITY_EN
 * @port_num: port of @qp's connection
 * @sg: local data buffer
 * @sg_cnt: number of entries in @sg, at most the integrity MR's page count
 * @prot_sg: local protection information buffer, or %NULL
 * @prot_sg_cnt: number of entries in @prot_sg (0 without one)
 * @sig_attrs: signature domains and check parameters; copied
 * @remote_addr: remote address of the first byte moved
 * @rkey: remote key covering the remote buffer
 * @dir: %DMA_TO_DEVICE for an RDMA WRITE, %DMA_FROM_DEVICE for an RDMA READ
 *
 * Maps data and PI into one integrity MR of the QP's signature pool and
 * builds the (LOCAL_INV +) REG_MR_INTEGRITY + RDMA WR chain.  May sleep.
 *
 * Return: the number of send queue entries the WRs take, or -errno:
 * -EOPNOTSUPP when the device cannot hand over integrity, -EINVAL for a QP
 * without integrity or bad counts, -EAGAIN when the pool is exhausted.
 */
int rdma_rw_ctx_signature_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			       u32 port_num, struct scatterlist *sg,
			       u32 sg_cnt, struct scatterlist *prot_sg,
			       u32 prot_sg_cnt, struct ib_sig_attrs *sig_attrs,
			       u64 remote_addr, u32 rkey,
			       enum dma_data_direction dir)
{
	struct ib_device *dev = qp->device;
	struct sg_table data = { .sgl = sg, .orig_nents = sg_cnt };
	struct sg_table prot = { .sgl = prot_sg, .orig_nents = prot_sg_cnt };
	struct rdma_rw_reg_ctx *reg;
	int ret, nr_inv;

	ret = rw_sig_check(qp, port_num, sg_cnt, prot_sg_cnt, dir);
	if (ret)
		return ret;

	ret = ib_dma_map_sgtable_attrs(dev, &data, dir, 0);
	if (ret)
		return ret;
	if (prot_sg_cnt) {
		ret = ib_dma_map_sgtable_attrs(dev, &prot, dir, 0);
		if (ret)
			goto unmap_data;
	}

	ret = -ENOMEM;
	reg = kzalloc(sizeof(*reg), GFP_KERNEL);
	if (!reg)
		goto unmap_prot;
	ret = -EAGAIN;
	reg->mr = ib_mr_pool_get(qp, &qp->sig_mrs);
	if (!reg->mr)
		goto free_reg;
	ret = rw_sig_map(reg, &data, &prot, sig_attrs);
	if (ret)
		goto put_mr;

	nr_inv = rw_reg_prep_inv(reg);
	rw_reg_prep_reg(reg, qp, port_num, IB_WR_REG_MR_INTEGRITY);
	rw_sig_set_sge(reg);
	rw_set_rdma_op(&reg->wr, dir, remote_addr, rkey, &reg->sge);
	reg->wr.wr.num_sge = 1;

	ctx->reg = reg;
	ctx->type = RW_SIG;
	ctx->nr_ops = 1;
	return nr_inv + 2;

put_mr:
	ib_mr_pool_put(qp, &qp->sig_mrs, reg->mr);
free_reg:
	kfree(reg);
unmap_prot:
	if (prot_sg_cnt)
		ib_dma_unmap_sgtable_attrs(dev, &prot, dir, 0);
unmap_data:
	ib_dma_unmap_sgtable_attrs(dev, &data, dir, 0);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_signature_init);

/*
 * Give reg->mr a fresh key for this registration.  Done when the WRs are
 * handed out rather than at init, so a context that is initialised but never
 * posted leaves the MR's key and invalidation state as they were.
 */
static void rw_reg_arm(struct rdma_rw_reg_ctx *reg)
{
	struct ib_mr *mr = reg->mr;
	bool self_inv = reg->wr.wr.opcode == IB_WR_RDMA_READ_WITH_INV;

	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->lkey));
	reg->reg_wr.key = mr->lkey;
	reg->sge.lkey = mr->lkey;
	if (self_inv)
		reg->wr.wr.ex.invalidate_rkey = mr->lkey;
	mr->need_inval = !self_inv;
}

/**
 * rdma_rw_ctx_wrs - the WR chain of a context, ready to post
 * @ctx: context set up by rdma_rw_ctx_init() or rdma_rw_ctx_signature_init()
 * @qp: QP the chain will be posted on
 * @port_num: port of @qp's connection
 * @cqe: completion for the last WR; used only when @chain_wr is %NULL
 * @chain_wr: WR (chain) to append after the context's WRs, or %NULL
 *
 * Without @chain_wr the last WR is signaled and completes on @cqe; with it,
 * the caller's WR follows and must carry the completion.  MR contexts get
 * new keys here, so call this once per post.
 *
 * Return: the first WR, or %NULL for a context that is not initialised.
 */
struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr)
{
	struct ib_send_wr *first, *last;
	u32 i;

	switch (ctx->type) {
	case RW_SINGLE:
		first = &ctx->single.wr.wr;
		last = first;
		break;
	case RW_MAP:
		first = &ctx->map.wrs[0].wr;
		last = &ctx->map.wrs[ctx->nr_ops - 1].wr;
		break;
	case RW_REG:
	case RW_SIG:
		for (i = 0; i < ctx->nr_ops; i++)
			rw_reg_arm(&ctx->reg[i]);
		first = rw_reg_head(&ctx->reg[0]);
		last = &ctx->reg[ctx->nr_ops - 1].wr.wr;
		break;
	default:
		pr_warn_once("ib_core: R/W context used before init\n");
		return NULL;
	}

	last->next = chain_wr;
	if (!chain_wr) {
		last->wr_cqe = cqe;
		last->send_flags |= IB_SEND_SIGNALED;
	}
	return first;
}
EXPORT_SYMBOL(rdma_rw_ctx_wrs);

/**
 * rdma_rw_ctx_post - post the WR chain of a context
 * @ctx: context set up by rdma_rw_ctx_init() or rdma_rw_ctx_signature_init()
 * @qp: QP to post on
 * @port_num: port of @qp's connection
 * @cqe: completion for the last WR; used only when @chain_wr is %NULL
 * @chain_wr: WR (chain) to post after the context's WRs, or %NULL
 *
 * Posts what rdma_rw_ctx_wrs() returns.
 *
 * Return: 0, -EINVAL for a context that is not initialised, or the error
 * of ib_post_send().
 */
int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct ib_cqe *cqe, struct ib_send_wr *chain_wr)
{
	struct ib_send_wr *first = rdma_rw_ctx_wrs(ctx, qp, port_num, cqe,
						   chain_wr);

	if (!first)
		return -EINVAL;
	return ib_post_send(qp, first, NULL);
}
EXPORT_SYMBOL(rdma_rw_ctx_post);

/**
 * rdma_rw_ctx_destroy - release a context set up by rdma_rw_ctx_init()
 * @ctx: the context; its WRs must have completed or been flushed
 * @qp: QP it was set up for
 * @port_num: port of @qp's connection
 * @sg: the buffer passed to rdma_rw_ctx_init()
 * @sg_cnt: the entry count passed to rdma_rw_ctx_init()
 * @dir: the direction passed to rdma_rw_ctx_init()
 *
 * Returns the context's MRs to the pool, frees its WRs and unmaps @sg.
 */
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir)
{
	switch (ctx->type) {
	case RW_SINGLE:
		break;
	case RW_MAP:
		kfree(ctx->map.wrs);	/* the SGEs share the allocation */
		break;
	case RW_REG:
		rw_reg_put_all(qp, &qp->rdma_mrs, ctx->reg, ctx->nr_ops);
		break;
	default:
		pr_warn_once("ib_core: R/W context destroyed that rdma_rw_ctx_init() did not set up\n");
		return;
	}
	ctx->type = RW_NONE;
	ib_dma_unmap_sg(qp->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy);

/**
 * rdma_rw_ctx_destroy_signature - release a context set up by
 *	rdma_rw_ctx_signature_init()
 * @ctx: the context; its WRs must have completed or been flushed
 * @qp: QP it was set up for
 * @port_num: port of @qp's connection
 * @sg: the data buffer passed at init
 * @sg_cnt: its entry count
 * @prot_sg: the protection information buffer passed at init
 * @prot_sg_cnt: its entry count
 * @dir: the direction passed at init
 */
void rdma_rw_ctx_destroy_signature(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct scatterlist *sg,
				   u32 sg_cnt, struct scatterlist *prot_sg,
				   u32 prot_sg_cnt,
				   enum dma_data_direction dir)
{
	if (ctx->type != RW_SIG) {
		pr_warn_once("ib_core: not a signature R/W context\n");
		return;
	}
	rw_reg_put_all(qp, &qp->sig_mrs, ctx->reg, 1);
	ctx->type = RW_NONE;
	if (prot_sg_cnt)
		ib_dma_unmap_sg(qp->device, prot_sg, prot_sg_cnt, dir);
	ib_dma_unmap_sg(qp->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy_signature);

/**
 * rdma_rw_mr_factor - R/W operations one payload takes
 * @device: device of the connection
 * @port_num: port of the connection
 * @maxpages: pages of the largest payload of one context
 *
 * ULPs size their contexts and send queues with this: each MR (where the
 * device registers memory) or each RDMA READ (where it does not) covers at
 * most a device-dependent number of pages.
 *
 * Return: the number of MRs or READ WRs a @maxpages payload needs.
 */
unsigned int rdma_rw_mr_factor(struct ib_device *device, u32 port_num,
			       unsigned int maxpages)
{
	u32 per_op;

	if (rw_may_register(device, port_num))
		per_op = rw_pages_per_mr(device, false);
	else
		per_op = max(device->attrs.max_sge_rd, 0);
	return DIV_ROUND_UP(maxpages, max(per_op, 1U));
}
EXPORT_SYMBOL(rdma_rw_mr_factor);

/**
 * rdma_rw_max_send_wr - send queue entries needed for R/W contexts
 * @dev: device of the connection
 * @port_num: port of the connection
 * @max_rdma_ctxs: number of contexts in flight at once
 * @create_flags: the QP's create flags (%IB_QP_CREATE_INTEGRITY_EN counts)
 *
 * Each context takes one entry for its RDMA op, and two more (REG_MR and
 * LOCAL_INV) when the device registers memory or integrity is enabled.
 * ULPs size send queues and send CQs with this before creating the QP.
 *
 * Return: the entries needed, or %UINT_MAX if that does not fit.
 */
unsigned int rdma_rw_max_send_wr(struct ib_device *dev, u32 port_num,
				 unsigned int max_rdma_ctxs, u32 create_flags)
{
	unsigned int wqes;

	if (check_mul_overflow(rw_wqes_per_ctx(dev, port_num, create_flags),
			       max_rdma_ctxs, &wqes))
		return UINT_MAX;
	return wqes;
}
EXPORT_SYMBOL(rdma_rw_max_send_wr);

void rw_qp_reserve_caps(struct ib_device *dev, struct ib_qp_init_attr *attr)
{
	u32 want;

	if (!attr->cap.max_rdma_ctxs)
		return;
	if (check_add_overflow(attr->cap.max_send_wr,
			       rdma_rw_max_send_wr(dev, attr->port_num,
						   attr->cap.max_rdma_ctxs,
						   attr->create_flags),
			       &want))
		want = U32_MAX;
	/* Ask no more than the device has; the ULP lives with what it gets. */
	attr->cap.max_send_wr = min_t(u32, want, dev->attrs.max_qp_wr);
}

int rw_qp_create_pools(struct ib_qp *qp, struct ib_qp_init_attr *attr)
{
	u32 nr = attr->cap.max_rdma_ctxs;
	struct ib_device *dev = qp->device;
	u32 pages;
	int ret;

	if (!nr)
		return 0;
	if (attr->create_flags & IB_QP_CREATE_INTEGRITY_EN) {
		pages = rw_pages_per_mr(dev, true);
		ret = ib_mr_pool_init(qp, &qp->rdma_mrs, nr, IB_MR_TYPE_MEM_REG,
				      pages, 0);
		if (ret)
			return ret;
		ret = ib_mr_pool_init(qp, &qp->sig_mrs, nr,
				      IB_MR_TYPE_INTEGRITY, pages, pages);
		if (ret)
			ib_mr_pool_destroy(qp, &qp->rdma_mrs);
		return ret;
	}
	if (!rw_may_register(dev, attr->port_num))
		return 0;
	return ib_mr_pool_init(qp, &qp->rdma_mrs, nr, IB_MR_TYPE_MEM_REG,
			       rw_pages_per_mr(dev, false), 0);
}

void rw_qp_destroy_pools(struct ib_qp *qp)
{
	ib_mr_pool_destroy(qp, &qp->sig_mrs);
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
}
