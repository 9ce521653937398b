#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""MADs that no real sender would make, as RoCE v2 packets from the wire.

    roce_craft.py rows                      the rows: name, packets, and
                                            what each must move
    roce_craft.py send SRC DST ROW SEED     send ROW's packets (and a fence)
                                            from SRC to DST:4791
    roce_craft.py check PREFIX DEV SEED CMD for each row: DEV's MAD-layer
                                            counters and rxe's rcvd_pkts
                                            before and after running CMD
                                            ("{row}" in CMD is the row's
                                            name), compared with the row's
                                            expectation

"send" needs no RDMA at all: each packet is the payload of an ordinary UDP
datagram (SOCK_DGRAM bound to SRC, sent to DST port 4791), built here:
BTH (UD SEND_ONLY to QP1, P_Key 0xffff), DETH (QP1's Q_Key, source QP 1),
the MAD and the invariant CRC.  Linux gives the IPv4 header of a DF
datagram from an unconnected socket the ID 0, no options, protocol 17, so
the ICRC (which covers the addresses, lengths, ID and flags) is known
before the kernel adds the headers.  The receiving rdma_rxe checks it,
counts the packet in rcvd_pkts and hands the MAD to our MAD layer.

Every row ends with a fence: one well-formed MAD of a class nobody
registers (drop_no_agent); when DEV's layer has counted it, the row's
packets were all handled (one flow, in order).  "check" prints
"PASS PREFIX/wire/<row>" or "FAIL PREFIX/wire/<row> (why)" and exits 1 if
any failed.  It registers a kernel-RMPP agent on DEV through ib_umad
(umad_tool.py) for the rmpp rows, and needs ib_cm loaded for the cm rows
(their MADs must reach ib_cm's agent: received, no drop counted).
"""
import os
import random
import socket
import struct
import subprocess
import sys
import time
import zlib

PORT = 4791
QP1_QKEY = 0x80010000
UD_SEND_ONLY = 0x64
MAD = 256
COUNTERS = '/sys/kernel/debug/ib_core/mad/%s-1/counters'
HW = '/sys/class/infiniband/%s/ports/1/hw_counters/rcvd_pkts'

GET, SET, SEND, GET_RESP = 0x01, 0x02, 0x03, 0x81
SMP_LID, CM, VENDOR1 = 0x01, 0x07, 0x09
NOBODY = 0x2f             # a class no agent registers: the fence's
VENDOR2 = 0x30            # second vendor range: OUI after the RMPP header
OUI = 0x001405
CM_VERSION = 2
CM_ATTR = {'req': 0x0010, 'rej': 0x0012, 'rep': 0x0013, 'rtu': 0x0014,
           'dreq': 0x0015}


# ---- the packet ----

def icrc(src, dst, sport, transport):
    """The invariant CRC of a RoCE v2 packet over IPv4, as stored.

    CRC-32 over 8 bytes of ones (the LRH RoCE v2 does not have), the IPv4
    header with TOS, TTL and checksum all ones, the UDP header with its
    checksum all ones, the BTH with its reserved byte 4 all ones, and the
    rest of the transport headers and payload; little-endian on the wire.
    """
    udp_len = 8 + len(transport) + 4
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0xff, 20 + udp_len, 0, 0x4000,
                     0xff, socket.IPPROTO_UDP, 0xffff,
                     socket.inet_aton(src), socket.inet_aton(dst))
    udp = struct.pack('>HHHH', sport, PORT, udp_len, 0xffff)
    bth = bytearray(transport)
    bth[4] = 0xff
    crc = zlib.crc32(b'\xff' * 8 + ip + udp + bytes(bth))
    return struct.pack('<I', crc)


def packet(src, dst, sport, mad, psn, good_icrc=True):
    """BTH + DETH + MAD (padded to 4 bytes) + ICRC."""
    pad = -len(mad) % 4
    bth = struct.pack('>BBHBBHI', UD_SEND_ONLY, pad << 4, 0xffff, 0, 0, 1,
                      psn & 0xffffff)
    deth = struct.pack('>II', QP1_QKEY, 1)
    t = bth + deth + mad + bytes(pad)
    crc = icrc(src, dst, sport, t)
    if not good_icrc:
        crc = bytes([crc[0] ^ 0x01]) + crc[1:]
    return t + crc


# ---- MADs ----

def mad_hdr(cls, method, tid, attr=0x10, version=1, base=1):
    return struct.pack('>BBBBHHQHHI', base, cls, version, method, 0, 0, tid,
                       attr, 0, 0)


def body(rng, n=MAD - 24):
    return bytes(rng.getrandbits(8) for _ in range(n))


def plain(rng, i, cls=NOBODY, method=GET, **kw):
    return mad_hdr(cls, method, (0x5a << 56) | i, **kw) + body(rng)


def rmpp_mad(tid, rtype, flags, seg, paylen, rng):
    """A Set of VENDOR2 with an RMPP header (ACTIVE in flags)."""
    h = mad_hdr(VENDOR2, SET, tid)
    r = struct.pack('>BBBBII', 1, rtype, flags, 0, seg, paylen)
    return h + r + struct.pack('>I', OUI) + body(rng, MAD - 40)


def cm_mad(rng, attr):
    """A CM Send of ATTR with random fields (comm IDs, QPNs, paths...)."""
    return mad_hdr(CM, SEND, rng.getrandbits(64), attr, CM_VERSION) + body(rng)


# Each builder: (rng, n) -> list of (mad, good_icrc).

def b_no_agent(rng, n):
    return [(plain(rng, i), True) for i in range(n)]


def b_base_version(rng, n):
    return [(plain(rng, i, VENDOR1, base=2), True) for i in range(n)]


def b_wrong_qp(rng, n):
    return [(plain(rng, i, SMP_LID), True) for i in range(n)]


def b_cm_method(rng, n):
    return [(plain(rng, i, CM, rng.choice((GET, SET, GET_RESP)),
                   attr=rng.choice(list(CM_ATTR.values())),
                   version=CM_VERSION), True) for i in range(n)]


def b_no_request(rng, n):
    # a response whose TID names no agent of ours (the high 32 bits)
    return [(mad_hdr(VENDOR1, GET_RESP, (rng.getrandbits(31) | 1 << 31) << 32 | i)
             + body(rng), True) for i in range(n)]


def b_rmpp_bad_seg(rng, n):
    # DATA, ACTIVE, segment 2 (or 0) of a transfer that never had a first
    return [(rmpp_mad(0x77 << 32 | i, 1, 0x1, rng.choice((0, 2, 7)), 0, rng),
             True) for i in range(n)]


def b_rmpp_reordered(rng, n):
    # per set: 1 (FIRST), 3 (a gap: dropped), 1 again (acked again),
    # 2 (LAST, complete: delivered to the agent)
    out = []
    for s in range(n // 4):
        tid = 0x78 << 32 | s
        for seg, flags in ((1, 0x3), (3, 0x1), (1, 0x3), (2, 0x5)):
            # the first's: the whole payload (216 + 100); the last's: its own
            paylen = 316 if flags == 0x3 else (100 if flags & 4 else 0)
            out.append((rmpp_mad(tid, 1, flags, seg, paylen, rng), True))
    return out


def b_short(rng, n):
    lens = [0, 1, 4, 23, 24, 100, 252, 255]
    return [(plain(rng, i)[:lens[i] if i < len(lens) else rng.randrange(256)],
             True) for i in range(n)]


def b_bad_icrc(rng, n):
    return [(plain(rng, i), False) for i in range(n)]


def b_cm(attr):
    return lambda rng, n: [(cm_mad(rng, attr), True) for _ in range(n)]


def b_dup_reorder(rng, n):
    one = [plain(rng, i) for i in range(n // 2)]
    two = one + one
    rng.shuffle(two)
    return [(m, True) for m in two]


def b_cm_dup_reorder(rng, n):
    # per set: REQ, REP, RTU, DREQ of one made-up connection, each twice,
    # shuffled
    out = []
    for _ in range(n // 8):
        comm = rng.getrandbits(32)
        msgs = []
        for a in ('req', 'rep', 'rtu', 'dreq'):
            m = bytearray(cm_mad(rng, CM_ATTR[a]))
            m[24:28] = struct.pack('>I', comm)
            msgs.append(bytes(m))
        msgs += msgs
        rng.shuffle(msgs)
        out += [(m, True) for m in msgs]
    return out


def b_random(rng, n):
    out = []
    for _ in range(n):
        m = bytearray(body(rng, MAD))
        if rng.random() < 0.6:
            m[0] = 1
            m[1] = rng.choice((SMP_LID, 0x03, 0x04, CM, VENDOR1, VENDOR2,
                               0x81, m[1]))
            if m[1] == CM:
                m[2] = CM_VERSION
        out.append((bytes(m), True))
    return out


# No row is longer than a MAD: 6.1's rdma_rxe copies the GRH into the
# receive buffer before it finds that the payload does not fit, drops the
# packet and keeps the buffer with its offset moved on, so every later
# MAD to that QP1 would be dropped as well (rxe_resp.c, 6.1.192).
#
# name, builder, packets, {counter: delta} (the fence's not included);
# ANY: the drop counters may move as they will (received must still add
# up); HW: rxe's rcvd_pkts delta if not every packet.
ANY = 'any'
ROWS = [
    ('no-agent', b_no_agent, 20, {'received': 20, 'drop_no_agent': 20}),
    ('base-version', b_base_version, 20,
     {'received': 20, 'drop_base_version': 20}),
    ('smp-on-qp1', b_wrong_qp, 20, {'received': 20, 'drop_wrong_qp': 20}),
    ('cm-method', b_cm_method, 20, {'received': 20, 'drop_cm_method': 20}),
    ('no-request', b_no_request, 20, {'received': 20, 'drop_no_request': 20}),
    ('rmpp-bad-seg', b_rmpp_bad_seg, 10, {'received': 10, 'drop_rmpp': 10}),
    ('rmpp-reordered', b_rmpp_reordered, 20, {'received': 20, 'drop_rmpp': 5}),
    ('short', b_short, 20, {'received': 20, 'drop_length': 20}),
    ('bad-icrc', b_bad_icrc, 20, {'received': 0, 'hw': 0}),
    ('cm-req', b_cm(CM_ATTR['req']), 10, {'received': 10}),
    ('cm-rep', b_cm(CM_ATTR['rep']), 10, {'received': 10}),
    ('cm-rtu', b_cm(CM_ATTR['rtu']), 10, {'received': 10}),
    ('cm-dreq', b_cm(CM_ATTR['dreq']), 10, {'received': 10}),
    ('cm-rej', b_cm(CM_ATTR['rej']), 10, {'received': 10}),
    ('dup-reorder', b_dup_reorder, 20, {'received': 20, 'drop_no_agent': 20}),
    ('cm-dup-reorder', b_cm_dup_reorder, 24, {'received': 24}),
    ('random', b_random, 100, {'received': 100, ANY: True}),
]
ROW = {r[0]: r for r in ROWS}


def row_rng(seed, name):
    return random.Random('%d/%s' % (seed, name))


def send(src, dst, name, seed):
    _, build, n, _ = ROW[name]
    rng = row_rng(seed, name)
    mads = build(rng, n) + [(plain(rng, 0xfe0000), True)]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    # DF, so that the ID is 0 (what the ICRC was computed with)
    s.setsockopt(socket.IPPROTO_IP, 10, 2)    # IP_MTU_DISCOVER, _DO
    s.bind((src, 0))
    sport = s.getsockname()[1]
    psn = rng.getrandbits(24)
    for i, (mad, good) in enumerate(mads):
        s.sendto(packet(src, dst, sport, mad, psn + i, good), (dst, PORT))
        # TCG: let the receiver keep up (its QP1 has 256 receive buffers)
        if i % 8 == 7:
            time.sleep(0.02)
    s.close()
    print('roce_craft: %s: %d packets and a fence from %s:%d to %s:%d, '
          'seed %d' % (name, len(mads) - 1, src, sport, dst, PORT, seed),
          flush=True)


# ---- the receiving side ----

def counters(dev):
    out = {}
    with open(COUNTERS % dev) as f:
        for line in f:
            k, v = line.split()
            out[k] = int(v)
    try:
        with open(HW % dev) as f:
            out['hw'] = int(f.read())
    except OSError:
        pass
    return out


def rmpp_agent(dev):
    """A kernel-RMPP agent of VENDOR2 Sets on DEV (through ib_umad)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import umad_tool
    u = umad_tool.Umad(dev)
    u.register(1, VENDOR2, 1, (SET,), oui=OUI, rmpp=1)
    return u


def drain(u):
    """Read what the RMPP agent got (whole messages); their number."""
    got = 0
    if u is None:
        return 0
    while True:
        h, _ = u.recv(timeout=0)
        if h is None:
            return got
        got += 1


def check_row(prefix, dev, seed, cmd, row, fails):
    name, _, n, want = row
    before = counters(dev)
    out = subprocess.run(cmd.replace('{row}', name), shell=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=300)
    sys.stdout.write(''.join('    ' + ln + '\n'
                             for ln in out.stdout.splitlines()))
    if out.returncode:
        fails.append(name)
        print('FAIL %s/wire/%s (sender exit %d)' % (prefix, name,
                                                    out.returncode))
        return
    # the fence: counted as no_agent once everything before it was handled
    deadline = time.time() + 60
    while time.time() < deadline:
        d = counters(dev)
        if d['drop_no_agent'] - before['drop_no_agent'] >= \
                want.get('drop_no_agent', 0) + 1 and \
                d['received'] - before['received'] >= \
                want.get('received', 0) + 1:
            break
        time.sleep(0.2)
    time.sleep(0.3)
    after = counters(dev)
    delta = {k: after[k] - before[k] for k in after}
    why = []
    exp = dict(want)
    exp['received'] = exp.get('received', 0) + 1
    exp['drop_no_agent'] = exp.get('drop_no_agent', 0) + 1
    if 'hw' in delta:
        good = 0 if exp.pop('hw', None) == 0 else n
        exp['hw'] = good + 1
    else:
        exp.pop('hw', None)
    for k, v in delta.items():
        if k == 'sent':
            continue
        if exp.get(ANY) and k.startswith('drop_'):
            continue
        if v != exp.get(k, 0):
            why.append('%s +%d, want +%d' % (k, v, exp.get(k, 0)))
    if exp.get(ANY):
        drops = sum(v for k, v in delta.items() if k.startswith('drop_'))
        if drops > delta['received']:
            why.append('%d drops of %d received' % (drops, delta['received']))
    shown = ' '.join('%s+%d' % (k, v) for k, v in sorted(delta.items()) if v)
    if why:
        fails.append(name)
        print('FAIL %s/wire/%s (%s; %s)' % (prefix, name, '; '.join(why),
                                            shown), flush=True)
    else:
        print('PASS %s/wire/%s (%s)' % (prefix, name, shown), flush=True)


def check(prefix, dev, seed, cmd):
    print('roce_craft: seed %d' % seed, flush=True)
    fails = []
    try:
        agent = rmpp_agent(dev)
    except (OSError, SystemExit, ImportError) as e:
        agent = None
        print('roce_craft: no RMPP agent on %s: %s' % (dev, e))
    for row in ROWS:
        if row[0].startswith('rmpp') and agent is None:
            print('FAIL %s/wire/%s (no RMPP agent)' % (prefix, row[0]))
            fails.append(row[0])
            continue
        check_row(prefix, dev, seed, cmd, row, fails)
        if row[0] == 'rmpp-reordered':
            got = drain(agent)
            ok = got == row[2] // 4
            print('%s %s/wire/rmpp-reassembled%s' % (
                'PASS' if ok else 'FAIL', prefix,
                '' if ok else ' (the agent got %d messages, want %d)'
                % (got, row[2] // 4)), flush=True)
            if not ok:
                fails.append('rmpp-reassembled')
    if agent is not None:
        agent.close()
    return 1 if fails else 0


def main():
    a = sys.argv[1:]
    if a[:1] == ['rows']:
        for name, _, n, want in ROWS:
            print(name, n, ' '.join('%s+%s' % kv for kv in want.items()))
    elif len(a) == 5 and a[0] == 'send':
        send(a[1], a[2], a[3], int(a[4]))
    elif len(a) == 5 and a[0] == 'check':
        sys.exit(check(a[1], a[2], int(a[3]), a[4]))
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()
