#!/bin/sh
# Lifetimes of user objects beyond one process and one module load, with
# the kernel's rdma_rxe on our ib_core and ib_uverbs (rxe0 and rxe1 on a
# veth pair), through libibverbs (tools/uverbs_life.py):
#  - fork: a child inherits the files and registered memory; the device
#    keeps sending the parent's pages; the child's exit frees nothing of
#    the parent's;
#  - the RDMA cgroup: contexts and objects are charged to the creator's
#    cgroup, refused with EAGAIN over rdma.max, and given back on destroy,
#    on close and on kill -9;
#  - a live SRQ in "rdma res show srq" with its process;
#  - unloading racing with use: processes open and use the devices while
#    rdma_rxe and ib_uverbs are unloaded and loaded again, round after
#    round; every call returns, and the devices carry traffic afterwards.
# lab-rxe: ours (make check runs it again on our rdma_rxe, as uverbs_life@ours)
. /lab/guest-lib.sh
S=uverbs_life
IB=/sys/class/infiniband
T=/tmp/uverbs_life
A=10.11.0.1
B=10.11.0.2
LIFE=/lab/tools/uverbs_life.py
# UVERBS_LIFE_ROUNDS (make check: 1 on the test kernel) from /lab/data/env
ROUNDS=${UVERBS_LIFE_ROUNDS:-4}

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }
check() { _c=$1; shift; lab_check "$S/$_c" "$@"; }

links_add() {
	rdma link add rxe0 type rxe netdev veth0 &&
		rdma link add rxe1 type rxe netdev veth1 || return 1
	lab_wait_for 10 lab_gid_of rxe0 $A && lab_wait_for 10 lab_gid_of rxe1 $B || return 1
	G0=$(lab_gid_of rxe0 $A)
	G1=$(lab_gid_of rxe1 $B)
}

setup() {
	mkdir -p $T
	lab_veth_pair || { fail setup/veth "veth pair"; return 1; }
	lab_load_rxe || { fail setup/rdma_rxe "modprobe rdma_rxe"; return 1; }
	lab_load ib_uverbs || { fail setup/ib_uverbs "not ours"; return 1; }
	links_add || { fail setup/links "rxe0, rxe1 or their RoCE v2 GIDs"; return 1; }
	echo "lab: rxe0 GID $G0 ($A), rxe1 GID $G1 ($B)"
	pass setup
}

no_objects_left() {	# NAME
	_left=$(lab_user_objects)
	[ -z "$_left" ] && pass "$1" || fail "$1" "$_left"
}

fork_test() {
	python3 $LIFE fork rxe0 "$G0" rxe1 "$G1" \
		>$T/fork.out 2>&1
	_rc=$?
	grep -E '^(PASS|FAIL) ' $T/fork.out
	grep -vE '^(PASS|FAIL) ' $T/fork.out | sed 's/^/    /'
	[ $_rc -eq 0 ] && pass fork/tool-exit || fail fork/tool-exit "exit $_rc"
	no_objects_left fork/no-objects-left
}

cgroup_test() {
	CG=$(lab_rdmacg_make lab-rdma "rxe0 hca_handle=1 hca_object=3") ||
		{ fail cgroup/setup "no rdma cgroup controller"; return; }
	check cgroup/max-reads-back grep -q 'rxe0 hca_handle=1 hca_object=3' "$CG/rdma.max"
	python3 $LIFE cgroup rxe0 "$CG" >$T/cg.out 2>&1
	_rc=$?
	grep -E '^(PASS|FAIL) ' $T/cg.out
	grep -vE '^(PASS|FAIL) ' $T/cg.out | sed 's/^/    /'
	[ $_rc -eq 0 ] && pass cgroup/tool-exit || fail cgroup/tool-exit "exit $_rc"

	# A pingpong needs more than three objects: it fails, cleanly.
	lab_rdmacg_run "$CG" timeout 60 ibv_rc_pingpong -d rxe0 -g "$G0" -p 18801 \
		>$T/cg-pp.out 2>&1 && fail cgroup/pingpong-refused "it ran" ||
		pass cgroup/pingpong-refused
	sed 's/^/    /' $T/cg-pp.out
	_u="$(lab_rdmacg_use "$CG" rxe0 hca_handle) $(lab_rdmacg_use "$CG" rxe0 hca_object)"
	[ "$_u" = "0 0" ] && pass cgroup/refused-pingpong-uncharged ||
		fail cgroup/refused-pingpong-uncharged "handles and objects: $_u"

	# Within the limits, a holder killed with -9 gives all back.
	echo "rxe0 hca_handle=2 hca_object=20" >"$CG/rdma.max"
	lab_rdmacg_spawn "$CG" ibv_rc_pingpong -d rxe0 -g "$G0" -p 18802 >$T/cg-h.out 2>&1
	_h=$!
	if lab_wait_for 60 lab_listening 18802; then
		_o=$(lab_rdmacg_use "$CG" rxe0 hca_object)
		# PD, MR, CQ and QP
		[ "$(lab_rdmacg_use "$CG" rxe0 hca_handle)" = 1 ] && [ "$_o" -eq 4 ] &&
			pass cgroup/holder-charged ||
			fail cgroup/holder-charged "$(cat "$CG/rdma.current")"
	else
		fail cgroup/holder-charged "the pingpong server did not start"
	fi
	# Every process of the cgroup gets SIGKILL
	echo 1 >"$CG/cgroup.kill"
	wait $_h 2>/dev/null
	lab_wait_for 10 sh -c "[ \"\$(cat $CG/rdma.current)\" = '' ] ||
		grep -q 'rxe0 hca_handle=0 hca_object=0' $CG/rdma.current" &&
		pass cgroup/kill-9-uncharges || fail cgroup/kill-9-uncharges "$(cat "$CG/rdma.current")"
	# Limits back to max before the cgroup goes: 6.1's rdma controller
	# leaves a device's unused pool with limits on a removed cgroup's
	# freed list, and the device's unregistration then corrupts memory
	# (kernel/cgroup/rdma.c: rdmacg_css_offline() resets the limits but
	# frees no pool; seen as "list_del corruption" in
	# rdmacg_unregister_device() at "rmmod rdma_rxe").  Resetting the
	# limits of an unused pool frees it.
	echo "rxe0 hca_handle=max hca_object=max" >"$CG/rdma.max"
	rmdir "$CG"
	no_objects_left cgroup/no-objects-left
}

# An SRQ pingpong server waiting for its client holds an SRQ.  Only the
# pid is checked: iproute2 6.1's "rdma res show srq" prints its command
# name from a buffer that has gone out of scope (res-srq.c), so what it
# shows as comm is whatever later overwrote that stack.
srq_res() {
	ibv_srq_pingpong -d rxe1 -g "$G1" -p 18810 >$T/srq.out 2>&1 &
	_h=$!
	if lab_wait_for 60 lab_listening 18810; then
		_o=$(rdma res show srq 2>&1)
		echo "$_o" | sed 's/^/    rdma res show srq: /'
		echo "$_o" | grep -q "type BASIC .*pid $_h " &&
			pass res/srq-lists-user-srq ||
			fail res/srq-lists-user-srq "no SRQ of pid $_h"
		_q=$(rdma res show qp | grep -c "pid $_h ")
		[ "$_q" -ge 2 ] && pass res/srq-pingpong-qps ||
			fail res/srq-pingpong-qps "$_q QPs of pid $_h"
	else
		fail res/srq-lists-user-srq "the server did not start"
	fi
	kill -9 $_h
	wait $_h 2>/dev/null
	lab_wait_for 10 sh -c "! rdma res show srq | grep -q 'pid $_h '" &&
		pass res/srq-gone-after-kill || fail res/srq-gone-after-kill "$(rdma res show srq)"
}

# One round of unloading under use: churn processes on both devices and
# an ibv_devinfo loop while rdma_rxe is unloaded (retrying while files
# hold it), then ib_uverbs; both come back and the links are re-added.
unload_round() {	# N
	rm -f $T/stop $T/stop.*
	python3 $LIFE churn rxe0 $T/stop >$T/churn0.$1 2>&1 &
	_c0=$!
	python3 $LIFE churn rxe1 $T/stop >$T/churn1.$1 2>&1 &
	_c1=$!
	(while [ ! -e $T/stop ]; do
		ibv_devinfo -d rxe0 >/dev/null 2>&1 || sleep 0.05
	done) &
	_d=$!
	# Both churners are past their first round: the race is on.
	lab_wait_for 120 test -e $T/stop.rxe0.up -a -e $T/stop.rxe1.up ||
		fail "unload/round$1/churn-started" "a churner made no round in 120 s"
	_tries=0
	_end=$(( $(cut -d. -f1 /proc/uptime) + 120 ))
	until rmmod rdma_rxe 2>/dev/null; do
		_tries=$((_tries + 1))
		[ "$(cut -d. -f1 /proc/uptime)" -ge $_end ] && break
	done
	if [ -d /sys/module/rdma_rxe ]; then
		fail "unload/round$1/rdma_rxe" "not unloaded after $_tries refusals in 120 s"
	else
		pass "unload/round$1/rdma_rxe"
		echo "    round $1: rdma_rxe unloaded after $_tries refusals"
	fi
	rmmod ib_uverbs 2>/dev/null || echo "    round $1: ib_uverbs stayed"
	lab_load ib_uverbs && lab_load_rxe && links_add ||
		fail "unload/round$1/reload" "ib_uverbs, rdma_rxe or the links"
	sleep 2
	touch $T/stop
	_why=
	for _p in $_c0 $_c1 $_d; do
		_w=0
		while kill -0 $_p 2>/dev/null && [ $_w -lt 300 ]; do
			sleep 0.2
			_w=$((_w + 1))
		done
		kill -0 $_p 2>/dev/null && _why="$_why pid $_p hung;" && kill -9 $_p
		wait $_p 2>/dev/null
		_st=$?
		[ $_p = $_d ] || [ $_st -eq 0 ] || _why="$_why churner exit $_st;"
	done
	sed 's/^/    /' $T/churn0.$1 $T/churn1.$1
	[ -z "$_why" ] && pass "unload/round$1/users-return" ||
		fail "unload/round$1/users-return" "$_why"
}

unload_race() {
	_r=1
	while [ $_r -le $ROUNDS ]; do
		unload_round $_r
		_r=$((_r + 1))
	done
	grep -h '^churn' $T/churn0.* $T/churn1.* | awk '{ n += $3 } END { exit n > 0 ? 0 : 1 }' &&
		pass unload/churn-made-progress || fail unload/churn-made-progress "no round worked"
	no_objects_left unload/no-objects-left
	timeout 120 ibv_rc_pingpong -d rxe1 -g "$G1" -p 18820 -n 50 -c >$T/pp-srv.out 2>&1 &
	_s=$!
	lab_wait_for 60 lab_listening 18820
	timeout 120 ibv_rc_pingpong -d rxe0 -g "$G0" -p 18820 -n 50 -c $B >$T/pp-cli.out 2>&1
	_c=$?
	wait $_s
	_st=$?
	if [ $_c -eq 0 ] && [ $_st -eq 0 ]; then
		pass unload/traffic-after
	else
		sed 's/^/    /' $T/pp-srv.out $T/pp-cli.out
		fail unload/traffic-after "server exit $_st, client exit $_c"
	fi
}

teardown() { lab_rxe_teardown $S; }

if setup; then
	fork_test
	cgroup_test
	srq_res
	unload_race
fi
teardown
