#!/usr/bin/env bash
# make bench: the same runs side by side on three RDMA stacks, in one boot
# of Debian's stock kernel (lab/guest/scenarios/bench.sh), between two soft
# RoCE devices on the ends of a veth pair:
#   (a) intree  the kernel's whole in-tree stack
#   (b) core    Debian's rdma_rxe on our ib_core and ib_uverbs
#   (c) ours    our rdma_rxe (hw/rxe) on our core
# perftest's ib_write_bw, ib_send_bw and ib_read_bw over the sizes with 1
# QP, ib_write_bw at 64 KiB with 4 QPs and as 2 processes, ib_send_lat,
# ib_write_lat and ib_read_lat at 2 B (typical, average, 99th percentile),
# rdma_traffic, and each stack's retransmit and drop counters.  A
# benchmark, not a test: no figure passes or fails.
#
#   lab/host/bench.sh [--sizes "2 64 ..."] [--bytes N] [--lat-iters N]
#                     [--mtu N] [--repeat N] [--stacks "intree core ours"]
#                     [--run-timeout SEC] [--out DIR]
#
#   --sizes        message sizes of the bandwidth runs (default 2 B to
#                  1 MiB: 2 64 1024 4096 16384 65536 262144 1048576)
#   --bytes        what one bandwidth run moves (default 64 MiB; its
#                  iterations: bytes / size, 100 to 5000)
#   --lat-iters    iterations of a latency run (default 2000)
#   --mtu          the veth pair's MTU (default 1500: RoCE path MTU 1024)
#   --repeat       runs of each bandwidth figure, the median taken
#                  (default 3)
#   --stacks       which stacks, in order (default "intree core ours")
#   --run-timeout  seconds one run may take (default 300)
#   --out          the results' directory (default build/bench)
#
# Prints every figure with the ratios b/a and c/a, and writes to the
# results' directory: bench.csv (one row per figure, the three stacks and
# the ratios), figures.csv (the guest's raw rows), bench.png (bandwidth
# against size per tool; the latencies), env.txt (kernel, MTU, vCPUs, host
# load before and after, other VMs running) and the VM run (vm/).  Exit
# status 0 when the VM ran the scenario; a run that failed is reported.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sizes='' bytes='' lat_iters='' mtu=1500 repeat=3 stacks='intree core ours' watchdog=300
out="$TOP_DIR/build/bench"
while [ $# -gt 0 ]; do
	case "$1" in
	--sizes) sizes=$2; shift 2 ;;
	--bytes) bytes=$2; shift 2 ;;
	--lat-iters) lat_iters=$2; shift 2 ;;
	--mtu) mtu=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--stacks) stacks=$2; shift 2 ;;
	--run-timeout) watchdog=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h|--help) sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1" ;;
	esac
done
for s in $stacks; do
	case $s in intree|core|ours) ;; *) die "--stacks: intree, core or ours, not $s" ;; esac
done
[[ "$mtu$repeat$watchdog${bytes:-0}${lat_iters:-0}" =~ ^[0-9]+$ ]] ||
	die "--mtu, --repeat, --bytes, --lat-iters and --run-timeout take numbers"
[[ "$sizes" =~ ^[0-9\ ]*$ ]] || die "--sizes takes numbers"

need_pkgs linux-headers-amd64 rsync kmod python3 python3-matplotlib
build=$(modules_with_rxe stock)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/bench.csv "$out"/figures.csv "$out"/bench.png

host_state() {	# WHEN
	echo "host_load_$1 $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "host_other_vms_$1 $(pgrep -c qemu-system || true)"
}
{
	echo "kernel_release $(kdir_release "$(kernel_kdir stock)")"
	echo "stacks $stacks"
	echo "host_cpus $(nproc)"
	echo "host_cpu $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
	echo "ours $(git -C "$TOP_DIR" describe --always --dirty 2>/dev/null || cat "$TOP_DIR/VERSION")"
	host_state before
} >"$out/env.txt"

# Each stack: some 3 minutes on the stock kernel under TCG, and the
# retransmit timeouts of the in-tree driver; then the boot.
limit=$((1800 + 600 * repeat * $(wc -w <<<"$stacks")))
# Figures of a TCG guest move with the host's load: say when it had any.
others=$(pgrep -c qemu-system || true)
[ "$others" -eq 0 ] || log "bench: warning: $others other VMs are running; figures will be lower and noisier"
log "bench: stacks $stacks, MTU $mtu, at most ${limit}s"
rc=0
{
	echo "BENCH_STACKS='$stacks'"
	[ -z "$sizes" ] || echo "BENCH_SIZES='$sizes'"
	[ -z "$bytes" ] || echo "BENCH_BYTES=$bytes"
	[ -z "$lat_iters" ] || echo "BENCH_LAT_ITERS=$lat_iters"
	echo "BENCH_MTU=$mtu"
	echo "BENCH_REPEAT=$repeat"
	echo "BENCH_RUN_TIMEOUT=$watchdog"
} | scenario_vm stock bench "$limit" "$out/vm" "$build" || rc=$?
host_state after >>"$out/env.txt"
g="$out/vm/share/out/bench"
[ -f "$g/figures.csv" ] || die "the VM left no figures (status $rc; $out/vm/console.log)"
cp "$g/figures.csv" "$out/figures.csv"
sed 's/^/guest_/' "$g/guest.txt" >>"$out/env.txt" 2>/dev/null || true
# Debian's python3, where apt put matplotlib (not another one on PATH)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$HOST_DIR/bench.py" "$out" || rc=1
exit $rc
