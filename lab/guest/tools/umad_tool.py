#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""MADs through /dev/infiniband/umadN, as libibumad sends them.

    umad_tool.py probe DEV PEER         the ioctl(), read() and write()
                                        errnos of ib_umad (MADs to PEER)
    umad_tool.py exchange DEV_A DEV_B N requests from DEV_A answered by an
                                        agent on DEV_B, N times; a request
                                        nobody answers times out
    umad_tool.py rmpp DEV_A DEV_B LEN   an RMPP request of LEN data bytes,
                                        answered by an RMPP response of the
                                        same length (kernel RMPP both ways)
    umad_tool.py malformed DEV_A DEV_B N  N malformed MADs of each kind from
                                        DEV_A to DEV_B's QP1; every one must
                                        be dropped and counted by DEV_B's
                                        MAD layer, none delivered
    umad_tool.py fuzz DEV PEER N SEED   N random write()s, read()s and
                                        ioctl()s; each returns a result or
                                        an errno of a fixed set
    umad_tool.py hold DEV PEER READY GO register an agent, post requests
                                        to PEER
                                        that wait for answers, touch READY,
                                        wait for GO (or be killed), then
                                        read (EIO once DEV is gone)

DEV is an RDMA device (rxe0), port 1; its umadN is found in
/sys/class/infiniband_mad.  Prints one line per check,
"PASS umad/<name>" or "FAIL umad/<name> (why)", and exits 1 if any
failed.  Layouts are those of <rdma/ib_user_mad.h>.
"""
import errno
import fcntl
import os
import random
import select
import struct
import sys
import threading
import time

MAD_CLASS = '/sys/class/infiniband_mad'
COUNTERS = '/sys/kernel/debug/ib_core/mad/%s-1/counters'
IB = '/sys/class/infiniband'

RDMA_IOCTL_MAGIC = 0x1b
REG_REQ_SIZE = 28      # struct ib_user_mad_reg_req
REG_REQ2_SIZE = 40     # struct ib_user_mad_reg_req2


def _ioc(d, nr, size):
    return d << 30 | size << 16 | RDMA_IOCTL_MAGIC << 8 | nr


REGISTER_AGENT = _ioc(3, 1, REG_REQ_SIZE)
UNREGISTER_AGENT = _ioc(1, 2, 4)
ENABLE_PKEY = _ioc(0, 3, 0)
REGISTER_AGENT2 = _ioc(3, 4, REG_REQ2_SIZE)

HDR_OLD = 56           # struct ib_user_mad_hdr_old
HDR = 64               # struct ib_user_mad_hdr
MAD = 256
QP1_QKEY = 0x80010000

GET, SET, SEND, GET_RESP = 0x01, 0x02, 0x03, 0x81
VENDOR1 = 0x09         # a vendor class of the first range: no RMPP
VENDOR1_B = 0x0a
VENDOR2 = 0x30         # of the second range: OUI, RMPP
OUI = 0x001405
CM = 0x07
SMP_LID = 0x01

RESULTS = {'fail': 0}


def result(name, ok, why=''):
    if ok:
        print('PASS umad/%s' % name, flush=True)
    else:
        RESULTS['fail'] += 1
        print('FAIL umad/%s (%s)' % (name, why), flush=True)


def umad_of(dev):
    for n in sorted(os.listdir(MAD_CLASS)):
        if not n.startswith('umad'):
            continue
        try:
            with open(os.path.join(MAD_CLASS, n, 'ibdev')) as f:
                ibdev = f.read().strip()
            with open(os.path.join(MAD_CLASS, n, 'port')) as f:
                port = f.read().strip()
        except OSError:
            continue
        if ibdev == dev and port == '1':
            return '/dev/infiniband/' + n
    raise SystemExit('no umad device of %s' % dev)


def roce_gid(dev):
    """(index, 16 raw bytes) of dev's first RoCE v2 IPv4-mapped GID."""
    base = os.path.join(IB, dev, 'ports/1')
    for i in range(256):
        try:
            with open('%s/gids/%d' % (base, i)) as f:
                gid = f.read().strip()
            with open('%s/gid_attrs/types/%d' % (base, i)) as f:
                kind = f.read().strip()
        except OSError:
            continue
        if kind != 'RoCE v2' or not gid.startswith('0000:0000:0000:0000:0000:ffff'):
            continue
        return i, bytes.fromhex(gid.replace(':', ''))
    raise SystemExit('no RoCE v2 GID on %s' % dev)


def counters(dev):
    out = {}
    with open(COUNTERS % dev) as f:
        for line in f:
            k, v = line.split()
            out[k] = int(v)
    return out


def hdr(agent_id, gid, gid_index, timeout_ms=0, retries=0, qpn=1,
        new=True, pkey_index=0, status=0, length=0):
    """struct ib_user_mad_hdr (or _old): to port 1's QP qpn over RoCE."""
    h = struct.pack('<IIIII', agent_id, status, timeout_ms, retries, length)
    h += struct.pack('>II', qpn, QP1_QKEY)
    h += struct.pack('>H', 0)                       # lid
    h += struct.pack('BBBBBB', 0, 0, 1, gid_index, 64, 0)
    h += gid + struct.pack('>I', 0)
    if new:
        h += struct.pack('<H6x', pkey_index)
    return h


def parse_hdr(b):
    agent_id, status, timeout_ms, retries, length = struct.unpack_from('<IIIII', b)
    qpn, qkey = struct.unpack_from('>II', b, 20)
    lid, = struct.unpack_from('>H', b, 28)
    sl, bits, grh, gid_index, hop, tclass = struct.unpack_from('BBBBBB', b, 30)
    gid = b[36:52]
    pkey = struct.unpack_from('<H', b, 56)[0] if len(b) >= HDR else 0
    return dict(id=agent_id, status=status, length=length, qpn=qpn,
                grh=grh, gid_index=gid_index, gid=gid, pkey_index=pkey)


def mad_hdr(cls, method, tid, attr=0x10, version=1, base=1, status=0):
    return struct.pack('>BBBBHHQHHI', base, cls, version, method, status, 0,
                       tid, attr, 0, 0)


def rmpp_hdr(rtype=1, flags=0x1, status=0, seg=0, paylen=0):
    return struct.pack('>BBBBII', 1, rtype, flags, status, seg, paylen)


def reg_req(qpn, cls=0, version=1, methods=(), oui=b'\0\0\0', rmpp=0):
    mask = 0
    for m in methods:
        mask |= 1 << m
    return struct.pack('<IQQBBB3sBx', 0, mask & (2**64 - 1), mask >> 64,
                       qpn, cls, version, oui, rmpp)


def reg_req2(qpn, cls=0, version=1, methods=(), oui=0, rmpp=0, flags=0):
    mask = 0
    for m in methods:
        mask |= 1 << m
    return struct.pack('<IIBBHIQQIB3x', 0, qpn, cls, version, 0, flags,
                       mask & (2**64 - 1), mask >> 64, oui, rmpp)


class Umad:
    """An open umadN; the header form with pkey_index unless old."""

    def __init__(self, dev, new=True):
        self.fd = os.open(umad_of(dev), os.O_RDWR)
        self.new = new
        self.hsize = HDR if new else HDR_OLD
        if new:
            fcntl.ioctl(self.fd, ENABLE_PKEY)

    def register(self, qpn=1, cls=0, version=1, methods=(), oui=0, rmpp=0,
                 v2=True):
        if v2:
            b = bytearray(reg_req2(qpn, cls, version, methods, oui, rmpp))
            fcntl.ioctl(self.fd, REGISTER_AGENT2, b)
        else:
            b = bytearray(reg_req(qpn, cls, version, methods,
                                  oui.to_bytes(3, 'big'), rmpp))
            fcntl.ioctl(self.fd, REGISTER_AGENT, b)
        return struct.unpack_from('<I', b)[0]

    def unregister(self, agent_id):
        fcntl.ioctl(self.fd, UNREGISTER_AGENT, struct.pack('<I', agent_id))

    def send(self, h, mad):
        return os.write(self.fd, h + mad)

    def recv(self, timeout=10.0, size=65536):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return None, None
        b = os.read(self.fd, size)
        return parse_hdr(b[:self.hsize]), b[self.hsize:]

    def close(self):
        os.close(self.fd)


def expect_errno(name, want, fn, *args):
    try:
        fn(*args)
    except OSError as e:
        result(name, e.errno == want, 'errno %d, want %d' % (e.errno, want))
        return
    result(name, False, 'succeeded, want errno %d' % want)


# ---- probe ----

def probe(dev, peer):
    gidx, _ = roce_gid(dev)
    _, gid = roce_gid(peer)
    u = Umad(dev)
    expect_errno('ioctl/unknown', errno.ENOTTY, fcntl.ioctl, u.fd,
                 _ioc(0, 0x7f, 0))
    expect_errno('ioctl/reg-qpn-2', errno.EINVAL, u.register, 2)
    expect_errno('ioctl/reg-qp0-roce', errno.EPROTONOSUPPORT, u.register, 0)
    expect_errno('ioctl/reg2-bad-flags', errno.EINVAL, fcntl.ioctl, u.fd,
                 REGISTER_AGENT2, bytearray(reg_req2(1, flags=0x80)))
    b = bytearray(reg_req2(1, flags=0x80))
    try:
        fcntl.ioctl(u.fd, REGISTER_AGENT2, b)
    except OSError:
        pass
    result('ioctl/reg2-flags-written-back',
           struct.unpack_from('<I', b, 12)[0] == 1,
           'flags %#x' % struct.unpack_from('<I', b, 12)[0])
    expect_errno('ioctl/reg2-bad-oui', errno.EINVAL, u.register, 1,
                 VENDOR2, 1, (GET,), 0x01000000)
    expect_errno('ioctl/reg-class-0x50', errno.EINVAL, u.register, 1, 0x50,
                 1, (GET,))
    expect_errno('ioctl/reg-version-8', errno.EINVAL, u.register, 1,
                 VENDOR1, 8, (GET,))
    expect_errno('ioctl/reg-rmpp-no-rmpp-class', errno.EINVAL, u.register,
                 1, VENDOR1, 1, (GET,), 0, 1)
    expect_errno('ioctl/reg-vendor2-no-oui', errno.EINVAL, u.register, 1,
                 VENDOR2, 1, (GET,))
    expect_errno('ioctl/reg-smp-on-qp1', errno.EINVAL, u.register, 1,
                 SMP_LID, 1, (GET,))
    a = u.register(1, VENDOR1, 1, (GET,))
    result('ioctl/reg-first-id-0', a == 0, 'id %d' % a)
    expect_errno('ioctl/reg-method-taken', errno.EINVAL, u.register, 1,
                 VENDOR1, 1, (GET, SET))
    # The same class by another file of another process's kind: taken too
    u2 = Umad(dev)
    expect_errno('ioctl/reg-method-taken-other-file', errno.EINVAL,
                 u2.register, 1, VENDOR1, 1, (GET,))
    u2.close()
    expect_errno('ioctl/enable-pkey-after-reg', errno.EINVAL, fcntl.ioctl,
                 u.fd, ENABLE_PKEY)
    expect_errno('ioctl/unreg-out-of-range', errno.EINVAL, u.unregister, 99)
    expect_errno('ioctl/unreg-free-id', errno.EINVAL, u.unregister, 5)
    ids = [a]
    try:
        while len(ids) < 40:
            ids.append(u.register(1))
    except OSError as e:
        result('ioctl/reg-33rd-enomem', e.errno == errno.ENOMEM and
               len(ids) == 32, 'errno %d after %d' % (e.errno, len(ids)))
    else:
        result('ioctl/reg-33rd-enomem', False, '40 agents')
    u.unregister(ids[7])
    result('ioctl/reg-reuses-free-id', u.register(1) == 7, 'not 7')
    u.unregister(ids[3])
    expect_errno('ioctl/unreg-twice', errno.EINVAL, u.unregister, ids[3])

    h = hdr(1, gid, gidx)
    mad = mad_hdr(VENDOR1, SEND, 1) + bytes(MAD - 24)
    expect_errno('write/short', errno.EINVAL, os.write, u.fd, h + mad[:35])
    expect_errno('write/id-out-of-range', errno.EINVAL, u.send,
                 hdr(32, gid, gidx), mad)
    expect_errno('write/id-free', errno.EIO, u.send, hdr(3, gid, gidx), mad)
    expect_errno('write/too-long', errno.EINVAL, u.send, h, mad + bytes(8))
    expect_errno('write/rmpp-from-non-rmpp-agent', errno.EINVAL, u.send, h,
                 mad_hdr(VENDOR2, SEND, 1) + rmpp_hdr() +
                 bytes(4) + bytes(2000))
    expect_errno('write/empty-gid-slot', errno.ENODATA, u.send,
                 hdr(1, gid, 250), mad)
    # A request with the TID of one outstanding: refused
    req = mad_hdr(VENDOR1_B, GET, 0x4242) + bytes(MAD - 24)
    u.send(hdr(1, gid, gidx, timeout_ms=60000), req)
    expect_errno('write/duplicate-request', errno.EINVAL, u.send,
                 hdr(1, gid, gidx, timeout_ms=60000), req)
    fl = fcntl.fcntl(u.fd, fcntl.F_GETFL)
    fcntl.fcntl(u.fd, fcntl.F_SETFL, fl | os.O_NONBLOCK)
    expect_errno('read/empty-nonblock', errno.EAGAIN, os.read, u.fd, 4096)
    expect_errno('read/smaller-than-header', errno.EINVAL, os.read, u.fd,
                 HDR - 1)
    fcntl.fcntl(u.fd, fcntl.F_SETFL, fl)
    p = select.poll()
    p.register(u.fd, select.POLLIN | select.POLLOUT)
    ev = dict(p.poll(0)).get(u.fd, 0)
    result('poll/writable', ev & select.POLLOUT and not ev & select.POLLIN,
           'events %#x' % ev)
    u.close()

    # The old header: 56 bytes; ENABLE_PKEY turns it into 64
    o = Umad(dev, new=False)
    o.register(1, v2=False)
    expect_errno('write/old-header-short', errno.EINVAL, os.write, o.fd,
                 bytes(HDR_OLD + 35))
    o.close()


# ---- exchange ----

def responder(dev, cls, stop, answered, rmpp=0, oui=0):
    """Answers every GET of cls on dev with a GetResp echoing its data."""
    u = Umad(dev)
    a = u.register(1, cls, 1, (GET,), oui, rmpp)
    ready = answered['ready']
    ready.set()
    while not stop.is_set():
        h, mad = u.recv(timeout=0.5)
        if h is None:
            continue
        if h['status'] or len(mad) < 24:
            continue
        resp = bytearray(mad)
        resp[3] = GET_RESP
        if rmpp:
            # A new RMPP message: the kernel sets the segments' headers
            resp[24:36] = rmpp_hdr()
        u.send(hdr(a, h['gid'], h['gid_index'], qpn=h['qpn'],
                   pkey_index=h['pkey_index']), bytes(resp))
        answered['n'] += 1
        answered['len'] = len(mad)
    u.close()


def start_responder(dev, cls, rmpp=0, oui=0):
    stop = threading.Event()
    st = {'n': 0, 'ready': threading.Event(), 'len': 0}
    t = threading.Thread(target=responder, args=(dev, cls, stop, st, rmpp,
                                                 oui))
    t.start()
    st['ready'].wait(10)
    return stop, st, t


def exchange(dev_a, dev_b, n):
    _, gid_b = roce_gid(dev_b)
    gidx_a, _ = roce_gid(dev_a)
    stop, st, t = start_responder(dev_b, VENDOR1)
    u = Umad(dev_a)
    a = u.register(1)
    ok = 0
    why = ''
    try:
        for i in range(n):
            data = bytes([(i + j) & 0xff for j in range(MAD - 24)])
            u.send(hdr(a, gid_b, gidx_a, timeout_ms=4000, retries=3),
                   mad_hdr(VENDOR1, GET, 0x1000 + i) + data)
            h, mad = u.recv(timeout=30)
            if h is None:
                why = 'no answer to request %d' % i
                break
            method = mad[3]
            tid = struct.unpack_from('>Q', mad, 8)[0]
            if (h['status'] or method != GET_RESP or
                    tid & 0xffffffff != 0x1000 + i or mad[24:] != data or
                    h['length'] != HDR + MAD or h['qpn'] != 1 or
                    not h['grh'] or h['gid'] != gid_b):
                why = ('request %d: status %d method %#x tid %#x len %d '
                       'qpn %d' % (i, h['status'], method, tid, h['length'],
                                   h['qpn']))
                break
            ok += 1
    finally:
        stop.set()
        t.join()
    result('exchange/requests-answered', ok == n, why or '%d of %d' % (ok, n))
    result('exchange/responder-saw-all', st['n'] == ok,
           '%d of %d' % (st['n'], ok))

    # Nobody has this class on dev_b: the request times out after retries
    t0 = time.time()
    u.send(hdr(a, gid_b, gidx_a, timeout_ms=300, retries=2),
           mad_hdr(VENDOR1_B, GET, 0x77) + bytes(MAD - 24))
    h, mad = u.recv(timeout=30)
    result('exchange/timeout-reported',
           h is not None and h['status'] == errno.ETIMEDOUT and
           len(mad) == 24 and struct.unpack_from('>Q', mad, 8)[0] &
           0xffffffff == 0x77,
           'got %r' % (h,))
    result('exchange/timeout-after-retries', time.time() - t0 >= 0.8,
           '%.2fs' % (time.time() - t0))
    u.close()


# ---- rmpp ----

def rmpp(dev_a, dev_b, length):
    _, gid_b = roce_gid(dev_b)
    gidx_a, _ = roce_gid(dev_a)
    stop, st, t = start_responder(dev_b, VENDOR2, rmpp=1, oui=OUI)
    u = Umad(dev_a)
    a = u.register(1, rmpp=1, cls=VENDOR2, oui=OUI, methods=(SEND,))
    data = bytes([(j * 7) & 0xff for j in range(length)])
    head = (mad_hdr(VENDOR2, GET, 0x5151) + rmpp_hdr() + b'\0' +
            OUI.to_bytes(3, 'big'))
    try:
        u.send(hdr(a, gid_b, gidx_a, timeout_ms=8000, retries=2),
               head + data)
        h, mad = u.recv(timeout=60)
    finally:
        stop.set()
        t.join()
    want = 40 + length
    result('rmpp/request-reassembled', st['len'] == want,
           'responder read %d bytes, want %d' % (st['len'], want))
    ok = (h is not None and h['status'] == 0 and len(mad) == want and
          mad[3] == GET_RESP and mad[40:] == data)
    result('rmpp/response-reassembled', ok,
           'got %r, %d bytes' % (h and h['status'], len(mad or b'')))
    # A buffer too small for the whole message: ENOSPC, the first
    # segment copied, the message kept for a bigger read
    stop, st, t = start_responder(dev_b, VENDOR2, rmpp=1, oui=OUI)
    try:
        u.send(hdr(a, gid_b, gidx_a, timeout_ms=8000, retries=2),
               mad_hdr(VENDOR2, GET, 0x5152) + head[24:] + data)
        r, _, _ = select.select([u.fd], [], [], 60)
        if r:
            expect_errno('rmpp/read-small-enospc', errno.ENOSPC, os.read,
                         u.fd, HDR + MAD)
            b = os.read(u.fd, 65536)
            result('rmpp/read-after-enospc', len(b) == HDR + want,
                   '%d bytes' % len(b))
        else:
            result('rmpp/read-small-enospc', False, 'no response')
    finally:
        stop.set()
        t.join()
    u.close()


# ---- malformed ----

def malformed(dev_a, dev_b, n):
    """Each row: what is sent, and the counter of dev_b that must count it."""
    _, gid_b = roce_gid(dev_b)
    gidx_a, _ = roce_gid(dev_a)
    # An agent on dev_b that must never see any of it
    stop, st, t = start_responder(dev_b, VENDOR1)
    rng = random.Random(4)
    rows = [
        ('base-version-2', 'drop_base_version',
         lambda i: mad_hdr(VENDOR1, GET, i, base=2)),
        ('smp-on-qp1', 'drop_wrong_qp',
         lambda i: mad_hdr(SMP_LID, GET, i)),
        ('cm-get', 'drop_cm_method',
         lambda i: mad_hdr(CM, GET, i, attr=0x0010)),
        ('cm-random-send', 'drop_no_agent',
         lambda i: mad_hdr(CM, SEND, i, attr=rng.randrange(0x10, 0x20))),
        ('unknown-class', 'drop_no_agent',
         lambda i: mad_hdr(0x2f, GET, i)),
        ('unknown-version', 'drop_no_agent',
         lambda i: mad_hdr(VENDOR1, GET, i, version=7)),
        ('unknown-method', 'drop_no_agent',
         lambda i: mad_hdr(VENDOR1, 0x15, i)),
        ('reply-to-nothing', 'drop_no_request',
         lambda i: mad_hdr(VENDOR1, GET_RESP, (0xfffffe << 32) | i)),
    ]
    u = Umad(dev_a)
    a = u.register(1)
    ok = True
    for name, counter, make in rows:
        before = counters(dev_b)
        for i in range(n):
            mad = make(i) + bytes(rng.getrandbits(8) for _ in range(MAD - 24))
            u.send(hdr(a, gid_b, gidx_a), mad)
        # Wait until dev_b has seen them all
        deadline = time.time() + 60
        while time.time() < deadline:
            after = counters(dev_b)
            if after['received'] - before['received'] >= n:
                break
            time.sleep(0.2)
        time.sleep(0.5)
        after = counters(dev_b)
        got = after[counter] - before[counter]
        rec = after['received'] - before['received']
        result('malformed/%s' % name, got == n and rec == n,
               '%s +%d, received +%d, want %d' % (counter, got, rec, n))
        ok = ok and got == n
    stop.set()
    t.join()
    result('malformed/none-delivered', st['n'] == 0,
           'the agent answered %d' % st['n'])
    # And dev_b still answers a good request
    stop, st, t = start_responder(dev_b, VENDOR1)
    u.send(hdr(a, gid_b, gidx_a, timeout_ms=4000, retries=3),
           mad_hdr(VENDOR1, GET, 0x999) + bytes(MAD - 24))
    h, _ = u.recv(timeout=30)
    stop.set()
    t.join()
    result('malformed/still-answers', h is not None and h['status'] == 0,
           'got %r' % (h,))
    u.close()


# ---- fuzz ----

ALLOWED = {errno.EINVAL, errno.EIO, errno.EFAULT, errno.ENOMEM,
           errno.EAGAIN, errno.ENOSPC, errno.ENOTTY, errno.EPROTONOSUPPORT,
           errno.ENODEV, errno.ENOENT, errno.ENETUNREACH, errno.EHOSTUNREACH,
           errno.EADDRNOTAVAIL, errno.ENXIO, errno.EOPNOTSUPP,
           errno.ENODATA}


def fuzz(dev, peer, n, seed):
    rng = random.Random(seed)
    gidx, _ = roce_gid(dev)
    _, gid = roce_gid(peer)
    u = Umad(dev)
    fcntl.fcntl(u.fd, fcntl.F_SETFL,
                fcntl.fcntl(u.fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    ids = []
    bad = []
    calls = 0
    for _ in range(n):
        op = rng.randrange(10)
        try:
            calls += 1
            if op == 0:
                ids.append(u.register(1, rng.choice([0, VENDOR1, VENDOR2,
                                                     0x03, 0x04, 0x81]),
                                      rng.randrange(3),
                                      rng.sample(range(128), 3),
                                      rng.choice([0, OUI]),
                                      rng.choice([0, 1])))
            elif op == 1 and ids:
                u.unregister(ids.pop(rng.randrange(len(ids))))
            elif op == 2:
                os.read(u.fd, rng.choice([0, 10, HDR, HDR + MAD, 65536]))
            elif op == 3:
                fcntl.ioctl(u.fd, rng.choice([REGISTER_AGENT,
                                              REGISTER_AGENT2,
                                              UNREGISTER_AGENT,
                                              ENABLE_PKEY]),
                            bytearray(rng.getrandbits(8) for _ in range(40)))
            else:
                h = bytearray(hdr(rng.choice(ids) if ids and rng.random() < 0.8
                                  else rng.randrange(40), gid,
                                  rng.choice([gidx, gidx, rng.randrange(256)]),
                                  timeout_ms=rng.choice([0, 0, 50]),
                                  retries=rng.randrange(3)))
                if rng.random() < 0.3:
                    h[20:24] = rng.getrandbits(32).to_bytes(4, 'big')
                if rng.random() < 0.2:
                    h[rng.randrange(len(h))] = rng.getrandbits(8)
                cls = rng.choice([VENDOR1, VENDOR2, CM, 0x03, 0x04, SMP_LID,
                                  rng.getrandbits(8)])
                mad = bytearray(mad_hdr(cls, rng.choice([GET, SET, SEND,
                                                         GET_RESP, 0x06,
                                                         rng.getrandbits(8)]),
                                        rng.getrandbits(32)))
                mad += bytes(rng.getrandbits(8) for _ in range(12))
                mad += bytes(rng.choice([0, 4, 200, 232, 233, 1000]))
                if rng.random() < 0.2:
                    mad[rng.randrange(len(mad))] = rng.getrandbits(8)
                os.write(u.fd, bytes(h) + bytes(mad))
        except OSError as e:
            if e.errno not in ALLOWED:
                bad.append('op %d: errno %d' % (op, e.errno))
    u.close()
    result('fuzz/errnos', not bad, '; '.join(bad[:5]))
    print('umad fuzz: %d calls' % calls)


# ---- hold ----

def hold(dev, peer, ready, go):
    gidx, _ = roce_gid(dev)
    _, gid = roce_gid(peer)
    u = Umad(dev)
    # A class agent too: its method must be free again once we are gone
    a = u.register(1, VENDOR1, 1, (GET,))
    for i in range(16):
        u.send(hdr(a, gid, gidx, timeout_ms=600000),
               mad_hdr(VENDOR1_B, GET, 0x300 + i) + bytes(MAD - 24))
    open(ready, 'w').close()
    while not os.path.exists(go):
        time.sleep(0.1)
    p = select.poll()
    p.register(u.fd, select.POLLIN)
    ev = dict(p.poll(1000)).get(u.fd, 0)
    result('gone/poll-err', ev & select.POLLERR, 'events %#x' % ev)
    expect_errno('gone/read-eio', errno.EIO, os.read, u.fd, 4096)
    expect_errno('gone/write-eio', errno.EIO, u.send, hdr(a, gid, gidx),
                 mad_hdr(VENDOR1, SEND, 1) + bytes(MAD - 24))
    expect_errno('gone/register-epipe', errno.EPIPE, u.register, 1)
    u.close()


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'probe':
        probe(args[0], args[1])
    elif cmd == 'exchange':
        exchange(args[0], args[1], int(args[2]))
    elif cmd == 'rmpp':
        rmpp(args[0], args[1], int(args[2]))
    elif cmd == 'malformed':
        malformed(args[0], args[1], int(args[2]))
    elif cmd == 'fuzz':
        fuzz(args[0], args[1], int(args[2]), int(args[3]))
    elif cmd == 'hold':
        hold(args[0], args[1], args[2], args[3])
    else:
        raise SystemExit(__doc__)
    sys.exit(1 if RESULTS['fail'] else 0)


if __name__ == '__main__':
    main()
