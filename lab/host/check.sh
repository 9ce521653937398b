#!/usr/bin/env bash
# make check (and .ci/run): every test, on both kernels.
#
#   lab/host/check.sh
#
# 0. the README's commands get past the Makefile with no kernel trees
#    (lab/host/fresh-parse.sh: fresh/*)
# 1. installs what it needs (Debian bookworm: headers, linux-source-6.1,
#    compiler and kernel build deps, sparse, QEMU, debootstrap)
# 2. the debug test kernel (lab/host/build-kernel.sh, cached; ~21 min when not),
#    the root filesystem (lab/host/build-rootfs.sh, cached) and Debian's stock
#    kernel image (lab/host/stock-kernel.sh, cached)
# 3. builds our modules for the test kernel with W=1 (build/test, warnings/test)
# 4. the test-kernel VM, in the background from here on (lab/host/suite.sh,
#    one boot): every KUnit suite module (kunit/<suite>/<case>), then every
#    scenario of lab/guest/scenarios (test/<scenario>/<case>), and the kernel
#    log's reports (test/report/{kasan,lockdep,kmemleak,warn,bug})
# 5. beside it, at a lower priority: our modules for the stock kernel with
#    W=1 (build/stock, warnings/stock; the later makes of a tree pass W=1
#    too, or kbuild would rebuild it), then at once
# 6. the stock-kernel VM, in the background at nice 10 beside the
#    test-kernel VM, with those modules: insert and remove our modules
#    (stock/modload/*), every scenario (stock/<scenario>/*), its reports
#    (stock/report/*); with a second VM beside it, Debian's in-tree stack
#    across a virtual wire (lab/host/pair.sh), for the interop scenario
#    (stock/interop/*, stock/peer-vm)
# 7. while the VMs run, at a lower priority: sparse, make C=2, for the
#    stock kernel (sparse/stock: warnings in our files); make abi-check
#    against the stock kernel and its ULP modules, and against the test
#    kernel and its in-tree ULP builds (abi-check/stock, abi-check/test);
#    checkpatch over our C files; kunit/coverage.py (every export called);
#    the DKMS package (make deb), installed and removed in a throwaway
#    chroot (lab/host/deb-check.sh --no-update: deb/*; make deb-check adds
#    the kernel update), its modules the stock VM's (deb/same-modules:
#    same set, same srcversion)
#
# One line per result, then "N passed, N failed[, N skipped]"; exit status 1
# on any failure.  Logs in build/check/, the wall time of each stage in
# build/check/times.txt.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

LOGS="$TOP_DIR/build/check"
rm -rf "$LOGS"
mkdir -p "$LOGS"
npass=0 nfail=0 nskip=0
t0=$(date +%s)
export LAB_TIMES="$LOGS/times.txt"
{
	echo "# make check, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs"
	echo "# caches before the run: test kernel $([ -f "$(test_kernel_dir)/.done" ] && echo warm || echo cold)," \
		"root filesystem $(ls "$LAB_CACHE"/rootfs/*/.done >/dev/null 2>&1 && echo warm || echo cold)," \
		"headers $(stock_kdir >/dev/null && echo installed || echo absent)"
} >"$LAB_TIMES"

result() {	# STATUS NAME [DETAIL]
	case "$1" in
	PASS) npass=$((npass + 1)) ;;
	FAIL) nfail=$((nfail + 1)) ;;
	SKIP) nskip=$((nskip + 1)) ;;
	esac
	echo "$1 $2${3:+ ($3)}"
}

# Result lines a tool printed (PASS/FAIL/SKIP name (detail)), counted;
# everything else it printed goes to the log only.
results_from() {	# FILE [PREFIX]
	local line status rest
	while IFS= read -r line; do
		status=${line%% *} rest=${line#* }
		case "$status" in
		PASS|FAIL|SKIP) result "$status" "${2:-}$rest" ;;
		*) case "$line" in "    "*) echo "$line" ;; esac ;;
		esac
	done <"$1"
}

step() { log "check: $* ($(($(date +%s) - t0))s)"; }

# Warnings and errors that point at our sources in a build log.
our_diags() {	# LOG BUILD_DIR
	grep -E "^($2/|\\./)?(core|hw|uverbs|ulp|kunit|include)/[^:]+:[0-9]+(:[0-9]+)?: (warning|error)" "$1" |
		sed "s|^$2/||" | sort -u
}

step "the README's commands with no kernel trees"
timed fresh-parse "$HOST_DIR/fresh-parse.sh" >"$LOGS/fresh.log" 2>&1
results_from "$LOGS/fresh.log"

step "installing what is missing"
timed packages need_pkgs build-essential linux-headers-amd64 linux-source-6.1 rsync kmod python3 \
	sparse qemu-system-x86 debootstrap e2fsprogs flex bison bc libelf-dev \
	libssl-dev cpio xz-utils ||
	{ result FAIL setup "apt-get install failed"; echo "$npass passed, $nfail failed"; exit 1; }

skdir=$(stock_kdir)
srel=$(kdir_release "$skdir")

# The root filesystem builds while the kernel does (network and dpkg
# against compiling).
step "root filesystem, stock kernel image and the DKMS chroot's base (background)"
# The DKMS chroot's base is not this job's result: a failure to build it
# shows in the deb/ results, which build it again if it is missing.
(
	timed rootfs "$HOST_DIR/build-rootfs.sh" && timed stock-image "$HOST_DIR/stock-kernel.sh"
	rc=$?
	timed deb-chroot-base "$HOST_DIR/deb-check.sh" --base || true
	exit $rc
) >"$LOGS/rootfs.log" 2>&1 &
rootfs_pid=$!

step "test kernel (cached, or about 21 minutes)"
tk=
if tk=$(timed test-kernel "$HOST_DIR/build-kernel.sh" 2>"$LOGS/kernel.log") && [ -f "$tk/.done" ]; then
	trel=$(cat "$tk/release")
	result PASS lab/test-kernel
else
	tail -n 20 "$LOGS/kernel.log"
	result FAIL lab/test-kernel "see $LOGS/kernel.log"
	tk=
fi
if timed rootfs-wait wait $rootfs_pid; then
	result PASS lab/rootfs
	have_rootfs=1
else
	tail -n 20 "$LOGS/rootfs.log"
	result FAIL lab/rootfs "see $LOGS/rootfs.log"
	have_rootfs=0
fi

# diags_result RESULT LOG BUILD_DIR WHAT: PASS if LOG has no diagnostic in
# our files (kept in LOG's .txt twin), else FAIL with their count.
diags_result() {
	local txt=${2%.log}.txt n

	n=$(our_diags "$2" "$3" | tee "$txt" | wc -l)
	if [ "$n" -eq 0 ]; then
		result PASS "$1"
	else
		head -n 20 "$txt"
		result FAIL "$1" "$n $4"
	fi
}

# build_for NAME KDIR: W=1 build.  Sets built_NAME.
build_for() {
	local name=$1 kdir=$2 rel b
	rel=$(kdir_release "$kdir")
	b="$TOP_DIR/build/$rel"
	step "building for the $name kernel ($rel) with W=1"
	if timed "build-$name" nice -n "$bg_nice" make -C "$TOP_DIR" KDIR="$kdir" W=1 \
		>"$LOGS/build-$name.log" 2>&1; then
		result PASS "build/$name"
		eval "built_$name=1"
	else
		our_diags "$LOGS/build-$name.log" "$b" | grep error | head -n 20
		result FAIL "build/$name" "see $LOGS/build-$name.log"
		eval "built_$name=0"
		return
	fi
	diags_result "warnings/$name" "$LOGS/build-$name.log" "$b" "W=1 warnings"
}

# sparse_for NAME KDIR: sparse over the build of build_for (once, for the
# target kernel: the same sources give sparse the same code).
sparse_for() {
	local name=$1 kdir=$2 b
	b="$TOP_DIR/build/$(kdir_release "$kdir")"
	step "sparse (make C=2) for the $name kernel"
	# W=1 as the build had it: other flags would recompile everything.
	if ! timed "sparse-$name" nice -n "$bg_nice" make -C "$TOP_DIR" KDIR="$kdir" W=1 C=2 \
		>"$LOGS/sparse-$name.log" 2>&1; then
		result FAIL "sparse/$name" "make C=2 failed, see $LOGS/sparse-$name.log"
		return
	fi
	diags_result "sparse/$name" "$LOGS/sparse-$name.log" "$b" "warnings"
}

# rxe_for NAME KDIR: hw/rxe with OOT_RXE=m, which the build above leaves out
# (oot_rxe_tree), with W=1 and sparse, against that build's Module.symvers.
rxe_for() {
	local name=$1 kdir=$2 d
	step "hw/rxe with OOT_RXE=m for the $name kernel (W=1, sparse)"
	d=$(oot_rxe_tree "$kdir")
	# shellcheck disable=SC2046
	if ! timed "rxe-$name" nice -n "$bg_nice" make -C "$kdir" M="$d" W=1 C=2 \
		$(oot_rxe_args "$kdir") modules >"$LOGS/rxe-$name.log" 2>&1; then
		our_diags "$LOGS/rxe-$name.log" "${d%/hw/rxe}" | grep error | head -n 20
		result FAIL "build/rxe-$name" "see $LOGS/rxe-$name.log"
		return 1
	fi
	result PASS "build/rxe-$name"
	diags_result "warnings/rxe-$name" "$LOGS/rxe-$name.log" "${d%/hw/rxe}" "W=1 or sparse warnings"
	return 0
}

# Builds, sparse, abi-check and checkpatch run at this niceness: 0 until
# the test VM starts, then lower than it.
bg_nice=0
built_stock=0 built_test=0
[ -n "$tk" ] && build_for test "$tk/linux"

# The scenarios that run on a kernel: every lab/guest/scenarios/*.sh, unless
# its "# lab-kernels:" line names only the other one, or a "# lab-check: no"
# line keeps it for a target of its own (soak.sh: make soak).  Those with a
# "# lab-pair: yes" line (interop.sh) need the in-tree peer VM of
# lab/host/pair.sh: they come first, and the VM boots through pair.sh.
# With our rdma_rxe in the VM's build (RXE 1), those with a "# lab-rxe:
# ours" line run again on it, as NAME@ours (plans/suite.sh), and those
# with "# lab-rxe: needs-ours" run at all.
scenarios_for() {	# test|stock [RXE]
	local f k r name rest=() again=()
	for f in "$GUEST_DIR"/scenarios/*.sh; do
		[ -f "$f" ] || continue
		grep -q '^# lab-check: no' "$f" && continue
		k=$(sed -n 's/^# lab-kernels: *//p' "$f" | head -n1)
		[ -z "$k" ] || [[ " $k " == *" $1 "* ]] || continue
		r=$(sed -n 's/^# lab-rxe: *\([a-z-]*\).*/\1/p' "$f" | head -n1)
		name=$(basename "$f" .sh)
		[ "$r" != needs-ours ] || [ "${2:-0}" -eq 1 ] || continue
		if grep -q '^# lab-pair: yes' "$f"; then
			echo "$name"
		else
			rest+=("$name")
		fi
		[ "$r" != ours ] || [ "${2:-0}" -ne 1 ] || again+=("$name@ours")
	done
	[ ${#rest[@]} -eq 0 ] || printf '%s\n' "${rest[@]}"
	[ ${#again[@]} -eq 0 ] || printf '%s\n' "${again[@]}"
}
# vm_script SCENARIO...: the host script that boots a VM for them.
vm_script() {
	local s
	for s in "$@"; do
		grep -q '^# lab-pair: yes' "$GUEST_DIR/scenarios/${s%@*}.sh" && { echo pair; return; }
	done
	echo suite
}

# The test-kernel VM, the longest stage, boots as soon as its modules are
# built, and the stock VM as soon as the stock build is done; sparse,
# abi-check, checkpatch and the DKMS package fill the time the two VMs
# leave the host's two CPUs idle (their guests wait on themselves), at a
# lower priority.
#
# vm_start NAME RESULT_PREFIX NICE SCRIPT SUITE_ARGS...: one VM boot of
# lab/host/SCRIPT.sh (suite, or pair: the same and the in-tree peer VM),
# in the background.  vm_results NAME RESULT_PREFIX: waits for it and
# counts its result lines.
declare -A vm_pid=()
vm_start() {
	local name=$1 prefix=$2 nice=$3 script=$4
	shift 4
	timed "vm-$name-kernel" nice -n "$nice" "$HOST_DIR/$script.sh" --kernel "$name" \
		--out "$LOGS/$name-vm" --prefix "$prefix" "$@" >"$LOGS/$name-vm.log" 2>&1 &
	vm_pid[$name]=$!
}
vm_results() {
	local name=$1 prefix=$2
	wait "${vm_pid[$name]}"
	results_from "$LOGS/$name-vm.log"
	grep -qE '^(PASS|FAIL) ' "$LOGS/$name-vm.log" ||
		result FAIL "${prefix}vm" "no result, see $LOGS/$name-vm.log"
	# The guest's time of each part, under the VM's stage in times.txt.
	sed -n "s/^lab: time: \(.*\) \([0-9]*\) s$/  $name: \1 \2 s/p" \
		"$LOGS/$name-vm/share/out/plan.log" 2>/dev/null >>"$LAB_TIMES"
	# And the CPU time QEMU took (the in-tree peer's too, for the pair).
	local d
	for d in "$LOGS/$name-vm" "$LOGS/$name-vm.peer"; do
		[ -f "$d/cpu-seconds" ] &&
			echo "  $name: QEMU CPU ${d##*/} $(cat "$d/cpu-seconds") s" >>"$LAB_TIMES"
	done
}

# The test kernel: every KUnit suite module and every scenario, one boot.
if [ -n "$tk" ] && [ $built_test -eq 1 ] && [ $have_rootfs -eq 1 ]; then
	mapfile -t suites < <(built_modules "$TOP_DIR/build/$trel" | grep '/kunit/' |
		grep -vE '/rdma_kunit_(tdev|lib|tlink)\.ko$' | sed 's#.*/##; s/\.ko$//' | sort)
	mapfile -t scen < <(scenarios_for test)
	[ ${#suites[@]} -gt 0 ] || result FAIL kunit "no suite module was built"
	# Under KASAN the uverbs fuzzer makes 25000 calls (100000 in the stock
	# VM; make fuzz a million) and uverbs_life unloads the stack under use
	# in 1 round (4 in the stock VM), and a scenario may take 30 minutes
	# (15 in the stock VM): on a slow host (2026-11-26) the debug kernel
	# took 369 s for those calls, and uverbs_life with 2 rounds was killed
	# at 900 s.  The storage ULP scenarios (nvmeof, nfsrdma, iser, srp)
	# add some 20 minutes there (2026-11-27).  The VM's limit is an hour
	# and a half: a hang, not a slow host, is what these limits are there
	# to stop.
	mkdir -p "$LOGS/test-data"
	printf 'UVERBS_FUZZ_CALLS=25000\nUVERBS_LIFE_ROUNDS=1\nLAB_SCENARIO_TIMEOUT=1800\n' \
		>"$LOGS/test-data/env"
	step "test-kernel VM (background): KUnit ${suites[*]}; scenarios ${scen[*]}"
	vm_start test test/ 0 "$(vm_script "${scen[@]}")" --build "$TOP_DIR/build/$trel" --data "$LOGS/test-data" \
		--timeout 5400 --kunit "${suites[@]}" --scenario "${scen[@]}"
else
	result FAIL test/vm "no test kernel, test-kernel build or root filesystem"
fi

# The stock build, then the stock VM, sparse, abi-check and checkpatch run
# while the test VM does, at a lower priority: that VM is the longest
# stage.
bg_nice=10
build_for stock "$skdir"

# Our rdma_rxe for the stock kernel, which its VM runs scenarios on too.
built_rxe=0
[ $built_stock -eq 1 ] && rxe_for stock "$skdir" && built_rxe=1

# The stock kernel: our modules in and out, and every scenario, one boot;
# with our rdma_rxe, the scenarios that need it and those that run again
# on it (NAME@ours).  The VM takes a copy of the modules when it boots:
# sparse and the DKMS package may rebuild them after.
if [ $built_stock -eq 1 ] && [ $have_rootfs -eq 1 ]; then
	sbuild="$TOP_DIR/build/$srel"
	[ $built_rxe -eq 0 ] || sbuild=$(rxe_modules_dir "$skdir")
	mapfile -t scen < <(scenarios_for stock $built_rxe)
	step "stock-kernel VM (background, nice 10): module load; scenarios ${scen[*]}"
	vm_start stock stock/ 10 "$(vm_script "${scen[@]}")" --build "$sbuild" --modload \
		--scenario "${scen[@]}"
else
	result FAIL stock/vm "no stock build or root filesystem"
fi

[ $built_stock -eq 1 ] && sparse_for stock "$skdir"

# abi_check NAME KDIR SYMVERS ULP_MODULE_DIR: our CRCs against that kernel's
abi_check() {
	local name=$1 kdir=$2 symvers=$3 ulps=$4 log="$LOGS/abi-check-$1.log"

	step "abi-check against the $name kernel"
	if timed "abi-check-$name" nice -n "$bg_nice" make -C "$TOP_DIR" -s KDIR="$kdir" W=1 TARGET_SYMVERS="$symvers" abi-check \
		ULP_MODULES="$ulps" >"$log" 2>&1; then
		result PASS "abi-check/$name" "$(grep -m1 'exports implemented' "$log")"
	else
		grep -E 'MISMATCH|not found|error' "$log" | head -n 20
		result FAIL "abi-check/$name" "$(grep -c MISMATCH "$log") mismatches, see $log"
	fi
}

if [ $built_stock -eq 1 ] && sdir=$("$HOST_DIR/stock-kernel.sh" 2>>"$LOGS/rootfs.log"); then
	abi_check stock "$skdir" "$skdir/Module.symvers" "$sdir/lib/modules/$srel"
else
	result FAIL abi-check/stock "no stock build or stock kernel image"
fi
# The test kernel's own in-tree ULPs must load on our core there too.
[ -n "$tk" ] && [ $built_test -eq 1 ] &&
	abi_check test "$tk/linux" "$tk/linux/Module.symvers" "$tk/modroot/lib/modules/$trel"

# checkpatch over our C files, with the checkpatch.pl of the test kernel's
# tree (linux-source-6.1).  Ignored: CONST_STRUCT (ib_set_device_ops()
# merges a driver's operations into the device's own, writable table),
# PRINTK_WITHOUT_KERN_LEVEL (ibdev_printk() passes its caller's level as
# the format's first %s) and ENOSYS (rdma_cm answers -ENOSYS where the
# target does: a port whose transport has no connection manager).
if [ -n "$tk" ] && [ -x "$tk/linux/scripts/checkpatch.pl" ]; then
	step "checkpatch"
	(cd "$TOP_DIR" && find $(ls -d core hw uverbs ulp kunit include 2>/dev/null) -name '*.[ch]' -print0 |
		nice -n "$bg_nice" xargs -0 -n 16 -P "$(nproc)" "$tk/linux/scripts/checkpatch.pl" --no-tree --quiet --terse \
			--show-types --ignore CONST_STRUCT,PRINTK_WITHOUT_KERN_LEVEL,SPDX_LICENSE_TAG,ENOSYS -f) \
		>"$LOGS/checkpatch.log" 2>&1 || true
	n=$(grep -cE ': (ERROR|WARNING):' "$LOGS/checkpatch.log" || true)
	if [ "$n" -eq 0 ]; then
		result PASS checkpatch
	else
		grep -E ': (ERROR|WARNING):' "$LOGS/checkpatch.log" | head -n 20
		result FAIL checkpatch "$n warnings, see $LOGS/checkpatch.log"
	fi
else
	result FAIL checkpatch "no checkpatch.pl (the test kernel's tree)"
fi

# Every export of core/ and uverbs/ is called by a KUnit case
# (kunit/coverage.py).
if python3 "$TOP_DIR/kunit/coverage.py" >"$LOGS/coverage.log" 2>&1; then
	result PASS kunit/coverage "$(tail -n1 "$LOGS/coverage.log")"
else
	grep 'NOT CALLED' "$LOGS/coverage.log" | head -n 20
	result FAIL kunit/coverage "$(tail -n1 "$LOGS/coverage.log")"
fi

# deb_same_modules DEB_DIR BUILD_DIR: the package's modules and the
# build's are the same set, built from the same sources (srcversion).
deb_same_modules() {
	local ko n=0 bad=()
	[ "$(built_modules "$1" | sed 's#.*/##' | sort)" = "$(built_modules "$2" | sed 's#.*/##' | sort)" ] ||
		{ result FAIL deb/same-modules "the package built another set of modules than $2"; return; }
	for ko in $(built_modules "$2"); do
		[ "$(modinfo -F srcversion "$1/${ko##*/}")" = "$(modinfo -F srcversion "$ko")" ] ||
			bad+=("${ko##*/}")
		n=$((n + 1))
	done
	if [ ${#bad[@]} -eq 0 ]; then
		result PASS deb/same-modules "$n modules, each with the srcversion of the stock VM's"
	else
		result FAIL deb/same-modules "srcversion differs: ${bad[*]}"
	fi
}

# The DKMS package (make deb), installed, updated and removed in a throwaway
# chroot (lab/host/deb-check.sh), in the background at low priority while
# the VMs run.  The modules the package built must be those the stock VM
# ran: the same set, each with the srcversion of the build's.
deb_pid=
if [ $built_stock -eq 1 ]; then
	step "the DKMS package (background)"
	(
		if deb=$(timed deb nice -n 19 make -s -C "$TOP_DIR" KDIR="$skdir" W=1 deb 2>"$LOGS/deb.log"); then
			echo "PASS deb/build ($(basename "$deb"), $(du -h "$deb" | cut -f1))"
			LAB_LOGS="$LOGS" timed deb-check nice -n 19 "$HOST_DIR/deb-check.sh" --no-update "$deb" \
				"$LOGS/deb-modules" 2>"$LOGS/deb-check.err"
		else
			echo "FAIL deb/build (make deb failed, see $LOGS/deb.log)"
		fi
	) >"$LOGS/deb-check.log" 2>&1 &
	deb_pid=$!
fi

if [ -n "$deb_pid" ]; then
	timed deb-wait wait $deb_pid
	results_from "$LOGS/deb-check.log"
	grep -qE '^(PASS|FAIL) deb/in-tree-again' "$LOGS/deb-check.log" ||
		{ tail -n 5 "$LOGS/deb-check.err" 2>/dev/null; result FAIL deb/check "did not finish, see $LOGS/deb-check.err"; }
	deb_same_modules "$LOGS/deb-modules" "$TOP_DIR/build/$srel"
fi

# Results in a fixed order: the test kernel's, then the stock kernel's.
for k in test stock; do
	[ -z "${vm_pid[$k]:-}" ] || { step "waiting for the $k-kernel VM"; vm_results "$k" "$k/"; }
done

step "done"
stage_time total $(($(date +%s) - t0))
# The CPU time of everything make check ran (the VMs, builds, sparse, the
# DKMS chroot): over the wall time, how busy it kept the host's CPUs.
stage_time cpu-all "$(reaped_cpu)"
summary="$npass passed, $nfail failed"
[ $nskip -eq 0 ] || summary="$summary, $nskip skipped"
echo "$summary"
[ $nfail -eq 0 ]
