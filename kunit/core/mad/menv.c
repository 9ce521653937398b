// SPDX-License-Identifier: GPL-2.0
/*
 * The MAD suites' helpers: recording agents (which may answer requests),
 * address handles between test devices, MADs to send, the drop counters
 * of a port (ib_core's debugfs file), test devices (RoCE pairs are
 * tk_roce_pair()'s, in rdma_kunit_lib).
 *
 * Locking: a recording agent's fields are written by its handlers (one
 * at a time per kind: the MAD layer calls them from one work context per
 * port) and read by the case after a wait on the counters.
 */
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include "menv.h"
#include "tk.h"

/*
 * Sends a request's answer back: its GetResp, same TID and data.  What
 * failed is kept in the agent's answer_err for the case to check.
 */
static void menv_answer(struct menv_agent *a, struct ib_mad_recv_wc *rwc)
{
	struct ib_mad_agent *agent = a->agent;
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;
	int ret;

	ah = ib_create_ah_from_wc(agent->qp->pd, rwc->wc, rwc->recv_buf.grh,
				  agent->port_num);
	if (IS_ERR(ah)) {
		a->answer_err = PTR_ERR(ah);
		return;
	}
	buf = ib_create_send_mad(agent, rwc->wc->src_qp, rwc->wc->pkey_index,
				 0, IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf)) {
		a->answer_err = PTR_ERR(buf);
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return;
	}
	memcpy(buf->mad, rwc->recv_buf.mad, sizeof(struct ib_mad));
	((struct ib_mad_hdr *)buf->mad)->method |= IB_MGMT_METHOD_RESP;
	buf->ah = ah;
	buf->context[0] = ah;
	ret = ib_post_send_mad(buf, NULL);
	if (ret) {
		a->answer_err = ret;
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(buf);
	}
}

/*
 * A consumer that cancels the request a response answers from the
 * response's handler, and then gives the request's end 200 ms to come
 * (it must not: the handler may still use the buffer).
 */
static void menv_cancel_answered(struct menv_agent *a,
				 struct ib_mad_send_buf *send_buf)
{
	int n = atomic_read(&a->nsend);

	ib_cancel_mad(send_buf);
	a->sent_in_recv = wait_event_timeout(a->wq,
					     atomic_read(&a->nsend) != n,
					     msecs_to_jiffies(200));
}

static void menv_recv(struct ib_mad_agent *agent,
		      struct ib_mad_send_buf *send_buf,
		      struct ib_mad_recv_wc *rwc)
{
	struct menv_agent *a = agent->context;
	struct ib_mad_recv_buf *rb;
	int segs = 0;

	list_for_each_entry(rb, &rwc->rmpp_list, list)
		segs++;
	rb = list_last_entry(&rwc->rmpp_list, struct ib_mad_recv_buf, list);
	a->last_recv = rwc->recv_buf.mad->mad_hdr;
	a->last_len = rwc->mad_len;
	a->last_segs = segs;
	memcpy(a->last_data, rb->mad->data, sizeof(a->last_data));
	a->last_had_send = send_buf;
	if (a->answer && !ib_response_mad(&rwc->recv_buf.mad->mad_hdr))
		menv_answer(a, rwc);
	if (a->cancel_in_recv && send_buf)
		menv_cancel_answered(a, send_buf);
	ib_free_recv_mad(rwc);
	atomic_inc(&a->nrecv);
	wake_up(&a->wq);
}

/* What buf->mad holds: the whole MAD, or an RMPP message's header. */
static size_t menv_sent_len(const struct ib_mad_send_buf *buf)
{
	size_t len = buf->hdr_len + (buf->seg_count ? 0 : buf->data_len);

	return min_t(size_t, len, sizeof(((struct menv_agent *)0)->last_sent));
}

/**
 * menv_send_done - the end of a recording agent's send
 * @buf: the send buffer; context[0], when set, is the AH the send made
 * @nsend: the agent's count of ended sends
 * @wq: where the case waits on it
 *
 * Frees the AH and the buffer, then counts the send and wakes the case.
 */
void menv_send_done(struct ib_mad_send_buf *buf, atomic_t *nsend,
		    wait_queue_head_t *wq)
{
	if (buf->context[0])
		rdma_destroy_ah(buf->context[0], RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(buf);
	atomic_inc(nsend);
	wake_up(wq);
}

static void menv_send(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
	struct menv_agent *a = agent->context;

	a->last_status = wc->status;
	a->last_retries = wc->send_buf->retries;
	a->last_context = wc->send_buf->context[1];
	memcpy(a->last_sent, wc->send_buf->mad, menv_sent_len(wc->send_buf));
	menv_send_done(wc->send_buf, &a->nsend, &a->wq);
}

/**
 * menv_agent - register a recording agent
 * @test: the case; fails if the agent cannot be registered
 * @dev: the device
 * @port: its port
 * @qpt: IB_QPT_SMI or IB_QPT_GSI
 * @mgmt_class: the class of its registration request; 0 for none
 * @version: the class version
 * @method: the one method it registers
 * @rmpp_version: 0 or IB_MGMT_RMPP_VERSION
 *
 * Return: the agent; free it with menv_agent_free().
 */
struct menv_agent *menv_agent(struct kunit *test, struct ib_device *dev,
			      u32 port, enum ib_qp_type qpt, u8 mgmt_class,
			      u8 version, u8 method, u8 rmpp_version)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = mgmt_class,
		.mgmt_class_version = version,
	};
	struct menv_agent *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	init_waitqueue_head(&a->wq);
	set_bit(method, req.method_mask);
	a->agent = ib_register_mad_agent(dev, port, qpt,
					 mgmt_class ? &req : NULL,
					 rmpp_version, menv_send, menv_recv,
					 a, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(a->agent), "agent: %ld",
			       PTR_ERR(a->agent));
	return a;
}

/**
 * menv_agent_free - unregister a recording agent
 * @a: the agent
 */
void menv_agent_free(struct menv_agent *a)
{
	ib_unregister_mad_agent(a->agent);
}

/*
 * The index of the first GID of @type on @dev's @port (an IPv4-mapped one
 * if @v4), or -1.
 */
static int menv_gid_index(struct ib_device *dev, u32 port,
			  enum ib_gid_type type, bool v4, union ib_gid *gid)
{
	const struct ib_gid_attr *attr;
	int i;

	for (i = 0; i < 16; i++) {
		attr = rdma_get_gid_attr(dev, port, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == type &&
		    (!v4 || ipv6_addr_v4mapped((struct in6_addr *)&attr->gid))) {
			*gid = attr->gid;
			rdma_put_gid_attr(attr);
			return i;
		}
		rdma_put_gid_attr(attr);
	}
	return -1;
}

/**
 * menv_has_gid4 - does a RoCE port have an IPv4 RoCEv2 GID yet?
 * @dev: the device
 * @port: its port
 */
bool menv_has_gid4(struct ib_device *dev, u32 port)
{
	union ib_gid gid;

	return menv_gid_index(dev, port, IB_GID_TYPE_ROCE_UDP_ENCAP, true,
			      &gid) >= 0;
}

/**
 * menv_ah - an AH from an agent's port to another port
 * @test: the case; fails if there is none
 * @from: the sending agent
 * @to: the receiving device
 * @to_port: its port
 *
 * InfiniBand: to the port's LID.  RoCE: to its first RoCEv2 GID, from
 * the sender's.
 *
 * Return: the AH; destroy it with rdma_destroy_ah().
 */
struct ib_ah *menv_ah(struct kunit *test, struct ib_mad_agent *from,
		      struct ib_device *to, u32 to_port)
{
	return menv_ah_family(test, from, to, to_port, false);
}

/**
 * menv_ah_family - menv_ah(), RoCE over IPv4 if @v4: between the ports'
 *	first IPv4-mapped RoCEv2 GIDs
 * @test: the case; fails if there is none
 * @from: the sending agent
 * @to: the receiving device
 * @to_port: its port
 * @v4: IPv4 GIDs only
 *
 * Return: the AH; destroy it with rdma_destroy_ah().
 */
struct ib_ah *menv_ah_family(struct kunit *test, struct ib_mad_agent *from,
			     struct ib_device *to, u32 to_port, bool v4)
{
	struct rdma_ah_attr attr = {};
	struct ib_port_attr pa;
	union ib_gid gid, own;
	struct ib_ah *ah;
	int idx;

	rdma_ah_set_port_num(&attr, from->port_num);
	if (rdma_protocol_roce(from->device, from->port_num)) {
		attr.type = RDMA_AH_ATTR_TYPE_ROCE;
		KUNIT_ASSERT_GE(test, menv_gid_index(to, to_port,
						     IB_GID_TYPE_ROCE_UDP_ENCAP,
						     v4, &gid), 0);
		idx = menv_gid_index(from->device, from->port_num,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, v4, &own);
		KUNIT_ASSERT_GE(test, idx, 0);
		rdma_ah_set_grh(&attr, &gid, 0, idx, 64, 0);
	} else {
		attr.type = RDMA_AH_ATTR_TYPE_IB;
		KUNIT_ASSERT_EQ(test, ib_query_port(to, to_port, &pa), 0);
		rdma_ah_set_dlid(&attr, pa.lid);
	}
	ah = rdma_create_ah(from->qp->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ah), "ah: %ld", PTR_ERR(ah));
	return ah;
}

/**
 * menv_mad - a MAD of one segment to send from a recording agent
 * @test: the case; fails if it cannot be made
 * @a: the agent
 * @ah: where it goes
 * @qpn: to which QP
 * @mgmt_class: its class
 * @version: its class version
 * @method: its method
 * @tid_lo: the low half of its TID (the agent's hi_tid is the high one)
 *
 * Return: the send buffer; its end frees it (menv's send handler).
 */
struct ib_mad_send_buf *menv_mad(struct kunit *test, struct menv_agent *a,
				 struct ib_ah *ah, u32 qpn, u8 mgmt_class,
				 u8 version, u8 method, u32 tid_lo)
{
	struct ib_mad_send_buf *buf;
	struct ib_mad *mad;

	buf = ib_create_send_mad(a->agent, qpn, 0, 0, IB_MGMT_MAD_HDR,
				 IB_MGMT_MAD_DATA, GFP_KERNEL,
				 IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	mad = buf->mad;
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = mgmt_class;
	mad->mad_hdr.class_version = version;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = cpu_to_be16(0x10);
	mad->mad_hdr.tid = cpu_to_be64((u64)a->agent->hi_tid << 32 | tid_lo);
	memset(mad->data, tid_lo & 0xff, sizeof(mad->data));
	buf->ah = ah;
	return buf;
}

/**
 * menv_wait - wait until a counter of an agent reaches a value
 * @v: the counter
 * @want: the value
 * @a: the agent whose callbacks move it
 *
 * Return: true if it did within MENV_WAIT_MS.
 */
bool menv_wait(atomic_t *v, int want, struct menv_agent *a)
{
	return wait_event_timeout(a->wq, atomic_read(v) >= want,
				  msecs_to_jiffies(MENV_WAIT_MS)) > 0;
}

/**
 * menv_counter - a counter of a port's MAD layer
 * @dev: the device
 * @port: the port
 * @name: the counter ("received", "drop_no_agent" ...)
 *
 * Return: its value, or U64_MAX if it cannot be read.
 */
u64 menv_counter(struct ib_device *dev, u32 port, const char *name)
{
	char path[96], key[32], *buf, *line, *next;
	u64 val = U64_MAX, v;

	buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return val;
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/ib_core/mad/%s-%u/counters",
		 dev_name(&dev->dev), port);
	if (!tk_file_read(path, buf, PAGE_SIZE)) {
		for (line = buf; line && *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			if (sscanf(line, "%31s %llu", key, &v) == 2 &&
			    !strcmp(key, name)) {
				val = v;
				break;
			}
		}
	}
	kfree(buf);
	return val;
}

/**
 * menv_dev - a registered test device for the MAD suites
 * @test: the case; fails if it cannot be made
 * @roce: a RoCE device (else InfiniBand)
 *
 * Return: the device; free it with tdev_destroy().
 */
struct tdev *menv_dev(struct kunit *test, bool roce)
{
	struct tdev_params p = { .name = "ktmad%d", .roce = roce };

	return tk_dev(test, &p);
}
