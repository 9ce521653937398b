#!/bin/sh
# Guest plan of lab/host/kunit.sh: load ib_core, the test-double driver and each
# suite module (KUnit runs a module's suites when it loads; the results go
# to the kernel log), unload them all, then let kmemleak look for leaks.
#   plans/kunit.sh SUITE_MODULE...
. /lab/guest-lib.sh
KL=/sys/kernel/debug/kmemleak
rc=0

# Only this run's leaks count: lab/host/results.py drops objects allocated
# before this point (kmemleak gives each object's allocation jiffies).
awk '$1 == "jiffies:" { print $2; exit }' /proc/timer_list >"$LAB_OUT/jiffies0"

# Where each module lived, to name module frames in leak reports made
# after it is gone (lab/host/results.py --modules).
modmap() { cat /proc/modules >>"$LAB_OUT/modules.txt"; }
lab_load ib_core || exit 1
lab_load rdma_kunit_tdev || exit 1
modmap
for m in "$@"; do
	lab_kmsg "suite module $m"
	if lab_load "$m"; then
		modmap
		echo "lab: suite module $m ran"
	else
		echo "FAIL kunit/$m (module did not load)"
		rc=1
	fi
	lab_unload "$m" || rc=1
done
lab_unload rdma_kunit_tdev ib_uverbs ib_core || rc=1
lsmod | grep -E '^(ib_|rdma)' && { echo "lab: RDMA modules still loaded"; rc=1; }

if [ -w $KL ]; then
	echo scan >$KL
	sleep 5
	echo scan >$KL
	cat $KL >"$LAB_OUT/kmemleak.txt"
else
	echo "lab: no kmemleak in this kernel"
fi
exit $rc
