// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_event: core/device/event.c, event handler
 * registration, with the dispatch of core/device/cache.c that reaches the
 * handlers (ib_dispatch_event()) and updates the port cache on the way.
 *
 * The test device raises its events from its interrupt context (a hard
 * interrupt by default), as hardware does; the handlers run later, in
 * process context.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <rdma/ib_cache.h>
#include "tk.h"
#include "vk.h"

#define TK_MAX_EVENTS 8

/* An event handler that records what it got. */
struct tk_handler {
	struct ib_event_handler h;
	int n;			/* under the core's handler rwsem (read) */
	enum ib_event_type type[TK_MAX_EVENTS];
	u32 port[TK_MAX_EVENTS];
	int seq[TK_MAX_EVENTS];
	bool task[TK_MAX_EVENTS];	/* called where it may sleep */
};

static atomic_t tk_event_seq = ATOMIC_INIT(0);

static void tk_handle(struct ib_event_handler *h, struct ib_event *e)
{
	struct tk_handler *t = container_of(h, struct tk_handler, h);

	if (t->n >= TK_MAX_EVENTS)
		return;
	t->type[t->n] = e->event;
	t->port[t->n] = e->element.port_num;
	t->seq[t->n] = atomic_inc_return(&tk_event_seq);
	t->task[t->n] = in_task() && preemptible();
	WRITE_ONCE(t->n, t->n + 1);
}

static void tk_handler_add(struct tk_handler *t, struct ib_device *dev)
{
	memset(t, 0, sizeof(*t));
	INIT_IB_EVENT_HANDLER(&t->h, dev, tk_handle);
	ib_register_event_handler(&t->h);
}

static void event_fanout_to_all(struct kunit *test)
{
	struct tdev_params p = { .name = "ktev%d", .ports = 2 };
	struct tdev *td = tk_dev(test, &p);
	struct tk_handler h[3];
	int i;

	for (i = 0; i < 3; i++)
		tk_handler_add(&h[i], &td->ibdev);
	tdev_port_event(td, 2, IB_EVENT_PORT_ERR);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(h[2].n) == 1));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, h[i].n, 1);
		KUNIT_EXPECT_EQ(test, h[i].type[0], IB_EVENT_PORT_ERR);
		KUNIT_EXPECT_EQ(test, h[i].port[0], 2U);
	}
	/* In registration order. */
	KUNIT_EXPECT_LT(test, h[0].seq[0], h[1].seq[0]);
	KUNIT_EXPECT_LT(test, h[1].seq[0], h[2].seq[0]);
	for (i = 0; i < 3; i++)
		ib_unregister_event_handler(&h[i].h);
	tdev_destroy(td);
}

static void event_unregistered_handler_stops(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktevu%d");
	struct tk_handler a, b, witness;

	tk_handler_add(&a, &td->ibdev);
	tk_handler_add(&b, &td->ibdev);
	tk_handler_add(&witness, &td->ibdev);
	tdev_port_event(td, 1, IB_EVENT_LID_CHANGE);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(witness.n) == 1));
	ib_unregister_event_handler(&a.h);
	tdev_port_event(td, 1, IB_EVENT_PKEY_CHANGE);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(witness.n) == 2));
	KUNIT_EXPECT_EQ(test, a.n, 1);
	KUNIT_EXPECT_EQ(test, b.n, 2);
	KUNIT_EXPECT_EQ(test, b.type[1], IB_EVENT_PKEY_CHANGE);
	ib_unregister_event_handler(&b.h);
	tdev_port_event(td, 1, IB_EVENT_PORT_ACTIVE);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(witness.n) == 3));
	KUNIT_EXPECT_EQ(test, b.n, 2);
	ib_unregister_event_handler(&witness.h);
	tdev_destroy(td);
}

/* A handler that blocks in its call until the case lets it go. */
struct tk_blocking {
	struct ib_event_handler h;
	struct completion in_call;
	struct completion go;
	atomic_t calls;
};

static void tk_handle_blocking(struct ib_event_handler *h, struct ib_event *e)
{
	struct tk_blocking *b = container_of(h, struct tk_blocking, h);

	if (atomic_inc_return(&b->calls) > 1)
		return;
	complete(&b->in_call);
	wait_for_completion(&b->go);
}

static void tk_unregister_handler_fn(void *arg)
{
	ib_unregister_event_handler(arg);
}

/*
 * ib_unregister_event_handler() returns only once a call of the handler
 * in progress has returned: its caller frees the handler next.
 */
static void event_unregister_waits_for_call(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktevw%d");
	struct tk_blocking b = {};
	struct tk_handler witness;
	struct tk_thread t;

	init_completion(&b.in_call);
	init_completion(&b.go);
	INIT_IB_EVENT_HANDLER(&b.h, &td->ibdev, tk_handle_blocking);
	ib_register_event_handler(&b.h);
	tdev_port_event(td, 1, IB_EVENT_LID_CHANGE);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&b.in_call,
							    5 * HZ));
	tk_expect_blocks(test, &t, tk_unregister_handler_fn, &b.h);
	complete(&b.go);
	tk_join(&t);
	/* Gone: a later event does not reach it */
	tk_handler_add(&witness, &td->ibdev);
	tdev_port_event(td, 1, IB_EVENT_PKEY_CHANGE);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(READ_ONCE(witness.n) == 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&b.calls), 1);
	ib_unregister_event_handler(&witness.h);
	tdev_destroy(td);
}

static void event_only_own_device(struct kunit *test)
{
	struct tdev_params p = { .name = "ktevo%d" };
	struct tdev *a = tk_dev(test, &p), *b = tk_dev(test, &p);
	struct tk_handler ha, hb;

	tk_handler_add(&ha, &a->ibdev);
	tk_handler_add(&hb, &b->ibdev);
	tdev_port_event(b, 1, IB_EVENT_PORT_ERR);
	tdev_port_event(a, 1, IB_EVENT_PORT_ERR);
	/* Both were handled: neither went to the other device's handler */
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(ha.n) >= 1 &&
					    READ_ONCE(hb.n) >= 1));
	msleep(50);
	KUNIT_EXPECT_EQ(test, ha.n, 1);
	KUNIT_EXPECT_EQ(test, hb.n, 1);
	ib_unregister_event_handler(&hb.h);
	ib_unregister_event_handler(&ha.h);
	tdev_destroy(a);
	tdev_destroy(b);
}

/* Events are delivered later, in process context, to every handler. */
static void event_device_fatal(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktevf%d");
	struct ib_event e = { .device = &td->ibdev,
			      .event = IB_EVENT_DEVICE_FATAL };
	struct tk_handler h;

	tk_handler_add(&h, &td->ibdev);
	ib_dispatch_event(&e);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(h.n) == 1));
	KUNIT_EXPECT_EQ(test, h.n, 1);
	KUNIT_EXPECT_EQ(test, h.type[0], IB_EVENT_DEVICE_FATAL);
	KUNIT_EXPECT_TRUE(test, h.task[0]);
	ib_unregister_event_handler(&h.h);
	tdev_destroy(td);
}

static const enum tdev_exec tk_execs[] = {
	TDEV_EXEC_HRTIMER, TDEV_EXEC_IRQ_WORK, TDEV_EXEC_TIMER, TDEV_EXEC_WORK,
};

static void tk_exec_desc(const enum tdev_exec *e, char *desc)
{
	strscpy(desc, vk_exec_name(*e), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tk_exec, tk_execs, tk_exec_desc);

/*
 * Issue 12, defect 6: drivers call ib_dispatch_event() from interrupt
 * handlers.  Before the fix an event that is not about a port (here
 * IB_EVENT_DEVICE_FATAL) ran the handlers at once, under a sleeping lock:
 * in the interrupt, with "sleeping function called from invalid context".
 */
static void event_dispatch_from_interrupt(struct kunit *test)
{
	struct tdev_params p = {
		.name = "ktevi%d",
		.exec = *(const enum tdev_exec *)test->param_value,
	};
	struct tdev *td = tk_dev(test, &p);
	u64 mark = tk_log_mark();
	struct tk_handler h;

	tk_handler_add(&h, &td->ibdev);
	KUNIT_ASSERT_EQ(test, tdev_device_event(td, IB_EVENT_DEVICE_FATAL), 0);
	KUNIT_ASSERT_EQ(test, tdev_port_event(td, 1, IB_EVENT_PORT_ERR), 0);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(h.n) == 2));
	/* In the order the device raised them, where handlers may sleep */
	KUNIT_EXPECT_EQ(test, h.type[0], IB_EVENT_DEVICE_FATAL);
	KUNIT_EXPECT_EQ(test, h.type[1], IB_EVENT_PORT_ERR);
	KUNIT_EXPECT_TRUE(test, h.task[0]);
	KUNIT_EXPECT_TRUE(test, h.task[1]);
	KUNIT_EXPECT_EQ(test, tk_log_count(mark, "called from invalid context"),
			0);
	ib_unregister_event_handler(&h.h);
	tdev_destroy(td);
}

static void event_port_state_cache(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktevs%d");
	struct ib_device *dev = &td->ibdev;
	struct ib_port_attr attr;

	KUNIT_EXPECT_EQ(test, dev->port_data[1].cache.port_state,
			IB_PORT_ACTIVE);
	tdev_port_event(td, 1, IB_EVENT_PORT_ERR);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(READ_ONCE(dev->port_data[1].cache.port_state) ==
					    IB_PORT_DOWN));
	KUNIT_ASSERT_EQ(test, ib_query_port(dev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.state, IB_PORT_DOWN);
	tdev_port_event(td, 1, IB_EVENT_PORT_ACTIVE);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(READ_ONCE(dev->port_data[1].cache.port_state) ==
					    IB_PORT_ACTIVE));
	tdev_destroy(td);
}

static void event_lid_change(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktevl%d");
	struct ib_port_attr attr;
	struct tk_handler h;
	u16 lid;

	tk_handler_add(&h, &td->ibdev);
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	lid = attr.lid;
	KUNIT_EXPECT_EQ(test, lid, td->port[1].lid);
	/* The test double's LID_CHANGE moves the LID on by one */
	tdev_port_event(td, 1, IB_EVENT_LID_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.lid, lid + 1);
	/* The handlers hear of it, with the port */
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(h.n) == 1));
	KUNIT_EXPECT_EQ(test, h.type[0], IB_EVENT_LID_CHANGE);
	KUNIT_EXPECT_EQ(test, h.port[0], 1U);
	ib_unregister_event_handler(&h.h);
	tdev_destroy(td);
}

static void event_gid_change_rereads_driver(struct kunit *test)
{
	struct tdev_params p = { .name = "ktevg%d", .driver_gids = true,
				 .gid_tbl_len = 4 };
	struct tdev *td = tk_new_dev(test, &p);
	union ib_gid g1 = { .raw = { 0xfe, 0x80, [15] = 1 } };
	union ib_gid g2 = { .raw = { 0xfe, 0x80, [15] = 2 } };
	union ib_gid got;
	struct tk_handler h;

	KUNIT_ASSERT_EQ(test, tdev_set_gid(td, 1, 0, &g1), 0);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	tk_handler_add(&h, &td->ibdev);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &got), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&got, &g1, sizeof(got)), 0);
	KUNIT_ASSERT_EQ(test, tdev_set_gid(td, 1, 2, &g2), 0);
	/* Not seen until the driver reports the change. */
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 2, &got), -EINVAL);
	tdev_port_event(td, 1, IB_EVENT_GID_CHANGE);
	/* The handler hears of it after the table was reread. */
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(h.n) == 1));
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 2, &got), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&got, &g2, sizeof(got)), 0);
	KUNIT_EXPECT_EQ(test, h.type[0], IB_EVENT_GID_CHANGE);
	ib_unregister_event_handler(&h.h);
	tdev_destroy(td);
}

static struct kunit_case event_cases[] = {
	KUNIT_CASE(event_fanout_to_all),
	KUNIT_CASE(event_unregistered_handler_stops),
	KUNIT_CASE(event_unregister_waits_for_call),
	KUNIT_CASE(event_only_own_device),
	KUNIT_CASE(event_device_fatal),
	KUNIT_CASE_PARAM(event_dispatch_from_interrupt, tk_exec_gen_params),
	KUNIT_CASE(event_port_state_cache),
	KUNIT_CASE(event_lid_change),
	KUNIT_CASE(event_gid_change_rereads_driver),
	{}
};

static struct kunit_suite event_suite = {
	.name = "rdma_core_event",
	.test_cases = event_cases,
};

kunit_test_suites(&event_suite);
