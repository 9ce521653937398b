#!/usr/bin/env bash
# Boot one VM and run in it, in order: the module load check, KUnit suite
# modules and scenarios (lab/guest/plans/suite.sh); report every result.
#
#   lab/host/suite.sh --kernel test|stock [--build DIR] [--out DIR]
#                     [--timeout SEC] [--prefix P] [--data DIR] [--modload]
#                     [--kunit MODULE...] [--scenario NAME...]
#
#   --build DIR    our modules for that kernel (default build/<its release>)
#   --out DIR      keep the VM run there (console.log, share/out/...)
#   --data DIR     its files go to /lab/data in the guest; the plan reads
#                  variables for the scenarios from its file "env"
#                  (make fuzz)
#   --wire L:R:N   a NIC on a UDP link (lab/host/vm.sh, lab/host/pair.sh)
#   --prefix P     put P before scenario and module-load result names
#                  (make check: "test/" or "stock/"); KUnit results are
#                  always kunit/<suite>/<case>[/<param>]
#
# Prints one line per result (PASS/FAIL/SKIP NAME), then one line per kind
# of kernel report (report/kasan, report/lockdep, report/kmemleak,
# report/warn, report/bug, with the prefix) found after the plan started,
# then a summary.  Exit status 0 only if nothing failed or was reported.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel='' build='' out='' timeout=2400 prefix='' plan_args=() mode='' kunit=0 data=() wire=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--prefix) prefix=$2; shift 2 ;;
	--data) data=(--data "$2"); shift 2 ;;
	--wire) wire=(--wire "$2"); shift 2 ;;
	--modload) plan_args+=(--modload); shift ;;
	--kunit) plan_args+=(--kunit); mode=kunit; kunit=1; shift ;;
	--scenario) plan_args+=(--scenario); mode=scenario; shift ;;
	-h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*)
		[ -n "$mode" ] || die "$1: a module or scenario name needs --kunit or --scenario before it"
		if [ "$mode" = kunit ]; then plan_args+=("${1%.ko}"); else plan_args+=("$1"); fi
		shift ;;
	esac
done
case "$kernel" in
test)
	kdir=$(test_kernel_dir)
	[ -f "$kdir/.done" ] || kdir=$(dirname "$(ls -td "$LAB_CACHE"/kernel/*/.done 2>/dev/null | head -n1)")
	[ -f "$kdir/release" ] || die "no test kernel: run lab/host/build-kernel.sh"
	rel=$(cat "$kdir/release") ;;
stock)
	kdir=$(stock_kdir) || die "no linux-headers-*-amd64"
	rel=$(kdir_release "$kdir") ;;
*) die "--kernel test or --kernel stock" ;;
esac
build=${build:-$TOP_DIR/build/$rel}
[ -d "$build" ] || die "no modules in $build (make KDIR=...)"
out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/suite.XXXXXX")}

vrc=0
"$HOST_DIR/vm.sh" --kernel "$kernel" --modules "$build" --out "$out" --timeout "$timeout" \
	"${data[@]}" "${wire[@]}" --quiet "$GUEST_DIR/plans/suite.sh" "${plan_args[@]}" || vrc=$?

o="$out/share/out"
rc=0
# The plan's own result lines (module load, scenarios), prefixed; its
# failures to load or unload; its diagnostics (indented) stay in plan.log.
while IFS= read -r line; do
	case "$line" in
	"PASS "*|"FAIL "*|"SKIP "*)
		st=${line%% *}
		echo "$st $prefix${line#* }"
		[ "$st" != FAIL ] || rc=1 ;;
	"lab: FATAL"*|"lab: modprobe"*|"lab: rmmod"*) echo "$line" ;;
	esac
done < <(cat "$o/plan.log" 2>/dev/null)
if [ $vrc -ne 0 ]; then
	rc=1
	case $vrc in
	124) echo "FAIL ${prefix}vm (timeout after ${timeout}s)" ;;
	125) echo "FAIL ${prefix}vm (the VM stopped before the plan finished)" ;;
	126) echo "FAIL ${prefix}vm (an in-tree ib_core was loaded)" ;;
	*) grep -q '^FAIL ' "$o/plan.log" 2>/dev/null || echo "FAIL ${prefix}vm (plan exit status $vrc)" ;;
	esac
fi
logs=("$o/dmesg.txt")
[ -s "$o/dmesg.txt" ] || logs=("$out/console.log")
: >"$out/ktap.txt"
if [ $kunit -eq 1 ]; then
	python3 "$HOST_DIR/results.py" ktap "${logs[@]}" "$out/console.log" >"$out/ktap.txt" || rc=1
	cat "$out/ktap.txt"
fi
reports=("${logs[@]}")
[ -f "$o/kmemleak.txt" ] && reports+=("$o/kmemleak.txt")
since=()
[ -s "$o/jiffies0" ] && since=(--since-jiffies "$(cat "$o/jiffies0")")
[ -s "$o/modules.txt" ] && since+=(--modules "$o/modules.txt" "$build")
python3 "$HOST_DIR/results.py" reports "${since[@]}" "${reports[@]}" >"$out/reports.txt" || rc=1
sed -E "s#^(PASS|FAIL|SKIP) #\\1 $prefix#" "$out/reports.txt"
# Counts of result lines (grep -c exits 1 when a count is 0: not an error)
count() { { grep -c "$1" "$out/ktap.txt" "$o/plan.log" 2>/dev/null || true; } |
	awk -F: '{ s += $2 } END { print s + 0 }'; }
p=$(count '^PASS ')
f=$(count '^FAIL ')
echo "suite: $kernel kernel: $p passed, $f failed (before reports); VM $(cat "$out/seconds" 2>/dev/null || echo ?)s; run in $out"
exit $rc
