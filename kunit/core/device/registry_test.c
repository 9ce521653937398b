// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_register: core/device/registry.c, registering and
 * unregistering devices (now, queued, by driver, with references held), and
 * with it the names and lookups of core/device/index.c that registration
 * decides (name templates, ib_device_get_by_name()).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include "tk.h"
#include "vk.h"

static void register_basic(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktbasic%d");
	struct ib_device *dev = &td->ibdev;

	KUNIT_EXPECT_STREQ(test, dev_name(&dev->dev), "ktbasic0");
	KUNIT_EXPECT_STREQ(test, dev->name, "ktbasic0");
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 1);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&dev->dev));
	KUNIT_EXPECT_TRUE(test, ib_uses_virt_dma(dev));
	KUNIT_EXPECT_NULL(test, dev->dma_device);
	tdev_destroy(td);
}

static void register_template_lowest_free(struct kunit *test)
{
	struct tdev_params p = { .name = "ktnum%d" };
	struct tdev *td[4];
	int i;

	for (i = 0; i < 3; i++)
		td[i] = tk_dev(test, &p);
	KUNIT_EXPECT_STREQ(test, td[0]->ibdev.name, "ktnum0");
	KUNIT_EXPECT_STREQ(test, td[1]->ibdev.name, "ktnum1");
	KUNIT_EXPECT_STREQ(test, td[2]->ibdev.name, "ktnum2");
	tdev_destroy(td[1]);
	td[3] = tk_dev(test, &p);
	KUNIT_EXPECT_STREQ(test, td[3]->ibdev.name, "ktnum1");
	tdev_destroy(td[0]);
	tdev_destroy(td[2]);
	tdev_destroy(td[3]);
}

static void register_exact_name_duplicate(struct kunit *test)
{
	struct tdev_params p = { .name = "ktdup" };
	struct tdev *a = tk_dev(test, &p);
	struct tdev *b = tk_new_dev(test, &p);

	KUNIT_EXPECT_EQ(test, tdev_register(b), -ENFILE);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&b->ibdev.dev));
	tdev_destroy(b);
	tdev_destroy(a);
}

static void register_twice(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "kttwice%d");

	KUNIT_EXPECT_EQ(test, ib_register_device(&td->ibdev, "ktother%d", NULL),
			-EEXIST);
	KUNIT_EXPECT_STREQ(test, td->ibdev.name, "kttwice0");
	tdev_destroy(td);
}

static void register_bad_names(struct kunit *test)
{
	static const char * const bad[] = {
		"", "kt%s", "kt%d%d", "kt/x", "kt%x",
		"ktaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	struct tdev *td = tk_new_dev(test, NULL);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, ib_register_device(&td->ibdev, bad[i],
							     NULL),
				    -EINVAL, "name %s", bad[i]);
	KUNIT_EXPECT_EQ(test, ib_register_device(&td->ibdev, NULL, NULL),
			-EINVAL);
	/* Still registrable after the failures. */
	KUNIT_EXPECT_EQ(test, ib_register_device(&td->ibdev, "ktgood%d", NULL),
			0);
	tdev_destroy(td);
}

static void register_immutable_failure(struct kunit *test)
{
	struct tdev_params p = { .name = "ktimm%d" };
	struct tdev *td = tk_new_dev(test, &p);

	tdev_fail(td, TDEV_FAIL_PORT_IMMUTABLE, true);
	KUNIT_EXPECT_EQ(test, tdev_register(td), -EIO);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktimm0",
						      RDMA_DRIVER_UNKNOWN));
	tdev_fail(td, TDEV_FAIL_PORT_IMMUTABLE, false);
	KUNIT_EXPECT_EQ(test, tdev_register(td), 0);
	KUNIT_EXPECT_STREQ(test, td->ibdev.name, "ktimm0");
	tdev_destroy(td);
}

static void register_query_device_failure(struct kunit *test)
{
	struct tdev_params p = { .name = "ktqd%d" };
	struct tdev *td = tk_new_dev(test, &p);

	tdev_fail(td, TDEV_FAIL_QUERY_DEVICE, true);
	KUNIT_EXPECT_EQ(test, tdev_register(td), -EIO);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	tdev_destroy(td);
}

static void register_port_data(struct kunit *test)
{
	struct tdev_params p = { .name = "ktports%d", .ports = 3,
				 .gid_tbl_len = 8, .pkey_tbl_len = 4 };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *dev = &td->ibdev;
	u32 port, n = 0;

	KUNIT_EXPECT_EQ(test, rdma_start_port(dev), 1U);
	KUNIT_EXPECT_EQ(test, rdma_end_port(dev), 3U);
	rdma_for_each_port(dev, port) {
		KUNIT_EXPECT_PTR_EQ(test, dev->port_data[port].ib_dev, dev);
		KUNIT_EXPECT_EQ(test,
				dev->port_data[port].immutable.gid_tbl_len, 8);
		KUNIT_EXPECT_EQ(test,
				dev->port_data[port].immutable.pkey_tbl_len, 4);
		KUNIT_EXPECT_TRUE(test, rdma_protocol_ib(dev, port));
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3U);
	KUNIT_EXPECT_FALSE(test, rdma_is_port_valid(dev, 0));
	KUNIT_EXPECT_FALSE(test, rdma_is_port_valid(dev, 4));
	tdev_destroy(td);
}

static void register_kverbs_decision(struct kunit *test)
{
	struct tdev_params none = { .name = "ktkvn%d", .no_kverbs = true };
	struct tdev *td = tk_dev_named(test, "ktkv%d");
	struct tdev *nk = tk_dev(test, &none);

	/* Every operation kernel verbs need */
	KUNIT_EXPECT_TRUE(test, td->ibdev.kverbs_provider);
	/* Without get_dma_mr and reg_user_mr */
	KUNIT_EXPECT_NULL(test, nk->ibdev.ops.get_dma_mr);
	KUNIT_EXPECT_FALSE(test, nk->ibdev.kverbs_provider);
	tdev_destroy(nk);
	tdev_destroy(td);
}

static void register_with_dma_device(struct kunit *test)
{
	struct tdev_params p = { .name = "ktdma%d", .dma_device = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *dev = &td->ibdev;

	KUNIT_EXPECT_FALSE(test, ib_uses_virt_dma(dev));
	KUNIT_ASSERT_NOT_NULL(test, dev->dma_device);
	KUNIT_EXPECT_STREQ(test, dev_name(dev->dma_device), "rdma_kunit_tdev");
	/* The DMA device is the parent in sysfs */
	KUNIT_EXPECT_PTR_EQ(test, dev->dev.parent, dev->dma_device);
	tdev_destroy(td);
}

static void register_comp_vectors_default(struct kunit *test)
{
	struct tdev_params p = { .name = "ktcv%d" };
	struct tdev *td = tk_new_dev(test, &p);

	td->ibdev.num_comp_vectors = 0;
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	KUNIT_EXPECT_EQ(test, td->ibdev.num_comp_vectors, 1);
	tdev_destroy(td);
}

static void unregister_twice_and_reregister(struct kunit *test)
{
	struct tdev_params p = { .name = "ktunreg" };
	struct tdev *td = tk_dev(test, &p);
	struct tdev *again;

	ib_unregister_device(&td->ibdev);
	ib_unregister_device(&td->ibdev);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	KUNIT_EXPECT_EQ(test, ib_register_device(&td->ibdev, "ktunreg", NULL),
			-EEXIST);
	/* The name is free again for another device. */
	again = tk_dev(test, &p);
	KUNIT_EXPECT_STREQ(test, again->ibdev.name, "ktunreg");
	tdev_destroy(again);
	tdev_destroy(td);
}

static void get_by_name_refcount(struct kunit *test)
{
	struct tdev_params p = { .name = "ktname%d", .driver_id = RDMA_DRIVER_RXE };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *dev = &td->ibdev, *found;

	found = ib_device_get_by_name("ktname0", RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, dev);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 2);
	found = ib_device_get_by_name("ktname0", RDMA_DRIVER_RXE);
	KUNIT_EXPECT_PTR_EQ(test, found, dev);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 3);
	ib_device_put(dev);
	ib_device_put(dev);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktname0",
						      RDMA_DRIVER_SIW));
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktname1",
						      RDMA_DRIVER_UNKNOWN));
	tdev_unregister(td);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktname0",
						      RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_FALSE(test, ib_device_try_get(dev));
	tdev_destroy(td);
}

static void unregister_waits_for_references(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktwait%d");
	struct ib_device *found;
	struct tk_thread t;

	found = ib_device_get_by_name(td->ibdev.name, RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, found);
	tk_expect_blocks(test, &t, tk_unregister_fn, &td->ibdev);
	/* Hidden from lookups as soon as unregistration starts. */
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name(td->ibdev.name,
						      RDMA_DRIVER_UNKNOWN));
	ib_device_put(found);
	tk_join(&t);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	tdev_destroy(td);
}

static void unregister_and_put(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktandput%d");
	struct ib_device *found;

	found = ib_device_get_by_name(td->ibdev.name, RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, found);
	ib_unregister_device_and_put(found);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&td->ibdev.dev));
	KUNIT_EXPECT_EQ(test, refcount_read(&td->ibdev.refcount), 0);
	tdev_destroy(td);
}

static void dealloc_driver_frees(struct kunit *test)
{
	struct tdev_params p = { .name = "ktdd%d", .dealloc_driver = true };
	struct tdev *td = tk_dev(test, &p);
	int before = atomic_read(&tdev_dealloc_driver_calls);

	tdev_unregister(td);	/* frees td */
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktdd0",
						      RDMA_DRIVER_UNKNOWN));
}

static void unregister_queued(struct kunit *test)
{
	struct tdev_params p = { .name = "ktq%d", .dealloc_driver = true };
	struct tdev *td = tk_dev(test, &p);
	int before = atomic_read(&tdev_dealloc_driver_calls);
	int i;

	ib_unregister_device_queued(&td->ibdev);
	for (i = 0; i < 200 && atomic_read(&tdev_dealloc_driver_calls) == before;
	     i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktq0",
						      RDMA_DRIVER_UNKNOWN));
}

static void unregister_queued_needs_dealloc_driver(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktqn%d");
	u64 mark = tk_log_mark();

	ib_unregister_device_queued(&td->ibdev);
	KUNIT_EXPECT_EQ(test, tk_log_count(mark, "queued unregistration needs ops.dealloc_driver"),
			1);
	msleep(50);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&td->ibdev.dev));
	tdev_destroy(td);
}

static void unregister_driver_only_its_devices(struct kunit *test)
{
	struct tdev_params mine = { .name = "ktdrv%d", .dealloc_driver = true,
				    .driver_id = RDMA_DRIVER_EFA };
	struct tdev_params other = { .name = "ktnotdrv%d" };
	struct tdev *o = tk_dev(test, &other);
	int before = atomic_read(&tdev_dealloc_driver_calls);

	tk_dev(test, &mine);
	tk_dev(test, &mine);
	ib_unregister_driver(RDMA_DRIVER_EFA);
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 2);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktdrv0",
						      RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktdrv1",
						      RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_TRUE(test, device_is_registered(&o->ibdev.dev));
	tdev_destroy(o);
}

/* Steps for tk_start(). */
static void tk_and_put_fn(void *arg)
{
	ib_unregister_device_and_put(arg);
}

static void tk_unregister_driver_fn(void *arg)
{
	ib_unregister_driver((uintptr_t)arg);
}

static void tk_unregister_client_fn(void *arg)
{
	ib_unregister_client(arg);
}

/*
 * Threads of a case that must not be freed if a step hangs: a hung
 * unregistration cannot be undone, so the case fails and leaves them.
 */
static struct tk_thread *tk_threads(struct kunit *test, int n)
{
	struct tk_thread *t = kcalloc(n, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/*
 * Issue 12, defect 3: ib_unregister_device_and_put() while another
 * unregistration waits for the very reference it holds.  Before the fix
 * it kept the reference while it waited for the unregistration lock: both
 * hung (the case then fails after 10 s and leaves the threads).
 */
static void unregister_and_put_races_unregister(struct kunit *test)
{
	struct tdev_params p = { .name = "ktrace%d", .dealloc_driver = true };
	struct tdev *td = tk_dev(test, &p);
	struct tk_thread *t = tk_threads(test, 2);
	int before = atomic_read(&tdev_dealloc_driver_calls);
	struct ib_device *dev = &td->ibdev, *found;
	char name[IB_DEVICE_NAME_MAX];

	strscpy(name, dev->name, sizeof(name));
	found = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_PTR_EQ(test, found, dev);
	/* Hidden, clients removed, then waiting for our reference */
	tk_expect_blocks(test, &t[0], tk_unregister_fn, dev);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name(name,
						      RDMA_DRIVER_UNKNOWN));
	tk_start(test, &t[1], tk_and_put_fn, found);
	KUNIT_ASSERT_TRUE_MSG(test, tk_join_timeout(&t[1], 10000) &&
			      tk_join_timeout(&t[0], 10000),
			      "unregistration hung; threads and device left");
	/* Unregistered and freed once */
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
	kfree(t);
}

/* A client whose remove() waits until it is let go. */
struct tk_blocking_client {
	struct ib_client client;
	struct ib_device *dev;
	struct completion in_remove;
	struct completion go;
};

static struct tk_blocking_client tk_blocker;

static int tk_blocker_add(struct ib_device *dev)
{
	return dev == tk_blocker.dev ? 0 : -EOPNOTSUPP;
}

static void tk_blocker_remove(struct ib_device *dev, void *data)
{
	complete(&tk_blocker.in_remove);
	wait_for_completion(&tk_blocker.go);
}

/*
 * Issue 12, defect 3: ib_unregister_driver() holds a reference of its
 * walk while a concurrent ib_unregister_device() of the same device holds
 * the unregistration lock and waits for it.  The order is forced: a
 * client's remove() holds the lock (ib_unregister_client()) until the
 * unregistration and then the driver's walk queue up behind it.
 */
static void unregister_driver_races_unregister(struct kunit *test)
{
	struct tdev_params p = { .name = "ktdrvr%d", .dealloc_driver = true,
				 .driver_id = RDMA_DRIVER_QIB };
	struct tdev *td = tk_dev(test, &p);
	struct tk_thread *t = tk_threads(test, 3);
	int before = atomic_read(&tdev_dealloc_driver_calls);
	char name[IB_DEVICE_NAME_MAX];

	strscpy(name, td->ibdev.name, sizeof(name));
	tk_blocker = (struct tk_blocking_client){
		.client = { .name = "kt_blocker", .add = tk_blocker_add,
			    .remove = tk_blocker_remove, .no_kverbs_req = 1 },
		.dev = &td->ibdev,
	};
	init_completion(&tk_blocker.in_remove);
	init_completion(&tk_blocker.go);
	KUNIT_ASSERT_EQ(test, ib_register_client(&tk_blocker.client), 0);
	tk_start(test, &t[0], tk_unregister_client_fn, &tk_blocker.client);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&tk_blocker.in_remove,
							    10 * HZ));
	/* First in line for the lock, then the driver's walk */
	tk_expect_blocks(test, &t[1], tk_unregister_fn, &td->ibdev);
	tk_expect_blocks(test, &t[2], tk_unregister_driver_fn,
			 (void *)(uintptr_t)RDMA_DRIVER_QIB);
	complete(&tk_blocker.go);
	KUNIT_ASSERT_TRUE_MSG(test, tk_join_timeout(&t[0], 10000) &&
			      tk_join_timeout(&t[1], 10000) &&
			      tk_join_timeout(&t[2], 10000),
			      "unregistration hung; threads and device left");
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name(name,
						      RDMA_DRIVER_UNKNOWN));
	kfree(t);
}

/*
 * A kernel verbs client of a RoCE test device: two connected QPs on one
 * CQ it polls itself.  Its remove() does what a ULP's teardown does with
 * the device still working: finds the device by its netdev, sends one
 * last message and waits (at most VK_WAIT_MS) for its completions.
 */
struct tk_ulp {
	struct ib_client client;
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *a, *b;
	u8 *src, *dst;
	struct ib_sge ss, rs;
	bool attached;
	/* What remove() saw */
	struct ib_device *found;
	int statuses;		/* successful completions of the last send */
	bool data_ok;
};

static struct tk_ulp tk_ulp;

static struct ib_qp *tk_ulp_qp(struct tk_ulp *u)
{
	struct ib_qp_init_attr ia = {
		.qp_type = IB_QPT_RC, .send_cq = u->cq, .recv_cq = u->cq,
		.sq_sig_type = IB_SIGNAL_REQ_WR, .port_num = 1,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ib_create_qp(u->pd, &ia);
}

static void tk_ulp_free(struct tk_ulp *u)
{
	if (!IS_ERR_OR_NULL(u->a))
		ib_destroy_qp(u->a);
	if (!IS_ERR_OR_NULL(u->b))
		ib_destroy_qp(u->b);
	if (!IS_ERR_OR_NULL(u->cq))
		ib_free_cq(u->cq);
	if (!IS_ERR_OR_NULL(u->pd))
		ib_dealloc_pd(u->pd);
	kfree(u->src);
	kfree(u->dst);
}

static int tk_ulp_add(struct ib_device *dev)
{
	struct tk_ulp *u = &tk_ulp;

	if (dev != u->dev)
		return -EOPNOTSUPP;
	u->pd = ib_alloc_pd(dev, 0);
	u->cq = IS_ERR(u->pd) ? NULL : ib_alloc_cq(dev, u, 64, 0,
						    IB_POLL_DIRECT);
	u->a = IS_ERR_OR_NULL(u->cq) ? NULL : tk_ulp_qp(u);
	u->b = IS_ERR_OR_NULL(u->a) ? NULL : tk_ulp_qp(u);
	u->src = kmalloc(64, GFP_KERNEL);
	u->dst = kzalloc(64, GFP_KERNEL);
	if (IS_ERR_OR_NULL(u->b) || !u->src || !u->dst ||
	    vk_connect(u->a, u->b->qp_num) || vk_connect(u->b, u->a->qp_num)) {
		tk_ulp_free(u);
		return -ENOMEM;
	}
	memset(u->src, 0x5c, 64);
	u->ss = (struct ib_sge){
		.addr = ib_dma_map_single(dev, u->src, 64, DMA_TO_DEVICE),
		.length = 64, .lkey = u->pd->local_dma_lkey };
	u->rs = (struct ib_sge){
		.addr = ib_dma_map_single(dev, u->dst, 64, DMA_FROM_DEVICE),
		.length = 64, .lkey = u->pd->local_dma_lkey };
	u->attached = true;
	return 0;
}

static void tk_ulp_remove(struct ib_device *dev, void *data)
{
	struct tk_ulp *u = &tk_ulp;
	struct ib_recv_wr r = { .wr_id = 2, .sg_list = &u->rs, .num_sge = 1 };
	struct ib_send_wr s = { .wr_id = 1, .opcode = IB_WR_SEND,
				.sg_list = &u->ss, .num_sge = 1,
				.send_flags = IB_SEND_SIGNALED };
	const struct ib_recv_wr *rbad;
	const struct ib_send_wr *sbad;
	struct ib_wc wc[2];
	int i, n;

	u->found = ib_device_get_by_netdev(to_tdev(dev)->ndev,
					   RDMA_DRIVER_UNKNOWN);
	if (u->found)
		ib_device_put(u->found);
	if (!ib_post_recv(u->b, &r, &rbad) && !ib_post_send(u->a, &s, &sbad)) {
		n = vk_poll_wait(u->cq, 2, wc);
		for (i = 0; i < n; i++)
			u->statuses += wc[i].status == IB_WC_SUCCESS;
	}
	u->data_ok = !memcmp(u->src, u->dst, 64);
	tk_ulp_free(u);
}

/*
 * Issue 12, defect 2: a client's remove() runs while the device still
 * works.  Before the fix it ran once the device was hidden and every
 * registration reference gone: the lookup by netdev failed, and so did
 * the message, which a RoCE device receives by that lookup.
 */
static void unregister_removes_clients_while_working(struct kunit *test)
{
	struct tdev_params p = { .name = "ktulp%d", .roce = true };
	struct tdev *td = tk_new_dev(test, &p);

	memset(&tk_ulp, 0, sizeof(tk_ulp));
	tk_ulp.client = (struct ib_client){ .name = "kt_ulp",
					    .add = tk_ulp_add,
					    .remove = tk_ulp_remove };
	tk_ulp.dev = &td->ibdev;
	KUNIT_ASSERT_EQ(test, ib_register_client(&tk_ulp.client), 0);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	KUNIT_ASSERT_TRUE(test, tk_ulp.attached);
	tdev_unregister(td);
	KUNIT_EXPECT_PTR_EQ(test, tk_ulp.found, &td->ibdev);
	KUNIT_EXPECT_EQ(test, tk_ulp.statuses, 2);
	KUNIT_EXPECT_TRUE(test, tk_ulp.data_ok);
	ib_unregister_client(&tk_ulp.client);
	tdev_destroy(td);
}

static struct kunit_case register_cases[] = {
	KUNIT_CASE(register_basic),
	KUNIT_CASE(register_template_lowest_free),
	KUNIT_CASE(register_exact_name_duplicate),
	KUNIT_CASE(register_twice),
	KUNIT_CASE(register_bad_names),
	KUNIT_CASE(register_immutable_failure),
	KUNIT_CASE(register_query_device_failure),
	KUNIT_CASE(register_port_data),
	KUNIT_CASE(register_kverbs_decision),
	KUNIT_CASE(register_with_dma_device),
	KUNIT_CASE(register_comp_vectors_default),
	KUNIT_CASE(unregister_twice_and_reregister),
	KUNIT_CASE(get_by_name_refcount),
	KUNIT_CASE(unregister_waits_for_references),
	KUNIT_CASE(unregister_and_put),
	KUNIT_CASE(dealloc_driver_frees),
	KUNIT_CASE(unregister_queued),
	KUNIT_CASE(unregister_queued_needs_dealloc_driver),
	KUNIT_CASE(unregister_driver_only_its_devices),
	KUNIT_CASE(unregister_and_put_races_unregister),
	KUNIT_CASE(unregister_driver_races_unregister),
	KUNIT_CASE(unregister_removes_clients_while_working),
	{}
};

static struct kunit_suite register_suite = {
	.name = "rdma_core_register",
	.test_cases = register_cases,
};

kunit_test_suites(&register_suite);
