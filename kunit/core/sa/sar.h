/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SA suites' subnet administrator (sar.c): a MAD agent on an
 * InfiniBand test device that answers SubnAdm queries as an SA does
 * (PathRecord Get, MCMemberRecord Set/Delete, GUIDInfoRecord
 * Get/Set/Delete, ClassPortInfo Get), and misbehaves on request: it drops
 * requests, answers late, answers with an error status, or answers with
 * the wrong attribute or method.  And a client device whose port's SM is
 * that device (sar_env).
 */
#ifndef RDMA_KUNIT_SAR_H
#define RDMA_KUNIT_SAR_H

#include <kunit/test.h>
#include <linux/workqueue.h>
#include <rdma/ib_sa.h>
#include "tdev.h"

enum sar_fault {
	SAR_GOOD,
	SAR_WRONG_ATTR,		/* answers with another attribute id */
	SAR_WRONG_METHOD,	/* answers with a Get(0x01), not a response */
	SAR_DELETE_RESP,	/* answers a Get or Set with a DeleteResp */
};

#define SAR_GROUPS	8
#define SAR_DROP_LOG	8

/**
 * struct sar - the SA of a test fabric
 * @td: its device
 * @agent: its agent (class SubnAdm, version 2: Get, Set, Delete)
 * @drop: requests still to drop (ClassPortInfo requests are never dropped)
 * @n_dropped: requests dropped so far
 * @dropped: the TIDs of the first SAR_DROP_LOG of them, for diagnosis
 * @dropped_attr: their attribute IDs
 * @delay_ms: how long each answer waits
 * @status: the MAD status of the answers (0: success)
 * @fault: how answers are malformed
 * @resp_time: the RespTimeValue of its ClassPortInfo
 * @path_dlid: the DLID of the paths it gives
 * @path_sl: their SL
 * @n_path: PathRecord requests seen (and so on)
 * @n_join: MCMemberRecord Sets seen
 * @n_leave: MCMemberRecord Deletes seen
 * @n_guid: GUIDInfoRecord requests seen
 * @n_cpi: ClassPortInfo requests seen
 * @last_method: the method of the last request
 * @last_comp_mask: its component mask
 * @last_mc: the last MCMemberRecord received
 * @mgid: the groups it knows (zero: free slot), @mlid their MLIDs
 * @guids: the GUIDInfo block it keeps
 * @lock: protects the fields above that answers change, and @stopping
 * @wq: where late answers wait
 * @late: late answers queued on @wq and not sent yet
 * @late_wq: where sar_stop() waits for @late to fall to zero
 * @stopping: set by sar_stop(): answers are no longer delayed but dropped
 */
struct sar {
	struct tdev *td;
	struct ib_mad_agent *agent;
	struct workqueue_struct *wq;
	atomic_t drop;
	atomic_t n_dropped;
	__be64 dropped[SAR_DROP_LOG];
	u16 dropped_attr[SAR_DROP_LOG];
	unsigned int delay_ms;
	u16 status;
	enum sar_fault fault;
	u8 resp_time;
	u16 path_dlid;
	u8 path_sl;
	atomic_t n_path;
	atomic_t n_join;
	atomic_t n_leave;
	atomic_t n_guid;
	atomic_t n_cpi;
	u8 last_method;
	ib_sa_comp_mask last_comp_mask;
	struct ib_sa_mcmember_rec last_mc;
	union ib_gid mgid[SAR_GROUPS];
	u16 mlid[SAR_GROUPS];
	u8 guids[64];
	spinlock_t lock;
	atomic_t late;
	wait_queue_head_t late_wq;
	bool stopping;
};

/**
 * struct sar_env - a client device whose port 1's SM is a sar
 * @sa: the SA
 * @client: the client device (InfiniBand, one port)
 * @client_lid: its port's LID
 */
struct sar_env {
	struct sar sa;
	struct tdev *client;
	u16 client_lid;
};

struct sar_env *sar_env(struct kunit *test);
void sar_env_free(struct sar_env *env);
void sar_point_sm(struct kunit *test, struct tdev *client, struct sar *sa);
char *sar_dropped_log(struct sar *sa, int from, char *buf, size_t len);
int sar_start(struct sar *sa, struct tdev *td);
void sar_stop(struct sar *sa);
u16 sar_lid(struct tdev *td);
bool sar_sm_is(struct tdev *client, struct sar *sa);

/* Waits (at most 10 s) for @cond, giving its final value */
#define sar_wait_for(cond)						\
	({								\
		int __i;						\
		for (__i = 0; __i < 500 && !(cond); __i++)		\
			msleep(20);					\
		(cond);							\
	})

#endif
