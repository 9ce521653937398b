/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_traffic: what its files share.
 *
 * main.c     the ib_client, the devices it was given, the run's life
 *            (start, stop, abort on removal) and the module parameters
 * debugfs.c  /sys/kernel/debug/rdma_traffic/{pair,control,status,report}
 * conn.c     the two ends of a run: PD, CQ, QP, buffer and MR on each
 *            device, the address vectors and INIT->RTR->RTS
 * ops.c      the operations: rounds of work requests, their data
 *            patterns and their verification
 * report.c   counting and the report lines
 *
 * There is one run at a time (traffic_run); its lock order and lifetime
 * rules are at struct traffic_run.
 */
#ifndef RDMA_TRAFFIC_H
#define RDMA_TRAFFIC_H

#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#define TRAFFIC_PORT		1
#define TRAFFIC_MAX_DEPTH	64
#define TRAFFIC_NSIZES		11	/* 1 B to 1 MiB, powers of 4 */
#define TRAFFIC_REPORT_LEN	16384

enum traffic_op {
	TRAFFIC_SEND,
	TRAFFIC_WRITE,
	TRAFFIC_READ,
	TRAFFIC_FETCH_ADD,
	TRAFFIC_CMP_SWAP,
	TRAFFIC_NOPS
};

enum traffic_state {
	TRAFFIC_IDLE,		/* no run yet */
	TRAFFIC_RUNNING,
	TRAFFIC_DONE,		/* every operation ran, data verified */
	TRAFFIC_FAILED,		/* stopped by an error */
	TRAFFIC_ABORTED,	/* stopped by a device removal or "stop" */
};

/**
 * struct traffic_params - what a run does, copied from the module
 *	parameters when it starts
 * @depth: work requests in flight per round (1..TRAFFIC_MAX_DEPTH)
 * @iters: rounds per operation and size, at most
 * @max_bytes: bytes per operation and size, at most (fewer rounds)
 * @max_size: the largest transfer size
 * @timeout_ms: how long one round may take
 */
struct traffic_params {
	unsigned int depth;
	unsigned int iters;
	unsigned long max_bytes;
	unsigned long max_size;
	unsigned int timeout_ms;
};

/**
 * struct traffic_end - one side of the connection
 * @dev: the device, port TRAFFIC_PORT
 * @pd: its PD
 * @cq: the CQ of both its queues
 * @qp: the RC QP
 * @mr: a fast-registration MR over @buf, for local and remote access
 * @pages: the pages of @buf
 * @npages: their number
 * @buf: the buffer, @pages mapped contiguously for the CPU
 * @sgt: @pages, DMA-mapped on @dev
 * @mapped: @sgt is DMA-mapped
 * @res: words the responder's atomics return to (requester end only)
 * @res_dma: their DMA address, used with the PD's local_dma_lkey
 * @av: how to reach the other end
 * @rts: the QP reached RTS, so it may have work to drain
 */
struct traffic_end {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_mr *mr;
	struct page **pages;
	unsigned int npages;
	void *buf;
	struct sg_table sgt;
	bool mapped;
	u64 *res;
	u64 res_dma;
	struct rdma_ah_attr av;
	bool rts;
};

/**
 * struct traffic_slot - one work request of a round and its completions
 * @run: the run
 * @send_cqe: completion of the requester's work request
 * @recv_cqe: completion of the responder's receive (send/recv only)
 * @sge: the requester's local buffer
 * @rsge: the responder's receive buffer
 * @wr: the requester's work request, as its opcode needs
 * @recv: the responder's receive
 * @byte_len: bytes the receive completion reported
 */
struct traffic_slot {
	struct traffic_run *run;
	struct ib_cqe send_cqe;
	struct ib_cqe recv_cqe;
	struct ib_sge sge;
	struct ib_sge rsge;
	union {
		struct ib_send_wr send;
		struct ib_rdma_wr rdma;
		struct ib_atomic_wr atomic;
	} wr;
	struct ib_recv_wr recv;
	u32 byte_len;
};

/**
 * struct traffic_stats - the figures of one operation and size
 * @ops: work requests completed
 * @bytes: bytes they moved
 * @errors: failed completions and transfers whose data did not verify
 * @ns: time from posting each round to its last completion
 */
struct traffic_stats {
	u64 ops;
	u64 bytes;
	u64 errors;
	u64 ns;
};

/**
 * struct traffic_run - the run (one at a time, traffic_run)
 * @work: executes the run on traffic_wq
 * @state: what the run is doing or how it ended; under traffic_lock
 * @seq: the run's number, from 1; under traffic_lock
 * @abort: set (any context) to stop the run; read by the run
 * @reason: why it was aborted; written before @abort is set
 * @fail: why it failed; the run's own
 * @report: the lines of the run so far; under traffic_lock
 * @report_len: their length; under traffic_lock
 * @params: what the run does; constant while it runs
 * @end: the requester [0] and the responder [1]; the run's own
 * @atomics: both devices report atomic support
 * @pending: completions the current round waits for
 * @wc_errors: failed completions in the current round
 * @first_bad: the status of the first of them
 * @wait: the run waits here for @pending and @abort
 * @slot: the work requests of a round
 * @stats: figures of the operation and size in progress
 * @total: figures of the whole run
 *
 * Lifetime: @end's devices stay registered while the run uses them,
 * because the client's remove() sets @abort and waits for @work before
 * it returns.  Lock order: traffic_lock, then nothing; the run never holds
 * traffic_lock while it waits.
 */
struct traffic_run {
	struct work_struct work;
	enum traffic_state state;
	unsigned int seq;
	bool abort;
	char reason[64];
	char fail[64];
	char report[TRAFFIC_REPORT_LEN];
	size_t report_len;
	struct traffic_params params;
	struct traffic_end end[2];
	bool atomics;
	atomic_t pending;
	atomic_t wc_errors;
	int first_bad;
	wait_queue_head_t wait;
	struct traffic_slot slot[TRAFFIC_MAX_DEPTH];
	struct traffic_stats stats;
	struct traffic_stats total;
};

/* Whether the run was told to stop. */
static inline bool traffic_aborted(struct traffic_run *run)
{
	/* Pairs with traffic_main_abort(): run->reason is complete */
	return smp_load_acquire(&run->abort);
}

/* main.c */
extern struct mutex traffic_lock;
extern struct traffic_run traffic_run;
int traffic_main_set_pair(const char *a, const char *b);
void traffic_main_get_pair(char *a, char *b);
int traffic_main_start(void);
void traffic_main_stop(const char *reason);
void traffic_main_abort(struct traffic_run *run, const char *reason);

/* debugfs.c */
void traffic_debugfs_init(void);
void traffic_debugfs_exit(void);

/* conn.c */
int traffic_conn_open(struct traffic_run *run);
void traffic_conn_close(struct traffic_run *run);

/* ops.c */
void traffic_ops_prepare(struct traffic_run *run);
int traffic_ops_post_wait(struct traffic_run *run, struct ib_qp *qp,
			  const struct ib_send_wr *wr);
int traffic_ops_run(struct traffic_run *run);

/* report.c */
void traffic_report(struct traffic_run *run, const char *fmt, ...)
	__printf(2, 3);
void traffic_report_stats(struct traffic_run *run, enum traffic_op op,
			  unsigned long size, const char *status);
void traffic_report_end(struct traffic_run *run, enum traffic_state end);
const char *traffic_report_state(enum traffic_state state);
const char *traffic_report_op(enum traffic_op op);

#endif
