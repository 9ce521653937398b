/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The framework's own interface (uverbs/core/): its layers, its lock order
 * and the lifetime rules of what it owns, and the declarations its files
 * share and nothing else uses.  What the standard objects see is in
 * uverbs/internal.h, which this includes.
 *
 * Layers, bottom first.  A file calls only into the layers below it:
 *
 *   ucontext.c    the user context of a file: ib_uverbs_get_ucontext_file(),
 *                 allocation, install, teardown
 *   uobject.c     user objects of any class: lookup and locking,
 *                 alloc/commit/abort, destruction
 *   mmap.c        mmap(), the VMA operations, the zap of a file's mappings
 *   idr.c         the IDR class (handles in ufile->idr)
 *   file.c        the memory and references of an open file (ufile->ref)
 *   fd.c          the FD class: objects that are files, whose release
 *                 drops their reference to the uverbs file
 *   cleanup.c     the teardown of a file: its objects, its mappings when
 *                 the device goes, its context
 *   device.c      the uverbsN devices (the ib_client), open() and
 *                 release() of their files, disassociation
 *
 * Beside the stack: uapi.c (the method tree), attrs.c, write.c and
 * ioctl.c (running commands, over uobject.c), event.c and the engine's
 * objects (event_obj.c, device_obj.c, std.c).  uobject.c reaches the IDR
 * class's lookup for UVERBS_IDR_ANY_OBJECT through uverbs_idr_class, the
 * one object it takes from above; fd.c names event.c's release of the
 * async event file to recognise it, and event.c releases its files
 * through fd.c.
 *
 * Lock order, outermost first:
 *   ib_uverbs_device.lists_mutex
 *   ib_uverbs_file.hw_destroy_rwsem   (read: a command's creation or
 *                                      destruction; write: teardown)
 *   ib_uverbs_file.ucontext_lock
 *   mmap_lock of a process, then ib_uverbs_file.umap_lock
 *   ib_uverbs_file.uobjects_lock, ib_uverbs_event_queue.lock (irq-safe,
 *                                      innermost, never nested)
 *   disassociate_srcu is a read section around every system call;
 *   disassociation waits for them with synchronize_srcu() holding none of
 *   the locks above.
 *
 * Lifetimes:
 *   - struct ib_uverbs_device: a reference per open file (put by file.c
 *     when the file is freed) and the client's, dropped at remove().
 *   - struct ib_uverbs_file: ufile->ref counts the open file and each FD
 *     object made through it; the last reference (uverbs_file_release_ref())
 *     frees the IDR, the default async event file's object, a retired
 *     context and the holds on the RDMA device and the driver's module.
 *   - The user context: from GET_CONTEXT to the file's teardown (close, or
 *     disassociation, whichever comes first); after a disassociation its
 *     memory stays with the file until the file is freed (struct
 *     uverbs_file.retired).
 *   - A user object: its kref counts its creator until commit or abort,
 *     then its handle, its place on the file's uobjects list and every
 *     lookup in progress; freed after an RCU grace period.  Its hardware
 *     object goes with its destruction (a command, its file's release for
 *     an FD object, or the teardown), which clears uobj->object; a lookup
 *     never returns an object whose hardware object is gone.
 */
#ifndef OOT_UVERBS_CORE_INTERNAL_H
#define OOT_UVERBS_CORE_INTERNAL_H

#include "../internal.h"

/* ucontext.c */
int uverbs_ucontext_alloc(struct uverbs_attr_bundle *attrs);
int uverbs_ucontext_install(struct uverbs_attr_bundle *attrs);
void uverbs_ucontext_discard(struct uverbs_attr_bundle *attrs);
void uverbs_ucontext_teardown(struct ib_uverbs_file *ufile,
			      enum rdma_remove_reason reason);

/* uobject.c */
int uverbs_uobj_destroy_locked(struct ib_uobject *uobj,
			       enum rdma_remove_reason reason,
			       struct uverbs_attr_bundle *attrs);
bool uverbs_uobj_trylock(struct ib_uobject *uobj, enum rdma_lookup_mode mode);
void uverbs_uobj_unlock(struct ib_uobject *uobj, enum rdma_lookup_mode mode);
struct ib_uobject *uverbs_uobj_alloc(const struct uverbs_api_object *obj,
				     struct uverbs_attr_bundle *attrs);
struct ib_uobject *uverbs_get_uobject_from_file(u16 object_id,
						enum uverbs_obj_access access,
						s64 id,
						struct uverbs_attr_bundle *attrs);
void uverbs_finalize_object(struct ib_uobject *uobj,
			    enum uverbs_obj_access access, bool hw_obj_valid,
			    bool commit, struct uverbs_attr_bundle *attrs);
int uobj_destroy(struct ib_uobject *uobj, struct uverbs_attr_bundle *attrs);

/* mmap.c */
int uverbs_mmap(struct file *filp, struct vm_area_struct *vma);
void uverbs_mmap_zap_all(struct ib_uverbs_file *ufile);

/* idr.c */
void uverbs_idr_init(struct ib_uverbs_file *ufile);
void uverbs_idr_release(struct ib_uverbs_file *ufile);

/* file.c */
struct uverbs_file *uverbs_file_alloc(struct ib_uverbs_device *udev,
				      struct ib_device *ibdev);
void uverbs_file_release_ref(struct kref *ref);
void uverbs_device_put(struct ib_uverbs_device *udev);

/* cleanup.c: destroy every object and the context of a file */
void uverbs_destroy_ufile_hw(struct ib_uverbs_file *ufile,
			     enum rdma_remove_reason reason);

#endif
