#!/usr/bin/env bash
# make soak: long runs over a soft RoCE driver on our core, in one VM boot
# (lab/guest/scenarios/soak.sh; Documentation/lab.rst).  Not part of make
# check.
#
#   lab/host/soak.sh [--mode MODE[,MODE...]] [--duration SEC]
#                    [--runs N] [--driver in-tree|ours] [--run-timeout SEC]
#                    [--kernel test|stock] [--out DIR]
#
#   --mode         traffic (default): rdma-core's four pingpongs with -c
#                  and perftest's six tools, in turn; links: "rdma link
#                  delete"/"add" cycles under ib_write_bw traffic;
#                  modules: load/unload cycles of the whole stack with
#                  devices present; bigpong: ibv_rc_pingpong -s 65536
#                  -n 500 again and again (issue 19's stall); several,
#                  comma-separated, run in turn
#                  in the same boot, each with the duration and runs
#   --duration     seconds to go on for, per mode (default 600 for traffic
#                  alone, none otherwise)
#   --runs         runs or cycles at most, per mode (default: none for
#                  traffic alone, 100 otherwise)
#   --driver       in-tree (default): the kernel's rdma_rxe; ours: the one
#                  this tree builds (issue 19)
#   --run-timeout  the watchdog of one run or step (default 300 s)
#   --kernel       test (default: KASAN, lockdep, kmemleak) or stock
#   --out          keep the VM run there; stalls leave their stacks, QP
#                  states and counters in <out>/share/out/soak/MODE/stall-N/
#
# Builds our modules for the kernel, boots it once and runs the soak
# scenario; prints its result lines, "soak: MODE: N runs, F failures,
# S stalls, T s" and the kernel's reports (KASAN, lockdep, kmemleak, WARN,
# BUG).  Exit status 0 only if every run finished well and the kernel
# reported nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=test mode=traffic duration='' runs='' driver=in-tree watchdog=300 out=''
while [ $# -gt 0 ]; do
	case "$1" in
	--mode) mode=$2; shift 2 ;;
	--duration) duration=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--driver) driver=$2; shift 2 ;;
	--run-timeout) watchdog=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h|--help) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1" ;;
	esac
done
nmodes=0
for m in ${mode//,/ }; do
	case "$m" in traffic|links|modules|bigpong) ;; *) die "--mode traffic, links, modules or bigpong, not $m" ;; esac
	nmodes=$((nmodes + 1))
done
[ $nmodes -gt 0 ] || die "--mode traffic, links, modules or bigpong"
case "$mode" in
traffic) duration=${duration:-600} runs=${runs:-0} ;;
*) duration=${duration:-0} runs=${runs:-100} ;;
esac
case "$driver" in in-tree|ours) ;; *) die "--driver in-tree or ours" ;; esac
[[ "$duration$runs$watchdog" =~ ^[0-9]+$ ]] || die "--duration, --runs and --run-timeout take numbers"
build=''
if [ "$driver" = ours ]; then
	build=$(modules_with_rxe "$kernel")
else
	modules_for "$kernel"
fi
# The scenario's limit: per mode, the duration, or the runs at a watchdog
# each (a cycle has three watched steps); and 10 minutes for setting up.
if [ "$duration" -gt 0 ]; then
	limit=$(((duration + watchdog) * nmodes + 600))
else
	limit=$((runs * watchdog * 3 * nmodes + 600))
fi
log "soak: $mode, driver $driver, ${duration}s, $runs runs at most, watchdog ${watchdog}s, $kernel kernel; at most ${limit}s"
scenario_vm "$kernel" soak "$limit" "$out" "$build" <<EOT
SOAK_MODE=$mode
SOAK_DURATION=$duration
SOAK_RUNS=$runs
SOAK_DRIVER=$driver
SOAK_RUN_TIMEOUT=$watchdog
EOT
