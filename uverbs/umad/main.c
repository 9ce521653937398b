// SPDX-License-Identifier: GPL-2.0
/*
 * ib_umad: MADs from userspace.  For every port with MADs, the character
 * devices /dev/infiniband/umadN (agents that send and receive MADs:
 * libibumad, infiniband-diags, OpenSM) and issmN (held open by the
 * port's subnet manager), in the class infiniband_mad.
 *
 * The module entry: device numbers, the class, then the clients; in
 * reverse at unload.  internal.h gives the files and the locking.
 */
#include <linux/module.h>
#include <linux/stringify.h>
#include "internal.h"
#include "rdma_version.h"

/* Under /dev/infiniband/, as libibumad looks for them */
static char *umad_devnode(struct device *dev, umode_t *mode)
{
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

/* /sys/class/infiniband_mad/abi_version: the layout of ib_user_mad.h */
static CLASS_ATTR_STRING(abi_version, 0444,
			 __stringify(IB_USER_MAD_ABI_VERSION));

/* /sys/class/infiniband_mad: abi_version, and umadN, issmN */
struct class umad_class = {
	.name = "infiniband_mad",
	.devnode = umad_devnode,
};

static int umad_class_init(void)
{
	int ret = class_register(&umad_class);

	if (ret)
		return ret;
	ret = class_create_file(&umad_class, &class_attr_abi_version.attr);
	if (ret)
		class_unregister(&umad_class);
	return ret;
}

static void umad_class_exit(void)
{
	class_remove_file(&umad_class, &class_attr_abi_version.attr);
	class_unregister(&umad_class);
}

static int __init umad_init(void)
{
	int ret;

	ret = port_chrdev_init();
	if (ret)
		return ret;
	ret = umad_class_init();
	if (ret)
		goto err_chrdev;
	ret = ib_register_client(&umad_client);
	if (ret)
		goto err_class;
	ret = ib_register_client(&umad_issm_client);
	if (ret)
		goto err_client;
	return 0;

err_client:
	ib_unregister_client(&umad_client);
err_class:
	umad_class_exit();
err_chrdev:
	port_chrdev_exit();
	return ret;
}

static void __exit umad_exit(void)
{
	ib_unregister_client(&umad_issm_client);
	ib_unregister_client(&umad_client);
	umad_class_exit();
	port_chrdev_exit();
}

module_init(umad_init);
module_exit(umad_exit);

MODULE_DESCRIPTION("RDMA: MADs from userspace (/dev/infiniband/umadN, issmN)");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
