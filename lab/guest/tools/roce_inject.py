#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Malformed and random RoCE v2 packets at a device of ours (hw/rxe), and
what its drop counters must say of them.

    roce_inject.py check PREFIX DEV SRC DST      the named rows, one by one
    roce_inject.py fuzz PREFIX DEV SRC DST N SEED
                                                N packets: noise, and valid
                                                packets of every opcode with
                                                one field broken

Each packet is the payload of an ordinary UDP datagram from SRC to DST port
4791 (roce_craft.py says why its ICRC can be worked out beforehand).  No
packet reaches a queue pair of DEV yet, so each ends in one drop counter: a
well-formed one with a good ICRC in drop_bad_qpn (and rcvd_pkts), the rest
in the counter of the first check it fails.  "check" sends each row and
compares every counter's change with the row's; "fuzz" sends in batches
and checks that the drop counters account for every packet (sum), waiting
for each batch before the next so that no queue between here and the
device overflows.  Prints "PASS PREFIX/..." or "FAIL PREFIX/... (why)";
exits 1 if any failed.
"""
import os
import random
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from roce_craft import icrc, PORT  # noqa: E402

HW = '/sys/class/infiniband/%s/ports/1/hw_counters/'
DROPS = ('drop_bad_opcode', 'drop_bad_version', 'drop_bad_length',
         'drop_bad_payload', 'drop_bad_icrc', 'drop_bad_qpn',
         'drop_bad_transport', 'drop_bad_state', 'drop_bad_pkey',
         'drop_bad_qkey', 'drop_no_wqe', 'drop_bad_psn')
SHOWN = DROPS + ('rcvd_pkts',)

# Opcodes and their extended headers' bytes (IBA vol. 1, 9.2, 9.4): RC
# 0x00-0x14 (and 0x16-0x17), UC 0x20-0x2b, UD 0x64-0x65.
RETH, AETH, ATMETH, ATMACK, DETH, IMM, IETH = 16, 4, 28, 8, 8, 4, 4
HDRS = {
    0x00: 0, 0x01: 0, 0x02: 0, 0x03: IMM, 0x04: 0, 0x05: IMM,
    0x06: RETH, 0x07: 0, 0x08: 0, 0x09: IMM, 0x0a: RETH, 0x0b: RETH + IMM,
    0x0c: RETH, 0x0d: AETH, 0x0e: 0, 0x0f: AETH, 0x10: AETH, 0x11: AETH,
    0x12: AETH + ATMACK, 0x13: ATMETH, 0x14: ATMETH, 0x16: IETH,
    0x17: IETH,
    0x20: 0, 0x21: 0, 0x22: 0, 0x23: IMM, 0x24: 0, 0x25: IMM,
    0x26: RETH, 0x27: 0, 0x28: 0, 0x29: IMM, 0x2a: RETH, 0x2b: RETH + IMM,
    0x64: DETH, 0x65: DETH + IMM,
}
# Opcodes with no payload: requests for reads and atomics, ACKs
NO_PAYLOAD = {0x0c, 0x11, 0x12, 0x13, 0x14}


def bth(opcode, qpn=0x123456, psn=0, pad=0, tver=0, pkey=0xffff):
    return struct.pack('>BBHII', opcode, (pad << 4) | tver, pkey,
                       qpn & 0xffffff, psn & 0xffffff)


def transport(opcode, paylen, rng, **kw):
    pad = -paylen % 4
    return (bth(opcode, pad=pad, **kw) + bytes(HDRS[opcode]) +
            bytes(rng.getrandbits(8) for _ in range(paylen)) + bytes(pad))


def sealed(src, dst, sport, t, good=True):
    if len(t) < 12:         # no BTH to cover: four bytes that stand for it
        return t + bytes(4)
    crc = icrc(src, dst, sport, t)
    if not good:
        crc = bytes([crc[0] ^ 0x80]) + crc[1:]
    return t + crc


def counters(dev):
    c = {}
    for n in SHOWN:
        with open(HW % dev + n) as f:
            c[n] = int(f.read())
    return c


def delta(a, b):
    return {n: b[n] - a[n] for n in SHOWN if b[n] != a[n]}


class Sender:
    def __init__(self, src, dst):
        self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        # IP_MTU_DISCOVER (10) = IP_PMTUDISC_DO (2), as roce_craft.py
        # does: DF, so the IPv4 ID is 0 and the ICRC is known
        self.s.setsockopt(socket.IPPROTO_IP, 10, 2)
        self.s.bind((src, 0))
        self.src, self.dst = src, dst
        self.sport = self.s.getsockname()[1]

    def send(self, payload):
        self.s.sendto(payload, (self.dst, PORT))


def wait_for(dev, before, want_drops, secs=20):
    """Until the drop counters have grown by want_drops; the last reading."""
    end = time.time() + secs
    while True:
        now = counters(dev)
        got = sum(now[n] - before[n] for n in DROPS)
        if got >= want_drops or time.time() > end:
            return now, got
        time.sleep(0.05)


def rows(s, rng):
    """(name, packets, expected change of the counters)"""
    seal = lambda t, good=True: sealed(s.src, s.dst, s.sport, t, good)
    send_only = transport(0x04, 64, rng)
    return [
        ('unknown-qpn', [seal(send_only)],
         {'rcvd_pkts': 1, 'drop_bad_qpn': 1}),
        ('ud-unknown-qpn', [seal(transport(0x64, 32, rng))],
         {'rcvd_pkts': 1, 'drop_bad_qpn': 1}),
        ('bad-icrc', [seal(send_only, False)], {'drop_bad_icrc': 1}),
        ('opcode-0xff', [seal(bth(0xff) + bytes(64))],
         {'drop_bad_opcode': 1}),
        ('opcode-0x15', [seal(bth(0x15) + bytes(64))],
         {'drop_bad_opcode': 1}),
        ('version-1', [seal(transport(0x04, 64, rng, tver=1))],
         {'drop_bad_version': 1}),
        ('empty', [b''], {'drop_bad_length': 1}),
        ('shorter-than-bth', [bytes(11)], {'drop_bad_length': 1}),
        ('reth-cut', [seal(bth(0x06) + bytes(8))], {'drop_bad_length': 1}),
        ('no-room-for-icrc', [bth(0x04)], {'drop_bad_length': 1}),
        ('payload-on-ack', [seal(bth(0x11) + bytes(AETH) + bytes(8))],
         {'drop_bad_payload': 1}),
        ('payload-on-read-request', [seal(bth(0x0c) + bytes(RETH) +
                                          bytes(4))],
         {'drop_bad_payload': 1}),
        ('many', [seal(transport(op, 0 if op in NO_PAYLOAD else 16, rng))
                  for op in sorted(HDRS)] * 4,
         {'rcvd_pkts': 4 * len(HDRS), 'drop_bad_qpn': 4 * len(HDRS)}),
    ]


def check(prefix, dev, src, dst):
    s = Sender(src, dst)
    rng = random.Random(1)
    failed = 0
    for name, pkts, want in rows(s, rng):
        before = counters(dev)
        for p in pkts:
            s.send(p)
        after, _ = wait_for(dev, before, len(pkts))
        time.sleep(0.1)
        got = delta(before, counters(dev))
        if got == want:
            print('PASS %s/%s' % (prefix, name))
        else:
            failed += 1
            print('FAIL %s/%s (want %s, got %s)' % (prefix, name, want, got))
    return failed


def mutant(s, rng):
    """Noise, or a valid packet of some opcode with one thing broken."""
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.getrandbits(8) for _ in range(rng.randrange(300)))
    op = rng.choice(sorted(HDRS))
    t = bytearray(transport(op, 0 if op in NO_PAYLOAD else
                            rng.randrange(0, 256), rng,
                            qpn=rng.getrandbits(24), psn=rng.getrandbits(24)))
    if kind == 1:           # a byte of the headers
        t[rng.randrange(min(len(t), 12 + HDRS[op]))] ^= 1 << rng.randrange(8)
    elif kind == 2:         # cut short
        t = t[:rng.randrange(len(t) + 1)]
    elif kind == 3:         # the pad count
        t[1] = (t[1] & 0xcf) | (rng.randrange(4) << 4)
    elif kind == 4:         # the opcode
        t[0] = rng.getrandbits(8)
    p = sealed(s.src, s.dst, s.sport, bytes(t), good=kind != 5)
    if kind == 6:           # trailing bytes
        p += bytes(rng.randrange(1, 64))
    return p


def fuzz(prefix, dev, src, dst, n, seed):
    s = Sender(src, dst)
    rng = random.Random(seed)
    start = counters(dev)
    sent, batch = 0, 500
    t0 = time.time()
    while sent < n:
        k = min(batch, n - sent)
        before = counters(dev)
        for _ in range(k):
            s.send(mutant(s, rng))
        _, got = wait_for(dev, before, k)
        sent += k
        if got != k:
            # Slow (counted late) or never counted: which, for the log
            t1 = time.time()
            _, late = wait_for(dev, before, k, secs=120)
            print('FAIL %s/fuzz (batch ending at %d: %d sent, %d counted '
                  'in 20 s, %d after %.0f s more: %s)' %
                  (prefix, sent, k, got, late, time.time() - t1,
                   delta(before, counters(dev))))
            return 1
    end = counters(dev)
    print('%s: %d packets in %.0f s: %s' % (prefix, n, time.time() - t0,
                                            delta(start, end)))
    print('PASS %s/fuzz' % prefix)
    return 0


def main(argv):
    if len(argv) >= 5 and argv[0] == 'check':
        return 1 if check(*argv[1:5]) else 0
    if len(argv) >= 7 and argv[0] == 'fuzz':
        return fuzz(*argv[1:5], int(argv[5]), int(argv[6]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
