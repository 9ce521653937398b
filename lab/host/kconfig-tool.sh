#!/usr/bin/env bash
# Build (once, cached) and run one of the kernel's kconfig front ends on our
# Kconfig: used by "make menuconfig".
#
#   lab/host/kconfig-tool.sh mconf Kconfig
#
# The KCONFIG_* variables the top Makefile sets say where .config and the
# generated files go.  mconf is compiled from the kernel's scripts/kconfig
# sources: the test kernel's tree, /usr/src/linux-source-6.1-ref, or
# linux-source-6.1's tarball, in that order; needs libncurses-dev, flex,
# bison and pkg-config.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tool=${1:-}
[ "$tool" = mconf ] || die "usage: lab/host/kconfig-tool.sh mconf KCONFIG_FILE"
shift
[ $# -ge 1 ] || die "usage: lab/host/kconfig-tool.sh mconf KCONFIG_FILE"

ver=$(pkg_version linux-source-6.1 2>/dev/null) || ver=none
cache="$LAB_CACHE/kconfig/$ver"
bin="$cache/mconf"

build_mconf() {
	local src tmp
	need_pkgs build-essential libncurses-dev flex bison pkg-config
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	for src in "$(test_kernel_dir)/linux/scripts/kconfig" \
		/usr/src/linux-source-6.1-ref/scripts/kconfig; do
		[ -f "$src/mconf.c" ] && break
		src=
	done
	if [ -n "$src" ]; then
		cp -r "$src" "$tmp/kconfig"
	else
		need_pkgs linux-source-6.1 xz-utils
		log "kconfig: unpacking scripts/kconfig from linux-source-6.1"
		tar -C "$tmp" -xf /usr/src/linux-source-6.1.tar.xz linux-source-6.1/scripts/kconfig
		mv "$tmp/linux-source-6.1/scripts/kconfig" "$tmp/kconfig"
	fi
	log "kconfig: building mconf"
	(
		cd "$tmp/kconfig"
		rm -f ./*.o lxdialog/*.o mconf parser.tab.[ch] lexer.lex.c
		bison -t -l -o parser.tab.c --defines=parser.tab.h parser.y
		flex -L -o lexer.lex.c lexer.l
		# shellcheck disable=SC2046
		gcc -O2 -I. -o mconf mconf.c lxdialog/checklist.c lxdialog/inputbox.c \
			lxdialog/menubox.c lxdialog/textbox.c lxdialog/util.c lxdialog/yesno.c \
			confdata.c expr.c lexer.lex.c menu.c parser.tab.c preprocess.c \
			symbol.c util.c $(pkg-config --cflags --libs ncursesw)
	) >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log" >&2; die "building mconf failed"; }
	mkdir -p "$cache"
	mv "$tmp/kconfig/mconf" "$bin"
}

[ -x "$bin" ] || build_mconf
exec "$bin" "$@"
