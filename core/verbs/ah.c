// SPDX-License-Identifier: GPL-2.0
/*
 * Address handles and address vectors (struct rdma_ah_attr).
 *
 * Ownership: an rdma_ah_attr with a non-NULL grh.sgid_attr owns one
 * reference on that GID entry; rdma_destroy_ah_attr() drops it, and the
 * copy/move/replace helpers keep the count right.  An AH owns a reference
 * on its source GID entry (ah->sgid_attr) and a usecnt on its PD.  AH
 * creation may run in atomic context unless RDMA_CREATE_AH_SLEEPABLE says
 * otherwise, so nothing here sleeps without that flag.  No locks: an AH is
 * used by one owner, who serialises create, modify and destroy.
 */
#include "abi/ib_core/verbs.h"
#include "netdev/internal.h"
#include "verbs/internal.h"

/* See verbs/internal.h. */
int ah_sgid_attr_fill(struct ib_device *dev, struct rdma_ah_attr *attr,
			 const struct ib_gid_attr **taken)
{
	const struct ib_gid_attr *gattr;
	u32 port = rdma_ah_get_port_num(attr);

	*taken = NULL;
	if (attr->type == RDMA_AH_ATTR_TYPE_ROCE &&
	    !(attr->ah_flags & IB_AH_GRH))
		return -EINVAL;
	if (!(attr->ah_flags & IB_AH_GRH))
		return 0;

	gattr = attr->grh.sgid_attr;
	if (gattr) {
		/* A caller-supplied entry must be the one the AV names */
		if (gattr->device != dev || gattr->port_num != port ||
		    gattr->index != attr->grh.sgid_index)
			return -EINVAL;
		return 0;
	}

	if (!rdma_is_port_valid(dev, port))
		return -EINVAL;
	gattr = rdma_get_gid_attr(dev, port, attr->grh.sgid_index);
	if (IS_ERR(gattr))
		return PTR_ERR(gattr);
	attr->grh.sgid_attr = gattr;
	*taken = gattr;
	return 0;
}

/* See verbs/internal.h. */
void ah_sgid_attr_unfill(struct rdma_ah_attr *attr,
			    const struct ib_gid_attr *taken)
{
	if (!taken)
		return;
	rdma_put_gid_attr(taken);
	attr->grh.sgid_attr = NULL;
}

/* See verbs/internal.h. */
const struct ib_gid_attr *ah_sgid_attr_swap(const struct rdma_ah_attr *attr,
					       const struct ib_gid_attr *cur)
{
	const struct ib_gid_attr *next = NULL;

	if (attr->ah_flags & IB_AH_GRH)
		next = attr->grh.sgid_attr;
	if (next)
		rdma_hold_gid_attr(next);
	if (cur)
		rdma_put_gid_attr(cur);
	return next;
}

/*
 * Create an AH for rdma_create_ah() and rdma_create_user_ah(): a user's
 * (@udata set) RoCE vector gets its destination MAC resolved here, a
 * kernel caller's comes resolved (as rdma_cm's do).
 */
static struct ib_ah *ah_create(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			       u32 flags, struct ib_udata *udata)
{
	struct ib_device *dev = pd->device;
	bool sleepable = flags & RDMA_CREATE_AH_SLEEPABLE;
	const struct ib_gid_attr *taken;
	struct rdma_ah_init_attr init = { .ah_attr = ah_attr, .flags = flags };
	struct ib_ah *ah;
	int ret;

	might_sleep_if(sleepable);
	if (!dev->ops.create_ah || !dev->ops.destroy_ah)
		return ERR_PTR(-EOPNOTSUPP);

	ret = ah_sgid_attr_fill(dev, ah_attr, &taken);
	if (ret)
		return ERR_PTR(ret);
	if (udata && ah_attr->type == RDMA_AH_ATTR_TYPE_ROCE) {
		ret = roce_resolve_dmac(ah_attr);
		if (ret)
			goto out;
	}

	ah = rdma_zalloc_drv_obj_gfp(dev, ib_ah,
				     sleepable ? GFP_KERNEL : GFP_ATOMIC);
	if (!ah) {
		ret = -ENOMEM;
		goto out;
	}
	ah->device = dev;
	ah->pd = pd;
	ah->type = ah_attr->type;
	ah->sgid_attr = ah_sgid_attr_swap(ah_attr, NULL);

	ret = dev->ops.create_ah(ah, &init, udata);
	if (ret) {
		if (ah->sgid_attr)
			rdma_put_gid_attr(ah->sgid_attr);
		kfree(ah);
		goto out;
	}
	atomic_inc(&pd->usecnt);
out:
	ah_sgid_attr_unfill(ah_attr, taken);
	return ret ? ERR_PTR(ret) : ah;
}

/**
 * rdma_create_ah() - create an address handle
 * @pd: the protection domain of the AH
 * @ah_attr: the address vector; if it has a GRH without a source GID
 *	attribute, the entry at grh.sgid_index is used; a RoCE vector comes
 *	with its destination MAC
 * @flags: RDMA_CREATE_AH_SLEEPABLE if the caller may sleep
 *
 * Return: the AH, or an ERR_PTR(): -EOPNOTSUPP if the device has no
 * address handles, -EINVAL for a bad address vector, -ENOMEM, or the
 * driver's error.
 */
struct ib_ah *rdma_create_ah(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			     u32 flags)
{
	return ah_create(pd, ah_attr, flags, NULL);
}
EXPORT_SYMBOL(rdma_create_ah);

/**
 * rdma_create_user_ah() - create an address handle for userspace
 * @pd: the protection domain of the AH
 * @ah_attr: the address vector, as for rdma_create_ah(); the destination
 *	MAC of a RoCE vector is resolved from its destination GID
 * @udata: the user's driver data
 *
 * Sleeps.
 *
 * Return: the AH, or an ERR_PTR() as for rdma_create_ah(), or the error
 * of resolving a RoCE destination (-EHOSTUNREACH, -ENODEV).
 */
struct ib_ah *rdma_create_user_ah(struct ib_pd *pd,
				  struct rdma_ah_attr *ah_attr,
				  struct ib_udata *udata)
{
	return ah_create(pd, ah_attr, RDMA_CREATE_AH_SLEEPABLE, udata);
}
EXPORT_SYMBOL(rdma_create_user_ah);

/**
 * rdma_destroy_ah_user() - destroy an address handle
 * @ah: the AH
 * @flags: RDMA_DESTROY_AH_SLEEPABLE if the caller may sleep
 * @udata: the user's buffer, NULL for kernel AHs
 *
 * Return: 0, or the driver's error, in which case the AH still exists.
 */
int rdma_destroy_ah_user(struct ib_ah *ah, u32 flags, struct ib_udata *udata)
{
	struct ib_pd *pd = ah->pd;
	int ret;

	might_sleep_if(flags & RDMA_DESTROY_AH_SLEEPABLE);
	ret = ah->device->ops.destroy_ah(ah, flags);
	if (ret)
		return ret;

	atomic_dec(&pd->usecnt);
	if (ah->sgid_attr)
		rdma_put_gid_attr(ah->sgid_attr);
	kfree(ah);
	return 0;
}
EXPORT_SYMBOL(rdma_destroy_ah_user);

/**
 * rdma_modify_ah() - change the address vector of an address handle
 * @ah: the AH
 * @ah_attr: the new address vector
 *
 * Return: 0, -EOPNOTSUPP if the device cannot modify AHs, -EINVAL for a
 * bad address vector, or the driver's error.
 */
int rdma_modify_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *taken;
	int ret;

	if (!ah->device->ops.modify_ah)
		return -EOPNOTSUPP;
	if (ah_attr->type != ah->type)
		return -EINVAL;

	ret = ah_sgid_attr_fill(ah->device, ah_attr, &taken);
	if (ret)
		return ret;
	ret = ah->device->ops.modify_ah(ah, ah_attr);
	if (!ret)
		ah->sgid_attr = ah_sgid_attr_swap(ah_attr, ah->sgid_attr);
	ah_sgid_attr_unfill(ah_attr, taken);
	return ret;
}
EXPORT_SYMBOL(rdma_modify_ah);

/**
 * rdma_query_ah() - read the address vector of an address handle
 * @ah: the AH
 * @ah_attr: filled with the address vector; its source GID attribute is
 *	the AH's own, valid while the AH exists, and not referenced for the
 *	caller
 *
 * Return: 0, -EOPNOTSUPP if the device cannot query AHs, or the driver's
 * error.
 */
int rdma_query_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr)
{
	int ret;

	if (!ah->device->ops.query_ah)
		return -EOPNOTSUPP;
	ah_attr->grh.sgid_attr = NULL;
	ret = ah->device->ops.query_ah(ah, ah_attr);
	if (!ret && (ah_attr->ah_flags & IB_AH_GRH))
		ah_attr->grh.sgid_attr = ah->sgid_attr;
	return ret;
}
EXPORT_SYMBOL(rdma_query_ah);

/**
 * rdma_destroy_ah_attr() - release the GID reference of an address vector
 * @ah_attr: the address vector
 *
 * Safe to call on an address vector without a source GID attribute and to
 * call twice.
 */
void rdma_destroy_ah_attr(struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *held = ah_attr->grh.sgid_attr;

	if (!held)
		return;
	ah_attr->grh.sgid_attr = NULL;
	rdma_put_gid_attr(held);
}
EXPORT_SYMBOL(rdma_destroy_ah_attr);

/**
 * rdma_copy_ah_attr() - copy an address vector
 * @dest: the destination; whatever it held is overwritten, not released
 * @src: the source
 *
 * @dest gets its own reference on the source GID attribute.
 */
void rdma_copy_ah_attr(struct rdma_ah_attr *dest,
		       const struct rdma_ah_attr *src)
{
	memcpy(dest, src, sizeof(*dest));
	if (src->grh.sgid_attr)
		rdma_hold_gid_attr(src->grh.sgid_attr);
}
EXPORT_SYMBOL(rdma_copy_ah_attr);

/**
 * rdma_replace_ah_attr() - overwrite an address vector with a copy
 * @old: the address vector to release and overwrite
 * @new: the address vector to copy
 *
 * The new reference is taken before the old one is dropped, so replacing a
 * vector with one naming the same GID entry never frees it in between.
 */
void rdma_replace_ah_attr(struct rdma_ah_attr *old,
			  const struct rdma_ah_attr *new)
{
	const struct ib_gid_attr *prev = old->grh.sgid_attr;

	rdma_copy_ah_attr(old, new);
	if (prev)
		rdma_put_gid_attr(prev);
}
EXPORT_SYMBOL(rdma_replace_ah_attr);

/**
 * rdma_move_ah_attr() - move an address vector and its GID reference
 * @dest: the destination; what it held is released
 * @src: the source; it keeps its fields but no longer owns a reference
 */
void rdma_move_ah_attr(struct rdma_ah_attr *dest, struct rdma_ah_attr *src)
{
	const struct ib_gid_attr *prev = dest->grh.sgid_attr;

	memcpy(dest, src, sizeof(*dest));
	src->grh.sgid_attr = NULL;
	if (prev)
		rdma_put_gid_attr(prev);
}
EXPORT_SYMBOL(rdma_move_ah_attr);

/**
 * rdma_move_grh_sgid_attr - set a vector's GRH, giving it a GID reference
 * @attr: the vector; it gets IB_AH_GRH
 * @dgid: the destination GID
 * @flow_label: the flow label
 * @hop_limit: the hop limit
 * @traffic_class: the traffic class
 * @sgid_attr: the source GID's attributes, whose slot becomes the GRH's
 *	source GID index; the caller's reference on them passes to @attr
 *	(rdma_destroy_ah_attr() releases it)
 */
void rdma_move_grh_sgid_attr(struct rdma_ah_attr *attr, union ib_gid *dgid,
	u32 flow_label, u8 hop_limit, u8 traffic_class,
	const struct ib_gid_attr *sgid_attr)
{
	u8 slot = sgid_attr->index;

	rdma_ah_set_grh(attr, dgid, flow_label, slot, hop_limit, traffic_class);
	attr->grh.sgid_attr = sgid_attr;
}
EXPORT_SYMBOL(rdma_move_grh_sgid_attr);

/*
 * The port's GID entry a RoCE packet was sent to: @dgid of @type on the
 * netdev the packet arrived through, which the completion's VLAN names (a
 * VLAN device, or the port's own netdev without one).  Held.
 */
static const struct ib_gid_attr *
wc_roce_sgid_attr(struct ib_device *dev, u32 port, const struct ib_wc *wc,
		  const union ib_gid *dgid, enum ib_gid_type type)
{
	u16 want = wc->wc_flags & IB_WC_WITH_VLAN ? wc->vlan_id : 0xffff;
	int i, len = dev->port_data[port].immutable.gid_tbl_len;
	const struct ib_gid_attr *attr;
	u16 vlan;

	for (i = 0; i < len; i++) {
		attr = rdma_get_gid_attr(dev, port, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == type &&
		    !memcmp(&attr->gid, dgid, sizeof(*dgid)) &&
		    !rdma_read_gid_l2_fields(attr, &vlan, NULL) &&
		    vlan == want)
			return attr;
		rdma_put_gid_attr(attr);
	}
	return ERR_PTR(-ENOENT);
}

/**
 * ib_init_ah_attr_from_wc() - build the address vector of a reply
 * @device: the device the message arrived on
 * @port_num: the port it arrived on
 * @wc: its work completion
 * @grh: its global route or network header (the first 40 bytes of the
 *	receive buffer of a UD QP), used when @wc has IB_WC_GRH
 * @ah_attr: filled with a vector back to the sender
 *
 * On success @ah_attr holds a reference on its source GID attribute when
 * it has a GRH: release it with rdma_destroy_ah_attr().
 *
 * On a RoCE port, the source GID is the entry of the packet's destination
 * GID on the netdev the packet came through (its VLAN), and the vector's
 * destination MAC is resolved: this sleeps.
 *
 * Return: 0, -EINVAL for a bad port or network type, -EPROTOTYPE for a
 * RoCE completion without a network header, the GID lookup's error when
 * the destination GID of the packet is not one of the port's, or the
 * error of resolving a RoCE destination.
 */
int ib_init_ah_attr_from_wc(struct ib_device *device, u32 port_num,
			    const struct ib_wc *wc, const struct ib_grh *grh,
			    struct rdma_ah_attr *ah_attr)
{
	enum rdma_network_type net;
	const struct ib_gid_attr *gattr;
	union ib_gid sgid, dgid;
	u32 flow;
	int ret;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);
	rdma_ah_set_port_num(ah_attr, port_num);
	rdma_ah_set_sl(ah_attr, wc->sl);
	if (ah_attr->type != RDMA_AH_ATTR_TYPE_ROCE) {
		rdma_ah_set_dlid(ah_attr, wc->slid);
		rdma_ah_set_path_bits(ah_attr, wc->dlid_path_bits);
		if (!(wc->wc_flags & IB_WC_GRH))
			return 0;
	} else if (!(wc->wc_flags & IB_WC_GRH)) {
		return -EPROTOTYPE;
	}

	net = net_hdr_type(device, port_num, wc, grh);
	ret = ib_get_gids_from_rdma_hdr((const void *)grh, net, &sgid, &dgid);
	if (ret)
		return ret;

	/* Our source GID is the one the packet was sent to */
	if (ah_attr->type == RDMA_AH_ATTR_TYPE_ROCE)
		gattr = wc_roce_sgid_attr(device, port_num, wc, &dgid,
					  ib_network_to_gid_type(net));
	else
		gattr = rdma_find_gid_by_port(device, &dgid,
					      ib_network_to_gid_type(net),
					      port_num, NULL);
	if (IS_ERR(gattr))
		return PTR_ERR(gattr);

	flow = be32_to_cpu(grh->version_tclass_flow);
	ah_attr->ah_flags = IB_AH_GRH;
	ah_attr->grh.dgid = sgid;
	ah_attr->grh.flow_label = flow & 0xfffff;
	ah_attr->grh.traffic_class = (flow >> 20) & 0xff;
	ah_attr->grh.hop_limit = 0xff;
	ah_attr->grh.sgid_index = gattr->index;
	ah_attr->grh.sgid_attr = gattr;
	if (ah_attr->type != RDMA_AH_ATTR_TYPE_ROCE)
		return 0;
	/* Back to the sender: where the packet came from on the wire. */
	ret = roce_resolve_dmac(ah_attr);
	if (ret)
		rdma_destroy_ah_attr(ah_attr);
	return ret;
}
EXPORT_SYMBOL(ib_init_ah_attr_from_wc);

/**
 * ib_create_ah_from_wc() - create an address handle back to a sender
 * @pd: the protection domain of the AH
 * @wc: the work completion of the received message
 * @grh: its global route or network header
 * @port_num: the port it arrived on
 *
 * May sleep.
 *
 * Return: the AH or an ERR_PTR() (see ib_init_ah_attr_from_wc() and
 * rdma_create_ah()).
 */
struct ib_ah *ib_create_ah_from_wc(struct ib_pd *pd, const struct ib_wc *wc,
				   const struct ib_grh *grh, u32 port_num)
{
	struct rdma_ah_attr attr;
	struct ib_ah *ah;
	int ret;

	ret = ib_init_ah_attr_from_wc(pd->device, port_num, wc, grh, &attr);
	if (ret)
		return ERR_PTR(ret);

	ah = rdma_create_ah(pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	rdma_destroy_ah_attr(&attr);
	return ah;
}
EXPORT_SYMBOL(ib_create_ah_from_wc);
