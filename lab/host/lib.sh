# shellcheck shell=bash
# Shared helpers of the lab scripts: where the caches live and how they are keyed.
# Sourced, not run.

# lab/host: what runs on the host; lab/guest: what runs in the VMs (the
# runner's init and plans); lab/config: the test kernel's fragment and the
# root filesystem's package list.
HOST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB_DIR=$(cd "$HOST_DIR/.." && pwd)
GUEST_DIR=$LAB_DIR/guest
TOP_DIR=$(cd "$LAB_DIR/.." && pwd)
LAB_CACHE=${RDMA_LAB_CACHE:-/var/cache/rdma-lab}

log() { printf '[lab] %s\n' "$*" >&2; }
die() { printf '[lab] error: %s\n' "$*" >&2; exit 1; }

# Install Debian packages that are missing, quietly.
need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	if [ ! -e /var/lib/apt/lists/lock ] || [ -z "$(ls /var/lib/apt/lists/*Packages 2>/dev/null)" ]; then
		apt-get update -qq >/dev/null
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null || {
		apt-get update -qq >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			"${missing[@]}" >/dev/null
	}
}

pkg_version() { dpkg-query -W -f='${Version}' "$1"; }

short_hash() { cat "$@" | sha256sum | cut -c1-12; }

# The lines of a config file that mean something: comments and blank lines
# dropped, but "# CONFIG_X is not set" kept.  Cache keys hash these, so that
# editing a comment never costs a rebuild.
config_lines() {
	grep -vE '^[[:space:]]*(#|$)' "$1"
	grep -E '^# CONFIG_[A-Za-z0-9_]+ is not set' "$1"
}

# The test kernel: keyed by linux-source-6.1's version and the fragment.
test_kernel_dir() {
	local ver
	ver=$(pkg_version linux-source-6.1 2>/dev/null) || ver=none
	echo "$LAB_CACHE/kernel/$ver-$(config_lines "$LAB_DIR/config/test-kernel.config" | short_hash)"
}

# The root filesystem: keyed by the package list, the recipe and the stock
# kernel release whose image (and so initrd) it carries.
rootfs_dir() {
	local rel
	rel=$(kdir_release "$(stock_kdir)" 2>/dev/null) || rel=none
	echo "$LAB_CACHE/rootfs/$( { config_lines "$LAB_DIR/config/rootfs-packages"; cat "$HOST_DIR/build-rootfs.sh"; echo "$rel"; } |
		sha256sum | cut -c1-12)"
}

# The stock Debian kernel's build directory (headers package), newest first.
stock_kdir() {
	local d
	d=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n1)
	[ -n "$d" ] && echo "$d"
}

# kernel_kdir KERNEL: the build tree of "test" (the cached debug kernel) or
# "stock" (the newest headers).
kernel_kdir() {
	local kdir
	case "$1" in
	test)
		kdir=$(test_kernel_dir)
		[ -f "$kdir/.done" ] || die "no test kernel in $kdir: run lab/host/build-kernel.sh"
		echo "$kdir/linux" ;;
	stock)
		kdir=$(stock_kdir) || die "no linux-headers-*-amd64"
		echo "$kdir" ;;
	*) die "--kernel test or --kernel stock" ;;
	esac
}

# modules_for KERNEL: our modules built (with W=1, as make check builds them)
# for KERNEL (kernel_kdir).
modules_for() {
	local kdir
	kdir=$(kernel_kdir "$1")
	make -C "$TOP_DIR" -s KDIR="$kdir" W=1 >&2
}

# oot_rxe_tree KDIR: hw/rxe mirrored into build/oot-rxe/<release>/ with
# CONFIG_OOT_RXE=m, which the default selection leaves out until the
# driver is complete (Documentation/rxe.rst), so that what make builds
# stays what is tested; prints the mirror's hw/rxe.  Build it with
# "make -C KDIR M=<it> $(oot_rxe_args KDIR) modules", after our modules
# for KDIR (their Module.symvers).
oot_rxe_tree() {
	local d
	d="$TOP_DIR/build/oot-rxe/$(kdir_release "$1")"
	mkdir -p "$d/hw" "$d/.kconfig"
	rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' "$TOP_DIR/hw/rxe" "$d/hw/"
	echo CONFIG_OOT_RXE=m >"$d/.kconfig/auto.conf"
	echo "$d/hw/rxe"
}
oot_rxe_args() {	# KDIR
	local b
	b="$TOP_DIR/build/$(kdir_release "$1")"
	echo "KCFLAGS=-I$b/generated KBUILD_EXTRA_SYMBOLS=$b/Module.symvers"
}

# oot_rxe_build KDIR [MAKE_ARG...]: our rdma_rxe built for KDIR (after our
# modules for it), in oot_rxe_tree's mirror; its output to stderr.
oot_rxe_build() {
	local kdir=$1 r
	shift
	r=$(oot_rxe_tree "$kdir")
	# shellcheck disable=SC2046
	make -C "$kdir" -s M="$r" "$@" $(oot_rxe_args "$kdir") modules >&2
}

# modules_with_rxe KERNEL: our modules for KERNEL (modules_for) and our
# rdma_rxe built, in one directory for vm.sh --modules (rxe_modules_dir).
# Prints the directory.
modules_with_rxe() {
	local kdir
	kdir=$(kernel_kdir "$1")
	modules_for "$1"
	oot_rxe_build "$kdir" W=1 || die "hw/rxe did not build"
	rxe_modules_dir "$kdir"
}

# rxe_modules_dir KDIR: our modules for KDIR and our rdma_rxe, both built,
# in one directory for vm.sh --modules (suite.sh --build):
# build/with-rxe/<release>, links to both builds' modules and a
# modules.order naming them.  Prints the directory.
rxe_modules_dir() {
	local rel r d ko rel_ko
	rel=$(kdir_release "$1")
	r="$TOP_DIR/build/oot-rxe/$rel/hw/rxe"
	d="$TOP_DIR/build/with-rxe/$rel"
	rm -rf "$d"
	mkdir -p "$d"
	while IFS= read -r ko; do
		[ -f "$ko" ] || die "no $ko"
		rel_ko=${ko#"$TOP_DIR"/build/"$rel"/}
		rel_ko=${rel_ko#"$TOP_DIR"/build/oot-rxe/"$rel"/}
		mkdir -p "$d/$(dirname "$rel_ko")"
		ln -s "$ko" "$d/$rel_ko"
		echo "$rel_ko" >>"$d/modules.order"
	done < <(built_modules "$TOP_DIR/build/$rel"; built_modules "$r")
	echo "$d"
}

# scenario_vm KERNEL SCENARIO LIMIT OUT [BUILD]: one boot of suite.sh
# running SCENARIO, with the variables on stdin (NAME=VALUE lines) and
# LAB_SCENARIO_TIMEOUT=LIMIT as its /lab/data/env; the VM gets ten minutes
# more than LIMIT.  OUT may be empty; BUILD is suite.sh's --build (default:
# our modules as make builds them).  Returns suite.sh's status.
scenario_vm() {
	local kernel=$1 scenario=$2 limit=$3 out=$4 build=${5:-} data rc=0
	data=$(mktemp -d)
	{ cat; echo "LAB_SCENARIO_TIMEOUT=$limit"; } >"$data/env"
	"$HOST_DIR/suite.sh" --kernel "$kernel" --timeout $((limit + 600)) \
		--data "$data" ${out:+--out "$out"} ${build:+--build "$build"} \
		--scenario "$scenario" || rc=$?
	rm -rf "$data"
	return $rc
}

# The release a kernel build tree builds modules for (its UTS_RELEASE).
kdir_release() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$1/include/generated/utsrelease.h"
}

# Stage timings: "NAME SECONDS" lines appended to $LAB_TIMES, when it is set
# (make check: build/check/times.txt; make demo: build/demo/times.txt).
stage_time() {	# NAME SECONDS
	[ -z "${LAB_TIMES:-}" ] || printf '%-24s %6d s\n' "$1" "$2" >>"$LAB_TIMES"
}

# reaped_cpu: the CPU seconds of every child this script has waited for
# (and of theirs), from the script's own /proc entry: $$, not a subshell's.
reaped_cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($16 + $17) / hz }' "/proc/$$/stat"
}

# timed NAME CMD...: run CMD, record its wall time as stage NAME, return its
# exit status.
timed() {
	local name=$1 t rc=0
	shift
	t=$(date +%s)
	"$@" || rc=$?
	stage_time "$name" $(($(date +%s) - t))
	return $rc
}

# The modules the last build of DIR made, as absolute paths: kbuild's
# modules.order (relative or absolute entries, .o or .ko), not whatever .ko
# files an older build left behind.
built_modules() {	# DIR
	local d
	d=$(cd "$1" && pwd) || return 1
	sed -e 's/\.o$/.ko/' -e "s#^\([^/]\)#$d/\1#" "$d/modules.order" 2>/dev/null
}

# The mirror this machine's apt uses for SUITE (deb822 sources first, then
# the classic list); empty if it has none.
apt_mirror() {	# SUITE
	local f m=
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		m=$(awk -v s="$1" '
			/^URIs:/ { u = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) found = u }
			/^$/ { u = "" }
			END { if (found != "") print found }' "$f")
		[ -n "$m" ] && break
	done
	if [ -z "$m" ] && [ -f /etc/apt/sources.list ]; then
		m=$(awk -v s="$1" '$1 == "deb" && $3 == s { print $2; exit }' /etc/apt/sources.list)
	fi
	echo "$m"
}
