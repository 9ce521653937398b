// SPDX-License-Identifier: GPL-2.0
/*
 * The files of hw/rxe/ that need no registered device, built into rdma_kunit_rxe as
 * they are into rdma_rxe: what the suites test is the driver's own code.
 */
#include "../../../hw/rxe/wire.c"
#include "../../../hw/rxe/icrc.c"
#include "../../../hw/rxe/queue.c"
#include "../../../hw/rxe/counters.c"
#include "../../../hw/rxe/mmap.c"
#include "../../../hw/rxe/av.c"
#include "../../../hw/rxe/ah.c"
#include "../../../hw/rxe/cq.c"
#include "../../../hw/rxe/srq.c"
#include "../../../hw/rxe/qp.c"
#include "../../../hw/rxe/mr.c"
#include "../../../hw/rxe/recv.c"
#include "../../../hw/rxe/mem.c"
#include "../../../hw/rxe/xmit.c"
#include "../../../hw/rxe/post.c"
#include "../../../hw/rxe/req.c"
#include "../../../hw/rxe/resp.c"
#include "../../../hw/rxe/comp.c"
