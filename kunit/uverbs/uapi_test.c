// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the method tree ib_uverbs builds for a device
 * (uverbs/core/uapi.c): the driver's chain merged with the core's (driver
 * methods of core objects, driver attributes of core methods), what a
 * device cannot do taken out (UAPI_DEF_IS_OBJ_SUPPORTED,
 * UAPI_DEF_OBJ_NEEDS_FN, methods needing an object that is gone, write()
 * commands cleared from uverbs_cmd_mask), and chains the framework must
 * refuse: a device with one gets no uverbsN at all.
 *
 * What the tree holds is seen as userspace sees it: a method is there if
 * ioctl() runs it, gone if ioctl() says -EPROTONOSUPPORT.
 */
#include <kunit/test.h>
#include "tobj.h"

static struct file *ua_open_with_context(struct kunit *test, struct uvk *u)
{
	struct file *f = uvk_open(u);
	int afd;

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	afd = uvk_get_context(u, f);
	KUNIT_ASSERT_GE(test, afd, 0);
	uvk_close(u, uvk_take_fd(afd));
	return f;
}

static long ua_call(struct uvk *u, struct file *f, u16 obj, u16 method)
{
	struct uvk_ioctl req;
	u32 mand = 0;

	uvk_ioctl_init(u, &req, obj, method);
	if (obj == UVERBS_OBJECT_DEVICE && method == TOBJ_M_ATTRS)
		uvk_attr_in(u, &req, TOBJ_A_MAND, &mand, sizeof(mand));
	else
		uvk_attr_obj(&req, TOBJ_A_HANDLE, 0);
	return uvk_ioctl(u, f, &req);
}

static void uapi_driver_methods_merged(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def };
	struct uvk *u, *plain;
	struct file *f;

	tobj_reset();
	u = uvk_new(test, &p);
	plain = uvk_new(test, NULL);
	f = ua_open_with_context(test, u);
	/* A driver method of the core's device object, beside the core's */
	KUNIT_EXPECT_EQ(test, ua_call(u, f, UVERBS_OBJECT_DEVICE,
				      TOBJ_M_ATTRS), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 1);
	/* The driver's own objects */
	KUNIT_EXPECT_EQ(test, ua_call(u, f, TOBJ_OBJ2, TOBJ_M_CREATE2), 0);
	uvk_close(u, f);

	/* Not on a device without that chain */
	f = ua_open_with_context(test, plain);
	KUNIT_EXPECT_EQ(test, ua_call(plain, f, UVERBS_OBJECT_DEVICE,
				      TOBJ_M_ATTRS), -EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, ua_call(plain, f, TOBJ_OBJ2, TOBJ_M_CREATE2),
			-EPROTONOSUPPORT);
	uvk_close(plain, f);
}

/* ioctl() GET_CONTEXT with a mandatory driver attribute. */
static long ua_get_context_drv(struct uvk *u, struct file *f)
{
	struct uvk_ioctl req;
	u32 v = 1;

	uvk_ioctl_init(u, &req, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	uvk_attr_in(u, &req, TOBJ_A_GET_CONTEXT_DRV, &v, sizeof(v));
	return uvk_ioctl(u, f, &req);
}

static void uapi_driver_attr_of_core_method(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def };
	struct uvk *u = uvk_new(test, &p);
	struct uvk *plain = uvk_new(test, NULL);
	struct file *f;

	f = uvk_open(u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, ua_get_context_drv(u, f), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->alloc_ucontext), 1);
	uvk_close(u, f);

	f = uvk_open(plain);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, ua_get_context_drv(plain, f), -EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, atomic_read(&plain->alloc_ucontext), 0);
	uvk_close(plain, f);
}

static void uapi_unsupported_removed(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def };
	struct uvk *u = uvk_new(test, &p);
	struct file *f = ua_open_with_context(test, u);

	/* UAPI_DEF_IS_OBJ_SUPPORTED() said no: the object and its methods */
	KUNIT_EXPECT_EQ(test, ua_call(u, f, TOBJ_DISABLED, TOBJ_M_DISABLED),
			-EPROTONOSUPPORT);
	/* UAPI_DEF_OBJ_NEEDS_FN(alloc_xrcd), which the device lacks */
	KUNIT_EXPECT_EQ(test, ua_call(u, f, TOBJ_NEEDS_FN, TOBJ_M_NEEDS_FN),
			-EPROTONOSUPPORT);
	/* A method that needs a handle of the object that is gone */
	KUNIT_EXPECT_EQ(test, ua_call(u, f, UVERBS_OBJECT_DEVICE,
				      TOBJ_M_NEEDS_DISABLED), -EPROTONOSUPPORT);
	/* The rest of the object is still there */
	KUNIT_EXPECT_EQ(test, ua_call(u, f, UVERBS_OBJECT_DEVICE, TOBJ_M_ATTRS),
			0);
	uvk_close(u, f);
}

static void uapi_write_command_disabled(struct kunit *test)
{
	struct uvk_params p = {
		.cmd_mask_clear = BIT_ULL(IB_USER_VERBS_CMD_GET_CONTEXT),
	};
	struct uvk *u = uvk_new(test, &p);
	struct file *f = uvk_open(u);
	struct uvk_ioctl req;
	u32 cmd[2] = {};

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, uvk_get_context(u, f), -EOPNOTSUPP);
	uvk_ioctl_init(u, &req, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	uvk_attr_u64(&req, UVERBS_ATTR_WRITE_CMD, IB_USER_VERBS_CMD_GET_CONTEXT);
	uvk_attr_in(u, &req, UVERBS_ATTR_CORE_IN, cmd, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, uvk_ioctl(u, f, &req), -EOPNOTSUPP);
	/* The ioctl() method is not a write() command: still there */
	uvk_ioctl_init(u, &req, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	KUNIT_EXPECT_EQ(test, uvk_ioctl(u, f, &req), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->alloc_ucontext), 1);
	uvk_close(u, f);
}

static void uapi_disassociated_driver_methods(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def,
				.disassociate = true };
	struct uvk *u = uvk_new(test, &p);
	struct file *f = ua_open_with_context(test, u);

	tobj_reset();
	uvk_unregister(u);
	/* The driver's handlers are cut off */
	KUNIT_EXPECT_EQ(test, ua_call(u, f, UVERBS_OBJECT_DEVICE, TOBJ_M_ATTRS),
			-EIO);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 0);
	uvk_close(u, f);
}

/* Definitions the framework refuses, one per chain. */
static int ua_handler(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

#define UA_METHOD(_name, _id, _handler, ...)				\
	static const struct uverbs_attr_def *const _name##_attrs[] = {	\
		__VA_ARGS__ };						\
	static const struct uverbs_method_def _name = {			\
		.id = _id,						\
		.handler = _handler,					\
		.num_attrs = ARRAY_SIZE(_name##_attrs),			\
		.attrs = &_name##_attrs,				\
	}

#define UA_OBJECT(_name, _id, _type, ...)				\
	static const struct uverbs_method_def *const _name##_methods[] = { \
		__VA_ARGS__ };						\
	static const struct uverbs_object_def _name = {			\
		.id = _id,						\
		.type_attrs = _type,					\
		.num_methods = ARRAY_SIZE(_name##_methods),		\
		.methods = &_name##_methods,				\
	}

/* A second handler for the core's GET_CONTEXT */
UA_METHOD(ua_dup_handler_m, UVERBS_METHOD_GET_CONTEXT, ua_handler,
	  UVERBS_ATTR_PTR_IN(TOBJ_NS_ATTR, UVERBS_ATTR_TYPE(u32), UA_OPTIONAL));
UA_OBJECT(ua_dup_handler, UVERBS_OBJECT_DEVICE, NULL, &ua_dup_handler_m);

/* A core attribute of GET_CONTEXT defined again */
UA_METHOD(ua_dup_attr_m, UVERBS_METHOD_GET_CONTEXT, NULL,
	  UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
			      UVERBS_ATTR_TYPE(u32), UA_OPTIONAL));
UA_OBJECT(ua_dup_attr, UVERBS_OBJECT_DEVICE, NULL, &ua_dup_attr_m);

/* The type of a driver object given twice */
UA_METHOD(ua_typed_m, TOBJ_NS | 6, ua_handler,
	  UVERBS_ATTR_PTR_IN(TOBJ_NS_ATTR, UVERBS_ATTR_TYPE(u32), UA_OPTIONAL));
UA_OBJECT(ua_retyped, TOBJ_OBJ, &UVERBS_TYPE_ALLOC_IDR(NULL), &ua_typed_m);

/* An object id beyond the driver's range */
UA_OBJECT(ua_far_object, TOBJ_NS | 20, NULL, &ua_typed_m);

/* A new method without a handler */
UA_METHOD(ua_no_handler_m, TOBJ_NS | 6, NULL,
	  UVERBS_ATTR_PTR_IN(TOBJ_NS_ATTR, UVERBS_ATTR_TYPE(u32), UA_OPTIONAL));
UA_OBJECT(ua_no_handler, TOBJ_OBJ2, NULL, &ua_no_handler_m);

/* Two objects created by one call */
UA_METHOD(ua_two_new_m, TOBJ_NS | 6, ua_handler,
	  UVERBS_ATTR_IDR(TOBJ_NS_ATTR, TOBJ_OBJ, UVERBS_ACCESS_NEW,
			  UA_MANDATORY),
	  UVERBS_ATTR_IDR(TOBJ_NS_ATTR + 1, TOBJ_OBJ, UVERBS_ACCESS_NEW,
			  UA_MANDATORY));
UA_OBJECT(ua_two_new, TOBJ_OBJ2, NULL, &ua_two_new_m);

/* A new object the caller need not name */
UA_METHOD(ua_optional_new_m, TOBJ_NS | 6, ua_handler,
	  UVERBS_ATTR_IDR(TOBJ_NS_ATTR, TOBJ_OBJ, UVERBS_ACCESS_NEW,
			  UA_OPTIONAL));
UA_OBJECT(ua_optional_new, TOBJ_OBJ2, NULL, &ua_optional_new_m);

/* An array of objects to create */
UA_METHOD(ua_new_array_m, TOBJ_NS | 6, ua_handler,
	  (&(const struct uverbs_attr_def){
		.id = TOBJ_NS_ATTR,
		.attr = { .type = UVERBS_ATTR_TYPE_IDRS_ARRAY,
			  .u2.objs_arr.obj_type = TOBJ_OBJ,
			  .u2.objs_arr.access = UVERBS_ACCESS_NEW,
			  .u2.objs_arr.min_len = 1,
			  .u2.objs_arr.max_len = 2 } }));
UA_OBJECT(ua_new_array, TOBJ_OBJ2, NULL, &ua_new_array_m);

/* A driver object of a class of its own */
static const struct uverbs_obj_type_class ua_own_class;
static const struct uverbs_obj_type ua_own_type = {
	.type_class = &ua_own_class,
	.obj_size = sizeof(struct ib_uobject),
};
UA_OBJECT(ua_own_class_obj, TOBJ_NS | 7, &ua_own_type, &ua_typed_m);

#define UA_BAD(_tree, _id)						\
	{ UAPI_DEF_CHAIN(tobj_driver_def),				\
	  UAPI_DEF_CHAIN_OBJ_TREE(_id, &_tree), {} }

static const struct uapi_definition ua_bad_chains[][3] = {
	UA_BAD(ua_dup_handler, UVERBS_OBJECT_DEVICE),
	UA_BAD(ua_dup_attr, UVERBS_OBJECT_DEVICE),
	UA_BAD(ua_retyped, TOBJ_OBJ),
	UA_BAD(ua_far_object, TOBJ_NS | 20),
	UA_BAD(ua_no_handler, TOBJ_OBJ2),
	UA_BAD(ua_two_new, TOBJ_OBJ2),
	UA_BAD(ua_optional_new, TOBJ_OBJ2),
	UA_BAD(ua_new_array, TOBJ_OBJ2),
	UA_BAD(ua_own_class_obj, TOBJ_NS | 7),
	/* The tree's id and the chain's disagree */
	UA_BAD(ua_two_new, TOBJ_OBJ),
};

static const char *const ua_bad_names[] = {
	"second handler of GET_CONTEXT",
	"core attribute redefined",
	"object type set twice",
	"object id out of range",
	"new method without handler",
	"two NEW attributes",
	"optional NEW attribute",
	"IDRS array of NEW objects",
	"driver object of its own class",
	"chain id differs from tree id",
};

static const void *ua_bad_gen(const void *prev, char *desc)
{
	const struct uapi_definition (*chain)[3] = prev;

	chain = chain ? chain + 1 : &ua_bad_chains[0];
	if (chain >= &ua_bad_chains[ARRAY_SIZE(ua_bad_chains)])
		return NULL;
	strscpy(desc, ua_bad_names[chain - ua_bad_chains], KUNIT_PARAM_DESC_SIZE);
	return chain;
}

static void uapi_bad_chain_refused(struct kunit *test)
{
	const struct uapi_definition (*chain)[3] = test->param_value;
	struct uvk_params p = { .driver_def = *chain };
	struct uvk *u = uvk_new_unregistered(test, &p);

	/* The device registers, without a uverbsN */
	KUNIT_EXPECT_EQ(test, uvk_register(u), -ENOENT);
	KUNIT_EXPECT_TRUE(test, ib_device_try_get(&u->td->ibdev));
	ib_device_put(&u->td->ibdev);
}

static void uapi_good_chain_accepted(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def };
	struct uvk *u = uvk_new_unregistered(test, &p);

	/* The same registration with the chains' good part: a uverbsN */
	KUNIT_EXPECT_EQ(test, uvk_register(u), 0);
	KUNIT_EXPECT_GE(test, u->devnum, 0);
}

static struct kunit_case uapi_cases[] = {
	KUNIT_CASE(uapi_driver_methods_merged),
	KUNIT_CASE(uapi_driver_attr_of_core_method),
	KUNIT_CASE(uapi_unsupported_removed),
	KUNIT_CASE(uapi_write_command_disabled),
	KUNIT_CASE(uapi_disassociated_driver_methods),
	KUNIT_CASE(uapi_good_chain_accepted),
	KUNIT_CASE_PARAM(uapi_bad_chain_refused, ua_bad_gen),
	{}
};

static struct kunit_suite uapi_suite = {
	.name = "rdma_uverbs_uapi",
	.suite_init = uvk_suite_init,
	.suite_exit = uvk_suite_exit,
	.test_cases = uapi_cases,
};

kunit_test_suites(&uapi_suite);
