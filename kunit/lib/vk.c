// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: the fixture of the verbs and data-path suites, and the
 * CQs and QPs they make on it (vk.h).
 *
 * A suite sets .init = vk_init (or its own wrapper of vk_init_with()) and
 * .exit = vk_exit; each case then finds its device and PD in test->priv.
 * Everything else a case makes is the case's to free, before vk_exit().
 */
#include <linux/delay.h>
#include "vk.h"

/**
 * vk_init - the fixture on a test device with the default parameters
 * @test: the case
 *
 * Return: 0, or the errno that fails the case before it runs.
 */
int vk_init(struct kunit *test)
{
	return vk_init_with(test, NULL);
}
EXPORT_SYMBOL_GPL(vk_init);

/**
 * vk_init_with - the fixture on a test device made with @params
 * @test: the case; test->priv gets a struct vk
 * @params: how to make the device (NULL: the defaults)
 *
 * Return: 0, or the errno that fails the case before it runs.
 */
int vk_init_with(struct kunit *test, const struct tdev_params *params)
{
	struct vk *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);

	if (!v)
		return -ENOMEM;
	v->td = tdev_create_registered(params);
	if (IS_ERR(v->td))
		return PTR_ERR(v->td);
	v->dev = &v->td->ibdev;
	v->pd = ib_alloc_pd(v->dev, 0);
	if (IS_ERR(v->pd)) {
		tdev_destroy(v->td);
		return PTR_ERR(v->pd);
	}
	test->priv = v;
	return 0;
}
EXPORT_SYMBOL_GPL(vk_init_with);

/**
 * vk_reinit - the fixture again, on a test device made with @params
 * @test: the case; it fails if the device cannot be made
 * @params: how to make the device
 *
 * For a case that needs another kind of device than its suite's: the
 * suite's fixture is freed first, and .exit frees the new one.
 */
void vk_reinit(struct kunit *test, const struct tdev_params *params)
{
	vk_exit(test);
	test->priv = NULL;
	KUNIT_ASSERT_EQ(test, vk_init_with(test, params), 0);
}
EXPORT_SYMBOL_GPL(vk_reinit);

/**
 * vk_exit - free the fixture of vk_init() or vk_init_with()
 * @test: the case
 */
void vk_exit(struct kunit *test)
{
	struct vk *v = test->priv;

	if (!v)
		return;
	ib_dealloc_pd(v->pd);
	tdev_destroy(v->td);
}
EXPORT_SYMBOL_GPL(vk_exit);

/**
 * vk_cq - a CQ on the fixture's device (ib_alloc_cq(), vector 0)
 * @test: the case; it fails if the CQ cannot be made
 * @cqe: its size
 * @ctx: how it is polled
 *
 * Return: the CQ; the case frees it with ib_free_cq().
 */
struct ib_cq *vk_cq(struct kunit *test, int cqe, enum ib_poll_context ctx)
{
	struct vk *v = test->priv;
	struct ib_cq *cq = ib_alloc_cq(v->dev, NULL, cqe, 0, ctx);

	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	return cq;
}
EXPORT_SYMBOL_GPL(vk_cq);

/**
 * vk_qp - a QP in the fixture's PD, on port 1
 * @test: the case; it fails if the QP cannot be made
 * @type: its type
 * @scq: its send CQ
 * @rcq: its receive CQ
 * @srq: its SRQ, or NULL for a receive queue of its own
 *
 * 32 send and (without @srq) 32 receive work requests of 4 SGEs each;
 * only the signaled send work requests complete.
 *
 * Return: the QP, in Reset; the case destroys it with ib_destroy_qp().
 */
struct ib_qp *vk_qp(struct kunit *test, enum ib_qp_type type,
		    struct ib_cq *scq, struct ib_cq *rcq, struct ib_srq *srq)
{
	struct vk *v = test->priv;
	struct ib_qp_init_attr ia = {
		.qp_type = type,
		.send_cq = scq,
		.recv_cq = rcq,
		.srq = srq,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 32, .max_recv_wr = srq ? 0 : 32,
			 .max_send_sge = 4, .max_recv_sge = 4 },
		.port_num = 1,
	};
	struct ib_qp *qp = ib_create_qp(v->pd, &ia);

	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	return qp;
}
EXPORT_SYMBOL_GPL(vk_qp);

/**
 * vk_qp_alone - a QP with a CQ of its own for both its queues
 * @test: the case; it fails if either cannot be made
 * @type: the QP's type
 *
 * vk_qp() on a vk_cq() of 64 entries polled directly (IB_POLL_DIRECT).
 *
 * Return: the QP, in Reset; the case frees it and its CQ with
 * vk_qp_alone_free().
 */
struct ib_qp *vk_qp_alone(struct kunit *test, enum ib_qp_type type)
{
	struct ib_cq *cq = vk_cq(test, 64, IB_POLL_DIRECT);

	return vk_qp(test, type, cq, cq, NULL);
}
EXPORT_SYMBOL_GPL(vk_qp_alone);

/**
 * vk_qp_alone_free - destroy a QP of vk_qp_alone(), then its CQ
 * @test: the case; it fails if the QP is not destroyed
 * @qp: the QP
 */
void vk_qp_alone_free(struct kunit *test, struct ib_qp *qp)
{
	struct ib_cq *cq = qp->send_cq;

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}
EXPORT_SYMBOL_GPL(vk_qp_alone_free);

/**
 * vk_connect - move a QP from Reset to RTS
 * @qp: an RC or UC QP, connected to QP number @dest on port 1 (LID 1); or
 *	a UD QP, which takes Q_Key VK_QKEY
 * @dest: the peer's QP number (RC, UC)
 *
 * Return: 0, or the error of the ib_modify_qp() that failed.
 */
int vk_connect(struct ib_qp *qp, u32 dest)
{
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT, .port_num = 1, .pkey_index = 0,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
		.qkey = VK_QKEY,
	};
	int init_mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;
	int ret;

	init_mask |= qp->qp_type == IB_QPT_UD ? IB_QP_QKEY : IB_QP_ACCESS_FLAGS;
	ret = ib_modify_qp(qp, &a, init_mask);
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	if (qp->qp_type == IB_QPT_UD) {
		ret = ib_modify_qp(qp, &a, IB_QP_STATE);
	} else {
		a.path_mtu = IB_MTU_4096;
		a.dest_qp_num = dest;
		a.rq_psn = 1;
		a.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
		rdma_ah_set_port_num(&a.ah_attr, 1);
		rdma_ah_set_dlid(&a.ah_attr, 1);
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 1;
		ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV |
				   IB_QP_PATH_MTU | IB_QP_DEST_QPN |
				   IB_QP_RQ_PSN |
				   (qp->qp_type == IB_QPT_RC ?
				    IB_QP_MAX_DEST_RD_ATOMIC |
				    IB_QP_MIN_RNR_TIMER : 0));
	}
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = 1;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN |
			    (qp->qp_type == IB_QPT_RC ?
			     IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			     IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC : 0));
}
EXPORT_SYMBOL_GPL(vk_connect);

/**
 * vk_poll_wait - poll a CQ until it gave @n completions, or VK_WAIT_MS
 * @cq: the CQ
 * @n: the completions wanted
 * @wc: room for @n completions
 *
 * Return: the number of completions polled into @wc (at most @n).
 */
int vk_poll_wait(struct ib_cq *cq, int n, struct ib_wc *wc)
{
	unsigned long end = jiffies + msecs_to_jiffies(VK_WAIT_MS);
	int got = 0, ret;

	while (got < n) {
		ret = ib_poll_cq(cq, n - got, wc + got);
		if (ret < 0)
			break;
		got += ret;
		if (got == n || time_after(jiffies, end))
			break;
		if (!ret)
			usleep_range(50, 200);
	}
	return got;
}
EXPORT_SYMBOL_GPL(vk_poll_wait);

/**
 * vk_poll_exact - poll exactly @n completions of a CQ
 * @test: the case; it fails if fewer arrive in VK_WAIT_MS, or if another
 *	one arrives within 20 ms after them
 * @cq: the CQ
 * @wc: room for @n completions
 * @n: how many
 */
void vk_poll_exact(struct kunit *test, struct ib_cq *cq, struct ib_wc *wc,
		   int n)
{
	struct ib_wc extra;

	KUNIT_ASSERT_EQ(test, vk_poll_wait(cq, n, wc), n);
	msleep(20);
	KUNIT_ASSERT_EQ_MSG(test, ib_poll_cq(cq, 1, &extra), 0,
			    "unexpected completion: wr_id %llu status %d",
			    extra.wr_id, extra.status);
}
EXPORT_SYMBOL_GPL(vk_poll_exact);

/**
 * vk_state - the state of a QP as ib_query_qp() gives it
 * @qp: the QP
 *
 * Return: the state, or -1 if the query failed.
 */
enum ib_qp_state vk_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr ia;
	struct ib_qp_attr a;

	if (ib_query_qp(qp, &a, IB_QP_STATE, &ia))
		return -1;
	return a.qp_state;
}
EXPORT_SYMBOL_GPL(vk_state);
