// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2's UDP port (4791), per network namespace: the sockets of a
 * namespace are opened when the first device is made over a netdev there
 * (sr_net_open()) and closed with the namespace, or when the module goes.
 * Devices in different namespaces never share a socket, so two
 * namespaces of one machine talk to each other as two machines would.
 * Control path only; received packets go to recv.c.
 */
#include <linux/mutex.h>
#include <net/netns/generic.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_verbs.h>
#include "net.h"
#include "recv.h"

/**
 * struct sr_net - a namespace's RoCEv2 sockets
 * @lock: serializes the sockets' opening (sr_net_open()); the
 *	namespace's exit closes them, when nothing can open them any more
 * @sk4: the IPv4 socket, once open
 * @sk6: the IPv6 socket, once open, unless the kernel has no IPv6
 */
struct sr_net {
	struct mutex lock;
	struct socket *sk4;
	struct socket *sk6;
};

static unsigned int sr_net_id __read_mostly;

static struct sr_net *sr_net(struct net *net)
{
	return net_generic(net, sr_net_id);
}

/* A UDP socket of @net on RoCEv2's port, its packets to recv.c. */
static int sr_sock_open(struct net *net, bool ipv6, struct socket **sockp)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.encap_type = 1,
		.encap_rcv = sr_udp_recv,
	};
	struct udp_port_cfg cfg = {
		.family = ipv6 ? AF_INET6 : AF_INET,
		.local_udp_port = htons(ROCE_V2_UDP_DPORT),
		.ipv6_v6only = ipv6,
	};
	int ret;

	ret = udp_sock_create(net, &cfg, sockp);
	if (ret)
		return ret;
	setup_udp_tunnel_sock(net, *sockp, &tcfg);
	return 0;
}

static void sr_sock_close(struct socket **sockp)
{
	if (*sockp)
		udp_tunnel_sock_release(*sockp);
	*sockp = NULL;
}

/**
 * sr_net_open - open a namespace's sockets, if they are not open
 * @net: the namespace of a netdev that gets a device
 *
 * Context: process context.
 * Return: 0; or why the IPv4 socket could not be opened (-EADDRINUSE if
 * something else has the port).
 */
int sr_net_open(struct net *net)
{
	struct sr_net *sn = sr_net(net);
	int ret = 0;

	mutex_lock(&sn->lock);
	if (!sn->sk4) {
		ret = sr_sock_open(net, false, &sn->sk4);
		/* A kernel without IPv6 still carries RoCEv2 over IPv4 */
		if (!ret && IS_ENABLED(CONFIG_IPV6) &&
		    sr_sock_open(net, true, &sn->sk6))
			sn->sk6 = NULL;
	}
	mutex_unlock(&sn->lock);
	return ret;
}

static int __net_init sr_net_init(struct net *net)
{
	struct sr_net *sn = sr_net(net);

	mutex_init(&sn->lock);
	return 0;
}

/* The namespace's netdevs, and with them its devices, are gone */
static void __net_exit sr_net_exit(struct net *net)
{
	struct sr_net *sn = sr_net(net);

	sr_sock_close(&sn->sk4);
	sr_sock_close(&sn->sk6);
}

static struct pernet_operations sr_net_ops = {
	.init = sr_net_init,
	.exit = sr_net_exit,
	.id = &sr_net_id,
	.size = sizeof(struct sr_net),
};

/**
 * sr_net_register - make room for the sockets in every namespace
 *
 * Return: 0 or what register_pernet_subsys() returned.
 */
int sr_net_register(void)
{
	return register_pernet_subsys(&sr_net_ops);
}

/**
 * sr_net_unregister - close every namespace's sockets; no device exists
 */
void sr_net_unregister(void)
{
	unregister_pernet_subsys(&sr_net_ops);
}
