/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RDMA netlink inside ib_core: what the files of core/nl/ offer each other
 * and core/main.c.
 *
 *   netlink.c   the NETLINK_RDMA socket's receive path, the clients'
 *               operation tables, the rdma_nl_* API
 *   netns.c     per network namespace state (the socket), the sharing
 *               mode of devices among namespaces
 *   nldev.c     the nldev client: attribute policy, operation table,
 *               helpers of the command files below
 *   dev.c       devices and ports: GET, SET, PORT_GET, GET_CHARDEV
 *   link.c      link types (rdma_link_register()), NEWLINK, DELLINK
 *   sys.c       system settings: SYS_GET, SYS_SET
 *   res.c       resource tracking: RES_GET and the RES_*_GET commands
 *   stat.c      hardware counters: STAT_GET, STAT_SET, STAT_DEL,
 *               STAT_GET_STATUS
 *
 * Locking: each client's table has a rwsem (netlink.c), held for read
 * while a message is handled; the sharing mode has netns_rwsem (netns.c);
 * link types have link_rwsem (link.c).  Handlers take no lock of their
 * own around the device model: they hold a registration reference on the
 * device they work on (nldev_get_device()) and call the device model's
 * functions, which lock inside.  Order: client rwsem, then link_rwsem or
 * netns_rwsem, then the device model's locks.
 *
 * Declarations only (see core/device/internal.h for why); non-static
 * functions are named after their file.
 */
#ifndef OOT_CORE_NL_INTERNAL_H
#define OOT_CORE_NL_INTERNAL_H

#include <linux/types.h>
#include <rdma/restrack.h>

struct ib_device;
struct net;
struct netlink_callback;
struct netlink_ext_ack;
struct nlattr;
struct nlmsghdr;
struct sk_buff;
struct sock;

/* netlink.c */
void netlink_init(void);
struct sock *netlink_sock_create(struct net *net);
void netlink_sock_release(struct sock *sk);

/* netns.c */
int netns_init(void);
void netns_exit(void);
struct sock *netns_sock(const struct net *net);
bool netns_shared(void);
int netns_set_shared(bool shared);

/* nldev.c: the client, and what the command files share */
void nldev_init(void);
void nldev_exit(void);
int nldev_parse(const struct nlmsghdr *nlh, struct nlattr **tb, bool strict,
		struct netlink_ext_ack *extack);
struct ib_device *nldev_get_device(struct sk_buff *skb, struct nlattr **tb);
int nldev_get_port(struct ib_device *device, struct nlattr **tb, u32 *port);
struct ib_device *nldev_get_device_port(struct sk_buff *skb, struct nlattr **tb,
					u32 *port);
int nldev_put_handle(struct sk_buff *msg, struct ib_device *device);
struct sk_buff *nldev_reply_new(struct sk_buff *req,
				const struct nlmsghdr *nlh, u8 cmd,
				struct nlmsghdr **hdr);
int nldev_reply_send(struct sk_buff *req, struct sk_buff *msg,
		     struct nlmsghdr *hdr);
struct nlmsghdr *nldev_dump_msg(struct sk_buff *skb,
				struct netlink_callback *cb, u8 cmd);
int nldev_dump_devices(struct sk_buff *skb, struct netlink_callback *cb,
		       int (*fill)(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   struct ib_device *device));

/* dev.c */
int dev_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack);
int dev_get_dump(struct sk_buff *skb, struct netlink_callback *cb);
int dev_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack);
int dev_port_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		      struct netlink_ext_ack *extack);
int dev_port_get_dump(struct sk_buff *skb, struct netlink_callback *cb);
int dev_get_chardev(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack);

/* link.c */
int link_newlink(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack);
int link_dellink(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack);

/* sys.c */
int sys_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack);
int sys_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack);

/* res.c: one doit and one dump per command, chosen by the message type */
int res_summary_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		     struct netlink_ext_ack *extack);
int res_summary_dump(struct sk_buff *skb, struct netlink_callback *cb);
int res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		 struct netlink_ext_ack *extack);
int res_get_dump(struct sk_buff *skb, struct netlink_callback *cb);
int res_doit_type(struct sk_buff *skb, struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack, struct nlattr **tb,
		  enum rdma_restrack_type type, u8 cmd);
int res_dump_type(struct sk_buff *skb, struct netlink_callback *cb,
		  struct nlattr **tb, enum rdma_restrack_type type, u8 cmd);

/* stat.c */
int stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack);
int stat_get_dump(struct sk_buff *skb, struct netlink_callback *cb);
int stat_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack);
int stat_del_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack);
int stat_get_status_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack);

#endif
