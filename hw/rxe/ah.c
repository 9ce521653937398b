// SPDX-License-Identifier: GPL-2.0
/*
 * Address handles (ah.h).  Made and destroyed in any context: the core
 * says whether the caller may sleep (RDMA_CREATE_AH_SLEEPABLE).  The
 * device's table holds each AH's path by number; the data path reads it
 * under RCU (sr_ah_read()).
 */
#include <linux/slab.h>
#include <rdma/rdma_user_rxe.h>
#include "ah.h"
#include "dev.h"

/**
 * sr_create_ah - the create_ah verb (and create_user_ah)
 * @ibah: the AH the core allocated
 * @init: RoCE v2 attributes (sr_av_from_attr()); whether the caller may
 *	sleep
 * @udata: a user's (response struct rxe_create_ah_resp, when it has room:
 *	the AH's number), or NULL
 *
 * Context: any; process context if @init says sleepable.
 * Return: 0; -EINVAL for attributes that are not RoCE v2's or a device
 * that has max_ah AHs; -ENOMEM; -EFAULT.
 */
int sr_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		 struct ib_udata *udata)
{
	struct sr_dev *sdev = to_sr_dev(ibah->device);
	gfp_t gfp = init->flags & RDMA_CREATE_AH_SLEEPABLE ? GFP_KERNEL :
							     GFP_ATOMIC;
	struct rxe_create_ah_resp resp = {};
	struct sr_ah *ah = to_sr_ah(ibah);
	unsigned long flags;
	int ret;

	ah->path = kmalloc(sizeof(*ah->path), gfp);
	if (!ah->path)
		return -ENOMEM;
	ah->path->pd = ibah->pd;
	ret = sr_av_from_attr(&ah->path->av, init->ah_attr);
	if (ret)
		goto err;
	xa_lock_irqsave(&sdev->ahs, flags);
	ret = __xa_alloc(&sdev->ahs, &ah->num, ah->path,
			 XA_LIMIT(1, SR_MAX_AH), gfp);
	xa_unlock_irqrestore(&sdev->ahs, flags);
	if (ret) {
		ret = ret == -EBUSY ? -EINVAL : ret;
		goto err;
	}
	resp.ah_num = ah->num;
	if (udata && udata->outlen >= sizeof(resp) &&
	    ib_copy_to_udata(udata, &resp, sizeof(resp))) {
		sr_destroy_ah(ibah, 0);
		return -EFAULT;
	}
	return 0;

err:
	kfree(ah->path);
	return ret;
}

/**
 * sr_destroy_ah - the destroy_ah verb
 * @ibah: the AH
 * @flags: whether the caller may sleep (it need not)
 *
 * Context: any.
 * Return: 0.
 */
int sr_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct sr_dev *sdev = to_sr_dev(ibah->device);
	struct sr_ah *ah = to_sr_ah(ibah);
	unsigned long irqflags;

	xa_lock_irqsave(&sdev->ahs, irqflags);
	__xa_erase(&sdev->ahs, ah->num);
	xa_unlock_irqrestore(&sdev->ahs, irqflags);
	kfree_rcu(ah->path, rcu);
	return 0;
}

/**
 * sr_ah_read - the address vector of an AH, by number
 * @sdev: the device
 * @num: the AH's number, as a WQE gives it (untrusted)
 * @pd: the PD of the QP that uses it
 * @av: set to the AH's
 *
 * Context: any.
 * Return: 0, or -EINVAL: no AH has that number, or it is of another PD.
 */
int sr_ah_read(struct sr_dev *sdev, u32 num, const struct ib_pd *pd,
	       struct sr_av *av)
{
	const struct sr_ah_path *path;
	int ret = -EINVAL;

	rcu_read_lock();
	path = xa_load(&sdev->ahs, num);
	if (path && path->pd == pd) {
		*av = path->av;
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}
