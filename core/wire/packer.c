// SPDX-License-Identifier: GPL-2.0
/*
 * Structures to wire formats and back (<rdma/ib_pack.h>): ib_pack() and
 * ib_unpack() walk a table of struct ib_field, each of which ties a
 * member of a host structure (offset, size) to a run of bits of a
 * big-endian wire buffer (32-bit word, first bit, width; bit 0 is the
 * most significant bit of its word).
 *
 * A host member of 1, 2, 4 or 8 bytes holds a number, in network order
 * when it has more than one byte (the __be types of the headers' structs);
 * its low bits are the field.  A field wider than 64 bits is a string of
 * bytes (a GID) copied as it is.  A field without a host member
 * (struct_size_bytes 0) is reserved: packed as zeros, skipped when
 * unpacking.  Bits that no field names are left as they were.
 *
 * The wire is walked a byte at a time, so that a field may start and end
 * anywhere and a field wider than 64 bits need not be byte-aligned.
 *
 * Locking: none; the caller owns both buffers.
 */
#include "abi/ib_core/packer.h"
#include <asm/unaligned.h>

/* Where field @f starts on the wire, in bits from the buffer's start. */
static unsigned int pk_wire_pos(const struct ib_field *f)
{
	return f->offset_words * 32 + f->offset_bits;
}

/*
 * The part of the byte at bit @pos that a run of @bits bits covers:
 * how many of its bits (*take) and how far they are from its low end.
 */
static unsigned int pk_chunk(unsigned int pos, unsigned int bits,
			     unsigned int *take)
{
	unsigned int lead = pos % 8;

	*take = min(8 - lead, bits);
	return 8 - lead - *take;
}

/* Stores the low @bits (at most 64) bits of @val at bit @pos of @wire. */
static void pk_wire_put(u8 *wire, unsigned int pos, unsigned int bits,
			u64 val)
{
	unsigned int take, shift;
	u8 mask, part;

	while (bits) {
		shift = pk_chunk(pos, bits, &take);
		mask = GENMASK(take - 1, 0) << shift;
		part = (val >> (bits - take)) << shift;
		wire[pos / 8] = (wire[pos / 8] & ~mask) | (part & mask);
		pos += take;
		bits -= take;
	}
}

/* The @bits (at most 64) bits at bit @pos of @wire, as a number. */
static u64 pk_wire_get(const u8 *wire, unsigned int pos, unsigned int bits)
{
	unsigned int take, shift;
	u64 val = 0;

	while (bits) {
		shift = pk_chunk(pos, bits, &take);
		val = val << take |
		      ((wire[pos / 8] >> shift) & GENMASK(take - 1, 0));
		pos += take;
		bits -= take;
	}
	return val;
}

/* The number a host member of 1, 2, 4 or 8 bytes holds (0 for others). */
static u64 pk_host_get(const void *structure, const struct ib_field *f)
{
	const void *m = structure + f->struct_offset_bytes;

	switch (f->struct_size_bytes) {
	case 1:
		return *(const u8 *)m;
	case 2:
		return get_unaligned_be16(m);
	case 4:
		return get_unaligned_be32(m);
	case 8:
		return get_unaligned_be64(m);
	}
	return 0;
}

static void pk_host_set(void *structure, const struct ib_field *f, u64 val)
{
	void *m = structure + f->struct_offset_bytes;

	switch (f->struct_size_bytes) {
	case 1:
		*(u8 *)m = val;
		break;
	case 2:
		put_unaligned_be16(val, m);
		break;
	case 4:
		put_unaligned_be32(val, m);
		break;
	case 8:
		put_unaligned_be64(val, m);
		break;
	}
}

/* A byte string field: @host is NULL for a reserved one (zeros). */
static void pk_bytes_put(u8 *wire, const struct ib_field *f, const u8 *host)
{
	unsigned int pos = pk_wire_pos(f), n = f->size_bits / 8, i;

	if (!(pos % 8)) {
		if (host)
			memcpy(wire + pos / 8, host, n);
		else
			memset(wire + pos / 8, 0, n);
		return;
	}
	for (i = 0; i < n; i++)
		pk_wire_put(wire, pos + 8 * i, 8, host ? host[i] : 0);
}

static void pk_bytes_get(const u8 *wire, const struct ib_field *f, u8 *host)
{
	unsigned int pos = pk_wire_pos(f), n = f->size_bits / 8, i;

	if (!(pos % 8)) {
		memcpy(host, wire + pos / 8, n);
		return;
	}
	for (i = 0; i < n; i++)
		host[i] = pk_wire_get(wire, pos + 8 * i, 8);
}

/**
 * ib_pack - pack a structure into a wire format
 * @desc: the fields: each a host member and where it goes on the wire
 * @desc_len: how many
 * @structure: the host structure
 * @buf: the wire buffer; only the bits the fields name are written
 */
void ib_pack(const struct ib_field *desc, int desc_len, void *structure,
	     void *buf)
{
	const struct ib_field *f;

	for (f = desc; f < desc + desc_len; f++) {
		if (f->size_bits > 64)
			pk_bytes_put(buf, f, f->struct_size_bytes ?
				     structure + f->struct_offset_bytes : NULL);
		else
			pk_wire_put(buf, pk_wire_pos(f), f->size_bits,
				    f->struct_size_bytes ?
				    pk_host_get(structure, f) : 0);
	}
}
EXPORT_SYMBOL(ib_pack);

/**
 * ib_unpack - unpack a wire format into a structure
 * @desc: the fields: each a host member and where it is on the wire
 * @desc_len: how many
 * @buf: the wire buffer
 * @structure: the host structure; members of reserved fields are not
 *	touched
 */
void ib_unpack(const struct ib_field *desc, int desc_len, void *buf,
	       void *structure)
{
	const struct ib_field *f;

	for (f = desc; f < desc + desc_len; f++) {
		if (!f->struct_size_bytes)
			continue;
		if (f->size_bits > 64)
			pk_bytes_get(buf, f,
				     structure + f->struct_offset_bytes);
		else
			pk_host_set(structure, f,
				    pk_wire_get(buf, pk_wire_pos(f),
						f->size_bits));
	}
}
EXPORT_SYMBOL(ib_unpack);
