#!/usr/bin/env bash
# make fuzz: a long run of the uverbs fuzzer (lab/guest/scenarios/
# uverbs_fuzz.sh, lab/guest/tools/uverbs_fuzz.py) in one VM.
#
#   lab/host/fuzz.sh [--kernel test|stock] [--calls N] [--workers W]
#                    [--seed S] [--out DIR]
#
#   --kernel    the debug test kernel (default: KASAN, lockdep, kmemleak)
#               or Debian's stock kernel
#   --calls     system calls in all (default 1000000; make check runs
#               100000)
#   --workers   fuzzing processes (default 4)
#   --seed      the random seed (default: the time); a run prints its seed
#   --out       keep the VM run there
#
# Builds our modules for that kernel, then runs the scenario with a time
# limit sized for the calls (a debug kernel under TCG does some hundred
# calls per second).  Prints the scenario's result lines and the kernel
# reports (lab/host/suite.sh); exit status 0 only if all passed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=test calls=1000000 workers=4 seed='' out=''
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--calls) calls=$2; shift 2 ;;
	--workers) workers=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1" ;;
	esac
done
modules_for "$kernel"
seed=${seed:-$(date +%s)}
# Seconds: 1000 calls per 10 s on the debug kernel, and 10 minutes for the
# rest of the scenario and the boot.
limit=$((calls / 100 + 600))
log "fuzz: $calls calls, $workers workers, seed $seed, $kernel kernel, at most ${limit}s"
scenario_vm "$kernel" uverbs_fuzz "$limit" "$out" <<EOT
UVERBS_FUZZ_CALLS=$calls
UVERBS_FUZZ_WORKERS=$workers
UVERBS_FUZZ_SEED=$seed
EOT
