/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_uverbs' internal interface: what the framework (uverbs/core/) offers
 * the standard objects and commands (uverbs/objects/), and what the
 * framework's own files share.  Documentation/core.rst ("ib_uverbs")
 * tells the same story in prose.
 *
 * Handlers
 *   Every handler, of an ioctl() method or of a write() command, gets a
 *   struct uverbs_attr_bundle *attrs and runs inside the SRCU read section
 *   of attrs->ufile->device->disassociate_srcu, so that the RDMA device
 *   cannot go away under it:
 *     attrs->ufile                   the open /dev/infiniband/uverbsN
 *     ib_uverbs_get_ucontext(attrs)  the file's user context, ERR_PTR
 *                                    -EIO after disassociation, -EINVAL
 *                                    before GET_CONTEXT
 *     attrs->context                 the context of the objects the
 *                                    command looked up or allocated
 *     uverbs_attrs_ibdev(attrs)      the RDMA device, NULL once
 *                                    disassociated
 *     attrs->driver_udata            the driver's part of the command
 *     attrs->ucore                   write(): the core request/response
 *   A handler never returns -EPROTONOSUPPORT: that errno means "the
 *   framework cannot run this request" to libibverbs (the framework turns
 *   a handler's into -EINVAL).
 *
 * Method tree (uapi.c)
 *   Built per device when its uverbs device is added, from the core's
 *   chain uverbs_core_defs[] (uapi.c) and the driver's ops.driver_def.
 *   The core chain holds the engine's definitions (uverbs_def_engine[]:
 *   the DEVICE object's GET_CONTEXT and INVOKE_WRITE, the ASYNC_EVENT and
 *   COMP_CHANNEL file objects) and uverbs_def_objects[], which
 *   uverbs/objects/objects.c owns: the standard objects chain their
 *   UAPI_DEF_CHAIN_OBJ_TREE_NAMED() trees and their DECLARE_UVERBS_OBJECT()
 *   write commands there.  Object trees of one id merge (several files may
 *   each add methods to UVERBS_OBJECT_DEVICE); a method id defined twice
 *   with a handler is an error.  UAPI_DEF_OBJ_NEEDS_FN(),
 *   UAPI_DEF_METHOD_NEEDS_FN() and UAPI_DEF_IS_OBJ_SUPPORTED() disable what
 *   the device cannot do; a legacy write command is also disabled when its
 *   bit is clear in ib_device.uverbs_cmd_mask.  A disabled or unknown
 *   ioctl method is -EPROTONOSUPPORT, a disabled or unknown write command
 *   -EOPNOTSUPP.
 *
 * write() commands
 *   Numbered by enum ib_uverbs_write_cmds (legacy) and
 *   enum ib_uverbs_ex_write_cmds (extended), declared with
 *   UVERBS_WRITE(num, handler, UVERBS_WRITE_*(...)) or UVERBS_WRITE_EX()
 *   inside DECLARE_UVERBS_OBJECT(); the UVERBS_WRITE_* descriptions say
 *   what the request and response are, so that the framework checks the
 *   lengths and splits core and driver data (udata).  A handler reads its request
 *   with uverbs_write_request() and answers with uverbs_write_response();
 *   the same handler also runs through ioctl() INVOKE_WRITE.  A write
 *   handler that allocates an object hands it to the framework with
 *   uobj_finalize_uobj_create(): committed if the handler returns 0,
 *   aborted otherwise.
 *
 * Objects (uobject.c, idr.c, fd.c, cleanup.c)
 *   The public <rdma/uverbs_std_types.h> calls (uobj_alloc(),
 *   uobj_get_read(), uobj_get_destroy(), ...) and
 *   <rdma/uverbs_types.h> (rdma_lookup_get_uobject(), ...) work as their
 *   comments say, with uapi_get_object() below.  IDR handles live in
 *   ufile->idr; a READ lookup shares an object, WRITE and DESTROY take it
 *   exclusively (-EBUSY while another command uses it).  After
 *   disassociation every lookup but DESTROY is -EIO.  When the file is
 *   closed (RDMA_REMOVE_CLOSE) or the device goes
 *   (RDMA_REMOVE_DRIVER_REMOVE), objects are destroyed newest first, and
 *   again while a destroy_object() returns an error (-EBUSY of a PD still
 *   in use by a later object, for instance), until none is left.
 *
 * Resource tracking
 *   The framework tracks the user context (RDMA_RESTRACK_CTX, named after
 *   the task that opened it).  A standard object tracks itself the way the
 *   kernel verbs do: rdma_restrack_new(), rdma_restrack_set_name(res, NULL)
 *   (the current task), rdma_restrack_add() once created,
 *   rdma_restrack_del() before the driver destroys it.
 *
 * Events (event.c)
 *   One queue type, struct ib_uverbs_event_queue, behind both the async
 *   event file (GET_CONTEXT's async_fd, UVERBS_OBJECT_ASYNC_EVENT) and the
 *   completion channels (UVERBS_OBJECT_COMP_CHANNEL, struct
 *   uverbs_comp_file).  read() returns one event per call (blocking, or
 *   -EAGAIN with O_NONBLOCK), poll() and fasync work; an event queued for
 *   an object is counted in that object's *_events_reported only when it
 *   is read, and dropped uncounted when the object is destroyed first.
 *
 * The framework's own layers, lock order and lifetime rules are in
 * uverbs/core/internal.h, which its files include instead of this one.
 */
#ifndef OOT_UVERBS_INTERNAL_H
#define OOT_UVERBS_INTERNAL_H

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/srcu.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_std_types.h>
#ifndef UVERBS_MODULE_NAME
#define UVERBS_MODULE_NAME ib_uverbs
#endif
#include <rdma/uverbs_named_ioctl.h>
#include "abi/ib_uverbs/types.h"
#include "abi/ib_uverbs/api_types.h"

/* ---------------------------------------------------------------------
 * Devices and files (device.c, file.c)
 */

/**
 * struct uverbs_device - our side of a /dev/infiniband/uverbsN
 * @base: the target's structure, which ib_core's mmap helpers and the
 *	drivers' uverbs calls reach through ib_uverbs_file.device
 * @drv_owner: the driver's module; each open file holds a reference on
 *	it when @drv_pinned, so that the driver's code behind mappings and
 *	file operations stays until the file is closed
 * @drv_pinned: the driver has no ops.disassociate_ucontext
 */
struct uverbs_device {
	struct ib_uverbs_device base;
	struct module *drv_owner;
	bool drv_pinned;
};

static inline struct uverbs_device *
to_uverbs_device(struct ib_uverbs_device *udev)
{
	return container_of(udev, struct uverbs_device, base);
}

/**
 * struct uverbs_file - our side of an open /dev/infiniband/uverbsN
 * @base: the target's structure (ucontext->ufile, filp->private_data)
 * @ibdev: the RDMA device it was opened on; the file holds a reference
 *	to its struct device, so that its memory outlives a disassociation
 *	while the file is open
 * @retired: the user context of a disassociated file: the driver has
 *	freed what it hung on it, but mappings the driver made may still
 *	reach it until the file is released, which frees it
 */
struct uverbs_file {
	struct ib_uverbs_file base;
	struct ib_device *ibdev;
	struct ib_ucontext *retired;
};

static inline struct uverbs_file *to_uverbs_file(struct ib_uverbs_file *ufile)
{
	return container_of(ufile, struct uverbs_file, base);
}

/*
 * The RDMA device behind @ufile, NULL once disassociated.  The caller is
 * in the SRCU read section of ufile->device->disassociate_srcu (every
 * handler is).
 */
static inline struct ib_device *uverbs_ufile_ibdev(struct ib_uverbs_file *ufile)
{
	return srcu_dereference(ufile->device->ib_dev,
				&ufile->device->disassociate_srcu);
}

static inline struct ib_device *
uverbs_attrs_ibdev(const struct uverbs_attr_bundle *attrs)
{
	return uverbs_ufile_ibdev(attrs->ufile);
}

/* device.c: the character devices and the client */
int uverbs_devices_init(void);
void uverbs_devices_exit(void);


/* ---------------------------------------------------------------------
 * The method tree (uapi.c)
 */

/**
 * struct uverbs_api_ioctl_method - an ioctl() method of a device's tree
 * @handler: the handler; NULL once the device is disassociated if it is
 *	in the driver's module (READ_ONCE() within disassociate_srcu, which
 *	disassociation waits for after clearing it)
 * @mandatory: attributes (by bundle key) the caller must give
 * @udata_present: the method takes UVERBS_ATTR_UHW() driver data
 * @from_driver: the handler or an attribute belongs to the driver
 * @disabled: the device cannot run it (removed when the tree is done)
 * @nr_bkeys: one more than the highest bundle key of its attributes
 * @destroy_bkey: the bundle key of its DESTROY object attribute, or
 *	UVERBS_API_ATTR_BKEY_LEN if it has none
 */
struct uverbs_api_ioctl_method {
	int (*handler)(struct uverbs_attr_bundle *attrs);
	DECLARE_BITMAP(mandatory, UVERBS_API_ATTR_BKEY_LEN);
	u8 udata_present:1;
	u8 from_driver:1;
	u8 disabled:1;
	u8 nr_bkeys;
	u8 destroy_bkey;
};

/*
 * The core chain and its two parts: the engine's own definitions and the
 * standard objects' (uverbs/objects/objects.c).
 */
extern const struct uapi_definition uverbs_def_engine[];
extern const struct uapi_definition uverbs_def_objects[];
/* The engine's part: device_obj.c, event_obj.c */
extern const struct uapi_definition uverbs_def_device_engine[];
extern const struct uapi_definition uverbs_def_event_files[];

struct uverbs_api *uverbs_uapi_alloc(struct ib_device *ibdev,
				     const struct uapi_definition *core);
void uverbs_uapi_revoke_methods(struct uverbs_api *uapi);
void uverbs_uapi_revoke_types(struct uverbs_api *uapi);
void uverbs_uapi_free(struct uverbs_api *uapi);
const struct uverbs_api_ioctl_method *
uverbs_uapi_ioctl_method(struct uverbs_api *uapi, u16 object_id,
			 u16 method_id, u32 *method_key);
const struct uverbs_api_attr *
uverbs_uapi_attr(struct uverbs_api *uapi, u32 method_key, u16 attr_id);
const struct uverbs_api_attr *
uverbs_uapi_attr_by_bkey(struct uverbs_api *uapi, u32 method_key, u32 bkey);
const struct uverbs_api_write_method *
uverbs_uapi_write_method(struct uverbs_api *uapi, u32 command);

/**
 * uapi_get_object() - the object of a device's tree with id @object_id
 * @uapi: the tree
 * @object_id: an object id, or UVERBS_IDR_ANY_OBJECT
 *
 * The name is the one <rdma/uverbs_std_types.h> (uobj_get_type()) uses.
 *
 * Return: the object; ERR_PTR(-ENOMSG) for UVERBS_IDR_ANY_OBJECT, which
 * any IDR object matches in a lookup; ERR_PTR(-ENOENT) if the device has
 * no such object.
 */
const struct uverbs_api_object *uapi_get_object(struct uverbs_api *uapi,
						u16 object_id);

/*
 * A write() command, an entry of DECLARE_UVERBS_OBJECT():
 *   UVERBS_WRITE(IB_USER_VERBS_CMD_ALLOC_PD, handler,
 *		  UVERBS_WRITE_UDATA_IO(struct ib_uverbs_alloc_pd,
 *					struct ib_uverbs_alloc_pd_resp)),
 *   UAPI_DEF_METHOD_NEEDS_FN(alloc_pd),
 * UVERBS_WRITE_EX() for an extended command.  (The public
 * DECLARE_UVERBS_WRITE() does the same, but initialises .write twice,
 * which sparse reports.)  The descriptions say what the request and the
 * response are: only a request (_I), a request and a response (_IO; the
 * request starts with the u64 "response" user pointer), and with driver
 * data after both (_UDATA_*: the structures end in a driver_data[]
 * flexible array).  The _EX forms name the last member the caller must
 * send (extended commands may grow).
 */
#define UVERBS_WRITE(_num, _handler, ...)				\
	{								\
		.kind = UAPI_DEF_WRITE,					\
		.scope = UAPI_SCOPE_OBJECT,				\
		.write = { .command_num = _num, __VA_ARGS__ },		\
		.func_write = _handler,					\
	}

#define UVERBS_WRITE_EX(_num, _handler, ...)				\
	{								\
		.kind = UAPI_DEF_WRITE,					\
		.scope = UAPI_SCOPE_OBJECT,				\
		.write = { .command_num = _num, .is_ex = 1,		\
			   __VA_ARGS__ },				\
		.func_write = _handler,					\
	}

#define UVERBS_WRITE_IO(_req, _resp)					\
	.has_resp = 1 +							\
		BUILD_BUG_ON_ZERO(offsetof(_req, response) ||		\
				  sizeof_field(_req, response) != 8),	\
	.req_size = sizeof(_req),					\
	.resp_size = sizeof(_resp)

#define UVERBS_WRITE_I(_req) .req_size = sizeof(_req)

#define UVERBS_WRITE_UDATA_IO(_req, _resp)				\
	UVERBS_WRITE_IO(_req, _resp),					\
	.has_udata = 1 +						\
		BUILD_BUG_ON_ZERO(offsetof(_req, driver_data) !=	\
				  sizeof(_req) ||			\
				  offsetof(_resp, driver_data) !=	\
				  sizeof(_resp))

#define UVERBS_WRITE_UDATA_I(_req)					\
	UVERBS_WRITE_I(_req),						\
	.has_udata = 1 +						\
		BUILD_BUG_ON_ZERO(offsetof(_req, driver_data) !=	\
				  sizeof(_req))

#define UVERBS_WRITE_IO_EX(_req, _req_last, _resp, _resp_last)		\
	.has_resp = 1,							\
	.req_size = offsetofend(_req, _req_last),			\
	.resp_size = offsetofend(_resp, _resp_last)

#define UVERBS_WRITE_I_EX(_req, _req_last)				\
	.req_size = offsetofend(_req, _req_last)

/* ---------------------------------------------------------------------
 * Running commands (write.c, ioctl.c)
 */

/**
 * struct uverbs_call - one system call running a handler
 * @uapi: the device's tree
 * @method: the ioctl() method, NULL for write()
 * @method_key: its key in @uapi
 * @user_attrs: the attributes in userspace
 * @uattrs: their copy
 * @held: bundle keys of attributes holding an object to finalize
 * @held_arrays: bundle keys of attributes holding an array of objects
 * @hw_created: bundle keys of NEW objects whose hardware object the
 *	handler created (uverbs_finalize_uobj_create())
 * @chunks: memory of _uverbs_alloc() beyond @pool, freed at the end
 * @pool: what is left of the call's own scratch memory
 * @pool_left: its bytes
 * @bundle: what the handler gets; its attrs[] follow (ioctl() only)
 */
struct uverbs_call {
	struct uverbs_api *uapi;
	const struct uverbs_api_ioctl_method *method;
	u32 method_key;
	struct ib_uverbs_attr __user *user_attrs;
	struct ib_uverbs_attr *uattrs;
	DECLARE_BITMAP(held, UVERBS_API_ATTR_BKEY_LEN);
	DECLARE_BITMAP(held_arrays, UVERBS_API_ATTR_BKEY_LEN);
	DECLARE_BITMAP(hw_created, UVERBS_API_ATTR_BKEY_LEN);
	struct uverbs_alloc_chunk *chunks;
	u8 *pool;
	size_t pool_left;
	struct uverbs_attr_bundle bundle;
};

static inline struct uverbs_call *
to_uverbs_call(const struct uverbs_attr_bundle *bundle)
{
	return container_of(bundle, struct uverbs_call, bundle);
}

void uverbs_call_free_chunks(struct uverbs_call *call);
int uverbs_set_output(const struct uverbs_attr_bundle *bundle,
		      const struct uverbs_attr *attr);

long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos);

int uverbs_write_request(struct uverbs_attr_bundle *attrs, void *req,
			 size_t req_len);
int uverbs_write_response(struct uverbs_attr_bundle *attrs, const void *resp,
			  size_t resp_len);
u32 uverbs_write_response_length(struct uverbs_attr_bundle *attrs,
				 size_t resp_len);

/**
 * struct uverbs_req_iter - a write() request read piece by piece
 * @cur: the next byte to read
 * @end: the end of the request
 */
struct uverbs_req_iter {
	const void __user *cur;
	const void __user *end;
};

int uverbs_write_request_start(struct uverbs_attr_bundle *attrs,
			       struct uverbs_req_iter *iter, void *req,
			       size_t req_len);
int uverbs_write_request_next(struct uverbs_req_iter *iter, void *val,
			      size_t len);
const void __user *uverbs_write_request_next_ptr(struct uverbs_req_iter *iter,
						 size_t len);
int uverbs_write_request_finish(struct uverbs_req_iter *iter);

void uverbs_fill_udata(struct uverbs_attr_bundle *attrs,
		       struct ib_udata *udata, unsigned int attr_in,
		       unsigned int attr_out);
int uverbs_output_written(const struct uverbs_attr_bundle *attrs,
			  size_t idx);
struct ib_udata *uverbs_get_cleared_udata(struct uverbs_attr_bundle *attrs);

/* ---------------------------------------------------------------------
 * Events (event.c)
 */

/**
 * struct uverbs_comp_file - a completion channel
 * @uobj: its user object (UVERBS_OBJECT_COMP_CHANNEL, an FD object)
 * @ev_queue: its completion events
 */
struct uverbs_comp_file {
	struct ib_uobject uobj;
	struct ib_uverbs_event_queue ev_queue;
};

extern const struct file_operations uverbs_async_event_fops;
int uverbs_async_event_release(struct inode *inode, struct file *filp);
extern const struct file_operations uverbs_comp_event_fops;

void uverbs_event_queue_init(struct ib_uverbs_event_queue *queue);
void uverbs_event_queue_close(struct ib_uverbs_event_queue *queue);

void uverbs_async_file_init(struct ib_uverbs_async_event_file *file);
struct ib_uverbs_async_event_file *
uverbs_async_file_get(struct uverbs_attr_bundle *attrs, u16 attr_id);
void uverbs_async_event(struct ib_uverbs_async_event_file *file, u64 element,
			u32 event, struct list_head *obj_events, u32 *counter);

void uverbs_comp_handler(struct ib_cq *cq, void *cq_context);
void uverbs_cq_event_handler(struct ib_event *event, void *context);
void uverbs_qp_event_handler(struct ib_event *event, void *context);
void uverbs_srq_event_handler(struct ib_event *event, void *context);
void uverbs_wq_event_handler(struct ib_event *event, void *context);

void uverbs_uevent_release(struct ib_uevent_object *uevent);
void uverbs_ucq_release(struct uverbs_comp_file *comp_file,
			struct ib_ucq_object *ucq);

/* ---------------------------------------------------------------------
 * User mappings (mmap.c)
 */

int uverbs_mmap(struct file *filp, struct vm_area_struct *vma);
void uverbs_mmap_zap_all(struct ib_uverbs_file *ufile);

#endif
