// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the nldev commands about devices, ports, character
 * devices and system settings (core/nl/dev.c, sys.c, netns.c, nldev.c),
 * sent through NETLINK_RDMA as iproute2 and rdma-core send them.
 *
 * Device names start with "ktnl" so they cannot collide with the devices
 * of tdev's ndevs parameter.
 */
#include <kunit/test.h>
#include <linux/file.h>
#include <linux/fdtable.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/kthread.h>
#include <linux/netdevice.h>
#include <linux/umh.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include "abi/ib_core/types.h"
#include "core/nldev.h"
#include "nlk.h"

static int nd_init(struct kunit *test)
{
	test->priv = nlk_open(test);
	return 0;
}

static struct tdev *nd_dev(struct kunit *test, const char *name, u32 ports)
{
	struct tdev_params p = { .name = name, .ports = ports };

	return nlk_tdev(test, &p);
}

static u32 nd_index(struct tdev *td)
{
	return td->ibdev.index;
}

/* GET of one device: every attribute rdma-core and iproute2 read. */
static void nd_get_doit(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 2);
	struct nlattr **tb = k->tb;

	nlk_new_dev(k, RDMA_NLDEV_CMD_GET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nlk_doit(k), 0);
	KUNIT_ASSERT_EQ(test, k->replies, 1);
	KUNIT_EXPECT_EQ(test, k->reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]),
			nd_index(td));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	KUNIT_EXPECT_STREQ(test, nla_data(tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			   dev_name(&td->ibdev.dev));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]), 2);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_NODE_GUID]);
	KUNIT_EXPECT_EQ(test, nla_len(tb[RDMA_NLDEV_ATTR_NODE_GUID]), 8);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[RDMA_NLDEV_ATTR_NODE_GUID]),
			be64_to_cpu(td->ibdev.node_guid));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]),
			RDMA_NODE_IB_CA);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_CAP_FLAGS]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_FW_VERSION]);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_DIM]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_DIM]), 0);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]);
	KUNIT_EXPECT_STREQ(test, nla_data(tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]),
			   "ib");
}

/* GET refuses what names no device it can report. */
static void nd_get_bad(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 1);
	struct tdev *unreg;

	nlk_new(k, RDMA_NLDEV_CMD_GET);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new_dev(k, RDMA_NLDEV_CMD_GET, 0x7ffffff);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	/* The index as a u8: the policy refuses the attribute. */
	nlk_new(k, RDMA_NLDEV_CMD_GET);
	KUNIT_ASSERT_EQ(test, nla_put_u8(k->req, RDMA_NLDEV_ATTR_DEV_INDEX,
					 nd_index(td)), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	/* A string where a u32 belongs, and a name too long. */
	nlk_new(k, RDMA_NLDEV_CMD_GET);
	KUNIT_ASSERT_EQ(test, nla_put_string(k->req, RDMA_NLDEV_ATTR_DEV_INDEX,
					     "x"), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	/* An allocated device that is not registered is not reported. */
	unreg = tdev_create(NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(unreg));
	nlk_new_dev(k, RDMA_NLDEV_CMD_GET, nd_index(unreg));
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	tdev_destroy(unreg);
}

struct nd_find {
	u32 index;
	int seen;
	bool complete;	/* had every attribute libibverbs needs */
};

static int nd_find_dev(struct nlk *k, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct nd_find *f = arg;

	KUNIT_ASSERT_EQ(k->test, nlk_parse(nlh, tb), 0);
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] ||
	    nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]) != f->index)
		return 0;
	f->seen++;
	f->complete = tb[RDMA_NLDEV_ATTR_DEV_NAME] &&
		      tb[RDMA_NLDEV_ATTR_PORT_INDEX] &&
		      tb[RDMA_NLDEV_ATTR_NODE_GUID] &&
		      tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE];
	return 0;
}

/* The GET dump lists registered devices once each, and no others. */
static void nd_get_dump(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 1);
	struct nd_find f = { .index = nd_index(td) };

	nlk_new(k, RDMA_NLDEV_CMD_GET);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, nd_find_dev, &f), 0);
	KUNIT_EXPECT_EQ(test, f.seen, 1);
	KUNIT_EXPECT_TRUE(test, f.complete);
	KUNIT_EXPECT_GE(test, k->msgs, 1);
	tdev_unregister(td);
	f.seen = 0;
	nlk_new(k, RDMA_NLDEV_CMD_GET);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, nd_find_dev, &f), 0);
	KUNIT_EXPECT_EQ(test, f.seen, 0);
}

/* A client that counts renames. */
static atomic_t nd_renames;

static void nd_client_rename(struct ib_device *device, void *data)
{
	atomic_inc(&nd_renames);
}

static struct ib_client nd_rename_client = {
	.name = "ktrename",
	.rename = nd_client_rename,
	.no_kverbs_req = true,
};

static int nd_set_name(struct nlk *k, struct tdev *td, const char *name)
{
	nlk_new_dev(k, RDMA_NLDEV_CMD_SET, nd_index(td));
	KUNIT_ASSERT_EQ(k->test,
			nla_put_string(k->req, RDMA_NLDEV_ATTR_DEV_NAME, name), 0);
	return nlk_doit(k);
}

/* SET renames a device: sysfs, lookups and clients follow. */
static void nd_rename(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 1);
	struct ib_device *found;
	struct file *f;

	atomic_set(&nd_renames, 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&nd_rename_client), 0);
	KUNIT_EXPECT_EQ(test, nd_set_name(k, td, "ktrenamed"), 0);
	KUNIT_EXPECT_STREQ(test, dev_name(&td->ibdev.dev), "ktrenamed");
	KUNIT_EXPECT_STREQ(test, td->ibdev.name, "ktrenamed");
	KUNIT_EXPECT_EQ(test, atomic_read(&nd_renames), 1);
	found = ib_device_get_by_name("ktrenamed", RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	f = filp_open("/sys/class/infiniband/ktrenamed/node_type", O_RDONLY, 0);
	KUNIT_EXPECT_FALSE(test, IS_ERR(f));
	if (!IS_ERR(f))
		filp_close(f, NULL);
	/* The same name again changes nothing and tells nobody. */
	KUNIT_EXPECT_EQ(test, nd_set_name(k, td, "ktrenamed"), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd_renames), 1);
	ib_unregister_client(&nd_rename_client);
}

/* SET refuses names that are empty, taken or not a file name. */
static void nd_rename_bad(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *a = nd_dev(test, "ktnl%d", 1);
	struct tdev *b = nd_dev(test, "ktnl%d", 1);
	char name[IB_DEVICE_NAME_MAX];
	const struct cred *old;

	strscpy(name, dev_name(&a->ibdev.dev), sizeof(name));
	KUNIT_EXPECT_EQ(test, nd_set_name(k, a, dev_name(&b->ibdev.dev)),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, nd_set_name(k, a, ""), -EINVAL);
	KUNIT_EXPECT_EQ(test, nd_set_name(k, a, "kt/slash"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, dev_name(&a->ibdev.dev), name);
	/* Only CAP_NET_ADMIN may rename. */
	old = nlk_drop_cap(CAP_NET_ADMIN);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_EXPECT_EQ(test, nd_set_name(k, a, "ktnocap"), -EPERM);
	nlk_restore_cap(old);
	KUNIT_EXPECT_STREQ(test, dev_name(&a->ibdev.dev), name);
	/* A device index the requester cannot name. */
	nlk_new_dev(k, RDMA_NLDEV_CMD_SET, 0x7ffffff);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new(k, RDMA_NLDEV_CMD_SET);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
}

/* SET of adaptive moderation, and of a namespace by a bad descriptor. */
static void nd_set_other(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 1);

	nlk_new_dev(k, RDMA_NLDEV_CMD_SET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nla_put_u8(k->req, RDMA_NLDEV_ATTR_DEV_DIM, 1), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_TRUE(test, td->ibdev.use_cq_dim);
	nlk_new_dev(k, RDMA_NLDEV_CMD_GET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nlk_doit(k), 0);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_DEV_DIM]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(k->tb[RDMA_NLDEV_ATTR_DEV_DIM]), 1);
	nlk_new_dev(k, RDMA_NLDEV_CMD_SET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nla_put_u8(k->req, RDMA_NLDEV_ATTR_DEV_DIM, 2), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	KUNIT_EXPECT_TRUE(test, td->ibdev.use_cq_dim);
	/* Nothing to change is no error. */
	nlk_new_dev(k, RDMA_NLDEV_CMD_SET, nd_index(td));
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	nlk_new_dev(k, RDMA_NLDEV_CMD_SET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_NET_NS_FD, 1 << 30),
			0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EBADF);
}

/* A descriptor of the current network namespace, in this task's table. */
static int nd_netns_fd(struct kunit *test)
{
	struct file *f = filp_open("/proc/self/ns/net", O_RDONLY, 0);
	int fd;

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		fput(f);
	KUNIT_ASSERT_GE(test, fd, 0);
	fd_install(fd, f);
	return fd;
}

/*
 * SET of a namespace by a valid descriptor: refused with -EOPNOTSUPP
 * (devices do not move between namespaces); without CAP_NET_ADMIN the
 * command itself is refused (-EPERM), before the namespace is looked at.
 */
static void nd_set_netns(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 1);
	int fd = nd_netns_fd(test);
	const struct cred *old;

	nlk_new_dev(k, RDMA_NLDEV_CMD_SET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_NET_NS_FD, fd), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EOPNOTSUPP);
	old = nlk_drop_cap(CAP_NET_ADMIN);
	KUNIT_ASSERT_NOT_NULL(test, old);
	nlk_new_dev(k, RDMA_NLDEV_CMD_SET, nd_index(td));
	KUNIT_EXPECT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_NET_NS_FD, fd), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EPERM);
	nlk_restore_cap(old);
	close_fd(fd);
}

static void nd_expect_port(struct kunit *test, struct nlattr **tb, u32 port)
{
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]), port);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_STATE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_PORT_STATE]),
			IB_PORT_ACTIVE);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]);
}

/* PORT_GET of one port of an InfiniBand device, and its refusals. */
static void nd_port_doit(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 2);

	nlk_new_dev(k, RDMA_NLDEV_CMD_PORT_GET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 2),
			0);
	KUNIT_ASSERT_EQ(test, nlk_doit(k), 0);
	nd_expect_port(test, k->tb, 2);
	/* InfiniBand addressing; the test device's LID is its port number. */
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_LID]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(k->tb[RDMA_NLDEV_ATTR_LID]), 2);
	KUNIT_EXPECT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_SUBNET_PREFIX]);
	KUNIT_EXPECT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_LMC]);
	KUNIT_EXPECT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_CAP_FLAGS]);
	KUNIT_EXPECT_NULL(test, k->tb[RDMA_NLDEV_ATTR_NDEV_NAME]);

	nlk_new_dev(k, RDMA_NLDEV_CMD_PORT_GET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 3),
			0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new_dev(k, RDMA_NLDEV_CMD_PORT_GET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 0),
			0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new_dev(k, RDMA_NLDEV_CMD_PORT_GET, nd_index(td));
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	/* The port failing its query fails the request. */
	tdev_fail(td, TDEV_FAIL_QUERY_PORT, true);
	nlk_new_dev(k, RDMA_NLDEV_CMD_PORT_GET, nd_index(td));
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 1),
			0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EIO);
	tdev_fail(td, TDEV_FAIL_QUERY_PORT, false);
}

static int nd_count_ports(struct nlk *k, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	u32 *mask = arg;

	KUNIT_ASSERT_EQ(k->test, nlk_parse(nlh, tb), 0);
	nd_expect_port(k->test, tb, tb[RDMA_NLDEV_ATTR_PORT_INDEX] ?
		       nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]) : 0);
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		*mask |= BIT(nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]));
	return 0;
}

/* The PORT_GET dump: every port of the device, once. */
static void nd_port_dump(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 3);
	u32 mask = 0;

	nlk_new_dev(k, RDMA_NLDEV_CMD_PORT_GET, nd_index(td));
	KUNIT_EXPECT_EQ(test, nlk_dump(k, nd_count_ports, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, BIT(1) | BIT(2) | BIT(3));
	KUNIT_EXPECT_EQ(test, k->msgs, 3);
	nlk_new(k, RDMA_NLDEV_CMD_PORT_GET);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
	nlk_new_dev(k, RDMA_NLDEV_CMD_PORT_GET, 0x7ffffff);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
}

/* A RoCE device: protocol, no LID, and the port's net device. */
static void nd_roce(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x10, 0x20, 0x30, 0x40, 0x50 };
	struct tdev_params p = { .name = "ktnl%d",
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct nlk *k = test->priv;
	struct net_device *ndev;
	struct tdev *td;

	ndev = alloc_netdev(0, "ktnlnet", NET_NAME_PREDICTABLE, ether_setup);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	eth_hw_addr_set(ndev, mac);
	p.ndev = ndev;
	td = tdev_create_registered(&p);
	if (IS_ERR(td)) {
		free_netdev(ndev);
		KUNIT_FAIL(test, "tdev: %ld", PTR_ERR(td));
		return;
	}
	nlk_new_dev(k, RDMA_NLDEV_CMD_GET, nd_index(td));
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	if (k->tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL])
		KUNIT_EXPECT_STREQ(test,
				   nla_data(k->tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]),
				   "roce");
	else
		KUNIT_FAIL(test, "no DEV_PROTOCOL");
	nlk_new_dev(k, RDMA_NLDEV_CMD_PORT_GET, nd_index(td));
	KUNIT_EXPECT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 1),
			0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_NULL(test, k->tb[RDMA_NLDEV_ATTR_LID]);
	KUNIT_EXPECT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);
	if (k->tb[RDMA_NLDEV_ATTR_NDEV_NAME])
		KUNIT_EXPECT_STREQ(test, nla_data(k->tb[RDMA_NLDEV_ATTR_NDEV_NAME]),
				   "ktnlnet");
	else
		KUNIT_FAIL(test, "no NDEV_NAME");
	tdev_destroy(td);
	free_netdev(ndev);
}

/* A character device the suite's clients report; one per test. */
static struct device *nd_cdev;

static void nd_cdev_release(struct device *dev)
{
	kfree(dev);
}

static atomic_t nd_nl_calls;
static u32 nd_nl_port;

static int nd_get_nl_info(struct ib_device *device, void *data,
			  struct ib_client_nl_info *info)
{
	atomic_inc(&nd_nl_calls);
	nd_nl_port = info->port;
	if (device->use_cq_dim)	/* the suite's way to make it fail */
		return -ENOENT;
	info->cdev = nd_cdev;
	info->abi = 7;
	return nla_put_u32(info->nl_msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, 99);
}

static int nd_get_global_nl_info(struct ib_client_nl_info *info)
{
	atomic_inc(&nd_nl_calls);
	info->cdev = nd_cdev;
	info->abi = 4;
	return 0;
}

static int nd_client_add(struct ib_device *device)
{
	return 0;
}

static void nd_client_remove(struct ib_device *device, void *data)
{
}

static struct ib_client nd_chardev_client = {
	.name = "ktchar",
	.add = nd_client_add,
	.remove = nd_client_remove,
	.get_nl_info = nd_get_nl_info,
	.get_global_nl_info = nd_get_global_nl_info,
	.no_kverbs_req = true,
};

static struct ib_client nd_quiet_client = {
	.name = "ktquiet",
	.add = nd_client_add,
	.remove = nd_client_remove,
	.no_kverbs_req = true,
};

static int nd_chardev(struct nlk *k, const char *type, s64 index, s64 port)
{
	nlk_new(k, RDMA_NLDEV_CMD_GET_CHARDEV);
	KUNIT_ASSERT_EQ(k->test, nla_put_string(k->req,
						RDMA_NLDEV_ATTR_CHARDEV_TYPE,
						type), 0);
	if (index >= 0)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req,
						     RDMA_NLDEV_ATTR_DEV_INDEX,
						     index), 0);
	if (port >= 0)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req,
						     RDMA_NLDEV_ATTR_PORT_INDEX,
						     port), 0);
	return nlk_doit(k);
}

static int nd_chardev_init(struct kunit *test)
{
	nd_cdev = kzalloc(sizeof(*nd_cdev), GFP_KERNEL);
	if (!nd_cdev)
		return -ENOMEM;
	device_initialize(nd_cdev);
	nd_cdev->release = nd_cdev_release;
	nd_cdev->devt = MKDEV(231, 200);
	atomic_set(&nd_nl_calls, 0);
	return nd_init(test) ?:
	       dev_set_name(nd_cdev, "ktchar0") ?:
	       ib_register_client(&nd_chardev_client) ?:
	       ib_register_client(&nd_quiet_client);
}

static void nd_chardev_exit(struct kunit *test)
{
	ib_unregister_client(&nd_quiet_client);
	ib_unregister_client(&nd_chardev_client);
	/* The clients' references are back: the last one frees the name. */
	KUNIT_EXPECT_EQ(test, kref_read(&nd_cdev->kobj.kref), 1);
	put_device(nd_cdev);
}

/* GET_CHARDEV of a device: what the client says, and the device's ids. */
static void nd_chardev_device(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 2);
	struct nlattr **tb = k->tb;

	KUNIT_ASSERT_EQ(test, nd_chardev(k, "ktchar", nd_index(td), -1), 0);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_CHARDEV]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV]),
			huge_encode_dev(MKDEV(231, 200)));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]), 7);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]);
	KUNIT_EXPECT_STREQ(test, nla_data(tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]),
			   "ktchar0");
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]),
			99);
	KUNIT_EXPECT_EQ(test, nd_nl_port, U32_MAX);
	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktchar", nd_index(td), 2), 0);
	KUNIT_EXPECT_EQ(test, nd_nl_port, 2);
	/* The global character device of the client. */
	KUNIT_ASSERT_EQ(test, nd_chardev(k, "ktchar", -1, -1), 0);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd_nl_calls), 3);
	KUNIT_EXPECT_EQ(test, kref_read(&nd_cdev->kobj.kref), 1);
}

/* GET_CHARDEV refusals. */
static void nd_chardev_bad(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 1);

	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktnone", nd_index(td), -1),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktquiet", nd_index(td), -1),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktquiet", -1, -1), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktchar", -1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktchar", nd_index(td), 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktchar", 0x7ffffff, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd_nl_calls), 0);
	/* A client's own -ENOENT is not "no such client". */
	td->ibdev.use_cq_dim = 1;
	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktchar", nd_index(td), -1), -EINVAL);
	td->ibdev.use_cq_dim = 0;
	/* No type; and GET_CHARDEV parses strictly: CAP_FLAGS is unknown. */
	nlk_new(k, RDMA_NLDEV_CMD_GET_CHARDEV);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new(k, RDMA_NLDEV_CMD_GET_CHARDEV);
	KUNIT_ASSERT_EQ(test, nla_put_string(k->req, RDMA_NLDEV_ATTR_CHARDEV_TYPE,
					     "ktchar"), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u64_64bit(k->req, RDMA_NLDEV_ATTR_CAP_FLAGS,
						0, RDMA_NLDEV_ATTR_PAD), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	KUNIT_EXPECT_EQ(test, kref_read(&nd_cdev->kobj.kref), 1);
}

/*
 * A client whose add() for one device waits until the case lets it go, as
 * ib_uverbs' add() takes its time making the uverbsN device while
 * libibverbs asks for it over netlink.  Its data is set only at the end.
 */
static struct ib_device *nd_slow_dev;
static DECLARE_COMPLETION(nd_slow_entered);
static DECLARE_COMPLETION(nd_slow_release);
static DECLARE_COMPLETION(nd_slow_registered);
static atomic_t nd_slow_nl_calls;
static atomic_t nd_slow_renames;
static int nd_slow_data;
static struct ib_client nd_slow_client;

static int nd_slow_add(struct ib_device *device)
{
	if (device != nd_slow_dev)
		return 0;
	complete(&nd_slow_entered);
	wait_for_completion(&nd_slow_release);
	ib_set_client_data(device, &nd_slow_client, &nd_slow_data);
	return 0;
}

static int nd_slow_get_nl_info(struct ib_device *device, void *data,
			       struct ib_client_nl_info *info)
{
	atomic_inc(&nd_slow_nl_calls);
	if (data != &nd_slow_data)
		return -EINVAL;
	info->cdev = nd_cdev;
	info->abi = 5;
	return 0;
}

static void nd_slow_rename(struct ib_device *device, void *data)
{
	if (data == &nd_slow_data)
		atomic_inc(&nd_slow_renames);
	else
		atomic_add(100, &nd_slow_renames);
}

static struct ib_client nd_slow_client = {
	.name = "ktslow",
	.add = nd_slow_add,
	.remove = nd_client_remove,
	.rename = nd_slow_rename,
	.get_nl_info = nd_slow_get_nl_info,
	.no_kverbs_req = true,
};

static int nd_slow_register(void *unused)
{
	int ret = ib_register_client(&nd_slow_client);

	complete_all(&nd_slow_registered);
	return ret;
}

/* Lets a stopped case's add() go and unregisters the client. */
static void nd_slow_exit(struct kunit *test)
{
	if (nd_slow_dev) {
		complete_all(&nd_slow_release);
		wait_for_completion(&nd_slow_registered);
		ib_unregister_client(&nd_slow_client);
		nd_slow_dev = NULL;
	}
	nd_chardev_exit(test);
}

/*
 * While a client's add() for a device runs, GET_CHARDEV does not ask the
 * client (it has no data for the device yet) and a rename does not tell
 * it; once add() returned, both do.
 */
static void nd_chardev_during_add(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 1);
	struct task_struct *t;

	reinit_completion(&nd_slow_entered);
	reinit_completion(&nd_slow_release);
	reinit_completion(&nd_slow_registered);
	atomic_set(&nd_slow_nl_calls, 0);
	atomic_set(&nd_slow_renames, 0);
	nd_slow_dev = &td->ibdev;
	t = kthread_run(nd_slow_register, NULL, "kt-slow-client");
	if (IS_ERR(t)) {
		nd_slow_dev = NULL;
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&nd_slow_entered,
							  30 * HZ), 0);

	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktslow", nd_index(td), -1),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, nd_set_name(k, td, "ktnlslow0"), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd_slow_nl_calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd_slow_renames), 0);

	complete(&nd_slow_release);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&nd_slow_registered,
							  30 * HZ), 0);
	KUNIT_EXPECT_EQ(test, nd_chardev(k, "ktslow", nd_index(td), -1), 0);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(k->tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]), 5);
	KUNIT_EXPECT_EQ(test, nd_set_name(k, td, "ktnlslow1"), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd_slow_nl_calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&nd_slow_renames), 1);
}

/* SYS_GET: the settings libibverbs and "rdma system" read. */
static void nd_sys_get(struct kunit *test)
{
	struct nlk *k = test->priv;

	nlk_new(k, RDMA_NLDEV_CMD_SYS_GET);
	KUNIT_ASSERT_EQ(test, nlk_doit(k), 0);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(k->tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]),
			1);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(k->tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]),
			1);
	KUNIT_EXPECT_NOT_NULL(test,
			      k->tb[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE]);
	/* Strict: an attribute without a type is refused, so is junk. */
	nlk_new(k, RDMA_NLDEV_CMD_SYS_GET);
	KUNIT_ASSERT_EQ(test, nla_put_u64_64bit(k->req, RDMA_NLDEV_ATTR_CAP_FLAGS,
						0, RDMA_NLDEV_ATTR_PAD), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new(k, RDMA_NLDEV_CMD_SYS_GET);
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_MAX + 3, 1), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
}

static int nd_sys_set(struct nlk *k, int attr, u8 value)
{
	nlk_new(k, RDMA_NLDEV_CMD_SYS_SET);
	if (attr)
		KUNIT_ASSERT_EQ(k->test, nla_put_u8(k->req, attr, value), 0);
	return nlk_doit(k);
}

/* SYS_SET of the privileged Q_Key mode, read by an export. */
static void nd_sys_qkey(struct kunit *test)
{
	const int attr = RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE;
	struct nlk *k = test->priv;
	const struct cred *old;

	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 0), 0);
	old = nlk_drop_cap(CAP_NET_RAW);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_EXPECT_FALSE(test, rdma_nl_get_privileged_qkey());
	nlk_restore_cap(old);
	KUNIT_EXPECT_TRUE(test, rdma_nl_get_privileged_qkey());
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 1), 0);
	old = nlk_drop_cap(CAP_NET_RAW);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_EXPECT_TRUE(test, rdma_nl_get_privileged_qkey());
	nlk_restore_cap(old);
	nlk_new(k, RDMA_NLDEV_CMD_SYS_GET);
	KUNIT_ASSERT_EQ(test, nlk_doit(k), 0);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[attr]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(k->tb[attr]), 1);
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 0), 0);
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, 0, 0), -EINVAL);
	old = nlk_drop_cap(CAP_NET_ADMIN);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 1), -EPERM);
	nlk_restore_cap(old);
}

/*
 * SYS_SET of the namespace mode, and rdma_dev_access_netns().  Exclusive
 * mode needs the initial namespace to be the only one; if another exists,
 * the change is refused with -EBUSY and the rest is skipped.
 */
static void nd_sys_netns(struct kunit *test)
{
	const int attr = RDMA_NLDEV_SYS_ATTR_NETNS_MODE;
	struct nlk *k = test->priv;
	struct tdev *td = nd_dev(test, "ktnl%d", 1);
	struct net *other;
	int ret;

	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_EXPECT_TRUE(test, rdma_dev_access_netns(&td->ibdev, other));
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 1), 0);
	ret = nd_sys_set(k, attr, 0);
	if (ret == -EBUSY)
		kunit_skip(test, "other network namespaces exist");
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_FALSE(test, rdma_dev_access_netns(&td->ibdev, other));
	KUNIT_EXPECT_TRUE(test, rdma_dev_access_netns(&td->ibdev, &init_net));
	/* Our socket is in the device's namespace: it still sees it. */
	nlk_new_dev(k, RDMA_NLDEV_CMD_GET, nd_index(td));
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	nlk_new(k, RDMA_NLDEV_CMD_SYS_GET);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_TRUE(test, k->tb[attr] && !nla_get_u8(k->tb[attr]));
	/* Back to shared, whatever happened above. */
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 1), 0);
	KUNIT_EXPECT_TRUE(test, rdma_dev_access_netns(&td->ibdev, other));
}

/* Whether @path names a file (the helper of nd_sys_netns_busy made it). */
static bool nd_file_exists(const char *path)
{
	struct file *f = filp_open(path, O_RDONLY, 0);

	if (IS_ERR(f))
		return false;
	filp_close(f, NULL);
	return true;
}

/*
 * Exclusive mode is refused (-EBUSY) while a network namespace other than
 * the initial one exists: its devices would be stranded.  KUnit cannot
 * make a namespace (copy_net_ns() is not exported), so a user-mode helper
 * does, as "ip netns add" would: unshare(1) into a new one, where it tells
 * the case by a file and stays five seconds.
 */
static void nd_sys_netns_busy(struct kunit *test)
{
	const int attr = RDMA_NLDEV_SYS_ATTR_NETNS_MODE;
	struct nlk *k = test->priv;
	char *argv[6], *envp[2], *ready, *cmd;
	int i, ret;

	/* A file of this run's own: a boot may run the suite again */
	ready = kunit_kzalloc(test, 64, GFP_KERNEL);
	cmd = kunit_kzalloc(test, 96, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ready);
	KUNIT_ASSERT_NOT_NULL(test, cmd);
	snprintf(ready, 64, "/tmp/rdma_kunit_netns.%lu", jiffies);
	snprintf(cmd, 96, "touch %s; sleep 5", ready);
	argv[0] = "/usr/bin/unshare";
	argv[1] = "--net";
	argv[2] = "/bin/sh";
	argv[3] = "-c";
	argv[4] = cmd;
	argv[5] = NULL;
	envp[0] = "PATH=/usr/bin:/bin";
	envp[1] = NULL;
	if (call_usermodehelper(argv[0], argv, envp, UMH_WAIT_EXEC))
		kunit_skip(test, "no unshare(1) to make a network namespace");
	for (i = 0; i < 100 && !nd_file_exists(ready); i++)
		msleep(100);
	KUNIT_ASSERT_TRUE(test, nd_file_exists(ready));
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 0), -EBUSY);
	/* The namespace goes with the helper; then exclusive is allowed */
	for (i = 0; i < 300; i++) {
		ret = nd_sys_set(k, attr, 0);
		if (ret != -EBUSY)
			break;
		msleep(100);
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, nd_sys_set(k, attr, 1), 0);
}

static struct kunit_case nd_dev_cases[] = {
	KUNIT_CASE(nd_get_doit),
	KUNIT_CASE(nd_get_bad),
	KUNIT_CASE(nd_get_dump),
	KUNIT_CASE(nd_rename),
	KUNIT_CASE(nd_rename_bad),
	KUNIT_CASE(nd_set_other),
	KUNIT_CASE(nd_set_netns),
	KUNIT_CASE(nd_port_doit),
	KUNIT_CASE(nd_port_dump),
	KUNIT_CASE(nd_roce),
	KUNIT_CASE(nd_sys_get),
	KUNIT_CASE(nd_sys_qkey),
	KUNIT_CASE(nd_sys_netns),
	KUNIT_CASE(nd_sys_netns_busy),
	{}
};

static struct kunit_suite nd_dev_suite = {
	.name = "rdma_nldev_dev",
	.init = nd_init,
	.test_cases = nd_dev_cases,
};

static struct kunit_case nd_chardev_cases[] = {
	KUNIT_CASE(nd_chardev_device),
	KUNIT_CASE(nd_chardev_bad),
	KUNIT_CASE(nd_chardev_during_add),
	{}
};

static struct kunit_suite nd_chardev_suite = {
	.name = "rdma_nldev_chardev",
	.init = nd_chardev_init,
	.exit = nd_slow_exit,
	.test_cases = nd_chardev_cases,
};

kunit_test_suites(&nd_dev_suite, &nd_chardev_suite);
