#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""uverbs_fuzz: random and mutated uverbs requests from several processes.

Each worker process opens uverbs devices, takes a context on each, and
sends CALLS system calls at them, chosen at random:

- write() commands built from the uapi request layouts (ib_user_verbs.h)
  with plausible and implausible fields: handles it created, handles of
  its other file, handles it destroyed already, random numbers; sizes of
  queues and regions at, below and far above the device's limits;
- the same requests mutated: in_words and out_words wrong, the request
  cut or stretched, bytes flipped, extended commands with random
  provider words, unknown command numbers;
- ioctl(RDMA_VERBS_IOCTL) on the objects and methods of
  ib_user_ioctl_cmds.h with random attributes: unknown ids, wrong
  lengths and flags, inline and pointer data, handles of every kind;
- mmap() of the offsets the driver returned and of made-up ones, then
  touching and unmapping the mapping; reads of the async event file and
  of completion channels;
- the same destroy from two threads at once, and closing a file with its
  objects to start over.

Every pointer the kernel may write through points into the worker's own
scratch memory (sized for the largest request the framing allows) or at
an address no process can have mapped, so nothing the kernel answers can
corrupt the worker.  Every call must come back with a result or an errno
from the set a uverbs call may return; a worker that does not finish in
time counts as a hang, and its kernel stacks are printed.

  uverbs_fuzz.py [--calls N] [--workers W] [--seed S] [--timeout SEC] DEV...

Prints "PASS/FAIL uverbs_fuzz/<check>" lines and a summary with the
number of calls and the errnos seen; exit status 1 on a failure.
"""
import argparse
import collections
import ctypes
import errno
import fcntl
import json
import mmap
import os
import random
import select
import signal
import struct
import sys
import threading
import time

RDMA_VERBS_IOCTL = 0xc0181b01
EXT = 0x80000000
DRIVER_ID_RXE = 14

# ib_user_verbs.h legacy commands.
GET_CONTEXT, QUERY_DEVICE, QUERY_PORT, ALLOC_PD, DEALLOC_PD = 0, 1, 2, 3, 4
CREATE_AH, DESTROY_AH, REG_MR, DEREG_MR = 5, 8, 9, 13
ALLOC_MW, DEALLOC_MW, CREATE_COMP_CHANNEL, CREATE_CQ = 14, 16, 17, 18
RESIZE_CQ, DESTROY_CQ, POLL_CQ, REQ_NOTIFY_CQ = 19, 20, 22, 23
CREATE_QP, QUERY_QP, MODIFY_QP, DESTROY_QP = 24, 25, 26, 27
POST_SEND, POST_RECV, ATTACH_MCAST, DETACH_MCAST = 28, 29, 30, 31
CREATE_SRQ, MODIFY_SRQ, QUERY_SRQ, DESTROY_SRQ, POST_SRQ_RECV = 32, 33, 34, 35, 36

# Errnos a uverbs call may answer.  Anything else (a kernel-internal
# errno such as ENOTSUPP 524 or ERESTARTSYS 512 leaking out) is a defect.
ALLOWED = {errno.EPERM, errno.ENOENT, errno.EIO, errno.ENXIO, errno.E2BIG,
           errno.EBADF, errno.EAGAIN, errno.ENOMEM, errno.EACCES,
           errno.EFAULT, errno.EBUSY, errno.EEXIST, errno.ENODEV,
           errno.EINVAL, errno.ENFILE, errno.EMFILE, errno.ENOTTY,
           errno.ENOSPC, errno.ERANGE, errno.ENOSYS, errno.ENODATA,
           errno.EOVERFLOW, errno.EMSGSIZE, errno.EPROTONOSUPPORT,
           errno.EOPNOTSUPP, errno.ETIMEDOUT, errno.ENOBUFS,
           errno.EAFNOSUPPORT, errno.ENOTSUP,
           # address resolution of an AH or a QP's path (RoCE)
           errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EADDRNOTAVAIL}

# Addresses nothing is mapped at: the zero page, a kernel address, a
# non-canonical one, the top of the address space.
BOGUS = [0, 8, 0xffff888000000000, 0x8000000000000000, 0xfffffffffffff000]

SCRATCH = 1 << 20		# for responses: out_words * 8 < 512 KiB
MR_AREA = 1 << 21		# for memory registrations


def interesting_u32(rng):
    return rng.choice([0, 1, 2, 3, 7, 8, 15, 16, 63, 64, 255, 256, 1023,
                       1024, 4095, 4096, 32767, 32768, 65535, 65536,
                       0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
                       rng.getrandbits(32), rng.randrange(0, 300)])


class Mem:
    """Anonymous memory of the worker; the kernel may write anywhere in it."""

    def __init__(self, size):
        self.map = mmap.mmap(-1, size)
        self.buf = (ctypes.c_char * size).from_buffer(self.map)
        self.addr = ctypes.addressof(self.buf)
        self.size = size


class Dev:
    """One open uverbsN with its context and the objects made on it."""

    def __init__(self, w, name):
        self.w = w
        self.name = name
        self.fd = -1
        self.afd = -1
        self.objs = collections.defaultdict(list)	# kind -> handles
        self.dead = collections.defaultdict(list)	# destroyed handles
        self.channels = []				# completion channel fds
        self.mminfo = []				# (offset, size)

    def open(self):
        self.close()
        self.fd = os.open(f'/dev/infiniband/{self.name}',
                          os.O_RDWR | os.O_CLOEXEC)
        resp = self.w.resp(8)
        if self.w.call(lambda: os.write(self.fd, hdr(GET_CONTEXT, 4, 2) +
                                        struct.pack('<Q', resp))) is not None:
            afd = struct.unpack_from('<I', self.w.read(resp, 4))[0]
            if event_file(afd):
                self.afd = afd
                os.set_blocking(afd, False)

    def close(self):
        for fd in self.channels + [self.afd, self.fd]:
            if fd >= 0:
                os.close(fd)
        self.fd = self.afd = -1
        self.channels = []
        self.objs.clear()
        self.dead.clear()
        self.mminfo = []


def event_file(fd):
    """Whether fd is an event file the kernel gave us (anon inode)."""
    try:
        return os.readlink(f'/proc/self/fd/{fd}').startswith('anon_inode:')
    except OSError:
        return False


def hdr(cmd, in_words, out_words):
    return struct.pack('<IHH', cmd & 0xffffffff, in_words & 0xffff,
                       out_words & 0xffff)


class Worker:
    def __init__(self, wid, devs, calls, seed):
        self.rng = random.Random(seed)
        self.wid = wid
        self.calls_left = calls
        self.ncalls = 0
        self.errnos = collections.Counter()
        self.created = collections.Counter()
        self.bad = []
        self.scratch = Mem(SCRATCH)
        self.mr = Mem(MR_AREA)
        self.ioc = Mem(1 << 17)		# ioctl header and attributes
        self.lock = threading.Lock()
        self.devs = [Dev(self, n) for n in devs]

    # --- bookkeeping ----------------------------------------------------

    def call(self, fn, what='?'):
        """Run one system call; its result, or None and its errno counted."""
        self.ncalls += 1
        self.calls_left -= 1
        try:
            return fn()
        except OSError as e:
            with self.lock:
                self.errnos[e.errno] += 1
                if e.errno not in ALLOWED and len(self.bad) < 20:
                    self.bad.append(f'{what}: errno {e.errno}')
            return None

    def resp(self, size):
        """A response buffer in scratch memory (size bytes fit)."""
        off = self.rng.randrange(0, SCRATCH // 2 - 16, 8)
        return self.scratch.addr + off

    def read(self, addr, n):
        return ctypes.string_at(addr, n)

    def ptr(self):
        """A pointer the kernel may write up to SCRATCH/2 bytes at."""
        if self.rng.random() < 0.15:
            return self.rng.choice(BOGUS)
        return self.resp(0)

    def handle(self, dev, kind):
        """A handle of KIND, usually a live one of DEV."""
        r = self.rng.random()
        if r < 0.7 and dev.objs[kind]:
            return self.rng.choice(dev.objs[kind])
        if r < 0.8 and dev.dead[kind]:
            return self.rng.choice(dev.dead[kind])
        if r < 0.9:
            other = self.rng.choice(self.devs)
            kinds = [k for k in other.objs if other.objs[k]]
            if kinds:
                return self.rng.choice(other.objs[self.rng.choice(kinds)])
        return interesting_u32(self.rng)

    # --- write() ----------------------------------------------------------

    def send(self, dev, cmd, body, out_len, what, mutate=True):
        """write() a legacy command whose body starts with the response
        pointer (if out_len) and return the response, or None."""
        rsp = self.resp(out_len)
        if out_len:
            body = struct.pack('<Q', rsp) + body
        in_words = (8 + len(body)) // 4
        out_words = (out_len + 3) // 4
        if mutate and self.rng.random() < 0.1:
            return self.mutate(dev, cmd, body, in_words, out_words, what)
        ok = self.call(lambda: os.write(dev.fd, hdr(cmd, in_words, out_words)
                                        + body), what)
        if ok is None or not out_len:
            return None if ok is None else b''
        return self.read(rsp, out_len)

    def mutate(self, dev, cmd, body, in_words, out_words, what):
        rng = self.rng
        b = bytearray(body)
        m = rng.randrange(6)
        if m == 0:
            in_words = rng.getrandbits(16)
        elif m == 1:
            out_words = rng.getrandbits(16)
        elif m == 2 and b:
            del b[rng.randrange(len(b)):]
        elif m == 3:
            b += os.urandom(rng.randrange(1, 64))
        elif m == 4 and b:
            for _ in range(rng.randrange(1, 4)):
                b[rng.randrange(len(b))] = rng.getrandbits(8)
        else:
            cmd = rng.choice([rng.getrandbits(32), rng.randrange(64),
                              EXT | rng.randrange(64), cmd | 0x40000000])
        # A flipped byte may have changed the response pointer: put it
        # back unless it is one of ours.
        if len(b) >= 8 and out_words:
            p = struct.unpack_from('<Q', b)[0]
            if not (self.scratch.addr <= p < self.scratch.addr + SCRATCH // 2
                    or p in BOGUS):
                struct.pack_into('<Q', b, 0, self.resp(0))
        self.call(lambda: os.write(dev.fd, hdr(cmd, in_words, out_words) +
                                   bytes(b)), what + '/mutated')
        return None

    def send_ex(self, dev, cmd, body, out_len, what):
        """write() an extended command."""
        rsp = self.resp(out_len)
        pin = pout = 0
        if self.rng.random() < 0.1:
            pin, pout = self.rng.getrandbits(4), self.rng.getrandbits(4)
        ex = struct.pack('<QHHI', rsp, pin, pout, 0)
        body = body + os.urandom(pin * 8)
        in_words = len(body) // 8
        out_words = (out_len + 7) // 8
        if self.rng.random() < 0.1:
            in_words = self.rng.getrandbits(16)
            out_words = self.rng.getrandbits(8)
        ok = self.call(lambda: os.write(dev.fd, hdr(EXT | cmd, in_words,
                                                    out_words) + ex + body),
                       what)
        return None if ok is None else self.read(rsp, out_len)

    def made(self, dev, kind, handle):
        self.created[kind] += 1
        dev.objs[kind].append(handle)
        if len(dev.objs[kind]) > 24:
            self.destroy(dev, kind, dev.objs[kind][0])

    def destroy(self, dev, kind, h, race=False):
        cmd, body, out = {
            'pd': (DEALLOC_PD, struct.pack('<I', h), 0),
            'mr': (DEREG_MR, struct.pack('<I', h), 0),
            'mw': (DEALLOC_MW, struct.pack('<I', h), 0),
            'ah': (DESTROY_AH, struct.pack('<I', h), 0),
            'cq': (DESTROY_CQ, struct.pack('<II', h, 0), 8),
            'qp': (DESTROY_QP, struct.pack('<II', h, 0), 4),
            'srq': (DESTROY_SRQ, struct.pack('<II', h, 0), 4),
        }[kind]
        if race:
            # The same destroy from two threads at once: one may win.
            ts = [threading.Thread(target=self.send,
                                   args=(dev, cmd, body, out, 'destroy-race'))
                  for _ in range(2)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
        else:
            self.send(dev, cmd, body, out, f'destroy-{kind}')
        if h in dev.objs[kind]:
            dev.objs[kind].remove(h)
            dev.dead[kind].append(h)

    # --- the commands -------------------------------------------------------

    def c_query(self, dev):
        rng = self.rng
        r = rng.randrange(4)
        if r == 0:
            self.send(dev, QUERY_DEVICE, b'', 176, 'query-device')
        elif r == 1:
            self.send(dev, QUERY_PORT, struct.pack('<B7x', rng.choice(
                [0, 1, 1, 2, 255])), 40, 'query-port')
        elif r == 2:
            self.send_ex(dev, QUERY_DEVICE, struct.pack('<II', rng.choice(
                [0, 0, 1, rng.getrandbits(32)]), rng.choice([0, 0, 1])),
                rng.choice([8, 176, 304, 512]), 'ex-query-device')
        else:
            self.send(dev, QUERY_QP, struct.pack('<II', self.handle(
                dev, 'qp'), rng.getrandbits(32)), 128, 'query-qp')

    def c_pd(self, dev):
        if self.rng.random() < 0.6:
            r = self.send(dev, ALLOC_PD, b'', 4, 'alloc-pd')
            if r:
                self.made(dev, 'pd', struct.unpack_from('<I', r)[0])
        else:
            self.destroy(dev, 'pd', self.handle(dev, 'pd'),
                         race=self.rng.random() < 0.2)

    def c_mr(self, dev):
        rng = self.rng
        if rng.random() < 0.6:
            if rng.random() < 0.8:
                start = self.mr.addr + rng.randrange(0, MR_AREA, 8)
            else:
                start = rng.choice(BOGUS + [rng.getrandbits(64)])
            length = rng.choice([0, 1, 4096, 65536, MR_AREA, 1 << 40,
                                 (1 << 64) - 1, rng.randrange(1, MR_AREA)])
            access = rng.choice([0, 1, 3, 7, 15, 0x1f, 1 << 6, 1 << 20,
                                 rng.getrandbits(32)])
            r = self.send(dev, REG_MR, struct.pack(
                '<QQQII', start, length, rng.choice([start, 0,
                                                     rng.getrandbits(64)]),
                self.handle(dev, 'pd'), access), 12, 'reg-mr')
            if r:
                self.made(dev, 'mr', struct.unpack_from('<I', r)[0])
        else:
            self.destroy(dev, 'mr', self.handle(dev, 'mr'),
                         race=rng.random() < 0.2)

    def c_mw(self, dev):
        if self.rng.random() < 0.6:
            r = self.send(dev, ALLOC_MW, struct.pack(
                '<IB3x', self.handle(dev, 'pd'),
                self.rng.choice([1, 2, 0, 3, 255])), 8, 'alloc-mw')
            if r:
                self.made(dev, 'mw', struct.unpack_from('<I', r)[0])
        else:
            self.destroy(dev, 'mw', self.handle(dev, 'mw'))

    def c_channel(self, dev):
        if len(dev.channels) > 8:
            os.close(dev.channels.pop(0))
        r = self.send(dev, CREATE_COMP_CHANNEL, b'', 4, 'comp-channel')
        if r:
            fd = struct.unpack_from('<I', r)[0]
            if event_file(fd):
                os.set_blocking(fd, False)
                dev.channels.append(fd)

    def c_cq(self, dev):
        rng = self.rng
        r = rng.randrange(8)
        if r < 3:
            ch = rng.choice([-1, -1] + dev.channels + [rng.getrandbits(31)])
            body = struct.pack('<QIIiI', rng.getrandbits(64), rng.choice(
                [1, 16, 256, 1 << 15, 1 << 17, interesting_u32(rng)]),
                rng.choice([0, 0, 1, 255]), ch, 0)
            if r == 0:
                resp = self.send_ex(dev, CREATE_CQ, body + struct.pack(
                    '<I', rng.choice([0, 0, 1, 0xffffffff])) + b'\0' * 4,
                    32, 'ex-create-cq')
                off = 16
            else:
                resp = self.send(dev, CREATE_CQ, body, 24, 'create-cq')
                off = 8
            if resp:
                self.made(dev, 'cq', struct.unpack_from('<I', resp)[0])
                dev.mminfo.append(struct.unpack_from('<QI', resp, off))
        elif r == 3:
            self.send(dev, RESIZE_CQ, struct.pack('<II', self.handle(
                dev, 'cq'), rng.choice([1, 64, 4096, interesting_u32(rng)])),
                24, 'resize-cq')
        elif r == 4:
            self.send(dev, REQ_NOTIFY_CQ, struct.pack(
                '<II', self.handle(dev, 'cq'), rng.getrandbits(1)), 0,
                'req-notify-cq')
        elif r == 5:
            self.send(dev, POLL_CQ, struct.pack('<II', self.handle(
                dev, 'cq'), rng.choice([0, 1, 16, 0xffffffff])),
                8 + 16 * 48, 'poll-cq')
        else:
            self.destroy(dev, 'cq', self.handle(dev, 'cq'),
                         race=rng.random() < 0.2)

    def c_qp(self, dev):
        rng = self.rng
        r = rng.randrange(6)
        if r < 2:
            is_srq = rng.random() < 0.2
            cq = self.handle(dev, 'cq')
            body = struct.pack(
                '<QIIIIIIIIIBBBx', rng.getrandbits(64),
                self.handle(dev, 'pd'), cq,
                rng.choice([cq, self.handle(dev, 'cq')]),
                self.handle(dev, 'srq') if is_srq else 0,
                rng.choice([1, 16, 256, interesting_u32(rng)]),
                rng.choice([1, 16, 256, interesting_u32(rng)]),
                rng.choice([1, 2, 32, interesting_u32(rng)]),
                rng.choice([1, 2, 32, interesting_u32(rng)]),
                rng.choice([0, 64, interesting_u32(rng)]),
                rng.getrandbits(1),
                rng.choice([2, 2, 3, 4, 8, 9, 10, rng.getrandbits(8)]),
                int(is_srq))
            resp = self.send(dev, CREATE_QP, body, 64, 'create-qp')
            if resp:
                self.made(dev, 'qp', struct.unpack_from('<I', resp)[0])
                dev.mminfo.append(struct.unpack_from('<QI', resp, 32))
                dev.mminfo.append(struct.unpack_from('<QI', resp, 48))
        elif r == 2:
            self.modify_qp(dev)
        elif r == 3:
            n = rng.choice([0, 0, 1, 2, 0xffffffff])
            wqe = rng.choice([128, 56, 0, 4096, 0xffffffff])
            body = struct.pack('<IIII', self.handle(dev, 'qp'), n,
                               rng.choice([0, 1, 0xffffffff]), wqe)
            body += os.urandom(min(n, 2) * min(wqe, 256))
            self.send(dev, rng.choice([POST_SEND, POST_RECV]), body, 4,
                      'post')
        elif r == 4:
            gid = rng.choice([b'\xff\x0e' + os.urandom(14), os.urandom(16)])
            self.send(dev, rng.choice([ATTACH_MCAST, DETACH_MCAST]),
                      gid + struct.pack('<IHH', self.handle(dev, 'qp'),
                                        rng.getrandbits(16), 0), 0, 'mcast')
        else:
            self.destroy(dev, 'qp', self.handle(dev, 'qp'),
                         race=rng.random() < 0.2)

    def modify_qp(self, dev):
        rng = self.rng

        def dest():
            gid = rng.choice([b'\0' * 10 + b'\xff\xff' + bytes([10, 11, 0,
                                                                rng.choice([1, 2])]),
                              os.urandom(16), b'\xfe\x80' + b'\0' * 14])
            return gid + struct.pack('<IHHBBBBBBBB', rng.getrandbits(20),
                                     rng.getrandbits(16), 0,
                                     rng.choice([0, 1, 2, 255]), 64, 0, 0, 0,
                                     0, rng.choice([1, 1, 0]),
                                     rng.choice([1, 1, 0, 2]))
        state = rng.choice([0, 1, 2, 3, 4, 5, 6, 7])
        mask = rng.choice([0x1, 0x1 | 0x10 | 0x20 | 0x8 | 0x4,
                           0x1 | 0x80 | 0x100 | 0x200 | 0x400 | 0x10000 |
                           0x8000 | 0x2000 | 0x1000 | 0x100000 |
                           0x200000,
                           0x1 | 0x200 | 0x4000 | 0x800 | 0x10000 | 0x40000 |
                           0x80000 | 0x20000, rng.getrandbits(26),
                           rng.getrandbits(32)])
        body = dest() + dest() + struct.pack(
            '<IIIIIIIHHBBBBBBBBBBBBBB2x', self.handle(dev, 'qp'), mask,
            rng.getrandbits(32), rng.getrandbits(24), rng.getrandbits(24),
            self.handle(dev, 'qp') if rng.random() < 0.3 else
            rng.getrandbits(24), rng.choice([0, 7, 15, rng.getrandbits(32)]),
            rng.choice([0, 0, 1, 0xffff]), 0, state, rng.randrange(8),
            rng.choice([1, 2, 3, 4, 5, 0, 6]), 0, 0, rng.randrange(20),
            rng.randrange(20), rng.randrange(32), rng.choice([1, 1, 0, 2]),
            rng.choice([14, 0, 31, 255]), 7, 7, 0, 0)
        self.send(dev, MODIFY_QP, body, 0, 'modify-qp')

    def c_srq(self, dev):
        rng = self.rng
        r = rng.randrange(5)
        if r < 2:
            resp = self.send(dev, CREATE_SRQ, struct.pack(
                '<QIIII', rng.getrandbits(64), self.handle(dev, 'pd'),
                rng.choice([1, 16, 256, interesting_u32(rng)]),
                rng.choice([1, 2, 32, interesting_u32(rng)]),
                rng.choice([0, 0, 4, interesting_u32(rng)])), 40,
                'create-srq')
            if resp:
                self.made(dev, 'srq', struct.unpack_from('<I', resp)[0])
                dev.mminfo.append(struct.unpack_from('<QI', resp, 16))
        elif r == 2:
            # rxe writes the new ring's mminfo at the address that
            # follows the request: ours, or one nothing is mapped at.
            self.send(dev, MODIFY_SRQ, struct.pack(
                '<IIIIQ', self.handle(dev, 'srq'), rng.choice([1, 2, 3,
                                                               rng.getrandbits(32)]),
                rng.choice([1, 64, 4096, interesting_u32(rng)]),
                rng.choice([0, 1, 16, interesting_u32(rng)]), self.ptr()),
                0, 'modify-srq', mutate=False)
        elif r == 3:
            self.send(dev, QUERY_SRQ, struct.pack('<II', self.handle(
                dev, 'srq'), 0), 16, 'query-srq')
        else:
            self.destroy(dev, 'srq', self.handle(dev, 'srq'),
                         race=rng.random() < 0.2)

    def c_ah(self, dev):
        rng = self.rng
        if rng.random() < 0.6:
            gid = rng.choice([b'\0' * 10 + b'\xff\xff' + bytes([10, 11, 0, 2]),
                              os.urandom(16)])
            attr = gid + struct.pack('<IBBBxHBBBBBx', 0,
                                     rng.choice([0, 1, 2, 255]), 64, 0,
                                     rng.getrandbits(16), 0, 0, 0,
                                     rng.choice([1, 1, 0]),
                                     rng.choice([1, 1, 0, 2]))
            r = self.send(dev, CREATE_AH, struct.pack(
                '<QII', rng.getrandbits(64), self.handle(dev, 'pd'), 0) +
                attr, 12, 'create-ah')
            if r:
                self.made(dev, 'ah', struct.unpack_from('<I', r)[0])
        else:
            self.destroy(dev, 'ah', self.handle(dev, 'ah'),
                         race=rng.random() < 0.2)

    def c_raw_write(self, dev):
        """Random bytes, or a random command with a random body."""
        rng = self.rng
        if rng.random() < 0.5:
            data = os.urandom(rng.randrange(0, 128))
        else:
            n = rng.randrange(0, 16)
            data = hdr(rng.choice([rng.randrange(64), EXT | rng.randrange(64)]),
                       4 + n, rng.randrange(0, 64)) + os.urandom(8 + n * 4)
        # Bytes 8 to 15 are the response pointer, of a legacy command (the
        # body's first u64) as of an extended one (its second header): never
        # let it point anywhere but at scratch or BOGUS.  (MODIFY_SRQ's
        # driver data holds a pointer too, but its request has no room for
        # it here before byte 24, and its handle is the pointer's low half.)
        if len(data) >= 16:
            data = data[:8] + struct.pack('<Q', self.ptr()) + data[16:]
        self.call(lambda: os.write(dev.fd, data), 'raw-write')

    # --- ioctl() ------------------------------------------------------------

    OBJECTS = {0: 7, 1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 1, 7: 5, 8: 1,
               9: 1, 10: 2, 11: 2, 12: 2, 13: 2, 14: 2, 15: 2, 16: 1,
               17: 3}

    def c_ioctl(self, dev):
        rng = self.rng
        obj = rng.choice(list(self.OBJECTS) + [rng.getrandbits(16),
                                               0x1000 | rng.randrange(8)])
        method = rng.randrange(self.OBJECTS.get(obj, 2) + 1)
        if rng.random() < 0.05:
            method = rng.getrandbits(16)
        nattrs = rng.randrange(0, 8)
        attrs = b''
        for _ in range(nattrs):
            aid = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x1000,
                              0x1001, rng.getrandbits(16)])
            length = rng.choice([0, 1, 2, 4, 8, 8, 16, 24, 64, 4096,
                                 rng.getrandbits(16)])
            flags = rng.choice([0, 1, 1, 2, 3, rng.getrandbits(16)])
            if length > 8 or rng.random() < 0.3:
                data = self.ptr()	# the kernel may write len bytes
            else:
                kinds = [k for k in dev.objs if dev.objs[k]]
                data = rng.choice([
                    rng.getrandbits(64), 0, 1,
                    self.handle(dev, rng.choice(kinds)) if kinds else 0,
                    rng.choice(dev.channels + [dev.afd, -1, 0]) &
                    0xffffffffffffffff])
            attrs += struct.pack('<HHHHQ', aid, length, flags,
                                 rng.choice([0, 0, 0, 1, rng.getrandbits(16)]),
                                 data)
        length = 24 + len(attrs)
        if rng.random() < 0.05:
            length = rng.getrandbits(16)
        h = struct.pack('<HHHHQII', length, obj & 0xffff, method & 0xffff,
                        nattrs if rng.random() < 0.95 else rng.getrandbits(16),
                        0 if rng.random() < 0.97 else 1,
                        DRIVER_ID_RXE if rng.random() < 0.95 else
                        rng.getrandbits(32),
                        0 if rng.random() < 0.97 else 1)
        # The header in a 128 KiB buffer: a length field of up to 64 KiB
        # (and the attributes written back) stays inside it.
        ctypes.memmove(self.ioc.addr, h + attrs, len(h) + len(attrs))
        # A buffer of more than 1 KiB is passed to the kernel as it is.
        rc = self.call(lambda: fcntl.ioctl(dev.fd, RDMA_VERBS_IOCTL,
                                           self.ioc.buf, True), 'ioctl')
        if rc is not None:
            # An ioctl that made an FD object (async file, channel) may
            # have written its fd into an attribute: close what we did
            # not open.
            self.reap_fds(dev)

    def reap_fds(self, dev):
        """Close the event files that requests made without our knowing."""
        keep = set()
        for d in self.devs:
            keep |= set(d.channels) | {d.afd, d.fd}
        for name in os.listdir('/proc/self/fd'):
            fd = int(name)
            if fd > 2 and fd not in keep and fd not in self.base_fds and \
                    event_file(fd):
                os.close(fd)

    # --- mmap, read -----------------------------------------------------------

    def c_mmap(self, dev):
        rng = self.rng
        if dev.mminfo and rng.random() < 0.6:
            off, size = rng.choice(dev.mminfo)
            size = rng.choice([size, size, 4096, size + 4096])
            if size <= 0:
                return
        else:
            off = rng.choice([0, 4096, 1 << 32, rng.getrandbits(40) << 12,
                              rng.getrandbits(12) << 12])
            size = rng.choice([4096, 8192, 1 << 20])

        # mmap(2) takes a signed 64-bit offset: a u64 read from a response
        # may not fit, and Python would refuse it without a system call.
        off &= (1 << 63) - 1

        def do():
            m = mmap.mmap(dev.fd, size, mmap.MAP_SHARED,
                          mmap.PROT_READ | mmap.PROT_WRITE, offset=off)
            try:
                m[0:8]		# touch it
            finally:
                m.close()
            return 0
        self.call(do, 'mmap')

    def c_read(self, dev):
        fds = [dev.afd] + dev.channels
        fd = self.rng.choice(fds)
        if fd < 0:
            return
        n = self.rng.choice([16, 8, 4, 64, 4096])
        self.call(lambda: os.read(fd, n), 'read-event')

    def c_reopen(self, dev):
        """Close the file with everything on it and start over."""
        self.call(lambda: dev.open() or 0, 'reopen')

    # --- the loop ---------------------------------------------------------------

    def run(self):
        self.base_fds = {int(n) for n in os.listdir('/proc/self/fd')}
        for d in self.devs:
            d.open()
        ops = [(self.c_query, 6), (self.c_pd, 8), (self.c_mr, 8),
               (self.c_mw, 3), (self.c_channel, 2), (self.c_cq, 10),
               (self.c_qp, 12), (self.c_srq, 5), (self.c_ah, 4),
               (self.c_raw_write, 6), (self.c_ioctl, 14), (self.c_mmap, 4),
               (self.c_read, 3), (self.c_reopen, 0.2)]
        fns = [f for f, _ in ops]
        weights = [w for _, w in ops]
        while self.calls_left > 0:
            if self.ncalls % 2000 == 0:
                self.reap_fds(None)
            dev = self.rng.choice(self.devs)
            if dev.fd < 0:
                dev.open()
                continue
            self.rng.choices(fns, weights)[0](dev)
        # Leave the objects to the kernel: the files close at exit.
        return {'calls': self.ncalls, 'errnos': dict(self.errnos),
                'created': dict(self.created), 'bad': self.bad}


def worker_main(wid, devs, calls, seed, wfd):
    w = Worker(wid, devs, calls, seed)
    try:
        out = w.run()
    except Exception as e:		# a bug of the fuzzer, not the kernel
        out = {'calls': w.ncalls, 'errnos': dict(w.errnos),
               'bad': w.bad, 'crash': repr(e)}
    os.write(wfd, (json.dumps(out) + '\n').encode())
    os._exit(0)


def stacks(pid):
    out = []
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{tid}/stack') as f:
                out.append(f'  task {tid}:\n' + f.read())
        except OSError:
            pass
    return ''.join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--calls', type=int, default=100000)
    ap.add_argument('--workers', type=int, default=4)
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--timeout', type=int, default=1800)
    ap.add_argument('devs', nargs='+')
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int(time.time())
    print(f'uverbs_fuzz: {a.calls} calls, {a.workers} workers, seed {seed}, '
          f'devices {" ".join(a.devs)}')
    sys.stdout.flush()
    procs = {}
    for i in range(a.workers):
        r, wr = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            worker_main(i, a.devs, a.calls // a.workers, seed * 1000 + i, wr)
        os.close(wr)
        procs[pid] = r
    deadline = time.time() + a.timeout
    results, hung = [], []
    for pid, r in procs.items():
        while True:
            done, _ = os.waitpid(pid, os.WNOHANG)[0], None
            if done:
                break
            if time.time() > deadline:
                hung.append((pid, stacks(pid)))
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            time.sleep(0.5)
        data = b''
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        if data:
            results.append(json.loads(data))
    calls = sum(x['calls'] for x in results)
    errs = collections.Counter()
    for x in results:
        errs.update({int(k): v for k, v in x['errnos'].items()})
    made = collections.Counter()
    for x in results:
        made.update(x.get('created', {}))
    bad = [b for x in results for b in x['bad']]
    crashes = [x['crash'] for x in results if 'crash' in x]
    print(f'uverbs_fuzz: {calls} calls, {sum(errs.values())} errors: ' +
          ', '.join(f'{errno.errorcode.get(k, k)} {v}'
                    for k, v in errs.most_common()))
    print('uverbs_fuzz: objects created: ' +
          ', '.join(f'{k} {v}' for k, v in sorted(made.items())))
    rc = 0

    def result(name, ok, why=''):
        nonlocal rc
        print(f'{"PASS" if ok else "FAIL"} uverbs_fuzz/{name}' +
              ('' if ok or not why else f' ({why})'))
        rc |= not ok
    result('workers-finished', not hung and len(results) == a.workers,
           f'{len(hung)} hung, {a.workers - len(results) - len(hung)} died')
    for pid, st in hung:
        print(f'    worker {pid} hung; kernel stacks:\n{st}')
    want = a.calls // a.workers * a.workers
    result('calls', calls >= want, f'{calls} of {want}')
    result('errnos', not bad, '; '.join(bad[:5]))
    if crashes:
        print('    fuzzer exceptions: ' + '; '.join(crashes))
    result('fuzzer-ran', not crashes, 'an exception stopped a worker')
    return rc


if __name__ == '__main__':
    sys.exit(main())
