# shellcheck shell=sh
# Helpers for plans running in the lab VM (lab/host/vm.sh); plans source it:
#   . /lab/guest-lib.sh
# Our modules are under /lib/modules/$(uname -r)/updates/, so modprobe
# prefers them; these helpers make sure of it.

LAB_OUT=${LAB_OUT:-/lab/out}

# lab_is_ours MOD: MOD's module file is one of ours (under updates/) and, if
# loaded, the loaded module is out-of-tree (taint O), as ours are.
lab_is_ours() {
	_p=$(modinfo -n "$1" 2>/dev/null) || return 1
	case "$_p" in
	*/updates/*) ;;
	*) return 1 ;;
	esac
	if [ -r "/sys/module/$1/taint" ]; then
		grep -q O "/sys/module/$1/taint" || return 1
	fi
	return 0
}

# lab_load MOD [PARAM=VALUE...]: modprobe one of our modules and fail loudly
# if what got loaded is not ours.
lab_load() {
	_m=$1
	case "$(modinfo -n "$_m" 2>/dev/null)" in
	*/updates/*) ;;
	"") echo "lab: FATAL: no module $_m"; return 1 ;;
	*) echo "lab: FATAL: $_m would load the in-tree $(modinfo -n "$_m"), not ours"; return 1 ;;
	esac
	modprobe "$@" || { echo "lab: modprobe $* failed"; return 1; }
	if ! lab_is_ours "$_m"; then
		echo "lab: FATAL: the loaded $_m is not ours ($(modinfo -n "$_m"), taint $(cat "/sys/module/$_m/taint" 2>/dev/null))"
		return 1
	fi
	if [ "$_m" != ib_core ] && [ -d /sys/module/ib_core ] && ! lab_is_ours ib_core; then
		echo "lab: FATAL: the loaded ib_core is not ours"
		return 1
	fi
	return 0
}

# lab_unload MOD...: rmmod in the order given; report failures.
lab_unload() {
	_rc=0
	for _m in "$@"; do
		[ -d "/sys/module/$_m" ] || continue
		rmmod "$_m" || { echo "lab: rmmod $_m failed"; _rc=1; }
	done
	return $_rc
}

# lab_kmsg TEXT: a marker in the kernel log.
lab_kmsg() {
	echo "lab: $*" >/dev/kmsg
}

# lab_pass NAME / lab_fail NAME [WHY]: one result line.
lab_pass() { echo "PASS $1"; }
lab_fail() { echo "FAIL $1${2:+ ($2)}"; }

# lab_check NAME CMD...: run CMD (its output to the log, indented), one
# result line for its exit status, which it returns.
lab_check() {
	_n=$1
	shift
	"$@" >/tmp/lab-check.out 2>&1
	_st=$?
	sed 's/^/    /' /tmp/lab-check.out
	if [ $_st -eq 0 ]; then lab_pass "$_n"; else lab_fail "$_n" "exit $_st: $*"; fi
	return $_st
}

# The RDMA modules still loaded (ours or any), on stdout; status 0 if any.
lab_rdma_left() {
	_left=$(awk '$1 ~ /^(ib_|rdma|iw_)/ { print $1 }' /proc/modules | tr '\n' ' ')
	[ -n "$_left" ] || return 1
	echo "$_left"
}

# lab_unload_all: remove every RDMA module, users before what they use.
lab_unload_all() {
	_tries=0
	while _left=$(lab_rdma_left) && [ $_tries -lt 10 ]; do
		for _m in $_left; do
			rmmod "$_m" 2>/dev/null
		done
		_tries=$((_tries + 1))
	done
	! lab_rdma_left >/dev/null
}
