#!/usr/bin/env bash
# Run KUnit suite modules in the test-kernel VM and report every case.
#
#   lab/host/kunit.sh [--build DIR] [--out DIR] [--timeout SEC] SUITE_MODULE...
#
#   --build DIR   our modules built for the test kernel (make KDIR=<test
#                 kernel>/linux); default build/<test kernel release>
#   --out DIR     keep the VM run there (console.log, share/out/dmesg.txt...)
#
# In the guest (lab/guest/plans/kunit.sh): ib_core and rdma_kunit_tdev (ours, or
# fail), then each suite module loaded and unloaded, then everything
# unloaded and two kmemleak scans.  Prints one line per case
# (PASS/FAIL/SKIP kunit/<suite>/<case>[/<param>]), a summary per suite, and
# one line per kind of kernel report (report/kasan, report/lockdep,
# report/kmemleak, report/warn, report/bug) found after the plan started.
# Exit status 0 only if every case passed (or skipped) and nothing was
# reported.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

build='' out='' timeout=1500
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	-h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || die "usage: lab/host/kunit.sh [--build DIR] SUITE_MODULE..."
kdir=$(test_kernel_dir)
[ -f "$kdir/.done" ] || kdir=$(dirname "$(ls -td "$LAB_CACHE"/kernel/*/.done 2>/dev/null | head -n1)")
[ -f "$kdir/release" ] || die "no test kernel: run lab/host/build-kernel.sh"
build=${build:-$TOP_DIR/build/$(cat "$kdir/release")}
for m in "$@"; do
	[ -n "$(find "$build" -name "${m%.ko}.ko" | head -n1)" ] || die "no $m.ko in $build"
done
suites=("${@%.ko}")
out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/kunit.XXXXXX")}

vrc=0
"$HOST_DIR/vm.sh" --kernel test --modules "$build" --out "$out" --timeout "$timeout" --mem 1024 \
	--quiet "$GUEST_DIR/plans/kunit.sh" "${suites[@]}" || vrc=$?

o="$out/share/out"
rc=0
# The plan's own failures (a module that did not load, unload errors).
grep -E '^(FAIL|lab: (FATAL|modprobe|rmmod|RDMA))' "$o/plan.log" 2>/dev/null || true
if [ $vrc -ne 0 ]; then
	rc=1
	case $vrc in
	124) echo "FAIL kunit/vm (timeout after ${timeout}s)" ;;
	125) echo "FAIL kunit/vm (the VM stopped before the plan finished)" ;;
	126) echo "FAIL kunit/vm (an in-tree ib_core was loaded)" ;;
	*) echo "FAIL kunit/vm (plan exit status $vrc)" ;;
	esac
fi
logs=("$o/dmesg.txt")
[ -s "$o/dmesg.txt" ] || logs=("$out/console.log")
python3 "$HOST_DIR/results.py" ktap "${logs[@]}" "$out/console.log" | tee "$out/ktap.txt" || rc=1
reports=("${logs[@]}")
[ -f "$o/kmemleak.txt" ] && reports+=("$o/kmemleak.txt")
[ -s "$o/dmesg.txt" ] || reports=("$out/console.log")
since=()
[ -s "$o/jiffies0" ] && since=(--since-jiffies "$(cat "$o/jiffies0")")
[ -s "$o/modules.txt" ] && since+=(--modules "$o/modules.txt" "$build")
python3 "$HOST_DIR/results.py" reports "${since[@]}" "${reports[@]}" | tee "$out/reports.txt" || rc=1
p=$(grep -c '^PASS kunit/' "$out/ktap.txt" || true)
f=$(grep -c '^FAIL kunit/' "$out/ktap.txt" || true)
s=$(grep -c '^SKIP kunit/' "$out/ktap.txt" || true)
echo "kunit: $p passed, $f failed, $s skipped; VM $(cat "$out/seconds" 2>/dev/null || echo ?)s; run in $out"
exit $rc
