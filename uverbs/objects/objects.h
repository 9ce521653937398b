/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the standard objects of ib_uverbs (uverbs/objects/) share: each
 * file's part of the method tree, which objects.c chains into
 * uverbs_def_objects[], and a few helpers of their handlers.
 *
 * One file per object (device.c for the device and its ports, cq.c, qp.c,
 * ...), where a large object's commands may be split by concern
 * (qp_modify.c, post.c, mcast.c).  Every handler runs under the
 * framework's rules (uverbs/internal.h): inside the disassociation SRCU
 * section, with the objects it looked up locked for shared (READ) or
 * exclusive use until it releases them.  The locks the objects add are
 * declared beside what they protect: ib_uqp_object.mcast_lock (mcast.c)
 * protects a QP's list of multicast attachments and is taken alone.
 */
#ifndef OOT_UVERBS_OBJECTS_H
#define OOT_UVERBS_OBJECTS_H

#ifndef UVERBS_MODULE_NAME
#define UVERBS_MODULE_NAME ib_uverbs
#endif
#include <rdma/uverbs_named_ioctl.h>
#include "internal.h"
#include "core/restrack.h"
#include "core/user_verbs.h"

/* The part of the method tree of each file, chained by objects.c. */
extern const struct uapi_definition uverbs_def_obj_device[];
extern const struct uapi_definition uverbs_def_obj_port[];
extern const struct uapi_definition uverbs_def_obj_comp_channel[];
extern const struct uapi_definition uverbs_def_obj_pd[];
extern const struct uapi_definition uverbs_def_obj_mr[];
extern const struct uapi_definition uverbs_def_obj_mw[];
extern const struct uapi_definition uverbs_def_obj_ah[];
extern const struct uapi_definition uverbs_def_obj_cq[];
extern const struct uapi_definition uverbs_def_obj_cq_ops[];
extern const struct uapi_definition uverbs_def_obj_qp[];
extern const struct uapi_definition uverbs_def_obj_qp_create[];
extern const struct uapi_definition uverbs_def_obj_qp_modify[];
extern const struct uapi_definition uverbs_def_obj_post[];
extern const struct uapi_definition uverbs_def_obj_mcast[];
extern const struct uapi_definition uverbs_def_obj_srq[];

/*
 * Objects a command uses shared, by handle (ERR_PTR() if there is no such
 * object or another command holds it), and their release.
 */
static inline struct ib_pd *objs_get_pd(struct uverbs_attr_bundle *attrs,
					u32 handle)
{
	return uobj_get_obj_read(pd, UVERBS_OBJECT_PD, handle, attrs);
}

static inline struct ib_cq *objs_get_cq(struct uverbs_attr_bundle *attrs,
					u32 handle)
{
	return uobj_get_obj_read(cq, UVERBS_OBJECT_CQ, handle, attrs);
}

static inline struct ib_qp *objs_get_qp(struct uverbs_attr_bundle *attrs,
					u32 handle)
{
	return uobj_get_obj_read(qp, UVERBS_OBJECT_QP, handle, attrs);
}

static inline struct ib_srq *objs_get_srq(struct uverbs_attr_bundle *attrs,
					  u32 handle)
{
	return uobj_get_obj_read(srq, UVERBS_OBJECT_SRQ, handle, attrs);
}

static inline void objs_put_pd(struct ib_pd *pd)
{
	uobj_put_obj_read(pd);
}

static inline void objs_put_cq(struct ib_cq *cq)
{
	rdma_lookup_put_uobject(&cq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
}

static inline void objs_put_qp(struct ib_qp *qp)
{
	rdma_lookup_put_uobject(&qp->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
}

static inline void objs_put_srq(struct ib_srq *srq)
{
	rdma_lookup_put_uobject(&srq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
}

/*
 * Resource tracking of a new object the core allocates here (PDs, CQs):
 * owned by the current task, listed once created (rdma_restrack_add()),
 * forgotten with rdma_restrack_put() if the driver refuses it.
 */
static inline void objs_track_new(struct rdma_restrack_entry *res,
				  enum rdma_restrack_type type)
{
	rdma_restrack_new(res, type);
	rdma_restrack_set_name(res, NULL);
}

/* The event part of a new CQ, QP or SRQ (its async file is set apart). */
static inline void objs_uevent_init(struct ib_uevent_object *uevent,
				    u64 user_handle)
{
	uevent->uobject.user_handle = user_handle;
	INIT_LIST_HEAD(&uevent->event_list);
	uevent->events_reported = 0;
}

/**
 * struct objs_qp_params - a user QP to create (qp.c, objs_qp_create())
 * @attr: its type, CQs, SRQ, XRC domain, capabilities and flags; the
 *	capabilities are updated to what the device granted
 * @device: its device
 * @pd: its PD; NULL for an XRC target QP
 * @xrcd_uobj: the object of the XRC domain of an XRC target QP
 * @user_handle: what its asynchronous events carry
 * @event_attr: the attribute that may name its async event file
 */
struct objs_qp_params {
	struct ib_qp_init_attr attr;
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *xrcd_uobj;
	u64 user_handle;
	u16 event_attr;
};

struct ib_qp *objs_qp_create(struct uverbs_attr_bundle *attrs,
			     struct ib_uqp_object *uqp,
			     struct objs_qp_params *p);

/* mcast.c: a QP's attachments go when the QP is torn down */
void objs_mcast_detach_all(struct ib_uqp_object *uqp);

#endif
