// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for ib_uverbs' write() channel (uverbs/core/write.c) and
 * its ioctl() twin INVOKE_WRITE (uverbs/core/device_obj.c): the legacy
 * and extended framing with the target's checks and errnos, the split of
 * core and driver data, GET_CONTEXT.
 *
 * The commands are the test driver's TOBJ_CMD (legacy, with driver data
 * both ways) and TOBJ_CMD_EX (extended), which record the lengths the
 * framework gave them (tobj.h), and the core's GET_CONTEXT.
 */
#include <kunit/test.h>
#include "tobj.h"

/**
 * struct wt - one case's fixture (test->priv)
 * @u: the test device
 * @f: its open uverbsN
 * @resp: where responses go, in user memory
 */
struct wt {
	struct uvk *u;
	struct file *f;
	void __user *resp;
};

static int wt_init(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def,
				.cmd_mask_set = BIT_ULL(TOBJ_CMD) };
	struct wt *wt = kunit_kzalloc(test, sizeof(*wt), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wt);
	tobj_reset();
	wt->u = uvk_new(test, &p);
	wt->f = uvk_open(wt->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(wt->f));
	wt->resp = uvk_uptr(wt->u, 8192);
	test->priv = wt;
	return 0;
}

/* A legacy TOBJ_CMD: @in driver bytes, @out_words for the response. */
struct wt_cmd {
	struct ib_uverbs_cmd_hdr hdr;
	struct tobj_cmd cmd;
	u64 drv[2];
};

static ssize_t wt_legacy(struct wt *wt, size_t drv_in, u16 out_words)
{
	struct wt_cmd c = { .cmd.x = 41, .drv = { 0xd1, 0xd2 } };
	size_t len = sizeof(c.hdr) + sizeof(c.cmd) + drv_in;

	c.hdr.command = TOBJ_CMD;
	c.hdr.in_words = len / 4;
	c.hdr.out_words = out_words;
	c.cmd.response = (uintptr_t)wt->resp;
	return uvk_write(wt->u, wt->f, &c, len);
}

static void write_legacy_framing(struct kunit *test)
{
	struct wt *wt = test->priv;
	struct wt_cmd c = {};
	u64 y;

	/* Driver data in and out, after the core's */
	KUNIT_EXPECT_EQ(test, wt_legacy(wt, 16, 6),
			(ssize_t)(sizeof(c.hdr) + sizeof(c.cmd) + 16));
	KUNIT_EXPECT_EQ(test, tobj_log.write_ucore[0], sizeof(struct tobj_cmd));
	KUNIT_EXPECT_EQ(test, tobj_log.write_ucore[1],
			sizeof(struct tobj_cmd_resp));
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata[0], 16ul);
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata[1], 16ul);
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata_in, 0xd1ULL);
	uvk_copy_out(wt->u, &y, wt->resp, sizeof(y));
	KUNIT_EXPECT_EQ(test, y, 42ULL);
	/* Without driver data */
	KUNIT_EXPECT_GT(test, wt_legacy(wt, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata[0], 0ul);
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata[1], 0ul);

	/* Short request, short response, a length that is not the count */
	c.hdr.command = TOBJ_CMD;
	c.hdr.in_words = 4;
	c.hdr.out_words = 2;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &c, 16), -ENOSPC);
	KUNIT_EXPECT_EQ(test, wt_legacy(wt, 0, 1), -ENOSPC);
	c.hdr.in_words = 7;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &c, 24), -EINVAL);
	/* A bad response pointer */
	c.hdr.in_words = 6;
	c.cmd.response = 8;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &c, 24), -EFAULT);
}

static void write_header_errors(struct kunit *test)
{
	struct wt *wt = test->priv;
	struct ib_uverbs_cmd_hdr hdr = { .in_words = 2 };

	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &hdr, 4), -EINVAL);
	/* Bits beyond the command number and the extended flag */
	hdr.command = 0x40000000 | TOBJ_CMD;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &hdr, 8), -EINVAL);
	/* Beyond every command, legacy and extended */
	hdr.command = 63;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &hdr, 8), -EOPNOTSUPP);
	hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | 63;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &hdr, 8), -EOPNOTSUPP);
	/* In range, but no command of that number: checked as legacy */
	hdr.command = 45;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &hdr, 8), -EOPNOTSUPP);
	hdr.in_words = 3;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &hdr, 8), -EINVAL);
	/* The user buffer itself faults */
	KUNIT_EXPECT_EQ(test, wt->f->f_op->write(wt->f, (void __user *)8, 8,
						 &(loff_t){ 0 }), -EFAULT);
}

/* An extended TOBJ_CMD_EX. */
struct wt_ex {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_ex_cmd_hdr ex;
	struct tobj_cmd_ex cmd;
	u64 drv;
};

static void wt_ex_init(struct wt *wt, struct wt_ex *c)
{
	memset(c, 0, sizeof(*c));
	c->hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | TOBJ_CMD_EX;
	c->hdr.in_words = sizeof(c->cmd) / 8;
	c->hdr.out_words = sizeof(struct tobj_cmd_ex_resp) / 8;
	c->ex.response = (uintptr_t)wt->resp;
	c->cmd.x = 9;
}

static ssize_t wt_ex_send(struct wt *wt, struct wt_ex *c)
{
	size_t len = sizeof(c->hdr) + sizeof(c->ex) +
		     (c->hdr.in_words + c->ex.provider_in_words) * 8;

	return uvk_write(wt->u, wt->f, c, len);
}

static void write_extended_framing(struct kunit *test)
{
	struct wt *wt = test->priv;
	struct tobj_cmd_ex_resp resp;
	struct wt_ex c;

	wt_ex_init(wt, &c);
	c.ex.provider_in_words = 1;
	c.ex.provider_out_words = 1;
	KUNIT_EXPECT_GT(test, wt_ex_send(wt, &c), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.write_ucore[0], sizeof(c.cmd));
	KUNIT_EXPECT_EQ(test, tobj_log.write_ucore[1], sizeof(resp));
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata[0], 8ul);
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata[1], 8ul);
	uvk_copy_out(wt->u, &resp, wt->resp, sizeof(resp));
	KUNIT_EXPECT_EQ(test, resp.y, 10ULL);
	KUNIT_EXPECT_EQ(test, resp.len, (u32)sizeof(resp));

	/* An older caller's shorter response: response_length says so */
	wt_ex_init(wt, &c);
	c.hdr.out_words = 1;
	KUNIT_EXPECT_GT(test, wt_ex_send(wt, &c), 0);
	KUNIT_EXPECT_EQ(test, tobj_log.write_ucore[1], 8ul);

	wt_ex_init(wt, &c);
	c.ex.cmd_hdr_reserved = 1;
	KUNIT_EXPECT_EQ(test, wt_ex_send(wt, &c), -EINVAL);
	wt_ex_init(wt, &c);
	c.hdr.out_words = 0;
	KUNIT_EXPECT_EQ(test, wt_ex_send(wt, &c), -EINVAL);
	wt_ex_init(wt, &c);
	c.ex.response = 0;
	KUNIT_EXPECT_EQ(test, wt_ex_send(wt, &c), -EINVAL);
	wt_ex_init(wt, &c);
	c.ex.response = 0;
	c.hdr.out_words = 0;
	KUNIT_EXPECT_GT(test, wt_ex_send(wt, &c), 0);
	wt_ex_init(wt, &c);
	c.ex.response = (u64)TASK_SIZE;
	KUNIT_EXPECT_EQ(test, wt_ex_send(wt, &c), -EFAULT);
	/* The words must add up to the count */
	wt_ex_init(wt, &c);
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &c, sizeof(c.hdr) +
					sizeof(c.ex) + 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &c, 12), -EINVAL);
}

static void write_invoke_write(struct kunit *test)
{
	struct wt *wt = test->priv;
	struct tobj_cmd_ex cmd_ex = { .x = 199 };
	struct tobj_cmd cmd = { .x = 99 };
	struct uvk_ioctl req;
	void __user *out;
	u64 drv = 0xd3;
	u64 y;

	uvk_ioctl_init(wt->u, &req, UVERBS_OBJECT_DEVICE,
		       UVERBS_METHOD_INVOKE_WRITE);
	uvk_attr_u64(&req, UVERBS_ATTR_WRITE_CMD, TOBJ_CMD);
	uvk_attr_in(wt->u, &req, UVERBS_ATTR_CORE_IN, &cmd, sizeof(cmd));
	out = uvk_attr_out(wt->u, &req, UVERBS_ATTR_CORE_OUT, 8);
	uvk_attr_in(wt->u, &req, UVERBS_ATTR_UHW_IN, &drv, sizeof(drv));
	KUNIT_EXPECT_EQ(test, uvk_ioctl(wt->u, wt->f, &req), 0);
	uvk_copy_out(wt->u, &y, out, sizeof(y));
	KUNIT_EXPECT_EQ(test, y, 100ULL);
	KUNIT_EXPECT_TRUE(test, req.attrs[2].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata[0], 8ul);
	KUNIT_EXPECT_EQ(test, tobj_log.write_udata_in, 0xd3ULL);

	/* The core request shorter than the command's: -ENOSPC */
	uvk_ioctl_init(wt->u, &req, UVERBS_OBJECT_DEVICE,
		       UVERBS_METHOD_INVOKE_WRITE);
	uvk_attr_u64(&req, UVERBS_ATTR_WRITE_CMD, TOBJ_CMD);
	uvk_attr_in(wt->u, &req, UVERBS_ATTR_CORE_IN, &cmd, 8);
	uvk_attr_out(wt->u, &req, UVERBS_ATTR_CORE_OUT, 8);
	KUNIT_EXPECT_EQ(test, uvk_ioctl(wt->u, wt->f, &req), -ENOSPC);
	/* Unknown commands, and an extended one through INVOKE_WRITE */
	uvk_ioctl_init(wt->u, &req, UVERBS_OBJECT_DEVICE,
		       UVERBS_METHOD_INVOKE_WRITE);
	uvk_attr_u64(&req, UVERBS_ATTR_WRITE_CMD, 63);
	KUNIT_EXPECT_EQ(test, uvk_ioctl(wt->u, wt->f, &req), -EOPNOTSUPP);
	uvk_ioctl_init(wt->u, &req, UVERBS_OBJECT_DEVICE,
		       UVERBS_METHOD_INVOKE_WRITE);
	uvk_attr_u64(&req, UVERBS_ATTR_WRITE_CMD, 0x40000000);
	KUNIT_EXPECT_EQ(test, uvk_ioctl(wt->u, wt->f, &req), -EINVAL);
	uvk_ioctl_init(wt->u, &req, UVERBS_OBJECT_DEVICE,
		       UVERBS_METHOD_INVOKE_WRITE);
	uvk_attr_u64(&req, UVERBS_ATTR_WRITE_CMD,
		     IB_USER_VERBS_CMD_FLAG_EXTENDED | TOBJ_CMD_EX);
	uvk_attr_in(wt->u, &req, UVERBS_ATTR_CORE_IN, &cmd_ex, 8);
	out = uvk_attr_out(wt->u, &req, UVERBS_ATTR_CORE_OUT,
			   sizeof(struct tobj_cmd_ex_resp));
	KUNIT_EXPECT_EQ(test, uvk_ioctl(wt->u, wt->f, &req), 0);
	uvk_copy_out(wt->u, &y, out, sizeof(y));
	KUNIT_EXPECT_EQ(test, y, 200ULL);
}

static void write_get_context(struct kunit *test)
{
	struct wt *wt = test->priv;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_get_context cmd;
	} c = {};
	struct ib_uverbs_get_context_resp resp;
	struct file *afile;
	int afd;

	/* Its response is a file descriptor and the completion vectors */
	afd = uvk_get_context(wt->u, wt->f);
	KUNIT_ASSERT_GE(test, afd, 0);
	afile = uvk_take_fd(afd);
	KUNIT_ASSERT_NOT_NULL(test, afile);
	KUNIT_EXPECT_TRUE(test, afile->f_op->read != NULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&wt->u->alloc_ucontext), 1);
	/* One per file */
	KUNIT_EXPECT_EQ(test, uvk_get_context(wt->u, wt->f), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&wt->u->alloc_ucontext), 1);
	uvk_close(wt->u, afile);
	uvk_close(wt->u, wt->f);
	KUNIT_EXPECT_EQ(test, atomic_read(&wt->u->dealloc_ucontext), 1);

	/* A response that cannot be written leaves nothing behind */
	wt->f = uvk_open(wt->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(wt->f));
	c.hdr.command = IB_USER_VERBS_CMD_GET_CONTEXT;
	c.hdr.in_words = sizeof(c) / 4;
	c.hdr.out_words = sizeof(resp) / 4;
	c.cmd.response = 8;
	KUNIT_EXPECT_EQ(test, uvk_write(wt->u, wt->f, &c, sizeof(c)), -EFAULT);
	KUNIT_EXPECT_EQ(test, atomic_read(&wt->u->alloc_ucontext), 1);
	afd = uvk_get_context(wt->u, wt->f);
	KUNIT_ASSERT_GE(test, afd, 0);
	uvk_close(wt->u, uvk_take_fd(afd));
}

static struct kunit_case write_cases[] = {
	KUNIT_CASE(write_legacy_framing),
	KUNIT_CASE(write_header_errors),
	KUNIT_CASE(write_extended_framing),
	KUNIT_CASE(write_invoke_write),
	KUNIT_CASE(write_get_context),
	{}
};

static struct kunit_suite write_suite = {
	.name = "rdma_uverbs_write",
	.suite_init = uvk_suite_init,
	.suite_exit = uvk_suite_exit,
	.init = wt_init,
	.test_cases = write_cases,
};

kunit_test_suites(&write_suite);
