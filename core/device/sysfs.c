// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/infiniband/<device>: device attributes and ports/<n>/; the
 * hw_counters directories are core/counters/'s.
 *
 * Each port is a struct ib_port (port_data[port].sysfs) whose kobject is
 * ports/<n>; it embeds the kobjects of its numbered-file directories gids/,
 * pkeys/, gid_attrs/types/ and gid_attrs/ndevs/.  A child holds a reference
 * on its parent, so the port is freed by its own release after all of
 * them.  Created by ib_register_device(), deleted by unregistration; show
 * functions run while kernfs keeps the files active, which deletion waits
 * for, so they may use the device without references.
 */
#include "abi/ib_core/sysfs.h"
#include "core/gid.h"
#include "core/sysfs.h"
#include "device/internal.h"
#include "counters/internal.h"

/* One numbered file (gids/3) of a table directory. */
struct ibdev_table_attr {
	struct attribute attr;
	u16 index;
	char name[8];
};

/* A directory of numbered files, one per table slot. */
struct ibdev_sysfs_table {
	struct kobject kobj;
	struct ib_port *port;
	ssize_t (*show)(struct ib_device *device, u32 port, u16 index,
			char *buf);
	struct ibdev_table_attr *attrs;
	struct attribute **list;
	struct attribute_group group;
};

struct ib_port {
	struct kobject kobj;
	struct ib_device *ibdev;
	u32 port_num;
	struct ibdev_sysfs_table gids;
	struct ibdev_sysfs_table pkeys;
	struct kobject gid_attrs;
	struct ibdev_sysfs_table types;
	struct ibdev_sysfs_table ndevs;
};

static const char * const ibdev_node_type_names[] = {
	[RDMA_NODE_IB_CA] = "CA",
	[RDMA_NODE_IB_SWITCH] = "switch",
	[RDMA_NODE_IB_ROUTER] = "router",
	[RDMA_NODE_RNIC] = "RNIC",
	[RDMA_NODE_USNIC] = "usNIC",
	[RDMA_NODE_USNIC_UDP] = "usNIC UDP",
	[RDMA_NODE_UNSPECIFIED] = "unspecified",
};

static struct ib_device *to_ibdev(struct device *dev)
{
	return container_of(dev, struct ib_device, dev);
}

static ssize_t node_type_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	u8 type = to_ibdev(dev)->node_type;
	const char *name = type < ARRAY_SIZE(ibdev_node_type_names) ?
			   ibdev_node_type_names[type] : NULL;

	return sysfs_emit(buf, "%u: %s\n", type, name ? name : "<unknown>");
}
static DEVICE_ATTR_RO(node_type);

static ssize_t ibdev_emit_guid(char *buf, __be64 guid)
{
	u64 g = be64_to_cpu(guid);

	return sysfs_emit(buf, "%04x:%04x:%04x:%04x\n", (u16)(g >> 48),
			  (u16)(g >> 32), (u16)(g >> 16), (u16)g);
}

static ssize_t node_guid_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return ibdev_emit_guid(buf, to_ibdev(dev)->node_guid);
}
static DEVICE_ATTR_RO(node_guid);

static ssize_t sys_image_guid_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return ibdev_emit_guid(buf, to_ibdev(dev)->attrs.sys_image_guid);
}
static DEVICE_ATTR_RO(sys_image_guid);

static ssize_t fw_ver_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	char fw[IB_FW_VERSION_NAME_MAX];

	ib_get_device_fw_str(to_ibdev(dev), fw);
	return sysfs_emit(buf, "%s\n", fw);
}
static DEVICE_ATTR_RO(fw_ver);

static ssize_t node_desc_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%.64s\n", to_ibdev(dev)->node_desc);
}

static ssize_t node_desc_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct ib_device_modify desc = {};
	int ret;

	memcpy(desc.node_desc, buf, min_t(size_t, count, IB_DEVICE_NODE_DESC_MAX));
	ret = ib_modify_device(to_ibdev(dev), IB_DEVICE_MODIFY_NODE_DESC,
			       &desc);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(node_desc);

static struct attribute *ibdev_attrs[] = {
	&dev_attr_node_desc.attr,
	&dev_attr_node_type.attr,
	&dev_attr_fw_ver.attr,
	&dev_attr_node_guid.attr,
	&dev_attr_sys_image_guid.attr,
	NULL,
};

static const struct attribute_group ibdev_attr_group = {
	.attrs = ibdev_attrs,
};

/* Port attributes; each show queries the port afresh. */
static int ibdev_port_attr(struct ib_device *device, u32 port,
			   struct ib_port_attr *attr)
{
	return ib_query_port(device, port, attr);
}

static const char * const ibdev_port_state_names[] = {
	[IB_PORT_NOP] = "NOP",
	[IB_PORT_DOWN] = "DOWN",
	[IB_PORT_INIT] = "INIT",
	[IB_PORT_ARMED] = "ARMED",
	[IB_PORT_ACTIVE] = "ACTIVE",
	[IB_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
};

static ssize_t state_show(struct ib_device *device, u32 port,
			  struct ib_port_attribute *unused, char *buf)
{
	struct ib_port_attr attr;
	int ret = ibdev_port_attr(device, port, &attr);

	if (ret)
		return ret;
	return sysfs_emit(buf, "%d: %s\n", attr.state,
			  attr.state < ARRAY_SIZE(ibdev_port_state_names) ?
			  ibdev_port_state_names[attr.state] : "UNKNOWN");
}
static IB_PORT_ATTR_RO(state);

static const char * const ibdev_phys_state_names[] = {
	[IB_PORT_PHYS_STATE_SLEEP] = "Sleep",
	[IB_PORT_PHYS_STATE_POLLING] = "Polling",
	[IB_PORT_PHYS_STATE_DISABLED] = "Disabled",
	[IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING] =
		"PortConfigurationTraining",
	[IB_PORT_PHYS_STATE_LINK_UP] = "LinkUp",
	[IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY] = "LinkErrorRecovery",
	[IB_PORT_PHYS_STATE_PHY_TEST] = "Phy Test",
};

static ssize_t phys_state_show(struct ib_device *device, u32 port,
			       struct ib_port_attribute *unused, char *buf)
{
	struct ib_port_attr attr;
	const char *name = NULL;
	int ret = ibdev_port_attr(device, port, &attr);

	if (ret)
		return ret;
	if (attr.phys_state < ARRAY_SIZE(ibdev_phys_state_names))
		name = ibdev_phys_state_names[attr.phys_state];
	return sysfs_emit(buf, "%u: %s\n", attr.phys_state,
			  name ? name : "<unknown>");
}
static IB_PORT_ATTR_RO(phys_state);

static ssize_t link_layer_show(struct ib_device *device, u32 port,
			       struct ib_port_attribute *unused, char *buf)
{
	switch (ibdev_port_link_layer(device, port)) {
	case IB_LINK_LAYER_INFINIBAND:
		return sysfs_emit(buf, "InfiniBand\n");
	case IB_LINK_LAYER_ETHERNET:
		return sysfs_emit(buf, "Ethernet\n");
	default:
		return sysfs_emit(buf, "Unknown\n");
	}
}
static IB_PORT_ATTR_RO(link_layer);

/* Per-lane rate of each IB_SPEED_* in tenths of Gb/s, and its name. */
static const struct {
	u16 speed;
	u16 rate;
	const char *name;
} ibdev_lane_rates[] = {
	{ IB_SPEED_SDR, 25, "SDR" },
	{ IB_SPEED_DDR, 50, "DDR" },
	{ IB_SPEED_QDR, 100, "QDR" },
	{ IB_SPEED_FDR10, 100, "FDR10" },
	{ IB_SPEED_FDR, 140, "FDR" },
	{ IB_SPEED_EDR, 250, "EDR" },
	{ IB_SPEED_HDR, 500, "HDR" },
	{ IB_SPEED_NDR, 1000, "NDR" },
};

static int ibdev_lane_rate(u16 speed, const char **name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ibdev_lane_rates); i++) {
		if (ibdev_lane_rates[i].speed == speed) {
			*name = ibdev_lane_rates[i].name;
			return ibdev_lane_rates[i].rate;
		}
	}
	return -EINVAL;
}

static ssize_t rate_show(struct ib_device *device, u32 port,
			 struct ib_port_attribute *unused, char *buf)
{
	struct ib_port_attr attr;
	const char *speed;
	int lane, width, rate;
	int ret = ibdev_port_attr(device, port, &attr);

	if (ret)
		return ret;
	lane = ibdev_lane_rate(attr.active_speed, &speed);
	width = ib_width_enum_to_int(attr.active_width);
	if (lane < 0 || width <= 0)
		return -EINVAL;
	rate = lane * width;
	return sysfs_emit(buf, "%d%s Gb/sec (%dX %s)\n", rate / 10,
			  rate % 10 ? ".5" : "", width, speed);
}
static IB_PORT_ATTR_RO(rate);

#define IBDEV_PORT_HEX_ATTR(_name, _field, _fmt)			\
static ssize_t _name##_show(struct ib_device *device, u32 port,		\
			    struct ib_port_attribute *unused, char *buf) \
{									\
	struct ib_port_attr attr;					\
	int ret = ibdev_port_attr(device, port, &attr);			\
									\
	return ret ? ret : sysfs_emit(buf, _fmt "\n", attr._field);	\
}									\
static IB_PORT_ATTR_RO(_name)

IBDEV_PORT_HEX_ATTR(lid, lid, "0x%x");
IBDEV_PORT_HEX_ATTR(sm_lid, sm_lid, "0x%x");
IBDEV_PORT_HEX_ATTR(sm_sl, sm_sl, "%u");
IBDEV_PORT_HEX_ATTR(lid_mask_count, lmc, "%u");
IBDEV_PORT_HEX_ATTR(cap_mask, port_cap_flags, "0x%08x");

static struct attribute *ibdev_port_attrs[] = {
	&ib_port_attr_state.attr,
	&ib_port_attr_phys_state.attr,
	&ib_port_attr_link_layer.attr,
	&ib_port_attr_rate.attr,
	&ib_port_attr_lid.attr,
	&ib_port_attr_sm_lid.attr,
	&ib_port_attr_sm_sl.attr,
	&ib_port_attr_lid_mask_count.attr,
	&ib_port_attr_cap_mask.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ibdev_port);

static ssize_t ibdev_port_attr_show(struct kobject *kobj,
				    struct attribute *attr, char *buf)
{
	struct ib_port *p = container_of(kobj, struct ib_port, kobj);
	struct ib_port_attribute *pa =
		container_of(attr, struct ib_port_attribute, attr);

	return pa->show ? pa->show(p->ibdev, p->port_num, pa, buf) : -EIO;
}

static ssize_t ibdev_port_attr_store(struct kobject *kobj,
				     struct attribute *attr,
				     const char *buf, size_t count)
{
	struct ib_port *p = container_of(kobj, struct ib_port, kobj);
	struct ib_port_attribute *pa =
		container_of(attr, struct ib_port_attribute, attr);

	return pa->store ? pa->store(p->ibdev, p->port_num, pa, buf, count) :
			   -EIO;
}

static const struct sysfs_ops ibdev_port_sysfs_ops = {
	.show = ibdev_port_attr_show,
	.store = ibdev_port_attr_store,
};

static void ibdev_port_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct ib_port, kobj));
}

static const struct kobj_type ibdev_port_ktype = {
	.release = ibdev_port_release,
	.sysfs_ops = &ibdev_port_sysfs_ops,
	.default_groups = ibdev_port_groups,
};

/* Numbered files: gids/N, pkeys/N, gid_attrs/types/N, gid_attrs/ndevs/N */
static ssize_t ibdev_gid_show(struct ib_device *device, u32 port, u16 index,
			      char *buf)
{
	union ib_gid gid = {};

	/* An empty slot reads as the zero GID. */
	rdma_query_gid(device, port, index, &gid);
	return sysfs_emit(buf, "%pI6\n", gid.raw);
}

static ssize_t ibdev_pkey_show(struct ib_device *device, u32 port, u16 index,
			       char *buf)
{
	u16 pkey;
	int ret = ib_query_pkey(device, port, index, &pkey);

	return ret ? ret : sysfs_emit(buf, "0x%04x\n", pkey);
}

static ssize_t ibdev_gid_type_show(struct ib_device *device, u32 port,
				   u16 index, char *buf)
{
	const struct ib_gid_attr *attr = rdma_get_gid_attr(device, port, index);
	ssize_t ret;

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	ret = sysfs_emit(buf, "%s\n", ib_cache_gid_type_str(attr->gid_type));
	rdma_put_gid_attr(attr);
	return ret;
}

static ssize_t ibdev_gid_ndev_show(struct ib_device *device, u32 port,
				   u16 index, char *buf)
{
	const struct ib_gid_attr *attr = rdma_get_gid_attr(device, port, index);
	struct net_device *ndev;
	ssize_t ret = -ENODEV;

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	rcu_read_lock();
	ndev = rcu_dereference(attr->ndev);
	if (ndev)
		ret = sysfs_emit(buf, "%s\n", ndev->name);
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
	return ret;
}

static ssize_t ibdev_table_attr_show(struct kobject *kobj,
				     struct attribute *attr, char *buf)
{
	struct ibdev_sysfs_table *t =
		container_of(kobj, struct ibdev_sysfs_table, kobj);
	struct ibdev_table_attr *ta =
		container_of(attr, struct ibdev_table_attr, attr);

	return t->show(t->port->ibdev, t->port->port_num, ta->index, buf);
}

static const struct sysfs_ops ibdev_table_sysfs_ops = {
	.show = ibdev_table_attr_show,
};

/* Tables and gid_attrs/ are embedded in their port: nothing to free. */
static void ibdev_embedded_release(struct kobject *kobj)
{
}

static const struct kobj_type ibdev_table_ktype = {
	.release = ibdev_embedded_release,
	.sysfs_ops = &ibdev_table_sysfs_ops,
};

static const struct kobj_type ibdev_dir_ktype = {
	.release = ibdev_embedded_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

static void ibdev_table_free(struct ibdev_sysfs_table *t)
{
	kfree(t->attrs);
	kfree(t->list);
	t->attrs = NULL;
	t->list = NULL;
}

/* Create directory @name under @parent with @n numbered read-only files. */
static int ibdev_table_add(struct ib_port *p, struct ibdev_sysfs_table *t,
			   struct kobject *parent, const char *name, u16 n,
			   ssize_t (*show)(struct ib_device *, u32, u16, char *))
{
	u16 i;
	int ret;

	t->port = p;
	t->show = show;
	t->attrs = kcalloc(n, sizeof(*t->attrs), GFP_KERNEL);
	t->list = kcalloc(n + 1, sizeof(*t->list), GFP_KERNEL);
	if ((n && !t->attrs) || !t->list) {
		ibdev_table_free(t);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		snprintf(t->attrs[i].name, sizeof(t->attrs[i].name), "%u", i);
		sysfs_attr_init(&t->attrs[i].attr);
		t->attrs[i].attr.name = t->attrs[i].name;
		t->attrs[i].attr.mode = 0444;
		t->attrs[i].index = i;
		t->list[i] = &t->attrs[i].attr;
	}
	t->group.attrs = t->list;
	ret = kobject_init_and_add(&t->kobj, &ibdev_table_ktype, parent, "%s",
				   name);
	if (!ret)
		ret = sysfs_create_group(&t->kobj, &t->group);
	return ret;
}

/* Undo ibdev_table_add(), also after it failed halfway. */
static void ibdev_table_del(struct ibdev_sysfs_table *t)
{
	if (t->kobj.state_initialized) {
		kobject_del(&t->kobj);
		kobject_put(&t->kobj);
	}
	ibdev_table_free(t);
}

static void ibdev_port_del(struct ib_port *p)
{
	counters_port_sysfs_del(p->ibdev, p->port_num, &p->kobj);
	ibdev_table_del(&p->ndevs);
	ibdev_table_del(&p->types);
	if (p->gid_attrs.state_initialized) {
		kobject_del(&p->gid_attrs);
		kobject_put(&p->gid_attrs);
	}
	ibdev_table_del(&p->pkeys);
	ibdev_table_del(&p->gids);
	if (p->ibdev->ops.port_groups)
		sysfs_remove_groups(&p->kobj, p->ibdev->ops.port_groups);
	p->ibdev->port_data[p->port_num].sysfs = NULL;
	kobject_del(&p->kobj);
	kobject_put(&p->kobj);
}

static int ibdev_port_add_tables(struct ib_port *p)
{
	struct ib_port_immutable *imm =
		&p->ibdev->port_data[p->port_num].immutable;
	int ret;

	ret = ibdev_table_add(p, &p->gids, &p->kobj, "gids", imm->gid_tbl_len,
			      ibdev_gid_show);
	if (!ret)
		ret = ibdev_table_add(p, &p->pkeys, &p->kobj, "pkeys",
				      imm->pkey_tbl_len, ibdev_pkey_show);
	if (!ret)
		ret = kobject_init_and_add(&p->gid_attrs, &ibdev_dir_ktype,
					   &p->kobj, "gid_attrs");
	if (!ret)
		ret = ibdev_table_add(p, &p->types, &p->gid_attrs, "types",
				      imm->gid_tbl_len, ibdev_gid_type_show);
	if (!ret)
		ret = ibdev_table_add(p, &p->ndevs, &p->gid_attrs, "ndevs",
				      imm->gid_tbl_len, ibdev_gid_ndev_show);
	return ret;
}

static int ibdev_port_add(struct ib_device *device, u32 port)
{
	struct ib_port *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int ret;

	if (!p)
		return -ENOMEM;
	p->ibdev = device;
	p->port_num = port;
	ret = kobject_init_and_add(&p->kobj, &ibdev_port_ktype,
				   device->coredev.ports_kobj, "%u", port);
	device->port_data[port].sysfs = p;
	if (ret)
		goto err;
	ret = ibdev_port_add_tables(p);
	if (!ret && device->ops.port_groups)
		ret = sysfs_create_groups(&p->kobj, device->ops.port_groups);
	if (!ret)
		ret = counters_port_sysfs_add(device, port, &p->kobj);
	if (ret)
		goto err;
	return 0;
err:
	ibdev_port_del(p);
	return ret;
}

static void ibdev_ports_del(struct ib_device *device)
{
	u32 port;

	rdma_for_each_port(device, port)
		if (device->port_data[port].sysfs)
			ibdev_port_del(device->port_data[port].sysfs);
	kobject_put(device->coredev.ports_kobj);
	device->coredev.ports_kobj = NULL;
}

/**
 * ibdev_sysfs_add - add the device and its ports to sysfs
 * @device: a device being registered, with its name and port data set
 *
 * Return: 0 or an errno; on failure nothing is left in sysfs.
 */
int ibdev_sysfs_add(struct ib_device *device)
{
	u32 port;
	int ret;

	device->groups[0] = &ibdev_attr_group;
	device->groups[1] = device->ops.device_group;
	ret = counters_sysfs_prepare(device);
	if (ret)
		return ret;
	ret = device_add(&device->dev);
	if (ret)
		goto err_counters;
	device->coredev.ports_kobj = kobject_create_and_add("ports",
							    &device->dev.kobj);
	if (!device->coredev.ports_kobj) {
		ret = -ENOMEM;
		goto err_del;
	}
	rdma_for_each_port(device, port) {
		ret = ibdev_port_add(device, port);
		if (ret)
			goto err_ports;
	}
	return 0;

err_ports:
	ibdev_ports_del(device);
err_del:
	device_del(&device->dev);
err_counters:
	counters_free(device);
	return ret;
}

void ibdev_sysfs_del(struct ib_device *device)
{
	ibdev_ports_del(device);
	device_del(&device->dev);
	counters_free(device);
}

/**
 * ib_port_sysfs_get_ibdev_kobj - the device and port of a port's kobject
 * @kobj: the kobject of /sys/class/infiniband/<device>/ports/<n>, as the
 *	show and store functions of a driver's port groups get it
 * @port_num: the port's number, out
 *
 * Return: the device.
 */
struct ib_device *ib_port_sysfs_get_ibdev_kobj(struct kobject *kobj,
					       u32 *port_num)
{
	struct ib_port *p = container_of(kobj, struct ib_port, kobj);

	*port_num = p->port_num;
	return p->ibdev;
}
EXPORT_SYMBOL(ib_port_sysfs_get_ibdev_kobj);

/* The port directory of a registered device's port, or NULL. */
static struct ib_port *ibdev_sysfs_port(struct ib_device *ibdev, u32 port_num)
{
	if (!rdma_is_port_valid(ibdev, port_num) || !ibdev->port_data)
		return NULL;
	return ibdev->port_data[port_num].sysfs;
}

/**
 * ib_port_register_client_groups - add a client's files to a port's directory
 * @ibdev: a registered device (the client's add() is running or returned)
 * @port_num: the port
 * @groups: NULL-terminated attribute groups (ib_cm's counters)
 *
 * For the files in-tree clients keep under ports/<n>/; a client removes
 * them with ib_port_unregister_client_groups() before its remove()
 * returns.
 *
 * Return: 0; -EINVAL for a port the device does not have or has no
 * directory for; sysfs_create_groups()'s error.
 */
int ib_port_register_client_groups(struct ib_device *ibdev, u32 port_num,
				   const struct attribute_group **groups)
{
	struct ib_port *p = ibdev_sysfs_port(ibdev, port_num);

	if (!p)
		return -EINVAL;
	return sysfs_create_groups(&p->kobj, groups);
}
EXPORT_SYMBOL(ib_port_register_client_groups);

/**
 * ib_port_unregister_client_groups - remove a client's files from a port
 * @ibdev: the device
 * @port_num: the port
 * @groups: what ib_port_register_client_groups() added
 */
void ib_port_unregister_client_groups(struct ib_device *ibdev, u32 port_num,
				      const struct attribute_group **groups)
{
	struct ib_port *p = ibdev_sysfs_port(ibdev, port_num);

	if (p)
		sysfs_remove_groups(&p->kobj, groups);
}
EXPORT_SYMBOL(ib_port_unregister_client_groups);
