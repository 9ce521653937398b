/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RoCEv2 transport headers: what each opcode carries, where each
 * header sits, the checks a received packet passes before anything reads
 * it, and PSN arithmetic (InfiniBand Architecture Specification vol. 1,
 * chapter 9, with annex A17 for RoCEv2).  Everything here is pure: no
 * state, no locks, callable from any context.
 *
 * A transport packet is the UDP payload: the BTH, the extended headers
 * its opcode names (in the order of enum sr_ext), the payload, 0-3 bytes
 * of pad that make the payload a multiple of four, and the 4-byte ICRC.
 */
#ifndef SR_WIRE_H
#define SR_WIRE_H

#include <linux/bits.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <rdma/ib_pack.h>

/* ---- headers (multi-byte fields are big-endian on the wire) ---------- */

struct sr_bth {
	u8 opcode;
	u8 flags;		/* SE, MigReq, PadCnt, TVer */
	__be16 pkey;
	__be32 dqpn;		/* FECN, BECN, reserved, DestQP */
	__be32 apsn;		/* AckReq, reserved, PSN */
} __packed;

#define SR_BTH_SE		0x80
#define SR_BTH_MIG		0x40
#define SR_BTH_PAD_SHIFT	4
#define SR_BTH_PAD		0x30
#define SR_BTH_TVER		0x0f
#define SR_BTH_FECN		BIT(31)	/* of dqpn */
#define SR_BTH_BECN		BIT(30)
#define SR_BTH_ACKREQ		BIT(31)	/* of apsn */
#define SR_QPN_MASK		0xffffff
/* The one P_Key a device's table holds: the default, full member */
#define SR_PKEY_DEFAULT		0xffff
#define SR_PSN_MASK		0xffffff

struct sr_deth {
	__be32 qkey;
	__be32 sqpn;		/* reserved, SrcQP */
} __packed;

struct sr_reth {
	__be64 va;
	__be32 rkey;
	__be32 len;
} __packed;

struct sr_atmeth {
	__be64 va;
	__be32 rkey;
	__be64 swap_add;
	__be64 compare;
} __packed;

struct sr_aeth {
	__be32 smsn;		/* Syndrome, MSN */
} __packed;

struct sr_atmack {
	__be64 orig;
} __packed;

/* The extended headers, in the order a packet carries them. */
enum sr_ext {
	SR_DETH,
	SR_RETH,
	SR_ATMETH,
	SR_AETH,
	SR_ATMACK,
	SR_IMMDT,
	SR_IETH,
	SR_NR_EXT
};

#define SR_BTH_BYTES	12
#define SR_ICRC_BYTES	4
/* The longest headers an opcode has: BTH and AtomicETH (40 bytes) */
#define SR_MAX_HLEN	(SR_BTH_BYTES + sizeof(struct sr_atmeth))

/* ---- AETH syndromes --------------------------------------------------- */

#define SR_AETH_TYPE		0x60
#define SR_AETH_ACK		0x00	/* low 5 bits: credit count */
#define SR_AETH_RNR		0x20	/* low 5 bits: RNR timer code */
#define SR_AETH_NAK		0x60	/* low 5 bits: enum sr_nak */
#define SR_AETH_VALUE		0x1f
#define SR_AETH_NO_CREDITS	0x1f	/* "invalid" credit count */

enum sr_nak {
	SR_NAK_PSN_SEQ = 0,
	SR_NAK_INVALID_REQ = 1,
	SR_NAK_REMOTE_ACCESS = 2,
	SR_NAK_REMOTE_OP = 3,
};

/* ---- opcodes ---------------------------------------------------------- */

/* What an opcode is (struct sr_opinfo.flags). */
enum {
	SR_REQ = BIT(0),	/* a requester's packet */
	SR_RESP = BIT(1),	/* a responder's: read response or ACK */
	SR_PAYLOAD = BIT(2),	/* may carry payload */
	SR_FIRST = BIT(3),	/* first of a message (only: first and last) */
	SR_LAST = BIT(4),	/* last of a message */
	SR_SEND = BIT(5),
	SR_WRITE = BIT(6),
	SR_READ = BIT(7),	/* read request or read response */
	SR_ATOMIC = BIT(8),	/* atomic request or atomic ACK */
	SR_ACK = BIT(9),	/* ACK or atomic ACK */
};

#define SR_ONLY	(SR_FIRST | SR_LAST)

/**
 * struct sr_opinfo - what a valid opcode carries
 * @flags: SR_REQ, SR_PAYLOAD and the rest
 * @exts: BIT(enum sr_ext) of each extended header it carries
 * @hlen: bytes of the BTH and those headers
 * @off: offset of each extended header from the start of the BTH (only
 *	those in @exts mean anything)
 */
struct sr_opinfo {
	u16 flags;
	u8 exts;
	u8 hlen;
	u8 off[SR_NR_EXT];
};

const struct sr_opinfo *sr_opinfo(u8 opcode);

/* Transport of an opcode: IB_OPCODE_RC, _UC or _UD. */
static inline u8 sr_transport(u8 opcode)
{
	return opcode & 0xe0;
}

/* ---- a received packet ------------------------------------------------ */

/**
 * struct sr_pkt - the transport headers of a packet that passed sr_parse()
 * @oi: its opcode's description
 * @bth: its BTH; @oi->hlen bytes from here are readable
 * @paylen: payload bytes (pad and ICRC excluded)
 * @psn: its PSN
 * @qpn: its destination QP
 * @pkey: its P_Key
 * @opcode: its opcode
 * @pad: its pad count
 * @se: solicited event requested
 * @ackreq: acknowledgement requested
 */
struct sr_pkt {
	const struct sr_opinfo *oi;
	void *bth;
	u32 paylen;
	u32 psn;
	u32 qpn;
	u16 pkey;
	u8 opcode;
	u8 pad;
	bool se;
	bool ackreq;
};

/* Why sr_parse() refused a packet. */
enum sr_bad {
	SR_OK = 0,
	SR_BAD_OPCODE,		/* not one we speak */
	SR_BAD_VERSION,		/* transport header version not 0 */
	SR_BAD_LENGTH,		/* shorter than its headers, pad and ICRC */
	SR_BAD_PAYLOAD,		/* payload or pad where the opcode has none */
};

enum sr_bad sr_parse(struct sr_pkt *pkt, void *bth, unsigned int len);
bool sr_paylen_fits(const struct sr_pkt *pkt, unsigned int mtu);

/* Extended header @e of a packet described by @oi, which carries it. */
static inline void *sr_ext(void *bth, const struct sr_opinfo *oi,
			   enum sr_ext e)
{
	return bth + oi->off[e];
}

/* ---- building --------------------------------------------------------- */

void sr_bth_init(void *bth, u8 opcode, bool se, u8 pad, u16 pkey, u32 qpn,
		 bool ackreq, u32 psn);

static inline __be32 sr_aeth_pack(u8 syndrome, u32 msn)
{
	return cpu_to_be32((u32)syndrome << 24 | (msn & SR_PSN_MASK));
}

static inline u8 sr_aeth_syndrome(const struct sr_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) >> 24;
}

static inline u32 sr_aeth_msn(const struct sr_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) & SR_PSN_MASK;
}

/* Pad bytes after a payload of @len bytes. */
static inline u8 sr_pad(u32 len)
{
	return -len & 3;
}

/* ---- timers ---------------------------------------------------------- */

u32 sr_rnr_timer_us(u8 code);

/*
 * The local ACK timeout a QP attribute @t encodes: 4.096 us << @t, in ns;
 * 0 means none (wait for ever).  The attribute has five bits.
 */
static inline u64 sr_ack_timeout_ns(u8 t)
{
	return t ? 4096ULL << min_t(u8, t, 31) : 0;
}

/* ---- PSNs: 24-bit sequence numbers, compared within half the space ---- */

/* Signed distance from @b to @a: > 0 when @a is after @b. */
static inline s32 sr_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

static inline u32 sr_psn_add(u32 psn, u32 n)
{
	return (psn + n) & SR_PSN_MASK;
}

#endif /* SR_WIRE_H */
