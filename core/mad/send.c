// SPDX-License-Identifier: GPL-2.0
/*
 * Sending MADs: send buffers, ib_post_send_mad(), what happens when the
 * hardware gives a send back, waiting for the response with a timeout,
 * retries, matching responses to requests by TID, ib_modify_mad() and
 * cancelling, and reporting each send's end to its agent's send_handler
 * exactly once.
 *
 * A send moves NEW -> ACTIVE (posted; for RMPP, segment after segment)
 * -> WAITING (sent, a response expected: on the agent's list by
 * deadline) -> DONE (reported).  A response can arrive while the send is
 * still ACTIVE: it is then reported when the hardware gives it back.  A
 * cancel makes the status IB_WC_WR_FLUSH_ERR: a WAITING send is reported
 * at once (from the port's work queue), an ACTIVE one when the hardware
 * gives it back.  A timeout reposts the send while retries are left, and
 * reports IB_WC_RESP_TIMEOUT_ERR after the last.
 *
 * Locking: agent->lock protects the states, lists and timers of the
 * agent's sends.  Handlers are called with no lock held.
 */
#include "abi/ib_core/mad.h"
#include <linux/jiffies.h>
#include "internal.h"
#include "rmpp.h"
#include "smi.h"

static struct mad_send *to_mad_send(struct ib_mad_send_buf *buf)
{
	return container_of(buf, struct mad_send, buf);
}

/* Padding of the data to whole segments (or to one MAD without data). */
static int send_pad(int hdr_len, int data_len, int mad_size)
{
	int seg = mad_size - hdr_len;
	int rem;

	if (!data_len || !seg)
		return seg;
	rem = data_len % seg;
	return rem ? seg - rem : 0;
}

/**
 * ib_create_send_mad - allocate a MAD to send
 * @mad_agent: the agent that sends it
 * @remote_qpn: the destination QP
 * @pkey_index: the P_Key index to send with (QP1)
 * @rmpp_active: the MAD is sent with RMPP (kernel-RMPP agents only): the
 *	data is cut into segments, filled with ib_get_rmpp_segment()
 * @hdr_len: the headers' length (common, RMPP, class)
 * @data_len: the data's length
 * @gfp_mask: how to allocate
 * @base_version: the MAD's base version
 *
 * The headers and data are zeroed; the RMPP header of an RMPP send is
 * set up.  The caller fills the MAD, sets ah, timeout_ms, retries and
 * context, and posts it with ib_post_send_mad().
 *
 * Return: the send buffer (free it with ib_free_send_mad()), or an
 * ERR_PTR: -EINVAL if the message does not fit one MAD without RMPP, or
 * for RMPP from an agent that does not do it in the kernel; -ENOMEM.
 */
struct ib_mad_send_buf *ib_create_send_mad(struct ib_mad_agent *mad_agent,
					   u32 remote_qpn, u16 pkey_index,
					   int rmpp_active,
					   int hdr_len, int data_len,
					   gfp_t gfp_mask,
					   u8 base_version)
{
	struct mad_agent *ma = to_mad_agent(mad_agent);
	int mad_size = sizeof(struct ib_mad);
	int pad = send_pad(hdr_len, data_len, mad_size);
	int total = hdr_len + data_len + pad;
	struct mad_send *ms;
	size_t room;

	if (hdr_len < 0 || data_len < 0 || hdr_len > mad_size)
		return ERR_PTR(-EINVAL);
	if (ib_mad_kernel_rmpp_agent(mad_agent) ?
	    !rmpp_active && total > mad_size :
	    rmpp_active || total > mad_size)
		return ERR_PTR(-EINVAL);
	room = rmpp_active ? total : mad_size;
	ms = kzalloc(sizeof(*ms) + room, gfp_mask);
	if (!ms)
		return ERR_PTR(-ENOMEM);
	ms->buf.mad = ms + 1;
	ms->buf.mad_agent = mad_agent;
	ms->buf.hdr_len = hdr_len;
	ms->buf.data_len = data_len;
	ms->pad = pad;
	ms->ma = ma;
	INIT_LIST_HEAD(&ms->link);
	INIT_LIST_HEAD(&ms->qlink);
	ms->wr.remote_qpn = remote_qpn;
	/* The sending QP's own Q_Key: IB_QP1_QKEY on QP1 */
	ms->wr.remote_qkey = IB_QP_SET_QKEY;
	ms->wr.pkey_index = pkey_index;
	if (rmpp_active)
		rmpp_send_init(ms, mad_size);
	refcount_inc(&ma->refs);
	return &ms->buf;
}
EXPORT_SYMBOL(ib_create_send_mad);

/**
 * ib_get_rmpp_segment - the data of one segment of an RMPP send
 * @send_buf: an RMPP send buffer
 * @seg_num: the segment, from 1 to send_buf->seg_count
 *
 * Return: where the segment's seg_size bytes of data are, or NULL for a
 * segment the send does not have.
 */
void *ib_get_rmpp_segment(struct ib_mad_send_buf *send_buf, int seg_num)
{
	struct mad_send *ms = to_mad_send(send_buf);

	if (!ms->payload || seg_num < 1 || seg_num > send_buf->seg_count)
		return NULL;
	return ms->payload + (size_t)(seg_num - 1) * send_buf->seg_size;
}
EXPORT_SYMBOL(ib_get_rmpp_segment);

/**
 * ib_free_send_mad - free a send buffer
 * @send_buf: from ib_create_send_mad(), not posted or its completion
 *	reported
 */
void ib_free_send_mad(struct ib_mad_send_buf *send_buf)
{
	struct mad_send *ms = to_mad_send(send_buf);
	struct mad_agent *ma = ms->ma;

	kfree(ms);
	agent_put(ma);
}
EXPORT_SYMBOL(ib_free_send_mad);

/* Reports the end of @ms to its agent and drops the send's reference. */
static void send_report(struct mad_send *ms)
{
	struct mad_agent *ma = ms->ma;
	struct ib_mad_send_wc wc = {
		.send_buf = &ms->buf,
		.status = ms->status,
	};

	if (ms->internal) {
		rdma_destroy_ah(ms->buf.ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(&ms->buf);
	} else {
		ma->agent.send_handler(&ma->agent, &wc);
	}
	agent_put(ma);
}

/* Re-arms the agent's timer for its first deadline; under its lock. */
static void send_timer_arm(struct mad_agent *ma)
{
	struct mad_send *first;
	unsigned long now = jiffies;

	lockdep_assert_held(&ma->lock);
	if (list_empty(&ma->waiting))
		return;
	first = list_first_entry(&ma->waiting, struct mad_send, link);
	mod_delayed_work(ma->port->wq, &ma->timer,
			 time_after(first->deadline, now) ?
			 first->deadline - now : 0);
}

/* Puts @ms on the waiting list, in deadline order; under the lock. */
static void send_wait(struct mad_send *ms, unsigned long timeout)
{
	struct mad_agent *ma = ms->ma;
	struct mad_send *pos;

	lockdep_assert_held(&ma->lock);
	ms->state = MAD_SEND_WAITING;
	ms->deadline = jiffies + timeout;
	list_del(&ms->link);
	list_for_each_entry_reverse(pos, &ma->waiting, link) {
		if (!time_after(pos->deadline, ms->deadline)) {
			list_add(&ms->link, &pos->link);
			goto placed;
		}
	}
	list_add(&ms->link, &ma->waiting);
placed:
	send_timer_arm(ma);
}

/* Queues @ms for the report work; under the agent's lock. */
static void send_queue_report(struct mad_send *ms)
{
	struct mad_agent *ma = ms->ma;

	lockdep_assert_held(&ma->lock);
	ms->state = MAD_SEND_DONE;
	list_move_tail(&ms->link, &ma->reports);
	queue_work(ma->port->wq, &ma->report);
}

/**
 * send_report_fn - the report work: reports the sends queued for it
 * @work: the agent's report work
 */
void send_report_fn(struct work_struct *work)
{
	struct mad_agent *ma = container_of(work, struct mad_agent, report);
	struct mad_send *ms;

	spin_lock_irq(&ma->lock);
	while ((ms = list_first_entry_or_null(&ma->reports, struct mad_send,
					      link))) {
		list_del_init(&ms->link);
		spin_unlock_irq(&ma->lock);
		send_report(ms);
		spin_lock_irq(&ma->lock);
	}
	spin_unlock_irq(&ma->lock);
}

/*
 * The end of @ms, under the lock: off its list and done.  Return: whether
 * the caller reports it; not while its response is being delivered, when
 * send_responded() does.
 */
static bool send_end_locked(struct mad_send *ms)
{
	lockdep_assert_held(&ms->ma->lock);
	ms->state = MAD_SEND_DONE;
	list_del_init(&ms->link);
	return !ms->delivering;
}

/* Posts the current work request of @ms; reports it if that fails. */
static void send_post_or_fail(struct mad_send *ms)
{
	struct mad_agent *ma = ms->ma;
	int ret = qp_post_send(ms);
	bool report;

	if (!ret)
		return;

	spin_lock_irq(&ma->lock);
	ms->in_hw = false;
	if (ms->status == IB_WC_SUCCESS)
		ms->status = IB_WC_GENERAL_ERR;
	report = send_end_locked(ms);
	spin_unlock_irq(&ma->lock);
	if (report)
		send_report(ms);
}

/**
 * send_hw_done - the hardware gave a send's work request back
 * @ms: the send
 * @status: the work completion's status
 *
 * Called from the CQ's work.  The send goes on (next RMPP segment),
 * waits for its response, or is reported.
 */
void send_hw_done(struct mad_send *ms, enum ib_wc_status status)
{
	struct mad_agent *ma = ms->ma;
	enum rmpp_step step = RMPP_STEP_NONE;

	spin_lock_irq(&ma->lock);
	ms->in_hw = false;
	if (status != IB_WC_SUCCESS && ms->status == IB_WC_SUCCESS)
		ms->status = status;
	if (ms->status == IB_WC_SUCCESS && ms->rmpp.active)
		step = rmpp_send_step(ms);
	if (step == RMPP_STEP_POST) {
		ms->in_hw = true;
		spin_unlock_irq(&ma->lock);
		send_post_or_fail(ms);
		return;
	}
	if (step == RMPP_STEP_WAIT_ACK) {
		send_wait(ms, rmpp_ack_timeout(ms));
		spin_unlock_irq(&ma->lock);
		return;
	}
	if (ms->status == IB_WC_SUCCESS && ms->timeout && !ms->responded &&
	    !ma->dying) {
		send_wait(ms, ms->timeout);
		spin_unlock_irq(&ma->lock);
		return;
	}
	if (ma->dying && ms->status == IB_WC_SUCCESS && !ms->responded &&
	    ms->timeout)
		ms->status = IB_WC_WR_FLUSH_ERR;
	if (!send_end_locked(ms)) {
		spin_unlock_irq(&ma->lock);
		return;
	}
	spin_unlock_irq(&ma->lock);
	send_report(ms);
}

static int send_check(struct mad_send *ms)
{
	struct ib_mad_agent *agent = ms->buf.mad_agent;
	const struct ib_mad_hdr *hdr = ms->buf.mad;

	if ((!agent->send_handler && !ms->internal) ||
	    (ms->buf.timeout_ms && !agent->recv_handler))
		return -EINVAL;
	if (agent->rmpp_version && !ib_is_mad_class_rmpp(hdr->mgmt_class))
		return -EINVAL;
	if (ms->state != MAD_SEND_NEW || !ms->buf.ah)
		return -EINVAL;
	return 0;
}

/*
 * A directed-route SMP for this very port: through the receive path (to
 * the driver, or an agent of the port), then the send is done as if the
 * hardware gave it back.
 */
static void send_local_fn(struct work_struct *work)
{
	struct mad_send *ms = container_of(work, struct mad_send, local);
	struct mad_agent *ma = ms->ma;

	recv_local(ma->port, ma->mqp, ms->buf.mad);
	send_hw_done(ms, IB_WC_SUCCESS);
}

/*
 * The SMI's rules for an SMP of a QP0 agent (smi.c).  Return: 0 to send
 * it, 1 to loop it back, -EINVAL when the rules discard it.
 */
static int send_smi_route(struct mad_send *ms)
{
	struct mad_agent *ma = ms->ma;

	if (ma->mqp != &ma->port->qps[0])
		return 0;
	switch (smi_outgoing(ms->buf.mad, ma->port->port_num)) {
	case SMI_OUT_WIRE:
		return 0;
	case SMI_OUT_LOCAL:
		return 1;
	default:
		return -EINVAL;
	}
}

/* Posts one send; takes a reference on its agent while it is out. */
static int send_one(struct mad_send *ms)
{
	struct mad_agent *ma = ms->ma;
	const struct ib_mad_hdr *hdr = ms->buf.mad;
	int ret = send_check(ms);
	unsigned long flags;
	int local;

	if (ret)
		return ret;
	local = send_smi_route(ms);
	if (local < 0)
		return local;
	ms->tid = hdr->tid;
	ms->mgmt_class = hdr->mgmt_class;
	ms->timeout = msecs_to_jiffies(ms->buf.timeout_ms);
	ms->tries_left = ms->buf.retries;
	ms->buf.retries = 0;
	ms->status = IB_WC_SUCCESS;
	ms->responded = false;
	ms->delivering = false;
	ms->wr.ah = ms->buf.ah;
	if (ms->rmpp.active)
		rmpp_send_first(ms);
	else
		rmpp_send_plain(ms);

	refcount_inc(&ma->refs);
	/* Any context: ib_cm posts under a spin_lock_irqsave() of its own */
	spin_lock_irqsave(&ma->lock, flags);
	ms->state = MAD_SEND_ACTIVE;
	ms->in_hw = true;
	list_add_tail(&ms->link, &ma->active);
	spin_unlock_irqrestore(&ma->lock, flags);

	if (local) {
		INIT_WORK(&ms->local, send_local_fn);
		queue_work(ma->port->wq, &ms->local);
		return 0;
	}
	ret = qp_post_send(ms);
	if (ret) {
		spin_lock_irqsave(&ma->lock, flags);
		list_del_init(&ms->link);
		ms->in_hw = false;
		ms->state = MAD_SEND_NEW;
		spin_unlock_irqrestore(&ma->lock, flags);
		agent_put(ma);
	}
	return ret;
}

/**
 * ib_post_send_mad - send MADs
 * @send_buf: the first of a chain (->next) of send buffers of
 *	ib_create_send_mad(), with their AH set
 * @bad_send_buf: set to the first buffer not posted, on error
 *
 * Each send is reported to the agent's send_handler once: when the
 * hardware sent it, or, with timeout_ms, when its response arrived
 * (after the recv_handler got the response), it timed out after
 * retries, or was cancelled.  Any context: nothing is allocated and
 * nothing sleeps.
 *
 * Return: 0; -EINVAL for an agent without send_handler, a timeout for an
 * agent without recv_handler, a class without RMPP from an RMPP agent, a
 * buffer already posted or without AH; -ENOMEM when the QP's backlog
 * cannot take it (not with the default depths).
 */
int ib_post_send_mad(struct ib_mad_send_buf *send_buf,
		     struct ib_mad_send_buf **bad_send_buf)
{
	struct ib_mad_send_buf *next;
	int ret;

	for (; send_buf; send_buf = next) {
		next = send_buf->next;
		ret = send_one(to_mad_send(send_buf));
		if (ret) {
			if (bad_send_buf)
				*bad_send_buf = send_buf;
			return ret;
		}
	}
	return 0;
}
EXPORT_SYMBOL(ib_post_send_mad);

/* The send of @ma whose buffer is @buf, if it is outstanding; locked. */
static struct mad_send *send_find(struct mad_agent *ma,
				  struct ib_mad_send_buf *buf)
{
	struct mad_send *ms;

	lockdep_assert_held(&ma->lock);
	list_for_each_entry(ms, &ma->waiting, link)
		if (&ms->buf == buf)
			return ms;
	list_for_each_entry(ms, &ma->active, link)
		if (&ms->buf == buf)
			return ms;
	return NULL;
}

/**
 * ib_modify_mad - change the timeout of an outstanding send, or cancel it
 * @send_buf: a posted send buffer
 * @timeout_ms: the new time to wait for the response, from now; 0
 *	cancels the send, which is reported with IB_WC_WR_FLUSH_ERR
 *
 * Any context.
 *
 * Return: 0, or -EINVAL if the send is not outstanding (never posted,
 * already reported, or cancelled).
 */
int ib_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms)
{
	struct mad_agent *ma = to_mad_agent(send_buf->mad_agent);
	struct mad_send *ms;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&ma->lock, flags);
	ms = send_find(ma, send_buf);
	if (!ms || ms->status != IB_WC_SUCCESS) {
		ret = -EINVAL;
	} else if (!timeout_ms) {
		ms->status = IB_WC_WR_FLUSH_ERR;
		if (ms->state == MAD_SEND_WAITING)
			send_queue_report(ms);
	} else if (ms->state == MAD_SEND_WAITING && !ms->rmpp.active) {
		send_wait(ms, msecs_to_jiffies(timeout_ms));
	} else {
		ms->timeout = msecs_to_jiffies(timeout_ms);
	}
	spin_unlock_irqrestore(&ma->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_modify_mad);

/*
 * The sends of @ma whose deadline passed: those to try again move to the
 * active list and, by their qlink, to @retry; the others to @late.
 */
static void send_expire(struct mad_agent *ma, struct list_head *retry,
			struct list_head *late)
{
	unsigned long now = jiffies;
	struct mad_send *ms, *tmp;
	bool again;

	lockdep_assert_held(&ma->lock);
	list_for_each_entry_safe(ms, tmp, &ma->waiting, link) {
		if (time_after(ms->deadline, now))
			break;
		again = false;
		if (ma->dying || ms->status != IB_WC_SUCCESS) {
			again = false;
		} else if (ms->rmpp.active && !ms->rmpp.acked_all) {
			again = rmpp_send_timeout(ms);
		} else if (ms->tries_left > 0) {
			ms->tries_left--;
			ms->buf.retries++;
			if (ms->rmpp.active)
				rmpp_send_first(ms);
			again = true;
		}
		if (again) {
			ms->state = MAD_SEND_ACTIVE;
			ms->in_hw = true;
			list_move_tail(&ms->link, &ma->active);
			list_add_tail(&ms->qlink, retry);
			continue;
		}
		if (ms->status == IB_WC_SUCCESS)
			ms->status = ma->dying ? IB_WC_WR_FLUSH_ERR :
						 IB_WC_RESP_TIMEOUT_ERR;
		ms->state = MAD_SEND_DONE;
		list_move_tail(&ms->link, late);
	}
	send_timer_arm(ma);
}

/**
 * send_timer_fn - the agent's timer: responses (or RMPP ACKs) that are late
 * @work: the agent's timer
 */
void send_timer_fn(struct work_struct *work)
{
	struct mad_agent *ma = container_of(to_delayed_work(work),
					    struct mad_agent, timer);
	struct mad_send *ms, *tmp;
	LIST_HEAD(retry);
	LIST_HEAD(late);

	spin_lock_irq(&ma->lock);
	send_expire(ma, &retry, &late);
	spin_unlock_irq(&ma->lock);

	list_for_each_entry_safe(ms, tmp, &retry, qlink) {
		list_del_init(&ms->qlink);
		send_post_or_fail(ms);
	}
	list_for_each_entry_safe(ms, tmp, &late, link) {
		list_del_init(&ms->link);
		send_report(ms);
	}
}

/*
 * The GID a received MAD came from: the source of its GRH, or, for
 * RoCEv2 over IPv4 (whose header buffer holds the IPv4 header in its last
 * 20 bytes), the IPv4-mapped source address.
 */
static void send_peer_gid(const struct mad_agent *ma,
			  const struct ib_mad_recv_wc *rwc, union ib_gid *gid)
{
	const union rdma_network_hdr *hdr = (const void *)rwc->recv_buf.grh;
	const struct ib_wc *wc = rwc->wc;
	bool ip4;

	if (wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE)
		ip4 = wc->network_hdr_type == RDMA_NETWORK_IPV4;
	else
		ip4 = rdma_protocol_roce_udp_encap(ma->port->dev,
						   ma->port->port_num) &&
		      hdr->roce4grh.version == 4;
	if (!ip4) {
		*gid = hdr->ibgrh.sgid;
		return;
	}
	memset(gid->raw, 0, 10);
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	memcpy(&gid->raw[12], &hdr->roce4grh.saddr, 4);
}

/* Whether a response came from where its request went. */
static bool send_same_peer(struct mad_send *ms,
			   const struct ib_mad_recv_wc *rwc)
{
	const struct ib_wc *wc = rwc->wc;
	struct rdma_ah_attr attr;
	union ib_gid from;
	bool same = true;

	if (ms->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return true;
	if (rdma_query_ah(ms->buf.ah, &attr))
		return true;
	if (rdma_ah_get_ah_flags(&attr) & IB_AH_GRH) {
		if (wc->wc_flags & IB_WC_GRH) {
			send_peer_gid(ms->ma, rwc, &from);
			same = !memcmp(&attr.grh.dgid, &from, sizeof(from));
		}
	} else if (attr.type != RDMA_AH_ATTR_TYPE_ROCE &&
		   !(wc->wc_flags & IB_WC_GRH)) {
		same = rdma_ah_get_dlid(&attr) == wc->slid ||
		       rdma_ah_get_dlid(&attr) == be16_to_cpu(IB_LID_PERMISSIVE);
	}
	/* rdma_query_ah() lends the AH's GID reference: nothing to drop */
	return same;
}

/*
 * @ms answers a response: the receive path owns it from now on.  If the
 * hardware gave it back already, it leaves the waiting list, so that no
 * timer, cancel or RMPP ACK reports it under the receive path's feet.
 */
static void send_take(struct mad_send *ms)
{
	lockdep_assert_held(&ms->ma->lock);
	ms->responded = true;
	ms->delivering = true;
	if (ms->state == MAD_SEND_WAITING)
		send_end_locked(ms);
}

/*
 * The response was not @ms's after all (another peer): back to waiting,
 * or, once the agent is going, reported as flushed.
 */
static void send_untake(struct mad_send *ms)
{
	struct mad_agent *ma = ms->ma;
	unsigned long now = jiffies;

	lockdep_assert_held(&ma->lock);
	ms->responded = false;
	ms->delivering = false;
	if (ms->in_hw)
		return;		/* the hardware's completion decides */
	list_add_tail(&ms->link, &ma->waiting);
	if (ma->dying) {
		ms->status = IB_WC_WR_FLUSH_ERR;
		send_queue_report(ms);
		return;
	}
	send_wait(ms, time_after(ms->deadline, now) ? ms->deadline - now :
						      ms->timeout);
}

/**
 * send_match - the request a received response answers
 * @ma: the agent the response's TID names
 * @rwc: the response
 *
 * A request matches if it is outstanding, expects a response, has the
 * response's TID and class, and went where the response comes from.  It
 * is marked as answered: its timer no longer runs and a second response
 * finds nothing.
 *
 * Return: the request, or NULL.  The request stays alive and unreported
 * until the caller, having delivered the response, calls send_responded().
 */
struct mad_send *send_match(struct mad_agent *ma,
			    const struct ib_mad_recv_wc *rwc)
{
	const struct ib_mad_hdr *hdr = &rwc->recv_buf.mad->mad_hdr;
	struct mad_send *ms, *found = NULL;
	struct list_head *lists[] = { &ma->waiting, &ma->active };
	int i;

	spin_lock_irq(&ma->lock);
	for (i = 0; i < ARRAY_SIZE(lists) && !found; i++) {
		list_for_each_entry(ms, lists[i], link) {
			if (ms->tid != hdr->tid ||
			    ms->mgmt_class != hdr->mgmt_class ||
			    ms->responded || !ms->timeout ||
			    ms->status != IB_WC_SUCCESS)
				continue;
			found = ms;
			break;
		}
	}
	if (found)
		send_take(found);
	spin_unlock_irq(&ma->lock);
	if (found && !send_same_peer(found, rwc)) {
		spin_lock_irq(&ma->lock);
		send_untake(found);
		spin_unlock_irq(&ma->lock);
		found = NULL;
	}
	return found;
}

/**
 * send_responded - the response of a matched request was delivered
 * @ms: the request of send_match()
 *
 * A request the hardware already gave back is reported now; one it still
 * has, when it gives it back.
 */
void send_responded(struct mad_send *ms)
{
	struct mad_agent *ma = ms->ma;
	bool report;

	spin_lock_irq(&ma->lock);
	ms->delivering = false;
	report = !ms->in_hw;
	if (report)
		send_timer_arm(ma);
	spin_unlock_irq(&ma->lock);
	if (report)
		send_report(ms);
}

/**
 * send_cancel_all - an agent is unregistering: end its sends
 * @ma: the agent, already unreachable
 *
 * Sends waiting for a response are reported with IB_WC_WR_FLUSH_ERR now;
 * those the hardware has, when it gives them back.  The timer and the
 * report work are stopped.
 */
void send_cancel_all(struct mad_agent *ma)
{
	struct mad_send *ms, *tmp;
	LIST_HEAD(flushed);

	spin_lock_irq(&ma->lock);
	list_for_each_entry(ms, &ma->active, link)
		if (ms->status == IB_WC_SUCCESS)
			ms->status = IB_WC_WR_FLUSH_ERR;
	list_for_each_entry_safe(ms, tmp, &ma->waiting, link) {
		if (ms->status == IB_WC_SUCCESS)
			ms->status = IB_WC_WR_FLUSH_ERR;
		ms->state = MAD_SEND_DONE;
		list_move_tail(&ms->link, &flushed);
	}
	spin_unlock_irq(&ma->lock);

	cancel_delayed_work_sync(&ma->timer);
	/* A timer run that raced moved nothing more: dying is set */
	spin_lock_irq(&ma->lock);
	list_splice_tail_init(&ma->waiting, &flushed);
	spin_unlock_irq(&ma->lock);
	list_for_each_entry_safe(ms, tmp, &flushed, link) {
		list_del_init(&ms->link);
		ms->status = IB_WC_WR_FLUSH_ERR;
		send_report(ms);
	}
	flush_work(&ma->report);
	rmpp_recv_flush(ma);
}

/**
 * send_internal - a send buffer of the MAD layer's own, for an agent
 * @ma: the agent that sends it
 * @qpn: the destination QP
 * @pkey_index: its P_Key index
 *
 * Its end destroys its AH and frees it; the agent's send_handler never
 * sees it.
 *
 * Return: a buffer of one MAD with room after the RMPP header, or an
 * ERR_PTR.
 */
struct ib_mad_send_buf *send_internal(struct mad_agent *ma, u32 qpn,
				      u16 pkey_index)
{
	struct ib_mad_send_buf *buf;

	buf = ib_create_send_mad(&ma->agent, qpn, pkey_index, 0,
				 IB_MGMT_RMPP_HDR, IB_MGMT_RMPP_DATA,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (!IS_ERR(buf))
		to_mad_send(buf)->internal = true;
	return buf;
}

/* The RMPP send of @ma a control MAD is about; under the lock. */
static struct mad_send *send_find_rmpp(struct mad_agent *ma,
				       const struct ib_mad_hdr *hdr)
{
	struct list_head *lists[] = { &ma->waiting, &ma->active };
	struct mad_send *ms;
	int i;

	lockdep_assert_held(&ma->lock);
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(ms, lists[i], link)
			if (ms->rmpp.active && ms->tid == hdr->tid &&
			    ms->mgmt_class == hdr->mgmt_class &&
			    ms->status == IB_WC_SUCCESS && !ms->internal)
				return ms;
	return NULL;
}

/*
 * An ACK moved @ms's window or acknowledged all of it, or a STOP/ABORT
 * ended it; @post: its next segment is set up.  Under the lock; returns
 * what the caller does once it dropped it: 1 post, 2 report, 0 nothing.
 */
static int send_rmpp_progress(struct mad_send *ms, bool was_all, int post)
{
	struct mad_agent *ma = ms->ma;

	lockdep_assert_held(&ma->lock);
	if (ms->state != MAD_SEND_WAITING || was_all)
		return 0;
	if (ms->status != IB_WC_SUCCESS) {
		ms->state = MAD_SEND_DONE;
		list_del_init(&ms->link);
		send_timer_arm(ma);
		return 2;
	}
	if (ms->rmpp.acked_all) {
		if (ms->timeout && !ms->responded) {
			send_wait(ms, ms->timeout);
			return 0;
		}
		ms->state = MAD_SEND_DONE;
		list_del_init(&ms->link);
		send_timer_arm(ma);
		return 2;
	}
	if (!post) {
		/* Still waiting for the window to open: from now */
		send_wait(ms, rmpp_ack_timeout(ms));
		return 0;
	}
	ms->state = MAD_SEND_ACTIVE;
	ms->in_hw = true;
	list_move_tail(&ms->link, &ma->active);
	send_timer_arm(ma);
	return 1;
}

/**
 * send_rmpp_ctl - an RMPP ACK, STOP or ABORT for one of an agent's sends
 * @ma: the agent
 * @rwc: the control MAD
 *
 * An ACK moves the send's window (and it goes on); a bad ACK, a STOP or
 * an ABORT ends it with IB_WC_REM_ABORT_ERR.  A control MAD for no send
 * is counted and dropped.
 */
void send_rmpp_ctl(struct mad_agent *ma, const struct ib_mad_recv_wc *rwc)
{
	const struct ib_rmpp_mad *r = (const void *)rwc->recv_buf.mad;
	struct mad_send *ms;
	bool was_all = false;
	int post = 0, todo = 0;

	spin_lock_irq(&ma->lock);
	ms = send_find_rmpp(ma, &r->mad_hdr);
	if (ms) {
		was_all = ms->rmpp.acked_all;
		if (r->rmpp_hdr.rmpp_type == IB_MGMT_RMPP_TYPE_ACK)
			post = rmpp_send_ack(ms,
					     be32_to_cpu(r->rmpp_hdr.seg_num),
					     be32_to_cpu(r->rmpp_hdr.paylen_newwin));
		if (post < 0 || r->rmpp_hdr.rmpp_type != IB_MGMT_RMPP_TYPE_ACK)
			ms->status = IB_WC_REM_ABORT_ERR;
		todo = send_rmpp_progress(ms, was_all, post > 0);
	}
	spin_unlock_irq(&ma->lock);
	if (!ms)
		counters_drop(ma->port, MAD_DROP_RMPP);
	else if (todo == 1)
		send_post_or_fail(ms);
	else if (todo == 2)
		send_report(ms);
}

/* The port's own agents free what they sent, and its AH. */
static void send_reply_done(struct ib_mad_agent *agent,
			    struct ib_mad_send_wc *wc)
{
	rdma_destroy_ah(wc->send_buf->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(wc->send_buf);
}

/**
 * send_reply_agent - register one of the port's own agents
 * @port: the port
 * @qp_type: IB_QPT_SMI or IB_QPT_GSI
 *
 * Return: the agent or an ERR_PTR.
 */
struct ib_mad_agent *send_reply_agent(struct mad_port *port,
				      enum ib_qp_type qp_type)
{
	return ib_register_mad_agent(port->dev, port->port_num, qp_type, NULL,
				     0, send_reply_done, NULL, NULL, 0);
}

/**
 * send_reply - send a reply the driver or the core made to a MAD
 * @port: the port the MAD came in on
 * @mqp: its QP
 * @wc: its completion
 * @grh: its network header
 * @mad: the reply
 * @len: the reply's length
 *
 * Sent by the port's own agent of @mqp, back to where the MAD came from.
 *
 * Return: 0 or the error of making or posting it.
 */
int send_reply(struct mad_port *port, struct mad_qp *mqp,
	       const struct ib_wc *wc, const struct ib_grh *grh,
	       const void *mad, size_t len)
{
	struct ib_mad_agent *agent = port->local_agent[mqp == &port->qps[1]];
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;
	int ret;

	if (!agent || len > sizeof(struct ib_mad) || len < IB_MGMT_MAD_HDR)
		return -EINVAL;
	ah = ib_create_ah_from_wc(port->pd, wc, grh, port->port_num);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	buf = ib_create_send_mad(agent, wc->src_qp, wc->pkey_index, 0,
				 IB_MGMT_MAD_HDR, len - IB_MGMT_MAD_HDR,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return PTR_ERR(buf);
	}
	memcpy(buf->mad, mad, len);
	buf->ah = ah;
	ret = ib_post_send_mad(buf, NULL);
	if (ret) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(buf);
	}
	return ret;
}
