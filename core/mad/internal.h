/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MAD layer's internal interface: what the files of core/mad/ share.
 *
 *   port.c      the ib_client: on every port with MADs, a PD, a CQ, QP0
 *               (rdma_cap_ib_smi) and QP1 (rdma_cap_ib_mad), a work
 *               queue, the port's own agents (replies made by the driver
 *               or by the core); finding a port
 *   qp.c        a special QP's life (Reset to RTS), its receive buffers
 *               (posted, refilled), its send queue (posting, the backlog
 *               when the hardware queue is full), completions
 *   agent.c     agents: the registration rules and tables, lookup by
 *               class/version/method and by TID, references,
 *               ib_register_mad_agent(), ib_unregister_mad_agent()
 *   send.c      send buffers, ib_post_send_mad(), send completions,
 *               timeouts, retries, responses matched to requests,
 *               ib_modify_mad()
 *   recv.c      a received MAD: checks, the driver's process_mad, the
 *               agent it goes to, ib_free_recv_mad()
 *   class.c     what the management classes say: ib_response_mad(),
 *               ib_get_mad_data_offset(), ib_is_mad_class_rmpp(),
 *               ib_mad_kernel_rmpp_agent()
 *   counters.c  what the port dropped and why, in debugfs
 *
 * The structures below are the MAD layer's own; none of them is reached
 * from a type of <rdma/ib_mad.h>, so they do not enter the symbol CRCs
 * (make abi-check says so).
 *
 * Lock order (outermost first):
 *
 *   mad_reg_mutex (agent.c)   changes of the registration tables and of
 *                             the agents by TID
 *   mad_ports_lock (port.c)   the list of ports
 *   agent->lock               the agent's sends (lists, states)
 *   mqp->lock                 a QP's send queue, backlog and posted
 *                             receive buffers
 *
 * The receive path finds agents without a lock: the tables are xarrays
 * read under RCU, an agent is taken with refcount_inc_not_zero() and
 * freed after a grace period.
 *
 * Callbacks to consumers (send_handler, recv_handler) are made with no
 * lock held, in process context: from the CQ's work (completions,
 * receives) or the port's work queue (timeouts, cancels).
 *
 * Lifetime: an agent is referenced by its registration (until
 * ib_unregister_mad_agent()), by each send buffer (until
 * ib_free_send_mad()), by each posted send (until its completion is
 * reported) and by each receive being delivered to it.
 * ib_unregister_mad_agent() waits until all are gone.  A port lives from
 * the client's add() to its remove(); agents keep a device's client data
 * alive, as the core's client removal waits for the consumers' own
 * remove() callbacks, which unregister their agents.
 */
#ifndef OOT_CORE_MAD_INTERNAL_H
#define OOT_CORE_MAD_INTERNAL_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include "client.h"

/*
 * Classes and class versions agents can register for (and the directed
 * route class, which is above MAD_MAX_CLASS).
 */
#define MAD_MAX_CLASS		0x50
#define MAD_MAX_VERSION		8

struct mad_port;
struct mad_agent;

/* Why a MAD was dropped (counters.c names them). */
enum mad_drop {
	MAD_DROP_BASE_VERSION,	/* unknown base version */
	MAD_DROP_WRONG_QP,	/* SMP on QP1, GMP on QP0 */
	MAD_DROP_CM_METHOD,	/* a CM attribute other than Send */
	MAD_DROP_SMI,		/* a directed-route SMP the SMI rejects */
	MAD_DROP_NO_AGENT,	/* no agent for its class, version, method */
	MAD_DROP_NO_REQUEST,	/* a response to no outstanding request */
	MAD_DROP_RMPP,		/* a bad or unexpected RMPP segment */
	MAD_DROP_LENGTH,	/* shorter than a MAD */
	MAD_DROP_NOMEM,		/* no memory to handle it */
	MAD_DROP_MAX
};

/*
 * A receive buffer of a special QP: the network header, then the MAD.
 * @link is on the QP's list of posted buffers while the hardware has it.
 */
struct mad_rbuf {
	struct ib_cqe cqe;
	struct mad_qp *mqp;
	struct list_head link;
	u64 dma;
	u32 len;			/* of grh + mad, mapped */
	struct ib_wc wc;
	struct ib_mad_recv_wc rwc;
	struct ib_grh grh;
	u8 mad[] __aligned(8);
};

/**
 * struct mad_qp - QP0 or QP1 of a port
 * @port: its port
 * @qp: the QP
 * @lock: protects @posted, @backlog, @nposted, @recvs, @nrecvs, @closing,
 *	@repairing and @broken
 * @posted: sends in the hardware's queue, in order
 * @backlog: sends waiting for room in it, or for the QP's repair
 * @nposted: sends in the hardware's queue
 * @recvs: receive buffers the hardware has
 * @nrecvs: how many
 * @closing: the QP is going: nothing more is posted
 * @repairing: the QP left RTS on its own: nothing is posted until
 *	@repair has brought it back
 * @broken: the repair failed: sends fail at once
 * @repair: brings the QP back to RTS once the hardware has given back
 *	everything it had (qp.c); on the port's workqueue
 * @max_send: its depth
 * @max_recv: receive buffers kept posted
 * @mad_size: room for a MAD (the port's max_mad_size)
 */
struct mad_qp {
	struct mad_port *port;
	struct ib_qp *qp;
	spinlock_t lock;
	struct list_head posted;
	struct list_head backlog;
	u32 nposted;
	struct list_head recvs;
	u32 nrecvs;
	bool closing;
	bool repairing;
	bool broken;
	struct work_struct repair;
	u32 max_send;
	u32 max_recv;
	u32 mad_size;
};

/**
 * struct mad_port - the MAD layer on one port
 * @dev: the device
 * @port_num: the port
 * @link: on the list of ports (port.c)
 * @pd: the PD of both QPs
 * @cq: the CQ of both QPs (IB_POLL_WORKQUEUE)
 * @qps: QP0 (qps[0].qp NULL where the port has no SMI) and QP1
 * @wq: timeouts, cancels and RMPP work of the port's agents
 * @classes: registrations by class key (agent.c): struct mad_methods;
 *	changed under mad_reg_mutex, read under RCU
 * @local_agent: the port's own agents, sending what the driver's
 *	process_mad and the core reply (index 0: SMI, 1: GSI)
 * @drops: per-reason drop counters
 * @received: MADs received
 * @sent: MADs sent (segments and retries included)
 * @repairs: times one of its QPs was brought back to RTS
 * @debugfs: the port's debugfs directory
 */
struct mad_port {
	struct ib_device *dev;
	u32 port_num;
	struct list_head link;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct mad_qp qps[2];
	struct workqueue_struct *wq;
	struct xarray classes;
	struct ib_mad_agent *local_agent[2];
	atomic64_t drops[MAD_DROP_MAX];
	atomic64_t received;
	atomic64_t sent;
	atomic64_t repairs;
	struct dentry *debugfs;
};

/**
 * struct mad_agent - an agent, behind the consumer's struct ib_mad_agent
 * @agent: what the consumer sees
 * @port: its port
 * @mqp: its QP
 * @reg: a copy of its registration request, NULL if none
 * @refs: see "Lifetime" above
 * @released: completed when @refs drops to zero
 * @lock: protects @active, @waiting, @reports, @dying and the states of
 *	the sends on them, and the RMPP state of its receives
 * @active: sends whose work request is with the hardware, or waiting to
 *	be posted (segment after segment for RMPP)
 * @waiting: sends sent, waiting for their response, by deadline
 * @reports: sends done, whose completion the report work delivers
 * @rmpp_in: RMPP messages being reassembled (rmpp.c)
 * @rcu: frees the agent after a grace period
 * @timer: expires the first of @waiting
 * @rmpp_timer: drops the reassemblies of @rmpp_in that stalled
 * @report: delivers @reports
 * @dying: being unregistered: nothing new is accepted
 */
struct mad_agent {
	struct ib_mad_agent agent;
	struct mad_port *port;
	struct mad_qp *mqp;
	struct ib_mad_reg_req *reg;
	refcount_t refs;
	struct completion released;
	spinlock_t lock;
	struct list_head active;
	struct list_head waiting;
	struct list_head reports;
	struct list_head rmpp_in;
	struct delayed_work timer;
	struct delayed_work rmpp_timer;
	struct work_struct report;
	bool dying;
	struct rcu_head rcu;
};

static inline struct mad_agent *to_mad_agent(const struct ib_mad_agent *a)
{
	return container_of(a, struct mad_agent, agent);
}

/* Where a send is (send.c); under agent->lock. */
enum mad_send_state {
	MAD_SEND_NEW,		/* not posted yet */
	MAD_SEND_ACTIVE,	/* with the hardware (or its backlog) */
	MAD_SEND_WAITING,	/* sent, waiting for a response */
	MAD_SEND_DONE,		/* its completion is being reported */
};

/**
 * struct mad_send - a send buffer, behind the consumer's ib_mad_send_buf
 * @buf: what the consumer sees
 * @ma: its agent
 * @link: on one of the agent's lists, by @state
 * @qlink: on its QP's posted list or backlog
 * @cqe: the completion of its work request
 * @wr: its work request
 * @sge: header and (RMPP) segment, by DMA address while posted
 * @sge_va: the same by kernel address, for mapping and unmapping
 * @nsge: SGEs in use
 * @state: see enum mad_send_state
 * @status: the status its completion will report
 * @tid: the TID a response must carry
 * @mgmt_class: the class a response must have
 * @timeout: jiffies to wait for the response, per try (0: none expected)
 * @deadline: when the response is late (in @waiting)
 * @tries_left: retries left
 * @in_hw: its work request was posted and has not completed
 * @internal: sent by the MAD layer itself (RMPP ACK, STOP, ABORT): its
 *	end frees it instead of reaching the send_handler
 * @responded: its response arrived
 * @delivering: that response is being delivered (send_match() until
 *	send_responded()): the receive path owns the send and reports it;
 *	nothing else may
 * @pad: bytes of padding after the data
 * @rmpp: RMPP sending state (rmpp.c): next segment, window, last ACK
 * @payload: the data of an RMPP send, segment after segment
 * @local: loops a directed-route SMP with hop count 0 back through the
 *	receive path instead of the wire (send.c)
 */
struct mad_send {
	struct ib_mad_send_buf buf;
	struct mad_agent *ma;
	struct list_head link;
	struct list_head qlink;
	struct ib_cqe cqe;
	struct ib_ud_wr wr;
	struct ib_sge sge[2];
	void *sge_va[2];
	int nsge;
	enum mad_send_state state;
	enum ib_wc_status status;
	__be64 tid;
	u8 mgmt_class;
	unsigned long timeout;
	unsigned long deadline;
	int tries_left;
	bool in_hw;
	bool internal;
	bool responded;
	bool delivering;
	int pad;
	struct {
		int seg;	/* the segment being sent, 1-based */
		int last_ack;	/* segments the receiver acknowledged */
		int window;	/* last segment the receiver can take */
		bool active;	/* an RMPP transfer */
		bool acked_all;
	} rmpp;
	u8 *payload;
	struct work_struct local;
};

/* ---- port.c (and client.h) ---- */
struct mad_port *port_get(struct ib_device *dev, u32 port_num);

/* ---- qp.c ---- */
int qp_setup(struct mad_qp *mqp, struct mad_port *port, enum ib_qp_type t);
void qp_close(struct mad_qp *mqp);
void qp_free_recvs(struct mad_qp *mqp);
bool qp_recv_taken(struct mad_qp *mqp, struct mad_rbuf *rb, bool ok);
int qp_post_send(struct mad_send *ms);
void qp_send_done(struct ib_cq *cq, struct ib_wc *wc);
void qp_repost_recv(struct mad_qp *mqp, struct mad_rbuf *rb);
struct mad_rbuf *qp_alloc_rbuf(struct mad_qp *mqp, gfp_t gfp);

/* ---- agent.c ---- */
struct mad_agent *agent_find(struct mad_port *port, struct mad_qp *mqp,
			     const struct ib_mad_hdr *hdr);
void agent_put(struct mad_agent *ma);

/* ---- send.c ---- */
void send_hw_done(struct mad_send *ms, enum ib_wc_status status);
struct mad_send *send_match(struct mad_agent *ma,
			    const struct ib_mad_recv_wc *rwc);
void send_responded(struct mad_send *ms);
void send_cancel_all(struct mad_agent *ma);
struct ib_mad_send_buf *send_internal(struct mad_agent *ma, u32 qpn,
				      u16 pkey_index);
void send_rmpp_ctl(struct mad_agent *ma, const struct ib_mad_recv_wc *rwc);
void send_timer_fn(struct work_struct *work);
void send_report_fn(struct work_struct *work);
struct ib_mad_agent *send_reply_agent(struct mad_port *port,
				      enum ib_qp_type qp_type);
int send_reply(struct mad_port *port, struct mad_qp *mqp,
	       const struct ib_wc *wc, const struct ib_grh *grh,
	       const void *mad, size_t len);

/* ---- rmpp.c ---- */
void rmpp_timer_fn(struct work_struct *work);

/* ---- recv.c ---- */
void recv_done(struct ib_cq *cq, struct ib_wc *wc);
void recv_deliver(struct mad_agent *ma, struct ib_mad_recv_wc *rwc);
void recv_local(struct mad_port *port, struct mad_qp *mqp, const void *mad);

/* ---- counters.c ---- */
void counters_drop(struct mad_port *port, enum mad_drop why);
void counters_port_add(struct mad_port *port);
void counters_port_remove(struct mad_port *port);
void counters_init(void);
void counters_exit(void);

#endif
