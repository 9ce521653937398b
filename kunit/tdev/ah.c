// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: address handles, and the GRH that a UD message sent
 * with one carries to its receiver.
 *
 * An AH keeps its own copy of the address vector and of its source GID
 * (the hardware's address vector): the core's GID reference may change
 * with modify_ah while the engine reads the AH.
 *
 * Locking: ah->lock (IRQ-safe, a leaf) protects the address vector and
 * the source GID, written by create_ah and modify_ah, read by the engine.
 * The consumer keeps the AH alive while work requests use it.
 */
#include "tdev_priv.h"

/**
 * struct tv_ah - an address handle
 * @ibah: the core's AH
 * @lock: protects @attr, @sgid and @has_sgid
 * @attr: the address vector, without a GID reference
 * @sgid: the source GID of a GRH
 * @has_sgid: the AV names a source GID entry
 */
struct tv_ah {
	struct ib_ah ibah;
	spinlock_t lock;
	struct rdma_ah_attr attr;
	union ib_gid sgid;
	bool has_sgid;
};

static struct tv_ah *to_tah(struct ib_ah *ibah)
{
	return container_of(ibah, struct tv_ah, ibah);
}

/* Takes in an address vector; the core holds its GID entry meanwhile. */
static void tv_ah_set(struct tv_ah *ah, const struct rdma_ah_attr *attr)
{
	const struct ib_gid_attr *sgid = attr->grh.sgid_attr;
	unsigned long flags;

	spin_lock_irqsave(&ah->lock, flags);
	ah->attr = *attr;
	ah->attr.grh.sgid_attr = NULL;
	ah->has_sgid = (attr->ah_flags & IB_AH_GRH) && sgid;
	if (ah->has_sgid)
		ah->sgid = sgid->gid;
	spin_unlock_irqrestore(&ah->lock, flags);
}

/**
 * tv_ah_fill_grh - write the GRH of a UD message into the receiver's room
 * @grh: the first 40 bytes of the receive buffer
 * @ibah: the AH the message was sent with
 * @len: the payload length
 *
 * Return: true if the AH has a GRH (and @grh was written).
 */
bool tv_ah_fill_grh(void *grh, struct ib_ah *ibah, u32 len)
{
	struct tv_ah *ah = to_tah(ibah);
	struct ib_grh *g = grh;
	unsigned long flags;
	bool has_grh;

	spin_lock_irqsave(&ah->lock, flags);
	has_grh = rdma_ah_get_ah_flags(&ah->attr) & IB_AH_GRH;
	if (has_grh) {
		memset(g, 0, sizeof(*g));
		g->version_tclass_flow =
			cpu_to_be32(6 << 28 | ah->attr.grh.traffic_class << 20 |
				    ah->attr.grh.flow_label);
		g->paylen = cpu_to_be16(len);
		g->next_hdr = 0x1b;
		g->hop_limit = ah->attr.grh.hop_limit;
		if (ah->has_sgid)
			g->sgid = ah->sgid;
		g->dgid = ah->attr.grh.dgid;
	}
	spin_unlock_irqrestore(&ah->lock, flags);
	return has_grh;
}

static int tv_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct tv_ah *ah = to_tah(ibah);

	/* Like hardware without a user ABI of its own: empty driver data. */
	if (udata && (udata->inlen || udata->outlen))
		return -EOPNOTSUPP;
	if (!rdma_is_port_valid(ibah->device,
				rdma_ah_get_port_num(init->ah_attr)))
		return -EINVAL;
	spin_lock_init(&ah->lock);
	tv_ah_set(ah, init->ah_attr);
	return 0;
}

static int tv_modify_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	if (!rdma_is_port_valid(ibah->device, rdma_ah_get_port_num(attr)))
		return -EINVAL;
	tv_ah_set(to_tah(ibah), attr);
	return 0;
}

static int tv_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

static int tv_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct tv_ah *ah = to_tah(ibah);
	unsigned long flags;

	spin_lock_irqsave(&ah->lock, flags);
	*attr = ah->attr;
	spin_unlock_irqrestore(&ah->lock, flags);
	return 0;
}

const struct ib_device_ops tdev_ah_ops = {
	.create_ah = tv_create_ah,
	.create_user_ah = tv_create_ah,
	.modify_ah = tv_modify_ah,
	.destroy_ah = tv_destroy_ah,
	.query_ah = tv_query_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, tv_ah, ibah),
};
