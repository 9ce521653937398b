// SPDX-License-Identifier: GPL-2.0
/*
 * NETLINK_RDMA: the kernel socket's receive path and the API of the
 * modules that answer on it (rdma_nl_register() and the send helpers).
 *
 * A message's type names a client (RDMA_NL_GET_CLIENT(): iwpm, the SA's
 * local service, nldev) and one of its operations (RDMA_NL_GET_OP()).  A
 * client registers one table of operations.  nl_clients[].table is set
 * without a lock (a pointer published once) and cleared under the client's
 * rwsem held for write; every message is handled with that rwsem held for
 * read, so rdma_nl_unregister() returns only when no handler of the table
 * runs (dumps continue later from the socket and must outlive it: their
 * modules unregister before they go).
 *
 * The sockets themselves, one per network namespace, are netns.c's.
 */
#include "abi/ib_core/netlink.h"
#include "nl/internal.h"

/* One client of NETLINK_RDMA. */
struct nl_client {
	/* The operation table; read with READ_ONCE, cleared under @sem. */
	const struct rdma_nl_cbs *table;
	/* Held for read while a message uses @table. */
	struct rw_semaphore sem;
};

static struct nl_client nl_clients[RDMA_NL_NUM_CLIENTS];

/* How many operations a client's table has; 0 for unused client numbers. */
static unsigned int nl_client_nops(unsigned int client)
{
	switch (client) {
	case RDMA_NL_IWCM:
		return RDMA_NL_IWPM_NUM_OPS;
	case RDMA_NL_LS:
		return RDMA_NL_LS_NUM_OPS;
	case RDMA_NL_NLDEV:
		return RDMA_NLDEV_NUM_OPS;
	default:
		return 0;
	}
}

static bool nl_client_ok(unsigned int client)
{
	return client < RDMA_NL_NUM_CLIENTS && nl_client_nops(client);
}

/**
 * rdma_nl_register() - register a client's operations
 * @index: the client, RDMA_NL_IWCM, RDMA_NL_LS or RDMA_NL_NLDEV
 * @cb_table: its operations, indexed by operation number; the table has
 *	as many entries as the client has operations
 *
 * A client is registered once; an unknown client or a second registration
 * is refused and logged.
 */
void rdma_nl_register(unsigned int index, const struct rdma_nl_cbs cb_table[])
{
	if (!nl_client_ok(index) || !cb_table) {
		pr_err("ib_core: RDMA netlink client %u: unknown, or no table\n",
		       index);
		return;
	}
	/* Only one registration may publish: compare and set. */
	if (cmpxchg_release(&nl_clients[index].table, NULL, cb_table))
		pr_err("ib_core: RDMA netlink client %u is registered already\n",
		       index);
}
EXPORT_SYMBOL(rdma_nl_register);

/**
 * rdma_nl_unregister() - unregister a client's operations
 * @index: the client
 *
 * Waits for the handlers of the client that are running.
 */
void rdma_nl_unregister(unsigned int index)
{
	if (!nl_client_ok(index))
		return;
	down_write(&nl_clients[index].sem);
	WRITE_ONCE(nl_clients[index].table, NULL);
	up_write(&nl_clients[index].sem);
}
EXPORT_SYMBOL(rdma_nl_unregister);

/**
 * ibnl_put_msg() - start a message of an RDMA netlink client
 * @skb: the buffer
 * @nlh: set to the new message's header
 * @seq: its sequence number
 * @len: room for the payload after the header
 * @client: the client (RDMA_NL_*)
 * @op: the client's operation
 * @flags: netlink header flags
 *
 * Return: the payload, or NULL if @skb has no room.
 */
void *ibnl_put_msg(struct sk_buff *skb, struct nlmsghdr **nlh, int seq,
		   int len, int client, int op, int flags)
{
	*nlh = nlmsg_put(skb, 0, seq, RDMA_NL_GET_TYPE(client, op), len, flags);
	return *nlh ? nlmsg_data(*nlh) : NULL;
}
EXPORT_SYMBOL(ibnl_put_msg);

/**
 * ibnl_put_attr() - add an attribute to a message, or drop the message
 * @skb: the buffer
 * @nlh: the message, from ibnl_put_msg()
 * @len: length of @data
 * @data: the attribute's payload
 * @type: the attribute type
 *
 * Return: 0, or -EMSGSIZE when @skb has no room; the whole message is
 * then removed from @skb.
 */
int ibnl_put_attr(struct sk_buff *skb, struct nlmsghdr *nlh, int len,
		  void *data, int type)
{
	if (!nla_put(skb, type, len, data))
		return 0;
	nlmsg_cancel(skb, nlh);
	return -EMSGSIZE;
}
EXPORT_SYMBOL(ibnl_put_attr);

/**
 * rdma_nl_unicast() - send a message to one socket, without waiting
 * @net: the namespace whose RDMA socket sends it
 * @skb: the message; consumed
 * @pid: the receiving socket's port id
 *
 * Return: 0, or a negative errno (e.g. -EAGAIN if the receiver is full).
 */
int rdma_nl_unicast(struct net *net, struct sk_buff *skb, u32 pid)
{
	int ret = netlink_unicast(netns_sock(net), skb, pid, MSG_DONTWAIT);

	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL(rdma_nl_unicast);

/**
 * rdma_nl_unicast_wait() - send a message to one socket, waiting for room
 * @net: the namespace whose RDMA socket sends it
 * @skb: the message; consumed
 * @pid: the receiving socket's port id
 *
 * Waits up to the socket's send timeout (10 s) for the receiver to have
 * room.  Sleeps.
 *
 * Return: 0, or a negative errno.
 */
int rdma_nl_unicast_wait(struct net *net, struct sk_buff *skb, __u32 pid)
{
	int ret = netlink_unicast(netns_sock(net), skb, pid, 0);

	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL(rdma_nl_unicast_wait);

/**
 * rdma_nl_multicast() - send a message to a multicast group
 * @net: the namespace whose RDMA socket sends it
 * @skb: the message; consumed
 * @group: the group (RDMA_NL_GROUP_*)
 * @flags: allocation flags for the copies
 *
 * Return: 0, -ESRCH if nobody listens, or another negative errno.
 */
int rdma_nl_multicast(struct net *net, struct sk_buff *skb,
		      unsigned int group, gfp_t flags)
{
	return nlmsg_multicast(netns_sock(net), skb, 0, group, flags);
}
EXPORT_SYMBOL(rdma_nl_multicast);

/**
 * rdma_nl_chk_listeners() - does anybody listen to a multicast group?
 * @group: the group, in the initial network namespace
 *
 * Return: true if a socket is subscribed to @group.
 */
bool rdma_nl_chk_listeners(unsigned int group)
{
	return netlink_has_listeners(netns_sock(&init_net), group);
}
EXPORT_SYMBOL(rdma_nl_chk_listeners);

/*
 * Call the handler of @cb for @nlh.  Caller holds the client's rwsem for
 * read.
 */
static int nl_call(const struct rdma_nl_cbs *cb, unsigned int client,
		   struct sk_buff *skb, struct nlmsghdr *nlh,
		   struct netlink_ext_ack *extack)
{
	struct netlink_dump_control dump = { .dump = cb->dump };

	lockdep_assert_held(&nl_clients[client].sem);
	if ((cb->flags & RDMA_NL_ADMIN_PERM) &&
	    !netlink_capable(skb, CAP_NET_ADMIN))
		return -EPERM;
	/*
	 * The local service's replies use the bit of NLM_F_DUMP for their own
	 * purpose; iwpm's operations are all answered as dumps.
	 */
	if (client != RDMA_NL_LS &&
	    ((nlh->nlmsg_flags & NLM_F_DUMP) || client == RDMA_NL_IWCM))
		return cb->dump ? netlink_dump_start(skb->sk, skb, nlh, &dump) :
				  -EINVAL;
	return cb->doit ? cb->doit(skb, nlh, extack) : -EINVAL;
}

/* Hand one message to its client. */
static int nl_dispatch(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	unsigned int client = RDMA_NL_GET_CLIENT(nlh->nlmsg_type);
	unsigned int op = RDMA_NL_GET_OP(nlh->nlmsg_type);
	const struct rdma_nl_cbs *table;
	struct nl_client *c;
	int ret = -EINVAL;

	if (!nl_client_ok(client) || op >= nl_client_nops(client))
		return -EINVAL;
	/* Only nldev answers outside the initial namespace. */
	if (client != RDMA_NL_NLDEV && !net_eq(sock_net(skb->sk), &init_net))
		return -EINVAL;
	c = &nl_clients[client];
	if (!READ_ONCE(c->table))
		request_module("rdma-netlink-subsys-%u", client);

	down_read(&c->sem);
	table = READ_ONCE(c->table);
	if (table && (table[op].doit || table[op].dump))
		ret = nl_call(&table[op], client, skb, nlh, extack);
	up_read(&c->sem);
	return ret;
}

/*
 * Requests go to their client; so do the local service's messages, which
 * include replies to the kernel's own requests.  Anything else (control
 * messages, stray replies) is only acknowledged if asked to.
 */
static bool nl_for_client(const struct nlmsghdr *nlh)
{
	if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return false;
	return (nlh->nlmsg_flags & NLM_F_REQUEST) ||
	       RDMA_NL_GET_CLIENT(nlh->nlmsg_type) == RDMA_NL_LS;
}

/* The socket's input: every message of @skb in turn. */
static void nl_input(struct sk_buff *skb)
{
	struct netlink_ext_ack extack;
	struct nlmsghdr *nlh;
	u32 step;
	int err;

	while (skb->len >= nlmsg_total_size(0)) {
		nlh = nlmsg_hdr(skb);
		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > skb->len)
			return;
		memset(&extack, 0, sizeof(extack));
		err = nl_for_client(nlh) ? nl_dispatch(skb, nlh, &extack) : 0;
		/* -EINTR: a dump started and will answer by itself. */
		if (err != -EINTR && (err || (nlh->nlmsg_flags & NLM_F_ACK)))
			netlink_ack(skb, nlh, err, &extack);
		step = min_t(u32, NLMSG_ALIGN(nlh->nlmsg_len), skb->len);
		skb_pull(skb, step);
	}
}

/**
 * netlink_sock_create() - the NETLINK_RDMA socket of a namespace
 * @net: the namespace
 *
 * Return: the socket, or NULL when out of memory.
 */
struct sock *netlink_sock_create(struct net *net)
{
	struct netlink_kernel_cfg cfg = { .input = nl_input };
	struct sock *sk = netlink_kernel_create(net, NETLINK_RDMA, &cfg);

	/* rdma_nl_unicast_wait() waits at most this long for room. */
	if (sk)
		sk->sk_sndtimeo = 10 * HZ;
	return sk;
}

void netlink_sock_release(struct sock *sk)
{
	netlink_kernel_release(sk);
}

/* Called at module load, before the first socket exists (netns_init()). */
void netlink_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nl_clients); i++)
		init_rwsem(&nl_clients[i].sem);
}

MODULE_ALIAS_NET_PF_PROTO(PF_NETLINK, NETLINK_RDMA);
