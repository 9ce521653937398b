// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: the module.  Its load and unload, the ndevs parameter,
 * the debugfs event file of every registered device, the work queue of
 * TDEV_EXEC_WORK devices and the platform device that real-DMA devices
 * (tdev_params.dma_device) do DMA through.
 *
 * Module parameter ndevs creates and registers that many InfiniBand
 * devices ("tdev%d") at load; they are removed at unload.  Every registered
 * tdev has /sys/kernel/debug/rdma_kunit_tdev/<name>/event, which accepts
 * "port_err N", "port_active N", "gid_change N" and "lid_change N".
 *
 * Locking: tdev_debugfs_root, tdev_param_devs, tdev_wq and tdev_pdev are
 * set at load and cleared at unload only.  A device's debugfs directory is added and
 * removed by whoever owns the device (tdev_register(), tdev_unregister(),
 * or the core through ops.dealloc_driver), never concurrently.
 */
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include "tdev_priv.h"
#include "rdma_version.h"

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
			int ret = tdev_port_event(td, port, cmds[i].type);

			return ret ? ret : count;
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

/* The work queue of TDEV_EXEC_WORK vectors. */
struct workqueue_struct *tdev_wq;

/* What real-DMA devices map for: a platform device with a 64-bit mask. */
static struct platform_device *tdev_pdev;

/**
 * tdev_dma_device - the struct device real-DMA test devices use
 *
 * Return: the module's platform device (dma-direct, 64-bit DMA mask).
 */
struct device *tdev_dma_device(void)
{
	return &tdev_pdev->dev;
}

static int tdev_pdev_create(void)
{
	const struct platform_device_info info = {
		.name = "rdma_kunit_tdev",
		.id = PLATFORM_DEVID_NONE,
		.dma_mask = DMA_BIT_MASK(64),
	};

	tdev_pdev = platform_device_register_full(&info);
	return PTR_ERR_OR_ZERO(tdev_pdev);
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

	tdev_wq = alloc_workqueue("rdma_kunit_tdev", 0, 0);
	if (!tdev_wq)
		return -ENOMEM;
	ret = tdev_pdev_create();
	if (ret)
		goto err_wq;
	tdev_debugfs_root = debugfs_create_dir("rdma_kunit_tdev", NULL);
	ret = tdev_param_create();
	if (ret)
		goto err_debugfs;
	return 0;

err_debugfs:
	debugfs_remove_recursive(tdev_debugfs_root);
	platform_device_unregister(tdev_pdev);
err_wq:
	destroy_workqueue(tdev_wq);
	return ret;
}

static void __exit tdev_exit(void)
{
	tdev_param_destroy();
	debugfs_remove_recursive(tdev_debugfs_root);
	platform_device_unregister(tdev_pdev);
	destroy_workqueue(tdev_wq);
	tv_mrs_check_empty();
}

module_init(tdev_init);
module_exit(tdev_exit);

MODULE_DESCRIPTION("Test-double RDMA device for the KUnit suites and the demo");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
