#!/bin/sh
# Guest plan of lab/host/mutate.sh: run the KUnit suites against mutants
# of ib_core, ib_cm, iw_cm, rdma_cm and ib_uverbs, one after the other, in
# one boot.
#
#   plans/mutate.sh KEY...
#
# /lab/data/mutants has a line "KEY SUITE_MODULE..." per mutant and
# /lab/data/KEY.ko is its ib_core ("baseline" is the unmutated one), or
# the module /lab/data/KEY.module names (ib_cm, iw_cm, rdma_cm,
# ib_uverbs): it then runs on the unmutated ib_core, and the unmutated
# modules it depends on (rdma_cm's ib_cm and iw_cm) are loaded first, so
# that the suites' modprobe finds the mutant in place;
# /lab/data/exclude lists excluded cases (SUITE/CASE).  For each KEY in
# order: clear the kernel log and kmemleak's list, insmod the file (so that
# modprobe's choice cannot interfere), load the test-double driver, load
# and unload each suite module (KUnit runs a module's suites when it
# loads), unload everything, look for leaks (unless a case already failed
# or the kernel reported something: the mutant is caught then), and save
# in /lab/out/m/KEY/: dmesg.txt, kmemleak.txt, jiffies0, modules.txt
# (where modules lived, to name frames in leak reports), residue (what it
# left in sysfs: "+path" or "-path" lines) and steps (one line per step,
# "ok|FAIL|BROKEN load|unload|run MODULE ...": BROKEN when the lab failed,
# not the mutant).
#
# /lab/out/progress says "start KEY" and "end KEY fit|unfit (why)" as it
# goes, and "done" at the end.  A mutant that leaves the kernel unfit to
# judge the next one (a new taint such as a WARN, an oops or a KASAN
# report; lockdep off; modules it cannot unload; anything left in sysfs)
# ends the plan with status 3: the host boots a new VM for the rest.  A
# mutant that hangs or crashes the kernel never ends: the host kills the
# VM, records it, and goes on.
. /lab/guest-lib.sh
KL=/sys/kernel/debug/kmemleak
PROGRESS=$LAB_OUT/progress

# Taint bits that loading our modules and running KUnit set: O (out of
# tree), E (unsigned) and N (test).  Any other new one makes the kernel
# unfit.
TAINT_OK=$(((1 << 12) | (1 << 13) | (1 << 18)))
taint() { echo $(($(cat /proc/sys/kernel/tainted) & ~TAINT_OK)); }
TAINT0=$(taint)

# What a mutant could leave behind once ib_core is gone: class devices,
# virtual devices (a device, a WQ_SYSFS work queue) and classes.
sysfs_state() {
	find /sys/devices/virtual /sys/class -mindepth 1 -maxdepth 2 2>/dev/null | sort
}
sysfs_state >/tmp/sysfs0

# Why the kernel can no longer judge a mutant, or nothing.
unfit() {
	if [ "$(taint)" != "$TAINT0" ]; then
		echo "taint $(cat /proc/sys/kernel/tainted)"
	elif grep -q 'debug_locks: *0' /proc/lockdep_stats 2>/dev/null; then
		echo "lockdep off"
	elif _left=$(lab_rdma_left); then
		lab_unload_all
		echo "left loaded: $_left"
	elif [ -s "$d/residue" ]; then
		echo "left in sysfs: $(head -n 3 "$d/residue" | tr '\n' ' ')"
	fi
}

# Whether the mutant is caught already: a case that is not excluded
# failed (lab/host/mutate.py judges it fully), or the kernel reported.
caught() {
	[ "$(taint)" = "$TAINT0" ] || return 0
	dmesg | sed -n 's/^\[[^]]*\] \{0,1\}    not ok [0-9]* \([^ ]*\).*/\1/p' |
		while read -r _c; do
			grep -q "/$_c\$" /lab/data/exclude 2>/dev/null || echo "$_c"
		done | grep -q .
}

# load_dep MODULE: a module the mutant's module needs: ours (ib_cm under
# rdma_cm) as the lab loads ours, or the kernel's own (udp_tunnel under
# rdma_kunit_rxe) as it is.  Neither is mutated: a failure is the lab's,
# and its step says BROKEN, which the host does not count as a catch.
load_dep() {
	case "$(modinfo -n "$1" 2>/dev/null)" in
	*/updates/*) lab_load "$1" ;;
	*) modprobe "$1" ;;
	esac
}

# run_mutant KEY SUITE...: one mutant; the steps it took go to $d/steps.
run_mutant() {
	_k=$1
	shift
	_mod=ib_core
	[ -f "/lab/data/$_k.module" ] && _mod=$(cat "/lab/data/$_k.module")
	if [ "$_mod" != ib_core ]; then
		if ! insmod /lab/data/baseline.ko 2>"$d/insmod.err"; then
			echo "FAIL load ib_core $(cat "$d/insmod.err")" >>"$d/steps"
			return
		fi
		echo "ok load ib_core" >>"$d/steps"
		for _dep in $(modinfo -F depends "/lab/data/$_k.ko" | tr ',' ' '); do
			[ "$_dep" = ib_core ] && continue
			if load_dep "$_dep"; then
				echo "ok load $_dep" >>"$d/steps"
			else
				echo "BROKEN load $_dep" >>"$d/steps"
			fi
		done
	fi
	if ! insmod "/lab/data/$_k.ko" 2>"$d/insmod.err"; then
		echo "FAIL load $_mod $(cat "$d/insmod.err")" >>"$d/steps"
		[ "$_mod" = ib_core ] || lab_unload rdma_cm iw_cm ib_cm ib_core
		return
	fi
	echo "ok load $_mod" >>"$d/steps"
	cat /proc/modules >>"$d/modules.txt"
	if lab_load rdma_kunit_tdev; then
		echo "ok load rdma_kunit_tdev" >>"$d/steps"
		for _m in "$@"; do
			_ts=$(cut -d' ' -f1 /proc/uptime)
			if lab_load "$_m"; then
				cat /proc/modules >>"$d/modules.txt"
				echo "ok run $_m from ${_ts}s to $(cut -d' ' -f1 /proc/uptime)s" >>"$d/steps"
			else
				echo "FAIL load $_m" >>"$d/steps"
			fi
			lab_unload "$_m" || echo "FAIL unload $_m" >>"$d/steps"
		done
		# The suites' helpers (modprobe pulled them in) hold the double.
		if [ -d /sys/module/rdma_kunit_lib ]; then
			lab_unload rdma_kunit_lib || echo "FAIL unload rdma_kunit_lib" >>"$d/steps"
		fi
		lab_unload rdma_kunit_tdev || echo "FAIL unload rdma_kunit_tdev" >>"$d/steps"
	else
		echo "FAIL load rdma_kunit_tdev" >>"$d/steps"
	fi
	# The suites pulled in the modules they test (rdma_kunit_uverbs
	# ib_uverbs, rdma_kunit_cma rdma_cm, ib_cm and iw_cm...), or they are
	# the mutant or its dependencies: users before what they use.
	for _m in rdma_cm iw_cm ib_cm ib_uverbs ib_core; do
		[ -d "/sys/module/$_m" ] || continue
		rmmod "$_m" || echo "FAIL unload $_m" >>"$d/steps"
	done
}

for key in "$@"; do
	line=$(grep "^$key " /lab/data/mutants) || { echo "lab: no mutant $key"; exit 2; }
	d=$LAB_OUT/m/$key
	mkdir -p "$d"
	echo "start $key" >>"$PROGRESS"
	dmesg -C
	[ -w $KL ] && echo clear >$KL
	lab_jiffies "$d/jiffies0"
	lab_kmsg "mutant $key start"
	# shellcheck disable=SC2086
	run_mutant $line
	lab_kmsg "mutant $key end"
	sysfs_state | diff /tmp/sysfs0 - | sed -n 's/^\([<>]\) /\1/p' |
		sed 's/^</-/; s/^>/+/' >"$d/residue"
	if caught; then
		echo "ok skip kmemleak (caught already)" >>"$d/steps"
	else
		_ts=$(cut -d' ' -f1 /proc/uptime)
		lab_kmemleak "$d/kmemleak.txt"
		echo "ok kmemleak from ${_ts}s to $(cut -d' ' -f1 /proc/uptime)s" >>"$d/steps"
	fi
	dmesg >"$d/dmesg.txt"
	why=$(unfit)
	if [ -n "$why" ]; then
		echo "end $key unfit ($why)" >>"$PROGRESS"
		exit 3
	fi
	echo "end $key fit" >>"$PROGRESS"
done
echo "done" >>"$PROGRESS"
exit 0
