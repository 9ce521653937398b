// SPDX-License-Identifier: GPL-2.0
/*
 * RDMA devices and network namespaces: the state ib_core keeps per
 * namespace (its NETLINK_RDMA socket) and the sharing mode.
 *
 * In shared mode (the default; module parameter netns_mode) every device
 * is visible from every namespace.  In exclusive mode a device is visible
 * only from the namespace it belongs to, device->coredev.rdma_net (the
 * initial namespace: devices do not move between namespaces yet).  The
 * mode may change only while the initial namespace is the only one.
 */
#include "abi/ib_core/device.h"
#include "nl/internal.h"

static bool netns_shared_mode = true;
module_param_named(netns_mode, netns_shared_mode, bool, 0444);
MODULE_PARM_DESC(netns_mode,
		 "Share devices among network namespaces (default 1: shared)");

/* Protects changes of netns_shared_mode and netns_others. */
static DECLARE_RWSEM(netns_rwsem);
/* Namespaces other than the initial one that have our state. */
static unsigned int netns_others;

/* What ib_core keeps in each namespace (net_generic(net, netns_id)). */
struct netns_rdma {
	struct sock *sk;	/* set by netns_init_net(), constant after */
};

static unsigned int netns_id;

/**
 * rdma_dev_access_netns() - may a namespace see a device?
 * @dev: the device
 * @net: the namespace
 *
 * Return: true in shared mode, else whether @dev belongs to @net.
 */
bool rdma_dev_access_netns(const struct ib_device *dev, const struct net *net)
{
	return READ_ONCE(netns_shared_mode) ||
	       net_eq(read_pnet(&dev->coredev.rdma_net), net);
}
EXPORT_SYMBOL(rdma_dev_access_netns);

/* The NETLINK_RDMA socket of @net, alive as long as @net. */
struct sock *netns_sock(const struct net *net)
{
	struct netns_rdma *nr = net_generic(net, netns_id);

	return nr->sk;
}

bool netns_shared(void)
{
	return READ_ONCE(netns_shared_mode);
}

/**
 * netns_set_shared() - change the sharing mode
 * @shared: true for shared, false for exclusive
 *
 * Return: 0, or -EBUSY while a namespace other than the initial one
 * exists.
 */
int netns_set_shared(bool shared)
{
	int ret = 0;

	down_write(&netns_rwsem);
	if (netns_shared_mode != shared) {
		if (netns_others)
			ret = -EBUSY;
		else
			WRITE_ONCE(netns_shared_mode, shared);
	}
	up_write(&netns_rwsem);
	return ret;
}

static int __net_init netns_init_net(struct net *net)
{
	struct netns_rdma *nr = net_generic(net, netns_id);

	nr->sk = netlink_sock_create(net);
	if (!nr->sk)
		return -ENOMEM;
	if (!net_eq(net, &init_net)) {
		down_write(&netns_rwsem);
		netns_others++;
		up_write(&netns_rwsem);
	}
	return 0;
}

static void __net_exit netns_exit_net(struct net *net)
{
	struct netns_rdma *nr = net_generic(net, netns_id);

	if (!net_eq(net, &init_net)) {
		down_write(&netns_rwsem);
		netns_others--;
		up_write(&netns_rwsem);
	}
	netlink_sock_release(nr->sk);
}

static struct pernet_operations netns_ops = {
	.init = netns_init_net,
	.exit = netns_exit_net,
	.id = &netns_id,
	.size = sizeof(struct netns_rdma),
};

/* Creates the state of every namespace, now and later. */
int netns_init(void)
{
	return register_pernet_subsys(&netns_ops);
}

void netns_exit(void)
{
	unregister_pernet_subsys(&netns_ops);
}
