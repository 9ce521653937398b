// SPDX-License-Identifier: GPL-2.0
/*
 * The SA suites' subnet administrator (sar.h).
 *
 * Answers are built in the receive handler and sent from it, or from a
 * work item after sa->delay_ms.  An answer's address handle is destroyed
 * by its send handler.
 *
 * Locking: sa->lock (a spinlock) protects the groups, the GUID block, the
 * last request's fields and sa->stopping; the knobs are set by the case while no
 * request is in flight, or read once per request.
 */
#include <linux/slab.h>
#include <asm/unaligned.h>
#include <rdma/ib_cache.h>
#include "sar.h"
#include "tk.h"

/* Offsets the SA suites know of the records on the wire (IBTA 15.2.5) */
#define SAR_PATH_DLID		40
#define SAR_PATH_SLID		42
#define SAR_PATH_QOS_SL		52
#define SAR_MC_MGID		0
#define SAR_MC_QKEY		32
#define SAR_MC_MLID		36
#define SAR_MC_JOIN		48

struct sar_answer {
	struct delayed_work work;
	struct sar *sa;
	struct ib_mad_send_buf *buf;
};

static void sar_post(struct ib_mad_send_buf *buf)
{
	if (ib_post_send_mad(buf, NULL)) {
		rdma_destroy_ah(buf->ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(buf);
	}
}

static void sar_post_late(struct work_struct *work)
{
	struct sar_answer *a = container_of(to_delayed_work(work),
					    struct sar_answer, work);
	struct sar *sa = a->sa;

	sar_post(a->buf);
	kfree(a);
	if (atomic_dec_and_test(&sa->late))
		wake_up(&sa->late_wq);
}

/* The slot of group @mgid (or a free one with @add), or -1 */
static int sar_group(struct sar *sa, const union ib_gid *mgid, bool add)
{
	int i, free = -1;

	for (i = 0; i < SAR_GROUPS; i++) {
		if (!memcmp(&sa->mgid[i], mgid, sizeof(*mgid)))
			return i;
		if (free < 0 && rdma_is_zero_gid(&sa->mgid[i]))
			free = i;
	}
	if (!add || free < 0)
		return -1;
	sa->mgid[free] = *mgid;
	sa->mlid[free] = 0xc000 + free + 1;
	return free;
}

/* An MCMemberRecord Set (join) or Delete (leave), answered in @data */
static void sar_mcmember(struct sar *sa, u8 method, u8 *data, u16 *status)
{
	union ib_gid mgid;
	int slot;

	spin_lock(&sa->lock);
	memcpy(&mgid, data + SAR_MC_MGID, sizeof(mgid));
	memcpy(&sa->last_mc.mgid, &mgid, sizeof(mgid));
	sa->last_mc.join_state = data[SAR_MC_JOIN] & 0xf;
	if (method == IB_MGMT_METHOD_SET) {
		atomic_inc(&sa->n_join);
		if (rdma_is_zero_gid(&mgid)) {	/* the SA names the group */
			mgid.raw[0] = 0xff;
			mgid.raw[1] = 0x12;
			mgid.raw[15] = atomic_read(&sa->n_join);
			memcpy(data + SAR_MC_MGID, &mgid, sizeof(mgid));
		}
		slot = sar_group(sa, &mgid, true);
		if (slot < 0) {
			*status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		} else {
			put_unaligned_be16(sa->mlid[slot], data + SAR_MC_MLID);
			if (!get_unaligned((__be32 *)(data + SAR_MC_QKEY)))
				put_unaligned_be32(0x80010000, data + SAR_MC_QKEY);
		}
	} else {
		atomic_inc(&sa->n_leave);
		if (sar_group(sa, &mgid, false) < 0)
			*status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	spin_unlock(&sa->lock);
}

/* Fills @mad, a copy of the request, with the answer; returns its status */
static u16 sar_fill(struct sar *sa, struct ib_sa_mad *mad, u16 slid)
{
	u8 method = mad->mad_hdr.method;
	u16 status = 0;
	struct ib_class_port_info *cpi;

	spin_lock(&sa->lock);
	sa->last_method = method;
	sa->last_comp_mask = mad->sa_hdr.comp_mask;
	spin_unlock(&sa->lock);
	switch (be16_to_cpu(mad->mad_hdr.attr_id)) {
	case IB_SA_ATTR_PATH_REC:
		atomic_inc(&sa->n_path);
		put_unaligned_be16(sa->path_dlid, mad->data + SAR_PATH_DLID);
		put_unaligned_be16(slid, mad->data + SAR_PATH_SLID);
		mad->data[SAR_PATH_QOS_SL + 1] = sa->path_sl & 0xf;
		break;
	case IB_SA_ATTR_MC_MEMBER_REC:
		sar_mcmember(sa, method, mad->data, &status);
		break;
	case IB_SA_ATTR_GUID_INFO_REC:
		atomic_inc(&sa->n_guid);
		spin_lock(&sa->lock);
		if (method == IB_MGMT_METHOD_SET)
			memcpy(sa->guids, mad->data + 8, sizeof(sa->guids));
		else if (method == IB_SA_METHOD_DELETE)
			memset(sa->guids, 0, sizeof(sa->guids));
		memcpy(mad->data + 8, sa->guids, sizeof(sa->guids));
		spin_unlock(&sa->lock);
		break;
	case IB_SA_ATTR_CLASS_PORTINFO:
		atomic_inc(&sa->n_cpi);
		cpi = (void *)mad->data;
		memset(cpi, 0, sizeof(*cpi));
		cpi->base_version = IB_MGMT_BASE_VERSION;
		cpi->class_version = IB_SA_CLASS_VERSION;
		cpi->cap_mask2_resp_time = cpu_to_be32(sa->resp_time & 0x1f);
		break;
	default:
		status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
	return sa->status ? sa->status : status;
}

/* The answer to a request: a GetResp (Set, Get) or DeleteResp */
static void sar_answer(struct sar *sa, struct ib_mad_agent *agent,
		       struct ib_mad_recv_wc *rwc)
{
	struct ib_mad_send_buf *buf;
	struct sar_answer *late;
	struct ib_sa_mad *mad;
	struct ib_ah *ah;
	u8 method;

	ah = ib_create_ah_from_wc(agent->qp->pd, rwc->wc, rwc->recv_buf.grh,
				  agent->port_num);
	if (IS_ERR(ah))
		return;
	buf = ib_create_send_mad(agent, rwc->wc->src_qp, rwc->wc->pkey_index,
				 0, IB_MGMT_SA_HDR, IB_MGMT_SA_DATA,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return;
	}
	mad = buf->mad;
	memcpy(mad, rwc->recv_buf.mad, sizeof(*mad));
	method = mad->mad_hdr.method;
	mad->mad_hdr.status = cpu_to_be16(sar_fill(sa, mad, rwc->wc->slid));
	mad->mad_hdr.method = method == IB_SA_METHOD_DELETE ?
			      IB_SA_METHOD_DELETE_RESP : IB_MGMT_METHOD_GET_RESP;
	switch (sa->fault) {
	case SAR_WRONG_ATTR:
		mad->mad_hdr.attr_id = cpu_to_be16(IB_SA_ATTR_NODE_REC);
		break;
	case SAR_WRONG_METHOD:
		mad->mad_hdr.method = IB_MGMT_METHOD_GET | IB_MGMT_METHOD_RESP |
				      0x10;
		break;
	case SAR_DELETE_RESP:
		mad->mad_hdr.method = IB_SA_METHOD_DELETE_RESP;
		break;
	case SAR_GOOD:
		break;
	}
	buf->ah = ah;
	if (!sa->delay_ms) {
		sar_post(buf);
		return;
	}
	/* Queued unless sar_stop() began: it waits for those queued */
	late = kzalloc(sizeof(*late), GFP_KERNEL);
	spin_lock(&sa->lock);
	if (late && !sa->stopping) {
		late->sa = sa;
		late->buf = buf;
		INIT_DELAYED_WORK(&late->work, sar_post_late);
		atomic_inc(&sa->late);
		queue_delayed_work(sa->wq, &late->work,
				   msecs_to_jiffies(sa->delay_ms));
		buf = NULL;
	}
	spin_unlock(&sa->lock);
	if (buf) {
		kfree(late);
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(buf);
	}
}

static void sar_recv(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *rwc)
{
	struct ib_mad_hdr *hdr = &rwc->recv_buf.mad->mad_hdr;
	struct sar *sa = agent->context;

	if (ib_response_mad(hdr))
		goto out;
	/*
	 * ClassPortInfo is always answered: the client asks for it on its
	 * own schedule (a new SM address, its own retries), so drops meant
	 * for a case's queries would otherwise land on it now and then.
	 */
	if (hdr->attr_id == IB_MGMT_CLASSPORTINFO_ATTR_ID ||
	    atomic_dec_if_positive(&sa->drop) < 0) {
		sar_answer(sa, agent, rwc);
	} else {
		int n = atomic_inc_return(&sa->n_dropped) - 1;

		if (n < SAR_DROP_LOG) {
			sa->dropped[n] = hdr->tid;
			sa->dropped_attr[n] = be16_to_cpu(hdr->attr_id);
		}
	}
out:
	ib_free_recv_mad(rwc);
}

static void sar_sent(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
	rdma_destroy_ah(wc->send_buf->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(wc->send_buf);
}

/**
 * sar_dropped_log - the requests dropped since @from, for a failure message
 * @sa: the SA
 * @from: the index of the first drop of interest
 * @buf: out
 * @len: its size
 *
 * Return: @buf, "attr/tid" per drop.
 */
char *sar_dropped_log(struct sar *sa, int from, char *buf, size_t len)
{
	int n = min(atomic_read(&sa->n_dropped), SAR_DROP_LOG);
	size_t at = 0;

	buf[0] = 0;
	for (; from < n && at < len; from++)
		at += scnprintf(buf + at, len - at, " %#x/%llx",
				sa->dropped_attr[from],
				be64_to_cpu(sa->dropped[from]));
	return buf;
}

/**
 * sar_start - make a device's port 1 the SA
 * @sa: the SA, zeroed but for its knobs
 * @td: an InfiniBand test device
 *
 * Return: 0 or the registration's error.
 */
int sar_start(struct sar *sa, struct tdev *td)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_SUBN_ADM,
		.mgmt_class_version = IB_SA_CLASS_VERSION,
	};

	spin_lock_init(&sa->lock);
	init_waitqueue_head(&sa->late_wq);
	sa->td = td;
	sa->wq = alloc_workqueue("ktsar", 0, 0);
	if (!sa->wq)
		return -ENOMEM;
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	set_bit(IB_SA_METHOD_DELETE, req.method_mask);
	sa->agent = ib_register_mad_agent(&td->ibdev, 1, IB_QPT_GSI, &req, 0,
					  sar_sent, sar_recv, sa, 0);
	if (IS_ERR(sa->agent)) {
		destroy_workqueue(sa->wq);
		return PTR_ERR(sa->agent);
	}
	return 0;
}

/**
 * sar_stop - stop answering, once the late answers went out
 * @sa: the SA
 */
void sar_stop(struct sar *sa)
{
	spin_lock(&sa->lock);
	sa->stopping = true;
	spin_unlock(&sa->lock);
	/* A delayed work's timer is not drained by destroy_workqueue() */
	wait_event(sa->late_wq, !atomic_read(&sa->late));
	destroy_workqueue(sa->wq);
	ib_unregister_mad_agent(sa->agent);
}

/**
 * sar_lid - the LID of a test device's port 1
 * @td: the device
 *
 * Return: the LID, or 0.
 */
u16 sar_lid(struct tdev *td)
{
	struct ib_port_attr pa;

	return ib_query_port(&td->ibdev, 1, &pa) ? 0 : pa.lid;
}

static void sar_probe_cb(int status, struct ib_sa_guidinfo_rec *rec,
			 void *context)
{
	complete(context);
}

/**
 * sar_sm_is - whether @client's SA layer uses @sa as its SM
 * @client: the client device
 * @sa: a started SA
 *
 * A GuidInfo query from port 1 must be accepted and reach @sa: one
 * accepted could still go to another SM the test set up before.
 *
 * Return: true if it did.
 */
bool sar_sm_is(struct tdev *client, struct sar *sa)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct ib_sa_guidinfo_rec rec = {};
	static struct ib_sa_client probe;
	int seen = atomic_read(&sa->n_guid);
	struct ib_sa_query *q;
	int id;

	ib_sa_register_client(&probe);
	id = ib_sa_guid_info_rec_query(&probe, &client->ibdev, 1, &rec, 0,
				       IB_MGMT_METHOD_GET, 2000, GFP_KERNEL,
				       sar_probe_cb, &done, &q);
	if (id >= 0)
		wait_for_completion(&done);
	ib_sa_unregister_client(&probe);
	return id >= 0 && atomic_read(&sa->n_guid) > seen;
}

/**
 * sar_point_sm - make @sa the SM of @client's port 1, and wait until the
 *	client's SA layer uses it
 * @test: the case; fails if it does not within 10 s
 * @client: the client device
 * @sa: a started SA
 */
void sar_point_sm(struct kunit *test, struct tdev *client, struct sar *sa)
{
	KUNIT_ASSERT_EQ(test, tdev_set_sm_lid(client, 1, sar_lid(sa->td)), 0);
	/* Probes before the event is handled may reach the SM of before */
	KUNIT_ASSERT_TRUE(test, tk_port_event(client, 1, IB_EVENT_SM_CHANGE));
	KUNIT_ASSERT_TRUE(test, sar_wait_for(sar_sm_is(client, sa)));
	/* The probes are not the case's */
	atomic_set(&sa->n_guid, 0);
}

/**
 * sar_env - an SA and a client device whose SM it is
 * @test: the case; fails if they cannot be made
 *
 * Return: the environment; free it with sar_env_free().
 */
struct sar_env *sar_env(struct kunit *test)
{
	struct tdev_params sp = { .name = "ktsa%d" };
	struct tdev_params cp = { .name = "ktsac%d" };
	struct sar_env *env = kzalloc(sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	env->sa.td = tk_dev(test, &sp);
	env->sa.path_dlid = 0x77;
	env->sa.path_sl = 5;
	KUNIT_ASSERT_EQ(test, sar_start(&env->sa, env->sa.td), 0);
	env->client = tk_dev(test, &cp);
	env->client_lid = sar_lid(env->client);
	sar_point_sm(test, env->client, &env->sa);
	return env;
}

/**
 * sar_env_free - take an environment down
 * @env: from sar_env()
 */
void sar_env_free(struct sar_env *env)
{
	tdev_destroy(env->client);
	sar_stop(&env->sa);
	tdev_destroy(env->sa.td);
	kfree(env);
}
