#!/bin/sh
# NVMe over RDMA, the kernel's own ULPs (Debian's binaries on the stock
# kernel, the in-tree builds on the test kernel) on our rdma_cm, ib_cm and
# ib_core, over the kernel's rdma_rxe on a veth pair: an nvmet target
# (nvmet, nvmet-rdma) made through configfs with a null_blk namespace and a
# file-backed one, listening on rxe0's address; nvme-cli's discover and
# connect from the host side (nvme-rdma) over rxe1; fio with crc32c
# verification on both namespaces (4k random write, then read back and
# verified; 128k sequential); under verified fio I/O, the target's link
# down until both sides have given the controller up (the target's GSI
# QP fails and is repaired), then up again, the host reconnecting and no
# data lost; the target's RDMA device removed and added again under the
# connected controller, then the host's; disconnect; then a second port
# on IPv6, a connect over it, verified fio and a disconnect; configfs torn
# down, every module unloaded.
# Every tool runs under "timeout": a hang is a failure.
. /lab/guest-lib.sh
S=nvmeof
A=10.11.0.1
B=10.11.0.2
NQN=nqn.2026-11.org.rdmalab:nvmeof
CFS=/sys/kernel/config/nvmet
T=/tmp/nvmeof
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:6c1b9c7e-0d0e-4b59-9a6b-3f0e2f4c1a11
HOSTID=6c1b9c7e-0d0e-4b59-9a6b-3f0e2f4c1a11

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }
check() { _c=$1; shift; lab_check "$S/$_c" "$@"; }

# fio sizes: soft RoCE on the debug kernel moves some hundred KB/s.
if lab_debug_kernel; then
	SZ4K=512k SZ128K=1M SZFLAP=2M RATE=128k
else
	SZ4K=8M SZ128K=16M SZFLAP=8M RATE=512k
fi

setup() {
	mkdir -p $T
	lab_rxe_setup $S || return 1
	lab_configfs || { fail setup/configfs "mount configfs"; return 1; }
	lab_load_intree nvmet_rdma || { fail setup/nvmet_rdma "modprobe nvmet_rdma"; return 1; }
	lab_load_intree nvme_rdma || { fail setup/nvme_rdma "modprobe nvme_rdma"; return 1; }
	modprobe null_blk nr_devices=1 gb=1 memory_backed=1 ||
		{ fail setup/null_blk "modprobe null_blk"; return 1; }
	for _m in rdma_cm ib_cm iw_cm ib_core; do
		lab_is_ours $_m || { fail setup/ours "$_m is not ours"; return 1; }
	done
	pass setup/ulps-on-our-core
}

# The target: one subsystem with namespace 1 on /dev/nullb0 and namespace
# 2 on a file, any host allowed, port 1 on rdma/ipv4 $A:4420.
target_up() {
	truncate -s 64M $T/ns2.img || return 1
	mkdir $CFS/subsystems/$NQN || return 1
	echo 1 >$CFS/subsystems/$NQN/attr_allow_any_host || return 1
	mkdir $CFS/subsystems/$NQN/namespaces/1 || return 1
	echo /dev/nullb0 >$CFS/subsystems/$NQN/namespaces/1/device_path || return 1
	echo 1 >$CFS/subsystems/$NQN/namespaces/1/enable || return 1
	mkdir $CFS/subsystems/$NQN/namespaces/2 || return 1
	echo $T/ns2.img >$CFS/subsystems/$NQN/namespaces/2/device_path || return 1
	# tmpfs has no O_DIRECT.
	echo 1 >$CFS/subsystems/$NQN/namespaces/2/buffered_io || return 1
	echo 1 >$CFS/subsystems/$NQN/namespaces/2/enable || return 1
	mkdir $CFS/ports/1 || return 1
	echo rdma >$CFS/ports/1/addr_trtype || return 1
	echo ipv4 >$CFS/ports/1/addr_adrfam || return 1
	echo $A >$CFS/ports/1/addr_traddr || return 1
	echo 4420 >$CFS/ports/1/addr_trsvcid || return 1
	ln -s $CFS/subsystems/$NQN $CFS/ports/1/subsystems/$NQN
}

target_down() {
	for _p in 1 2; do
		rm -f $CFS/ports/$_p/subsystems/$NQN
		[ ! -d $CFS/ports/$_p ] || rmdir $CFS/ports/$_p
	done
	for _n in 1 2; do
		_d=$CFS/subsystems/$NQN/namespaces/$_n
		[ -d $_d ] || continue
		echo 0 >$_d/enable
		rmdir $_d
	done
	[ ! -d $CFS/subsystems/$NQN ] || rmdir $CFS/subsystems/$NQN
	! [ -e $CFS/subsystems/$NQN ] && ! [ -e $CFS/ports/1 ] && ! [ -e $CFS/ports/2 ]
}

# The host's controller of our subsystem (nvmeN), on stdout.
host_ctrl() {
	for _c in /sys/class/nvme/nvme*; do
		[ "$(cat "$_c/subsysnqn" 2>/dev/null)" = $NQN ] || continue
		[ "$(cat "$_c/transport" 2>/dev/null)" = rdma ] || continue
		basename "$_c"
		return 0
	done
	return 1
}

ctrl_state() { cat "/sys/class/nvme/$CTRL/state" 2>/dev/null; }
ctrl_live() { [ "$(ctrl_state)" = live ]; }
ctrl_not_live() { ! ctrl_live; }
# The target gave the controller up since the flap began: its keep-alive
# timer expired, or (first, in a starved guest) a transfer of its failed
# ("ctrl N fatal error occurred!").
TARGET_GAVE_UP='nvmet: ctrl .* (keep-alive timer .* expired|fatal error occurred)'
target_gave_up() {
	[ "$(dmesg | grep -cE "$TARGET_GAVE_UP")" -gt "$_ka0" ]
}
# DEV's GSI QP (QP1) is ready to send: "rdma res" shows it in RTS.
gsi_rts() { rdma res show qp link $1/1 lqpn 1 | grep -q 'state RTS'; }
# Counter NAME of the MAD layer on DEV's port 1.
mad_counter() {
	sed -n "s/^$2 //p" /sys/kernel/debug/ib_core/mad/$1-1/counters 2>/dev/null
}
# The MAD layer repaired DEV's QP1 since the flap began.
gsi_repaired() { [ "$(mad_counter $1 qp_repairs)" -gt "$_rep0" ]; }

# The block device of namespace NSID of the host's controller (with or
# without native multipath), on stdout.
ns_dev() {
	for _b in /sys/block/nvme*n*; do
		_n=${_b##*/}
		case "$_n" in *c*n*) continue ;; esac
		[ "$(cat "$_b/nsid" 2>/dev/null || cat "$_b/device/nsid" 2>/dev/null)" = "$1" ] || continue
		echo "/dev/$_n"
		return 0
	done
	return 1
}

# fio_verify NAME DEV RW BS SIZE [FIO ARGS...]: lab_fio_verify
fio_verify() { lab_fio_verify $S $T "$@"; }

connect() {
	check discover timeout 120 nvme discover -t rdma -a $A -s 4420 -w $B \
		--hostnqn=$HOSTNQN --hostid=$HOSTID
	timeout 120 nvme discover -t rdma -a $A -s 4420 -w $B \
		--hostnqn=$HOSTNQN --hostid=$HOSTID 2>&1 | grep -q "subnqn: *$NQN" &&
		pass discover/lists-subsystem || fail discover/lists-subsystem "no $NQN"
	check connect timeout 180 nvme connect -t rdma -a $A -s 4420 -w $B -n $NQN \
		--hostnqn=$HOSTNQN --hostid=$HOSTID \
		--ctrl-loss-tmo=300 --reconnect-delay=2 --keep-alive-tmo=10 || return 1
	CTRL=$(host_ctrl) || { fail connect/ctrl "no rdma controller of $NQN"; return 1; }
	lab_wait_for 60 ctrl_live || { fail connect/live "$CTRL is $(ctrl_state)"; return 1; }
	lab_wait_for 60 ns_dev 1 && lab_wait_for 60 ns_dev 2 ||
		{ fail connect/namespaces "$(ls /sys/block)"; return 1; }
	NS1=$(ns_dev 1) NS2=$(ns_dev 2)
	echo "    $CTRL: namespace 1 $NS1, namespace 2 $NS2"
	pass connect/namespaces
}

io() {
	fio_verify ns1-rand4k "$NS1" randwrite 4k $SZ4K
	fio_verify ns1-seq128k "$NS1" write 128k $SZ128K
	fio_verify ns2-rand4k "$NS2" randwrite 4k $SZ4K
	fio_verify ns2-seq128k "$NS2" write 128k $SZ128K
}

# The target's link goes down under verified fio I/O (rate-limited, so
# that it is still writing) until the host's controller leaves "live",
# comes up again, and the host reconnects; fio's verification passes.
flap() {
	_r0=$(dmesg | grep -c "$CTRL: Successfully reconnected")
	_ka0=$(dmesg | grep -cE "$TARGET_GAVE_UP")
	_rep0=$(mad_counter rxe0 qp_repairs)
	timeout 900 fio --name=flap --filename="$NS1" --direct=1 --ioengine=libaio \
		--iodepth=4 --rw=randwrite --bs=16k --size=$SZFLAP --rate=$RATE \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 \
		>$T/fio.flap 2>&1 &
	_fio=$!
	sleep 3
	kill -0 $_fio 2>/dev/null || { fail flap/fio-running "fio ended before the link went down"; }
	ip link set veth0 down
	lab_wait_for 120 ctrl_not_live && pass flap/ctrl-leaves-live ||
		fail flap/ctrl-leaves-live "$CTRL still $(ctrl_state) with the link down"
	echo "    $CTRL with the link down: $(ctrl_state)"
	# The link stays down until the target has given the controller up
	# too (target_gave_up): its DREQs then go to rxe0 with no
	# route, which puts rdma_rxe's GSI QP in the error state.  The MAD
	# layer must bring the QP back, or no REQ is ever answered again
	# (Documentation/core.rst, the MAD layer).
	lab_wait_for 120 target_gave_up && pass flap/target-gives-up ||
		fail flap/target-gives-up "the target kept its controller"
	lab_wait_for 120 gsi_repaired rxe0 && pass flap/gsi-repaired-rxe0 ||
		fail flap/gsi-repaired-rxe0 "qp_repairs $(mad_counter rxe0 qp_repairs)"
	echo "    rxe0's QP1 repaired $(mad_counter rxe0 qp_repairs) times with the link down"
	ip link set veth0 up
	# Taking veth0 down flushed its routes: the one that sends rxe0's
	# packets for $B out over the pair comes back.
	ip route replace $B dev veth0 src $A table 100
	lab_wait_for 30 lab_gid_of rxe0 $A || fail flap/gid-back "no GID of $A on rxe0"
	for _d in rxe0 rxe1; do
		lab_wait_for 60 gsi_rts $_d && pass flap/gsi-rts-$_d ||
			fail flap/gsi-rts-$_d "$(rdma res show qp link $_d/1 lqpn 1)"
	done
	lab_wait_for 300 ctrl_live && pass flap/ctrl-live-again ||
		fail flap/ctrl-live-again "$CTRL is $(ctrl_state)"
	wait $_fio
	_st=$?
	grep -E 'err=|WRITE:|READ:|verify|bad|crc' $T/fio.flap | sed 's/^/    /'
	[ $_st -eq 0 ] && pass flap/fio-verified || fail flap/fio-verified "fio exit $_st"
	_r1=$(dmesg | grep -c "$CTRL: Successfully reconnected")
	[ "$_r1" -gt "$_r0" ] && pass flap/reconnected ||
		fail flap/reconnected "no 'Successfully reconnected' of $CTRL"
	dmesg | grep -E "$CTRL|nvmet" | tail -12 | sed 's/^/    dmesg: /'
	fio_verify after-flap "$NS2" randwrite 4k $SZ4K
}

# removal: the RDMA devices go from under a connected controller.  The
# target's first (rxe0): nvmet-rdma gets DEVICE_REMOVAL on its queues and
# its listener, "rdma link delete" returns, the host's controller leaves
# live; rxe0 back and the port enabled again (its listener went with the
# device), the host reconnects by itself and data written before is read
# back.  Then the host's (rxe1): nvme-rdma deletes the controller, and a
# new connect over a new rxe1 works.
removal() {
	fio_verify before-removal "$NS2" write 64k 1M
	check removal/target-link-delete timeout 120 rdma link delete rxe0
	lab_wait_for 120 ctrl_not_live && pass removal/ctrl-leaves-live ||
		fail removal/ctrl-leaves-live "$CTRL still $(ctrl_state)"
	check removal/target-link-add rdma link add rxe0 type rxe netdev veth0
	lab_wait_for 30 lab_gid_of rxe0 $A || fail removal/gid-back "no GID of $A on rxe0"
	rm $CFS/ports/1/subsystems/$NQN &&
		ln -s $CFS/subsystems/$NQN $CFS/ports/1/subsystems/$NQN &&
		pass removal/port-enabled || fail removal/port-enabled "configfs"
	lab_wait_for 300 ctrl_live && pass removal/ctrl-live-again ||
		fail removal/ctrl-live-again "$CTRL is $(ctrl_state)"
	timeout 600 fio --name=before-removal --filename="$NS2" --direct=1 \
		--ioengine=libaio --iodepth=8 --rw=write --bs=64k --size=1M \
		--verify=crc32c --verify_only --verify_fatal=1 >$T/fio.after-removal 2>&1 &&
		pass removal/data-read-back ||
		fail removal/data-read-back "$(grep -m2 -E 'verify|err' $T/fio.after-removal)"

	check removal/host-link-delete timeout 120 rdma link delete rxe1
	lab_wait_for 120 test ! -e /sys/class/nvme/$CTRL && pass removal/ctrl-deleted ||
		fail removal/ctrl-deleted "$CTRL is $(ctrl_state)"
	check removal/host-link-add rdma link add rxe1 type rxe netdev veth1
	lab_wait_for 30 lab_gid_of rxe1 $B || fail removal/host-gid-back "no GID of $B on rxe1"
	check removal/connect timeout 180 nvme connect -t rdma -a $A -s 4420 -w $B -n $NQN \
		--hostnqn=$HOSTNQN --hostid=$HOSTID \
		--ctrl-loss-tmo=300 --reconnect-delay=2 --keep-alive-tmo=10 || return 1
	CTRL=$(host_ctrl) && lab_wait_for 60 ctrl_live && pass removal/connect-live ||
		{ fail removal/connect-live "no live controller of $NQN"; return 1; }
}

disconnect() {
	check disconnect timeout 120 nvme disconnect -n $NQN
	lab_wait_for 60 sh -c "! ls /sys/class/nvme/ 2>/dev/null | grep -q nvme" &&
		pass disconnect/ctrl-gone || fail disconnect/ctrl-gone "$(ls /sys/class/nvme)"
}

# The same subsystem over IPv6: port 2 on rdma/ipv6 [$LAB_A6]:4421, a
# connect from $LAB_B6, verified fio on namespace 1, a disconnect.
ipv6() {
	lab_veth_ipv6 || { fail ipv6/setup "$LAB_V6_WHY"; return 1; }
	{ mkdir $CFS/ports/2 &&
		echo rdma >$CFS/ports/2/addr_trtype &&
		echo ipv6 >$CFS/ports/2/addr_adrfam &&
		echo $LAB_A6 >$CFS/ports/2/addr_traddr &&
		echo 4421 >$CFS/ports/2/addr_trsvcid &&
		ln -s $CFS/subsystems/$NQN $CFS/ports/2/subsystems/$NQN; } ||
		{ fail ipv6/port "configfs port 2"; return 1; }
	check ipv6/connect timeout 180 nvme connect -t rdma -a $LAB_A6 -s 4421 -w $LAB_B6 \
		-n $NQN --hostnqn=$HOSTNQN --hostid=$HOSTID || return 1
	CTRL=$(host_ctrl) && lab_wait_for 60 ctrl_live ||
		{ fail ipv6/live "${CTRL:-no controller} $(ctrl_state)"; return 1; }
	grep -q "traddr=$LAB_A6" "/sys/class/nvme/$CTRL/address" && pass ipv6/address ||
		fail ipv6/address "$(cat "/sys/class/nvme/$CTRL/address")"
	lab_wait_for 60 ns_dev 1 || { fail ipv6/namespace "$(ls /sys/block)"; return 1; }
	fio_verify ipv6-rand4k "$(ns_dev 1)" randwrite 4k $SZ4K
	check ipv6/disconnect timeout 120 nvme disconnect -n $NQN
	lab_wait_for 60 sh -c "! ls /sys/class/nvme/ 2>/dev/null | grep -q nvme" &&
		pass ipv6/ctrl-gone || fail ipv6/ctrl-gone "$(ls /sys/class/nvme)"
}

teardown() {
	[ -n "${CTRL:-}" ] && [ -e "/sys/class/nvme/$CTRL" ] && timeout 120 nvme disconnect -n $NQN
	if [ -d $CFS ]; then
		target_down && pass teardown/configfs || fail teardown/configfs "$(find $CFS -maxdepth 3)"
	fi
	lab_ulp_unload $S nvme_rdma nvme_fabrics nvme nvme_core nvmet_rdma nvmet null_blk
	rm -rf $T
	lab_rxe_teardown $S
	lab_veth_ipv6_del
}

if setup; then
	if target_up; then
		pass target/configfs
		if connect; then
			io
			flap
			removal
			disconnect
			ipv6
		fi
	else
		fail target/configfs "$(find $CFS -maxdepth 4 2>&1 | head -20)"
	fi
fi
teardown
