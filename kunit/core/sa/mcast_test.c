// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_sa_mcast: core/sa/mcast.c against the suite's SA
 * (sar.h): joins and leaves with the SA's record, members of one group
 * sharing the port's join state (one Set, a Delete when the last member
 * of a state goes), SA-named groups, records that do not match, refusals
 * and timeouts, callbacks that free their member, a member freed while it
 * joins, port events that lose the SA's state, clients that wait for
 * their members; the record lookup and the address vector of a group;
 * bad input.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <rdma/ib_cache.h>
#include "sar.h"
#include "tk.h"

struct mt_member {
	struct ib_sa_multicast *mc;
	struct completion called;
	atomic_t calls;
	int status;
	int ret;		/* what the callback returns */
	struct ib_sa_mcmember_rec rec;
};

static int mt_cb(int status, struct ib_sa_multicast *mc)
{
	struct mt_member *m = mc->context;

	m->status = status;
	m->rec = mc->rec;
	atomic_inc(&m->calls);
	complete(&m->called);
	return m->ret;
}

static struct ib_sa_client mt_client;

static void mt_mgid(union ib_gid *mgid, u8 n)
{
	memset(mgid, 0, sizeof(*mgid));
	mgid->raw[0] = 0xff;
	mgid->raw[1] = 0x12;
	mgid->raw[2] = 0x40;
	mgid->raw[15] = n;
}

/*
 * Starts a join of group @n (0: the SA names it) with @join_state; @mtu,
 * when not 0, with @mtu_sel as its selector.
 */
static void mt_join_mtu(struct kunit *test, struct sar_env *env,
			struct mt_member *m, u8 n, u8 join_state,
			ib_sa_comp_mask extra, __be32 qkey, u8 mtu_sel, u8 mtu)
{
	struct ib_sa_mcmember_rec rec = {};

	memset(m, 0, sizeof(*m));
	init_completion(&m->called);
	if (n)
		mt_mgid(&rec.mgid, n);
	rdma_query_gid(&env->client->ibdev, 1, 0, &rec.port_gid);
	rec.join_state = join_state;
	rec.qkey = qkey;
	rec.pkey = cpu_to_be16(0xffff);
	rec.mtu_selector = mtu_sel;
	rec.mtu = mtu;
	if (mtu)
		extra |= IB_SA_MCMEMBER_REC_MTU_SELECTOR | IB_SA_MCMEMBER_REC_MTU;
	m->mc = ib_sa_join_multicast(&mt_client, &env->client->ibdev, 1, &rec,
				     IB_SA_MCMEMBER_REC_MGID |
				     IB_SA_MCMEMBER_REC_PORT_GID |
				     IB_SA_MCMEMBER_REC_JOIN_STATE | extra,
				     GFP_KERNEL, mt_cb, m);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m->mc));
}

static void mt_join(struct kunit *test, struct sar_env *env,
		    struct mt_member *m, u8 n, u8 join_state,
		    ib_sa_comp_mask extra, __be32 qkey)
{
	mt_join_mtu(test, env, m, n, join_state, extra, qkey, 0, 0);
}

static bool mt_wait(struct mt_member *m)
{
	return wait_for_completion_timeout(&m->called, 20 * HZ);
}

/* mt_join(), and its callback has run (within mt_wait()'s bound) */
static void mt_joined(struct kunit *test, struct sar_env *env,
		      struct mt_member *m, u8 n, u8 join_state,
		      ib_sa_comp_mask extra, __be32 qkey)
{
	mt_join(test, env, m, n, join_state, extra, qkey);
	KUNIT_ASSERT_TRUE(test, mt_wait(m));
}

static int mt_case_init(struct kunit *test)
{
	ib_sa_register_client(&mt_client);
	test->priv = sar_env(test);
	return 0;
}

static void mt_case_exit(struct kunit *test)
{
	if (test->priv)
		sar_env_free(test->priv);
	ib_sa_unregister_client(&mt_client);
}

static void mcast_join_leave(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_mcmember_rec rec;
	union ib_gid mgid;
	struct mt_member m;

	mt_joined(test, env, &m, 1, BIT(FULLMEMBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, m.status, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(m.rec.mlid), 0xc001);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m.rec.qkey), 0x80010000U);
	/* One Set (last_method could be the port's ClassPortInfo Get) */
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_join), 1);
	KUNIT_EXPECT_EQ(test, env->sa.last_mc.join_state, BIT(FULLMEMBER_JOIN));
	mt_mgid(&mgid, 1);
	KUNIT_EXPECT_EQ(test, ib_sa_get_mcmember_rec(&env->client->ibdev, 1,
						     &mgid, &rec), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.mlid), 0xc001);
	ib_sa_free_multicast(m.mc);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_leave) == 1));
	KUNIT_EXPECT_EQ(test, env->sa.last_mc.join_state, BIT(FULLMEMBER_JOIN));
	KUNIT_EXPECT_TRUE(test, sar_wait_for(ib_sa_get_mcmember_rec(
		&env->client->ibdev, 1, &mgid, &rec) == -EADDRNOTAVAIL));
	KUNIT_EXPECT_EQ(test, atomic_read(&m.calls), 1);
}

/*
 * Members of one group share the port's join states: one Set per state,
 * a Delete of a state when its last member goes.
 */
static void mcast_members_share(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct mt_member a, b, c;

	mt_joined(test, env, &a, 2, BIT(FULLMEMBER_JOIN), 0, 0);
	mt_joined(test, env, &b, 2, BIT(FULLMEMBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, b.status, 0);
	KUNIT_EXPECT_EQ(test, b.rec.mlid, a.rec.mlid);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_join), 1);
	/* Another state: a Set of its own */
	mt_joined(test, env, &c, 2, BIT(SENDONLY_NONMEBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, c.status, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_join), 2);
	KUNIT_EXPECT_EQ(test, env->sa.last_mc.join_state,
			BIT(SENDONLY_NONMEBER_JOIN));

	ib_sa_free_multicast(a.mc);
	msleep(200);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_leave), 0);
	ib_sa_free_multicast(b.mc);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_leave) == 1));
	KUNIT_EXPECT_EQ(test, env->sa.last_mc.join_state, BIT(FULLMEMBER_JOIN));
	ib_sa_free_multicast(c.mc);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_leave) == 2));
	KUNIT_EXPECT_EQ(test, env->sa.last_mc.join_state,
			BIT(SENDONLY_NONMEBER_JOIN));
}

/* A group the SA names: found under its name afterwards */
static void mcast_sa_named(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_mcmember_rec rec;
	struct mt_member m;

	mt_joined(test, env, &m, 0, BIT(FULLMEMBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, m.status, 0);
	KUNIT_EXPECT_FALSE(test, rdma_is_zero_gid(&m.rec.mgid));
	KUNIT_EXPECT_EQ(test, ib_sa_get_mcmember_rec(&env->client->ibdev, 1,
						     &m.rec.mgid, &rec), 0);
	ib_sa_free_multicast(m.mc);
}

/* A member whose record the group's does not meet fails, without a Set */
static void mcast_record_mismatch(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct mt_member a, b;

	mt_joined(test, env, &a, 3, BIT(FULLMEMBER_JOIN), 0, 0);
	mt_joined(test, env, &b, 3, BIT(FULLMEMBER_JOIN), IB_SA_MCMEMBER_REC_QKEY,
		cpu_to_be32(0x1234));
	KUNIT_EXPECT_EQ(test, b.status, -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_join), 1);
	/* The failed member leaves nothing: freeing the other one leaves */
	ib_sa_free_multicast(b.mc);
	ib_sa_free_multicast(a.mc);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_leave) == 1));
}

/* A state whose last member left is joined again with a Set of its own */
static void mcast_state_left_and_rejoined(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct mt_member a, c, d;

	mt_joined(test, env, &a, 8, BIT(FULLMEMBER_JOIN), 0, 0);
	mt_joined(test, env, &c, 8, BIT(SENDONLY_NONMEBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_join), 2);
	ib_sa_free_multicast(c.mc);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_leave) == 1));
	mt_joined(test, env, &d, 8, BIT(SENDONLY_NONMEBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, d.status, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_join), 3);
	KUNIT_EXPECT_EQ(test, env->sa.last_mc.join_state,
			BIT(SENDONLY_NONMEBER_JOIN));
	ib_sa_free_multicast(d.mc);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_leave) == 2));
	ib_sa_free_multicast(a.mc);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_leave) == 3));
}

/* A later member's MTU selector against the group's MTU (1024) */
static void mt_expect_mtu(struct kunit *test, struct sar_env *env, u8 sel,
			  u8 mtu, int status)
{
	struct mt_member b;

	mt_join_mtu(test, env, &b, 6, BIT(FULLMEMBER_JOIN), 0, 0, sel, mtu);
	KUNIT_ASSERT_TRUE(test, mt_wait(&b));
	KUNIT_EXPECT_EQ_MSG(test, b.status, status, "selector %u, MTU %u", sel,
			    mtu);
	ib_sa_free_multicast(b.mc);
}

/* Greater than, less than and exactly: a value equal is neither of two */
static void mcast_record_selectors(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct mt_member a;

	mt_join_mtu(test, env, &a, 6, BIT(FULLMEMBER_JOIN), 0, 0, IB_SA_EQ,
		    IB_MTU_1024);
	KUNIT_ASSERT_TRUE(test, mt_wait(&a));
	KUNIT_ASSERT_EQ(test, a.status, 0);
	mt_expect_mtu(test, env, IB_SA_GT, IB_MTU_1024, -EINVAL);
	mt_expect_mtu(test, env, IB_SA_GT, IB_MTU_512, 0);
	mt_expect_mtu(test, env, IB_SA_LT, IB_MTU_1024, -EINVAL);
	mt_expect_mtu(test, env, IB_SA_LT, IB_MTU_2048, 0);
	mt_expect_mtu(test, env, IB_SA_EQ, IB_MTU_2048, -EINVAL);
	mt_expect_mtu(test, env, IB_SA_EQ, IB_MTU_1024, 0);
	mt_expect_mtu(test, env, IB_SA_BEST, IB_MTU_4096, 0);
	/* Only the first member's join went to the SA */
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_join), 1);
	ib_sa_free_multicast(a.mc);
}

/* Bad input from the wire: the SA refuses, or never answers */
static void mcast_refused_or_lost(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct mt_member m;

	env->sa.status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	mt_joined(test, env, &m, 4, BIT(FULLMEMBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, m.status, -EINVAL);
	ib_sa_free_multicast(m.mc);
	env->sa.status = 0;
	atomic_set(&env->sa.drop, 100);
	mt_joined(test, env, &m, 4, BIT(FULLMEMBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, m.status, -ETIMEDOUT);
	ib_sa_free_multicast(m.mc);
	atomic_set(&env->sa.drop, 0);
	msleep(200);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_leave), 0);
}

/* A callback that returns non-zero frees its member (and leaves) */
static void mcast_callback_frees(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct mt_member m;
	union ib_gid mgid;

	mt_join(test, env, &m, 5, BIT(FULLMEMBER_JOIN), 0, 0);
	m.ret = 1;
	KUNIT_ASSERT_TRUE(test, mt_wait(&m));
	KUNIT_EXPECT_EQ(test, m.status, 0);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_leave) == 1));
	mt_mgid(&mgid, 5);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(ib_sa_get_mcmember_rec(
		&env->client->ibdev, 1, &mgid, &m.rec) == -EADDRNOTAVAIL));
}

/* A member freed while its join is out: no callback, ever */
static void mcast_free_while_joining(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct mt_member m;

	env->sa.delay_ms = 500;
	mt_join(test, env, &m, 6, BIT(FULLMEMBER_JOIN), 0, 0);
	KUNIT_EXPECT_TRUE(test, sar_wait_for(atomic_read(&env->sa.n_join) == 1));
	ib_sa_free_multicast(m.mc);
	env->sa.delay_ms = 0;
	msleep(800);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.calls), 0);
}

/*
 * Events that lose the SA's state of the port: joined members hear
 * -ENETRESET and join again once the port knows its SM again (until then
 * a join fails with -EAGAIN, as a query does); a P_Key change spares a
 * group whose P_Key the port keeps.
 */
static void mcast_port_events(struct kunit *test)
{
	static const enum ib_event_type lost[] = {
		IB_EVENT_CLIENT_REREGISTER, IB_EVENT_LID_CHANGE,
		IB_EVENT_SM_CHANGE };
	struct sar_env *env = test->priv;
	struct mt_member m;
	int i;

	for (i = 0; i < ARRAY_SIZE(lost); i++) {
		mt_join(test, env, &m, 7, BIT(FULLMEMBER_JOIN), 0, 0);
		KUNIT_ASSERT_TRUE(test, mt_wait(&m));
		KUNIT_ASSERT_EQ(test, m.status, 0);
		reinit_completion(&m.called);
		KUNIT_EXPECT_TRUE(test, tk_port_event(env->client, 1, lost[i]));
		KUNIT_ASSERT_TRUE(test, mt_wait(&m));
		KUNIT_EXPECT_EQ_MSG(test, m.status, -ENETRESET, "event %d",
				    lost[i]);
		ib_sa_free_multicast(m.mc);
		KUNIT_ASSERT_TRUE(test, sar_wait_for(sar_sm_is(env->client,
							       &env->sa)));
	}
	/* Nothing to leave: the SA lost it */
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_leave), 0);
	mt_joined(test, env, &m, 7, BIT(FULLMEMBER_JOIN), 0, 0);
	KUNIT_EXPECT_EQ(test, m.status, 0);
	tdev_port_event(env->client, 1, IB_EVENT_PKEY_CHANGE);
	msleep(300);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.calls), 1);
	ib_sa_free_multicast(m.mc);
}

static void mt_unregister_fn(void *arg)
{
	ib_sa_unregister_client(arg);
}

/* Unregistering a client waits for its members to be freed */
static void mcast_unregister_waits(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct ib_sa_mcmember_rec rec = { .join_state = BIT(FULLMEMBER_JOIN) };
	static struct ib_sa_client mine;
	struct ib_sa_multicast *mc;
	struct tk_thread t;
	struct mt_member m;

	ib_sa_register_client(&mine);
	memset(&m, 0, sizeof(m));
	init_completion(&m.called);
	mt_mgid(&rec.mgid, 8);
	mc = ib_sa_join_multicast(&mine, &env->client->ibdev, 1, &rec,
				  IB_SA_MCMEMBER_REC_MGID |
				  IB_SA_MCMEMBER_REC_JOIN_STATE, GFP_KERNEL,
				  mt_cb, &m);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mc));
	KUNIT_ASSERT_TRUE(test, mt_wait(&m));
	tk_expect_blocks(test, &t, mt_unregister_fn, &mine);
	ib_sa_free_multicast(mc);
	tk_join(&t);
}

/* The address vector of a group, on InfiniBand and on RoCE */
static void mcast_ah_attr(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct tdev_params eth = { .name = "ktsme%d", .roce = true };
	struct tdev *te = tk_dev(test, &eth);
	struct ib_sa_mcmember_rec rec = {};
	struct rdma_ah_attr ah;
	const struct ib_global_route *grh;

	mt_mgid(&rec.mgid, 9);
	rec.mlid = cpu_to_be16(0xc009);
	rec.sl = 3;
	rec.hop_limit = 2;
	rec.flow_label = cpu_to_be32(0x123);
	rec.traffic_class = 4;
	rec.rate = IB_RATE_10_GBPS;
	rdma_query_gid(&env->client->ibdev, 1, 0, &rec.port_gid);
	KUNIT_ASSERT_EQ(test, ib_init_ah_from_mcmember(&env->client->ibdev, 1,
						       &rec, te->ndev,
						       IB_GID_TYPE_IB, &ah), 0);
	grh = rdma_ah_read_grh(&ah);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ah), 0xc009U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&ah), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&ah), IB_RATE_10_GBPS);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->dgid, &rec.mgid, 16), 0);
	KUNIT_EXPECT_EQ(test, grh->flow_label, 0x123U);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 2);
	KUNIT_EXPECT_EQ(test, grh->sgid_index, 0);
	rdma_destroy_ah_attr(&ah);
	/* RoCE: the source GID of the type and netdev asked for */
	KUNIT_ASSERT_EQ(test, rdma_query_gid(&te->ibdev, 1, 1, &rec.port_gid), 0);
	KUNIT_ASSERT_EQ(test, ib_init_ah_from_mcmember(&te->ibdev, 1, &rec,
						       te->ndev,
						       IB_GID_TYPE_ROCE_UDP_ENCAP,
						       &ah), 0);
	KUNIT_EXPECT_EQ(test, ah.type, RDMA_AH_ATTR_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, rdma_ah_read_grh(&ah)->sgid_index, 1);
	rdma_destroy_ah_attr(&ah);
	/* Bad input: a GID the port has not, a port the device lacks */
	KUNIT_EXPECT_EQ(test, ib_init_ah_from_mcmember(&te->ibdev, 1, &rec,
						       te->ndev, IB_GID_TYPE_IB,
						       &ah), -ENOENT);
	rec.port_gid.raw[15] ^= 1;
	KUNIT_EXPECT_EQ(test, ib_init_ah_from_mcmember(&env->client->ibdev, 1,
						       &rec, NULL,
						       IB_GID_TYPE_IB, &ah),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ib_init_ah_from_mcmember(&env->client->ibdev, 2,
						       &rec, NULL,
						       IB_GID_TYPE_IB, &ah),
			-EINVAL);
	tdev_destroy(te);
}

/* Bad input from the caller: refused at once */
static void mcast_bad_input(struct kunit *test)
{
	struct sar_env *env = test->priv;
	struct tdev_params eth = { .name = "ktsmb%d", .roce = true };
	struct tdev *te = tk_dev(test, &eth);
	struct ib_sa_mcmember_rec rec = { .join_state = BIT(FULLMEMBER_JOIN) };
	struct ib_device *dev = &env->client->ibdev;
	union ib_gid mgid;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_sa_join_multicast(&mt_client, dev, 1,
				NULL, 0, GFP_KERNEL, mt_cb, NULL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_sa_join_multicast(&mt_client, dev, 1,
				&rec, 0, GFP_KERNEL, NULL, NULL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_sa_join_multicast(NULL, dev, 1,
				&rec, 0, GFP_KERNEL, mt_cb, NULL)), -EINVAL);
	rec.join_state = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_sa_join_multicast(&mt_client, dev, 1,
				&rec, 0, GFP_KERNEL, mt_cb, NULL)), -EINVAL);
	rec.join_state = 0x10;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_sa_join_multicast(&mt_client, dev, 1,
				&rec, 0, GFP_KERNEL, mt_cb, NULL)), -EINVAL);
	rec.join_state = BIT(FULLMEMBER_JOIN);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_sa_join_multicast(&mt_client, dev, 2,
				&rec, 0, GFP_KERNEL, mt_cb, NULL)), -ENODEV);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_sa_join_multicast(&mt_client,
				&te->ibdev, 1, &rec, 0, GFP_KERNEL, mt_cb,
				NULL)), -ENODEV);
	mt_mgid(&mgid, 0x42);
	KUNIT_EXPECT_EQ(test, ib_sa_get_mcmember_rec(dev, 1, &mgid, &rec),
			-EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, ib_sa_get_mcmember_rec(&te->ibdev, 1, &mgid,
						     &rec), -ENODEV);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->sa.n_join), 0);
	tdev_destroy(te);
}

static struct kunit_case sa_mcast_cases[] = {
	KUNIT_CASE(mcast_join_leave),
	KUNIT_CASE(mcast_members_share),
	KUNIT_CASE(mcast_state_left_and_rejoined),
	KUNIT_CASE(mcast_sa_named),
	KUNIT_CASE(mcast_record_mismatch),
	KUNIT_CASE(mcast_record_selectors),
	KUNIT_CASE(mcast_refused_or_lost),
	KUNIT_CASE(mcast_callback_frees),
	KUNIT_CASE(mcast_free_while_joining),
	KUNIT_CASE(mcast_port_events),
	KUNIT_CASE(mcast_unregister_waits),
	KUNIT_CASE(mcast_ah_attr),
	KUNIT_CASE(mcast_bad_input),
	{}
};

static struct kunit_suite sa_mcast_suite = {
	.name = "rdma_core_sa_mcast",
	.init = mt_case_init,
	.exit = mt_case_exit,
	.test_cases = sa_mcast_cases,
};

kunit_test_suites(&sa_mcast_suite);
