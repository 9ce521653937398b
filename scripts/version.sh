#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The version of the stack, printed on stdout.
#
# In a git checkout: VERSION's base, the number of commits and the commit
# ("0.1.231+gc2b059f"; ".dirty" appended when tracked files differ from
# it), so that every commit of main gets a greater version.  In a tree
# without git (the DKMS package's source, which "make deb" writes the full
# version into VERSION): VERSION as it is.
top=$(cd "$(dirname "$0")/.." && pwd)
base=$(cat "$top/VERSION")
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
	[ "$(git -C "$top" rev-parse --show-toplevel)" = "$top" ]; then
	v="$base.$(git -C "$top" rev-list --count HEAD)+g$(git -C "$top" rev-parse --short=7 HEAD)"
	git -C "$top" diff --quiet HEAD -- 2>/dev/null || v="$v.dirty"
	echo "$v"
else
	echo "$base"
fi
