// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: T10-DIF signature offload of integrity MRs.
 *
 * An integrity MR maps data and, in a buffer of its own, the protection
 * information (PI) of the memory domain: one 8-byte tuple (guard, app tag,
 * ref tag) per block.  What an RDMA operation moves through it is the wire
 * view: the data, and after each block its tuple when the wire domain has
 * PI.  Reading the MR (it is the source of a WRITE or a SEND, or a READ's
 * remote) makes the wire view from memory, checking the memory PI;
 * writing it (a READ's sink, a WRITE's remote, a receive) checks the wire
 * PI and puts data and PI back into memory, generating what the memory
 * domain wants.  Checks follow the registration's check_mask; the first
 * failure is kept for check_mr_status and the operation completes
 * normally, as hardware does.
 *
 * Supported layouts: each domain is IB_SIG_TYPE_NONE or T10-DIF (CRC or IP
 * checksum guard); PI in memory is in the metadata buffer.  A trailing
 * partial block moves without PI.
 *
 * Locking: the state belongs to its MR, which its owner uses for one
 * operation at a time; sig->err_lock (IRQ-safe) guards the error, which
 * the engine sets and check_mr_status reads.
 */
#include <linux/crc-t10dif.h>
#include <linux/slab.h>
#include <linux/t10-pi.h>
#include <net/checksum.h>
#include "tdev_priv.h"

#define TV_PI_LEN	sizeof(struct t10_pi_tuple)

/**
 * tv_sig_init - the signature state of a new integrity MR
 * @sig: zeroed state
 * @max_pages: pages of data, and of metadata, one registration may map
 *
 * Return: 0 or -ENOMEM.
 */
int tv_sig_init(struct tv_sig *sig, u32 max_pages)
{
	sig->data_pages = kcalloc(max_pages, sizeof(u64), GFP_KERNEL);
	sig->meta_pages = kcalloc(max_pages, sizeof(u64), GFP_KERNEL);
	if (!sig->data_pages || !sig->meta_pages) {
		tv_sig_free(sig);
		return -ENOMEM;
	}
	sig->max_pages = max_pages;
	spin_lock_init(&sig->err_lock);
	return 0;
}

/**
 * tv_sig_free - free what tv_sig_init() and tv_sig_map() allocated
 * @sig: the state; any context
 */
void tv_sig_free(struct tv_sig *sig)
{
	kvfree(sig->wire);
	kfree(sig->meta_pages);
	kfree(sig->data_pages);
}

/* Room the wire view of @data_len bytes may need: PI of 512-byte blocks. */
static u32 tv_sig_wire_room(u32 data_len)
{
	return data_len + DIV_ROUND_UP(data_len, 512) * TV_PI_LEN;
}

/**
 * tv_sig_map - make room for the wire view of what was just mapped
 * @sig: the state, data and metadata mapped
 *
 * Process context (map_mr_sg_pi).
 *
 * Return: 0 or -ENOMEM.
 */
int tv_sig_map(struct tv_sig *sig)
{
	u32 need = tv_sig_wire_room(sig->data_len);

	if (need <= sig->wire_cap)
		return 0;
	kvfree(sig->wire);
	sig->wire_cap = 0;
	sig->wire = kvzalloc(need, GFP_KERNEL);
	if (!sig->wire)
		return -ENOMEM;
	sig->wire_cap = need;
	return 0;
}

static bool tv_sig_dif(const struct ib_sig_domain *d)
{
	return d->sig_type == IB_SIG_TYPE_T10_DIF;
}

/* The block size of a registration: its T10-DIF domains'. */
static u32 tv_sig_interval(const struct ib_sig_attrs *a)
{
	if (tv_sig_dif(&a->mem))
		return a->mem.sig.dif.pi_interval;
	if (tv_sig_dif(&a->wire))
		return a->wire.sig.dif.pi_interval;
	return 0;
}

static bool tv_sig_domain_ok(const struct ib_sig_domain *d)
{
	if (d->sig_type == IB_SIG_TYPE_NONE)
		return true;
	return d->sig_type == IB_SIG_TYPE_T10_DIF &&
	       (d->sig.dif.bg_type == IB_T10DIF_CRC ||
		d->sig.dif.bg_type == IB_T10DIF_CSUM) &&
	       d->sig.dif.pi_interval >= 512;
}

/**
 * tv_sig_register - take the signature attributes of a registration
 * @sig: the state, mapped
 * @attrs: the attributes of the IB_WR_REG_MR_INTEGRITY, as posted
 *
 * Return: false for a layout the double does not support or a mapping
 * that cannot hold it.
 */
bool tv_sig_register(struct tv_sig *sig, const struct ib_sig_attrs *attrs)
{
	u32 ival = tv_sig_interval(attrs);
	u32 blocks = ival ? sig->data_len / ival : 0;

	if (!tv_sig_domain_ok(&attrs->mem) || !tv_sig_domain_ok(&attrs->wire) ||
	    (tv_sig_dif(&attrs->mem) && tv_sig_dif(&attrs->wire) &&
	     attrs->mem.sig.dif.pi_interval !=
	     attrs->wire.sig.dif.pi_interval))
		return false;
	if (tv_sig_dif(&attrs->mem) && sig->meta_len < blocks * TV_PI_LEN)
		return false;
	sig->attrs = *attrs;
	sig->wire_len = sig->data_len;
	if (tv_sig_dif(&attrs->wire))
		sig->wire_len += blocks * TV_PI_LEN;
	return sig->wire_len <= sig->wire_cap;
}

/*
 * Copies @len bytes between @buf and a mapped region (@pages, starting
 * @off bytes into the region that begins at @iova).
 */
static void tv_sig_pages_copy(struct tdev *td, const struct tv_sig *sig,
			      const u64 *pages, u64 iova, u32 off, u8 *buf,
			      u32 len, bool to_mem)
{
	u64 psz = sig->page_size;
	u64 pos = off + (iova & (psz - 1));

	while (len) {
		u32 n = min_t(u64, len, psz - pos % psz);
		u8 *va = tv_dma_va(td, pages[pos / psz] + pos % psz);

		if (va) {
			if (to_mem)
				memcpy(va, buf, n);
			else
				memcpy(buf, va, n);
		}
		buf += n;
		pos += n;
		len -= n;
	}
}

static __be16 tv_sig_guard(const struct ib_t10_dif_domain *d, const u8 *data,
			   u32 len)
{
	if (d->bg_type == IB_T10DIF_CSUM)
		return (__force __be16)ip_compute_csum(data, len);
	return cpu_to_be16(crc_t10dif(data, len));
}

static u32 tv_sig_ref(const struct ib_t10_dif_domain *d, u32 block)
{
	return d->ref_tag + (d->ref_remap ? block : 0);
}

static void tv_sig_generate(const struct ib_t10_dif_domain *d, const u8 *data,
			    u32 len, u32 block, struct t10_pi_tuple *pi)
{
	pi->guard_tag = tv_sig_guard(d, data, len);
	pi->app_tag = cpu_to_be16(d->app_tag);
	pi->ref_tag = cpu_to_be32(tv_sig_ref(d, block));
}

static void tv_sig_fail(struct tv_sig *sig, enum ib_sig_err_type type,
			u32 expected, u32 actual, u64 offset, u32 key)
{
	unsigned long flags;

	spin_lock_irqsave(&sig->err_lock, flags);
	if (!sig->err_set) {
		sig->err_set = true;
		sig->err = (struct ib_sig_err){
			.err_type = type,
			.expected = expected,
			.actual = actual,
			.sig_err_offset = offset,
			.key = key,
		};
	}
	spin_unlock_irqrestore(&sig->err_lock, flags);
}

/* Checks the PI of one block against domain @d, as check_mask says. */
static void tv_sig_check(struct tv_sig *sig, const struct ib_t10_dif_domain *d,
			 const u8 *data, u32 len,
			 const struct t10_pi_tuple *pi, u32 block, u32 key)
{
	u8 mask = sig->attrs.check_mask;
	u64 off = (u64)block * len;
	__be16 guard;
	u32 ref;
	u16 m;

	if (d->app_escape && pi->app_tag == cpu_to_be16(0xffff))
		return;
	guard = tv_sig_guard(d, data, len);
	if ((mask & IB_SIG_CHECK_GUARD) && guard != pi->guard_tag) {
		tv_sig_fail(sig, IB_SIG_BAD_GUARD, be16_to_cpu(guard),
			    be16_to_cpu(pi->guard_tag), off, key);
		return;
	}
	ref = tv_sig_ref(d, block);
	if ((mask & IB_SIG_CHECK_REFTAG) && ref != be32_to_cpu(pi->ref_tag)) {
		tv_sig_fail(sig, IB_SIG_BAD_REFTAG, ref,
			    be32_to_cpu(pi->ref_tag), off, key);
		return;
	}
	m = d->apptag_check_mask;
	if ((mask & IB_SIG_CHECK_APPTAG) &&
	    (d->app_tag & m) != (be16_to_cpu(pi->app_tag) & m))
		tv_sig_fail(sig, IB_SIG_BAD_APPTAG, d->app_tag,
			    be16_to_cpu(pi->app_tag), off, key);
}

/**
 * tv_sig_outbound - make the wire view of an integrity MR from memory
 * @td: the MR's device
 * @sig: the MR's state, registered
 * @key: the key it is accessed with (for the error report)
 *
 * Checks the memory domain's PI of each block; the wire gets that PI
 * (or, without PI in memory, PI generated for the wire domain).
 */
void tv_sig_outbound(struct tdev *td, struct tv_sig *sig, u32 key)
{
	const struct ib_sig_attrs *a = &sig->attrs;
	bool mem_pi = tv_sig_dif(&a->mem), wire_pi = tv_sig_dif(&a->wire);
	u32 ival = tv_sig_interval(a), off = 0, block = 0;
	u8 *out = sig->wire;
	struct t10_pi_tuple pi;

	while (off < sig->data_len) {
		u32 n = ival ? min(ival, sig->data_len - off) :
			       sig->data_len - off;
		bool whole = ival && n == ival;

		tv_sig_pages_copy(td, sig, sig->data_pages, sig->data_iova, off,
				  out, n, false);
		if (whole && mem_pi) {
			tv_sig_pages_copy(td, sig, sig->meta_pages,
					  sig->meta_iova, block * TV_PI_LEN,
					  (u8 *)&pi, TV_PI_LEN, false);
			tv_sig_check(sig, &a->mem.sig.dif, out, n, &pi, block,
				     key);
		}
		out += n;
		if (whole && wire_pi) {
			if (!mem_pi)
				tv_sig_generate(&a->wire.sig.dif, out - n, n,
						block, &pi);
			memcpy(out, &pi, TV_PI_LEN);
			out += TV_PI_LEN;
		}
		off += n;
		block++;
	}
}

/**
 * tv_sig_inbound - put the wire view of an integrity MR into memory
 * @td: the MR's device
 * @sig: the MR's state, registered; its wire view just written
 * @key: the key it was accessed with (for the error report)
 *
 * Checks the wire domain's PI of each block; memory gets that PI (or,
 * without PI on the wire, PI generated for the memory domain).
 */
void tv_sig_inbound(struct tdev *td, struct tv_sig *sig, u32 key)
{
	const struct ib_sig_attrs *a = &sig->attrs;
	bool mem_pi = tv_sig_dif(&a->mem), wire_pi = tv_sig_dif(&a->wire);
	u32 ival = tv_sig_interval(a), off = 0, block = 0;
	u8 *in = sig->wire;
	struct t10_pi_tuple pi;

	while (off < sig->data_len) {
		u32 n = ival ? min(ival, sig->data_len - off) :
			       sig->data_len - off;
		bool whole = ival && n == ival;

		tv_sig_pages_copy(td, sig, sig->data_pages, sig->data_iova, off,
				  in, n, true);
		if (whole && wire_pi) {
			memcpy(&pi, in + n, TV_PI_LEN);
			tv_sig_check(sig, &a->wire.sig.dif, in, n, &pi, block,
				     key);
		}
		if (whole && mem_pi) {
			if (!wire_pi)
				tv_sig_generate(&a->mem.sig.dif, in, n, block,
						&pi);
			tv_sig_pages_copy(td, sig, sig->meta_pages,
					  sig->meta_iova, block * TV_PI_LEN,
					  (u8 *)&pi, TV_PI_LEN, true);
		}
		in += n + (whole && wire_pi ? TV_PI_LEN : 0);
		off += n;
		block++;
	}
}

/**
 * tv_sig_status - report (and clear) the first signature error
 * @sig: the MR's state
 * @check_mask: what the caller asks about; IB_MR_CHECK_SIG_STATUS only
 * @st: filled: fail_status, and sig_err when it has IB_MR_CHECK_SIG_STATUS
 *
 * Return: 0, or -EINVAL for a check the device does not know.
 */
int tv_sig_status(struct tv_sig *sig, u32 check_mask, struct ib_mr_status *st)
{
	unsigned long flags;

	if (check_mask & ~IB_MR_CHECK_SIG_STATUS)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	spin_lock_irqsave(&sig->err_lock, flags);
	if ((check_mask & IB_MR_CHECK_SIG_STATUS) && sig->err_set) {
		st->fail_status |= IB_MR_CHECK_SIG_STATUS;
		st->sig_err = sig->err;
		sig->err_set = false;
	}
	spin_unlock_irqrestore(&sig->err_lock, flags);
	return 0;
}
