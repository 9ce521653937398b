#!/bin/sh
# ib_umad and the MAD layer with the kernel's rdma_rxe (Debian's binary on
# the stock kernel, the in-tree build on the test kernel) on our ib_core,
# rxe0 and rxe1 on the ends of a veth pair: the umadN and issmN devices,
# their sysfs files and numbers, infiniband-diags' ibstat, issmN setting
# IsSM in the port's capability mask, and tools/umad_tool.py: the
# ioctl()/read()/write() errnos, requests from rxe0 answered by an agent
# on rxe1 (and one timing out), kernel RMPP both ways, malformed MADs and
# CM messages from userspace dropped and counted by rxe1's MAD layer
# (/sys/kernel/debug/ib_core/mad/rxe1-1/counters), random calls, a holder
# killed with -9 and "rdma link delete" under an open file.  Before the
# MAD traffic, the same from the wire (tools/roce_craft.py, umad/wire/*):
# RoCE v2 packets no real sender makes, sent from rxe0's address to
# rxe1's over the veth pair by a plain UDP socket, each row moving its
# counter of rxe1's MAD layer, CM messages for no connection reaching
# ib_cm, a wrong ICRC dropped by rxe before our core; the kernel log stays
# clean (umad/wire/kernel-log).  Afterwards everything unloads.
. /lab/guest-lib.sh
S=umad
MADC=/sys/class/infiniband_mad
IB=/sys/class/infiniband
TOOL=/lab/tools/umad_tool.py
T=/tmp/umad

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }
check() { _c=$1; shift; lab_check "$S/$_c" "$@"; }

# The umadN of DEV's port 1, on stdout.
umad_of() {
	for _u in "$MADC"/umad*; do
		[ "$(cat "$_u/ibdev" 2>/dev/null)" = "$1" ] &&
			[ "$(cat "$_u/port" 2>/dev/null)" = 1 ] &&
			basename "$_u" && return 0
	done
	return 1
}

setup() {
	mkdir -p $T
	lab_veth_pair || { fail setup/veth "veth pair"; return 1; }
	lab_load ib_core || { fail setup/ib_core "not ours"; return 1; }
	lab_load_intree rdma_rxe || { fail setup/rdma_rxe "modprobe rdma_rxe"; return 1; }
	lab_load ib_umad || { fail setup/ib_umad "not ours"; return 1; }
	rdma link add rxe0 type rxe netdev veth0 &&
		rdma link add rxe1 type rxe netdev veth1 ||
		{ fail setup/link-add "rdma link add"; return 1; }
	lab_wait_for 10 lab_gid_of rxe0 10.11.0.1 &&
		lab_wait_for 10 lab_gid_of rxe1 10.11.0.2 ||
		{ fail setup/gids "no RoCE v2 GIDs"; return 1; }
	pass setup
}

# The devices: numbers, names, sysfs, the class's ABI version.
devices() {
	[ "$(cat $MADC/abi_version 2>/dev/null)" = 5 ] && pass sysfs/abi-version ||
		fail sysfs/abi-version "$(cat $MADC/abi_version 2>&1)"
	U0=$(umad_of rxe0) && U1=$(umad_of rxe1) && pass sysfs/umad-per-port ||
		{ fail sysfs/umad-per-port "$(ls $MADC)"; return 1; }
	for _u in $U0 $U1; do
		_n=${_u#umad}
		_s=issm$_n
		[ -d "$MADC/$_s" ] && [ "$(cat $MADC/$_s/ibdev)" = "$(cat $MADC/$_u/ibdev)" ] &&
			pass "sysfs/$_s" || fail "sysfs/$_s" "no issm$_n beside $_u"
		if [ "$_n" -lt 64 ]; then
			_want_u="e7:$(printf %x "$_n")"
			_want_s="e7:$(printf %x $((_n + 64)))"
			[ "$(stat -c %t:%T /dev/infiniband/$_u 2>&1)" = "$_want_u" ] &&
				[ "$(stat -c %t:%T /dev/infiniband/$_s 2>&1)" = "$_want_s" ] &&
				pass "node/$_u-numbers" ||
				fail "node/$_u-numbers" "$(stat -c %t:%T /dev/infiniband/$_u /dev/infiniband/$_s 2>&1 | tr '\n' ' ')"
		fi
	done
	return 0
}

ibstat_check() {
	check ibstat/list sh -c 'ibstat -l | grep -qx rxe0 && ibstat -l | grep -qx rxe1'
	ibstat rxe0 >$T/ibstat 2>&1
	sed 's/^/    /' $T/ibstat
	grep -q "CA 'rxe0'" $T/ibstat && grep -q 'State: Active' $T/ibstat &&
		grep -q 'Link layer: Ethernet' $T/ibstat && pass ibstat/rxe0 ||
		fail ibstat/rxe0 "unexpected output"
}

# issmN: its holder is the port's SM (IsSM, bit 1 of the capability mask).
issm() {
	_n=${U0#umad}
	_cap() { cat $IB/rxe0/ports/1/cap_mask; }
	_before=$(_cap)
	python3 - "$_n" >$T/issm.out 2>&1 <<'EOF'
import errno, os, sys
n = sys.argv[1]
fd = os.open('/dev/infiniband/issm' + n, os.O_RDWR)
cap = int(open('/sys/class/infiniband/rxe0/ports/1/cap_mask').read(), 16)
print('held: cap_mask %#x' % cap)
try:
    os.open('/dev/infiniband/issm' + n, os.O_RDWR | os.O_NONBLOCK)
    print('second open: succeeded')
except OSError as e:
    print('second open: errno %d' % e.errno)
os.close(fd)
cap2 = int(open('/sys/class/infiniband/rxe0/ports/1/cap_mask').read(), 16)
print('released: cap_mask %#x' % cap2)
sys.exit(0 if cap & 2 and not cap2 & 2 else 1)
EOF
	_st=$?
	sed 's/^/    /' $T/issm.out
	[ $_st -eq 0 ] && pass issm/sets-and-clears-issm || fail issm/sets-and-clears-issm "before $_before"
	grep -q "second open: errno $(python3 -c 'import errno; print(errno.EAGAIN)')" $T/issm.out &&
		pass issm/one-holder || fail issm/one-holder "$(grep second $T/issm.out)"
}

tool() {
	_c=$1
	shift
	timeout 300 python3 $TOOL "$_c" "$@" >$T/$_c.out 2>&1
	_st=$?
	cat $T/$_c.out
	[ $_st -eq 0 ] || [ $_st -eq 1 ] || fail "tool/$_c" "exit $_st"
}

# Crafted RoCE v2 packets from 10.11.0.1 (veth0) to rxe1 (10.11.0.2),
# ib_cm loaded so that the CM rows reach it; the seed is printed.
wire() {
	lab_load ib_cm || { fail wire/ib_cm "not ours"; return; }
	lab_craft_wire $S rxe1 900 \
		"python3 /lab/tools/roce_craft.py send 10.11.0.1 10.11.0.2 {row} {seed}"
}

# kill -9 of a process with outstanding requests; then its agents are gone.
killed() {
	rm -f $T/ready $T/go
	python3 $TOOL hold rxe0 rxe1 $T/ready $T/go >$T/hold-k.out 2>&1 &
	_p=$!
	lab_wait_for 30 test -e $T/ready || { fail kill9/ready "holder not ready"; return; }
	kill -9 $_p
	wait $_p 2>/dev/null
	# Its methods are free again: another process may take them
	check kill9/agents-gone python3 -c "
import sys
sys.path.insert(0, '/lab/tools')
import umad_tool as t
u = t.Umad('rxe0')
u.register(1, t.VENDOR1, 1, (t.GET,))
u.close()
"
}

# rdma link delete while a process holds rxe1's umad file.
gone() {
	rm -f $T/ready $T/go
	python3 $TOOL hold rxe1 rxe0 $T/ready $T/go >$T/hold.out 2>&1 &
	_p=$!
	lab_wait_for 30 test -e $T/ready || { fail gone/ready "holder not ready"; return; }
	check gone/link-delete timeout 60 rdma link delete rxe1
	[ ! -e "$MADC/$U1" ] && pass gone/device-gone || fail gone/device-gone "$U1 still there"
	touch $T/go
	wait $_p
	cat $T/hold.out
}

teardown() {
	rdma link delete rxe0 2>/dev/null
	rdma link delete rxe1 2>/dev/null
	lab_wait_for 30 sh -c "! ls $IB | grep -q rxe" || fail teardown/rxe "still there"
	lab_veth_pair_del
	if lab_unload ib_umad ib_cm rdma_rxe ib_uverbs ib_core; then
		pass unload
	else
		fail unload "$(lab_rdma_left)"
	fi
}

if setup && devices; then
	ibstat_check
	issm
	tool probe rxe0 rxe1
	wire
	tool exchange rxe0 rxe1 50
	tool rmpp rxe0 rxe1 2000
	tool malformed rxe0 rxe1 100
	tool fuzz rxe0 rxe1 3000 1
	killed
	check counters/rxe1 cat /sys/kernel/debug/ib_core/mad/rxe1-1/counters
	gone
fi
teardown
