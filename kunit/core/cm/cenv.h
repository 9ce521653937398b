/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ib_cm suites share (cenv.c): two test devices that exchange
 * MADs, InfiniBand (LIDs on the test fabric) or RoCE (the ends of a veth
 * pair), each with an RC QP to connect; path records between them, made
 * by hand as an SA or rdma_cm would; CM IDs whose handler records every
 * event it gets (with copies of what the event points at, which is gone
 * once the handler returns), and what a handler returns or does.
 *
 * Side 0 is the active side of the cases, side 1 the passive one.
 */
#ifndef RDMA_KUNIT_CENV_H
#define RDMA_KUNIT_CENV_H

#include <kunit/test.h>
#include <linux/wait.h>
#include <rdma/ib_cm.h>
#include "tdev.h"

/*
 * How long a case waits for an event it expects: generous, TCG and KASAN
 * make everything about 20 times slower than native.
 */
#define CENV_WAIT_MS		20000
#define CENV_EVENTS		32
#define CENV_IDS		16
/* The largest private data of a CM message (RTU, DREP) */
#define CENV_PDATA		IB_CM_RTU_PRIVATE_DATA_SIZE
/*
 * A CM response timeout of 4.096 us * 2^17, about 537 ms; the target
 * rounds it to 512 ms.
 */
#define CENV_CM_TIMEOUT		17
/*
 * The packet life time of the paths: 4.096 us * 2^16, about 268 ms.  It
 * makes time wait last about half a second, long enough for a case to
 * see an ID in it before it ends.
 */
#define CENV_LIFE_TIME		16

/**
 * struct cenv_event - one event a recording handler got
 * @id: the CM ID it came on (only an identity once that ID is destroyed)
 * @ev: the event; its pointers are replaced by those to the copies
 *	below, or NULL
 * @state: @id's state when the handler ran
 * @pdata: a copy of the private data, as long as the event's kind has
 * @info: a copy of a REJ's ARI or a SIDR REP's additional information
 * @path: a copy of a REQ's primary path
 * @sgid: the GID of the event's source GID entry (REQ, SIDR REQ and
 *	SIDR REP events of RoCE), if it had one
 * @has_sgid_attr: it had one
 * @taken: a case has looked at it (cenv_expect())
 */
struct cenv_event {
	struct ib_cm_id *id;
	struct ib_cm_event ev;
	enum ib_cm_state state;
	u8 pdata[CENV_PDATA];
	u8 info[IB_CM_REJ_ARI_LENGTH];
	struct sa_path_rec path;
	struct sa_path_rec alt;
	union ib_gid sgid;
	bool has_sgid_attr;
	bool taken;
};

struct cenv;

/**
 * struct cenv_rec - what the CM IDs of one side report to
 * @env: the environment
 * @side: 0 or 1
 * @lock: protects @n and @ev
 * @wq: woken after each event
 * @n: events recorded
 * @lost: events that found @ev full
 * @ev: the events, in the order they came
 * @ret: what the handler returns for each kind of event (0: keep the ID;
 *	otherwise the CM destroys it); set before the event can come
 * @hook: called by the handler after recording, before it returns; set
 *	before the event can come
 */
struct cenv_rec {
	struct cenv *env;
	int side;
	spinlock_t lock;
	wait_queue_head_t wq;
	int n;
	int lost;
	struct cenv_event ev[CENV_EVENTS];
	int ret[IB_CM_SIDR_REP_RECEIVED + 1];
	void (*hook)(struct cenv_rec *rec, struct ib_cm_id *id,
		     const struct ib_cm_event *event);
};

/**
 * struct cenv_side - one of the two devices
 * @td: the test device
 * @dev: &td->ibdev
 * @lid: its port's LID (InfiniBand)
 * @gid: the GID paths start from: InfiniBand the port GID, RoCE its
 *	RoCE v2 link-local GID
 * @gid_attr: RoCE: that GID's entry, held; InfiniBand: NULL
 * @pd: a PD
 * @cq: the CQ of @qp
 * @qp: an RC QP, in RESET until a case moves it
 * @rec: the recorder of the side's CM IDs
 */
struct cenv_side {
	struct tdev *td;
	struct ib_device *dev;
	u16 lid;
	union ib_gid gid;
	const struct ib_gid_attr *gid_attr;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct cenv_rec rec;
};

/**
 * struct cenv - a case's two devices and CM IDs
 * @test: the case
 * @roce: RoCE, else InfiniBand
 * @s: the sides
 * @lock: protects @ids, @dead, @ndead and @late
 * @ids: the CM IDs to destroy when the case ends
 * @dead: the last IDs the case destroyed (cenv_destroy())
 * @ndead: how many it destroyed
 * @late: events that came on them after their destroy returned
 */
struct cenv {
	struct kunit *test;
	bool roce;
	struct cenv_side s[2];
	spinlock_t lock;
	struct ib_cm_id *ids[CENV_IDS];
	struct ib_cm_id *dead[CENV_IDS];
	unsigned int ndead;
	int late;
};

struct cenv *cenv_new(struct kunit *test, bool roce);
int cenv_handler(struct ib_cm_id *id, const struct ib_cm_event *event);
void cenv_set_shared(struct cenv_rec *rec);
struct ib_cm_id *cenv_id(struct cenv *env, int side);
struct ib_cm_id *cenv_listen(struct cenv *env, int side, __be64 sid);
void cenv_track(struct cenv *env, struct ib_cm_id *id);
void cenv_forget(struct cenv *env, struct ib_cm_id *id);
void cenv_destroy(struct cenv *env, struct ib_cm_id *id);
void cenv_path(struct cenv *env, int from, struct sa_path_rec *rec);
void cenv_req_param(struct cenv *env, int from, struct sa_path_rec *path,
		    __be64 sid, struct ib_cm_req_param *p);
struct ib_cm_id *cenv_req_ready(struct cenv *env, __be64 sid,
				struct sa_path_rec *path,
				struct ib_cm_req_param *p);
void cenv_rep_param(struct cenv *env, struct ib_cm_rep_param *p);
void cenv_connect(struct cenv *env, __be64 sid, struct ib_cm_id **active,
		  struct ib_cm_id **passive);
int cenv_late(struct cenv *env);
struct cenv_event *cenv_expect(struct cenv *env, int side,
			       enum ib_cm_event_type type);
int cenv_count(struct cenv *env, int side, enum ib_cm_event_type type);
void cenv_fill(u8 *buf, size_t len, u8 seed);
bool cenv_filled(const u8 *buf, size_t len, u8 seed);
void cenv_qp_step(struct cenv *env, int side, struct ib_cm_id *id,
		  enum ib_qp_state state, struct ib_qp_attr *attr,
		  int *mask);
enum ib_qp_state cenv_qp_state(struct cenv *env, int side);
const char *cenv_event_name(enum ib_cm_event_type type);
long cenv_cm_counter(struct cenv *env, int side, const char *group,
		     const char *msg);

/* KUnit parameters: the link layer a case runs on */
void cenv_link_desc(const bool *roce, char *desc);

#endif
