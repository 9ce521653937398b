/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address handles: an address vector, and the number by which a user's
 * UD work requests name it (rdma-core's rxe provider puts it in the WQE).
 */
#ifndef SR_AH_H
#define SR_AH_H

#include <linux/rcupdate.h>
#include <rdma/ib_verbs.h>
#include "av.h"

/* The most AHs a device has (max_ah) */
#define SR_MAX_AH	(1 << 15)

/**
 * struct sr_ah_path - what the data path reads of an AH
 * @av: where it points
 * @pd: the AH's PD (a WQE may use only an AH of its QP's PD)
 * @rcu: frees it once no reader of the table can still see it
 *
 * Apart from the AH, which the core frees as soon as destroy_ah returns
 * (in any context: it cannot wait for readers), and constant.
 */
struct sr_ah_path {
	struct sr_av av;
	const struct ib_pd *pd;
	struct rcu_head rcu;
};

/**
 * struct sr_ah - an address handle
 * @ibah: the core's (the core allocates the whole: INIT_RDMA_OBJ_SIZE)
 * @path: its path, in the device's table (sr_dev.ahs) under @num
 * @num: its number, 1 to SR_MAX_AH
 */
struct sr_ah {
	struct ib_ah ibah;
	struct sr_ah_path *path;
	u32 num;
};

static inline struct sr_ah *to_sr_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct sr_ah, ibah);
}

struct sr_dev;

int sr_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		 struct ib_udata *udata);
int sr_destroy_ah(struct ib_ah *ibah, u32 flags);
int sr_ah_read(struct sr_dev *sdev, u32 num, const struct ib_pd *pd,
	       struct sr_av *av);

#endif /* SR_AH_H */
