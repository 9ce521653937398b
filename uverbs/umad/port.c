// SPDX-License-Identifier: GPL-2.0
/*
 * The ports of ib_umad: on every port with MADs (rdma_cap_ib_mad) of an
 * RDMA device, /dev/infiniband/umadN and issmN with the sysfs attributes
 * ibdev and port, made by the "umad" client's add() and taken down by its
 * remove(); rdma netlink's GET_CHARDEV for both (the "umad" and "issm"
 * clients).
 *
 * Device numbers: N < 64 has the fixed numbers 231:N (umadN) and
 * 231:64+N (issmN), as userspace without udev expects; larger N get
 * numbers of a dynamic region.
 *
 * Locking: a port's files_lock (internal.h); umad_ida hands out N.
 */
#include <linux/slab.h>
#include "abi/ib_core/types.h"
#include "internal.h"

#define UMAD_MAJOR		231
/* Ports with a umadN and issmN at once, as many as the core may have */
#define UMAD_MAX_PORTS		8192
#define UMAD_FIXED_PORTS	64
#define UMAD_DYNAMIC_PORTS	(UMAD_MAX_PORTS - UMAD_FIXED_PORTS)

static const dev_t umad_fixed_base = MKDEV(UMAD_MAJOR, 0);
static dev_t umad_dynamic_base;
static DEFINE_IDA(umad_ida);

/* umadN's number (@sm: issmN's). */
static dev_t port_devt(int n, bool sm)
{
	if (n < UMAD_FIXED_PORTS)
		return umad_fixed_base + n + (sm ? UMAD_FIXED_PORTS : 0);
	return umad_dynamic_base + n - UMAD_FIXED_PORTS +
	       (sm ? UMAD_DYNAMIC_PORTS : 0);
}

/**
 * port_chrdev_init - reserve the device numbers of umadN and issmN
 *
 * Return: 0 or an error.
 */
int port_chrdev_init(void)
{
	int ret;

	ret = register_chrdev_region(umad_fixed_base, 2 * UMAD_FIXED_PORTS,
				     "infiniband_mad");
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&umad_dynamic_base, 0,
				  2 * UMAD_DYNAMIC_PORTS, "infiniband_mad");
	if (ret)
		unregister_chrdev_region(umad_fixed_base,
					 2 * UMAD_FIXED_PORTS);
	return ret;
}

/**
 * port_chrdev_exit - give the device numbers back
 */
void port_chrdev_exit(void)
{
	unregister_chrdev_region(umad_dynamic_base, 2 * UMAD_DYNAMIC_PORTS);
	unregister_chrdev_region(umad_fixed_base, 2 * UMAD_FIXED_PORTS);
}

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct umad_port *port = dev_get_drvdata(dev);
	ssize_t ret = -ENODEV;

	mutex_lock(&port->files_lock);
	if (port->ibdev)
		ret = sysfs_emit(buf, "%s\n", dev_name(&port->ibdev->dev));
	mutex_unlock(&port->files_lock);
	return ret;
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t port_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct umad_port *port = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", port->port_num);
}
static DEVICE_ATTR_RO(port);

static struct attribute *port_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_port.attr,
	NULL,
};
ATTRIBUTE_GROUPS(port);

static void port_umad_dev_free(struct kref *ref)
{
	kfree(container_of(ref, struct umad_device, ref));
}

static void port_dev_release(struct device *dev)
{
	struct umad_port *port = dev_get_drvdata(dev);

	kref_put(&port->owner->ref, port_umad_dev_free);
}

/* Sets up umadN (@sm: issmN) of @port, not yet added. */
static void port_dev_init(struct umad_port *port, struct device *dev,
			  struct ib_device *ibdev, bool sm)
{
	device_initialize(dev);
	kref_get(&port->owner->ref);
	dev->class = &umad_class;
	dev->parent = ibdev->dev.parent;
	dev->groups = port_groups;
	dev->devt = port_devt(port->devnum, sm);
	dev->release = port_dev_release;
	dev_set_drvdata(dev, port);
}

static int port_open_one(struct umad_port *port, struct ib_device *ibdev,
			 u32 port_num)
{
	int ret;

	port->devnum = ida_alloc_max(&umad_ida, UMAD_MAX_PORTS - 1,
				     GFP_KERNEL);
	if (port->devnum < 0)
		return port->devnum;
	port->ibdev = ibdev;
	port->port_num = port_num;
	sema_init(&port->sm_sem, 1);
	mutex_init(&port->files_lock);
	INIT_LIST_HEAD(&port->files);

	port_dev_init(port, &port->dev, ibdev, false);
	port_dev_init(port, &port->sm_dev, ibdev, true);
	ret = dev_set_name(&port->dev, "umad%d", port->devnum);
	if (!ret)
		ret = dev_set_name(&port->sm_dev, "issm%d", port->devnum);
	if (ret)
		goto err;
	cdev_init(&port->cdev, &umad_fops);
	port->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&port->cdev, &port->dev);
	if (ret)
		goto err;
	cdev_init(&port->sm_cdev, &umad_issm_fops);
	port->sm_cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&port->sm_cdev, &port->sm_dev);
	if (ret) {
		cdev_device_del(&port->cdev, &port->dev);
		goto err;
	}
	return 0;

err:
	port->ibdev = NULL;
	ida_free(&umad_ida, port->devnum);
	put_device(&port->sm_dev);
	put_device(&port->dev);
	return ret;
}

/*
 * Takes a port down: its devices disappear, its files die (their agents
 * are unregistered, their read() fails), and its device numbers are
 * free again.  The files keep the port's memory until they are closed.
 */
static void port_close_one(struct umad_port *port)
{
	struct umad_file *file;

	cdev_device_del(&port->sm_cdev, &port->sm_dev);
	cdev_device_del(&port->cdev, &port->dev);
	mutex_lock(&port->files_lock);
	port->ibdev = NULL;
	list_for_each_entry(file, &port->files, port_link)
		file_kill(file);
	mutex_unlock(&port->files_lock);
	ida_free(&umad_ida, port->devnum);
	put_device(&port->sm_dev);
	put_device(&port->dev);
}

static int port_add_device(struct ib_device *ibdev)
{
	u32 first = rdma_start_port(ibdev), n = rdma_end_port(ibdev) - first + 1;
	struct umad_device *ud;
	bool any = false;
	int ret = 0;
	u32 p;

	ud = kzalloc(struct_size(ud, ports, n), GFP_KERNEL);
	if (!ud)
		return -ENOMEM;
	kref_init(&ud->ref);
	ud->first_port = first;
	rdma_for_each_port(ibdev, p) {
		if (!rdma_cap_ib_mad(ibdev, p))
			continue;
		ud->ports[p - first].owner = ud;
		ret = port_open_one(&ud->ports[p - first], ibdev, p);
		if (ret)
			break;
		any = true;
	}
	if (ret || !any) {
		rdma_for_each_port(ibdev, p)
			if (ud->ports[p - first].ibdev)
				port_close_one(&ud->ports[p - first]);
		kref_put(&ud->ref, port_umad_dev_free);
		return ret ? ret : -EOPNOTSUPP;
	}
	ib_set_client_data(ibdev, &umad_client, ud);
	return 0;
}

static void port_remove_device(struct ib_device *ibdev, void *client_data)
{
	struct umad_device *ud = client_data;
	u32 p;

	rdma_for_each_port(ibdev, p)
		if (ud->ports[p - ud->first_port].ibdev)
			port_close_one(&ud->ports[p - ud->first_port]);
	kref_put(&ud->ref, port_umad_dev_free);
}

/* The port a GET_CHARDEV request names, or an ERR_PTR. */
static struct umad_port *port_of(struct ib_device *ibdev,
				 struct umad_device *ud, u32 port_num)
{
	if (!ud)
		return ERR_PTR(-EOPNOTSUPP);
	if (!rdma_is_port_valid(ibdev, port_num))
		return ERR_PTR(-EINVAL);
	if (!rdma_cap_ib_mad(ibdev, port_num))
		return ERR_PTR(-EOPNOTSUPP);
	return &ud->ports[port_num - ud->first_port];
}

static int port_nl_info(struct ib_device *ibdev, void *client_data,
			struct ib_client_nl_info *res)
{
	struct umad_port *port = port_of(ibdev, client_data, res->port);

	if (IS_ERR(port))
		return PTR_ERR(port);
	res->abi = IB_USER_MAD_ABI_VERSION;
	res->cdev = &port->dev;
	return 0;
}

/* The umad client's ports, which the issm client shares. */
static int port_issm_nl_info(struct ib_device *ibdev, void *client_data,
			     struct ib_client_nl_info *res)
{
	struct umad_port *port;

	port = port_of(ibdev, ib_get_client_data(ibdev, &umad_client),
		       res->port);
	if (IS_ERR(port))
		return PTR_ERR(port);
	res->abi = IB_USER_MAD_ABI_VERSION;
	res->cdev = &port->sm_dev;
	return 0;
}

struct ib_client umad_client = {
	.name = "umad",
	.add = port_add_device,
	.remove = port_remove_device,
	.get_nl_info = port_nl_info,
};
MODULE_ALIAS_RDMA_CLIENT("umad");

/*
 * issmN through netlink.  The client has no add(): its ports are the
 * umad client's, which it finds by that client's data (the target's
 * issm client looks for data of its own, never set, and answers
 * -EOPNOTSUPP for every port).
 */
struct ib_client umad_issm_client = {
	.name = "issm",
	.get_nl_info = port_issm_nl_info,
};
MODULE_ALIAS_RDMA_CLIENT("issm");
