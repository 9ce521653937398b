// SPDX-License-Identifier: GPL-2.0
/*
 * What the MAD layer of each port received, sent and dropped, and why:
 * /sys/kernel/debug/ib_core/mad/<device>-<port>/counters, one
 * "name value" line each (Documentation/core.rst lists them).
 *
 * Locking: the counters are atomic; the debugfs files are added and
 * removed by port.c's add() and remove() only.
 */
#include "abi/ib_core/mad.h"
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "internal.h"

static const char * const counters_names[MAD_DROP_MAX] = {
	[MAD_DROP_BASE_VERSION] = "drop_base_version",
	[MAD_DROP_WRONG_QP] = "drop_wrong_qp",
	[MAD_DROP_CM_METHOD] = "drop_cm_method",
	[MAD_DROP_SMI] = "drop_smi",
	[MAD_DROP_NO_AGENT] = "drop_no_agent",
	[MAD_DROP_NO_REQUEST] = "drop_no_request",
	[MAD_DROP_RMPP] = "drop_rmpp",
	[MAD_DROP_LENGTH] = "drop_length",
	[MAD_DROP_NOMEM] = "drop_nomem",
};

/* ib_core's debugfs directory and its mad/; made at load, removed at unload */
static struct dentry *counters_core;
static struct dentry *counters_root;

/**
 * counters_drop - count a MAD the port dropped
 * @port: the port
 * @why: the reason
 */
void counters_drop(struct mad_port *port, enum mad_drop why)
{
	atomic64_inc(&port->drops[why]);
}

static int counters_show(struct seq_file *m, void *unused)
{
	struct mad_port *port = m->private;
	int i;

	seq_printf(m, "received %lld\n", atomic64_read(&port->received));
	seq_printf(m, "sent %lld\n", atomic64_read(&port->sent));
	seq_printf(m, "qp_repairs %lld\n", atomic64_read(&port->repairs));
	for (i = 0; i < MAD_DROP_MAX; i++)
		seq_printf(m, "%s %lld\n", counters_names[i],
			   atomic64_read(&port->drops[i]));
	return 0;
}

static int counters_open(struct inode *inode, struct file *file)
{
	return single_open(file, counters_show, inode->i_private);
}

/*
 * Read through read_iter, so that kernel_read() works too (the KUnit
 * suites read the counters so); debugfs' full proxy has no read_iter, so
 * the file is made "unsafe" and each read holds off the file's removal
 * itself with debugfs_file_get().
 */
static ssize_t counters_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct dentry *dentry = iocb->ki_filp->f_path.dentry;
	ssize_t ret;

	ret = debugfs_file_get(dentry);
	if (ret)
		return ret;
	ret = seq_read_iter(iocb, to);
	debugfs_file_put(dentry);
	return ret;
}

static const struct file_operations counters_fops = {
	.owner = THIS_MODULE,
	.open = counters_open,
	.read_iter = counters_read_iter,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * counters_port_add - the port's debugfs directory and counters file
 * @port: the port
 */
void counters_port_add(struct mad_port *port)
{
	char name[IB_DEVICE_NAME_MAX + 12];

	snprintf(name, sizeof(name), "%s-%u", dev_name(&port->dev->dev),
		 port->port_num);
	port->debugfs = debugfs_create_dir(name, counters_root);
	debugfs_create_file_unsafe("counters", 0444, port->debugfs, port,
				   &counters_fops);
}

/**
 * counters_port_remove - remove what counters_port_add() made
 * @port: the port
 */
void counters_port_remove(struct mad_port *port)
{
	debugfs_remove_recursive(port->debugfs);
	port->debugfs = NULL;
}

/**
 * counters_init - /sys/kernel/debug/ib_core/mad
 */
void counters_init(void)
{
	counters_core = debugfs_create_dir("ib_core", NULL);
	counters_root = debugfs_create_dir("mad", counters_core);
}

/**
 * counters_exit - remove /sys/kernel/debug/ib_core
 */
void counters_exit(void)
{
	debugfs_remove(counters_core);
	counters_core = NULL;
	counters_root = NULL;
}
