// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of ib_core's device model: allocation, registration,
 * clients, events, ports, GIDs, netdevs, sysfs and PDs, run against the
 * rdma_kunit_tdev test driver.
 *
 * Device names start with "kt" so they cannot collide with the devices of
 * tdev's ndevs parameter ("tdev%d").
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/netdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include "tdev.h"

/* ---- helpers ---- */

static struct tdev *tk_dev(struct kunit *test, const struct tdev_params *p)
{
	struct tdev *td = tdev_create_registered(p);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(td), "tdev: %ld", PTR_ERR(td));
	return td;
}

static struct net_device *tk_netdev(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct net_device *ndev;

	ndev = alloc_netdev(0, "ktnet", NET_NAME_PREDICTABLE, ether_setup);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	eth_hw_addr_set(ndev, mac);
	return ndev;
}

/* Read a file of /sys/class/infiniband/<dev>/<rel> into @buf. */
static int tk_sysfs_read(struct ib_device *dev, const char *rel, char *buf,
			 size_t len)
{
	char path[128];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/%s",
		 dev_name(&dev->dev), rel);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return 0;
}

static int tk_sysfs_write(struct ib_device *dev, const char *rel,
			  const char *text)
{
	char path[128];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/%s",
		 dev_name(&dev->dev), rel);
	f = filp_open(path, O_WRONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, text, strlen(text), &pos);
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

#define KT_EXPECT_SYSFS(test, dev, rel, expected)			\
	do {								\
		char __buf[128];					\
		KUNIT_ASSERT_EQ(test, tk_sysfs_read(dev, rel, __buf,	\
						    sizeof(__buf)), 0); \
		KUNIT_EXPECT_STREQ(test, __buf, expected);		\
	} while (0)

/* Run @fn(@arg) in a kernel thread; tk_join() waits for it. */
struct tk_thread {
	void (*fn)(void *arg);
	void *arg;
	struct completion done;
};

static int tk_thread_main(void *data)
{
	struct tk_thread *t = data;

	t->fn(t->arg);
	complete(&t->done);
	return 0;
}

static void tk_start(struct kunit *test, struct tk_thread *t,
		     void (*fn)(void *), void *arg)
{
	struct task_struct *task;

	t->fn = fn;
	t->arg = arg;
	init_completion(&t->done);
	task = kthread_run(tk_thread_main, t, "rdma_kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
}

static void tk_join(struct tk_thread *t)
{
	wait_for_completion(&t->done);
}

/* ---- rdma_core_alloc ---- */

static void alloc_initialises_fields(struct kunit *test)
{
	struct tdev *td = tdev_create(NULL);
	struct ib_device *dev;
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	dev = &td->ibdev;
	KUNIT_EXPECT_PTR_EQ(test, (void *)dev, (void *)td);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&dev->client_data));
	KUNIT_EXPECT_TRUE(test, list_empty(&dev->event_handler_list));
	for (i = 0; i < ARRAY_SIZE(dev->cq_pools); i++)
		KUNIT_EXPECT_TRUE(test, list_empty(&dev->cq_pools[i]));
	KUNIT_EXPECT_NOT_NULL(test, dev->res);
	KUNIT_EXPECT_TRUE(test, xa_empty(&dev->res[RDMA_RESTRACK_PD].xa));
	KUNIT_EXPECT_NOT_NULL(test, dev->dev.class);
	KUNIT_EXPECT_STREQ(test, dev->dev.class->name, "infiniband");
	KUNIT_EXPECT_NULL(test, dev->port_data);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&dev->dev));
	tdev_destroy(td);
}

static void alloc_too_small(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, _ib_alloc_device(sizeof(struct ib_device) - 1));
}

static int tk_other_query_pkey(struct ib_device *d, u32 p, u16 i, u16 *k)
{
	*k = 0x1234;
	return 0;
}

static int tk_other_query_gid(struct ib_device *d, u32 p, int i,
			      union ib_gid *g)
{
	return -ENOSYS;
}

struct tk_big_pd {
	struct ib_pd ibpd;
	char pad[64];
};

static const struct ib_device_ops tk_other_ops = {
	.driver_id = RDMA_DRIVER_SIW,
	.uverbs_abi_ver = 7,
	.query_pkey = tk_other_query_pkey,
	.query_gid = tk_other_query_gid,
	INIT_RDMA_OBJ_SIZE(ib_pd, tk_big_pd, ibpd),
};

static void set_device_ops_fills_unset_only(struct kunit *test)
{
	struct tdev *td = tdev_create(NULL);
	struct ib_device *dev;
	size_t pd_size;

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	dev = &td->ibdev;
	pd_size = dev->ops.size_ib_pd;
	KUNIT_EXPECT_EQ(test, pd_size, sizeof(struct tdev_pd));
	KUNIT_EXPECT_NULL(test, dev->ops.query_gid);
	ib_set_device_ops(dev, &tk_other_ops);
	/* Set before: kept.  Unset: taken. */
	KUNIT_EXPECT_PTR_NE(test, (void *)dev->ops.query_pkey,
			    (void *)tk_other_query_pkey);
	KUNIT_EXPECT_PTR_EQ(test, (void *)dev->ops.query_gid,
			    (void *)tk_other_query_gid);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_pd, pd_size);
	KUNIT_EXPECT_EQ(test, dev->ops.driver_id, RDMA_DRIVER_SIW);
	KUNIT_EXPECT_EQ(test, dev->ops.uverbs_abi_ver, 7U);
	KUNIT_EXPECT_NOT_NULL(test, dev->ops.owner);
	tdev_destroy(td);
}

static void set_device_ops_sizes(struct kunit *test)
{
	struct ib_device *dev = _ib_alloc_device(sizeof(*dev));

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_pd, 0UL);
	ib_set_device_ops(dev, &tk_other_ops);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_pd, sizeof(struct tk_big_pd));
	ib_dealloc_device(dev);
}

static void dealloc_registered_refused(struct kunit *test)
{
	struct tdev_params p = { .name = "ktkeep%d" };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *found;

	ib_dealloc_device(&td->ibdev);
	found = ib_device_get_by_name(dev_name(&td->ibdev.dev),
				      RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	tdev_destroy(td);
}

static struct kunit_case alloc_cases[] = {
	KUNIT_CASE(alloc_initialises_fields),
	KUNIT_CASE(alloc_too_small),
	KUNIT_CASE(set_device_ops_fills_unset_only),
	KUNIT_CASE(set_device_ops_sizes),
	KUNIT_CASE(dealloc_registered_refused),
	{}
};

static struct kunit_suite alloc_suite = {
	.name = "rdma_core_alloc",
	.test_cases = alloc_cases,
};

/* ---- rdma_core_register ---- */

static void register_basic(struct kunit *test)
{
	struct tdev_params p = { .name = "ktbasic%d" };
	struct tdev *td = tk_dev(test, &p);
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
	struct tdev *b = tdev_create(&p);

	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_EQ(test, tdev_register(b), -ENFILE);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&b->ibdev.dev));
	tdev_destroy(b);
	tdev_destroy(a);
}

static void register_twice(struct kunit *test)
{
	struct tdev_params p = { .name = "kttwice%d" };
	struct tdev *td = tk_dev(test, &p);

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
	struct tdev *td = tdev_create(NULL);
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
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
	struct tdev *td = tdev_create(&p);

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
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
	struct tdev *td = tdev_create(&p);

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
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
	struct tdev_params p = { .name = "ktkv%d" };
	struct tdev *td = tk_dev(test, &p);
	const struct ib_device_ops *o = &td->ibdev.ops;
	bool all = o->query_device && o->query_port && o->alloc_pd &&
		   o->dealloc_pd && o->create_qp && o->modify_qp &&
		   o->destroy_qp && o->post_send && o->post_recv &&
		   o->create_cq && o->destroy_cq && o->poll_cq &&
		   o->req_notify_cq && o->get_dma_mr && o->reg_user_mr &&
		   o->dereg_mr && o->get_port_immutable;

	KUNIT_EXPECT_EQ(test, (bool)td->ibdev.kverbs_provider, all);
	tdev_destroy(td);
}

static void register_comp_vectors_default(struct kunit *test)
{
	struct tdev_params p = { .name = "ktcv%d" };
	struct tdev *td = tdev_create(&p);

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
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

static void tk_unregister_fn(void *arg)
{
	ib_unregister_device(arg);
}

static void unregister_waits_for_references(struct kunit *test)
{
	struct tdev_params p = { .name = "ktwait%d" };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *found;
	struct tk_thread t;

	found = ib_device_get_by_name(td->ibdev.name, RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, found);
	tk_start(test, &t, tk_unregister_fn, &td->ibdev);
	msleep(100);
	KUNIT_EXPECT_FALSE(test, completion_done(&t.done));
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
	struct tdev_params p = { .name = "ktandput%d" };
	struct tdev *td = tk_dev(test, &p);
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
		msleep(10);
	KUNIT_EXPECT_EQ(test, atomic_read(&tdev_dealloc_driver_calls),
			before + 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("ktq0",
						      RDMA_DRIVER_UNKNOWN));
}

static void unregister_queued_needs_dealloc_driver(struct kunit *test)
{
	struct tdev_params p = { .name = "ktqn%d" };
	struct tdev *td = tk_dev(test, &p);

	ib_unregister_device_queued(&td->ibdev);
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
	KUNIT_CASE(register_comp_vectors_default),
	KUNIT_CASE(unregister_twice_and_reregister),
	KUNIT_CASE(get_by_name_refcount),
	KUNIT_CASE(unregister_waits_for_references),
	KUNIT_CASE(unregister_and_put),
	KUNIT_CASE(dealloc_driver_frees),
	KUNIT_CASE(unregister_queued),
	KUNIT_CASE(unregister_queued_needs_dealloc_driver),
	KUNIT_CASE(unregister_driver_only_its_devices),
	{}
};

static struct kunit_suite register_suite = {
	.name = "rdma_core_register",
	.test_cases = register_cases,
};

/* ---- rdma_core_client ---- */

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

static void client_data_null_until_set(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tdev_params p = { .name = "ktcd%d" };
	struct tdev *a = tk_dev(test, &p);

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
	struct tdev_params p = { .name = "ktcn%d" };
	struct tdev *a = tk_dev(test, &p);

	c->decline = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	ib_set_client_data(&a->ibdev, &c->client, c);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&a->ibdev, &c->client));
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
	struct tdev_params p = { .name = "ktkvc%d" };
	struct tdev *a = tk_dev(test, &p);

	c->client.no_kverbs_req = 0;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds),
			a->ibdev.kverbs_provider ? 1 : 0);
	ib_unregister_client(&c->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes),
			atomic_read(&c->adds));
	tdev_destroy(a);
}

static void tk_register_fn(void *arg)
{
	struct tdev *td = arg;

	tdev_register(td);
}

/* A device is unregistered while a client's add() for it is running. */
static void unregister_during_client_add(struct kunit *test)
{
	struct tk_client *c = tk_client_init(0, NULL);
	struct tdev_params p = { .name = "ktuda%d" };
	struct tdev *td = tdev_create(&p);
	struct tk_thread reg, unreg;

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	c->block = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	tk_start(test, &reg, tk_register_fn, td);
	wait_for_completion(&c->in_add);
	tk_start(test, &unreg, tk_unregister_fn, &td->ibdev);
	msleep(100);
	/* Unregistration waits for add() to finish. */
	KUNIT_EXPECT_FALSE(test, completion_done(&unreg.done));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 0);
	complete(&c->go);
	tk_join(&reg);
	tk_join(&unreg);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
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
	struct tdev_params p = { .name = "ktuca%d" };
	struct tdev *td = tdev_create(&p);
	struct tk_thread reg, unreg;

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	c->block = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&c->client), 0);
	tk_start(test, &reg, tk_register_fn, td);
	wait_for_completion(&c->in_add);
	tk_start(test, &unreg, tk_unregister_client_fn, &c->client);
	msleep(100);
	KUNIT_EXPECT_FALSE(test, completion_done(&unreg.done));
	complete(&c->go);
	tk_join(&reg);
	tk_join(&unreg);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->adds), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&td->ibdev.dev));
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

static struct kunit_case client_cases[] = {
	KUNIT_CASE(client_before_devices),
	KUNIT_CASE(client_after_devices),
	KUNIT_CASE(client_data_null_until_set),
	KUNIT_CASE(client_data_refused_when_not_added),
	KUNIT_CASE(client_remove_reverse_order),
	KUNIT_CASE(client_kverbs_requirement),
	KUNIT_CASE(unregister_during_client_add),
	KUNIT_CASE(unregister_client_during_add),
	KUNIT_CASE(client_and_device_churn),
	{}
};

static struct kunit_suite client_suite = {
	.name = "rdma_core_client",
	.test_cases = client_cases,
};
