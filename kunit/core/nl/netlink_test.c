// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of core/nl/netlink.c: the NETLINK_RDMA receive path (which
 * messages reach which client, with which permission, acknowledged how)
 * and the rdma_nl_* / ibnl_* exports.
 *
 * The suite registers tables of its own for RDMA_NL_LS and RDMA_NL_IWCM,
 * which no module of ours uses yet; it never sends a message to a client
 * without a table of it, which would make the core load a module.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/net.h>
#include <net/net_namespace.h>
#include "nlk.h"

/* What the suite's handlers saw. */
static atomic_t nlt_doits, nlt_dumps;

static int nlt_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack)
{
	atomic_inc(&nlt_doits);
	return 0;
}

static int nlt_doit_fails(struct sk_buff *skb, struct nlmsghdr *nlh,
			  struct netlink_ext_ack *extack)
{
	atomic_inc(&nlt_doits);
	return -ENOSPC;
}

/* A dump of one message carrying attribute 1 = 0x1234, then its end. */
static int nlt_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlmsghdr *nlh;

	atomic_inc(&nlt_dumps);
	if (cb->args[0])
		return 0;
	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			cb->nlh->nlmsg_type, 0, NLM_F_MULTI);
	if (!nlh || nla_put_u32(skb, 1, 0x1234))
		return -EMSGSIZE;
	nlmsg_end(skb, nlh);
	cb->args[0] = 1;
	return skb->len;
}

static const struct rdma_nl_cbs nlt_ls_table[RDMA_NL_LS_NUM_OPS] = {
	[RDMA_NL_LS_OP_RESOLVE] = { .doit = nlt_doit },
	[RDMA_NL_LS_OP_SET_TIMEOUT] = { .doit = nlt_doit,
					.flags = RDMA_NL_ADMIN_PERM },
	[RDMA_NL_LS_OP_IP_RESOLVE] = { .doit = nlt_doit_fails },
};

static const struct rdma_nl_cbs nlt_ls_other[RDMA_NL_LS_NUM_OPS] = {
	[RDMA_NL_LS_OP_RESOLVE] = { .doit = nlt_doit_fails },
};

static const struct rdma_nl_cbs nlt_iwcm_table[RDMA_NL_IWPM_NUM_OPS] = {
	[RDMA_NL_IWPM_REG_PID] = { .dump = nlt_dump },
	[RDMA_NL_IWPM_ADD_MAPPING] = { .doit = nlt_doit },
};

static int nlt_init(struct kunit *test)
{
	atomic_set(&nlt_doits, 0);
	atomic_set(&nlt_dumps, 0);
	test->priv = nlk_open(test);
	return 0;
}

/* A client's doit gets requests; its error comes back in the ack. */
static void nlt_register_doit(struct kunit *test)
{
	struct nlk *k = test->priv;

	rdma_nl_register(RDMA_NL_LS, nlt_ls_table);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_RESOLVE),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 1);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_IP_RESOLVE),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 2);
	/* Past the client's operations. */
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_NUM_OPS),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 2);
	rdma_nl_unregister(RDMA_NL_LS);
}

/*
 * A refused request is answered with its error even without NLM_F_ACK;
 * a successful one without NLM_F_ACK gets no answer.
 */
static void nlt_error_without_ack(struct kunit *test)
{
	struct nlk *k = test->priv;

	rdma_nl_register(RDMA_NL_LS, nlt_ls_table);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_NUM_OPS),
		    NLM_F_REQUEST);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_IP_RESOLVE),
		    NLM_F_REQUEST);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -ENOSPC);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_RESOLVE),
		    NLM_F_REQUEST);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -ETIME);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 2);
	rdma_nl_unregister(RDMA_NL_LS);
}

/*
 * The local service's messages reach it without NLM_F_REQUEST and never
 * as dumps; an unregistered table is not called.
 */
static void nlt_ls_replies(struct kunit *test)
{
	struct nlk *k = test->priv;

	rdma_nl_register(RDMA_NL_LS, nlt_ls_table);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_RESOLVE),
		    NLM_F_ACK | NLM_F_DUMP);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_dumps), 0);
	rdma_nl_unregister(RDMA_NL_LS);
	/* No table: the core looks for a module, finds none, refuses. */
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 1);
}

/* iwpm's operations are all answered as dumps. */
static void nlt_iwcm_dumps(struct kunit *test)
{
	struct nlk *k = test->priv;

	rdma_nl_register(RDMA_NL_IWCM, nlt_iwcm_table);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_IWCM, RDMA_NL_IWPM_REG_PID),
		    NLM_F_REQUEST);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, k->msgs, 1);
	KUNIT_EXPECT_GE(test, atomic_read(&nlt_dumps), 1);
	/* A doit-only operation of iwpm has no dump to answer with. */
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_IWCM, RDMA_NL_IWPM_ADD_MAPPING),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	/* An operation without handlers at all. */
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_IWCM,
					RDMA_NL_IWPM_REMOVE_MAPPING),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 0);
	rdma_nl_unregister(RDMA_NL_IWCM);
}

/* RDMA_NL_ADMIN_PERM operations need CAP_NET_ADMIN. */
static void nlt_admin_perm(struct kunit *test)
{
	struct nlk *k = test->priv;
	const struct cred *old;

	rdma_nl_register(RDMA_NL_LS, nlt_ls_table);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_SET_TIMEOUT),
		    NLM_F_REQUEST | NLM_F_ACK);
	old = nlk_drop_cap(CAP_NET_ADMIN);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EPERM);
	nlk_restore_cap(old);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&nlt_doits), 1);
	rdma_nl_unregister(RDMA_NL_LS);
}

/* A second table, an unknown client or no table is refused. */
static void nlt_register_bad(struct kunit *test)
{
	struct nlk *k = test->priv;

	rdma_nl_register(RDMA_NL_LS, nlt_ls_table);
	rdma_nl_register(RDMA_NL_LS, nlt_ls_other);
	rdma_nl_register(RDMA_NL_NUM_CLIENTS, nlt_ls_table);
	rdma_nl_register(RDMA_NL_RSVD, nlt_ls_table);
	rdma_nl_register(RDMA_NL_IWCM, NULL);
	rdma_nl_unregister(RDMA_NL_NUM_CLIENTS + 7);
	/* The first table still answers. */
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_RESOLVE),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	rdma_nl_unregister(RDMA_NL_LS);
	/* Client 0 has no operations at all (op 20: not a control type). */
	nlk_new_raw(k, RDMA_NL_GET_TYPE(0, 20),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
}

/* Unknown operations and missing handlers of nldev. */
static void nlt_bad_types(struct kunit *test)
{
	struct nlk *k = test->priv;

	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_NUM_OPS),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_UNSPEC),
		    NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
	/* SET has no dump. */
	nlk_new(k, RDMA_NLDEV_CMD_SET);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
	/* GET_CHARDEV has no dump either. */
	nlk_new(k, RDMA_NLDEV_CMD_GET_CHARDEV);
	KUNIT_EXPECT_EQ(test, nlk_dump(k, NULL, NULL), -EINVAL);
	nlk_new_raw(k, 0x7fff, NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -EINVAL);
}

/* Not requests, or control messages: acknowledged if asked, not handled. */
static void nlt_not_requests(struct kunit *test)
{
	struct nlk *k = test->priv;

	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET),
		    NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, k->replies, 0);
	nlk_new_raw(k, NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), 0);
	KUNIT_EXPECT_EQ(test, k->replies, 0);
	/* Without NLM_F_ACK nothing at all comes back. */
	nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET), 0);
	KUNIT_EXPECT_EQ(test, nlk_doit(k), -ETIME);
}

/* Several messages in one datagram are each answered; a torn one ends it. */
static void nlt_batches(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct nlmsghdr *hdr, *nlh;
	u8 buf[3 * NLMSG_HDRLEN];
	int len, acks = 0, i;

	memset(buf, 0, sizeof(buf));
	for (i = 0; i < 2; i++) {
		hdr = (struct nlmsghdr *)(buf + i * NLMSG_HDRLEN);
		hdr->nlmsg_len = NLMSG_HDRLEN;
		hdr->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
						   RDMA_NLDEV_CMD_SYS_GET);
		hdr->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		hdr->nlmsg_seq = 100 + i;
	}
	/* The third claims more bytes than there are. */
	hdr = (struct nlmsghdr *)(buf + 2 * NLMSG_HDRLEN);
	hdr->nlmsg_len = 4096;
	hdr->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET);
	hdr->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	KUNIT_ASSERT_EQ(test, nlk_send_raw(k, buf, sizeof(buf)), 0);
	while ((len = nlk_recv(k)) > 0)
		for (nlh = k->buf; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len))
			acks += nlh->nlmsg_type == NLMSG_ERROR;
	KUNIT_EXPECT_EQ(test, acks, 2);
	/* A header shorter than a header is dropped silently. */
	hdr = (struct nlmsghdr *)buf;
	hdr->nlmsg_len = 8;
	KUNIT_ASSERT_EQ(test, nlk_send_raw(k, buf, NLMSG_HDRLEN), 0);
	KUNIT_EXPECT_EQ(test, nlk_recv(k), -EAGAIN);
}

/* ibnl_put_msg()/ibnl_put_attr() and unicasts to the suite's socket. */
static void nlt_unicast(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	u32 value = 0xabcd;
	void *data;
	int len;

	skb = nlmsg_new(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	data = ibnl_put_msg(skb, &nlh, 77, 0, RDMA_NL_LS,
			    RDMA_NL_LS_OP_RESOLVE, NLM_F_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_EXPECT_EQ(test, ibnl_put_attr(skb, nlh, sizeof(value), &value,
					    LS_NLA_TYPE_TIMEOUT), 0);
	nlmsg_end(skb, nlh);
	KUNIT_ASSERT_EQ(test, rdma_nl_unicast(&init_net, skb, k->portid), 0);
	len = nlk_recv(k);
	KUNIT_ASSERT_GT(test, len, 0);
	nlh = k->buf;
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_RESOLVE));
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_seq, 77);
	KUNIT_EXPECT_EQ(test, nla_get_u32(nlmsg_data(nlh)), 0xabcd);

	skb = nlmsg_new(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_NOT_NULL(test, ibnl_put_msg(skb, &nlh, 78, 0, RDMA_NL_LS,
						 RDMA_NL_LS_OP_RESOLVE, 0));
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, rdma_nl_unicast_wait(&init_net, skb, k->portid),
			0);
	KUNIT_EXPECT_GT(test, nlk_recv(k), 0);
	KUNIT_EXPECT_EQ(test, ((struct nlmsghdr *)k->buf)->nlmsg_seq, 78);

	/* Nobody at that port. */
	skb = nlmsg_new(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_NOT_NULL(test, ibnl_put_msg(skb, &nlh, 79, 0, RDMA_NL_LS,
						 RDMA_NL_LS_OP_RESOLVE, 0));
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, rdma_nl_unicast(&init_net, skb, 0x7ffffff0),
			-ECONNREFUSED);
	skb = nlmsg_new(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, rdma_nl_unicast_wait(&init_net, skb, 0x7ffffff0),
			-ECONNREFUSED);
}

/* A message or attribute that does not fit leaves nothing behind. */
static void nlt_put_full(struct kunit *test)
{
	u8 big[512] = {};
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	unsigned int len;

	skb = alloc_skb(128, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_NULL(test, ibnl_put_msg(skb, &nlh, 1, 4096, RDMA_NL_LS,
					     RDMA_NL_LS_OP_RESOLVE, 0));
	KUNIT_EXPECT_NULL(test, nlh);
	KUNIT_EXPECT_EQ(test, skb->len, 0);
	KUNIT_ASSERT_NOT_NULL(test, ibnl_put_msg(skb, &nlh, 1, 0, RDMA_NL_LS,
						 RDMA_NL_LS_OP_RESOLVE, 0));
	len = skb->len;
	KUNIT_EXPECT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, ibnl_put_attr(skb, nlh, sizeof(big), big, 1),
			-EMSGSIZE);
	/* The whole message is cancelled. */
	KUNIT_EXPECT_EQ(test, skb->len, 0);
	kfree_skb(skb);
}

/* Listeners of a group, and messages sent to it. */
static void nlt_multicast(struct kunit *test)
{
	struct nlk *k = test->priv;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;

	KUNIT_EXPECT_FALSE(test, rdma_nl_chk_listeners(RDMA_NL_GROUP_LS));
	skb = nlmsg_new(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_NOT_NULL(test, ibnl_put_msg(skb, &nlh, 5, 0, RDMA_NL_LS,
						 RDMA_NL_LS_OP_RESOLVE, 0));
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, rdma_nl_multicast(&init_net, skb, RDMA_NL_GROUP_LS,
						GFP_KERNEL), -ESRCH);

	KUNIT_ASSERT_EQ(test, nlk_join(k, RDMA_NL_GROUP_LS, true), 0);
	KUNIT_EXPECT_TRUE(test, rdma_nl_chk_listeners(RDMA_NL_GROUP_LS));
	KUNIT_EXPECT_FALSE(test, rdma_nl_chk_listeners(RDMA_NL_GROUP_IWPM));
	skb = nlmsg_new(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_NOT_NULL(test, ibnl_put_msg(skb, &nlh, 6, 0, RDMA_NL_LS,
						 RDMA_NL_LS_OP_RESOLVE, 0));
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, rdma_nl_multicast(&init_net, skb, RDMA_NL_GROUP_LS,
						GFP_KERNEL), 0);
	KUNIT_EXPECT_GT(test, nlk_recv(k), 0);
	KUNIT_EXPECT_EQ(test, ((struct nlmsghdr *)k->buf)->nlmsg_seq, 6);
	KUNIT_ASSERT_EQ(test, nlk_join(k, RDMA_NL_GROUP_LS, false), 0);
	KUNIT_EXPECT_FALSE(test, rdma_nl_chk_listeners(RDMA_NL_GROUP_LS));
}

static struct kunit_case nlt_cases[] = {
	KUNIT_CASE(nlt_register_doit),
	KUNIT_CASE(nlt_error_without_ack),
	KUNIT_CASE(nlt_ls_replies),
	KUNIT_CASE(nlt_iwcm_dumps),
	KUNIT_CASE(nlt_admin_perm),
	KUNIT_CASE(nlt_register_bad),
	KUNIT_CASE(nlt_bad_types),
	KUNIT_CASE(nlt_not_requests),
	KUNIT_CASE(nlt_batches),
	KUNIT_CASE(nlt_unicast),
	KUNIT_CASE(nlt_put_full),
	KUNIT_CASE(nlt_multicast),
	{}
};

static struct kunit_suite nlt_suite = {
	.name = "rdma_netlink",
	.init = nlt_init,
	.test_cases = nlt_cases,
};

kunit_test_suite(nlt_suite);
