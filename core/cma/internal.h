/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The internal interface of core/cma/: rdma_cm, the RDMA connection
 * manager (<rdma/rdma_cm.h>).  Documentation/core.rst lists the files.
 *
 * Lock order (outermost first):
 *
 *   cma_id.handler_mutex   one event handler of an ID at a time; also held
 *                          by rdma_destroy_id() to wait for a running one,
 *                          and by ULPs through rdma_lock_handler().  A
 *                          listener's is taken before its new IDs', whose
 *                          locks are a lockdep class of their own
 *                          (cma_id_alloc_conn()).
 *   cma_mutex (main.c)     the device list, each device's IDs, the
 *                          wildcard listeners, the port spaces
 *   cma_id.qp_mutex        the ID's QP and the options routes and QPs read
 *   cma_id.lock            the ID's state
 *   cma_neigh_lock         the IDs with a RoCE route (neigh.c), a
 *                          spinlock taken from the netevent chain; no
 *                          other lock is taken under it
 *
 * No lock of ours is held when ib_cm, iw_cm, ib_core's address resolution
 * or the SA client is called to cancel or destroy (they wait for their
 * callbacks, which take the locks above).
 *
 * Non-static functions are named cma_<file>_*, or cma_* in id.c.
 */
#ifndef OOT_CORE_CMA_INTERNAL_H
#define OOT_CORE_CMA_INTERNAL_H

#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <rdma/rdma_cm.h>
#include <rdma/ib_cm.h>
#include <rdma/iw_cm.h>
#include <rdma/ib_sa.h>
#include "core/restrack.h"

/*
 * The states of an ID.  The numbers are what RDMA netlink reports to
 * userspace (iproute2's rdma tool names them), so they are fixed.
 */
enum cma_state {
	CMA_IDLE,
	CMA_ADDR_QUERY,
	CMA_ADDR_RESOLVED,
	CMA_ROUTE_QUERY,
	CMA_ROUTE_RESOLVED,
	CMA_CONNECT,
	CMA_DISCONNECT,
	CMA_ADDR_BOUND,
	CMA_LISTEN,
	CMA_DEVICE_REMOVAL,
	CMA_DESTROYING,
};

/**
 * struct cma_device - rdma_cm's view of one RDMA device
 * @device: the device
 * @link: on the device list (cma_mutex)
 * @ids: the IDs attached to the device (cma_mutex)
 * @refs: references: the device list's, and one per attached ID
 * @unused: completed when @refs drops to zero
 * @gid_type: per port (index port - start port), the GID type an ID
 *	bound to a RoCE port uses; read without lock, written once
 * @roce_tos: per port, the ToS of an ID that set none
 */
struct cma_device {
	struct ib_device *device;
	struct list_head link;
	struct list_head ids;
	refcount_t refs;
	struct completion unused;
	enum ib_gid_type *gid_type;
	u8 *roce_tos;
};

/**
 * struct cma_port - one port number of one port space of a namespace
 * @ps: the port space
 * @num: the port number
 * @owners: the IDs bound to it (cma_mutex)
 */
struct cma_port {
	enum rdma_ucm_port_space ps;
	unsigned short num;
	struct hlist_head owners;
};

/**
 * struct cma_mc - a multicast group an ID joined
 * @id: the ID
 * @link: on the ID's @mcs (the ID's lock)
 * @addr: the group's address
 * @join_state: the join state asked for (InfiniBand)
 * @context: the ULP's context, returned in the events
 * @sa: the SA client's membership (InfiniBand)
 * @rec: the group's record (RoCE: built locally)
 * @igmp_joined: RoCE: the netdev joined the group
 * @work: RoCE: delivers the join event
 */
struct cma_mc {
	struct cma_id *id;
	struct list_head link;
	struct sockaddr_storage addr;
	u8 join_state;
	void *context;
	struct ib_sa_multicast *sa;
	struct ib_sa_mcmember_rec rec;
	bool igmp_joined;
	struct work_struct work;
};

/**
 * struct cma_id - the private side of an rdma_cm_id
 * @id: what the ULP sees
 * @lock: protects @state
 * @state: see enum cma_state
 * @handler_mutex: see the lock order above
 * @refs: references; the creator's and one per operation in flight
 * @released: completed when @refs drops to zero
 * @qp_mutex: protects @id.qp, @tos*, @ack_timeout*, @min_rnr*
 * @cdev: the device the ID is attached to, or NULL (cma_mutex to change;
 *	stable once set for the ID's life, except by device removal)
 * @dev_link: on @cdev->ids (cma_mutex)
 * @port: the port number the ID is bound to (cma_mutex)
 * @port_link: on @port->owners (cma_mutex)
 * @listen_link: a wildcard listener: on the list of them; an internal
 *	listener: on its parent's @children (cma_mutex)
 * @children: a wildcard listener's internal listeners, one per device
 *	(cma_mutex)
 * @parent: an internal listener's wildcard listener
 * @internal: an internal listener, never seen by ULPs
 * @backlog: the listen backlog
 * @query: the SA path query in flight, and its id
 * @query_id: the SA query's id
 * @cm: the ib_cm or iw_cm ID (set under @handler_mutex or before the ID
 *	is visible; cleared when the CM destroys it itself)
 * @seq_num: the starting PSN of the ID's QP
 * @qkey: the Q_Key of a UD ID
 * @qp_num: the QP number announced (the ID's QP, or the ULP's own)
 * @srq: the QP uses an SRQ
 * @tos: the ToS (rdma_set_service_type), valid with @tos_set
 * @tos_set: a ToS was set
 * @ack_timeout: the local ACK timeout, valid with @ack_timeout_set
 * @ack_timeout_set: an ACK timeout was set
 * @min_rnr: the minimum RNR NAK timer, valid with @min_rnr_set
 * @min_rnr_set: a minimum RNR timer was set
 * @reuseaddr: the port may be shared (rdma_set_reuseaddr)
 * @afonly: the ID's address family only (rdma_set_afonly)
 * @afonly_set: the ULP chose @afonly
 * @resolving_ip: rdma_resolve_ip() was called at least once
 * @gid_type: the GID type of a RoCE ID
 * @rt: the resource tracking entry
 * @ece: the ECE options of the connection
 * @mcs: the multicast groups joined (@lock)
 * @timeout_ms: the route's time limit (SA queries)
 * @caller: the module that created a kernel ID
 * @neigh_link: on the IDs with a RoCE route (neigh.c's lock)
 */
struct cma_id {
	struct rdma_cm_id id;
	spinlock_t lock;
	enum cma_state state;
	struct mutex handler_mutex;
	refcount_t refs;
	struct completion released;
	struct mutex qp_mutex;
	struct cma_device *cdev;
	struct list_head dev_link;
	struct cma_port *port;
	struct hlist_node port_link;
	struct list_head listen_link;
	struct list_head children;
	struct cma_id *parent;
	bool internal;
	int backlog;
	struct ib_sa_query *query;
	int query_id;
	union {
		struct ib_cm_id *ib;
		struct iw_cm_id *iw;
	} cm;
	u32 seq_num;
	u32 qkey;
	u32 qp_num;
	u8 srq;
	u8 tos;
	bool tos_set;
	u8 ack_timeout;
	bool ack_timeout_set;
	u8 min_rnr;
	bool min_rnr_set;
	bool reuseaddr;
	bool afonly;
	bool afonly_set;
	bool resolving_ip;
	enum ib_gid_type gid_type;
	struct restrack_cm_id rt;
	struct rdma_ucm_ece ece;
	struct list_head mcs;
	unsigned long timeout_ms;
	const char *caller;
	struct list_head neigh_link;
};

static inline struct cma_id *to_cma(struct rdma_cm_id *id)
{
	return container_of(id, struct cma_id, id);
}

static inline struct sockaddr *cma_src(struct cma_id *priv)
{
	return (struct sockaddr *)&priv->id.route.addr.src_addr;
}

static inline struct sockaddr *cma_dst(struct cma_id *priv)
{
	return (struct sockaddr *)&priv->id.route.addr.dst_addr;
}

static inline unsigned short cma_family(struct cma_id *priv)
{
	return priv->id.route.addr.src_addr.ss_family;
}

static inline struct net *cma_net(struct cma_id *priv)
{
	return priv->id.route.addr.dev_addr.net;
}

/* Timeouts of ib_cm exchanges: 4.096 us * 2^20 is about 4 s a try */
#define CMA_CM_RESPONSE_TIMEOUT	20
#define CMA_MAX_CM_RETRIES	15
/* An MRA asking for more time, sent only when a REQ is repeated */
#define CMA_MRA_SERVICE_TIMEOUT	(IB_CM_MRA_FLAG_DELAY | 24)
/* The packet lifetime of a RoCE path without an ACK timeout set */
#define CMA_ROCE_PACKET_LIFETIME 18

/* main.c */
extern struct mutex cma_mutex;
extern struct workqueue_struct *cma_wq;
extern struct list_head cma_devices;
extern struct list_head cma_listeners;
void cma_main_attach(struct cma_id *priv, struct cma_device *cdev);
void cma_main_detach(struct cma_id *priv);
void cma_main_track(struct cma_id *priv);
struct cma_device *cma_main_find_device(struct ib_device *device);
struct xarray *cma_main_ps_xa(struct net *net, enum rdma_ucm_port_space ps);
enum ib_gid_type cma_main_gid_type(struct cma_device *cdev, u32 port);
u8 cma_main_roce_tos(struct cma_device *cdev, u32 port);
void cma_main_device_drain(struct cma_device *cdev);

/* id.c */
struct cma_id *cma_id_alloc(struct net *net, rdma_cm_event_handler handler,
			    void *context, enum rdma_ucm_port_space ps,
			    enum ib_qp_type qp_type);
struct cma_id *cma_id_alloc_conn(struct cma_id *listener,
				 enum rdma_ucm_port_space ps,
				 enum ib_qp_type qp_type);
void cma_get(struct cma_id *priv);
bool cma_tryget(struct cma_id *priv);
void cma_put(struct cma_id *priv);
enum cma_state cma_state(struct cma_id *priv);
bool cma_move(struct cma_id *priv, enum cma_state from, enum cma_state to);
enum cma_state cma_set_state(struct cma_id *priv, enum cma_state to);
int cma_deliver(struct cma_id *priv, struct rdma_cm_event *event);
void cma_destroy_unlock(struct cma_id *priv);
int cma_deliver_unlock(struct cma_id *priv, struct rdma_cm_event *event,
		       bool cm_destroys);
int cma_deliver_unlock_put(struct cma_id *priv, struct rdma_cm_event *event);
void cma_destroy_internal(struct cma_id *priv);
int cma_queue_event(struct cma_id *priv, enum cma_state from,
		    enum cma_state to, const struct rdma_cm_event *event);

/* ports.c */
int cma_ports_get(struct cma_id *priv);
void cma_ports_release(struct cma_id *priv);
int cma_ports_listen_check(struct cma_id *priv);
bool cma_ports_any_addr(const struct sockaddr *addr);
bool cma_ports_loopback(const struct sockaddr *addr);
int cma_ports_addr_cmp(const struct sockaddr *a, const struct sockaddr *b);
__be16 cma_ports_port(const struct sockaddr *addr);
void cma_ports_set_port(struct sockaddr *addr, __be16 port);
struct cma_port *cma_ports_find(struct net *net, enum rdma_ucm_port_space ps,
				unsigned short num);

/* addr.c */
int cma_addr_acquire_dev(struct cma_id *priv);
void cma_addr_cancel(struct cma_id *priv);

/* route.c */
extern struct ib_sa_client cma_sa_client;
void cma_route_init(void);
void cma_route_exit(void);
void cma_route_cancel(struct cma_id *priv);
void cma_route_free(struct cma_id *priv);
int cma_route_roce_l2(struct cma_id *priv, struct sa_path_rec *rec);

/* neigh.c */
int cma_neigh_init(void);
void cma_neigh_exit(void);
void cma_neigh_init_id(struct cma_id *priv);
void cma_neigh_watch(struct cma_id *priv);
void cma_neigh_unwatch(struct cma_id *priv);

/* listen.c */
int cma_listen_on_device(struct cma_id *parent, struct cma_device *cdev);
void cma_listen_cancel(struct cma_id *priv);
struct cma_id *cma_listen_find(struct ib_device *device, u32 port,
			       struct net *net, enum rdma_ucm_port_space ps,
			       const struct sockaddr *local, int ifindex);

/* ib.c */
#define CMA_HDR_BYTES 36
int cma_ib_listen(struct cma_id *priv);
int cma_ib_connect(struct cma_id *priv, struct rdma_conn_param *param);
int cma_ib_accept(struct cma_id *priv, struct rdma_conn_param *param);
int cma_ib_reject(struct cma_id *priv, const void *data, u8 len, u8 reason);
int cma_ib_disconnect(struct cma_id *priv);
int cma_ib_sidr_query(struct cma_id *priv, struct rdma_conn_param *param);
int cma_ib_sidr_reply(struct cma_id *priv, struct rdma_conn_param *param,
		      int status, const void *data, u8 len);
int cma_ib_accept_noparam(struct cma_id *priv);
int cma_ib_set_qkey(struct cma_id *priv, u32 qkey);

/* iw.c */
int cma_iw_listen(struct cma_id *priv, int backlog);
int cma_iw_connect(struct cma_id *priv, struct rdma_conn_param *param);
int cma_iw_accept(struct cma_id *priv, struct rdma_conn_param *param);
int cma_iw_reject(struct cma_id *priv, const void *data, u8 len);

/* qp.c */
int cma_qp_to_rtr(struct cma_id *priv, struct rdma_conn_param *param);
int cma_qp_to_rts(struct cma_id *priv, struct rdma_conn_param *param);
int cma_qp_to_error(struct cma_id *priv);

/* mcast.c */
void cma_mcast_leave_all(struct cma_id *priv);

#endif
