/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address handles: an address vector, and the number by which a user's
 * UD work requests name it (rdma-core's rxe provider puts it in the WQE).
 */
#ifndef SR_AH_H
#define SR_AH_H

#include <rdma/ib_verbs.h>
#include "av.h"

/* The most AHs a device has (max_ah) */
#define SR_MAX_AH	(1 << 15)

/**
 * struct sr_ah - an address handle
 * @ibah: the core's (the core allocates the whole: INIT_RDMA_OBJ_SIZE)
 * @av: where it points
 * @num: its number in the device's table (sr_dev.ahs), 1 to SR_MAX_AH
 */
struct sr_ah {
	struct ib_ah ibah;
	struct sr_av av;
	u32 num;
};

int sr_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		 struct ib_udata *udata);
int sr_destroy_ah(struct ib_ah *ibah, u32 flags);

#endif /* SR_AH_H */
