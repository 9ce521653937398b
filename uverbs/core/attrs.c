// SPDX-License-Identifier: GPL-2.0
/*
 * What handlers call on their bundle: scratch memory that lives as long
 * as the system call, and reading and answering attributes
 * (<rdma/uverbs_ioctl.h>).  The bundle is always inside a struct
 * uverbs_call (internal.h), made by ioctl.c or write.c; nothing here
 * locks, as a bundle belongs to one system call.
 */
#include "abi/ib_uverbs/uverbs_ioctl.h"
#include "internal.h"

/**
 * struct uverbs_alloc_chunk - scratch memory beyond the call's own pool
 * @next: the chunk allocated before
 * @data: the memory handed out
 */
struct uverbs_alloc_chunk {
	struct uverbs_alloc_chunk *next;
	u8 data[] __aligned(8);
};

/**
 * _uverbs_alloc() - scratch memory for the rest of a system call
 * @bundle: the call's bundle
 * @size: bytes wanted
 * @flags: allocation flags (__GFP_ZERO to have it zeroed)
 *
 * Taken from the call's own pool while it lasts, else allocated; all of
 * it goes when the call ends, and only then.
 *
 * Return: the memory, or ERR_PTR(-ENOMEM).
 */
__malloc void *_uverbs_alloc(struct uverbs_attr_bundle *bundle, size_t size,
			     gfp_t flags)
{
	struct uverbs_call *call = to_uverbs_call(bundle);
	struct uverbs_alloc_chunk *chunk;
	size_t taken = ALIGN(size, 8);
	void *p;

	if (size && taken <= call->pool_left) {
		p = call->pool;
		call->pool += taken;
		call->pool_left -= taken;
		if (want_init_on_alloc(flags))
			memset(p, 0, size);
		return p;
	}
	chunk = kvmalloc(struct_size(chunk, data, size), flags);
	if (!chunk)
		return ERR_PTR(-ENOMEM);
	chunk->next = call->chunks;
	call->chunks = chunk;
	return chunk->data;
}
EXPORT_SYMBOL(_uverbs_alloc);

/**
 * uverbs_call_free_chunks() - free what _uverbs_alloc() allocated
 * @call: the ending call
 */
void uverbs_call_free_chunks(struct uverbs_call *call)
{
	struct uverbs_alloc_chunk *chunk;

	while (call->chunks) {
		chunk = call->chunks;
		call->chunks = chunk->next;
		kvfree(chunk);
	}
}

/**
 * uverbs_set_output() - tell userspace an output attribute was written
 * @bundle: the call's bundle
 * @attr: the attribute
 *
 * Return: 0 or -EFAULT.
 */
int uverbs_set_output(const struct uverbs_attr_bundle *bundle,
		      const struct uverbs_attr *attr)
{
	struct uverbs_call *call = to_uverbs_call(bundle);
	u16 idx = attr->ptr_attr.uattr_idx;
	u16 flags = call->uattrs[idx].flags | UVERBS_ATTR_F_VALID_OUTPUT;

	return put_user(flags, &call->user_attrs[idx].flags) ? -EFAULT : 0;
}

/**
 * uverbs_output_written() - a handler wrote an output attribute itself
 * @bundle: the call's bundle
 * @idx: the attribute's id
 *
 * Return: 0; -ENOENT if the caller did not give the attribute; -EFAULT.
 */
int uverbs_output_written(const struct uverbs_attr_bundle *bundle, size_t idx)
{
	const struct uverbs_attr *attr = uverbs_attr_get(bundle, idx);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	return uverbs_set_output(bundle, attr);
}

/**
 * uverbs_copy_to() - answer in an output attribute
 * @bundle: the call's bundle
 * @idx: the attribute's id
 * @from: the answer
 * @size: its bytes; as many of them as the attribute holds are written
 *
 * Return: 0; -ENOENT if the caller did not give the attribute; -EFAULT.
 */
int uverbs_copy_to(const struct uverbs_attr_bundle *bundle, size_t idx,
		   const void *from, size_t size)
{
	const struct uverbs_attr *attr = uverbs_attr_get(bundle, idx);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	if (copy_to_user(u64_to_user_ptr(attr->ptr_attr.data), from,
			 min_t(size_t, attr->ptr_attr.len, size)))
		return -EFAULT;
	return uverbs_set_output(bundle, attr);
}
EXPORT_SYMBOL(uverbs_copy_to);

/**
 * uverbs_copy_to_struct_or_zero() - answer a structure, zeroing the rest
 *	of a larger attribute
 * @bundle: the call's bundle
 * @idx: the attribute's id
 * @from: the structure
 * @size: its bytes
 *
 * Return: 0; -ENOENT if the caller did not give the attribute; -EFAULT.
 */
int uverbs_copy_to_struct_or_zero(const struct uverbs_attr_bundle *bundle,
				  size_t idx, const void *from, size_t size)
{
	const struct uverbs_attr *attr = uverbs_attr_get(bundle, idx);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	if (size < attr->ptr_attr.len &&
	    clear_user(u64_to_user_ptr(attr->ptr_attr.data) + size,
		       attr->ptr_attr.len - size))
		return -EFAULT;
	return uverbs_copy_to(bundle, idx, from, size);
}
EXPORT_SYMBOL(uverbs_copy_to_struct_or_zero);

/**
 * uverbs_get_flags64() - read a flags attribute
 * @to: the flags; 0 if the caller did not give the attribute
 * @attrs_bundle: the call's bundle
 * @idx: the attribute's id (UVERBS_ATTR_FLAGS_IN: 4 or 8 bytes)
 * @allowed_bits: the flags the method knows
 *
 * Return: 0; -EINVAL for another size or an unknown flag.
 */
int uverbs_get_flags64(u64 *to, const struct uverbs_attr_bundle *attrs_bundle,
		       size_t idx, u64 allowed_bits)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);
	u64 val = 0;

	/* An absent attribute means no flag */
	if (!IS_ERR(attr)) {
		/* Inline either way; older userspace sends 4 bytes */
		switch (attr->ptr_attr.len) {
		case sizeof(u32):
			val = *(const u32 *)&attr->ptr_attr.data;
			break;
		case sizeof(u64):
			val = attr->ptr_attr.data;
			break;
		default:
			return -EINVAL;
		}
	}
	/* Unknown bits are refused, not ignored */
	if (!(val & ~allowed_bits)) {
		*to = val;
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL(uverbs_get_flags64);

/**
 * uverbs_get_flags32() - read a flags attribute that fits 32 bits
 * @to: the flags; 0 if the caller did not give the attribute
 * @attrs_bundle: the call's bundle
 * @idx: the attribute's id
 * @allowed_bits: the flags the method knows
 *
 * Return: 0 or -EINVAL (see uverbs_get_flags64()).
 */
int uverbs_get_flags32(u32 *to, const struct uverbs_attr_bundle *attrs_bundle,
		       size_t idx, u64 allowed_bits)
{
	u64 wide;
	int err = uverbs_get_flags64(&wide, attrs_bundle, idx, allowed_bits);

	if (!err && wide > U32_MAX)
		err = -EINVAL;
	if (!err)
		*to = wide;
	return err;
}
EXPORT_SYMBOL(uverbs_get_flags32);

/* The value of a const attribute, or the default; -ENOENT without both. */
static int const_value(const struct uverbs_attr_bundle *bundle, size_t idx,
		       const u64 *def_val, u64 *val)
{
	const struct uverbs_attr *attr = uverbs_attr_get(bundle, idx);

	if (!IS_ERR(attr)) {
		*val = attr->ptr_attr.data;
		return 0;
	}
	if (PTR_ERR(attr) != -ENOENT || !def_val)
		return PTR_ERR(attr);
	*val = *def_val;
	return 0;
}

/**
 * _uverbs_get_const_unsigned() - read an unsigned const attribute
 * @to: the value
 * @attrs_bundle: the call's bundle
 * @idx: the attribute's id
 * @upper_bound: the greatest value the caller takes
 * @def_val: the value if the attribute was not given, or NULL
 *
 * Return: 0; -ENOENT if it was not given and has no default; -EINVAL above
 * @upper_bound.
 */
int _uverbs_get_const_unsigned(u64 *to,
			       const struct uverbs_attr_bundle *attrs_bundle,
			       size_t idx, u64 upper_bound, u64 *def_val)
{
	int ret;

	ret = const_value(attrs_bundle, idx, def_val, to);
	if (ret)
		return ret;
	return *to > upper_bound ? -EINVAL : 0;
}
EXPORT_SYMBOL(_uverbs_get_const_unsigned);

/**
 * _uverbs_get_const_signed() - read a signed const attribute
 * @to: the value
 * @attrs_bundle: the call's bundle
 * @idx: the attribute's id
 * @lower_bound: the least value the caller takes
 * @upper_bound: the greatest
 * @def_val: the value if the attribute was not given, or NULL
 *
 * Return: 0; -ENOENT if it was not given and has no default; -EINVAL out
 * of bounds.
 */
int _uverbs_get_const_signed(s64 *to,
			     const struct uverbs_attr_bundle *attrs_bundle,
			     size_t idx, s64 lower_bound, u64 upper_bound,
			     s64 *def_val)
{
	u64 raw;
	int err = const_value(attrs_bundle, idx, (const u64 *)def_val, &raw);
	s64 v;

	if (err)
		return err;
	v = raw;
	/* Compare a positive value unsigned: upper_bound may exceed S64_MAX */
	if (v < lower_bound || (v > 0 && raw > upper_bound))
		return -EINVAL;
	*to = v;
	return 0;
}
EXPORT_SYMBOL(_uverbs_get_const_signed);

/**
 * uverbs_finalize_uobj_create() - the handler created the hardware object
 *	of a NEW attribute
 * @bundle: the call's bundle
 * @idx: the attribute's id
 *
 * If the call fails after this, the object's type destroys the hardware
 * object when the creation is aborted.
 */
void uverbs_finalize_uobj_create(const struct uverbs_attr_bundle *bundle,
				 u16 idx)
{
	__set_bit(uapi_bkey_attr(uapi_key_attr(idx)),
		  to_uverbs_call(bundle)->hw_created);
}
EXPORT_SYMBOL(uverbs_finalize_uobj_create);

/**
 * uverbs_fill_udata() - a udata from a pair of attributes
 * @bundle: the call's bundle
 * @udata: filled: the input attribute's buffer (inline data is read in
 *	place, in the caller's attribute array) and the output's
 * @attr_in: the input attribute's id; missing means no input
 * @attr_out: the output attribute's id; missing means no output
 */
void uverbs_fill_udata(struct uverbs_attr_bundle *bundle,
		       struct ib_udata *udata, unsigned int attr_in,
		       unsigned int attr_out)
{
	struct uverbs_call *call = to_uverbs_call(bundle);
	const struct uverbs_attr *in = uverbs_attr_get(bundle, attr_in);
	const struct uverbs_attr *out = uverbs_attr_get(bundle, attr_out);

	udata->inbuf = NULL;
	udata->inlen = 0;
	udata->outbuf = NULL;
	udata->outlen = 0;
	if (!IS_ERR(in)) {
		udata->inlen = in->ptr_attr.len;
		udata->inbuf = uverbs_attr_ptr_is_inline(in) ?
			&call->user_attrs[in->ptr_attr.uattr_idx].data :
			u64_to_user_ptr(in->ptr_attr.data);
	}
	if (!IS_ERR(out)) {
		udata->outlen = out->ptr_attr.len;
		udata->outbuf = u64_to_user_ptr(out->ptr_attr.data);
	}
}
