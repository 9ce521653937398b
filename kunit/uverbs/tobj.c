// SPDX-License-Identifier: GPL-2.0
/*
 * The test driver's uverbs definitions (tobj.h).
 *
 * A TOBJ_OBJ's kernel object is a struct tobj; a parent counts its
 * children and refuses to be destroyed while it has any, as a PD refuses
 * while objects use it.
 */
#include <linux/slab.h>
#include <rdma/uverbs_std_types.h>
#define UVERBS_MODULE_NAME kunit_tobj
#include <rdma/uverbs_named_ioctl.h>
#include "tobj.h"

struct tobj_log tobj_log;
struct tobj_gate tobj_gate;

/**
 * struct tobj - the kernel object of a TOBJ_OBJ
 * @value: set by create and TOBJ_M_SET
 * @children: objects whose parent it is
 * @parent: its parent, or NULL
 */
struct tobj {
	u64 value;
	int children;
	struct tobj *parent;
};

/**
 * tobj_reset() - forget what the handlers saw; the gate starts closed
 */
void tobj_reset(void)
{
	memset(&tobj_log, 0, sizeof(tobj_log));
	init_completion(&tobj_gate.entered);
	init_completion(&tobj_gate.release);
}

static void tobj_record(u64 value, enum rdma_remove_reason why, int ret)
{
	if (tobj_log.ndestroys < TOBJ_MAX_LOG)
		tobj_log.destroys[tobj_log.ndestroys] =
			(struct tobj_destroy_rec){ value, why, ret };
	tobj_log.ndestroys++;
}

static int tobj_destroy_object(struct ib_uobject *uobj,
			       enum rdma_remove_reason why,
			       struct uverbs_attr_bundle *attrs)
{
	struct tobj *t = uobj->object;
	int ret = 0;

	if (t->value == TOBJ_VALUE_GATE) {
		complete(&tobj_gate.entered);
		wait_for_completion(&tobj_gate.release);
	}
	if (t->children || t->value == TOBJ_VALUE_STUCK)
		ret = -EBUSY;
	tobj_record(t->value, why, ret);
	if (ret) {
		if (t->value == TOBJ_VALUE_STUCK)
			tobj_log.stuck = t;
		return ret;
	}
	if (t->parent)
		t->parent->children--;
	kfree(t);
	return 0;
}

/* Block while the case holds the gate closed. */
static void tobj_wait_if_asked(struct uverbs_attr_bundle *attrs)
{
	u64 wait = 0;

	if (uverbs_get_const_default(&wait, attrs, TOBJ_A_WAIT, 0) || !wait)
		return;
	complete(&tobj_gate.entered);
	wait_for_completion(&tobj_gate.release);
}

static int UVERBS_HANDLER(TOBJ_M_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, TOBJ_A_HANDLE);
	struct ib_uobject *parent = uverbs_attr_get_uobject(attrs, TOBJ_A_PARENT);
	u64 fail = 0, value = 0;
	struct tobj *t;

	if (uverbs_get_const_default(&fail, attrs, TOBJ_A_FAIL, 0) ||
	    uverbs_get_const_default(&value, attrs, TOBJ_A_VALUE, 0))
		return -EINVAL;
	if (fail == TOBJ_FAIL_BEFORE_HW)
		return -ENOMEM;
	if (fail == TOBJ_FAIL_PROTO)
		return -EPROTONOSUPPORT;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->value = value;
	if (!IS_ERR(parent)) {
		t->parent = parent->object;
		t->parent->children++;
	}
	uobj->object = t;
	uverbs_finalize_uobj_create(attrs, TOBJ_A_HANDLE);
	return fail == TOBJ_FAIL_AFTER_HW ? -EINVAL : 0;
}

static int UVERBS_HANDLER(TOBJ_M_USE)(struct uverbs_attr_bundle *attrs)
{
	struct tobj *t = uverbs_attr_get_obj(attrs, TOBJ_A_HANDLE);
	int ret;

	tobj_wait_if_asked(attrs);
	ret = uverbs_copy_to(attrs, TOBJ_A_OUT, &t->value, sizeof(t->value));
	return IS_UVERBS_COPY_ERR(ret) ? ret : 0;
}

static int UVERBS_HANDLER(TOBJ_M_SET)(struct uverbs_attr_bundle *attrs)
{
	struct tobj *t = uverbs_attr_get_obj(attrs, TOBJ_A_HANDLE);
	u64 value;
	int ret;

	ret = uverbs_get_const(&value, attrs, TOBJ_A_VALUE);
	if (ret)
		return ret;
	tobj_wait_if_asked(attrs);
	t->value = value;
	return 0;
}

/* The handle's object becomes a child of the parent. */
static int UVERBS_HANDLER(TOBJ_M_ADOPT)(struct uverbs_attr_bundle *attrs)
{
	struct tobj *t = uverbs_attr_get_obj(attrs, TOBJ_A_HANDLE);
	struct tobj *parent = uverbs_attr_get_obj(attrs, TOBJ_A_PARENT);

	if (t->parent || t == parent)
		return -EINVAL;
	t->parent = parent;
	parent->children++;
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_CREATE,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_OBJ, UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(TOBJ_A_VALUE, u64, UA_OPTIONAL),
	UVERBS_ATTR_IDR(TOBJ_A_PARENT, TOBJ_OBJ, UVERBS_ACCESS_READ,
			UA_OPTIONAL),
	UVERBS_ATTR_CONST_IN(TOBJ_A_FAIL, u64, UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_USE,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_OBJ, UVERBS_ACCESS_READ,
			UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(TOBJ_A_WAIT, u64, UA_OPTIONAL),
	UVERBS_ATTR_PTR_OUT(TOBJ_A_OUT, UVERBS_ATTR_TYPE(u64), UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_SET,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_OBJ, UVERBS_ACCESS_WRITE,
			UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(TOBJ_A_VALUE, u64, UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(TOBJ_A_WAIT, u64, UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_ADOPT,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_OBJ, UVERBS_ACCESS_WRITE,
			UA_MANDATORY),
	UVERBS_ATTR_IDR(TOBJ_A_PARENT, TOBJ_OBJ, UVERBS_ACCESS_READ,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	TOBJ_M_DESTROY,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_OBJ, UVERBS_ACCESS_DESTROY,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(TOBJ_OBJ,
			    UVERBS_TYPE_ALLOC_IDR(tobj_destroy_object),
			    &UVERBS_METHOD(TOBJ_M_CREATE),
			    &UVERBS_METHOD(TOBJ_M_USE),
			    &UVERBS_METHOD(TOBJ_M_SET),
			    &UVERBS_METHOD(TOBJ_M_ADOPT),
			    &UVERBS_METHOD(TOBJ_M_DESTROY));

/* TOBJ_OBJ2: a second IDR type, to mix handles up. */
static int tobj2_destroy_object(struct ib_uobject *uobj,
				enum rdma_remove_reason why,
				struct uverbs_attr_bundle *attrs)
{
	tobj_record(0x2, why, 0);
	return 0;
}

static int UVERBS_HANDLER(TOBJ_M_CREATE2)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, TOBJ_A_HANDLE);

	/* Any non-NULL object: there is nothing behind it. */
	uobj->object = uobj;
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_CREATE2,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_OBJ2, UVERBS_ACCESS_NEW,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(TOBJ_OBJ2,
			    UVERBS_TYPE_ALLOC_IDR(tobj2_destroy_object),
			    &UVERBS_METHOD(TOBJ_M_CREATE2));

/* TOBJ_FD: a file of the driver's own. */
static void tobj_fd_destroy(struct ib_uobject *uobj,
			    enum rdma_remove_reason why)
{
	tobj_log.fd_destroys++;
	tobj_log.fd_why = why;
}

static const struct file_operations tobj_fd_fops = {
	.owner = THIS_MODULE,
	.release = uverbs_uobject_fd_release,
};

static int UVERBS_HANDLER(TOBJ_M_FD_CREATE)(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static int UVERBS_HANDLER(TOBJ_M_FD_USE)(struct uverbs_attr_bundle *attrs)
{
	return IS_ERR(uverbs_attr_get_uobject(attrs, TOBJ_A_HANDLE)) ?
		-EINVAL : 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_FD_CREATE,
	UVERBS_ATTR_FD(TOBJ_A_HANDLE, TOBJ_FD, UVERBS_ACCESS_NEW,
		       UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_FD_USE,
	UVERBS_ATTR_FD(TOBJ_A_HANDLE, TOBJ_FD, UVERBS_ACCESS_READ,
		       UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(TOBJ_FD,
			    UVERBS_TYPE_ALLOC_FD(sizeof(struct ib_uobject),
						 tobj_fd_destroy,
						 &tobj_fd_fops, "[tobj]",
						 O_RDONLY),
			    &UVERBS_METHOD(TOBJ_M_FD_CREATE),
			    &UVERBS_METHOD(TOBJ_M_FD_USE));

/* TOBJ_M_ATTRS: records every attribute it got. */
static const struct uverbs_attr_spec tobj_enum_specs[] = {
	{ .type = UVERBS_ATTR_TYPE_PTR_IN, UVERBS_ATTR_TYPE(u64) },
	{ .type = UVERBS_ATTR_TYPE_PTR_IN, UVERBS_ATTR_NO_DATA() },
	{ .type = UVERBS_ATTR_TYPE_PTR_OUT, UVERBS_ATTR_TYPE(u64) },
};

static void tobj_attrs_ptrs(struct uverbs_attr_bundle *attrs)
{
	const void *copy;
	int len;

	len = uverbs_attr_get_len(attrs, TOBJ_A_IN_STRUCT);
	if (len >= 0) {
		tobj_log.attrs.struct_len = len;
		uverbs_copy_from_or_zero(&tobj_log.attrs.in, attrs,
					 TOBJ_A_IN_STRUCT);
	}
	copy = uverbs_attr_get_alloced_ptr(attrs, TOBJ_A_IN_COPY);
	len = uverbs_attr_get_len(attrs, TOBJ_A_IN_COPY);
	if (!IS_ERR(copy) && len > 0) {
		tobj_log.attrs.copy_len = len;
		memcpy(tobj_log.attrs.copy, copy, len);
	}
	uverbs_copy_from(&tobj_log.attrs.u32_val, attrs, TOBJ_A_IN_U32);
	tobj_log.attrs.enum_id = uverbs_attr_get_enum_id(attrs, TOBJ_A_ENUM);
	if (tobj_log.attrs.enum_id == 0)
		uverbs_copy_from(&tobj_log.attrs.enum_val, attrs, TOBJ_A_ENUM);
	if (uverbs_get_raw_fd(&tobj_log.attrs.raw_fd, attrs, TOBJ_A_RAW_FD))
		tobj_log.attrs.raw_fd = -1;
}

static void tobj_attrs_objs(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject **uobjs;
	int i, n;

	n = uverbs_attr_get_uobjs_arr(attrs, TOBJ_A_IDRS, &uobjs);
	tobj_log.attrs.nidrs = n;
	for (i = 0; i < n && i < 4; i++)
		tobj_log.attrs.idr_values[i] =
			((struct tobj *)uobjs[i]->object)->value;
	tobj_log.attrs.flags = TOBJ_FLAGS_UNREAD;
	tobj_log.attrs.flags_ret = uverbs_get_flags32(&tobj_log.attrs.flags,
						      attrs, TOBJ_A_FLAGS,
						      TOBJ_FLAGS32_KNOWN);
	tobj_log.attrs.flags64 = TOBJ_FLAGS_UNREAD;
	tobj_log.attrs.flags64_ret =
		uverbs_get_flags64(&tobj_log.attrs.flags64, attrs, TOBJ_A_FLAGS,
				   TOBJ_FLAGS64_KNOWN);
	tobj_log.attrs.const_ret =
		uverbs_get_const_default(&tobj_log.attrs.const_val, attrs,
					 TOBJ_A_CONST16, 7);
}

/* Scratch memory from the call's pool and beyond it, zeroed. */
static void tobj_attrs_alloc(struct uverbs_attr_bundle *attrs)
{
	u8 *small = uverbs_zalloc(attrs, 24);
	u8 *big = uverbs_kcalloc(attrs, 8192, 1);

	tobj_log.attrs.pool_zeroed = !IS_ERR(small) &&
				     !memchr_inv(small, 0, 24);
	tobj_log.attrs.big_zeroed = !IS_ERR(big) &&
				    !memchr_inv(big, 0, 8192);
}

static int tobj_attrs_udata(struct uverbs_attr_bundle *attrs)
{
	struct ib_udata *udata = &attrs->driver_udata;
	u64 val = 0x600d;

	tobj_log.attrs.uhw_in = udata->inlen;
	tobj_log.attrs.uhw_out = udata->outlen;
	if (udata->inlen >= sizeof(u64) &&
	    ib_copy_from_udata(&tobj_log.attrs.uhw_in_val, udata, sizeof(u64)))
		return -EFAULT;
	if (udata->outlen >= sizeof(val) &&
	    ib_copy_to_udata(udata, &val, sizeof(val)))
		return -EFAULT;
	return 0;
}

static int UVERBS_HANDLER(TOBJ_M_ATTRS)(struct uverbs_attr_bundle *attrs)
{
	u64 out = 0x1122334455667788ULL;
	s64 ret = 0;
	int err;

	tobj_log.attrs.calls++;
	tobj_attrs_ptrs(attrs);
	tobj_attrs_objs(attrs);
	tobj_attrs_alloc(attrs);
	err = tobj_attrs_udata(attrs);
	if (err)
		return err;
	err = uverbs_copy_to_struct_or_zero(attrs, TOBJ_A_OUT8, &out,
					    sizeof(out));
	if (IS_UVERBS_COPY_ERR(err))
		return err;
	if (uverbs_get_const_default(&ret, attrs, TOBJ_A_RET, 0))
		return -EINVAL;
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_ATTRS,
	UVERBS_ATTR_PTR_IN(TOBJ_A_IN_STRUCT, UVERBS_ATTR_STRUCT(struct tobj_in, b),
			   UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(TOBJ_A_IN_COPY, UVERBS_ATTR_SIZE(16, 64),
			   UA_OPTIONAL, UA_ALLOC_AND_COPY),
	UVERBS_ATTR_PTR_IN(TOBJ_A_IN_U32, UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
	UVERBS_ATTR_PTR_OUT(TOBJ_A_OUT8, UVERBS_ATTR_MIN_SIZE(8), UA_OPTIONAL),
	UVERBS_ATTR_ENUM_IN(TOBJ_A_ENUM, tobj_enum_specs, UA_OPTIONAL),
	UVERBS_ATTR_RAW_FD(TOBJ_A_RAW_FD, UA_OPTIONAL),
	UVERBS_ATTR_IDRS_ARR(TOBJ_A_IDRS, TOBJ_OBJ, UVERBS_ACCESS_READ, 1, 4,
			     UA_OPTIONAL),
	UVERBS_ATTR_FLAGS_IN(TOBJ_A_FLAGS, u32, UA_OPTIONAL),
	UVERBS_ATTR_CONST_IN(TOBJ_A_CONST16, u16, UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(TOBJ_A_MAND, UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(TOBJ_A_RET, s64, UA_OPTIONAL),
	UVERBS_ATTR_UHW());

/* A driver method that needs a handle of an object the device lacks. */
static int UVERBS_HANDLER(TOBJ_M_NEEDS_DISABLED)(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_NEEDS_DISABLED,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_DISABLED, UVERBS_ACCESS_READ,
			UA_MANDATORY));

ADD_UVERBS_METHODS(tobj_device_methods, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(TOBJ_M_ATTRS),
		   &UVERBS_METHOD(TOBJ_M_NEEDS_DISABLED));

/* A driver attribute of the core's GET_CONTEXT. */
ADD_UVERBS_ATTRIBUTES_SIMPLE(
	tobj_get_context_attrs, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT,
	UVERBS_ATTR_PTR_IN(TOBJ_A_GET_CONTEXT_DRV, UVERBS_ATTR_TYPE(u32),
			   UA_OPTIONAL));

/* Objects the device does not support. */
static int tobj_never_destroy(struct ib_uobject *uobj,
			      enum rdma_remove_reason why,
			      struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static int UVERBS_HANDLER(TOBJ_M_DISABLED)(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static int UVERBS_HANDLER(TOBJ_M_NEEDS_FN)(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_DISABLED,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_DISABLED, UVERBS_ACCESS_NEW,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(TOBJ_DISABLED,
			    UVERBS_TYPE_ALLOC_IDR(tobj_never_destroy),
			    &UVERBS_METHOD(TOBJ_M_DISABLED));

DECLARE_UVERBS_NAMED_METHOD(
	TOBJ_M_NEEDS_FN,
	UVERBS_ATTR_IDR(TOBJ_A_HANDLE, TOBJ_NEEDS_FN, UVERBS_ACCESS_NEW,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(TOBJ_NEEDS_FN,
			    UVERBS_TYPE_ALLOC_IDR(tobj_never_destroy),
			    &UVERBS_METHOD(TOBJ_M_NEEDS_FN));

static bool tobj_never_supported(struct ib_device *ibdev)
{
	return false;
}

/*
 * write() commands: what the framing split, and an answer.  A driver has
 * only the bundle: it reads ucore and answers there, or in CORE_OUT when
 * the command came through INVOKE_WRITE.
 */
static int tobj_req(struct uverbs_attr_bundle *attrs, void *req, size_t len)
{
	memset(req, 0, len);
	return copy_from_user(req, attrs->ucore.inbuf,
			      min(len, attrs->ucore.inlen)) ? -EFAULT : 0;
}

static int tobj_resp(struct uverbs_attr_bundle *attrs, const void *resp,
		     size_t len)
{
	if (uverbs_attr_is_valid(attrs, UVERBS_ATTR_CORE_OUT))
		return uverbs_copy_to_struct_or_zero(attrs, UVERBS_ATTR_CORE_OUT,
						     resp, len);
	return copy_to_user(attrs->ucore.outbuf, resp,
			    min(len, attrs->ucore.outlen)) ? -EFAULT : 0;
}

static int tobj_cmd(struct uverbs_attr_bundle *attrs)
{
	struct tobj_cmd_resp resp = {};
	struct tobj_cmd cmd;
	int ret;

	tobj_log.write_ucore[0] = attrs->ucore.inlen;
	tobj_log.write_ucore[1] = attrs->ucore.outlen;
	tobj_log.write_udata[0] = attrs->driver_udata.inlen;
	tobj_log.write_udata[1] = attrs->driver_udata.outlen;
	if (attrs->driver_udata.inlen >= sizeof(u64) &&
	    ib_copy_from_udata(&tobj_log.write_udata_in, &attrs->driver_udata,
			       sizeof(u64)))
		return -EFAULT;
	ret = tobj_req(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	resp.y = cmd.x + 1;
	return tobj_resp(attrs, &resp, sizeof(resp));
}

static int tobj_cmd_ex(struct uverbs_attr_bundle *attrs)
{
	struct tobj_cmd_ex_resp resp = {};
	struct tobj_cmd_ex cmd;
	int ret;

	tobj_log.write_ucore[0] = attrs->ucore.inlen;
	tobj_log.write_ucore[1] = attrs->ucore.outlen;
	tobj_log.write_udata[0] = attrs->driver_udata.inlen;
	tobj_log.write_udata[1] = attrs->driver_udata.outlen;
	ret = tobj_req(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	resp.y = cmd.x + 1;
	resp.len = min(sizeof(resp), attrs->ucore.outlen);
	return tobj_resp(attrs, &resp, sizeof(resp));
}

const struct uapi_definition tobj_driver_def[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(TOBJ_OBJ),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(TOBJ_OBJ2),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(TOBJ_FD),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &tobj_device_methods),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &tobj_get_context_attrs),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(TOBJ_DISABLED,
				      UAPI_DEF_IS_OBJ_SUPPORTED(tobj_never_supported)),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(TOBJ_NEEDS_FN,
				      UAPI_DEF_OBJ_NEEDS_FN(alloc_xrcd)),
	/* The write() commands, spelled out (the macros are ib_uverbs' own). */
	DECLARE_UVERBS_OBJECT(TOBJ_OBJ,
		{
			.kind = UAPI_DEF_WRITE,
			.scope = UAPI_SCOPE_OBJECT,
			.write = {
				.command_num = TOBJ_CMD,
				.has_resp = 1,
				.has_udata = 1,
				.req_size = sizeof(struct tobj_cmd),
				.resp_size = sizeof(struct tobj_cmd_resp),
			},
			.func_write = tobj_cmd,
		},
		{
			.kind = UAPI_DEF_WRITE,
			.scope = UAPI_SCOPE_OBJECT,
			.write = {
				.command_num = TOBJ_CMD_EX,
				.is_ex = 1,
				.has_resp = 1,
				.req_size = offsetofend(struct tobj_cmd_ex, x),
				.resp_size =
					offsetofend(struct tobj_cmd_ex_resp, y),
			},
			.func_write = tobj_cmd_ex,
		}),
	{}
};

/**
 * tobj_create() - create a TOBJ_OBJ with a value
 * @u: the device
 * @f: the file
 * @value: its value
 * @handle: set to its handle
 *
 * Return: 0 or the ioctl's errno.
 */
long tobj_create(struct uvk *u, struct file *f, u64 value, u32 *handle)
{
	struct uvk_ioctl req;
	long ret;

	uvk_ioctl_init(u, &req, TOBJ_OBJ, TOBJ_M_CREATE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, 0);
	uvk_attr_u64(&req, TOBJ_A_VALUE, value);
	ret = uvk_ioctl(u, f, &req);
	*handle = req.attrs[0].data;
	return ret;
}

/**
 * tobj_create_child() - create a TOBJ_OBJ with a parent
 * @u: the device
 * @f: the file
 * @value: its value
 * @parent: the parent's handle
 * @handle: set to its handle
 *
 * Return: 0 or the ioctl's errno.
 */
long tobj_create_child(struct uvk *u, struct file *f, u64 value, u32 parent,
		       u32 *handle)
{
	struct uvk_ioctl req;
	long ret;

	uvk_ioctl_init(u, &req, TOBJ_OBJ, TOBJ_M_CREATE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, 0);
	uvk_attr_u64(&req, TOBJ_A_VALUE, value);
	uvk_attr_obj(&req, TOBJ_A_PARENT, parent);
	ret = uvk_ioctl(u, f, &req);
	*handle = req.attrs[0].data;
	return ret;
}

/**
 * tobj_use() - TOBJ_M_USE: read an object's value
 * @u: the device
 * @f: the file
 * @handle: the object
 * @value: set to its value, if not NULL
 *
 * Return: 0 or the ioctl's errno.
 */
long tobj_use(struct uvk *u, struct file *f, u32 handle, u64 *value)
{
	struct uvk_ioctl req;
	void __user *out;
	long ret;

	uvk_ioctl_init(u, &req, TOBJ_OBJ, TOBJ_M_USE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, handle);
	out = uvk_attr_out(u, &req, TOBJ_A_OUT, sizeof(u64));
	ret = uvk_ioctl(u, f, &req);
	if (!ret && value)
		uvk_copy_out(u, value, out, sizeof(*value));
	return ret;
}

/**
 * tobj_destroy() - TOBJ_M_DESTROY
 * @u: the device
 * @f: the file
 * @handle: the object
 *
 * Return: 0 or the ioctl's errno.
 */
long tobj_destroy(struct uvk *u, struct file *f, u32 handle)
{
	struct uvk_ioctl req;

	uvk_ioctl_init(u, &req, TOBJ_OBJ, TOBJ_M_DESTROY);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, handle);
	return uvk_ioctl(u, f, &req);
}
