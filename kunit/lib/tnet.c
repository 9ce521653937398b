// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: real networks for the suites (tnet.h).
 *
 * No state: namespaces and netdevs belong to the suite that made them.
 */
#include <linux/fs.h>
#include <linux/inetdevice.h>
#include <linux/magic.h>
#include <linux/netdevice.h>
#include <linux/nsproxy.h>
#include <linux/proc_ns.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/umh.h>
#include <net/net_namespace.h>
#include "tnet.h"

#define TNET_IP		"/sbin/ip"
#define TNET_MAX_ARGS	24

/**
 * tnet_ip - run iproute2's ip with the words of a command line
 * @fmt: the arguments after "ip", separated by single spaces
 *
 * Sleeps until the command has exited.
 *
 * Return: 0 if it exited with 0; its exit status (positive) if not; a
 * negative errno if it could not run.
 */
int tnet_ip(const char *fmt, ...)
{
	char *envp[2] = { "PATH=/sbin:/bin:/usr/sbin:/usr/bin", NULL };
	char *argv[TNET_MAX_ARGS + 2] = { TNET_IP };
	char *line, *word, *rest;
	va_list ap;
	int argc = 1, ret;

	va_start(ap, fmt);
	line = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	if (!line)
		return -ENOMEM;
	rest = line;
	while ((word = strsep(&rest, " ")) && argc <= TNET_MAX_ARGS)
		if (*word)
			argv[argc++] = word;
	ret = word ? -E2BIG : call_usermodehelper(TNET_IP, argv, envp,
						  UMH_WAIT_PROC);
	kfree(line);
	/* A wait status: the exit code is in its second byte */
	return ret > 0 ? (ret >> 8 ? : ret) : ret;
}
EXPORT_SYMBOL_GPL(tnet_ip);

/**
 * tnet_netns - the network namespace "ip netns add @name" made
 * @name: its name under /run/netns
 *
 * Return: a reference on it (put_net()), or an ERR_PTR.
 */
struct net *tnet_netns(const char *name)
{
	struct ns_common *ns;
	struct net *net;
	struct file *f;
	char *path;

	path = kasprintf(GFP_KERNEL, "/run/netns/%s", name);
	if (!path)
		return ERR_PTR(-ENOMEM);
	f = filp_open(path, O_RDONLY, 0);
	kfree(path);
	if (IS_ERR(f))
		return ERR_CAST(f);
	net = ERR_PTR(-EINVAL);
	if (file_inode(f)->i_sb->s_magic == NSFS_MAGIC) {
		ns = get_proc_ns(file_inode(f));
		if (ns->ops->type == CLONE_NEWNET)
			net = container_of(get_net_ns(ns), struct net, ns);
	}
	filp_close(f, NULL);
	return net;
}
EXPORT_SYMBOL_GPL(tnet_netns);

/**
 * tnet_dev - a netdev of a namespace by name
 * @net: the namespace
 * @name: the netdev's name
 *
 * Return: the netdev, held (dev_put()), or NULL.
 */
struct net_device *tnet_dev(struct net *net, const char *name)
{
	return dev_get_by_name(net, name);
}
EXPORT_SYMBOL_GPL(tnet_dev);

/**
 * tnet_accept_local - let a netdev of the initial namespace take IPv4
 *	packets whose source is an address of this host (accept_local)
 * @name: the netdev's name
 *
 * Two ends of a veth pair in one namespace reach each other's IPv4
 * addresses through the link only so: without it the receiving end
 * drops an ARP request from the other end's (local) address as a
 * martian, and a RoCE destination there never resolves.
 *
 * Return: 0, or -ENODEV when there is no such netdev with IPv4.
 */
int tnet_accept_local(const char *name)
{
	struct net_device *dev;
	struct in_device *idev;
	int ret = -ENODEV;

	rtnl_lock();
	dev = __dev_get_by_name(&init_net, name);
	idev = dev ? __in_dev_get_rtnl(dev) : NULL;
	if (idev) {
		IN_DEV_CONF_SET(idev, ACCEPT_LOCAL, 1);
		ret = 0;
	}
	rtnl_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(tnet_accept_local);
