// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl(RDMA_VERBS_IOCTL): a method of an object, with attributes.
 *
 * The header is checked, the method found in the device's tree, the
 * attributes copied and each checked against its specification and
 * turned into the bundle's attrs[] entry (objects looked up or allocated,
 * data inline or copied), the mandatory ones required; then the handler
 * runs, after the framework destroyed the object of a DESTROY attribute.
 * Every object the call holds is released at the end, a NEW one committed
 * if the handler succeeded and aborted otherwise.
 *
 * Errors follow the target: -EPROTONOSUPPORT only when the framework
 * cannot run the request (unknown method, unknown mandatory attribute,
 * reserved header fields), which libibverbs takes for "fall back to
 * write()"; -EINVAL for malformed requests; -EOPNOTSUPP for data the
 * kernel does not understand.
 *
 * A call's memory is one allocation: struct uverbs_call, the bundle's
 * attrs[] (one per bundle key of the method), the copy of the user's
 * attributes and a scratch pool for _uverbs_alloc().
 */
#include <rdma/rdma_user_ioctl.h>
#include "internal.h"

#define UVERBS_CALL_POOL 256

/* The bytes after the caller's @len of an attribute's data are zero. */
static bool attr_tail_is_zero(const struct ib_uverbs_attr *uattr, u16 len)
{
	if (uattr->len > sizeof(uattr->data))
		return ib_is_buffer_cleared(u64_to_user_ptr(uattr->data) + len,
					    uattr->len - len);
	return !memchr_inv((const u8 *)&uattr->data + len, 0,
			   uattr->len - len);
}

/* A PTR_IN or PTR_OUT attribute (or the PTR_IN an ENUM_IN chose). */
static int parse_ptr(struct uverbs_call *call, const struct ib_uverbs_attr *uattr,
		     const struct uverbs_attr_spec *spec, bool is_enum,
		     struct uverbs_attr *e)
{
	void *copy;

	if (spec->type == UVERBS_ATTR_TYPE_PTR_IN &&
	    uattr->len > spec->u.ptr.len && spec->zero_trailing &&
	    !attr_tail_is_zero(uattr, spec->u.ptr.len))
		return -EOPNOTSUPP;
	if (uattr->len < spec->u.ptr.min_len ||
	    (!spec->zero_trailing && uattr->len > spec->u.ptr.len))
		return -EINVAL;
	/* An enum's selector lives in attr_data. */
	if (!is_enum && uattr->attr_data.reserved)
		return -EINVAL;

	e->ptr_attr.uattr_idx = uattr - call->uattrs;
	e->ptr_attr.len = uattr->len;
	if (!spec->alloc_and_copy || uverbs_attr_ptr_is_inline(e)) {
		e->ptr_attr.data = uattr->data;
		return 0;
	}
	copy = uverbs_alloc(&call->bundle, uattr->len);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
	e->ptr_attr.ptr = copy;
	if (copy_from_user(copy, u64_to_user_ptr(uattr->data), uattr->len))
		return -EFAULT;
	return 0;
}

static int parse_enum(struct uverbs_call *call,
		      const struct ib_uverbs_attr *uattr,
		      const struct uverbs_attr_spec *spec, struct uverbs_attr *e)
{
	const struct uverbs_attr_spec *ids = READ_ONCE(spec->u2.enum_def.ids);
	u8 elem = uattr->attr_data.enum_data.elem_id;

	if (elem >= spec->u.enum_def.num_elems)
		return -EOPNOTSUPP;
	if (uattr->attr_data.enum_data.reserved)
		return -EINVAL;
	if (!ids)
		return -EIO;
	/* Only PTR_IN choices exist. */
	if (ids[elem].type != UVERBS_ATTR_TYPE_PTR_IN)
		return -EOPNOTSUPP;
	e->ptr_attr.enum_id = elem;
	return parse_ptr(call, uattr, &ids[elem], true, e);
}

/* An IDR or FD attribute: look the object up, or allocate it for NEW. */
static int parse_object(struct uverbs_call *call,
			const struct ib_uverbs_attr *uattr,
			const struct uverbs_api_attr *attr, u32 bkey)
{
	const struct uverbs_attr_spec *spec = &attr->spec;
	struct uverbs_obj_attr *o = &call->bundle.attrs[bkey].obj_attr;
	u16 idx = uattr - call->uattrs;

	if (uattr->attr_data.reserved || uattr->len)
		return -EINVAL;
	o->attr_elm = attr;
	/* An FD's value is signed; IDR handles never are. */
	o->uobject = uverbs_get_uobject_from_file(spec->u.obj.obj_type,
						  spec->u.obj.access,
						  uattr->data_s64,
						  &call->bundle);
	if (IS_ERR(o->uobject))
		return PTR_ERR(o->uobject);
	__set_bit(bkey, call->held);
	/* The new object's handle goes back in the attribute. */
	if (spec->u.obj.access == UVERBS_ACCESS_NEW &&
	    put_user((s64)o->uobject->id, &call->user_attrs[idx].data))
		return -EFAULT;
	return 0;
}

static int parse_raw_fd(const struct ib_uverbs_attr *uattr,
			struct uverbs_attr *e)
{
	if (uattr->attr_data.reserved || uattr->len ||
	    uattr->data_s64 < INT_MIN || uattr->data_s64 > INT_MAX)
		return -EINVAL;
	e->ptr_attr.data = uattr->data_s64;
	return 0;
}

/* An array of IDR handles, looked up one by one (READ or WRITE). */
static int parse_idrs(struct uverbs_call *call,
		      const struct ib_uverbs_attr *uattr,
		      const struct uverbs_attr_spec *spec, u32 bkey)
{
	struct uverbs_objs_arr_attr *arr = &call->bundle.attrs[bkey].objs_arr_attr;
	size_t n = uattr->len / sizeof(u32), i;
	u32 *ids;

	if (uattr->attr_data.reserved || uattr->len % sizeof(u32) ||
	    n < spec->u2.objs_arr.min_len || n > spec->u2.objs_arr.max_len)
		return -EINVAL;
	arr->uobjects = uverbs_alloc(&call->bundle,
				     array_size(n, sizeof(*arr->uobjects)));
	ids = uverbs_alloc(&call->bundle, uattr->len);
	if (IS_ERR(arr->uobjects) || IS_ERR(ids))
		return -ENOMEM;
	if (uattr->len <= sizeof(uattr->data))
		memcpy(ids, &uattr->data, uattr->len);
	else if (copy_from_user(ids, u64_to_user_ptr(uattr->data), uattr->len))
		return -EFAULT;

	arr->len = 0;
	__set_bit(bkey, call->held_arrays);
	for (i = 0; i < n; i++) {
		arr->uobjects[i] =
			uverbs_get_uobject_from_file(spec->u2.objs_arr.obj_type,
						     spec->u2.objs_arr.access,
						     ids[i], &call->bundle);
		if (IS_ERR(arr->uobjects[i]))
			return PTR_ERR(arr->uobjects[i]);
		arr->len++;
	}
	return 0;
}

static int parse_attr(struct uverbs_call *call,
		      const struct ib_uverbs_attr *uattr,
		      const struct uverbs_api_attr *attr, u32 bkey)
{
	const struct uverbs_attr_spec *spec = &attr->spec;
	struct uverbs_attr *e = &call->bundle.attrs[bkey];

	switch (spec->type) {
	case UVERBS_ATTR_TYPE_ENUM_IN:
		return parse_enum(call, uattr, spec, e);
	case UVERBS_ATTR_TYPE_PTR_IN:
	case UVERBS_ATTR_TYPE_PTR_OUT:
		return parse_ptr(call, uattr, spec, false, e);
	case UVERBS_ATTR_TYPE_IDR:
	case UVERBS_ATTR_TYPE_FD:
		return parse_object(call, uattr, attr, bkey);
	case UVERBS_ATTR_TYPE_RAW_FD:
		return parse_raw_fd(uattr, e);
	case UVERBS_ATTR_TYPE_IDRS_ARRAY:
		return parse_idrs(call, uattr, spec, bkey);
	}
	return -EOPNOTSUPP;
}

static int set_attr(struct uverbs_call *call,
		    const struct ib_uverbs_attr *uattr)
{
	const struct uverbs_api_attr *attr;
	u32 bkey;
	int ret;

	attr = uverbs_uapi_attr(call->uapi, call->method_key, uattr->attr_id);
	if (!attr)
		/* Unknown: fine unless the caller cannot do without it. */
		return uattr->flags & UVERBS_ATTR_F_MANDATORY ?
			-EPROTONOSUPPORT : 0;
	bkey = uapi_bkey_attr(uapi_key_attr(uattr->attr_id));
	if (test_bit(bkey, call->bundle.attr_present))
		return -EINVAL;
	ret = parse_attr(call, uattr, attr, bkey);
	if (ret)
		return ret;
	__set_bit(bkey, call->bundle.attr_present);
	return 0;
}

static int parse_attrs(struct uverbs_call *call, unsigned int num_attrs)
{
	const struct uverbs_api_ioctl_method *method = call->method;
	unsigned int i;
	int ret;

	if (copy_from_user(call->uattrs, call->user_attrs,
			   array_size(num_attrs, sizeof(*call->uattrs))))
		return -EFAULT;
	for (i = 0; i < num_attrs; i++) {
		ret = set_attr(call, &call->uattrs[i]);
		if (ret)
			return ret;
	}
	if (!bitmap_subset(method->mandatory, call->bundle.attr_present,
			   method->nr_bkeys))
		return -EINVAL;
	if (method->udata_present)
		uverbs_fill_udata(&call->bundle, &call->bundle.driver_udata,
				  UVERBS_ATTR_UHW_IN, UVERBS_ATTR_UHW_OUT);
	return 0;
}

/* Destroy the DESTROY attribute's object, then run the handler. */
static int run_destroy(struct uverbs_call *call,
		       int (*handler)(struct uverbs_attr_bundle *attrs))
{
	u8 bkey = call->method->destroy_bkey;
	struct ib_uobject *uobj = call->bundle.attrs[bkey].obj_attr.uobject;
	int ret;

	ret = uobj_destroy(uobj, &call->bundle);
	if (ret)
		return ret;
	__clear_bit(bkey, call->held);
	ret = handler(&call->bundle);
	uobj_put_destroy(uobj);
	return ret;
}

static int run_method(struct uverbs_call *call, unsigned int num_attrs)
{
	struct ib_uverbs_device *udev = call->bundle.ufile->device;
	int (*handler)(struct uverbs_attr_bundle *attrs);
	const struct uverbs_attr *uhw_out;
	int ret;

	lockdep_assert_held(&udev->disassociate_srcu);
	handler = READ_ONCE(call->method->handler);
	if (!handler)
		return -EIO;
	ret = parse_attrs(call, num_attrs);
	if (ret)
		return ret;

	if (call->method->destroy_bkey != UVERBS_API_ATTR_BKEY_LEN)
		ret = run_destroy(call, handler);
	else
		ret = handler(&call->bundle);

	/* Drivers write UHW_OUT themselves: flag it for userspace. */
	if (!ret && call->method->udata_present) {
		uhw_out = uverbs_attr_get(&call->bundle, UVERBS_ATTR_UHW_OUT);
		if (!IS_ERR(uhw_out))
			ret = uverbs_set_output(&call->bundle, uhw_out);
	}
	/* Only the framework says "cannot run this request". */
	return ret == -EPROTONOSUPPORT ? -EINVAL : ret;
}

/* Release every object the call holds; commit NEW ones on success. */
static void finish_call(struct uverbs_call *call, bool commit)
{
	unsigned int nr = call->method->nr_bkeys;
	const struct uverbs_api_attr *attr;
	struct uverbs_objs_arr_attr *arr;
	struct uverbs_obj_attr *o;
	unsigned int bkey, i;

	for_each_set_bit(bkey, call->held, nr) {
		o = &call->bundle.attrs[bkey].obj_attr;
		uverbs_finalize_object(o->uobject,
				       o->attr_elm->spec.u.obj.access,
				       test_bit(bkey, call->hw_created),
				       commit, &call->bundle);
	}
	for_each_set_bit(bkey, call->held_arrays, nr) {
		arr = &call->bundle.attrs[bkey].objs_arr_attr;
		attr = uverbs_uapi_attr_by_bkey(call->uapi, call->method_key,
						bkey);
		for (i = 0; i < arr->len; i++)
			uverbs_finalize_object(arr->uobjects[i],
					       attr->spec.u2.objs_arr.access,
					       false, commit, &call->bundle);
	}
	uverbs_call_free_chunks(call);
}

/* One allocation for the call, its attrs[], the user's attributes, a pool. */
static struct uverbs_call *call_alloc(const struct uverbs_api_ioctl_method *m,
				      unsigned int num_attrs)
{
	size_t attrs_size = array_size(m->nr_bkeys, sizeof(struct uverbs_attr));
	size_t uattrs_size = array_size(num_attrs,
					sizeof(struct ib_uverbs_attr));
	struct uverbs_call *call;

	call = kmalloc(sizeof(*call) + attrs_size + uattrs_size +
		       UVERBS_CALL_POOL, GFP_KERNEL);
	if (!call)
		return NULL;
	memset(call, 0, sizeof(*call));
	call->uattrs = (void *)call->bundle.attrs + attrs_size;
	call->pool = (u8 *)call->uattrs + uattrs_size;
	call->pool_left = UVERBS_CALL_POOL;
	return call;
}

static int ioctl_run(struct ib_uverbs_file *ufile,
		     const struct ib_uverbs_ioctl_hdr *hdr,
		     struct ib_uverbs_attr __user *user_attrs)
{
	const struct uverbs_api_ioctl_method *method;
	struct uverbs_api *uapi = ufile->device->uapi;
	struct uverbs_call *call;
	u32 method_key;
	int ret;

	if (hdr->driver_id != uapi->driver_id)
		return -EINVAL;
	method = uverbs_uapi_ioctl_method(uapi, hdr->object_id,
					  hdr->method_id, &method_key);
	if (!method)
		return -EPROTONOSUPPORT;
	call = call_alloc(method, hdr->num_attrs);
	if (!call)
		return -ENOMEM;
	call->uapi = uapi;
	call->method = method;
	call->method_key = method_key;
	call->user_attrs = user_attrs;
	call->bundle.ufile = ufile;

	ret = run_method(call, hdr->num_attrs);
	finish_call(call, !ret);
	kfree(call);
	return ret;
}

/*
 * What the header alone decides: its length must be that of its
 * attributes (and at most a page); reserved fields must be 0.
 */
static int ioctl_hdr_check(const struct ib_uverbs_ioctl_hdr *hdr)
{
	if (hdr->length != struct_size(hdr, attrs, hdr->num_attrs) ||
	    hdr->length > PAGE_SIZE)
		return -EINVAL;
	return hdr->reserved1 || hdr->reserved2 ? -EPROTONOSUPPORT : 0;
}

/**
 * uverbs_ioctl() - the unlocked_ioctl of /dev/infiniband/uverbsN
 * @filp: the file
 * @cmd: RDMA_VERBS_IOCTL, or -ENOIOCTLCMD (ENOTTY) for anything else
 * @arg: the user address of a struct ib_uverbs_ioctl_hdr and its
 *	attributes
 *
 * Return: 0 or the method's error; -EINVAL for a malformed header (length
 * over a page or not matching num_attrs, another driver's id);
 * -EPROTONOSUPPORT for reserved fields set or an unknown method.
 */
long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ib_uverbs_ioctl_hdr __user *user_hdr = (void __user *)arg;
	struct ib_uverbs_file *ufile = filp->private_data;
	struct ib_uverbs_ioctl_hdr hdr;
	long ret;
	int idx;

	if (cmd != RDMA_VERBS_IOCTL)
		return -ENOIOCTLCMD;
	if (copy_from_user(&hdr, user_hdr, sizeof(hdr)))
		return -EFAULT;
	ret = ioctl_hdr_check(&hdr);
	if (ret)
		return ret;
	idx = srcu_read_lock(&ufile->device->disassociate_srcu);
	ret = ioctl_run(ufile, &hdr, user_hdr->attrs);
	srcu_read_unlock(&ufile->device->disassociate_srcu, idx);
	return ret;
}
