// SPDX-License-Identifier: GPL-2.0
/*
 * What kind of network a device or port is on: the transport of a node
 * type and the link layer of a port.  Constant answers; no state, no lock.
 */
#include "abi/ib_core/verbs.h"
#include "device/internal.h"

/**
 * rdma_node_get_transport() - the transport of a node type
 * @node_type: an enum rdma_node_type value (device->node_type)
 *
 * Return: RDMA_TRANSPORT_IWARP for RNICs, the usNIC transports for usNIC
 * nodes, RDMA_TRANSPORT_UNSPECIFIED for unspecified nodes and
 * RDMA_TRANSPORT_IB for every other value (channel adapters, switches,
 * routers).
 */
__attribute_const__ enum rdma_transport_type
rdma_node_get_transport(unsigned int node_type)
{
	switch (node_type) {
	case RDMA_NODE_RNIC:
		return RDMA_TRANSPORT_IWARP;
	case RDMA_NODE_USNIC:
		return RDMA_TRANSPORT_USNIC;
	case RDMA_NODE_USNIC_UDP:
		return RDMA_TRANSPORT_USNIC_UDP;
	case RDMA_NODE_UNSPECIFIED:
		return RDMA_TRANSPORT_UNSPECIFIED;
	default:
		return RDMA_TRANSPORT_IB;
	}
}
EXPORT_SYMBOL(rdma_node_get_transport);

/**
 * rdma_port_get_link_layer() - the link layer of a port
 * @device: the device
 * @port_num: a port of @device
 *
 * The device model owns the answer (ibdev_port_link_layer()).
 *
 * Return: what the driver's get_link_layer says when it has one; else
 * IB_LINK_LAYER_INFINIBAND for nodes of the InfiniBand transport and
 * IB_LINK_LAYER_ETHERNET for the others.
 */
enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *device,
					      u32 port_num)
{
	return ibdev_port_link_layer(device, port_num);
}
EXPORT_SYMBOL(rdma_port_get_link_layer);
