// SPDX-License-Identifier: GPL-2.0
/*
 * What read() returns from a umadN file: the MADs its agents received
 * (an RMPP message whole, the kernel having reassembled it) and the
 * sends whose response never came (status ETIMEDOUT, the MAD header
 * only), each as a struct ib_user_mad header followed by the MAD.
 *
 * Locking: the agent's handlers queue packets under the file's qlock
 * (file_queue()); read() takes the oldest under it and puts it back at
 * the head when it cannot be copied.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "internal.h"

/**
 * recv_free - free a packet of the receive queue
 * @packet: a received MAD (its buffers go back to the MAD layer) or the
 *	report of a send
 */
void recv_free(struct umad_packet *packet)
{
	if (packet->rwc)
		ib_free_recv_mad(packet->rwc);
	kfree(packet);
}

/* The address a received MAD came from, for userspace to answer it. */
static int recv_fill_addr(struct umad_agent *ua, struct umad_packet *packet,
			  const struct ib_mad_recv_wc *rwc)
{
	struct ib_user_mad_hdr *h = &packet->hdr;
	const struct ib_wc *wc = rwc->wc;
	const struct ib_global_route *grh;
	struct rdma_ah_attr attr;
	int ret;

	h->qpn = cpu_to_be32(wc->src_qp);
	/* An OPA LID's upper bits are not the MAD's business here */
	h->lid = cpu_to_be16(wc->slid & 0xffff);
	h->sl = wc->sl;
	h->path_bits = wc->dlid_path_bits;
	h->pkey_index = wc->pkey_index;
	h->grh_present = !!(wc->wc_flags & IB_WC_GRH);
	if (!h->grh_present)
		return 0;
	ret = ib_init_ah_attr_from_wc(ua->agent->device, ua->agent->port_num,
				      wc, rwc->recv_buf.grh, &attr);
	if (ret)
		return ret;
	grh = rdma_ah_read_grh(&attr);
	h->gid_index = grh->sgid_index;
	h->hop_limit = grh->hop_limit;
	h->traffic_class = grh->traffic_class;
	memcpy(h->gid, grh->dgid.raw, sizeof(h->gid));
	h->flow_label = cpu_to_be32(grh->flow_label);
	rdma_destroy_ah_attr(&attr);
	return 0;
}

/**
 * recv_handler - an agent of a file received a MAD
 * @agent: the agent
 * @sbuf: the request it answers, if any (userspace matches by TID)
 * @rwc: the MAD
 */
void recv_handler(struct ib_mad_agent *agent, struct ib_mad_send_buf *sbuf,
		  struct ib_mad_recv_wc *rwc)
{
	struct umad_agent *ua = agent->context;
	struct umad_file *file = ua->file;
	struct umad_packet *packet;

	if (rwc->wc->status != IB_WC_SUCCESS)
		goto drop;
	packet = kzalloc(sizeof(*packet), GFP_KERNEL);
	if (!packet)
		goto drop;
	packet->rwc = rwc;
	packet->len = rwc->mad_len;
	packet->hdr.id = ua->id;
	packet->hdr.length = umad_hdr_size(file) + rwc->mad_len;
	if (!recv_fill_addr(ua, packet, rwc) && file_queue(file, packet))
		return;
	kfree(packet);
drop:
	ib_free_recv_mad(rwc);
}

/* Copies a received MAD after the header; the segments of an RMPP one. */
static ssize_t recv_copy_mad(struct umad_file *file, char __user *buf,
			     struct umad_packet *packet, size_t count)
{
	const struct ib_mad_recv_wc *rwc = packet->rwc;
	const struct ib_mad_recv_buf *seg = &rwc->recv_buf;
	size_t hsz = umad_hdr_size(file), first, left, offset, chunk;

	first = min_t(size_t, packet->len, rwc->mad_seg_size);
	if (count < hsz + first)
		return -EINVAL;
	if (copy_to_user(buf, &packet->hdr, hsz) ||
	    copy_to_user(buf + hsz, seg->mad, first))
		return -EFAULT;
	if (first == packet->len)
		return hsz + first;
	/* The first segment went out; it carries the message's length */
	if (count < hsz + packet->len)
		return -ENOSPC;
	offset = ib_get_mad_data_offset(seg->mad->mad_hdr.mgmt_class);
	buf += hsz + first;
	for (left = packet->len - first; left; left -= chunk, buf += chunk) {
		seg = list_next_entry(seg, list);
		chunk = min(left, rwc->mad_seg_size - offset);
		if (copy_to_user(buf, (const u8 *)seg->mad + offset, chunk))
			return -EFAULT;
	}
	return hsz + packet->len;
}

/* Copies the report of a send: its header and its MAD header. */
static ssize_t recv_copy_report(struct umad_file *file, char __user *buf,
				struct umad_packet *packet, size_t count)
{
	size_t hsz = umad_hdr_size(file);

	if (count < hsz + packet->len)
		return -EINVAL;
	if (copy_to_user(buf, &packet->hdr, hsz) ||
	    copy_to_user(buf + hsz, packet->mad, packet->len))
		return -EFAULT;
	return hsz + packet->len;
}

/* The oldest packet of @file, taken off its queue; or an ERR_PTR. */
static struct umad_packet *recv_take(struct umad_file *file, bool block)
{
	struct umad_packet *packet;
	int ret;

	for (;;) {
		spin_lock_irq(&file->qlock);
		if (file->dead) {
			spin_unlock_irq(&file->qlock);
			return ERR_PTR(-EIO);
		}
		packet = list_first_entry_or_null(&file->recvs,
						  struct umad_packet, link);
		if (packet) {
			list_del(&packet->link);
			file->nqueued--;
		}
		spin_unlock_irq(&file->qlock);
		if (packet)
			return packet;
		if (!block)
			return ERR_PTR(-EAGAIN);
		ret = wait_event_interruptible(file->wait,
					       !list_empty(&file->recvs) ||
					       READ_ONCE(file->dead));
		if (ret)
			return ERR_PTR(-ERESTARTSYS);
	}
}

/* Puts a packet read() could not copy back at the head of the queue. */
static void recv_putback(struct umad_file *file, struct umad_packet *packet)
{
	spin_lock_irq(&file->qlock);
	if (!file->dead) {
		list_add(&packet->link, &file->recvs);
		file->nqueued++;
		packet = NULL;
	}
	spin_unlock_irq(&file->qlock);
	if (packet)
		recv_free(packet);
}

/**
 * recv_read - read() of a umadN file: one packet
 * @filp: the file
 * @buf: room for the header and the MAD
 * @count: its size
 * @pos: unused (a stream)
 *
 * Return: the bytes copied; -EINVAL if @count is smaller than the header
 * (or than the header and the first segment); -ENOSPC if an RMPP message
 * does not fit (its first segment was copied, with its length); -EAGAIN
 * when nothing is queued on a non-blocking file; -EIO once the file's
 * port is gone; -EFAULT.  A packet that was not copied stays first in
 * the queue.
 */
ssize_t recv_read(struct file *filp, char __user *buf, size_t count,
		  loff_t *pos)
{
	struct umad_file *file = filp->private_data;
	struct umad_packet *packet;
	ssize_t ret;

	if (count < umad_hdr_size(file))
		return -EINVAL;
	packet = recv_take(file, !(filp->f_flags & O_NONBLOCK));
	if (IS_ERR(packet))
		return PTR_ERR(packet);
	if (packet->rwc)
		ret = recv_copy_mad(file, buf, packet, count);
	else
		ret = recv_copy_report(file, buf, packet, count);
	if (ret < 0)
		recv_putback(file, packet);
	else
		recv_free(packet);
	return ret;
}
