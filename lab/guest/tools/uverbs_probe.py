#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""uverbs_probe: raw write() and ioctl() requests on /dev/infiniband/uverbsN.

What libibverbs would send, and what it must never send, with the errno
the target kernel answers; one PASS/FAIL line per check, named
uverbs/<check>.

  uverbs_probe.py framing DEV DRIVER_ID   write() and ioctl() framing errors,
                                          GET_CONTEXT both ways, async fd
  uverbs_probe.py hold DEV READY GO       open and GET_CONTEXT, touch READY,
                                          wait for GO (the device is gone
                                          meanwhile), then check what the
                                          file still answers
  uverbs_probe.py race DEV DRIVER_ID READY SECONDS
                                          open, GET_CONTEXT and
                                          CREATE_COMP_CHANNEL, touch READY,
                                          then for SECONDS send QP_CREATE
                                          naming only the async event FD
                                          and CQ_CREATE naming only the
                                          completion channel (looked up
                                          first) while the device goes;
                                          every answer must be EINVAL
                                          (device there, mandatory
                                          attributes missing) or EIO (gone)
"""
import ctypes
import errno
import fcntl
import os
import select
import struct
import sys
import time

RDMA_VERBS_IOCTL = 0xc0181b01
CMD_GET_CONTEXT = 0
CMD_QUERY_DEVICE = 1
CMD_CREATE_COMP_CHANNEL = 17
CMD_DESTROY_CQ = 20
CMD_FLAG_EXTENDED = 0x80000000
OBJ_DEVICE = 0
OBJ_ASYNC_EVENT = 16
METHOD_INVOKE_WRITE = 0
METHOD_GET_CONTEXT = 3
METHOD_ASYNC_EVENT_ALLOC = 0
ATTR_CORE_IN, ATTR_CORE_OUT, ATTR_WRITE_CMD = 0, 1, 2
ATTR_GET_CONTEXT_NUM_COMP_VECTORS = 0
OBJ_CQ = 3
METHOD_CQ_CREATE = 0
ATTR_CREATE_CQ_COMP_CHANNEL = 3
OBJ_QP = 4
METHOD_QP_CREATE = 0
ATTR_CREATE_QP_EVENT_FD = 12
ATTR_F_MANDATORY = 1
ATTR_F_VALID_OUTPUT = 2
EVENT_DEVICE_FATAL = 8

failed = 0


def result(name, ok, why=''):
    global failed
    if ok:
        print(f'PASS uverbs/{name}')
    else:
        failed += 1
        print(f'FAIL uverbs/{name}' + (f' ({why})' if why else ''))
    sys.stdout.flush()


def errno_of(fn):
    """0 if fn() succeeds, else its errno."""
    try:
        fn()
        return 0
    except OSError as e:
        return e.errno


def expect_errno(name, want, fn):
    got = errno_of(fn)
    result(name, got == want,
           f'errno {errno.errorcode.get(got, got)}, '
           f'want {errno.errorcode.get(want, want)}')


class Buf:
    """User memory the kernel writes to; its address goes in requests."""

    def __init__(self, size):
        self.raw = ctypes.create_string_buffer(size)

    @property
    def addr(self):
        return ctypes.addressof(self.raw)

    def u32(self, off=0):
        return struct.unpack_from('<I', self.raw.raw, off)[0]


def hdr(command, in_words, out_words):
    return struct.pack('<IHH', command, in_words, out_words)


def get_context_write(fd, resp=None, in_words=4, out_words=2):
    """write() GET_CONTEXT; the response's async_fd and vectors."""
    resp = resp or Buf(8)
    os.write(fd, hdr(CMD_GET_CONTEXT, in_words, out_words) +
             struct.pack('<Q', resp.addr))
    return resp.u32(0), resp.u32(4)


def comp_channel_write(fd):
    """write() CREATE_COMP_CHANNEL; the channel's descriptor."""
    resp = Buf(4)
    os.write(fd, hdr(CMD_CREATE_COMP_CHANNEL, 4, 1) +
             struct.pack('<Q', resp.addr))
    return resp.u32(0)


def attr(attr_id, data=0, length=0, flags=ATTR_F_MANDATORY, attr_data=0):
    return struct.pack('<HHHHQ', attr_id, length, flags, attr_data,
                       data & 0xffffffffffffffff)


class Ioctl:
    def __init__(self, obj, method, attrs, driver_id, length=None,
                 reserved1=0, reserved2=0):
        body = b''.join(attrs)
        length = 24 + len(body) if length is None else length
        self.buf = bytearray(struct.pack('<HHHHQII', length, obj, method,
                                         len(attrs), reserved1, driver_id,
                                         reserved2) + body)

    def run(self, fd, cmd=RDMA_VERBS_IOCTL):
        return fcntl.ioctl(fd, cmd, self.buf, True)

    def attr(self, i):
        return struct.unpack_from('<HHHHQ', self.buf, 24 + 16 * i)


def dev_open(dev):
    return os.open(f'/dev/infiniband/{dev}', os.O_RDWR | os.O_CLOEXEC)


def write_framing(dev):
    fd = dev_open(dev)
    expect_errno('write/short-header', errno.EINVAL,
                 lambda: os.write(fd, b'\0' * 4))
    expect_errno('write/bad-command-bits', errno.EINVAL,
                 lambda: os.write(fd, hdr(0x40000000, 2, 0)))
    expect_errno('write/command-out-of-range', errno.EOPNOTSUPP,
                 lambda: os.write(fd, hdr(63, 2, 0)))
    expect_errno('write/ex-out-of-range', errno.EOPNOTSUPP,
                 lambda: os.write(fd, hdr(CMD_FLAG_EXTENDED | 63, 2, 0)))
    expect_errno('write/in-words-not-count', errno.EINVAL,
                 lambda: os.write(fd, hdr(CMD_GET_CONTEXT, 5, 2) +
                                  b'\0' * 8))
    expect_errno('write/request-short', errno.ENOSPC,
                 lambda: os.write(fd, hdr(CMD_GET_CONTEXT, 2, 2)))
    expect_errno('write/response-short', errno.ENOSPC,
                 lambda: get_context_write(fd, out_words=1))
    expect_errno('write/response-fault', errno.EFAULT,
                 lambda: os.write(fd, hdr(CMD_GET_CONTEXT, 4, 2) +
                                  struct.pack('<Q', 8)))
    expect_errno('write/empty', errno.EINVAL, lambda: os.write(fd, b''))
    resp = Buf(8)
    try:
        afd, vectors = get_context_write(fd, resp)
        ok = afd > 2 and vectors >= 1
        result('write/get-context', ok, f'async_fd {afd}, vectors {vectors}')
    except OSError as e:
        result('write/get-context', False, os.strerror(e.errno))
        os.close(fd)
        return
    expect_errno('write/second-get-context', errno.EINVAL,
                 lambda: get_context_write(fd))
    async_file(afd)
    os.close(afd)
    os.close(fd)


def async_file(afd):
    flags = fcntl.fcntl(afd, fcntl.F_GETFD)
    result('async/cloexec', flags & fcntl.FD_CLOEXEC)
    os.set_blocking(afd, False)
    expect_errno('async/read-nonblocking-empty', errno.EAGAIN,
                 lambda: os.read(afd, 16))
    expect_errno('async/write-refused', errno.EBADF,
                 lambda: os.write(afd, b'\0' * 16))
    p = select.poll()
    p.register(afd, select.POLLIN)
    result('async/poll-empty', p.poll(0) == [])


def ioctl_framing(dev, driver_id):
    fd = dev_open(dev)
    probe = [attr(ATTR_WRITE_CMD, CMD_QUERY_DEVICE, 8)]
    expect_errno('ioctl/other-cmd', errno.ENOTTY,
                 lambda: Ioctl(0, 0, probe, driver_id).run(fd, 0xc0181b02))
    expect_errno('ioctl/length-mismatch', errno.EINVAL,
                 lambda: Ioctl(0, 0, probe, driver_id, length=48).run(fd))
    expect_errno('ioctl/reserved1', errno.EPROTONOSUPPORT,
                 lambda: Ioctl(0, 0, probe, driver_id, reserved1=1).run(fd))
    expect_errno('ioctl/reserved2', errno.EPROTONOSUPPORT,
                 lambda: Ioctl(0, 0, probe, driver_id, reserved2=1).run(fd))
    expect_errno('ioctl/other-driver', errno.EINVAL,
                 lambda: Ioctl(0, 0, probe, driver_id + 1).run(fd))
    expect_errno('ioctl/unknown-object', errno.EPROTONOSUPPORT,
                 lambda: Ioctl(0x0fff, 0, [], driver_id).run(fd))
    expect_errno('ioctl/unknown-method', errno.EPROTONOSUPPORT,
                 lambda: Ioctl(OBJ_DEVICE, 0x0fff, [], driver_id).run(fd))
    expect_errno('ioctl/unknown-mandatory-attr', errno.EPROTONOSUPPORT,
                 lambda: Ioctl(0, 0, probe + [attr(0x0999)],
                               driver_id).run(fd))
    expect_errno('ioctl/missing-mandatory-attr', errno.EINVAL,
                 lambda: Ioctl(0, 0, [], driver_id).run(fd))
    expect_errno('ioctl/duplicate-attr', errno.EINVAL,
                 lambda: Ioctl(0, 0, probe + probe, driver_id).run(fd))
    expect_errno('ioctl/attr-reserved', errno.EINVAL,
                 lambda: Ioctl(0, 0, [attr(ATTR_WRITE_CMD, 1, 8,
                                           attr_data=1)],
                               driver_id).run(fd))
    expect_errno('ioctl/attr-too-long', errno.EINVAL,
                 lambda: Ioctl(0, 0, [attr(ATTR_WRITE_CMD, 1, 16)],
                               driver_id).run(fd))
    # The probe libibverbs sends: any answer but ENOTTY/EPROTONOSUPPORT
    # means "use ioctl()"; QUERY_DEVICE is not the framework's.
    unknown = [attr(ATTR_WRITE_CMD, 63, 8), attr(0x0999, flags=0)]
    expect_errno('ioctl/invoke-write-unknown', errno.EOPNOTSUPP,
                 lambda: Ioctl(0, 0, unknown, driver_id).run(fd))
    ioctl_get_context(fd, driver_id)
    os.close(fd)


def ioctl_get_context(fd, driver_id):
    out = Buf(4)
    req = Ioctl(OBJ_DEVICE, METHOD_GET_CONTEXT,
                [attr(ATTR_GET_CONTEXT_NUM_COMP_VECTORS, out.addr, 4,
                      flags=0)], driver_id)
    try:
        req.run(fd)
        flags = req.attr(0)[2]
        result('ioctl/get-context', out.u32() >= 1 and
               flags & ATTR_F_VALID_OUTPUT, f'vectors {out.u32()}')
    except OSError as e:
        result('ioctl/get-context', False, os.strerror(e.errno))
        return
    expect_errno('ioctl/second-get-context', errno.EINVAL,
                 lambda: Ioctl(OBJ_DEVICE, METHOD_GET_CONTEXT, [],
                               driver_id).run(fd))
    alloc = Ioctl(OBJ_ASYNC_EVENT, METHOD_ASYNC_EVENT_ALLOC, [attr(0)],
                  driver_id)
    try:
        alloc.run(fd)
        afd = alloc.attr(0)[4]
        result('ioctl/async-event-alloc', os.fstat(afd) is not None)
        os.close(afd)
    except OSError as e:
        result('ioctl/async-event-alloc', False, os.strerror(e.errno))


def hold(dev, ready, go):
    fd = dev_open(dev)
    afd, _ = get_context_write(fd)
    with open(ready, 'w'):
        pass
    while not os.path.exists(go):
        time.sleep(0.1)
    # The device is gone: the async file tells, the file answers EIO.
    p = select.poll()
    p.register(afd, select.POLLIN)
    result('gone/async-pollin', p.poll(5000) != [])
    ev = os.read(afd, 16)
    element, event = struct.unpack_from('<QI', ev)
    result('gone/device-fatal', event == EVENT_DEVICE_FATAL,
           f'event {event}')
    os.set_blocking(afd, False)
    expect_errno('gone/async-then-empty', errno.EAGAIN,
                 lambda: os.read(afd, 16))
    expect_errno('gone/write-eio', errno.EIO,
                 lambda: get_context_write(fd))
    expect_errno('gone/mmap-eio', errno.EIO,
                 lambda: __import__('mmap').mmap(fd, 4096))
    os.close(afd)
    os.close(fd)


def race(dev, driver_id, ready, seconds):
    """FD attributes (the async event file, a completion channel) looked
    up while the device's files are torn down (issue 18: the lookup's put
    used a cleared file pointer)."""
    fd = dev_open(dev)
    afd, _ = get_context_write(fd)
    cfd = comp_channel_write(fd)
    reqs = {'event-fd': Ioctl(OBJ_QP, METHOD_QP_CREATE,
                              [attr(ATTR_CREATE_QP_EVENT_FD, afd)],
                              driver_id),
            'comp-channel': Ioctl(OBJ_CQ, METHOD_CQ_CREATE,
                                  [attr(ATTR_CREATE_CQ_COMP_CHANNEL, cfd)],
                                  driver_id)}
    with open(ready, 'w'):
        pass
    seen = {name: {} for name in reqs}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for name, req in reqs.items():
            e = errno_of(lambda: req.run(fd))
            seen[name][e] = seen[name].get(e, 0) + 1
    for name, got in seen.items():
        other = {errno.errorcode.get(k, k): v for k, v in got.items()
                 if k not in (errno.EINVAL, errno.EIO)}
        counts = (f'EINVAL {got.get(errno.EINVAL, 0)}, '
                  f'EIO {got.get(errno.EIO, 0)}')
        result(f'race/{name}/errnos', not other,
               f'unexpected {other}; {counts}')
        print(f'    race {name}: {counts}')
        result(f'race/{name}/saw-eio', got.get(errno.EIO, 0) > 0,
               'the device never went during the run')
    os.close(cfd)
    os.close(afd)
    os.close(fd)


def main():
    if sys.argv[1] == 'race':
        race(sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5]))
    elif sys.argv[1] == 'framing':
        write_framing(sys.argv[2])
        ioctl_framing(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == 'hold':
        hold(*sys.argv[2:5])
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
