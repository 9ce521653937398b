#!/usr/bin/env bash
# The interop pair: our stack against the real thing across a wire.  Boots
# two VMs joined by a QEMU virtual link (UDP datagrams on the host's
# loopback):
#   the peer  Debian's stock kernel with its whole in-tree RDMA stack
#             (lab/guest/plans/peer.sh, 10.77.0.1), remote-controlled;
#   ours      the chosen kernel with our modules, running the scenarios
#             (default: interop) through lab/host/suite.sh, 10.77.0.2,
#             which drive the peer with lab/guest/tools/peer.py.
# Both use soft RoCE (Debian's rdma_rxe) on the link, so every MAD, CM
# message and RoCE packet between them crosses it.
#
#   lab/host/pair.sh --kernel test|stock [SUITE_OPTIONS...]
#
# SUITE_OPTIONS are lab/host/suite.sh's (--build, --out, --timeout,
# --prefix, --modload, --kunit, --scenario ...), for our VM; without
# --scenario, the scenario is interop.  Run interop first: the peer waits
# for it, and ends with it.
#
# Prints suite.sh's result lines for our VM, then "PASS|FAIL <P>peer-vm"
# for the peer (its plan ran to the driving VM's "quit" and powered off).
# Exit status 0 only if nothing failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out='' timeout=2400 prefix='' args=("$@")
have_scenario=0
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--prefix) prefix=$2; shift 2 ;;
	--scenario) have_scenario=1; shift ;;
	-h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) shift ;;
	esac
done
[ $have_scenario -eq 1 ] || args+=(--scenario interop)
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/pair.XXXXXX")
	args+=(--out "$out/ours")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Two UDP ports of the loopback, from this run's pid: runs side by side
# do not share a link.
base=$((20000 + ($$ % 2000) * 2))
peer_rc=0
"$HOST_DIR/vm.sh" --kernel stock --no-modules --out "$out.peer" --quiet \
	--timeout $((timeout + 120)) --wire "$base:$((base + 1)):01" \
	"$GUEST_DIR/plans/peer.sh" 10.77.0.1/24 >"$out.peer.log" 2>&1 &
peer_pid=$!
trap 'kill $peer_pid 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM

rc=0
"$HOST_DIR/suite.sh" "${args[@]}" --wire "$((base + 1)):$base:02" || rc=1

# The peer ends when our side says quit; if our VM never got that far,
# it is stopped here, a while later.
for _ in $(seq 120); do
	kill -0 $peer_pid 2>/dev/null || break
	sleep 1
done
kill $peer_pid 2>/dev/null || true
wait $peer_pid || peer_rc=$?
if [ $peer_rc -eq 0 ]; then
	echo "PASS ${prefix}peer-vm"
else
	echo "FAIL ${prefix}peer-vm (status $peer_rc: $out.peer.log, $out.peer/console.log)"
	rc=1
fi
exit $rc
