#!/usr/bin/env bash
# Run KUnit suite modules in the test-kernel VM and report every case:
#
#   lab/host/kunit.sh [--build DIR] [--out DIR] [--timeout SEC] SUITE_MODULE...
#
# A shorthand for lab/host/suite.sh --kernel test ... --kunit SUITE_MODULE...
# (see there): one line per case (PASS/FAIL/SKIP kunit/<suite>/<case>), one
# per kind of kernel report, a summary; exit status 0 only if every case
# passed (or skipped) and nothing was reported.
set -euo pipefail
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--build|--out|--timeout) args+=("$1" "$2"); shift 2 ;;
	-h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: lab/host/kunit.sh [--build DIR] SUITE_MODULE..." >&2; exit 2; }
exec "$(dirname "$0")/suite.sh" --kernel test "${args[@]}" --kunit "$@"
