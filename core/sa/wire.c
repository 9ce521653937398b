// SPDX-License-Identifier: GPL-2.0
/*
 * The SA records on the wire (IBTA vol. 1, 15.2.5): PathRecord (64
 * bytes), MCMemberRecord (52) and GUIDInfoRecord (72), packed from and
 * unpacked into the structures of <rdma/ib_sa.h>.  Fields narrower than
 * their structure member keep their low bits; reserved bits are zero on
 * the way out and ignored on the way in.  ClassPortInfo needs no code:
 * struct ib_class_port_info is its wire layout.
 *
 * No state, no lock.
 */
#include "abi/ib_core/sa_query.h"
#include <asm/unaligned.h>
#include "sa/internal.h"

/* A 2-bit selector above a 6-bit value, as MTU, rate and life time are */
static u8 wire_sel(u8 selector, u8 value)
{
	return (selector & 0x3) << 6 | (value & 0x3f);
}

/*
 * PathRecord: ServiceID 0, DGID 8, SGID 24, DLID 40, SLID 42,
 * RawTraffic:1 reserved:3 FlowLabel:20 HopLimit:8 at 44, TClass 48,
 * Reversible:1 NumbPath:7 at 49, P_Key 50, QoSClass:12 SL:4 at 52,
 * MTU 54, Rate 55, PacketLifeTime 56 (each selector:2 value:6),
 * Preference 57, reserved to 64.
 */

/**
 * ib_sa_pack_path - a path record into its wire format
 * @rec: the record; its InfiniBand LIDs and raw-traffic bit are used
 *	whatever its type
 * @attribute: SA_PATH_REC_BYTES (64) bytes, all written
 */
void ib_sa_pack_path(struct sa_path_rec *rec, void *attribute)
{
	u8 *p = attribute;

	memset(p, 0, SA_PATH_REC_BYTES);
	put_unaligned(rec->service_id, (__be64 *)p);
	memcpy(p + 8, rec->dgid.raw, sizeof(rec->dgid.raw));
	memcpy(p + 24, rec->sgid.raw, sizeof(rec->sgid.raw));
	put_unaligned(rec->ib.dlid, (__be16 *)(p + 40));
	put_unaligned(rec->ib.slid, (__be16 *)(p + 42));
	put_unaligned_be32((u32)(rec->ib.raw_traffic & 1) << 31 |
			   (be32_to_cpu(rec->flow_label) & 0xfffff) << 8 |
			   rec->hop_limit, p + 44);
	p[48] = rec->traffic_class;
	p[49] = (rec->reversible & 1) << 7 | (rec->numb_path & 0x7f);
	put_unaligned(rec->pkey, (__be16 *)(p + 50));
	put_unaligned_be16((be16_to_cpu(rec->qos_class) & 0xfff) << 4 |
			   (rec->sl & 0xf), p + 52);
	p[54] = wire_sel(rec->mtu_selector, rec->mtu);
	p[55] = wire_sel(rec->rate_selector, rec->rate);
	p[56] = wire_sel(rec->packet_life_time_selector,
			 rec->packet_life_time);
	p[57] = rec->preference;
}
EXPORT_SYMBOL(ib_sa_pack_path);

/**
 * ib_sa_unpack_path - a path record from its wire format
 * @attribute: SA_PATH_REC_BYTES (64) bytes
 * @rec: the record; its wire fields and InfiniBand LIDs are written,
 *	its type and flags are left as they are
 */
void ib_sa_unpack_path(void *attribute, struct sa_path_rec *rec)
{
	const u8 *p = attribute;
	u32 word = get_unaligned_be32(p + 44);
	u16 qos_sl = get_unaligned_be16(p + 52);

	rec->service_id = get_unaligned((__be64 *)p);
	memcpy(rec->dgid.raw, p + 8, sizeof(rec->dgid.raw));
	memcpy(rec->sgid.raw, p + 24, sizeof(rec->sgid.raw));
	rec->ib.dlid = get_unaligned((__be16 *)(p + 40));
	rec->ib.slid = get_unaligned((__be16 *)(p + 42));
	rec->ib.raw_traffic = word >> 31;
	rec->flow_label = cpu_to_be32((word >> 8) & 0xfffff);
	rec->hop_limit = word & 0xff;
	rec->traffic_class = p[48];
	rec->reversible = p[49] >> 7;
	rec->numb_path = p[49] & 0x7f;
	rec->pkey = get_unaligned((__be16 *)(p + 50));
	rec->qos_class = cpu_to_be16(qos_sl >> 4);
	rec->sl = qos_sl & 0xf;
	rec->mtu_selector = p[54] >> 6;
	rec->mtu = p[54] & 0x3f;
	rec->rate_selector = p[55] >> 6;
	rec->rate = p[55] & 0x3f;
	rec->packet_life_time_selector = p[56] >> 6;
	rec->packet_life_time = p[56] & 0x3f;
	rec->preference = p[57];
}
EXPORT_SYMBOL(ib_sa_unpack_path);

/*
 * MCMemberRecord: MGID 0, PortGID 16, Q_Key 32, MLID 36, MTU 38, TClass
 * 39, P_Key 40, Rate 42, PacketLifeTime 43, SL:4 FlowLabel:20 HopLimit:8
 * at 44, Scope:4 JoinState:4 at 48, ProxyJoin:1 reserved:23 at 49.
 */

/**
 * wire_mcmember_pack - an MCMemberRecord into its wire format
 * @rec: the record
 * @attr: SA_MCMEMBER_REC_BYTES bytes, all written
 */
void wire_mcmember_pack(const struct ib_sa_mcmember_rec *rec, void *attr)
{
	u8 *p = attr;

	memset(p, 0, SA_MCMEMBER_REC_BYTES);
	memcpy(p, rec->mgid.raw, sizeof(rec->mgid.raw));
	memcpy(p + 16, rec->port_gid.raw, sizeof(rec->port_gid.raw));
	put_unaligned(rec->qkey, (__be32 *)(p + 32));
	put_unaligned(rec->mlid, (__be16 *)(p + 36));
	p[38] = wire_sel(rec->mtu_selector, rec->mtu);
	p[39] = rec->traffic_class;
	put_unaligned(rec->pkey, (__be16 *)(p + 40));
	p[42] = wire_sel(rec->rate_selector, rec->rate);
	p[43] = wire_sel(rec->packet_life_time_selector,
			 rec->packet_life_time);
	put_unaligned_be32((u32)(rec->sl & 0xf) << 28 |
			   (be32_to_cpu(rec->flow_label) & 0xfffff) << 8 |
			   rec->hop_limit, p + 44);
	p[48] = (rec->scope & 0xf) << 4 | (rec->join_state & 0xf);
	p[49] = (rec->proxy_join & 1) << 7;
}

/**
 * wire_mcmember_unpack - an MCMemberRecord from its wire format
 * @attr: SA_MCMEMBER_REC_BYTES bytes
 * @rec: the record, every member written
 */
void wire_mcmember_unpack(const void *attr, struct ib_sa_mcmember_rec *rec)
{
	const u8 *p = attr;
	u32 word = get_unaligned_be32(p + 44);

	memcpy(rec->mgid.raw, p, sizeof(rec->mgid.raw));
	memcpy(rec->port_gid.raw, p + 16, sizeof(rec->port_gid.raw));
	rec->qkey = get_unaligned((__be32 *)(p + 32));
	rec->mlid = get_unaligned((__be16 *)(p + 36));
	rec->mtu_selector = p[38] >> 6;
	rec->mtu = p[38] & 0x3f;
	rec->traffic_class = p[39];
	rec->pkey = get_unaligned((__be16 *)(p + 40));
	rec->rate_selector = p[42] >> 6;
	rec->rate = p[42] & 0x3f;
	rec->packet_life_time_selector = p[43] >> 6;
	rec->packet_life_time = p[43] & 0x3f;
	rec->sl = word >> 28;
	rec->flow_label = cpu_to_be32((word >> 8) & 0xfffff);
	rec->hop_limit = word & 0xff;
	rec->scope = p[48] >> 4;
	rec->join_state = p[48] & 0xf;
	rec->proxy_join = p[49] >> 7;
}

/* GUIDInfoRecord: LID 0, BlockNum 2, reserved 3..7, eight GUIDs at 8 */

/**
 * wire_guidinfo_pack - a GUIDInfoRecord into its wire format
 * @rec: the record
 * @attr: SA_GUIDINFO_REC_BYTES bytes, all written
 */
void wire_guidinfo_pack(const struct ib_sa_guidinfo_rec *rec, void *attr)
{
	u8 *p = attr;

	memset(p, 0, SA_GUIDINFO_REC_BYTES);
	put_unaligned(rec->lid, (__be16 *)p);
	p[2] = rec->block_num;
	memcpy(p + 8, rec->guid_info_list, sizeof(rec->guid_info_list));
}

/**
 * wire_guidinfo_unpack - a GUIDInfoRecord from its wire format
 * @attr: SA_GUIDINFO_REC_BYTES bytes
 * @rec: the record, every member written (the reserved ones zero)
 */
void wire_guidinfo_unpack(const void *attr, struct ib_sa_guidinfo_rec *rec)
{
	const u8 *p = attr;

	memset(rec, 0, sizeof(*rec));
	rec->lid = get_unaligned((__be16 *)p);
	rec->block_num = p[2];
	memcpy(rec->guid_info_list, p + 8, sizeof(rec->guid_info_list));
}
