// SPDX-License-Identifier: GPL-2.0
/*
 * Memory windows of a user context: write() ALLOC_MW and DEALLOC_MW,
 * ioctl() MW_DESTROY.  The core allocates a window (the driver's
 * size_ib_mw) and frees it after the driver's dealloc_mw; it holds a
 * usecnt on its PD.  Binding and invalidation go through the send queue.
 */
#include "objects.h"

static int mw_free(struct ib_uobject *uobj, enum rdma_remove_reason why,
		   struct uverbs_attr_bundle *attrs)
{
	struct ib_mw *mw = uobj->object;
	struct ib_pd *pd = mw->pd;
	int ret = mw->device->ops.dealloc_mw(mw);

	/* The driver's refusal leaves the window as it was. */
	if (!ret) {
		atomic_dec(&pd->usecnt);
		kfree(mw);
	}
	return ret;
}

static struct ib_mw *mw_new(struct ib_pd *pd, struct ib_uobject *uobj,
			    u8 type, struct ib_udata *udata)
{
	struct ib_device *dev = pd->device;
	struct ib_mw *mw;
	int ret;

	if (type != IB_MW_TYPE_1 && type != IB_MW_TYPE_2)
		return ERR_PTR(-EINVAL);
	mw = rdma_zalloc_drv_obj(dev, ib_mw);
	if (!mw)
		return ERR_PTR(-ENOMEM);
	mw->device = dev;
	mw->pd = pd;
	mw->uobject = uobj;
	mw->type = type;
	ret = dev->ops.alloc_mw(mw, udata);
	if (ret) {
		kfree(mw);
		return ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	return mw;
}

static int mw_alloc(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct ib_uverbs_alloc_mw cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_mw *mw;
	struct ib_pd *pd;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uobj_alloc(UVERBS_OBJECT_MW, attrs, &dev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd = objs_get_pd(attrs, cmd.pd_handle);
	if (IS_ERR(pd)) {
		uobj_alloc_abort(uobj, attrs);
		return PTR_ERR(pd);
	}
	mw = mw_new(pd, uobj, cmd.mw_type, &attrs->driver_udata);
	objs_put_pd(pd);
	if (IS_ERR(mw)) {
		uobj_alloc_abort(uobj, attrs);
		return PTR_ERR(mw);
	}
	uobj->object = mw;
	uobj_finalize_uobj_create(uobj, attrs);

	resp.mw_handle = uobj->id;
	resp.rkey = mw->rkey;
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static int mw_dealloc(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dealloc_mw cmd;
	int ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));

	return ret ?: uobj_perform_destroy(UVERBS_OBJECT_MW, cmd.mw_handle,
					   attrs);
}

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	UVERBS_METHOD_MW_DESTROY,
	UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_MW_HANDLE, UVERBS_OBJECT_MW,
			UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(UVERBS_OBJECT_MW,
			    UVERBS_TYPE_ALLOC_IDR(mw_free),
			    &UVERBS_METHOD(UVERBS_METHOD_MW_DESTROY));

const struct uapi_definition uverbs_def_obj_mw[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_MW,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_mw)),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_MW,
		UVERBS_WRITE(IB_USER_VERBS_CMD_ALLOC_MW, mw_alloc,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_alloc_mw,
						   struct ib_uverbs_alloc_mw_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(alloc_mw),
		UVERBS_WRITE(IB_USER_VERBS_CMD_DEALLOC_MW, mw_dealloc,
			     UVERBS_WRITE_I(struct ib_uverbs_dealloc_mw)),
		UAPI_DEF_METHOD_NEEDS_FN(dealloc_mw)),
	{}
};
