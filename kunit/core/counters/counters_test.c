// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of hardware counters: rdma_alloc/free_hw_stats_struct(),
 * the hw_counters directories of a device and its ports
 * (core/counters/device.c), the nldev statistics commands
 * (core/nl/stat.c) and the exported helpers drivers fill netlink
 * messages with (core/nl/nldev.c).
 *
 * The suite's devices are test devices with counter operations of the
 * suite's: the "hardware" reports ct_value-derived numbers and counts how
 * often it is asked, so the cases can tell what the core cached.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <rdma/ib_verbs.h>
#include "../nl/nlk.h"

enum { CT_RX, CT_TX, CT_OPT };

static const struct rdma_stat_desc ct_port_descs[] = {
	[CT_RX] = { .name = "kt_rx" },
	[CT_TX] = { .name = "kt_tx" },
	[CT_OPT] = { .name = "kt_opt", .flags = IB_STAT_FLAG_OPTIONAL },
};

static const struct rdma_stat_desc ct_dev_descs[] = {
	{ .name = "kt_events" },
};

/* The "hardware": what it counts, how often it is read, how it fails. */
static u64 ct_value;
static atomic_t ct_reads;
static int ct_fail;
static int ct_modifies;
static int ct_counters = ARRAY_SIZE(ct_port_descs);

static struct rdma_hw_stats *ct_alloc_port(struct ib_device *dev, u32 port)
{
	return rdma_alloc_hw_stats_struct(ct_port_descs, ct_counters,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static struct rdma_hw_stats *ct_alloc_dev(struct ib_device *dev)
{
	return rdma_alloc_hw_stats_struct(ct_dev_descs,
					  ARRAY_SIZE(ct_dev_descs),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static struct rdma_hw_stats *ct_alloc_none(struct ib_device *dev, u32 port)
{
	return NULL;
}

/* Counter i of port p reads ct_value * (i + 1) + 1000 * p. */
static int ct_get_hw_stats(struct ib_device *dev, struct rdma_hw_stats *stats,
			   u32 port, int index)
{
	int i;

	atomic_inc(&ct_reads);
	if (ct_fail)
		return ct_fail;
	for (i = 0; i < stats->num_counters; i++)
		stats->value[i] = ct_value * (i + 1) + 1000 * port;
	return stats->num_counters;
}

static int ct_modify_hw_stat(struct ib_device *dev, u32 port,
			     unsigned int index, bool enable)
{
	ct_modifies++;
	return 0;
}

static const struct ib_device_ops ct_ops = {
	.alloc_hw_device_stats = ct_alloc_dev,
	.alloc_hw_port_stats = ct_alloc_port,
	.get_hw_stats = ct_get_hw_stats,
	.modify_hw_stat = ct_modify_hw_stat,
};

static const struct ib_device_ops ct_ops_fixed = {
	.alloc_hw_port_stats = ct_alloc_port,
	.get_hw_stats = ct_get_hw_stats,
};

static const struct ib_device_ops ct_ops_none = {
	.alloc_hw_port_stats = ct_alloc_none,
	.get_hw_stats = ct_get_hw_stats,
};

static struct tdev *ct_create(const struct ib_device_ops *ops, u32 ports)
{
	struct tdev_params p = { .name = "ktct%d", .ports = ports };
	struct tdev *td = tdev_create(&p);

	if (!IS_ERR(td) && ops)
		ib_set_device_ops(&td->ibdev, ops);
	return td;
}

/* The devices of the running case, destroyed when it ends. */
static struct tdev *ct_devs[4];
static int ct_ndevs;

/* A registered device with @ops. */
static struct tdev *ct_dev(struct kunit *test, const struct ib_device_ops *ops,
			   u32 ports)
{
	struct tdev *td;

	KUNIT_ASSERT_LT(test, ct_ndevs, ARRAY_SIZE(ct_devs));
	td = ct_create(ops, ports);
	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	if (tdev_register(td)) {
		ib_dealloc_device(&td->ibdev);
		KUNIT_ASSERT_FAILURE(test, "registration failed");
	}
	ct_devs[ct_ndevs++] = td;
	return td;
}


static int ct_init(struct kunit *test)
{
	ct_value = 5;
	ct_fail = 0;
	ct_modifies = 0;
	ct_counters = ARRAY_SIZE(ct_port_descs);
	atomic_set(&ct_reads, 0);
	ct_ndevs = 0;
	return 0;
}

static void ct_exit(struct kunit *test)
{
	while (ct_ndevs)
		tdev_destroy(ct_devs[--ct_ndevs]);
}

/* Read /sys/class/infiniband/<dev>/<rel>; a trailing newline is dropped. */
static int ct_read(struct tdev *td, const char *rel, char *buf, size_t len)
{
	char path[160];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/%s",
		 dev_name(&td->ibdev.dev), rel);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

static int ct_write(struct tdev *td, const char *rel, const char *text)
{
	char path[160];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/%s",
		 dev_name(&td->ibdev.dev), rel);
	f = filp_open(path, O_WRONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, text, strlen(text), &pos);
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

#define CT_EXPECT_FILE(test, td, rel, text)				\
	do {								\
		char __b[64];						\
		KUNIT_EXPECT_EQ_MSG(test, ct_read(td, rel, __b, sizeof(__b)), \
				    0, "%s", rel);			\
		KUNIT_EXPECT_STREQ_MSG(test, __b, text, "%s", rel);	\
	} while (0)

/* A lifespan file shows @ms as rounded to jiffies. */
static void ct_expect_lifespan(struct kunit *test, struct tdev *td,
			       const char *rel, unsigned int ms)
{
	char want[16];

	snprintf(want, sizeof(want), "%u",
		 jiffies_to_msecs(msecs_to_jiffies(ms)));
	CT_EXPECT_FILE(test, td, rel, want);
}

/* The container drivers allocate. */
static void ct_alloc_struct(struct kunit *test)
{
	struct rdma_hw_stats *st;
	int i;

	st = rdma_alloc_hw_stats_struct(ct_port_descs, 3, 250);
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_EQ(test, st->num_counters, 3);
	KUNIT_EXPECT_TRUE(test, st->descs == ct_port_descs);
	KUNIT_EXPECT_EQ(test, st->lifespan, msecs_to_jiffies(250));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, st->value[i], 0);
		KUNIT_EXPECT_FALSE(test, test_bit(i, st->is_disabled));
	}
	mutex_lock(&st->lock);
	mutex_unlock(&st->lock);
	rdma_free_hw_stats_struct(st);
	st = rdma_alloc_hw_stats_struct(ct_port_descs, 0, 0);
	KUNIT_EXPECT_NOT_NULL(test, st);
	rdma_free_hw_stats_struct(st);
	KUNIT_EXPECT_NULL(test, rdma_alloc_hw_stats_struct(ct_port_descs, -1, 0));
	rdma_free_hw_stats_struct(NULL);
}

/* hw_counters of the device and of each port; optional ones not shown. */
static void ct_sysfs(struct kunit *test)
{
	struct tdev *td = ct_dev(test, &ct_ops, 2);
	struct tdev *plain = ct_dev(test, NULL, 1);
	char buf[64];

	CT_EXPECT_FILE(test, td, "hw_counters/kt_events", "5");
	ct_expect_lifespan(test, td, "hw_counters/lifespan",
			   RDMA_HW_STATS_DEFAULT_LIFESPAN);
	CT_EXPECT_FILE(test, td, "ports/1/hw_counters/kt_rx", "1005");
	CT_EXPECT_FILE(test, td, "ports/1/hw_counters/kt_tx", "1010");
	CT_EXPECT_FILE(test, td, "ports/2/hw_counters/kt_tx", "2010");
	ct_expect_lifespan(test, td, "ports/2/hw_counters/lifespan",
			   RDMA_HW_STATS_DEFAULT_LIFESPAN);
	KUNIT_EXPECT_EQ(test, ct_read(td, "ports/1/hw_counters/kt_opt", buf,
				      sizeof(buf)), -ENOENT);
	KUNIT_EXPECT_EQ(test, ct_read(plain, "hw_counters/lifespan", buf,
				      sizeof(buf)), -ENOENT);
	KUNIT_EXPECT_EQ(test, ct_read(plain, "ports/1/hw_counters/lifespan", buf,
				      sizeof(buf)), -ENOENT);
	/* A device with port counters only has no device directory. */
	td = ct_dev(test, &ct_ops_fixed, 1);
	KUNIT_EXPECT_EQ(test, ct_read(td, "hw_counters/lifespan", buf,
				      sizeof(buf)), -ENOENT);
	CT_EXPECT_FILE(test, td, "ports/1/hw_counters/kt_rx", "1005");
}

/* Readings younger than the lifespan come from the core's copy. */
static void ct_lifespan(struct kunit *test)
{
	struct tdev *td = ct_dev(test, &ct_ops, 1);
	int reads;

	KUNIT_EXPECT_EQ(test, ct_write(td, "ports/1/hw_counters/lifespan",
				       "10000"), 0);
	CT_EXPECT_FILE(test, td, "ports/1/hw_counters/lifespan", "10000");
	CT_EXPECT_FILE(test, td, "ports/1/hw_counters/kt_rx", "1005");
	reads = atomic_read(&ct_reads);
	ct_value = 7;
	CT_EXPECT_FILE(test, td, "ports/1/hw_counters/kt_rx", "1005");
	CT_EXPECT_FILE(test, td, "ports/1/hw_counters/kt_tx", "1010");
	KUNIT_EXPECT_EQ(test, atomic_read(&ct_reads), reads);
	/* The device's set has a lifespan of its own, long past. */
	msleep(50);
	CT_EXPECT_FILE(test, td, "hw_counters/kt_events", "7");
	KUNIT_EXPECT_EQ(test, ct_write(td, "ports/1/hw_counters/lifespan", "0"),
			0);
	msleep(20);
	CT_EXPECT_FILE(test, td, "ports/1/hw_counters/kt_rx", "1007");
	KUNIT_EXPECT_GT(test, atomic_read(&ct_reads), reads);
}

/* Bad lifespans, and a driver that fails to read. */
static void ct_bad_writes(struct kunit *test)
{
	struct tdev *td = ct_dev(test, &ct_ops, 1);
	char buf[64];

	KUNIT_EXPECT_EQ(test, ct_write(td, "hw_counters/lifespan", "-1"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ct_write(td, "hw_counters/lifespan", "10001"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ct_write(td, "hw_counters/lifespan", "ten"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ct_write(td, "ports/1/hw_counters/lifespan",
				       "99999999999"), -ERANGE);
	ct_expect_lifespan(test, td, "hw_counters/lifespan",
			   RDMA_HW_STATS_DEFAULT_LIFESPAN);
	KUNIT_EXPECT_EQ(test, ct_write(td, "ports/1/hw_counters/kt_rx", "1"),
			-EACCES);
	KUNIT_EXPECT_EQ(test, ct_write(td, "ports/1/hw_counters/lifespan", "0"),
			0);
	ct_fail = -EIO;
	msleep(20);
	KUNIT_EXPECT_EQ(test, ct_read(td, "ports/1/hw_counters/kt_rx", buf,
				      sizeof(buf)), -EIO);
}

/* A driver whose counters cannot be read does not register. */
static void ct_register_fails(struct kunit *test)
{
	struct tdev *td;

	ct_fail = -EIO;
	td = ct_create(&ct_ops, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	KUNIT_EXPECT_EQ(test, tdev_register(td), -EIO);
	tdev_destroy(td);
	ct_fail = 0;
	ct_counters = 0;
	td = ct_create(&ct_ops_fixed, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	KUNIT_EXPECT_EQ(test, tdev_register(td), -EINVAL);
	tdev_destroy(td);
	td = ct_create(&ct_ops_none, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	KUNIT_EXPECT_EQ(test, tdev_register(td), -ENOMEM);
	tdev_destroy(td);
}

struct ct_seen {
	u64 value[ARRAY_SIZE(ct_port_descs)];
	bool shown[ARRAY_SIZE(ct_port_descs)];
	s8 dynamic[ARRAY_SIZE(ct_port_descs)];	/* -1: not reported */
	int entries;
};

static void ct_parse_counters(struct kunit *test, struct nlattr **tb,
			      struct ct_seen *s)
{
	struct nlattr *e, *etb[RDMA_NLDEV_ATTR_MAX];
	unsigned int i;
	int rem;

	memset(s, 0, sizeof(*s));
	memset(s->dynamic, -1, sizeof(s->dynamic));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]);
	nla_for_each_nested(e, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], rem) {
		KUNIT_ASSERT_EQ(test, nla_parse_nested_deprecated(etb,
				RDMA_NLDEV_ATTR_MAX - 1, e, NULL, NULL), 0);
		s->entries++;
		KUNIT_ASSERT_NOT_NULL(test,
				etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME]);
		for (i = 0; i < ARRAY_SIZE(ct_port_descs); i++) {
			if (strcmp(nla_data(etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME]),
				   ct_port_descs[i].name))
				continue;
			s->shown[i] = true;
			if (etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE])
				s->value[i] = nla_get_u64(
				    etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE]);
			if (etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC])
				s->dynamic[i] = nla_get_u8(
				    etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC]);
		}
	}
}

static int ct_stat(struct nlk *k, u8 cmd, struct tdev *td, u32 port)
{
	nlk_new_dev(k, cmd, td->ibdev.index);
	if (port)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req,
				RDMA_NLDEV_ATTR_PORT_INDEX, port), 0);
	return nlk_doit(k);
}

/* STAT_SET with the indexes of the optional counters to enable. */
static int ct_set_optional(struct nlk *k, struct tdev *td, int n,
			   const u32 *indexes)
{
	struct nlattr *list;
	int i;

	nlk_new_dev(k, RDMA_NLDEV_CMD_STAT_SET, td->ibdev.index);
	KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX,
					     1), 0);
	list = nla_nest_start(k->req, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	KUNIT_ASSERT_NOT_NULL(k->test, list);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req,
				RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX,
				indexes[i]), 0);
	nla_nest_end(k->req, list);
	return nlk_doit(k);
}

/* "rdma statistic show": a port's counters, fresh, without disabled ones. */
static void ct_nl_stat(struct kunit *test)
{
	struct nlk *k = nlk_open(test);
	struct tdev *td = ct_dev(test, &ct_ops, 2);
	static const u32 opt = CT_OPT;
	struct ct_seen s;

	KUNIT_ASSERT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET, td, 2), 0);
	KUNIT_EXPECT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(k->tb[RDMA_NLDEV_ATTR_PORT_INDEX]), 2);
	ct_parse_counters(test, k->tb, &s);
	KUNIT_EXPECT_EQ(test, s.entries, 3);
	KUNIT_EXPECT_EQ(test, s.value[CT_RX], 2005);
	KUNIT_EXPECT_EQ(test, s.value[CT_OPT], 2015);
	/* Netlink always asks the driver, whatever the lifespan. */
	ct_value = 8;
	KUNIT_ASSERT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET, td, 2), 0);
	ct_parse_counters(test, k->tb, &s);
	KUNIT_EXPECT_EQ(test, s.value[CT_TX], 2016);
	/* Switch the optional counter off, then on again. */
	KUNIT_EXPECT_EQ(test, ct_set_optional(k, td, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, ct_modifies, 1);
	KUNIT_ASSERT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET, td, 1), 0);
	ct_parse_counters(test, k->tb, &s);
	KUNIT_EXPECT_EQ(test, s.entries, 2);
	KUNIT_EXPECT_FALSE(test, s.shown[CT_OPT]);
	KUNIT_ASSERT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET_STATUS, td, 1),
			0);
	ct_parse_counters(test, k->tb, &s);
	KUNIT_EXPECT_EQ(test, s.entries, 3);
	KUNIT_EXPECT_EQ(test, s.dynamic[CT_RX], -1);
	KUNIT_EXPECT_EQ(test, s.dynamic[CT_OPT], 0);
	/* Already off: the driver is not asked again. */
	KUNIT_EXPECT_EQ(test, ct_set_optional(k, td, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, ct_modifies, 1);
	KUNIT_EXPECT_EQ(test, ct_set_optional(k, td, 1, &opt), 0);
	KUNIT_EXPECT_EQ(test, ct_modifies, 2);
	KUNIT_ASSERT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET_STATUS, td, 1),
			0);
	ct_parse_counters(test, k->tb, &s);
	KUNIT_EXPECT_EQ(test, s.dynamic[CT_OPT], 1);
}

/* STAT_GET, STAT_GET_STATUS and STAT_SET refusals. */
static void ct_nl_stat_bad(struct kunit *test)
{
	struct nlk *k = nlk_open(test);
	struct tdev *td = ct_dev(test, &ct_ops, 1);
	struct tdev *fixed = ct_dev(test, &ct_ops_fixed, 1);
	struct tdev *plain = ct_dev(test, NULL, 1);
	static const u32 not_optional = CT_RX, beyond = 7;
	const struct cred *old;

	KUNIT_EXPECT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET, td, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET, td, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET, plain, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET_STATUS, plain, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET_STATUS, td, 0),
			-EINVAL);
	/* Strict parsing. */
	nlk_new_dev(k, RDMA_NLDEV_CMD_STAT_GET, td->ibdev.index);
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 1),
			0);
	KUNIT_ASSERT_EQ(test, nla_put_u64_64bit(k->req, RDMA_NLDEV_ATTR_CAP_FLAGS,
						1, RDMA_NLDEV_ATTR_PAD), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	/* The driver failing. */
	ct_fail = -EIO;
	KUNIT_EXPECT_EQ(test, ct_stat(k, RDMA_NLDEV_CMD_STAT_GET, td, 1), -EINVAL);
	ct_fail = 0;
	/* Optional counters: only those, only by index, only if the driver can. */
	KUNIT_EXPECT_EQ(test, ct_set_optional(k, td, 1, &not_optional), -EINVAL);
	KUNIT_EXPECT_EQ(test, ct_set_optional(k, td, 1, &beyond), -EINVAL);
	KUNIT_EXPECT_EQ(test, ct_set_optional(k, fixed, 0, NULL), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ct_set_optional(k, plain, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ct_modifies, 0);
	nlk_new_dev(k, RDMA_NLDEV_CMD_STAT_SET, td->ibdev.index);
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX, 1),
			0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	old = nlk_drop_cap(CAP_NET_ADMIN);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_EXPECT_EQ(test, ct_set_optional(k, td, 0, NULL), -EPERM);
	nlk_restore_cap(old);
	KUNIT_EXPECT_EQ(test, ct_modifies, 0);
}

static int ct_qp_req(struct nlk *k, u8 cmd, struct tdev *td, int mode,
		     s64 qpn, s64 counter)
{
	nlk_new_dev(k, cmd, td->ibdev.index);
	KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_PORT_INDEX,
					     1), 0);
	KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_STAT_RES,
					     RDMA_NLDEV_ATTR_RES_QP), 0);
	if (mode >= 0)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req,
				RDMA_NLDEV_ATTR_STAT_MODE, mode), 0);
	if (qpn >= 0)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req,
				RDMA_NLDEV_ATTR_RES_LQPN, qpn), 0);
	if (counter >= 0)
		KUNIT_ASSERT_EQ(k->test, nla_put_u32(k->req,
				RDMA_NLDEV_ATTR_STAT_COUNTER_ID, counter), 0);
	return nlk_doit(k);
}

/* QP counters: ib_core binds none, and answers as the target does then. */
static void ct_qp_counters(struct kunit *test)
{
	struct nlk *k = nlk_open(test);
	struct tdev *td = ct_dev(test, &ct_ops, 1);
	struct ib_pd *pd = ib_alloc_pd(&td->ibdev, 0);
	struct ib_qp_init_attr ia = {
		.qp_type = IB_QPT_UD, .sq_sig_type = IB_SIGNAL_REQ_WR,
		.port_num = 1, .cap = { .max_send_wr = 2, .max_recv_wr = 2,
					.max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_cq *cq;
	struct ib_qp *qp;

	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	cq = ib_alloc_cq(&td->ibdev, NULL, 8, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	ia.send_cq = cq;
	ia.recv_cq = cq;
	qp = ib_create_qp(pd, &ia);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));

	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_GET, td,
					RDMA_COUNTER_MODE_AUTO, -1, -1), 0);
	KUNIT_ASSERT_NOT_NULL(test, k->tb[RDMA_NLDEV_ATTR_STAT_MODE]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(k->tb[RDMA_NLDEV_ATTR_STAT_MODE]),
			RDMA_COUNTER_MODE_NONE);
	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_GET, td, -1, -1,
					3), -ENOENT);
	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_SET, td,
					RDMA_COUNTER_MODE_AUTO, -1, -1),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_SET, td,
					RDMA_COUNTER_MODE_MANUAL, -1, -1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_SET, td,
					RDMA_COUNTER_MODE_MANUAL, qp->qp_num, 4),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_SET, td,
					RDMA_COUNTER_MODE_MANUAL, qp->qp_num, -1),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_DEL, td, -1,
					qp->qp_num, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_DEL, td, -1,
					0xfffff, 4), -ENOENT);
	KUNIT_EXPECT_EQ(test, ct_qp_req(k, RDMA_NLDEV_CMD_STAT_DEL, td, -1, -1,
					4), -EINVAL);
	/* The listing of bound counters is empty. */
	nlk_new_dev(k, RDMA_NLDEV_CMD_STAT_GET, td->ibdev.index);
	KUNIT_ASSERT_EQ(test, nla_put_u32(k->req, RDMA_NLDEV_ATTR_STAT_RES,
					  RDMA_NLDEV_ATTR_RES_QP), 0);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, k->msgs, 0);
	nlk_new_dev(k, RDMA_NLDEV_CMD_STAT_GET, td->ibdev.index);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);

	ib_destroy_qp(qp);
	ib_free_cq(cq);
	ib_dealloc_pd(pd);
}

/* rdma_nl_stat_hwcounter_entry() and the driver attribute helpers. */
static void ct_msg_helpers(struct kunit *test)
{
	struct nlattr *attrs[8], *a;
	struct sk_buff *skb;
	int n = 0, rem;

	skb = alloc_skb(1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, rdma_nl_stat_hwcounter_entry(skb, "ktc", 9), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u32(skb, "a", 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u32_hex(skb, "b", 2), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u64(skb, "c", 3), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u64_hex(skb, "d", 4), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_string(skb, "e", "five"), 0);
	nla_for_each_attr(a, (struct nlattr *)skb->data, skb->len, rem) {
		if (nla_type(a) == RDMA_NLDEV_ATTR_PAD)
			continue;
		if (n < ARRAY_SIZE(attrs))
			attrs[n] = a;
		n++;
	}
	/* entry; name,u32; name,hex,u32; name,u64; name,hex,u64; name,str */
	KUNIT_ASSERT_EQ(test, n, 13);
	KUNIT_EXPECT_EQ(test, nla_type(attrs[0]) & NLA_TYPE_MASK,
			RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	KUNIT_EXPECT_TRUE(test, nla_type(attrs[0]) != attrs[0]->nla_type);
	KUNIT_EXPECT_STREQ(test, nla_data(attrs[1]), "a");
	KUNIT_EXPECT_EQ(test, nla_type(attrs[2]), RDMA_NLDEV_ATTR_DRIVER_U32);
	KUNIT_EXPECT_EQ(test, nla_get_u32(attrs[2]), 1);
	KUNIT_EXPECT_EQ(test, nla_type(attrs[4]),
			RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE);
	KUNIT_EXPECT_EQ(test, nla_get_u8(attrs[4]), RDMA_NLDEV_PRINT_TYPE_HEX);
	KUNIT_EXPECT_EQ(test, nla_get_u32(attrs[5]), 2);
	KUNIT_EXPECT_EQ(test, nla_type(attrs[7]), RDMA_NLDEV_ATTR_DRIVER_U64);
	KUNIT_EXPECT_EQ(test, nla_get_u64(attrs[7]), 3);
	kfree_skb(skb);

	/* Full buffers: errors, and the counter entry leaves nothing. */
	skb = alloc_skb(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put(skb, skb_tailroom(skb) - 16);
	n = skb->len;
	KUNIT_EXPECT_EQ(test, rdma_nl_stat_hwcounter_entry(skb, "a_long_name", 1),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, skb->len, n);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u64(skb, "a_long_name", 1),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_string(skb, "n", "a long value"),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u32_hex(skb, "0123456789", 1),
			-EMSGSIZE);
	kfree_skb(skb);
}

static struct kunit_case ct_cases[] = {
	KUNIT_CASE(ct_alloc_struct),
	KUNIT_CASE(ct_sysfs),
	KUNIT_CASE(ct_lifespan),
	KUNIT_CASE(ct_bad_writes),
	KUNIT_CASE(ct_register_fails),
	KUNIT_CASE(ct_nl_stat),
	KUNIT_CASE(ct_nl_stat_bad),
	KUNIT_CASE(ct_qp_counters),
	KUNIT_CASE(ct_msg_helpers),
	{}
};

static struct kunit_suite ct_suite = {
	.name = "rdma_counters",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = ct_cases,
};

kunit_test_suite(ct_suite);
