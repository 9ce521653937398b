#!/usr/bin/env bash
# Does the build get as far as it should on a machine with no kernel trees?
# Runs make dry-runs in a private mount namespace with empty tmpfs mounts over
# /usr/src, /usr/lib/linux-kbuild-6.1 and /lib/modules, so that nothing on
# this machine changes:
#
#   - the README's commands that install what they need (make demo,
#     make check, and .ci/run, which runs make check) must get past the
#     Makefile: their installers run before anything needs the headers;
#   - the targets that build (make, make install, make abi-check, make deb)
#     must stop with the message that says to install the headers.
#
#   lab/host/fresh-parse.sh      one PASS/FAIL/SKIP line per command
set -uo pipefail
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "SKIP fresh (needs root and unshare for a private mount namespace)"
	exit 0
fi

# hidden CMD...: run CMD in the tree with the kernel trees hidden; its
# output on stdout, its exit status returned.
hidden() {
	unshare -m sh -c '
		for d in /usr/src /usr/lib/linux-kbuild-6.1 /lib/modules; do
			[ -d "$d" ] && mount -t tmpfs none "$d"
		done
		cd "$1" && shift && exec "$@"' sh "$TOP_DIR" "$@" 2>&1
}

rc=0
installs() {	# NAME CMD...: must succeed
	local name=$1 out
	shift
	if out=$(hidden "$@"); then
		echo "PASS fresh/$name"
	else
		echo "FAIL fresh/$name ($(printf '%s\n' "$out" | grep -m1 -iE 'error|stop' || printf '%s\n' "$out" | tail -n1))"
		rc=1
	fi
}
needs_headers() {	# NAME CMD...: must fail, saying to install the headers
	local name=$1 out
	shift
	if out=$(hidden "$@"); then
		echo "FAIL fresh/$name (succeeded with no kernel tree)"
		rc=1
	elif printf '%s\n' "$out" | grep -q 'install linux-headers-amd64'; then
		echo "PASS fresh/$name"
	else
		echo "FAIL fresh/$name (no clear message: $(printf '%s\n' "$out" | tail -n1))"
		rc=1
	fi
}

installs make-demo make -n demo
installs make-check make -n check
installs ci-run env MAKEFLAGS=n .ci/run
for t in modules install abi-check deb; do
	needs_headers "needs-headers/$t" make -n "$t"
done
exit $rc
