// SPDX-License-Identifier: GPL-2.0
/*
 * The MAD layer on every port: an ib_client whose add() brings up, on
 * each port with MADs (rdma_cap_ib_mad), a PD, a CQ, QP1 and, on ports
 * with an SMI (rdma_cap_ib_smi: InfiniBand), QP0, with their receive
 * buffers, a work queue and the port's own agents; remove() takes them
 * down.  ib_core registers the client first, so that it is added to a
 * device before, and removed after, the clients that register agents.
 *
 * Locking: mad_ports_lock protects the list of ports, which
 * ib_register_mad_agent() searches.  A port is only changed by add() and
 * remove().
 */
#include "abi/ib_core/mad.h"
#include "internal.h"

static LIST_HEAD(mad_ports);
static DEFINE_SPINLOCK(mad_ports_lock);

/**
 * port_get - the MAD layer of a port
 * @dev: the device
 * @port_num: the port
 *
 * The port lives until the client's remove(), which runs after the
 * remove() of the clients whose agents use it.
 *
 * Return: the port, or NULL if it has no MAD layer.
 */
struct mad_port *port_get(struct ib_device *dev, u32 port_num)
{
	struct mad_port *port, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&mad_ports_lock, flags);
	list_for_each_entry(port, &mad_ports, link) {
		if (port->dev == dev && port->port_num == port_num) {
			found = port;
			break;
		}
	}
	spin_unlock_irqrestore(&mad_ports_lock, flags);
	return found;
}

static void port_free(struct mad_port *port)
{
	if (port->cq)
		ib_free_cq(port->cq);
	qp_free_recvs(&port->qps[0]);
	qp_free_recvs(&port->qps[1]);
	if (port->pd)
		ib_dealloc_pd(port->pd);
	if (port->wq)
		destroy_workqueue(port->wq);
	xa_destroy(&port->classes);
	kfree(port);
}

/* The port's own agents, which send the replies of the driver and core. */
static int port_local_agents(struct mad_port *port)
{
	struct ib_mad_agent *agent;
	int i;

	for (i = 0; i < 2; i++) {
		if (!port->qps[i].qp)
			continue;
		agent = send_reply_agent(port, i ? IB_QPT_GSI : IB_QPT_SMI);
		if (IS_ERR(agent))
			return PTR_ERR(agent);
		port->local_agent[i] = agent;
	}
	return 0;
}

static void port_close(struct mad_port *port)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (port->local_agent[i])
			ib_unregister_mad_agent(port->local_agent[i]);
		port->local_agent[i] = NULL;
	}
	spin_lock_irq(&mad_ports_lock);
	list_del(&port->link);
	spin_unlock_irq(&mad_ports_lock);
	qp_close(&port->qps[0]);
	qp_close(&port->qps[1]);
	counters_port_remove(port);
	port_free(port);
}

static int port_open_qps(struct mad_port *port)
{
	struct ib_device *dev = port->dev;
	u32 n = port->port_num;
	int ret;

	port->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(port->pd)) {
		ret = PTR_ERR(port->pd);
		port->pd = NULL;
		return ret;
	}
	port->cq = ib_alloc_cq(dev, port, 4 * 384, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(port->cq)) {
		ret = PTR_ERR(port->cq);
		port->cq = NULL;
		return ret;
	}
	if (rdma_cap_ib_smi(dev, n)) {
		ret = qp_setup(&port->qps[0], port, IB_QPT_SMI);
		if (ret)
			return ret;
	}
	return qp_setup(&port->qps[1], port, IB_QPT_GSI);
}

static int port_open(struct ib_device *dev, u32 port_num)
{
	struct mad_port *port = kzalloc(sizeof(*port), GFP_KERNEL);
	int ret, i;

	if (!port)
		return -ENOMEM;
	port->dev = dev;
	port->port_num = port_num;
	xa_init(&port->classes);
	for (i = 0; i < MAD_DROP_MAX; i++)
		atomic64_set(&port->drops[i], 0);
	INIT_LIST_HEAD(&port->qps[0].recvs);
	INIT_LIST_HEAD(&port->qps[1].recvs);
	port->wq = alloc_workqueue("ib_mad-%s-%u", WQ_MEM_RECLAIM, 0,
				   dev_name(&dev->dev), port_num);
	ret = port->wq ? port_open_qps(port) : -ENOMEM;
	if (ret) {
		qp_close(&port->qps[0]);
		qp_close(&port->qps[1]);
		port_free(port);
		return ret;
	}
	spin_lock_irq(&mad_ports_lock);
	list_add_tail(&port->link, &mad_ports);
	spin_unlock_irq(&mad_ports_lock);
	counters_port_add(port);
	ret = port_local_agents(port);
	if (ret)
		port_close(port);
	return ret;
}

static void port_remove_all(struct ib_device *dev)
{
	struct mad_port *port;
	u32 p;

	rdma_for_each_port(dev, p) {
		port = port_get(dev, p);
		if (port)
			port_close(port);
	}
}

static int port_add_device(struct ib_device *dev)
{
	bool any = false;
	int ret;
	u32 p;

	rdma_for_each_port(dev, p) {
		if (!rdma_cap_ib_mad(dev, p))
			continue;
		ret = port_open(dev, p);
		if (ret) {
			ibdev_err(dev, "no MAD layer on port %u: %d\n", p, ret);
			port_remove_all(dev);
			return ret;
		}
		any = true;
	}
	return any ? 0 : -EOPNOTSUPP;
}

static void port_remove_device(struct ib_device *dev, void *client_data)
{
	port_remove_all(dev);
}

static struct ib_client mad_client = {
	.name = "mad",
	.add = port_add_device,
	.remove = port_remove_device,
};

/**
 * port_client_register - start the MAD layer on every device
 *
 * Return: 0 or ib_register_client()'s error.
 */
int port_client_register(void)
{
	int ret;

	counters_init();
	ret = ib_register_client(&mad_client);
	if (ret)
		counters_exit();
	return ret;
}

/**
 * port_client_unregister - stop the MAD layer on every device
 */
void port_client_unregister(void)
{
	ib_unregister_client(&mad_client);
	/* Each port leaves with its device (the client's remove). */
	WARN_ON(!list_empty(&mad_ports));
	counters_exit();
}
