#!/bin/sh
# Scenario "traffic": rdma_traffic between the two test-double devices.
#
# With ib_core, rdma_kunit_tdev ndevs=2 (tdev0, tdev1) and rdma_traffic
# loaded (the scenario loads whichever is missing), it runs every operation
# from tdev0 to tdev1 and checks the verified data and the report lines,
# then starts long runs and unloads the ULP, then the driver, in the middle
# of one: the ULP must report the run as aborted and everything must
# unload.  One line
# per check: "PASS traffic/<case>" or "FAIL traffic/<case> (why)".  Exit
# status 1 if a check failed.
#
#   traffic.sh [TIMEOUT_SEC]    how long a run may take (default 600)
# shellcheck source=lab/guest/lib.sh
command -v lab_load >/dev/null || . /lab/guest-lib.sh
TIMEOUT=${1:-600}
D=/sys/kernel/debug/rdma_traffic
P=/sys/module/rdma_traffic/parameters
SIZES="1 4 16 64 256 1024 4096 16384 65536 262144 1048576"
# shellcheck disable=SC2086
NSIZES=$(set -- $SIZES; echo $#)
OUT=${LAB_OUT:-/tmp}/traffic
mkdir -p "$OUT"
rc=0

pass() { lab_pass "traffic/$1"; }
fail() { lab_fail "traffic/$1" "$2"; rc=1; }
check() { # check CASE WHY COMMAND...: PASS if COMMAND succeeds
	_c=$1 _w=$2
	shift 2
	if "$@"; then pass "$_c"; else fail "$_c" "$_w"; fi
}

# TESTS; result $? CASE WHY: PASS if the tests before held
result() { if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2" "$3"; fi; }

# write FILE TEXT: write TEXT to FILE; prints the errno's name or OK
write() {
	python3 -c 'import errno, os, sys
try:
    fd = os.open(sys.argv[1], os.O_WRONLY)
    os.write(fd, sys.argv[2].encode())
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])' "$1" "$2"
}

state() { sed -n 's/.* state=\([a-z]*\).*/\1/p' "$D/status"; }

# wait_end: waits until the run is no longer running; prints its state
wait_end() {
	_t=0
	while [ "$(state)" = running ] && [ $_t -lt $((TIMEOUT * 5)) ]; do
		sleep 0.2
		_t=$((_t + 1))
	done
	state
}

# field LINE KEY: the value of KEY= in LINE (no process: a fork and exec
# cost a KASAN guest under TCG a good part of a second)
field() {
	_f=" $1"
	case "$_f" in
	*" $2="*) _f=${_f#*" $2="}; echo "${_f%% *}" ;;
	esac
}

# The lines of report file $1 for operation $2, one per size.
op_lines() { grep " op=$2 " "$1"; }

# check_op REPORT OP: every size ran, no errors, figures consistent (one
# awk over the report: what is wrong, or nothing).
check_op() {
	_bad=$(awk -v op="$2" -v sizes="$SIZES" '
		function val(k,   i) {
			for (i = 1; i <= NF; i++)
				if (index($i, k "=") == 1)
					return substr($i, length(k) + 2)
			return ""
		}
		val("op") == op { line[val("size")] = $0 }
		END {
			n = split(sizes, s, " ")
			for (i = 1; i <= n; i++) {
				if (!(s[i] in line)) { print "no line for size " s[i]; exit }
				$0 = line[s[i]]
				if (val("status") != "ok" || val("errors") != "0") {
					print "size " s[i] ": " val("status") ", errors=" val("errors")
					exit
				}
				if (val("ops") + 0 <= 0 || val("bytes") + 0 != val("ops") * s[i] ||
				    val("ns") + 0 <= 0 || val("ops_per_s") + 0 <= 0) {
					print "size " s[i] ": inconsistent figures: " $0
					exit
				}
			}
		}' "$1")
	if [ -z "$_bad" ]; then
		pass "$2 ($NSIZES sizes verified)"
	else
		fail "$2" "$_bad"
	fi
}

# check_atomic REPORT OP: the test double has no atomics (atomic_cap
# IB_ATOMIC_NONE), so the ULP must skip OP and say why; rxe.sh checks
# atomics that run, over rdma_rxe.
check_atomic() {
	l=$(op_lines "$1" "$2")
	check "$2/skipped-without-cap" "${l:-no line}" \
		[ "$(field "$l" status) $(field "$l" reason)" = "skipped no_atomic_cap" ]
}

# Every line is "key=value" fields; the kernel log has the same lines.
check_format() {
	_bad=$(grep -cvE '^([a-z_]+=[^ =]+)( [a-z_]+=[^ =]+)*$' "$1")
	check report-format "$_bad malformed lines" [ "$_bad" -eq 0 ]
	sed 's/^/rdma_traffic: /' "$1" | sort -u >"$OUT/want.txt"
	dmesg | grep -oF -f "$OUT/want.txt" | sort -u >"$OUT/found.txt"
	_missing=$(comm -23 "$OUT/want.txt" "$OUT/found.txt" | wc -l)
	check kernel-log "$_missing report lines not in the kernel log" \
		[ "$_missing" -eq 0 ]
}

# ---- setup ----
for m in ib_core "rdma_kunit_tdev ndevs=2" rdma_traffic; do
	# shellcheck disable=SC2086
	[ -d "/sys/module/${m%% *}" ] || lab_load $m || fail "load/${m%% *}" "modprobe failed"
done
[ -e /sys/class/infiniband/tdev0 ] && [ -e /sys/class/infiniband/tdev1 ]
result $? devices "tdev0 and tdev1 expected, have: $(echo /sys/class/infiniband/*)"
[ -w "$D/pair" ] && [ -w "$D/control" ] && [ -r "$D/status" ] && [ -r "$D/report" ]
result $? debugfs "missing files in $D"

# ---- bad input ----
r1=$(write "$D/control" "fly") r2=$(write "$D/pair" "tdev0")
[ "$r1" = EINVAL ] && [ "$r2" = EINVAL ]
result $? bad-input "control fly: $r1, pair with one name: $r2"
write "$D/pair" "tdev0 nosuchdev" >/dev/null
r1=$(write "$D/control" "run")
check missing-device "run on a missing device: $r1" [ "$r1" = ENODEV ]

# ---- a full run ----
r1=$(write "$D/pair" "tdev0 tdev1")
[ "$r1" = OK ] && [ "$(cat "$D/pair")" = "tdev0 tdev1" ]
result $? pair "pair: $r1, reads back: $(cat "$D/pair")"
r1=$(write "$D/control" "run")
st=$(wait_end)
cp "$D/report" "$OUT/report-full.txt"
[ "$r1" = OK ] && [ "$st" = "done" ]
result $? run "start: $r1, state: $st"
for op in send write read; do
	check_op "$OUT/report-full.txt" $op
done
for op in fetch_add cmp_swap; do
	check_atomic "$OUT/report-full.txt" $op
done
end=$(grep ' state=done ' "$OUT/report-full.txt")
[ -n "$end" ] && [ "$(field "$end" errors)" = 0 ]
result $? run-summary "${end:-no end line}"
check_format "$OUT/report-full.txt"
sed 's/^/  | /' "$OUT/report-full.txt"

# ---- the ULP unloads in the middle of a run ----
long_run() {
	echo 1000000 >"$P/iters"
	echo 1099511627776 >"$P/max_bytes"
	write "$D/pair" "tdev0 tdev1" >/dev/null
	write "$D/control" "run"
}
r1=$(long_run)
sleep 2
st=$(state)
if timeout 120 rmmod rdma_traffic; then r2=OK; else r2=failed; fi
l=$(dmesg | grep -E 'rdma_traffic: run=[0-9]+ state=aborted' | tail -n 1)
[ "$r1" = OK ] && [ "$st" = running ] && [ "$r2" = OK ] && [ -n "$l" ]
result $? unload-mid-run "start: $r1, state after 2 s: $st, rmmod: $r2, end line: ${l:-none}"
lab_load rdma_traffic || fail load/rdma_traffic "modprobe failed"

# ---- the driver goes away in the middle of a run ----
r1=$(long_run)
sleep 3
st=$(state) r2=$(write "$D/control" "run")
[ "$r1" = OK ] && [ "$st" = running ] && [ "$r2" = EBUSY ]
result $? busy "first start: $r1, state after 3 s: $st, second start: $r2"
t0=$(cut -d' ' -f1 /proc/uptime)
if timeout 120 rmmod rdma_kunit_tdev; then
	pass "remove-driver (rmmod took $(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime)s)"
else
	fail remove-driver "rmmod rdma_kunit_tdev failed or hung"
fi
cp "$D/report" "$OUT/report-abort.txt"
st=$(state)
end=$(grep ' state=aborted ' "$OUT/report-abort.txt")
[ "$st" = aborted ] && [ "$(field "$end" reason)" = removed:tdev0 ]
result $? abort "state $st, end line: ${end:-none}"
l=$(grep ' status=aborted' "$OUT/report-abort.txt")
check abort-figures "${l:-no line of the interrupted operation}" [ -n "$l" ]
sed 's/^/  | /' "$OUT/report-abort.txt"
r1=$(write "$D/control" "run")
check no-device-after "run without devices: $r1" [ "$r1" = ENODEV ]

# ---- everything unloads ----
for m in rdma_traffic ib_core; do
	if timeout 60 rmmod $m; then pass "unload/$m"; else fail "unload/$m" "rmmod failed"; fi
done
left=$(lsmod | awk 'NR > 1 && $1 ~ /^(ib_|rdma|iw_)/ { print $1 }' | tr '\n' ' ')
check unload/none-left "$left" [ -z "$left" ]

# ---- the kernel's reports ----
n=$(dmesg | grep -cE 'WARNING:|BUG:|KASAN|general protection|possible circular|INFO: task .* blocked')
check kernel-reports "$n report lines in dmesg" [ "$n" -eq 0 ]
# Leaks: the plan's kmemleak scans at the end of the VM run
# (lab_kmemleak in lab/guest/plans/suite.sh) cover this scenario too; two
# scans of their own would cost the debug kernel some 90 s.
exit $rc
