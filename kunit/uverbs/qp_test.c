// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for two checks of ib_uverbs' QP commands that go beyond the
 * target kernel (Documentation/core.rst, "Deliberate differences"):
 *
 *  - ioctl() QP_CREATE with UVERBS_ATTR_CREATE_QP_SOURCE_QPN needs
 *    CAP_NET_RAW, as write() CREATE_QP with IB_QP_CREATE_SOURCE_QPN does
 *    (uverbs/objects/qp.c, qp_create.c);
 *  - a DETACH_MCAST the driver refuses keeps the attachment, so the QP's
 *    use count and the file's record agree: detaching again works, and
 *    then the QP can be destroyed (uverbs/objects/mcast.c).
 *
 * And what the mutation list needs of the two objects' commands whose
 * static functions share names with the kernel verbs' (qp_modify,
 * ah_create): a modified QP is let go, a refused AH is aborted.
 *
 * The requests go through the test device's real uverbsN (kunit/lib/
 * uvk.c), as rdma-core sends them.  The capability is dropped with
 * override_creds() for the step that must be refused.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/file.h>
#include "tobj.h"

/**
 * struct qt - one case's fixture
 * @u: the test device
 * @f: its open uverbsN, with a context
 * @pd: a PD handle of @f
 * @cq: a CQ handle of @f
 */
struct qt {
	struct uvk *u;
	struct file *f;
	u32 pd;
	u32 cq;
};

/* write() @cmd of @len bytes with a response of @resp_len bytes. */
static ssize_t qt_write(struct qt *qt, u32 command, void *req, size_t len,
			void *resp, size_t resp_len)
{
	struct ib_uverbs_cmd_hdr *hdr = req;
	void __user *out = uvk_uptr(qt->u, 8192);
	u64 *response = (u64 *)(hdr + 1);
	ssize_t n;

	hdr->command = command;
	hdr->in_words = len / 4;
	hdr->out_words = resp_len / 4;
	if (resp_len)
		*response = (uintptr_t)out;
	n = uvk_write(qt->u, qt->f, req, len);
	if (n >= 0 && resp_len)
		uvk_copy_out(qt->u, resp, out, resp_len);
	return n;
}

static void qt_setup(struct kunit *test, struct qt *qt)
{
	struct uvk_params p = { .mcast = true };
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_alloc_pd cmd;
	} pd = {};
	struct ib_uverbs_alloc_pd_resp pd_resp;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_cq cmd;
	} cq = { .cmd = { .cqe = 4, .comp_channel = -1 } };
	struct ib_uverbs_create_cq_resp cq_resp;
	int afd;

	qt->u = uvk_new(test, &p);
	qt->f = uvk_open(qt->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qt->f));
	afd = uvk_get_context(qt->u, qt->f);
	KUNIT_ASSERT_GE(test, afd, 0);
	uvk_close(qt->u, uvk_take_fd(afd));
	KUNIT_ASSERT_EQ(test, qt_write(qt, IB_USER_VERBS_CMD_ALLOC_PD, &pd,
				       sizeof(pd), &pd_resp, sizeof(pd_resp)),
			(ssize_t)sizeof(pd));
	qt->pd = pd_resp.pd_handle;
	KUNIT_ASSERT_EQ(test, qt_write(qt, IB_USER_VERBS_CMD_CREATE_CQ, &cq,
				       sizeof(cq), &cq_resp, sizeof(cq_resp)),
			(ssize_t)sizeof(cq));
	qt->cq = cq_resp.cq_handle;
}

/* A copy of the task's credentials without CAP_NET_RAW, in force. */
static const struct cred *qt_drop_net_raw(struct kunit *test)
{
	struct cred *c = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, c);
	cap_lower(c->cap_effective, CAP_NET_RAW);
	return override_creds(c);
}

static void qt_restore_creds(const struct cred *old)
{
	const struct cred *c = current_cred();

	revert_creds(old);
	put_cred(c);
}

/* ioctl() QP_CREATE of a UD QP, with SOURCE_QPN if @source_qpn. */
static long qt_ioctl_create_qp(struct qt *qt, bool source_qpn)
{
	struct ib_uverbs_qp_cap cap = { .max_send_wr = 4, .max_recv_wr = 4,
					.max_send_sge = 1, .max_recv_sge = 1 };
	struct uvk_ioctl req;
	u64 handle = 1;
	u32 qpn = 1;

	uvk_ioctl_init(qt->u, &req, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE);
	uvk_attr_obj(&req, UVERBS_ATTR_CREATE_QP_HANDLE, 0);
	uvk_attr_obj(&req, UVERBS_ATTR_CREATE_QP_PD_HANDLE, qt->pd);
	uvk_attr_obj(&req, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, qt->cq);
	uvk_attr_obj(&req, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, qt->cq);
	uvk_attr_in(qt->u, &req, UVERBS_ATTR_CREATE_QP_USER_HANDLE, &handle,
		    sizeof(handle));
	uvk_attr_in(qt->u, &req, UVERBS_ATTR_CREATE_QP_CAP, &cap, sizeof(cap));
	uvk_attr_u64(&req, UVERBS_ATTR_CREATE_QP_TYPE, IB_UVERBS_QPT_UD);
	if (source_qpn)
		uvk_attr_in(qt->u, &req, UVERBS_ATTR_CREATE_QP_SOURCE_QPN,
			    &qpn, sizeof(qpn));
	uvk_attr_out(qt->u, &req, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
		     sizeof(u32));
	uvk_attr_out(qt->u, &req, UVERBS_ATTR_CREATE_QP_RESP_CAP, sizeof(cap));
	return uvk_ioctl(qt->u, qt->f, &req);
}

/* write() CREATE_QP of a UD QP: its handle, or a negative errno. */
static long qt_write_create_qp(struct qt *qt)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_qp cmd;
	} req = { .cmd = {
		.pd_handle = qt->pd, .send_cq_handle = qt->cq,
		.recv_cq_handle = qt->cq, .max_send_wr = 4, .max_recv_wr = 4,
		.max_send_sge = 1, .max_recv_sge = 1, .qp_type = IB_QPT_UD,
	} };
	struct ib_uverbs_create_qp_resp resp;
	ssize_t n = qt_write(qt, IB_USER_VERBS_CMD_CREATE_QP, &req,
			     sizeof(req), &resp, sizeof(resp));

	return n < 0 ? n : resp.qp_handle;
}

/* write() CREATE_QP (extended) of a UD QP with IB_QP_CREATE_SOURCE_QPN. */
static long qt_write_create_qp_ex_source_qpn(struct qt *qt)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_create_qp cmd;
	} req = { .cmd = {
		.pd_handle = qt->pd, .send_cq_handle = qt->cq,
		.recv_cq_handle = qt->cq, .max_send_wr = 4, .max_recv_wr = 4,
		.max_send_sge = 1, .max_recv_sge = 1, .qp_type = IB_QPT_UD,
		.create_flags = IB_QP_CREATE_SOURCE_QPN, .source_qpn = 1,
	} };
	struct ib_uverbs_ex_create_qp_resp resp;
	void __user *out = uvk_uptr(qt->u, 8192);

	req.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			  IB_USER_VERBS_EX_CMD_CREATE_QP;
	req.hdr.in_words = sizeof(req.cmd) / 8;
	req.hdr.out_words = sizeof(resp) / 8;
	req.ex.response = (uintptr_t)out;
	req.ex.provider_in_words = 0;
	req.ex.provider_out_words = 0;
	return uvk_write(qt->u, qt->f, &req, sizeof(req));
}

/*
 * SOURCE_QPN lets a QP send as another QP number (IPoIB's offloads): only
 * with CAP_NET_RAW, by ioctl() as by write().  The target checks it on the
 * write() path only.  The file is opened without the capability: write()
 * refuses a caller whose credentials are not the opener's (-EACCES).
 */
static void qp_source_qpn_needs_net_raw(struct kunit *test)
{
	const struct cred *old;
	struct qt qt;
	long ioctl_ret, ioctl_plain, write_ret;

	old = qt_drop_net_raw(test);
	qt_setup(test, &qt);
	ioctl_ret = qt_ioctl_create_qp(&qt, true);
	write_ret = qt_write_create_qp_ex_source_qpn(&qt);
	ioctl_plain = qt_ioctl_create_qp(&qt, false);
	qt_restore_creds(old);
	KUNIT_EXPECT_EQ(test, ioctl_ret, -EPERM);
	KUNIT_EXPECT_EQ(test, write_ret, -EPERM);
	/* Without SOURCE_QPN no capability is needed: the driver answers */
	KUNIT_EXPECT_NE(test, ioctl_plain, -EPERM);
	/* With the capability, the request reaches the driver */
	KUNIT_EXPECT_NE(test, qt_ioctl_create_qp(&qt, true), -EPERM);
	uvk_close(qt.u, qt.f);
}

static ssize_t qt_mcast(struct qt *qt, u32 command, u32 qp)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_attach_mcast cmd;
	} req = { .cmd = { .qp_handle = qp, .mlid = 0xc001 } };

	/* ff0e::1, a global-scope multicast group */
	req.cmd.gid[0] = 0xff;
	req.cmd.gid[1] = 0x0e;
	req.cmd.gid[15] = 1;
	return qt_write(qt, command, &req, sizeof(req), NULL, 0);
}

static ssize_t qt_destroy_qp(struct qt *qt, u32 qp)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_qp cmd;
	} req = { .cmd = { .qp_handle = qp } };
	struct ib_uverbs_destroy_qp_resp resp;

	return qt_write(qt, IB_USER_VERBS_CMD_DESTROY_QP, &req, sizeof(req),
			&resp, sizeof(resp));
}

/*
 * A detach the hardware refuses changes nothing: the QP is still in the
 * group, a user's destroy is refused while it is (-EBUSY), and a detach
 * that works then lets it go.  Dropping the record before the driver's
 * detach, as the target does, left the QP's use count taken with no
 * record to give it back: the QP could never be destroyed (issue 18,
 * point 3).
 */
static void mcast_refused_detach_keeps_attachment(struct kunit *test)
{
	struct qt qt;
	long qp;

	qt_setup(test, &qt);
	qp = qt_write_create_qp(&qt);
	KUNIT_ASSERT_GE(test, qp, 0L);
	KUNIT_ASSERT_GT(test, qt_mcast(&qt, IB_USER_VERBS_CMD_ATTACH_MCAST, qp),
			(ssize_t)0);

	tdev_fail(qt.u->td, TDEV_FAIL_DETACH_MCAST, true);
	KUNIT_EXPECT_EQ(test, qt_mcast(&qt, IB_USER_VERBS_CMD_DETACH_MCAST, qp),
			(ssize_t)-EIO);
	tdev_fail(qt.u->td, TDEV_FAIL_DETACH_MCAST, false);
	KUNIT_EXPECT_EQ(test, qt_destroy_qp(&qt, qp), (ssize_t)-EBUSY);

	KUNIT_EXPECT_GT(test, qt_mcast(&qt, IB_USER_VERBS_CMD_DETACH_MCAST, qp),
			(ssize_t)0);
	/* Detached once: a second detach finds no group */
	KUNIT_EXPECT_EQ(test, qt_mcast(&qt, IB_USER_VERBS_CMD_DETACH_MCAST, qp),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_GT(test, qt_destroy_qp(&qt, qp), (ssize_t)0);
	uvk_close(qt.u, qt.f);
}

/*
 * MODIFY_QP looks the QP up for the command only: once modified (Reset to
 * Init), the QP is free to be destroyed.
 */
static void qp_modify_then_destroy(struct kunit *test)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_modify_qp cmd;
	} req = { .cmd = {
		.attr_mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
			     IB_QP_QKEY,
		.qp_state = IB_QPS_INIT, .port_num = 1, .qkey = 0x11,
	} };
	struct qt qt;
	long qp;

	qt_setup(test, &qt);
	qp = qt_write_create_qp(&qt);
	KUNIT_ASSERT_GE(test, qp, 0L);
	req.cmd.qp_handle = qp;
	KUNIT_EXPECT_EQ(test, qt_write(&qt, IB_USER_VERBS_CMD_MODIFY_QP, &req,
				       sizeof(req), NULL, 0),
			(ssize_t)sizeof(req));
	/* A port the device lacks: refused, and the QP is let go all the same */
	req.cmd.attr_mask = IB_QP_PORT;
	req.cmd.port_num = 7;
	KUNIT_EXPECT_EQ(test, qt_write(&qt, IB_USER_VERBS_CMD_MODIFY_QP, &req,
				       sizeof(req), NULL, 0), (ssize_t)-EINVAL);
	KUNIT_EXPECT_GT(test, qt_destroy_qp(&qt, qp), (ssize_t)0);
	uvk_close(qt.u, qt.f);
}

/*
 * CREATE_AH on a port the device lacks is refused (-EINVAL), and the
 * aborted object leaves the file as it was: another object can be made
 * and the file closes.
 */
static void ah_create_bad_port(struct kunit *test)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_ah cmd;
	} req = {};
	struct ib_uverbs_create_ah_resp resp;
	struct qt qt;

	qt_setup(test, &qt);
	req.cmd.pd_handle = qt.pd;
	req.cmd.attr.dlid = 3;
	req.cmd.attr.port_num = 0;
	KUNIT_EXPECT_EQ(test, qt_write(&qt, IB_USER_VERBS_CMD_CREATE_AH, &req,
				       sizeof(req), &resp, sizeof(resp)),
			(ssize_t)-EINVAL);
	req.cmd.attr.port_num = 9;
	KUNIT_EXPECT_EQ(test, qt_write(&qt, IB_USER_VERBS_CMD_CREATE_AH, &req,
				       sizeof(req), &resp, sizeof(resp)),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_GE(test, qt_write_create_qp(&qt), 0L);
	/* Closing tears everything down: an abort left nothing locked */
	uvk_close(qt.u, qt.f);
}

static struct kunit_case qp_cases[] = {
	KUNIT_CASE(qp_source_qpn_needs_net_raw),
	KUNIT_CASE(mcast_refused_detach_keeps_attachment),
	KUNIT_CASE(qp_modify_then_destroy),
	KUNIT_CASE(ah_create_bad_port),
	{}
};

static struct kunit_suite qp_suite = {
	.name = "rdma_uverbs_qp",
	.suite_init = uvk_suite_init,
	.suite_exit = uvk_suite_exit,
	.test_cases = qp_cases,
};

kunit_test_suites(&qp_suite);
