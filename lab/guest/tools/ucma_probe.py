#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ucma_probe: raw write() commands on /dev/infiniband/rdma_cm.

Malformed commands (short writes, unknown command numbers, wrong input
and output lengths, unknown IDs, another file's ID, bad address families,
bad options), each checked against the errno the target kernel's
rdma_ucm answers; and a few well-formed ones (create, migrate, destroy,
bind, resolve, events).  One PASS/FAIL line per check, named
rdmacm/probe/<check>.

  ucma_probe.py LOCAL_IPV4 PEER_IPV4
"""
import ctypes
import errno
import os
import select
import socket
import struct
import sys

DEV = "/dev/infiniband/rdma_cm"

CREATE_ID, DESTROY_ID, BIND_IP, RESOLVE_IP, RESOLVE_ROUTE, QUERY_ROUTE, \
    CONNECT, LISTEN, ACCEPT, REJECT, DISCONNECT, INIT_QP_ATTR, GET_EVENT, \
    GET_OPTION, SET_OPTION, NOTIFY, JOIN_IP_MCAST, LEAVE_MCAST, MIGRATE_ID, \
    QUERY, BIND, RESOLVE_ADDR, JOIN_MCAST = range(23)

PS_TCP, PS_UDP = 0x106, 0x111
EV_ADDR_RESOLVED = 0
EVENT_RESP = 336        # sizeof(struct rdma_ucm_event_resp)
QUERY_ROUTE_RESP = 208  # sizeof(struct rdma_ucm_query_route_resp)
QP_ATTR = 144           # sizeof(struct ib_uverbs_qp_attr)

failures = 0


def result(name, ok, why=""):
    global failures
    if ok:
        print(f"PASS rdmacm/probe/{name}")
    else:
        failures += 1
        print(f"FAIL rdmacm/probe/{name} ({why})")


class Buf:
    """User memory for a response."""

    def __init__(self, size):
        self.b = ctypes.create_string_buffer(size)

    @property
    def addr(self):
        return ctypes.addressof(self.b)

    def u32(self, off=0):
        return struct.unpack_from("<I", self.b.raw, off)[0]


def send(fd, cmd, body, in_len=None, out_len=0, total=None):
    """write() header and body; the errno, or 0 and the length written."""
    if in_len is None:
        in_len = len(body)
    data = struct.pack("<IHH", cmd, in_len, out_len) + body
    if total is not None:
        data = data[:total]
    try:
        n = os.write(fd, data)
    except OSError as e:
        return e.errno
    return 0 if n == len(data) else -n


def expect(name, got, want):
    result(name, got == want,
           f"errno {errno.errorcode.get(got, got)}, want "
           f"{errno.errorcode.get(want, want)}")


def sin6(addr=None, port=0, family=socket.AF_INET6):
    """A sockaddr_in6-sized field: IPv4 (sockaddr_in) or IPv6 or other."""
    if family == socket.AF_INET:
        raw = struct.pack("<H", family) + struct.pack(">H", port) + \
            socket.inet_aton(addr)
    elif family == socket.AF_INET6:
        raw = struct.pack("<H", family) + struct.pack(">HI", port, 0) + \
            socket.inet_pton(socket.AF_INET6, addr or "::") + b"\0" * 4
    else:
        raw = struct.pack("<H", family)
    return raw.ljust(28, b"\0")


def create_id(fd, ps=PS_TCP, uid=1):
    r = Buf(4)
    st = send(fd, CREATE_ID, struct.pack("<QQHB5x", uid, r.addr, ps, 0),
              out_len=4)
    return st, r.u32()


def destroy_id(fd, cid):
    r = Buf(4)
    st = send(fd, DESTROY_ID, struct.pack("<QII", r.addr, cid, 0), out_len=4)
    return st, r.u32()


def framing(fd):
    try:
        os.write(fd, b"\0" * 4)
        st = 0
    except OSError as e:
        st = e.errno
    expect("short-write", st, errno.EINVAL)
    expect("unknown-command", send(fd, 99, b"\0" * 8), errno.EINVAL)
    expect("unknown-command-huge", send(fd, 0xffffffff, b"\0" * 8),
           errno.EINVAL)
    expect("get-option-not-implemented", send(fd, GET_OPTION, b"\0" * 8),
           errno.ENOSYS)
    expect("in-longer-than-write",
           send(fd, CREATE_ID, b"\0" * 24, in_len=200, out_len=4),
           errno.EINVAL)
    expect("in-longer-than-write-truncated",
           send(fd, CREATE_ID, b"\0" * 24, total=20), errno.EINVAL)


def create_destroy(fd, fd2):
    r = Buf(4)
    expect("create/out-too-small",
           send(fd, CREATE_ID, struct.pack("<QQHB5x", 1, r.addr, PS_TCP, 0),
                out_len=3), errno.ENOSPC)
    expect("create/bad-port-space",
           send(fd, CREATE_ID, struct.pack("<QQHB5x", 1, r.addr, 0x999, 0),
                out_len=4), errno.EINVAL)
    expect("create/bad-response-pointer",
           send(fd, CREATE_ID, struct.pack("<QQHB5x", 1, 8, PS_TCP, 0),
                out_len=4), errno.EFAULT)
    st, cid = create_id(fd)
    expect("create/tcp", st, 0)
    st, uid = create_id(fd, PS_UDP)
    expect("create/udp", st, 0)
    expect("destroy/out-too-small",
           send(fd, DESTROY_ID, struct.pack("<QII", r.addr, cid, 0),
                out_len=0), errno.ENOSPC)
    expect("destroy/unknown-id", destroy_id(fd, 0xfffffff0)[0], errno.ENOENT)
    expect("destroy/other-files-id", destroy_id(fd2, cid)[0], errno.EINVAL)
    st, reported = destroy_id(fd, cid)
    expect("destroy/own", st, 0)
    result("destroy/events-reported-0", reported == 0, f"{reported}")
    expect("destroy/twice", destroy_id(fd, cid)[0], errno.ENOENT)
    expect("destroy/udp", destroy_id(fd, uid)[0], 0)


def addresses(fd, local, peer):
    st, cid = create_id(fd)
    r = Buf(QUERY_ROUTE_RESP)
    expect("bind-ip/af-unix",
           send(fd, BIND_IP, struct.pack("<Q", 0) + sin6(family=1) +
                struct.pack("<I", cid)), errno.EINVAL)
    expect("bind-ip/unknown-id",
           send(fd, BIND_IP, struct.pack("<Q", 0) +
                sin6(local, family=socket.AF_INET) +
                struct.pack("<I", 0xfffffff0)), errno.ENOENT)
    kss = sin6(local, family=socket.AF_INET).ljust(128, b"\0")
    expect("bind/wrong-size",
           send(fd, BIND, struct.pack("<IHH", cid, 28, 0) + kss), errno.EINVAL)
    expect("bind/reserved-set",
           send(fd, BIND, struct.pack("<IHH", cid, 16, 1) + kss), errno.EINVAL)
    expect("bind/af-unspec",
           send(fd, BIND, struct.pack("<IHH", cid, 16, 0) +
                b"\0" * 128), errno.EINVAL)
    expect("resolve-ip/dst-family-0",
           send(fd, RESOLVE_IP, sin6(local, family=socket.AF_INET) +
                b"\0" * 28 + struct.pack("<II", cid, 1000)), errno.EINVAL)
    expect("resolve-ip/src-af-unix",
           send(fd, RESOLVE_IP, sin6(family=1) +
                sin6(peer, family=socket.AF_INET) +
                struct.pack("<II", cid, 1000)), errno.EINVAL)
    expect("resolve-addr/dst-size-0",
           send(fd, RESOLVE_ADDR, struct.pack("<IIHHI", cid, 1000, 0, 0, 0) +
                b"\0" * 256), errno.EINVAL)
    # Not bound to a device yet
    expect("resolve-route/unbound",
           send(fd, RESOLVE_ROUTE, struct.pack("<II", cid, 1000)),
           errno.EINVAL)
    expect("connect/in-too-short",
           send(fd, CONNECT, b"\0" * 8), errno.EINVAL)
    conn = struct.pack("<II256sBBBBBBBB", 0, 0, b"", 0, 0, 1, 1, 0, 7, 7, 1)
    expect("connect/unbound",
           send(fd, CONNECT, conn + struct.pack("<II", cid, 0)), errno.EINVAL)
    expect("connect/not-valid",
           send(fd, CONNECT, conn[:-1] + b"\0" + struct.pack("<II", cid, 0)),
           errno.EINVAL)
    expect("init-qp-attr/bad-state",
           send(fd, INIT_QP_ATTR, struct.pack("<QII", r.addr, cid, 9),
                out_len=QP_ATTR), errno.EINVAL)
    expect("init-qp-attr/out-too-small",
           send(fd, INIT_QP_ATTR, struct.pack("<QII", r.addr, cid, 1),
                out_len=16), errno.ENOSPC)
    expect("notify/unbound",
           send(fd, NOTIFY, struct.pack("<II", cid, 9)), errno.EINVAL)
    expect("reject/bad-reason",
           send(fd, REJECT, struct.pack("<IBB2x256s", cid, 0, 5, b"")),
           errno.EINVAL)
    expect("query-route/out-too-small",
           send(fd, QUERY_ROUTE, struct.pack("<QII", r.addr, cid, 0),
                out_len=8), errno.ENOSPC)
    expect("query/unknown-option",
           send(fd, QUERY, struct.pack("<QII", r.addr, cid, 7),
                out_len=QUERY_ROUTE_RESP), errno.ENOSYS)
    expect("query/addr-out-too-small",
           send(fd, QUERY, struct.pack("<QII", r.addr, cid, 0), out_len=8),
           errno.ENOSPC)
    expect("query/unknown-id",
           send(fd, QUERY, struct.pack("<QII", r.addr, 0xfffffff0, 0),
                out_len=QUERY_ROUTE_RESP), errno.ENOENT)
    # A real bind and address resolution, and its event
    expect("bind-ip/local",
           send(fd, BIND_IP, struct.pack("<Q", 0) +
                sin6(local, family=socket.AF_INET) + struct.pack("<I", cid)),
           0)
    expect("query-route/bound",
           send(fd, QUERY_ROUTE, struct.pack("<QII", r.addr, cid, 0),
                out_len=QUERY_ROUTE_RESP), 0)
    expect("resolve-ip/peer",
           send(fd, RESOLVE_IP, sin6(local, family=socket.AF_INET) +
                sin6(peer, family=socket.AF_INET) +
                struct.pack("<II", cid, 2000)), 0)
    ready, _, _ = select.select([fd], [], [], 30)
    result("get-event/poll", bool(ready), "no event in 30 s")
    ev = Buf(EVENT_RESP)
    expect("get-event/out-too-small",
           send(fd, GET_EVENT, struct.pack("<Q", ev.addr), out_len=323),
           errno.ENOSPC)
    expect("get-event/addr-resolved",
           send(fd, GET_EVENT, struct.pack("<Q", ev.addr), out_len=EVENT_RESP),
           0)
    uid, eid, event, status = struct.unpack_from("<QIII", ev.b.raw)
    result("get-event/addr-resolved-fields",
           uid == 1 and eid == cid and event == EV_ADDR_RESOLVED and
           status == 0, f"uid {uid} id {eid}/{cid} event {event} "
           f"status {status}")
    expect("get-event/empty-nonblocking",
           send(fd, GET_EVENT, struct.pack("<Q", ev.addr),
                out_len=EVENT_RESP), errno.EAGAIN)
    # Options
    opt = Buf(8)
    expect("set-option/tos-wrong-size",
           send(fd, SET_OPTION, struct.pack("<QIIII", opt.addr, cid, 0, 0, 4)),
           errno.EINVAL)
    expect("set-option/tos",
           send(fd, SET_OPTION, struct.pack("<QIIII", opt.addr, cid, 0, 0, 1)),
           0)
    expect("set-option/unknown-level",
           send(fd, SET_OPTION, struct.pack("<QIIII", opt.addr, cid, 5, 0, 1)),
           errno.ENOSYS)
    expect("set-option/unknown-name",
           send(fd, SET_OPTION, struct.pack("<QIIII", opt.addr, cid, 0, 77, 1)),
           errno.ENOSYS)
    expect("set-option/bad-pointer",
           send(fd, SET_OPTION, struct.pack("<QIIII", 8, cid, 0, 0, 1)),
           errno.EFAULT)
    expect("set-option/ib-path-wrong-size",
           send(fd, SET_OPTION, struct.pack("<QIIII", opt.addr, cid, 1, 1, 8)),
           errno.EINVAL)
    expect("set-option/huge",
           send(fd, SET_OPTION,
                struct.pack("<QIIII", opt.addr, cid, 0, 0, 0xffffffff)),
           errno.EINVAL)
    # Multicast
    mc = Buf(4)
    expect("join-mcast/bad-flags",
           send(fd, JOIN_MCAST, struct.pack("<QQIHH", mc.addr, 2, cid, 16, 7) +
                sin6("239.1.2.3", family=socket.AF_INET).ljust(128, b"\0"),
                out_len=4), errno.EINVAL)
    expect("join-mcast/size-mismatch",
           send(fd, JOIN_MCAST, struct.pack("<QQIHH", mc.addr, 2, cid, 28, 0) +
                sin6("239.1.2.3", family=socket.AF_INET).ljust(128, b"\0"),
                out_len=4), errno.EINVAL)
    expect("join-ip-mcast/af-unix",
           send(fd, JOIN_IP_MCAST, struct.pack("<QQ", mc.addr, 2) +
                sin6(family=1) + struct.pack("<I", cid), out_len=4),
           errno.EINVAL)
    expect("leave-mcast/unknown",
           send(fd, LEAVE_MCAST, struct.pack("<QII", mc.addr, 0xfffffff0, 0),
                out_len=4), errno.ENOENT)
    st, reported = destroy_id(fd, cid)
    expect("destroy/resolved", st, 0)
    result("destroy/events-reported-1", reported == 1, f"{reported}")


def migrate(fd, fd2):
    r = Buf(4)
    st, cid = create_id(fd)
    nul = os.open("/dev/null", os.O_RDWR)
    expect("migrate/not-rdma-cm-fd",
           send(fd2, MIGRATE_ID, struct.pack("<QII", r.addr, cid, nul)),
           errno.EINVAL)
    os.close(nul)
    expect("migrate/closed-fd",
           send(fd2, MIGRATE_ID, struct.pack("<QII", r.addr, cid, 1000)),
           errno.ENOENT)
    expect("migrate/unknown-id",
           send(fd2, MIGRATE_ID, struct.pack("<QII", r.addr, 0xfffffff0, fd)),
           errno.ENOENT)
    expect("migrate/wrong-file",
           send(fd2, MIGRATE_ID, struct.pack("<QII", r.addr, cid, fd2)),
           errno.EINVAL)
    expect("migrate/ok",
           send(fd2, MIGRATE_ID, struct.pack("<QII", r.addr, cid, fd)), 0)
    expect("migrate/old-file-loses-it", destroy_id(fd, cid)[0], errno.EINVAL)
    expect("migrate/new-file-destroys", destroy_id(fd2, cid)[0], 0)


def main():
    local, peer = sys.argv[1], sys.argv[2]
    fd = os.open(DEV, os.O_RDWR | os.O_NONBLOCK)
    fd2 = os.open(DEV, os.O_RDWR)
    framing(fd)
    create_destroy(fd, fd2)
    addresses(fd, local, peer)
    migrate(fd, fd2)
    # IDs left open are destroyed with their files
    create_id(fd)
    create_id(fd2, PS_UDP)
    os.close(fd)
    os.close(fd2)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
