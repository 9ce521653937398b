// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_mcast: core/verbs/mcast.c, attaching UD QPs to
 * multicast groups and detaching them: the use count a group holds on
 * its QP, the driver's refusals passed on uncounted, and the core's own
 * refusals (no multicast on the device, a GID that is not multicast, a
 * QP that is not UD, a LID that is not multicast on InfiniBand).
 */
#include <kunit/test.h>
#include "tk.h"

#define MC_LID	0xc001

/* A device, a PD, a CQ and a UD and an RC QP on them. */
struct mc {
	struct tdev *td;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *ud, *rc;
};

static struct ib_qp *mc_qp(struct kunit *test, struct mc *m,
			   enum ib_qp_type type)
{
	struct ib_qp_init_attr a = {
		.qp_type = type, .send_cq = m->cq, .recv_cq = m->cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_qp *qp = ib_create_qp(m->pd, &a);

	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	return qp;
}

static void mc_make(struct kunit *test, struct mc *m,
		    const struct tdev_params *p)
{
	m->td = tk_dev(test, p);
	m->pd = ib_alloc_pd(&m->td->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m->pd));
	m->cq = ib_alloc_cq(&m->td->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m->cq));
	m->ud = mc_qp(test, m, IB_QPT_UD);
	m->rc = mc_qp(test, m, IB_QPT_RC);
}

static void mc_free(struct kunit *test, struct mc *m)
{
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(m->rc), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(m->ud), 0);
	ib_free_cq(m->cq);
	ib_dealloc_pd(m->pd);
	tdev_destroy(m->td);
}

/* ff12:401b::<n>, an IPoIB-style multicast GID */
static union ib_gid mc_gid(u8 n)
{
	union ib_gid g = {};

	g.raw[0] = 0xff;
	g.raw[1] = 0x12;
	g.raw[2] = 0x40;
	g.raw[3] = 0x1b;
	g.raw[15] = n;
	return g;
}

static void mcast_attach_detach(struct kunit *test)
{
	struct tdev_params p = { .name = "ktmc%d", .mcast = true };
	union ib_gid g1 = mc_gid(1), g2 = mc_gid(2);
	struct mc m;

	mc_make(test, &m, &p);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g1, MC_LID), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g2, MC_LID + 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 2);
	KUNIT_EXPECT_EQ(test, tdev_qp_mcast_groups(m.ud), 2);

	/* The hardware refuses a second join: not counted */
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g1, MC_LID), -EEXIST);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 2);

	/* Attached: the QP cannot be destroyed */
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(m.ud), -EBUSY);
	KUNIT_EXPECT_EQ(test, tdev_qp_mcast_groups(m.ud), 2);

	KUNIT_EXPECT_EQ(test, ib_detach_mcast(m.ud, &g1, MC_LID), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(m.ud, &g2, MC_LID + 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 0);
	KUNIT_EXPECT_EQ(test, tdev_qp_mcast_groups(m.ud), 0);

	/* A group not joined: the hardware's error, not counted */
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(m.ud, &g1, MC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 0);
	mc_free(test, &m);
}

static void mcast_bad_input(struct kunit *test)
{
	struct tdev_params p = { .name = "ktmcb%d", .mcast = true };
	union ib_gid g = mc_gid(1), uni = {};
	struct ib_qp_attr init = {
		.qp_state = IB_QPS_INIT, .port_num = 1, .qkey = 0x11110000,
	};
	struct mc m;

	mc_make(test, &m, &p);
	/* fe80::1 is unicast */
	uni.raw[0] = 0xfe;
	uni.raw[1] = 0x80;
	uni.raw[15] = 1;
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &uni, MC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(m.ud, &uni, MC_LID), -EINVAL);
	/* Only UD QPs join groups */
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.rc, &g, MC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.rc->usecnt), 0);
	/* On InfiniBand the LID must be a multicast LID, not permissive */
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g, 0x0001), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g, 0xbfff), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g, 0xffff), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(m.ud, &g, 0x0001), -EINVAL);
	/* Also once the QP's port is known */
	KUNIT_ASSERT_EQ(test, ib_modify_qp(m.ud, &init,
					   IB_QP_STATE | IB_QP_PKEY_INDEX |
					   IB_QP_PORT | IB_QP_QKEY), 0);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g, 0x0001), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 0);
	KUNIT_EXPECT_EQ(test, tdev_qp_mcast_groups(m.ud), 0);
	/* The lowest multicast LID is one */
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g, 0xc000), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(m.ud, &g, 0xc000), 0);
	mc_free(test, &m);
}

/* On Ethernet (RoCE) the LID is ignored. */
static void mcast_ethernet_lid(struct kunit *test)
{
	struct tdev_params p = { .name = "ktmce%d", .mcast = true,
				 .link_layer = IB_LINK_LAYER_ETHERNET };
	union ib_gid g = mc_gid(7);
	struct mc m;

	mc_make(test, &m, &p);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 1);
	KUNIT_EXPECT_EQ(test, tdev_qp_mcast_groups(m.ud), 1);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(m.ud, &g, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 0);
	mc_free(test, &m);
}

static void mcast_unsupported(struct kunit *test)
{
	struct tdev_params p = { .name = "ktmcn%d" };
	union ib_gid g = mc_gid(1);
	struct mc m;

	mc_make(test, &m, &p);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(m.ud, &g, MC_LID), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(m.ud, &g, MC_LID), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.ud->usecnt), 0);
	mc_free(test, &m);
}

static struct kunit_case mcast_cases[] = {
	KUNIT_CASE(mcast_attach_detach),
	KUNIT_CASE(mcast_bad_input),
	KUNIT_CASE(mcast_ethernet_lid),
	KUNIT_CASE(mcast_unsupported),
	{}
};

static struct kunit_suite mcast_suite = {
	.name = "rdma_core_mcast",
	.test_cases = mcast_cases,
};

kunit_test_suites(&mcast_suite);
