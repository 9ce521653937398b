// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_sysfs: core/device/sysfs.c, the device's and its
 * ports' attributes under /sys/class/infiniband/<dev>/, read and written
 * through the files themselves; the files clients add to a port.
 */
#include <kunit/test.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sysfs.h>
#include "core/sysfs.h"
#include "tk.h"

/* The path of /sys/class/infiniband/<dev>/<rel> */
static void tk_sysfs_path(char *path, size_t len, struct ib_device *dev,
			  const char *rel)
{
	snprintf(path, len, "/sys/class/infiniband/%s/%s",
		 dev_name(&dev->dev), rel);
}

/* Read a file of /sys/class/infiniband/<dev>/<rel> into @buf. */
static int tk_sysfs_read(struct ib_device *dev, const char *rel, char *buf,
			 size_t len)
{
	char path[128];

	tk_sysfs_path(path, sizeof(path), dev, rel);
	return tk_file_read(path, buf, len);
}

static int tk_sysfs_write(struct ib_device *dev, const char *rel,
			  const char *text)
{
	char path[128];

	tk_sysfs_path(path, sizeof(path), dev, rel);
	return tk_file_write(path, text);
}

#define KT_EXPECT_SYSFS(test, dev, rel, expected)			\
	do {								\
		char __buf[128];					\
		KUNIT_ASSERT_EQ(test, tk_sysfs_read(dev, rel, __buf,	\
						    sizeof(__buf)), 0); \
		KUNIT_EXPECT_STREQ(test, __buf, expected);		\
	} while (0)

/* Reading /sys/class/infiniband/<dev>/<rel> fails with @err. */
static void tk_expect_sysfs_err(struct kunit *test, struct ib_device *dev,
				const char *rel, int err)
{
	char buf[64];

	KUNIT_EXPECT_EQ_MSG(test, tk_sysfs_read(dev, rel, buf, sizeof(buf)),
			    err, "%s", rel);
}

static void sysfs_device_attrs(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktsd%d");
	u64 guid = be64_to_cpu(td->ibdev.node_guid);
	char want[64];

	KT_EXPECT_SYSFS(test, &td->ibdev, "node_type", "1: CA\n");
	snprintf(want, sizeof(want), "%04x:%04x:%04x:%04x\n",
		 (u16)(guid >> 48), (u16)(guid >> 32), (u16)(guid >> 16),
		 (u16)guid);
	KT_EXPECT_SYSFS(test, &td->ibdev, "node_guid", want);
	KT_EXPECT_SYSFS(test, &td->ibdev, "sys_image_guid", want);
	KT_EXPECT_SYSFS(test, &td->ibdev, "fw_ver", "1.2.3\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "node_desc", "rdma_kunit_tdev\n");
	tdev_destroy(td);
}

static void sysfs_node_desc_write(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktsw%d");

	KUNIT_ASSERT_EQ(test, tk_sysfs_write(&td->ibdev, "node_desc",
					     "written by kunit"), 0);
	KT_EXPECT_SYSFS(test, &td->ibdev, "node_desc", "written by kunit\n");
	tdev_fail(td, TDEV_FAIL_MODIFY_DEVICE, true);
	KUNIT_EXPECT_EQ(test, tk_sysfs_write(&td->ibdev, "node_desc", "x"),
			-EIO);
	tdev_destroy(td);
}

static void sysfs_port_attrs(struct kunit *test)
{
	struct tdev_params p = { .name = "ktspa%d", .ports = 2 };
	struct tdev *td = tk_dev(test, &p);
	char want[16];

	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/state", "4: ACTIVE\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/phys_state", "5: LinkUp\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/link_layer",
			"InfiniBand\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/rate",
			"10 Gb/sec (4X SDR)\n");
	/* The LIDs the test double's fabric gave the ports */
	snprintf(want, sizeof(want), "0x%x\n", td->port[1].lid);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/lid", want);
	snprintf(want, sizeof(want), "0x%x\n", td->port[2].lid);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/2/lid", want);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/sm_lid", "0x1\n");
	snprintf(want, sizeof(want), "0x%08x\n", IB_PORT_CM_SUP);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/cap_mask", want);
	tdev_port_event(td, 2, IB_EVENT_PORT_ERR);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/2/state", "1: DOWN\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/2/phys_state",
			"3: Disabled\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/state", "4: ACTIVE\n");
	tdev_destroy(td);
}

static void sysfs_port_query_error(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktspe%d");

	tdev_fail(td, TDEV_FAIL_QUERY_PORT, true);
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/state", -EIO);
	tdev_destroy(td);
}

static void sysfs_tables_ib(struct kunit *test)
{
	struct tdev_params p = { .name = "ktst%d", .gid_tbl_len = 4,
				 .pkey_tbl_len = 2 };
	struct tdev *td = tk_dev(test, &p);
	union ib_gid gid;
	char want[64];

	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	snprintf(want, sizeof(want), "%pI6\n", gid.raw);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gids/0", want);
	KUNIT_EXPECT_EQ(test, strncmp(want, "fe80:0000:0000:0000:", 20), 0);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gids/3",
			"0000:0000:0000:0000:0000:0000:0000:0000\n");
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/gids/4", -ENOENT);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/pkeys/0", "0xffff\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/pkeys/1", "0x0000\n");
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/pkeys/2", -ENOENT);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gid_attrs/types/0",
			"IB/RoCE v1\n");
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/gid_attrs/types/1",
			    -ENODATA);
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/gid_attrs/ndevs/0",
			    -ENODEV);
	tdev_destroy(td);
}

static void sysfs_tables_roce(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktsr%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	char want[32];

	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/link_layer", "Ethernet\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gids/0",
			"fe80:0000:0000:0000:0011:22ff:fe33:4455\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gid_attrs/types/0",
			"IB/RoCE v1\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gid_attrs/types/1",
			"RoCE v2\n");
	snprintf(want, sizeof(want), "%s\n", ndev->name);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gid_attrs/ndevs/1", want);
	tdev_destroy(td);
	tk_netdev_free(ndev);
}

static void sysfs_gone_after_unregister(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktsg%d");

	KT_EXPECT_SYSFS(test, &td->ibdev, "node_type", "1: CA\n");
	tdev_unregister(td);
	tk_expect_sysfs_err(test, &td->ibdev, "node_type", -ENOENT);
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/state", -ENOENT);
	tdev_destroy(td);
}

/* A client's port file, as ib_cm has them */
static ssize_t kt_client_show(struct ib_device *ibdev, u32 port,
			      struct ib_port_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "port %u\n", port);
}
static struct ib_port_attribute kt_client_attr = __ATTR_RO(kt_client);

/* A binary file that finds its port from the kobject, as hfi1's do */
static ssize_t kt_bin_read(struct file *f, struct kobject *kobj,
			   struct bin_attribute *attr, char *buf, loff_t off,
			   size_t count)
{
	struct ib_device *ibdev;
	u32 port = 0;
	int len;

	if (off)
		return 0;
	ibdev = ib_port_sysfs_get_ibdev_kobj(kobj, &port);
	len = scnprintf(buf, count, "%s %u\n", dev_name(&ibdev->dev), port);
	return len;
}
static BIN_ATTR_RO(kt_bin, 64);

static struct attribute *kt_client_attrs[] = { &kt_client_attr.attr, NULL };
static struct bin_attribute *kt_client_bin_attrs[] = { &bin_attr_kt_bin, NULL };
static const struct attribute_group kt_client_group = {
	.attrs = kt_client_attrs,
	.bin_attrs = kt_client_bin_attrs,
};
static const struct attribute_group *kt_client_groups[] = {
	&kt_client_group, NULL
};

/*
 * A client's files in a port's directory: added to that port only, read
 * through the port's own attribute operations, found back from their
 * kobject, removed again.
 */
static void sysfs_client_groups(struct kunit *test)
{
	struct tdev_params p = { .name = "ktscg%d", .ports = 2 };
	struct tdev *td = tk_dev(test, &p);
	char want[64], buf[64];

	KUNIT_ASSERT_EQ(test, ib_port_register_client_groups(&td->ibdev, 2,
							      kt_client_groups),
			0);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/2/kt_client", "port 2\n");
	snprintf(want, sizeof(want), "%s 2\n", dev_name(&td->ibdev.dev));
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/2/kt_bin", want);
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/kt_client", -ENOENT);
	/* Bad input: ports the device lacks */
	KUNIT_EXPECT_EQ(test, ib_port_register_client_groups(&td->ibdev, 0,
							      kt_client_groups),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_port_register_client_groups(&td->ibdev, 3,
							      kt_client_groups),
			-EINVAL);
	ib_port_unregister_client_groups(&td->ibdev, 3, kt_client_groups);
	ib_port_unregister_client_groups(&td->ibdev, 2, kt_client_groups);
	KUNIT_EXPECT_NE(test, tk_sysfs_read(&td->ibdev, "ports/2/kt_client",
					    buf, sizeof(buf)), 0);
	/* Added again after removal */
	KUNIT_EXPECT_EQ(test, ib_port_register_client_groups(&td->ibdev, 1,
							      kt_client_groups),
			0);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/kt_client", "port 1\n");
	ib_port_unregister_client_groups(&td->ibdev, 1, kt_client_groups);
	tdev_destroy(td);
}

static struct kunit_case sysfs_cases[] = {
	KUNIT_CASE(sysfs_device_attrs),
	KUNIT_CASE(sysfs_node_desc_write),
	KUNIT_CASE(sysfs_port_attrs),
	KUNIT_CASE(sysfs_port_query_error),
	KUNIT_CASE(sysfs_tables_ib),
	KUNIT_CASE(sysfs_tables_roce),
	KUNIT_CASE(sysfs_gone_after_unregister),
	KUNIT_CASE(sysfs_client_groups),
	{}
};

static struct kunit_suite sysfs_suite = {
	.name = "rdma_core_sysfs",
	.test_cases = sysfs_cases,
};

kunit_test_suites(&sysfs_suite);
