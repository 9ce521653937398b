#!/usr/bin/env bash
# The DKMS package, installed as a user installs it, in a throwaway Debian
# bookworm chroot (never the host's own /lib/modules).
#
#   lab/host/deb-check.sh [--no-update] DEB MODULES_OUT
#   lab/host/deb-check.sh --base      only make sure the cached base exists
#
# make deb-check runs all of it; make check passes --no-update (the kernel
# update is a second build of every module: its time is make check's).
#
# The chroot's base (debootstrap of bookworm with dkms, the stock kernel's
# headers and image, and the .debs of a second kernel's headers, downloaded
# only) is cached in $LAB_CACHE/dkmsroot/<key>/; each run works in an
# overlay on top of it, thrown away at the end.  In it:
#
#  1. apt install ./DEB: dkms builds and installs the modules for the stock
#     kernel; dkms status, the files under updates/, depmod's choice
#     (modprobe --show-depends names ours), modinfo's version (the
#     package's), the signature (dkms's MOK key);
#  2. a kernel update: the second kernel's headers installed after the
#     package, and dkms builds for it through the headers' hook;
#  3. the modules built for the stock kernel are copied to MODULES_OUT (with
#     a modules.order) for the stock VM to boot with;
#  4. apt remove: nothing of ours left, the in-tree modules chosen again.
#
# One result line per check ("PASS deb/<name> (detail)"); exit status 1 if
# any failed.  dkms's own output goes to the log of the step.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

base_only=0 update=1
if [ "${1:-}" = --base ]; then
	base_only=1
else
	[ "${1:-}" != --no-update ] || { update=0; shift; }
	[ $# -eq 2 ] || die "usage: deb-check.sh [--no-update] DEB MODULES_OUT | --base"
	deb=$(readlink -f "$1")
	modout=$2
	[ -f "$deb" ] || die "no package $1"
fi

kdir=$(stock_kdir) || die "no linux-headers-*-amd64 installed"
srel=$(kdir_release "$kdir")
nfail=0

result() {	# STATUS NAME [DETAIL]
	[ "$1" = FAIL ] && nfail=$((nfail + 1))
	echo "$1 deb/$2${3:+ ($3)}"
}
verdict() {	# NAME DETAIL OK: PASS if OK is 1
	if [ "$3" = 1 ]; then result PASS "$1" "$2"; else result FAIL "$1" "$2"; fi
}
# A certificate serial or key id as bare upper-case hex, no leading zeros.
hexid() { tr -d ':' | tr 'a-f' 'A-F' | sed 's/^0*//'; }

# The second kernel: the newest 6.1 amd64 headers package the mirror has
# besides the stock one.
second_headers() {
	apt-cache pkgnames linux-headers-6.1.0- 2>/dev/null |
		grep -E '^linux-headers-6\.1\.0-[0-9]+-amd64$' | grep -vx "linux-headers-$srel" |
		sort -V | tail -n1
}

# The cached base: bookworm with what building and signing modules takes,
# the stock kernel's image (its in-tree modules are what depmod must prefer
# ours over) and headers, and the second headers' .debs in apt's cache.
base_dir() {	# SECOND_HEADERS
	echo "$LAB_CACHE/dkmsroot/$( { sed -n '/^build_base()/,/^}/p' "$0"; echo "$srel $1"; } |
		sha256sum | cut -c1-12)"
}

build_base() {	# DIR SECOND_HEADERS
	local out=$1 second=$2 tree=$1.tmp/tree mirror sec rc=0
	mirror=$(apt_mirror bookworm)
	sec=$(apt_mirror bookworm-security)
	[ -n "$mirror" ] ||
		die "no bookworm mirror in this machine's apt sources: add one, the chroot is installed from it"
	rm -rf "$out.tmp"
	mkdir -p "$out.tmp"
	log "deb: debootstrap of the chroot's base from $mirror"
	debootstrap --variant=minbase bookworm "$tree" "$mirror" >"$out.tmp/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$out.tmp/debootstrap.log" >&2; return 1; }
	{
		echo "deb $mirror bookworm main"
		echo "deb $mirror bookworm-updates main"
		[ -z "$sec" ] || echo "deb $sec bookworm-security main"
	} >"$tree/etc/apt/sources.list"
	printf '#!/bin/sh\nexit 101\n' >"$tree/usr/sbin/policy-rc.d"
	chmod 755 "$tree/usr/sbin/policy-rc.d"
	mount -t proc proc "$tree/proc"
	mount --bind /dev "$tree/dev"
	log "deb: installing dkms, linux-headers-$srel and linux-image-$srel in the chroot's base"
	chroot "$tree" /usr/bin/env DEBIAN_FRONTEND=noninteractive LC_ALL=C sh -c '
		apt-get update -qq &&
		apt-get install -y -q --no-install-recommends dkms rsync make openssl kmod \
			linux-headers-$1 linux-image-$1 &&
		apt-get install -y -q --no-install-recommends --download-only $2' sh "$srel" "$second" \
		>"$out.tmp/apt.log" 2>&1 || rc=$?
	umount -l "$tree/dev" "$tree/proc"
	[ $rc -eq 0 ] || { tail -n 20 "$out.tmp/apt.log" >&2; return 1; }
	touch "$out.tmp/.done"
	rm -rf "$out"
	mv "$out.tmp" "$out"
}

need_pkgs debootstrap
second=$(second_headers)
[ -n "$second" ] || { apt-get update -qq >/dev/null; second=$(second_headers); }
[ -n "$second" ] || die "the apt sources offer no second linux-headers-6.1.0-*-amd64"
srel2=${second#linux-headers-}

base=$(base_dir "$second")
mkdir -p "$(dirname "$base")"
exec 9>"$base.lock"
flock 9
if [ ! -f "$base/.done" ]; then
	t=$(date +%s)
	build_base "$base" "$second" || die "the chroot's base did not build"
	stage_time deb-chroot-base $(($(date +%s) - t))
fi
flock -u 9
[ $base_only -eq 0 ] || exit 0
pkg=$(dpkg-deb -f "$deb" Package)
ver=$(dpkg-deb -f "$deb" Version)
name=${pkg%-dkms}

# The throwaway root: an overlay on the base.
run=$(mktemp -d "$LAB_CACHE/runs/deb-XXXX")
root=$run/root
mkdir -p "$run/upper" "$run/work" "$root"
cleanup() {
	local m
	for m in dev proc sys; do
		mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"
	done
	mountpoint -q "$root" && umount -l "$root"
	rm -rf "$run"
}
trap cleanup EXIT
mount -t overlay overlay -o "lowerdir=$base/tree,upperdir=$run/upper,workdir=$run/work" "$root" ||
	die "cannot mount an overlay on the chroot's base"
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --bind /dev "$root/dev"
in_root() { chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
cp "$deb" "$root/tmp/"
logs=${LAB_LOGS:-$run}

# 1. Install.
t=$(date +%s)
in_root apt-get install -y -q "/tmp/$(basename "$deb")" >"$logs/deb-install.log" 2>&1
rc=$?
secs=$(($(date +%s) - t))
stage_time deb-install "$secs"
ok=1; [ $rc -eq 0 ] || ok=0
verdict install "apt install in ${secs} s, $(du -h "$deb" | cut -f1) package" $ok
status_installed=$(in_root dkms status 2>&1)
printf '%s\n' "$status_installed" >"$logs/deb-dkms-status-installed.txt"
ok=1; grep -q "^$name/$ver, $srel, x86_64: installed" <<<"$status_installed" || ok=0
verdict dkms-status "$(echo "$status_installed" | tr '\n' ';')" $ok

# What the package says it builds: its dkms.conf's module names.
conf="$root/usr/src/$name-$ver/dkms.conf"
mapfile -t mods < <(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"$/\1/p' "$conf" 2>/dev/null)
upd="$root/lib/modules/$srel/updates"
missing=()
for m in "${mods[@]}"; do
	[ -n "$(find "$upd" -name "$m.ko*" 2>/dev/null)" ] || missing+=("$m")
done
ok=1; [ ${#mods[@]} -gt 0 ] && [ ${#missing[@]} -eq 0 ] || ok=0
verdict files "${#mods[@]} modules in dkms.conf${missing:+, missing: ${missing[*]}}" $ok

# depmod's choice: every module of ours, by name, resolves to updates/.
notours=()
for m in "${mods[@]}"; do
	in_root modprobe -S "$srel" --show-depends "$m" 2>/dev/null | tail -n1 | grep -q "/updates/" ||
		notours+=("$m")
done
ok=1; [ ${#notours[@]} -eq 0 ] || ok=0
verdict depmod-choice "modprobe --show-depends ib_core: $(in_root modprobe -S "$srel" --show-depends ib_core 2>&1 | tail -n1)${notours:+; not ours: ${notours[*]}}" $ok

badver=() unsigned=()
serial=$(in_root openssl x509 -inform DER -in /var/lib/dkms/mok.pub -noout -serial 2>/dev/null |
	sed 's/^serial=//' | hexid)
while IFS= read -r ko; do
	[ "$(modinfo -F version "$ko")" = "$ver" ] || badver+=("$(basename "$ko")")
	key=$(modinfo -F sig_key "$ko" | hexid)
	[ "$(modinfo -F signer "$ko")" = "DKMS module signing key" ] && [ -n "$serial" ] &&
		[ "$key" = "$serial" ] || unsigned+=("$(basename "$ko")")
done < <(find "$upd" -name '*.ko*')
ok=1; [ ${#badver[@]} -eq 0 ] || ok=0
verdict modinfo-version "modinfo version $ver${badver:+; wrong in ${badver[*]}}" $ok
ok=1; [ -n "$serial" ] && [ ${#unsigned[@]} -eq 0 ] || ok=0
verdict signed "signed with dkms's MOK key (serial $serial)${unsigned:+; not: ${unsigned[*]}}" $ok

# 3. The modules the package built, for the stock VM.
rm -rf "$modout"
mkdir -p "$modout"
find "$upd" -name '*.ko' -exec cp {} "$modout/" \;
(cd "$modout" && ls -1 ./*.ko 2>/dev/null | sed 's#^\./##' >modules.order)

# 2. A kernel update: the second kernel's headers arrive after the package.
kernel_update() {
	local t rc secs n2 ok=1

	t=$(date +%s)
	in_root apt-get install -y -q --no-download "$second" >"$logs/deb-kernel-update.log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t))
	stage_time deb-kernel-update "$secs"
	n2=$(find "$root/lib/modules/$srel2/updates" -name '*.ko*' 2>/dev/null | wc -l)
	[ $rc -eq 0 ] && [ "$n2" -eq ${#mods[@]} ] &&
		in_root dkms status -k "$srel2" 2>/dev/null | grep -q ': installed' || ok=0
	verdict kernel-update "$second installed in ${secs} s, $n2 modules built for $srel2" $ok
}
if [ $update -eq 1 ]; then
	kernel_update
else
	echo "SKIP deb/kernel-update (make deb-check runs it)"
fi

# 4. Remove.
status_before=$(in_root dkms status 2>&1)
in_root apt-get remove -y -q "$pkg" >"$logs/deb-remove.log" 2>&1
rc=$?
status_after=$(in_root dkms status 2>&1)
printf 'before removal:\n%s\nafter removal:\n%s\n' "$status_before" "$status_after" \
	>"$logs/deb-dkms-status-remove.txt"
left=$( { find "$root/lib/modules"/*/updates -name '*.ko*' 2>/dev/null;
	ls -d "$root/usr/src/$name-"* "$root/var/lib/dkms/$name" 2>/dev/null; } | sed "s#^$root##")
ok=1; [ $rc -eq 0 ] && [ -z "$status_after" ] && [ -z "$left" ] || ok=0
verdict remove "dkms status before: $(echo "$status_before" | tr '\n' ';') after: ${status_after:-empty}${left:+; left: $(echo "$left" | tr '\n' ' ')}" $ok
intree=$(in_root modprobe -S "$srel" --show-depends ib_core 2>&1 | tail -n1)
ok=1; grep -q "/kernel/drivers/infiniband/core/ib_core.ko" <<<"$intree" || ok=0
verdict in-tree-again "$intree" $ok

[ $nfail -eq 0 ]
