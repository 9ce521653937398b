// SPDX-License-Identifier: GPL-2.0
/*
 * Packets for the suites of rdma_kunit_rxe (skb.h).
 */
#include "skb.h"

#define RXE_KUNIT_HEADROOM	64

/**
 * rxe_kunit_skb - an skb holding a packet
 * @test: the test; the skb is the caller's to free
 * @img: the packet from its IP header on
 * @len: its bytes
 * @in_frag: how many of the last ones lie in a page fragment (not at the
 *	page's start, to catch offset mistakes)
 *
 * Return: the skb, its data and network header at the IP header.
 */
struct sk_buff *rxe_kunit_skb(struct kunit *test, const u8 *img,
			      unsigned int len, unsigned int in_frag)
{
	unsigned int linear = len - in_frag;
	struct sk_buff *skb;
	struct page *page;

	skb = alloc_skb(RXE_KUNIT_HEADROOM + linear, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, RXE_KUNIT_HEADROOM);
	skb_put_data(skb, img, linear);
	skb_reset_network_header(skb);
	if (in_frag) {
		page = alloc_page(GFP_KERNEL);
		if (!page)
			kfree_skb(skb);
		KUNIT_ASSERT_NOT_NULL(test, page);
		memcpy(page_address(page) + 100, img + linear, in_frag);
		skb_fill_page_desc(skb, 0, page, 100, in_frag);
		skb->len += in_frag;
		skb->data_len += in_frag;
		skb->truesize += PAGE_SIZE;
	}
	return skb;
}
