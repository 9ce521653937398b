/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iwd: the test-double iWARP device of the iw_cm suites (rdma_kunit_iwcm).
 *
 * iwd.c is the device: one iWARP port (RDMA_CORE_PORT_IWARP), PDs, CQs
 * and RC QPs that only keep their state, and the QP side of the driver's
 * iw_cm verbs (iw_get_qp, iw_add_ref, iw_rem_ref, counted per QP).
 * wire.c is the rest of the iw_cm verbs and a loopback "fabric" between
 * every iwd: listeners by port, connection endpoints, and messages
 * (connect request, accept, reject, FIN, RST) that a work queue carries
 * later, as hardware would, never inside the consumer's call.  The
 * double reports events to iw_cm from that work, holding its spinlock
 * with interrupts off, so iw_cm's upcall must not sleep.
 *
 * It behaves like an RNIC: a connect to a port nobody listens on, a
 * request the listener's iw_cm refuses (backlog) and a reject all come
 * back as a connect reply with -ECONNREFUSED; a QP moved to SQD closes
 * its connection gracefully (the peer gets DISCONNECT, then both CLOSE),
 * one moved to the error state resets it (the peer's CLOSE has
 * -ECONNRESET); a request nobody answers is reset after the MPA timeout
 * (iwd_set_mpa_timeout(), off by default).  A connect from port 0 goes
 * out from a port of the double's choosing, as from a TCP stack, and the
 * events of the connection report that address.  It checks nothing iw_cm
 * checks.
 */
#ifndef RDMA_KUNIT_IWD_H
#define RDMA_KUNIT_IWD_H

#include <linux/atomic.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/iw_cm.h>

#define IWD_MAX_PDATA	255
/* The first port a connect from port 0 may get */
#define IWD_EPHEMERAL	49152

/* Driver operations iwd_fail_next() can make fail once. */
enum iwd_op {
	IWD_OP_CONNECT,
	IWD_OP_ACCEPT,
	IWD_OP_LISTEN,
	IWD_OP_MAX
};

/**
 * struct iwd - a test iWARP device
 * @ibdev: the core's device; first member
 * @qps: QP numbers to struct iwd_qp; the xarray's own lock
 * @pd: the PD of iwd_qp_create()'s QPs
 * @cq: their CQ
 * @backlog: the backlog of the last iw_create_listen
 * @listens: iw_create_listen calls that listen
 * @unlistens: iw_destroy_listen calls
 * @rejects: iw_reject calls
 * @refused: connect requests iw_cm's upcall refused
 * @fail: per enum iwd_op, the error its next call returns (0: none)
 */
struct iwd {
	struct ib_device ibdev;
	struct xarray qps;
	struct ib_pd *pd;
	struct ib_cq *cq;
	atomic_t backlog;
	atomic_t listens;
	atomic_t unlistens;
	atomic_t rejects;
	atomic_t refused;
	atomic_t fail[IWD_OP_MAX];
};

struct iwd_ep;

/**
 * struct iwd_qp - a QP of an iwd
 * @ibqp: the core's QP
 * @iwrefs: iw_add_ref() minus iw_rem_ref() calls
 * @state: the last state set (by modify_qp, or by the double when a
 *	connection comes up or goes down)
 * @to_sqd: modify_qp calls that moved it to SQD
 * @to_err: modify_qp calls that moved it to the error state
 * @ep: its connection, or NULL; under the wire's lock
 */
struct iwd_qp {
	struct ib_qp ibqp;
	atomic_t iwrefs;
	atomic_t state;
	atomic_t to_sqd;
	atomic_t to_err;
	struct iwd_ep *ep;
};

static inline struct iwd *to_iwd(struct ib_device *ibdev)
{
	return container_of(ibdev, struct iwd, ibdev);
}

static inline struct iwd_qp *to_iwd_qp(struct ib_qp *qp)
{
	return container_of(qp, struct iwd_qp, ibqp);
}

/* iwd.c */
struct iwd *iwd_create(const char *name);
void iwd_destroy(struct iwd *d);
struct ib_qp *iwd_qp_create(struct iwd *d);
void iwd_fail_next(struct iwd *d, enum iwd_op op, int err);
int iwd_take_fail(struct iwd *d, enum iwd_op op);

/* wire.c */
int iwd_wire_start(void);
void iwd_wire_stop(void);
void iwd_wire_hold(void);
void iwd_wire_release(void);
void iwd_wire_settle(void);
void iwd_set_mpa_timeout(unsigned int ms);
int iwd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
void iwd_qp_detach(struct iwd_qp *qp);
extern const struct ib_device_ops iwd_wire_ops;

#endif
