// SPDX-License-Identifier: GPL-2.0
/*
 * The teardown of a file: every object, then (when the device goes) its
 * mappings of device memory, then the user context, when the file is
 * closed (RDMA_REMOVE_CLOSE) or its device goes (RDMA_REMOVE_DRIVER_REMOVE).
 *
 * It holds the file's hw_destroy_rwsem for write, so no command creates
 * or destroys an object meanwhile, and takes each object exclusively.
 * Objects are destroyed newest first, which destroys users before what
 * they use; a driver that still refuses (an object in use by another
 * one, e.g. an MR bound by a later MW) gets another pass as long as a
 * pass destroys anything.  What a driver never gives up is forgotten, so
 * that the file can go.
 */
#include "internal.h"

/* One pass over the objects; true if it destroyed at least one. */
static bool cleanup_pass(struct ib_uverbs_file *ufile,
			 enum rdma_remove_reason reason)
{
	struct uverbs_attr_bundle attrs = { .ufile = ufile };
	struct ib_uobject *uobj, *next;
	bool progress = false;

	lockdep_assert_held_write(&ufile->hw_destroy_rwsem);
	list_for_each_entry_safe(uobj, next, &ufile->uobjects, list) {
		/*
		 * No command holds it: commands lock objects only inside the
		 * rwsem or, READ and WRITE lookups, while the device is
		 * there, and disassociation waited for those to end.
		 */
		if (WARN_ON_ONCE(!uverbs_uobj_trylock(uobj,
						      UVERBS_LOOKUP_WRITE)))
			continue;
		attrs.context = uobj->context;
		if (!uverbs_uobj_destroy_locked(uobj, reason, &attrs))
			progress = true;
		else
			uverbs_uobj_unlock(uobj, UVERBS_LOOKUP_WRITE);
	}
	return progress;
}

/* Objects the driver would not destroy: drop them without it. */
static void cleanup_forget(struct ib_uverbs_file *ufile)
{
	struct uverbs_attr_bundle attrs = { .ufile = ufile };
	struct ib_uobject *uobj, *next;

	list_for_each_entry_safe(uobj, next, &ufile->uobjects, list) {
		ibdev_warn(ufile->ucontext->device,
			   "uverbs: the driver did not destroy a user object of type %u\n",
			   uobj->uapi_object->id);
		uobj->object = NULL;
		atomic_set(&uobj->usecnt, -1);
		uverbs_uobj_destroy_locked(uobj, RDMA_REMOVE_DRIVER_FAILURE,
					   &attrs);
	}
}

/**
 * uverbs_destroy_ufile_hw() - destroy every object and the context of a
 *	file
 * @ufile: the file
 * @reason: RDMA_REMOVE_CLOSE or RDMA_REMOVE_DRIVER_REMOVE
 *
 * May run twice (disassociation, then close) and concurrently: the second
 * finds no context and does nothing.
 */
void uverbs_destroy_ufile_hw(struct ib_uverbs_file *ufile,
			     enum rdma_remove_reason reason)
{
	down_write(&ufile->hw_destroy_rwsem);
	/* Objects exist only in a context. */
	if (ufile->ucontext) {
		while (!list_empty(&ufile->uobjects) &&
		       cleanup_pass(ufile, reason))
			;
		cleanup_forget(ufile);
		/* The device goes: its memory leaves the process first */
		if (reason == RDMA_REMOVE_DRIVER_REMOVE)
			uverbs_mmap_zap_all(ufile);
		uverbs_ucontext_teardown(ufile, reason);
	}
	up_write(&ufile->hw_destroy_rwsem);
}
