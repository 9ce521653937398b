// SPDX-License-Identifier: GPL-2.0
/*
 * The suites' NETLINK_RDMA client (nlk.h).  Requests carry a destination
 * address, as userspace's do, so that permission checks look at the
 * sending task's capabilities (nlk_drop_cap() takes one away).
 */
#include <linux/cred.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <net/net_namespace.h>
#include "nlk.h"
#include "rdma_version.h"

static void nlk_release(struct kunit_resource *res)
{
	struct nlk *k = res->data;

	if (k->sock)
		sock_release(k->sock);
	kfree_skb(k->req);
	kfree(k->reply);
	kfree(k->buf);
	kfree(k);
}

static int nlk_res_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

/**
 * nlk_open() - a bound NETLINK_RDMA socket, closed when the test ends
 * @test: the test
 *
 * Return: the client; the test fails if it cannot be made.
 */
struct nlk *nlk_open(struct kunit *test)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	struct nlk *k = kzalloc(sizeof(*k), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->test = test;
	k->buf = kmalloc(NLK_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kunit_alloc_resource(test, nlk_res_init,
							 nlk_release,
							 GFP_KERNEL, k));
	KUNIT_ASSERT_NOT_NULL(test, k->buf);
	ret = sock_create_kern(&init_net, PF_NETLINK, SOCK_RAW, NETLINK_RDMA,
			       &k->sock);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kernel_bind(k->sock, (struct sockaddr *)&addr,
					  sizeof(addr)), 0);
	KUNIT_ASSERT_GT(test, kernel_getsockname(k->sock,
						 (struct sockaddr *)&addr), 0);
	k->portid = addr.nl_pid;
	return k;
}

/**
 * nlk_new_raw() - start a request of any type and flags
 * @k: the client
 * @type: nlmsg_type
 * @flags: nlmsg_flags
 *
 * Return: the request's header; attributes go to k->req.
 */
struct nlmsghdr *nlk_new_raw(struct nlk *k, u16 type, u16 flags)
{
	kfree_skb(k->req);
	k->req = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(k->test, k->req);
	k->req_hdr = nlmsg_put(k->req, 0, ++k->seq, type, 0, flags);
	KUNIT_ASSERT_NOT_NULL(k->test, k->req_hdr);
	return k->req_hdr;
}

/**
 * nlk_new() - start an nldev request, flagged as iproute2 flags a doit
 * @k: the client
 * @cmd: the nldev command
 *
 * Return: the request's header.
 */
struct nlmsghdr *nlk_new(struct nlk *k, u8 cmd)
{
	return nlk_new_raw(k, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd),
			   NLM_F_REQUEST | NLM_F_ACK);
}

/**
 * nlk_send_raw() - send bytes to the kernel's socket
 * @k: the client
 * @data: one or more messages, or anything
 * @len: their length
 *
 * Return: 0 or the errno of sending.
 */
int nlk_send_raw(struct nlk *k, const void *data, size_t len)
{
	struct sockaddr_nl dst = { .nl_family = AF_NETLINK };
	struct kvec vec = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = { .msg_name = &dst, .msg_namelen = sizeof(dst) };
	int ret = kernel_sendmsg(k->sock, &msg, &vec, 1, len);

	return ret < 0 ? ret : 0;
}

/**
 * nlk_recv() - one datagram of answers into k->buf, without waiting
 * @k: the client
 *
 * Return: its length, or -EAGAIN if nothing is queued.
 */
int nlk_recv(struct nlk *k)
{
	struct kvec vec = { .iov_base = k->buf, .iov_len = NLK_BUF };
	struct msghdr msg = {};

	return kernel_recvmsg(k->sock, &msg, &vec, 1, NLK_BUF, MSG_DONTWAIT);
}

/**
 * nlk_join() - join or leave a multicast group
 * @k: the client
 * @group: the group
 * @join: join, or leave
 *
 * Return: 0 or the errno of setsockopt().
 */
int nlk_join(struct nlk *k, unsigned int group, bool join)
{
	int opt = join ? NETLINK_ADD_MEMBERSHIP : NETLINK_DROP_MEMBERSHIP;

	return k->sock->ops->setsockopt(k->sock, SOL_NETLINK, opt,
					KERNEL_SOCKPTR(&group), sizeof(group));
}

/**
 * nlk_parse() - the nldev attributes of a message, without a policy
 * @nlh: the message
 * @tb: RDMA_NLDEV_ATTR_MAX entries
 *
 * Return: 0 or the errno of a malformed message.
 */
int nlk_parse(struct nlmsghdr *nlh, struct nlattr **tb)
{
	return nlmsg_parse_deprecated(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX - 1,
				      NULL, NULL);
}

static int nlk_send_req(struct nlk *k)
{
	nlmsg_end(k->req, k->req_hdr);
	return nlk_send_raw(k, k->req->data, k->req->len);
}

/* Keep a doit's reply in k->reply and its attributes in k->tb. */
static void nlk_keep_reply(struct nlk *k, struct nlmsghdr *nlh)
{
	kfree(k->reply);
	k->reply = kmemdup(nlh, nlh->nlmsg_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(k->test, k->reply);
	KUNIT_ASSERT_EQ(k->test, nlk_parse(k->reply, k->tb), 0);
	k->replies++;
}

/**
 * nlk_doit() - send the request and read until its acknowledgement
 * @k: the client, with a request from nlk_new() (NLM_F_ACK set)
 *
 * The replies before the acknowledgement are counted in k->replies; the
 * last is kept in k->reply with its attributes in k->tb.
 *
 * Return: the acknowledgement's error (0 for success), or -ETIME if none
 * came.
 */
int nlk_doit(struct nlk *k)
{
	struct nlmsghdr *nlh;
	int len, ret;

	kfree(k->reply);
	k->reply = NULL;
	memset(k->tb, 0, sizeof(k->tb));
	k->replies = 0;
	ret = nlk_send_req(k);
	if (ret)
		return ret;
	while ((len = nlk_recv(k)) > 0) {
		for (nlh = k->buf; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
			KUNIT_EXPECT_EQ(k->test, nlh->nlmsg_seq, k->seq);
			if (nlh->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)nlmsg_data(nlh))->error;
			nlk_keep_reply(k, nlh);
		}
	}
	return -ETIME;
}

/**
 * nlk_dump() - send the request as a dump and read it to its end
 * @k: the client, with a request from nlk_new(); NLM_F_DUMP is added
 * @cb: called for every message of the dump but the last; its error ends
 *	the dump early
 * @arg: passed to @cb
 *
 * Return: the dump's error (0 for a complete dump), or -ETIME if it did
 * not end.
 */
int nlk_dump(struct nlk *k,
	     int (*cb)(struct nlk *k, struct nlmsghdr *nlh, void *arg),
	     void *arg)
{
	struct nlmsghdr *nlh;
	int len, ret;

	k->msgs = 0;
	k->req_hdr->nlmsg_flags |= NLM_F_DUMP;
	ret = nlk_send_req(k);
	if (ret)
		return ret;
	while ((len = nlk_recv(k)) > 0) {
		for (nlh = k->buf; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
			KUNIT_EXPECT_EQ(k->test, nlh->nlmsg_seq, k->seq);
			if (nlh->nlmsg_type == NLMSG_DONE)
				return nlmsg_len(nlh) >= sizeof(int) ?
				       *(int *)nlmsg_data(nlh) : 0;
			if (nlh->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)nlmsg_data(nlh))->error;
			KUNIT_EXPECT_TRUE(k->test, nlh->nlmsg_flags & NLM_F_MULTI);
			k->msgs++;
			ret = cb ? cb(k, nlh, arg) : 0;
			if (ret)
				return ret;
		}
	}
	return -ETIME;
}

static void nlk_tdev_release(struct kunit_resource *res)
{
	tdev_destroy(res->data);
}

static int nlk_tdev_init(struct kunit_resource *res, void *context)
{
	struct tdev *td = tdev_create_registered(context);

	if (IS_ERR(td))
		return PTR_ERR(td);
	res->data = td;
	return 0;
}

/**
 * nlk_tdev() - a registered test device, destroyed when the test ends
 * @test: the test
 * @p: its parameters (tdev_create())
 *
 * Return: the device; the test fails if it cannot be made.
 */
struct tdev *nlk_tdev(struct kunit *test, const struct tdev_params *p)
{
	struct tdev *td = kunit_alloc_resource(test, nlk_tdev_init,
					       nlk_tdev_release, GFP_KERNEL,
					       (void *)p);

	KUNIT_ASSERT_NOT_NULL(test, td);
	return td;
}

/**
 * nlk_drop_cap() - take a capability away from the current task
 * @cap: the capability, e.g. CAP_NET_ADMIN
 *
 * Return: the credentials to give back with nlk_restore_cap().
 */
const struct cred *nlk_drop_cap(int cap)
{
	struct cred *new = prepare_creds();
	const struct cred *old;

	if (!new)
		return NULL;
	cap_lower(new->cap_effective, cap);
	old = override_creds(new);
	put_cred(new);
	return old;
}

void nlk_restore_cap(const struct cred *old)
{
	if (old)
		revert_creds(old);
}

MODULE_DESCRIPTION("KUnit suites of RDMA netlink, resource tracking and hardware counters");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
