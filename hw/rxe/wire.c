// SPDX-License-Identifier: GPL-2.0
/*
 * The opcode table, the checks of a received packet's transport headers,
 * and the BTH a packet is built with.  See wire.h.
 */
#include <linux/kernel.h>
#include "wire.h"

#define X(e)	BIT(SR_ ## e)

/* Bytes of the extended headers in @x (a set of X() bits). */
#define SR_EXTS_LEN(x)						\
	(((x) & X(DETH) ? 8 : 0) + ((x) & X(RETH) ? 16 : 0) +	\
	 ((x) & X(ATMETH) ? 28 : 0) + ((x) & X(AETH) ? 4 : 0) +	\
	 ((x) & X(ATMACK) ? 8 : 0) + ((x) & X(IMMDT) ? 4 : 0) +	\
	 ((x) & X(IETH) ? 4 : 0))

/* Offset of header @e: the BTH and every header of @x before @e. */
#define SR_OFF(x, e)	(SR_BTH_BYTES + SR_EXTS_LEN((x) & (X(e) - 1)))

#define SR_OP(fl, x) {							\
	.flags = (fl),							\
	.exts = (x),							\
	.hlen = SR_BTH_BYTES + SR_EXTS_LEN(x),				\
	.off = {							\
		[SR_DETH] = SR_OFF(x, DETH),				\
		[SR_RETH] = SR_OFF(x, RETH),				\
		[SR_ATMETH] = SR_OFF(x, ATMETH),			\
		[SR_AETH] = SR_OFF(x, AETH),				\
		[SR_ATMACK] = SR_OFF(x, ATMACK),			\
		[SR_IMMDT] = SR_OFF(x, IMMDT),				\
		[SR_IETH] = SR_OFF(x, IETH),				\
	},								\
}

/* The kinds of packet that carry payload */
#define SNDP	(SR_REQ | SR_PAYLOAD | SR_SEND)
#define WRP	(SR_REQ | SR_PAYLOAD | SR_WRITE)
#define RDP	(SR_RESP | SR_PAYLOAD | SR_READ)

/*
 * The operations of RC, by the low five bits of the opcode; UC has its
 * sends and writes (up to RDMA WRITE Only with Immediate), and UD its own
 * two sends, which carry a DETH.
 */
static const struct sr_opinfo sr_rc_ops[32] = {
	[IB_OPCODE_SEND_FIRST] = SR_OP(SNDP | SR_FIRST, 0),
	[IB_OPCODE_SEND_MIDDLE] = SR_OP(SNDP, 0),
	[IB_OPCODE_SEND_LAST] = SR_OP(SNDP | SR_LAST, 0),
	[IB_OPCODE_SEND_LAST_WITH_IMMEDIATE] = SR_OP(SNDP | SR_LAST, X(IMMDT)),
	[IB_OPCODE_SEND_ONLY] = SR_OP(SNDP | SR_ONLY, 0),
	[IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE] = SR_OP(SNDP | SR_ONLY, X(IMMDT)),
	[IB_OPCODE_RDMA_WRITE_FIRST] = SR_OP(WRP | SR_FIRST, X(RETH)),
	[IB_OPCODE_RDMA_WRITE_MIDDLE] = SR_OP(WRP, 0),
	[IB_OPCODE_RDMA_WRITE_LAST] = SR_OP(WRP | SR_LAST, 0),
	[IB_OPCODE_RDMA_WRITE_LAST_WITH_IMMEDIATE] =
		SR_OP(WRP | SR_LAST, X(IMMDT)),
	[IB_OPCODE_RDMA_WRITE_ONLY] = SR_OP(WRP | SR_ONLY, X(RETH)),
	[IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE] =
		SR_OP(WRP | SR_ONLY, X(RETH) | X(IMMDT)),
	[IB_OPCODE_RDMA_READ_REQUEST] =
		SR_OP(SR_REQ | SR_READ | SR_ONLY, X(RETH)),
	[IB_OPCODE_RDMA_READ_RESPONSE_FIRST] = SR_OP(RDP | SR_FIRST, X(AETH)),
	[IB_OPCODE_RDMA_READ_RESPONSE_MIDDLE] = SR_OP(RDP, 0),
	[IB_OPCODE_RDMA_READ_RESPONSE_LAST] = SR_OP(RDP | SR_LAST, X(AETH)),
	[IB_OPCODE_RDMA_READ_RESPONSE_ONLY] = SR_OP(RDP | SR_ONLY, X(AETH)),
	[IB_OPCODE_ACKNOWLEDGE] = SR_OP(SR_RESP | SR_ACK | SR_ONLY, X(AETH)),
	[IB_OPCODE_ATOMIC_ACKNOWLEDGE] =
		SR_OP(SR_RESP | SR_ACK | SR_ATOMIC | SR_ONLY,
		      X(AETH) | X(ATMACK)),
	[IB_OPCODE_COMPARE_SWAP] = SR_OP(SR_REQ | SR_ATOMIC | SR_ONLY,
					 X(ATMETH)),
	[IB_OPCODE_FETCH_ADD] = SR_OP(SR_REQ | SR_ATOMIC | SR_ONLY, X(ATMETH)),
	[IB_OPCODE_SEND_LAST_WITH_INVALIDATE] = SR_OP(SNDP | SR_LAST, X(IETH)),
	[IB_OPCODE_SEND_ONLY_WITH_INVALIDATE] = SR_OP(SNDP | SR_ONLY, X(IETH)),
};

static const struct sr_opinfo sr_ud_ops[2] = {
	SR_OP(SNDP | SR_ONLY, X(DETH)),
	SR_OP(SNDP | SR_ONLY, X(DETH) | X(IMMDT)),
};

/**
 * sr_opinfo - what an opcode carries
 * @opcode: a BTH's opcode
 *
 * Return: its description, or NULL if it is not an RC, UC or UD opcode
 * this driver speaks (RD, CNP and the reserved ones).
 */
const struct sr_opinfo *sr_opinfo(u8 opcode)
{
	u8 op = opcode & 0x1f;

	switch (sr_transport(opcode)) {
	case IB_OPCODE_RC:
		break;
	case IB_OPCODE_UC:
		if (op > IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE)
			return NULL;
		break;
	case IB_OPCODE_UD:
		if (op != IB_OPCODE_SEND_ONLY &&
		    op != IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE)
			return NULL;
		return &sr_ud_ops[op - IB_OPCODE_SEND_ONLY];
	default:
		return NULL;
	}
	return sr_rc_ops[op].flags ? &sr_rc_ops[op] : NULL;
}

/**
 * sr_parse - check a received packet's transport headers
 * @pkt: filled in when the packet passes
 * @bth: the packet's BTH; the caller has made the BTH readable, and the
 *	rest of the opcode's headers once this asks for them (see below)
 * @len: bytes of the transport packet, from the BTH to the ICRC's end
 *
 * Checks what the headers alone tell: the opcode is one we speak, the
 * transport version is 0, the packet holds its headers, pad and ICRC, and
 * an opcode without payload carries none.  Whether the payload suits the
 * path MTU is sr_paylen_fits(); QP, key and PSN checks are the QP's.  The
 * caller must make @pkt->oi->hlen bytes readable before reading past the
 * BTH; that many are within @len when this returns SR_OK.
 *
 * Return: SR_OK, or why the packet is to be dropped.
 */
enum sr_bad sr_parse(struct sr_pkt *pkt, void *bth, unsigned int len)
{
	const struct sr_bth *h = bth;
	const struct sr_opinfo *oi;
	unsigned int fixed;

	if (len < SR_BTH_BYTES + SR_ICRC_BYTES)
		return SR_BAD_LENGTH;
	oi = sr_opinfo(h->opcode);
	if (!oi)
		return SR_BAD_OPCODE;
	if (h->flags & SR_BTH_TVER)
		return SR_BAD_VERSION;
	pkt->pad = (h->flags & SR_BTH_PAD) >> SR_BTH_PAD_SHIFT;
	fixed = oi->hlen + pkt->pad + SR_ICRC_BYTES;
	if (len < fixed)
		return SR_BAD_LENGTH;
	pkt->paylen = len - fixed;
	if (pkt->pad && !pkt->paylen)
		return SR_BAD_PAYLOAD;
	if (pkt->paylen && !(oi->flags & SR_PAYLOAD))
		return SR_BAD_PAYLOAD;
	pkt->oi = oi;
	pkt->bth = bth;
	pkt->opcode = h->opcode;
	pkt->se = h->flags & SR_BTH_SE;
	pkt->pkey = be16_to_cpu(h->pkey);
	pkt->qpn = be32_to_cpu(h->dqpn) & SR_QPN_MASK;
	pkt->ackreq = be32_to_cpu(h->apsn) & SR_BTH_ACKREQ;
	pkt->psn = be32_to_cpu(h->apsn) & SR_PSN_MASK;
	return SR_OK;
}

/**
 * sr_paylen_fits - does a packet's payload suit the path MTU
 * @pkt: a packet that passed sr_parse()
 * @mtu: the path MTU in bytes (256 to 4096)
 *
 * A first or middle packet of a message carries exactly @mtu bytes, a
 * last one 1 to @mtu, an only one 0 to @mtu.
 */
bool sr_paylen_fits(const struct sr_pkt *pkt, unsigned int mtu)
{
	switch (pkt->oi->flags & SR_ONLY) {
	case SR_ONLY:
		return pkt->paylen <= mtu;
	case SR_LAST:
		return pkt->paylen && pkt->paylen <= mtu;
	default:
		return pkt->paylen == mtu;
	}
}

/**
 * sr_bth_init - write a BTH
 * @bth: where (SR_BTH_BYTES)
 * @opcode: the opcode
 * @se: solicited event
 * @pad: pad count (0-3)
 * @pkey: the P_Key
 * @qpn: the destination QP
 * @ackreq: acknowledgement requested
 * @psn: the PSN
 *
 * The transport version, the migration state (always "migrated": there
 * is no alternate path), FECN, BECN and the reserved bits are 0.
 */
void sr_bth_init(void *bth, u8 opcode, bool se, u8 pad, u16 pkey, u32 qpn,
		 bool ackreq, u32 psn)
{
	struct sr_bth *h = bth;

	h->opcode = opcode;
	h->flags = (se ? SR_BTH_SE : 0) | SR_BTH_MIG |
		   (pad << SR_BTH_PAD_SHIFT & SR_BTH_PAD);
	h->pkey = cpu_to_be16(pkey);
	h->dqpn = cpu_to_be32(qpn & SR_QPN_MASK);
	h->apsn = cpu_to_be32((ackreq ? SR_BTH_ACKREQ : 0) |
			      (psn & SR_PSN_MASK));
}

/*
 * The RNR NAK timer field (vol. 1, 9.7.5.2.8), in microseconds, also the
 * encoding of the min_rnr_timer QP attribute (enum ib_rnr_timeout): 0 is
 * the longest, then 0.01 ms upward, roughly 1.5 times a step.
 */
static const u32 sr_rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120,
	160, 240, 320, 480, 640, 960, 1280, 1920,
	2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

/**
 * sr_rnr_timer_us - the time an RNR NAK's timer field asks to wait
 * @code: the field (five bits; the bits above are ignored)
 *
 * Return: microseconds, from 10 to 655360.
 */
u32 sr_rnr_timer_us(u8 code)
{
	return sr_rnr_us[code & SR_AETH_VALUE];
}
