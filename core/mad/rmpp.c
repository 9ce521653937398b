// SPDX-License-Identifier: GPL-2.0
/*
 * RMPP (IBTA 13.6) for kernel-RMPP agents: a message longer than a MAD
 * travels as DATA segments, each with the message's headers; the
 * receiver acknowledges (ACK) the segments it has in order and opens a
 * window of further segments; STOP and ABORT end a transfer.
 *
 * Sending (with send.c, which owns the send's state): segment 1 goes
 * first, with a window of one; each further segment is posted when the
 * hardware gave the previous one back, up to the window; then the send
 * waits for an ACK (its timeout, or RMPP_ACK_MS).  An ACK moves the
 * window; a late ACK makes the send go again from the first segment not
 * acknowledged, while retries last.
 *
 * Receiving: segments are kept in order on the first segment's
 * rmpp_list until the LAST one arrives, and the whole message goes to
 * the agent at once.  A duplicate is acknowledged again, a segment out of
 * order dropped, a bad one aborts the transfer; a transfer that stalls
 * for RMPP_RECV_MS is dropped.
 *
 * Locking: agent->lock protects the agent's reassemblies (rmpp_in) and
 * the RMPP state of its sends.  ACK, STOP and ABORT MADs are sent by the
 * agent itself as internal sends (never reported to its send_handler).
 */
#include "abi/ib_core/mad.h"
#include <linux/jiffies.h>
#include "internal.h"
#include "rmpp.h"

#define RMPP_WINDOW	64	/* segments a receiver lets come at once */
#define RMPP_ACK_MS	2000	/* to wait for an ACK without a timeout */
#define RMPP_RECV_MS	40000	/* a reassembly that stalls this long */

/* A message being reassembled. */
struct rmpp_in {
	struct list_head link;
	__be64 tid;
	u8 mgmt_class;
	u32 src_qp;
	u32 slid;
	struct ib_mad_recv_wc *first;
	u32 expected;
	u32 newwin;
	unsigned long deadline;
};

static struct ib_rmpp_mad *rmpp_mad_of(const struct ib_mad_recv_wc *rwc)
{
	return (struct ib_rmpp_mad *)rwc->recv_buf.mad;
}

/* ---- sending ---- */

/**
 * rmpp_send_init - set up an RMPP send buffer
 * @ms: the send, its room holding the headers then the data
 * @mad_size: the size of one MAD
 */
void rmpp_send_init(struct mad_send *ms, int mad_size)
{
	struct ib_rmpp_mad *hdr = ms->buf.mad;
	struct ib_mad_send_buf *buf = &ms->buf;

	buf->seg_size = mad_size - buf->hdr_len;
	buf->seg_rmpp_size = mad_size - IB_MGMT_RMPP_HDR;
	buf->seg_count = buf->seg_size ?
			 (buf->data_len + ms->pad) / buf->seg_size : 0;
	if (!buf->seg_count)
		buf->seg_count = 1;
	ms->payload = (u8 *)buf->mad + buf->hdr_len;
	ms->rmpp.active = true;
	hdr->rmpp_hdr.rmpp_version = ms->ma->agent.rmpp_version;
	hdr->rmpp_hdr.rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
	ib_set_rmpp_flags(&hdr->rmpp_hdr, IB_MGMT_RMPP_FLAG_ACTIVE);
}

/**
 * rmpp_send_plain - the work request of a send that is one MAD
 * @ms: the send
 */
void rmpp_send_plain(struct mad_send *ms)
{
	ms->nsge = 1;
	ms->sge_va[0] = ms->buf.mad;
	ms->sge[0].length = sizeof(struct ib_mad);
}

/* Sets up the header and SGEs of segment @n of @ms. */
static void rmpp_seg_setup(struct mad_send *ms, int n)
{
	struct ib_mad_send_buf *buf = &ms->buf;
	struct ib_rmpp_hdr *r = &((struct ib_rmpp_mad *)buf->mad)->rmpp_hdr;
	u8 flags = IB_MGMT_RMPP_FLAG_ACTIVE;
	u32 paylen = 0;

	if (n == 1) {
		flags |= IB_MGMT_RMPP_FLAG_FIRST;
		paylen = buf->seg_count * buf->seg_rmpp_size - ms->pad;
	}
	if (n == buf->seg_count) {
		flags |= IB_MGMT_RMPP_FLAG_LAST;
		if (n != 1)
			paylen = buf->seg_rmpp_size - ms->pad;
	}
	ms->rmpp.seg = n;
	r->rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
	ib_set_rmpp_flags(r, flags);
	ib_set_rmpp_resptime(r, IB_MGMT_RMPP_NO_RESPTIME);
	r->rmpp_status = 0;
	r->seg_num = cpu_to_be32(n);
	r->paylen_newwin = cpu_to_be32(paylen);
	ms->nsge = 2;
	ms->sge_va[0] = buf->mad;
	ms->sge[0].length = buf->hdr_len;
	ms->sge_va[1] = ms->payload + (size_t)(n - 1) * buf->seg_size;
	ms->sge[1].length = buf->seg_size;
}

/**
 * rmpp_send_first - start (or restart) an RMPP send from segment 1
 * @ms: the send
 */
void rmpp_send_first(struct mad_send *ms)
{
	ms->rmpp.last_ack = 0;
	ms->rmpp.window = 1;
	ms->rmpp.acked_all = false;
	rmpp_seg_setup(ms, 1);
}

/**
 * rmpp_send_step - what an RMPP send does after a segment went out
 * @ms: the send; its agent's lock held
 *
 * Return: RMPP_STEP_POST with the next segment set up, RMPP_STEP_WAIT_ACK
 * when the window is sent, RMPP_STEP_NONE when every segment was
 * acknowledged.
 */
enum rmpp_step rmpp_send_step(struct mad_send *ms)
{
	lockdep_assert_held(&ms->ma->lock);
	if (ms->rmpp.acked_all)
		return RMPP_STEP_NONE;
	if (ms->rmpp.seg < ms->buf.seg_count &&
	    ms->rmpp.seg < ms->rmpp.window) {
		rmpp_seg_setup(ms, ms->rmpp.seg + 1);
		return RMPP_STEP_POST;
	}
	return RMPP_STEP_WAIT_ACK;
}

/**
 * rmpp_ack_timeout - how long an RMPP send waits for an ACK
 * @ms: the send
 *
 * Return: jiffies.
 */
unsigned long rmpp_ack_timeout(struct mad_send *ms)
{
	return ms->timeout ? ms->timeout : msecs_to_jiffies(RMPP_ACK_MS);
}

/**
 * rmpp_send_timeout - an ACK is late: go again from the first segment
 *	not acknowledged, if retries are left
 * @ms: the send; its agent's lock held
 *
 * Return: true with that segment set up, false when no retry is left.
 */
bool rmpp_send_timeout(struct mad_send *ms)
{
	lockdep_assert_held(&ms->ma->lock);
	if (ms->tries_left <= 0)
		return false;
	ms->tries_left--;
	ms->buf.retries++;
	rmpp_seg_setup(ms, ms->rmpp.last_ack + 1);
	return true;
}

/**
 * rmpp_send_ack - an ACK for an RMPP send of the agent: move its window
 * @ms: the send; its agent's lock held
 * @seg: the last segment the receiver has
 * @newwin: the last segment it can take
 *
 * Return: -EINVAL for an ACK that is beyond the message or shrinks the
 * window below what it acknowledges (the transfer is to be aborted); 1
 * when a send the hardware does not have can go on (its next segment
 * set up); else 0.
 */
int rmpp_send_ack(struct mad_send *ms, u32 seg, u32 newwin)
{
	int next;

	lockdep_assert_held(&ms->ma->lock);
	if (seg > ms->buf.seg_count || newwin < seg)
		return -EINVAL;
	if (seg < ms->rmpp.last_ack)
		return 0;
	ms->rmpp.last_ack = seg;
	ms->rmpp.window = min_t(u32, newwin, ms->buf.seg_count);
	if (seg == ms->buf.seg_count) {
		ms->rmpp.acked_all = true;
		return 0;
	}
	if (ms->in_hw)
		return 0;
	next = max_t(int, ms->rmpp.seg, seg) + 1;
	if (next > ms->buf.seg_count || next > ms->rmpp.window)
		return 0;
	rmpp_seg_setup(ms, next);
	return 1;
}

/* ---- control MADs: ACK, STOP, ABORT ---- */

/* Sends an RMPP control MAD back to where @rwc's segment came from. */
static void rmpp_send_ctl(struct mad_agent *ma,
			  const struct ib_mad_recv_wc *rwc, u8 type,
			  u8 status, u32 seg, u32 newwin)
{
	const struct ib_rmpp_mad *in = rmpp_mad_of(rwc);
	struct ib_mad_send_buf *buf;
	struct ib_rmpp_mad *out;
	struct ib_ah *ah;

	ah = ib_create_ah_from_wc(ma->port->pd, rwc->wc, rwc->recv_buf.grh,
				  ma->port->port_num);
	if (IS_ERR(ah))
		return;
	buf = send_internal(ma, rwc->wc->src_qp, rwc->wc->pkey_index);
	if (IS_ERR(buf)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return;
	}
	out = buf->mad;
	/*
	 * The class's whole header: a request-side control MAD (an ACK of a
	 * response) finds its agent by class, version, method and, in the
	 * vendor range with an OUI, the OUI after the RMPP header.
	 */
	memcpy(out, in, max_t(int, IB_MGMT_RMPP_HDR,
			      ib_get_mad_data_offset(in->mad_hdr.mgmt_class)));
	out->mad_hdr.method ^= IB_MGMT_METHOD_RESP;
	out->rmpp_hdr.rmpp_version = IB_MGMT_RMPP_VERSION;
	out->rmpp_hdr.rmpp_type = type;
	out->rmpp_hdr.rmpp_status = status;
	ib_set_rmpp_flags(&out->rmpp_hdr, IB_MGMT_RMPP_FLAG_ACTIVE);
	out->rmpp_hdr.seg_num = cpu_to_be32(seg);
	out->rmpp_hdr.paylen_newwin = cpu_to_be32(newwin);
	buf->ah = ah;
	if (ib_post_send_mad(buf, NULL)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(buf);
	}
}

static void rmpp_abort(struct mad_agent *ma, const struct ib_mad_recv_wc *rwc,
		       u8 status)
{
	counters_drop(ma->port, MAD_DROP_RMPP);
	rmpp_send_ctl(ma, rwc, IB_MGMT_RMPP_TYPE_ABORT, status, 0, 0);
}

/* ---- receiving ---- */

/* The reassembly @rwc's segment belongs to; under the agent's lock. */
static struct rmpp_in *rmpp_in_find(struct mad_agent *ma,
				    const struct ib_mad_recv_wc *rwc)
{
	const struct ib_mad_hdr *hdr = &rwc->recv_buf.mad->mad_hdr;
	struct rmpp_in *in;

	lockdep_assert_held(&ma->lock);
	list_for_each_entry(in, &ma->rmpp_in, link)
		if (in->tid == hdr->tid && in->mgmt_class == hdr->mgmt_class &&
		    in->src_qp == rwc->wc->src_qp && in->slid == rwc->wc->slid)
			return in;
	return NULL;
}

/*
 * The length of a whole message of @nseg segments, from the payload
 * length of its last (or only) segment; negative if that is impossible.
 */
static int rmpp_msg_len(u8 mgmt_class, u32 nseg, u32 last_paylen)
{
	int hdr = ib_get_mad_data_offset(mgmt_class);
	int data = sizeof(struct ib_mad) - hdr;
	int last = (int)last_paylen - (hdr - IB_MGMT_RMPP_HDR);

	if (last_paylen > IB_MGMT_RMPP_DATA || last < 0 || last > data)
		return -1;
	return hdr + (nseg - 1) * data + last;
}

/* Ends a reassembly that is complete: the message for the agent. */
static struct ib_mad_recv_wc *rmpp_in_done(struct mad_agent *ma,
					   struct rmpp_in *in,
					   struct ib_mad_recv_wc *last)
{
	struct ib_mad_recv_wc *msg = in->first;
	u32 nseg = in->expected - 1;
	int len = rmpp_msg_len(in->mgmt_class, nseg,
			       be32_to_cpu(rmpp_mad_of(last)->rmpp_hdr.paylen_newwin));

	kfree(in);
	if (len < 0) {
		rmpp_abort(ma, last, IB_MGMT_RMPP_STATUS_BAD_LEN);
		ib_free_recv_mad(msg);
		return NULL;
	}
	rmpp_send_ctl(ma, last, IB_MGMT_RMPP_TYPE_ACK, 0, nseg, nseg);
	msg->mad_len = len;
	return msg;
}

/* A DATA segment of a transfer with no reassembly yet. */
static struct ib_mad_recv_wc *rmpp_recv_first(struct mad_agent *ma,
					      struct ib_mad_recv_wc *rwc,
					      u8 flags, u32 seg)
{
	struct ib_rmpp_mad *mad = rmpp_mad_of(rwc);
	struct rmpp_in *in;
	int len;

	if (!(flags & IB_MGMT_RMPP_FLAG_FIRST) || seg != 1) {
		rmpp_abort(ma, rwc, IB_MGMT_RMPP_STATUS_BAD_SEG);
		ib_free_recv_mad(rwc);
		return NULL;
	}
	if (flags & IB_MGMT_RMPP_FLAG_LAST) {
		len = rmpp_msg_len(mad->mad_hdr.mgmt_class, 1,
				   be32_to_cpu(mad->rmpp_hdr.paylen_newwin));
		if (len < 0) {
			rmpp_abort(ma, rwc, IB_MGMT_RMPP_STATUS_BAD_LEN);
			ib_free_recv_mad(rwc);
			return NULL;
		}
		rmpp_send_ctl(ma, rwc, IB_MGMT_RMPP_TYPE_ACK, 0, 1, 1);
		rwc->mad_len = len;
		return rwc;
	}
	in = kzalloc(sizeof(*in), GFP_KERNEL);
	if (!in) {
		counters_drop(ma->port, MAD_DROP_NOMEM);
		ib_free_recv_mad(rwc);
		return NULL;
	}
	in->tid = mad->mad_hdr.tid;
	in->mgmt_class = mad->mad_hdr.mgmt_class;
	in->src_qp = rwc->wc->src_qp;
	in->slid = rwc->wc->slid;
	in->first = rwc;
	in->expected = 2;
	in->newwin = RMPP_WINDOW;
	in->deadline = jiffies + msecs_to_jiffies(RMPP_RECV_MS);
	spin_lock_irq(&ma->lock);
	if (rmpp_in_find(ma, rwc)) {
		/* Another copy of segment 1 got there first */
		spin_unlock_irq(&ma->lock);
		kfree(in);
		ib_free_recv_mad(rwc);
		return NULL;
	}
	list_add_tail(&in->link, &ma->rmpp_in);
	spin_unlock_irq(&ma->lock);
	queue_delayed_work(ma->port->wq, &ma->rmpp_timer,
			   msecs_to_jiffies(RMPP_RECV_MS));
	rmpp_send_ctl(ma, rwc, IB_MGMT_RMPP_TYPE_ACK, 0, 1, RMPP_WINDOW);
	return NULL;
}

static struct ib_mad_recv_wc *rmpp_recv_data(struct mad_agent *ma,
					     struct ib_mad_recv_wc *rwc)
{
	struct ib_rmpp_hdr *r = &rmpp_mad_of(rwc)->rmpp_hdr;
	u8 flags = ib_get_rmpp_flags(r);
	u32 seg = be32_to_cpu(r->seg_num);
	u32 have, ack_win = 0;
	struct rmpp_in *in;

	spin_lock_irq(&ma->lock);
	in = rmpp_in_find(ma, rwc);
	if (!in) {
		spin_unlock_irq(&ma->lock);
		return rmpp_recv_first(ma, rwc, flags, seg);
	}
	have = in->expected - 1;
	if (seg != in->expected) {
		/* A duplicate is acknowledged again; a gap waits for a retry */
		spin_unlock_irq(&ma->lock);
		if (seg && seg < in->expected)
			rmpp_send_ctl(ma, rwc, IB_MGMT_RMPP_TYPE_ACK, 0, have,
				      in->newwin);
		else
			counters_drop(ma->port, MAD_DROP_RMPP);
		ib_free_recv_mad(rwc);
		return NULL;
	}
	list_del_init(&rwc->recv_buf.list);
	list_add_tail(&rwc->recv_buf.list, &in->first->rmpp_list);
	in->expected++;
	in->deadline = jiffies + msecs_to_jiffies(RMPP_RECV_MS);
	if (flags & IB_MGMT_RMPP_FLAG_LAST) {
		list_del(&in->link);
		spin_unlock_irq(&ma->lock);
		return rmpp_in_done(ma, in, rwc);
	}
	if (seg == in->newwin) {
		in->newwin = seg + RMPP_WINDOW;
		ack_win = in->newwin;
	}
	spin_unlock_irq(&ma->lock);
	if (ack_win)
		rmpp_send_ctl(ma, rwc, IB_MGMT_RMPP_TYPE_ACK, 0, seg, ack_win);
	return NULL;
}

/* STOP or ABORT from the other side: end the transfers of that TID. */
static void rmpp_recv_stop(struct mad_agent *ma, struct ib_mad_recv_wc *rwc)
{
	struct rmpp_in *in;

	spin_lock_irq(&ma->lock);
	in = rmpp_in_find(ma, rwc);
	if (in)
		list_del(&in->link);
	spin_unlock_irq(&ma->lock);
	if (in) {
		ib_free_recv_mad(in->first);
		kfree(in);
	}
	send_rmpp_ctl(ma, rwc);
}

/**
 * rmpp_recv - the RMPP part of receiving a MAD for an agent
 * @ma: the agent
 * @rwc: the MAD
 *
 * Called from the CQ's work with no lock held.
 *
 * Return: the MAD (or the whole message it completes) to deliver, or
 * NULL when RMPP consumed it (a segment kept, a control MAD, a drop).
 */
struct ib_mad_recv_wc *rmpp_recv(struct mad_agent *ma,
				 struct ib_mad_recv_wc *rwc)
{
	struct ib_rmpp_hdr *r = &rmpp_mad_of(rwc)->rmpp_hdr;

	if (!ib_mad_kernel_rmpp_agent(&ma->agent) ||
	    !(ib_get_rmpp_flags(r) & IB_MGMT_RMPP_FLAG_ACTIVE))
		return rwc;
	if (r->rmpp_version != IB_MGMT_RMPP_VERSION) {
		rmpp_abort(ma, rwc, IB_MGMT_RMPP_STATUS_UNV);
		ib_free_recv_mad(rwc);
		return NULL;
	}
	switch (r->rmpp_type) {
	case IB_MGMT_RMPP_TYPE_DATA:
		return rmpp_recv_data(ma, rwc);
	case IB_MGMT_RMPP_TYPE_ACK:
	case IB_MGMT_RMPP_TYPE_STOP:
	case IB_MGMT_RMPP_TYPE_ABORT:
		if (r->rmpp_type == IB_MGMT_RMPP_TYPE_ACK)
			send_rmpp_ctl(ma, rwc);
		else
			rmpp_recv_stop(ma, rwc);
		break;
	default:
		rmpp_abort(ma, rwc, IB_MGMT_RMPP_STATUS_BADT);
		break;
	}
	ib_free_recv_mad(rwc);
	return NULL;
}

/* Takes the reassemblies of @ma that match @pred off its list. */
static void rmpp_in_take(struct mad_agent *ma, bool all, struct list_head *out)
{
	struct rmpp_in *in, *tmp;
	unsigned long now = jiffies;

	spin_lock_irq(&ma->lock);
	list_for_each_entry_safe(in, tmp, &ma->rmpp_in, link)
		if (all || !time_after(in->deadline, now))
			list_move_tail(&in->link, out);
	spin_unlock_irq(&ma->lock);
}

static void rmpp_in_free(struct mad_agent *ma, struct list_head *list,
			 bool count)
{
	struct rmpp_in *in, *tmp;

	list_for_each_entry_safe(in, tmp, list, link) {
		if (count)
			counters_drop(ma->port, MAD_DROP_RMPP);
		ib_free_recv_mad(in->first);
		kfree(in);
	}
}

/**
 * rmpp_timer_fn - drop the reassemblies of an agent that stalled
 * @work: the agent's rmpp_timer
 */
void rmpp_timer_fn(struct work_struct *work)
{
	struct mad_agent *ma = container_of(to_delayed_work(work),
					    struct mad_agent, rmpp_timer);
	LIST_HEAD(late);
	bool more;

	rmpp_in_take(ma, false, &late);
	rmpp_in_free(ma, &late, true);
	spin_lock_irq(&ma->lock);
	more = !list_empty(&ma->rmpp_in);
	spin_unlock_irq(&ma->lock);
	if (more && !READ_ONCE(ma->dying))
		queue_delayed_work(ma->port->wq, &ma->rmpp_timer,
				   msecs_to_jiffies(RMPP_RECV_MS / 4));
}

/**
 * rmpp_recv_flush - an agent is unregistering: drop its reassemblies
 * @ma: the agent, receiving nothing more
 */
void rmpp_recv_flush(struct mad_agent *ma)
{
	LIST_HEAD(all);

	cancel_delayed_work_sync(&ma->rmpp_timer);
	rmpp_in_take(ma, true, &all);
	rmpp_in_free(ma, &all, false);
}
