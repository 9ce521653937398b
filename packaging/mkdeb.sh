#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make deb: the DKMS Debian package of the modules Kconfig's defaults select.
#
#   packaging/mkdeb.sh [KDIR=<kernel build tree>]
#
# 1. builds the modules for KDIR (default: the newest installed
#    linux-headers-*-amd64), which proves the sources build and gives the
#    list of modules, with their folders, that Kconfig's defaults select
#    (kbuild's modules.order);
# 2. stages the sources the Makefile builds from ("make package-sources":
#    the Makefile, Kconfig, VERSION with the full version written in, and
#    the source folders), packaging/debian/, a changelog entry for the
#    version and a dkms.conf that lists every module with its place under
#    updates/;
# 3. runs dpkg-buildpackage (debhelper with dh-dkms) there.
#
# Prints the path of the .deb, build/deb/rdma-cleanroom-dkms_<version>_all.deb.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/lab/host/lib.sh"

need_pkgs debhelper dh-dkms dpkg-dev rsync make
version=$("$top/scripts/version.sh")
out="$top/build/deb"
stage="$out/rdma-cleanroom-$version"

log "deb: building the modules (version $version)"
make -s -C "$top" "$@" modules >&2
krel=$(make -s -C "$top" "$@" --no-print-directory print-krel)
order="$top/build/$krel/modules.order"
[ -s "$order" ] || die "no modules.order in build/$krel"

rm -rf "$out"
mkdir -p "$stage/src"
make -s -C "$top" package-sources DEST="$stage/src"
echo "$version" >"$stage/src/VERSION"
cp -a "$top/packaging/debian" "$stage/debian"
sed -i "s/@VERSION@/$version/g" "$stage/debian/rdma-cleanroom-dkms.postinst"

cat >"$stage/debian/changelog" <<CHANGES
rdma-cleanroom ($version) unstable; urgency=medium

  * Built from commit $(git -C "$top" rev-parse HEAD 2>/dev/null || echo unknown).

 -- The rdma-cleanroom developers <maintainers@users.noreply.a-seed-f68a4a5b.example>  $(date -R)
CHANGES

# dkms.conf: every module of modules.order, built by the tree's own Makefile
# into build/<kernel>/<folder>/ and installed under updates/<folder>/ (Debian's
# dkms puts them in updates/dkms/).
{
	cat <<'HEAD'
# dkms.conf of rdma-cleanroom, written by packaging/mkdeb.sh.
PACKAGE_NAME="rdma-cleanroom"
PACKAGE_VERSION="#MODULE_VERSION#"
# The tree's Makefile builds what Kconfig's defaults select into build/<kernel>/.
MAKE[0]="make KDIR=${kernel_source_dir} modules"
CLEAN="make clean"
AUTOINSTALL="yes"
# The modules carry Linux 6.1's symbol versions: no other kernel series.
BUILD_EXCLUSIVE_KERNEL="^6\.1\."
HEAD
	i=0
	while IFS= read -r obj; do
		ko=${obj#"$top/build/$krel/"}
		ko=${ko%.o}
		ko=${ko%.ko}
		dir=$(dirname "$ko")
		printf 'BUILT_MODULE_NAME[%d]="%s"\n' $i "$(basename "$ko")"
		printf 'BUILT_MODULE_LOCATION[%d]="build/${kernelver}/%s"\n' $i "$dir"
		printf 'DEST_MODULE_LOCATION[%d]="/updates/%s"\n' $i "$dir"
		i=$((i + 1))
	done <"$order"
} >"$stage/debian/rdma-cleanroom-dkms.dkms"

log "deb: dpkg-buildpackage in $stage"
(cd "$stage" && dpkg-buildpackage -b -us -uc) >"$out/dpkg-buildpackage.log" 2>&1 ||
	{ tail -n 30 "$out/dpkg-buildpackage.log" >&2; die "dpkg-buildpackage failed (build/deb/dpkg-buildpackage.log)"; }
deb="$out/rdma-cleanroom-dkms_${version}_all.deb"
[ -f "$deb" ] || die "no $deb"
log "deb: $(du -h "$deb" | cut -f1) $(basename "$deb"), $(grep -c '^BUILT_MODULE_NAME' "$stage/debian/rdma-cleanroom-dkms.dkms") modules"
echo "$deb"
