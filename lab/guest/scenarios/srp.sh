#!/bin/sh
# SCSI RDMA Protocol over RoCE through rdma_cm, the kernel's own ULPs
# (Debian's binaries on the stock kernel, the in-tree builds on the test
# kernel) on our rdma_cm, ib_cm and ib_core, over the kernel's rdma_rxe on
# a veth pair: ib_srpt (LIO) with a ramdisk LUN behind rxe0's port,
# listening through rdma_cm (its rdma_cm_port, an IPv6 wildcard listener
# that takes IPv4 requests); ib_srp on rxe1 adds the target by writing
# "id_ext=...,ioc_guid=...,dest=<IPv4>:<port>" to add_target (no
# srp_daemon); fio with crc32c verification on the SCSI disk; the remote
# port deleted, the target torn down, every module unloaded.  Every tool
# runs under "timeout": a hang is a failure.
. /lab/guest-lib.sh
S=srp
A=10.11.0.1
B=10.11.0.2
T=/tmp/srp
SGUID=0002c903000a1b2c
PORT=5555
CFS=/sys/kernel/config/target
RD=$CFS/core/rd_mcp_1

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }
check() { _c=$1; shift; lab_check "$S/$_c" "$@"; }

if lab_debug_kernel; then SZ4K=1M SZ128K=2M; else SZ4K=8M SZ128K=16M; fi

setup() {
	mkdir -p $T
	lab_rxe_setup $S || return 1
	lab_configfs || { fail setup/configfs "mount configfs"; return 1; }
	# The SCSI disk driver (no udev loads it).
	modprobe sd_mod || { fail setup/sd_mod "modprobe sd_mod"; return 1; }
	lab_load_intree ib_srpt srpt_service_guid=0x$SGUID ||
		{ fail setup/ib_srpt "modprobe ib_srpt"; return 1; }
	lab_load_intree ib_srp || { fail setup/ib_srp "modprobe ib_srp"; return 1; }
	for _m in rdma_cm ib_cm iw_cm ib_core; do
		lab_is_ours $_m || { fail setup/ours "$_m is not ours"; return 1; }
	done
	pass setup/ulps-on-our-core
}

# ib_srpt names an RDMA port by the interface ID of its GID 0, as four
# groups of hex digits.
port_guid_name() {
	cut -d: -f5-8 "/sys/class/infiniband/$1/ports/1/gids/0"
}

# A 32 MiB ramdisk LUN behind rxe0's port, mapped to the initiators that
# may log in (ib_srpt names an rdma_cm session by an address: both ends'
# are allowed, the log says which it used); rdma_cm listens on $PORT.
target_up() {
	WWN=$CFS/srpt/$(port_guid_name rxe0)
	TPG=$WWN/tpgt_1
	mkdir -p $RD/r0 || return 1
	echo rd_pages=8192 >$RD/r0/control || return 1
	echo 1 >$RD/r0/enable || return 1
	mkdir -p $TPG/lun/lun_0 || return 1
	ln -s $RD/r0 $TPG/lun/lun_0/lun0 || return 1
	for _i in $A $B; do
		mkdir -p "$TPG/acls/$_i/lun_0" || return 1
		ln -s $TPG/lun/lun_0 "$TPG/acls/$_i/lun_0/mlun" || return 1
	done
	echo 1 >$TPG/enable || return 1
	echo $PORT >$CFS/srpt/discovery_auth/rdma_cm_port
}

target_down() {
	[ -e $CFS/srpt/discovery_auth/rdma_cm_port ] &&
		echo 0 >$CFS/srpt/discovery_auth/rdma_cm_port
	if [ -n "${TPG:-}" ] && [ -d "$TPG" ]; then
		echo 0 >$TPG/enable
		for _a in "$TPG"/acls/*; do
			[ -d "$_a" ] || continue
			rm -f "$_a/lun_0/mlun"
			rmdir "$_a/lun_0" "$_a"
		done
		rm -f $TPG/lun/lun_0/lun0
		rmdir $TPG/lun/lun_0 $TPG
	fi
	[ -z "${WWN:-}" ] || [ ! -d "$WWN" ] || rmdir "$WWN"
	[ ! -d $CFS/srpt ] || rmdir $CFS/srpt
	[ ! -d $RD/r0 ] || rmdir $RD/r0
	[ ! -d $RD ] || rmdir $RD
	! [ -e $CFS/srpt ] && ! [ -e $RD ]
}

# The SCSI disk of ib_srp's host on rxe1, on stdout.
srp_disk() {
	for _h in /sys/class/scsi_host/host*; do
		[ "$(cat "$_h/local_ib_device" 2>/dev/null)" = rxe1 ] || continue
		for _b in "$_h"/device/target*/*/block/*; do
			[ -e "$_b" ] || continue
			echo "/dev/${_b##*/}"
			return 0
		done
	done
	return 1
}

login() {
	_h=/sys/class/infiniband_srp/srp-rxe1-1
	[ -e $_h/add_target ] || { fail login/srp-host "no $_h"; return 1; }
	check add-target timeout 180 sh -c \
		"echo id_ext=$SGUID,ioc_guid=$SGUID,dest=$A:$PORT,src=$B >$_h/add_target" ||
		return 1
	lab_wait_for 120 srp_disk || { fail login/disk "no SCSI disk"; return 1; }
	DISK=$(srp_disk)
	echo "    disk $DISK, $(cat /sys/block/${DISK#/dev/}/size) sectors"
	pass login/disk
	for _a in "$TPG"/acls/*; do
		head -n 2 "$_a/info" 2>/dev/null | sed "s/^/    ACL ${_a##*/}: /"
	done
	dmesg | grep -E 'ib_srpt|ib_srp|scsi host' | tail -6 | sed 's/^/    dmesg: /'
}

# The remote port goes through scsi_transport_srp's "delete".
logout() {
	_p=$(ls -d /sys/class/srp_remote_ports/port-* 2>/dev/null | head -n1)
	[ -n "$_p" ] || { fail logout/port "no srp_remote_port"; return 1; }
	check logout timeout 120 sh -c "echo 1 >$_p/delete"
	lab_wait_for 120 sh -c '! ls /sys/class/srp_remote_ports/ | grep -q port' &&
		pass logout/port-gone || fail logout/port-gone "$(ls /sys/class/srp_remote_ports)"
}

teardown() {
	for _p in /sys/class/srp_remote_ports/port-*; do
		[ -e "$_p/delete" ] && echo 1 >"$_p/delete"
	done
	lab_wait_for 120 sh -c '! ls /sys/class/srp_remote_ports/ 2>/dev/null | grep -q port'
	if [ -d $CFS ]; then
		target_down && pass teardown/configfs || fail teardown/configfs "$(find $CFS -maxdepth 4 | head -20)"
	fi
	lab_ulp_unload $S ib_srp scsi_transport_srp ib_srpt target_core_file target_core_iblock \
		target_core_pscsi target_core_user target_core_mod
	rm -rf $T
	lab_rxe_teardown $S
}

lab_lio_run $S
