// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: two RoCE test devices on the two ends of a veth pair
 * (tk.h), for the suites that exchange MADs over RoCE (the MAD layer,
 * ib_cm).  The ends are real netdevs in init_net, so the core resolves
 * the destination MAC of an answer (and the route of a RoCE path)
 * through the IP stack, link-local IPv6 GIDs included.
 *
 * Duplicate address detection is switched off on both ends before they
 * come up: otherwise their link-local addresses, and so the GIDs made
 * from them, stay tentative for seconds under TCG.
 *
 * Locking: none; a pair belongs to the case that made it, and there is
 * one pair at a time (cases run in turn), so the ends have fixed names.
 */
#include <linux/delay.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include "tk.h"
#include "tnet.h"

#define TK_VETH0	"ktrpv0"
#define TK_VETH1	"ktrpv1"

/* The ends, held until the case ends; then the pair is deleted. */
struct tk_veth {
	struct net_device *end[2];
};

static void tk_veth_put(struct tk_veth *v)
{
	dev_put(v->end[0]);
	dev_put(v->end[1]);
	tnet_ip("link del " TK_VETH0);
	kfree(v);
}

static void tk_veth_free(struct kunit_resource *res)
{
	tk_veth_put(res->data);
}

/* No duplicate address detection on an end (before it comes up). */
static int tk_veth_no_dad(const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/accept_dad",
		 name);
	return tk_file_write(path, "0");
}

/*
 * Waits (at most 10 s) until the end's IPv6 link-local address, the
 * EUI-64 of its MAC, is usable (not tentative).
 */
static bool tk_veth_ready(struct net_device *ndev)
{
	struct in6_addr ll = { .s6_addr = { 0xfe, 0x80 } };
	const u8 *mac = ndev->dev_addr;
	int i;

	ll.s6_addr[8] = mac[0] ^ 0x02;
	ll.s6_addr[9] = mac[1];
	ll.s6_addr[10] = mac[2];
	ll.s6_addr[11] = 0xff;
	ll.s6_addr[12] = 0xfe;
	ll.s6_addr[13] = mac[3];
	ll.s6_addr[14] = mac[4];
	ll.s6_addr[15] = mac[5];
	for (i = 0; i < 500 && !ipv6_chk_addr(&init_net, &ll, ndev, 1); i++)
		msleep(20);
	return ipv6_chk_addr(&init_net, &ll, ndev, 1);
}

/**
 * tk_roce_pair - two RoCE test devices on the ends of a veth pair
 * @test: the case; fails if they cannot be made
 * @name: the devices' name template ("kt...%d")
 * @a: the first device (on the first end), out
 * @b: the second, out
 *
 * The pair is deleted when the case ends, after the devices (which the
 * case frees with tdev_destroy(), before it ends).  Each device's
 * tdev->ndev is its end.
 */
void tk_roce_pair(struct kunit *test, const char *name, struct tdev **a,
		  struct tdev **b)
{
	struct tdev_params p = { .name = name, .roce = true };
	struct tk_veth *v = kzalloc(sizeof(*v), GFP_KERNEL);
	struct kunit_resource *res;

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, tnet_ip("link add " TK_VETH0
				      " type veth peer name " TK_VETH1), 0);
	v->end[0] = tnet_dev(&init_net, TK_VETH0);
	v->end[1] = tnet_dev(&init_net, TK_VETH1);
	res = kunit_alloc_resource(test, NULL, tk_veth_free, GFP_KERNEL, v);
	if (!res)
		tk_veth_put(v);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, v->end[0]);
	KUNIT_ASSERT_NOT_NULL(test, v->end[1]);
	KUNIT_ASSERT_EQ(test, tk_veth_no_dad(TK_VETH0), 0);
	KUNIT_ASSERT_EQ(test, tk_veth_no_dad(TK_VETH1), 0);
	KUNIT_ASSERT_EQ(test, tnet_ip("link set " TK_VETH0 " up"), 0);
	KUNIT_ASSERT_EQ(test, tnet_ip("link set " TK_VETH1 " up"), 0);
	KUNIT_ASSERT_TRUE(test, tk_veth_ready(v->end[0]));
	KUNIT_ASSERT_TRUE(test, tk_veth_ready(v->end[1]));
	p.ndev = v->end[0];
	*a = tk_dev(test, &p);
	p.ndev = v->end[1];
	*b = tk_dev(test, &p);
}
EXPORT_SYMBOL_GPL(tk_roce_pair);
