// SPDX-License-Identifier: GPL-2.0
/*
 * ib_cm: the InfiniBand connection manager (IBA volume 1, chapter 12),
 * for InfiniBand and RoCE ports.  This file is the module and its
 * ib_client: for each device a cm_dev, and on each port that carries CM
 * MADs an agent of the CM class on QP1 and the counter files.
 *
 * A cm_dev lives from the client's add() until its last cm_id lets go;
 * its ports' agents are unregistered in remove(), after which sends on
 * them fail with -ENODEV.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"
#include "rdma_version.h"

/* Delivers every cm_id's events and ends timewaits */
struct workqueue_struct *cm_wq;

/* Protects cm_devs, the tables of id.c and listen.c, and cm_port.agent */
DEFINE_SPINLOCK(cm_lock);

/* The cm_devs of the devices ib_cm is a client of (cm_dev.link) */
static LIST_HEAD(cm_devs);

static struct ib_client cm_client;

static void cm_dev_release(struct kref *ref)
{
	kfree(container_of(ref, struct cm_dev, ref));
}

/**
 * cm_dev_get - a device's cm_dev, referenced
 * @ibdev: the device
 *
 * Return: the cm_dev, or NULL when ib_cm does not know the device.
 */
struct cm_dev *cm_dev_get(struct ib_device *ibdev)
{
	struct cm_dev *dev, *found = NULL;

	spin_lock_irq(&cm_lock);
	list_for_each_entry(dev, &cm_devs, link) {
		if (dev->ibdev == ibdev) {
			kref_get(&dev->ref);
			found = dev;
			break;
		}
	}
	spin_unlock_irq(&cm_lock);
	return found;
}

void cm_dev_put(struct cm_dev *dev)
{
	kref_put(&dev->ref, cm_dev_release);
}

/**
 * cm_port_of - a port of a device that carries CM MADs
 * @ibdev: the device
 * @port_num: the port
 *
 * Return: the port, referenced through its cm_dev (cm_dev_put() when
 * done), or NULL.
 */
struct cm_port *cm_port_of(struct ib_device *ibdev, u32 port_num)
{
	struct cm_dev *dev = cm_dev_get(ibdev);

	if (!dev)
		return NULL;
	if (port_num < 1 || port_num > dev->nports ||
	    !rdma_cap_ib_cm(ibdev, port_num)) {
		cm_dev_put(dev);
		return NULL;
	}
	return &dev->port[port_num - 1];
}

static int cm_port_open(struct cm_port *port)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_CM,
		.mgmt_class_version = CM_CLASS_VERSION,
	};
	struct ib_mad_agent *agent;

	set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	agent = ib_register_mad_agent(port->dev->ibdev, port->num,
				      IB_QPT_GSI, &req, 0, cm_send_handler,
				      cm_recv_handler, port, 0);
	if (IS_ERR(agent))
		return PTR_ERR(agent);
	spin_lock_irq(&cm_lock);
	port->agent = agent;
	spin_unlock_irq(&cm_lock);
	return 0;
}

static void cm_port_close(struct cm_port *port)
{
	struct ib_mad_agent *agent;

	spin_lock_irq(&cm_lock);
	agent = port->agent;
	port->agent = NULL;
	spin_unlock_irq(&cm_lock);
	if (agent)
		ib_unregister_mad_agent(agent);
}

/* The counter files of the ports with an agent; none on failure. */
static int cm_dev_add_files(struct cm_dev *dev)
{
	struct cm_port *port;
	int ret;
	u32 p;

	for (p = 0; p < dev->nports; p++) {
		port = &dev->port[p];
		if (!port->agent)
			continue;
		ret = cm_counters_add(port);
		if (ret)
			return ret;
		port->files = true;
	}
	return 0;
}

static void cm_remove_one(struct ib_device *ibdev, void *data);

static int cm_add_one(struct ib_device *ibdev)
{
	struct cm_dev *dev;
	bool any = false;
	u32 p;
	int ret;

	dev = kzalloc(struct_size(dev, port, ibdev->phys_port_cnt),
		      GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	kref_init(&dev->ref);
	dev->ibdev = ibdev;
	dev->ack_delay = ibdev->attrs.local_ca_ack_delay;
	dev->nports = ibdev->phys_port_cnt;
	rdma_for_each_port(ibdev, p) {
		dev->port[p - 1].dev = dev;
		dev->port[p - 1].num = p;
		if (!rdma_cap_ib_cm(ibdev, p))
			continue;
		ret = cm_port_open(&dev->port[p - 1]);
		if (ret)
			goto fail;
		any = true;
	}
	if (!any) {
		ret = -EOPNOTSUPP;
		goto fail;
	}
	ib_set_client_data(ibdev, &cm_client, dev);
	spin_lock_irq(&cm_lock);
	list_add_tail(&dev->link, &cm_devs);
	spin_unlock_irq(&cm_lock);
	ret = cm_dev_add_files(dev);
	if (ret)
		cm_remove_one(ibdev, dev);
	return ret;

fail:
	rdma_for_each_port(ibdev, p)
		cm_port_close(&dev->port[p - 1]);
	cm_dev_put(dev);
	return ret;
}

static void cm_remove_one(struct ib_device *ibdev, void *data)
{
	struct cm_dev *dev = data;
	u32 p;

	for (p = 0; p < dev->nports; p++) {
		if (dev->port[p].files)
			cm_counters_remove(&dev->port[p]);
		dev->port[p].files = false;
	}
	spin_lock_irq(&cm_lock);
	list_del(&dev->link);
	spin_unlock_irq(&cm_lock);
	for (p = 1; p <= dev->nports; p++)
		cm_port_close(&dev->port[p - 1]);
	cm_dev_put(dev);
}

static struct ib_client cm_client = {
	.name = "cm",
	.add = cm_add_one,
	.remove = cm_remove_one,
};

static int __init ib_cm_init(void)
{
	int ret;

	cm_counters_init();
	cm_wq = alloc_workqueue("ib_cm", WQ_MEM_RECLAIM, 0);
	if (!cm_wq)
		return -ENOMEM;
	ret = ib_register_client(&cm_client);
	if (ret)
		destroy_workqueue(cm_wq);
	return ret;
}

static void __exit ib_cm_exit(void)
{
	ib_unregister_client(&cm_client);
	destroy_workqueue(cm_wq);
}

module_init(ib_cm_init);
module_exit(ib_cm_exit);

MODULE_DESCRIPTION("InfiniBand connection manager (IB and RoCE)");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
