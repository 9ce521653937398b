// SPDX-License-Identifier: GPL-2.0
/*
 * The IDR class of user objects: objects userspace names by a 32-bit
 * handle of its file (PDs, CQs, QPs, ... and drivers' own objects).
 *
 * ufile->idr maps handles to objects.  A handle is reserved (a NULL
 * entry, which lookups do not see) when an allocation begins and filled
 * at commit; from then on the slot holds one reference to the object,
 * dropped when a DESTROY command removes the handle or, for objects the
 * teardown destroyed, when the file is released.  Lookups run under RCU
 * and take a reference only if the object is not already being freed.
 *
 * Each object is charged to the creating task's RDMA cgroup as one
 * hca_object of its device when its allocation begins (-EAGAIN over the
 * limit).  The charge goes when the driver has destroyed the hardware
 * object, or, for an allocation abandoned before commit, at the abort:
 * idr_destroy_hw() leaves an abort's charge to idr_alloc_abort(), which
 * always follows it.
 */
#include "abi/ib_uverbs/rdma_core.h"
#include "core/user_verbs.h"
#include "internal.h"

static void idr_uncharge(struct ib_uobject *uobj, struct ib_device *ibdev)
{
	ib_rdmacg_uncharge(&uobj->cg_obj, ibdev, RDMACG_RESOURCE_HCA_OBJECT);
}

static struct ib_uobject *idr_alloc_begin(const struct uverbs_api_object *obj,
					  struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_uobj_alloc(obj, attrs);
	int ret;

	if (IS_ERR(uobj))
		return uobj;
	ret = ib_rdmacg_try_charge(&uobj->cg_obj, attrs->context->device,
				   RDMACG_RESOURCE_HCA_OBJECT);
	if (ret)
		goto put;
	ret = xa_alloc(&attrs->ufile->idr, &uobj->id, NULL, xa_limit_32b,
		       GFP_KERNEL);
	if (ret) {
		idr_uncharge(uobj, attrs->context->device);
		goto put;
	}
	return uobj;
put:
	uverbs_uobject_put(uobj);
	return ERR_PTR(ret);
}

static struct ib_uobject *idr_lookup_get(const struct uverbs_api_object *obj,
					 struct ib_uverbs_file *ufile, s64 id,
					 enum rdma_lookup_mode mode)
{
	struct ib_uobject *found = NULL;

	/* Handles are u32: a negative one is malformed, a larger one unused */
	if (id < 0)
		return ERR_PTR(-EINVAL);
	if (id <= U32_MAX) {
		rcu_read_lock();
		found = xa_load(&ufile->idr, id);
		/* A slot whose object is being freed holds nothing */
		if (found && !kref_get_unless_zero(&found->ref))
			found = NULL;
		rcu_read_unlock();
	}
	return found ?: ERR_PTR(-ENOENT);
}

/* The creator's reference passes to the handle's slot. */
static void idr_alloc_commit(struct ib_uobject *uobj)
{
	xa_store(&uobj->ufile->idr, uobj->id, uobj, GFP_KERNEL);
}

static void idr_alloc_abort(struct ib_uobject *uobj)
{
	idr_uncharge(uobj, uobj->context->device);
	xa_erase(&uobj->ufile->idr, uobj->id);
}

static void idr_lookup_put(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
}

static int idr_destroy_hw(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_idr_type *type =
		container_of(uobj->uapi_object->type_attrs,
			     struct uverbs_obj_idr_type, type);
	int ret;

	ret = type->destroy_object(uobj, why, attrs);
	if (!ret && why != RDMA_REMOVE_ABORT)
		idr_uncharge(uobj, uobj->context->device);
	return ret;
}

static void idr_remove_handle(struct ib_uobject *uobj)
{
	xa_erase(&uobj->ufile->idr, uobj->id);
	uverbs_uobject_put(uobj);
}

/*
 * @new takes the handle of @old, whose slot reference moves to @new's
 * reserved handle; @new's slot stays reserved (an allocating xarray keeps
 * a NULL store as a reservation) until @new is committed.
 */
static void idr_swap(struct ib_uobject *old, struct ib_uobject *new)
{
	struct xarray *idr = &old->ufile->idr;

	xa_store(idr, new->id, old, GFP_KERNEL);
	xa_store(idr, old->id, NULL, GFP_KERNEL);
	swap(old->id, new->id);
}

const struct uverbs_obj_type_class uverbs_idr_class = {
	.alloc_begin = idr_alloc_begin,
	.lookup_get = idr_lookup_get,
	.alloc_commit = idr_alloc_commit,
	.alloc_abort = idr_alloc_abort,
	.lookup_put = idr_lookup_put,
	.destroy_hw = idr_destroy_hw,
	.remove_handle = idr_remove_handle,
	.swap_uobjects = idr_swap,
};
EXPORT_SYMBOL(uverbs_idr_class);

/**
 * uverbs_idr_init() - the handles of a newly opened file
 * @ufile: the file
 */
void uverbs_idr_init(struct ib_uverbs_file *ufile)
{
	xa_init_flags(&ufile->idr, XA_FLAGS_ALLOC);
}

/**
 * uverbs_idr_release() - drop the handles of a released file
 * @ufile: the file, whose objects are all destroyed; what is left are
 *	handles userspace never destroyed
 */
void uverbs_idr_release(struct ib_uverbs_file *ufile)
{
	struct ib_uobject *uobj;
	unsigned long id;

	xa_for_each(&ufile->idr, id, uobj)
		uverbs_uobject_put(uobj);
	xa_destroy(&ufile->idr);
}
