/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_kunit_lib: helpers of the verbs and data-path suites (vk_*).
 *
 * The fixture (vk.c): a registered test device with a PD per case, in
 * test->priv, and CQs and QPs on it.  Traffic (traffic.c): two QPs
 * connected to each other, buffers to send from and receive into, MR
 * registration and RDMA work requests, and a completion counter.
 *
 * The test device completes work later, in its interrupt context: a case
 * that polls a CQ waits for what it expects (vk_poll_wait(),
 * vk_poll_exact()), at most VK_WAIT_MS.
 */
#ifndef RDMA_KUNIT_VK_H
#define RDMA_KUNIT_VK_H

#include <kunit/test.h>
#include <linux/completion.h>
#include "tdev.h"

/* The Q_Key of UD QPs connected with vk_connect() */
#define VK_QKEY 0x11110000
/* How long a case waits for completions it expects */
#define VK_WAIT_MS 5000

/**
 * struct vk - the fixture of a case (test->priv), set up by vk_init()
 * @td: a registered test device of its own
 * @dev: &td->ibdev
 * @pd: a PD on @dev
 */
struct vk {
	struct tdev *td;
	struct ib_device *dev;
	struct ib_pd *pd;
};

int vk_init(struct kunit *test);
int vk_init_with(struct kunit *test, const struct tdev_params *params);
void vk_exit(struct kunit *test);
void vk_reinit(struct kunit *test, const struct tdev_params *params);
struct ib_cq *vk_cq(struct kunit *test, int cqe, enum ib_poll_context ctx);
struct ib_qp *vk_qp(struct kunit *test, enum ib_qp_type type,
		    struct ib_cq *scq, struct ib_cq *rcq, struct ib_srq *srq);
struct ib_qp *vk_qp_alone(struct kunit *test, enum ib_qp_type type);
void vk_qp_alone_free(struct kunit *test, struct ib_qp *qp);
int vk_connect(struct ib_qp *qp, u32 dest);
enum ib_qp_state vk_state(struct ib_qp *qp);
int vk_poll_wait(struct ib_cq *cq, int n, struct ib_wc *wc);
void vk_poll_exact(struct kunit *test, struct ib_cq *cq, struct ib_wc *wc,
		   int n);

/**
 * struct vk_pair - two QPs of one type, connected to each other
 * @cq: the send CQ of both (and their receive CQ, unless @rcq is another)
 * @rcq: the receive CQ of both
 * @a: the QP the cases send from
 * @b: its peer
 */
struct vk_pair {
	struct ib_cq *cq;
	struct ib_cq *rcq;
	struct ib_qp *a, *b;
};

void vk_pair_connect(struct kunit *test, struct vk_pair *p,
		     enum ib_qp_type type, struct ib_cq *cq,
		     struct ib_srq *srq);
void vk_pair_make(struct kunit *test, struct vk_pair *p,
		  enum ib_qp_type type, enum ib_poll_context ctx,
		  struct ib_srq *srq);
void vk_pair_make_split(struct kunit *test, struct vk_pair *p,
			enum ib_qp_type type, enum ib_poll_context ctx,
			struct ib_srq *srq);
void vk_pair_free_qps(struct kunit *test, struct vk_pair *p);
void vk_pair_free(struct kunit *test, struct vk_pair *p);

struct ib_sge vk_sge(struct kunit *test, void *buf, u32 len);
void vk_reg_mr(struct kunit *test, struct ib_qp *qp, struct ib_mr *mr,
	       int access);
struct ib_mr *vk_reg_buf(struct kunit *test, struct ib_qp *qp, void *buf,
			 u32 len, int access);
int vk_rdma(struct ib_qp *qp, u64 id, enum ib_wr_opcode op,
	    struct ib_sge *sge, u64 raddr, u32 rkey);
void vk_rdma_poll(struct kunit *test, struct vk_pair *p, u64 id,
		  enum ib_wr_opcode op, struct ib_sge *sge, u64 raddr,
		  u32 rkey, struct ib_wc *wc);

/**
 * struct vk_counter - counts the completions dispatched to it
 * @cqe: the wr_cqe of the work requests it counts
 * @n: completions so far
 * @errors: completions with a status other than success or flush
 * @want: @all is completed when @n reaches it (0: never)
 * @all: see @want
 */
struct vk_counter {
	struct ib_cqe cqe;
	atomic_t n;
	atomic_t errors;
	int want;
	struct completion all;
};

void vk_counter_init(struct vk_counter *c, int want);
bool vk_counter_wait(struct vk_counter *c, struct ib_cq *cq, int n);
void vk_post_counted(struct kunit *test, struct vk_pair *p,
		     struct vk_counter *c, int recvs, int sends);
void vk_traffic(struct kunit *test, struct vk_pair *p, struct vk_counter *c,
		int rounds);
void vk_poll_ctx_desc(const enum ib_poll_context *ctx, char *desc);
const char *vk_exec_name(enum tdev_exec exec);

#endif
