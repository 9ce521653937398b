// SPDX-License-Identifier: GPL-2.0
/*
 * The method tree of a device: what its /dev/infiniband/uverbsN offers.
 *
 * Built once, when the uverbs device is added, from the core chain
 * uverbs_core_defs[] and the driver's ops.driver_def, then read without
 * locks by every system call on the device's files.  Everything lives in
 * uapi->radix under the keys of <rdma/uverbs_ioctl.h> (uapi_key_obj() |
 * uapi_key_ioctl_method() | uapi_key_attr(), or | uapi_key_write*()):
 *
 *   object key            struct uverbs_api_object
 *   ioctl() method key    struct uverbs_api_ioctl_method (internal.h)
 *   attribute key         struct uverbs_api_attr
 *   write() command key   struct uverbs_api_write_method
 *
 * The build runs in three passes: merge the definitions (a driver adds
 * methods and attributes to core objects, never replaces them), prune
 * what the device cannot run (disabled objects with all their methods and
 * commands, disabled methods and commands, then every method that needs
 * an object that is gone), and index (per-method attribute summaries, the
 * write() tables by command number).  After that only disassociation
 * writes: uverbs_uapi_revoke_methods() and uverbs_uapi_revoke_types() cut
 * every pointer into the driver's module.
 */
#include "internal.h"

/* The framework's definitions. */
const struct uapi_definition uverbs_def_engine[] = {
	UAPI_DEF_CHAIN(uverbs_def_device_engine),
	UAPI_DEF_CHAIN(uverbs_def_event_files),
	{}
};

/* The core chain: the framework's definitions and the standard objects'. */
static const struct uapi_definition uverbs_core_defs[] = {
	UAPI_DEF_CHAIN(uverbs_def_engine),
	UAPI_DEF_CHAIN(uverbs_def_objects),
	{}
};

/* Where the walk of a chain is: the object and write() command last met. */
struct uapi_walk {
	struct uverbs_api *uapi;
	struct ib_device *ibdev;
	bool from_driver;
	u16 obj_id;
	u32 obj_key;
	u32 write_key;
};

/* A new zeroed element at @key; -EEXIST if the key is taken. */
static void *uapi_insert(struct uverbs_api *uapi, u32 key, size_t size)
{
	void *elm;
	int ret;

	if (key == UVERBS_API_KEY_ERR)
		return ERR_PTR(-EOVERFLOW);
	elm = kzalloc(size, GFP_KERNEL);
	if (!elm)
		return ERR_PTR(-ENOMEM);
	ret = xa_insert(&uapi->radix, key, elm, GFP_KERNEL);
	if (ret) {
		kfree(elm);
		return ERR_PTR(ret == -EBUSY ? -EEXIST : ret);
	}
	return elm;
}

/* The element at @key, created zeroed if there is none (*@created). */
static void *uapi_get_or_insert(struct uverbs_api *uapi, u32 key, size_t size,
				bool *created)
{
	void *elm = xa_load(&uapi->radix, key);

	*created = !elm;
	return elm ?: uapi_insert(uapi, key, size);
}

static void uapi_walk_enter(struct uapi_walk *w, u16 id)
{
	w->obj_id = id;
	w->obj_key = uapi_key_obj(id);
}

/* The object @id, created if the tree does not have it yet. */
static struct uverbs_api_object *uapi_object_at(struct uverbs_api *uapi,
						u16 id)
{
	struct uverbs_api_object *obj;
	u32 key = uapi_key_obj(id);
	bool created;

	if (key == UVERBS_API_KEY_ERR)
		return ERR_PTR(-EOVERFLOW);
	obj = uapi_get_or_insert(uapi, key, sizeof(*obj), &created);
	if (!IS_ERR(obj))
		obj->id = id;
	return obj;
}

/* An attribute is new in its method: neither side may redefine one. */
static int uapi_add_attr(struct uapi_walk *w,
			 struct uverbs_api_ioctl_method *method, u32 method_key,
			 const struct uverbs_attr_def *def)
{
	const struct uverbs_attr_spec *spec = &def->attr;
	struct uverbs_api_attr *attr;

	if (spec->type == UVERBS_ATTR_TYPE_IDRS_ARRAY &&
	    (spec->u2.objs_arr.access == UVERBS_ACCESS_NEW ||
	     spec->u2.objs_arr.access == UVERBS_ACCESS_DESTROY))
		return -EINVAL;
	/* Its list of ids lives in the driver's module. */
	if (spec->type == UVERBS_ATTR_TYPE_ENUM_IN && w->from_driver)
		method->from_driver = 1;

	attr = uapi_insert(w->uapi, method_key | uapi_key_attr(def->id),
			   sizeof(*attr));
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	attr->spec = *spec;
	return 0;
}

static int uapi_add_method(struct uapi_walk *w, u32 obj_key,
			   const struct uverbs_method_def *def)
{
	u32 method_key = uapi_key_ioctl_method(def->id);
	struct uverbs_api_ioctl_method *method;
	bool created;
	size_t i;
	int ret;

	if (!def->attrs)
		return 0;
	if (method_key == UVERBS_API_KEY_ERR)
		return -EOVERFLOW;
	method_key |= obj_key;
	method = uapi_get_or_insert(w->uapi, method_key, sizeof(*method),
				    &created);
	if (IS_ERR(method))
		return PTR_ERR(method);
	if (created) {
		if (!def->handler)
			return -EINVAL;
		method->handler = def->handler;
		method->from_driver = w->from_driver &&
				      def->handler != uverbs_destroy_def_handler;
	} else if (def->handler) {
		/* Only attributes may be added to an existing method. */
		return -EINVAL;
	}

	for (i = 0; i < def->num_attrs; i++) {
		const struct uverbs_attr_def *attr = (*def->attrs)[i];

		if (!attr)
			continue;
		ret = uapi_add_attr(w, method, method_key, attr);
		if (ret)
			return ret;
	}
	return 0;
}

/* The object's type, set by exactly one definition. */
static int uapi_set_type(struct uapi_walk *w, struct uverbs_api_object *obj,
			 const struct uverbs_object_def *def)
{
	const struct uverbs_obj_type_class *class = def->type_attrs->type_class;

	if (obj->type_attrs)
		return -EINVAL;
	/*
	 * A driver's objects are IDR or FD objects: the framework can revoke
	 * the first at disassociation, and the second keep the driver's
	 * module through their file operations' owner.
	 */
	if (w->from_driver && class != &uverbs_idr_class &&
	    class != &uverbs_fd_class)
		return -EINVAL;
	obj->type_attrs = def->type_attrs;
	obj->type_class = class;
	return 0;
}

static int uapi_add_tree(struct uapi_walk *w,
			 const struct uverbs_object_def *def)
{
	u32 obj_key = uapi_key_obj(def->id);
	struct uverbs_api_object *obj;
	size_t i;
	int ret;

	obj = uapi_object_at(w->uapi, def->id);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	if (def->type_attrs) {
		ret = uapi_set_type(w, obj, def);
		if (ret)
			return ret;
	}
	if (!def->methods)
		return 0;
	for (i = 0; i < def->num_methods; i++) {
		const struct uverbs_method_def *method = (*def->methods)[i];

		if (!method)
			continue;
		ret = uapi_add_method(w, obj_key, method);
		if (ret)
			return ret;
	}
	return 0;
}

static int uapi_add_write(struct uapi_walk *w, const struct uapi_definition *def)
{
	u32 num = def->write.command_num;
	struct uverbs_api_write_method *cmd;
	u32 key;
	bool created;

	key = def->write.is_ex ? uapi_key_write_ex_method(num) :
				 uapi_key_write_method(num);
	if (key == UVERBS_API_KEY_ERR || w->obj_key == UVERBS_API_KEY_ERR)
		return -EOVERFLOW;
	key |= w->obj_key;
	cmd = uapi_get_or_insert(w->uapi, key, sizeof(*cmd), &created);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	if (!created && cmd->is_ex != def->write.is_ex)
		return -EINVAL;

	cmd->is_ex = def->write.is_ex;
	cmd->handler = def->func_write;
	w->write_key = key;
	if (def->write.is_ex)
		/*
		 * As the target does, the framework checks no sizes of an
		 * extended command: its handler reads what was sent,
		 * zero-extended (uverbs_write_request()).
		 */
		return 0;
	cmd->disabled = !(w->ibdev->uverbs_cmd_mask & BIT_ULL(num));
	if (def->func_write) {
		cmd->has_udata = def->write.has_udata;
		cmd->has_resp = def->write.has_resp;
		cmd->req_size = def->write.req_size;
		cmd->resp_size = def->write.resp_size;
	}
	return 0;
}

/* Disable the current object, or the current write() command. */
static int uapi_disable(struct uapi_walk *w, const struct uapi_definition *def)
{
	struct uverbs_api_write_method *cmd;
	struct uverbs_api_object *obj;

	if (def->scope == UAPI_SCOPE_OBJECT) {
		if (w->obj_key == UVERBS_API_KEY_ERR)
			return -EINVAL;
		obj = uapi_object_at(w->uapi, w->obj_id);
		if (IS_ERR(obj))
			return PTR_ERR(obj);
		obj->disabled = 1;
		return 0;
	}
	if (def->scope != UAPI_SCOPE_METHOD)
		return -EINVAL;
	cmd = xa_load(&w->uapi->radix, w->write_key);
	if (w->write_key == UVERBS_API_KEY_ERR || !cmd)
		return -EINVAL;
	cmd->disabled = 1;
	return 0;
}

/* The driver's operation at the definition's offset in ib_device_ops. */
static bool uapi_dev_has_fn(struct ib_device *ibdev, size_t offset)
{
	void *const *fn = (void *const *)((const u8 *)&ibdev->ops + offset);

	return *fn;
}

static int uapi_walk_chain(struct uapi_walk *w,
			   const struct uapi_definition *def);

static int uapi_walk_one(struct uapi_walk *w, const struct uapi_definition *def)
{
	switch ((enum uapi_definition_kind)def->kind) {
	case UAPI_DEF_CHAIN:
		return uapi_walk_chain(w, def->chain);
	case UAPI_DEF_CHAIN_OBJ_TREE:
		if (def->object_start.object_id != def->chain_obj_tree->id)
			return -EINVAL;
		uapi_walk_enter(w, def->object_start.object_id);
		return uapi_add_tree(w, def->chain_obj_tree);
	case UAPI_DEF_OBJECT_START:
		uapi_walk_enter(w, def->object_start.object_id);
		return PTR_ERR_OR_ZERO(uapi_object_at(w->uapi, w->obj_id));
	case UAPI_DEF_WRITE:
		return uapi_add_write(w, def);
	case UAPI_DEF_IS_SUPPORTED_DEV_FN:
		if (uapi_dev_has_fn(w->ibdev, def->needs_fn_offset))
			return 0;
		return uapi_disable(w, def);
	case UAPI_DEF_IS_SUPPORTED_FUNC:
		if (def->func_is_supported(w->ibdev))
			return 0;
		return uapi_disable(w, def);
	case UAPI_DEF_END:
		break;
	}
	return -EINVAL;
}

static int uapi_walk_chain(struct uapi_walk *w,
			   const struct uapi_definition *def)
{
	int ret;

	if (!def)
		return 0;
	for (; def->kind != UAPI_DEF_END; def++) {
		ret = uapi_walk_one(w, def);
		if (ret)
			return ret;
	}
	return 0;
}

/* Free and erase every element with a key in [@first, @last]. */
static void uapi_erase_range(struct uverbs_api *uapi, u32 first, u32 last)
{
	unsigned long key;
	void *elm;

	xa_for_each_range(&uapi->radix, key, elm, first, last) {
		xa_erase(&uapi->radix, key);
		kfree(elm);
	}
}

static void uapi_erase_object(struct uverbs_api *uapi, u32 obj_key)
{
	uapi_erase_range(uapi, obj_key, obj_key | ~UVERBS_API_OBJ_KEY_MASK);
}

static void uapi_erase_method(struct uverbs_api *uapi, u32 method_key)
{
	uapi_erase_range(uapi, method_key,
			 method_key | UVERBS_API_ATTR_KEY_MASK);
}

static bool uapi_elm_disabled(u32 key, void *elm)
{
	if (uapi_key_is_object(key))
		return ((struct uverbs_api_object *)elm)->disabled;
	if (uapi_key_is_ioctl_method(key))
		return ((struct uverbs_api_ioctl_method *)elm)->disabled;
	if (uapi_key_is_write_method(key) || uapi_key_is_write_ex_method(key))
		return ((struct uverbs_api_write_method *)elm)->disabled;
	return false;
}

/* Pass 2a: drop disabled objects, methods and commands with what is below. */
static void uapi_prune_disabled(struct uverbs_api *uapi)
{
	unsigned long key;
	void *elm;

	xa_for_each(&uapi->radix, key, elm) {
		if (!uapi_elm_disabled(key, elm))
			continue;
		if (uapi_key_is_object(key))
			uapi_erase_object(uapi, key);
		else if (uapi_key_is_ioctl_method(key))
			uapi_erase_method(uapi, key);
		else
			uapi_erase_range(uapi, key, key);
	}
}

/* The object a handle attribute refers to, or UVERBS_API_KEY_ERR. */
static u32 uapi_attr_object_id(const struct uverbs_attr_spec *spec)
{
	switch (spec->type) {
	case UVERBS_ATTR_TYPE_IDR:
	case UVERBS_ATTR_TYPE_FD:
		return spec->u.obj.obj_type;
	case UVERBS_ATTR_TYPE_IDRS_ARRAY:
		return spec->u2.objs_arr.obj_type;
	default:
		return UVERBS_API_KEY_ERR;
	}
}

/* A mandatory handle of an object the device does not have. */
static bool uapi_attr_unusable(struct uverbs_api *uapi,
			       const struct uverbs_api_attr *attr)
{
	u32 id = uapi_attr_object_id(&attr->spec);

	if (!attr->spec.mandatory || id == UVERBS_API_KEY_ERR)
		return false;
	return PTR_ERR(uapi_get_object(uapi, id)) == -ENOENT;
}

/* Pass 2b: drop methods that cannot be called for want of an object. */
static void uapi_prune_unusable(struct uverbs_api *uapi)
{
	unsigned long key;
	void *elm;

	xa_for_each(&uapi->radix, key, elm) {
		if (uapi_key_is_attr(key) && uapi_attr_unusable(uapi, elm))
			uapi_erase_method(uapi,
					  uapi_key_attr_to_ioctl_method(key));
	}
}

/* What the parser needs of a method's attributes, summed up once. */
static int uapi_index_method(struct uverbs_api *uapi,
			     struct uverbs_api_ioctl_method *method, u32 key)
{
	unsigned long attr_key;
	struct uverbs_api_attr *attr;
	bool has_new_or_destroy = false;
	u32 bkey;
	u8 access;

	method->destroy_bkey = UVERBS_API_ATTR_BKEY_LEN;
	xa_for_each_range(&uapi->radix, attr_key, attr,
			  uapi_key_attrs_start(key),
			  key | UVERBS_API_ATTR_KEY_MASK) {
		bkey = uapi_bkey_attr(attr_key & UVERBS_API_ATTR_KEY_MASK);
		method->nr_bkeys = max_t(u32, method->nr_bkeys, bkey + 1);
		if (attr->spec.mandatory)
			__set_bit(bkey, method->mandatory);
		if (attr->spec.is_udata)
			method->udata_present = 1;
		if (attr->spec.type != UVERBS_ATTR_TYPE_IDR &&
		    attr->spec.type != UVERBS_ATTR_TYPE_FD)
			continue;
		access = attr->spec.u.obj.access;
		if (access != UVERBS_ACCESS_NEW &&
		    access != UVERBS_ACCESS_DESTROY)
			continue;
		/* One object created or destroyed per call, named always. */
		if (has_new_or_destroy || !attr->spec.mandatory)
			return -EINVAL;
		has_new_or_destroy = true;
		if (access == UVERBS_ACCESS_DESTROY)
			method->destroy_bkey = bkey;
	}
	return 0;
}

static int uverbs_notsupp(struct uverbs_attr_bundle *attrs)
{
	return -EOPNOTSUPP;
}

/* Pass 3b: the write() tables, every number without a command -EOPNOTSUPP. */
static int uapi_index_writes(struct uverbs_api *uapi)
{
	const struct uverbs_api_write_method **table;
	unsigned int num = 1, num_ex = 1, i;
	unsigned long key;
	void *elm;

	xa_for_each(&uapi->radix, key, elm) {
		if (uapi_key_is_write_method(key))
			num = max_t(unsigned int, num,
				    (key & UVERBS_API_ATTR_KEY_MASK) + 1);
		if (uapi_key_is_write_ex_method(key))
			num_ex = max_t(unsigned int, num_ex,
				       (key & UVERBS_API_ATTR_KEY_MASK) + 1);
	}
	table = kmalloc_array(num + num_ex, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	uapi->notsupp_method.handler = uverbs_notsupp;
	for (i = 0; i < num + num_ex; i++)
		table[i] = &uapi->notsupp_method;
	uapi->num_write = num;
	uapi->num_write_ex = num_ex;
	uapi->write_methods = table;
	uapi->write_ex_methods = table + num;

	xa_for_each(&uapi->radix, key, elm) {
		if (uapi_key_is_write_method(key))
			uapi->write_methods[key & UVERBS_API_ATTR_KEY_MASK] = elm;
		if (uapi_key_is_write_ex_method(key))
			uapi->write_ex_methods[key & UVERBS_API_ATTR_KEY_MASK] =
				elm;
	}
	return 0;
}

static int uapi_index(struct uverbs_api *uapi)
{
	unsigned long key;
	void *elm;
	int ret;

	xa_for_each(&uapi->radix, key, elm) {
		if (!uapi_key_is_ioctl_method(key))
			continue;
		ret = uapi_index_method(uapi, elm, key);
		if (ret)
			return ret;
	}
	return uapi_index_writes(uapi);
}

/**
 * uverbs_uapi_free() - free a method tree
 * @uapi: the tree, or NULL
 */
void uverbs_uapi_free(struct uverbs_api *uapi)
{
	if (!uapi)
		return;
	uapi_erase_range(uapi, 0, U32_MAX);
	xa_destroy(&uapi->radix);
	kfree(uapi->write_methods);
	kfree(uapi);
}

/**
 * uverbs_uapi_alloc() - build the method tree of a device
 * @ibdev: the device, for its driver chain, operations and write() mask
 * @core: the core chain; NULL for uverbs_core_defs[] (a test passes its
 *	own)
 *
 * Return: the tree, or an ERR_PTR: -ENOMEM, or -EINVAL, -EEXIST or
 * -EOVERFLOW (logged) for definitions the framework cannot take.
 */
struct uverbs_api *uverbs_uapi_alloc(struct ib_device *ibdev,
				     const struct uapi_definition *core)
{
	struct uapi_walk w = {
		.ibdev = ibdev,
		.obj_key = UVERBS_API_KEY_ERR,
		.write_key = UVERBS_API_KEY_ERR,
	};
	int ret;

	w.uapi = kzalloc(sizeof(*w.uapi), GFP_KERNEL);
	if (!w.uapi)
		return ERR_PTR(-ENOMEM);
	xa_init(&w.uapi->radix);
	w.uapi->driver_id = ibdev->ops.driver_id;

	ret = uapi_walk_chain(&w, core ?: uverbs_core_defs);
	if (!ret) {
		w.from_driver = true;
		w.obj_key = UVERBS_API_KEY_ERR;
		w.write_key = UVERBS_API_KEY_ERR;
		ret = uapi_walk_chain(&w, ibdev->driver_def);
	}
	if (!ret) {
		uapi_prune_disabled(w.uapi);
		uapi_prune_unusable(w.uapi);
		ret = uapi_index(w.uapi);
	}
	if (ret) {
		if (ret != -ENOMEM)
			ibdev_err(ibdev, "uverbs: invalid method definitions (%d)\n",
				  ret);
		uverbs_uapi_free(w.uapi);
		return ERR_PTR(ret);
	}
	return w.uapi;
}

/**
 * uverbs_uapi_revoke_methods() - stop calling a disassociated driver
 * @uapi: the tree
 *
 * Methods whose handler is in the driver's module, or that take an enum
 * attribute whose list is, fail with -EIO from now on.  The caller then
 * waits for the system calls in progress (synchronize_srcu()).
 */
void uverbs_uapi_revoke_methods(struct uverbs_api *uapi)
{
	struct uverbs_api_ioctl_method *method;
	unsigned long key;

	xa_for_each(&uapi->radix, key, method) {
		if (uapi_key_is_ioctl_method(key) && method->from_driver)
			WRITE_ONCE(method->handler, NULL);
	}
}

/**
 * uverbs_uapi_revoke_types() - forget a disassociated driver's types
 * @uapi: the tree, whose files have no object left with a hardware object
 *
 * The object types and enum attribute lists the driver's module may own
 * become NULL: allocations and FD lookups fail with -EIO, and nothing
 * reaches the module any more.
 */
void uverbs_uapi_revoke_types(struct uverbs_api *uapi)
{
	struct uverbs_api_object *obj;
	struct uverbs_api_attr *attr;
	unsigned long key;
	void *elm;

	xa_for_each(&uapi->radix, key, elm) {
		if (uapi_key_is_object(key)) {
			obj = elm;
			WRITE_ONCE(obj->type_attrs, NULL);
		} else if (uapi_key_is_attr(key)) {
			attr = elm;
			if (attr->spec.type == UVERBS_ATTR_TYPE_ENUM_IN)
				WRITE_ONCE(attr->spec.u2.enum_def.ids, NULL);
		}
	}
}

const struct uverbs_api_object *uapi_get_object(struct uverbs_api *uapi,
						u16 object_id)
{
	const struct uverbs_api_object *obj;

	if (object_id == UVERBS_IDR_ANY_OBJECT)
		return ERR_PTR(-ENOMSG);
	obj = xa_load(&uapi->radix, uapi_key_obj(object_id));
	return obj ?: ERR_PTR(-ENOENT);
}

/**
 * uverbs_uapi_ioctl_method() - an ioctl() method of a device's tree
 * @uapi: the tree
 * @object_id: the object id of the request
 * @method_id: the method id of the request
 * @method_key: set to the method's key, for uverbs_uapi_attr()
 *
 * Return: the method, or NULL if the device has no such method.
 */
const struct uverbs_api_ioctl_method *
uverbs_uapi_ioctl_method(struct uverbs_api *uapi, u16 object_id,
			 u16 method_id, u32 *method_key)
{
	u32 obj = uapi_key_obj(object_id);
	u32 method = uapi_key_ioctl_method(method_id);

	if (obj == UVERBS_API_KEY_ERR || method == UVERBS_API_KEY_ERR)
		return NULL;
	*method_key = obj | method;
	return xa_load(&uapi->radix, *method_key);
}

/**
 * uverbs_uapi_attr() - an attribute of an ioctl() method
 * @uapi: the tree
 * @method_key: the method's key
 * @attr_id: the attribute id of the request
 *
 * Return: the attribute, or NULL if the method has no such attribute.
 */
const struct uverbs_api_attr *
uverbs_uapi_attr(struct uverbs_api *uapi, u32 method_key, u16 attr_id)
{
	u32 attr = uapi_key_attr(attr_id);

	if (attr == UVERBS_API_KEY_ERR)
		return NULL;
	return xa_load(&uapi->radix, method_key | attr);
}

/**
 * uverbs_uapi_attr_by_bkey() - an attribute of an ioctl() method by its
 *	bundle key
 * @uapi: the tree
 * @method_key: the method's key
 * @bkey: the attribute's index in the bundle
 *
 * Return: the attribute, or NULL.
 */
const struct uverbs_api_attr *
uverbs_uapi_attr_by_bkey(struct uverbs_api *uapi, u32 method_key, u32 bkey)
{
	return xa_load(&uapi->radix, method_key | uapi_bkey_to_key_attr(bkey));
}

/**
 * uverbs_uapi_write_method() - a write() command of a device's tree
 * @uapi: the tree
 * @command: the command word of a write() header
 *
 * Return: the command (the tree's not-supported command for a number in
 * range without one); ERR_PTR(-EINVAL) if @command has bits beyond the
 * number and the extended flag; ERR_PTR(-EOPNOTSUPP) for a number beyond
 * every command.
 */
const struct uverbs_api_write_method *
uverbs_uapi_write_method(struct uverbs_api *uapi, u32 command)
{
	u32 num = command & IB_USER_VERBS_CMD_COMMAND_MASK;

	if (command & ~(u32)(IB_USER_VERBS_CMD_FLAG_EXTENDED |
			     IB_USER_VERBS_CMD_COMMAND_MASK))
		return ERR_PTR(-EINVAL);
	if (command & IB_USER_VERBS_CMD_FLAG_EXTENDED)
		return num < uapi->num_write_ex ? uapi->write_ex_methods[num] :
						  ERR_PTR(-EOPNOTSUPP);
	return num < uapi->num_write ? uapi->write_methods[num] :
				       ERR_PTR(-EOPNOTSUPP);
}
