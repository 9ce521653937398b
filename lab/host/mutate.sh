#!/usr/bin/env bash
# make mutate: do the KUnit suites catch bugs in ib_core, the connection
# managers (ib_cm, iw_cm, rdma_cm) and ib_uverbs?
# Builds a mutant module for each entry of a mutation list, runs the suite
# modules that cover the mutated code against each one in the test kernel,
# and says per mutation whether they caught it (Documentation/mutation.rst).
#
#   lab/host/mutate.sh [options] [LIST]
#
#   LIST            the mutation list (default kunit/mutations.list)
#   --check         only parse LIST and find each entry's code; no build,
#                   no VM
#   --build-only    build the mutants (each must compile), no VM
#   --out DIR       keep the run there (default build/mutate/run)
#   --timeout SEC   a mutant still running after SEC seconds counts as a
#                   hang (default: 120 s and four times what its suites
#                   took at the baseline)
#   --exclude CASE  ignore the result of KUnit case SUITE/CASE (and the
#                   leaks its backtraces name) in the baseline and in every
#                   mutant; repeatable, or comma-separated
#   --min-rate N    exit status 3 when less than N percent are caught
#   --mem MB        guest memory (default 1024)
#   --jobs N        run the mutants in N VMs at once (default 1): after the
#                   baseline's own boot, each VM takes every Nth mutant
#
# Builds in build/mutate/<release>/ (incremental, apart from build/<release>),
# then boots the test kernel and runs the unmutated ib_core (the baseline)
# and every mutant in that boot; a mutant that hangs, crashes or leaves the
# kernel unfit to judge the next one costs a new boot for the rest.  Prints
# one line per mutation, then a summary and the catch rate.  Exit status 0
# when the run completed, 1 when it could not (a failing baseline, a VM
# that does not boot), 3 below --min-rate.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

list=$TOP_DIR/kunit/mutations.list check=0 build_only=0 out='' timeout='' min_rate='' mem=1024
jobs=1
exclude=() excluded=()
while [ $# -gt 0 ]; do
	case "$1" in
	--check) check=1; shift ;;
	--build-only) build_only=1; shift ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--exclude) exclude+=(--exclude "$2"); IFS=, read -ra x <<<"$2"; excluded+=("${x[@]}"); shift 2 ;;
	--min-rate) min_rate=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	-h|--help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) list=$1; shift ;;
	esac
done
[ -f "$list" ] || die "no mutation list $list"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs wants a number of VMs, not $jobs"
list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")
mutate_py() { python3 "$HOST_DIR/mutate.py" "$@"; }

if [ $check -eq 1 ]; then
	mutate_py check "$list" --tree "$TOP_DIR"
	exit
fi

kdir=$(test_kernel_dir)
[ -f "$kdir/.done" ] || die "no test kernel in $kdir: build it with lab/host/build-kernel.sh"
rel=$(cat "$kdir/release")
mirror=$TOP_DIR/build/mutate/$rel
state=${out:-$TOP_DIR/build/mutate/run}
mkdir -p "$state"
state=$(cd "$state" && pwd)
rm -rf "${state:?}"/*
t0=$(date +%s)

# The baseline: the sources mirrored into the mutants' build directory and
# built; what the VM loads besides the mutants comes from here.
log "mutate: building the baseline in $mirror"
mk=(make -C "$TOP_DIR" -s KDIR="$kdir/linux" BUILD="$mirror")
"${mk[@]}" modules >"$state/build.log" 2>&1 ||
	{ tail -n 20 "$state/build.log" >&2; die "the baseline does not build"; }
mkdir -p "$state/modules"
# What the build made (its modules.order), with a modules.order of its own.
while read -r ko; do
	rel=${ko#"$mirror"/}
	mkdir -p "$state/modules/$(dirname "$rel")"
	cp "$ko" "$state/modules/$rel"
	echo "$rel" >>"$state/modules/modules.order"
done < <(built_modules "$mirror")

log "mutate: building the mutants of $list"
mutate_py build "$list" --tree "$mirror" --state "$state" --make "${mk[@]}" kbuild
tb=$(date +%s)
[ $build_only -eq 0 ] || exit 0
mapfile -t keys < <(sed -n 's/^\(m[0-9]*\) .*/\1/p' "$state/data/mutants")
printf '%s\n' "${excluded[@]}" >"$state/data/exclude"

# How long each mutant may run: --timeout, or 120 s and four times what its
# suites took at the baseline (STEPS: the baseline's steps in the guest).
declare -A tmo=([baseline]=${timeout:-600})
set_timeouts() {	# STEPS
	local -A secs=()
	local st what m from to key suites t
	while read -r st what m _ from _ to; do
		[ "$st $what" = "ok run" ] && secs[$m]=$((${to%%.*} - ${from%%.*} + 1))
	done <"$1"
	while read -r key suites; do
		t=120
		for m in $suites; do
			t=$((t + 4 * ${secs[$m]:-60}))
		done
		tmo[$key]=${timeout:-$t}
	done <"$state/data/mutants"
}

# One boot: the plan runs the given keys in order.  Watches its progress
# (lab/guest/plans/mutate.sh): a mutant that runs longer than its timeout,
# oopses or has a task blocked (the hung task detector) stops the VM, and
# so does the end of the plan (everything is on the share by then: no need
# to wait for a power-off).  Appends "KEY BOOT end|timeout|hang|crash START
# END" (host times) to the ledger for every mutant that started.  Sets
# $stop when the run cannot go on.
stop='' vm=''
# Stopped or interrupted: the VM goes too.
trap '[ -z "$vm" ] || kill "$vm" 2>/dev/null; exit 130' INT TERM
boot() {	# N KEY...
	local run=$state/boot-$1 alive=1 cur='' now seen=0 line k fate=''
	local t_start prog
	local -A since=()
	shift
	"$HOST_DIR/vm.sh" --kernel test --modules "$state/modules" --data "$state/data" \
		--out "$run" --mem "$mem" \
		--timeout $(($# * 400 + 900)) --quiet \
		"$GUEST_DIR/plans/mutate.sh" "$@" >"$run.log" 2>&1 &
	vm=$!
	# The VM may be gone already.
	stop_vm() { kill "$vm" 2>/dev/null || true; }
	t_start=$(date +%s)
	prog=$run/share/out/progress
	while [ $alive -eq 1 ]; do
		sleep 2
		kill -0 "$vm" 2>/dev/null || alive=0
		now=$(date +%s)
		if [ ! -s "$prog" ]; then
			if [ $alive -eq 1 ] && [ $((now - t_start)) -gt 600 ]; then
				stop_vm; fate=boot
			fi
			continue
		fi
		while IFS= read -r line; do
			seen=$((seen + 1))
			case "$line" in
			"start "*) cur=${line#start }; since[$cur]=$now ;;
			"end "*)
				k=${line#end }; k=${k%% *}
				echo "$k $run end ${since[$k]} $now" >>"$state/ledger"
				cur=''
				if [ "$k" != baseline ]; then
					mutate_py judge --state "$state" --id "$k" "${exclude[@]}" || true
				elif mutate_py judge --state "$state" --id baseline "${exclude[@]}"; then
					set_timeouts "$run/share/out/m/baseline/steps"
				else
					stop='the baseline fails'
				fi
				case "$line" in
				*unfit*)
					log "mutate: after ${line#end }"
					cur=+finished ;;
				esac ;;
			"done") cur=+finished ;;
			esac
		done < <(tail -n +$((seen + 1)) "$prog")
		if [ $alive -eq 0 ]; then
			break
		elif [ -n "$stop" ] || [ "$cur" = +finished ]; then
			stop_vm
		elif [ -z "$cur" ]; then
			continue
		elif [ $((now - since[$cur])) -gt "${tmo[$cur]}" ]; then
			stop_vm; fate=timeout
		else
			# (The first sed may die of SIGPIPE when the second quits.)
			fate=$(sed -n "/lab: mutant $cur start/,\$p" "$run/console.log" 2>/dev/null |
			       sed -n -e '/Oops: \|kernel BUG at\|general protection fault\|Kernel panic/{s/.*/crash/p;q}' \
				      -e '/blocked for more than/{s/.*/hang/p;q}') || true
			if [ -n "$fate" ]; then
				# Let the report reach the console, then stop the VM.
				sleep 10
				stop_vm
			fi
		fi
	done
	wait "$vm" || true
	if [ -n "$cur" ] && [ "$cur" != +finished ]; then
		echo "$cur $run ${fate:-crash} ${since[$cur]} $(date +%s)" >>"$state/ledger"
		if [ "$cur" = baseline ]; then
			stop="the baseline did not finish (${fate:-crash}; $run)"
			return
		fi
		mutate_py judge --state "$state" --id "$cur" "${exclude[@]}" || true
	fi
	[ "$fate" != boot ] || stop="the VM did not reach the plan in 600 s ($run)"
}

# run_lane LANE KEY...: boots until every key ran or the run stops; the
# boots are named boot-LANE1, boot-LANE2...  A stop is written to
# $state/stop (lanes run in subshells).
run_lane() {	# LANE KEY...
	local lane=$1 n=0 k
	local -a todo rest
	shift
	# A lane in a subshell has no trap of the parent's: its VM goes with it
	trap '[ -z "$vm" ] || kill "$vm" 2>/dev/null; exit 130' INT TERM
	todo=("$@")
	while [ ${#todo[@]} -gt 0 ] && [ -z "$stop" ]; do
		n=$((n + 1))
		log "mutate: boot $lane$n: ${#todo[@]} to run, from ${todo[0]}"
		boot "$lane$n" "${todo[@]}"
		rest=()
		for k in "${todo[@]}"; do
			grep -q "^$k " "$state/ledger" || rest+=("$k")
		done
		grep -q " $state/boot-$lane$n " "$state/ledger" || [ -n "$stop" ] ||
			stop="boot $lane$n ran nothing ($state/boot-$lane$n.log)"
		todo=("${rest[@]}")
	done
	[ -z "$stop" ] || echo "$stop" >>"$state/stop"
}

: >"$state/ledger"
rm -f "$state/stop"
if [ "$jobs" -eq 1 ]; then
	run_lane '' baseline "${keys[@]}"
else
	# The baseline alone first: it sets every mutant's timeout.
	run_lane '' baseline
	if [ -z "$stop" ]; then
		trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT TERM
		for ((j = 1; j <= jobs; j++)); do
			lane_keys=()
			for ((i = j - 1; i < ${#keys[@]}; i += jobs)); do
				lane_keys+=("${keys[i]}")
			done
			[ ${#lane_keys[@]} -eq 0 ] || run_lane "$j." "${lane_keys[@]}" &
		done
		wait
	fi
fi
[ ! -s "$state/stop" ] || stop=$(head -n 1 "$state/stop")
n=$(find "$state" -maxdepth 1 -name 'boot-*.log' | wc -l)
t1=$(date +%s)

echo
rc=0
mutate_py judge --state "$state" "${exclude[@]}" ${min_rate:+--min-rate "$min_rate"} |
	tee "$state/results.txt" || rc=${PIPESTATUS[0]}
echo "wall time $(((t1 - t0) / 60)) min $(((t1 - t0) % 60)) s (builds $((tb - t0)) s)," \
	"$n VM boot(s); run in $state" | tee -a "$state/results.txt"
if [ -n "$stop" ]; then
	log "mutate: stopped: $stop"
	exit 1
fi
exit "$rc"
