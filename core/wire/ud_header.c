// SPDX-License-Identifier: GPL-2.0
/*
 * The headers of a UD datagram as drivers that build them in software
 * send them (<rdma/ib_pack.h>, struct ib_ud_header): on InfiniBand an
 * LRH, perhaps a GRH; on RoCE an Ethernet header, perhaps a VLAN tag,
 * then a GRH (RoCE v1, RoCEv2 over IPv6) or an IPv4 header, and UDP for
 * RoCEv2; then BTH, DETH and perhaps the immediate data.
 *
 * The wire layout of each header is a table of struct ib_field for
 * ib_pack()/ib_unpack() (packer.c), from the IBTA specification (LRH,
 * GRH, BTH, DETH: volume 1, chapter 9), IEEE 802.3/802.1Q, RFC 791 and
 * RFC 768.
 *
 * Locking: none; the caller owns the header and the buffer.
 */
#include "abi/ib_core/ud_header.h"
#include <net/checksum.h>

/* A field of host structure @type's @member at @bits bits of word @w. */
#define UDH_FIELD(type, member, w, bit, bits) {				\
	.struct_offset_bytes = offsetof(type, member),			\
	.struct_size_bytes = sizeof_field(type, member),		\
	.offset_words = (w), .offset_bits = (bit), .size_bits = (bits),	\
	.field_name = #type "." #member }
/* Bits the sender sets to zero. */
#define UDH_ZERO(w, bit, bits) {					\
	.offset_words = (w), .offset_bits = (bit), .size_bits = (bits),	\
	.field_name = "reserved" }

#define LRH(m, w, b, n)		UDH_FIELD(struct ib_unpacked_lrh, m, w, b, n)
#define GRH(m, w, b, n)		UDH_FIELD(struct ib_unpacked_grh, m, w, b, n)
#define BTH(m, w, b, n)		UDH_FIELD(struct ib_unpacked_bth, m, w, b, n)
#define DETH(m, w, b, n)	UDH_FIELD(struct ib_unpacked_deth, m, w, b, n)
#define ETH(m, w, b, n)		UDH_FIELD(struct ib_unpacked_eth, m, w, b, n)
#define VLAN(m, w, b, n)	UDH_FIELD(struct ib_unpacked_vlan, m, w, b, n)
#define IP4(m, w, b, n)		UDH_FIELD(struct ib_unpacked_ip4, m, w, b, n)
#define UDP(m, w, b, n)		UDH_FIELD(struct ib_unpacked_udp, m, w, b, n)

/* Local Route Header, 8 bytes */
static const struct ib_field udh_lrh[] = {
	LRH(virtual_lane, 0, 0, 4),
	LRH(link_version, 0, 4, 4),
	LRH(service_level, 0, 8, 4),
	UDH_ZERO(0, 12, 2),
	LRH(link_next_header, 0, 14, 2),
	LRH(destination_lid, 0, 16, 16),
	UDH_ZERO(1, 0, 5),
	LRH(packet_length, 1, 5, 11),
	LRH(source_lid, 1, 16, 16),
};

/* Global Route Header (IPv6 on RoCE), 40 bytes */
static const struct ib_field udh_grh[] = {
	GRH(ip_version, 0, 0, 4),
	GRH(traffic_class, 0, 4, 8),
	GRH(flow_label, 0, 12, 20),
	GRH(payload_length, 1, 0, 16),
	GRH(next_header, 1, 16, 8),
	GRH(hop_limit, 1, 24, 8),
	GRH(source_gid, 2, 0, 128),
	GRH(destination_gid, 6, 0, 128),
};

/* Base Transport Header, 12 bytes */
static const struct ib_field udh_bth[] = {
	BTH(opcode, 0, 0, 8),
	BTH(solicited_event, 0, 8, 1),
	BTH(mig_req, 0, 9, 1),
	BTH(pad_count, 0, 10, 2),
	BTH(transport_header_version, 0, 12, 4),
	BTH(pkey, 0, 16, 16),
	UDH_ZERO(1, 0, 8),
	BTH(destination_qpn, 1, 8, 24),
	BTH(ack_req, 2, 0, 1),
	UDH_ZERO(2, 1, 7),
	BTH(psn, 2, 8, 24),
};

/* Datagram Extended Transport Header, 8 bytes */
static const struct ib_field udh_deth[] = {
	DETH(qkey, 0, 0, 32),
	UDH_ZERO(1, 0, 8),
	DETH(source_qpn, 1, 8, 24),
};

/* Ethernet, 14 bytes: the MACs are split at 32-bit words */
static const struct ib_field udh_eth[] = {
	ETH(dmac_h, 0, 0, 32),
	ETH(dmac_l, 1, 0, 16),
	ETH(smac_h, 1, 16, 16),
	ETH(smac_l, 2, 0, 32),
	ETH(type, 3, 0, 16),
};

/* 802.1Q tag and the type after it, 4 bytes */
static const struct ib_field udh_vlan[] = {
	VLAN(tag, 0, 0, 16),
	VLAN(type, 0, 16, 16),
};

/* IPv4 without options, 20 bytes */
static const struct ib_field udh_ip4[] = {
	IP4(ver, 0, 0, 4),
	IP4(hdr_len, 0, 4, 4),
	IP4(tos, 0, 8, 8),
	IP4(tot_len, 0, 16, 16),
	IP4(id, 1, 0, 16),
	IP4(frag_off, 1, 16, 16),
	IP4(ttl, 2, 0, 8),
	IP4(protocol, 2, 8, 8),
	IP4(check, 2, 16, 16),
	IP4(saddr, 3, 0, 32),
	IP4(daddr, 4, 0, 32),
};

/* UDP, 8 bytes */
static const struct ib_field udh_udp[] = {
	UDP(sport, 0, 0, 16),
	UDP(dport, 0, 16, 16),
	UDP(length, 1, 0, 16),
	UDP(csum, 1, 16, 16),
};

/**
 * ib_ud_ip4_csum - the checksum of a UD header's IPv4 header
 * @header: the header, its ip4 filled in
 *
 * Return: the IPv4 header checksum (computed with a zero check field,
 * version 4 and a 5-word header), to store in header->ip4.check.
 */
__sum16 ib_ud_ip4_csum(struct ib_ud_header *header)
{
	struct ib_unpacked_ip4 ip4 = header->ip4;
	u32 wire[IB_IP4_BYTES / 4] = {};

	ip4.ver = 4;
	ip4.hdr_len = 5;
	ip4.check = 0;
	ib_pack(udh_ip4, ARRAY_SIZE(udh_ip4), &ip4, wire);
	return ip_fast_csum(wire, ip4.hdr_len);
}
EXPORT_SYMBOL(ib_ud_ip4_csum);

/* Bytes after the network headers: UDP, BTH, DETH, payload, ICRC. */
static int udh_transport_bytes(int payload_bytes, bool udp)
{
	return (udp ? IB_UDP_BYTES : 0) + IB_BTH_BYTES + IB_DETH_BYTES +
	       payload_bytes + IB_ICRC_BYTES;
}

/**
 * ib_ud_header_init - set up the headers of a UD datagram
 * @payload_bytes: the length of the payload
 * @lrh_present: an LRH (InfiniBand)
 * @eth_present: an Ethernet header (RoCE)
 * @vlan_present: a VLAN tag after it
 * @grh_present: a GRH (ignored when @ip_version is set)
 * @ip_version: 0, 4 (IPv4 header) or 6 (a GRH as IPv6 header)
 * @udp_present: a UDP header (RoCEv2; needs @ip_version)
 * @immediate_present: immediate data after the DETH
 * @header: zeroed, then its presence flags, lengths, next headers and BTH
 *	opcode and pad count set; the caller fills in addresses and keys
 *
 * Return: 0, or -EINVAL for UDP without IP (@header is then zeroed).
 */
int ib_ud_header_init(int payload_bytes, int lrh_present, int eth_present,
		      int vlan_present, int grh_present, int ip_version,
		      int udp_present, int immediate_present,
		      struct ib_ud_header *header)
{
	bool lrh_grh = grh_present && !ip_version;
	bool ip6 = ip_version == 6 || lrh_grh;
	bool ip4 = ip_version == 4;
	bool udp = udp_present;
	int after = udh_transport_bytes(payload_bytes, udp);

	memset(header, 0, sizeof(*header));
	if (udp && !ip4 && ip_version != 6)
		return -EINVAL;

	header->lrh_present = lrh_present;
	header->eth_present = eth_present;
	header->vlan_present = vlan_present;
	header->grh_present = ip6;
	header->ipv4_present = ip4;
	header->udp_present = udp;
	header->immediate_present = immediate_present;

	if (lrh_present) {
		/* In 4-byte words, LRH to ICRC, the payload padded */
		header->lrh.link_next_header = lrh_grh ? IB_LNH_IBA_GLOBAL :
							 IB_LNH_IBA_LOCAL;
		header->lrh.packet_length =
			cpu_to_be16(DIV_ROUND_UP(IB_LRH_BYTES +
						 (lrh_grh ? IB_GRH_BYTES : 0) +
						 udh_transport_bytes(payload_bytes,
								     false),
						 4));
	}
	if (vlan_present)
		header->eth.type = cpu_to_be16(ETH_P_8021Q);
	if (ip6) {
		header->grh.ip_version = 6;
		header->grh.payload_length = cpu_to_be16(ALIGN(after, 4));
		header->grh.next_header = udp ? IPPROTO_UDP : 0x1b;
	}
	if (ip4) {
		header->ip4.ver = 4;
		header->ip4.hdr_len = 5;
		header->ip4.tot_len = cpu_to_be16(IB_IP4_BYTES + after);
		header->ip4.protocol = IPPROTO_UDP;
	}
	if (udp)
		header->udp.length = cpu_to_be16(after);
	header->bth.opcode = immediate_present ?
			     IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE :
			     IB_OPCODE_UD_SEND_ONLY;
	header->bth.pad_count = -payload_bytes & 3;
	return 0;
}
EXPORT_SYMBOL(ib_ud_header_init);

/* Packs one header of @header into @buf at *@len and moves *@len on. */
static void udh_put(const struct ib_field *desc, int n, void *host,
		    void *buf, int *len, int bytes)
{
	ib_pack(desc, n, host, buf + *len);
	*len += bytes;
}

/**
 * ib_ud_header_pack - the wire form of a UD datagram's headers
 * @header: the headers, from ib_ud_header_init() and the caller
 * @buf: where they go; room for every header present
 *
 * Return: the number of bytes written.
 */
int ib_ud_header_pack(struct ib_ud_header *header, void *buf)
{
	int len = 0;

	if (header->lrh_present)
		udh_put(udh_lrh, ARRAY_SIZE(udh_lrh), &header->lrh, buf, &len,
			IB_LRH_BYTES);
	if (header->eth_present)
		udh_put(udh_eth, ARRAY_SIZE(udh_eth), &header->eth, buf, &len,
			IB_ETH_BYTES);
	if (header->vlan_present)
		udh_put(udh_vlan, ARRAY_SIZE(udh_vlan), &header->vlan, buf,
			&len, IB_VLAN_BYTES);
	if (header->grh_present)
		udh_put(udh_grh, ARRAY_SIZE(udh_grh), &header->grh, buf, &len,
			IB_GRH_BYTES);
	if (header->ipv4_present)
		udh_put(udh_ip4, ARRAY_SIZE(udh_ip4), &header->ip4, buf, &len,
			IB_IP4_BYTES);
	if (header->udp_present)
		udh_put(udh_udp, ARRAY_SIZE(udh_udp), &header->udp, buf, &len,
			IB_UDP_BYTES);
	udh_put(udh_bth, ARRAY_SIZE(udh_bth), &header->bth, buf, &len,
		IB_BTH_BYTES);
	udh_put(udh_deth, ARRAY_SIZE(udh_deth), &header->deth, buf, &len,
		IB_DETH_BYTES);
	if (header->immediate_present) {
		memcpy(buf + len, &header->immediate_data,
		       sizeof(header->immediate_data));
		len += sizeof(header->immediate_data);
	}
	return len;
}
EXPORT_SYMBOL(ib_ud_header_pack);

/* The LRH and GRH of a datagram; -EINVAL if they are not a UD's. */
static int udh_get_network(void **buf, struct ib_ud_header *header)
{
	ib_unpack(udh_lrh, ARRAY_SIZE(udh_lrh), *buf, &header->lrh);
	*buf += IB_LRH_BYTES;
	if (header->lrh.link_version)
		return -EINVAL;
	switch (header->lrh.link_next_header) {
	case IB_LNH_IBA_LOCAL:
		return 0;
	case IB_LNH_IBA_GLOBAL:
		break;
	default:
		return -EINVAL;
	}
	header->grh_present = 1;
	ib_unpack(udh_grh, ARRAY_SIZE(udh_grh), *buf, &header->grh);
	*buf += IB_GRH_BYTES;
	if (header->grh.ip_version != 6 || header->grh.next_header != 0x1b)
		return -EINVAL;
	return 0;
}

/**
 * ib_ud_header_unpack - read the headers of a UD datagram received on
 *	InfiniBand
 * @buf: the datagram, from its LRH on
 * @header: filled in: LRH, GRH when the LRH says one follows, BTH, DETH
 *	and the immediate data of a SEND with immediate
 *
 * Return: 0, or -EINVAL when the headers are not those of a UD SEND: a
 * link version other than 0, a next header other than IBA local or
 * global, a GRH that is not version 6 with IBA transport next, another
 * BTH opcode or a transport header version other than 0.
 */
int ib_ud_header_unpack(void *buf, struct ib_ud_header *header)
{
	int ret;

	header->lrh_present = 1;
	header->eth_present = 0;
	header->vlan_present = 0;
	header->grh_present = 0;
	header->ipv4_present = 0;
	header->udp_present = 0;
	ret = udh_get_network(&buf, header);
	if (ret)
		return ret;

	ib_unpack(udh_bth, ARRAY_SIZE(udh_bth), buf, &header->bth);
	buf += IB_BTH_BYTES;
	if (header->bth.transport_header_version)
		return -EINVAL;
	if (header->bth.opcode == IB_OPCODE_UD_SEND_ONLY)
		header->immediate_present = 0;
	else if (header->bth.opcode == IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE)
		header->immediate_present = 1;
	else
		return -EINVAL;

	ib_unpack(udh_deth, ARRAY_SIZE(udh_deth), buf, &header->deth);
	buf += IB_DETH_BYTES;
	if (header->immediate_present)
		memcpy(&header->immediate_data, buf,
		       sizeof(header->immediate_data));
	return 0;
}
EXPORT_SYMBOL(ib_ud_header_unpack);
