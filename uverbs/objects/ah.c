// SPDX-License-Identifier: GPL-2.0
/*
 * Address handles of a user context: write() CREATE_AH and DESTROY_AH,
 * ioctl() AH_DESTROY.  The core creates them (rdma_create_user_ah(),
 * which resolves a RoCE destination's MAC address and holds the source
 * GID entry) and holds a usecnt on the PD while they exist.
 */
#include "objects.h"

static int ah_free(struct ib_uobject *uobj, enum rdma_remove_reason why,
		   struct uverbs_attr_bundle *attrs)
{
	return rdma_destroy_ah_user(uobj->object, RDMA_DESTROY_AH_SLEEPABLE,
				    &attrs->driver_udata);
}

/* The address vector of a user's AH, as the kernel verbs take it. */
static void ah_attr_from_user(struct ib_device *dev,
			      struct ib_uverbs_ah_attr *u,
			      struct rdma_ah_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = rdma_ah_find_type(dev, u->port_num);
	rdma_ah_set_port_num(attr, u->port_num);
	rdma_ah_set_dlid(attr, u->dlid);
	rdma_ah_set_sl(attr, u->sl);
	rdma_ah_set_path_bits(attr, u->src_path_bits);
	rdma_ah_set_static_rate(attr, u->static_rate);
	rdma_ah_set_make_grd(attr, false);
	if (!u->is_global)
		return;
	rdma_ah_set_grh(attr, NULL, u->grh.flow_label, u->grh.sgid_index,
			u->grh.hop_limit, u->grh.traffic_class);
	rdma_ah_set_dgid_raw(attr, u->grh.dgid);
}

static struct ib_ah *ah_new(struct uverbs_attr_bundle *attrs,
			    struct ib_uobject *uobj,
			    struct ib_uverbs_create_ah *cmd)
{
	struct rdma_ah_attr attr;
	struct ib_ah *ah;
	struct ib_pd *pd;

	pd = objs_get_pd(attrs, cmd->pd_handle);
	if (IS_ERR(pd))
		return ERR_CAST(pd);
	ah_attr_from_user(pd->device, &cmd->attr, &attr);
	ah = rdma_create_user_ah(pd, &attr, &attrs->driver_udata);
	objs_put_pd(pd);
	if (!IS_ERR(ah))
		ah->uobject = uobj;
	return ah;
}

static int ah_create(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_ah_resp resp = {};
	struct ib_uverbs_create_ah cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_ah *ah;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uobj_alloc(UVERBS_OBJECT_AH, attrs, &dev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ah = rdma_is_port_valid(dev, cmd.attr.port_num) ?
	     ah_new(attrs, uobj, &cmd) : ERR_PTR(-EINVAL);
	if (IS_ERR(ah)) {
		uobj_alloc_abort(uobj, attrs);
		return PTR_ERR(ah);
	}
	uobj->user_handle = cmd.user_handle;
	uobj->object = ah;
	uobj_finalize_uobj_create(uobj, attrs);

	resp.ah_handle = uobj->id;
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static int ah_destroy(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_ah cmd;
	int ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));

	return ret ?: uobj_perform_destroy(UVERBS_OBJECT_AH, cmd.ah_handle,
					   attrs);
}

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	UVERBS_METHOD_AH_DESTROY,
	UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_AH_HANDLE, UVERBS_OBJECT_AH,
			UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(UVERBS_OBJECT_AH,
			    UVERBS_TYPE_ALLOC_IDR(ah_free),
			    &UVERBS_METHOD(UVERBS_METHOD_AH_DESTROY));

const struct uapi_definition uverbs_def_obj_ah[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_AH,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_ah)),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_AH,
		UVERBS_WRITE(IB_USER_VERBS_CMD_CREATE_AH, ah_create,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_create_ah,
						   struct ib_uverbs_create_ah_resp)),
		UVERBS_WRITE(IB_USER_VERBS_CMD_DESTROY_AH, ah_destroy,
			     UVERBS_WRITE_I(struct ib_uverbs_destroy_ah)),
		UAPI_DEF_OBJ_NEEDS_FN(create_user_ah),
		UAPI_DEF_OBJ_NEEDS_FN(destroy_ah)),
	{}
};
