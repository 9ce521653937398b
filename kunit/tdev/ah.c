// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: address handles, and the GRH that a UD message sent
 * with one carries to its receiver.
 *
 * Locking: none.  An AH's address vector is written once by create_ah and
 * only read after; the core keeps the AH alive while work requests use it.
 */
#include "tdev_priv.h"

/* An address handle: its address vector, without a GID reference. */
struct tv_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

static const struct rdma_ah_attr *tv_ah_attr(const struct ib_ah *ibah)
{
	return &container_of(ibah, struct tv_ah, ibah)->attr;
}

/**
 * tv_ah_has_grh - whether a UD message sent with an AH carries a GRH
 * @ibah: the AH
 *
 * Return: true if its address vector has IB_AH_GRH.
 */
bool tv_ah_has_grh(const struct ib_ah *ibah)
{
	return rdma_ah_get_ah_flags(tv_ah_attr(ibah)) & IB_AH_GRH;
}

/**
 * tv_fill_grh - write the GRH of a UD message into the receiver's room
 * @grh: the first 40 bytes of the receive buffer
 * @ibah: the AH the message was sent with
 * @len: the payload length
 */
void tv_fill_grh(struct ib_grh *grh, const struct ib_ah *ibah, u32 len)
{
	const struct rdma_ah_attr *a = tv_ah_attr(ibah);

	memset(grh, 0, sizeof(*grh));
	grh->version_tclass_flow = cpu_to_be32(6 << 28 |
					       a->grh.traffic_class << 20 |
					       a->grh.flow_label);
	grh->paylen = cpu_to_be16(len);
	grh->next_hdr = 0x1b;
	grh->hop_limit = a->grh.hop_limit;
	if (ibah->sgid_attr)
		grh->sgid = ibah->sgid_attr->gid;
	grh->dgid = a->grh.dgid;
}

static int tv_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct tv_ah *ah = container_of(ibah, struct tv_ah, ibah);

	if (udata)
		return -EOPNOTSUPP;
	if (!rdma_is_port_valid(ibah->device,
				rdma_ah_get_port_num(init->ah_attr)))
		return -EINVAL;
	ah->attr = *init->ah_attr;
	ah->attr.grh.sgid_attr = NULL;
	return 0;
}

static int tv_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

static int tv_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = *tv_ah_attr(ibah);
	return 0;
}

const struct ib_device_ops tdev_ah_ops = {
	.create_ah = tv_create_ah,
	.destroy_ah = tv_destroy_ah,
	.query_ah = tv_query_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, tv_ah, ibah),
};
