// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of link types (core/nl/link.c): rdma_link_register(),
 * NEWLINK through a link type the suite registers, which makes test
 * devices on the loopback net device, and DELLINK.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include "nlk.h"

/* What the suite's link type saw, and the device it made. */
static struct tdev *lk_made;
static char lk_name[IB_DEVICE_NAME_MAX];
static struct net_device *lk_ndev;

/* Test devices that users may delete: tdev's query_device plus the flag. */
static int (*lk_tdev_query_device)(struct ib_device *device,
				   struct ib_device_attr *attr,
				   struct ib_udata *udata);

static int lk_query_device(struct ib_device *device,
			   struct ib_device_attr *attr, struct ib_udata *udata)
{
	int ret = lk_tdev_query_device(device, attr, udata);

	attr->kernel_cap_flags |= IBK_ALLOW_USER_UNREG;
	return ret;
}

static struct tdev *lk_create(const char *name, bool user_unreg)
{
	struct tdev_params p = { .name = name, .dealloc_driver = true };
	struct tdev *td = tdev_create(&p);

	if (IS_ERR(td))
		return td;
	if (user_unreg) {
		lk_tdev_query_device = td->ibdev.ops.query_device;
		td->ibdev.ops.query_device = lk_query_device;
	}
	if (tdev_register(td)) {
		ib_dealloc_device(&td->ibdev);
		return ERR_PTR(-EIO);
	}
	return td;
}

static int lk_newlink(const char *name, struct net_device *ndev)
{
	struct tdev *td;

	strscpy(lk_name, name, sizeof(lk_name));
	lk_ndev = ndev;
	td = lk_create(name, true);
	if (IS_ERR(td))
		return PTR_ERR(td);
	lk_made = td;
	return 0;
}

static int lk_newlink_busy(const char *name, struct net_device *ndev)
{
	return -EBUSY;
}

static struct rdma_link_ops lk_ops = {
	.type = "ktlink",
	.newlink = lk_newlink,
};

static struct rdma_link_ops lk_ops_dup = {
	.type = "ktlink",
	.newlink = lk_newlink_busy,
};

static struct rdma_link_ops lk_ops_unnamed = {
	.newlink = lk_newlink_busy,
};

static int lk_init(struct kunit *test)
{
	lk_made = NULL;
	lk_name[0] = '\0';
	lk_ndev = NULL;
	test->priv = nlk_open(test);
	rdma_link_register(&lk_ops);
	return 0;
}

static void lk_exit(struct kunit *test)
{
	rdma_link_unregister(&lk_ops);
	if (lk_made)
		tdev_destroy(lk_made);
}

static int lk_newlink_req(struct nlk *k, const char *name, const char *type,
			  const char *ndev)
{
	nlk_new(k, RDMA_NLDEV_CMD_NEWLINK);
	if (name)
		KUNIT_ASSERT_EQ(k->test, nla_put_string(k->req,
				RDMA_NLDEV_ATTR_DEV_NAME, name), 0);
	if (type)
		KUNIT_ASSERT_EQ(k->test, nla_put_string(k->req,
				RDMA_NLDEV_ATTR_LINK_TYPE, type), 0);
	if (ndev)
		KUNIT_ASSERT_EQ(k->test, nla_put_string(k->req,
				RDMA_NLDEV_ATTR_NDEV_NAME, ndev), 0);
	return nlk_doit(k);
}

static int lk_dellink(struct nlk *k, u32 index)
{
	nlk_new_dev(k, RDMA_NLDEV_CMD_DELLINK, index);
	return nlk_doit(k);
}

/* NEWLINK makes a device through its type; DELLINK takes it away. */
static void lk_add_delete(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct ib_device *found;
	int freed = atomic_read(&tdev_dealloc_driver_calls);

	KUNIT_ASSERT_EQ(test, lk_newlink_req(k, "ktlink0", "ktlink", "lo"), 0);
	KUNIT_ASSERT_NOT_NULL(test, lk_made);
	KUNIT_EXPECT_STREQ(test, lk_name, "ktlink0");
	KUNIT_EXPECT_STREQ(test, lk_ndev ? lk_ndev->name : "", "lo");
	found = ib_device_get_by_name("ktlink0", RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_PTR_EQ(test, found, &lk_made->ibdev);
	ib_device_put(found);

	KUNIT_EXPECT_EQ(test, lk_dellink(k, lk_made->ibdev.index), 0);
	/* The core unregistered and freed it. */
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktlink0",
						      RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			freed + 1);
	lk_made = NULL;
}

/* NEWLINK refusals: missing attributes, bad names, unknown ndev or type. */
static void lk_add_bad(struct kunit *test)
{
	struct nlk *k = test->priv;

	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, NULL, "ktlink", "lo"), -EINVAL);
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink1", NULL, "lo"), -EINVAL);
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink1", "ktlink", NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink%d", "ktlink", "lo"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "", "ktlink", "lo"), -EINVAL);
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink1", "ktlink", "ktnodev"),
			-ENODEV);
	/* Nobody offers the type, and no module does either. */
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink1", "ktnotype", "lo"),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, lk_made);
	/* A name without its NUL is refused by the policy. */
	nlk_new(k, RDMA_NLDEV_CMD_NEWLINK);
	KUNIT_ASSERT_EQ(test, nla_put(k->req, RDMA_NLDEV_ATTR_DEV_NAME, 3, "abc"),
			0);
	KUNIT_ASSERT_EQ(test, nla_put_string(k->req, RDMA_NLDEV_ATTR_LINK_TYPE,
					     "ktlink"), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(k->req, RDMA_NLDEV_ATTR_NDEV_NAME,
					     "lo"), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	KUNIT_EXPECT_NULL(test, lk_made);
}

/* NEWLINK and DELLINK need CAP_NET_ADMIN. */
static void lk_perm(struct kunit *test)
{
	struct nlk *k = test->priv;
	const struct cred *old;
	struct tdev *td = lk_create("ktlinkp", true);

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	old = nlk_drop_cap(CAP_NET_ADMIN);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink2", "ktlink", "lo"),
			-EPERM);
	KUNIT_EXPECT_EQ(test, lk_dellink(k, td->ibdev.index), -EPERM);
	nlk_restore_cap(old);
	KUNIT_EXPECT_NULL(test, lk_made);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&td->ibdev.dev));
	tdev_destroy(td);
}

/* DELLINK only for drivers that allow it, and only of a device it names. */
static void lk_delete_bad(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct tdev *td = lk_create("ktlinkn", false);

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	KUNIT_EXPECT_EQ(test, lk_dellink(k, td->ibdev.index), -EINVAL);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&td->ibdev.dev));
	KUNIT_EXPECT_EQ(test, lk_dellink(k, 0x7ffffff), -EINVAL);
	nlk_new(k, RDMA_NLDEV_CMD_DELLINK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	tdev_destroy(td);
}

/* A second type of the same name, or one without a name, is refused. */
static void lk_register_bad(struct kunit *test)
{
	struct nlk *k = test->priv;

	rdma_link_register(&lk_ops_dup);
	rdma_link_register(&lk_ops_unnamed);
	/* The first registration still creates the device. */
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink3", "ktlink", "lo"), 0);
	KUNIT_EXPECT_NOT_NULL(test, lk_made);
	/* Withdrawing what was never registered changes nothing. */
	rdma_link_unregister(&lk_ops_dup);
	rdma_link_unregister(&lk_ops_unnamed);
	if (lk_made) {
		tdev_destroy(lk_made);
		lk_made = NULL;
	}
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink4", "ktlink", "lo"), 0);
	KUNIT_EXPECT_NOT_NULL(test, lk_made);
	/* After unregistering, the type is gone. */
	rdma_link_unregister(&lk_ops);
	KUNIT_EXPECT_EQ(test, lk_newlink_req(k, "ktlink5", "ktlink", "lo"),
			-EINVAL);
	rdma_link_register(&lk_ops);
}

static struct kunit_case lk_cases[] = {
	KUNIT_CASE(lk_add_delete),
	KUNIT_CASE(lk_add_bad),
	KUNIT_CASE(lk_perm),
	KUNIT_CASE(lk_delete_bad),
	KUNIT_CASE(lk_register_bad),
	{}
};

static struct kunit_suite lk_suite = {
	.name = "rdma_nldev_link",
	.init = lk_init,
	.exit = lk_exit,
	.test_cases = lk_cases,
};

kunit_test_suite(lk_suite);
