/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the rdma_kunit_verbs suites share: a registered test device with a
 * PD per test case (test->priv), and helpers for CQs and QPs.
 */
#ifndef RDMA_KUNIT_VERBS_H
#define RDMA_KUNIT_VERBS_H

#include <kunit/test.h>
#include "tdev.h"

#define VK_QKEY 0x11110000

struct vk {
	struct tdev *td;
	struct ib_device *dev;
	struct ib_pd *pd;
};

int vk_init(struct kunit *test);
int vk_init_with(struct kunit *test, const struct tdev_params *params);
void vk_exit(struct kunit *test);
struct ib_cq *vk_cq(struct kunit *test, int cqe, enum ib_poll_context ctx);
struct ib_qp *vk_qp(struct kunit *test, enum ib_qp_type type,
		    struct ib_cq *scq, struct ib_cq *rcq, struct ib_srq *srq);
int vk_connect(struct ib_qp *qp, u32 dest);

#endif
