// SPDX-License-Identifier: GPL-2.0
/*
 * Device objects: allocation, the driver's operations, the two kinds of
 * reference, release.
 *
 * The driver's structure embeds struct ib_device at offset 0; one kzalloc
 * holds both and is freed by the release of device->dev once the last
 * kobject reference is gone (ib_dealloc_device() drops the driver's).
 * device->refcount counts registration references (device/internal.h).
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"

/* /sys/class/infiniband; registered at module load, no lock. */
static struct class ib_class = {
	.name = "infiniband",
};

int ibdev_class_register(void)
{
	return class_register(&ib_class);
}

void ibdev_class_unregister(void)
{
	class_unregister(&ib_class);
}

static void ibdev_release(struct device *dev)
{
	struct ib_device *device = container_of(dev, struct ib_device, dev);

	ibdev_port_free_all(device);
	xa_destroy(&device->client_data);
	xa_destroy(&device->compat_devs);
	kfree(device->res);
	kfree(device);
}

static const struct device_type ibdev_type = {
	.release = ibdev_release,
};

static int ibdev_alloc_restrack(struct ib_device *device)
{
	unsigned int i;

	device->res = kcalloc(RDMA_RESTRACK_MAX, sizeof(*device->res),
			      GFP_KERNEL);
	if (!device->res)
		return -ENOMEM;
	for (i = 0; i < RDMA_RESTRACK_MAX; i++)
		xa_init_flags(&device->res[i].xa, XA_FLAGS_ALLOC);
	return 0;
}

static void ibdev_init_locks(struct ib_device *device)
{
	unsigned int i;

	INIT_LIST_HEAD(&device->event_handler_list);
	init_rwsem(&device->event_handler_rwsem);
	spin_lock_init(&device->qp_open_list_lock);
	init_rwsem(&device->client_data_rwsem);
	/* Storing NULL keeps a reserved entry on an allocating xarray. */
	xa_init_flags(&device->client_data, XA_FLAGS_ALLOC);
	mutex_init(&device->unregistration_lock);
	rwlock_init(&device->cache_lock);
	spin_lock_init(&device->cq_pools_lock);
	for (i = 0; i < ARRAY_SIZE(device->cq_pools); i++)
		INIT_LIST_HEAD(&device->cq_pools[i]);
	refcount_set(&device->refcount, 0);
	init_completion(&device->unreg_completion);
	mutex_init(&device->compat_devs_mutex);
	xa_init(&device->compat_devs);
}

/*
 * The legacy write() commands ib_uverbs offers every device; a driver adds
 * the ones it implements beyond them (POST_SEND, POLL_CQ, ...) to
 * uverbs_cmd_mask after allocating its device.
 */
#define IBDEV_UVERBS_CMDS						\
	(BIT_ULL(IB_USER_VERBS_CMD_GET_CONTEXT) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_QUERY_DEVICE) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_QUERY_PORT) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_ALLOC_PD) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_DEALLOC_PD) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_CREATE_AH) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_DESTROY_AH) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_REG_MR) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_REREG_MR) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_DEREG_MR) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_ALLOC_MW) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_DEALLOC_MW) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL) |		\
	 BIT_ULL(IB_USER_VERBS_CMD_CREATE_CQ) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_RESIZE_CQ) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_DESTROY_CQ) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_CREATE_QP) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_OPEN_QP) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_QUERY_QP) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_MODIFY_QP) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_DESTROY_QP) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_ATTACH_MCAST) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_DETACH_MCAST) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_CREATE_SRQ) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_CREATE_XSRQ) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_MODIFY_SRQ) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_QUERY_SRQ) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_DESTROY_SRQ) |			\
	 BIT_ULL(IB_USER_VERBS_CMD_OPEN_XRCD) |				\
	 BIT_ULL(IB_USER_VERBS_CMD_CLOSE_XRCD))

/**
 * _ib_alloc_device - allocate a device and the driver's structure around it
 * @size: size of the driver's structure, which embeds struct ib_device at
 *	offset 0 (use the ib_alloc_device() macro)
 *
 * The device is zeroed, its locks, lists and reference counts are set up
 * and it has a struct device of the infiniband class that is not yet
 * added to sysfs; uverbs_cmd_mask holds the write() commands every device
 * offers userspace.  Free it with ib_dealloc_device().
 *
 * Return: the device, or NULL when out of memory.
 */
struct ib_device *_ib_alloc_device(size_t size)
{
	struct ib_device *device;

	if (size < sizeof(struct ib_device))
		return NULL;
	device = kzalloc(size, GFP_KERNEL);
	if (!device)
		return NULL;
	if (ibdev_alloc_restrack(device)) {
		kfree(device);
		return NULL;
	}
	ibdev_init_locks(device);
	device_initialize(&device->dev);
	device->dev.type = &ibdev_type;
	device->dev.class = &ib_class;
	device->dev.groups = device->groups;
	write_pnet(&device->coredev.rdma_net, &init_net);
	device->coredev.owner = device;
	device->uverbs_cmd_mask = IBDEV_UVERBS_CMDS;
	if (ibdev_index_insert(device)) {
		put_device(&device->dev);
		return NULL;
	}
	return device;
}
EXPORT_SYMBOL(_ib_alloc_device);

/**
 * ib_dealloc_device - free a device allocated with ib_alloc_device()
 * @device: the device; it must not be registered
 *
 * Calls the driver's ops.dealloc_driver, if it has one, to free what the
 * driver hangs on the device (also after a failed ib_register_device()),
 * then drops the driver's reference; the memory goes when sysfs readers
 * and GID attribute holders are done with it.  A registered device is left
 * alone (a caller bug that is logged): freeing it would pull it from under
 * its clients.
 */
void ib_dealloc_device(struct ib_device *device)
{
	if (ibdev_index_is_live(device)) {
		dev_warn(&device->dev, "not freeing a registered device\n");
		return;
	}
	if (device->ops.dealloc_driver)
		device->ops.dealloc_driver(device);
	ibdev_port_netdevs_release(device);
	ibdev_index_remove(device);
	put_device(&device->dev);
}
EXPORT_SYMBOL(ib_dealloc_device);

/*
 * The operations of struct ib_device_ops from post_send to get_numa_node
 * are all function pointers; they are copied as one array.
 */
#define IBDEV_FIRST_OP	offsetof(struct ib_device_ops, post_send)
#define IBDEV_OPS_END	offsetofend(struct ib_device_ops, get_numa_node)
static_assert((IBDEV_OPS_END - IBDEV_FIRST_OP) % sizeof(void *) == 0);

static void ibdev_merge_fn_ops(struct ib_device_ops *to,
			       const struct ib_device_ops *from)
{
	void **dst = (void **)((char *)to + IBDEV_FIRST_OP);
	void * const *src = (void * const *)((const char *)from +
					     IBDEV_FIRST_OP);
	size_t i, n = (IBDEV_OPS_END - IBDEV_FIRST_OP) / sizeof(void *);

	for (i = 0; i < n; i++)
		if (!dst[i])
			dst[i] = src[i];
}

#define IBDEV_MERGE_FIELD(to, from, f)	\
	do {				\
		if (!(to)->f)		\
			(to)->f = (from)->f; \
	} while (0)

static void ibdev_merge_sizes(struct ib_device_ops *to,
			      const struct ib_device_ops *from)
{
	IBDEV_MERGE_FIELD(to, from, size_ib_ah);
	IBDEV_MERGE_FIELD(to, from, size_ib_counters);
	IBDEV_MERGE_FIELD(to, from, size_ib_cq);
	IBDEV_MERGE_FIELD(to, from, size_ib_mw);
	IBDEV_MERGE_FIELD(to, from, size_ib_pd);
	IBDEV_MERGE_FIELD(to, from, size_ib_qp);
	IBDEV_MERGE_FIELD(to, from, size_ib_rwq_ind_table);
	IBDEV_MERGE_FIELD(to, from, size_ib_srq);
	IBDEV_MERGE_FIELD(to, from, size_ib_ucontext);
	IBDEV_MERGE_FIELD(to, from, size_ib_xrcd);
}

/**
 * ib_set_device_ops - add a driver's operations to a device
 * @device: the device, not yet registered
 * @ops: operations and object sizes
 *
 * Every operation and object size that @device does not have yet is taken
 * from @ops; those already set stay.  A driver may call this several times
 * to combine tables.  The driver id, owner and uverbs ABI version are
 * taken when @ops sets them.
 */
void ib_set_device_ops(struct ib_device *device,
		       const struct ib_device_ops *ops)
{
	struct ib_device_ops *dev_ops = &device->ops;

	if (ops->driver_id != RDMA_DRIVER_UNKNOWN)
		dev_ops->driver_id = ops->driver_id;
	if (ops->owner)
		dev_ops->owner = ops->owner;
	if (ops->uverbs_abi_ver)
		dev_ops->uverbs_abi_ver = ops->uverbs_abi_ver;
	dev_ops->uverbs_no_driver_id_binding |=
		ops->uverbs_no_driver_id_binding;
	IBDEV_MERGE_FIELD(dev_ops, ops, device_group);
	IBDEV_MERGE_FIELD(dev_ops, ops, port_groups);
	ibdev_merge_fn_ops(dev_ops, ops);
	ibdev_merge_sizes(dev_ops, ops);
}
EXPORT_SYMBOL(ib_set_device_ops);

/**
 * ib_modify_device - change device attributes
 * @device: the device
 * @device_modify_mask: IB_DEVICE_MODIFY_* bits saying what to change
 * @device_modify: the new values
 *
 * Return: 0, -EOPNOTSUPP if the driver cannot, or the driver's error.
 */
int ib_modify_device(struct ib_device *device, int device_modify_mask,
		     struct ib_device_modify *device_modify)
{
	int (*modify)(struct ib_device *, int, struct ib_device_modify *) =
		device->ops.modify_device;

	return modify ? modify(device, device_modify_mask, device_modify) :
			-EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_modify_device);

/**
 * ib_get_device_fw_str - the device's firmware version as text
 * @device: the device
 * @str: at least IB_FW_VERSION_NAME_MAX bytes; set to "" when the driver
 *	does not report one
 */
void ib_get_device_fw_str(struct ib_device *device, char *str)
{
	str[0] = '\0';
	if (device->ops.get_dev_fw_str)
		device->ops.get_dev_fw_str(device, str);
}
EXPORT_SYMBOL(ib_get_device_fw_str);

/**
 * ib_device_put - drop a registration reference
 * @device: the device, from ib_device_try_get() or a lookup
 *
 * The last reference lets a waiting unregistration proceed.
 */
void ib_device_put(struct ib_device *device)
{
	if (refcount_dec_and_test(&device->refcount))
		complete(&device->unreg_completion);
}
EXPORT_SYMBOL(ib_device_put);
