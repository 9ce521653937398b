/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of rdma_kunit_tdev share; not for the suites (tdev.h).
 *
 * The double is a TEST DOUBLE, not a driver for hardware, but it behaves
 * like hardware.  Each file owns one kind of object and says how it is
 * locked:
 *
 *   main.c      module init/exit, the ndevs parameter, the debugfs event
 *               file, the platform device real-DMA devices use
 *   device.c    device-level ops, PDs, tdev_create/register/destroy
 *   engine.c    the "hardware": one interrupt context per completion
 *               vector that runs what QPs and CQs scheduled on it, and
 *               the device's asynchronous events
 *   cq.c        completion queues: rings, arming, overflow
 *   qp.c        QPs (XRC targets too), SRQs, their send and receive
 *               rings, state changes, flushing, affiliated events,
 *               multicast groups
 *   wq.c        receive work queues
 *   exec.c      executing send work requests: memory moved with memcpy
 *               between the QPs of any tdevs
 *   mr.c        MRs, their page lists and what a key reaches in memory
 *   sig.c       T10-DIF signature offload of integrity MRs
 *   ah.c        address handles and the GRH of a UD message
 *   fabric.c    LIDs, the devices a datagram can reach, routing it to a
 *               port and a QP (QP0 and QP1 are per port), the key rules
 *   netdev.c    the registered netdevs of RoCE devices
 *
 * Work requests: post_send and post_recv check what a hardware queue
 * checks at post time (queue state, room, the WQE's SGE count, inline
 * size), copy the work request into the queue's ring and return.  The
 * engine of the QP's send CQ vector executes the send queue later: data
 * is copied with memcpy from the sender's SGEs into the receiver's posted
 * buffers (or from or to a remote MR), completions go to both CQs, and
 * an armed CQ's completion handler is called from the engine of the CQ's
 * vector.  A ring slot is free again once the completion of its work
 * request, or of a later one of the same queue, has been polled.
 *
 * Lock order: qp->lock (of the receiving QP) -> srq->lock -> cq->lock ->
 * vec->lock; tv_qps' lock and mr->lock are leaves.  No lock is held while
 * the core is called (completion and event handlers, ib_dispatch_event(),
 * ib_device_get_by_netdev()).
 *
 * Lifetime: an engine holds a reference on each QP and CQ it has
 * scheduled (struct tv_sched); destroying one waits until the engines are
 * done with it.  MRs are freed after an RCU grace period: the engines
 * look keys up under rcu_read_lock().
 */
#ifndef RDMA_KUNIT_TDEV_PRIV_H
#define RDMA_KUNIT_TDEV_PRIV_H

#include <linux/completion.h>
#include <linux/refcount.h>
#include <rdma/ib_verbs.h>
#include <rdma/signature.h>
#include "tdev.h"

#define TV_MAX_WR	1024
#define TV_MAX_SGE	16
#define TV_MAX_INLINE	256
#define TV_MAX_CQE	4096
#define TV_MAX_CQ	256
#define TV_MAX_PAGES	256
/* The room for the network header at the start of a datagram's receive */
#define TV_GRH_LEN	40

/* ---- engine.c ---- */

struct tv_vec;

/**
 * struct tv_sched - something an engine runs: a QP or a CQ
 * @link: on its vector's list while @queued; under vec->lock
 * @queued: on the list; under vec->lock
 * @ref: one for the owner, one while queued or running
 * @idle: completed when @ref drops to zero (the owner destroys it)
 * @vec: the vector whose context runs it
 * @run: what the engine calls, in the vector's context, with no lock
 *	held; returns true if there is more to do (it is queued again)
 */
struct tv_sched {
	struct list_head link;
	bool queued;
	refcount_t ref;
	struct completion idle;
	struct tv_vec *vec;
	bool (*run)(struct tv_sched *s);
};

int tv_engine_create(struct tdev *td);
void tv_engine_destroy(struct tdev *td);
void tv_sched_init(struct tv_sched *s, struct tdev *td, u32 vector,
		   bool (*run)(struct tv_sched *s));
void tv_sched_kick(struct tv_sched *s);
void tv_sched_retire(struct tv_sched *s);
bool tv_sched_busy(struct tv_sched *s);
int tv_engine_event(struct tdev *td, const struct ib_event *event);
bool tv_is_virt(struct tdev *td);
void *tv_dma_va(struct tdev *td, u64 addr);

/* ---- cq.c ---- */

struct tv_cq;
extern const struct ib_device_ops tdev_cq_ops;

/* Which ring of a QP a completion frees a slot of. */
enum tv_ring_id { TV_RING_NONE, TV_RING_SQ, TV_RING_RQ };

void tv_cq_push(struct ib_cq *ibcq, const struct ib_wc *wc,
		enum tv_ring_id ring, u32 index, bool solicited);
void tv_cq_purge(struct ib_cq *ibcq, struct ib_qp *qp);
void tv_cq_quiesce(struct ib_cq *ibcq);
bool tv_cq_is_direct(struct ib_cq *ibcq);

/* ---- qp.c ---- */

/*
 * A ring of work requests inside a QP or an SRQ.  @head and @next are
 * under the owner's lock; @tail is written by CQ polling (with release
 * semantics) and read locklessly: slots [tail, head) are in use.
 */
struct tv_ring {
	void *buf;
	u32 size;
	u32 stride;
	u32 max_sge;
	u32 head;	/* next slot to post to */
	u32 next;	/* next work request to execute or consume */
	u32 tail;	/* first slot whose completion is not yet polled */
};

static inline void *tv_ring_at(const struct tv_ring *r, u32 index)
{
	return r->buf + (size_t)(index % r->size) * r->stride;
}

/* A send work request as the "hardware" copied it at post time. */
struct tv_wqe {
	u64 wr_id;
	enum ib_wr_opcode opcode;
	int send_flags;
	int num_sge;
	u32 inline_len;
	union {
		__be32 imm_data;
		u32 invalidate_rkey;
	} ex;
	union {
		struct {
			u64 remote_addr;
			u32 rkey;
		} rdma;
		struct {
			struct ib_ah *ah;
			u32 remote_qpn;
			u32 remote_qkey;
			u16 pkey_index;
		} ud;
		struct {
			struct ib_mr *mr;
			u32 key;
			int access;
		} reg;
	};
	struct ib_sig_attrs sig;	/* IB_WR_REG_MR_INTEGRITY only */
	struct ib_sge sge[];		/* then the inline data */
};

/* A posted receive. */
struct tv_recv {
	u64 wr_id;
	int num_sge;
	struct ib_sge sge[];
};

/* A receive as the engine took it, and the ring slot its completion frees. */
struct tv_recv_copy {
	u64 wr_id;
	int num_sge;
	enum tv_ring_id ring;
	u32 index;
	struct ib_sge sge[TV_MAX_SGE];
};

/**
 * struct tv_qp - a queue pair
 * @ibqp: the core's QP
 * @td: its device
 * @lock: protects everything below but @sched, @cap and @sig_all
 * @state: the QP state
 * @attr: the attributes set by modify_qp
 * @cap: the granted capabilities; constant after create_qp
 * @sig_all: every send work request completes; constant
 * @sq: the send queue
 * @rq: the receive queue (unused with an SRQ)
 * @executing: the engine is executing a work request of @sq outside the
 *	lock; a move to Reset waits for it
 * @flushed: the rings were flushed since the QP entered the error state
 * @comm_est: IB_EVENT_COMM_EST was raised since Reset
 * @last_wqe: IB_EVENT_QP_LAST_WQE_REACHED is to be raised (SRQ)
 * @fatal: IB_EVENT_QP_FATAL is to be raised
 * @mcast: the multicast groups the QP joined (params.mcast)
 * @nmcast: how many of @mcast are in use
 * @sched: how the engine of the send CQ's vector runs the QP
 */
struct tv_qp {
	struct ib_qp ibqp;
	struct tdev *td;
	spinlock_t lock;
	enum ib_qp_state state;
	struct ib_qp_attr attr;
	struct ib_qp_cap cap;
	bool sig_all;
	struct tv_ring sq;
	struct tv_ring rq;
	bool executing;
	bool flushed;
	bool comm_est;
	bool last_wqe;
	bool fatal;
	union ib_gid mcast[TDEV_MAX_MCAST];
	u32 nmcast;
	struct tv_sched sched;
};

static inline struct tv_qp *to_tqp(struct ib_qp *q)
{
	return container_of(q, struct tv_qp, ibqp);
}

extern const struct ib_device_ops tdev_qp_ops;
extern const struct ib_device_ops tdev_drain_ops;
extern const struct ib_device_ops tdev_mcast_ops;
struct tv_qp *tv_qp_get(u32 qpn);
struct tv_qp *tv_sqp_get(struct tdev *td, u32 port, u32 qpn);
bool tv_is_datagram(enum ib_qp_type type);
void tv_qp_put(struct tv_qp *qp);
bool tv_qp_can_receive(enum ib_qp_state s);
bool tv_qp_take_recv(struct tv_qp *qp, struct tv_recv_copy *out, bool *limit);
void tv_qp_error_locked(struct tv_qp *qp);
void tv_qp_event(struct tv_qp *qp, enum ib_event_type type);
bool tv_qp_run(struct tv_sched *s);
void tv_ring_retire(struct tv_qp *qp, enum tv_ring_id ring, u32 index);
void tv_srq_limit_event(struct ib_srq *ibsrq);

/* ---- wq.c ---- */

extern const struct ib_device_ops tdev_wq_ops;

/* ---- exec.c ---- */

enum ib_wc_status tv_exec(struct tv_qp *qp, struct tv_wqe *wqe, u32 *byte_len);

/* ---- mr.c ---- */

struct tv_mr;
extern const struct ib_device_ops tdev_mr_ops;
extern const struct ib_device_ops tdev_kverbs_mr_ops;
extern const struct ib_device_ops tdev_integrity_ops;
void *tv_mem_va(struct ib_pd *pd, u32 key, u64 addr, u32 len, int access,
		u32 *chunk);
struct tv_mr *tv_mr_integrity(struct ib_pd *pd, u32 key);
bool tv_invalidate(struct ib_pd *pd, u32 key);
enum ib_wc_status tv_reg_mr(struct ib_pd *pd, const struct tv_wqe *wqe);
void tv_mrs_check_empty(void);

/* ---- sig.c ---- */

/*
 * The signature state of an integrity MR: what map_mr_sg_pi mapped, what
 * the registration said, the wire view an operation moves, and the first
 * error a check found.  Owned by mr.c's struct tv_mr.
 */
struct tv_sig {
	u64 *data_pages;
	u64 *meta_pages;
	u32 max_pages;
	u32 ndata, nmeta;
	u64 data_iova, meta_iova;
	u32 data_len, meta_len;
	u32 page_size;
	u8 *wire;		/* the wire view, @wire_cap bytes */
	u32 wire_cap;
	u32 wire_len;		/* of the current registration */
	struct ib_sig_attrs attrs;	/* of the current registration */
	spinlock_t err_lock;	/* protects @err_set and @err */
	bool err_set;
	struct ib_sig_err err;
};

int tv_sig_init(struct tv_sig *sig, u32 max_pages);
void tv_sig_free(struct tv_sig *sig);
int tv_sig_map(struct tv_sig *sig);
bool tv_sig_register(struct tv_sig *sig, const struct ib_sig_attrs *attrs);
void tv_sig_outbound(struct tdev *td, struct tv_sig *sig, u32 key);
void tv_sig_inbound(struct tdev *td, struct tv_sig *sig, u32 key);
int tv_sig_status(struct tv_sig *sig, u32 check_mask,
		  struct ib_mr_status *st);
struct tv_sig *tv_mr_sig(struct tv_mr *mr);

/* ---- ah.c ---- */

/*
 * An address vector as the engine reads it: the AV, the source GID of a
 * GRH and that GID's type.
 */
struct tv_av {
	struct rdma_ah_attr attr;
	union ib_gid sgid;
	bool has_sgid;
	enum ib_gid_type gid_type;
};

extern const struct ib_device_ops tdev_ah_ops;
void tv_ah_read(struct ib_ah *ibah, struct tv_av *av);
bool tv_av_fill_grh(void *grh, const struct tv_av *av, u32 len, bool roce,
		    struct ib_wc *wc);

/* ---- fabric.c ---- */

/*
 * Where a datagram goes: the receiving QP (a reference), its port, the
 * P_Key index its completion reports, the sender's address vector, and
 * whether it arrives over RoCE.
 */
struct tv_dest {
	struct tv_qp *qp;
	u32 port;
	u16 pkey_index;
	bool roce;
	struct tv_av av;
};

int tv_lids_alloc(struct tdev *td);
void tv_lids_free(struct tdev *td);
void tv_fabric_join(struct tdev *td);
void tv_fabric_leave(struct tdev *td);
bool tv_route(struct tv_qp *qp, struct tv_wqe *wqe, struct tv_dest *d);

/* ---- netdev.c ---- */

bool tv_packet_arrives(struct tdev *to);

/* ---- main.c ---- */

void tdev_debugfs_add(struct tdev *td);
void tdev_debugfs_remove(struct tdev *td);
struct device *tdev_dma_device(void);
extern struct workqueue_struct *tdev_wq;

#endif
