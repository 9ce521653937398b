#!/bin/sh
# Guest plan of lab/host/demo.sh, the main job: the distribution's own soft
# RoCE driver, rdma_rxe, on our RDMA core, over the two ends of a veth pair.
# What iproute2 shows of the devices, their RoCE GIDs following the
# addresses, port events following the link, traffic from our ULP with
# its figures, rdma-core's ibv_devinfo and a pingpong through our
# ib_uverbs, and an NVMe-oF disk that Debian's nvmet-rdma serves on rxe0
# and its nvme-rdma uses over rxe1, through our rdma_cm, with fio's
# figures.  Exits non-zero when a step fails.
#
#   plans/demo.sh [ours]    ours: our rdma_rxe (hw/rxe) instead of Debian's
. /lab/guest-lib.sh
IB=/sys/class/infiniband
rc=0
LAB_RXE=${1:-intree}

section() { printf '\n==== %s ====\n' "$*"; }
show() { printf '$ %s\n' "$*"; timeout 30 "$@" 2>&1 | sed 's/^/  /'; }
failed() { echo "DEMO FAIL: $*"; rc=1; }
port_attrs() {	# DEV: its port 1 as sysfs shows it
	for a in state phys_state link_layer rate; do
		printf '  %-34s %s\n' "$1/ports/1/$a" \
			"$(cat "$IB/$1/ports/1/$a" 2>/dev/null || echo '(missing)')"
	done
}
gids() {	# DEV: its non-empty GIDs with type and netdev
	# One grep over the table's files: a table has hundreds of slots.
	for g in $(grep -Lx '0000:0000:0000:0000:0000:0000:0000:0000' "$IB/$1"/ports/1/gids/* |
		   sort -t/ -k9 -n); do
		v=$(cat "$g" 2>/dev/null)
		i=${g##*/}
		printf '  %s gid %-3s %s  %-8s %s\n' "$1" "$i" "$v" \
			"$(cat "$IB/$1/ports/1/gid_attrs/types/$i" 2>/dev/null)" \
			"$(cat "$IB/$1/ports/1/gid_attrs/ndevs/$i" 2>/dev/null)"
	done
}

section "A veth pair whose ends talk over the link (kernel $(uname -r))"
lab_kmsg "demo start"
lab_veth_pair || { failed "veth pair"; exit 1; }
show ip -br addr show dev veth0
show ip -br addr show dev veth1

if [ "$LAB_RXE" = ours ]; then
	section "Our RDMA core with our rdma_rxe on it"
else
	section "Our RDMA core with Debian's rdma_rxe on it"
fi
lab_load_rxe || { failed "rdma_rxe did not load"; exit 1; }
lab_load rdma_devwatch || failed "rdma_devwatch did not load"
lab_load rdma_traffic || failed "rdma_traffic did not load"
for m in ib_core ib_uverbs rdma_rxe; do
	printf '  %-10s %s (taint %s)\n' "$m" "$(modinfo -n $m)" "$(cat /sys/module/$m/taint)"
done
lab_is_ours ib_core || failed "the loaded ib_core is not ours"
! dmesg | grep -q 'disagrees about version' || failed "symbol versions disagree"

section "rdma link add: two soft RoCE devices"
show rdma link add rxe0 type rxe netdev veth0
show rdma link add rxe1 type rxe netdev veth1
show rdma dev
show rdma link
for d in rxe0 rxe1; do
	[ -d "$IB/$d" ] || failed "no $d"
	port_attrs $d
done
lab_wait_for 10 lab_port_state rxe0 ACTIVE || failed "rxe0 not ACTIVE"

section "RoCE GIDs, made from the netdevs' addresses"
lab_wait_for 10 lab_gid_of rxe0 10.11.0.1 || failed "no RoCE v2 GID for 10.11.0.1"
gids rxe0
gids rxe1
show ip addr add 10.12.0.1/24 dev veth0
lab_wait_for 10 lab_gid_of rxe0 10.12.0.1 || failed "no GID after ip addr add"
gids rxe0
show ip addr del 10.12.0.1/24 dev veth0
lab_wait_for 10 lab_no_gid_of rxe0 10.12.0.1 || failed "GID left after ip addr del"
gids rxe0

section "Port events follow the link"
show ip link set veth0 down
lab_wait_for 10 lab_port_state rxe0 DOWN || failed "rxe0 not DOWN"
port_attrs rxe0
show ip link set veth0 up
lab_wait_for 10 lab_port_state rxe0 ACTIVE || failed "rxe0 not ACTIVE again"
port_attrs rxe0

section "Traffic: rdma_traffic from rxe0 to rxe1, every transfer verified"
echo 20 >/sys/module/rdma_traffic/parameters/iters
if lab_traffic rxe0 rxe1; then
	echo "  all operations verified"
else
	failed "traffic (state $(lab_traffic_state))"
fi
show rdma res
show rdma statistic show link rxe0/1

section "Userspace: rdma-core through our ib_uverbs"
show ibv_devices
show ibv_devinfo -d rxe0
g0=$(lab_gid_of rxe0 10.11.0.1)
g1=$(lab_gid_of rxe1 10.11.0.2)
timeout 120 ibv_rc_pingpong -d rxe1 -g "$g1" -n 100 -c >/tmp/demo-pp.out 2>&1 &
pp=$!
lab_wait_for 30 sh -c 'ss -ltn | grep -q ":18515 "'
printf '$ %s\n' "ibv_rc_pingpong -d rxe0 -g $g0 -n 100 -c 10.11.0.2"
timeout 120 ibv_rc_pingpong -d rxe0 -g "$g0" -n 100 -c 10.11.0.2 >/tmp/demo-pc.out 2>&1
pc=$?
wait $pp
ps=$?
sed 's/^/  /' /tmp/demo-pc.out
echo "  (the server on rxe1:)"
sed 's/^/    /' /tmp/demo-pp.out
[ $pc -eq 0 ] && [ $ps -eq 0 ] || failed "ibv_rc_pingpong (client $pc, server $ps)"

section "NVMe over RDMA: Debian's nvmet-rdma and nvme-rdma on our rdma_cm"
NQN=nqn.2026-11.org.rdmalab:demo
CFS=/sys/kernel/config/nvmet
# The target: a 1 GiB null_blk namespace, port 4420 on rxe0's 10.11.0.1.
nvme_target_up() {
	lab_configfs &&
		lab_load_intree nvmet_rdma && lab_load_intree nvme_rdma &&
		modprobe null_blk nr_devices=1 gb=1 memory_backed=1 || return 1
	mkdir $CFS/subsystems/$NQN &&
		echo 1 >$CFS/subsystems/$NQN/attr_allow_any_host &&
		mkdir $CFS/subsystems/$NQN/namespaces/1 &&
		echo /dev/nullb0 >$CFS/subsystems/$NQN/namespaces/1/device_path &&
		echo 1 >$CFS/subsystems/$NQN/namespaces/1/enable &&
		mkdir $CFS/ports/1 && echo rdma >$CFS/ports/1/addr_trtype &&
		echo ipv4 >$CFS/ports/1/addr_adrfam &&
		echo 10.11.0.1 >$CFS/ports/1/addr_traddr &&
		echo 4420 >$CFS/ports/1/addr_trsvcid &&
		ln -s $CFS/subsystems/$NQN $CFS/ports/1/subsystems/$NQN
}
nvme_target_down() {
	rm -f $CFS/ports/1/subsystems/$NQN
	rmdir $CFS/ports/1 2>/dev/null
	[ -d $CFS/subsystems/$NQN/namespaces/1 ] &&
		echo 0 >$CFS/subsystems/$NQN/namespaces/1/enable &&
		rmdir $CFS/subsystems/$NQN/namespaces/1
	rmdir $CFS/subsystems/$NQN 2>/dev/null
	lab_unload nvme_rdma nvme_fabrics nvmet_rdma nvmet null_blk
}
# The host's disk of our subsystem (/dev/nvmeNnM, not a path of it
# nvmeNcCnM under native multipath), on stdout.
nvme_disk() {
	for b in /sys/block/nvme*n*; do
		case "${b##*/}" in *c*n*) continue ;; esac
		[ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = $NQN ] || continue
		echo "/dev/${b##*/}"
		return 0
	done
	return 1
}
# fio NAME ARGS...: a run on the disk, its figures.
demo_fio() {
	n=$1
	shift
	printf '$ fio --name=%s %s
' "$n" "$*"
	timeout 300 fio --name="$n" --filename="$disk" --direct=1 --ioengine=libaio \
		"$@" >/tmp/demo-fio.out 2>&1
	st=$?
	grep -E 'err=|IOPS=|lat \(usec\): min|verify' /tmp/demo-fio.out | sed 's/^/  /'
	[ $st -eq 0 ] || failed "fio $n (exit $st)"
}
if nvme_target_up; then
	for m in nvmet_rdma nvme_rdma rdma_cm ib_cm iw_cm; do
		printf '  %-10s %s\n' "$m" "$(modinfo -n $m)"
	done
	for m in rdma_cm ib_cm iw_cm; do
		lab_is_ours $m || failed "the loaded $m is not ours"
	done
	show nvme discover -t rdma -a 10.11.0.1 -s 4420 -w 10.11.0.2
	printf '$ %s\n' "nvme connect -t rdma -a 10.11.0.1 -s 4420 -w 10.11.0.2 -n $NQN"
	timeout 120 nvme connect -t rdma -a 10.11.0.1 -s 4420 -w 10.11.0.2 -n $NQN 2>&1 |
		sed 's/^/  /'
	if lab_wait_for 60 nvme_disk; then
		disk=$(nvme_disk)
		show nvme list
		show rdma res show cm_id
		demo_fio write-verify --rw=randwrite --bs=4k --iodepth=16 --size=32M \
			--verify=crc32c --do_verify=1 --verify_fatal=1
		demo_fio randread-4k --rw=randread --bs=4k --iodepth=32 --runtime=10 \
			--time_based
		demo_fio seqread-128k --rw=read --bs=128k --iodepth=16 --runtime=10 \
			--time_based
		show nvme disconnect -n $NQN
	else
		failed "no NVMe disk of $NQN on the host"
	fi
else
	failed "the nvmet target (modules or configfs)"
fi
nvme_target_down || failed "unloading the NVMe modules"

section "Taking it down"
show rdma link delete rxe1
show rdma link delete rxe0
lab_wait_for 30 test ! -e "$IB/rxe0" || failed "rxe0 left"
lab_veth_pair_del
lab_unload rdma_traffic rdma_devwatch rdma_rxe ib_uverbs rdma_cm iw_cm ib_cm ib_core ||
	failed "unloading"

section "Kernel log since the demo started"
dmesg | sed -n '/lab: demo start/,$p' | sed 's/^/  /'
if dmesg | grep -qE 'BUG|WARNING|Oops|general protection|Call Trace'; then
	failed "the kernel log has a report"
fi

section "Result"
if [ $rc -eq 0 ]; then echo "DEMO OK"; else echo "DEMO FAILED"; fi
exit $rc
