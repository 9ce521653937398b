// SPDX-License-Identifier: GPL-2.0
/*
 * Link types: drivers that create a device on top of a net device when
 * asked ("rdma link add rxe0 type rxe netdev eth0"), registered with
 * rdma_link_register(); NEWLINK and DELLINK.
 *
 * link_types lists the registered types; link_rwsem protects it and is
 * held for read across a type's newlink(), so a driver's
 * rdma_link_unregister() waits for the devices being created through it.
 */
#include "abi/ib_core/nldev.h"
#include "nl/internal.h"

/* The registered rdma_link_ops, by ->list. */
static LIST_HEAD(link_types);
/* Protects link_types; read-held across newlink(). */
static DECLARE_RWSEM(link_rwsem);

static struct rdma_link_ops *link_find(const char *type)
{
	struct rdma_link_ops *ops;

	lockdep_assert_held(&link_rwsem);
	list_for_each_entry(ops, &link_types, list)
		if (!strcmp(ops->type, type))
			return ops;
	return NULL;
}

static bool link_is_registered(struct rdma_link_ops *ops)
{
	struct rdma_link_ops *cur;

	lockdep_assert_held(&link_rwsem);
	list_for_each_entry(cur, &link_types, list)
		if (cur == ops)
			return true;
	return false;
}

/**
 * rdma_link_register() - offer a link type to "rdma link add"
 * @ops: the type's name and its newlink(), which creates and registers a
 *	device named as asked on top of the net device given
 *
 * A type without a name or newlink(), or whose name is registered
 * already, is refused and logged.  A
 * driver module should also carry MODULE_ALIAS_RDMA_LINK(type), so that
 * NEWLINK loads it.
 */
void rdma_link_register(struct rdma_link_ops *ops)
{
	if (!ops->type || !ops->newlink) {
		pr_err("ib_core: link type without a name or newlink()\n");
		return;
	}
	down_write(&link_rwsem);
	if (link_find(ops->type))
		pr_err("ib_core: link type %s is registered already\n",
		       ops->type);
	else
		list_add_tail(&ops->list, &link_types);
	up_write(&link_rwsem);
}
EXPORT_SYMBOL(rdma_link_register);

/**
 * rdma_link_unregister() - withdraw a link type
 * @ops: as registered; an unregistered one is ignored
 *
 * Waits for newlink() calls of the type in progress.  Devices created
 * through it stay; the driver removes them.
 */
void rdma_link_unregister(struct rdma_link_ops *ops)
{
	down_write(&link_rwsem);
	if (link_is_registered(ops))
		list_del(&ops->list);
	up_write(&link_rwsem);
}
EXPORT_SYMBOL(rdma_link_unregister);

/*
 * Create device @name of link type @type on @ndev, loading the module
 * that offers the type (alias rdma-link-<type>) if nobody does.
 */
static int link_create(const char *type, const char *name,
		       struct net_device *ndev)
{
	struct rdma_link_ops *ops;
	int ret;

	down_read(&link_rwsem);
	ops = link_find(type);
	if (!ops && IS_ENABLED(CONFIG_MODULES)) {
		up_read(&link_rwsem);
		request_module("rdma-link-%s", type);
		down_read(&link_rwsem);
		ops = link_find(type);
	}
	ret = ops ? ops->newlink(name, ndev) : -EINVAL;
	up_read(&link_rwsem);
	return ret;
}

/* NEWLINK: device name, link type and net device name, all required. */
int link_newlink(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	char name[IB_DEVICE_NAME_MAX];
	char ndev_name[IFNAMSIZ];
	char type[IFNAMSIZ];
	struct net_device *ndev;
	int ret;

	if (nldev_parse(nlh, tb, false, extack) ||
	    !tb[RDMA_NLDEV_ATTR_DEV_NAME] || !tb[RDMA_NLDEV_ATTR_LINK_TYPE] ||
	    !tb[RDMA_NLDEV_ATTR_NDEV_NAME])
		return -EINVAL;
	nla_strscpy(name, tb[RDMA_NLDEV_ATTR_DEV_NAME], sizeof(name));
	/* A template would let the driver pick another name. */
	if (!name[0] || strchr(name, '%')) {
		NL_SET_ERR_MSG_MOD(extack, "bad device name");
		return -EINVAL;
	}
	nla_strscpy(type, tb[RDMA_NLDEV_ATTR_LINK_TYPE], sizeof(type));
	nla_strscpy(ndev_name, tb[RDMA_NLDEV_ATTR_NDEV_NAME], sizeof(ndev_name));
	ndev = dev_get_by_name(sock_net(skb->sk), ndev_name);
	if (!ndev)
		return -ENODEV;
	ret = link_create(type, name, ndev);
	dev_put(ndev);
	return ret;
}

/* DELLINK: unregister a device whose driver lets users do so. */
int link_dellink(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *device;

	if (nldev_parse(nlh, tb, false, extack))
		return -EINVAL;
	device = nldev_get_device(skb, tb);
	if (!device)
		return -EINVAL;
	if (!(device->attrs.kernel_cap_flags & IBK_ALLOW_USER_UNREG)) {
		ib_device_put(device);
		NL_SET_ERR_MSG_MOD(extack, "the driver does not allow it");
		return -EINVAL;
	}
	ib_unregister_device_and_put(device);
	return 0;
}
