// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: receive work queues (params.wq).
 *
 * The "hardware" keeps a WQ's number and the size it granted; a WQ is a
 * receive queue of its own with nothing posted to it here (no RSS QPs in
 * the double).  The driver allocates a WQ and frees it, as the core's
 * create_wq/destroy_wq contract has it.
 *
 * Locking: none; the owner of a WQ serialises its life.  The device's
 * count of WQs is atomic.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include "tdev_priv.h"

/* WQ numbers, in their own space as hardware has it. */
static atomic_t tv_wqn_seq = ATOMIC_INIT(0);

static struct ib_wq *tv_create_wq(struct ib_pd *pd,
				  struct ib_wq_init_attr *attr,
				  struct ib_udata *udata)
{
	struct ib_wq *wq;

	if (udata || attr->wq_type != IB_WQT_RQ || attr->create_flags)
		return ERR_PTR(-EOPNOTSUPP);
	if (!attr->max_wr || attr->max_wr > TV_MAX_WR ||
	    attr->max_sge > TV_MAX_SGE)
		return ERR_PTR(-EINVAL);
	wq = kzalloc(sizeof(*wq), GFP_KERNEL);
	if (!wq)
		return ERR_PTR(-ENOMEM);
	/* The queue is a power of two long */
	attr->max_wr = roundup_pow_of_two(attr->max_wr);
	wq->wq_num = atomic_inc_return(&tv_wqn_seq);
	wq->state = IB_WQS_RESET;
	atomic_inc(&to_tdev(pd->device)->nwqs);
	return wq;
}

static int tv_destroy_wq(struct ib_wq *wq, struct ib_udata *udata)
{
	struct tdev *td = to_tdev(wq->device);

	if (test_bit(TDEV_FAIL_DESTROY_WQ, &td->fail))
		return -EIO;
	atomic_dec(&td->nwqs);
	kfree(wq);
	return 0;
}

const struct ib_device_ops tdev_wq_ops = {
	.create_wq = tv_create_wq,
	.destroy_wq = tv_destroy_wq,
};
