#!/bin/sh
# lab-check: no (make bench runs it: lab/host/bench.sh; Documentation/lab.rst)
# lab-kernels: stock
#
# The bench: the same runs on three stacks, one after the other in this
# boot, between rxe0 on veth0 (10.11.0.1) and rxe1 on veth1 (10.11.0.2):
#
#   intree  the kernel's own ib_core, ib_uverbs and rdma_rxe (from
#           kernel/, not updates/)
#   core    the kernel's rdma_rxe on our ib_core and ib_uverbs
#   ours    our rdma_rxe (hw/rxe) on our core
#
# perftest's ib_write_bw, ib_send_bw and ib_read_bw over BENCH_SIZES with
# one QP, ib_write_bw at 64 KiB with 4 QPs and as 2 processes at once,
# ib_send_lat, ib_write_lat and ib_read_lat at 2 B, and rdma_traffic (its
# verified rounds, as the kernel ULP sees the stack).  Each stack's
# hw_counters (both devices summed) are read before and after its runs.
#
# The environment (lab/host/bench.sh writes it):
#   BENCH_STACKS     the stacks, in order (default "intree core ours")
#   BENCH_SIZES      message sizes of the bandwidth runs, bytes
#   BENCH_BYTES      what one bandwidth run moves: its iterations are
#                    BENCH_BYTES / size, 100 to 5000
#   BENCH_LAT_ITERS  iterations of a latency run
#   BENCH_MTU        the veth pair's MTU
#   BENCH_REPEAT     runs of each bandwidth figure (its median is taken)
#   BENCH_RUN_TIMEOUT  seconds one run may take
#
# Figures go to $LAB_OUT/bench/figures.csv as
# "stack,test,bytes,qps,procs,metric,value" lines (metric: MBps, with
# MBps_low and MBps_high, typical_us, avg_us, p99_us, wall_s; counter/NAME
# for the counters), the
# tools' output to $LAB_OUT/bench/STACK/.  One result line per run
# (bench/STACK/TEST/...): PASS when it finished and its figure was read.
. /lab/guest-lib.sh
S=bench
IB=/sys/class/infiniband
B=10.11.0.2
STACKS=${BENCH_STACKS:-intree core ours}
SIZES=${BENCH_SIZES:-2 64 1024 4096 16384 65536 262144 1048576}
BYTES=${BENCH_BYTES:-67108864}
LAT_ITERS=${BENCH_LAT_ITERS:-2000}
MTU=${BENCH_MTU:-1500}
WATCHDOG=${BENCH_RUN_TIMEOUT:-300}
REPEAT=${BENCH_REPEAT:-3}
OUT=$LAB_OUT/bench
CSV=$OUT/figures.csv
T=/tmp/bench
STACK=''
port=18900

pass() { lab_pass "$S/$STACK/$1"; }
fail() { lab_fail "$S/$STACK/$1" "$2"; }
figure() {	# TEST BYTES QPS PROCS METRIC VALUE
	echo "$STACK,$1,$2,$3,$4,$5,$6" >>"$CSV"
}

# ---- the stacks ----------------------------------------------------------

# taint MOD: the loaded MOD's taint flags ("-" for none).
taint() { _t=$(cat "/sys/module/$1/taint" 2>/dev/null); echo "${_t:--}"; }

# stack_load: the modules of $STACK; each checked to be whose it should.
stack_load() {
	case $STACK in
	intree)
		lab_insmod_kernel ib_uverbs && lab_insmod_kernel rdma_rxe || return 1
		! lab_is_ours ib_core || { echo "lab: bench: ib_core is ours"; return 1; } ;;
	core)
		lab_load ib_uverbs && lab_insmod_kernel rdma_rxe || return 1
		! lab_is_ours rdma_rxe || { echo "lab: bench: rdma_rxe is ours"; return 1; } ;;
	ours)
		lab_load ib_uverbs && lab_load rdma_rxe || return 1 ;;
	*) echo "lab: bench: no stack $STACK"; return 1 ;;
	esac
	echo "lab: bench: $STACK: loaded ib_core taint $(taint ib_core)," \
		"rdma_rxe taint $(taint rdma_rxe) (ours are O)"
}

stack_up() {
	stack_load && lab_rxe_links || return 1
	echo "lab: bench: $STACK: rxe0 GID $G0, rxe1 GID $G1," \
		"active MTU $(ibv_devinfo -d rxe0 | awk '/active_mtu/ { print $2 }')"
}

stack_down() {
	for _d in rxe0 rxe1; do
		[ -e $IB/$_d ] && timeout "$WATCHDOG" rdma link delete $_d
	done
	lab_unload_all || echo "lab: bench: left loaded: $(lab_rdma_left)"
}

# Both devices' hw_counters summed, "NAME VALUE" lines, sorted.
counters() {
	for _dev in rxe0 rxe1; do
		for _c in "$IB/$_dev"/ports/1/hw_counters/*; do
			[ -f "$_c" ] && echo "${_c##*/} $(cat "$_c")"
		done
	done | awk '{ s[$1] += $2 } END { for (n in s) print n, s[n] }' | sort
}

# ---- perftest ------------------------------------------------------------

# perf_at PORT NAME TOOL BYTES ARGS...: one run of TOOL on TCP port PORT,
# the server on rxe1, the client on rxe0, both with ARGS; the client's
# output in $T/NAME.cli, and the run's wall time in $WALL.  Status 0 when
# both ended well.  As two hosts would: the client on CPU 0, where veth0's
# packets (rxe0's) are received, the server on CPU 1 with veth1's
# (lab_veth_pair's RPS); where the scheduler puts them otherwise changes
# a run's figures by up to half.
perf_at() {
	_p=$1 _n=$2 _tool=$3 _bytes=$4
	shift 4
	timeout -k 5 "$WATCHDOG" taskset -c 1 "$_tool" -d rxe1 -x "$G1" -p "$_p" \
		-s "$_bytes" -F "$@" >"$T/$_n.srv" 2>&1 &
	_srv=$!
	if ! lab_wait_for 60 lab_listening "$_p"; then
		kill $_srv 2>/dev/null
		wait $_srv
		echo "lab: bench: $_n: the server did not listen"
		return 1
	fi
	_t0=$(date +%s.%N)
	timeout -k 5 "$WATCHDOG" taskset -c 0 "$_tool" -d rxe0 -x "$G0" -p "$_p" \
		-s "$_bytes" -F "$@" $B >"$T/$_n.cli" 2>&1
	_cst=$?
	WALL=$(echo "$_t0 $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }')
	wait $_srv
	_sst=$?
	[ $_cst -eq 0 ] && [ $_sst -eq 0 ] && return 0
	echo "lab: bench: $_n: client exit $_cst, server exit $_sst"
	tail -n 3 "$T/$_n.cli" "$T/$_n.srv" | sed 's/^/    /'
	return 1
}

# perf NAME TOOL BYTES ARGS...: perf_at the next port.
perf() {
	port=$((port + 1))
	perf_at $port "$@"
}

# The average bandwidth (MB/s) of a bandwidth tool's result line for BYTES;
# nothing if there is none or it says 0 (perftest 4.5 prints 0.00 now and
# then for a run that moved its data: not a figure).
bw_of() { awk -v b="$2" '$1 == b && NF >= 5 && $4 > 0 { print $4; exit }' "$1"; }

# A latency tool's result line for BYTES: typical, average, 99th percentile.
lat_of() { awk -v b="$2" '$1 == b && NF >= 9 { print $5, $6, $8; exit }' "$1"; }

iters_for() {	# BYTES
	_i=$((BYTES / $1))
	[ $_i -ge 100 ] || _i=100
	[ $_i -le 5000 ] || _i=5000
	echo $_i
}

# The median, lowest and highest of numbers, one a line on stdin.
spread() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)], v[1], v[NR] }'
}

# bw_run TOOL BYTES QPS: REPEAT runs with a figure (a run whose figure
# perftest gives as 0 is run again, twice as many runs at most); the
# median bandwidth (and the lowest, the highest) and the median wall time.
bw_run() {
	_name=$1-$2-q$3 _good=0 _tries=0
	: >"$T/$_name.bw"
	: >"$T/$_name.wall"
	while [ $_good -lt "$REPEAT" ]; do
		_tries=$((_tries + 1))
		if [ $_tries -gt $((REPEAT * 2)) ]; then
			fail "$1/$2/q$3" "$_good runs of $_tries with a figure"
			return
		fi
		if ! perf "$_name" "$1" "$2" -n "$(iters_for "$2")" -q "$3"; then
			fail "$1/$2/q$3" "run $_tries failed"
			return
		fi
		_bw=$(bw_of "$T/$_name.cli" "$2")
		[ -n "$_bw" ] || continue
		echo "$_bw" >>"$T/$_name.bw"
		echo "$WALL" >>"$T/$_name.wall"
		_good=$((_good + 1))
	done
	read -r _med _lo _hi <<-EOT
	$(spread <"$T/$_name.bw")
	EOT
	figure "$1" "$2" "$3" 1 MBps "$_med"
	figure "$1" "$2" "$3" 1 MBps_low "$_lo"
	figure "$1" "$2" "$3" 1 MBps_high "$_hi"
	figure "$1" "$2" "$3" 1 wall_s "$(spread <"$T/$_name.wall" | cut -d' ' -f1)"
	pass "$1/$2/q$3"
}

lat_run() {	# TOOL
	if ! perf "$1-2" "$1" 2 -n "$LAT_ITERS"; then
		fail "$1/2" "the run failed"
		return
	fi
	# shellcheck disable=SC2046
	set -- "$1" $(lat_of "$T/$1-2.cli" 2)
	[ $# -eq 4 ] || { fail "$1/2" "no result line"; return; }
	figure "$1" 2 1 1 typical_us "$2"
	figure "$1" 2 1 1 avg_us "$3"
	figure "$1" 2 1 1 p99_us "$4"
	pass "$1/2"
}

# Two ib_write_bw processes at once, 64 KiB, a QP each: their sum (tried
# again, three times at most, when perftest gives one of them as 0).
procs_run() {
	_b=65536 _it=$(iters_for 65536) _sum='' _tries=0
	while [ -z "$_sum" ] && [ $_tries -lt 3 ]; do
		_tries=$((_tries + 1))
		perf_at $((port + 1)) procs-a ib_write_bw $_b -n "$_it" &
		_pa=$!
		perf_at $((port + 2)) procs-b ib_write_bw $_b -n "$_it" &
		_pb=$!
		port=$((port + 2))
		wait $_pa
		_ra=$?
		wait $_pb
		_rb=$?
		if [ $_ra -ne 0 ] || [ $_rb -ne 0 ]; then
			fail "ib_write_bw/$_b/procs2" "a run failed"
			return
		fi
		_sum=$(cat "$T/procs-a.cli" "$T/procs-b.cli" |
			awk -v b=$_b '$1 == b && NF >= 5 && $4 > 0 { s += $4; n++ }
				END { if (n == 2) printf "%.2f", s }')
	done
	[ -n "$_sum" ] || { fail "ib_write_bw/$_b/procs2" "no bandwidth in $_tries tries"; return; }
	figure ib_write_bw $_b 1 2 MBps "$_sum"
	pass "ib_write_bw/$_b/procs2"
}

# ---- rdma_traffic --------------------------------------------------------

# Our traffic ULP between rxe0 and rxe1 (on the kernel's own ib_core too:
# its imports are the kernel's); each operation's bandwidth by size.
traffic_run() {
	if [ "$STACK" = intree ]; then
		insmod "$(modinfo -n rdma_traffic)"
	else
		lab_load rdma_traffic
	fi || { fail traffic/load "rdma_traffic did not load"; return; }
	if lab_traffic rxe0 rxe1 >"$T/traffic.out"; then
		sed -n 's/.* op=\([a-z_]*\) size=\([0-9]*\) .* bytes_per_s=\([0-9]*\) status=ok.*/\1 \2 \3/p' \
			"$LAB_TRAFFIC/report" | while read -r _op _sz _bps; do
			figure "traffic_$_op" "$_sz" 1 1 MBps \
				"$(echo "$_bps" | awk '{ printf "%.2f", $1 / 1000000 }')"
		done
		pass traffic
	else
		fail traffic "state $(lab_traffic_state)"
		tail -n 5 "$T/traffic.out"
	fi
	rmmod rdma_traffic
}

# ---- one stack -----------------------------------------------------------

bench_stack() {
	mkdir -p "$T"
	rm -f "$T"/*
	lab_kmsg "bench: $STACK"
	if ! stack_up; then
		fail setup "the stack did not come up"
		stack_down
		return
	fi
	pass setup
	counters >"$T/counters.before"
	for _tool in ib_write_bw ib_send_bw ib_read_bw; do
		for _sz in $SIZES; do
			bw_run "$_tool" "$_sz" 1
		done
	done
	bw_run ib_write_bw 65536 4
	procs_run
	for _tool in ib_send_lat ib_write_lat ib_read_lat; do
		lat_run $_tool
	done
	counters >"$T/counters.after"
	join "$T/counters.before" "$T/counters.after" |
		while read -r _c _b _a; do
			figure counters 0 0 0 "counter/$_c" $((_a - _b))
		done
	traffic_run
	stack_down
	mkdir -p "$OUT/$STACK"
	cp "$T"/* "$OUT/$STACK/"
	lab_kernel_log_clean "$S/$STACK/kernel-log" "bench: $STACK"
}

mkdir -p "$OUT"
echo "stack,test,bytes,qps,procs,metric,value" >"$CSV"
if ! lab_veth_pair; then
	lab_fail "$S/setup/veth" "veth pair"
	exit 0
fi
if ! ip link set veth0 mtu "$MTU" || ! ip link set veth1 mtu "$MTU"; then
	lab_fail "$S/setup/mtu" "MTU $MTU"
fi
{
	echo "kernel $(uname -r)"
	echo "vcpus $(nproc)"
	echo "mtu $MTU"
	echo "perftest $(dpkg-query -W -f='${Version}' perftest 2>/dev/null)"
	echo "rdma-core $(dpkg-query -W -f='${Version}' rdma-core 2>/dev/null)"
} >"$OUT/guest.txt"
for STACK in $STACKS; do
	bench_stack
done
lab_veth_pair_del
