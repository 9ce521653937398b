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
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include "tdev.h"

/* ---- helpers ---- */

/* A new tdev, not registered yet. */
static struct tdev *tk_new_dev(struct kunit *test, const struct tdev_params *p)
{
	struct tdev *td = tdev_create(p);

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	return td;
}

static struct tdev *tk_dev(struct kunit *test, const struct tdev_params *p)
{
	struct tdev *td = tdev_create_registered(p);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(td), "tdev: %ld", PTR_ERR(td));
	return td;
}

/* A registered tdev with the default parameters, named from @name. */
static struct tdev *tk_dev_named(struct kunit *test, const char *name)
{
	struct tdev_params p = { .name = name };

	return tk_dev(test, &p);
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

/* Reading /sys/class/infiniband/<dev>/<rel> fails with @err. */
static void tk_expect_sysfs_err(struct kunit *test, struct ib_device *dev,
				const char *rel, int err)
{
	char buf[64];

	KUNIT_EXPECT_EQ_MSG(test, tk_sysfs_read(dev, rel, buf, sizeof(buf)),
			    err, "%s", rel);
}

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
	struct tdev *td = tk_new_dev(test, NULL);
	struct ib_device *dev;
	unsigned int i;

	dev = &td->ibdev;
	KUNIT_EXPECT_PTR_EQ(test, (void *)dev, (void *)td);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&dev->client_data));
	KUNIT_EXPECT_TRUE(test, list_empty(&dev->event_handler_list));
	for (i = 0; i < ARRAY_SIZE(dev->cq_pools); i++)
		KUNIT_EXPECT_TRUE(test, list_empty(&dev->cq_pools[i]));
	KUNIT_EXPECT_NOT_NULL(test, dev->res);
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
	return -EOPNOTSUPP;
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
	struct tdev *td = tk_new_dev(test, NULL);
	struct ib_device *dev;
	size_t pd_size;

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
	struct tdev *td = tk_dev_named(test, "ktkeep%d");
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
	struct tdev *td = tk_dev_named(test, "ktkv%d");
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

static void tk_unregister_fn(void *arg)
{
	ib_unregister_device(arg);
}

static void unregister_waits_for_references(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktwait%d");
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
	struct tdev *a = tk_dev_named(test, "ktkvc%d");

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
	tk_start(test, &unreg, tk_unregister_fn, &td->ibdev);
	msleep(100);
	/* Unregistration waits for add() to finish. */
	KUNIT_EXPECT_FALSE(test, completion_done(&unreg.done));
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
	tk_start(test, &unreg, tk_unregister_client_fn, &c->client);
	msleep(100);
	KUNIT_EXPECT_FALSE(test, completion_done(&unreg.done));
	tk_release_blocked_add(test, c, &reg, &unreg);
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

/* ---- rdma_core_event ---- */

#define TK_MAX_EVENTS 8

/* An event handler that records what it got. */
struct tk_handler {
	struct ib_event_handler h;
	int n;			/* under the core's handler rwsem (read) */
	enum ib_event_type type[TK_MAX_EVENTS];
	u32 port[TK_MAX_EVENTS];
	int seq[TK_MAX_EVENTS];
};

static atomic_t tk_event_seq = ATOMIC_INIT(0);

/*
 * Port events reach the handlers from the core's event work queue: wait
 * (at most 5 s) until @cond holds, and give its final value.
 */
#define tk_wait_for(cond)						\
	({								\
		int __i;						\
		for (__i = 0; __i < 250 && !(cond); __i++)		\
			msleep(20);					\
		(cond);							\
	})

static void tk_handle(struct ib_event_handler *h, struct ib_event *e)
{
	struct tk_handler *t = container_of(h, struct tk_handler, h);

	if (t->n >= TK_MAX_EVENTS)
		return;
	t->type[t->n] = e->event;
	t->port[t->n] = e->element.port_num;
	t->seq[t->n] = atomic_inc_return(&tk_event_seq);
	t->n++;
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

static void event_only_own_device(struct kunit *test)
{
	struct tdev_params p = { .name = "ktevo%d" };
	struct tdev *a = tk_dev(test, &p), *b = tk_dev(test, &p);
	struct tk_handler ha;

	tk_handler_add(&ha, &a->ibdev);
	/* Ordered: when a's event is seen, b's has been handled. */
	tdev_port_event(b, 1, IB_EVENT_PORT_ERR);
	tdev_port_event(a, 1, IB_EVENT_PORT_ERR);
	KUNIT_ASSERT_TRUE(test, tk_wait_for(READ_ONCE(ha.n) >= 1));
	msleep(50);
	KUNIT_EXPECT_EQ(test, ha.n, 1);
	ib_unregister_event_handler(&ha.h);
	tdev_destroy(a);
	tdev_destroy(b);
}

static void event_device_fatal(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktevf%d");
	struct ib_event e = { .device = &td->ibdev,
			      .event = IB_EVENT_DEVICE_FATAL };
	struct tk_handler h;

	tk_handler_add(&h, &td->ibdev);
	ib_dispatch_event(&e);
	KUNIT_EXPECT_EQ(test, h.n, 1);
	KUNIT_EXPECT_EQ(test, h.type[0], IB_EVENT_DEVICE_FATAL);
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

	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.lid, 1);
	tdev_port_event(td, 1, IB_EVENT_LID_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.lid, 2);
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
	KUNIT_CASE(event_only_own_device),
	KUNIT_CASE(event_device_fatal),
	KUNIT_CASE(event_port_state_cache),
	KUNIT_CASE(event_lid_change),
	KUNIT_CASE(event_gid_change_rereads_driver),
	{}
};

static struct kunit_suite event_suite = {
	.name = "rdma_core_event",
	.test_cases = event_cases,
};

/* ---- rdma_core_port ---- */

static void query_port_valid(struct kunit *test)
{
	struct tdev_params p = { .name = "ktqp%d", .gid_tbl_len = 8,
				 .pkey_tbl_len = 2 };
	struct tdev *td = tk_dev(test, &p);
	struct ib_port_attr attr;

	memset(&attr, 0xa5, sizeof(attr));
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, attr.phys_state, IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, attr.gid_tbl_len, 8);
	KUNIT_EXPECT_EQ(test, attr.pkey_tbl_len, 2U);
	KUNIT_EXPECT_EQ(test, attr.lid, 1);
	/* Zeroed before the driver fills it: fields it leaves alone are 0. */
	KUNIT_EXPECT_EQ(test, attr.qkey_viol_cntr, 0U);
	KUNIT_EXPECT_EQ(test, attr.bad_pkey_cntr, 0U);
	KUNIT_EXPECT_EQ(test, attr.subnet_timeout, 0);
	tdev_destroy(td);
}

static void query_port_invalid(struct kunit *test)
{
	struct tdev_params p = { .name = "ktqpi%d", .ports = 2 };
	struct tdev *td = tk_dev(test, &p);
	struct ib_port_attr attr;

	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, 0, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, 3, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, U32_MAX, &attr),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, 2, &attr), 0);
	tdev_fail(td, TDEV_FAIL_QUERY_PORT, true);
	KUNIT_EXPECT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), -EIO);
	tdev_fail(td, TDEV_FAIL_QUERY_PORT, false);
	tdev_destroy(td);
}

static void query_port_subnet_prefix(struct kunit *test)
{
	struct tdev_params ib = { .name = "ktsp%d" };
	struct tdev_params eth = { .name = "ktspe%d",
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *a = tk_dev(test, &ib), *b = tk_dev(test, &eth);
	struct ib_port_attr attr;

	KUNIT_ASSERT_EQ(test, ib_query_port(&a->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.subnet_prefix, 0xfe80000000000000ULL);
	KUNIT_ASSERT_EQ(test, ib_query_port(&b->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.subnet_prefix, 0ULL);
	tdev_destroy(a);
	tdev_destroy(b);
}

static void query_pkey_cases(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpk%d", .pkey_tbl_len = 4 };
	struct tdev *td = tk_dev(test, &p);
	u16 pkey = 0;

	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 1, 0, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 1, 3, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, 0);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 1, 4, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 0, 0, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 2, 0, &pkey), -EINVAL);
	tdev_fail(td, TDEV_FAIL_QUERY_PKEY, true);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(&td->ibdev, 1, 0, &pkey), -EIO);
	tdev_destroy(td);
}

static void modify_device_cases(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktmd%d");
	struct ib_device_modify m = { .node_desc = "kunit node",
				      .sys_image_guid = 0x1122334455667788ULL };

	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev,
					       IB_DEVICE_MODIFY_NODE_DESC, &m),
			0);
	KUNIT_EXPECT_STREQ(test, td->ibdev.node_desc, "kunit node");
	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev,
					IB_DEVICE_MODIFY_SYS_IMAGE_GUID, &m),
			0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(td->ibdev.attrs.sys_image_guid),
			0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev, 1 << 7, &m),
			-EOPNOTSUPP);
	tdev_fail(td, TDEV_FAIL_MODIFY_DEVICE, true);
	KUNIT_EXPECT_EQ(test, ib_modify_device(&td->ibdev,
					       IB_DEVICE_MODIFY_NODE_DESC, &m),
			-EIO);
	tdev_destroy(td);
}

static void modify_port_cases(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktmp%d");
	struct ib_port_modify m = { .set_port_cap_mask = IB_PORT_SM };
	struct ib_port_attr attr;

	KUNIT_ASSERT_EQ(test, ib_modify_port(&td->ibdev, 1, 0, &m), 0);
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_TRUE(test, attr.port_cap_flags & IB_PORT_SM);
	m.set_port_cap_mask = 0;
	m.clr_port_cap_mask = IB_PORT_SM;
	KUNIT_ASSERT_EQ(test, ib_modify_port(&td->ibdev, 1, 0, &m), 0);
	KUNIT_ASSERT_EQ(test, ib_query_port(&td->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_FALSE(test, attr.port_cap_flags & IB_PORT_SM);
	KUNIT_EXPECT_EQ(test, ib_modify_port(&td->ibdev, 0, 0, &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_modify_port(&td->ibdev, 2, 0, &m), -EINVAL);
	tdev_fail(td, TDEV_FAIL_MODIFY_PORT, true);
	KUNIT_EXPECT_EQ(test, ib_modify_port(&td->ibdev, 1, 0, &m), -EIO);
	tdev_destroy(td);
}

static void protocol_helpers(struct kunit *test)
{
	struct tdev_params ib = { .name = "ktph%d" };
	struct tdev_params eth = { .name = "ktphe%d",
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *a = tk_dev(test, &ib), *b = tk_dev(test, &eth);

	KUNIT_EXPECT_TRUE(test, rdma_protocol_ib(&a->ibdev, 1));
	KUNIT_EXPECT_FALSE(test, rdma_protocol_roce(&a->ibdev, 1));
	KUNIT_EXPECT_TRUE(test, rdma_cap_ib_mad(&a->ibdev, 1));
	KUNIT_EXPECT_TRUE(test, rdma_protocol_roce(&b->ibdev, 1));
	KUNIT_EXPECT_TRUE(test, rdma_protocol_roce_udp_encap(&b->ibdev, 1));
	KUNIT_EXPECT_FALSE(test, rdma_protocol_ib(&b->ibdev, 1));
	tdev_destroy(a);
	tdev_destroy(b);
}

static struct kunit_case port_cases[] = {
	KUNIT_CASE(query_port_valid),
	KUNIT_CASE(query_port_invalid),
	KUNIT_CASE(query_port_subnet_prefix),
	KUNIT_CASE(query_pkey_cases),
	KUNIT_CASE(modify_device_cases),
	KUNIT_CASE(modify_port_cases),
	KUNIT_CASE(protocol_helpers),
	{}
};

static struct kunit_suite port_suite = {
	.name = "rdma_core_port",
	.test_cases = port_cases,
};

/* ---- rdma_core_gid ---- */

static void gid_ib_default(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktgi%d");
	union ib_gid gid;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(gid.global.subnet_prefix),
			0xfe80000000000000ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(gid.global.interface_id),
			be64_to_cpu(td->ibdev.node_guid));
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 1, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 16, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, -1, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 0, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 2, 0, &gid), -EINVAL);
	tdev_destroy(td);
}

static void gid_roce_from_netdev(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktgr%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	static const u8 want[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
				     0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44,
				     0x55 };
	const struct ib_gid_attr *v1, *v2;

	v1 = rdma_get_gid_attr(&td->ibdev, 1, 0);
	v2 = rdma_get_gid_attr(&td->ibdev, 1, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(v1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(v2));
	KUNIT_EXPECT_EQ(test, memcmp(v1->gid.raw, want, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(v2->gid.raw, want, 16), 0);
	KUNIT_EXPECT_EQ(test, v1->gid_type, IB_GID_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, v2->gid_type, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(v1->ndev), ndev);
	KUNIT_EXPECT_PTR_EQ(test, v1->device, &td->ibdev);
	KUNIT_EXPECT_EQ(test, v1->port_num, 1U);
	KUNIT_EXPECT_EQ(test, v2->index, 1);
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_get_gid_attr(&td->ibdev, 1, 2)));
	rdma_put_gid_attr(v1);
	rdma_put_gid_attr(v2);
	tdev_destroy(td);
	free_netdev(ndev);
}

static void gid_roce_without_netdev(struct kunit *test)
{
	struct tdev_params p = { .name = "ktgn%d",
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	union ib_gid gid;

	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&td->ibdev, 1, 0)),
			-ENODATA);
	tdev_destroy(td);
}

static void gid_attr_errors(struct kunit *test)
{
	struct tdev_params p = { .name = "ktge%d", .gid_tbl_len = 4 };
	struct tdev *td = tk_dev(test, &p);

	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&td->ibdev, 1, 4)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&td->ibdev, 2, 0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&td->ibdev, 1, 3)),
			-ENODATA);
	tdev_destroy(td);
}

static void gid_attr_outlives_device(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktgo%d");
	const struct ib_gid_attr *attr = rdma_get_gid_attr(&td->ibdev, 1, 0);
	__be64 guid = td->ibdev.node_guid;

	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	rdma_hold_gid_attr(attr);
	tdev_destroy(td);
	/* The attribute (and the device memory it points to) stay valid. */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(attr->gid.global.interface_id),
			be64_to_cpu(guid));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(attr->device->node_guid),
			be64_to_cpu(guid));
	rdma_put_gid_attr(attr);
	rdma_put_gid_attr(attr);
}

static void gid_find_by_port(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct net_device *other = tk_netdev(test);
	struct tdev_params p = { .name = "ktgf%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 1, &gid), 0);
	attr = rdma_find_gid_by_port(&td->ibdev, &gid,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, 1, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, attr->index, 1);
	rdma_put_gid_attr(attr);
	attr = rdma_find_gid_by_port(&td->ibdev, &gid, IB_GID_TYPE_ROCE, 1,
				     ndev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, attr->index, 0);
	rdma_put_gid_attr(attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(&td->ibdev, &gid,
				IB_GID_TYPE_ROCE, 1, other)), -ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(&td->ibdev, &gid,
				IB_GID_TYPE_ROCE, 2, NULL)), -EINVAL);
	gid.raw[15] ^= 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(&td->ibdev, &gid,
				IB_GID_TYPE_ROCE, 1, NULL)), -ENOENT);
	tdev_destroy(td);
	free_netdev(ndev);
	free_netdev(other);
}

static void gid_l2_fields(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params eth = { .name = "ktgl%d", .ndev = ndev,
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev_params ib = { .name = "ktgli%d" };
	struct tdev *a = tk_dev(test, &eth), *b = tk_dev(test, &ib);
	const struct ib_gid_attr *attr;
	u8 mac[ETH_ALEN] = {};
	u16 vlan = 0;

	attr = rdma_get_gid_attr(&a->ibdev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, &vlan, mac), 0);
	KUNIT_EXPECT_EQ(test, vlan, 0xffff);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, ndev->dev_addr));
	rdma_put_gid_attr(attr);
	attr = rdma_get_gid_attr(&b->ibdev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, &vlan, mac),
			-ENODEV);
	rdma_put_gid_attr(attr);
	tdev_destroy(a);
	tdev_destroy(b);
	free_netdev(ndev);
}

static void gid_follows_set_netdev(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktgs%d",
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	union ib_gid gid;

	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, gid.raw[15], 0x55);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, NULL, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), -EINVAL);
	tdev_destroy(td);
	free_netdev(ndev);
}

static void gid_driver_query_fails(struct kunit *test)
{
	struct tdev_params p = { .name = "ktgq%d", .driver_gids = true };
	union ib_gid g = { .raw = { 0xfe, 0x80, [15] = 7 } };
	struct tdev *td = tk_new_dev(test, &p);
	union ib_gid got;

	KUNIT_ASSERT_EQ(test, tdev_set_gid(td, 1, 0, &g), 0);
	tdev_fail(td, TDEV_FAIL_QUERY_GID, true);
	KUNIT_ASSERT_EQ(test, tdev_register(td), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &got), -EINVAL);
	tdev_fail(td, TDEV_FAIL_QUERY_GID, false);
	tdev_port_event(td, 1, IB_EVENT_GID_CHANGE);
	KUNIT_EXPECT_TRUE(test, tk_wait_for(!rdma_query_gid(&td->ibdev, 1, 0,
							    &got)));
	KUNIT_EXPECT_EQ(test, got.raw[15], 7);
	tdev_destroy(td);
}

static struct kunit_case gid_cases[] = {
	KUNIT_CASE(gid_ib_default),
	KUNIT_CASE(gid_roce_from_netdev),
	KUNIT_CASE(gid_roce_without_netdev),
	KUNIT_CASE(gid_attr_errors),
	KUNIT_CASE(gid_attr_outlives_device),
	KUNIT_CASE(gid_find_by_port),
	KUNIT_CASE(gid_l2_fields),
	KUNIT_CASE(gid_follows_set_netdev),
	KUNIT_CASE(gid_driver_query_fails),
	{}
};

static struct kunit_suite gid_suite = {
	.name = "rdma_core_gid",
	.test_cases = gid_cases,
};

/* ---- rdma_core_netdev ---- */

static void netdev_lookup(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct net_device *other = tk_netdev(test);
	struct tdev_params p = { .name = "ktnd%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET,
				 .driver_id = RDMA_DRIVER_RXE };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *found;

	found = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	found = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	KUNIT_EXPECT_PTR_EQ(test, found, &td->ibdev);
	if (found)
		ib_device_put(found);
	KUNIT_EXPECT_EQ(test, refcount_read(&td->ibdev.refcount), 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev, RDMA_DRIVER_SIW));
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(other,
							RDMA_DRIVER_UNKNOWN));
	tdev_unregister(td);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev,
							RDMA_DRIVER_UNKNOWN));
	tdev_destroy(td);
	free_netdev(ndev);
	free_netdev(other);
}

static void netdev_references(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktnr%d", .ports = 2,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	int base = netdev_refcnt_read(ndev);

	KUNIT_EXPECT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 3),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 1), 0);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 2), 0);
	/* Setting the same netdev again takes no second reference. */
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&td->ibdev, ndev, 2), 0);
	KUNIT_EXPECT_GT(test, netdev_refcnt_read(ndev), base);
	tdev_unregister(td);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(ndev), base);
	tdev_destroy(td);
	free_netdev(ndev);
}

static void netdev_released_when_never_registered(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	int base = netdev_refcnt_read(ndev);
	struct tdev *td = tk_new_dev(test, &p);

	KUNIT_EXPECT_GT(test, netdev_refcnt_read(ndev), base);
	tdev_destroy(td);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(ndev), base);
	free_netdev(ndev);
}

static void eth_speed(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params eth = { .name = "ktes%d", .ports = 2, .ndev = ndev,
				   .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev_params ib = { .name = "ktesi%d" };
	struct tdev *a = tk_dev(test, &eth), *b = tk_dev(test, &ib);
	u16 speed = 0;
	u8 width = 0;

	/* No ethtool: taken as 1 Gb/s, shown as 1X SDR. */
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&a->ibdev, 1, &speed, &width),
			0);
	KUNIT_EXPECT_EQ(test, speed, IB_SPEED_SDR);
	KUNIT_EXPECT_EQ(test, width, IB_WIDTH_1X);
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&b->ibdev, 1, &speed, &width),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&a->ibdev, 3, &speed, &width),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&a->ibdev, NULL, 2), 0);
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&a->ibdev, 2, &speed, &width),
			-ENODEV);
	tdev_destroy(a);
	tdev_destroy(b);
	free_netdev(ndev);
}

static struct kunit_case netdev_cases[] = {
	KUNIT_CASE(netdev_lookup),
	KUNIT_CASE(netdev_references),
	KUNIT_CASE(netdev_released_when_never_registered),
	KUNIT_CASE(eth_speed),
	{}
};

static struct kunit_suite netdev_suite = {
	.name = "rdma_core_netdev",
	.test_cases = netdev_cases,
};

/* ---- rdma_core_sysfs ---- */

static void sysfs_device_attrs(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktsd%d");
	u64 guid = be64_to_cpu(td->ibdev.node_guid);
	char want[64];

	KT_EXPECT_SYSFS(test, &td->ibdev, "node_type", "1: CA\n");
	snprintf(want, sizeof(want), "%04x:%04x:%04x:%04x\n",
		 (u16)(guid >> 48), (u16)(guid >> 32), (u16)(guid >> 16),
		 (u16)guid);
	KT_EXPECT_SYSFS(test, &td->ibdev, "node_guid", want);
	KT_EXPECT_SYSFS(test, &td->ibdev, "sys_image_guid", want);
	KT_EXPECT_SYSFS(test, &td->ibdev, "fw_ver", "1.2.3\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "node_desc", "rdma_kunit_tdev\n");
	tdev_destroy(td);
}

static void sysfs_node_desc_write(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktsw%d");

	KUNIT_ASSERT_EQ(test, tk_sysfs_write(&td->ibdev, "node_desc",
					     "written by kunit"), 0);
	KT_EXPECT_SYSFS(test, &td->ibdev, "node_desc", "written by kunit\n");
	tdev_fail(td, TDEV_FAIL_MODIFY_DEVICE, true);
	KUNIT_EXPECT_EQ(test, tk_sysfs_write(&td->ibdev, "node_desc", "x"),
			-EIO);
	tdev_destroy(td);
}

static void sysfs_port_attrs(struct kunit *test)
{
	struct tdev_params p = { .name = "ktspa%d", .ports = 2 };
	struct tdev *td = tk_dev(test, &p);
	char want[16];

	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/state", "4: ACTIVE\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/phys_state", "5: LinkUp\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/link_layer",
			"InfiniBand\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/rate",
			"10 Gb/sec (4X SDR)\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/lid", "0x1\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/2/lid", "0x2\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/sm_lid", "0x1\n");
	snprintf(want, sizeof(want), "0x%08x\n", IB_PORT_CM_SUP);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/cap_mask", want);
	tdev_port_event(td, 2, IB_EVENT_PORT_ERR);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/2/state", "1: DOWN\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/2/phys_state",
			"3: Disabled\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/state", "4: ACTIVE\n");
	tdev_destroy(td);
}

static void sysfs_port_query_error(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktspe%d");

	tdev_fail(td, TDEV_FAIL_QUERY_PORT, true);
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/state", -EIO);
	tdev_destroy(td);
}

static void sysfs_tables_ib(struct kunit *test)
{
	struct tdev_params p = { .name = "ktst%d", .gid_tbl_len = 4,
				 .pkey_tbl_len = 2 };
	struct tdev *td = tk_dev(test, &p);
	union ib_gid gid;
	char want[64];

	KUNIT_ASSERT_EQ(test, rdma_query_gid(&td->ibdev, 1, 0, &gid), 0);
	snprintf(want, sizeof(want), "%pI6\n", gid.raw);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gids/0", want);
	KUNIT_EXPECT_EQ(test, strncmp(want, "fe80:0000:0000:0000:", 20), 0);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gids/3",
			"0000:0000:0000:0000:0000:0000:0000:0000\n");
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/gids/4", -ENOENT);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/pkeys/0", "0xffff\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/pkeys/1", "0x0000\n");
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/pkeys/2", -ENOENT);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gid_attrs/types/0",
			"IB/RoCE v1\n");
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/gid_attrs/types/1",
			    -ENODATA);
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/gid_attrs/ndevs/0",
			    -ENODEV);
	tdev_destroy(td);
}

static void sysfs_tables_roce(struct kunit *test)
{
	struct net_device *ndev = tk_netdev(test);
	struct tdev_params p = { .name = "ktsr%d", .ndev = ndev,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *td = tk_dev(test, &p);
	char want[32];

	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/link_layer", "Ethernet\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gids/0",
			"fe80:0000:0000:0000:0011:22ff:fe33:4455\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gid_attrs/types/0",
			"IB/RoCE v1\n");
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gid_attrs/types/1",
			"RoCE v2\n");
	snprintf(want, sizeof(want), "%s\n", ndev->name);
	KT_EXPECT_SYSFS(test, &td->ibdev, "ports/1/gid_attrs/ndevs/1", want);
	tdev_destroy(td);
	free_netdev(ndev);
}

static void sysfs_gone_after_unregister(struct kunit *test)
{
	struct tdev *td = tk_dev_named(test, "ktsg%d");

	KT_EXPECT_SYSFS(test, &td->ibdev, "node_type", "1: CA\n");
	tdev_unregister(td);
	tk_expect_sysfs_err(test, &td->ibdev, "node_type", -ENOENT);
	tk_expect_sysfs_err(test, &td->ibdev, "ports/1/state", -ENOENT);
	tdev_destroy(td);
}

static struct kunit_case sysfs_cases[] = {
	KUNIT_CASE(sysfs_device_attrs),
	KUNIT_CASE(sysfs_node_desc_write),
	KUNIT_CASE(sysfs_port_attrs),
	KUNIT_CASE(sysfs_port_query_error),
	KUNIT_CASE(sysfs_tables_ib),
	KUNIT_CASE(sysfs_tables_roce),
	KUNIT_CASE(sysfs_gone_after_unregister),
	{}
};

static struct kunit_suite sysfs_suite = {
	.name = "rdma_core_sysfs",
	.test_cases = sysfs_cases,
};

/* ---- rdma_core_pd ---- */

static void pd_local_dma_lkey(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpd%d", .local_dma_lkey = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, TDEV_LOCAL_DMA_LKEY);
	KUNIT_EXPECT_PTR_EQ(test, pd->device, &td->ibdev);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, pd->flags, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 1);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	tdev_destroy(td);
}

static void pd_driver_failure(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpdf%d", .local_dma_lkey = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd;

	tdev_fail(td, TDEV_FAIL_ALLOC_PD, true);
	pd = ib_alloc_pd(&td->ibdev, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pd), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	tdev_fail(td, TDEV_FAIL_ALLOC_PD, false);
	pd = ib_alloc_pd(&td->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	tdev_fail(td, TDEV_FAIL_DEALLOC_PD, true);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 1);
	tdev_fail(td, TDEV_FAIL_DEALLOC_PD, false);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	tdev_destroy(td);
}

static void pd_busy(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpdb%d", .local_dma_lkey = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	atomic_inc(&pd->usecnt);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), -EBUSY);
	/* Still there and usable. */
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 1);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, TDEV_LOCAL_DMA_LKEY);
	atomic_dec(&pd->usecnt);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	tdev_destroy(td);
}

/* Without IBK_LOCAL_DMA_LKEY the PD needs a DMA MR from the driver. */
static void pd_internal_mr(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpdm%d" };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);

	if (!td->ibdev.ops.get_dma_mr) {
		KUNIT_EXPECT_EQ(test, PTR_ERR(pd), -EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	} else {
		KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
		KUNIT_ASSERT_NOT_NULL(test, pd->__internal_mr);
		KUNIT_EXPECT_EQ(test, pd->local_dma_lkey,
				pd->__internal_mr->lkey);
		KUNIT_EXPECT_PTR_EQ(test, pd->__internal_mr->pd, pd);
		KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
		KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	}
	tdev_destroy(td);
}

static void pd_unsafe_global_rkey(struct kunit *test)
{
	struct tdev_params p = { .name = "ktpdu%d", .local_dma_lkey = true };
	struct tdev *td = tk_dev(test, &p);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);

	if (!td->ibdev.ops.get_dma_mr) {
		KUNIT_EXPECT_EQ(test, PTR_ERR(pd), -EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, atomic_read(&td->npds), 0);
	} else {
		KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
		KUNIT_ASSERT_NOT_NULL(test, pd->__internal_mr);
		KUNIT_EXPECT_EQ(test, pd->unsafe_global_rkey,
				pd->__internal_mr->rkey);
		KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, TDEV_LOCAL_DMA_LKEY);
		KUNIT_EXPECT_TRUE(test, pd->flags & IB_PD_UNSAFE_GLOBAL_RKEY);
		KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	}
	tdev_destroy(td);
}

static struct kunit_case pd_cases[] = {
	KUNIT_CASE(pd_local_dma_lkey),
	KUNIT_CASE(pd_driver_failure),
	KUNIT_CASE(pd_busy),
	KUNIT_CASE(pd_internal_mr),
	KUNIT_CASE(pd_unsafe_global_rkey),
	{}
};

static struct kunit_suite pd_suite = {
	.name = "rdma_core_pd",
	.test_cases = pd_cases,
};

kunit_test_suites(&alloc_suite, &register_suite, &client_suite, &event_suite,
		  &port_suite, &gid_suite, &netdev_suite, &sysfs_suite,
		  &pd_suite);

MODULE_DESCRIPTION("KUnit suites of the RDMA core's device model");
MODULE_LICENSE("GPL");
