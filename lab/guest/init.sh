#!/bin/sh
# Guest side of lab/host/vm.sh, run as PID 1 by /sbin/lab-init with the "lab"
# share on /lab: put the prepared module tree on /lib/modules, run the plan,
# save its output, dmesg and exit status in /lab/out, power off.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
export LAB_OUT=/lab/out HOME=/root TERM=dumb
cd /lab || exit 1

exec >/dev/console 2>&1
echo "lab: guest up at $(cut -d' ' -f1 /proc/uptime)s, kernel $(uname -r)"
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro mods /lib/modules; then
	echo "lab: cannot mount the module tree" | tee "$LAB_OUT/plan.log"
	echo 125 >"$LAB_OUT/status"
	sync
	echo o >/proc/sysrq-trigger
	sleep 60
fi
ip link set lo up 2>/dev/null
# kmemleak scans only when a plan looks for leaks (lab_kmemleak): its own
# scan every ten minutes would take a vCPU for some 45 s each time.
[ -w /sys/kernel/debug/kmemleak ] && echo scan=off >/sys/kernel/debug/kmemleak
hostname rdmalab 2>/dev/null
echo "lab: plan start: $(cat /lab/plan.name)" >/dev/kmsg

{
	/bin/sh /lab/run-plan.sh
	rc=$?
	# Whatever the plan did, an ib_core other than ours is a failure.
	. /lab/guest-lib.sh
	if [ ! -e /lab/no-modules ] && [ -d /sys/module/ib_core ] &&
		! lab_is_ours ib_core; then
		echo "lab: FATAL: the loaded ib_core is not ours"
		rc=126
	fi
	echo "$rc" >"$LAB_OUT/status.tmp"
} 2>&1 | tee -a "$LAB_OUT/plan.log"

echo "lab: plan end" >/dev/kmsg
dmesg >"$LAB_OUT/dmesg.txt" 2>&1
mv "$LAB_OUT/status.tmp" "$LAB_OUT/status"
sync
echo "lab: powering off"
echo o >/proc/sysrq-trigger
sleep 60
