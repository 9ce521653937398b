#!/bin/sh
# ib_uverbs with the kernel's rdma_rxe on our core (Debian's binary on the
# stock kernel, the in-tree build on the test kernel): the character
# device and its sysfs files, discovery through netlink (ibv_devices), the
# write() and ioctl() framing with the target's errnos
# (tools/uverbs_probe.py), contexts through libibverbs (pyverbs) seen by
# "rdma resource", a holder killed with -9, ib_uverbs refusing to unload
# while in use, and "rdma link delete" while a process holds the device:
# it does not wait for the process, whose async file reads
# IB_EVENT_DEVICE_FATAL and whose file then answers EIO.
. /lab/guest-lib.sh
S=uverbs
IB=/sys/class/infiniband
UV=/sys/class/infiniband_verbs
PROBE=/lab/tools/uverbs_probe.py
RXE_DRIVER_ID=14

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }
check() { _c=$1; shift; lab_check "$S/$_c" "$@"; }

# The uverbsN of an RDMA device, on stdout.
uverbs_of() {
	for _u in "$UV"/uverbs*; do
		[ "$(cat "$_u/ibdev" 2>/dev/null)" = "$1" ] && basename "$_u" && return 0
	done
	return 1
}

setup() {
	lab_veth_pair || { fail net/veth "veth pair"; return 1; }
	lab_load ib_core && lab_load ib_uverbs || { fail load "ib_core, ib_uverbs"; return 1; }
	lab_load_intree rdma_rxe || { fail load "modprobe rdma_rxe"; return 1; }
	check link/add rdma link add rxe0 type rxe netdev veth0
}

chardev() {
	[ "$(cat $UV/abi_version)" = 6 ] && pass sysfs/class-abi-version ||
		fail sysfs/class-abi-version "$(cat $UV/abi_version)"
	U=$(uverbs_of rxe0) && pass sysfs/ibdev || { fail sysfs/ibdev "no uverbsN for rxe0"; return 1; }
	[ "$(cat $UV/$U/abi_version)" = 2 ] && pass sysfs/driver-abi ||
		fail sysfs/driver-abi "$(cat $UV/$U/abi_version)"
	_dev=$(cat $UV/$U/dev)
	_node=/dev/infiniband/$U
	if [ -c "$_node" ]; then
		_mm=$(stat -c '%t:%T %a' "$_node")
		_want=$(printf '%x:%x 666' "${_dev%:*}" "${_dev#*:}")
		[ "$_mm" = "$_want" ] && pass node/mode-and-number ||
			fail node/mode-and-number "$_mm, want $_want"
	else
		fail node/exists "$_node"
		return 1
	fi
	check discover/ibv_devices sh -c "ibv_devices | grep -q rxe0"
	return 0
}

framing() {
	python3 $PROBE framing "$U" $RXE_DRIVER_ID
}

# A process holding a context through libibverbs until killed.
holder() {
	python3 -c "
import time
from pyverbs.device import Context
ctx = Context(name='rxe0')
open('/tmp/uv-holder.ready', 'w').close()
time.sleep(600)
" &
	HOLDER=$!
	lab_wait_for 20 test -e /tmp/uv-holder.ready
}

contexts() {
	check pyverbs/open-close python3 -c "
from pyverbs.device import Context
for i in range(20):
    Context(name='rxe0').close()
"
	rm -f /tmp/uv-holder.ready
	holder || { fail pyverbs/holder "no context"; return; }
	rdma res show ctx >/tmp/uv-ctx 2>&1
	sed 's/^/    /' /tmp/uv-ctx
	grep -q "pid $HOLDER .*comm python3" /tmp/uv-ctx && pass restrack/ctx-pid-comm ||
		fail restrack/ctx-pid-comm "no ctx of pid $HOLDER"
	rmmod ib_uverbs 2>/dev/null && fail unload/refused-in-use "ib_uverbs unloaded" ||
		pass unload/refused-in-use
	kill -9 $HOLDER
	wait $HOLDER 2>/dev/null
	lab_wait_for 10 sh -c "! rdma res show ctx | grep -q 'pid $HOLDER '" &&
		pass kill9/ctx-gone || fail kill9/ctx-gone "$(rdma res show ctx)"
}

# rdma link delete while a process holds the file and reads its events.
disassociate() {
	rm -f /tmp/uv.ready /tmp/uv.go
	python3 $PROBE hold "$U" /tmp/uv.ready /tmp/uv.go >/tmp/uv-hold.out 2>&1 &
	_p=$!
	lab_wait_for 20 test -e /tmp/uv.ready || { fail gone/hold "probe not ready"; return; }
	ibv_asyncwatch -d rxe0 >/tmp/uv-watch.out 2>&1 &
	_w=$!
	sleep 2
	_t0=$(date +%s)
	check gone/link-delete timeout 60 rdma link delete rxe0
	_t=$(( $(date +%s) - _t0 ))
	[ $_t -lt 30 ] && pass gone/no-wait-for-userspace || fail gone/no-wait-for-userspace "${_t}s"
	[ ! -e "$IB/rxe0" ] && [ ! -e "$UV/$U" ] && pass gone/devices-gone ||
		fail gone/devices-gone "rxe0 or $U still there"
	touch /tmp/uv.go
	wait $_p
	cat /tmp/uv-hold.out
	sleep 1
	kill $_w 2>/dev/null
	wait $_w 2>/dev/null
	sed 's/^/    /' /tmp/uv-watch.out
	grep -q 'IBV_EVENT_DEVICE_FATAL\|device fatal\|(8)' /tmp/uv-watch.out &&
		pass gone/asyncwatch-fatal || fail gone/asyncwatch-fatal "no DEVICE_FATAL"
}

teardown() {
	[ -n "$HOLDER" ] && kill -9 $HOLDER 2>/dev/null
	rdma link delete rxe0 2>/dev/null
	lab_wait_for 30 test ! -e "$IB/rxe0" || fail teardown/rxe0 "still there"
	lab_veth_pair_del
	if lab_unload rdma_rxe ib_uverbs ib_core; then
		pass unload
	else
		fail unload "$(lab_rdma_left)"
	fi
}

if setup && chardev; then
	framing
	contexts
	disassociate
fi
teardown
