/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_kunit_tdev: a test-double RDMA device driver for the KUnit suites
 * and the demo.  This is what its users see; tdev_priv.h says how the
 * driver is split into files.
 *
 * The double behaves like hardware: posting a work request queues it and
 * returns; the "hardware" executes it later in the device's interrupt
 * context (chosen per device, struct tdev_params.exec) and completes it
 * there, calling the CQ's completion handler in that context.  Queue
 * depths are enforced, a QP in the error state flushes what is
 * outstanding (a datagram QP whose send fails goes to SQE and flushes its
 * send queue only), CQ overflow and QP errors are reported as asynchronous
 * events.  It checks what hardware checks when it executes a work request
 * (keys, access rights, lengths), and nothing the core checks for it.
 *
 * A suite creates a device with tdev_create(), registers it with
 * tdev_register() and frees it with tdev_destroy(); tdev_fail() makes a
 * device-level operation fail, tdev_port_event() changes a port and
 * reports it, tdev_set_gid() fills the driver's own GID table.
 */
#ifndef RDMA_KUNIT_TDEV_H
#define RDMA_KUNIT_TDEV_H

#include <linux/bitops.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

#define TDEV_MAX_PORTS		4
#define TDEV_MAX_GIDS		32
#define TDEV_MAX_PKEYS		16
#define TDEV_MAX_VECTORS	8
/* The device's local_dma_lkey when tdev_params.local_dma_lkey is set. */
#define TDEV_LOCAL_DMA_LKEY	0x5a5a0001u
/* Pages of data (and of metadata) one integrity MR registration takes. */
#define TDEV_PI_PAGES		16
/* Multicast groups one QP of a params.mcast device can join. */
#define TDEV_MAX_MCAST		4

/*
 * Operations that can be made to fail with tdev_fail(); they return -EIO.
 * TDEV_FAIL_SEND_WR is the hardware's: the next send work request any QP
 * of the device executes completes with IB_WC_LOC_QP_OP_ERR (the bit
 * clears itself).
 */
enum tdev_fail_op {
	TDEV_FAIL_QUERY_DEVICE,
	TDEV_FAIL_QUERY_PORT,
	TDEV_FAIL_PORT_IMMUTABLE,
	TDEV_FAIL_QUERY_PKEY,
	TDEV_FAIL_QUERY_GID,
	TDEV_FAIL_MODIFY_DEVICE,
	TDEV_FAIL_MODIFY_PORT,
	TDEV_FAIL_ALLOC_PD,
	TDEV_FAIL_DEALLOC_PD,
	TDEV_FAIL_ALLOC_XRCD,
	TDEV_FAIL_DEALLOC_XRCD,
	TDEV_FAIL_DESTROY_WQ,
	TDEV_FAIL_DETACH_MCAST,
	TDEV_FAIL_MODIFY_QP,
	TDEV_FAIL_SEND_WR,
	TDEV_FAIL_MAX
};

/*
 * The context the "hardware" executes work requests and raises completion
 * and asynchronous events in, one per completion vector:
 * TDEV_EXEC_HRTIMER   hard interrupt context, from an hrtimer in hard mode
 *                     (the default)
 * TDEV_EXEC_IRQ_WORK  hard interrupt context, from an irq_work
 * TDEV_EXEC_WORK      process context, from a work item
 * TDEV_EXEC_TIMER     softirq context, from a timer one jiffy later
 */
enum tdev_exec {
	TDEV_EXEC_HRTIMER,
	TDEV_EXEC_IRQ_WORK,
	TDEV_EXEC_WORK,
	TDEV_EXEC_TIMER,
};

/**
 * struct tdev_params - what tdev_create() makes
 * @name: name or template for ib_register_device(); NULL means "tdev%d"
 * @ports: number of ports, 1..TDEV_MAX_PORTS; 0 means 1
 * @link_layer: IB_LINK_LAYER_INFINIBAND (the default, also for 0; the GID
 *	is made by the core from the node GUID) or IB_LINK_LAYER_ETHERNET
 *	(RoCE v1+v2 ports; GIDs made by the core from @ndev's addresses)
 * @gid_tbl_len: GID table size, <= TDEV_MAX_GIDS; 0 means 16
 * @pkey_tbl_len: P_Key table size, <= TDEV_MAX_PKEYS; 0 means 1
 * @ndev: netdev of every port (Ethernet), set before registration; the
 *	caller keeps it alive until tdev_destroy()
 * @driver_gids: the driver reports GIDs (query_gid) from tdev->gids, set
 *	with tdev_set_gid(), instead of the core making them
 * @local_dma_lkey: advertise IBK_LOCAL_DMA_LKEY with TDEV_LOCAL_DMA_LKEY
 * @sg_gaps: advertise IBK_SG_GAPS_REG: IB_MR_TYPE_SG_GAPS MRs map any
 *	scatterlist, one segment per element
 * @dealloc_driver: set ops.dealloc_driver: unregistration frees the device
 * @driver_id: ops.driver_id (default RDMA_DRIVER_UNKNOWN), for
 *	ib_unregister_driver() and lookups by driver
 * @exec: the interrupt context of the device (enum tdev_exec)
 * @vectors: completion vectors, 1..TDEV_MAX_VECTORS; 0 means 1.  Each has
 *	a context of its own: a CQ completes on its vector's, a QP executes
 *	on its send CQ's.
 * @roce: Ethernet ports on a registered netdev of the device's own
 *	(tdev->own_ndev, "tdnet%d"), unless @ndev is given.  Work requests
 *	between RoCE devices travel as packets do: the receiving device is
 *	found by its netdev (ib_device_get_by_netdev()) in the interrupt
 *	context, and a packet for a device not found is dropped.
 * @dma_device: DMA through a real struct device (the module's platform
 *	device, 64-bit DMA mask): ib_dma_* do dma-direct mapping and the
 *	double reads and writes memory by DMA address.  Else virtual DMA
 *	(no dma_device, kernel virtual addresses).
 * @no_kverbs: leave out get_dma_mr and reg_user_mr, two of the operations
 *	a kernel verbs provider must have: not a kverbs provider (and
 *	advise_mr with them)
 * @driver_drain: the driver drains QPs itself (ops.drain_sq, drain_rq)
 * @integrity: integrity MRs with T10-DIF signature offload
 *	(IBK_INTEGRITY_HANDOVER, alloc_mr_integrity, map_mr_sg_pi,
 *	check_mr_status)
 * @xrc: XRC domains (alloc_xrcd, dealloc_xrcd) and XRC target QPs
 * @mcast: multicast (attach_mcast, detach_mcast): a UD QP joins at most
 *	TDEV_MAX_MCAST groups, each once
 * @wq: receive work queues (create_wq, destroy_wq)
 * @gid_ctx: the driver is told of the GIDs the core puts in its tables
 *	(add_gid, del_gid) and keeps a context of its own for each
 * @late_cqes: completions that arrive while a CQ is not armed become
 *	visible to polling only when the CQ is armed next, as if each had
 *	landed between the consumer's last poll and its re-arm (the race
 *	IB_CQ_REPORT_MISSED_EVENTS exists for); directly polled CQs are exempt
 * @no_mad: ports without management datagrams (no RDMA_CORE_CAP_IB_MAD,
 *	_SMI, _CM or _SA, as an iWARP or usNIC port has none): the MAD layer
 *	opens no PD, CQ or QP on the device, for suites that count its objects
 */
struct tdev_params {
	const char *name;
	u32 ports;
	enum rdma_link_layer link_layer;
	int gid_tbl_len;
	int pkey_tbl_len;
	struct net_device *ndev;
	bool driver_gids;
	bool local_dma_lkey;
	bool sg_gaps;
	bool dealloc_driver;
	enum rdma_driver_id driver_id;
	enum tdev_exec exec;
	u32 vectors;
	bool roce;
	bool dma_device;
	bool no_kverbs;
	bool driver_drain;
	bool integrity;
	bool xrc;
	bool mcast;
	bool wq;
	bool gid_ctx;
	bool late_cqes;
	bool no_mad;
};

/**
 * struct tdev_port - the state of one port; under tdev->lock
 * @state: IB_PORT_ACTIVE or IB_PORT_DOWN
 * @lid: the port's LID (IB): unique among the InfiniBand ports of all
 *	tdevs when the device is created (the lowest free one); the engine
 *	reads it without the lock (READ_ONCE) to route messages by LID
 * @sm_lid: the LID of the port's subnet manager (1 unless
 *	tdev_set_sm_lid() says otherwise)
 * @cap_flags: port_cap_flags, changed by modify_port
 * @gids: the driver's GID table for @driver_gids devices
 * @pkeys: the P_Key table; the engine reads it without the lock
 * @lid_id: the LID tv_lids_alloc() handed out, given back when the device
 *	is freed (0: none)
 * @sqp: the port's QP0 (SMI) and QP1 (GSI), or NULL; written and read
 *	under the lock of the QP table of qp.c (never tdev->lock)
 */
struct tdev_port {
	enum ib_port_state state;
	u16 lid;
	u16 sm_lid;
	u16 lid_id;
	u32 cap_flags;
	union ib_gid gids[TDEV_MAX_GIDS];
	u16 pkeys[TDEV_MAX_PKEYS];
	struct tv_qp *sqp[2];
};

struct tv_engine;
struct tv_qp;

/**
 * struct tdev - a test device
 * @ibdev: the core's device; first member (ib_alloc_device())
 * @params: creation parameters; constant after tdev_create()
 * @fail: bits of enum tdev_fail_op; atomic bitops, any context
 * @lock: protects @port[] and @node_desc changes done by the driver
 * @port: per-port state, indexed by port number (index 0 unused)
 * @npds: PDs allocated and not freed; atomic
 * @ncqs: CQs allocated and not freed (at most attrs.max_cq); atomic
 * @drain_sq_calls: calls of ops.drain_sq (params.driver_drain); atomic
 * @drain_rq_calls: calls of ops.drain_rq; atomic
 * @nxrcds: XRC domains allocated and not freed (params.xrc); atomic
 * @nwqs: WQs created and not destroyed (params.wq); atomic
 * @advise_calls: calls of ops.advise_mr; atomic
 * @ngid_ctxs: GID contexts the driver holds (params.gid_ctx); atomic
 * @ndev: the netdev the double's ports are attached to (params.ndev or
 *	@own_ndev), the one packets arrive on; constant after tdev_create()
 * @own_ndev: the netdev of a params.roce device that brought none, which
 *	the device registers at creation and unregisters when it is freed
 * @engine: the interrupt contexts (engine.c); set up by tdev_create()
 * @debugfs: the device's debugfs directory while registered; set and
 *	removed by tdev_register()/tdev_unregister(), which only the owner of
 *	the tdev calls
 * @fabric: on the fabric's list of devices messages can reach while
 *	registered (fabric.c)
 * @on_fabric: @fabric is linked; under the fabric's lock
 * @query_port_held: query_port waits (as slow firmware would) until
 *	tdev_hold_query_port() lets it go; READ_ONCE/WRITE_ONCE
 * @query_port_wq: where query_port waits while @query_port_held
 */
struct tdev {
	struct ib_device ibdev;
	struct tdev_params params;
	unsigned long fail;
	spinlock_t lock;
	struct tdev_port port[TDEV_MAX_PORTS + 1];
	atomic_t npds;
	atomic_t ncqs;
	atomic_t drain_sq_calls;
	atomic_t drain_rq_calls;
	atomic_t nxrcds;
	atomic_t nwqs;
	atomic_t advise_calls;
	atomic_t ngid_ctxs;
	struct net_device *ndev;
	struct net_device *own_ndev;
	struct tv_engine *engine;
	struct dentry *debugfs;
	struct list_head fabric;
	bool on_fabric;
	bool query_port_held;
	wait_queue_head_t query_port_wq;
};

/* A PD of a tdev. */
struct tdev_pd {
	struct ib_pd ibpd;
	u32 pdn;
};

/*
 * The context the driver keeps for a GID the core added (params.gid_ctx):
 * where the "hardware" put it.
 */
struct tdev_gid_ctx {
	u32 port;
	unsigned int index;
	union ib_gid gid;
};

static inline struct tdev *to_tdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct tdev, ibdev);
}

extern atomic_t tdev_dealloc_driver_calls;

struct tdev *tdev_create(const struct tdev_params *params);
int tdev_register(struct tdev *td);
void tdev_unregister(struct tdev *td);
void tdev_destroy(struct tdev *td);
struct tdev *tdev_create_registered(const struct tdev_params *params);

void tdev_fail(struct tdev *td, enum tdev_fail_op op, bool fail);
void tdev_hold_query_port(struct tdev *td, bool hold);
int tdev_port_event(struct tdev *td, u32 port, enum ib_event_type type);
int tdev_device_event(struct tdev *td, enum ib_event_type type);
int tdev_set_pkey(struct tdev *td, u32 port, u16 index, u16 pkey);
int tdev_set_gid(struct tdev *td, u32 port, int index,
		 const union ib_gid *gid);
void tdev_qp_fatal(struct ib_qp *qp);
int tdev_qp_mcast_groups(struct ib_qp *qp);
void tdev_cq_moderation(struct ib_cq *cq, u16 *count, u16 *period);

int tdev_set_sm_lid(struct tdev *td, u32 port, u16 sm_lid);
int tdev_set_lid(struct tdev *td, u32 port, u16 lid);

struct net_device *tdev_netdev_create(const char *name, const u8 *mac);
void tdev_netdev_destroy(struct net_device *ndev);

#endif
