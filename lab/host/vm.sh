#!/usr/bin/env bash
# Run a plan script in a QEMU VM with our modules installed, and return its
# exit status.
#
#   lab/host/vm.sh --kernel test|stock [options] PLAN [ARG...]
#
#   --kernel test    the cached debug test kernel (lab/host/build-kernel.sh), no
#                    initrd, its modules from the cache
#   --kernel stock   Debian's kernel (lab/host/stock-kernel.sh) with the initrd
#                    of the root filesystem
#   --modules DIR    where our .ko files are (default build/<release>)
#   --no-modules     boot without ours
#   --out DIR        keep the run here (default: a new directory under
#                    /var/cache/rdma-lab/runs, printed at the end)
#   --timeout SEC    hard limit for the whole VM (default 900)
#   --mem MB         guest memory (default 2048)
#   --append ARGS    more kernel command line
#   --data DIR       copy DIR's files to the share's data/ (/lab/data in
#                    the guest): input a plan needs besides the modules
#   --quiet          do not copy the plan's output to stdout
#   --wire L:R:N     a NIC (virtio-net, MAC 52:54:00:77:00:N) whose frames
#                    go as UDP datagrams from 127.0.0.1:L to 127.0.0.1:R:
#                    two VMs with L and R crossed share a link
#                    (lab/host/pair.sh)
#
# SIGTERM or SIGINT stops the VM at once (exit status 130).
# The VM: TCG (nested KVM hangs here), 2 vCPUs, the cached root file system
# (lab/host/build-rootfs.sh) as a snapshot=on virtio disk, the console in
# <run>/console.log.  /sbin/lab-init in the image mounts the "lab" 9p share
# (<run>/share, read-write) and runs guest-init.sh from it, which mounts the
# "mods" share (a hard-linked copy of the kernel's module tree with ours
# added under updates/ and depmod run on the host) over /lib/modules, runs
# the plan (with guest-lib.sh, and lab/guest/scenarios and lab/guest/tools
# on the share), saves dmesg and the exit status in
# <run>/share/out/ and powers off (sysrq o; -no-reboot for panics).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

kernel='' moddir='' nomods=0 out='' timeout=900 mem=2048 append='' quiet=0 data='' wire=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--modules) moddir=$2; shift 2 ;;
	--no-modules) nomods=1; shift ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--data) data=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	--wire)
		IFS=: read -r wl wr wn <<<"$2"
		wire=(-netdev "socket,id=wire,udp=127.0.0.1:$wr,localaddr=127.0.0.1:$wl"
			-device "virtio-net-pci,netdev=wire,mac=52:54:00:77:00:$wn")
		shift 2 ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
plan=$1; shift
[ -f "$plan" ] || die "no plan $plan"
[ -z "$data" ] || [ -d "$data" ] || die "no directory $data"

need_pkgs qemu-system-x86 kmod
rootfs=$("$HOST_DIR/build-rootfs.sh") || die "no root filesystem"
image="$rootfs/rootfs.ext4"

initrd=()
case "$kernel" in
test)
	kdir=$(test_kernel_dir)
	if [ ! -f "$kdir/.done" ]; then
		alt=$(ls -td "$LAB_CACHE"/kernel/*/.done 2>/dev/null | head -n1)
		[ -n "$alt" ] || die "no test kernel in $kdir: run lab/host/build-kernel.sh"
		kdir=$(dirname "$alt")
		log "warning: test kernel not at $(test_kernel_dir), using $kdir"
	fi
	rel=$(cat "$kdir/release")
	bzimage="$kdir/bzImage"
	srcmods="$kdir/modroot/lib/modules/$rel"
	# pci=noacpi: this kernel otherwise spends ~90 s in ACPI _PRT loop
	# timeouts under TCG (mutation.rst); the large log keeps every KUnit
	# line for the host to read.
	cmdline="console=ttyS0 root=/dev/vda rw rootwait kasan_multi_shot pci=noacpi log_buf_len=8M"
	;;
stock)
	sdir=$("$HOST_DIR/stock-kernel.sh") || die "no stock kernel"
	rel=$(cat "$rootfs/release")
	bzimage="$sdir/boot/vmlinuz-$rel"
	[ -f "$bzimage" ] || die "stock kernel $rel not in $sdir (rootfs has $rel)"
	[ -f "$rootfs/tree/boot/initrd.img-$rel" ] || die "no initrd for $rel"
	initrd=(-initrd "$rootfs/tree/boot/initrd.img-$rel")
	srcmods="$rootfs/tree/lib/modules/$rel"
	cmdline="console=ttyS0 root=/dev/vda rw"
	;;
*) die "--kernel test or --kernel stock" ;;
esac
# no_timer_check: a guest starved of host CPU (two VMs of make check on
# two cores) can fail the boot's IO-APIC timer check, and then panics
# ("IO-APIC + timer doesn't work"); a virtual timer needs no such check.
cmdline="$cmdline init=/sbin/lab-init panic=-1 no_timer_check $append"

if [ $nomods -eq 0 ]; then
	moddir=${moddir:-$TOP_DIR/build/$rel}
	[ -d "$moddir" ] || die "no modules in $moddir (build them: make KDIR=...)"
	moddir=$(cd "$moddir" && pwd)
fi

mkdir -p "$LAB_CACHE/runs"
if [ -n "$out" ]; then
	rm -rf "$out"
	mkdir -p "$out"
	run=$(cd "$out" && pwd)
else
	run=$(mktemp -d "$LAB_CACHE/runs/$(date +%Y%m%d-%H%M%S)-XXXX")
fi
share="$run/share"
mkdir -p "$share/out"

# The module tree the guest sees: hard links to the kernel's modules (same
# file system as the cache), ours copied under updates/, indexes rebuilt.
staging="$LAB_CACHE/runs/.mods-$$"
qemu_pid=
cleanup() {
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
	rm -rf "$staging"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$staging"
mkdir -p "$staging/lib/modules"
cp -al "$srcmods" "$staging/lib/modules/$rel"
rm -f "$staging/lib/modules/$rel"/modules.* "$staging/lib/modules/$rel/build" \
	"$staging/lib/modules/$rel/source"
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$srcmods/$f" ] && cp "$srcmods/$f" "$staging/lib/modules/$rel/"
done
rm -rf "$staging/lib/modules/$rel/updates"
if [ $nomods -eq 0 ]; then
	n=0
	while IFS= read -r ko; do
		vm=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
		[ "$vm" = "$rel" ] || die "$ko is built for $vm, not $rel"
		dst="$staging/lib/modules/$rel/updates/${ko#"$moddir"/}"
		mkdir -p "$(dirname "$dst")"
		cp "$ko" "$dst"
		n=$((n + 1))
	done < <(built_modules "$moddir")
	[ $n -gt 0 ] || die "no .ko files in $moddir"
	log "vm: $n of our modules from $moddir in updates/"
fi
depmod -b "$staging" "$rel" || die "depmod failed"

cp "$plan" "$share/plan"
# Without our modules, the guest's check that the loaded ib_core is ours
# does not apply (the interop pair's in-tree peer).
[ $nomods -eq 0 ] || : >"$share/no-modules"
chmod 755 "$share/plan"
cp "$GUEST_DIR/init.sh" "$share/guest-init.sh"
cp "$GUEST_DIR/lib.sh" "$share/guest-lib.sh"
# What plans run besides themselves: scenarios and their helper programs.
for d in scenarios tools; do
	[ -d "$GUEST_DIR/$d" ] && cp -r "$GUEST_DIR/$d" "$share/$d"
done
[ -z "$data" ] || cp -r "$data" "$share/data"
{
	printf 'exec /lab/plan'
	for a in "$@"; do
		printf " '%s'" "${a//\'/\'\\\'\'}"
	done
	printf '\n'
} >"$share/run-plan.sh"
echo "$(basename "$plan") $*" >"$share/plan.name"

log "vm: booting the $kernel kernel $rel (TCG, timeout ${timeout}s), run in $run"
start=$(date +%s)
: >"$share/out/plan.log"
if [ $quiet -eq 0 ]; then
	tail -n +1 -F "$share/out/plan.log" 2>/dev/null &
	tail_pid=$!
fi
# In the background, so that a signal to this script is handled (and the
# VM stopped by cleanup) at once rather than when QEMU exits.
set +e
timeout --kill-after=10 "$timeout" qemu-system-x86_64 \
	-accel tcg -smp 2 -m "$mem" -nodefaults -no-reboot -display none \
	-monitor none -serial "file:$run/console.log" \
	-kernel "$bzimage" "${initrd[@]}" -append "$cmdline" \
	-drive "file=$image,if=virtio,format=raw,snapshot=on" \
	-virtfs "local,path=$share,mount_tag=lab,security_model=none,id=lab" \
	-virtfs "local,path=$staging/lib/modules,mount_tag=mods,security_model=none,readonly=on,id=mods" \
	-device virtio-rng-pci "${wire[@]}" \
	>"$run/qemu.log" 2>&1 &
qemu_pid=$!
wait "$qemu_pid"
qrc=$?
qemu_pid=
# QEMU's CPU time (reaped through timeout): against the wall time, how
# much of the host's two CPUs the guest kept busy (Documentation/lab.rst,
# the make check budget).
cpu=$(reaped_cpu)
set -e
[ $quiet -eq 0 ] && { sleep 0.5; kill "$tail_pid" 2>/dev/null; wait "$tail_pid" 2>/dev/null || true; }
secs=$(($(date +%s) - start))
echo "$secs" >"$run/seconds"
echo "$cpu" >"$run/cpu-seconds"
log "vm: QEMU used ${cpu}s of CPU in ${secs}s"

if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	log "vm: TIMEOUT after ${secs}s (console: $run/console.log)"
	tail -n 20 "$run/console.log" >&2
	exit 124
fi
if [ ! -f "$share/out/status" ]; then
	log "vm: the plan did not finish (qemu exit $qrc, ${secs}s; console: $run/console.log)"
	grep -E 'Kernel panic|BUG|Oops|lab:' "$run/console.log" | tail -n 20 >&2
	cat "$run/qemu.log" >&2
	exit 125
fi
status=$(cat "$share/out/status")
log "vm: plan exited $status after ${secs}s; results in $run"
exit "$status"
