/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets for the suites of rdma_kunit_rxe: an skb holding a packet image
 * from its IP header on, linear or with its tail in a page fragment.
 */
#ifndef RXE_KUNIT_SKB_H
#define RXE_KUNIT_SKB_H

#include <kunit/test.h>
#include <linux/skbuff.h>

struct sk_buff *rxe_kunit_skb(struct kunit *test, const u8 *img,
			      unsigned int len, unsigned int in_frag);

#endif /* RXE_KUNIT_SKB_H */
