// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_client: core/device/client.c, clients and their
 * data on each device, in order, and racing with device registration and
 * unregistration.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "tk.h"
#include "vk.h"

/*
 * A client that counts its calls.  Its add() stores the device as client
 * data (when @set_data), records the order of remove() calls in @log, and
 * can block until @go is completed (when @block), telling @in_add first.
 */
struct tk_client {
	struct ib_client client;
	atomic_t adds;
	atomic_t removes;
	atomic_t bad_data;
	bool set_data;
	bool decline;
	bool block;
	struct completion in_add;
	struct completion go;
	char tag;
	char *log;
};

static DEFINE_SPINLOCK(tk_log_lock);

/* Clients registered by a test may also see the devices of others (ndevs):
 * only devices named "kt..." count.
 */
static bool tk_ours(struct ib_device *dev)
{
	return !strncmp(dev_name(&dev->dev), "kt", 2);
}

static void tk_log(struct tk_client *c)
{
	size_t n;

	if (!c->log)
		return;
	spin_lock(&tk_log_lock);
	n = strlen(c->log);
	if (n < 15)
		c->log[n] = c->tag;
	spin_unlock(&tk_log_lock);
}

static int tk_do_add(struct tk_client *c, struct ib_device *dev)
{
	if (!tk_ours(dev))
		return -EOPNOTSUPP;
	if (c->block) {
		complete(&c->in_add);
		wait_for_completion(&c->go);
	}
	if (c->decline)
		return -EOPNOTSUPP;
	atomic_inc(&c->adds);
	if (c->set_data) {
		ib_set_client_data(dev, &c->client, dev);
		if (ib_get_client_data(dev, &c->client) != dev)
			atomic_inc(&c->bad_data);
	}
	return 0;
}

static void tk_do_remove(struct tk_client *c, struct ib_device *dev,
			 void *data)
{
	atomic_inc(&c->removes);
	if (data != (c->set_data ? dev : NULL))
		atomic_inc(&c->bad_data);
	tk_log(c);
}

/* ib_client callbacks do not say which client: one set per instance. */
static struct tk_client tk_clients[3];

#define TK_CLIENT_FNS(n)						\
static int tk_add_##n(struct ib_device *dev)				\
{									\
	return tk_do_add(&tk_clients[n], dev);				\
}									\
static void tk_remove_##n(struct ib_device *dev, void *data)		\
{									\
	tk_do_remove(&tk_clients[n], dev, data);			\
}
TK_CLIENT_FNS(0)
TK_CLIENT_FNS(1)
TK_CLIENT_FNS(2)

static struct tk_client *tk_client_init(int n, char *log)
{
	static int (* const adds[])(struct ib_device *) = {
		tk_add_0, tk_add_1, tk_add_2 };
	static void (* const removes[])(struct ib_device *, void *) = {
		tk_remove_0, tk_remove_1, tk_remove_2 };
	struct tk_client *c = &tk_clients[n];

	memset(c, 0, sizeof(*c));
	c->client.name = "rdma_kunit_client";
	c->client.add = adds[n];
	c->client.remove = removes[n];
	c->client.no_kverbs_req = 1;
	c->tag = 'A' + n;
	c->log = log;
	init_completion(&c->in_add);
	init_completion(&c->go);
	return c;
}

static void client_before_devices(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tdev_params p = { .name = "ktcb%d" };
	struct tdev *a, *b;

	c->set_data = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	a = tk_dev(test, &p);
	b = tk_dev(test, &p);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 2);
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&a->ibdev, &c->client),
			    (void *)&a->ibdev);
	tdev_destroy(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
	tdev_destroy(b);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 2);
	ib_unregister_client(&c->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->bad_data), 0);
}

static void client_after_devices(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tdev_params p = { .name = "ktca%d" };
	struct tdev *a = tk_dev(test, &p), *b = tk_dev(test, &p);

	c->set_data = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 2);
	ib_unregister_client(&c->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 2);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&a->ibdev, &c->client));
	KUNIT_EXPECT_TRUE(test, device_is_registered(&a->ibdev.dev));
	tdev_destroy(a);
	tdev_destroy(b);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->bad_data), 0);
}

/*
 * A device whose registration references are all gone (refcount 0: the
 * moment between unregistration's last put and its leaving the table) is
 * skipped by a client's registration: no add(), and no put of a reference
 * never taken, on it or on the device after it.  The moment is made by
 * hand here: it lasts microseconds.
 */
static void client_skips_device_without_references(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tdev_params p = { .name = "ktcz%d" };
	struct tdev *a = tk_dev(test, &p), *b = tk_dev(test, &p);
	struct tdev *d = tk_dev(test, &p);

	KUNIT_ASSERT_EQ(test, refcount_read(&b->ibdev.refcount), 1);
	refcount_set(&b->ibdev.refcount, 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	/* a and d, each with the reference add() ran under given back */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 2);
	KUNIT_EXPECT_EQ(test, refcount_read(&b->ibdev.refcount), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&d->ibdev.refcount), 1);
	refcount_set(&b->ibdev.refcount, 1);
	ib_unregister_client(&c->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 2);
	tdev_destroy(a);
	tdev_destroy(b);
	tdev_destroy(d);
}

static void client_data_null_until_set(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tdev *a = tk_dev_named(test, "ktcd%d");

	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 1);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&a->ibdev, &c->client));
	ib_set_client_data(&a->ibdev, &c->client, c);
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&a->ibdev, &c->client),
			    (void *)c);
	ib_set_client_data(&a->ibdev, &c->client, NULL);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&a->ibdev, &c->client));
	ib_unregister_client(&c->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->bad_data), 0);
	tdev_destroy(a);
}

static void client_data_refused_when_not_added(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tdev *a = tk_dev_named(test, "ktcn%d");

	u64 mark;

	c->decline = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	mark = tk_log_mark();
	ib_set_client_data(&a->ibdev, &c->client, c);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&a->ibdev, &c->client));
	KUNIT_EXPECT_EQ(test, tk_log_count(mark, "is not added, data not set"),
			1);
	tdev_destroy(a);
	/* Declined: never added, never removed. */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 0);
	ib_unregister_client(&c->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 0);
}

static void client_remove_reverse_order(struct kunit *test)
{
	char log[16] = "";
	struct tk_client *c0 = tk_client_init(0, log);
	struct tk_client *c1 = tk_client_init(1, log);
	struct tk_client *c2 = tk_client_init(2, log);
	struct tdev_params p = { .name = "ktord%d" };
	struct tdev *a;

	KUNIT_ASSERT_EQ(test, ib_register_client(&c0->client), 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&c1->client), 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&c2->client), 0);
	KUNIT_EXPECT_NE(test, c0->client.client_id, c1->client.client_id);
	KUNIT_EXPECT_NE(test, c1->client.client_id, c2->client.client_id);
	a = tk_dev(test, &p);
	tdev_destroy(a);
	KUNIT_EXPECT_STREQ(test, log, "CBA");
	ib_unregister_client(&c2->client);
	ib_unregister_client(&c1->client);
	ib_unregister_client(&c0->client);
	KUNIT_EXPECT_STREQ(test, log, "CBA");
}

static void client_kverbs_requirement(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tk_client *any = tk_client_init(1, NULL);
	struct tdev_params none = { .name = "ktkvcn%d", .no_kverbs = true };
	struct tdev *a = tk_dev_named(test, "ktkvc%d");
	struct tdev *b = tk_dev(test, &none);

	KUNIT_ASSERT_TRUE(test, a->ibdev.kverbs_provider);
	KUNIT_ASSERT_FALSE(test, b->ibdev.kverbs_provider);
	c->client.no_kverbs_req = 0;
	c->set_data = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&any->client), 0);
	/* Only the provider for the client that needs kernel verbs */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 1);
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&a->ibdev, &c->client),
			    (void *)&a->ibdev);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&b->ibdev, &c->client));
	KUNIT_EXPECT_EQ(test, atomic_read(&any->adds), 2);
	/* A device registered later is judged the same way */
	tdev_destroy(b);
	b = tk_dev(test, &none);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&any->adds), 3);
	ib_unregister_client(&any->client);
	ib_unregister_client(&c->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->bad_data), 0);
	tdev_destroy(a);
	tdev_destroy(b);
}

/*
 * A kernel verbs client attaches the way ULPs do: in add() it sets up a
 * PD, a CQ the core polls and two connected QPs and moves a message; its
 * remove() drains and tears them down.  Registered before and after the
 * device.
 */
struct tk_kv_client {
	struct ib_client client;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *a, *b;
	struct ib_cqe cqe;
	atomic_t completions;
	atomic_t good;
	int adds, removes;
	u8 *buf;
};

static struct tk_kv_client tk_kv;

static void tk_kv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	atomic_inc(&tk_kv.completions);
	if (wc->status == IB_WC_SUCCESS)
		atomic_inc(&tk_kv.good);
}

static struct ib_qp *tk_kv_qp(struct tk_kv_client *k)
{
	struct ib_qp_init_attr ia = {
		.qp_type = IB_QPT_RC, .send_cq = k->cq, .recv_cq = k->cq,
		.sq_sig_type = IB_SIGNAL_REQ_WR, .port_num = 1,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ib_create_qp(k->pd, &ia);
}

/* A SEND from a to b, both completions counted; 0 or -errno. */
static int tk_kv_send(struct tk_kv_client *k, struct ib_device *dev)
{
	struct ib_sge sge = {
		.addr = ib_dma_map_single(dev, k->buf, 32, DMA_BIDIRECTIONAL),
		.length = 32, .lkey = k->pd->local_dma_lkey,
	};
	struct ib_recv_wr r = { .wr_cqe = &k->cqe, .sg_list = &sge,
				.num_sge = 1 };
	struct ib_send_wr s = { .wr_cqe = &k->cqe, .opcode = IB_WR_SEND,
				.sg_list = &sge, .num_sge = 1,
				.send_flags = IB_SEND_SIGNALED };
	const struct ib_recv_wr *rbad;
	const struct ib_send_wr *sbad;

	return ib_post_recv(k->b, &r, &rbad) ?: ib_post_send(k->a, &s, &sbad);
}

static int tk_kv_add(struct ib_device *dev)
{
	struct tk_kv_client *k = &tk_kv;

	if (strncmp(dev_name(&dev->dev), "ktkva", 5))
		return -EOPNOTSUPP;
	k->buf = kzalloc(32, GFP_KERNEL);
	k->pd = ib_alloc_pd(dev, 0);
	if (!k->buf || IS_ERR(k->pd))
		goto err;
	k->cq = ib_alloc_cq(dev, k, 16, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(k->cq))
		goto err_pd;
	k->a = tk_kv_qp(k);
	k->b = IS_ERR(k->a) ? k->a : tk_kv_qp(k);
	if (IS_ERR(k->b))
		goto err_qps;
	if (vk_connect(k->a, k->b->qp_num) || vk_connect(k->b, k->a->qp_num) ||
	    tk_kv_send(k, dev))
		goto err_qps;
	k->adds++;
	return 0;

err_qps:
	if (!IS_ERR(k->a))
		ib_destroy_qp(k->a);
	if (!IS_ERR(k->b) && k->b != k->a)
		ib_destroy_qp(k->b);
	ib_free_cq(k->cq);
err_pd:
	ib_dealloc_pd(k->pd);
err:
	kfree(k->buf);
	return -ENOMEM;
}

static void tk_kv_remove(struct ib_device *dev, void *data)
{
	struct tk_kv_client *k = &tk_kv;

	ib_drain_qp(k->a);
	ib_drain_qp(k->b);
	ib_destroy_qp(k->a);
	ib_destroy_qp(k->b);
	ib_free_cq(k->cq);
	ib_dealloc_pd(k->pd);
	kfree(k->buf);
	k->removes++;
}

static void client_kverbs_ulp_attach(struct kunit *test)
{
	struct tdev_params p = { .name = "ktkva%d" };
	struct tk_kv_client *k = &tk_kv;
	struct tdev *a, *b;

	memset(k, 0, sizeof(*k));
	k->client = (struct ib_client){ .name = "kt_kverbs", .add = tk_kv_add,
					.remove = tk_kv_remove };
	k->cqe.done = tk_kv_done;
	a = tk_dev(test, &p);
	KUNIT_ASSERT_EQ(test, ib_register_client(&k->client), 0);
	KUNIT_ASSERT_EQ(test, k->adds, 1);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&k->good) == 2));
	tdev_destroy(a);
	KUNIT_EXPECT_EQ(test, k->removes, 1);
	/* A device registered while the client is */
	b = tk_dev(test, &p);
	KUNIT_EXPECT_EQ(test, k->adds, 2);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(atomic_read(&k->good) == 4));
	ib_unregister_client(&k->client);
	KUNIT_EXPECT_EQ(test, k->removes, 2);
	/* The drains flushed nothing that was still queued */
	KUNIT_EXPECT_EQ(test, atomic_read(&k->completions), 4);
	tdev_destroy(b);
}

static void tk_register_fn(void *arg)
{
	struct tdev *td = arg;

	tdev_register(td);
}

/*
 * Register @c with its add() blocking, then register a new device named
 * from @name in the thread @reg; return once add() for it is running.
 */
static struct tdev *tk_register_in_blocked_add(struct kunit *test,
					       struct tk_client *c,
					       const char *name,
					       struct tk_thread *reg)
{
	struct tdev_params p = { .name = name };
	struct tdev *td = tk_new_dev(test, &p);

	c->block = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	tk_start(test, reg, tk_register_fn, td);
	wait_for_completion(&c->in_add);
	return td;
}

/*
 * Let @c's blocked add() go, wait for @reg and @other, and check that the
 * device was added and removed once.
 */
static void tk_release_blocked_add(struct kunit *test, struct tk_client *c,
				   struct tk_thread *reg,
				   struct tk_thread *other)
{
	complete(&c->go);
	tk_join(reg);
	tk_join(other);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
}

/* A device is unregistered while a client's add() for it is running. */
static void unregister_during_client_add(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tk_thread reg, unreg;
	struct tdev *td;

	td = tk_register_in_blocked_add(test, c, "ktuda%d", &reg);
	/* Unregistration waits for add() to finish. */
	tk_expect_blocks(test, &unreg, tk_unregister_fn, &td->ibdev);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 0);
	tk_release_blocked_add(test, c, &reg, &unreg);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	ib_unregister_client(&c->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
	tdev_destroy(td);
}

static void tk_unregister_client_fn(void *arg)
{
	ib_unregister_client(arg);
}

/* A client is unregistered while its add() for a new device is running. */
static void unregister_client_during_add(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tk_thread reg, unreg;
	struct tdev *td;

	td = tk_register_in_blocked_add(test, c, "ktuca%d", &reg);
	tk_expect_blocks(test, &unreg, tk_unregister_client_fn, &c->client);
	tk_release_blocked_add(test, c, &reg, &unreg);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&td->ibdev.dev));
	tdev_destroy(td);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
}

/*
 * A registration that has taken its use of a client but not yet claimed
 * the device for it (ibclient_add_one() entered) while the client is
 * unregistered: ib_unregister_client() must wait for that add() and then
 * remove the client from the device, so that no callback of the client
 * runs after it returned.
 *
 * A kprobe on ibclient_add_one() turns the registering thread aside into
 * tk_window_detour() when it enters for the case's client: the probe sets
 * the instruction pointer (the kprobes way of changing the execution
 * path) at the function's entry, so the detour gets the same arguments and
 * returns to the same caller.  The detour sleeps until the case lets it
 * go, then calls ibclient_add_one() itself, which the probe now lets
 * through.  The window is held by a sleeping thread for as long as the
 * case needs, whatever the guest's speed.  (The probe must stay an int3
 * probe: see tk_window_post().)
 */
#define TK_WINDOW_HIT_WAIT	(60 * HZ)	/* only against a hang */

typedef void (*tk_add_one_fn)(struct ib_device *device,
			      struct ib_client *client);

/* Set by the case before the registration starts, read by the probe. */
static struct tk_client *tk_window_client;
static struct task_struct *tk_window_task;	/* cleared by the probe */
static DECLARE_COMPLETION(tk_window_hit);
static DECLARE_COMPLETION(tk_window_go);

static int tk_window_pre(struct kprobe *kp, struct pt_regs *regs);

/*
 * Never called (the pre handler either diverts or lets the instruction
 * run), but a probe with a post handler is never optimized into a jump,
 * and an optimized probe ignores the instruction pointer its pre handler
 * sets: the detour would be skipped once the optimizer has run.
 */
static void tk_window_post(struct kprobe *kp, struct pt_regs *regs,
			   unsigned long flags)
{
}

static struct kprobe tk_window_probe = {
	.symbol_name = "ibclient_add_one",
	.pre_handler = tk_window_pre,
	.post_handler = tk_window_post,
};

static void tk_window_detour(struct ib_device *device,
			     struct ib_client *client)
{
	tk_add_one_fn add_one = (tk_add_one_fn)tk_window_probe.addr;

	complete(&tk_window_hit);
	wait_for_completion(&tk_window_go);
	add_one(device, client);
}

static int tk_window_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct ib_client *client = (void *)regs_get_kernel_argument(regs, 1);

	if (current != READ_ONCE(tk_window_task) ||
	    client != &tk_window_client->client)
		return 0;
	WRITE_ONCE(tk_window_task, NULL);	/* the detour's call goes through */
	instruction_pointer_set(regs, (unsigned long)tk_window_detour);
	return 1;	/* no single step: resume at the new address */
}

static void tk_window_register_fn(void *arg)
{
	WRITE_ONCE(tk_window_task, current);
	tdev_register(arg);
	WRITE_ONCE(tk_window_task, NULL);
}

static void unregister_client_before_claim(struct kunit *test)
{
	struct tdev_params p = { .name = "ktucw%d" };
	struct tk_client *c = tk_client_init(0, NULL);
	struct tk_thread reg, unreg;
	struct tdev *td = tk_new_dev(test, &p);

	/* Calling the probed address must enter the function (no ENDBR) */
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) || !IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "the detour needs x86-64 without IBT");
	reinit_completion(&tk_window_hit);
	reinit_completion(&tk_window_go);
	tk_window_client = c;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	if (register_kprobe(&tk_window_probe)) {
		ib_unregister_client(&c->client);
		kunit_skip(test, "no kprobe on ibclient_add_one");
	}
	tk_start(test, &reg, tk_window_register_fn, td);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&tk_window_hit,
							  TK_WINDOW_HIT_WAIT), 0);
	/* The registration holds a use of the client: unregistering waits */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 0);
	tk_expect_blocks(test, &unreg, tk_unregister_client_fn, &c->client);
	complete(&tk_window_go);
	tk_join(&reg);
	tk_join(&unreg);
	unregister_kprobe(&tk_window_probe);
	/* Added by the registration, and removed by the unregistration */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
	tdev_destroy(td);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
}

static void tk_churn_fn(void *arg)
{
	struct tdev_params p = { .name = "ktchurn%d" };
	struct tdev *td;
	int i;

	for (i = 0; i < 20; i++) {
		td = tdev_create_registered(&p);
		if (IS_ERR(td))
			continue;
		usleep_range(100, 500);
		tdev_destroy(td);
	}
}

/* Clients come and go while devices come and go: every add is removed. */
static void client_and_device_churn(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tk_thread churn;
	int i, adds = 0, removes = 0;

	c->set_data = true;
	tk_start(test, &churn, tk_churn_fn, NULL);
	for (i = 0; i < 20; i++) {
		atomic_set(&c->adds, 0);
		atomic_set(&c->removes, 0);
		KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
		usleep_range(100, 500);
		ib_unregister_client(&c->client);
		KUNIT_EXPECT_EQ(test, atomic_read(&c->adds),
				atomic_read(&c->removes));
		adds += atomic_read(&c->adds);
		removes += atomic_read(&c->removes);
	}
	tk_join(&churn);
	KUNIT_EXPECT_EQ(test, adds, removes);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->bad_data), 0);
}

/* The netdev the second client of client_net_dev_by_params knows */
static struct net_device *tk_known_ndev;
static atomic_t tk_ndev_asks;

static struct net_device *tk_ndev_unknown(struct ib_device *dev, u32 port,
					  u16 pkey, const union ib_gid *gid,
					  const struct sockaddr *addr,
					  void *data)
{
	atomic_inc(&tk_ndev_asks);
	return NULL;
}

static struct net_device *tk_ndev_known(struct ib_device *dev, u32 port,
					u16 pkey, const union ib_gid *gid,
					const struct sockaddr *addr, void *data)
{
	atomic_inc(&tk_ndev_asks);
	if (data != dev || port != 1 || pkey != 0x8001 ||
	    addr->sa_family != AF_INET || gid->raw[15] != 0x42)
		return NULL;
	dev_hold(tk_known_ndev);
	return tk_known_ndev;
}

/*
 * ib_get_net_dev_by_params() asks the clients that have the callback, with
 * their data, until one answers; only for InfiniBand ports.
 */
static void client_net_dev_by_params(struct kunit *test)
{
	struct tk_client *a = tk_client_init(0, NULL);
	struct tk_client *b = tk_client_init(1, NULL);
	struct tdev_params ib = { .name = "ktcnd%d" };
	struct tdev_params eth = { .name = "ktcnde%d", .roce = true };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	union ib_gid gid = { .raw[15] = 0x42 };
	struct net_device *ndev;
	struct tdev *td, *te;

	tk_known_ndev = tk_netdev(test);
	atomic_set(&tk_ndev_asks, 0);
	a->client.get_net_dev_by_params = tk_ndev_unknown;
	b->client.get_net_dev_by_params = tk_ndev_known;
	b->set_data = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&a->client), 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&b->client), 0);
	td = tk_dev(test, &ib);
	te = tk_dev(test, &eth);

	ndev = ib_get_net_dev_by_params(&td->ibdev, 1, 0x8001, &gid,
					(struct sockaddr *)&sin);
	KUNIT_EXPECT_PTR_EQ(test, ndev, tk_known_ndev);
	KUNIT_EXPECT_EQ(test, atomic_read(&tk_ndev_asks), 2);
	dev_put(ndev);
	/* Nobody knows: NULL after asking both */
	KUNIT_EXPECT_NULL(test, ib_get_net_dev_by_params(&td->ibdev, 1, 0xffff,
							 &gid,
							 (struct sockaddr *)&sin));
	KUNIT_EXPECT_EQ(test, atomic_read(&tk_ndev_asks), 4);
	/* Bad input: ports the device lacks, a RoCE port: nobody is asked */
	KUNIT_EXPECT_NULL(test, ib_get_net_dev_by_params(&td->ibdev, 0, 0x8001,
							 &gid,
							 (struct sockaddr *)&sin));
	KUNIT_EXPECT_NULL(test, ib_get_net_dev_by_params(&td->ibdev, 2, 0x8001,
							 &gid,
							 (struct sockaddr *)&sin));
	KUNIT_EXPECT_NULL(test, ib_get_net_dev_by_params(&te->ibdev, 1, 0x8001,
							 &gid,
							 (struct sockaddr *)&sin));
	KUNIT_EXPECT_EQ(test, atomic_read(&tk_ndev_asks), 4);
	/* The client that knew is gone */
	ib_unregister_client(&b->client);
	KUNIT_EXPECT_NULL(test, ib_get_net_dev_by_params(&td->ibdev, 1, 0x8001,
							 &gid,
							 (struct sockaddr *)&sin));
	KUNIT_EXPECT_EQ(test, atomic_read(&tk_ndev_asks), 5);
	ib_unregister_client(&a->client);
	tdev_destroy(te);
	tdev_destroy(td);
	tk_netdev_free(tk_known_ndev);
}

static struct kunit_case client_cases[] = {
	KUNIT_CASE(client_before_devices),
	KUNIT_CASE(client_after_devices),
	KUNIT_CASE(client_skips_device_without_references),
	KUNIT_CASE(client_data_null_until_set),
	KUNIT_CASE(client_data_refused_when_not_added),
	KUNIT_CASE(client_remove_reverse_order),
	KUNIT_CASE(client_kverbs_requirement),
	KUNIT_CASE(client_kverbs_ulp_attach),
	KUNIT_CASE(unregister_during_client_add),
	KUNIT_CASE(unregister_client_during_add),
	KUNIT_CASE(unregister_client_before_claim),
	KUNIT_CASE(client_and_device_churn),
	KUNIT_CASE(client_net_dev_by_params),
	{}
};

static struct kunit_suite client_suite = {
	.name = "rdma_core_client",
	.test_cases = client_cases,
};

kunit_test_suites(&client_suite);
