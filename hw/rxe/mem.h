/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory regions on the data path: an lkey or rkey looked up, checked
 * against the PD, access and range a work request or packet asks for, and
 * bytes copied in or out of the region, page by page; a fast-registration
 * MR registered and invalidated by work requests and packets.
 */
#ifndef SR_MEM_H
#define SR_MEM_H

#include <linux/skbuff.h>
#include "mr.h"

struct sr_dev;

struct sr_mr *sr_mr_get(struct sr_dev *sdev, u32 key);
void sr_mr_put(struct sr_mr *mr);
bool sr_mr_allows(const struct sr_mr *mr, const struct ib_pd *pd,
		  int access, u64 iova, u64 len);
struct sr_mr *sr_mr_use(struct sr_dev *sdev, const struct ib_pd *pd,
			u32 key, int access, u64 iova, u64 len);
int sr_mr_register(struct ib_mr *ibmr, const struct ib_pd *pd, u32 key,
		   int access);
int sr_mr_invalidate(struct sr_dev *sdev, const struct ib_pd *pd, u32 key);
int sr_mr_copy(struct sr_mr *mr, u64 iova, void *buf, u32 len, bool to_mr);
int sr_mr_from_skb(struct sr_mr *mr, u64 iova, const struct sk_buff *skb,
		   unsigned int off, u32 len);

#endif /* SR_MEM_H */
