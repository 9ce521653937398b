// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions over a user context's memory: write() REG_MR and
 * DEREG_MR, ioctl() MR_DESTROY, QUERY_MR, ADVISE_MR and REG_DMABUF_MR.
 * The driver pins and maps the memory (ib_umem_get(), or for a dma-buf
 * ib_umem_dmabuf_get*()); an MR holds a usecnt on its PD and is listed by
 * resource tracking with the creating task.
 *
 * Access rights are checked as the kernel verbs check them
 * (ib_check_mr_access()): remote write or atomic without local write,
 * unknown bits, or on-demand paging on a device without it are -EINVAL.
 * The optional bits (IB_UVERBS_ACCESS_OPTIONAL_RANGE, which GET_CONTEXT
 * tells userspace are ignored when unsupported) go to the driver as they
 * are.
 */
#include "objects.h"

static int mr_free(struct ib_uobject *uobj, enum rdma_remove_reason why,
		   struct uverbs_attr_bundle *attrs)
{
	return ib_dereg_mr_user(uobj->object, &attrs->driver_udata);
}

/*
 * What the core keeps in a user MR the driver has just registered; its
 * I/O address and length are the driver's to set.
 */
static void mr_adopt(struct ib_mr *mr, struct ib_pd *pd,
		     struct ib_uobject *uobj)
{
	mr->uobject = uobj;
	mr->sig_attrs = NULL;
	mr->dm = NULL;
	mr->type = IB_MR_TYPE_USER;
	mr->pd = pd;
	mr->device = pd->device;
	atomic_inc(&pd->usecnt);
	objs_track_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_add(&mr->res);
	uobj->object = mr;
}

static struct ib_mr *mr_register(struct uverbs_attr_bundle *attrs,
				 struct ib_uobject *uobj,
				 const struct ib_uverbs_reg_mr *cmd)
{
	struct ib_mr *mr;
	struct ib_pd *pd;

	pd = objs_get_pd(attrs, cmd->pd_handle);
	if (IS_ERR(pd))
		return ERR_CAST(pd);
	mr = pd->device->ops.reg_user_mr(pd, cmd->start, cmd->length,
					 cmd->hca_va, cmd->access_flags,
					 &attrs->driver_udata);
	if (!IS_ERR(mr)) {
		mr_adopt(mr, pd, uobj);
		mr->iova = cmd->hca_va;
		mr->length = cmd->length;
	}
	objs_put_pd(pd);
	return mr;
}

static int mr_reg(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct ib_uverbs_reg_mr cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_mr *mr;
	int ret;

	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* The I/O address keeps the memory's offset in its page. */
	if ((cmd.start ^ cmd.hca_va) & ~PAGE_MASK)
		return -EINVAL;

	uobj = uobj_alloc(UVERBS_OBJECT_MR, attrs, &dev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = ib_check_mr_access(dev, cmd.access_flags);
	mr = ret ? ERR_PTR(ret) : mr_register(attrs, uobj, &cmd);
	if (IS_ERR(mr)) {
		uobj_alloc_abort(uobj, attrs);
		return PTR_ERR(mr);
	}
	uobj_finalize_uobj_create(uobj, attrs);

	resp.mr_handle = uobj->id;
	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	return uverbs_write_response(attrs, &resp, sizeof(resp));
}

static int mr_dereg(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dereg_mr cmd;
	int ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));

	return ret ?: uobj_perform_destroy(UVERBS_OBJECT_MR, cmd.mr_handle,
					   attrs);
}

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_MR)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *mr = uverbs_attr_get_obj(attrs,
					       UVERBS_ATTR_QUERY_MR_HANDLE);
	int ret;

	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_LENGTH,
			     &mr->length, sizeof(mr->length)) ?:
	      uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_RKEY,
			     &mr->rkey, sizeof(mr->rkey)) ?:
	      uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_LKEY,
			     &mr->lkey, sizeof(mr->lkey));
	if (ret)
		return ret;
	/* The I/O address is optional to ask for. */
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_IOVA,
			     &mr->iova, sizeof(mr->iova));
	return IS_UVERBS_COPY_ERR(ret) ? ret : 0;
}

static int UVERBS_HANDLER(UVERBS_METHOD_ADVISE_MR)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uverbs_attr_get_obj(attrs,
					       UVERBS_ATTR_ADVISE_MR_PD_HANDLE);
	enum ib_uverbs_advise_mr_advice advice;
	struct ib_sge *sges;
	int num_sge, ret;
	u32 flags;

	if (!pd->device->ops.advise_mr)
		return -EOPNOTSUPP;
	ret = uverbs_get_const(&advice, attrs, UVERBS_ATTR_ADVISE_MR_ADVICE);
	if (!ret)
		ret = uverbs_get_flags32(&flags, attrs,
					 UVERBS_ATTR_ADVISE_MR_FLAGS,
					 IB_UVERBS_ADVISE_MR_FLAG_FLUSH);
	if (ret)
		return ret;
	/* struct ib_uverbs_sge and struct ib_sge have the same layout. */
	num_sge = uverbs_attr_ptr_get_array_size(
		attrs, UVERBS_ATTR_ADVISE_MR_SGE_LIST, sizeof(*sges));
	if (num_sge <= 0)
		return num_sge;
	sges = uverbs_attr_get_alloced_ptr(attrs,
					   UVERBS_ATTR_ADVISE_MR_SGE_LIST);
	return pd->device->ops.advise_mr(pd, advice, flags, sges, num_sge,
					 attrs);
}

/**
 * struct mr_dmabuf_req - what ioctl() REG_DMABUF_MR asks for
 * @offset: where the MR starts in the dma-buf
 * @length: its length
 * @iova: its I/O address
 * @fd: the dma-buf's file descriptor
 * @access: IB_ACCESS_* flags
 */
struct mr_dmabuf_req {
	u64 offset;
	u64 length;
	u64 iova;
	u32 fd;
	u32 access;
};

/* Reads REG_DMABUF_MR's attributes and checks them as the target does. */
static int mr_dmabuf_req_get(struct uverbs_attr_bundle *attrs,
			     struct ib_device *dev, struct mr_dmabuf_req *req)
{
	int ret;

	ret = uverbs_copy_from(&req->offset, attrs,
			       UVERBS_ATTR_REG_DMABUF_MR_OFFSET) ?:
	      uverbs_copy_from(&req->length, attrs,
			       UVERBS_ATTR_REG_DMABUF_MR_LENGTH) ?:
	      uverbs_copy_from(&req->iova, attrs,
			       UVERBS_ATTR_REG_DMABUF_MR_IOVA);
	if (ret)
		return ret;
	/* The I/O address keeps the offset's position in its page. */
	if ((req->offset ^ req->iova) & ~PAGE_MASK)
		return -EINVAL;
	ret = uverbs_copy_from(&req->fd, attrs, UVERBS_ATTR_REG_DMABUF_MR_FD) ?:
	      uverbs_get_flags32(&req->access, attrs,
				 UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
				 IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
				 IB_ACCESS_REMOTE_WRITE |
				 IB_ACCESS_REMOTE_ATOMIC |
				 IB_ACCESS_RELAXED_ORDERING);
	return ret ?: ib_check_mr_access(dev, req->access);
}

static int UVERBS_HANDLER(UVERBS_METHOD_REG_DMABUF_MR)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uverbs_attr_get_obj(
		attrs, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE);
	struct mr_dmabuf_req req;
	struct ib_mr *mr;
	int ret;

	if (!pd->device->ops.reg_user_mr_dmabuf)
		return -EOPNOTSUPP;
	ret = mr_dmabuf_req_get(attrs, pd->device, &req);
	if (ret)
		return ret;
	mr = pd->device->ops.reg_user_mr_dmabuf(pd, req.offset, req.length,
						req.iova, req.fd, req.access,
						&attrs->driver_udata);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	mr_adopt(mr, pd, uverbs_attr_get_uobject(
				 attrs, UVERBS_ATTR_REG_DMABUF_MR_HANDLE));
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
	return uverbs_copy_to(attrs, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY,
			      &mr->lkey, sizeof(mr->lkey)) ?:
	       uverbs_copy_to(attrs, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY,
			      &mr->rkey, sizeof(mr->rkey));
}

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_REG_DMABUF_MR,
	UVERBS_ATTR_IDR(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, UVERBS_OBJECT_MR,
			UVERBS_ACCESS_NEW, UA_MANDATORY),
	UVERBS_ATTR_IDR(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, UVERBS_OBJECT_PD,
			UVERBS_ACCESS_READ, UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_REG_DMABUF_MR_OFFSET,
			   UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_REG_DMABUF_MR_LENGTH,
			   UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_REG_DMABUF_MR_IOVA,
			   UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_REG_DMABUF_MR_FD,
			   UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
			     enum ib_access_flags),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_ADVISE_MR,
	UVERBS_ATTR_IDR(UVERBS_ATTR_ADVISE_MR_PD_HANDLE, UVERBS_OBJECT_PD,
			UVERBS_ACCESS_READ, UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(UVERBS_ATTR_ADVISE_MR_ADVICE,
			     enum ib_uverbs_advise_mr_advice, UA_MANDATORY),
	UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_ADVISE_MR_FLAGS,
			     enum ib_uverbs_advise_mr_flag, UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_ADVISE_MR_SGE_LIST,
			   UVERBS_ATTR_MIN_SIZE(sizeof(struct ib_uverbs_sge)),
			   UA_MANDATORY, UA_ALLOC_AND_COPY));

DECLARE_UVERBS_NAMED_METHOD(
	UVERBS_METHOD_QUERY_MR,
	UVERBS_ATTR_IDR(UVERBS_ATTR_QUERY_MR_HANDLE, UVERBS_OBJECT_MR,
			UVERBS_ACCESS_READ, UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_RKEY,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_LKEY,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_LENGTH,
			    UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_IOVA,
			    UVERBS_ATTR_TYPE(u64), UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	UVERBS_METHOD_MR_DESTROY,
	UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_MR_HANDLE, UVERBS_OBJECT_MR,
			UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(UVERBS_OBJECT_MR,
			    UVERBS_TYPE_ALLOC_IDR(mr_free),
			    &UVERBS_METHOD(UVERBS_METHOD_REG_DMABUF_MR),
			    &UVERBS_METHOD(UVERBS_METHOD_QUERY_MR),
			    &UVERBS_METHOD(UVERBS_METHOD_ADVISE_MR),
			    &UVERBS_METHOD(UVERBS_METHOD_MR_DESTROY));

const struct uapi_definition uverbs_def_obj_mr[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_MR,
				      UAPI_DEF_OBJ_NEEDS_FN(dereg_mr)),
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_MR,
		UVERBS_WRITE(IB_USER_VERBS_CMD_REG_MR, mr_reg,
			     UVERBS_WRITE_UDATA_IO(struct ib_uverbs_reg_mr,
						   struct ib_uverbs_reg_mr_resp)),
		UAPI_DEF_METHOD_NEEDS_FN(reg_user_mr),
		UVERBS_WRITE(IB_USER_VERBS_CMD_DEREG_MR, mr_dereg,
			     UVERBS_WRITE_I(struct ib_uverbs_dereg_mr)),
		UAPI_DEF_METHOD_NEEDS_FN(dereg_mr)),
	{}
};
