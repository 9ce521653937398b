/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_uverbs' private types whose layout is part of the ABI.
 *
 * <rdma/ib_verbs.h> only declares struct ib_uverbs_file (struct ib_ucontext
 * and struct ib_uobject point to it), but the target's ib_uverbs files
 * define it and the types it reaches, and genksyms folds every visible
 * definition into the CRC of each export that reaches it: every ib_umem_*
 * export reaches struct ib_device, and through its operations the user
 * context, and through its CQs, QPs, SRQs and WQs their user objects.  So
 * these members are fixed by the target's symbol versions
 * (Documentation/abi.rst).  Included only by the profiles in this folder;
 * ib_uverbs' own code does not use these definitions yet.
 *
 * The member lists, their types and their order are the target's, as the
 * CRCs require, so ../shared/tools/provenance shows the longer ones as runs
 * shared with the in-tree uverbs.h; the order of the definitions and the
 * words are ours.
 */
#ifndef OOT_ABI_IB_UVERBS_TYPES_H
#define OOT_ABI_IB_UVERBS_TYPES_H

#include <linux/cdev.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/srcu.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

struct uverbs_api;

/**
 * struct ib_uverbs_event_queue - events waiting to be read from a file
 * @lock: protects the members below
 * @is_closed: the file was released
 * @poll_wait: readers and pollers
 * @async_queue: fasync subscribers
 * @event_list: the queued events
 */
struct ib_uverbs_event_queue {
	spinlock_t lock;
	int is_closed;
	wait_queue_head_t poll_wait;
	struct fasync_struct *async_queue;
	struct list_head event_list;
};

/**
 * struct ib_uverbs_async_event_file - the file of asynchronous events
 * @uobj: its user object
 * @ev_queue: the queued events
 * @event_handler: the handler registered on the device
 */
struct ib_uverbs_async_event_file {
	struct ib_uobject uobj;
	struct ib_uverbs_event_queue ev_queue;
	struct ib_event_handler event_handler;
};

/**
 * struct ib_uverbs_file - one open uverbs character device
 * @ref: references: the open file and the asynchronous event file
 * @device: the uverbs device
 * @ucontext_lock: protects @ucontext
 * @ucontext: the user context, once allocated
 * @default_async_file: where asynchronous events go by default
 * @list: in the device's uverbs_file_list
 * @hw_destroy_rwsem: held across the destruction of hardware objects
 * @uobjects_lock: protects @uobjects
 * @uobjects: the file's user objects
 * @umap_lock: protects @umaps
 * @umaps: the file's user mappings
 * @disassociate_page: mapped in place of device memory after disassociation
 * @idr: handles to user objects
 */
struct ib_uverbs_file {
	struct kref ref;
	struct ib_uverbs_device *device;
	struct mutex ucontext_lock;
	struct ib_ucontext *ucontext;
	struct ib_uverbs_async_event_file *default_async_file;
	struct list_head list;
	struct rw_semaphore hw_destroy_rwsem;
	spinlock_t uobjects_lock;
	struct list_head uobjects;
	struct mutex umap_lock;
	struct list_head umaps;
	struct page *disassociate_page;
	struct xarray idr;
};

/**
 * struct ib_uverbs_device - the /dev/infiniband/uverbsN of one RDMA device
 * @refcount: references: the module's and one per open file
 * @num_comp_vectors: completion vectors offered to userspace
 * @comp: completed when the last reference goes
 * @dev: the class device
 * @groups: its attribute groups, NULL-terminated
 * @ib_dev: the RDMA device, NULL once disassociated
 * @devnum: the minor number's index
 * @cdev: the character device
 * @xrcd_tree: XRC domains shared by inode
 * @xrcd_tree_mutex: protects @xrcd_tree
 * @disassociate_srcu: readers of @ib_dev
 * @lists_mutex: protects @uverbs_file_list
 * @uverbs_file_list: the open files
 * @uapi: the method tree of the ioctl interface
 */
struct ib_uverbs_device {
	refcount_t refcount;
	u32 num_comp_vectors;
	struct completion comp;
	struct device dev;
	const struct attribute_group *groups[2];
	struct ib_device __rcu *ib_dev;
	int devnum;
	struct cdev cdev;
	struct rb_root xrcd_tree;
	struct mutex xrcd_tree_mutex;
	struct srcu_struct disassociate_srcu;
	struct mutex lists_mutex;
	struct list_head uverbs_file_list;
	struct uverbs_api *uapi;
};

/**
 * struct ib_uxrcd_object - the user object of an XRC domain
 * @uobject: the user object
 * @refcnt: the XRC SRQs and QPs that use it
 */
struct ib_uxrcd_object {
	struct ib_uobject uobject;
	atomic_t refcnt;
};

/**
 * struct ib_uevent_object - a user object that reports asynchronous events
 * @uobject: the user object
 * @event_file: where its events go
 * @event_list: its events not yet read
 * @events_reported: how many were read
 */
struct ib_uevent_object {
	struct ib_uobject uobject;
	struct ib_uverbs_async_event_file *event_file;
	struct list_head event_list;
	u32 events_reported;
};

/**
 * struct ib_uwq_object - the user object of a WQ
 * @uevent: its events
 */
struct ib_uwq_object {
	struct ib_uevent_object uevent;
};

/**
 * struct ib_ucq_object - the user object of a CQ
 * @uevent: its asynchronous events
 * @comp_list: its completion events not yet read
 * @comp_events_reported: how many were read
 */
struct ib_ucq_object {
	struct ib_uevent_object uevent;
	struct list_head comp_list;
	u32 comp_events_reported;
};

/**
 * struct ib_uqp_object - the user object of a QP
 * @uevent: its events
 * @mcast_lock: protects @mcast_list
 * @mcast_list: the multicast groups it joined
 * @uxrcd: its XRC domain, for XRC target QPs
 */
struct ib_uqp_object {
	struct ib_uevent_object uevent;
	struct mutex mcast_lock;
	struct list_head mcast_list;
	struct ib_uxrcd_object *uxrcd;
};

/**
 * struct ib_usrq_object - the user object of an SRQ
 * @uevent: its events
 * @uxrcd: its XRC domain, for XRC SRQs
 */
struct ib_usrq_object {
	struct ib_uevent_object uevent;
	struct ib_uxrcd_object *uxrcd;
};

#endif
