// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_traffic: its files in /sys/kernel/debug/rdma_traffic/.
 *
 *   pair     "A B": the requester's and the responder's device (rw)
 *   control  "run" starts a run on the pair (-EBUSY while one runs,
 *            -ENODEV if a device is missing); "stop" aborts it (w)
 *   status   "run=N state=idle|running|done|failed|aborted" (r)
 *   report   the lines of the last run (r; report.c says their form)
 *
 * The files only call into main.c, which does the locking.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include "traffic.h"

/* The folder; made at load, removed with its files at unload. */
static struct dentry *traffic_debugfs;

/* Copies a short command from userspace, without its trailing newline. */
static ssize_t traffic_cmd(char *buf, size_t len, const char __user *ubuf,
			   size_t count)
{
	if (!count || count >= len)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	strim(buf);
	return count;
}

static ssize_t traffic_pair_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char buf[2 * IB_DEVICE_NAME_MAX + 2];
	char *b = buf, *a;
	ssize_t ret;

	ret = traffic_cmd(buf, sizeof(buf), ubuf, count);
	if (ret < 0)
		return ret;
	a = strsep(&b, " \t");
	b = b ? skip_spaces(b) : NULL;
	if (!*a || !b || !*b || strpbrk(b, " \t"))
		return -EINVAL;
	ret = traffic_main_set_pair(a, b);
	return ret ? ret : count;
}

static int traffic_pair_show(struct seq_file *m, void *unused)
{
	char a[IB_DEVICE_NAME_MAX], b[IB_DEVICE_NAME_MAX];

	traffic_main_get_pair(a, b);
	seq_printf(m, "%s %s\n", a, b);
	return 0;
}

static int traffic_pair_open(struct inode *inode, struct file *file)
{
	return single_open(file, traffic_pair_show, NULL);
}

static const struct file_operations traffic_pair_fops = {
	.owner = THIS_MODULE,
	.open = traffic_pair_open,
	.read = seq_read,
	.write = traffic_pair_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t traffic_control_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	char buf[16];
	ssize_t ret;

	ret = traffic_cmd(buf, sizeof(buf), ubuf, count);
	if (ret < 0)
		return ret;
	if (!strcmp(buf, "run"))
		ret = traffic_main_start();
	else if (!strcmp(buf, "stop"))
		traffic_main_stop("stopped");
	else
		ret = -EINVAL;
	return ret < 0 ? ret : count;
}

static const struct file_operations traffic_control_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = traffic_control_write,
	.llseek = noop_llseek,
};

static int traffic_status_show(struct seq_file *m, void *unused)
{
	mutex_lock(&traffic_lock);
	seq_printf(m, "run=%u state=%s\n", traffic_run.seq,
		   traffic_report_state(traffic_run.state));
	mutex_unlock(&traffic_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(traffic_status);

static int traffic_report_show(struct seq_file *m, void *unused)
{
	mutex_lock(&traffic_lock);
	seq_write(m, traffic_run.report, traffic_run.report_len);
	mutex_unlock(&traffic_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(traffic_report);

/** traffic_debugfs_init() - make the folder and its files */
void traffic_debugfs_init(void)
{
	traffic_debugfs = debugfs_create_dir("rdma_traffic", NULL);
	debugfs_create_file("pair", 0644, traffic_debugfs, NULL,
			    &traffic_pair_fops);
	debugfs_create_file("control", 0200, traffic_debugfs, NULL,
			    &traffic_control_fops);
	debugfs_create_file("status", 0444, traffic_debugfs, NULL,
			    &traffic_status_fops);
	debugfs_create_file("report", 0444, traffic_debugfs, NULL,
			    &traffic_report_fops);
}

/** traffic_debugfs_exit() - remove the folder; no file is in use after */
void traffic_debugfs_exit(void)
{
	debugfs_remove_recursive(traffic_debugfs);
}
