// SPDX-License-Identifier: GPL-2.0
/*
 * Clients: the ULPs that attach to every device (ib_register_client()).
 *
 * A client is added to a device when both are registered, by whichever
 * registration comes second, and removed by whichever unregistration comes
 * first.  device->client_data holds, at index client->client_id, the
 * client's data for that device.  Its entry carries IBCLIENT_ADDED from
 * the moment add() is about to be called until remove() is about to be
 * called, which makes each of the two happen exactly once, and
 * IBCLIENT_ADDING while add() runs: a removal waits for it, so remove()
 * never overtakes add().  A device that is no longer live gets no new
 * client; unregistration hides the device before it removes the clients.
 * The lock order is in device/internal.h.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"

/*
 * Registered clients by client_id; ids grow with registration order, so
 * removing in decreasing id order removes the newest client first.
 * IBCLIENT_LIVE marks clients that new devices get; it changes under
 * ibclient_rwsem held for write.
 */
static DEFINE_XARRAY_FLAGS(ibclients, XA_FLAGS_ALLOC);
static DECLARE_RWSEM(ibclient_rwsem);
static u32 ibclient_next_id;	/* under ibclient_rwsem */
#define IBCLIENT_LIVE	XA_MARK_1
/* Marks of device->client_data entries (mark 0 is the allocator's). */
#define IBCLIENT_ADDED	XA_MARK_1
#define IBCLIENT_ADDING	XA_MARK_2

static void ibclient_put(struct ib_client *client)
{
	if (refcount_dec_and_test(&client->uses))
		complete(&client->uses_zero);
}

/* The next live client at or after @id with a use reference, or NULL. */
static struct ib_client *ibclient_get_next(unsigned long *id)
{
	struct ib_client *client;

	down_read(&ibclient_rwsem);
	client = xa_find(&ibclients, id, ULONG_MAX, IBCLIENT_LIVE);
	while (client && !refcount_inc_not_zero(&client->uses))
		client = xa_find_after(&ibclients, id, ULONG_MAX,
				       IBCLIENT_LIVE);
	up_read(&ibclient_rwsem);
	return client;
}

/*
 * Claim @client's entry of @device for an add(): false if the client is
 * there already or the device is no longer live.  Checking liveness under
 * client_data_rwsem makes ibdev_client_hide_barrier() a barrier.
 */
static bool ibclient_claim(struct ib_device *device, u32 id)
{
	bool claimed = false;

	down_write(&device->client_data_rwsem);
	if (!xa_get_mark(&device->client_data, id, IBCLIENT_ADDED) &&
	    ibdev_index_is_live(device) &&
	    !xa_err(xa_store(&device->client_data, id, NULL, GFP_KERNEL))) {
		xa_set_mark(&device->client_data, id, IBCLIENT_ADDED);
		xa_set_mark(&device->client_data, id, IBCLIENT_ADDING);
		claimed = true;
	}
	up_write(&device->client_data_rwsem);
	return claimed;
}

/*
 * Add @client to @device unless it is there already.  The caller holds a
 * registration reference on @device and a use of @client.
 */
static void ibclient_add_one(struct ib_device *device,
			     struct ib_client *client)
{
	u32 id = client->client_id;
	int ret = 0;

	if (!device->kverbs_provider && !client->no_kverbs_req)
		return;
	if (!ibclient_claim(device, id))
		return;
	if (client->add)
		ret = client->add(device);

	down_write(&device->client_data_rwsem);
	xa_clear_mark(&device->client_data, id, IBCLIENT_ADDING);
	/* Declined (e.g. -EOPNOTSUPP): the client never sees this device. */
	if (ret)
		xa_erase(&device->client_data, id);
	up_write(&device->client_data_rwsem);
	wake_up_var(&device->client_data);
}

/* Lockless (xa_get_mark takes RCU only): a wait condition may not sleep. */
static bool ibclient_adding(struct ib_device *device, u32 id)
{
	return xa_get_mark(&device->client_data, id, IBCLIENT_ADDING);
}

/* Remove @client from @device if it is there, after its add() returned. */
static void ibclient_remove_one(struct ib_device *device,
				struct ib_client *client)
{
	u32 id = client->client_id;
	void *data;

	lockdep_assert_held(&device->unregistration_lock);
	wait_var_event(&device->client_data, !ibclient_adding(device, id));
	down_write(&device->client_data_rwsem);
	if (!xa_get_mark(&device->client_data, id, IBCLIENT_ADDED)) {
		up_write(&device->client_data_rwsem);
		return;
	}
	xa_clear_mark(&device->client_data, id, IBCLIENT_ADDED);
	data = xa_load(&device->client_data, id);
	up_write(&device->client_data_rwsem);

	if (client->remove)
		client->remove(device, data);

	down_write(&device->client_data_rwsem);
	xa_erase(&device->client_data, id);
	up_write(&device->client_data_rwsem);
}

/**
 * ibdev_client_hide_barrier - wait out client adds that saw a device live
 * @device: a device that has just been hidden (ibdev_index_hide())
 *
 * After this, every add that will ever start on @device has marked its
 * entry, so ibdev_client_remove_all() finds it (and waits for its add()),
 * and every later one declines.
 */
void ibdev_client_hide_barrier(struct ib_device *device)
{
	down_write(&device->client_data_rwsem);
	up_write(&device->client_data_rwsem);
}

/* Called by ib_register_device() with a registration reference held. */
void ibdev_client_add_all(struct ib_device *device)
{
	struct ib_client *client;
	unsigned long id = 0;

	while ((client = ibclient_get_next(&id))) {
		ibclient_add_one(device, client);
		ibclient_put(client);
		id++;
	}
}

/*
 * The registered client with the highest id that is added to @device, or
 * NULL.  A client stays in ibclients until it is removed from every device,
 * which needs the unregistration_lock the caller holds.
 */
static struct ib_client *ibclient_newest_added(struct ib_device *device)
{
	struct ib_client *client, *found = NULL;
	unsigned long id;

	lockdep_assert_held(&device->unregistration_lock);
	down_read(&ibclient_rwsem);
	down_read(&device->client_data_rwsem);
	xa_for_each(&ibclients, id, client)
		if (xa_get_mark(&device->client_data, id, IBCLIENT_ADDED))
			found = client;
	up_read(&device->client_data_rwsem);
	up_read(&ibclient_rwsem);
	return found;
}

/*
 * Called by unregistration with unregistration_lock held, once the device
 * is hidden: newest client first.
 */
void ibdev_client_remove_all(struct ib_device *device)
{
	struct ib_client *client;

	while ((client = ibclient_newest_added(device)))
		ibclient_remove_one(device, client);
}

/**
 * ib_register_client - register a client of every RDMA device
 * @client: the client; add() is called for every registered device, now
 *	and later, and remove() when the device or the client goes away
 *
 * Devices without the kernel verbs get add() only if the client sets
 * no_kverbs_req.  An add() that returns an error declines that device.
 * Callbacks run without core locks held and may sleep.
 *
 * Return: 0, or -ENOMEM.
 */
int ib_register_client(struct ib_client *client)
{
	struct ib_device *device;
	unsigned long index = 0;
	u32 id;
	int ret;

	refcount_set(&client->uses, 1);
	init_completion(&client->uses_zero);
	down_write(&ibclient_rwsem);
	ret = xa_alloc_cyclic(&ibclients, &id, client, xa_limit_31b,
			      &ibclient_next_id, GFP_KERNEL);
	if (ret >= 0) {
		client->client_id = id;
		xa_set_mark(&ibclients, id, IBCLIENT_LIVE);
		ret = 0;
	}
	up_write(&ibclient_rwsem);
	if (ret)
		return ret;

	while ((device = ibdev_index_get_next_live(&index))) {
		ibclient_add_one(device, client);
		ib_device_put(device);
		index++;
	}
	return 0;
}
EXPORT_SYMBOL(ib_register_client);

/**
 * ib_unregister_client - unregister a client
 * @client: the client
 *
 * Waits for add() calls in progress, then calls remove() for every device
 * the client is added to.  When this returns no callback of @client runs
 * and none will.  Sleeps.
 */
void ib_unregister_client(struct ib_client *client)
{
	struct ib_device *device;
	unsigned long index = 0;

	down_write(&ibclient_rwsem);
	xa_clear_mark(&ibclients, client->client_id, IBCLIENT_LIVE);
	up_write(&ibclient_rwsem);
	ibclient_put(client);
	wait_for_completion(&client->uses_zero);

	while ((device = ibdev_index_get_next_any(&index))) {
		mutex_lock(&device->unregistration_lock);
		ibclient_remove_one(device, client);
		mutex_unlock(&device->unregistration_lock);
		put_device(&device->dev);
		index++;
	}

	down_write(&ibclient_rwsem);
	xa_erase(&ibclients, client->client_id);
	up_write(&ibclient_rwsem);
}
EXPORT_SYMBOL(ib_unregister_client);

/**
 * ib_set_client_data - set a client's data for a device
 * @device: the device
 * @client: the client, from its add() until its remove() for @device
 * @data: what ib_get_client_data() returns from now on
 */
void ib_set_client_data(struct ib_device *device, struct ib_client *client,
			void *data)
{
	u32 id = client->client_id;

	down_read(&device->client_data_rwsem);
	if (xa_get_mark(&device->client_data, id, IBCLIENT_ADDED))
		xa_store(&device->client_data, id, data, GFP_KERNEL);
	else
		dev_warn(&device->dev, "client %s is not added, data not set\n",
			 client->name);
	up_read(&device->client_data_rwsem);
}
EXPORT_SYMBOL(ib_set_client_data);

/*
 * @client's add() for @device has returned and its remove() has not begun:
 * only then is its data its own (add() may set it late, or not at all
 * before it fails).  Called with device->client_data_rwsem held.
 */
static bool ibclient_ready(struct ib_device *device, u32 id)
{
	return xa_get_mark(&device->client_data, id, IBCLIENT_ADDED) &&
	       !xa_get_mark(&device->client_data, id, IBCLIENT_ADDING);
}

/**
 * ibdev_client_rename_all - tell a device's clients its new name
 * @device: the device, just renamed
 *
 * Calls the rename() of every client whose add() for @device has returned,
 * with the client's data, while no client can be added or removed.
 */
void ibdev_client_rename_all(struct ib_device *device)
{
	struct ib_client *client;
	unsigned long id;

	down_read(&ibclient_rwsem);
	down_read(&device->client_data_rwsem);
	xa_for_each(&ibclients, id, client)
		if (client->rename && ibclient_ready(device, id))
			client->rename(device,
				       xa_load(&device->client_data, id));
	up_read(&device->client_data_rwsem);
	up_read(&ibclient_rwsem);
}

/**
 * ib_get_net_dev_by_params - the netdev a connection request is meant for
 * @dev: the device the request arrived on
 * @port: its port
 * @pkey: the P_Key it arrived with
 * @gid: a GID the netdev uses
 * @addr: the IP address the request is for
 *
 * Asks each client whose add() for @dev has returned and that has
 * get_net_dev_by_params (IPoIB), in registration order, until one knows
 * the netdev.  Only InfiniBand ports have such netdevs.  Sleeps.
 *
 * Return: the netdev, held (dev_put()), or NULL.
 */
struct net_device *ib_get_net_dev_by_params(struct ib_device *dev, u32 port,
					    u16 pkey, const union ib_gid *gid,
					    const struct sockaddr *addr)
{
	struct net_device *ndev = NULL;
	struct ib_client *client;
	unsigned long id;

	if (!rdma_is_port_valid(dev, port) || !dev->port_data ||
	    !rdma_protocol_ib(dev, port))
		return NULL;
	down_read(&ibclient_rwsem);
	down_read(&dev->client_data_rwsem);
	xa_for_each(&ibclients, id, client) {
		if (!client->get_net_dev_by_params || !ibclient_ready(dev, id))
			continue;
		ndev = client->get_net_dev_by_params(dev, port, pkey, gid, addr,
						     xa_load(&dev->client_data,
							     id));
		if (ndev)
			break;
	}
	up_read(&dev->client_data_rwsem);
	up_read(&ibclient_rwsem);
	return ndev;
}
EXPORT_SYMBOL(ib_get_net_dev_by_params);

/* A client's own -ENOENT would read as "no such client": make it -EINVAL. */
static int ibclient_nl_ret(int ret)
{
	return ret == -ENOENT ? -EINVAL : ret;
}

/* @client's get_nl_info() for @device, once its add() for it returned. */
static int ibclient_device_nl_info(struct ib_device *device,
				   struct ib_client *client,
				   struct ib_client_nl_info *info)
{
	u32 id = client->client_id;
	int ret;

	down_read(&device->client_data_rwsem);
	if (!ibclient_ready(device, id))
		ret = -ENOENT;
	else if (!client->get_nl_info)
		ret = -EOPNOTSUPP;
	else
		ret = ibclient_nl_ret(client->get_nl_info(device,
				xa_load(&device->client_data, id), info));
	/* The device stays the client's while the lock is held. */
	if (!ret && info->cdev)
		get_device(info->cdev);
	up_read(&device->client_data_rwsem);
	return ret;
}

static int ibclient_global_nl_info(struct ib_client *client,
				   struct ib_client_nl_info *info)
{
	int ret;

	if (!client->get_global_nl_info)
		return -EOPNOTSUPP;
	ret = ibclient_nl_ret(client->get_global_nl_info(info));
	if (!ret && info->cdev)
		get_device(info->cdev);
	return ret;
}

/**
 * ibdev_client_nl_info - what a client reports about itself over netlink
 * @device: the device asked about, or NULL for the client's global
 *	character device
 * @name: the client's name
 * @info: filled by the client; info->cdev, if set, holds a reference the
 *	caller drops with put_device()
 *
 * Return: 0; -ENOENT if no client @name is registered (or added to
 * @device); -EOPNOTSUPP if it reports nothing; or the client's error
 * (-EINVAL for its own -ENOENT).
 */
int ibdev_client_nl_info(struct ib_device *device, const char *name,
			 struct ib_client_nl_info *info)
{
	struct ib_client *client;
	unsigned long id;
	int ret = -ENOENT;

	down_read(&ibclient_rwsem);
	xa_for_each_marked(&ibclients, id, client, IBCLIENT_LIVE) {
		if (!client->name || strcmp(client->name, name))
			continue;
		ret = device ? ibclient_device_nl_info(device, client, info) :
			       ibclient_global_nl_info(client, info);
		break;
	}
	up_read(&ibclient_rwsem);
	return ret;
}
