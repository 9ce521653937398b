// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_wire_packer: core/wire/packer.c.  ib_pack() and
 * ib_unpack() against wire bytes worked out by hand: fields that share a
 * byte, cross a byte or a 32-bit word, a 48-bit number in the middle of
 * a word, a GID on and off a byte boundary, reserved fields, bits no
 * field names, a host member of a size that holds no number.
 */
#include <kunit/test.h>
#include <linux/stddef.h>
#include <rdma/ib_pack.h>

struct pt_host {
	u8 a;
	__be16 b;
	__be32 c;
	__be64 d;
	u8 gid[16];
	u8 odd[3];
	u8 untouched;
};

#define PT(m, w, bit, bits) {						\
	.struct_offset_bytes = offsetof(struct pt_host, m),		\
	.struct_size_bytes = sizeof_field(struct pt_host, m),		\
	.offset_words = (w), .offset_bits = (bit), .size_bits = (bits),	\
	.field_name = #m }

static const struct ib_field pt_desc[] = {
	PT(a, 0, 0, 4),			/* byte 0, high nibble */
	PT(b, 0, 4, 12),		/* byte 0 low nibble, byte 1 */
	{ .offset_words = 0, .offset_bits = 16, .size_bits = 8,
	  .field_name = "reserved" },	/* byte 2 */
	PT(c, 0, 24, 24),		/* bytes 3-5: across a word */
	PT(d, 1, 16, 48),		/* bytes 6-11 */
	PT(gid, 3, 0, 128),		/* bytes 12-27 */
};

static const u8 pt_wire[32] = {
	0xab, 0xcd, 0x00, 0x12, 0x34, 0x56, 0x11, 0x22,
	0x33, 0x44, 0x55, 0x66, 0xf0, 0xf1, 0xf2, 0xf3,
	0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb,
	0xfc, 0xfd, 0xfe, 0xff, 0xee, 0xee, 0xee, 0xee,
};

static void pt_fill(struct pt_host *h)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->a = 0x1a;			/* only the low 4 bits go */
	h->b = cpu_to_be16(0xfbcd);	/* only the low 12 */
	h->c = cpu_to_be32(0xff123456);
	h->d = cpu_to_be64(0xffff112233445566ULL);
	for (i = 0; i < 16; i++)
		h->gid[i] = 0xf0 + i;
}

static void pt_pack(struct kunit *test)
{
	struct pt_host h;
	u8 wire[32];

	pt_fill(&h);
	/* Bits no field names keep what was there, reserved ones become 0 */
	memset(wire, 0xee, sizeof(wire));
	ib_pack(pt_desc, ARRAY_SIZE(pt_desc), &h, wire);
	KUNIT_EXPECT_EQ(test, memcmp(wire, pt_wire, sizeof(wire)), 0);
}

static void pt_unpack(struct kunit *test)
{
	struct pt_host h;
	u8 wire[32];
	int i;

	memcpy(wire, pt_wire, sizeof(wire));
	memset(&h, 0, sizeof(h));
	h.untouched = 0x77;
	ib_unpack(pt_desc, ARRAY_SIZE(pt_desc), wire, &h);
	KUNIT_EXPECT_EQ(test, h.a, 0x0a);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.b), 0x0bcd);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.c), 0x123456);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(h.d), 0x112233445566ULL);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, h.gid[i], 0xf0 + i);
	KUNIT_EXPECT_EQ(test, h.untouched, 0x77);
	/* The wire is only read */
	KUNIT_EXPECT_EQ(test, memcmp(wire, pt_wire, sizeof(wire)), 0);
}

/* A 128-bit field four bits into its word: each byte split in two. */
static void pt_gid_unaligned(struct kunit *test)
{
	static const struct ib_field desc[] = { PT(gid, 0, 4, 128) };
	struct pt_host h = {}, back = {};
	u8 wire[20];
	int i;

	for (i = 0; i < 16; i++)
		h.gid[i] = i + 1;
	memset(wire, 0xff, sizeof(wire));
	ib_pack(desc, 1, &h, wire);
	KUNIT_EXPECT_EQ(test, wire[0], 0xf0);
	for (i = 1; i < 15; i++)
		KUNIT_EXPECT_EQ(test, wire[i], (i << 4) | ((i + 1) >> 4));
	KUNIT_EXPECT_EQ(test, wire[15], 0xf1);
	KUNIT_EXPECT_EQ(test, wire[16], 0x0f);
	KUNIT_EXPECT_EQ(test, wire[17], 0xff);
	ib_unpack(desc, 1, wire, &back);
	KUNIT_EXPECT_EQ(test, memcmp(back.gid, h.gid, sizeof(h.gid)), 0);
}

/* A 64-bit number in the second word: words are 32 bits, both ways. */
static void pt_u64_second_word(struct kunit *test)
{
	static const struct ib_field desc[] = { PT(d, 1, 0, 64) };
	static const u8 want[12] = { 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct pt_host h = { .d = cpu_to_be64(0x0102030405060708ULL) };
	struct pt_host back = {};
	u8 wire[12] = {};

	ib_pack(desc, 1, &h, wire);
	KUNIT_EXPECT_EQ(test, memcmp(wire, want, sizeof(want)), 0);
	ib_unpack(desc, 1, wire, &back);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(back.d), 0x0102030405060708ULL);
}

/* A host member of 3 bytes holds no number: packed as 0, not unpacked. */
static void pt_odd_member(struct kunit *test)
{
	static const struct ib_field desc[] = { PT(odd, 0, 0, 24) };
	struct pt_host h = { .odd = { 1, 2, 3 } };
	u8 wire[4];

	memset(wire, 0xaa, sizeof(wire));
	ib_pack(desc, 1, &h, wire);
	KUNIT_EXPECT_EQ(test, wire[0], 0);
	KUNIT_EXPECT_EQ(test, wire[1], 0);
	KUNIT_EXPECT_EQ(test, wire[2], 0);
	KUNIT_EXPECT_EQ(test, wire[3], 0xaa);
	ib_unpack(desc, 1, wire, &h);
	KUNIT_EXPECT_EQ(test, h.odd[0], 1);
	/* No fields: nothing happens */
	ib_pack(desc, 0, &h, wire);
	KUNIT_EXPECT_EQ(test, wire[3], 0xaa);
}

static struct kunit_case pt_cases[] = {
	KUNIT_CASE(pt_pack),
	KUNIT_CASE(pt_unpack),
	KUNIT_CASE(pt_gid_unaligned),
	KUNIT_CASE(pt_u64_second_word),
	KUNIT_CASE(pt_odd_member),
	{}
};

static struct kunit_suite pt_suite = {
	.name = "rdma_core_wire_packer",
	.test_cases = pt_cases,
};
kunit_test_suite(pt_suite);
