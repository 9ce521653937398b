#!/bin/sh
# Guest plan of lab/host/check.sh on the stock kernel: insert and remove our
# modules; one result line per step.  lab/host/check.sh then reads the kernel
# log for reports.
. /lab/guest-lib.sh
rc=0
pass() { echo "PASS stock/$1"; }
fail() { echo "FAIL stock/$1${2:+ ($2)}"; rc=1; }

for m in ib_core rdma_devwatch "rdma_kunit_tdev ndevs=2"; do
	# shellcheck disable=SC2086
	if lab_load $m; then pass "load/${m%% *}"; else fail "load/${m%% *}"; fi
done
echo "lab: devices: $(ls /sys/class/infiniband 2>/dev/null | tr '\n' ' ')"
for m in rdma_kunit_tdev rdma_devwatch ib_core; do
	if [ ! -d "/sys/module/$m" ]; then
		fail "unload/$m" "not loaded"
	elif rmmod "$m"; then
		pass "unload/$m"
	else
		fail "unload/$m" "rmmod failed"
	fi
done
left=$(lsmod | awk 'NR > 1 && $1 ~ /^(ib_|rdma|iw_)/ { print $1 }' | tr '\n' ' ')
if [ -z "$left" ]; then pass "unload/none-left"; else fail "unload/none-left" "$left"; fi
exit $rc
