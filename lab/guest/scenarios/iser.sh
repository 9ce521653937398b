#!/bin/sh
# iSCSI over RDMA (iSER), the kernel's own ULPs (Debian's binaries on the
# stock kernel, the in-tree builds on the test kernel) on our rdma_cm and
# ib_core, over the kernel's rdma_rxe on a veth pair: a LIO iSCSI target
# made through configfs, a ramdisk LUN, iSER enabled on the portal at
# rxe0's address (ib_isert); open-iscsi's iscsid logs in through a node
# record with iface.transport_name=iser (ib_iser) over rxe1; fio with
# crc32c verification on the SCSI disk; logout, target torn down, every
# module unloaded.  Every tool runs under "timeout": a hang is a failure.
#
# No SendTargets discovery: iscsiadm does it itself for iSER (not through
# iscsid), and open-iscsi 2.1.8 loses the Text response when the kernel's
# RECV_PDU event reaches its netlink socket before the reply to its
# SEND_PDU (the reply loop consumes the event, then discovery polls for
# one that already came).  On a starved VM that happens; iscsiadm then
# times out after 30 s, crashes in its reconnect and leaves a kernel
# session no process owns, so ib_iser can never unload.
. /lab/guest-lib.sh
S=iser
A=10.11.0.1
T=/tmp/iser
IQN=iqn.2026-11.org.rdmalab:iser
INIT=iqn.2026-11.org.rdmalab:initiator
CFS=/sys/kernel/config/target
TPG=$CFS/iscsi/$IQN/tpgt_1
NP="$TPG/np/$A:3260"
RD=$CFS/core/rd_mcp_0

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
	lab_load_intree ib_isert || { fail setup/ib_isert "modprobe ib_isert"; return 1; }
	lab_load_intree ib_iser || { fail setup/ib_iser "modprobe ib_iser"; return 1; }
	for _m in rdma_cm ib_cm iw_cm ib_core; do
		lab_is_ours $_m || { fail setup/ours "$_m is not ours"; return 1; }
	done
	pass setup/ulps-on-our-core
}

# A 32 MiB ramdisk LUN behind target $IQN, demo mode (any initiator, no
# authentication), the portal $A:3260 with iSER on.
target_up() {
	mkdir -p $RD/r0 || return 1
	echo rd_pages=8192 >$RD/r0/control || return 1
	echo 1 >$RD/r0/enable || return 1
	mkdir -p $TPG/lun/lun_0 || return 1
	ln -s $RD/r0 $TPG/lun/lun_0/lun0 || return 1
	mkdir "$NP" || return 1
	echo 1 >"$NP/iser" || return 1
	echo 0 >$TPG/attrib/authentication || return 1
	echo 1 >$TPG/attrib/generate_node_acls || return 1
	echo 1 >$TPG/attrib/cache_dynamic_acls || return 1
	echo 0 >$TPG/attrib/demo_mode_write_protect || return 1
	echo 1 >$TPG/enable
}

target_down() {
	[ -d $TPG ] && echo 0 >$TPG/enable
	if [ -d "$NP" ]; then
		echo 0 >"$NP/iser"
		rmdir "$NP"
	fi
	rm -f $TPG/lun/lun_0/lun0
	[ ! -d $TPG/lun/lun_0 ] || rmdir $TPG/lun/lun_0
	[ ! -d $TPG ] || rmdir $TPG
	[ ! -d $CFS/iscsi/$IQN ] || rmdir $CFS/iscsi/$IQN
	[ ! -d $CFS/iscsi ] || rmdir $CFS/iscsi
	[ ! -d $RD/r0 ] || rmdir $RD/r0
	[ ! -d $RD ] || rmdir $RD
	! [ -e $CFS/iscsi ] && ! [ -e $RD ]
}

iscsid_up() {
	mkdir -p /etc/iscsi
	echo "InitiatorName=$INIT" >/etc/iscsi/initiatorname.iscsi
	mkdir -p /run/lock/iscsi
	# A session of its own: iscsid signals its whole process group
	# when it stops.
	setsid iscsid -f >$T/iscsid.out 2>&1 &
	ISCSID=$!
	lab_wait_for 30 sh -c 'timeout 10 iscsiadm -m session 2>&1 | grep -q "No active sessions"'
}

# The SCSI disk of the iSCSI session, on stdout.
iscsi_disk() {
	for _b in /sys/class/iscsi_session/session*/device/target*/*/block/*; do
		[ -e "$_b" ] || continue
		echo "/dev/${_b##*/}"
		return 0
	done
	return 1
}

login() {
	iscsid_up || { fail iscsid "iscsid did not come up"; return 1; }
	# The node record, bound to the built-in "iser" iface.
	check node timeout 60 iscsiadm -m node -o new -T $IQN -p $A:3260 -I iser || return 1
	check iface-iser sh -c "timeout 60 iscsiadm -m node -T $IQN -p $A:3260 |
		grep -q '^iface.transport_name = iser'" || return 1
	check login timeout 180 iscsiadm -m node -T $IQN -p $A:3260 --login || return 1
	timeout 60 iscsiadm -m session -P 1 2>&1 | sed 's/^/    /' | head -20
	timeout 60 iscsiadm -m session 2>&1 | grep -q "^iser:" && pass session/transport-iser ||
		fail session/transport-iser "$(timeout 60 iscsiadm -m session 2>&1)"
	lab_wait_for 60 iscsi_disk || { fail session/disk "no SCSI disk"; return 1; }
	DISK=$(iscsi_disk)
	echo "    disk $DISK, $(cat /sys/block/${DISK#/dev/}/size) sectors"
	pass session/disk
}

logout() {
	check logout timeout 120 iscsiadm -m node -T $IQN -p $A:3260 --logout
	lab_wait_for 60 sh -c '! ls /sys/class/iscsi_session/ | grep -q session' &&
		pass logout/session-gone || fail logout/session-gone "$(ls /sys/class/iscsi_session)"
}

teardown() {
	if [ -n "${ISCSID:-}" ]; then
		timeout 60 iscsiadm -m session >/dev/null 2>&1 &&
			timeout 120 iscsiadm -m node -T $IQN -p $A:3260 --logout
		timeout 60 iscsiadm -m node -o delete -T $IQN >/dev/null 2>&1
		timeout 30 iscsiadm -k 0 >/dev/null 2>&1 || kill "$ISCSID" 2>/dev/null
		wait "$ISCSID" 2>/dev/null
		sed 's/^/    iscsid: /' $T/iscsid.out | tail -5
	fi
	if [ -d $CFS ]; then
		target_down && pass teardown/configfs || fail teardown/configfs "$(find $CFS -maxdepth 4 | head -20)"
	fi
	lab_ulp_unload $S ib_iser iscsi_tcp libiscsi_tcp libiscsi scsi_transport_iscsi \
		ib_isert iscsi_target_mod target_core_file target_core_iblock \
		target_core_pscsi target_core_user target_core_mod
	rm -rf $T
	lab_rxe_teardown $S
}

lab_lio_run $S
