/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_cm's internal interface: what the files of core/cm/ share.
 *
 *   main.c     the module, the ib_client (a cm_dev per device, a MAD
 *              agent per port that carries CM), the work queue
 *   id.c       a cm_id's life: creation, references, the tables that
 *              find it (local ID, remote ID, remote QPN), its events
 *              (queued, delivered one at a time in process context),
 *              ib_destroy_cm_id()
 *   listen.c   listeners by device and service ID: ib_cm_listen(),
 *              ib_cm_insert_listen()
 *   msg.c      sending: the address vector of a connection, a message's
 *              buffer and address handle, sends with retries, the
 *              send_handler; replies to a received MAD with no cm_id
 *   recv.c     the recv_handler: a received MAD to the handler of its
 *              attribute
 *   conn.c     establishment: REQ, REP, RTU, MRA, REJ
 *   disc.c     release: DREQ, DREP, timewait; ib_cm_notify()
 *   sidr.c     SIDR REQ and REP
 *   lap.c      LAP and APR (our extension: include/core/ib_cm_lap.h)
 *   attr.c     ib_cm_init_qp_attr(), ibcm_reject_msg()
 *   counters.c the message counters of each port, in sysfs
 *
 * Lock order (outermost first): a cm_id's lock, then cm_lock (the
 * tables).  Both are taken with interrupts off, because ib_cm_notify()
 * may be called from a QP's event handler.  Consumer
 * callbacks are made with no lock held, from the work queue.
 */
#ifndef OOT_IB_CM_INTERNAL_H
#define OOT_IB_CM_INTERNAL_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/kref.h>
#include <linux/workqueue.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_mad.h>
#include <rdma/ibta_vol1_c12.h>

/* IBA 12.6: the CM's class version */
#define CM_CLASS_VERSION	2

/* The counts of counters.c, and the messages they count (REQ to APR). */
enum cm_ctr_group {
	CM_CTR_TX,
	CM_CTR_TX_RETRIES,
	CM_CTR_RX,
	CM_CTR_RX_DUPLICATES,
	CM_CTR_GROUPS
};

#define CM_CTR_MSGS	11

/**
 * struct cm_port - a port of a CM device
 * @dev: its device
 * @num: its number
 * @agent: the MAD agent of class CM on its QP1; NULL once the device is
 *	going away (read and cleared under cm_lock)
 * @ctr: the message counters (counters.c), by group and attribute ID;
 *	atomic
 * @files: the counters are in sysfs (main.c's add() and remove() only)
 */
struct cm_port {
	struct cm_dev *dev;
	u32 num;
	struct ib_mad_agent *agent;
	atomic_long_t ctr[CM_CTR_GROUPS][CM_CTR_MSGS];
	bool files;
};

/**
 * struct cm_dev - what ib_cm keeps for a device (its client data)
 * @link: on the list of devices (under cm_lock)
 * @ibdev: the device
 * @ref: held by the client and by every cm_id bound to one of its ports
 * @ack_delay: the CA's local ACK delay (device attributes)
 * @nports: the number of ports
 * @port: the ports, index 0 for port 1
 */
struct cm_dev {
	struct list_head link;
	struct ib_device *ibdev;
	struct kref ref;
	u8 ack_delay;
	u32 nports;
	struct cm_port port[];
};

/**
 * struct cm_av - where a connection's messages and packets go
 * @port: the local port (the cm_id holds a reference on its cm_dev)
 * @attr: the address vector to the peer (holds the SGID attribute)
 * @pkey_index: the P_Key index on @port
 * @timeout: the QP's local ACK timeout (4.096 us * 2^timeout)
 * @valid: @attr is set and must be released
 */
struct cm_av {
	struct cm_port *port;
	struct rdma_ah_attr attr;
	u16 pkey_index;
	u8 timeout;
	bool valid;
};

/**
 * struct cm_event_rec - a queued event
 * @link: on the cm_id's event list
 * @ev: the event as the handler sees it
 * @rwc: the received MAD the event's data point into, freed after the
 *	handler returns; NULL for events of our own
 * @listener: for REQ and SIDR REQ events, the listener, referenced
 * @path: the paths of a REQ event
 */
struct cm_event_rec {
	struct list_head link;
	struct ib_cm_event ev;
	struct ib_mad_recv_wc *rwc;
	struct cm_id_priv *listener;
	struct sa_path_rec path[2];
};

/**
 * struct cm_mra_info - an MRA we sent, kept to answer duplicates
 * @timeout: its service timeout
 * @len: the length of @data
 * @delay: IB_CM_MRA_FLAG_DELAY: sent only when a duplicate comes
 * @data: its private data
 */
struct cm_mra_info {
	u8 timeout;
	u8 len;
	bool delay;
	u8 data[IB_CM_MRA_PRIVATE_DATA_SIZE];
};

/**
 * struct cm_id_priv - a cm_id and its connection
 * @id: what the consumer sees; id.state changes under @lock
 * @lock: protects the state, @msg, @events, @busy, @mra and the
 *	connection's fields once the cm_id is in a table
 * @refs: the consumer's reference (until destruction), one per queued
 *	delivery work, per posted message, per pending timewait, and the
 *	tables' short-lived lookups
 * @gone: completed when @refs falls to zero, for ib_destroy_cm_id()
 * @self_free: the delivery work destroys the cm_id (its handler returned
 *	nonzero): the last reference frees it
 * @dead: destruction began; nothing is queued any more
 * @av: the connection's address vector
 * @alt_av: the alternate path's, if any
 * @lap_av: the path of the LAP we sent, until its APR
 * @lap_path: the path of the LAP we received, until our APR
 * @lap_tid: the transaction ID of that LAP
 * @pkey: the connection's P_Key (a LAP keeps it)
 * @msg: the message out with retries (REQ, REP, DREQ, SIDR REQ, LAP), or
 *	NULL
 * @tid: the transaction ID of the connection's messages
 * @events: queued events, delivered in order by @work
 * @busy: @work is queued or running
 * @work: delivers @events
 * @timewait: ends the timewait state
 * @id_node: in the table of local IDs (under cm_lock)
 * @listen_link: on the listener list (listeners only)
 * @listen_share: ib_cm_insert_listen() users of a shared listener
 * @remote_node: in the table of remote IDs, while @remote_ca_guid is set
 * @qpn_node: in the table of remote QPNs (connected RC/UC/XRC QPs)
 * @in_remote: @remote_node is linked
 * @in_qpn: @qpn_node is linked
 * @remote_ca_guid: the peer CA's GUID (SIDR: the peer port's identity)
 * @mra: the MRA we sent, if any
 * @qp_type: the connection's QP type
 * @local_qpn: our QP
 * @remote_qpn: the peer's QP
 * @sq_psn: the PSN our QP sends with first (named by the peer)
 * @rq_psn: the PSN our QP expects first (named by us)
 * @path_mtu: the path MTU (enum ib_mtu)
 * @responder_resources: RDMA reads and atomics we accept
 * @initiator_depth: RDMA reads and atomics we issue
 * @retry_count: the QP's retry count
 * @rnr_retry_count: the QP's RNR retry count
 * @max_cm_retries: retries of our messages
 * @timeout_ms: how long the peer may take to answer our message
 * @plt: the path's packet life time (4.096 us * 2^plt)
 * @target_ack_delay: the peer's ACK delay (from its REP)
 * @sidr_timeout_ms: the SIDR REQ's timeout
 */
struct cm_id_priv {
	struct ib_cm_id id;
	spinlock_t lock;
	refcount_t refs;
	struct completion gone;
	bool self_free;
	bool dead;

	struct cm_av av;
	struct cm_av alt_av;
	struct cm_av lap_av;
	struct sa_path_rec lap_path;
	__be64 lap_tid;
	__be16 pkey;
	struct ib_mad_send_buf *msg;
	__be64 tid;

	struct list_head events;
	bool busy;
	struct work_struct work;
	struct delayed_work timewait;

	struct hlist_node id_node;
	struct list_head listen_link;
	int listen_share;

	struct hlist_node remote_node;
	struct hlist_node qpn_node;
	bool in_remote;
	bool in_qpn;
	__be64 remote_ca_guid;

	struct cm_mra_info mra;

	enum ib_qp_type qp_type;
	u32 local_qpn;
	u32 remote_qpn;
	u32 sq_psn;
	u32 rq_psn;
	u8 path_mtu;
	u8 responder_resources;
	u8 initiator_depth;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 max_cm_retries;
	u32 timeout_ms;
	u8 plt;
	u8 target_ack_delay;
	unsigned long sidr_timeout_ms;
};

static inline struct cm_id_priv *to_priv(struct ib_cm_id *id)
{
	return container_of(id, struct cm_id_priv, id);
}

/* main.c */
extern struct workqueue_struct *cm_wq;
extern spinlock_t cm_lock;
struct cm_dev *cm_dev_get(struct ib_device *ibdev);
void cm_dev_put(struct cm_dev *dev);
struct cm_port *cm_port_of(struct ib_device *ibdev, u32 port_num);

/* id.c */
struct cm_id_priv *cm_id_alloc(struct ib_device *ibdev, ib_cm_handler h,
			       void *context);
struct cm_id_priv *cm_id_find(__be32 local_id);
void cm_id_get(struct cm_id_priv *priv);
void cm_id_put(struct cm_id_priv *priv);
struct cm_id_priv *cm_remote_find(__be64 ca_guid, __be32 remote_id);
struct cm_id_priv *cm_remote_insert(struct cm_id_priv *priv);
void cm_remote_remove(struct cm_id_priv *priv);
struct cm_id_priv *cm_qpn_insert(struct cm_id_priv *priv);
struct cm_event_rec *cm_event_alloc(enum ib_cm_event_type type, gfp_t gfp);
void cm_event_free(struct cm_event_rec *rec);
void cm_queue_event(struct cm_id_priv *priv, struct cm_event_rec *rec);
void cm_recv_step(struct cm_id_priv *priv, enum ib_cm_event_type type,
		  struct ib_mad_recv_wc *rwc,
		  bool (*step)(struct cm_id_priv *priv, struct cm_event_rec *rec));
void cm_enter_timewait(struct cm_id_priv *priv);
void cm_to_idle(struct cm_id_priv *priv);
void cm_destroy(struct cm_id_priv *priv, int err, bool from_work);

/* listen.c */
struct cm_id_priv *cm_listener_find(struct ib_device *ibdev,
				    __be64 service_id);
void cm_listener_remove(struct cm_id_priv *priv);
bool cm_listener_unshare(struct cm_id_priv *priv);

/* msg.c */
u32 cm_iba_ms(u8 iba_time);
u8 cm_ack_timeout(u8 ack_delay, u8 plt);
int cm_av_from_path(struct cm_av *av, struct ib_device *ibdev,
		    struct sa_path_rec *path,
		    const struct ib_gid_attr *sgid_attr);
int cm_av_from_wc(struct cm_av *av, struct cm_port *port,
		  struct ib_mad_recv_wc *rwc);
void cm_av_release(struct cm_av *av);
struct ib_mad_send_buf *cm_msg_alloc(struct cm_id_priv *priv,
				     __be16 attr_id, __be64 tid);
void cm_msg_free(struct ib_mad_send_buf *msg);
int cm_msg_post(struct cm_id_priv *priv, struct ib_mad_send_buf *msg,
		u32 timeout_ms, int retries);
void cm_msg_cancel(struct cm_id_priv *priv);
int cm_reply_to(struct cm_port *port, struct ib_mad_recv_wc *rwc,
		__be16 attr_id, void (*fill)(void *mad, const void *req,
					     const void *arg),
		const void *arg);
void cm_send_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_wc *wc);
__be64 cm_new_tid(struct cm_id_priv *priv);

/* recv.c */
void cm_recv_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *rwc);

/* conn.c */
void cm_req_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_rep_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_rtu_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_mra_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_rej_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_conn_send_failed(struct cm_id_priv *priv, enum ib_wc_status st);
int cm_send_rej_locked(struct cm_id_priv *priv, enum ib_cm_rej_reason why,
		       const void *ari, u8 ari_len, const void *data,
		       u8 len);
int cm_send_mra_locked(struct cm_id_priv *priv);

/* disc.c */
void cm_dreq_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_drep_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_dreq_send_failed(struct cm_id_priv *priv, enum ib_wc_status st);
int cm_send_dreq_locked(struct cm_id_priv *priv, const void *data, u8 len);
int cm_send_drep_locked(struct cm_id_priv *priv, const void *data, u8 len);

/* lap.c */
void cm_lap_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_apr_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_lap_send_failed(struct cm_id_priv *priv, enum ib_wc_status st);

/* sidr.c */
void cm_sidr_req_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_sidr_rep_recv(struct cm_port *port, struct ib_mad_recv_wc *rwc);
void cm_sidr_send_failed(struct cm_id_priv *priv, enum ib_wc_status st);
int cm_send_sidr_rep_locked(struct cm_id_priv *priv,
			    const struct ib_cm_sidr_rep_param *param);

/* counters.c */
void cm_count(struct cm_port *port, enum cm_ctr_group group, __be16 attr_id,
	      long n);
int cm_counters_add(struct cm_port *port);
void cm_counters_remove(struct cm_port *port);
void cm_counters_init(void);

#endif
