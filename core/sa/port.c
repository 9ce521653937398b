// SPDX-License-Identifier: GPL-2.0
/*
 * The "sa" client: what queries need of each InfiniBand port (those with
 * rdma_cap_ib_sa()).
 *
 *  - A GSI MAD agent of the SA class that registers no method: it sends
 *    queries and gets their responses (query.c's handlers).
 *  - The SM's address: an address handle to the port's SM LID and SL
 *    (with a GRH to the SA's well-known GUID where the port requires
 *    one), the P_Key index of the default partition, the port's LMC mask.
 *    Read again by sa_port_refresh when the port becomes active, goes
 *    down, or an event may have moved the SM or the port (SM_CHANGE,
 *    LID_CHANGE, PKEY_CHANGE, CLIENT_REREGISTER), and dropped at once on
 *    those events: until the refresh, queries fail with -EAGAIN rather
 *    than go to an SM that may be gone.  GID_CHANGE refreshes it without
 *    dropping it (the SM stays where it was).  Queries take a reference
 *    on the address they use.
 *  - The SA's ClassPortInfo, asked for once the address is known, asked
 *    again (at most SA_CPI_TRIES times, SA_CPI_RETRY_MS apart) while no
 *    answer came, forgotten on the same events.
 *
 * Locking: sa_port.lock (a spinlock, any context) protects sm_ah, cpi,
 * cpi_valid, cpi_tries and dying.  The works run on sa_wq and are queued
 * only while dying is not set; the client's remove() sets it, waits for
 * the works, then unregisters the agent (which flushes the queries of the
 * port: a ClassPortInfo query that ends so is not asked again).
 */
#include "abi/ib_core/sa_query.h"
#include "sa/internal.h"
#include "sa/client.h"

#define SA_CPI_TRIES		3
#define SA_CPI_RETRY_MS		1000
#define SA_CPI_TIMEOUT_MS	3000

/* The SM's address as queries use it; freed by the last reference. */
struct sa_sm_ah {
	struct kref ref;
	struct ib_ah *ah;
	u16 pkey_index;
	u8 path_mask;
	struct work_struct free;
};

struct sa_port {
	struct ib_device *device;
	u32 port_num;
	struct ib_mad_agent *agent;
	spinlock_t lock;
	struct sa_sm_ah *sm_ah;
	struct ib_class_port_info cpi;
	bool cpi_valid;
	int cpi_tries;
	bool dying;
	struct work_struct refresh;
	struct delayed_work cpi_work;
};

/* A device's ports with an SA; port_num - 1 indexes @port. */
struct sa_dev {
	struct ib_event_handler handler;
	u32 nports;
	struct sa_port port[];
};

static struct workqueue_struct *sa_wq;
static struct ib_client sa_client;

/* Destroying an AH may sleep: the last reference may be dropped anywhere. */
static void sa_sm_ah_destroy(struct work_struct *work)
{
	struct sa_sm_ah *sm_ah = container_of(work, struct sa_sm_ah, free);

	rdma_destroy_ah(sm_ah->ah, RDMA_DESTROY_AH_SLEEPABLE);
	kfree(sm_ah);
}

static void sa_sm_ah_release(struct kref *ref)
{
	struct sa_sm_ah *sm_ah = container_of(ref, struct sa_sm_ah, ref);

	INIT_WORK(&sm_ah->free, sa_sm_ah_destroy);
	queue_work(sa_wq, &sm_ah->free);
}

/**
 * sa_port_get - the SA state of a port
 * @device: the device
 * @port_num: the port
 *
 * Valid while the device is registered and the caller's client is added
 * to it (ib_core registers the "sa" client before any ULP can, so it is
 * added to a device before them and removed after them).
 *
 * Return: the port's state, or NULL if the port has no SA.
 */
struct sa_port *sa_port_get(struct ib_device *device, u32 port_num)
{
	struct sa_dev *sd;

	if (!rdma_is_port_valid(device, port_num))
		return NULL;
	sd = ib_get_client_data(device, &sa_client);
	if (!sd || !sd->port[port_num - 1].agent)
		return NULL;
	return &sd->port[port_num - 1];
}

/**
 * sa_port_device - the device of a port
 * @port: the port
 *
 * Return: the device.
 */
struct ib_device *sa_port_device(struct sa_port *port)
{
	return port->device;
}

/**
 * sa_port_num - the number of a port
 * @port: the port
 *
 * Return: the port number.
 */
u32 sa_port_num(struct sa_port *port)
{
	return port->port_num;
}

/**
 * sa_port_agent - the MAD agent queries of a port are sent by
 * @port: the port
 *
 * Return: the agent.
 */
struct ib_mad_agent *sa_port_agent(struct sa_port *port)
{
	return port->agent;
}

/**
 * sa_port_ah_get - the SM's address for a query
 * @port: the port
 *
 * Any context.
 *
 * Return: a reference on it (sa_ah_put()), or NULL while the SM is not
 * known (port down, no SM LID yet).
 */
struct sa_sm_ah *sa_port_ah_get(struct sa_port *port)
{
	struct sa_sm_ah *sm_ah;
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	sm_ah = port->sm_ah;
	if (sm_ah)
		kref_get(&sm_ah->ref);
	spin_unlock_irqrestore(&port->lock, flags);
	return sm_ah;
}

/**
 * sa_ah - the address handle of an SM address
 * @sm_ah: held
 * @pkey_index: the P_Key index of the default partition, out
 *
 * Return: the address handle.
 */
struct ib_ah *sa_ah(struct sa_sm_ah *sm_ah, u16 *pkey_index)
{
	*pkey_index = sm_ah->pkey_index;
	return sm_ah->ah;
}

/**
 * sa_ah_put - drop a reference of sa_port_ah_get()
 * @sm_ah: the address; any context
 */
void sa_ah_put(struct sa_sm_ah *sm_ah)
{
	kref_put(&sm_ah->ref, sa_sm_ah_release);
}

/**
 * sa_port_path_mask - the source path bits a port's LMC allows
 * @device: the device
 * @port_num: the port
 *
 * Return: (1 << LMC) - 1 as last read, or 0x7f when the port's SM address
 * is not known.
 */
u8 sa_port_path_mask(struct ib_device *device, u32 port_num)
{
	struct sa_port *port = sa_port_get(device, port_num);
	struct sa_sm_ah *sm_ah = port ? sa_port_ah_get(port) : NULL;
	u8 mask = 0x7f;

	if (sm_ah) {
		mask = sm_ah->path_mask;
		sa_ah_put(sm_ah);
	}
	return mask;
}

/**
 * sa_port_cpi - the SA's ClassPortInfo, if known
 * @port: the port
 * @cpi: a copy, out
 *
 * Return: true if the SA answered since the last event that could change
 * it.
 */
bool sa_port_cpi(struct sa_port *port, struct ib_class_port_info *cpi)
{
	unsigned long flags;
	bool valid;

	spin_lock_irqsave(&port->lock, flags);
	valid = port->cpi_valid;
	if (valid)
		*cpi = port->cpi;
	spin_unlock_irqrestore(&port->lock, flags);
	return valid;
}

/**
 * sa_port_resp_ms - how long the SA says it takes to answer
 * @port: the port
 *
 * ClassPortInfo's RespTimeValue: 4.096 us times 2 to its power.
 *
 * Return: milliseconds (rounded up), or 0 while the ClassPortInfo is not
 * known.
 */
unsigned long sa_port_resp_ms(struct sa_port *port)
{
	struct ib_class_port_info cpi;

	if (!sa_port_cpi(port, &cpi))
		return 0;
	return DIV_ROUND_UP_ULL(4096ULL << ib_get_cpi_resp_time(&cpi),
				NSEC_PER_MSEC);
}

/**
 * sa_port_cpi_done - the end of a ClassPortInfo query
 * @port: the port
 * @cpi: the SA's answer, or NULL when the query failed
 *
 * A failure asks again later, SA_CPI_TRIES times in all.  Any context.
 */
void sa_port_cpi_done(struct sa_port *port,
		      const struct ib_class_port_info *cpi)
{
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	if (cpi) {
		port->cpi = *cpi;
		port->cpi_valid = true;
	} else if (!port->dying && ++port->cpi_tries < SA_CPI_TRIES) {
		queue_delayed_work(sa_wq, &port->cpi_work,
				   msecs_to_jiffies(SA_CPI_RETRY_MS));
	}
	spin_unlock_irqrestore(&port->lock, flags);
}

static void sa_port_cpi_work(struct work_struct *work)
{
	struct sa_port *port = container_of(to_delayed_work(work),
					    struct sa_port, cpi_work);

	if (sa_query_cpi(port, SA_CPI_TIMEOUT_MS))
		sa_port_cpi_done(port, NULL);
}

/* The address attributes of the SM from @attr, a port's attributes. */
static void sa_sm_ah_attr(struct sa_port *port, const struct ib_port_attr *pa,
			  struct rdma_ah_attr *ah_attr)
{
	union ib_gid sa_gid;

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(port->device, port->port_num);
	rdma_ah_set_dlid(ah_attr, pa->sm_lid);
	rdma_ah_set_sl(ah_attr, pa->sm_sl);
	rdma_ah_set_port_num(ah_attr, port->port_num);
	if (rdma_is_grh_required(port->device, port->port_num)) {
		sa_gid.global.subnet_prefix = cpu_to_be64(pa->subnet_prefix);
		sa_gid.global.interface_id = cpu_to_be64(IB_SA_WELL_KNOWN_GUID);
		rdma_ah_set_grh(ah_attr, &sa_gid, 0, 0, 1, 0);
	}
}

/* A new SM address from the port's attributes, or NULL if it has none. */
static struct sa_sm_ah *sa_sm_ah_new(struct sa_port *port)
{
	struct rdma_ah_attr ah_attr;
	struct ib_port_attr pa;
	struct sa_sm_ah *sm_ah;
	struct ib_ah *ah;
	u16 pkey_index;

	if (ib_query_port(port->device, port->port_num, &pa) ||
	    pa.state != IB_PORT_ACTIVE || !pa.sm_lid ||
	    pa.sm_lid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return NULL;
	if (ib_find_pkey(port->device, port->port_num, IB_DEFAULT_PKEY_FULL,
			 &pkey_index))
		return NULL;
	sm_ah = kzalloc(sizeof(*sm_ah), GFP_KERNEL);
	if (!sm_ah)
		return NULL;
	sa_sm_ah_attr(port, &pa, &ah_attr);
	ah = rdma_create_ah(port->agent->qp->pd, &ah_attr,
			    RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(ah)) {
		kfree(sm_ah);
		return NULL;
	}
	kref_init(&sm_ah->ref);
	sm_ah->ah = ah;
	sm_ah->pkey_index = pkey_index;
	sm_ah->path_mask = (1 << pa.lmc) - 1;
	return sm_ah;
}

/* Replaces the port's SM address (and forgets the ClassPortInfo). */
static void sa_port_set_ah(struct sa_port *port, struct sa_sm_ah *sm_ah)
{
	struct sa_sm_ah *old;
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	old = port->sm_ah;
	port->sm_ah = sm_ah;
	port->cpi_valid = false;
	port->cpi_tries = 0;
	if (sm_ah && !port->dying)
		mod_delayed_work(sa_wq, &port->cpi_work, 0);
	spin_unlock_irqrestore(&port->lock, flags);
	if (old)
		sa_ah_put(old);
}

static void sa_port_refresh(struct work_struct *work)
{
	struct sa_port *port = container_of(work, struct sa_port, refresh);

	sa_port_set_ah(port, sa_sm_ah_new(port));
}

/* Port events: what they change is read again. */
static void sa_event(struct ib_event_handler *handler, struct ib_event *event)
{
	struct sa_dev *sd = container_of(handler, struct sa_dev, handler);
	u32 port_num = event->element.port_num;
	struct sa_port *port;

	switch (event->event) {
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		break;
	default:
		return;
	}
	if (port_num < 1 || port_num > sd->nports)
		return;
	port = &sd->port[port_num - 1];
	if (!port->agent)
		return;
	if (event->event != IB_EVENT_GID_CHANGE)
		sa_port_set_ah(port, NULL);
	queue_work(sa_wq, &port->refresh);
}

static int sa_port_start(struct ib_device *device, struct sa_port *port,
			 u32 port_num)
{
	port->device = device;
	port->port_num = port_num;
	spin_lock_init(&port->lock);
	INIT_WORK(&port->refresh, sa_port_refresh);
	INIT_DELAYED_WORK(&port->cpi_work, sa_port_cpi_work);
	if (!rdma_cap_ib_sa(device, port_num))
		return 0;
	port->agent = ib_register_mad_agent(device, port_num, IB_QPT_GSI,
					    NULL, 0, sa_query_sent,
					    sa_query_recv, port, 0);
	if (IS_ERR(port->agent)) {
		int ret = PTR_ERR(port->agent);

		port->agent = NULL;
		return ret;
	}
	return 0;
}

static void sa_port_stop(struct sa_port *port)
{
	unsigned long flags;

	if (!port->agent)
		return;
	spin_lock_irqsave(&port->lock, flags);
	port->dying = true;
	spin_unlock_irqrestore(&port->lock, flags);
	/* Nothing queues them again once dying is set */
	cancel_work_sync(&port->refresh);
	cancel_delayed_work_sync(&port->cpi_work);
	/* Flushes the port's queries: their owners hear -EINTR. */
	ib_unregister_mad_agent(port->agent);
	sa_port_set_ah(port, NULL);
}

static int sa_add_one(struct ib_device *device)
{
	u32 nports = rdma_end_port(device), p;
	struct sa_dev *sd;
	int ret = 0;

	if (rdma_start_port(device) != 1)
		return -EOPNOTSUPP;	/* switches have no SA client */
	rdma_for_each_port(device, p)
		if (rdma_cap_ib_sa(device, p))
			break;
	if (p > nports)
		return -EOPNOTSUPP;
	sd = kzalloc(struct_size(sd, port, nports), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->nports = nports;
	for (p = 1; p <= nports && !ret; p++)
		ret = sa_port_start(device, &sd->port[p - 1], p);
	if (ret) {
		while (--p > 0)
			sa_port_stop(&sd->port[p - 1]);
		kfree(sd);
		return ret;
	}
	ib_set_client_data(device, &sa_client, sd);
	INIT_IB_EVENT_HANDLER(&sd->handler, device, sa_event);
	ib_register_event_handler(&sd->handler);
	for (p = 1; p <= nports; p++)
		if (sd->port[p - 1].agent)
			queue_work(sa_wq, &sd->port[p - 1].refresh);
	return 0;
}

static void sa_remove_one(struct ib_device *device, void *client_data)
{
	struct sa_dev *sd = client_data;
	u32 p;

	ib_unregister_event_handler(&sd->handler);
	for (p = 1; p <= sd->nports; p++)
		sa_port_stop(&sd->port[p - 1]);
	/* The SM addresses the last queries dropped */
	flush_workqueue(sa_wq);
	kfree(sd);
}

static struct ib_client sa_client = {
	.name = "sa",
	.add = sa_add_one,
	.remove = sa_remove_one,
};

/**
 * sa_port_init - start the SA client (ib_core's load)
 *
 * Return: 0 or an errno.
 */
int sa_port_init(void)
{
	int ret;

	sa_wq = alloc_ordered_workqueue("ib_sa", WQ_MEM_RECLAIM);
	if (!sa_wq)
		return -ENOMEM;
	ret = ib_register_client(&sa_client);
	if (ret)
		destroy_workqueue(sa_wq);
	return ret;
}

/**
 * sa_port_exit - stop the SA client (ib_core's unload)
 */
void sa_port_exit(void)
{
	ib_unregister_client(&sa_client);
	destroy_workqueue(sa_wq);
}
