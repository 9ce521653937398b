/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device: one ib_device over one Ethernet netdev, with one port.
 */
#ifndef SR_DEV_H
#define SR_DEV_H

#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/udp.h>
#include <rdma/ib_verbs.h>
#include "counters.h"
#include "wire.h"

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
 * @atomic_lock: (BH off) makes the responders' atomic operations atomic
 *	with each other (IB_ATOMIC_HCA: not with the CPU's own accesses)
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
	spinlock_t atomic_lock;
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

/*
 * The most header bytes around a payload of the path MTU: IPv6 (the longer
 * IP header), UDP, the BTH, RDMA WRITE Only with Immediate's RETH and
 * ImmDt (the most a packet with payload carries), the ICRC.  A full
 * payload is a multiple of four: no pad.
 */
#define SR_ROCE_OVERHEAD	(sizeof(struct ipv6hdr) + sizeof(struct udphdr) + \
				 SR_BTH_BYTES + sizeof(struct sr_reth) + 4 + \
				 SR_ICRC_BYTES)

/* The largest IB MTU whose packets fit a netdev MTU of @mtu, any of them. */
static inline enum ib_mtu sr_mtu_of(unsigned int mtu)
{
	enum ib_mtu m;

	for (m = IB_MTU_4096; m > IB_MTU_256; m--)
		if (ib_mtu_enum_to_int(m) + SR_ROCE_OVERHEAD <= mtu)
			break;
	return m;
}

/* The port's active MTU in bytes: the most payload a packet carries now. */
static inline unsigned int sr_dev_mtu(const struct sr_dev *sdev)
{
	return ib_mtu_enum_to_int(sr_mtu_of(READ_ONCE(sdev->ndev->mtu)));
}

#endif /* SR_DEV_H */
