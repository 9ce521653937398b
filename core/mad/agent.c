// SPDX-License-Identifier: GPL-2.0
/*
 * MAD agents: registration, its rules and tables, finding the agent of a
 * received MAD, references, unregistration.
 *
 * An agent with a registration request receives the unsolicited MADs of
 * its class, class version (and OUI, in the second vendor range) whose
 * method it names; every agent receives the responses to its own
 * requests, found by the high 32 bits of their TID, which the agent's
 * hi_tid fills.  Two agents of a port never share a method of a class,
 * version and OUI.
 *
 * Tables: each port's xarray maps a class key (class version, class,
 * OUI) to a struct mad_methods, one agent pointer per method; mad_tids
 * maps hi_tid to agents.  Both are changed under mad_reg_mutex and read
 * under RCU; an agent is freed after a grace period, a methods entry too.
 */
#include "abi/ib_core/mad.h"
#include <linux/rcupdate.h>
#include "internal.h"

/* The methods of one class key: which agent has each. */
struct mad_methods {
	struct mad_agent *method[IB_MGMT_MAX_METHODS];
	unsigned int used;
	struct rcu_head rcu;
};

static DEFINE_MUTEX(mad_reg_mutex);
/* Agents by hi_tid (24 bits: some drivers use the top byte of a TID). */
static DEFINE_XARRAY_ALLOC(mad_tids);
static u32 mad_tid_next;

static bool agent_vendor2(u8 mgmt_class)
{
	return mgmt_class >= IB_MGMT_CLASS_VENDOR_RANGE2_START &&
	       mgmt_class <= IB_MGMT_CLASS_VENDOR_RANGE2_END;
}

static unsigned long agent_key(u8 version, u8 mgmt_class, const u8 *oui)
{
	unsigned long key = (unsigned long)version << 32 | mgmt_class << 24;

	if (agent_vendor2(mgmt_class))
		key |= oui[0] << 16 | oui[1] << 8 | oui[2];
	return key;
}

/* The rules of a registration request (the target's -EINVAL cases). */
static int agent_check_req(const struct ib_mad_reg_req *req,
			   enum ib_qp_type qp_type, u8 rmpp_version,
			   ib_mad_recv_handler recv_handler)
{
	u8 cls = req->mgmt_class;
	bool smp = cls == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
		   cls == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;

	if (req->mgmt_class_version >= MAD_MAX_VERSION || !recv_handler)
		return -EINVAL;
	/* Class 0 is reserved; the directed route class is the one above */
	if (!cls || (cls >= MAD_MAX_CLASS &&
		     cls != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE))
		return -EINVAL;
	if (agent_vendor2(cls) && !req->oui[0] && !req->oui[1] && !req->oui[2])
		return -EINVAL;
	if (rmpp_version && !ib_is_mad_class_rmpp(cls))
		return -EINVAL;
	/* SMPs on QP0 only, and nothing else there */
	if (smp != (qp_type == IB_QPT_SMI))
		return -EINVAL;
	return 0;
}

static int agent_check(struct ib_device *dev, u32 port,
		       enum ib_qp_type qp_type,
		       const struct ib_mad_reg_req *req, u8 rmpp_version,
		       ib_mad_send_handler send_handler,
		       ib_mad_recv_handler recv_handler, u32 flags)
{
	if (!rdma_is_port_valid(dev, port))
		return -ENODEV;
	if ((qp_type == IB_QPT_SMI && !rdma_cap_ib_smi(dev, port)) ||
	    (qp_type == IB_QPT_GSI && !rdma_cap_ib_cm(dev, port)))
		return -EPROTONOSUPPORT;
	if (qp_type != IB_QPT_SMI && qp_type != IB_QPT_GSI)
		return -EINVAL;
	if (rmpp_version && rmpp_version != IB_MGMT_RMPP_VERSION)
		return -EINVAL;
	if (req)
		return agent_check_req(req, qp_type, rmpp_version,
				       recv_handler);
	if (!send_handler || (flags & IB_MAD_USER_RMPP))
		return -EINVAL;
	return 0;
}

/* Puts @ma in its port's table for the methods of its request. */
static int agent_table_add(struct mad_agent *ma)
{
	const struct ib_mad_reg_req *req = ma->reg;
	struct xarray *xa = &ma->port->classes;
	unsigned long key;
	struct mad_methods *m;
	unsigned int i;
	int ret;

	lockdep_assert_held(&mad_reg_mutex);
	key = agent_key(req->mgmt_class_version, req->mgmt_class, req->oui);
	m = xa_load(xa, key);
	if (m) {
		for_each_set_bit(i, req->method_mask, IB_MGMT_MAX_METHODS)
			if (m->method[i])
				return -EINVAL;
	} else {
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m)
			return -ENOMEM;
		ret = xa_err(xa_store(xa, key, m, GFP_KERNEL));
		if (ret) {
			kfree(m);
			return ret;
		}
	}
	for_each_set_bit(i, req->method_mask, IB_MGMT_MAX_METHODS) {
		WRITE_ONCE(m->method[i], ma);
		m->used++;
	}
	return 0;
}

static void agent_table_del(struct mad_agent *ma)
{
	const struct ib_mad_reg_req *req = ma->reg;
	struct xarray *xa = &ma->port->classes;
	struct mad_methods *m;
	unsigned long key;
	unsigned int i;

	lockdep_assert_held(&mad_reg_mutex);
	key = agent_key(req->mgmt_class_version, req->mgmt_class, req->oui);
	m = xa_load(xa, key);
	if (!m)
		return;
	for (i = 0; i < IB_MGMT_MAX_METHODS; i++) {
		if (m->method[i] != ma)
			continue;
		WRITE_ONCE(m->method[i], NULL);
		m->used--;
	}
	if (!m->used) {
		xa_erase(xa, key);
		kfree_rcu(m, rcu);
	}
}

static struct mad_agent *agent_alloc(struct mad_port *port,
				     enum ib_qp_type qp_type,
				     const struct ib_mad_reg_req *req)
{
	struct mad_agent *ma = kzalloc(sizeof(*ma), GFP_KERNEL);

	if (!ma)
		return NULL;
	if (req) {
		ma->reg = kmemdup(req, sizeof(*req), GFP_KERNEL);
		if (!ma->reg) {
			kfree(ma);
			return NULL;
		}
	}
	ma->port = port;
	ma->mqp = &port->qps[qp_type == IB_QPT_GSI];
	refcount_set(&ma->refs, 1);
	init_completion(&ma->released);
	spin_lock_init(&ma->lock);
	INIT_LIST_HEAD(&ma->active);
	INIT_LIST_HEAD(&ma->waiting);
	INIT_LIST_HEAD(&ma->reports);
	INIT_LIST_HEAD(&ma->rmpp_in);
	INIT_DELAYED_WORK(&ma->timer, send_timer_fn);
	INIT_DELAYED_WORK(&ma->rmpp_timer, rmpp_timer_fn);
	INIT_WORK(&ma->report, send_report_fn);
	return ma;
}

static void agent_free(struct mad_agent *ma)
{
	kfree(ma->reg);
	kfree_rcu(ma, rcu);
}

/* Makes @ma findable: by hi_tid, and by its request's methods. */
static int agent_publish(struct mad_agent *ma)
{
	int ret;

	mutex_lock(&mad_reg_mutex);
	ret = xa_alloc_cyclic(&mad_tids, &ma->agent.hi_tid, ma,
			      XA_LIMIT(0, (1 << 24) - 1), &mad_tid_next,
			      GFP_KERNEL);
	if (ret >= 0 && ma->reg) {
		ret = agent_table_add(ma);
		if (ret)
			xa_erase(&mad_tids, ma->agent.hi_tid);
	}
	mutex_unlock(&mad_reg_mutex);
	return ret < 0 ? ret : 0;
}

/**
 * ib_register_mad_agent - register an agent of a port's QP0 or QP1
 * @device: the device
 * @port_num: its port
 * @qp_type: IB_QPT_SMI (QP0) or IB_QPT_GSI (QP1)
 * @reg_req: the class, class version, OUI and methods whose
 *	unsolicited MADs the agent receives; NULL for an agent that only
 *	sends (and receives the responses to its requests)
 * @rmpp_ver: 0, or IB_MGMT_RMPP_VERSION for an RMPP class
 * @on_send: called when a send completes (required)
 * @on_recv: called for each MAD received (required with
 *	@reg_req)
 * @context: the agent's context for the handlers
 * @reg_flags: IB_MAD_USER_RMPP: the consumer does RMPP itself
 *
 * Sleeps.
 *
 * Return: the agent, or an ERR_PTR: -EPROTONOSUPPORT when the port has no
 * such QP (QP0 on RoCE, QP1 on iWARP); -ENODEV for a port without the MAD
 * layer; -EINVAL for a bad QP type, RMPP version or request, for a
 * request of a class the QP does not carry, and when another agent of the
 * port has one of the methods; -ENOMEM.
 */
struct ib_mad_agent *ib_register_mad_agent(struct ib_device *device,
					   u32 port_num,
					   enum ib_qp_type qp_type,
					   struct ib_mad_reg_req *reg_req,
					   u8 rmpp_ver,
					   ib_mad_send_handler on_send,
					   ib_mad_recv_handler on_recv,
					   void *context,
					   u32 reg_flags)
{
	struct mad_port *port;
	struct mad_agent *ma;
	int ret;

	ret = agent_check(device, port_num, qp_type, reg_req,
			  rmpp_ver, on_send, on_recv,
			  reg_flags);
	if (ret)
		return ERR_PTR(ret);
	port = port_get(device, port_num);
	if (!port)
		return ERR_PTR(-ENODEV);
	if (!port->qps[qp_type == IB_QPT_GSI].qp)
		return ERR_PTR(-EPROTONOSUPPORT);
	ma = agent_alloc(port, qp_type, reg_req);
	if (!ma)
		return ERR_PTR(-ENOMEM);
	ma->agent.device = device;
	ma->agent.qp = ma->mqp->qp;
	ma->agent.port_num = port_num;
	ma->agent.rmpp_version = rmpp_ver;
	ma->agent.flags = reg_flags;
	ma->agent.send_handler = on_send;
	ma->agent.recv_handler = on_recv;
	ma->agent.context = context;
	INIT_LIST_HEAD(&ma->agent.mad_agent_sec_list);
	/*
	 * Agent security (LSM hooks on P_Keys and QP0) is compiled out in
	 * the target (no CONFIG_SECURITY_INFINIBAND): every agent may use
	 * every P_Key and QP0, as there.
	 */
	ma->agent.smp_allowed = true;
	ret = agent_publish(ma);
	if (ret) {
		agent_free(ma);
		return ERR_PTR(ret);
	}
	return &ma->agent;
}
EXPORT_SYMBOL(ib_register_mad_agent);

/**
 * agent_put - drop a reference on an agent
 * @ma: the agent
 */
void agent_put(struct mad_agent *ma)
{
	if (refcount_dec_and_test(&ma->refs))
		complete(&ma->released);
}

/* A reference on @ma, unless it is going away; under rcu_read_lock(). */
static struct mad_agent *agent_tryget(struct mad_agent *ma)
{
	if (!ma || !refcount_inc_not_zero(&ma->refs))
		return NULL;
	if (READ_ONCE(ma->dying)) {
		agent_put(ma);
		return NULL;
	}
	return ma;
}

/**
 * agent_find - the agent a received MAD goes to
 * @port: the port it came in on
 * @mqp: the QP it came in on
 * @hdr: its header
 *
 * A response goes to the agent whose hi_tid its TID carries; anything
 * else to the agent registered for its class, version, OUI and method.
 * Any context.
 *
 * Return: the agent with a reference (agent_put() it), or NULL.
 */
struct mad_agent *agent_find(struct mad_port *port, struct mad_qp *mqp,
			     const struct ib_mad_hdr *hdr)
{
	const struct ib_vendor_mad *vmad = (const void *)hdr;
	struct mad_methods *m;
	struct mad_agent *ma = NULL;

	rcu_read_lock();
	if (ib_response_mad(hdr)) {
		ma = xa_load(&mad_tids, be64_to_cpu(hdr->tid) >> 32);
	} else if (hdr->class_version < MAD_MAX_VERSION) {
		m = xa_load(&port->classes,
			    agent_key(hdr->class_version, hdr->mgmt_class,
				      vmad->oui));
		if (m)
			ma = READ_ONCE(m->method[hdr->method &
						 (IB_MGMT_MAX_METHODS - 1)]);
	}
	ma = agent_tryget(ma);
	rcu_read_unlock();
	if (ma && (ma->port != port || ma->mqp != mqp ||
		   !ma->agent.recv_handler)) {
		agent_put(ma);
		ma = NULL;
	}
	return ma;
}

/**
 * ib_unregister_mad_agent - unregister an agent
 * @mad_agent: the agent of ib_register_mad_agent()
 *
 * The agent receives nothing more; its outstanding sends complete with
 * IB_WC_WR_FLUSH_ERR (those waiting for a response at once, those with
 * the hardware when it gives them back).  Returns once every handler has
 * returned and every send buffer of the agent was freed: no handler is
 * called after it.  Sleeps; not from the agent's own handlers.
 */
void ib_unregister_mad_agent(struct ib_mad_agent *mad_agent)
{
	struct mad_agent *ma = to_mad_agent(mad_agent);

	WRITE_ONCE(ma->dying, true);
	mutex_lock(&mad_reg_mutex);
	xa_erase(&mad_tids, mad_agent->hi_tid);
	if (ma->reg)
		agent_table_del(ma);
	mutex_unlock(&mad_reg_mutex);

	send_cancel_all(ma);
	agent_put(ma);
	wait_for_completion(&ma->released);
	agent_free(ma);
}
EXPORT_SYMBOL(ib_unregister_mad_agent);
