// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_gid: core/device/cache.c, the GID tables: made by
 * the core (InfiniBand from the node GUID, RoCE from the port's netdev) or
 * read from the driver, GID attributes and their references, lookups,
 * the driver's context of an entry, rdma_find_gid() over every port.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <rdma/ib_cache.h>
#include "tk.h"

static void gid_ib_default(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktgi%d");
	union ib_gid gid;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(gid.global.subnet_prefix),
			0xfe80000000000000ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(gid.global.interface_id),
			be64_to_cpu(td->ibdev.node_guid));
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 1, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 16, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, -1, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 0, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 2, 0, &gid), -EINVAL);
	tdev_destroy(td);
}

static void gid_roce_from_netdev(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktgr%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	static const u8 want[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
				     0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44,
				     0x55 };
	const struct ib_gid_attr *v1, *v2;

	v1 = rdma_get_gid_attr(&td->ibdev, 1, 0);
	v2 = rdma_get_gid_attr(&td->ibdev, 1, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(v1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(v2));
	KUNIT_EXPECT_EQ(test, memcmp(v1->gid.raw, want, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(v2->gid.raw, want, 16), 0);
	KUNIT_EXPECT_EQ(test, v1->gid_type, IB_GID_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, v2->gid_type, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(v1->ndev), ndev);
	KUNIT_EXPECT_PTR_EQ(test, v1->device, &td->ibdev);
	KUNIT_EXPECT_EQ(test, v1->port_num, 1U);
	KUNIT_EXPECT_EQ(test, v2->index, 1);
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_get_gid_attr(&td->ibdev, 1, 2)));
	rdma_put_gid_attr(v1);
	rdma_put_gid_attr(v2);
	tdev_destroy(td);
	tk_netdev_free(ndev);
}

static void gid_roce_without_netdev(struct kunit *test)
{
	struct tdev_params p = { .name = "ktgn%d",
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	union ib_gid gid;

	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&td->ibdev, 1, 0)),
			-ENODATA);
	tdev_destroy(td);
}

/* As in-tree: a netdev the stack does not know gives no GIDs. */
static void gid_roce_unregistered_netdev(struct kunit *test)
{
	struct net_device *ndev = tk_netdev_unregistered(test);
	struct tdev_params p = { .name = "ktgu%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct net_device *known = tk_netdev(test);
	struct tdev *td = tk_dev(test, &p);
	union ib_gid gid;

	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 1, &gid), -EINVAL);
	/* A registered one on the same port does, until it goes again */
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, known, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	tdev_destroy(td);
	tk_netdev_free(known);
	free_netdev(ndev);
}

static void gid_attr_ndev_rcu(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params eth = { .name = "ktgr%d", .ndev = ndev,
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *a = tk_dev(test, &eth), *b = tk_dev_named(test, "ktgri%d");
	const struct ib_gid_attr *attr, *ib;
	struct net_device *got;

	attr = rdma_get_gid_attr(&a->ibdev, 1, 0);
	ib = rdma_get_gid_attr(&b->ibdev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ib));
	rcu_read_lock();
	got = rdma_read_gid_attr_ndev_rcu(attr);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, got, ndev);
	/* An InfiniBand GID has no netdev */
	rcu_read_lock();
	got = rdma_read_gid_attr_ndev_rcu(ib);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(got), -ENODEV);
	/* An entry that left its table (the port lost its netdev) */
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&a->ibdev, NULL, 1), 0);
	rcu_read_lock();
	got = rdma_read_gid_attr_ndev_rcu(attr);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(got), -EINVAL);
	rdma_put_gid_attr(attr);
	rdma_put_gid_attr(ib);
	tdev_destroy(a);
	tdev_destroy(b);
	tk_netdev_free(ndev);
}

static void gid_attr_errors(struct kunit *test)
{
	struct tdev_params p = { .name = "ktge%d", .gid_tbl_len = 4 };
	struct tdev *td = tk_dev(test, &p);

	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&td->ibdev, 1, 4)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&td->ibdev, 2, 0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&td->ibdev, 1, 3)),
			-ENODATA);
	tdev_destroy(td);
}

static void gid_attr_outlives_device(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktgo%d");
	const struct ib_gid_attr *attr = rdma_get_gid_attr(&td->ibdev, 1, 0);
	__be64 guid = td->ibdev.node_guid;

	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	rdma_hold_gid_attr(attr);
	tdev_destroy(td);
	/* The attribute (and the device memory it points to) stay valid. */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(attr->gid.global.interface_id),
			be64_to_cpu(guid));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(attr->device->node_guid),
			be64_to_cpu(guid));
	rdma_put_gid_attr(attr);
	rdma_put_gid_attr(attr);
}

static void gid_find_by_port(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct net_device *other = tk_netdev(test);
	struct tdev_params p = { .name = "ktgf%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 1, &gid), 0);
	attr = rdma_find_gid_by_port(&td->ibdev, &gid,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, 1, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, attr->index, 1);
	rdma_put_gid_attr(attr);
	attr = rdma_find_gid_by_port(&td->ibdev, &gid, IB_GID_TYPE_ROCE, 1,
				     ndev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, attr->index, 0);
	rdma_put_gid_attr(attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(&td->ibdev, &gid,
				IB_GID_TYPE_ROCE, 1, other)), -ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(&td->ibdev, &gid,
				IB_GID_TYPE_ROCE, 2, NULL)), -EINVAL);
	gid.raw[15] ^= 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(&td->ibdev, &gid,
				IB_GID_TYPE_ROCE, 1, NULL)), -ENOENT);
	tdev_destroy(td);
	tk_netdev_free(ndev);
	tk_netdev_free(other);
}

/*
 * rdma_find_gid() searches every port, by value and type (and netdev when
 * given); the entry it finds is held.
 */
static void gid_find_any_port(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct net_device *other = tk_netdev(test);
	struct tdev_params p = { .name = "ktgfa%d", .ndev = ndev, .ports = 2,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev_params ib = { .name = "ktgfi%d", .ports = 3 };
	struct tdev *td = tk_dev(test, &p), *ti = tk_dev(test, &ib);
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 1, &gid), 0);
	attr = rdma_find_gid(&td->ibdev, &gid, IB_GID_TYPE_ROCE_UDP_ENCAP,
			     NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, attr->port_num, 1U);
	KUNIT_EXPECT_EQ(test, attr->index, 1);
	KUNIT_EXPECT_PTR_EQ(test, attr->device, &td->ibdev);
	rdma_put_gid_attr(attr);
	attr = rdma_find_gid(&td->ibdev, &gid, IB_GID_TYPE_ROCE, ndev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, attr->index, 0);
	rdma_put_gid_attr(attr);
	/* InfiniBand ports share the default GID: the first port's is found */
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&ti->ibdev, 3, 0, &gid), 0);
	attr = rdma_find_gid(&ti->ibdev, &gid, IB_GID_TYPE_IB, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, attr->port_num, 1U);
	rdma_put_gid_attr(attr);
	/* Bad input: another netdev, another type, another value */
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 2, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid(&td->ibdev, &gid,
				IB_GID_TYPE_ROCE, other)), -ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid(&td->ibdev, &gid,
				IB_GID_TYPE_IB, NULL)), -ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid(&ti->ibdev, &zgid,
				IB_GID_TYPE_IB, NULL)), -ENOENT);
	gid.raw[15] ^= 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid(&td->ibdev, &gid,
				IB_GID_TYPE_ROCE, NULL)), -ENOENT);
	tdev_destroy(ti);
	tdev_destroy(td);
	tk_netdev_free(ndev);
	tk_netdev_free(other);
}

static void gid_l2_fields(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params eth = { .name = "ktgl%d", .ndev = ndev,
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev_params ib = { .name = "ktgli%d" };
	struct tdev *a = tk_dev(test, &eth), *b = tk_dev(test, &ib);
	const struct ib_gid_attr *attr;
	u8 mac[ETH_ALEN] = {};
	u16 vlan = 0;

	attr = rdma_get_gid_attr(&a->ibdev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, &vlan, mac), 0);
	KUNIT_EXPECT_EQ(test, vlan, 0xffff);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, ndev->dev_addr));
	rdma_put_gid_attr(attr);
	attr = rdma_get_gid_attr(&b->ibdev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, &vlan, mac),
			-ENODEV);
	rdma_put_gid_attr(attr);
	tdev_destroy(a);
	tdev_destroy(b);
	tk_netdev_free(ndev);
}

static void gid_follows_set_netdev(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktgs%d",
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	union ib_gid gid;

	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, gid.raw[15], 0x55);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, NULL, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	tdev_destroy(td);
	tk_netdev_free(ndev);
}

static void gid_driver_query_fails(struct kunit *test)
{
	struct tdev_params p = { .name = "ktgq%d", .driver_gids = true };
	union ib_gid g = { .raw = { 0xfe, 0x80, [15] = 7 } };
	struct tdev *td = tk_new_dev(test, &p);
	union ib_gid got;

	KUNIT_ASSERT_EQ(test, tdev_set_gid(td, 1, 0, &g), 0);
	tdev_fail(td, TDEV_FAIL_QUERY_GID, true);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &got), -EINVAL);
	tdev_fail(td, TDEV_FAIL_QUERY_GID, false);
	tdev_port_event(td, 1, IB_EVENT_GID_CHANGE);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(!rdma_query_gid(&td->ibdev, 1, 0,
							    &got)));
	KUNIT_EXPECT_EQ(test, got.raw[15], 7);
	tdev_destroy(td);
}

/*
 * The driver's context of each GID entry (rdma_read_gid_hw_context()):
 * what its add_gid stored for that entry, NULL for a driver without
 * add_gid; the driver's del_gid takes it back when the entry leaves.
 */
static void gid_hw_context(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktgh%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET,
				 .gid_ctx = true };
	struct tdev_params plain = { .name = "ktghp%d", .ndev = ndev,
				     .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p), *pd = tk_dev(test, &plain);
	const struct ib_gid_attr *v1, *v2, *other;
	const struct tdev_gid_ctx *c1, *c2;

	v1 = rdma_get_gid_attr(&td->ibdev, 1, 0);
	v2 = rdma_get_gid_attr(&td->ibdev, 1, 1);
	other = rdma_get_gid_attr(&pd->ibdev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(v1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(v2));
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	c1 = rdma_read_gid_hw_context(v1);
	c2 = rdma_read_gid_hw_context(v2);
	KUNIT_ASSERT_NOT_NULL(test, c1);
	KUNIT_ASSERT_NOT_NULL(test, c2);
	KUNIT_EXPECT_PTR_NE(test, c1, c2);
	KUNIT_EXPECT_EQ(test, c1->port, 1U);
	KUNIT_EXPECT_EQ(test, c1->index, 0U);
	KUNIT_EXPECT_EQ(test, c2->index, 1U);
	KUNIT_EXPECT_EQ(test, memcmp(&c1->gid, &v1->gid, sizeof(v1->gid)), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->ngid_ctxs), 2);
	/* No add_gid: no context */
	KUNIT_EXPECT_NULL(test, rdma_read_gid_hw_context(other));

	/* The entries leave with the netdev: the driver lets go of both */
	rdma_put_gid_attr(v1);
	rdma_put_gid_attr(v2);
	rdma_put_gid_attr(other);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, NULL, 1), 0);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(!atomic_read(&td->ngid_ctxs)));
	tdev_destroy(pd);
	tdev_destroy(td);
	tk_netdev_free(ndev);
}

static struct kunit_case gid_cases[] = {
	KUNIT_CASE(gid_ib_default),
	KUNIT_CASE(gid_roce_from_netdev),
	KUNIT_CASE(gid_roce_without_netdev),
	KUNIT_CASE(gid_roce_unregistered_netdev),
	KUNIT_CASE(gid_attr_ndev_rcu),
	KUNIT_CASE(gid_attr_errors),
	KUNIT_CASE(gid_attr_outlives_device),
	KUNIT_CASE(gid_find_by_port),
	KUNIT_CASE(gid_find_any_port),
	KUNIT_CASE(gid_l2_fields),
	KUNIT_CASE(gid_follows_set_netdev),
	KUNIT_CASE(gid_driver_query_fails),
	KUNIT_CASE(gid_hw_context),
	{}
};

static struct kunit_suite gid_suite = {
	.name = "rdma_core_gid",
	.test_cases = gid_cases,
};

kunit_test_suites(&gid_suite);
