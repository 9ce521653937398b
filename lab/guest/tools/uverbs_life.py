#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""uverbs_life: lifetimes of user objects through libibverbs (pyverbs).

One PASS/FAIL line per check, named uverbs_life/<check>.

  uverbs_life.py fork DEV_A GIDX_A DEV_B GIDX_B
        Two RC QPs, one on each device, connected over RoCE v2, each with
        an MR.  The process forks while the MRs are registered.  The child
        inherits the files: it queries the device through them, writes its
        own copy of the buffer and exits without closing anything.  The
        parent changes its buffer while the child still shares the pages
        (copy-on-write), then RDMA-writes it to the other end: the device
        must send the parent's bytes, never the child's or the stale ones
        (pinned pages stay with the registering process).  The child's
        exit destroys nothing of the parent's.

  uverbs_life.py cgroup DEV CGDIR
        Joins the cgroup CGDIR, whose rdma.max allows DEV one hca_handle
        and three hca_objects, and checks what the limits let it do and
        what rdma.current counts at each step.

  uverbs_life.py churn DEV STOPFILE
        Opens DEV, makes a PD, a CQ and an MR and closes everything, again
        and again with pauses of up to 20 ms until STOPFILE exists; creates
        STOPFILE.DEV.up after its first round (the device may come and go
        meanwhile); prints how many rounds worked and which errnos the
        others met.  Exit 0 unless an unexpected exception type appears.
"""
import ctypes
import errno
import os
import random
import sys
import time

from pyverbs.addr import AHAttr, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsError, PyverbsRDMAError
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import SGE, SendWR
import pyverbs.enums as e

ACCESS = (e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE |
          e.IBV_ACCESS_REMOTE_READ)
# Three pages and a bit: the pattern crosses page boundaries.
LEN = 3 * 4096 + 100
IBV_FORK_UNNEEDED = 2


def report(name, ok, why=''):
    if ok:
        print(f'PASS uverbs_life/{name}', flush=True)
    else:
        print(f'FAIL uverbs_life/{name}' + (f' ({why})' if why else ''),
              flush=True)
    return ok


def rdma_errno(exc):
    return getattr(exc, 'error_code', None)


class End:
    """A context, PD, CQ, MR and RC QP on one device."""

    def __init__(self, dev, gidx):
        self.ctx = Context(name=dev)
        self.pd = PD(self.ctx)
        self.cq = CQ(self.ctx, 16, None, None, 0)
        self.mr = MR(self.pd, LEN, ACCESS)
        cap = QPCap(max_send_wr=8, max_recv_wr=8, max_send_sge=1,
                    max_recv_sge=1)
        self.qp = QP(self.pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.cq,
                                         rcq=self.cq, cap=cap))
        self.gidx = gidx
        self.gid = self.ctx.query_gid(1, gidx)

    def connect(self, peer):
        attr = QPAttr(port_num=1)
        attr.qp_access_flags = ACCESS
        attr.path_mtu = e.IBV_MTU_1024
        attr.dest_qp_num = peer.qp.qp_num
        attr.rq_psn = 0
        attr.sq_psn = 0
        attr.max_dest_rd_atomic = 1
        attr.max_rd_atomic = 1
        attr.min_rnr_timer = 12
        attr.timeout = 20
        attr.retry_cnt = 7
        attr.rnr_retry = 7
        gr = GlobalRoute(dgid=peer.gid, sgid_index=self.gidx)
        attr.ah_attr = AHAttr(port_num=1, is_global=1, gr=gr)
        self.qp.to_rts(attr)

    def write_to(self, peer):
        """RDMA WRITE of the whole MR to peer's MR; the completion status."""
        sge = SGE(self.mr.buf, LEN, self.mr.lkey)
        wr = SendWR(wr_id=1, opcode=e.IBV_WR_RDMA_WRITE, num_sge=1, sg=[sge],
                    send_flags=e.IBV_SEND_SIGNALED)
        wr.set_wr_rdma(peer.mr.rkey, peer.mr.buf)
        self.qp.post_send(wr)
        end = time.time() + 60
        while time.time() < end:
            n, wcs = self.cq.poll()
            if n:
                return wcs[0].status
            time.sleep(0.001)
        return None


def pattern(ch):
    return (ch * LEN).encode()


def fork_initialized():
    lib = ctypes.CDLL('libibverbs.so.1')
    lib.ibv_is_fork_initialized.restype = ctypes.c_int
    return lib.ibv_is_fork_initialized()


def child(a, wfd):
    """In the child: use the inherited files, scribble, exit at once."""
    ok = True
    try:
        a.ctx.query_device()
    except PyverbsError:
        ok = False
    a.mr.write(pattern('C'), LEN)
    os.write(wfd, b'1' if ok else b'0')
    # Leave without any destroy: the files close with the process.
    os._exit(0)


def cmd_fork(dev_a, gidx_a, dev_b, gidx_b):
    report('fork/unneeded', fork_initialized() == IBV_FORK_UNNEEDED,
           'ibv_is_fork_initialized() is not IBV_FORK_UNNEEDED')
    a = End(dev_a, int(gidx_a))
    b = End(dev_b, int(gidx_b))
    a.connect(b)
    b.connect(a)
    a.mr.write(pattern('P'), LEN)
    report('fork/write-before', a.write_to(b) == e.IBV_WC_SUCCESS and
           b.mr.read(LEN, 0) == pattern('P'), 'no P pattern at the peer')

    rfd, wfd = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        os.close(go_w)
        # Wait until the parent has written its new pattern, so that the
        # pages are shared with a child that is alive while it does.
        os.read(go_r, 1)
        child(a, wfd)
    os.close(wfd)
    os.close(go_r)
    # The parent writes while the child shares its memory.
    a.mr.write(pattern('Q'), LEN)
    os.write(go_w, b'g')
    report('fork/child-uses-inherited-file', os.read(rfd, 1) == b'1',
           'query_device in the child failed')
    _, st = os.waitpid(pid, 0)
    report('fork/child-exit', os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0,
           f'status {st}')
    status = a.write_to(b)
    got = b.mr.read(LEN, 0)
    if got == pattern('Q'):
        report('fork/parent-bytes-sent', status == e.IBV_WC_SUCCESS,
               f'status {status}')
    else:
        kind = ('the child\'s' if pattern('C')[:1] in got else
                'stale' if pattern('P')[:1] in got else 'other')
        report('fork/parent-bytes-sent', False,
               f'status {status}, the peer got {kind} bytes')
    # The child's exit left the parent's objects alive: traffic back.
    b.mr.write(pattern('R'), LEN)
    report('fork/objects-survive-child', b.write_to(a) == e.IBV_WC_SUCCESS and
           a.mr.read(LEN, 0) == pattern('R'), 'no traffic after the child')
    return 0


def current(cgdir, dev, res):
    with open(os.path.join(cgdir, 'rdma.current')) as f:
        for line in f:
            words = line.split()
            if words and words[0] == dev:
                for w in words[1:]:
                    k, _, v = w.partition('=')
                    if k == res:
                        return int(v)
    return 0


def expect_eagain(name, make):
    try:
        obj = make()
    except PyverbsRDMAError as exc:
        return report(name, rdma_errno(exc) == errno.EAGAIN,
                      f'errno {rdma_errno(exc)}, want EAGAIN')
    obj.close()
    return report(name, False, 'created over the limit')


def cmd_cgroup(dev, cgdir):
    with open(os.path.join(cgdir, 'cgroup.procs'), 'w') as f:
        f.write(str(os.getpid()))

    def use(handles, objects):
        got = (current(cgdir, dev, 'hca_handle'),
               current(cgdir, dev, 'hca_object'))
        return got == (handles, objects), f'rdma.current {got}, want ' \
            f'{(handles, objects)}'

    ctx = Context(name=dev)
    report('cgroup/context-charged', *use(1, 0))
    pd = PD(ctx)
    cq = CQ(ctx, 8, None, None, 0)
    mr = MR(pd, 4096, e.IBV_ACCESS_LOCAL_WRITE)
    report('cgroup/objects-charged', *use(1, 3))
    expect_eagain('cgroup/object-over-limit', lambda: PD(ctx))
    report('cgroup/refused-object-not-charged', *use(1, 3))
    try:
        Context(name=dev).close()
        report('cgroup/context-over-limit', False, 'a second context opened')
    except PyverbsError as exc:
        report('cgroup/context-over-limit', True)
        print(f'    second context: {exc}')
    report('cgroup/refused-context-not-charged', *use(1, 3))
    mr.close()
    report('cgroup/destroy-uncharges', *use(1, 2))
    ok = True
    for _ in range(20):
        try:
            PD(ctx).close()
        except PyverbsRDMAError as exc:
            ok = report('cgroup/create-destroy-cycles', False,
                        f'errno {rdma_errno(exc)}')
            break
    if ok:
        report('cgroup/create-destroy-cycles', *use(1, 2))
    cq.close()
    pd.close()
    ctx.close()
    report('cgroup/close-uncharges', *use(0, 0))
    return 0


def cmd_churn(dev, stopfile):
    rounds = 0
    errs = {}
    while not os.path.exists(stopfile):
        try:
            with Context(name=dev) as ctx:
                pd = PD(ctx)
                CQ(ctx, 8, None, None, 0)
                MR(pd, 4096, e.IBV_ACCESS_LOCAL_WRITE)
            rounds += 1
            if rounds == 1:
                open(f'{stopfile}.{dev}.up', 'w').close()
            # A pause with nothing open: a moment the module may go.
            time.sleep(random.random() / 50)
        except PyverbsError as exc:
            code = rdma_errno(exc)
            key = errno.errorcode.get(code, str(code)) if code else \
                type(exc).__name__
            errs[key] = errs.get(key, 0) + 1
            time.sleep(0.05)
    print(f'churn {dev}: {rounds} rounds, failures {errs}')
    return 0


def main():
    cmds = {'fork': (cmd_fork, 4), 'cgroup': (cmd_cgroup, 2),
            'churn': (cmd_churn, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or \
            len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        sys.stderr.write(__doc__)
        return 2
    fn = cmds[sys.argv[1]][0]
    return fn(*sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())
