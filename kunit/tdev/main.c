// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: the module.  Its load and unload, the ndevs parameter,
 * and the debugfs event file of every registered device.
 *
 * Module parameter ndevs creates and registers that many InfiniBand
 * devices ("tdev%d") at load; they are removed at unload.  Every registered
 * tdev has /sys/kernel/debug/rdma_kunit_tdev/<name>/event, which accepts
 * "port_err N", "port_active N", "gid_change N" and "lid_change N".
 *
 * Locking: tdev_debugfs_root and tdev_param_devs are set at load and
 * cleared at unload only.  A device's debugfs directory is added and
 * removed by whoever owns the device (tdev_register(), tdev_unregister(),
 * or the core through ops.dealloc_driver), never concurrently.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "tdev_priv.h"

static unsigned int ndevs;
module_param(ndevs, uint, 0444);
MODULE_PARM_DESC(ndevs, "InfiniBand test devices to register at load");

/* Root debugfs directory; created at load, removed at unload. */
static struct dentry *tdev_debugfs_root;

static ssize_t tdev_event_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	static const struct {
		const char *cmd;
		enum ib_event_type type;
	} cmds[] = {
		{ "port_err", IB_EVENT_PORT_ERR },
		{ "port_active", IB_EVENT_PORT_ACTIVE },
		{ "gid_change", IB_EVENT_GID_CHANGE },
		{ "lid_change", IB_EVENT_LID_CHANGE },
	};
	struct tdev *td = file->private_data;
	char buf[32], cmd[16];
	unsigned int i;
	u32 port;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%15s %u", cmd, &port) != 2 ||
	    !rdma_is_port_valid(&td->ibdev, port))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (!strcmp(cmd, cmds[i].cmd)) {
			tdev_port_event(td, port, cmds[i].type);
			return count;
		}
	}
	return -EINVAL;
}

static const struct file_operations tdev_event_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = tdev_event_write,
	.llseek = noop_llseek,
};

/**
 * tdev_debugfs_add - give a registered device its debugfs event file
 * @td: the device, just registered
 */
void tdev_debugfs_add(struct tdev *td)
{
	td->debugfs = debugfs_create_dir(dev_name(&td->ibdev.dev),
					 tdev_debugfs_root);
	debugfs_create_file("event", 0200, td->debugfs, td, &tdev_event_fops);
}

/**
 * tdev_debugfs_remove - remove a device's debugfs directory, if it has one
 * @td: the device, before the core frees it
 */
void tdev_debugfs_remove(struct tdev *td)
{
	debugfs_remove(td->debugfs);
	td->debugfs = NULL;
}

/* Devices made for the ndevs parameter, destroyed at unload. */
static struct tdev **tdev_param_devs;

static void tdev_param_destroy(void)
{
	unsigned int i;

	for (i = 0; tdev_param_devs && i < ndevs; i++)
		if (tdev_param_devs[i])
			tdev_destroy(tdev_param_devs[i]);
	kfree(tdev_param_devs);
	tdev_param_devs = NULL;
}

static int tdev_param_create(void)
{
	struct tdev *td;
	unsigned int i;

	if (!ndevs)
		return 0;
	tdev_param_devs = kcalloc(ndevs, sizeof(*tdev_param_devs), GFP_KERNEL);
	if (!tdev_param_devs)
		return -ENOMEM;
	for (i = 0; i < ndevs; i++) {
		td = tdev_create_registered(NULL);
		if (IS_ERR(td)) {
			tdev_param_destroy();
			return PTR_ERR(td);
		}
		tdev_param_devs[i] = td;
	}
	return 0;
}

static int __init tdev_init(void)
{
	int ret;

	tdev_debugfs_root = debugfs_create_dir("rdma_kunit_tdev", NULL);
	ret = tdev_param_create();
	if (ret)
		debugfs_remove_recursive(tdev_debugfs_root);
	return ret;
}

static void __exit tdev_exit(void)
{
	tdev_param_destroy();
	debugfs_remove_recursive(tdev_debugfs_root);
}

module_init(tdev_init);
module_exit(tdev_exit);

MODULE_DESCRIPTION("Test-double RDMA device for the KUnit suites and the demo");
MODULE_LICENSE("GPL");
