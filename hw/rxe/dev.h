/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device: one ib_device over one Ethernet netdev, with one port.
 */
#ifndef SR_DEV_H
#define SR_DEV_H

#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>
#include "counters.h"

#define SR_PORT		1

/**
 * struct sr_dev - a soft RoCE device
 * @ibdev: the core's device (ib_alloc_device() wants it first)
 * @ndev: the netdev, held from the link's creation until the core frees
 *	the device (dealloc_driver); the device is unregistered when the
 *	netdev is
 * @ndev_tracker: that reference's tracker
 * @counters: the port's counters
 * @up: the port's state last reported (IB_EVENT_PORT_ACTIVE or _ERR);
 *	RTNL (the netdev notifier)
 * @n_pd: PDs the device has, at most its max_pd (sr_dev_take())
 * @n_cq: CQs, at most max_cq
 * @n_srq: SRQs, at most max_srq
 * @n_qp: QPs, at most max_qp
 * @qps: the QPs by number (their qp_num); its own lock, process context
 *	only (made and destroyed there)
 * @next_qpn: where the search for the next QP number starts (under
 *	@qps' lock: xa_alloc_cyclic())
 * @mrs: the MRs by index (their keys without the key byte), at most
 *	max_mr; its own lock, process context only
 * @ahs: the AHs by number (struct sr_ah.num), at most max_ah; its own
 *	lock, taken with interrupts off (AHs come and go in any context)
 *
 * The rest does not change after registration.
 */
struct sr_dev {
	struct ib_device ibdev;
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	struct sr_counters counters;
	bool up;
	atomic_t n_pd;
	atomic_t n_cq;
	atomic_t n_srq;
	atomic_t n_qp;
	struct xarray qps;
	u32 next_qpn;
	struct xarray mrs;
	struct xarray ahs;
};

static inline struct sr_dev *to_sr_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct sr_dev, ibdev);
}

/*
 * Counts one more object of a kind the device has at most @max of; false
 * (and nothing counted) if it has them all.  Any context.
 */
static inline bool sr_dev_take(atomic_t *n, unsigned int max)
{
	if (atomic_inc_return(n) <= max)
		return true;
	atomic_dec(n);
	return false;
}

int sr_dev_add(const char *name, struct net_device *ndev);
void sr_dev_netdev_event(struct sr_dev *sdev, unsigned long event);
unsigned int sr_dev_mtu(const struct sr_dev *sdev);

#endif /* SR_DEV_H */
