/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A NETLINK_RDMA client for the suites of rdma_kunit_nl: a kernel socket
 * in the initial namespace that sends requests the way iproute2 and
 * rdma-core do, through the whole receive path of ib_core (permissions,
 * parsing, acknowledgements, dumps), and reads the answers back.
 *
 * One struct nlk per test (nlk_open(), freed with the test).  A request is
 * built in k->req (nlk_new(), then nla_put_*() on k->req) and sent with
 * nlk_doit() or nlk_dump(); the last reply stays in k->reply until the
 * next request.
 */
#ifndef RDMA_KUNIT_NLK_H
#define RDMA_KUNIT_NLK_H

#include <kunit/test.h>
#include <net/netlink.h>
#include <rdma/rdma_netlink.h>
#include "tdev.h"

struct socket;

struct nlk {
	struct kunit *test;
	struct socket *sock;
	u32 portid;		/* the socket's netlink port id */
	u32 seq;		/* of the last request */
	struct sk_buff *req;	/* the request being built */
	struct nlmsghdr *req_hdr;
	void *buf;		/* receive buffer, NLK_BUF bytes */
	struct nlmsghdr *reply;	/* copy of the last doit reply, or NULL */
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];	/* its attributes */
	int replies;		/* doit replies before the acknowledgement */
	int msgs;		/* messages of the last dump */
};

#define NLK_BUF 65536

struct nlk *nlk_open(struct kunit *test);
struct nlmsghdr *nlk_new(struct nlk *k, u8 cmd);
struct nlmsghdr *nlk_new_raw(struct nlk *k, u16 type, u16 flags);
int nlk_doit(struct nlk *k);
int nlk_dump(struct nlk *k,
	     int (*cb)(struct nlk *k, struct nlmsghdr *nlh, void *arg),
	     void *arg);
int nlk_send_raw(struct nlk *k, const void *data, size_t len);
int nlk_recv(struct nlk *k);
int nlk_join(struct nlk *k, unsigned int group, bool join);
int nlk_parse(struct nlmsghdr *nlh, struct nlattr **tb);

struct tdev *nlk_tdev(struct kunit *test, const struct tdev_params *p);

const struct cred *nlk_drop_cap(int cap);
void nlk_restore_cap(const struct cred *old);

/* A request for device @index. */
static inline struct nlmsghdr *nlk_new_dev(struct nlk *k, u8 cmd, u32 index)
{
	struct nlmsghdr *nlh = nlk_new(k, cmd);

	KUNIT_ASSERT_EQ(k->test,
			nla_put_u32(k->req, RDMA_NLDEV_ATTR_DEV_INDEX, index), 0);
	return nlh;
}

#endif
