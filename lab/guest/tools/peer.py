#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The remote hand of the interop pair (lab/host/pair.sh).

The peer VM (Debian's stock kernel with its whole in-tree RDMA stack) runs
"peer.py serve ADDR"; the VM with our stack drives it over the virtual wire
with the client commands, one shell command at a time:

    peer.py serve ADDR              listen on ADDR:7000 until "quit"
    peer.py hello SECONDS           wait until the peer answers
    peer.py run SECONDS CMD         run CMD (sh -c) there; its output here,
                                    its exit status ours (124 on timeout)
    peer.py start NAME CMD          start CMD there in the background
    peer.py wait NAME SECONDS       wait for NAME to end; output and status
                                    as "run" (124 if still running: killed)
    peer.py stop NAME               kill NAME (its process group); output
                                    and status as "wait"
    peer.py quit                    the peer ends its plan (and powers off)

The peer address is $LAB_PEER (default 10.77.0.1).  One request per TCP
connection: a JSON line in, a JSON line out.  This is test plumbing on a
link between two throwaway VMs, nothing else can reach it.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time

PORT = 7000


def reply(conn, rc, out=""):
    conn.sendall((json.dumps({"rc": rc, "out": out}) + "\n").encode())


def collect(proc, seconds):
    """Wait up to SECONDS for PROC; kill its group after. (rc, output)"""
    try:
        out, _ = proc.communicate(timeout=seconds)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return 124, out


def spawn(cmd):
    return subprocess.Popen(["sh", "-c", cmd], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)


def serve(addr):
    jobs = {}
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind((addr, PORT))
    lsock.listen(4)
    while True:
        conn, _ = lsock.accept()
        with conn:
            req = json.loads(conn.makefile().readline())
            op = req["op"]
            if op == "hello":
                reply(conn, 0, os.uname().release)
            elif op == "run":
                reply(conn, *collect(spawn(req["cmd"]), req["secs"]))
            elif op == "start":
                jobs[req["name"]] = spawn(req["cmd"])
                reply(conn, 0)
            elif op in ("wait", "stop"):
                proc = jobs.pop(req["name"], None)
                if proc is None:
                    reply(conn, 127, "no job %s\n" % req["name"])
                    continue
                if op == "stop":
                    os.killpg(proc.pid, signal.SIGTERM)
                reply(conn, *collect(proc, req.get("secs", 10)))
            elif op == "quit":
                for proc in jobs.values():
                    os.killpg(proc.pid, signal.SIGKILL)
                reply(conn, 0)
                return 0


def call(req, wait):
    """Send REQ to the peer; its (rc, out). Connects until WAIT s pass."""
    peer = os.environ.get("LAB_PEER", "10.77.0.1")
    end = time.monotonic() + wait
    while True:
        try:
            sock = socket.create_connection((peer, PORT), timeout=5)
            break
        except OSError:
            if time.monotonic() >= end:
                return 125, "peer %s:%d does not answer\n" % (peer, PORT)
            time.sleep(1)
    with sock:
        # the peer answers within the request's own limit, plus the
        # time to kill what overran it
        sock.settimeout(req.get("secs", 10) + 60)
        sock.sendall((json.dumps(req) + "\n").encode())
        try:
            line = sock.makefile().readline()
        except OSError:
            line = ""
    if not line:
        return 125, "the peer closed the connection\n"
    ans = json.loads(line)
    return ans["rc"], ans["out"]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    op, args = argv[1], argv[2:]
    if op == "serve":
        return serve(args[0])
    if op == "hello":
        rc, out = call({"op": "hello"}, float(args[0]))
    elif op == "run":
        rc, out = call({"op": "run", "secs": float(args[0]),
                        "cmd": " ".join(args[1:])}, 30)
    elif op == "start":
        rc, out = call({"op": "start", "name": args[0],
                        "cmd": " ".join(args[1:])}, 30)
    elif op == "wait":
        rc, out = call({"op": "wait", "name": args[0],
                        "secs": float(args[1])}, 30)
    elif op == "stop":
        rc, out = call({"op": "stop", "name": args[0]}, 30)
    elif op == "quit":
        rc, out = call({"op": "quit"}, 30)
    else:
        print("peer.py: unknown command %s" % op, file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
