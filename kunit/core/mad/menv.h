/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the MAD suites share (menv.c): agents that record what reaches
 * them and may answer requests, sending a MAD from one agent to a port,
 * the drop counters of a port, and two test devices on one fabric.
 */
#ifndef RDMA_KUNIT_MENV_H
#define RDMA_KUNIT_MENV_H

#include <kunit/test.h>
#include <linux/wait.h>
#include <rdma/ib_mad.h>
#include "tdev.h"

#define MENV_WAIT_MS	5000

/**
 * struct menv_agent - an agent of a case and what reached it
 * @agent: the registered agent
 * @answer: reply to each request received with its GetResp (method
 *	| 0x80), same TID, the request's data
 * @answer_err: the error of the last answer that could not be sent
 * @cancel_in_recv: cancel the request a response answers from the
 *	response's handler, and wait there 200 ms for the request's end
 * @sent_in_recv: that end came while the handler waited (it must not)
 * @wq: woken on each callback
 * @nrecv: MADs received
 * @nsend: sends reported
 * @last_recv: the header of the last MAD received
 * @last_len: its mad_len
 * @last_segs: how many buffers its rmpp_list had
 * @last_data: its first data bytes (of the last buffer)
 * @last_had_send: the last MAD came with the request it answers
 * @last_status: the status of the last send reported
 * @last_retries: its send buffer's retries
 * @last_context: its send buffer's context[1]
 * @last_sent: the first bytes of its MAD as it was when reported (the
 *	buffer is freed then): a directed-route SMP's hop pointer and path
 */
struct menv_agent {
	struct ib_mad_agent *agent;
	bool answer;
	int answer_err;
	bool cancel_in_recv;
	bool sent_in_recv;
	wait_queue_head_t wq;
	atomic_t nrecv;
	atomic_t nsend;
	struct ib_mad_hdr last_recv;
	int last_len;
	int last_segs;
	u8 last_data[8];
	bool last_had_send;
	enum ib_wc_status last_status;
	int last_retries;
	void *last_context;
	u8 last_sent[sizeof(struct ib_mad)];
};

struct menv_agent *menv_agent(struct kunit *test, struct ib_device *dev,
			      u32 port, enum ib_qp_type qpt, u8 mgmt_class,
			      u8 version, u8 method, u8 rmpp_version);
void menv_agent_free(struct menv_agent *a);
struct ib_ah *menv_ah(struct kunit *test, struct ib_mad_agent *from,
		      struct ib_device *to, u32 to_port);
struct ib_ah *menv_ah_family(struct kunit *test, struct ib_mad_agent *from,
			     struct ib_device *to, u32 to_port, bool v4);
bool menv_has_gid4(struct ib_device *dev, u32 port);
struct ib_mad_send_buf *menv_mad(struct kunit *test, struct menv_agent *a,
				 struct ib_ah *ah, u32 qpn, u8 mgmt_class,
				 u8 version, u8 method, u32 tid_lo);
bool menv_wait(atomic_t *v, int want, struct menv_agent *a);
void menv_send_done(struct ib_mad_send_buf *buf, atomic_t *nsend,
		    wait_queue_head_t *wq);
u64 menv_counter(struct ib_device *dev, u32 port, const char *name);
struct tdev *menv_dev(struct kunit *test, bool roce);

#endif
