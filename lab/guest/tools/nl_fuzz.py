#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""nl_fuzz: random and mutated RDMA netlink (nldev) requests.

Sends COUNT messages to the kernel's NETLINK_RDMA socket: well-formed
nldev commands with random attributes (right and wrong types and sizes,
real and made-up device and port numbers), mutations of those (flipped
bytes, cut or stretched lengths, broken attribute headers) and random
bytes.  Every message that the kernel takes as a request must be answered:
an acknowledgement or error (NLMSG_ERROR) for a doit, the end of a dump
(NLMSG_DONE), with the request's sequence number and a plausible errno.
Messages whose netlink header itself is malformed are dropped by the
kernel by design; the tool checks that they get no answer.

  nl_fuzz.py [--count N] [--seed S] [--user UID]

--user drops to that uid (and gid) first: an unprivileged sender must then
get EPERM for every command that needs CAP_NET_ADMIN.  Prints a summary
line "nl_fuzz: ..." and exits 1 if a message went unanswered or an answer
was wrong.
"""
import argparse
import errno
import os
import random
import select
import socket
import struct
import sys
import time

NETLINK_RDMA = 20
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 0x1, 0x2, 0x4
NLM_F_DUMP = 0x300
HDR = struct.Struct('=IHHII')
RDMA_NL_NLDEV = 5

# nldev commands (uapi rdma_netlink.h) and which need CAP_NET_ADMIN.
CMDS = {1: 'GET', 2: 'SET', 3: 'NEWLINK', 4: 'DELLINK', 5: 'PORT_GET',
        6: 'SYS_GET', 7: 'SYS_SET', 9: 'RES_GET', 10: 'RES_QP_GET',
        11: 'RES_CM_ID_GET', 12: 'RES_CQ_GET', 13: 'RES_MR_GET',
        14: 'RES_PD_GET', 15: 'GET_CHARDEV', 16: 'STAT_SET', 17: 'STAT_GET',
        18: 'STAT_DEL', 19: 'RES_QP_GET_RAW', 20: 'RES_CQ_GET_RAW',
        21: 'RES_MR_GET_RAW', 22: 'RES_CTX_GET', 23: 'RES_SRQ_GET',
        24: 'STAT_GET_STATUS'}
ADMIN = {2, 3, 4, 7, 16, 18, 19, 20, 21}

# Attributes a request may carry: number -> kind of value.
U8, U32, U64, STR, NEST, ANY = 'u8', 'u32', 'u64', 'str', 'nest', 'any'
ATTRS = {1: U32, 2: STR, 3: U32, 4: U64, 5: STR, 6: U64, 7: U64, 8: U64,
         9: U32, 10: U32, 11: U8, 12: U8, 13: U8, 14: U8, 15: NEST, 16: NEST,
         17: STR, 18: U64, 19: NEST, 20: NEST, 21: U32, 22: U32, 23: U32,
         24: U32, 25: U8, 26: U8, 27: U8, 28: U32, 29: STR, 33: ANY,
         34: ANY, 37: U32, 38: U64, 39: U8, 44: U64, 45: U64, 50: U32,
         51: STR, 60: U32, 61: U32, 62: U32, 63: U32, 64: U32, 65: STR,
         66: U8, 67: STR, 68: U32, 69: STR, 70: STR, 71: U64, 72: U64,
         73: U32, 74: U32, 75: U32, 76: U32, 77: NEST, 78: NEST, 79: U32,
         80: NEST, 81: NEST, 82: STR, 83: U64, 84: U8, 85: ANY, 93: U8,
         94: U32, 95: U8, 96: U8, 97: U8}
# Names the kernel may act on: never in-tree drivers or clients, whose
# modules must not be loaded on our core.
STRINGS = ['', 'tdev0', 'tdev1', 'kts0', 'ktfz', 'lo', 'veth0', 'tdev',
           'ktnotype', 'ktnochar', 'x' * 15, 'y' * 63, 'z' * 70, 'a%d',
           'a/b', '\u00e9']


class Fuzzer:
    def __init__(self, seed, user):
        self.rnd = random.Random(seed)
        self.user = user
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_RDMA)
        self.sock.bind((0, 0))
        self.pid = self.sock.getsockname()[0]
        self.seq = 1000
        self.stats = {'sent': 0, 'answered': 0, 'dumps': 0, 'dropped': 0,
                      'no_ack_asked': 0, 'errors': {}}
        self.bad = []

    # -- building messages --------------------------------------------------
    def value(self, kind):
        r = self.rnd
        if r.random() < 0.15:          # any type gets a wrong size sometimes
            return bytes(r.randrange(256) for _ in range(r.choice([0, 1, 2,
                                                                   3, 5, 9])))
        if kind == U8:
            return struct.pack('=B', r.choice([0, 1, 2, 255]))
        if kind == U32:
            return struct.pack('=I', r.choice([0, 1, 2, 3, 4, 7,
                                               0xffffffff,
                                               r.randrange(1 << 32)]))
        if kind == U64:
            return struct.pack('=Q', r.randrange(1 << 64))
        if kind == STR:
            s = r.choice(STRINGS).encode()
            return s + b'\0' if r.random() < 0.9 else s
        if kind == NEST:
            return b''.join(self.attr(r.choice(list(ATTRS)))
                            for _ in range(r.randrange(4)))
        return bytes(r.randrange(256) for _ in range(r.randrange(200)))

    @staticmethod
    def pack_attr(atype, payload):
        a = struct.pack('=HH', 4 + len(payload), atype) + payload
        return a + b'\0' * ((4 - len(a) % 4) % 4)

    def attr(self, atype):
        return self.pack_attr(atype, self.value(ATTRS.get(atype, ANY)))

    def nldev(self):
        """A well-formed request: an nldev command with random attributes."""
        r = self.rnd
        cmd = r.choice(list(CMDS) + [0, 8, 25, 60])
        flags = r.choice([NLM_F_REQUEST | NLM_F_ACK,
                          NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP,
                          NLM_F_REQUEST | NLM_F_DUMP, NLM_F_REQUEST | NLM_F_ACK,
                          NLM_F_ACK, r.randrange(1 << 16)])
        attrs = [1] if r.random() < 0.7 else []
        attrs += [r.choice(list(ATTRS)) for _ in range(r.randrange(5))]
        if r.random() < 0.05:
            attrs.append(r.randrange(98, 1 << 14))
        body = b''.join(self.attr(a) for a in attrs)
        mtype = (RDMA_NL_NLDEV << 10) + cmd
        if r.random() < 0.03:           # other clients without a table
            mtype = (r.choice([0, 1, 3, 6, 40]) << 10) + r.randrange(1024)
        return mtype, flags, body

    def mutate(self, msg):
        r = self.rnd
        b = bytearray(msg)
        how = r.randrange(5)
        if how == 0 and len(b) > HDR.size:          # flip bytes
            for _ in range(r.randrange(1, 6)):
                i = r.randrange(HDR.size, len(b))
                b[i] = r.randrange(256)
        elif how == 1:                              # cut
            b = b[:r.randrange(HDR.size, len(b) + 1)]
            struct.pack_into('=I', b, 0, len(b))
        elif how == 2:                              # trailing junk
            b += bytes(r.randrange(256) for _ in range(r.randrange(1, 40)))
            struct.pack_into('=I', b, 0, len(b))
        elif how == 3 and len(b) > HDR.size + 4:    # attribute length
            struct.pack_into('=H', b, HDR.size, r.randrange(1 << 16))
        else:                                       # header length
            struct.pack_into('=I', b, 0, r.choice([0, 4, 15, 16, len(b) - 1,
                                                   len(b) + 1, 1 << 20]))
        return bytes(b)

    def message(self):
        r = self.rnd
        self.seq += 1
        mtype, flags, body = self.nldev()
        msg = HDR.pack(HDR.size + len(body), mtype, flags, self.seq, 0) + body
        p = r.random()
        if p < 0.25:
            msg = self.mutate(msg)
        elif p < 0.28:
            msg = HDR.pack(0, 0, 0, self.seq, 0)[:4] + bytes(
                r.randrange(256) for _ in range(r.randrange(0, 64)))
        return msg

    # -- what the kernel should do ------------------------------------------
    @staticmethod
    def kind(flags, mtype):
        """For one message: ('answer'|'maybe', needs CAP_NET_ADMIN)."""
        if mtype < 16 or not flags & NLM_F_REQUEST:
            return ('answer' if flags & NLM_F_ACK else 'maybe'), False
        client, cmd = mtype >> 10, mtype & 0x3ff
        admin = client == RDMA_NL_NLDEV and cmd in ADMIN
        if flags & (NLM_F_ACK | NLM_F_DUMP):
            return 'answer', admin
        return 'maybe', admin

    def expectations(self, data):
        """The messages the kernel takes from one datagram, as it walks it:
        {seq: (kind, admin)}; a malformed header ends the walk."""
        out = {}
        off = 0
        while len(data) - off >= HDR.size:
            length, mtype, flags, seq, _ = HDR.unpack_from(data, off)
            if length < HDR.size or length > len(data) - off:
                break
            want, admin = self.kind(flags, mtype)
            prev = out.get(seq)
            # Two messages with one sequence number: expect the stricter.
            if not prev or prev[0] == 'maybe':
                out[seq] = (want, admin)
            off += min((length + 3) & ~3, len(data) - off)
        return out

    def check_error(self, err, admin):
        if err > 0 or -err > 4095:
            self.bad.append('implausible errno %d' % err)
        if self.user is not None and admin and err != -errno.EPERM:
            self.bad.append('admin command as uid %d answered %d' %
                            (self.user, err))
        if self.user is None and err == -errno.EPERM:
            self.bad.append('EPERM for root')

    def count_error(self, err):
        self.stats['errors'][err] = self.stats['errors'].get(err, 0) + 1

    def final(self, mtype, payload, admin):
        """True if the message ends a request's answer."""
        if mtype not in (NLMSG_ERROR, NLMSG_DONE):
            return False
        err = struct.unpack_from('=i', payload)[0] if len(payload) >= 4 else 0
        if mtype == NLMSG_DONE:
            self.stats['dumps'] += 1
        self.count_error(err)
        if err or (mtype == NLMSG_DONE and admin):
            self.check_error(err, admin)
        return True

    def read_answers(self, want, wait):
        """Read until every seq in @want has its final message, or @wait
        seconds pass; returns the seqs answered."""
        done = set()
        deadline = time.monotonic() + wait
        while set(want) - done:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                break
            data = self.sock.recv(1 << 16)
            off = 0
            while off + HDR.size <= len(data):
                length, mtype, _, mseq, mpid = HDR.unpack_from(data, off)
                if length < HDR.size:
                    self.bad.append('reply with length %d' % length)
                    break
                payload = data[off + HDR.size:off + length]
                off += (length + 3) & ~3
                if mseq not in want or mpid not in (0, self.pid):
                    self.bad.append('reply seq %d pid %d, not asked' %
                                    (mseq, mpid))
                    continue
                if self.final(mtype, payload, want[mseq][1]):
                    done.add(mseq)
        return done

    def drain(self):
        while select.select([self.sock], [], [], 0)[0]:
            self.sock.recv(1 << 16)

    def one(self):
        msg = self.message()
        want = self.expectations(msg)
        try:
            self.sock.sendto(msg, (0, 0))
        except OSError as e:
            # The socket layer refuses some lengths itself: an answer too.
            self.count_error(-e.errno)
            return
        self.stats['sent'] += 1
        must = {s for s, (k, _) in want.items() if k == 'answer'}
        if not want:
            self.stats['dropped'] += 1
        elif not must:
            self.stats['no_ack_asked'] += 1
        done = self.read_answers(want, 5.0 if must else 0.05)
        if must - done:
            self.bad.append('no answer to seq %s: %s' %
                            (sorted(must - done), msg.hex()))
        elif must:
            self.stats['answered'] += 1
        self.drain()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--count', type=int, default=2000)
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--user', type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    if args.user is not None:
        os.setgroups([])
        os.setgid(args.user)
        os.setuid(args.user)
    f = Fuzzer(seed, args.user)
    for _ in range(args.count):
        f.one()
    s = f.stats
    errs = ' '.join('%s:%d' % (errno.errorcode.get(-e, e) if e else 'ok', n)
                    for e, n in sorted(s['errors'].items()))
    who = 'uid %d' % args.user if args.user is not None else 'root'
    print('nl_fuzz: seed %d as %s: %d sent, %d answered (%d dumps), '
          '%d without ack asked, %d malformed dropped; answers %s; '
          '%d problems' % (seed, who, s['sent'], s['answered'], s['dumps'],
                           s['no_ack_asked'], s['dropped'], errs,
                           len(f.bad)))
    for b in f.bad[:20]:
        print('nl_fuzz: problem: ' + b)
    return 1 if f.bad else 0


if __name__ == '__main__':
    sys.exit(main())
