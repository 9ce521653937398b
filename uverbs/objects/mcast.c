// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast groups of user UD QPs: write() ATTACH_MCAST and DETACH_MCAST.
 * A QP's object keeps the groups it is attached to, so that a user's
 * destroy of an attached QP fails (-EBUSY) and the teardown of the file
 * detaches it (objs_mcast_detach_all()).
 *
 * Locking: ib_uqp_object.mcast_lock protects the QP's mcast_list and
 * serialises attaching and detaching that QP; it is taken with no other
 * lock held.
 */
#include "objects.h"

/**
 * struct mcast_group - a group a user QP is attached to
 * @node: in ib_uqp_object.mcast_list
 * @gid: the group's GID
 * @lid: the group's LID
 */
struct mcast_group {
	struct list_head node;
	union ib_gid gid;
	u16 lid;
};

static struct mcast_group *mcast_find(struct ib_uqp_object *uqp,
				      const u8 *gid, u16 lid)
{
	struct mcast_group *g;

	lockdep_assert_held(&uqp->mcast_lock);
	list_for_each_entry(g, &uqp->mcast_list, node)
		if (g->lid == lid && !memcmp(g->gid.raw, gid, sizeof(g->gid)))
			return g;
	return NULL;
}

/* Attach @qp to a group once; attaching it again does nothing. */
static int mcast_attach_locked(struct ib_qp *qp, struct ib_uqp_object *uqp,
			       const struct ib_uverbs_attach_mcast *cmd)
{
	struct mcast_group *g;
	int ret;

	if (mcast_find(uqp, cmd->gid, cmd->mlid))
		return 0;
	g = kmalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	memcpy(g->gid.raw, cmd->gid, sizeof(g->gid));
	g->lid = cmd->mlid;
	ret = ib_attach_mcast(qp, &g->gid, g->lid);
	if (ret) {
		kfree(g);
		return ret;
	}
	list_add_tail(&g->node, &uqp->mcast_list);
	return 0;
}

/*
 * Detach @qp from a group it is attached to, else -EINVAL.  The group is
 * forgotten only once the driver has detached: a refused detach leaves
 * the QP attached (and its use count taken), so the record must stay for
 * a later detach or the teardown to give it back (the target drops it
 * first; core.rst).
 */
static int mcast_detach_locked(struct ib_qp *qp, struct ib_uqp_object *uqp,
			       const struct ib_uverbs_attach_mcast *cmd)
{
	struct mcast_group *g = mcast_find(uqp, cmd->gid, cmd->mlid);
	int ret;

	if (!g)
		return -EINVAL;
	ret = ib_detach_mcast(qp, &g->gid, g->lid);
	if (ret)
		return ret;
	list_del(&g->node);
	kfree(g);
	return 0;
}

/*
 * ATTACH_MCAST and DETACH_MCAST: the two requests have one layout (the
 * uapi's ib_uverbs_attach_mcast and ib_uverbs_detach_mcast); @op runs
 * under the QP's mcast_lock.
 */
static int mcast_cmd(struct uverbs_attr_bundle *attrs,
		     int (*op)(struct ib_qp *qp, struct ib_uqp_object *uqp,
			       const struct ib_uverbs_attach_mcast *cmd))
{
	struct ib_uverbs_attach_mcast cmd;
	struct ib_uqp_object *uqp;
	struct ib_qp *qp;
	int ret;

	BUILD_BUG_ON(sizeof(struct ib_uverbs_attach_mcast) !=
		     sizeof(struct ib_uverbs_detach_mcast));
	ret = uverbs_write_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	qp = objs_get_qp(attrs, cmd.qp_handle);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	uqp = qp->uobject;
	mutex_lock(&uqp->mcast_lock);
	ret = op(qp, uqp, &cmd);
	mutex_unlock(&uqp->mcast_lock);
	objs_put_qp(qp);
	return ret;
}

static int mcast_attach(struct uverbs_attr_bundle *attrs)
{
	return mcast_cmd(attrs, mcast_attach_locked);
}

static int mcast_detach(struct uverbs_attr_bundle *attrs)
{
	return mcast_cmd(attrs, mcast_detach_locked);
}

/**
 * objs_mcast_detach_all() - detach a QP being torn down from its groups
 * @uqp: the QP's object; no command uses it any more
 */
void objs_mcast_detach_all(struct ib_uqp_object *uqp)
{
	struct ib_qp *qp = uqp->uevent.uobject.object;
	struct mcast_group *g, *next;

	mutex_lock(&uqp->mcast_lock);
	list_for_each_entry_safe(g, next, &uqp->mcast_list, node) {
		ib_detach_mcast(qp, &g->gid, g->lid);
		list_del(&g->node);
		kfree(g);
	}
	mutex_unlock(&uqp->mcast_lock);
}

const struct uapi_definition uverbs_def_obj_mcast[] = {
	DECLARE_UVERBS_OBJECT(
		UVERBS_OBJECT_QP,
		UVERBS_WRITE(IB_USER_VERBS_CMD_ATTACH_MCAST, mcast_attach,
			     UVERBS_WRITE_I(struct ib_uverbs_attach_mcast)),
		UAPI_DEF_METHOD_NEEDS_FN(attach_mcast),
		UAPI_DEF_METHOD_NEEDS_FN(detach_mcast),
		UVERBS_WRITE(IB_USER_VERBS_CMD_DETACH_MCAST, mcast_detach,
			     UVERBS_WRITE_I(struct ib_uverbs_detach_mcast)),
		UAPI_DEF_METHOD_NEEDS_FN(detach_mcast)),
	{}
};
