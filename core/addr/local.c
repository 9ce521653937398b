// SPDX-License-Identifier: GPL-2.0
/*
 * The host's side of an IP address: how long a socket address of each
 * family is, which netdev of a namespace owns an address, and the L2
 * addresses (hardware address, broadcast address, type, index) of a
 * netdev in a struct rdma_dev_addr.
 *
 * No lock of ours; netdevs are looked up under RCU or held.
 */
#include "abi/ib_core/addr.h"
#include "addr/internal.h"
#include "core/addr.h"

/**
 * rdma_addr_size - the length of a socket address of an RDMA family
 * @addr: the address; only its family is read
 *
 * Return: the size of struct sockaddr_in, sockaddr_in6 or sockaddr_ib for
 * AF_INET, AF_INET6 and AF_IB, 0 for any other family.
 */
int rdma_addr_size(const struct sockaddr *addr)
{
	sa_family_t family = addr->sa_family;

	if (family == AF_INET6)
		return sizeof(struct sockaddr_in6);
	if (family == AF_INET)
		return sizeof(struct sockaddr_in);
	return family == AF_IB ? sizeof(struct sockaddr_ib) : 0;
}
EXPORT_SYMBOL(rdma_addr_size);

/* rdma_addr_size() of @addr, or 0 if that exceeds the @room it is held in */
static int addr_size_within(void *addr, size_t room)
{
	size_t len = rdma_addr_size(addr);

	return len > room ? 0 : len;
}

/**
 * rdma_addr_size_in6 - rdma_addr_size() of an address held in a sockaddr_in6
 * @addr: the address
 *
 * Return: rdma_addr_size(), or 0 if the family's address does not fit in
 * a struct sockaddr_in6 (AF_IB).
 */
int rdma_addr_size_in6(struct sockaddr_in6 *addr)
{
	return addr_size_within(addr, sizeof(*addr));
}
EXPORT_SYMBOL(rdma_addr_size_in6);

/**
 * rdma_addr_size_kss - rdma_addr_size() of an address in a sockaddr_storage
 * @addr: the address
 *
 * Return: rdma_addr_size(), or 0 if it does not fit in @addr's type.
 */
int rdma_addr_size_kss(struct __kernel_sockaddr_storage *addr)
{
	return addr_size_within(addr, sizeof(*addr));
}
EXPORT_SYMBOL(rdma_addr_size_kss);

/**
 * rdma_copy_src_l2_addr - take a netdev's L2 addresses as the source
 * @dev_addr: where they go
 * @dev: the netdev
 *
 * Sets the source hardware address (zero beyond the netdev's address
 * length), the broadcast address, the hardware type and the bound
 * interface index of @dev_addr.
 */
void rdma_copy_src_l2_addr(struct rdma_dev_addr *dev_addr,
			   const struct net_device *dev)
{
	unsigned int len = min_t(unsigned int, dev->addr_len, MAX_ADDR_LEN);

	memset(dev_addr->src_dev_addr, 0, MAX_ADDR_LEN);
	memcpy(dev_addr->src_dev_addr, dev->dev_addr, len);
	memcpy(dev_addr->broadcast, dev->broadcast, MAX_ADDR_LEN);
	dev_addr->dev_type = dev->type;
	dev_addr->bound_dev_if = dev->ifindex;
}
EXPORT_SYMBOL(rdma_copy_src_l2_addr);

/**
 * local_find_ndev_rcu - the netdev of @net that has address @addr
 * @net: the namespace
 * @addr: an AF_INET or AF_INET6 address
 *
 * Caller holds the RCU read lock; the netdev is valid inside it only.
 *
 * Return: the netdev, or NULL if no netdev of @net has @addr (and for any
 * other family).
 */
struct net_device *local_find_ndev_rcu(struct net *net,
				       const struct sockaddr *addr)
{
	const struct in6_addr *a6;
	struct net_device *dev;

	switch (addr->sa_family) {
	case AF_INET:
		return __ip_dev_find(net,
				     ((const struct sockaddr_in *)addr)->sin_addr.s_addr,
				     false);
	case AF_INET6:
		if (!IS_ENABLED(CONFIG_IPV6))
			return NULL;
		a6 = &((const struct sockaddr_in6 *)addr)->sin6_addr;
		for_each_netdev_rcu(net, dev)
			if (ipv6_chk_addr(net, a6, dev, 1))
				return dev;
		return NULL;
	}
	return NULL;
}

/**
 * rdma_translate_ip - the L2 addresses of the netdev behind a local address
 * @addr: an address of this host
 * @dev_addr: its @net names the namespace; if its @bound_dev_if is set,
 *	that netdev is taken whatever @addr is
 *
 * Fills the source fields of @dev_addr as rdma_copy_src_l2_addr() does.
 *
 * Return: 0; -ENODEV if @bound_dev_if names no netdev of the namespace;
 * -EADDRNOTAVAIL if no netdev of it has @addr (or @addr is not IP).
 */
int rdma_translate_ip(const struct sockaddr *addr,
		      struct rdma_dev_addr *dev_addr)
{
	struct net_device *dev;
	int ret = -EADDRNOTAVAIL;

	rcu_read_lock();
	/* A bound interface is the answer, whatever its addresses */
	if (dev_addr->bound_dev_if) {
		dev = dev_get_by_index_rcu(dev_addr->net,
					   dev_addr->bound_dev_if);
		ret = -ENODEV;
	} else {
		dev = local_find_ndev_rcu(dev_addr->net, addr);
	}
	if (dev) {
		rdma_copy_src_l2_addr(dev_addr, dev);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL(rdma_translate_ip);
