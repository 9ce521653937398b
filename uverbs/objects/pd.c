// SPDX-License-Identifier: GPL-2.0
/*
 * Protection domains of a user context: write() ALLOC_PD and DEALLOC_PD,
 * ioctl() PD_DESTROY.  The PD is listed by resource tracking with the
 * creating task.  A PD that objects still use (pd->usecnt) is not freed:
 * -EBUSY, and the teardown of the file frees it after them.
 */
#include "objects.h"

static int pd_free(struct ib_uobject *uobj, enum rdma_remove_reason why,
		   struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uobj->object;

	if (atomic_read(&pd->usecnt))
		return -EBUSY;
	return ib_dealloc_pd_user(pd, &attrs->driver_udata);
}

/* The driver's PD for @uobj; ERR_PTR() if it refuses. */
static struct ib_pd *pd_new(struct ib_device *dev, struct ib_uobject *uobj,
			    struct ib_udata *udata)
{
	struct ib_pd *pd = rdma_zalloc_drv_obj(dev, ib_pd);
	int ret;

	if (!pd)
		return ERR_PTR(-ENOMEM);
	pd->device = dev;
	pd->uobject = uobj;
	objs_track_new(&pd->res, RDMA_RESTRACK_PD);

	ret = dev->ops.alloc_pd(pd, udata);
	if (ret) {
		rdma_restrack_put(&pd->res);
		kfree(pd);
		return ERR_PTR(ret);
	}
	rdma_restrack_add(&pd->res);
	return pd;
}

static int pd_alloc(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct ib_uverbs_alloc_pd cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_pd *pd;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uobj_alloc(UVERBS_OBJECT_PD, attrs, &dev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);

	pd = pd_new(dev, uobj, &attrs->driver_udata);
	if (IS_ERR(pd)) {
		uobj_alloc_abort(uobj, attrs);
		return PTR_ERR(pd);
	}
	uobj->object = pd;
	uobj_finalize_uobj_create(uobj, attrs);

	resp.pd_handle = uobj->id;
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static int pd_dealloc(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dealloc_pd cmd;
	int ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));

	return ret ?: uobj_perform_destroy(UVERBS_OBJECT_PD, cmd.pd_handle,
					   attrs);
}

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	UVERBS_METHOD_PD_DESTROY,
	UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_PD_HANDLE, UVERBS_OBJECT_PD,
			UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(UVERBS_OBJECT_PD,
			    UVERBS_TYPE_ALLOC_IDR(pd_free),
			    &UVERBS_METHOD(UVERBS_METHOD_PD_DESTROY));

const struct uapi_definition uverbs_def_obj_pd[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_PD,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_pd)),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_PD,
		UVERBS_WRITE(IB_USER_VERBS_CMD_ALLOC_PD, pd_alloc,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_alloc_pd,
						   struct ib_uverbs_alloc_pd_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(alloc_pd),
		UVERBS_WRITE(IB_USER_VERBS_CMD_DEALLOC_PD, pd_dealloc,
			     UVERBS_WRITE_I(struct ib_uverbs_dealloc_pd)),
		UAPI_DEF_METHOD_NEEDS_FN(dealloc_pd)),
	{}
};
