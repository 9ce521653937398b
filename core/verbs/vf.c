// SPDX-License-Identifier: GPL-2.0
/*
 * SR-IOV virtual functions of a device's port, as the IPoIB netdev's
 * ndo_*_vf_* operations reach them: configuration, statistics, GUIDs and
 * link state, each the driver's operation.
 *
 * No state, no lock of ours.
 */
#include "abi/ib_core/verbs.h"

/* -EINVAL for a port the device does not have; -EOPNOTSUPP without the op */
static int vf_check(struct ib_device *device, u32 port, bool has_op)
{
	if (!rdma_is_port_valid(device, port))
		return -EINVAL;
	return has_op ? 0 : -EOPNOTSUPP;
}

/**
 * ib_set_vf_link_state - set a virtual function's link state
 * @device: the physical function's device
 * @vf: the virtual function
 * @port: the port
 * @state: IFLA_VF_LINK_STATE_AUTO, _ENABLE or _DISABLE
 *
 * Return: the driver's result; -EINVAL for an invalid port; -EOPNOTSUPP
 * if the driver has no SR-IOV operations.
 */
int ib_set_vf_link_state(struct ib_device *device, int vf, u32 port,
			 int state)
{
	int ret = vf_check(device, port, !!device->ops.set_vf_link_state);

	return ret ?: device->ops.set_vf_link_state(device, vf, port, state);
}
EXPORT_SYMBOL(ib_set_vf_link_state);

/**
 * ib_get_vf_config - read a virtual function's configuration
 * @device: the physical function's device
 * @vf: the virtual function
 * @port: the port
 * @info: filled by the driver
 *
 * Return: as ib_set_vf_link_state().
 */
int ib_get_vf_config(struct ib_device *device, int vf, u32 port,
		     struct ifla_vf_info *info)
{
	int ret = vf_check(device, port, !!device->ops.get_vf_config);

	return ret ?: device->ops.get_vf_config(device, vf, port, info);
}
EXPORT_SYMBOL(ib_get_vf_config);

/**
 * ib_get_vf_stats - read a virtual function's traffic counters
 * @device: the physical function's device
 * @vf: the virtual function
 * @port: the port
 * @stats: filled by the driver
 *
 * Return: as ib_set_vf_link_state().
 */
int ib_get_vf_stats(struct ib_device *device, int vf, u32 port,
		    struct ifla_vf_stats *stats)
{
	int ret = vf_check(device, port, !!device->ops.get_vf_stats);

	return ret ?: device->ops.get_vf_stats(device, vf, port, stats);
}
EXPORT_SYMBOL(ib_get_vf_stats);

/**
 * ib_set_vf_guid - set a virtual function's node or port GUID
 * @device: the physical function's device
 * @vf: the virtual function
 * @port: the port
 * @guid: the GUID
 * @type: IFLA_VF_IB_NODE_GUID or IFLA_VF_IB_PORT_GUID
 *
 * Return: as ib_set_vf_link_state().
 */
int ib_set_vf_guid(struct ib_device *device, int vf, u32 port, u64 guid,
		   int type)
{
	int ret = vf_check(device, port, !!device->ops.set_vf_guid);

	return ret ?: device->ops.set_vf_guid(device, vf, port, guid, type);
}
EXPORT_SYMBOL(ib_set_vf_guid);

/**
 * ib_get_vf_guid - read a virtual function's node and port GUIDs
 * @device: the physical function's device
 * @vf: the virtual function
 * @port: the port
 * @node_guid: filled by the driver
 * @port_guid: filled by the driver
 *
 * Return: as ib_set_vf_link_state().
 */
int ib_get_vf_guid(struct ib_device *device, int vf, u32 port,
		   struct ifla_vf_guid *node_guid,
		   struct ifla_vf_guid *port_guid)
{
	int ret = vf_check(device, port, !!device->ops.get_vf_guid);

	return ret ?: device->ops.get_vf_guid(device, vf, port, node_guid,
					      port_guid);
}
EXPORT_SYMBOL(ib_get_vf_guid);
