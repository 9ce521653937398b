#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The verbs of a device of ours (hw/rxe) through rdma-core's rxe provider
and pyverbs: what an application sees of its objects before any work moves
through them.

    rxe_verbs.py PREFIX DEV SGID [CHECK...]

DEV: the device (its port 1 up, a RoCE v2 GID of 10.11.0.1 at index
SGID, 10.11.0.2 reachable: the lab's veth pair).  CHECK: cq, srq, ah, qp,
mr (all of them by default).  Each prints "PASS PREFIX/CHECK" or "FAIL
PREFIX/CHECK (why)"; the exit status is 1 if one failed.
"""
import errno
import sys
import traceback

from pyverbs.addr import AH, AHAttr, GlobalRoute, GID
from pyverbs.cq import CQ, CQEX, CompChannel, CqInitAttrEx
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError
from pyverbs.qp import QP, QPCap, QPInitAttr, QPAttr
from pyverbs.srq import SRQ, SrqInitAttr, SrqAttr
from pyverbs.wr import RecvWR, SGE
import pyverbs.enums as e

PEER = GID('0000:0000:0000:0000:0000:ffff:0a0b:0002')   # 10.11.0.2
# What check_qp reads back
Q = e.IBV_QP_STATE | e.IBV_QP_CAP | e.IBV_QP_DEST_QPN | e.IBV_QP_RQ_PSN | \
    e.IBV_QP_SQ_PSN | e.IBV_QP_PATH_MTU | e.IBV_QP_TIMEOUT
# What check_mr's buffers allow
RW = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE | \
    e.IBV_ACCESS_REMOTE_READ


def refused(what, f, err):
    """f() must fail with errno err."""
    try:
        f()
    except PyverbsRDMAError as x:
        assert x.error_code == err, (what, x.error_code)
        print('refused', what, errno.errorcode[err])
        return
    raise AssertionError(what + ' accepted')


def post(srq, n, sges=1):
    """Posts n receives of sges entries each to srq."""
    for i in range(n):
        srq.post_recv(RecvWR(wr_id=i, num_sge=sges,
                             sg=[SGE(0x1000 * (j + 1), 64, 0x42)
                                 for j in range(sges)]))


def check_cq(dev, sgid):
    """Each CQ maps its ring: sizes, resizes (a new ring mapped), arming,
    a completion channel, the extended CQ, many made and destroyed."""
    with Context(name=dev) as ctx:
        a = ctx.query_device()
        print('max_cq', a.max_cq, 'max_cqe', a.max_cqe)
        assert a.max_cq > 0 and a.max_cqe > 1000
        cq = CQ(ctx, 100)
        assert cq.cqe >= 100, cq.cqe
        assert cq.poll(4)[0] == 0
        cq.req_notify()
        cq.req_notify(solicited_only=True)
        cq.resize(1000)
        assert cq.cqe >= 1000, cq.cqe
        assert cq.poll(4)[0] == 0
        cq.resize(1)
        assert 1 <= cq.cqe < 100, cq.cqe
        cq.close()
        refused('cqe max_cqe+1', lambda: CQ(ctx, a.max_cqe + 1), errno.EINVAL)
        big = CQ(ctx, a.max_cqe)
        assert big.cqe >= a.max_cqe
        refused('resize beyond max_cqe', lambda: big.resize(a.max_cqe + 1),
                errno.EINVAL)
        big.close()
        with CompChannel(ctx) as ch:
            cq = CQ(ctx, 10, None, ch, 0)
            cq.req_notify()
            cq.close()
        cqex = CQEX(ctx, CqInitAttrEx(cqe=50))
        assert cqex.start_poll(None) == errno.ENOENT
        cqex.close()
        cqs = [CQ(ctx, 64) for _ in range(200)]
        for c in cqs:
            c.close()


def check_srq(dev, sgid):
    """Its ring produced by rdma-core (posted until full), the limit, a
    resize (the new ring's place written where rdma-core asked), sizes."""
    with Context(name=dev) as ctx, PD(ctx) as pd:
        a = ctx.query_device()
        print('max_srq', a.max_srq, 'max_srq_wr', a.max_srq_wr,
              'max_srq_sge', a.max_srq_sge)
        assert a.max_srq > 0 and a.max_srq_wr > 1000 and a.max_srq_sge >= 16
        srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=10, max_sge=2)))
        q = srq.query()
        assert q.max_wr >= 10 and q.max_sge == 2 and q.srq_limit == 0, \
            (q.max_wr, q.max_sge, q.srq_limit)
        refused('post of 3 entries', lambda: post(srq, 1, 3), errno.EINVAL)
        post(srq, q.max_wr, 2)
        refused('post to a full SRQ', lambda: post(srq, 1), errno.ENOMEM)
        srq.modify(SrqAttr(srq_limit=4), e.IBV_SRQ_LIMIT)
        assert srq.query().srq_limit == 4
        refused('limit above max_wr',
                lambda: srq.modify(SrqAttr(srq_limit=q.max_wr + 1),
                                   e.IBV_SRQ_LIMIT), errno.EINVAL)
        refused('max_wr below what waits',
                lambda: srq.modify(SrqAttr(max_wr=q.max_wr - 3),
                                   e.IBV_SRQ_MAX_WR), errno.EINVAL)
        srq.modify(SrqAttr(max_wr=100), e.IBV_SRQ_MAX_WR)
        r = srq.query()
        assert r.max_wr >= 100 and r.srq_limit == 4, (r.max_wr, r.srq_limit)
        # The new ring: what waited moved, the rest free
        post(srq, r.max_wr - q.max_wr, 2)
        refused('post to the resized SRQ, full', lambda: post(srq, 1),
                errno.ENOMEM)
        srq.close()
        refused('max_wr max_srq_wr+1',
                lambda: SRQ(pd, SrqInitAttr(SrqAttr(max_wr=a.max_srq_wr + 1))),
                errno.EINVAL)
        refused('limit above max_wr',
                lambda: SRQ(pd, SrqInitAttr(SrqAttr(max_wr=4, srq_limit=9))),
                errno.EINVAL)
        srqs = [SRQ(pd, SrqInitAttr(SrqAttr(max_wr=16, max_sge=1)))
                for _ in range(100)]
        for x in srqs:
            x.close()


def check_ah(dev, sgid):
    """To 10.11.0.2 from the GID at sgid (the core resolves the MAC), many;
    one from an empty GID slot refused."""
    with Context(name=dev) as ctx, PD(ctx) as pd:
        print('max_ah', ctx.query_device().max_ah)
        dgid = PEER
        gr = GlobalRoute(dgid=dgid, sgid_index=sgid, hop_limit=64)
        ahs = [AH(pd, attr=AHAttr(gr=gr, is_global=1, port_num=1))
               for _ in range(100)]
        for a in ahs:
            a.close()
        try:
            AH(pd, attr=AHAttr(gr=GlobalRoute(dgid=dgid, sgid_index=200),
                                is_global=1, port_num=1))
            raise AssertionError('an AH from an empty GID slot')
        except PyverbsRDMAError as x:
            print('refused an empty GID slot',
                  errno.errorcode.get(x.error_code))


def check_qp(dev, sgid):
    """RC through INIT, RTR and RTS with the attributes read back, the
    receive ring filled to the size reported, transitions refused, RESET
    and back; UD; a QP on an SRQ; types and sizes refused; many."""
    with Context(name=dev) as ctx, PD(ctx) as pd:
        a = ctx.query_device()
        print('max_qp', a.max_qp, 'max_qp_wr', a.max_qp_wr, 'max_sge',
              a.max_sge)
        cq = CQ(ctx, 64)
        cap = QPCap(max_send_wr=20, max_recv_wr=30, max_send_sge=2,
                    max_recv_sge=3, max_inline_data=64)
        qp = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap))
        attr, init = qp.query(Q)
        c = init.cap
        assert attr.qp_state == e.IBV_QPS_RESET
        assert c.max_send_wr >= 20 and c.max_recv_wr >= 30 and \
            c.max_send_sge >= 2 and c.max_recv_sge >= 3 and \
            c.max_inline_data >= 64, str(c)
        assert qp.qp_num > 1
        qa = QPAttr()
        qa.qp_access_flags = (e.IBV_ACCESS_REMOTE_WRITE |
                              e.IBV_ACCESS_REMOTE_READ)
        qp.to_init(qa)
        for i in range(c.max_recv_wr):
            qp.post_recv(RecvWR(wr_id=i, num_sge=1, sg=[SGE(0x1000, 64, 1)]))
        refused('post_recv to a full RQ', lambda: qp.post_recv(
            RecvWR(wr_id=0, num_sge=1, sg=[SGE(0x1000, 64, 1)])), errno.ENOMEM)
        qa.dest_qp_num = qp.qp_num
        qa.rq_psn = 0x123456
        qa.path_mtu = e.IBV_MTU_1024
        qa.max_dest_rd_atomic = 4
        qa.min_rnr_timer = 12
        gr = GlobalRoute(dgid=PEER,
                         sgid_index=sgid, hop_limit=64)
        qa.ah_attr = AHAttr(gr=gr, is_global=1, port_num=1)
        qp.to_rtr(qa)
        qa.sq_psn = 0x654321
        qa.timeout = 14
        qa.retry_cnt = 7
        qa.rnr_retry = 7
        qa.max_rd_atomic = 4
        qp.to_rts(qa)
        attr, init = qp.query(Q)
        got = (attr.qp_state, attr.dest_qp_num, attr.rq_psn, attr.sq_psn,
               attr.path_mtu, attr.timeout)
        want = (e.IBV_QPS_RTS, qp.qp_num, 0x123456, 0x654321,
                e.IBV_MTU_1024, 14)
        assert got == want, (got, want)
        refused('RTS to INIT',
                lambda: qp.modify(QPAttr(qp_state=e.IBV_QPS_INIT),
                                  e.IBV_QP_STATE), errno.EINVAL)
        qp.modify(QPAttr(qp_state=e.IBV_QPS_ERR), e.IBV_QP_STATE)
        qp.modify(QPAttr(qp_state=e.IBV_QPS_RESET), e.IBV_QP_STATE)
        qp.to_init(QPAttr())
        # The RQ was emptied by RESET
        for i in range(c.max_recv_wr):
            qp.post_recv(RecvWR(wr_id=i, num_sge=1, sg=[SGE(0x1000, 64, 1)]))
        refused('RESET to RTR', lambda: QP(pd, QPInitAttr(
            qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq)).modify(
                QPAttr(qp_state=e.IBV_QPS_RTR), e.IBV_QP_STATE), errno.EINVAL)
        qp.close()

        ud = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_UD, scq=cq, rcq=cq))
        ud.to_rts(QPAttr())
        assert ud.query(e.IBV_QP_STATE)[0].qp_state == e.IBV_QPS_RTS
        ud.close()

        srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=10)))
        sq = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, srq=srq))
        assert sq.query(e.IBV_QP_CAP)[1].cap.max_recv_wr == 0
        sq.close()
        srq.close()

        refused('max_send_wr beyond max_qp_wr', lambda: QP(pd, QPInitAttr(
            qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq,
            cap=QPCap(max_send_wr=a.max_qp_wr + 1))), errno.EINVAL)
        refused('max_recv_sge beyond max_sge', lambda: QP(pd, QPInitAttr(
            qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq,
            cap=QPCap(max_recv_sge=a.max_sge + 1))), errno.EINVAL)
        refused('a raw packet QP', lambda: QP(pd, QPInitAttr(
            qp_type=e.IBV_QPT_RAW_PACKET, scq=cq, rcq=cq)), errno.EOPNOTSUPP)
        qps = [QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq))
               for _ in range(100)]
        assert len(set(q.qp_num for q in qps)) == 100
        for q in qps:
            q.close()


def check_mr(dev, sgid):
    """A user's buffers pinned, keys distinct; access the device cannot
    give refused."""
    with Context(name=dev) as ctx, PD(ctx) as pd:
        print('max_mr', ctx.query_device().max_mr)
        mrs = [MR(pd, 4096 * (1 + i % 5), RW) for i in range(100)]
        keys = set(m.lkey for m in mrs)
        assert len(keys) == 100 and 0 not in keys
        assert all(m.lkey == m.rkey for m in mrs)
        for m in mrs:
            m.close()
        big = MR(pd, 16 << 20, RW)
        big.close()
        # As 6.1 answers for a device without on-demand paging
        refused('on-demand paging', lambda: MR(pd, 4096,
                e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_ON_DEMAND),
                errno.EINVAL)
        refused('remote write without local write',
                lambda: MR(pd, 4096, e.IBV_ACCESS_REMOTE_WRITE), errno.EINVAL)


CHECKS = {'cq': check_cq, 'srq': check_srq, 'ah': check_ah, 'qp': check_qp,
          'mr': check_mr}


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    prefix, dev, sgid = argv[0], argv[1], int(argv[2])
    failed = 0
    for name in argv[3:] or CHECKS:
        try:
            CHECKS[name](dev, sgid)
            print('PASS %s/%s' % (prefix, name), flush=True)
        except Exception:  # the check failed: say where, and go on
            failed += 1
            why = traceback.format_exc().strip().splitlines()
            print('FAIL %s/%s (%s)' % (prefix, name, ' | '.join(why[-3:])),
                  flush=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
