#!/bin/sh
# lab-check: no (make soak runs it: lab/host/soak.sh; Documentation/lab.rst)
#
# Long runs over a soft RoCE driver on our ib_core and ib_uverbs, two
# devices rxe0 and rxe1 on the ends of a veth pair, every user process in
# an RDMA cgroup of its own.  The environment (lab/host/soak.sh writes it)
# chooses:
#
#   SOAK_MODE         traffic  rdma-core's pingpongs (rc, uc, ud, srq, with
#                              -c) and perftest's tools in turn
#                     links    "rdma link delete" and "add" of rxe1 under
#                              ib_write_bw traffic, cycle after cycle
#                     modules  the whole stack loaded, two devices made and
#                              used, and unloaded with the devices present
#                     bigpong  ibv_rc_pingpong -s 65536 -n 500, run after run
#                              (the stall issue 19 describes)
#                     or several of them, comma-separated: each in turn,
#                     with the same duration and runs, in one boot
#   SOAK_DURATION     seconds to go on for, per mode (0: no limit)
#   SOAK_RUNS         runs (traffic) or cycles (links, modules) at most,
#                     per mode (0: no limit; one of the two must be set)
#   SOAK_DRIVER       in-tree: the kernel's own rdma_rxe (Debian's binary
#                     on the stock kernel); ours: the rdma_rxe we build
#                     (hw/rxe, under updates/)
#   SOAK_RUN_TIMEOUT  seconds a run or a step may take (the watchdog)
#
# A run that does not finish within the watchdog is a stall: the kernel
# stacks of its processes (every thread), "rdma res show qp" (and -d),
# the rxe counters of both ports, the same five seconds later with the
# driver's debug messages on meanwhile, and the end of the kernel log are
# saved in $LAB_OUT/soak/MODE/stall-N/, then it is killed.  Each run or
# cycle must also leave no user object and give every RDMA cgroup charge
# back.  One line at the end: "soak: MODE: N runs, F failures, S stalls,
# T s"; the result lines soak/MODE/{runs,failures,stalls,...}; the plan
# checks the kernel log for KASAN, lockdep, kmemleak and the rest
# afterwards.
. /lab/guest-lib.sh
S=soak
IB=/sys/class/infiniband
T=/tmp/soak
B=10.11.0.2
MODES=$(echo "${SOAK_MODE:-traffic}" | tr , ' ')
MODE=''
DURATION=${SOAK_DURATION:-0}
RUNS=${SOAK_RUNS:-0}
DRIVER=${SOAK_DRIVER:-in-tree}
WATCHDOG=${SOAK_RUN_TIMEOUT:-300}
OUT=$LAB_OUT/soak
CG=''
runs=0 failures=0 stalls=0 start=0

pass() { lab_pass "$S/$MODE/$1"; }
fail() { lab_fail "$S/$MODE/$1" "$2"; }

# ---- the stack -----------------------------------------------------------

driver_load() {
	case $DRIVER in
	in-tree) lab_load_intree rdma_rxe ;;
	ours) lab_load rdma_rxe ;;
	*) echo "lab: SOAK_DRIVER is in-tree or ours, not $DRIVER"; return 1 ;;
	esac
}

# Our ib_core and ib_uverbs, the driver, rxe0 and rxe1 with their GIDs.
stack_up() {
	driver_load || return 1
	lab_load ib_uverbs || return 1
	lab_is_ours ib_core || { echo "lab: ib_core is not ours"; return 1; }
	lab_rxe_links
}

stack_down() {
	for _d in rxe0 rxe1; do
		[ -e $IB/$_d ] && timeout "$WATCHDOG" rdma link delete $_d
	done
	lab_unload rdma_rxe ib_uverbs ib_core
}

# Every charge of the cgroup given back (no line, or zeros, per device).
charges_back() {
	for _d in rxe0 rxe1; do
		[ "$(lab_rdmacg_use "$CG" $_d hca_handle)" -eq 0 ] &&
			[ "$(lab_rdmacg_use "$CG" $_d hca_object)" -eq 0 ] || return 1
	done
}

# After a run or a cycle: no user object, no charge left.
clean_after() {	# WHAT
	_left=$(lab_user_objects)
	if [ -n "$_left" ]; then
		echo "lab: soak: $1: user objects left: $_left"
		return 1
	fi
	if ! charges_back; then
		echo "lab: soak: $1: charges left: $(cat "$CG/rdma.current")"
		return 1
	fi
}

# ---- the watchdog --------------------------------------------------------

# Both ports' hw_counters, a line each.
counters() {
	for _dev in rxe0 rxe1; do
		for _c in $IB/$_dev/ports/1/hw_counters/*; do
			[ -f "$_c" ] && echo "$_dev ${_c##*/} $(cat "$_c")"
		done
	done
}

# What a stall leaves for diagnosis, in $OUT/stall-N/.
diagnose() {	# WHAT PID...
	_d=$OUT/$MODE/stall-$stalls
	mkdir -p "$_d"
	echo "$1" >"$_d/what"
	shift
	for _p in "$@"; do
		for _t in /proc/"$_p"/task/*; do
			[ -d "$_t" ] || continue
			{
				echo "== pid $_p task ${_t##*/}: $(cat "$_t/comm" 2>/dev/null)" \
					"state $(awk '/^State/ { print $2 }' "$_t/status" 2>/dev/null)"
				cat "$_t/stack" 2>/dev/null
			} >>"$_d/stacks"
		done
	done
	{ rdma res show qp; echo; rdma res show qp -d; echo; rdma res show; } \
		>"$_d/rdma-res" 2>&1
	counters >"$_d/counters" 2>&1
	# Five seconds more: does anything move (a livelock of retries, or a
	# dead stop)?  The driver's debug messages say what its state
	# machines do meanwhile (the kernel's rdma_rxe has them).
	_dd=/sys/kernel/debug/dynamic_debug/control
	lab_kmsg "soak: stall $stalls: five seconds"
	[ -w $_dd ] && echo 'module rdma_rxe +p' >$_dd 2>/dev/null
	# How many of the driver's debug messages were on (0: none)
	grep -c '\[rdma_rxe\].*=p' $_dd >"$_d/debug-sites" 2>&1
	sleep 5
	[ -w $_dd ] && echo 'module rdma_rxe -p' >$_dd 2>/dev/null
	counters >"$_d/counters-5s" 2>&1
	{ rdma res show qp; } >"$_d/rdma-res-5s" 2>&1
	dmesg | tail -n 400 >"$_d/dmesg"
	echo "lab: soak: stall $stalls ($(cat "$_d/what")): saved in $_d"
	sed 's/^/    /' "$_d/stacks" | head -n 60
}

# wait_pids SECONDS PID...: 0 when all have exited within SECONDS (their
# statuses in $WAIT_ST, "pid:status" each), 1 when one is still there.
wait_pids() {
	_t=$(( $1 * 5 ))
	shift
	while [ $_t -gt 0 ]; do
		_alive=0
		for _p in "$@"; do
			kill -0 "$_p" 2>/dev/null && _alive=1
		done
		[ $_alive -eq 0 ] && break
		sleep 0.2
		_t=$((_t - 1))
	done
	[ $_alive -eq 0 ] || return 1
	WAIT_ST=''
	for _p in "$@"; do
		wait "$_p"
		WAIT_ST="$WAIT_ST $_p:$?"
	done
}

# Kill what a stall left; a process that will not die is noted.
reap() {
	kill -9 "$@" 2>/dev/null
	wait_pids 20 "$@" ||
		echo "lab: soak: a process outlived kill -9: $(ps -o pid,stat,wchan:32,comm -p "$(echo "$@" | tr ' ' ,)")"
}

# ---- traffic -------------------------------------------------------------

# run_pair NAME TOOL SERVER_ARGS CLIENT_ARGS: one run of TOOL, server on
# rxe1, client on rxe0, both in the cgroup; 0 done, 1 failed, 2 stalled.
run_pair() {
	_port=$((18700 + runs % 100))
	# shellcheck disable=SC2086
	lab_rdmacg_spawn "$CG" $2 -p $_port $3 >$T/srv.out 2>&1
	_srv=$!
	if ! lab_wait_for 60 lab_listening $_port; then
		_cli=''
	else
		# shellcheck disable=SC2086
		lab_rdmacg_spawn "$CG" $2 -p $_port $4 >$T/cli.out 2>&1
		_cli=$!
	fi
	if ! wait_pids "$WATCHDOG" $_srv $_cli; then
		stalls=$((stalls + 1))
		diagnose "run $runs: $1" $_srv $_cli
		reap $_srv $_cli
		return 2
	fi
	case "$WAIT_ST" in
	*:[1-9]*|'')
		echo "lab: soak: run $runs: $1 failed (exit statuses$WAIT_ST)"
		sed 's/^/    server: /' $T/srv.out | tail -n 5
		sed 's/^/    client: /' $T/cli.out 2>/dev/null | tail -n 5
		return 1 ;;
	esac
	[ -n "$_cli" ] || return 1
}

# The tools, in turn; on the debug kernel smaller perftest runs with a
# 4 s QP timeout, as in the uverbs_rxe scenario.
traffic_run() {	# INDEX
	traffic_tool "$1"
	_r=$?
	[ $_r -eq 2 ] && return 2
	clean_after "run $1" || return 1
	return $_r
}

traffic_tool() {	# INDEX
	_pa="-x $G1" _pc="-x $G0"
	_iters=200
	lab_debug_kernel && _iters=100
	_o="-n $_iters -F -u 20"	# the 4 s QP timeout of uverbs_rxe.sh
	case $(($1 % 10)) in
	0) run_pair rc ibv_rc_pingpong "-d rxe1 -g $G1 -n 200 -c" "-d rxe0 -g $G0 -n 200 -c $B" ;;
	1) run_pair uc ibv_uc_pingpong "-d rxe1 -g $G1 -n 200 -c" "-d rxe0 -g $G0 -n 200 -c $B" ;;
	2) run_pair ud ibv_ud_pingpong "-d rxe1 -g $G1 -n 200 -s 1024 -c" \
		"-d rxe0 -g $G0 -n 200 -s 1024 -c $B" ;;
	3) run_pair srq ibv_srq_pingpong "-d rxe1 -g $G1 -n 50 -c" "-d rxe0 -g $G0 -n 50 -c $B" ;;
	4) run_pair ib_write_bw ib_write_bw "-d rxe1 $_pa $_o" "-d rxe0 $_pc $_o $B" ;;
	5) run_pair ib_read_bw ib_read_bw "-d rxe1 $_pa $_o" "-d rxe0 $_pc $_o $B" ;;
	6) run_pair ib_send_bw ib_send_bw "-d rxe1 $_pa $_o" "-d rxe0 $_pc $_o $B" ;;
	7) run_pair ib_atomic_bw ib_atomic_bw "-d rxe1 $_pa $_o" "-d rxe0 $_pc $_o $B" ;;
	8) run_pair ib_send_lat ib_send_lat "-d rxe1 $_pa $_o" "-d rxe0 $_pc $_o $B" ;;
	9) run_pair ib_write_lat ib_write_lat "-d rxe1 $_pa $_o" "-d rxe0 $_pc $_o $B" ;;
	esac
}

# ---- bigpong -------------------------------------------------------------

# 500 round trips of 64 KiB each way, as issue 19 reproduces its stall.
bigpong_run() {	# INDEX
	run_pair bigpong ibv_rc_pingpong "-d rxe1 -g $G1 -s 65536 -n 500" \
		"-d rxe0 -g $G0 -s 65536 -n 500 $B"
	_r=$?
	[ $_r -eq 2 ] && return 2
	clean_after "run $1" || return 1
	return $_r
}

# ---- links ---------------------------------------------------------------

# Packets rxe0 has sent; traffic flows when the count moves in a second.
sent_pkts() { cat $IB/rxe0/ports/1/hw_counters/sent_pkts 2>/dev/null || echo 0; }
flowing() {
	_p0=$(sent_pkts)
	sleep 1
	[ "$(sent_pkts)" -gt "$_p0" ]
}

# One cycle: ib_write_bw rxe0 -> rxe1 flowing, rxe1 deleted under it, the
# processes end, nothing left, rxe1 added again; 0, 1 failed, 2 stalled.
link_cycle() {
	_port=$((18800 + runs % 100))
	_a="-D 600 -F -u 20"
	lab_debug_kernel && _a="$_a -s 16384"
	# shellcheck disable=SC2086
	lab_rdmacg_spawn "$CG" ib_write_bw -d rxe1 -x "$G1" -p $_port $_a >$T/srv.out 2>&1
	_srv=$!
	lab_wait_for 60 lab_listening $_port
	# shellcheck disable=SC2086
	lab_rdmacg_spawn "$CG" ib_write_bw -d rxe0 -x "$G0" -p $_port $_a $B >$T/cli.out 2>&1
	_cli=$!
	if ! lab_wait_for 60 flowing; then
		echo "lab: soak: cycle $runs: no traffic before the delete"
		sed 's/^/    client: /' $T/cli.out | tail -n 5
		reap $_srv $_cli
		return 1
	fi
	timeout "$WATCHDOG" rdma link delete rxe1 &
	_del=$!
	if ! wait_pids "$WATCHDOG" $_del; then
		stalls=$((stalls + 1))
		diagnose "cycle $runs: rdma link delete" $_del $_srv $_cli
		reap $_del $_srv $_cli
		return 2
	fi
	case "$WAIT_ST" in
	*:0) ;;
	*) echo "lab: soak: cycle $runs: rdma link delete failed ($WAIT_ST)"; return 1 ;;
	esac
	# Both ends are killable, and end at once, with their device gone
	kill -9 $_srv $_cli 2>/dev/null
	if ! wait_pids 20 $_srv $_cli; then
		stalls=$((stalls + 1))
		diagnose "cycle $runs: perftest killed after the delete" $_srv $_cli
		reap $_srv $_cli
		return 2
	fi
	lab_wait_for 30 test ! -e $IB/rxe1 || { echo "lab: soak: rxe1 stays"; return 1; }
	clean_after "cycle $runs" || return 1
	rdma link add rxe1 type rxe netdev veth1 &&
		lab_wait_for 20 lab_gid_of rxe1 $B || { echo "lab: soak: re-add"; return 1; }
	G1=$(lab_gid_of rxe1 $B)
}

# ---- modules -------------------------------------------------------------

# One cycle: the stack and two devices up, a pingpong, then the driver,
# ib_uverbs and ib_core unloaded with the devices still there.
module_cycle() {
	stack_up || { echo "lab: soak: cycle $runs: the stack did not come up"; lab_unload_all; return 1; }
	run_pair rc ibv_rc_pingpong "-d rxe1 -g $G1 -n 20 -c" "-d rxe0 -g $G0 -n 20 -c $B"
	_r=$?
	[ $_r -ne 2 ] || return 2
	clean_after "cycle $runs" || _r=1
	for _m in rdma_rxe ib_uverbs ib_core; do
		timeout "$WATCHDOG" rmmod $_m &
		_rm=$!
		if ! wait_pids "$WATCHDOG" $_rm; then
			stalls=$((stalls + 1))
			diagnose "cycle $runs: rmmod $_m" $_rm
			return 2
		fi
		case "$WAIT_ST" in
		*:0) ;;
		*) echo "lab: soak: cycle $runs: rmmod $_m refused"; lab_unload_all; return 1 ;;
		esac
	done
	if _left=$(lab_rdma_left); then
		echo "lab: soak: cycle $runs: left loaded: $_left"
		lab_unload_all
		return 1
	fi
	[ ! -e $IB/rxe0 ] && [ ! -e $IB/rxe1 ] || { echo "lab: soak: devices stay"; return 1; }
	return $_r
}

# ---- the loop ------------------------------------------------------------

more() {
	[ "$RUNS" -eq 0 ] || [ $runs -lt "$RUNS" ] || return 1
	[ "$DURATION" -eq 0 ] || [ $(($(date +%s) - start)) -lt "$DURATION" ]
}

soak_loop() {	# STEP
	while more; do
		"$1" $runs
		case $? in
		0) ;;
		2) ;;
		*) failures=$((failures + 1)) ;;
		esac
		runs=$((runs + 1))
		[ $((runs % 10)) -ne 0 ] ||
			echo "lab: soak: $MODE: $runs runs, $failures failures, $stalls stalls, $(($(date +%s) - start)) s"
	done
}

# One mode, from a fresh stack to its result lines and its summary line.
soak_mode() {
	runs=0 failures=0 stalls=0 start=$(date +%s)
	echo "lab: soak: $MODE, driver $DRIVER, ${DURATION}s, $RUNS runs at most, watchdog ${WATCHDOG}s"
	case $MODE in
	traffic|links|bigpong)
		if stack_up; then
			pass setup
			case $MODE in
			traffic) soak_loop traffic_run ;;
			links) soak_loop link_cycle ;;
			bigpong) soak_loop bigpong_run ;;
			esac
		else
			fail setup "the stack or the devices did not come up"
		fi
		stack_down ;;
	modules)
		pass setup
		soak_loop module_cycle ;;
	*)
		fail setup "SOAK_MODE is traffic, links, modules or bigpong, not $MODE"
		return ;;
	esac
	lab_unload_all
	echo "soak: $MODE: $runs runs, $failures failures, $stalls stalls, $(($(date +%s) - start)) s"
	[ $runs -gt 0 ] && pass runs || fail runs "no run"
	[ $failures -eq 0 ] && pass failures || fail failures "$failures of $runs"
	[ $stalls -eq 0 ] && pass stalls || fail stalls "$stalls of $runs (see $OUT)"
}

if [ "$RUNS" -eq 0 ] && [ "$DURATION" -eq 0 ]; then
	lab_fail "$S/setup" "neither SOAK_RUNS nor SOAK_DURATION"
	exit 1
fi
mkdir -p $T "$OUT"
lab_veth_pair || { lab_fail "$S/setup" "veth pair"; exit 1; }
CG=$(lab_rdmacg_make soak "") || { lab_fail "$S/setup" "RDMA cgroup"; exit 1; }
for MODE in $MODES; do
	soak_mode
done
rmdir "$CG" 2>/dev/null
lab_veth_pair_del
lab_unload_all
_re='WARNING:|BUG:|Oops|general protection|refcount_t|list_(add|del) corruption|INFO: task .* blocked'
_bad=$(dmesg | sed -n "/lab: scenario $S\$/,\$p" | grep -E -m3 "$_re")
[ -z "$_bad" ] && lab_pass "$S/kernel-log" || lab_fail "$S/kernel-log" "$_bad"
