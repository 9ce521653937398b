#!/usr/bin/env bash
# Build the project's debug test kernel from Debian's linux-source-6.1 and
# cache it outside the clone, keyed by the source package version and the
# config fragment's hash. Prints the cached build directory.
#
#   lab/host/build-kernel.sh            build if not cached, print the directory
#   lab/host/build-kernel.sh --path     print the directory only (may not exist)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --path ]; then
	test_kernel_dir
	exit 0
fi

need_pkgs linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev \
	kmod cpio xz-utils rsync
out=$(test_kernel_dir)
# One builder at a time: a second caller waits, then finds the cache.
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
if [ -f "$out/.done" ]; then
	echo "$out"
	exit 0
fi

tarball=$(ls /usr/src/linux-source-6.1.tar.xz)
work="$out.tmp"
rm -rf "$work"
mkdir -p "$work"
log "test kernel: unpacking $(basename "$tarball") into $work"
tar -C "$work" -xf "$tarball"
mv "$work"/linux-source-6.1 "$work/linux"
cd "$work/linux"

log "test kernel: configuring (defconfig + kvm_guest.config + fragment)"
make -s defconfig >/dev/null
make -s kvm_guest.config >/dev/null
scripts/kconfig/merge_config.sh -m .config "$LAB_DIR/config/test-kernel.config" >/dev/null
make -s olddefconfig >/dev/null
# Every option the fragment asks for must have survived olddefconfig.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" .config || { log "fragment option lost: $line"; bad=1; } ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		! grep -q "^$opt=" .config || { log "fragment option still set: $opt"; bad=1; } ;;
	esac
done < "$LAB_DIR/config/test-kernel.config"
[ $bad -eq 0 ] || die "config fragment does not apply"

log "test kernel: building bzImage and modules with -j$(nproc) (about 21 minutes on 2 cores)"
make -s -j"$(nproc)" bzImage modules >"$work/build.log" 2>&1 ||
	{ tail -n 40 "$work/build.log" >&2; die "kernel build failed"; }
make -s INSTALL_MOD_PATH="$work/modroot" INSTALL_MOD_STRIP=1 modules_install \
	>>"$work/build.log" 2>&1
cp arch/x86/boot/bzImage "$work/bzImage"
make -s kernelrelease >"$work/release"
touch "$work/.done"
rm -rf "$out"
mv "$work" "$out"
# The tree is now at its final path: refresh the build link modules_install made.
rel=$(cat "$out/release")
ln -sfn ../../../../linux "$out/modroot/lib/modules/$rel/build"
log "test kernel: $rel cached in $out"
echo "$out"
