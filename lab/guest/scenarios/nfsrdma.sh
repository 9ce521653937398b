#!/bin/sh
# NFS over RDMA, the kernel's own nfsd, svcrdma and xprtrdma (rpcrdma:
# Debian's binary on the stock kernel, the in-tree build on the test
# kernel) on our rdma_cm and ib_core, over the kernel's rdma_rxe on a veth
# pair: nfsd listens on "rdma 20049" (/proc/fs/nfsd/portlist) at rxe0's
# address, exports a tmpfs, the client mounts it with
# "-o rdma,port=20049,vers=3" over rxe1, writes files (small ones sent
# inline, large ones through RDMA Read and Write chunks), and after a
# remount reads them back, their checksums compared with the originals
# and with the server's copies; then the same with "vers=4.2" (checks
# "v4.2/..."); umount, nfsd stopped, every module unloaded.  Every tool
# runs under "timeout": a hang is a failure.
. /lab/guest-lib.sh
S=nfsrdma
A=10.11.0.1
T=/tmp/nfsrdma
EXP=/srv/nfsrdma
MNT=/mnt/nfsrdma

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }
check() { _c=$1; shift; lab_check "$S/$_c" "$@"; }

# Soft RoCE on the debug kernel moves some hundred KB/s.
if lab_debug_kernel; then BIG=512; else BIG=4096; fi

setup() {
	mkdir -p $T $EXP $MNT
	lab_rxe_setup $S || return 1
	lab_load_intree rpcrdma || { fail setup/rpcrdma "modprobe rpcrdma"; return 1; }
	for _m in rdma_cm ib_cm iw_cm ib_core; do
		lab_is_ours $_m || { fail setup/ours "$_m is not ours"; return 1; }
	done
	pass setup/ulps-on-our-core
}

server_up() {
	modprobe nfsd || { fail server/nfsd "modprobe nfsd"; return 1; }
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd ||
		{ fail server/nfsdfs "mount nfsd"; return 1; }
	mount -t tmpfs -o size=64m nfsrdma $EXP || { fail server/tmpfs "mount tmpfs"; return 1; }
	rpcbind -f >$T/rpcbind.out 2>&1 &
	RPCBIND=$!
	lab_wait_for 30 sh -c 'rpcinfo -p 127.0.0.1 >/dev/null' ||
		{ fail server/rpcbind "rpcbind did not come up"; return 1; }
	check server/exportfs timeout 60 exportfs -o rw,no_root_squash,insecure,fsid=7 "10.11.0.0/24:$EXP" ||
		return 1
	rpc.mountd -F >$T/mountd.out 2>&1 &
	MOUNTD=$!
	# NFSv4 opens wait out the grace period after nfsd starts: the
	# shortest (10 s) instead of 90; the state recovery directory is
	# the kernel's legacy one
	mkdir -p /var/lib/nfs/v4recovery
	echo 10 >/proc/fs/nfsd/nfsv4leasetime
	echo 10 >/proc/fs/nfsd/nfsv4gracetime
	check server/rpc.nfsd timeout 120 rpc.nfsd 2 || return 1
	grep -q '+4.2' /proc/fs/nfsd/versions && pass server/v4.2 ||
		fail server/v4.2 "versions: $(cat /proc/fs/nfsd/versions)"
	check server/portlist-rdma sh -c 'echo "rdma 20049" >/proc/fs/nfsd/portlist' || return 1
	sed 's/^/    portlist: /' /proc/fs/nfsd/portlist
	grep -q '^rdma 20049' /proc/fs/nfsd/portlist && pass server/portlist-lists-rdma ||
		fail server/portlist-lists-rdma "$(cat /proc/fs/nfsd/portlist)"
	lab_wait_for 60 sh -c 'rpcinfo -p 127.0.0.1 | grep -q mountd' ||
		{ fail server/mountd "mountd not registered"; return 1; }
}

mount_rdma() {	# VERSION
	timeout 180 mount -t nfs -o rdma,port=20049,vers=$1,nolock,actimeo=0 "$A:$EXP" $MNT
}

# The data: small files (inline) and larger ones (chunks), random.
make_data() {
	mkdir -p $T/src
	for _i in 1 2 3 4; do
		head -c $((_i * 700)) /dev/urandom >$T/src/small$_i
	done
	head -c $((BIG * 1024)) /dev/urandom >$T/src/big1
	head -c $((BIG * 1024 + 4095)) /dev/urandom >$T/src/big2
	(cd $T/src && sha256sum ./*) >$T/sums
}

# io VERSION PREFIX: a mount of that NFS version over RDMA, files
# written, read back after a remount, renamed and removed; the checks'
# names start with PREFIX.  The export starts empty.
io() {
	_v=$1 _p=$2
	rm -rf "${EXP:?}"/*
	check ${_p}mount mount_rdma $_v || return 1
	grep " $MNT " /proc/mounts | sed 's/^/    /'
	grep " $MNT " /proc/mounts | grep -q 'proto=rdma' && pass ${_p}mount/proto-rdma ||
		fail ${_p}mount/proto-rdma "$(grep " $MNT " /proc/mounts)"
	grep " $MNT " /proc/mounts | grep -q "vers=$_v" && pass ${_p}mount/version ||
		fail ${_p}mount/version "$(grep " $MNT " /proc/mounts)"
	make_data
	check ${_p}write timeout 300 sh -c "cp $T/src/* $MNT/ && sync"
	check ${_p}write/server-copy sh -c "cd $EXP && sha256sum -c $T/sums"
	check ${_p}umount timeout 120 umount $MNT || return 1
	check ${_p}remount mount_rdma $_v || return 1
	check ${_p}read/verified timeout 300 sh -c "cd $MNT && sha256sum -c $T/sums"
	check ${_p}read/listing sh -c "[ \$(ls $MNT | wc -l) -eq 6 ]"
	check ${_p}rename-remove timeout 120 sh -c "mv $MNT/small1 $MNT/moved && rm $MNT/moved && [ ! -e $EXP/small1 ]"
	check ${_p}umount-again timeout 120 umount $MNT
}

server_down() {
	mountpoint -q $MNT && timeout 120 umount -f $MNT
	if [ -e /proc/fs/nfsd/threads ]; then
		timeout 120 rpc.nfsd 0 && pass teardown/nfsd-stopped || fail teardown/nfsd-stopped "rpc.nfsd 0"
		timeout 60 exportfs -ua
	fi
	[ -n "${MOUNTD:-}" ] && kill "$MOUNTD" 2>/dev/null && wait "$MOUNTD" 2>/dev/null
	[ -n "${RPCBIND:-}" ] && kill "$RPCBIND" 2>/dev/null && wait "$RPCBIND" 2>/dev/null
	mountpoint -q /proc/fs/nfsd && umount /proc/fs/nfsd
	mountpoint -q $EXP && umount $EXP
}

# rpcrdma goes once the client's transports and nfsd's listeners are
# destroyed, which is asynchronous after umount and "rpc.nfsd 0".
rpcrdma_gone() { rmmod rpcrdma 2>/dev/null; ! lab_loaded rpcrdma; }

teardown() {
	server_down
	lab_unload nfsv4 nfsv3 nfs nfsd
	lab_wait_for 60 rpcrdma_gone
	lab_ulp_unload $S rpcrdma nfsd
	rm -rf $T
	lab_rxe_teardown $S
}

if setup && server_up; then
	io 3 ""
	io 4.2 v4.2/
fi
teardown
