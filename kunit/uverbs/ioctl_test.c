// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for ib_uverbs' ioctl() parser (uverbs/core/ioctl.c) and the
 * attribute helpers handlers call (uverbs/core/attrs.c: _uverbs_alloc,
 * uverbs_copy_to, uverbs_copy_to_struct_or_zero, uverbs_get_flags32,
 * uverbs_get_flags64, _uverbs_get_const_signed/unsigned,
 * uverbs_finalize_uobj_create).
 *
 * Requests go through a real /dev/infiniband/uverbsN of a test device
 * whose driver chain is tobj_driver_def (tobj.h), with the header and the
 * attributes in user memory; TOBJ_M_ATTRS takes one attribute of each kind
 * and records what its handler got.  Each check names the errno the
 * target kernel answers.
 */
#include <kunit/test.h>
#include <linux/file.h>
#include "tobj.h"

/**
 * struct it - one case's fixture (test->priv)
 * @u: the test device
 * @f: its open uverbsN
 */
struct it {
	struct uvk *u;
	struct file *f;
};

static int it_init(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def,
				.driver_id = RDMA_DRIVER_UNKNOWN };
	struct it *it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);
	int afd;

	KUNIT_ASSERT_NOT_NULL(test, it);
	tobj_reset();
	it->u = uvk_new(test, &p);
	it->f = uvk_open(it->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(it->f));
	afd = uvk_get_context(it->u, it->f);
	KUNIT_ASSERT_GE(test, afd, 0);
	uvk_close(it->u, uvk_take_fd(afd));
	test->priv = it;
	return 0;
}

/* A TOBJ_M_ATTRS request with its one mandatory attribute. */
static void it_attrs_req(struct it *it, struct uvk_ioctl *req)
{
	u32 mand = 1;

	uvk_ioctl_init(it->u, req, UVERBS_OBJECT_DEVICE, TOBJ_M_ATTRS);
	uvk_attr_in(it->u, req, TOBJ_A_MAND, &mand, sizeof(mand));
}

static long it_run(struct it *it, struct uvk_ioctl *req)
{
	return uvk_ioctl(it->u, it->f, req);
}

static void ioctl_header_checks(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;

	it_attrs_req(it, &req);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 1);

	/* The length must be the header's and the attributes' */
	it_attrs_req(it, &req);
	req.raw_hdr = true;
	req.hdr.length = sizeof(req.hdr) + 2 * sizeof(req.attrs[0]);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	req.hdr.num_attrs = 300;
	req.hdr.length = sizeof(req.hdr) + 300 * sizeof(req.attrs[0]);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);

	it_attrs_req(it, &req);
	req.hdr.reserved1 = 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EPROTONOSUPPORT);
	it_attrs_req(it, &req);
	req.hdr.reserved2 = 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EPROTONOSUPPORT);
	it_attrs_req(it, &req);
	req.hdr.driver_id = RDMA_DRIVER_RXE;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 1);

	/* Another ioctl number is not ours: -ENOTTY for userspace */
	KUNIT_EXPECT_EQ(test, it->f->f_op->unlocked_ioctl(it->f, 0x1b02,
			(unsigned long)uvk_uptr(it->u, 0)), -ENOIOCTLCMD);
}

static void ioctl_unknown_ids(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;

	uvk_ioctl_init(it->u, &req, 0x0fff, 0);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EPROTONOSUPPORT);
	uvk_ioctl_init(it->u, &req, TOBJ_NS | 30, 0);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EPROTONOSUPPORT);
	uvk_ioctl_init(it->u, &req, UVERBS_OBJECT_DEVICE, 21);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EPROTONOSUPPORT);
	uvk_ioctl_init(it->u, &req, UVERBS_OBJECT_DEVICE, TOBJ_NS | 20);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EPROTONOSUPPORT);

	/* An unknown attribute is ignored unless it is mandatory */
	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_NS | 29, 0)->len = 4;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_NS | 29, UVERBS_ATTR_F_MANDATORY);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EPROTONOSUPPORT);
	it_attrs_req(it, &req);
	uvk_attr(&req, 0x0fff, UVERBS_ATTR_F_MANDATORY);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 1);
}

static void ioctl_mandatory_and_duplicates(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;
	u32 v = 5;

	uvk_ioctl_init(it->u, &req, UVERBS_OBJECT_DEVICE, TOBJ_M_ATTRS);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_U32, &v, sizeof(v));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);

	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_U32, &v, sizeof(v));
	uvk_attr_in(it->u, &req, TOBJ_A_IN_U32, &v, sizeof(v));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 0);

	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_U32, &v, sizeof(v));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.u32_val, 5u);
}

static void ioctl_ptr_sizes(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;
	u64 v = 7;

	/* Exactly 4 bytes: fewer or more is -EINVAL, reserved bits too */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_U32, &v, 2);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_U32, &v, 8);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_U32, &v, 4);
	req.attrs[1].attr_data.reserved = 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 0);
}

static void ioctl_struct_zero_trailing(struct kunit *test)
{
	struct it *it = test->priv;
	u8 big[40] = { [0] = 1, [8] = 2, [16] = 3 };
	struct uvk_ioctl req;

	/* Shorter than the last needed member: -EINVAL */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_STRUCT, big, 12);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	/* Up to it: the rest reads as zero */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_STRUCT, big, 16);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.struct_len, 16);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.in.b, 2ULL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.in.c, 0ULL);
	/* Longer, with a zero tail: a newer userspace, fine */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_STRUCT, big, sizeof(big));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.in.c, 3ULL);
	/* Longer with something in the tail the kernel does not know */
	big[32] = 9;
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_STRUCT, big, sizeof(big));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 2);
}

static void ioctl_alloc_and_copy(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;
	u8 data[48];
	int i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = i * 3;
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_COPY, data, sizeof(data));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.copy_len, sizeof(data));
	KUNIT_EXPECT_EQ(test, memcmp(tobj_log.attrs.copy, data, sizeof(data)), 0);

	/* The copy faults: -EFAULT */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_COPY, data, sizeof(data));
	req.attrs[1].data = 16;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EFAULT);
	/* Under the minimum size */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IN_COPY, data, 8);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 1);
}

static void ioctl_output(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;
	void __user *out;
	u8 buf[16];

	/* Larger than the answer: the rest is zeroed, the output flagged */
	it_attrs_req(it, &req);
	out = uvk_attr_out(it->u, &req, TOBJ_A_OUT8, 16);
	KUNIT_ASSERT_EQ(test, copy_to_user(out, "\xff\xff\xff\xff\xff\xff\xff\xff"
					   "\xff\xff\xff\xff\xff\xff\xff\xff", 16), 0);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	uvk_copy_out(it->u, buf, out, 16);
	KUNIT_EXPECT_EQ(test, *(u64 *)buf, 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, *(u64 *)(buf + 8), 0ULL);
	KUNIT_EXPECT_TRUE(test, req.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	/* Not flagged when not written */
	KUNIT_EXPECT_FALSE(test, req.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	/* Smaller than the minimum */
	it_attrs_req(it, &req);
	uvk_attr_out(it->u, &req, TOBJ_A_OUT8, 4);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	/* Where it cannot be written */
	it_attrs_req(it, &req);
	uvk_attr_out(it->u, &req, TOBJ_A_OUT8, 8);
	req.attrs[1].data = 8;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EFAULT);
}

static void ioctl_enum(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;
	u64 v = 0xabcdef;

	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_ENUM, &v, sizeof(v));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.enum_id, 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.enum_val, v);

	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_A_ENUM, 0)->attr_data.enum_data.elem_id = 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.enum_id, 1);

	/* Beyond the choices; a choice that is not PTR_IN; reserved bits */
	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_A_ENUM, 0)->attr_data.enum_data.elem_id = 3;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EOPNOTSUPP);
	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_A_ENUM, 0)->attr_data.enum_data.elem_id = 2;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EOPNOTSUPP);
	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_A_ENUM, 0)->attr_data.enum_data.reserved = 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	/* The choice's own size rules */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_ENUM, &v, 4);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 2);
}

static void ioctl_raw_fd(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;

	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_A_RAW_FD, 0)->data_s64 = 42;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.raw_fd, 42);

	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_A_RAW_FD, 0)->data_s64 = (s64)INT_MAX + 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_A_RAW_FD, 0)->len = 4;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	it_attrs_req(it, &req);
	uvk_attr(&req, TOBJ_A_RAW_FD, 0)->attr_data.reserved = 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
}

static void ioctl_idrs_array(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;
	u32 h[5];
	int i;

	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, tobj_create(it->u, it->f, 100 + i, &h[i]), 0);

	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IDRS, h, 2 * sizeof(u32));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.nidrs, 2);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.idr_values[1], 101ULL);
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IDRS, h, 4 * sizeof(u32));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.idr_values[3], 103ULL);

	/* Too many, none, not whole handles, reserved bits */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IDRS, h, 5 * sizeof(u32));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IDRS, h, 0);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IDRS, h, 6);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IDRS, h, 4);
	req.attrs[1].attr_data.reserved = 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);

	/* An unknown handle after good ones: the good ones are let go */
	h[2] = 9999;
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_IDRS, h, 3 * sizeof(u32));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -ENOENT);
	uvk_ioctl_init(it->u, &req, TOBJ_OBJ, TOBJ_M_SET);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, h[0]);
	uvk_attr_u64(&req, TOBJ_A_VALUE, 5);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 2);
}

static void ioctl_flags_and_consts(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;
	u32 f32 = 0x3;

	/* Missing: 0 flags, the default const */
	it_attrs_req(it, &req);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags_ret, 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags, 0u);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.const_ret, 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.const_val, 7);

	/* 4-byte flags of older userspace, 8-byte flags, an unknown bit */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, TOBJ_A_FLAGS, &f32, sizeof(f32));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags, 3u);
	it_attrs_req(it, &req);
	uvk_attr_u64(&req, TOBJ_A_FLAGS, 0x1);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags, 1u);
	it_attrs_req(it, &req);
	uvk_attr_u64(&req, TOBJ_A_FLAGS, 0x4);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags_ret, -EINVAL);
	it_attrs_req(it, &req);
	uvk_attr_u64(&req, TOBJ_A_FLAGS, 1ULL << 33);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags_ret, -EINVAL);

	/* A const within its type, and one beyond it */
	it_attrs_req(it, &req);
	uvk_attr_u64(&req, TOBJ_A_CONST16, 65535);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.const_val, 65535);
	it_attrs_req(it, &req);
	uvk_attr_u64(&req, TOBJ_A_CONST16, 65536);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.const_ret, -EINVAL);
	/* A signed const: the handler's answer */
	it_attrs_req(it, &req);
	uvk_attr_u64(&req, TOBJ_A_RET, (u64)-ENOSPC);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -ENOSPC);
}

/* A TOBJ_M_ATTRS request with TOBJ_A_FLAGS of @len bytes, inline @data. */
static long it_flags(struct it *it, u16 len, u64 data)
{
	struct uvk_ioctl req;
	struct ib_uverbs_attr *a;

	it_attrs_req(it, &req);
	a = uvk_attr(&req, TOBJ_A_FLAGS, UVERBS_ATTR_F_MANDATORY);
	a->len = len;
	a->data = data;
	return it_run(it, &req);
}

/*
 * uverbs_get_flags64() and uverbs_get_flags32() on one attribute (the
 * handler reads it both ways): absent is no flag, 4 bytes are read as a
 * u32 whatever the rest of the inline data holds, 8 bytes as a u64; an
 * unknown bit, or another size, is -EINVAL and leaves the flags unread;
 * flags32 refuses what flags64 takes above bit 31.
 */
static void ioctl_flags64(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;

	it_attrs_req(it, &req);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64, 0ULL);

	/* 4 bytes: the high half of the inline data is not the flags' */
	KUNIT_EXPECT_EQ(test, it_flags(it, 4, 0xffff000000000003ULL), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64, 0x3ULL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags_ret, 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags, 0x3u);
	/* The same 8 bytes as an 8-byte attribute: unknown bits */
	KUNIT_EXPECT_EQ(test, it_flags(it, 8, 0xffff000000000003ULL), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64, (u64)TOBJ_FLAGS_UNREAD);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags_ret, -EINVAL);

	/* A known bit above 32: flags64's, too wide for flags32 */
	KUNIT_EXPECT_EQ(test, it_flags(it, 8, BIT_ULL(40) | 1), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64, BIT_ULL(40) | 1);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags_ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags, TOBJ_FLAGS_UNREAD);

	/* Unknown bits, low and high */
	KUNIT_EXPECT_EQ(test, it_flags(it, 8, 0x4), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64, (u64)TOBJ_FLAGS_UNREAD);
	KUNIT_EXPECT_EQ(test, it_flags(it, 4, 0x80000001), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, it_flags(it, 8, BIT_ULL(63)), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags_ret, -EINVAL);

	/* Sizes the method's 4 to 8 bytes let through, neither u32 nor u64 */
	KUNIT_EXPECT_EQ(test, it_flags(it, 5, 0x1), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64, (u64)TOBJ_FLAGS_UNREAD);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags_ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, it_flags(it, 7, 0x1), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.flags64_ret, -EINVAL);
	/* and those it does not: the request fails, the handler never runs */
	KUNIT_EXPECT_EQ(test, it_flags(it, 2, 0x1), -EINVAL);
	KUNIT_EXPECT_EQ(test, it_flags(it, 16, 0x1), -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 9);
}

static void ioctl_handler_eprotonosupport(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;

	/* Only the framework may say it cannot run a request */
	it_attrs_req(it, &req);
	uvk_attr_u64(&req, TOBJ_A_RET, (u64)-EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.calls, 1);
}

static void ioctl_bundle_alloc(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;

	it_attrs_req(it, &req);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_TRUE(test, tobj_log.attrs.pool_zeroed);
	KUNIT_EXPECT_TRUE(test, tobj_log.attrs.big_zeroed);
}

static void ioctl_udata(struct kunit *test)
{
	struct it *it = test->priv;
	u8 in[16] = { 0x0d, 0x60 };
	struct uvk_ioctl req;
	void __user *out;
	u64 val = 0;

	/* Inline driver data, and driver data by pointer */
	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, UVERBS_ATTR_UHW_IN, in, 8);
	out = uvk_attr_out(it->u, &req, UVERBS_ATTR_UHW_OUT, 8);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.uhw_in, 8ul);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.uhw_out, 8ul);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.uhw_in_val, 0x600dULL);
	uvk_copy_out(it->u, &val, out, sizeof(val));
	KUNIT_EXPECT_EQ(test, val, 0x600dULL);
	KUNIT_EXPECT_TRUE(test, req.attrs[2].flags & UVERBS_ATTR_F_VALID_OUTPUT);

	it_attrs_req(it, &req);
	uvk_attr_in(it->u, &req, UVERBS_ATTR_UHW_IN, in, sizeof(in));
	KUNIT_EXPECT_EQ(test, it_run(it, &req), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.uhw_in, sizeof(in));
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.uhw_out, 0ul);
	KUNIT_EXPECT_EQ(test, tobj_log.attrs.uhw_in_val, 0x600dULL);
}

static void ioctl_object_attrs(struct kunit *test)
{
	struct it *it = test->priv;
	struct uvk_ioctl req;
	u32 h;

	KUNIT_ASSERT_EQ(test, tobj_create(it->u, it->f, 1, &h), 0);
	/* A handle carries no data; its attr_data is reserved */
	uvk_ioctl_init(it->u, &req, TOBJ_OBJ, TOBJ_M_USE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, h);
	req.attrs[0].len = 4;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	uvk_ioctl_init(it->u, &req, TOBJ_OBJ, TOBJ_M_USE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, h);
	req.attrs[0].attr_data.reserved = 1;
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	/* A negative handle, an unknown one */
	KUNIT_EXPECT_EQ(test, tobj_use(it->u, it->f, (u32)-1, NULL), -ENOENT);
	uvk_ioctl_init(it->u, &req, TOBJ_OBJ, TOBJ_M_USE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, -5);
	KUNIT_EXPECT_EQ(test, it_run(it, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, tobj_use(it->u, it->f, h + 1000, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, tobj_use(it->u, it->f, h, NULL), 0);
}

static struct kunit_case ioctl_cases[] = {
	KUNIT_CASE(ioctl_header_checks),
	KUNIT_CASE(ioctl_unknown_ids),
	KUNIT_CASE(ioctl_mandatory_and_duplicates),
	KUNIT_CASE(ioctl_ptr_sizes),
	KUNIT_CASE(ioctl_struct_zero_trailing),
	KUNIT_CASE(ioctl_alloc_and_copy),
	KUNIT_CASE(ioctl_output),
	KUNIT_CASE(ioctl_enum),
	KUNIT_CASE(ioctl_raw_fd),
	KUNIT_CASE(ioctl_idrs_array),
	KUNIT_CASE(ioctl_flags_and_consts),
	KUNIT_CASE(ioctl_flags64),
	KUNIT_CASE(ioctl_handler_eprotonosupport),
	KUNIT_CASE(ioctl_bundle_alloc),
	KUNIT_CASE(ioctl_udata),
	KUNIT_CASE(ioctl_object_attrs),
	{}
};

static struct kunit_suite ioctl_suite = {
	.name = "rdma_uverbs_ioctl",
	.suite_init = uvk_suite_init,
	.suite_exit = uvk_suite_exit,
	.init = it_init,
	.test_cases = ioctl_cases,
};

kunit_test_suites(&ioctl_suite);
