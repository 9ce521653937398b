// SPDX-License-Identifier: GPL-2.0
/*
 * ib_cm's message counters, per port, as the target kernel shows them:
 * /sys/class/infiniband/<device>/ports/<n>/<group>/<message>, a decimal
 * number each.  The groups: cm_tx_msgs (every transmission, retries
 * included), cm_tx_retries, cm_rx_msgs, cm_rx_duplicates (a message that
 * repeats one already taken: a retried REQ, REP or DREQ, say).  The
 * messages: req, mra, rej, rep, rtu, dreq, drep, sidr_req, sidr_rep,
 * lap, apr, in the order of their attribute IDs (0x0010 to 0x001a).
 *
 * Locking: the counters are atomic; the files are added by main.c's
 * add() and removed by its remove(), and the cm_dev they read outlives
 * both.
 */
#include "abi/ib_cm/cm.h"
#include <rdma/ib_sysfs.h>
#include "core/sysfs.h"
#include "internal.h"

/* The first CM attribute ID: that of the REQ. */
#define CM_CTR_FIRST_ATTR	0x0010

/**
 * struct cm_ctr_file - one counter's file
 * @attr: the port attribute (its show reads the counter)
 * @group: enum cm_ctr_group
 * @msg: the message's index (attribute ID - 0x0010)
 */
struct cm_ctr_file {
	struct ib_port_attribute attr;
	u8 group;
	u8 msg;
};

static const char *const cm_ctr_group_names[CM_CTR_GROUPS] = {
	[CM_CTR_TX] = "cm_tx_msgs",
	[CM_CTR_TX_RETRIES] = "cm_tx_retries",
	[CM_CTR_RX] = "cm_rx_msgs",
	[CM_CTR_RX_DUPLICATES] = "cm_rx_duplicates",
};

static const char *const cm_ctr_msg_names[CM_CTR_MSGS] = {
	"req", "mra", "rej", "rep", "rtu", "dreq", "drep", "sidr_req",
	"sidr_rep", "lap", "apr",
};

/* Made by cm_counters_init(); constant after it. */
static struct cm_ctr_file cm_ctr_files[CM_CTR_GROUPS][CM_CTR_MSGS];
static struct attribute *cm_ctr_attrs[CM_CTR_GROUPS][CM_CTR_MSGS + 1];
static struct attribute_group cm_ctr_groups[CM_CTR_GROUPS];
static const struct attribute_group *cm_ctr_group_list[CM_CTR_GROUPS + 1];

static ssize_t cm_ctr_show(struct ib_device *ibdev, u32 port_num,
			   struct ib_port_attribute *attr, char *buf)
{
	struct cm_ctr_file *f = container_of(attr, struct cm_ctr_file, attr);
	struct cm_dev *dev = cm_dev_get(ibdev);
	long val;

	if (!dev)
		return -ENODEV;
	val = port_num <= dev->nports ?
		atomic_long_read(&dev->port[port_num - 1].ctr[f->group][f->msg]) : 0;
	cm_dev_put(dev);
	return sysfs_emit(buf, "%ld\n", val);
}

/**
 * cm_count - count a CM message on a port
 * @port: the port
 * @group: which count
 * @attr_id: the message's attribute ID; one that is not a CM message's
 *	is not counted
 * @n: how many
 */
void cm_count(struct cm_port *port, enum cm_ctr_group group, __be16 attr_id,
	      long n)
{
	unsigned int msg = be16_to_cpu(attr_id) - CM_CTR_FIRST_ATTR;

	if (msg < CM_CTR_MSGS)
		atomic_long_add(n, &port->ctr[group][msg]);
}

/**
 * cm_counters_add - the counter files of a port
 * @port: the port, of a registered device
 *
 * Return: 0 or the error of ib_port_register_client_groups().
 */
int cm_counters_add(struct cm_port *port)
{
	return ib_port_register_client_groups(port->dev->ibdev, port->num,
					      cm_ctr_group_list);
}

/**
 * cm_counters_remove - remove the counter files of a port
 * @port: the port, cm_counters_add() done
 */
void cm_counters_remove(struct cm_port *port)
{
	ib_port_unregister_client_groups(port->dev->ibdev, port->num,
					 cm_ctr_group_list);
}

/* The attribute groups, made once from the two name tables. */
void cm_counters_init(void)
{
	struct cm_ctr_file *f;
	unsigned int g, m;

	for (g = 0; g < CM_CTR_GROUPS; g++) {
		for (m = 0; m < CM_CTR_MSGS; m++) {
			f = &cm_ctr_files[g][m];
			sysfs_attr_init(&f->attr.attr);
			f->attr.attr.name = cm_ctr_msg_names[m];
			f->attr.attr.mode = 0444;
			f->attr.show = cm_ctr_show;
			f->group = g;
			f->msg = m;
			cm_ctr_attrs[g][m] = &f->attr.attr;
		}
		cm_ctr_groups[g].name = cm_ctr_group_names[g];
		cm_ctr_groups[g].attrs = cm_ctr_attrs[g];
		cm_ctr_group_list[g] = &cm_ctr_groups[g];
	}
}
