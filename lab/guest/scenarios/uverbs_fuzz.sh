#!/bin/sh
# The uverbs fuzzer (tools/uverbs_fuzz.py) against the kernel's rdma_rxe
# on our ib_core and ib_uverbs: several processes send random and mutated
# write() and ioctl() commands, mmap() and read() at rxe0 and rxe1 (100000
# calls by default; "make fuzz" runs more).  Every call must come back
# with a result or a plausible errno; afterwards no user object is left,
# the devices still carry traffic, the modules unload and the kernel log
# has no report.
#
# UVERBS_FUZZ_CALLS, UVERBS_FUZZ_WORKERS and UVERBS_FUZZ_SEED change the
# run (make fuzz sets them through /lab/data/env).
# lab-rxe: ours (make check runs it again on our rdma_rxe, as uverbs_fuzz@ours)
. /lab/guest-lib.sh
S=uverbs_fuzz
IB=/sys/class/infiniband
A=10.11.0.1
B=10.11.0.2
CALLS=${UVERBS_FUZZ_CALLS:-100000}
WORKERS=${UVERBS_FUZZ_WORKERS:-4}
SEED=${UVERBS_FUZZ_SEED:-$(date +%s)}
# The fuzzer's own limit: within the scenario's timeout, with room for
# the checks after it.
FUZZ_TIMEOUT=$(( ${LAB_SCENARIO_TIMEOUT:-900} - 180 ))

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }

setup() {
	lab_veth_pair veth0 veth1 $A $B || { fail setup/veth "veth pair"; return 1; }
	lab_load_rxe || { fail setup/rdma_rxe "modprobe rdma_rxe"; return 1; }
	lab_load ib_uverbs || { fail setup/ib_uverbs "not ours"; return 1; }
	rdma link add rxe0 type rxe netdev veth0 &&
		rdma link add rxe1 type rxe netdev veth1 ||
		{ fail setup/link-add "rdma link add"; return 1; }
	lab_wait_for 10 lab_gid_of rxe0 $A && lab_wait_for 10 lab_gid_of rxe1 $B ||
		{ fail setup/gids "no RoCE v2 GID of $A or $B"; return 1; }
	G0=$(lab_gid_of rxe0 $A)
	G1=$(lab_gid_of rxe1 $B)
	for _u in /sys/class/infiniband_verbs/uverbs*; do
		case "$(cat "$_u/ibdev")" in
		rxe0) U0=$(basename "$_u") ;;
		rxe1) U1=$(basename "$_u") ;;
		esac
	done
	[ -n "$U0" ] && [ -n "$U1" ] || { fail setup/uverbs "no uverbsN of rxe0 or rxe1"; return 1; }
	echo "lab: rxe0 is $U0 (GID $G0), rxe1 is $U1 (GID $G1)"
	pass setup
}

pingpong() {	# NAME PORT
	timeout 120 ibv_rc_pingpong -d rxe1 -g "$G1" -p "$2" -n 50 -c >/tmp/fz-srv.out 2>&1 &
	_spid=$!
	lab_wait_for 60 lab_listening "$2"
	timeout 120 ibv_rc_pingpong -d rxe0 -g "$G0" -p "$2" -n 50 -c $B >/tmp/fz-cli.out 2>&1
	_c=$?
	wait $_spid
	_s=$?
	if [ $_c -eq 0 ] && [ $_s -eq 0 ]; then pass "$1"
	else
		sed 's/^/    /' /tmp/fz-srv.out /tmp/fz-cli.out
		fail "$1" "server exit $_s, client exit $_c"
	fi
}

# The fuzzer runs in an RDMA cgroup without limits: whatever its calls
# create, fail or abort, every charge must be given back in the end.
fuzz() {
	_cg=$(lab_rdmacg_make lab-fuzz "") || { fail cgroup "no rdma cgroup controller"; return; }
	# Whether the cgroup ever counted anything while the fuzzer ran
	rm -f /tmp/fz.charged
	(while [ -d "$_cg" ]; do
		grep -qE '=[1-9]' "$_cg/rdma.current" 2>/dev/null && touch /tmp/fz.charged && break
		sleep 0.5
	done) &
	_t0=$(cut -d. -f1 /proc/uptime)
	lab_rdmacg_run "$_cg" python3 /lab/tools/uverbs_fuzz.py --calls "$CALLS" --workers "$WORKERS" \
		--seed "$SEED" --timeout "$FUZZ_TIMEOUT" "$U0" "$U1" >/tmp/fz.out 2>&1
	_rc=$?
	grep -E '^(PASS|FAIL) ' /tmp/fz.out
	grep -vE '^(PASS|FAIL) ' /tmp/fz.out | sed 's/^/    /'
	echo "    uverbs_fuzz took $(( $(cut -d. -f1 /proc/uptime) - _t0 )) s"
	grep -qE '^(PASS|FAIL) ' /tmp/fz.out || fail run "fuzzer exit $_rc, no result"
	_left=$(lab_user_objects)
	[ -z "$_left" ] && pass no-objects-left || fail no-objects-left "$_left"
	[ -e /tmp/fz.charged ] && pass cgroup-charged ||
		fail cgroup-charged "rdma.current of the fuzzer's cgroup never counted anything"
	_use=$(grep -E '=[1-9]' "$_cg/rdma.current")
	[ -z "$_use" ] && pass cgroup-all-uncharged || fail cgroup-all-uncharged "$_use"
	rmdir "$_cg"
	pingpong traffic-after 18701
}

teardown() { lab_rxe_teardown $S; }

setup && fuzz
teardown
