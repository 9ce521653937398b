#!/usr/bin/env bash
# Run scenarios (lab/guest/scenarios/NAME.sh) in a VM and report them:
#
#   lab/host/scenario.sh --kernel test|stock [--build DIR] [--out DIR] NAME...
#
# A shorthand for lab/host/suite.sh --kernel K ... --scenario NAME... (see
# there).  A scenario is a shell script run as root in the guest with our
# modules installed; it prints one line per check (PASS/FAIL NAME/<case>)
# and leaves no RDMA module loaded.  lab.rst says how to write one.
set -euo pipefail
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel|--build|--out|--timeout) args+=("$1" "$2"); shift 2 ;;
	-h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: lab/host/scenario.sh --kernel test|stock NAME..." >&2; exit 2; }
exec "$(dirname "$0")/suite.sh" "${args[@]}" --scenario "$@"
