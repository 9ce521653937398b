// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_roce_gids: core/netdev/roce_gids.c, the GID tables
 * of RoCE ports made from their netdev: the default GIDs from its MAC,
 * one GID per address (here an IPv6 link-local one, which the stack gives
 * a registered netdev when it comes up), updated by the notifiers, and by
 * rdma_roce_rescan_device() for changes the core cannot see.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <rdma/ib_cache.h>
#include "core/gid.h"
#include "tk.h"

/* Brings @ndev up or down, as "ip link set" would. */
static int tk_netdev_up(struct net_device *ndev, bool up)
{
	int ret = 0;

	rtnl_lock();
	if (up)
		ret = dev_open(ndev, NULL);
	else
		dev_close(ndev);
	rtnl_unlock();
	return ret;
}

/* The IPv6 link-local address of @ndev, if it has one yet. */
static bool tk_netdev_ipv6(struct net_device *ndev, union ib_gid *gid)
{
	const struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;
	bool found = false;

	rcu_read_lock();
	idev = __in6_dev_get(ndev);
	if (idev) {
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifp, &idev->addr_list, if_list) {
			if (ipv6_addr_type(&ifp->addr) & IPV6_ADDR_LINKLOCAL) {
				memcpy(gid->raw, &ifp->addr, sizeof(gid->raw));
				found = true;
				break;
			}
		}
		read_unlock_bh(&idev->lock);
	}
	rcu_read_unlock();
	return found;
}

/* The slot (>= 2) of @gid of @type on port 1, or -1. */
static int tk_gid_slot(struct ib_device *dev, const union ib_gid *gid,
		       enum ib_gid_type type)
{
	const struct ib_gid_attr *attr;
	int i, found = -1;

	for (i = 2; i < 16 && found < 0; i++) {
		attr = rdma_get_gid_attr(dev, 1, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == type && !memcmp(&attr->gid, gid, 16))
			found = i;
		rdma_put_gid_attr(attr);
	}
	return found;
}

/* Handlers learn of GID changes from IB_EVENT_GID_CHANGE. */
static atomic_t tk_gid_changes;

static void tk_gid_event(struct ib_event_handler *h, struct ib_event *e)
{
	if (e->event == IB_EVENT_GID_CHANGE)
		atomic_inc(&tk_gid_changes);
}

static void roce_gids_follow_address(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktrg%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	struct ib_event_handler h;
	char path[96];
	union ib_gid ll;

	INIT_IB_EVENT_HANDLER(&h, &td->ibdev, tk_gid_event);
	ib_register_event_handler(&h);
	atomic_set(&tk_gid_changes, 0);
	/* A random interface id: not the default GID's */
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/addr_gen_mode",
		 ndev->name);
	KUNIT_ASSERT_EQ(test, tk_file_write(path, "3"), 0);
	KUNIT_ASSERT_EQ(test, tk_netdev_up(ndev, true), 0);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(tk_netdev_ipv6(ndev, &ll)));
	/* One GID per RoCE version, after the default ones */
	KUNIT_EXPECT_TRUE(test, tk_wait_for(tk_gid_slot(&td->ibdev, &ll,
							IB_GID_TYPE_ROCE) >= 2 &&
					    tk_gid_slot(&td->ibdev, &ll,
							IB_GID_TYPE_ROCE_UDP_ENCAP) >= 2));
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&tk_gid_changes) > 0));
	/* Down: the address goes, and its GIDs */
	tk_netdev_up(ndev, false);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(tk_gid_slot(&td->ibdev, &ll,
							IB_GID_TYPE_ROCE) < 0 &&
					    tk_gid_slot(&td->ibdev, &ll,
							IB_GID_TYPE_ROCE_UDP_ENCAP) < 0));
	ib_unregister_event_handler(&h);
	tdev_destroy(td);
	tk_netdev_free(ndev);
}

/*
 * A change no notifier reports (the MAC written behind the stack's back)
 * is seen by rdma_roce_rescan_device(), at once.
 */
static void roce_gids_rescan_device(struct kunit *test)
{
	static const u8 mac2[ETH_ALEN] = { 0x02, 0x66, 0x77, 0x88, 0x99, 0xaa };
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktrr%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	struct tdev *ib = tk_dev_named(test, "ktrri%d");
	union ib_gid gid;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, gid.raw[15], 0x55);
	/* No scan the netdev's registration queued is still to come */
	flush_workqueue(ib_wq);
	rtnl_lock();
	eth_hw_addr_set(ndev, mac2);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, gid.raw[15], 0x55);
	rdma_roce_rescan_device(&td->ibdev);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, gid.raw[15], 0xaa);
	KUNIT_EXPECT_EQ(test, gid.raw[8], 0x00);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 1, &gid), 0);
	KUNIT_EXPECT_EQ(test, gid.raw[15], 0xaa);

	/* Not RoCE: the core does not keep its GIDs, nothing changes */
	rdma_roce_rescan_device(&ib->ibdev);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&ib->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(gid.global.interface_id),
			be64_to_cpu(ib->ibdev.node_guid));
	/* Unregistered: ignored */
	tdev_unregister(td);
	rdma_roce_rescan_device(&td->ibdev);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	tdev_destroy(td);
	tdev_destroy(ib);
	tk_netdev_free(ndev);
}

/*
 * More GIDs than the table holds: a table of 3 has the two default GIDs
 * and room for one of the link-local address's two; the other is left
 * out, nothing is written past the table.
 */
static void roce_gids_table_full(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktrf%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET,
				 .gid_tbl_len = 3 };
	struct tdev *td = tk_dev(test, &p);
	const struct ib_gid_attr *attr;
	char path[96];
	union ib_gid ll;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/addr_gen_mode",
		 ndev->name);
	KUNIT_ASSERT_EQ(test, tk_file_write(path, "3"), 0);
	KUNIT_ASSERT_EQ(test, tk_netdev_up(ndev, true), 0);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(tk_netdev_ipv6(ndev, &ll)));
	KUNIT_EXPECT_TRUE(test, tk_wait_for(tk_gid_slot(&td->ibdev, &ll,
							IB_GID_TYPE_ROCE) == 2 ||
					    tk_gid_slot(&td->ibdev, &ll,
							IB_GID_TYPE_ROCE_UDP_ENCAP) == 2));
	attr = rdma_get_gid_attr(&td->ibdev, 1, 3);
	KUNIT_EXPECT_TRUE(test, IS_ERR(attr));
	if (!IS_ERR(attr))
		rdma_put_gid_attr(attr);
	tk_netdev_up(ndev, false);
	tdev_destroy(td);
	tk_netdev_free(ndev);
}

/* The GID types of a port: its RoCE versions, or InfiniBand's */
static void roce_gids_type_mask(struct kunit *test)
{
	struct tdev_params eth = { .name = "ktrgm%d", .roce = true };
	struct tdev *te = tk_dev(test, &eth);
	struct tdev *ti = tk_dev_named(test, "ktrgmi%d");

	KUNIT_EXPECT_EQ(test, roce_gid_type_mask_support(&te->ibdev, 1),
			BIT(IB_GID_TYPE_ROCE) |
			BIT(IB_GID_TYPE_ROCE_UDP_ENCAP));
	KUNIT_EXPECT_EQ(test, roce_gid_type_mask_support(&ti->ibdev, 1),
			BIT(IB_GID_TYPE_IB));
	/* Bad input: ports the devices lack */
	KUNIT_EXPECT_EQ(test, roce_gid_type_mask_support(&te->ibdev, 0),
			BIT(IB_GID_TYPE_IB));
	KUNIT_EXPECT_EQ(test, roce_gid_type_mask_support(&te->ibdev, 2),
			BIT(IB_GID_TYPE_IB));
	tdev_destroy(ti);
	tdev_destroy(te);
}

static struct kunit_case roce_gids_cases[] = {
	KUNIT_CASE(roce_gids_follow_address),
	KUNIT_CASE(roce_gids_rescan_device),
	KUNIT_CASE(roce_gids_table_full),
	KUNIT_CASE(roce_gids_type_mask),
	{}
};

static struct kunit_suite roce_gids_suite = {
	.name = "rdma_core_roce_gids",
	.test_cases = roce_gids_cases,
};

kunit_test_suites(&roce_gids_suite);
