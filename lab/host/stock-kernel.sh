#!/usr/bin/env bash
# Unpack Debian's stock kernel image package (the real-world target) into the
# lab cache, matching the newest installed linux-headers-*-amd64.  Prints the
# directory that holds boot/ and lib/modules/.
#
# Its modules are what abi-check reads the ULP imports from and what the
# stock-kernel VM boots with; the VM's initrd comes from the root filesystem.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$(stock_kdir) || die "no linux-headers-*-amd64 installed"
rel=$(kdir_release "$kdir")
out="$LAB_CACHE/stock/$rel"
if [ -f "$out/.done" ]; then
	echo "$out"
	exit 0
fi
need_pkgs "linux-headers-$rel"
mkdir -p "$LAB_CACHE/stock"
tmp=$(mktemp -d "$LAB_CACHE/stock/.dl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log "stock kernel: fetching linux-image-$rel"
(cd "$tmp" && apt-get download -q "linux-image-$rel" >/dev/null 2>&1) ||
	{ apt-get update -qq >/dev/null; (cd "$tmp" && apt-get download -q "linux-image-$rel" >/dev/null 2>&1); } ||
	die "cannot download linux-image-$rel"
rm -rf "$out"
dpkg -x "$tmp"/linux-image-*.deb "$out"
touch "$out/.done"
echo "$out"
