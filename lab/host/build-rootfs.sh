#!/usr/bin/env bash
# Build the VM root filesystem from Debian packages and cache it outside the
# clone, keyed by lab/config/rootfs-packages, this script and the stock kernel
# release (lab/host/lib.sh: rootfs_dir).  Prints the cache directory, which holds
#   tree/        the unpacked file system
#   rootfs.ext4  an ext4 image of it (mke2fs -d, no loop mount)
#   release      the stock kernel release whose image and initrd it carries
#
#   lab/host/build-rootfs.sh          build if not cached, print the directory
#   lab/host/build-rootfs.sh --path   print the directory only (may not exist)
#
# The VMs never run systemd or udev: the kernel starts /sbin/lab-init, which
# mounts the lab share and runs the runner's guest script (lab/host/vm.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$(rootfs_dir)
if [ "${1:-}" = --path ]; then
	echo "$out"
	exit 0
fi
# One builder at a time: a second caller waits, then finds the cache.
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
if [ -f "$out/.done" ]; then
	echo "$out"
	exit 0
fi

need_pkgs debootstrap e2fsprogs
kdir=$(stock_kdir) || die "no linux-headers-*-amd64 installed"
rel=$(kdir_release "$kdir")

# The mirrors this machine's apt uses (deb822 sources, else the classic list).
mirror() {
	local f suite=$1
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v s="$suite" '
			/^URIs:/ { u = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) found = u }
			/^$/ { u = "" }
			END { if (found != "") print found }' "$f"
	done | head -n1
}
main_mirror=$(mirror bookworm)
sec_mirror=$(mirror bookworm-security)
if [ -z "$main_mirror" ] && [ -f /etc/apt/sources.list ]; then
	main_mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list)
	sec_mirror=$(awk '$1 == "deb" && $3 == "bookworm-security" { print $2; exit }' /etc/apt/sources.list)
fi
[ -n "$main_mirror" ] ||
	die "no bookworm mirror in this machine's apt sources (/etc/apt/sources.list.d/*.sources or /etc/apt/sources.list): add one, the root filesystem is installed from it"
sec_suite=bookworm-security
[ -n "$sec_mirror" ] || { log "rootfs: no bookworm-security mirror in the apt sources, installing without security updates"; sec_suite=; }

mapfile -t pkgs < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LAB_DIR/config/rootfs-packages")
pkgs+=("linux-image-$rel")

work="$out.tmp"
tree="$work/tree"
cleanup() {
	local m
	for m in proc sys dev/pts dev; do
		mountpoint -q "$tree/$m" 2>/dev/null && umount -l "$tree/$m"
	done
	return 0
}
trap cleanup EXIT
cleanup
rm -rf "$work"
mkdir -p "$work"

log "rootfs: debootstrap --variant=minbase bookworm from $main_mirror"
debootstrap --variant=minbase bookworm "$tree" "$main_mirror" >"$work/debootstrap.log" 2>&1 ||
	{ tail -n 30 "$work/debootstrap.log" >&2; die "debootstrap failed"; }

{
	echo "deb $main_mirror bookworm main"
	echo "deb $main_mirror bookworm-updates main"
	[ -z "$sec_suite" ] || echo "deb $sec_mirror $sec_suite main"
} >"$tree/etc/apt/sources.list"
# No service starts inside the chroot.
printf '#!/bin/sh\nexit 101\n' >"$tree/usr/sbin/policy-rc.d"
chmod 755 "$tree/usr/sbin/policy-rc.d"
mount -t proc proc "$tree/proc"
mount --bind /dev "$tree/dev"
mount -t devpts devpts "$tree/dev/pts"

log "rootfs: installing ${#pkgs[@]} packages (${pkgs[*]})"
chroot "$tree" /usr/bin/env DEBIAN_FRONTEND=noninteractive LC_ALL=C \
	sh -c 'apt-get update -qq && apt-get install -y -q --no-install-recommends "$@"' sh "${pkgs[@]}" \
	>"$work/apt.log" 2>&1 || { tail -n 30 "$work/apt.log" >&2; die "package installation failed"; }
chroot "$tree" apt-get clean
cleanup

[ -f "$tree/boot/initrd.img-$rel" ] || die "no initrd for $rel in the root filesystem"
[ -d "$tree/lib/modules/$rel" ] || die "no modules for $rel in the root filesystem"

# Only the stack under test loads RDMA modules: no udev rule, unit or list of
# rdma-core's may pull in the in-tree ones (we never start udev or systemd,
# this is for anyone who does).
rm -f "$tree"/lib/udev/rules.d/*rdma* "$tree"/etc/udev/rules.d/*rdma*
rm -f "$tree"/lib/systemd/system/rdma-load-modules@.service \
	"$tree"/lib/systemd/system/rdma-hw.target \
	"$tree"/lib/systemd/system/rdma-ndd.service \
	"$tree"/lib/systemd/system/iwpmd.service
find "$tree/etc/systemd" -name '*rdma*' -exec rm -f {} + 2>/dev/null || true
rm -f "$tree"/etc/rdma/modules/*

# PID 1 of the VMs: mount what everything needs, then hand over to the
# runner's guest script on the "lab" 9p share (lab/guest/init.sh, copied to the share as guest-init.sh).
cat >"$tree/sbin/lab-init" <<'INIT'
#!/bin/sh
# PID 1 of the RDMA lab VM (lab/host/build-rootfs.sh): basic mounts, then the
# runner's guest script from the "lab" 9p share.  Powers off on failure.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
echo 1 >/proc/sys/kernel/sysrq
modprobe -q 9pnet_virtio 2>/dev/null
modprobe -q 9p 2>/dev/null
if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 lab /lab &&
	[ -f /lab/guest-init.sh ]; then
	exec /bin/sh /lab/guest-init.sh
fi
echo "lab-init: no lab share, powering off" >/dev/console
echo o >/proc/sysrq-trigger
sleep 60
INIT
chmod 755 "$tree/sbin/lab-init"
mkdir -p "$tree/lab"
echo rdmalab >"$tree/etc/hostname"
echo "$rel" >"$work/release"

# ext4 image: the tree's size plus room for what tests write.
mb=$(du -sm "$tree" | cut -f1)
size=$((mb * 12 / 10 + 512))
log "rootfs: ext4 image of ${mb} MB tree, ${size} MB"
mke2fs -q -t ext4 -L rdmalab -d "$tree" -F "$work/rootfs.ext4" "${size}M" >&2 ||
	die "mke2fs failed"
touch "$work/.done"
rm -rf "$out"
mv "$work" "$out"
log "rootfs: cached in $out"
echo "$out"
