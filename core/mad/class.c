// SPDX-License-Identifier: GPL-2.0
/*
 * What the IBTA's management classes say about their MADs: which methods
 * are responses, where a class's data starts, which classes may use RMPP,
 * and whether an agent leaves RMPP to the kernel.
 *
 * Locking: none; pure functions of their arguments.
 */
#include "abi/ib_core/mad.h"
#include "internal.h"

/**
 * ib_response_mad - whether a MAD is a response
 * @hdr: its common header
 *
 * A response has the response bit in its method, or is a TrapRepress; a
 * Baseboard Management Send is a response when its attribute modifier
 * says so.
 *
 * Return: non-zero for a response.
 */
int ib_response_mad(const struct ib_mad_hdr *hdr)
{
	if (hdr->method & IB_MGMT_METHOD_RESP)
		return 1;
	if (hdr->method == IB_MGMT_METHOD_TRAP_REPRESS)
		return 1;
	return hdr->mgmt_class == IB_MGMT_CLASS_BM &&
	       (hdr->attr_mod & IB_BM_ATTR_MOD_RESP);
}
EXPORT_SYMBOL(ib_response_mad);

/* Vendor classes of the second range carry an OUI and may use RMPP. */
static bool class_vendor2(u8 mgmt_class)
{
	return mgmt_class >= IB_MGMT_CLASS_VENDOR_RANGE2_START &&
	       mgmt_class <= IB_MGMT_CLASS_VENDOR_RANGE2_END;
}

/**
 * ib_get_mad_data_offset - where a class's data starts in its MADs
 * @mgmt_class: the management class
 *
 * Return: the length of the headers before the data: the SA header for
 * Subnet Administration, the vendor header (with its OUI) for the second
 * vendor range, the RMPP header for the other classes that use RMPP, the
 * common MAD header else.
 */
int ib_get_mad_data_offset(u8 mgmt_class)
{
	if (mgmt_class == IB_MGMT_CLASS_SUBN_ADM)
		return IB_MGMT_SA_HDR;
	if (mgmt_class == IB_MGMT_CLASS_DEVICE_MGMT ||
	    mgmt_class == IB_MGMT_CLASS_DEVICE_ADM ||
	    mgmt_class == IB_MGMT_CLASS_BIS)
		return IB_MGMT_DEVICE_HDR;
	if (class_vendor2(mgmt_class))
		return IB_MGMT_VENDOR_HDR;
	return IB_MGMT_MAD_HDR;
}
EXPORT_SYMBOL(ib_get_mad_data_offset);

/**
 * ib_is_mad_class_rmpp - whether a management class may use RMPP
 * @mgmt_class: the class
 *
 * Return: non-zero for Subnet Administration, Device Management, Device
 * Administration, BIS and the second vendor range.
 */
int ib_is_mad_class_rmpp(u8 mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SUBN_ADM ||
	       mgmt_class == IB_MGMT_CLASS_DEVICE_MGMT ||
	       mgmt_class == IB_MGMT_CLASS_DEVICE_ADM ||
	       mgmt_class == IB_MGMT_CLASS_BIS ||
	       class_vendor2(mgmt_class);
}
EXPORT_SYMBOL(ib_is_mad_class_rmpp);

/**
 * ib_mad_kernel_rmpp_agent - whether the MAD layer does an agent's RMPP
 * @agent: the agent
 *
 * Return: non-zero if the agent registered an RMPP version without
 * IB_MAD_USER_RMPP: the kernel segments its sends and reassembles its
 * receives.
 */
int ib_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent)
{
	return agent->rmpp_version && !(agent->flags & IB_MAD_USER_RMPP);
}
EXPORT_SYMBOL(ib_mad_kernel_rmpp_agent);
