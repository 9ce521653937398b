/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_cm's extension beyond Linux 6.1: alternate path loading on an
 * established connection (LAP and APR, IBA volume 1, 12.8), exported by
 * our ib_cm (core/cm/lap.c).  The events and their parameters are those
 * <rdma/ib_cm.h> still declares: IB_CM_LAP_RECEIVED, IB_CM_APR_RECEIVED,
 * IB_CM_LAP_ERROR.
 */
#ifndef OOT_CORE_IB_CM_LAP_H
#define OOT_CORE_IB_CM_LAP_H

#include <rdma/ib_cm.h>

int ib_cm_lap(struct ib_cm_id *cm_id, struct sa_path_rec *alternate_path,
	      const void *private_data, u8 private_data_len);
int ib_cm_apr(struct ib_cm_id *cm_id, enum ib_cm_apr_status status,
	      const void *info, u8 info_length, const void *private_data,
	      u8 private_data_len);

#endif
