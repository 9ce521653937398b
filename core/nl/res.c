// SPDX-License-Identifier: GPL-2.0
/*
 * nldev resource commands: RES_GET (how many objects of each type a device
 * has) and the RES_<type>_GET commands, which report one object (doit,
 * naming it by id) or all objects of a type on a device (dump): QPs, CM
 * IDs, CQs, MRs, PDs, user contexts and SRQs, with the _RAW variants that
 * return the driver's own view; STAT_GET also lists MRs and counters
 * through here.
 *
 * Objects come from resource tracking (core/restrack/) with a reader's
 * reference, taken and dropped around filling each one, so no lock is held
 * while drivers are asked about their objects.  A dump's cb->args[0] is the
 * id of the next object.
 */
#include "abi/ib_core/nldev.h"
#include "core/restrack.h"
#include "restrack/internal.h"
#include "nl/internal.h"

/* Adds what is reported of one object; @admin: the requester may see keys. */
typedef int (*res_fill_t)(struct sk_buff *msg, bool admin,
			  struct rdma_restrack_entry *res, u32 port);

/* One kind of listing: a command and the objects it reports. */
struct res_kind {
	u8 cmd;
	enum rdma_restrack_type type;
	u16 table;	/* the nest of a dump's entries */
	u16 entry;	/* one entry */
	u16 id;		/* the attribute that names an object in a doit */
	bool of_port;	/* objects belong to ports: a doit names the port */
	res_fill_t fill;
};

/* The owner: a kernel module's name or a user process's pid. */
static int res_fill_owner(struct sk_buff *msg, struct rdma_restrack_entry *res)
{
	pid_t pid;

	if (rdma_is_kernel_res(res))
		return res->kern_name &&
		       nla_put_string(msg, RDMA_NLDEV_ATTR_RES_KERN_NAME,
				      res->kern_name) ? -EMSGSIZE : 0;
	/* A task that is gone, or outside our pid namespace, has pid 0. */
	pid = res->task ? task_pid_vnr(res->task) : 0;
	if (pid && nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PID, pid))
		return -EMSGSIZE;
	return 0;
}

static bool res_qp_connected(enum ib_qp_type type)
{
	return type == IB_QPT_RC || type == IB_QPT_UC;
}

/* What the driver says of a QP's state and sequence numbers. */
static noinline_for_stack int res_fill_qp_state(struct sk_buff *msg,
						struct ib_qp *qp)
{
	struct ib_qp_attr attr;
	struct ib_qp_init_attr init;
	int err = ib_query_qp(qp, &attr, 0, &init);

	if (err)
		return err;
	if (res_qp_connected(qp->qp_type) &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RQPN, attr.dest_qp_num) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RQ_PSN, attr.rq_psn)))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_SQ_PSN, attr.sq_psn))
		return -EMSGSIZE;
	if ((res_qp_connected(qp->qp_type) || qp->qp_type == IB_QPT_XRC_INI ||
	     qp->qp_type == IB_QPT_XRC_TGT) &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE,
		       attr.path_mig_state))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, qp->qp_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE, attr.qp_state))
		return -EMSGSIZE;
	return 0;
}

static int res_fill_qp(struct sk_buff *msg, bool admin,
		       struct rdma_restrack_entry *res, u32 port)
{
	struct ib_qp *qp = container_of(res, struct ib_qp, res);
	int ret;

	if (port && port != qp->port)
		return -EAGAIN;
	/* A QP gets its port when it is first modified. */
	if ((qp->port && nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, qp->port)) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num) ||
	    (!rdma_is_kernel_res(res) &&
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, qp->pd->res.id)) ||
	    res_fill_owner(msg, res))
		return -EMSGSIZE;
	ret = res_fill_qp_state(msg, qp);
	if (ret)
		return ret;
	return qp->device->ops.fill_res_qp_entry ?
	       qp->device->ops.fill_res_qp_entry(msg, qp) : 0;
}

static int res_fill_qp_raw(struct sk_buff *msg, bool admin,
			   struct rdma_restrack_entry *res, u32 port)
{
	struct ib_qp *qp = container_of(res, struct ib_qp, res);

	if (port && port != qp->port)
		return -EAGAIN;
	return qp->device->ops.fill_res_qp_entry_raw ?
	       qp->device->ops.fill_res_qp_entry_raw(msg, qp) : -EINVAL;
}

static int res_fill_cm_addrs(struct sk_buff *msg, struct rdma_cm_id *id)
{
	struct sockaddr_storage *src = &id->route.addr.src_addr;
	struct sockaddr_storage *dst = &id->route.addr.dst_addr;

	if ((src->ss_family &&
	     nla_put(msg, RDMA_NLDEV_ATTR_RES_SRC_ADDR, sizeof(*src), src)) ||
	    (dst->ss_family &&
	     nla_put(msg, RDMA_NLDEV_ATTR_RES_DST_ADDR, sizeof(*dst), dst)))
		return -EMSGSIZE;
	return 0;
}

static int res_fill_cm_id(struct sk_buff *msg, bool admin,
			  struct rdma_restrack_entry *res, u32 port)
{
	struct restrack_cm_id *cm = container_of(res, struct restrack_cm_id, res);
	struct rdma_cm_id *id = cm->id;

	if (port && port != id->port_num)
		return -EAGAIN;
	if ((id->port_num &&
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, id->port_num)) ||
	    (cm->qp_num &&
	     (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, cm->qp_num) ||
	      nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, id->qp_type))) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PS, id->ps) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE, cm->state) ||
	    res_fill_cm_addrs(msg, id) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CM_IDN, res->id) ||
	    res_fill_owner(msg, res))
		return -EMSGSIZE;
	return id->device->ops.fill_res_cm_id_entry ?
	       id->device->ops.fill_res_cm_id_entry(msg, id) : 0;
}

static int res_fill_cq(struct sk_buff *msg, bool admin,
		       struct rdma_restrack_entry *res, u32 port)
{
	struct ib_cq *cq = container_of(res, struct ib_cq, res);
	bool kernel = rdma_is_kernel_res(res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQE, cq->cqe) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_USECNT,
			      atomic_read(&cq->usecnt), RDMA_NLDEV_ATTR_PAD) ||
	    /* Only the core polls kernel CQs in a context of its choice. */
	    (kernel && nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_POLL_CTX,
				  cq->poll_ctx)) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, !!cq->dim) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQN, res->id) ||
	    res_fill_owner(msg, res))
		return -EMSGSIZE;
	return cq->device->ops.fill_res_cq_entry ?
	       cq->device->ops.fill_res_cq_entry(msg, cq) : 0;
}

static int res_fill_cq_raw(struct sk_buff *msg, bool admin,
			   struct rdma_restrack_entry *res, u32 port)
{
	struct ib_cq *cq = container_of(res, struct ib_cq, res);

	return cq->device->ops.fill_res_cq_entry_raw ?
	       cq->device->ops.fill_res_cq_entry_raw(msg, cq) : -EINVAL;
}

static int res_fill_mr(struct sk_buff *msg, bool admin,
		       struct rdma_restrack_entry *res, u32 port)
{
	struct ib_mr *mr = container_of(res, struct ib_mr, res);
	/* A user MR may be moved to another PD (rdma_restrack_sync()). */
	struct ib_pd *pd = READ_ONCE(mr->pd);

	if ((admin && (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RKEY, mr->rkey) ||
		       nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LKEY, mr->lkey))) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_MRLEN, mr->length,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_MRN, res->id) ||
	    (!rdma_is_kernel_res(res) &&
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, pd->res.id)) ||
	    res_fill_owner(msg, res))
		return -EMSGSIZE;
	return mr->device->ops.fill_res_mr_entry ?
	       mr->device->ops.fill_res_mr_entry(msg, mr) : 0;
}

static int res_fill_mr_raw(struct sk_buff *msg, bool admin,
			   struct rdma_restrack_entry *res, u32 port)
{
	struct ib_mr *mr = container_of(res, struct ib_mr, res);

	return mr->device->ops.fill_res_mr_entry_raw ?
	       mr->device->ops.fill_res_mr_entry_raw(msg, mr) : -EINVAL;
}

/* STAT_GET of MRs: the driver's MR statistics. */
static int res_fill_stat_mr(struct sk_buff *msg, bool admin,
			    struct rdma_restrack_entry *res, u32 port)
{
	struct ib_mr *mr = container_of(res, struct ib_mr, res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_MRN, res->id))
		return -EMSGSIZE;
	return mr->device->ops.fill_stat_mr_entry ?
	       mr->device->ops.fill_stat_mr_entry(msg, mr) : 0;
}

static int res_fill_pd(struct sk_buff *msg, bool admin,
		       struct rdma_restrack_entry *res, u32 port)
{
	struct ib_pd *pd = container_of(res, struct ib_pd, res);
	bool global_rkey = pd->flags & IB_PD_UNSAFE_GLOBAL_RKEY;

	if ((admin &&
	     (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY,
			  pd->local_dma_lkey) ||
	      (global_rkey &&
	       nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY,
			   pd->unsafe_global_rkey)))) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_USECNT,
			      atomic_read(&pd->usecnt), RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, res->id) ||
	    (!rdma_is_kernel_res(res) && pd->uobject &&
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CTXN,
			 pd->uobject->context->res.id)) ||
	    res_fill_owner(msg, res))
		return -EMSGSIZE;
	return 0;
}

static int res_fill_ctx(struct sk_buff *msg, bool admin,
			struct rdma_restrack_entry *res, u32 port)
{
	/* Contexts belong to user processes; a kernel one has nothing. */
	if (rdma_is_kernel_res(res))
		return 0;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CTXN, res->id) ||
	    res_fill_owner(msg, res))
		return -EMSGSIZE;
	return 0;
}

/* One run of consecutive QP numbers, first..last. */
static int res_fill_qp_run(struct sk_buff *msg, u32 first, u32 last)
{
	struct nlattr *entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

	if (!entry)
		return -EMSGSIZE;
	if (first == last ?
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, first) :
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_MIN_RANGE, first) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_MAX_RANGE, last))) {
		nla_nest_cancel(msg, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 0;
}

/* The QPs that receive through @srq, as runs of consecutive numbers. */
static int res_fill_srq_qps(struct sk_buff *msg, struct ib_srq *srq)
{
	struct nlattr *table = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_QP);
	struct rdma_restrack_entry *res;
	unsigned long id = 0;
	bool in_run = false;
	u32 first = 0, last = 0, num;
	int ret = 0;

	if (!table)
		return -EMSGSIZE;
	for (; !ret && (res = restrack_get_next(srq->device, RDMA_RESTRACK_QP,
						&id, true)); id++) {
		struct ib_qp *qp = container_of(res, struct ib_qp, res);

		num = qp->qp_num;
		if (qp->srq == srq) {
			if (in_run && num != last + 1)
				ret = res_fill_qp_run(msg, first, last);
			if (!in_run || num != last + 1)
				first = num;
			last = num;
			in_run = true;
		}
		rdma_restrack_put(res);
	}
	if (!ret && in_run)
		ret = res_fill_qp_run(msg, first, last);
	if (ret) {
		nla_nest_cancel(msg, table);
		return ret;
	}
	nla_nest_end(msg, table);
	return 0;
}

static int res_fill_srq(struct sk_buff *msg, bool admin,
			struct rdma_restrack_entry *res, u32 port)
{
	struct ib_srq *srq = container_of(res, struct ib_srq, res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_SRQN, res->id) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, srq->srq_type) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, srq->pd->res.id) ||
	    (ib_srq_has_cq(srq->srq_type) &&
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQN, srq->ext.cq->res.id)) ||
	    res_fill_srq_qps(msg, srq) ||
	    res_fill_owner(msg, res))
		return -EMSGSIZE;
	return 0;
}

/* STAT_GET of QP counters: the counters bound on a port. */
static int res_fill_counter(struct sk_buff *msg, bool admin,
			    struct rdma_restrack_entry *res, u32 port)
{
	struct rdma_counter *counter =
		container_of(res, struct rdma_counter, res);

	if (port && port != counter->port)
		return -EAGAIN;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, counter->port) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, counter->id) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_MODE, counter->mode.mode))
		return -EMSGSIZE;
	return 0;
}

#define RES_KIND(c, t, tab, ent, idattr, p, f) {			\
	.cmd = RDMA_NLDEV_CMD_##c, .type = RDMA_RESTRACK_##t,		\
	.table = RDMA_NLDEV_ATTR_##tab, .entry = RDMA_NLDEV_ATTR_##ent,	\
	.id = RDMA_NLDEV_ATTR_##idattr, .of_port = p, .fill = f }

static const struct res_kind res_kinds[] = {
	RES_KIND(RES_QP_GET, QP, RES_QP, RES_QP_ENTRY, RES_LQPN, true,
		 res_fill_qp),
	RES_KIND(RES_QP_GET_RAW, QP, RES_QP, RES_QP_ENTRY, RES_LQPN, true,
		 res_fill_qp_raw),
	RES_KIND(RES_CM_ID_GET, CM_ID, RES_CM_ID, RES_CM_ID_ENTRY, RES_CM_IDN,
		 true, res_fill_cm_id),
	RES_KIND(RES_CQ_GET, CQ, RES_CQ, RES_CQ_ENTRY, RES_CQN, false,
		 res_fill_cq),
	RES_KIND(RES_CQ_GET_RAW, CQ, RES_CQ, RES_CQ_ENTRY, RES_CQN, false,
		 res_fill_cq_raw),
	RES_KIND(RES_MR_GET, MR, RES_MR, RES_MR_ENTRY, RES_MRN, false,
		 res_fill_mr),
	RES_KIND(RES_MR_GET_RAW, MR, RES_MR, RES_MR_ENTRY, RES_MRN, false,
		 res_fill_mr_raw),
	RES_KIND(RES_PD_GET, PD, RES_PD, RES_PD_ENTRY, RES_PDN, false,
		 res_fill_pd),
	RES_KIND(RES_CTX_GET, CTX, RES_CTX, RES_CTX_ENTRY, RES_CTXN, false,
		 res_fill_ctx),
	RES_KIND(RES_SRQ_GET, SRQ, RES_SRQ, RES_SRQ_ENTRY, RES_SRQN, false,
		 res_fill_srq),
	RES_KIND(STAT_GET, MR, RES_MR, RES_MR_ENTRY, RES_MRN, false,
		 res_fill_stat_mr),
	RES_KIND(STAT_GET, COUNTER, STAT_COUNTER, STAT_COUNTER_ENTRY,
		 STAT_COUNTER_ID, true, res_fill_counter),
};

/* The listing of @type that command @cmd makes, or NULL. */
static const struct res_kind *res_kind_find(u8 cmd, int type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(res_kinds); i++)
		if (res_kinds[i].cmd == cmd &&
		    (type < 0 || res_kinds[i].type == type))
			return &res_kinds[i];
	return NULL;
}

/* The port a request filters on, 0 for none; -EINVAL for a bad one. */
static int res_port(struct ib_device *device, struct nlattr **tb, u32 *port)
{
	*port = 0;
	return tb[RDMA_NLDEV_ATTR_PORT_INDEX] ?
	       nldev_get_port(device, tb, port) : 0;
}

/* Reply to a doit with the one object @res. */
static int res_doit_reply(struct sk_buff *skb, struct nlmsghdr *nlh,
			  const struct res_kind *kind, struct ib_device *device,
			  struct rdma_restrack_entry *res, u32 port)
{
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	int ret;

	msg = nldev_reply_new(skb, nlh, RDMA_NL_GET_OP(nlh->nlmsg_type), &hdr);
	if (!msg)
		return -ENOMEM;
	ret = nldev_put_handle(msg, device);
	if (!ret)
		ret = kind->fill(msg, netlink_capable(skb, CAP_NET_ADMIN), res,
				 port);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return nldev_reply_send(skb, msg, hdr);
}

static int res_doit_device(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct nlattr **tb, const struct res_kind *kind,
			   struct ib_device *device)
{
	struct rdma_restrack_entry *res;
	u32 port;
	int ret;

	ret = res_port(device, tb, &port);
	if (ret)
		return ret;
	/* Objects of ports are named with their port, the others without. */
	if (!!port != kind->of_port)
		return -EINVAL;
	res = rdma_restrack_get_byid(device, kind->type,
				     nla_get_u32(tb[kind->id]));
	if (IS_ERR(res))
		return PTR_ERR(res);
	ret = res_doit_reply(skb, nlh, kind, device, res, port);
	rdma_restrack_put(res);
	return ret;
}

/**
 * res_doit_type() - report one object of a device
 * @skb: the request's buffer
 * @nlh: the request, typed with the command answered
 * @extack: unused; errors are the target's
 * @tb: the request's attributes: the device, the object's id, and its
 *	port for objects of ports
 * @type: the object type
 * @cmd: the command that lists it (RES_*_GET, or STAT_GET for MR
 *	statistics and counters)
 *
 * Return: 0, -EINVAL for a bad request, -ENOENT for an unknown object, or
 * the error of filling or sending the reply.
 */
int res_doit_type(struct sk_buff *skb, struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack, struct nlattr **tb,
		  enum rdma_restrack_type type, u8 cmd)
{
	const struct res_kind *kind = res_kind_find(cmd, type);
	struct ib_device *device;
	int ret;

	if (!kind || !tb[kind->id])
		return -EINVAL;
	device = nldev_get_device(skb, tb);
	if (!device)
		return -EINVAL;
	ret = res_doit_device(skb, nlh, tb, kind, device);
	ib_device_put(device);
	return ret;
}

/* RES_*_GET with an object id. */
int res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack)
{
	const struct res_kind *kind =
		res_kind_find(RDMA_NL_GET_OP(nlh->nlmsg_type), -1);
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];

	if (!kind || nldev_parse(nlh, tb, false, extack))
		return -EINVAL;
	return res_doit_type(skb, nlh, extack, tb, kind->type, kind->cmd);
}

/* A dump's walk: where it is and what it reports. */
struct res_walk {
	const struct res_kind *kind;
	struct ib_device *device;
	u32 port;
	bool details;
	bool admin;
};

/* One entry; -EAGAIN if the object is filtered out. */
static int res_dump_entry(struct sk_buff *skb, const struct res_walk *w,
			  struct rdma_restrack_entry *res)
{
	struct nlattr *entry = nla_nest_start_noflag(skb, w->kind->entry);
	int ret;

	if (!entry)
		return -EMSGSIZE;
	ret = w->kind->fill(skb, w->admin, res, w->port);
	if (ret)
		nla_nest_cancel(skb, entry);
	else
		nla_nest_end(skb, entry);
	return ret;
}

/*
 * Entries from cb->args[0] on into the open table of @skb.  Return: how
 * many, or a negative errno (-EMSGSIZE: none fits, more are left).
 */
static int res_dump_entries(struct sk_buff *skb, struct netlink_callback *cb,
			    const struct res_walk *w)
{
	struct rdma_restrack_entry *res;
	unsigned long id = cb->args[0];
	int n = 0, ret = 0;

	while ((res = restrack_get_next(w->device, w->kind->type, &id,
					w->details))) {
		ret = res_dump_entry(skb, w, res);
		rdma_restrack_put(res);
		if (ret == -EMSGSIZE)
			break;
		if (ret && ret != -EAGAIN)
			return ret;
		n += !ret;
		ret = 0;
		id++;
	}
	cb->args[0] = id;
	return ret && !n ? ret : n;
}

/* One message: the device and as many of its objects as fit. */
static int res_dump_msg(struct sk_buff *skb, struct netlink_callback *cb,
			const struct res_walk *w)
{
	struct nlmsghdr *hdr;
	struct nlattr *table;
	int n;

	hdr = nldev_dump_msg(skb, cb, RDMA_NL_GET_OP(cb->nlh->nlmsg_type));
	if (!hdr)
		return -EMSGSIZE;
	table = nldev_put_handle(skb, w->device) ? NULL :
		nla_nest_start_noflag(skb, w->kind->table);
	n = table ? res_dump_entries(skb, cb, w) : -EMSGSIZE;
	if (n <= 0) {
		nlmsg_cancel(skb, hdr);
		return n;
	}
	nla_nest_end(skb, table);
	nlmsg_end(skb, hdr);
	return skb->len;
}

/**
 * res_dump_type() - report the objects of a type on a device, as a dump
 * @skb: the dump's buffer
 * @cb: the dump
 * @tb: the request's attributes: the device, optionally a port to filter
 *	on and RDMA_NLDEV_ATTR_DRIVER_DETAILS
 * @type: the object type
 * @cmd: the command that lists it
 *
 * Return: the length of @skb, 0 at the end, or a negative errno.
 */
int res_dump_type(struct sk_buff *skb, struct netlink_callback *cb,
		  struct nlattr **tb, enum rdma_restrack_type type, u8 cmd)
{
	struct res_walk w = { .kind = res_kind_find(cmd, type) };
	int ret;

	if (!w.kind)
		return -EINVAL;
	w.device = nldev_get_device(skb, tb);
	if (!w.device)
		return -EINVAL;
	if (tb[RDMA_NLDEV_ATTR_DRIVER_DETAILS])
		w.details = nla_get_u8(tb[RDMA_NLDEV_ATTR_DRIVER_DETAILS]);
	w.admin = netlink_capable(cb->skb, CAP_NET_ADMIN);
	ret = res_port(w.device, tb, &w.port);
	if (!ret)
		ret = res_dump_msg(skb, cb, &w);
	ib_device_put(w.device);
	return ret;
}

/* RES_*_GET as a dump. */
int res_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct res_kind *kind =
		res_kind_find(RDMA_NL_GET_OP(cb->nlh->nlmsg_type), -1);
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];

	if (!kind || nldev_parse(cb->nlh, tb, false, NULL))
		return -EINVAL;
	return res_dump_type(skb, cb, tb, kind->type, kind->cmd);
}

/* The names RES_GET reports counts under; the others are not listed. */
static const char * const res_summary_names[RDMA_RESTRACK_MAX] = {
	[RDMA_RESTRACK_QP] = "qp",
	[RDMA_RESTRACK_SRQ] = "srq",
	[RDMA_RESTRACK_CQ] = "cq",
	[RDMA_RESTRACK_PD] = "pd",
	[RDMA_RESTRACK_MR] = "mr",
	[RDMA_RESTRACK_CTX] = "ctx",
	[RDMA_RESTRACK_CM_ID] = "cm_id",
};

static int res_summary_entry(struct sk_buff *msg, const char *name, u64 n)
{
	struct nlattr *entry;

	entry = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, n,
			      RDMA_NLDEV_ATTR_PAD)) {
		nla_nest_cancel(msg, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 0;
}

static int res_summary_fill(struct sk_buff *msg, struct ib_device *device,
			    bool details)
{
	struct nlattr *table;
	int type;

	if (nldev_put_handle(msg, device))
		return -EMSGSIZE;
	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_SUMMARY);
	if (!table)
		return -EMSGSIZE;
	for (type = 0; type < RDMA_RESTRACK_MAX; type++) {
		if (res_summary_names[type] &&
		    res_summary_entry(msg, res_summary_names[type],
				      rdma_restrack_count(device, type,
							  details))) {
			nla_nest_cancel(msg, table);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, table);
	return 0;
}

/* RES_GET: how many objects of each type one device has. */
int res_summary_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *device;
	struct nlmsghdr *hdr;
	struct sk_buff *msg;
	bool details = false;
	int ret;

	if (nldev_parse(nlh, tb, false, extack))
		return -EINVAL;
	device = nldev_get_device(skb, tb);
	if (!device)
		return -EINVAL;
	if (tb[RDMA_NLDEV_ATTR_DRIVER_DETAILS])
		details = nla_get_u8(tb[RDMA_NLDEV_ATTR_DRIVER_DETAILS]);
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_RES_GET, &hdr);
	ret = msg ? res_summary_fill(msg, device, details) : -ENOMEM;
	if (!ret)
		ret = nldev_reply_send(skb, msg, hdr);
	else
		nlmsg_free(msg);
	ib_device_put(device);
	return ret;
}

static int res_summary_dump_one(struct sk_buff *skb,
				struct netlink_callback *cb,
				struct ib_device *device)
{
	struct nlmsghdr *hdr = nldev_dump_msg(skb, cb, RDMA_NLDEV_CMD_RES_GET);

	if (!hdr)
		return -EMSGSIZE;
	if (res_summary_fill(skb, device, false)) {
		nlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	nlmsg_end(skb, hdr);
	return 0;
}

/* RES_GET as a dump: the counts of every device. */
int res_summary_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_dump_devices(skb, cb, res_summary_dump_one);
}
