#!/bin/sh
# Guest plan of lab/host/demo.sh: our RDMA core on the stock kernel, a client
# that logs devices and events, and the test-double driver with two devices.
#   plans/demo.sh [NDEVS]
. /lab/guest-lib.sh
NDEVS=${1:-2}
DBG=/sys/kernel/debug/rdma_kunit_tdev
rc=0

section() { printf '\n==== %s ====\n' "$*"; }
show() { printf '$ %s\n' "$*"; timeout 30 "$@" 2>&1 | sed 's/^/  /'; }
attr() {
	if [ -r "$1" ]; then
		printf '  %-44s %s\n' "${1#/sys/class/infiniband/}" "$(tr '\n' ' ' <"$1" 2>&1)"
	else
		printf '  %-44s (missing)\n' "${1#/sys/class/infiniband/}"
	fi
}
failed() { echo "DEMO FAIL: $*"; rc=1; }

section "Loading our modules (kernel $(uname -r))"
lab_kmsg "demo start"
lab_load ib_core || { failed "ib_core did not load"; exit 1; }
echo "ib_core: $(modinfo -n ib_core) (taint $(cat /sys/module/ib_core/taint))"
lab_load rdma_devwatch || failed "rdma_devwatch did not load"
lab_load rdma_kunit_tdev "ndevs=$NDEVS" || failed "rdma_kunit_tdev did not load"
echo "$ lsmod (RDMA modules)"
lsmod | grep -E '^(Module|ib_|rdma|iw_)' | sed 's/^/  /'

section "Devices"
show ls /sys/class/infiniband
devs=$(ls /sys/class/infiniband 2>/dev/null)
n=$(echo "$devs" | grep -c .)
[ "$n" -eq "$NDEVS" ] || failed "expected $NDEVS devices, found $n"
for d in $devs; do
	echo "device $d:"
	for a in node_type node_guid sys_image_guid fw_ver node_desc; do
		attr "/sys/class/infiniband/$d/$a"
	done
	for a in state phys_state link_layer rate lid gids/0 pkeys/0; do
		attr "/sys/class/infiniband/$d/ports/1/$a"
	done
done

section "Userspace view (no uverbs yet: these may see nothing)"
show rdma dev
show rdma link
show ibv_devices

section "Port events"
for d in $devs; do
	ev="$DBG/$d/event"
	if [ ! -w "$ev" ]; then
		failed "no $ev to dispatch events with"
		continue
	fi
	for e in "port_err 1" "port_active 1"; do
		echo "\$ echo '$e' > $ev"
		echo "$e" >"$ev" || failed "writing '$e' to $ev"
		attr "/sys/class/infiniband/$d/ports/1/state"
	done
done

section "Unloading the driver"
lab_unload rdma_kunit_tdev || failed "rmmod rdma_kunit_tdev"
show ls /sys/class/infiniband
[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] || failed "devices left after the driver unloaded"
lab_unload rdma_devwatch ib_core || failed "rmmod of the core modules"

section "Kernel log since the demo started"
dmesg | sed -n '/lab: demo start/,$p' | sed 's/^/  /'
if dmesg | sed -n '/lab: demo start/,$p' |
	grep -qE 'BUG|WARNING|Oops|general protection|Call Trace'; then
	failed "the kernel log has a report"
fi

section "Result"
if [ $rc -eq 0 ]; then echo "DEMO OK"; else echo "DEMO FAILED"; fi
exit $rc
