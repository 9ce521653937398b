#!/bin/sh
# Guest plan of lab/host/suite.sh: everything one VM boot runs, in order.
#
#   plans/suite.sh [--modload] [--kunit MODULE...] [--scenario NAME...]
#
# --modload     insert and remove ib_core (its version in sysfs), ib_cm, iw_cm,
#               rdma_cm, rdma_devwatch and the test-double driver, then the kernel's
#               hardware RDMA drivers whose imports we provide, one result
#               line per step (modload/*)
# --kunit       load ib_core and the test-double driver, then load and unload
#               each KUnit suite module (KUnit runs a module's suites when it
#               loads; the results go to the kernel log), unload them all
# --scenario    run /lab/scenarios/NAME.sh for each NAME (NAME@ours: on our
#               rdma_rxe, results NAME@ours/...): each prints its own
#               result lines (PASS/FAIL NAME/<case>) and must leave no RDMA
#               module loaded
# Then kmemleak looks for leaks (twice, with a pause).
. /lab/guest-lib.sh
# Variables for the scenarios (make fuzz: UVERBS_FUZZ_CALLS...,
# LAB_SCENARIO_TIMEOUT), from the host's --data directory.
if [ -f /lab/data/env ]; then
	set -a
	. /lab/data/env
	set +a
fi
rc=0
modload=0 kunit='' scenarios='' mode=''
for a in "$@"; do
	case "$a" in
	--modload) modload=1 ;;
	--kunit) mode=kunit ;;
	--scenario) mode=scenario ;;
	*)
		case "$mode" in
		kunit) kunit="$kunit $a" ;;
		scenario) scenarios="$scenarios $a" ;;
		*) echo "lab: plan: unexpected argument $a"; exit 2 ;;
		esac ;;
	esac
done

# Only this run's leaks count: lab/host/results.py drops objects allocated
# before this point (kmemleak gives each object's allocation jiffies).
lab_jiffies "$LAB_OUT/jiffies0"

# Where each module lived, to name module frames in leak reports made
# after it is gone (lab/host/results.py --modules).
modmap() { cat /proc/modules >>"$LAB_OUT/modules.txt"; }

# One result line per step of loading and unloading our modules.
run_modload() {
	for m in ib_core ib_cm iw_cm rdma_cm rdma_devwatch "rdma_kunit_tdev ndevs=2"; do
		# shellcheck disable=SC2086
		if lab_load $m; then lab_pass "modload/load/${m%% *}"
		else lab_fail "modload/load/${m%% *}"; rc=1; fi
	done
	modmap
	echo "lab: devices: $(ls /sys/class/infiniband 2>/dev/null | tr '\n' ' ')"
	# A running system tells which stack it has: the loaded ib_core's
	# version in sysfs, the one modinfo reads from its file.
	_v=$(cat /sys/module/ib_core/version 2>/dev/null)
	if [ -n "$_v" ] && [ "$_v" = "$(modinfo -F version ib_core)" ]; then
		echo "PASS modload/version ($_v)"
	else
		lab_fail modload/version "sysfs '${_v}', modinfo '$(modinfo -F version ib_core)'"; rc=1
	fi
	for m in rdma_kunit_tdev rdma_devwatch rdma_cm iw_cm ib_cm ib_core; do
		if [ ! -d "/sys/module/$m" ]; then
			lab_fail "modload/unload/$m" "not loaded"; rc=1
		elif rmmod "$m"; then
			lab_pass "modload/unload/$m"
		else
			lab_fail "modload/unload/$m" "rmmod failed"; rc=1
		fi
	done
	if lab_rdma_left; then lab_fail modload/none-left "$(lab_rdma_left)"; rc=1
	else lab_pass modload/none-left; fi
	run_hw_drivers
}

# The kernel's hardware RDMA drivers whose ib_core and ib_uverbs imports
# ours all provide load on them (modprobe takes ours from updates/) and
# unload again; without their hardware they only register their PCI or
# auxiliary drivers.  A kernel without one of them gets a SKIP.
HW_DRIVERS="mlx5_ib irdma ocrdma usnic_verbs"
run_hw_drivers() {
	for m in $HW_DRIVERS; do
		if ! modinfo -n "$m" >/dev/null 2>&1; then
			echo "SKIP modload/hw/$m (not in this kernel)"
			continue
		fi
		_mark=$(dmesg | wc -l)
		if lab_load_intree "$m" && [ -d "/sys/module/$m" ]; then
			_bad=$(dmesg | tail -n +"$((_mark + 1))" |
				grep -E -m3 'disagrees about version|Unknown symbol|no symbol version')
			if [ -z "$_bad" ]; then lab_pass "modload/hw/$m"
			else lab_fail "modload/hw/$m" "$_bad"; rc=1; fi
		else
			lab_fail "modload/hw/$m" "$(dmesg | tail -n +"$((_mark + 1))" | tail -3 | tr '\n' ' ')"
			rc=1
		fi
		modmap
		modprobe -r "$m" 2>/dev/null
	done
	lab_unload_all
	if lab_rdma_left; then lab_fail modload/hw/none-left "$(lab_rdma_left)"; rc=1
	else lab_pass modload/hw/none-left; fi
}

# The RDMA modules loaded, one per line
rdma_mods() { awk '$1 ~ /^(ib_|rdma|iw_)/ { print $1 }' /proc/modules; }

# unload_new BEFORE: unloads the RDMA modules not in BEFORE (what a suite
# module pulled in: ib_cm, iw_cm, rdma_cm are clients of every device the
# next suites make, and would answer and count their MADs and events)
unload_new() {
	for _try in 1 2 3; do
		for _x in $(rdma_mods); do
			echo "$1" | grep -qx "$_x" || rmmod "$_x" 2>/dev/null
		done
	done
}

run_kunit() {
	lab_load ib_core || { rc=1; return; }
	lab_load rdma_kunit_tdev || { rc=1; return; }
	modmap
	for m in $kunit; do
		lab_kmsg "suite module $m"
		_before=$(rdma_mods)
		if lab_load "$m"; then
			modmap
			echo "lab: suite module $m ran"
		else
			echo "FAIL kunit/$m (module did not load)"
			rc=1
		fi
		lab_unload "$m" || rc=1
		unload_new "$_before"
	done
	lab_unload_all || rc=1
}

# Seconds since boot, whole: the times the host files under times.txt.
uptime_s() { cut -d. -f1 /proc/uptime; }

# salvage: after a scenario was killed or left modules loaded, undo what
# it may have left that holds the stack (NVMe controllers, iSCSI sessions,
# SRP remote ports and NFS mounts over RDMA, RDMA links, the veth pair),
# so that its failure does not become every later scenario's
salvage() {
	command -v nvme >/dev/null && timeout 60 nvme disconnect-all >/dev/null 2>&1
	command -v iscsiadm >/dev/null &&
		timeout 60 iscsiadm -m node --logoutall=all >/dev/null 2>&1
	for _p in /sys/class/srp_remote_ports/port-*/delete; do
		[ -e "$_p" ] && echo 1 >"$_p"
	done
	timeout 60 umount -f -a -t nfs,nfs4 2>/dev/null
	for _d in /sys/class/infiniband/*; do
		[ -e "$_d" ] && rdma link delete "${_d##*/}" 2>/dev/null
	done
	lab_veth_pair_del
}

# run_scenario NAME[@DRIVER]: /lab/scenarios/NAME.sh; with @ours, on our
# rdma_rxe (LAB_RXE=ours, lab_load_rxe), its result lines renamed
# NAME@ours/... so that both runs of a scenario can be told apart.
run_scenario() {
	_s=$1 _file=${1%@*} _rxe=''
	[ "$_s" = "$_file" ] || _rxe=${_s#*@}
	if [ ! -f "/lab/scenarios/$_file.sh" ]; then
		lab_fail "$_s" "no scenario /lab/scenarios/$_file.sh"; rc=1; return
	fi
	lab_kmsg "scenario $_s"
	echo "lab: scenario $_s"
	_t0=$(uptime_s)
	if [ -z "$_rxe" ]; then
		timeout -k 10 "${LAB_SCENARIO_TIMEOUT:-900}" sh "/lab/scenarios/$_file.sh"
		_src=$?
	else
		{
			LAB_RXE=$_rxe timeout -k 10 "${LAB_SCENARIO_TIMEOUT:-900}" \
				sh "/lab/scenarios/$_file.sh"
			echo $? >/tmp/lab-scenario.status
		} | sed -u "s#^\(PASS\|FAIL\|SKIP\) \([^/ ]*\)#\1 \2@$_rxe#"
		_src=$(cat /tmp/lab-scenario.status)
	fi
	echo "lab: time: scenario $_s $(($(uptime_s) - _t0)) s"
	modmap
	if [ $_src -eq 124 ] || [ $_src -eq 137 ]; then
		lab_fail "$_s/timeout" "killed after ${LAB_SCENARIO_TIMEOUT:-900}s"; rc=1
		salvage
	fi
	if lab_rdma_left >/dev/null; then
		lab_fail "$_s/cleanup" "left loaded: $(lab_rdma_left)"
		salvage
		lab_unload_all
		rc=1
	fi
}

[ $modload -eq 0 ] || run_modload
_t0=$(uptime_s)
[ -z "$kunit" ] || { run_kunit; echo "lab: time: kunit $(($(uptime_s) - _t0)) s"; }
for s in $scenarios; do
	run_scenario "$s"
done

lab_kmemleak "$LAB_OUT/kmemleak.txt" || echo "lab: no kmemleak in this kernel"
exit $rc
