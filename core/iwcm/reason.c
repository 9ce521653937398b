// SPDX-License-Identifier: GPL-2.0
/*
 * iwcm_reject_msg: the text of an iWARP connect reply's status.
 */
#include "abi/iw_cm/iwcm.h"
#include "internal.h"

/**
 * iwcm_reject_msg - describe why a connection was not made
 * @reason: the status of an IW_CM_EVENT_CONNECT_REPLY: a negative errno
 *
 * Return: a constant string; "unrecognized reason" for a status iWARP
 * drivers do not report (positive ones too).
 */
const char *__attribute_const__ iwcm_reject_msg(int reason)
{
	switch (reason) {
	case -ECONNRESET:
		return "reset by remote host";
	case -ECONNREFUSED:
		return "refused by remote application";
	case -ETIMEDOUT:
		return "setup timeout";
	default:
		return "unrecognized reason";
	}
}
EXPORT_SYMBOL(iwcm_reject_msg);
