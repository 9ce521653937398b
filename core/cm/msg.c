// SPDX-License-Identifier: GPL-2.0
/*
 * Sending CM messages.
 *
 * A connection's messages go to the peer's QP1 through an address
 * handle made from its address vector (cm_av): from the path for the
 * active side, from the REQ's work completion for the passive side.
 * One message per connection may be out with a timeout and retries
 * (cm_id_priv.msg: REQ, REP, DREQ, SIDR REQ); it holds a reference on
 * its cm_id until the MAD layer reports its end to cm_send_handler().
 * The peer's answer cancels it; its timeout is an error event.
 *
 * The send buffer and address handle are made under cm_lock, which keeps
 * the port's agent registered meanwhile (main.c clears cm_port.agent
 * under it before unregistering), with atomic allocations: callers hold
 * the cm_id's lock.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"

/* For the transaction IDs of the messages a cm_id starts */
static atomic_t cm_tid_seq;

/**
 * cm_iba_ms - an IBA time value in milliseconds, rounded up
 * @iba_time: t for 4.096 us * 2^t
 *
 * Return: the time in ms.
 */
u32 cm_iba_ms(u8 iba_time)
{
	return DIV_ROUND_UP_ULL(4096ULL << min_t(u8, iba_time, 31), 1000000);
}

/**
 * cm_ack_timeout - the QP's local ACK timeout for a path
 * @ack_delay: the receiving CA's ACK delay (an IBA time value)
 * @plt: the path's packet life time (an IBA time value)
 *
 * The ACK must have time for the peer's delay plus a round trip,
 * 2^ack_delay + 2^(plt + 1) in 4.096 us units.  As the target does, the
 * larger term stands for the sum, one step more when the smaller is at
 * least half of it, so that both sides of a wire compute the same value.
 *
 * Return: the timeout, at most 31.
 */
u8 cm_ack_timeout(u8 ack_delay, u8 plt)
{
	int rtt = plt + 1;
	int big = max_t(int, ack_delay, rtt);
	int small = min_t(int, ack_delay, rtt);

	return min(31, big + (big - small <= 1));
}

static void cm_av_set_port(struct cm_av *av, struct cm_port *port)
{
	av->port = port;
	av->valid = true;
}

/**
 * cm_av_from_path - the address vector of an active side's path
 * @av: out; released by cm_av_release()
 * @ibdev: the device
 * @path: the path; its SGID names the port unless @sgid_attr does
 * @sgid_attr: the source GID entry (RoCE), or NULL
 *
 * Return: 0, -EINVAL without such a port, -ENOENT without the P_Key on
 * it, or the core's error.
 */
int cm_av_from_path(struct cm_av *av, struct ib_device *ibdev,
		    struct sa_path_rec *path,
		    const struct ib_gid_attr *sgid_attr)
{
	struct cm_port *port;
	u32 port_num;
	int ret;

	if (sgid_attr) {
		if (sgid_attr->device != ibdev)
			return -EINVAL;
		port_num = sgid_attr->port_num;
	} else {
		/* No port with the path's source GID: a bad path */
		if (ib_find_gid(ibdev, &path->sgid, &port_num, NULL))
			return -EINVAL;
	}
	port = cm_port_of(ibdev, port_num);
	if (!port)
		return -EINVAL;
	ret = ib_find_cached_pkey(ibdev, port_num, be16_to_cpu(path->pkey),
				  &av->pkey_index);
	if (!ret)
		ret = ib_init_ah_attr_from_path(ibdev, port_num, path,
						&av->attr, sgid_attr);
	if (ret) {
		cm_dev_put(port->dev);
		return ret;
	}
	av->timeout = cm_ack_timeout(port->dev->ack_delay,
				     path->packet_life_time);
	cm_av_set_port(av, port);
	return 0;
}

/**
 * cm_av_from_wc - the address vector back to a received MAD's sender
 * @av: out; released by cm_av_release()
 * @port: the port it came in on
 * @rwc: the MAD
 *
 * May sleep (a RoCE peer's MAC address is resolved).
 *
 * Return: 0 or the core's error.
 */
int cm_av_from_wc(struct cm_av *av, struct cm_port *port,
		  struct ib_mad_recv_wc *rwc)
{
	int ret;

	ret = ib_init_ah_attr_from_wc(port->dev->ibdev, port->num, rwc->wc,
				      rwc->recv_buf.grh, &av->attr);
	if (ret)
		return ret;
	av->pkey_index = rwc->wc->pkey_index;
	kref_get(&port->dev->ref);
	cm_av_set_port(av, port);
	return 0;
}

/**
 * cm_av_release - let go of an address vector
 * @av: the vector, set or not
 */
void cm_av_release(struct cm_av *av)
{
	if (!av->valid)
		return;
	rdma_destroy_ah_attr(&av->attr);
	cm_dev_put(av->port->dev);
	av->valid = false;
}

static void cm_mad_hdr(struct ib_mad_hdr *hdr, __be16 attr_id, __be64 tid)
{
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = IB_MGMT_CLASS_CM;
	hdr->class_version = CM_CLASS_VERSION;
	hdr->method = IB_MGMT_METHOD_SEND;
	hdr->attr_id = attr_id;
	hdr->tid = tid;
}

/* A send buffer and AH on @port's agent, or an ERR_PTR; under cm_lock */
static struct ib_mad_send_buf *cm_buf_alloc(struct cm_port *port,
					    struct rdma_ah_attr *attr,
					    u16 pkey_index)
{
	struct ib_mad_agent *agent = port->agent;
	struct ib_mad_send_buf *msg;
	struct ib_ah *ah;

	lockdep_assert_held(&cm_lock);
	if (!agent)
		return ERR_PTR(-ENODEV);
	ah = rdma_create_ah(agent->qp->pd, attr, 0);
	if (IS_ERR(ah))
		return ERR_CAST(ah);
	msg = ib_create_send_mad(agent, 1, pkey_index, 0, IB_MGMT_MAD_HDR,
				 IB_MGMT_MAD_DATA, GFP_ATOMIC,
				 IB_MGMT_BASE_VERSION);
	if (IS_ERR(msg)) {
		rdma_destroy_ah(ah, 0);
		return msg;
	}
	msg->ah = ah;
	return msg;
}

/**
 * cm_msg_alloc - a message of a connection
 * @priv: the cm_id, locked, with its address vector set
 * @attr_id: the message (CM_REQ_ATTR_ID...)
 * @tid: its transaction ID
 *
 * Return: the message, zeroed but for its MAD header, or an ERR_PTR.
 */
struct ib_mad_send_buf *cm_msg_alloc(struct cm_id_priv *priv,
				     __be16 attr_id, __be64 tid)
{
	struct ib_mad_send_buf *msg;
	unsigned long flags;

	lockdep_assert_held(&priv->lock);
	if (!priv->av.valid)
		return ERR_PTR(-EINVAL);
	spin_lock_irqsave(&cm_lock, flags);
	msg = cm_buf_alloc(priv->av.port, &priv->av.attr,
			   priv->av.pkey_index);
	spin_unlock_irqrestore(&cm_lock, flags);
	if (!IS_ERR(msg))
		cm_mad_hdr(msg->mad, attr_id, tid);
	return msg;
}

/**
 * cm_msg_free - free a message that was not posted, or has ended
 * @msg: the message
 */
void cm_msg_free(struct ib_mad_send_buf *msg)
{
	rdma_destroy_ah(msg->ah, 0);
	ib_free_send_mad(msg);
}

/**
 * cm_msg_post - send a message
 * @priv: the cm_id, locked
 * @msg: the message, from cm_msg_alloc(); freed here on failure
 * @timeout_ms: 0 for a message sent once; otherwise the time the peer
 *	has to answer, and the message becomes the cm_id's outstanding one
 * @retries: how often it is sent again without an answer
 *
 * Return: 0 or the MAD layer's error.
 */
int cm_msg_post(struct cm_id_priv *priv, struct ib_mad_send_buf *msg,
		u32 timeout_ms, int retries)
{
	int ret;

	lockdep_assert_held(&priv->lock);
	if (timeout_ms) {
		msg->timeout_ms = timeout_ms;
		msg->retries = retries;
		msg->context[0] = priv;
		refcount_inc(&priv->refs);
	}
	ret = ib_post_send_mad(msg, NULL);
	if (ret) {
		if (timeout_ms)
			refcount_dec(&priv->refs);
		cm_msg_free(msg);
		return ret;
	}
	if (timeout_ms)
		priv->msg = msg;
	return 0;
}

/**
 * cm_msg_cancel - stop the outstanding message, if any
 * @priv: the cm_id, locked
 *
 * Its end still comes to cm_send_handler(), which then only frees it.
 */
void cm_msg_cancel(struct cm_id_priv *priv)
{
	lockdep_assert_held(&priv->lock);
	if (!priv->msg)
		return;
	ib_cancel_mad(priv->msg);
	priv->msg = NULL;
}

/**
 * cm_new_tid - a transaction ID for a message a cm_id starts
 * @priv: the cm_id
 *
 * Return: the ID: a sequence number and the local ID.
 */
__be64 cm_new_tid(struct cm_id_priv *priv)
{
	u64 seq = (u32)atomic_inc_return(&cm_tid_seq);

	return cpu_to_be64(seq << 32 | be32_to_cpu(priv->id.local_id));
}

/**
 * cm_reply_to - answer a received MAD without a cm_id
 * @port: the port it came in on
 * @rwc: the MAD
 * @attr_id: the answer (REJ, DREP, SIDR REP)
 * @fill: fills the answer's body from the request and @arg
 * @arg: for @fill
 *
 * The answer carries the request's transaction ID and is sent once.
 *
 * Return: 0 or an error.
 */
int cm_reply_to(struct cm_port *port, struct ib_mad_recv_wc *rwc,
		__be16 attr_id, void (*fill)(void *mad, const void *req,
					     const void *arg),
		const void *arg)
{
	const struct ib_mad *req = rwc->recv_buf.mad;
	struct ib_mad_send_buf *msg;
	struct rdma_ah_attr attr;
	unsigned long flags;
	int ret;

	ret = ib_init_ah_attr_from_wc(port->dev->ibdev, port->num, rwc->wc,
				      rwc->recv_buf.grh, &attr);
	if (ret)
		return ret;
	spin_lock_irqsave(&cm_lock, flags);
	msg = cm_buf_alloc(port, &attr, rwc->wc->pkey_index);
	spin_unlock_irqrestore(&cm_lock, flags);
	rdma_destroy_ah_attr(&attr);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	cm_mad_hdr(msg->mad, attr_id, req->mad_hdr.tid);
	fill(msg->mad, req, arg);
	ret = ib_post_send_mad(msg, NULL);
	if (ret)
		cm_msg_free(msg);
	return ret;
}

/* The outstanding message went unanswered, or could not be sent */
static void cm_msg_failed(struct cm_id_priv *priv, enum ib_wc_status st)
{
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		cm_conn_send_failed(priv, st);
		break;
	case IB_CM_DREQ_SENT:
		cm_dreq_send_failed(priv, st);
		break;
	case IB_CM_SIDR_REQ_SENT:
		cm_sidr_send_failed(priv, st);
		break;
	case IB_CM_ESTABLISHED:
		if (priv->id.lap_state == IB_CM_LAP_SENT)
			cm_lap_send_failed(priv, st);
		break;
	default:
		break;
	}
}

/**
 * cm_send_handler - the MAD layer reports the end of a send
 * @agent: the port's agent
 * @wc: the send and its status
 *
 * The message is counted (every transmission, and its retries), then a
 * message sent once is simply freed.  The outstanding message of a
 * cm_id that ends with an error other than its cancellation makes the
 * cm_id's error event.
 */
void cm_send_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_wc *wc)
{
	struct ib_mad_send_buf *msg = wc->send_buf;
	struct cm_id_priv *priv = msg->context[0];
	__be16 attr_id = ((struct ib_mad_hdr *)msg->mad)->attr_id;
	unsigned long flags;

	cm_count(agent->context, CM_CTR_TX, attr_id, 1 + msg->retries);
	cm_count(agent->context, CM_CTR_TX_RETRIES, attr_id, msg->retries);
	if (priv) {
		spin_lock_irqsave(&priv->lock, flags);
		if (priv->msg == msg) {
			priv->msg = NULL;
			if (wc->status != IB_WC_SUCCESS &&
			    wc->status != IB_WC_WR_FLUSH_ERR && !priv->dead)
				cm_msg_failed(priv, wc->status);
		}
		spin_unlock_irqrestore(&priv->lock, flags);
		cm_id_put(priv);
	}
	cm_msg_free(msg);
}
