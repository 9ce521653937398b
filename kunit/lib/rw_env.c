// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: the loopback environment of the R/W and MR pool suites
 * (rw_env.h).
 */
#include "rw_env.h"

/* An InfiniBand test device whose PDs use its local DMA lkey. */
static const struct tdev_params rw_tdev_params = {
	.local_dma_lkey = true,
};

/* The same with integrity MRs (T10-DIF offload). */
static const struct tdev_params rw_tdev_integrity_params = {
	.local_dma_lkey = true,
	.integrity = true,
};

static int rw_env_init_with(struct kunit *test,
			    const struct tdev_params *params);

/**
 * rw_env_init - a case's environment: device, PD, CQ and buffers
 * @test: the case; test->priv gets the struct rw_env
 *
 * Return: 0, or the errno that fails the case before it runs.
 */
int rw_env_init(struct kunit *test)
{
	return rw_env_init_with(test, &rw_tdev_params);
}
EXPORT_SYMBOL_GPL(rw_env_init);

/**
 * rw_env_init_integrity - rw_env_init() on a device with integrity MRs
 * @test: the case
 *
 * Return: 0, or the errno that fails the case before it runs.
 */
int rw_env_init_integrity(struct kunit *test)
{
	return rw_env_init_with(test, &rw_tdev_integrity_params);
}
EXPORT_SYMBOL_GPL(rw_env_init_integrity);

static int rw_env_init_with(struct kunit *test,
			    const struct tdev_params *params)
{
	struct rw_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	if (!env)
		return -ENOMEM;
	env->test = test;
	test->priv = env;	/* rw_env_exit() undoes whatever was built */
	env->lbuf = kunit_kzalloc(test, RW_BUF_LEN, GFP_KERNEL);
	env->rbuf = kunit_kzalloc(test, RW_BUF_LEN, GFP_KERNEL);
	if (!env->lbuf || !env->rbuf)
		return -ENOMEM;

	env->td = tdev_create_registered(params);
	if (IS_ERR(env->td))
		return PTR_ERR(env->td);
	env->dev = &env->td->ibdev;
	env->pd = ib_alloc_pd(env->dev, 0);
	if (IS_ERR(env->pd))
		return PTR_ERR(env->pd);
	env->cq = ib_alloc_cq(env->dev, NULL, 256, 0, IB_POLL_DIRECT);
	if (IS_ERR(env->cq))
		return PTR_ERR(env->cq);
	return 0;
}

/**
 * rw_env_exit - free what the case and rw_env_init() made
 * @test: the case
 */
void rw_env_exit(struct kunit *test)
{
	struct rw_env *env = test->priv;

	if (!env)
		return;
	if (env->rmr)
		ib_dereg_mr(env->rmr);
	if (env->rsg_mapped)
		ib_dma_unmap_sg(env->dev, &env->rsg, 1, DMA_BIDIRECTIONAL);
	if (env->peer)
		ib_destroy_qp(env->peer);
	if (env->qp)
		ib_destroy_qp(env->qp);
	if (!IS_ERR_OR_NULL(env->cq))
		ib_free_cq(env->cq);
	if (!IS_ERR_OR_NULL(env->pd))
		ib_dealloc_pd(env->pd);
	if (!IS_ERR_OR_NULL(env->td))
		tdev_destroy(env->td);
}
EXPORT_SYMBOL_GPL(rw_env_exit);

/**
 * rw_qp - an RC QP on the environment's CQ, on port RW_PORT
 * @env: the environment; its case fails if the QP cannot be made
 * @max_send_sge: its send SGEs
 * @max_rdma_ctxs: the R/W contexts it is made for
 * @out: if not NULL, the init attributes as ib_create_qp() left them
 *
 * 16 send and 4 receive work requests; only signaled sends complete.
 *
 * Return: the QP; the case keeps it in @env (qp or peer), where
 * rw_env_exit() finds it.
 */
struct ib_qp *rw_qp(struct rw_env *env, u32 max_send_sge, u32 max_rdma_ctxs,
		    struct ib_qp_init_attr *out)
{
	return rw_qp_flags(env, max_send_sge, max_rdma_ctxs, 0, out);
}
EXPORT_SYMBOL_GPL(rw_qp);

/**
 * rw_qp_flags - rw_qp() with create flags
 * @env: as for rw_qp()
 * @max_send_sge: as for rw_qp()
 * @max_rdma_ctxs: as for rw_qp()
 * @create_flags: IB_QP_CREATE_*, e.g. IB_QP_CREATE_INTEGRITY_EN
 * @out: as for rw_qp()
 *
 * Return: the QP, as for rw_qp().
 */
struct ib_qp *rw_qp_flags(struct rw_env *env, u32 max_send_sge,
			  u32 max_rdma_ctxs, u32 create_flags,
			  struct ib_qp_init_attr *out)
{
	struct ib_qp_init_attr attr = {
		.create_flags = create_flags,
		.send_cq = env->cq,
		.recv_cq = env->cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.port_num = RW_PORT,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 4,
			.max_send_sge = max_send_sge,
			.max_recv_sge = 1,
			.max_rdma_ctxs = max_rdma_ctxs,
		},
	};
	struct ib_qp *qp = ib_create_qp(env->pd, &attr);

	if (out)
		*out = attr;
	KUNIT_ASSERT_NOT_ERR_OR_NULL(env->test, qp);
	return qp;
}
EXPORT_SYMBOL_GPL(rw_qp_flags);

/**
 * rw_list_len - the MRs on one of a QP's MR lists (an MR pool)
 * @qp: the QP
 * @list: the list, under qp->mr_lock
 *
 * Return: how many there are.
 */
int rw_list_len(struct ib_qp *qp, struct list_head *list)
{
	struct ib_mr *mr;
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&qp->mr_lock, flags);
	list_for_each_entry(mr, list, qp_entry)
		n++;
	spin_unlock_irqrestore(&qp->mr_lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(rw_list_len);
