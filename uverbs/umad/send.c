// SPDX-License-Identifier: GPL-2.0
/*
 * write() of a umadN file: one struct ib_user_mad (header, then the MAD)
 * sent by one of the file's agents to the address of its header, and the
 * end of each send.
 *
 * The high half of a request's TID is replaced with the agent's hi_tid,
 * so that the MAD layer brings the response back to the agent.  A kernel
 * RMPP agent's MAD of an RMPP class is cut into segments by the MAD
 * layer when its RMPP header says active; any other MAD fits one MAD.
 * A request whose TID and class equal those of an outstanding request of
 * the file, or a response with those of an outstanding response to the
 * same destination, is refused (-EINVAL); user RMPP segments are exempt.
 *
 * A send that timed out is reported to read() with status ETIMEDOUT and
 * its MAD header; other ends are not reported.
 *
 * Locking: internal.h.  write() holds the file's lock from the agent
 * lookup to the post, so the agent cannot be unregistered meanwhile; the
 * outstanding sends are on file->sends under qlock.
 */
#include <linux/errno.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "internal.h"

/* The headers of an RMPP-capable MAD, as far as write() looks at them. */
struct send_rmpp_head {
	struct ib_mad_hdr mad_hdr;
	struct ib_rmpp_hdr rmpp_hdr;
} __packed;

static bool send_same_dest(const struct ib_user_mad_hdr *a,
			   const struct ib_user_mad_hdr *b)
{
	if (a->grh_present != b->grh_present)
		return false;
	if (a->grh_present)
		return !memcmp(a->gid, b->gid, sizeof(a->gid));
	return a->lid == b->lid;
}

/* Whether @packet repeats an outstanding send of @file; under qlock. */
static bool send_is_duplicate(struct umad_file *file,
			      const struct umad_packet *packet)
{
	const struct ib_mad_hdr *hdr = (const void *)packet->mad, *old;
	const struct umad_packet *out;
	bool resp = ib_response_mad(hdr);

	lockdep_assert_held(&file->qlock);
	list_for_each_entry(out, &file->sends, link) {
		old = (const void *)out->mad;
		if (old->tid != hdr->tid || old->mgmt_class != hdr->mgmt_class)
			continue;
		if (ib_response_mad(old) != resp)
			continue;
		if (!resp || send_same_dest(&packet->hdr, &out->hdr))
			return true;
	}
	return false;
}

/* Takes @packet off the file's outstanding sends. */
static void send_unlist(struct umad_file *file, struct umad_packet *packet)
{
	spin_lock_irq(&file->qlock);
	list_del(&packet->link);
	spin_unlock_irq(&file->qlock);
}

/**
 * send_handler - a send of a file's agent ended
 * @agent: the agent
 * @wc: how
 */
void send_handler(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
	struct umad_agent *ua = agent->context;
	struct umad_packet *packet = wc->send_buf->context[0];

	send_unlist(ua->file, packet);
	rdma_destroy_ah(packet->msg->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(packet->msg);
	packet->msg = NULL;
	if (wc->status == IB_WC_RESP_TIMEOUT_ERR) {
		packet->hdr.status = ETIMEDOUT;
		packet->len = IB_MGMT_MAD_HDR;
		if (file_queue(ua->file, packet))
			return;
	}
	kfree(packet);
}

/* The address handle of the header's destination. */
static struct ib_ah *send_make_ah(struct umad_file *file,
				  struct ib_mad_agent *agent,
				  const struct ib_user_mad_hdr *h)
{
	struct rdma_ah_attr attr = {};
	u32 port = file->port->port_num;

	attr.type = rdma_ah_find_type(agent->device, port);
	rdma_ah_set_dlid(&attr, be16_to_cpu(h->lid));
	rdma_ah_set_sl(&attr, h->sl);
	rdma_ah_set_path_bits(&attr, h->path_bits);
	rdma_ah_set_port_num(&attr, port);
	if (h->grh_present) {
		rdma_ah_set_grh(&attr, NULL, be32_to_cpu(h->flow_label),
				h->gid_index, h->hop_limit, h->traffic_class);
		memcpy(attr.grh.dgid.raw, h->gid, sizeof(h->gid));
	}
	return rdma_create_user_ah(agent->qp->pd, &attr, NULL);
}

/* Copies the class header and the segments of an active RMPP send. */
static int send_copy_rmpp(struct ib_mad_send_buf *msg,
			  const char __user *mad)
{
	int seg, left;

	if (msg->hdr_len > IB_MGMT_RMPP_HDR &&
	    copy_from_user(msg->mad + IB_MGMT_RMPP_HDR,
			   mad + IB_MGMT_RMPP_HDR,
			   msg->hdr_len - IB_MGMT_RMPP_HDR))
		return -EFAULT;
	mad += msg->hdr_len;
	for (seg = 1, left = msg->data_len; left > 0; seg++) {
		if (copy_from_user(ib_get_rmpp_segment(msg, seg), mad,
				   min(left, msg->seg_size)))
			return -EFAULT;
		mad += msg->seg_size;
		left -= msg->seg_size;
	}
	return 0;
}

/*
 * Makes the send buffer of @packet from the user's MAD at @mad of
 * @mad_len bytes, its first IB_MGMT_RMPP_HDR bytes in packet->mad.
 */
static int send_make_msg(struct umad_file *file, struct ib_mad_agent *agent,
			 struct umad_packet *packet, const char __user *mad,
			 size_t mad_len, struct ib_ah *ah)
{
	struct send_rmpp_head *head = (void *)packet->mad;
	u8 cls = head->mad_hdr.mgmt_class;
	int hdr_len = ib_get_mad_data_offset(cls);
	bool kernel_rmpp = ib_is_mad_class_rmpp(cls) &&
			   ib_mad_kernel_rmpp_agent(agent);
	int from = kernel_rmpp ? IB_MGMT_RMPP_HDR : IB_MGMT_MAD_HDR;
	bool active = kernel_rmpp && (ib_get_rmpp_flags(&head->rmpp_hdr) &
				      IB_MGMT_RMPP_FLAG_ACTIVE);
	struct ib_mad_send_buf *msg;
	size_t data_len;

	if (check_sub_overflow(mad_len, (size_t)hdr_len, &data_len) ||
	    data_len > INT_MAX)
		return -EINVAL;
	msg = ib_create_send_mad(agent, be32_to_cpu(packet->hdr.qpn),
				 packet->hdr.pkey_index, active, hdr_len,
				 data_len, GFP_KERNEL,
				 head->mad_hdr.base_version);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	msg->ah = ah;
	msg->timeout_ms = packet->hdr.timeout_ms;
	msg->retries = packet->hdr.retries;
	msg->context[0] = packet;
	packet->msg = msg;
	/* The kernel's RMPP header of a kernel RMPP agent stays */
	memcpy(msg->mad, packet->mad, IB_MGMT_MAD_HDR);
	if (active ? send_copy_rmpp(msg, mad) :
	    copy_from_user(msg->mad + from, mad + from,
			   hdr_len + data_len - from)) {
		ib_free_send_mad(msg);
		packet->msg = NULL;
		return -EFAULT;
	}
	/* A request's TID carries the agent's hi_tid */
	if (!ib_response_mad(msg->mad)) {
		head->mad_hdr.tid =
			cpu_to_be64((u64)agent->hi_tid << 32 |
				    (be64_to_cpu(head->mad_hdr.tid) &
				     0xffffffff));
		((struct ib_mad_hdr *)msg->mad)->tid = head->mad_hdr.tid;
	}
	return 0;
}

/* Whether @packet is a user RMPP segment (no duplicate rule). */
static bool send_user_rmpp(struct ib_mad_agent *agent,
			   const struct umad_packet *packet)
{
	const struct send_rmpp_head *head = (const void *)packet->mad;

	return !ib_mad_kernel_rmpp_agent(agent) &&
	       ib_is_mad_class_rmpp(head->mad_hdr.mgmt_class) &&
	       (ib_get_rmpp_flags((struct ib_rmpp_hdr *)&head->rmpp_hdr) &
		IB_MGMT_RMPP_FLAG_ACTIVE);
}

/* Lists @packet as outstanding and posts it; file->lock held. */
static int send_post(struct umad_file *file, struct ib_mad_agent *agent,
		     struct umad_packet *packet)
{
	int ret = 0;

	spin_lock_irq(&file->qlock);
	if (!send_user_rmpp(agent, packet) &&
	    send_is_duplicate(file, packet))
		ret = -EINVAL;
	else
		list_add_tail(&packet->link, &file->sends);
	spin_unlock_irq(&file->qlock);
	if (ret)
		return ret;
	ret = ib_post_send_mad(packet->msg, NULL);
	if (ret)
		send_unlist(file, packet);
	return ret;
}

/* Sends @packet by the file's agent its header names. */
static int send_one(struct umad_file *file, struct umad_packet *packet,
		    const char __user *mad, size_t mad_len)
{
	struct ib_mad_agent *agent;
	struct ib_ah *ah;
	int ret;

	mutex_lock(&file->lock);
	agent = file->dead || !file->agents[packet->hdr.id] ? NULL :
		file->agents[packet->hdr.id]->agent;
	if (!agent) {
		ret = -EIO;
		goto out;
	}
	ah = send_make_ah(file, agent, &packet->hdr);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto out;
	}
	ret = send_make_msg(file, agent, packet, mad, mad_len, ah);
	if (!ret) {
		ret = send_post(file, agent, packet);
		if (ret)
			ib_free_send_mad(packet->msg);
	}
	if (ret)
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
out:
	mutex_unlock(&file->lock);
	return ret;
}

/**
 * send_write - write() of a umadN file: send one MAD
 * @filp: the file
 * @buf: the header (of the file's form), then the MAD
 * @count: their length
 * @pos: unused (a stream)
 *
 * Return: @count once posted; -EINVAL for less than a header and an RMPP
 * header, an agent id out of range, a MAD that does not fit (see
 * ib_create_send_mad()) or a duplicate; -EIO for an agent id with no
 * agent (or once the port is gone); the errors of making the address
 * handle, the send buffer and of ib_post_send_mad(); -EFAULT; -ENOMEM.
 */
ssize_t send_write(struct file *filp, const char __user *buf, size_t count,
		   loff_t *pos)
{
	struct umad_file *file = filp->private_data;
	size_t hsz = umad_hdr_size(file);
	struct umad_packet *packet;
	int ret;

	if (count < hsz + IB_MGMT_RMPP_HDR)
		return -EINVAL;
	packet = kzalloc(sizeof(*packet), GFP_KERNEL);
	if (!packet)
		return -ENOMEM;
	if (copy_from_user(&packet->hdr, buf, hsz) ||
	    copy_from_user(packet->mad, buf + hsz, IB_MGMT_RMPP_HDR)) {
		ret = -EFAULT;
		goto err;
	}
	if (packet->hdr.id >= UMAD_MAX_AGENTS) {
		ret = -EINVAL;
		goto err;
	}
	packet->hdr.id = array_index_nospec(packet->hdr.id, UMAD_MAX_AGENTS);
	ret = send_one(file, packet, buf + hsz, count - hsz);
	if (ret)
		goto err;
	return count;
err:
	kfree(packet);
	return ret;
}
