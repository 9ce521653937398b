// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for ib_uverbs' async event files (uverbs/core/event.c,
 * event_obj.c): the device's events reach every async file of a context,
 * read() returns one 16-byte event at a time, blocking or not, poll()
 * tells, the end of the device is the last event, and the file's queue
 * lives until the file is released.
 */
#include <kunit/test.h>
#include <linux/poll.h>
#include "tk.h"
#include "tobj.h"

/**
 * struct et - one case's fixture (test->priv)
 * @u: the test device
 * @f: its open uverbsN, with a context
 * @afile: the context's async event file (GET_CONTEXT's)
 */
struct et {
	struct uvk *u;
	struct file *f;
	struct file *afile;
};

static int et_init(struct kunit *test)
{
	struct uvk_params p = { .disassociate = true };
	struct et *et = kunit_kzalloc(test, sizeof(*et), GFP_KERNEL);
	int afd;

	KUNIT_ASSERT_NOT_NULL(test, et);
	et->u = uvk_new(test, &p);
	et->f = uvk_open(et->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(et->f));
	afd = uvk_get_context(et->u, et->f);
	KUNIT_ASSERT_GE(test, afd, 0);
	et->afile = uvk_take_fd(afd);
	test->priv = et;
	return 0;
}

static void et_exit(struct kunit *test)
{
	struct et *et = test->priv;

	if (et && et->afile)
		uvk_close(et->u, et->afile);
}

static ssize_t et_read(struct et *et, struct file *f,
		       struct ib_uverbs_async_event_desc *ev, bool nonblock)
{
	return uvk_read(et->u, f, ev, sizeof(*ev), nonblock);
}

static __poll_t et_poll(struct file *f)
{
	return f->f_op->poll(f, NULL);
}

/*
 * Wait (bounded, tk_wait_for()) until @f has an event to read: the device
 * raises each event later, from its own context, one at a time, so one
 * event being readable says nothing of the next.
 */
static bool et_wait_event(struct file *f)
{
	return tk_wait_for(et_poll(f) & EPOLLIN);
}

static void event_port_event_read(struct kunit *test)
{
	struct et *et = test->priv;
	struct ib_uverbs_async_event_desc ev;

	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true), -EAGAIN);
	KUNIT_EXPECT_FALSE(test, et_poll(et->afile));
	KUNIT_ASSERT_EQ(test, tdev_port_event(et->u->td, 1, IB_EVENT_PORT_ERR), 0);
	KUNIT_ASSERT_EQ(test, tdev_port_event(et->u->td, 1, IB_EVENT_PORT_ACTIVE),
			0);
	KUNIT_ASSERT_TRUE(test, et_wait_event(et->afile));
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true),
			(ssize_t)sizeof(ev));
	KUNIT_EXPECT_EQ(test, ev.element, 1ULL);
	KUNIT_EXPECT_EQ(test, ev.event_type, (u32)IB_EVENT_PORT_ERR);
	KUNIT_EXPECT_EQ(test, ev.reserved, 0u);
	/* A buffer too small for one event: -EINVAL, the event stays */
	KUNIT_ASSERT_TRUE(test, et_wait_event(et->afile));
	KUNIT_EXPECT_EQ(test, uvk_read(et->u, et->afile, &ev, 8, true), -EINVAL);
	KUNIT_EXPECT_TRUE(test, et_poll(et->afile) & EPOLLIN);
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true),
			(ssize_t)sizeof(ev));
	KUNIT_EXPECT_EQ(test, ev.event_type, (u32)IB_EVENT_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true), -EAGAIN);
	uvk_close(et->u, et->f);
	et->f = NULL;
}

struct et_reader {
	struct et *et;
	struct ib_uverbs_async_event_desc ev;
	ssize_t ret;
};

static void et_reader_fn(void *arg)
{
	struct et_reader *r = arg;

	uvk_adopt_mm();
	r->ret = et_read(r->et, r->et->afile, &r->ev, false);
	uvk_drop_mm();
}

static void event_blocking_read(struct kunit *test)
{
	struct et *et = test->priv;
	struct et_reader r = { .et = et };
	struct tk_thread t;

	tk_start(test, &t, et_reader_fn, &r);
	msleep(100);
	KUNIT_EXPECT_FALSE(test, completion_done(&t.done));
	tdev_port_event(et->u->td, 1, IB_EVENT_LID_CHANGE);
	tk_join(&t);
	KUNIT_EXPECT_EQ(test, r.ret, (ssize_t)sizeof(r.ev));
	KUNIT_EXPECT_EQ(test, r.ev.event_type, (u32)IB_EVENT_LID_CHANGE);
	uvk_close(et->u, et->f);
	et->f = NULL;
}

static void event_every_async_file(struct kunit *test)
{
	struct et *et = test->priv;
	struct ib_uverbs_async_event_desc ev;
	struct uvk_ioctl req;
	struct file *second;

	uvk_ioctl_init(et->u, &req, UVERBS_OBJECT_ASYNC_EVENT,
		       UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	uvk_attr_obj(&req, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0);
	KUNIT_ASSERT_EQ(test, uvk_ioctl(et->u, et->f, &req), 0);
	second = uvk_take_fd(req.attrs[0].data);
	KUNIT_ASSERT_NOT_NULL(test, second);
	tdev_port_event(et->u->td, 1, IB_EVENT_GID_CHANGE);
	KUNIT_EXPECT_TRUE(test, et_wait_event(second));
	KUNIT_EXPECT_EQ(test, et_read(et, second, &ev, true), (ssize_t)sizeof(ev));
	KUNIT_EXPECT_EQ(test, ev.event_type, (u32)IB_EVENT_GID_CHANGE);
	/* Each file's handler is called in turn: the other may come later */
	KUNIT_EXPECT_TRUE(test, et_wait_event(et->afile));
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true),
			(ssize_t)sizeof(ev));
	KUNIT_EXPECT_EQ(test, ev.event_type, (u32)IB_EVENT_GID_CHANGE);
	/* A closed async file hears nothing more, the other one does */
	uvk_close(et->u, second);
	tdev_port_event(et->u->td, 1, IB_EVENT_SM_CHANGE);
	KUNIT_EXPECT_TRUE(test, et_wait_event(et->afile));
	uvk_close(et->u, et->f);
	et->f = NULL;
}

static void event_device_gone(struct kunit *test)
{
	struct et *et = test->priv;
	struct ib_uverbs_async_event_desc ev;

	uvk_unregister(et->u);
	KUNIT_EXPECT_TRUE(test, et_poll(et->afile) & EPOLLIN);
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true),
			(ssize_t)sizeof(ev));
	KUNIT_EXPECT_EQ(test, ev.event_type, (u32)IB_EVENT_DEVICE_FATAL);
	/* The queue stays open after the end: no error, no more events */
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true), -EAGAIN);
	KUNIT_EXPECT_FALSE(test, et_poll(et->afile));
	uvk_close(et->u, et->f);
	et->f = NULL;
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true), -EAGAIN);
}

static void event_file_outlives_uverbs_file(struct kunit *test)
{
	struct et *et = test->priv;
	struct ib_uverbs_async_event_desc ev;

	tdev_port_event(et->u->td, 1, IB_EVENT_PORT_ERR);
	KUNIT_EXPECT_TRUE(test, et_wait_event(et->afile));
	/* The uverbs file goes: queued events can still be read */
	uvk_close(et->u, et->f);
	et->f = NULL;
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true),
			(ssize_t)sizeof(ev));
	KUNIT_EXPECT_EQ(test, ev.event_type, (u32)IB_EVENT_PORT_ERR);
	tdev_port_event(et->u->td, 1, IB_EVENT_PORT_ACTIVE);
	msleep(100);
	KUNIT_EXPECT_EQ(test, et_read(et, et->afile, &ev, true), -EAGAIN);
}

static struct kunit_case event_cases[] = {
	KUNIT_CASE(event_port_event_read),
	KUNIT_CASE(event_blocking_read),
	KUNIT_CASE(event_every_async_file),
	KUNIT_CASE(event_device_gone),
	KUNIT_CASE(event_file_outlives_uverbs_file),
	{}
};

static struct kunit_suite event_suite = {
	.name = "rdma_uverbs_event",
	.suite_init = uvk_suite_init,
	.suite_exit = uvk_suite_exit,
	.init = et_init,
	.exit = et_exit,
	.test_cases = event_cases,
};

kunit_test_suites(&event_suite);
