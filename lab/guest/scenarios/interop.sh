#!/bin/sh
# Scenario "interop": our stack against Debian's in-tree stack across a
# wire (lab/host/pair.sh boots the two VMs; this runs in ours).  Both ends
# run soft RoCE (Debian's rdma_rxe; ours on our core) on the link, so the
# RoCE packets, the MADs of QP1 and the CM messages between the two cores
# cross it.  In both directions:
#   verbs/*   ibv_rc_pingpong and ibv_ud_pingpong (data validated)
#   nvmeof/*  an NVMe-oF connect (nvme-rdma to nvmet-rdma through both
#             rdma_cms and ib_cms) to a file-backed namespace, fio with
#             crc32c verification, the data checked on the target's file,
#             and a disconnect (DREQ/DREP)
#   rdmacm/*  librdmacm's rping (verified), ucmatose and udaddy (UD, SIDR),
#             rping over IPv6, when our rdma_ucm is built
# First, wire/*: the peer sends RoCE v2 packets no real sender makes to our
# address (tools/roce_craft.py from a plain UDP socket, not through its
# RDMA stack); each row must move its counter of our MAD layer
# (/sys/kernel/debug/ib_core/mad/rxe0-1/counters), CM messages for no
# connection reach our ib_cm, a wrong ICRC is dropped by rxe before our
# core, and the kernel log stays clean; the traffic above runs after it.
# Then the peer ends, our device goes and our modules unload.
#
# With INTEROP_RXE=ours (in the run's env file, lab/host/suite.sh --data)
# our side runs our own rdma_rxe (hw/rxe, a build with OOT_RXE=m) instead
# of Debian's: NVMe-oF then also proves its fast registration and the
# sends with invalidate against the in-tree driver.
# lab-kernels: stock
# lab-pair: yes
. /lab/guest-lib.sh
S=interop
ME=10.77.0.2
PEER=10.77.0.1
ME6=fd77::2
PEER6=fd77::1
T=/tmp/interop
RXE=${INTEROP_RXE:-intree}
PEERCMD="python3 /lab/tools/peer.py"
NQN=nqn.2026-11.lab:interop

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }

# on_peer SECONDS CMD...: CMD on the peer, with the lab's helpers; its
# output to the log (indented), its status ours.
on_peer() {
	_s=$1
	shift
	$PEERCMD run "$_s" ". /lab/guest-lib.sh; $*" >$T/peer.out 2>&1
	_rc=$?
	sed 's/^/    peer: /' $T/peer.out
	return $_rc
}

setup() {
	mkdir -p $T
	NIC=$(lab_wire_nic) || { fail setup/nic "no wire NIC"; return 1; }
	ip addr add $ME/24 dev "$NIC" && ip link set "$NIC" up ||
		{ fail setup/nic "ip"; return 1; }
	_rel=$($PEERCMD hello 400) || { fail setup/peer "$_rel"; return 1; }
	echo "lab: interop: peer up, kernel $_rel"
	if [ "$RXE" = ours ]; then
		lab_load ib_core && lab_load ib_uverbs && lab_load rdma_rxe ||
			{ fail setup/modules "our core with our rdma_rxe"; return 1; }
	else
		lab_load ib_core && lab_load ib_uverbs && lab_load_intree rdma_rxe ||
			{ fail setup/modules "our core with rdma_rxe"; return 1; }
	fi
	rdma link add rxe0 type rxe netdev "$NIC" ||
		{ fail setup/rxe "rdma link add"; return 1; }
	lab_wait_for 30 lab_gid_of rxe0 $ME || { fail setup/gid "no GID of $ME"; return 1; }
	G=$(lab_gid_of rxe0 $ME)
	GP=$($PEERCMD run 60 ". /lab/guest-lib.sh; lab_wait_for 30 lab_gid_of rxe0 $PEER && lab_gid_of rxe0 $PEER") ||
		{ fail setup/peer-gid "no GID of $PEER on the peer"; return 1; }
	echo "lab: interop: our GID index $G, the peer's $GP"
	pass setup
}

# Crafted packets from the peer's address to ours, sent by the peer;
# ib_umad (the RMPP rows' agent) and ib_cm loaded here.  Seed printed.
wire() {
	lab_load ib_umad && lab_load ib_cm || { fail wire/modules "ib_umad, ib_cm"; return; }
	lab_craft_wire $S rxe0 1200 \
		"$PEERCMD run 120 'python3 /lab/tools/roce_craft.py send $PEER $ME {row} {seed}'"
}

# pingpong NAME TOOL ARGS: TOOL's server on the peer and its client here,
# then the reverse; two results, NAME/to-peer and NAME/from-peer.
pingpong() {
	_n=$1 _t=$2
	shift 2
	$PEERCMD start srv "$_t -d rxe0 -g $GP $*" >/dev/null
	lab_wait_for 60 on_peer 10 "ss -ltn | grep -q :18515" >/dev/null
	timeout 180 "$_t" -d rxe0 -g "$G" "$@" $PEER >$T/cli.out 2>&1
	_c=$?
	$PEERCMD wait srv 120 >$T/srv.out 2>&1
	_s=$?
	sed 's/^/    client: /' $T/cli.out
	sed 's/^/    peer server: /' $T/srv.out
	[ $_c -eq 0 ] && [ $_s -eq 0 ] && pass "$_n/to-peer" ||
		fail "$_n/to-peer" "client $_c, peer server $_s"

	timeout 180 "$_t" -d rxe0 -g "$G" "$@" >$T/srv.out 2>&1 &
	_spid=$!
	lab_wait_for 60 lab_listening 18515
	on_peer 180 "$_t -d rxe0 -g $GP $* $ME"
	_c=$?
	wait $_spid
	_s=$?
	sed 's/^/    server: /' $T/srv.out
	[ $_c -eq 0 ] && [ $_s -eq 0 ] && pass "$_n/from-peer" ||
		fail "$_n/from-peer" "peer client $_c, server $_s"
}

verbs() {
	pingpong verbs/rc_pingpong ibv_rc_pingpong -n 100 -s 4096 -c
	pingpong verbs/ud_pingpong ibv_ud_pingpong -n 100 -s 512 -c
}

# The NVMe-oF target, through configfs: subsystem NQN with one namespace
# backed by FILE, open to any host, on port 1 over RDMA at ADDR:4420.
# Written to run on either VM (the peer sources this file's functions
# through a here-document; see nvmeof_target_on_peer).
NVMET_FNS='
nvmet_up() {	# ADDR FILE NQN
	_c=/sys/kernel/config/nvmet
	[ -d $_c ] || mount -t configfs none /sys/kernel/config
	mkdir -p $_c/subsystems/$3/namespaces/1 $_c/ports/1 || return 1
	echo 1 >$_c/subsystems/$3/attr_allow_any_host
	echo "$2" >$_c/subsystems/$3/namespaces/1/device_path
	echo 1 >$_c/subsystems/$3/namespaces/1/buffered_io
	echo 1 >$_c/subsystems/$3/namespaces/1/enable || return 1
	echo rdma >$_c/ports/1/addr_trtype
	echo ipv4 >$_c/ports/1/addr_adrfam
	echo "$1" >$_c/ports/1/addr_traddr
	echo 4420 >$_c/ports/1/addr_trsvcid
	ln -s $_c/subsystems/$3 $_c/ports/1/subsystems/$3
}
nvmet_down() {	# NQN
	_c=/sys/kernel/config/nvmet
	rm -f $_c/ports/1/subsystems/$1
	rmdir $_c/ports/1 2>/dev/null
	echo 0 >$_c/subsystems/$1/namespaces/1/enable 2>/dev/null
	rmdir $_c/subsystems/$1/namespaces/1 $_c/subsystems/$1 2>/dev/null
	return 0
}
'
eval "$NVMET_FNS"

# nvme_host_io TARGET_ADDR DEVICE_FILE_VAR: connect (nvme-rdma), fio with
# verification, disconnect; run on either side by the functions below.
NVME_HOST_FNS='
nvme_host_io() {	# ADDR NQN MIB
	timeout 120 nvme connect -t rdma -a "$1" -s 4420 -n "$2" -l 30 || { echo "connect failed"; return 1; }
	_d=""
	for _i in $(seq 100); do
		# the disk of the namespace (a multipath head has its subsystem as
		# device, else the controller; nvmeXcYnZ are hidden paths)
		_d=$(for _b in /sys/block/nvme*; do
			case ${_b##*/} in nvme*c*) continue ;; esac
			[ "$(cat $_b/device/subsysnqn 2>/dev/null)" = "$2" ] && echo ${_b##*/}
			done | head -n1)
		[ -n "$_d" ] && [ -b /dev/$_d ] && break
		sleep 0.2
	done
	[ -n "$_d" ] || { echo "no namespace"; nvme disconnect -n "$2"; return 1; }
	_dev=/dev/$_d
	echo "namespace $_dev"
	_rc=0
	timeout 600 fio --name=v --filename=$_dev --rw=randwrite --bs=4k --size=${3}m \
		--direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c \
		--verify_fatal=1 >/tmp/fio.out 2>&1 || _rc=1
	# a known pattern at the start, for the target side to check
	head -c 65536 /tmp/pattern >/tmp/pattern64k
	dd if=/tmp/pattern64k of=$_dev bs=64k count=1 oflag=direct 2>/dev/null || _rc=1
	dd if=$_dev of=/tmp/back bs=64k count=1 iflag=direct 2>/dev/null
	cmp -s /tmp/pattern64k /tmp/back || { echo "read back differs"; _rc=1; }
	timeout 120 nvme disconnect -n "$2" || _rc=1
	return $_rc
}
'
eval "$NVME_HOST_FNS"

nvmeof_mib() { if lab_debug_kernel; then echo 2; else echo 8; fi; }

# The peer as target, our host: nvme-rdma (Debian's) on our core.
nvmeof_to_peer() {
	on_peer 60 "modprobe nvmet_rdma && truncate -s 64m /tmp/ns.img &&
		$NVMET_FNS
		nvmet_up $PEER /tmp/ns.img $NQN" ||
		{ fail nvmeof/to-peer/target "the peer's nvmet"; return; }
	lab_load_intree nvme_rdma || { fail nvmeof/to-peer "modprobe nvme-rdma"; return; }
	head -c 65536 /dev/urandom >/tmp/pattern
	if nvme_host_io $PEER $NQN "$(nvmeof_mib)" >$T/host.out 2>&1; then
		pass nvmeof/to-peer/io
	else
		fail nvmeof/to-peer/io "$(tail -n 2 $T/host.out | tr '\n' ' ')"
	fi
	sed 's/^/    host: /' $T/host.out
	grep -E '(READ|WRITE):|err=|verify' /tmp/fio.out | sed 's/^ */    fio: /'
	# the pattern our host wrote is in the peer's file
	_sum=$(head -c 65536 /tmp/pattern | md5sum | cut -d' ' -f1)
	_psum=$($PEERCMD run 30 "head -c 65536 /tmp/ns.img | md5sum" | cut -d' ' -f1)
	[ "$_sum" = "$_psum" ] && pass nvmeof/to-peer/target-data ||
		fail nvmeof/to-peer/target-data "ours $_sum, on the peer's file $_psum"
	on_peer 60 "$NVMET_FNS
		nvmet_down $NQN; modprobe -r nvmet_rdma nvmet; rm -f /tmp/ns.img"
	modprobe -r nvme_rdma nvme_fabrics 2>/dev/null
}

# Our target (Debian's nvmet-rdma on our core), the peer's host.
nvmeof_from_peer() {
	lab_load_intree nvmet_rdma && truncate -s 64m $T/ns.img &&
		nvmet_up $ME $T/ns.img $NQN ||
		{ fail nvmeof/from-peer/target "our nvmet"; nvmet_down $NQN
		  modprobe -r nvmet_rdma nvmet; return; }
	_mib=$(nvmeof_mib)
	if on_peer 700 "modprobe nvme_rdma && head -c 65536 /dev/urandom >/tmp/pattern &&
		$NVME_HOST_FNS
		nvme_host_io $ME $NQN $_mib; _r=\$?; grep -E '(READ|WRITE):|err=|verify' /tmp/fio.out;
		modprobe -r nvme_rdma nvme_fabrics; exit \$_r"; then
		pass nvmeof/from-peer/io
	else
		fail nvmeof/from-peer/io "the peer's host failed"
	fi
	_psum=$($PEERCMD run 30 "md5sum </tmp/pattern" | cut -d' ' -f1)
	_sum=$(head -c 65536 $T/ns.img | md5sum | cut -d' ' -f1)
	[ "$_sum" = "$_psum" ] && pass nvmeof/from-peer/target-data ||
		fail nvmeof/from-peer/target-data "peer wrote $_psum, our file has $_sum"
	nvmet_down $NQN
	modprobe -r nvmet_rdma nvmet 2>/dev/null
	rm -f $T/ns.img
}

# cm_listening TOOL: an rdma_cm ID of TOOL listens (rdma res, either side)
CM_LISTENING='rdma res show cm_id | grep LISTEN | grep -q "comm $0"'
cm_listening() { sh -c "$CM_LISTENING" "$1"; }
peer_listening() { $PEERCMD run 10 "sh -c '$CM_LISTENING' $1" >/dev/null 2>&1; }

# cm_pair NAME TOOL SERVER_ARGS CLIENT_ARGS: TOOL (librdmacm) with its
# server on the peer and its client here, then the reverse; in the args,
# @SRV@ stands for the server's address.  NAME/to-peer, NAME/from-peer.
cm_pair() {
	_n=$1 _t=$2 _sa=$3 _ca=$4
	_s=$(echo "$_sa" | sed "s/@SRV@/$PEER_A/g")
	_c=$(echo "$_ca" | sed "s/@SRV@/$PEER_A/g")
	$PEERCMD start srv "timeout 120 $_t $_s" >/dev/null
	lab_wait_for 60 peer_listening "$_t"
	# shellcheck disable=SC2086
	timeout 120 $_t $_c >$T/cli.out 2>&1
	_cst=$?
	$PEERCMD wait srv 130 >$T/srv.out 2>&1
	_sst=$?
	sed 's/^/    client: /' $T/cli.out | tail -n 3
	sed 's/^/    peer server: /' $T/srv.out | tail -n 3
	[ $_cst -eq 0 ] && [ $_sst -eq 0 ] && pass "$_n/to-peer" ||
		fail "$_n/to-peer" "client $_cst, peer server $_sst"

	_s=$(echo "$_sa" | sed "s/@SRV@/$ME_A/g")
	_c=$(echo "$_ca" | sed "s/@SRV@/$ME_A/g")
	# shellcheck disable=SC2086
	timeout 120 $_t $_s >$T/srv.out 2>&1 &
	_spid=$!
	lab_wait_for 60 cm_listening "$_t"
	on_peer 130 "timeout 120 $_t $_c" >/dev/null
	_cst=$?
	wait $_spid
	_sst=$?
	sed 's/^/    server: /' $T/srv.out | tail -n 3
	[ $_cst -eq 0 ] && [ $_sst -eq 0 ] && pass "$_n/from-peer" ||
		fail "$_n/from-peer" "peer client $_cst, server $_sst"
}

# librdmacm's tools through our rdma_ucm, when it is built: RC with
# verification (rping), RC connections with messages (ucmatose), UD over
# SIDR (udaddy); over IPv4, and rping over IPv6.
rdmacm() {
	if ! lab_is_ours rdma_ucm; then
		echo "SKIP $S/rdmacm (no rdma_ucm of ours in this build)"
		return
	fi
	lab_load rdma_ucm || { fail rdmacm/load "rdma_ucm"; return; }
	ME_A=$ME PEER_A=$PEER
	cm_pair rdmacm/rping rping "-s -a @SRV@ -C 20 -V" "-c -a @SRV@ -C 20 -V"
	cm_pair rdmacm/ucmatose ucmatose "-b @SRV@ -c 2 -C 10" "-s @SRV@ -c 2 -C 10"
	cm_pair rdmacm/udaddy udaddy "-b @SRV@ -c 2 -C 10" "-s @SRV@ -c 2 -C 10"
	# IPv6: addresses without duplicate detection (rdma_cm resolves the
	# neighbour itself)
	if ip -6 addr add $ME6/64 dev "$NIC" nodad &&
		on_peer 30 "ip -6 addr add $PEER6/64 dev \$(lab_wire_nic) nodad"; then
		ME_A=$ME6 PEER_A=$PEER6
		cm_pair rdmacm/rping6 rping "-s -a @SRV@ -C 20 -V" "-c -a @SRV@ -C 20 -V"
	else
		fail rdmacm/ipv6 "cannot add $ME6 here or $PEER6 on the peer"
	fi
}

teardown() {
	$PEERCMD quit >/dev/null 2>&1
	modprobe -r nvme_rdma nvme_fabrics nvmet_rdma nvmet 2>/dev/null
	rdma link delete rxe0 2>/dev/null
	lab_wait_for 30 test ! -e /sys/class/infiniband/rxe0 ||
		fail teardown/device "rxe0 still there"
	lab_unload_all
	if lab_rdma_left >/dev/null; then fail unload "$(lab_rdma_left)"
	else pass unload; fi
	_re='WARNING:|BUG:|Oops|general protection|refcount_t|list_(add|del) corruption'
	_bad=$(dmesg | sed -n "/lab: scenario $S\$/,\$p" | grep -E -m3 "$_re")
	[ -z "$_bad" ] && pass kernel-log || fail kernel-log "$_bad"
}

if setup; then
	wire
	verbs
	nvmeof_to_peer
	nvmeof_from_peer
	rdmacm
fi
teardown
