// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_ucm: rdma_cm from userspace, through the misc device rdma_cm
 * (/dev/infiniband/rdma_cm) that librdmacm drives.  The module entry:
 * the device with its abi_version attribute, the net.rdma_ucm.max_backlog
 * sysctl, and an RDMA client that exists only to answer netlink's
 * GET_CHARDEV for "rdma_cm".  internal.h gives the files and the
 * locking.
 */
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include "abi/ib_core/types.h"
#include "internal.h"
#include "rdma_version.h"

/* The backlog of a listener that asks for none, or for more */
static int ucma_backlog_limit = 1024;

static struct ctl_table ucma_sysctl[] = {
	{
		.procname = "max_backlog",
		.data = &ucma_backlog_limit,
		.maxlen = sizeof(ucma_backlog_limit),
		.mode = 0644,
		.proc_handler = proc_dointvec,
	},
	{ }
};

static struct ctl_table_header *ucma_sysctl_hdr;

/**
 * ucma_max_backlog - the net.rdma_ucm.max_backlog sysctl
 */
int ucma_max_backlog(void)
{
	return READ_ONCE(ucma_backlog_limit);
}

/* /sys/class/misc/rdma_cm/abi_version, which librdmacm may read */
static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", RDMA_USER_CM_ABI_VERSION);
}
static DEVICE_ATTR_RO(abi_version);

static struct attribute *ucma_attrs[] = {
	&dev_attr_abi_version.attr,
	NULL
};
ATTRIBUTE_GROUPS(ucma);

/* /dev/infiniband/rdma_cm, for everyone (IDs are per open file) */
static struct miscdevice ucma_misc = {
	.fops = &ucma_fops,
	.groups = ucma_groups,
	.nodename = "infiniband/rdma_cm",
	.name = "rdma_cm",
	.mode = 0666,
	.minor = MISC_DYNAMIC_MINOR,
};

/*
 * An RDMA client with no per-device state: it only tells netlink's
 * RDMA_NLDEV_CMD_GET_CHARDEV for "rdma_cm" (asked without a device)
 * which device node and ABI version to report.
 */
static int ucma_chardev_info(struct ib_client_nl_info *info)
{
	info->cdev = ucma_misc.this_device;
	info->abi = RDMA_USER_CM_ABI_VERSION;
	return 0;
}

static struct ib_client ucma_client = {
	.get_global_nl_info = ucma_chardev_info,
	.name = "rdma_cm",
};
MODULE_ALIAS_RDMA_CLIENT("rdma_cm");

static int __init ucma_init(void)
{
	int ret;

	ucma_sysctl_hdr = register_net_sysctl(&init_net, "net/rdma_ucm",
					      ucma_sysctl);
	if (!ucma_sysctl_hdr)
		return -ENOMEM;
	ret = misc_register(&ucma_misc);
	if (!ret) {
		/* netlink reports the misc device: it must be there first */
		ret = ib_register_client(&ucma_client);
		if (!ret)
			return 0;
		misc_deregister(&ucma_misc);
	}
	unregister_net_sysctl_table(ucma_sysctl_hdr);
	return ret;
}

static void __exit ucma_exit(void)
{
	ib_unregister_client(&ucma_client);
	misc_deregister(&ucma_misc);
	unregister_net_sysctl_table(ucma_sysctl_hdr);
}

module_init(ucma_init);
module_exit(ucma_exit);

MODULE_DESCRIPTION("RDMA: the RDMA connection manager from userspace (/dev/infiniband/rdma_cm)");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
