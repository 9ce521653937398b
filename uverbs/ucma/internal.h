/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_ucm: rdma_cm from userspace (<rdma/rdma_user_cm.h>), what its
 * files share.
 *
 *   main.c     module entry: the misc device rdma_cm, its abi_version,
 *              the max_backlog sysctl, the client netlink's GET_CHARDEV
 *              asks
 *   file.c     an open /dev/infiniband/rdma_cm: write() framing and the
 *              command table, poll(), release
 *   ctx.c      the IDs userspace names: the table of them, looking one
 *              up for a command, creation, teardown, device removal
 *   event.c    rdma_cm's events of a file's IDs, queued for GET_EVENT;
 *              connection requests and the new IDs they bring
 *   conn.c     the commands of an ID's life: create, destroy, bind,
 *              resolve, listen, connect, accept, reject, disconnect,
 *              QP attributes, notify
 *   query.c    QUERY_ROUTE and QUERY (addresses, paths, GIDs)
 *   option.c   SET_OPTION
 *   mcast.c    multicast joins and leaves
 *   migrate.c  MIGRATE_ID: an ID and its events move to another file
 *
 * Lock order (outermost first):
 *
 *   ucma_ctx.lock          one command at a time on an ID; guards @cm_id
 *   rdma_cm's handler lock of the ID (rdma_lock_handler()); held by
 *                          rdma_cm around our event handler
 *   ucma_file.lock         the file's event queue and list of IDs
 *   ucma_ids / ucma_mcs    the xarrays' own spinlocks
 *
 * An ID's teardown clears @cm_id under its lock and destroys the rdma_cm
 * ID with no lock of ours held (rdma_destroy_id() waits for a running
 * handler, which takes ucma_file.lock).
 */
#ifndef OOT_UVERBS_UCMA_INTERNAL_H
#define OOT_UVERBS_UCMA_INTERNAL_H

#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_user_cm.h>

/**
 * struct ucma_file - one open /dev/infiniband/rdma_cm (an event channel)
 * @filp: the file
 * @lock: protects @events, @ctxs, and the events_reported counters of
 *	the IDs and groups whose events are queued here
 * @events: events not yet read (struct ucma_event.link)
 * @ctxs: the file's published IDs (struct ucma_ctx.file_link)
 * @wait: GET_EVENT and poll() wait here for @events
 */
struct ucma_file {
	struct file *filp;
	struct mutex lock;
	struct list_head events;
	struct list_head ctxs;
	wait_queue_head_t wait;
};

/**
 * struct ucma_ctx - an rdma_cm ID as userspace knows it
 * @id: its number in ucma_ids (reserved from creation to the end of
 *	teardown; the entry points at the ID only while it is published)
 * @file: the file it belongs to; changed (MIGRATE_ID) under the rdma_cm
 *	handler lock and ucma_ids' lock, so either keeps it stable
 * @lock: see the lock order; commands hold it while they use @cm_id
 * @cm_id: the rdma_cm ID; NULL once torn down or its device went (@lock)
 * @dying: teardown began: device removal no longer queues @removal
 *	(rdma_cm's handler lock)
 * @uid: userspace's handle, returned in events (rdma_cm's handler lock;
 *	0 on a new connection's ID until it is accepted: its events are
 *	dropped until then)
 * @events_reported: events of the ID read by GET_EVENT (@file's lock)
 * @backlog: a listener's connection requests that may still be queued
 * @kref: references to the memory: the creator's, and one per command
 *	that looked it up
 * @file_link: on @file's list while published (@file's lock)
 * @mcs: the groups joined (struct ucma_mc.ctx_link; ucma_mcs' lock)
 * @removal: destroys @cm_id after its device reported its removal
 */
struct ucma_ctx {
	u32 id;
	struct ucma_file *file;
	struct mutex lock;
	struct rdma_cm_id *cm_id;
	bool dying;
	u64 uid;
	int events_reported;
	atomic_t backlog;
	struct kref kref;
	struct list_head file_link;
	struct list_head mcs;
	struct work_struct removal;
};

/**
 * struct ucma_mc - a multicast group an ID joined
 * @id: its number in ucma_mcs (published once the join is reported)
 * @ctx: the ID
 * @uid: userspace's handle of the group
 * @events_reported: events of the group read (the file's lock)
 * @ctx_link: on @ctx's @mcs (ucma_mcs' lock)
 * @addr: the group's address
 */
struct ucma_mc {
	u32 id;
	struct ucma_ctx *ctx;
	u64 uid;
	int events_reported;
	struct list_head ctx_link;
	struct sockaddr_storage addr;
};

/**
 * struct ucma_event - an event waiting for GET_EVENT
 * @link: on the file's @events
 * @ctx: the ID it counts for (a listener for connection requests)
 * @mc: the group of a multicast event, or NULL
 * @child: a connection request's new ID, not yet published; owned by the
 *	event until GET_EVENT publishes it
 * @resp: what GET_EVENT copies out
 */
struct ucma_event {
	struct list_head link;
	struct ucma_ctx *ctx;
	struct ucma_mc *mc;
	struct ucma_ctx *child;
	struct rdma_ucm_event_resp resp;
};

/*
 * A command: @buf holds its structure, read from userspace by the
 * dispatcher (file.c); @in_len is the input length the header gave,
 * @out_len the room for output at the structure's response pointer.
 */
typedef int (*ucma_cmd_fn)(struct ucma_file *file, void *buf, u32 in_len,
			   u32 out_len);

/* main.c */
extern const struct file_operations ucma_fops;
int ucma_max_backlog(void);

/* ctx.c */
extern struct xarray ucma_ids;
extern struct xarray ucma_mcs;
struct ucma_ctx *ucma_ctx_alloc(struct ucma_file *file);
void ucma_ctx_done(struct ucma_ctx *ctx);
void ucma_ctx_publish(struct ucma_ctx *ctx, struct ucma_file *file);
struct ucma_ctx *ucma_ctx_get(struct ucma_file *file, u32 id, bool need_dev);
void ucma_ctx_put(struct ucma_ctx *ctx);
struct ucma_ctx *ucma_ctx_unpublish(struct ucma_file *file, u32 id);
int ucma_ctx_teardown(struct ucma_ctx *ctx);

/* event.c */
int ucma_event_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev);
int ucma_cmd_get_event(struct ucma_file *file, void *buf,
		   u32 in_len, u32 out_len);
int ucma_event_purge_ctx(struct ucma_ctx *ctx, struct list_head *children);
void ucma_event_purge_mc(struct ucma_mc *mc);

/* conn.c */
int ucma_cmd_create_id(struct ucma_file *file, void *buf,
		   u32 in_len, u32 out_len);
int ucma_cmd_destroy_id(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len);
int ucma_cmd_bind_ip(struct ucma_file *file, void *buf,
		 u32 in_len, u32 out_len);
int ucma_cmd_bind(struct ucma_file *file, void *buf,
	      u32 in_len, u32 out_len);
int ucma_cmd_resolve_ip(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len);
int ucma_cmd_resolve_addr(struct ucma_file *file, void *buf,
		      u32 in_len, u32 out_len);
int ucma_cmd_resolve_route(struct ucma_file *file, void *buf,
		       u32 in_len, u32 out_len);
int ucma_cmd_connect(struct ucma_file *file, void *buf,
		 u32 in_len, u32 out_len);
int ucma_cmd_listen(struct ucma_file *file, void *buf,
		u32 in_len, u32 out_len);
int ucma_cmd_accept(struct ucma_file *file, void *buf,
		u32 in_len, u32 out_len);
int ucma_cmd_reject(struct ucma_file *file, void *buf,
		u32 in_len, u32 out_len);
int ucma_cmd_disconnect(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len);
int ucma_cmd_init_qp_attr(struct ucma_file *file, void *buf,
		      u32 in_len, u32 out_len);
int ucma_cmd_notify(struct ucma_file *file, void *buf,
		u32 in_len, u32 out_len);

/* query.c */
int ucma_cmd_query_route(struct ucma_file *file, void *buf,
		     u32 in_len, u32 out_len);
int ucma_cmd_query(struct ucma_file *file, void *buf,
	       u32 in_len, u32 out_len);

/* option.c */
int ucma_cmd_set_option(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len);

/* mcast.c */
int ucma_cmd_join_ip_mcast(struct ucma_file *file, void *buf,
		       u32 in_len, u32 out_len);
int ucma_cmd_join_mcast(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len);
int ucma_cmd_leave_mcast(struct ucma_file *file, void *buf,
		     u32 in_len, u32 out_len);
void ucma_mc_forget_all(struct ucma_ctx *ctx);

/* migrate.c */
int ucma_cmd_migrate_id(struct ucma_file *file, void *buf,
		    u32 in_len, u32 out_len);

#endif
