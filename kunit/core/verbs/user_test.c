// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rdma_core_verbs_user: exports of the core that ib_uverbs'
 * standard objects (and drivers) call: the transport of a node type, a
 * port's link layer and immutable attributes, the GID table export of
 * QUERY_GID_TABLE, a user QP's creation (ib_create_qp_user()), the use
 * counts it takes on its PD and CQs (ib_qp_usecnt_inc/dec()), and the
 * RDMA cgroup charge of a user object (ib_rdmacg_try_charge/uncharge()).
 */
#include <kunit/test.h>
#include <rdma/ib_cache.h>
#include "core/user_verbs.h"
#include "tk.h"

static void user_node_transport(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_IB_CA),
			RDMA_TRANSPORT_IB);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_IB_SWITCH),
			RDMA_TRANSPORT_IB);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_IB_ROUTER),
			RDMA_TRANSPORT_IB);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_RNIC),
			RDMA_TRANSPORT_IWARP);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_USNIC),
			RDMA_TRANSPORT_USNIC);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_USNIC_UDP),
			RDMA_TRANSPORT_USNIC_UDP);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_UNSPECIFIED),
			RDMA_TRANSPORT_UNSPECIFIED);
}

static void user_link_layer(struct kunit *test)
{
	struct tdev_params pi = { .name = "ktuli%d", .ports = 2,
				  .link_layer = IB_LINK_LAYER_INFINIBAND };
	struct tdev_params pe = { .name = "ktule%d",
				  .link_layer = IB_LINK_LAYER_ETHERNET };
	struct tdev *ib = tk_dev(test, &pi);
	struct tdev *eth = tk_dev(test, &pe);

	KUNIT_EXPECT_EQ(test, rdma_port_get_link_layer(&ib->ibdev, 1),
			IB_LINK_LAYER_INFINIBAND);
	KUNIT_EXPECT_EQ(test, rdma_port_get_link_layer(&ib->ibdev, 2),
			IB_LINK_LAYER_INFINIBAND);
	KUNIT_EXPECT_EQ(test, rdma_port_get_link_layer(&eth->ibdev, 1),
			IB_LINK_LAYER_ETHERNET);
	tdev_destroy(eth);
	tdev_destroy(ib);
}

static void user_port_immutable(struct kunit *test)
{
	struct tdev_params p = { .name = "ktupi%d", .ports = 2,
				 .gid_tbl_len = 8, .pkey_tbl_len = 4 };
	struct tdev *td = tk_dev(test, &p);
	const struct ib_port_immutable *im;

	im = ib_port_immutable_read(&td->ibdev, 2);
	KUNIT_ASSERT_NOT_NULL(test, im);
	KUNIT_EXPECT_EQ(test, im->gid_tbl_len, 8);
	KUNIT_EXPECT_EQ(test, im->pkey_tbl_len, 4);
	KUNIT_EXPECT_NOT_NULL(test, ib_port_immutable_read(&td->ibdev, 1));
	/* Ports are numbered from 1 to phys_port_cnt */
	KUNIT_EXPECT_NULL(test, ib_port_immutable_read(&td->ibdev, 0));
	KUNIT_EXPECT_NULL(test, ib_port_immutable_read(&td->ibdev, 3));
	tdev_destroy(td);
}

/* The valid GIDs of a device, as rdma_get_gid_attr() sees them. */
static int user_count_gids(struct ib_device *dev)
{
	const struct ib_gid_attr *attr;
	int n = 0, i;
	u32 port;

	rdma_for_each_port(dev, port) {
		for (i = 0; i < dev->port_data[port].immutable.gid_tbl_len; i++) {
			attr = rdma_get_gid_attr(dev, port, i);
			if (IS_ERR(attr))
				continue;
			n++;
			rdma_put_gid_attr(attr);
		}
	}
	return n;
}

static void user_gid_table(struct kunit *test)
{
	struct tdev_params p = { .name = "ktugt%d", .ports = 2 };
	struct tdev *td = tk_dev(test, &p);
	struct ib_device *dev = &td->ibdev;
	struct ib_uverbs_gid_entry *e;
	const struct ib_gid_attr *attr;
	int want = user_count_gids(dev);
	ssize_t n;
	int i;

	KUNIT_ASSERT_GT(test, want, 0);
	e = kunit_kcalloc(test, want + 4, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	n = rdma_query_gid_table(dev, e, want + 4);
	KUNIT_ASSERT_EQ(test, n, (ssize_t)want);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_TRUE(test, rdma_is_port_valid(dev, e[i].port_num));
		attr = rdma_get_gid_attr(dev, e[i].port_num, e[i].gid_index);
		KUNIT_ASSERT_FALSE(test, IS_ERR(attr));
		KUNIT_EXPECT_EQ(test, memcmp(e[i].gid, attr->gid.raw, 16), 0);
		KUNIT_EXPECT_EQ(test, e[i].gid_type, (u32)attr->gid_type);
		rdma_put_gid_attr(attr);
	}
	/* No room for every entry: -EINVAL, as QUERY_GID_TABLE answers */
	KUNIT_EXPECT_EQ(test, rdma_query_gid_table(dev, e, want - 1),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_table(dev, e, 0),
			(ssize_t)-EINVAL);
	tdev_destroy(td);
}

/* A PD and a CQ on a new test device, for a QP. */
static struct tdev *user_pd_cq(struct kunit *test, const char *name,
			       struct ib_pd **pd, struct ib_cq **cq)
{
	struct tdev_params p = { .name = name };
	struct tdev *td = tk_dev(test, &p);

	*pd = ib_alloc_pd(&td->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(*pd));
	*cq = ib_alloc_cq(&td->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(*cq));
	return td;
}

static void user_init_attr(struct ib_qp_init_attr *a, struct ib_cq *cq,
			   enum ib_qp_type type)
{
	*a = (struct ib_qp_init_attr){
		.qp_type = type, .send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
}

static void user_create_qp_user(struct kunit *test)
{
	struct ib_qp_init_attr a;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct tdev *td = user_pd_cq(test, "ktucq%d", &pd, &cq);

	user_init_attr(&a, cq, IB_QPT_RC);
	qp = ib_create_qp_user(&td->ibdev, pd, &a, NULL, NULL, "kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	KUNIT_EXPECT_PTR_EQ(test, qp->pd, pd);
	KUNIT_EXPECT_PTR_EQ(test, qp->send_cq, cq);
	KUNIT_EXPECT_EQ(test, qp->qp_type, IB_QPT_RC);
	KUNIT_EXPECT_NULL(test, qp->uobject);
	KUNIT_EXPECT_PTR_EQ(test, qp->real_qp, qp);
	/* The caller takes the use counts (ib_uverbs does it after) */
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	ib_qp_usecnt_inc(qp);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);

	/* A type the device refuses: nothing is left behind */
	user_init_attr(&a, NULL, IB_QPT_XRC_TGT);
	qp = ib_create_qp_user(&td->ibdev, pd, &a, NULL, NULL, "kunit");
	KUNIT_EXPECT_TRUE(test, IS_ERR(qp));
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);

	ib_free_cq(cq);
	ib_dealloc_pd(pd);
	tdev_destroy(td);
}

static void user_qp_usecnt(struct kunit *test)
{
	struct ib_qp_init_attr a;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct tdev *td = user_pd_cq(test, "ktuqu%d", &pd, &cq);
	int pd0, cq0;

	user_init_attr(&a, cq, IB_QPT_UD);
	qp = ib_create_qp_user(&td->ibdev, pd, &a, NULL, NULL, "kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	pd0 = atomic_read(&pd->usecnt);
	cq0 = atomic_read(&cq->usecnt);
	ib_qp_usecnt_inc(qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), pd0 + 1);
	/* The CQ is both the send and the receive CQ: counted twice */
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), cq0 + 2);
	/* In use: neither can go */
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), -EBUSY);
	ib_qp_usecnt_dec(qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), pd0);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), cq0);
	/* The destroy gives back what ib_qp_usecnt_inc() took */
	ib_qp_usecnt_inc(qp);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), pd0);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), cq0);
	ib_free_cq(cq);
	ib_dealloc_pd(pd);
	tdev_destroy(td);
}

static void user_cgroup_charge(struct kunit *test)
{
	struct tdev_params p = { .name = "ktucg%d" };
	struct tdev *td = tk_dev(test, &p);
	struct ib_rdmacg_object obj = {};
	struct ib_rdmacg_object bad = {};

	/* No limit set: the charge goes to the loading task's cgroup */
	KUNIT_EXPECT_EQ(test, ib_rdmacg_try_charge(&obj, &td->ibdev,
						   RDMACG_RESOURCE_HCA_OBJECT),
			0);
	KUNIT_EXPECT_NOT_NULL(test, obj.cg);
	ib_rdmacg_uncharge(&obj, &td->ibdev, RDMACG_RESOURCE_HCA_OBJECT);
	/* A resource the controller does not know: refused, nothing charged */
	KUNIT_EXPECT_EQ(test, ib_rdmacg_try_charge(&bad, &td->ibdev,
						   RDMACG_RESOURCE_MAX),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, bad.cg);
	tdev_destroy(td);
}

static struct kunit_case user_cases[] = {
	KUNIT_CASE(user_node_transport),
	KUNIT_CASE(user_link_layer),
	KUNIT_CASE(user_port_immutable),
	KUNIT_CASE(user_gid_table),
	KUNIT_CASE(user_create_qp_user),
	KUNIT_CASE(user_qp_usecnt),
	KUNIT_CASE(user_cgroup_charge),
	{}
};

static struct kunit_suite user_suite = {
	.name = "rdma_core_verbs_user",
	.test_cases = user_cases,
};

kunit_test_suites(&user_suite);
