#!/usr/bin/env bash
# make demo: the main job.  Builds our modules for Debian's stock kernel and
# boots that kernel in a QEMU VM (lab/host/vm.sh, plan lab/guest/plans/demo.sh):
# Debian's own rdma_rxe on our RDMA core, two soft RoCE devices on the ends
# of a veth pair, what iproute2 shows of them, their RoCE GIDs following
# the addresses, port events following the link, verified traffic from
# our ULP with its figures, and ibv_devinfo and a pingpong of rdma-core.
#
#   lab/host/demo.sh [--rxe ours] [--out DIR]
#
#   --rxe ours   the same on our own rdma_rxe (hw/rxe, built with
#                OOT_RXE=m) instead of Debian's
#
# Installs what it needs on a fresh Debian bookworm machine (headers,
# compiler, QEMU, debootstrap) and caches the root filesystem and the stock
# kernel image in /var/cache/rdma-lab.  Logs and the wall time of each stage
# (times.txt) in build/demo/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=() rxe=intree
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=(--out "$2"); shift 2 ;;
	--rxe) rxe=$2; shift 2 ;;
	-h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1" ;;
	esac
done
case "$rxe" in intree|ours) ;; *) die "--rxe ours (or intree, the default)" ;; esac

logs="$TOP_DIR/build/demo"
rm -rf "$logs"
mkdir -p "$logs"
t0=$(date +%s)
export LAB_TIMES="$logs/times.txt"
echo "# make demo, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs" >"$LAB_TIMES"

timed packages need_pkgs build-essential linux-headers-amd64 rsync kmod python3 \
	qemu-system-x86 debootstrap e2fsprogs
kdir=$(stock_kdir) || die "no linux-headers-*-amd64"
rel=$(kdir_release "$kdir")

log "demo: building our modules for $rel"
timed build-stock make -C "$TOP_DIR" -s KDIR="$kdir" >"$logs/make.log" 2>&1 ||
	{ tail -n 30 "$logs/make.log" >&2; die "build failed"; }
mods="$TOP_DIR/build/$rel"
if [ "$rxe" = ours ]; then
	log "demo: building our rdma_rxe for $rel"
	timed build-rxe oot_rxe_build "$kdir" 2>>"$logs/make.log" ||
		{ tail -n 30 "$logs/make.log" >&2; die "hw/rxe did not build"; }
	mods=$(rxe_modules_dir "$kdir")
fi
log "demo: root filesystem and stock kernel (cached after the first run)"
timed rootfs "$HOST_DIR/build-rootfs.sh" >/dev/null
timed stock-image "$HOST_DIR/stock-kernel.sh" >/dev/null
rc=0
timed vm-stock-kernel "$HOST_DIR/vm.sh" --kernel stock --modules "$mods" \
	--timeout 900 "${out[@]}" "$GUEST_DIR/plans/demo.sh" "$rxe" || rc=$?
stage_time total $(($(date +%s) - t0))
exit $rc
