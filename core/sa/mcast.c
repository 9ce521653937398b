// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast groups of InfiniBand ports, joined through the SA
 * (ib_sa_join_multicast() and friends), and the address vector of a group.
 *
 * A port's groups are keyed by MGID.  A group counts its members per join
 * state (full, non, send-only non, send-only full member: the bits of
 * join_state); the port holds a join state in the group at the SA while
 * one of its members does.  Members wait on the group's pending list; the
 * group's work takes them one at a time: a member whose join states the
 * port already holds, and whose record matches the group's, is joined at
 * once; any other gets a SET MCMemberRecord to the SA.  When the last
 * member of a join state goes, the work sends a DELETE for it.  One query
 * per group is out at a time.
 *
 * Port events that lose the SA's state of the port (PORT_ERR,
 * LID_CHANGE, SM_CHANGE, CLIENT_REREGISTER) put every joined member of
 * the port into error: its callback gets -ENETRESET, and its user frees
 * it and joins again.  A PKEY_CHANGE does so for the groups whose P_Key
 * the port no longer has.
 *
 * Callbacks run from the group's work or the MAD layer's handlers, with
 * no lock held, one at a time per group.  A callback that returns
 * non-zero frees its member.
 *
 * Locking: sa_mc_port.lock (a spinlock) protects the port's tree, every
 * group's state and lists and every member's state; the lock order is in
 * sa/internal.h.  Lifetime: a group holds a reference per member, per
 * queued or running work and per query out; a member holds one of its
 * own for its user and one per callback in progress, and
 * ib_sa_free_multicast() waits for the latter.
 */
#include "abi/ib_core/multicast.h"
#include <linux/rbtree.h>
#include "sa/internal.h"
#include "sa/client.h"

#define SA_MC_TIMEOUT_MS	3000
#define SA_MC_STATES		4	/* join state bits */

enum sa_mc_member_state {
	SA_MC_PENDING,		/* on the group's pending list */
	SA_MC_JOINED,		/* on the group's joined list */
	SA_MC_FAILED,		/* its join failed, or the group's state went */
	SA_MC_GONE,		/* freed by its user */
};

struct sa_mc_port {
	struct ib_device *device;
	u32 port_num;
	spinlock_t lock;
	struct rb_root groups;
	atomic_t ngroups;
};

struct sa_mc_dev {
	struct ib_event_handler handler;
	u32 nports;
	struct sa_mc_port port[];
};

struct sa_mc_group {
	struct rb_node node;
	bool in_tree;
	struct sa_mc_port *port;
	refcount_t ref;
	union ib_gid mgid;
	struct ib_sa_mcmember_rec rec;
	u8 join_state;
	u16 members_of[SA_MC_STATES];
	u8 leave_state;
	bool reset;
	struct list_head pending;
	struct list_head joined;
	struct sa_mc_member *joining;	/* referenced while its join is out */
	struct ib_sa_query *query;
	int query_id;
	struct work_struct work;
};

struct sa_mc_member {
	struct ib_sa_multicast multicast;
	struct ib_sa_client *client;
	struct sa_mc_group *group;
	struct list_head link;
	enum sa_mc_member_state state;
	refcount_t ref;
	struct completion unused;
};

static struct ib_client sa_mc_client;
static struct ib_sa_client sa_mc_sa_client;
static struct workqueue_struct *sa_mc_wq;
/* Woken when a port's last group is freed */
static DECLARE_WAIT_QUEUE_HEAD(sa_mc_groups_gone);

static void sa_mc_group_put(struct sa_mc_group *group);

static int sa_mc_cmp(const union ib_gid *a, const union ib_gid *b)
{
	return memcmp(a->raw, b->raw, sizeof(a->raw));
}

static struct sa_mc_group *sa_mc_find(struct sa_mc_port *port,
				      const union ib_gid *mgid)
{
	struct rb_node *n = port->groups.rb_node;
	struct sa_mc_group *group;
	int c;

	lockdep_assert_held(&port->lock);
	while (n) {
		group = rb_entry(n, struct sa_mc_group, node);
		c = sa_mc_cmp(mgid, &group->mgid);
		if (!c)
			return group;
		n = c < 0 ? n->rb_left : n->rb_right;
	}
	return NULL;
}

/* Files @group under its MGID; false if another group has it. */
static bool sa_mc_insert(struct sa_mc_port *port, struct sa_mc_group *group)
{
	struct rb_node **link = &port->groups.rb_node, *parent = NULL;
	struct sa_mc_group *cur;
	int c;

	lockdep_assert_held(&port->lock);
	while (*link) {
		parent = *link;
		cur = rb_entry(parent, struct sa_mc_group, node);
		c = sa_mc_cmp(&group->mgid, &cur->mgid);
		if (!c)
			return false;
		link = c < 0 ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&group->node, parent, link);
	rb_insert_color(&group->node, &port->groups);
	group->in_tree = true;
	return true;
}

static void sa_mc_kick(struct sa_mc_group *group)
{
	lockdep_assert_held(&group->port->lock);
	refcount_inc(&group->ref);
	if (!queue_work(sa_mc_wq, &group->work))
		refcount_dec(&group->ref);	/* the queued work has one */
}

/* A member's callback, its reference held; frees it if asked to. */
static void sa_mc_member_put(struct sa_mc_member *member)
{
	if (refcount_dec_and_test(&member->ref))
		complete(&member->unused);
}

static void sa_mc_member_drop(struct sa_mc_member *member);

static void sa_mc_call(struct sa_mc_member *member, int status)
{
	int ret = member->multicast.callback(status, &member->multicast);

	sa_mc_member_put(member);
	if (ret)
		sa_mc_member_drop(member);
}

/* The member counts of @join_state's bits go up or down by one. */
static void sa_mc_count(struct sa_mc_group *group, u8 join_state, bool up)
{
	int i;

	for (i = 0; i < SA_MC_STATES; i++) {
		if (!(join_state & BIT(i)))
			continue;
		if (up) {
			group->members_of[i]++;
		} else if (!--group->members_of[i] &&
			   (group->join_state & BIT(i))) {
			group->join_state &= ~BIT(i);
			group->leave_state |= BIT(i);
		}
	}
}

/* An IBTA selector: does @have satisfy @want with @selector? */
static bool sa_mc_selected(u8 selector, u8 have, u8 want)
{
	switch (selector) {
	case IB_SA_GT:
		return have > want;
	case IB_SA_LT:
		return have < want;
	case IB_SA_EQ:
		return have == want;
	}
	return true;	/* best */
}

/* Whether the group's record @have meets a member's @want, by @mask. */
static bool sa_mc_rec_matches(const struct ib_sa_mcmember_rec *have,
			      const struct ib_sa_mcmember_rec *want,
			      ib_sa_comp_mask mask)
{
#define SA_MC_DIFF(bit, field) \
	((mask & IB_SA_MCMEMBER_REC_##bit) && have->field != want->field)
#define SA_MC_SEL(bit, field) \
	((mask & IB_SA_MCMEMBER_REC_##bit##_SELECTOR) && \
	 (mask & IB_SA_MCMEMBER_REC_##bit) && \
	 !sa_mc_selected(want->field##_selector, have->field, want->field))

	if ((mask & IB_SA_MCMEMBER_REC_PORT_GID) &&
	    memcmp(&have->port_gid, &want->port_gid, sizeof(have->port_gid)))
		return false;
	return !(SA_MC_DIFF(QKEY, qkey) || SA_MC_DIFF(MLID, mlid) ||
		 SA_MC_SEL(MTU, mtu) || SA_MC_DIFF(TRAFFIC_CLASS, traffic_class) ||
		 SA_MC_DIFF(PKEY, pkey) || SA_MC_SEL(RATE, rate) ||
		 SA_MC_SEL(PACKET_LIFE_TIME, packet_life_time) ||
		 SA_MC_DIFF(SL, sl) || SA_MC_DIFF(FLOW_LABEL, flow_label) ||
		 SA_MC_DIFF(HOP_LIMIT, hop_limit) || SA_MC_DIFF(SCOPE, scope));
#undef SA_MC_DIFF
#undef SA_MC_SEL
}

static void sa_mc_join_done(int status, const struct ib_sa_mcmember_rec *rec,
			    void *context);
static void sa_mc_leave_done(int status, const struct ib_sa_mcmember_rec *rec,
			     void *context);

/*
 * The group's next step, under the port's lock.  Returns the member whose
 * callback is due (referenced) with its status, or NULL; sends the
 * query the group needs, dropping the lock (and @flags) around it.
 */
static struct sa_mc_member *sa_mc_step(struct sa_mc_group *group,
				       int *status, unsigned long *flags)
{
	struct sa_mc_port *port = group->port;
	struct ib_sa_mcmember_rec rec;
	struct sa_mc_member *member;
	struct ib_sa_query *handle;
	ib_sa_comp_mask mask;
	u8 method;
	int ret;

	lockdep_assert_held(&port->lock);
	if (group->query)
		return NULL;
	if (group->reset) {
		member = list_first_entry_or_null(&group->joined,
						  struct sa_mc_member, link);
		if (member) {
			list_del_init(&member->link);
			sa_mc_count(group, member->multicast.rec.join_state,
				    false);
			member->state = SA_MC_FAILED;
			refcount_inc(&member->ref);
			*status = -ENETRESET;
			return member;
		}
		group->reset = false;
		group->join_state = 0;
		group->leave_state = 0;
	}
	member = list_first_entry_or_null(&group->pending, struct sa_mc_member,
					  link);
	if (!group->leave_state && !member)
		return NULL;
	if (!group->leave_state && !rdma_is_zero_gid(&group->mgid) &&
	    (group->join_state & member->multicast.rec.join_state) ==
	    member->multicast.rec.join_state) {
		list_del_init(&member->link);
		refcount_inc(&member->ref);
		if (sa_mc_rec_matches(&group->rec, &member->multicast.rec,
				      member->multicast.comp_mask)) {
			list_add_tail(&member->link, &group->joined);
			sa_mc_count(group, member->multicast.rec.join_state,
				    true);
			member->multicast.rec = group->rec;
			member->state = SA_MC_JOINED;
			*status = 0;
		} else {
			member->state = SA_MC_FAILED;
			*status = -EINVAL;
		}
		return member;
	}
	if (group->leave_state) {
		rec = group->rec;
		rec.join_state = group->leave_state;
		group->leave_state = 0;
		method = IB_SA_METHOD_DELETE;
		mask = IB_SA_MCMEMBER_REC_MGID | IB_SA_MCMEMBER_REC_PORT_GID |
		       IB_SA_MCMEMBER_REC_JOIN_STATE;
	} else {
		rec = member->multicast.rec;
		mask = member->multicast.comp_mask;
		method = IB_MGMT_METHOD_SET;
		/* A reference until the join's end: a free waits for it */
		refcount_inc(&member->ref);
		group->joining = member;
	}

	/* A query: the group's reference for it, the lock dropped */
	group->query = ERR_PTR(-EBUSY);
	refcount_inc(&group->ref);
	spin_unlock_irqrestore(&port->lock, *flags);
	ret = sa_mcmember_query(&sa_mc_sa_client, port->device, port->port_num,
				method, &rec, mask, SA_MC_TIMEOUT_MS,
				method == IB_MGMT_METHOD_SET ? sa_mc_join_done :
							       sa_mc_leave_done,
				group, &handle);
	spin_lock_irqsave(&port->lock, *flags);
	if (ret >= 0) {
		/* Unless it is over already: then query is NULL again */
		if (group->query) {
			group->query = handle;
			group->query_id = ret;
		}
		return NULL;
	}
	/* Not sent: a leave is given up, a join fails */
	group->query = NULL;
	refcount_dec(&group->ref);
	if (method != IB_MGMT_METHOD_SET)
		return NULL;
	/* The joining reference goes to the callback, or is dropped */
	member = group->joining;
	group->joining = NULL;
	if (!member)
		return NULL;
	if (member->state == SA_MC_GONE) {
		sa_mc_member_put(member);
		return NULL;
	}
	list_del_init(&member->link);
	member->state = SA_MC_FAILED;
	*status = ret;
	return member;
}

/* Takes the group's steps until it waits for the SA or has none left. */
static void sa_mc_work(struct work_struct *work)
{
	struct sa_mc_group *group = container_of(work, struct sa_mc_group,
						 work);
	struct sa_mc_port *port = group->port;
	struct sa_mc_member *member;
	unsigned long flags;
	int status = 0;

	for (;;) {
		spin_lock_irqsave(&port->lock, flags);
		member = sa_mc_step(group, &status, &flags);
		spin_unlock_irqrestore(&port->lock, flags);
		if (!member)
			break;
		sa_mc_call(member, status);
	}
	sa_mc_group_put(group);
}

static void sa_mc_join_done(int status, const struct ib_sa_mcmember_rec *rec,
			    void *context)
{
	struct sa_mc_group *group = context;
	struct sa_mc_port *port = group->port;
	struct sa_mc_member *member;
	unsigned long flags;
	u8 bits;

	spin_lock_irqsave(&port->lock, flags);
	group->query = NULL;
	member = group->joining;
	group->joining = NULL;
	bits = member ? member->multicast.rec.join_state : 0;
	if (!status && rdma_is_zero_gid(&group->mgid)) {
		group->mgid = rec->mgid;
		if (!sa_mc_insert(port, group))
			status = -EINVAL;	/* the SA gave a group we have */
	}
	if (!status) {
		group->rec = *rec;
		group->join_state |= bits;
	}
	/* The joining reference goes to the callback, or is dropped */
	if (member && member->state == SA_MC_GONE) {
		/* Freed meanwhile: the port leaves what nobody holds */
		if (!status)
			group->leave_state |= bits & ~group->join_state;
		sa_mc_member_put(member);
		member = NULL;
	} else if (member) {
		list_del_init(&member->link);
		if (status) {
			member->state = SA_MC_FAILED;
		} else {
			list_add_tail(&member->link, &group->joined);
			sa_mc_count(group, bits, true);
			member->multicast.rec = *rec;
			member->state = SA_MC_JOINED;
		}
	}
	sa_mc_kick(group);
	spin_unlock_irqrestore(&port->lock, flags);
	if (member)
		sa_mc_call(member, status);
	sa_mc_group_put(group);
}

static void sa_mc_leave_done(int status, const struct ib_sa_mcmember_rec *rec,
			     void *context)
{
	struct sa_mc_group *group = context;
	unsigned long flags;

	spin_lock_irqsave(&group->port->lock, flags);
	group->query = NULL;
	sa_mc_kick(group);
	spin_unlock_irqrestore(&group->port->lock, flags);
	sa_mc_group_put(group);
}

static void sa_mc_group_put(struct sa_mc_group *group)
{
	struct sa_mc_port *port = group->port;
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	if (!refcount_dec_and_test(&group->ref)) {
		spin_unlock_irqrestore(&port->lock, flags);
		return;
	}
	if (group->in_tree)
		rb_erase(&group->node, &port->groups);
	spin_unlock_irqrestore(&port->lock, flags);
	kfree(group);
	if (atomic_dec_and_test(&port->ngroups))
		wake_up_all(&sa_mc_groups_gone);
}

/* The group of @mgid (a new one for the zero MGID), referenced. */
static struct sa_mc_group *sa_mc_group_get(struct sa_mc_port *port,
					   const union ib_gid *mgid, gfp_t gfp)
{
	struct sa_mc_group *group, *found;
	unsigned long flags;

	group = kzalloc(sizeof(*group), gfp);
	if (!group)
		return NULL;
	group->port = port;
	group->mgid = *mgid;
	refcount_set(&group->ref, 1);
	INIT_LIST_HEAD(&group->pending);
	INIT_LIST_HEAD(&group->joined);
	INIT_WORK(&group->work, sa_mc_work);
	atomic_inc(&port->ngroups);
	if (rdma_is_zero_gid(mgid))
		return group;
	/* In the tree means alive: the last put takes it out, under the lock */
	spin_lock_irqsave(&port->lock, flags);
	found = sa_mc_find(port, mgid);
	if (found) {
		refcount_inc(&found->ref);
		spin_unlock_irqrestore(&port->lock, flags);
		kfree(group);
		atomic_dec(&port->ngroups);
		return found;
	}
	sa_mc_insert(port, group);
	spin_unlock_irqrestore(&port->lock, flags);
	return group;
}

static struct sa_mc_port *sa_mc_port_get(struct ib_device *device,
					 u32 port_num)
{
	struct sa_mc_dev *md;

	if (!rdma_is_port_valid(device, port_num))
		return NULL;
	md = ib_get_client_data(device, &sa_mc_client);
	if (!md || !md->port[port_num - 1].device)
		return NULL;
	return &md->port[port_num - 1];
}

/**
 * ib_sa_join_multicast - join a multicast group through the SA
 * @client: the SA client the member counts for
 * @device: the device
 * @port_num: its InfiniBand port
 * @rec: the group's record: MGID (zero for a group the SA creates and
 *	names), the port's GID, the join state (bits of enum
 *	ib_sa_mc_join_states) and what @comp_mask selects
 * @comp_mask: IB_SA_MCMEMBER_REC_* bits
 * @gfp_mask: allocation flags
 * @callback: called from a workqueue or the MAD layer's handlers with the
 *	member, its rec then being the group's: 0 once joined; -ETIMEDOUT,
 *	-EINTR, -EIO, -EINVAL (the SA refused, or the group's record does
 *	not match @rec) if the join failed; later -ENETRESET if the group's
 *	state at the SA was lost (the user frees the member and joins
 *	again).  Returning non-zero frees the member.
 * @context: the member's context
 *
 * The join goes on after this returns; the member must be freed with
 * ib_sa_free_multicast() (unless its callback freed it), also when the
 * join fails.
 *
 * Return: the member, or ERR_PTR: -EINVAL (no record, client or
 * callback; a join state of none or of bits beyond the four), -ENODEV (a
 * port without an SA), -ENOMEM.
 */
struct ib_sa_multicast *ib_sa_join_multicast(struct ib_sa_client *client,
					     struct ib_device *device,
					     u32 port_num,
					     struct ib_sa_mcmember_rec *rec,
					     ib_sa_comp_mask comp_mask,
					     gfp_t gfp_mask,
					     int (*callback)(int status,
							     struct ib_sa_multicast
								    *multicast),
					     void *context)
{
	struct sa_mc_port *port;
	struct sa_mc_member *member;
	unsigned long flags;

	if (!rec || !callback || !client || !rec->join_state ||
	    rec->join_state >= BIT(SA_MC_STATES))
		return ERR_PTR(-EINVAL);
	port = sa_mc_port_get(device, port_num);
	if (!port)
		return ERR_PTR(-ENODEV);
	member = kzalloc(sizeof(*member), gfp_mask);
	if (!member)
		return ERR_PTR(-ENOMEM);
	member->group = sa_mc_group_get(port, &rec->mgid, gfp_mask);
	if (!member->group) {
		kfree(member);
		return ERR_PTR(-ENOMEM);
	}
	member->multicast.rec = *rec;
	member->multicast.comp_mask = comp_mask;
	member->multicast.callback = callback;
	member->multicast.context = context;
	member->client = client;
	sa_client_get(client);
	refcount_set(&member->ref, 1);
	init_completion(&member->unused);

	spin_lock_irqsave(&port->lock, flags);
	member->state = SA_MC_PENDING;
	list_add_tail(&member->link, &member->group->pending);
	sa_mc_kick(member->group);
	spin_unlock_irqrestore(&port->lock, flags);
	return &member->multicast;
}
EXPORT_SYMBOL(ib_sa_join_multicast);

/*
 * Takes a member out of its group (whose work then leaves what nobody
 * holds any more) and frees it once no callback of it runs.
 */
static void sa_mc_member_drop(struct sa_mc_member *member)
{
	struct sa_mc_group *group = member->group;
	struct sa_mc_port *port = group->port;
	struct ib_sa_query *query = NULL;
	unsigned long flags;
	int id = -1;

	spin_lock_irqsave(&port->lock, flags);
	if (member->state == SA_MC_JOINED)
		sa_mc_count(group, member->multicast.rec.join_state, false);
	list_del_init(&member->link);
	member->state = SA_MC_GONE;
	if (group->joining == member && !IS_ERR_OR_NULL(group->query)) {
		query = group->query;
		id = group->query_id;
	}
	sa_mc_kick(group);
	spin_unlock_irqrestore(&port->lock, flags);
	if (query)
		ib_sa_cancel_query(id, query);

	sa_mc_member_put(member);
	wait_for_completion(&member->unused);
	sa_client_put(member->client);
	kfree(member);
	sa_mc_group_put(group);
}

/**
 * ib_sa_free_multicast - leave a group and free the member
 * @multicast: from ib_sa_join_multicast()
 *
 * A join in progress is cancelled; the port leaves the join states no
 * other member of the group holds.  Sleeps until no callback of the
 * member runs; must not be called from the member's own callback (return
 * non-zero from it instead).
 */
void ib_sa_free_multicast(struct ib_sa_multicast *multicast)
{
	sa_mc_member_drop(container_of(multicast, struct sa_mc_member,
				       multicast));
}
EXPORT_SYMBOL(ib_sa_free_multicast);

/**
 * ib_sa_get_mcmember_rec - the record of a group the port has joined
 * @device: the device
 * @port_num: the port
 * @mgid: the group's MGID
 * @rec: the SA's record of the group, out
 *
 * Return: 0; -ENODEV for a port without an SA; -EADDRNOTAVAIL if the port
 * has not joined the group (or is still joining it).
 */
int ib_sa_get_mcmember_rec(struct ib_device *device, u32 port_num,
			   union ib_gid *mgid, struct ib_sa_mcmember_rec *rec)
{
	struct sa_mc_port *port = sa_mc_port_get(device, port_num);
	struct sa_mc_group *group;
	unsigned long flags;
	int ret = -EADDRNOTAVAIL;

	if (!port)
		return -ENODEV;
	spin_lock_irqsave(&port->lock, flags);
	group = sa_mc_find(port, mgid);
	if (group && group->join_state) {
		*rec = group->rec;
		ret = 0;
	}
	spin_unlock_irqrestore(&port->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_sa_get_mcmember_rec);

/**
 * ib_init_ah_from_mcmember - the address vector of a multicast group
 * @device: the device
 * @port_num: the port
 * @rec: the group's record (its MGID, MLID, SL, rate, flow label, hop
 *	limit, traffic class, and the port's GID)
 * @ndev: on RoCE, the netdev of the source GID (NULL for any); ignored on
 *	InfiniBand
 * @gid_type: the source GID's type
 * @ah_attr: the vector, out; its GRH holds a reference on the source GID
 *	entry (rdma_destroy_ah_attr())
 *
 * Return: 0; -EINVAL for a port the device lacks or that is neither
 * InfiniBand nor RoCE; -ENOENT when the port has no such source GID.
 */
int ib_init_ah_from_mcmember(struct ib_device *device, u32 port_num,
	struct ib_sa_mcmember_rec *rec, struct net_device *ndev,
	enum ib_gid_type gid_type, struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *sgid_attr;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (rdma_protocol_ib(device, port_num))
		ndev = NULL;
	else if (!rdma_protocol_roce(device, port_num))
		return -EINVAL;
	sgid_attr = rdma_find_gid_by_port(device, &rec->port_gid, gid_type,
					  port_num, ndev);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);
	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);
	rdma_ah_set_port_num(ah_attr, port_num);
	rdma_ah_set_static_rate(ah_attr, rec->rate);
	rdma_ah_set_sl(ah_attr, rec->sl);
	rdma_ah_set_dlid(ah_attr, be16_to_cpu(rec->mlid));
	rdma_move_grh_sgid_attr(ah_attr, &rec->mgid,
				be32_to_cpu(rec->flow_label), rec->hop_limit,
				rec->traffic_class, sgid_attr);
	return 0;
}
EXPORT_SYMBOL(ib_init_ah_from_mcmember);

/* Puts the joined members of @port's groups (of a lost P_Key) in error. */
static void sa_mc_port_reset(struct sa_mc_port *port, bool pkey_only)
{
	struct sa_mc_group *group;
	struct rb_node *n;
	unsigned long flags;
	u16 index;

	spin_lock_irqsave(&port->lock, flags);
	for (n = rb_first(&port->groups); n; n = rb_next(n)) {
		group = rb_entry(n, struct sa_mc_group, node);
		if (!group->join_state && list_empty(&group->joined))
			continue;
		if (pkey_only &&
		    !ib_find_cached_pkey(port->device, port->port_num,
					 be16_to_cpu(group->rec.pkey), &index))
			continue;
		group->reset = true;
		sa_mc_kick(group);
	}
	spin_unlock_irqrestore(&port->lock, flags);
}

static void sa_mc_event(struct ib_event_handler *handler,
			struct ib_event *event)
{
	struct sa_mc_dev *md = container_of(handler, struct sa_mc_dev,
					    handler);
	u32 port_num = event->element.port_num;

	if (port_num < 1 || port_num > md->nports ||
	    !md->port[port_num - 1].device)
		return;
	switch (event->event) {
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
		sa_mc_port_reset(&md->port[port_num - 1], false);
		break;
	case IB_EVENT_PKEY_CHANGE:
		sa_mc_port_reset(&md->port[port_num - 1], true);
		break;
	default:
		break;
	}
}

static int sa_mc_add_one(struct ib_device *device)
{
	u32 nports = rdma_end_port(device), p, n = 0;
	struct sa_mc_dev *md;

	if (rdma_start_port(device) != 1)
		return -EOPNOTSUPP;
	md = kzalloc(struct_size(md, port, nports), GFP_KERNEL);
	if (!md)
		return -ENOMEM;
	md->nports = nports;
	rdma_for_each_port(device, p) {
		if (!rdma_cap_ib_mcast(device, p))
			continue;
		md->port[p - 1].device = device;
		md->port[p - 1].port_num = p;
		spin_lock_init(&md->port[p - 1].lock);
		md->port[p - 1].groups = RB_ROOT;
		n++;
	}
	if (!n) {
		kfree(md);
		return -EOPNOTSUPP;
	}
	ib_set_client_data(device, &sa_mc_client, md);
	INIT_IB_EVENT_HANDLER(&md->handler, device, sa_mc_event);
	ib_register_event_handler(&md->handler);
	return 0;
}

/*
 * The device goes after its ULPs freed their members: the groups go once
 * their last leaves are answered or time out.
 */
static void sa_mc_remove_one(struct ib_device *device, void *client_data)
{
	struct sa_mc_dev *md = client_data;
	u32 p;

	ib_unregister_event_handler(&md->handler);
	for (p = 0; p < md->nports; p++)
		wait_event(sa_mc_groups_gone, !atomic_read(&md->port[p].ngroups));
	kfree(md);
}

static struct ib_client sa_mc_client = {
	.name = "sa_multicast",
	.add = sa_mc_add_one,
	.remove = sa_mc_remove_one,
};

/**
 * sa_mcast_init - start the multicast client (ib_core's load)
 *
 * Return: 0 or an errno.
 */
int sa_mcast_init(void)
{
	int ret;

	sa_mc_wq = alloc_ordered_workqueue("ib_sa_mcast", WQ_MEM_RECLAIM);
	if (!sa_mc_wq)
		return -ENOMEM;
	ib_sa_register_client(&sa_mc_sa_client);
	ret = ib_register_client(&sa_mc_client);
	if (ret) {
		ib_sa_unregister_client(&sa_mc_sa_client);
		destroy_workqueue(sa_mc_wq);
	}
	return ret;
}

/**
 * sa_mcast_exit - stop the multicast client (ib_core's unload)
 */
void sa_mcast_exit(void)
{
	ib_unregister_client(&sa_mc_client);
	ib_sa_unregister_client(&sa_mc_sa_client);
	destroy_workqueue(sa_mc_wq);
}
