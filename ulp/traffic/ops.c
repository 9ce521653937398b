// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_traffic: the operations.
 *
 * For each operation and size the run does rounds.  A round gives each of
 * n slots (n = depth, or fewer when n transfers of the size would not fit
 * the buffer) its own data pattern, posts n work requests as one chain
 * (send/recv also posts n receives on the responder first), waits for
 * their completions and verifies every slot:
 *
 *   send       requester's slot -> responder's slot (receive length too)
 *   write      requester's slot -> responder's slot (RDMA WRITE)
 *   read       responder's slot -> requester's slot (RDMA READ)
 *   fetch_add  a word of the responder's buffer; the old value returns to
 *   cmp_swap   the requester's result words (local_dma_lkey); even slots
 *              compare equal and swap, odd ones do not
 *
 * Every destination is first filled with the complement of what must
 * arrive, so a transfer that does not happen can never verify.  Patterns
 * are seeded by run, operation, size, round and slot.  The time of a round
 * runs from the post to the last completion.
 *
 * Completions run in softirq (IB_POLL_SOFTIRQ) and only count: they touch
 * run->pending, wc_errors, first_bad and a slot's byte_len, and wake the
 * run.  Nothing here allocates or locks per round.
 */
#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include "traffic.h"

/* A 64-bit mixing function (the splitmix64 finaliser). */
static u64 ops_mix(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Writes the pattern of @seed, each word XORed with @flip. */
static void ops_fill(u8 *p, size_t len, u64 seed, u64 flip)
{
	size_t i;

	for (i = 0; i < len; i += 8) {
		u64 w = ops_mix(seed + i) ^ flip;

		memcpy(p + i, &w, min_t(size_t, 8, len - i));
	}
}

static bool ops_check(const u8 *p, size_t len, u64 seed)
{
	size_t i;

	for (i = 0; i < len; i += 8) {
		u64 w = ops_mix(seed + i);

		if (memcmp(p + i, &w, min_t(size_t, 8, len - i)))
			return false;
	}
	return true;
}

static void ops_complete(struct traffic_run *run, const struct ib_wc *wc)
{
	if (wc->status != IB_WC_SUCCESS) {
		cmpxchg(&run->first_bad, 0, wc->status);
		atomic_inc(&run->wc_errors);
		wake_up(&run->wait);
	}
	if (atomic_dec_and_test(&run->pending))
		wake_up(&run->wait);
}

static void ops_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct traffic_slot *s = container_of(wc->wr_cqe, struct traffic_slot,
					      send_cqe);

	ops_complete(s->run, wc);
}

static void ops_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct traffic_slot *s = container_of(wc->wr_cqe, struct traffic_slot,
					      recv_cqe);

	s->byte_len = wc->byte_len;
	ops_complete(s->run, wc);
}

/**
 * traffic_ops_prepare() - set up the slots of a run before its first post
 * @run: the run
 */
void traffic_ops_prepare(struct traffic_run *run)
{
	unsigned int i;

	for (i = 0; i < TRAFFIC_MAX_DEPTH; i++) {
		run->slot[i].run = run;
		run->slot[i].send_cqe.done = ops_send_done;
		run->slot[i].recv_cqe.done = ops_recv_done;
	}
}

static void ops_arm(struct traffic_run *run, unsigned int completions)
{
	atomic_set(&run->wc_errors, 0);
	run->first_bad = 0;
	atomic_set(&run->pending, completions);
}

/*
 * Waits for the armed completions: 0, -EINTR (abort), -ETIMEDOUT, or -EIO
 * at the first failed one (after it the other end's receives would only
 * complete when the QPs are drained).
 */
static int ops_wait(struct traffic_run *run)
{
	long left;

	left = wait_event_timeout(run->wait, !atomic_read(&run->pending) ||
				  atomic_read(&run->wc_errors) ||
				  traffic_aborted(run),
				  msecs_to_jiffies(run->params.timeout_ms));
	if (traffic_aborted(run))
		return -EINTR;
	if (!left)
		return -ETIMEDOUT;
	return atomic_read(&run->wc_errors) ? -EIO : 0;
}

/**
 * traffic_ops_post_wait() - post one signaled work request and wait for it
 * @run: the run; @wr's wr_cqe must be slot 0's send_cqe
 * @qp: the QP
 * @wr: the work request
 *
 * Return: 0, the errno of ib_post_send(), or as the wait ends: -EINTR on
 * abort, -ETIMEDOUT, -EIO for a failed completion.
 */
int traffic_ops_post_wait(struct traffic_run *run, struct ib_qp *qp,
			  const struct ib_send_wr *wr)
{
	int ret;

	ops_arm(run, 1);
	ret = ib_post_send(qp, wr, NULL);
	return ret ? ret : ops_wait(run);
}

/* ---- one round ---- */

/**
 * struct ops_round - what a round does
 * @op: the operation
 * @size: bytes per transfer
 * @n: transfers (slots)
 * @seed: the round's seed; slot i uses @seed + i
 */
struct ops_round {
	enum traffic_op op;
	unsigned long size;
	unsigned int n;
	u64 seed;
};

static u64 ops_slot_seed(const struct ops_round *r, unsigned int i)
{
	return ops_mix(r->seed + i);
}

/* The atomic operands of slot @i: old value, add or compare, swap. */
static void ops_atomic_values(const struct ops_round *r, unsigned int i,
			      u64 *old, u64 *arg, u64 *swap)
{
	u64 seed = ops_slot_seed(r, i);

	*old = ops_mix(seed);
	*arg = ops_mix(seed + 1);
	*swap = ops_mix(seed + 2);
	if (r->op == TRAFFIC_CMP_SWAP)
		*arg = (i & 1) ? ~*old : *old;
}

/* Fills sources with their patterns and destinations with complements. */
static void ops_fill_round(struct traffic_run *run, const struct ops_round *r)
{
	u8 *req = run->end[0].buf, *resp = run->end[1].buf;
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		u64 seed = ops_slot_seed(r, i), old, arg, swap;
		size_t off = i * r->size;

		switch (r->op) {
		case TRAFFIC_SEND:
		case TRAFFIC_WRITE:
			ops_fill(req + off, r->size, seed, 0);
			ops_fill(resp + off, r->size, seed, ~0ULL);
			break;
		case TRAFFIC_READ:
			ops_fill(resp + off, r->size, seed, 0);
			ops_fill(req + off, r->size, seed, ~0ULL);
			break;
		default:
			ops_atomic_values(r, i, &old, &arg, &swap);
			((u64 *)resp)[i] = old;
			run->end[0].res[i] = ~old;
			break;
		}
	}
}

/* The number of slots whose data did not arrive as it should. */
static unsigned int ops_verify_round(struct traffic_run *run,
				     const struct ops_round *r)
{
	u8 *req = run->end[0].buf, *resp = run->end[1].buf;
	unsigned int i, bad = 0;
	u64 old, arg, swap, want;

	for (i = 0; i < r->n; i++) {
		size_t off = i * r->size;
		u64 seed = ops_slot_seed(r, i);

		switch (r->op) {
		case TRAFFIC_SEND:
			bad += run->slot[i].byte_len != r->size ||
			       !ops_check(resp + off, r->size, seed);
			break;
		case TRAFFIC_WRITE:
			bad += !ops_check(resp + off, r->size, seed);
			break;
		case TRAFFIC_READ:
			bad += !ops_check(req + off, r->size, seed);
			break;
		default:
			ops_atomic_values(r, i, &old, &arg, &swap);
			if (r->op == TRAFFIC_FETCH_ADD)
				want = old + arg;
			else
				want = arg == old ? swap : old;
			bad += run->end[0].res[i] != old ||
			       ((u64 *)resp)[i] != want;
			break;
		}
	}
	return bad;
}

static void ops_build_recv(struct traffic_run *run, const struct ops_round *r,
			   unsigned int i)
{
	struct traffic_end *resp = &run->end[1];
	struct traffic_slot *s = &run->slot[i];

	s->rsge.addr = resp->mr->iova + i * r->size;
	s->rsge.length = r->size;
	s->rsge.lkey = resp->mr->lkey;
	s->recv.wr_cqe = &s->recv_cqe;
	s->recv.sg_list = &s->rsge;
	s->recv.num_sge = 1;
	s->recv.next = i + 1 < r->n ? &run->slot[i + 1].recv : NULL;
	s->byte_len = 0;
}

static const enum ib_wr_opcode ops_opcodes[TRAFFIC_NOPS] = {
	[TRAFFIC_SEND] = IB_WR_SEND,
	[TRAFFIC_WRITE] = IB_WR_RDMA_WRITE,
	[TRAFFIC_READ] = IB_WR_RDMA_READ,
	[TRAFFIC_FETCH_ADD] = IB_WR_ATOMIC_FETCH_AND_ADD,
	[TRAFFIC_CMP_SWAP] = IB_WR_ATOMIC_CMP_AND_SWP,
};

/* The requester's work request of slot @i. */
static void ops_build_send(struct traffic_run *run, const struct ops_round *r,
			   unsigned int i)
{
	struct traffic_end *req = &run->end[0], *resp = &run->end[1];
	struct traffic_slot *s = &run->slot[i];
	bool atomic = r->op >= TRAFFIC_FETCH_ADD;
	size_t off = i * r->size;
	u64 old, arg, swap;

	memset(&s->wr, 0, sizeof(s->wr));
	if (atomic) {
		s->sge.addr = req->res_dma + i * sizeof(u64);
		s->sge.length = sizeof(u64);
		s->sge.lkey = req->pd->local_dma_lkey;
		ops_atomic_values(r, i, &old, &arg, &swap);
		s->wr.atomic.remote_addr = resp->mr->iova + off;
		s->wr.atomic.rkey = resp->mr->rkey;
		s->wr.atomic.compare_add = arg;
		s->wr.atomic.swap = swap;
	} else {
		s->sge.addr = req->mr->iova + off;
		s->sge.length = r->size;
		s->sge.lkey = req->mr->lkey;
		s->wr.rdma.remote_addr = resp->mr->iova + off;
		s->wr.rdma.rkey = resp->mr->rkey;
	}
	s->wr.send.opcode = ops_opcodes[r->op];
	s->wr.send.send_flags = IB_SEND_SIGNALED;
	s->wr.send.wr_cqe = &s->send_cqe;
	s->wr.send.sg_list = &s->sge;
	s->wr.send.num_sge = 1;
	s->wr.send.next = i + 1 < r->n ? &run->slot[i + 1].wr.send : NULL;
}

/* CPU and device views of the buffers; no-op for virtual DMA. */
static void ops_sync(struct traffic_end *e, bool for_cpu, unsigned int words)
{
	struct device *dma = e->dev->dma_device;

	if (ib_uses_virt_dma(e->dev))
		return;
	if (for_cpu)
		dma_sync_sgtable_for_cpu(dma, &e->sgt, DMA_BIDIRECTIONAL);
	else
		dma_sync_sgtable_for_device(dma, &e->sgt, DMA_BIDIRECTIONAL);
	if (!e->res)
		return;
	if (for_cpu)
		ib_dma_sync_single_for_cpu(e->dev, e->res_dma,
					   words * sizeof(u64),
					   DMA_BIDIRECTIONAL);
	else
		ib_dma_sync_single_for_device(e->dev, e->res_dma,
					      words * sizeof(u64),
					      DMA_BIDIRECTIONAL);
}

static void ops_sync_both(struct traffic_run *run, bool for_cpu)
{
	ops_sync(&run->end[0], for_cpu, run->params.depth);
	ops_sync(&run->end[1], for_cpu, 0);
}

/* Posts the round's chains; 0 or the errno of the post. */
static int ops_post_round(struct traffic_run *run, const struct ops_round *r)
{
	unsigned int i;
	int ret;

	for (i = 0; i < r->n; i++) {
		if (r->op == TRAFFIC_SEND)
			ops_build_recv(run, r, i);
		ops_build_send(run, r, i);
	}
	ops_arm(run, r->op == TRAFFIC_SEND ? 2 * r->n : r->n);
	if (r->op == TRAFFIC_SEND) {
		ret = ib_post_recv(run->end[1].qp, &run->slot[0].recv, NULL);
		if (ret)
			return ret;
	}
	return ib_post_send(run->end[0].qp, &run->slot[0].wr.send, NULL);
}

/* Names why a round failed in run->fail (no spaces: a report value). */
static void ops_failed(struct traffic_run *run, const struct ops_round *r,
		       const char *what, int value)
{
	snprintf(run->fail, sizeof(run->fail), "%s%d@%s/%lu", what, value,
		 traffic_report_op(r->op), r->size);
}

static int ops_round(struct traffic_run *run, const struct ops_round *r)
{
	struct traffic_stats *st = &run->stats;
	u64 t0;
	int ret;

	ops_fill_round(run, r);
	ops_sync_both(run, false);
	t0 = ktime_get_ns();
	ret = ops_post_round(run, r);
	if (ret) {
		ops_failed(run, r, "post_errno", ret);
		return ret;
	}
	ret = ops_wait(run);
	st->ns += ktime_get_ns() - t0;
	if (ret == -EIO)
		ops_failed(run, r, "wc_status", run->first_bad);
	else if (ret == -ETIMEDOUT)
		ops_failed(run, r, "timeout_ms", run->params.timeout_ms);
	if (ret == -EIO)
		st->errors += atomic_read(&run->wc_errors);
	else if (ret == -ETIMEDOUT)
		st->errors += atomic_read(&run->pending);
	if (ret)
		return ret;
	ops_sync_both(run, true);
	st->errors += ops_verify_round(run, r);
	st->ops += r->n;
	st->bytes += (u64)r->n * r->size;
	return 0;
}

/* ---- operations and sizes ---- */

static const char *ops_status(int ret, const struct traffic_stats *st)
{
	if (ret == -EINTR)
		return "aborted";
	return ret || st->errors ? "errors" : "ok";
}

/* All rounds of one operation and size. */
static int ops_size(struct traffic_run *run, enum traffic_op op,
		    unsigned long size, unsigned int size_idx)
{
	const struct traffic_params *p = &run->params;
	unsigned int rounds, k;
	struct ops_round r = { .op = op, .size = size };
	int ret = 0;

	r.n = min_t(unsigned long, p->depth,
		    (unsigned long)run->end[0].npages * PAGE_SIZE / size);
	rounds = clamp_t(unsigned long, p->max_bytes / (r.n * size), 1,
			 p->iters);
	memset(&run->stats, 0, sizeof(run->stats));
	for (k = 0; k < rounds && !ret; k++) {
		if (traffic_aborted(run)) {
			ret = -EINTR;
			break;
		}
		r.seed = ops_mix(((u64)run->seq << 40) ^ ((u64)op << 32) ^
				 ((u64)size_idx << 24) ^ k);
		ret = ops_round(run, &r);
	}
	traffic_report_stats(run, op, size, ops_status(ret, &run->stats));
	return ret;
}

/**
 * traffic_ops_run() - every operation at every size
 * @run: a run whose ends are connected and registered
 *
 * Return: 0 when all ran (data errors are counted, not returned),
 * -EINTR if the run was aborted, or the error that stopped it (named in
 * run->fail).
 */
int traffic_ops_run(struct traffic_run *run)
{
	enum traffic_op op;
	unsigned int k;
	int ret;

	for (op = 0; op < TRAFFIC_NOPS; op++) {
		if (op >= TRAFFIC_FETCH_ADD) {
			if (!run->atomics) {
				traffic_report(run, "run=%u op=%s size=8 status=skipped reason=no_atomic_cap",
					       run->seq, traffic_report_op(op));
				continue;
			}
			ret = ops_size(run, op, sizeof(u64), 0);
			if (ret)
				return ret;
			continue;
		}
		for (k = 0; k < TRAFFIC_NSIZES; k++) {
			unsigned long size = 1UL << (2 * k);

			if (size > run->params.max_size)
				break;
			ret = ops_size(run, op, size, k);
			if (ret)
				return ret;
		}
	}
	return 0;
}
