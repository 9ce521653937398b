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

# lab_debug_kernel: this is the test kernel (KASAN, kmemleak, lockdep under
# TCG), where soft RoCE moves some hundred KB/s: runs size themselves by it.
lab_debug_kernel() { [ -e /sys/kernel/debug/kmemleak ]; }

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

# lab_insmod_kernel MOD: the kernel's own MOD (from kernel/, where ours
# under updates/ would win modprobe's choice), after what it depends on:
# the RDMA modules of the kernel's own too when they are not loaded yet
# (a loaded ib_core, ours or not, is used), others by modprobe.  A
# subshell, so that the recursion has variables of its own.
lab_insmod_kernel() (
	lab_loaded "$1" && return 0
	_f=$(find "/lib/modules/$(uname -r)/kernel/drivers/infiniband" -name "$1.ko*" | head -n 1)
	[ -n "$_f" ] || { echo "lab: no kernel module $1"; return 1; }
	for _d in $(modinfo -F depends "$_f" | tr , ' '); do
		case $_d in
		ib_*|rdma_*|iw_*) lab_insmod_kernel "$_d" || return 1 ;;
		*) modprobe "$_d" || return 1 ;;
		esac
	done
	insmod "$_f" || { echo "lab: insmod $_f failed"; return 1; }
)

# lab_load_intree MOD [PARAM=VALUE...]: a module of the kernel's own (a
# driver or ULP binary we did not write, e.g. rdma_rxe) on our core, and
# fail loudly if the core modules it pulled in (ib_core, ib_uverbs,
# ib_cm, iw_cm, rdma_cm: the ULPs need them) are not ours.  When a module
# of ours has its name (our rdma_rxe, in a build with hw/rxe), the
# kernel's file is loaded, after our core (parameters are not passed).
lab_load_intree() {
	case "$(modinfo -n "$1" 2>/dev/null)" in
	*/updates/*)
		lab_load ib_uverbs && lab_insmod_kernel "$1" || return 1 ;;
	*)
		modprobe "$@" || { echo "lab: modprobe $* failed"; return 1; } ;;
	esac
	for _c in ib_core ib_uverbs ib_cm iw_cm rdma_cm rdma_ucm; do
		if [ -d "/sys/module/$_c" ] && ! lab_is_ours "$_c"; then
			echo "lab: FATAL: $1 pulled in the in-tree $_c"
			return 1
		fi
	done
	return 0
}

# lab_load_rxe: the soft RoCE driver the run chose: LAB_RXE=ours, our
# rdma_rxe (hw/rxe); otherwise the kernel's own, on our core
# (lab_load_intree).  The plan sets LAB_RXE for a scenario run as
# NAME@ours (plans/suite.sh).
lab_load_rxe() {
	if [ "${LAB_RXE:-intree}" = ours ]; then
		lab_load rdma_rxe
	else
		lab_load_intree rdma_rxe
	fi
}

# lab_loaded MOD: MOD is a loaded module (a built-in one has a
# /sys/module directory too, but is not in /proc/modules).
lab_loaded() { grep -q "^$1 " /proc/modules; }

# lab_unload MOD...: rmmod in the order given (those loaded); report
# failures.
lab_unload() {
	_rc=0
	for _m in "$@"; do
		lab_loaded "$_m" || continue
		rmmod "$_m" || { echo "lab: rmmod $_m failed"; _rc=1; }
	done
	return $_rc
}

# lab_kmsg TEXT: a marker in the kernel log.
lab_kmsg() {
	echo "lab: $*" >/dev/kmsg
}

# lab_jiffies FILE: the kernel's jiffies now, into FILE.  kmemleak gives
# each object's allocation jiffies, so lab/host/results.py --since-jiffies
# can count only the leaks allocated after this point.
lab_jiffies() {
	awk '$1 == "jiffies:" { print $2; exit }' /proc/timer_list >"$1"
}

# lab_kmemleak FILE: look for leaks and save kmemleak's list in FILE.  A
# new object is only reported by the second scan that finds it
# unreferenced, and only once it is 5 s old: the second scan starts at
# least 5 s after the first.  Status 1 without kmemleak.
lab_kmemleak() {
	[ -w /sys/kernel/debug/kmemleak ] || return 1
	_kl_t0=$(cut -d. -f1 /proc/uptime)
	echo scan >/sys/kernel/debug/kmemleak
	# Whole seconds: 6 of them make sure of 5.
	_kl_wait=$((6 - $(cut -d. -f1 /proc/uptime) + _kl_t0))
	[ "$_kl_wait" -le 0 ] || sleep "$_kl_wait"
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak >"$1"
}

# lab_pass NAME / lab_fail NAME [WHY]: one result line, in the log and,
# with its time, in the kernel log (where the time of each check shows).
lab_pass() { echo "PASS $1"; lab_kmsg "PASS $1"; }
lab_fail() { echo "FAIL $1${2:+ ($2)}"; lab_kmsg "FAIL $1"; }

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

# lab_pair_rules -4|-6 A B ADDR_A ADDR_B: the routing that sends traffic
# between the two local addresses out over the pair A-B, not over lo: the
# local table moves behind rules on iif lo that look each address up in a
# table of its own (100, 101).  What exists already may fail ("-force"
# goes on); the status is ip's.
lab_pair_rules() {
	ip "$1" -force -batch - <<-EOT
	rule add pref 1000 lookup local
	rule del pref 0 lookup local
	rule add pref 100 iif lo to $5 lookup 100
	rule add pref 101 iif lo to $4 lookup 101
	route add $5 dev $2 src $4 table 100
	route add $4 dev $3 src $5 table 101
	EOT
}

# lab_veth_pair [A B ADDR_A ADDR_B]: a veth pair whose two ends talk to
# each other over the link, not over lo (lab facts): addresses on both
# ends, output routes for each other's address through the own end (rules
# on iif lo ahead of the local table), accept_local and no rp_filter so
# that packets from a local source are taken, a deep backlog, and RPS
# pinning each end to one CPU so that a flow is not reordered.
# Defaults: veth0/veth1 with 10.11.0.1/24 and 10.11.0.2/24.
lab_veth_pair() {
	_a=${1:-veth0} _b=${2:-veth1} _ia=${3:-10.11.0.1} _ib=${4:-10.11.0.2}
	# Few processes: each costs a good part of a second on the debug
	# kernel.  The pair, its addresses and links up must work ("ip -batch"
	# stops at the first failure); the routing below is redone by every
	# scenario, so what exists already may fail ("-force" goes on).
	ip -batch - <<-EOT || return 1
	link add $_a type veth peer name $_b
	addr add $_ia/24 dev $_a
	addr add $_ib/24 dev $_b
	link set $_a up
	link set $_b up
	EOT
	sysctl -qw net.core.netdev_max_backlog=16384 \
		net.ipv4.conf.all.accept_local=1 net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.accept_local=1 net.ipv4.conf.default.rp_filter=0 \
		"net.ipv4.conf.$_a.accept_local=1" "net.ipv4.conf.$_a.rp_filter=0" \
		"net.ipv4.conf.$_b.accept_local=1" "net.ipv4.conf.$_b.rp_filter=0"
	lab_pair_rules -4 "$_a" "$_b" "$_ia" "$_ib" 2>/dev/null
	echo 1 >"/sys/class/net/$_a/queues/rx-0/rps_cpus" 2>/dev/null
	echo 2 >"/sys/class/net/$_b/queues/rx-0/rps_cpus" 2>/dev/null
	return 0
}

# lab_veth_pair_del [A]: remove the pair and its routing again.
lab_veth_pair_del() {
	ip -force -batch - <<-EOT 2>/dev/null
	link del ${1:-veth0}
	rule del pref 100
	rule del pref 101
	route flush table 100
	route flush table 101
	EOT
	return 0
}

# lab_veth_ipv6: IPv6 on the pair of lab_veth_pair (veth0, veth1):
# $LAB_A6 and $LAB_B6 (/64, no DAD), routed over the pair as its IPv4 is
# (rules on iif lo ahead of the local table: CONFIG_IPV6_MULTIPLE_TABLES),
# and both addresses' RoCE GIDs on rxe0 and rxe1 when they exist.
# Status 1 with the reason in LAB_V6_WHY when any of it fails.  Undone by
# lab_veth_ipv6_del (after the pair is gone).
LAB_A6=fd00:11::1
LAB_B6=fd00:11::2
lab_veth_ipv6() {
	LAB_V6_WHY=''
	ip -6 addr add $LAB_A6/64 dev veth0 nodad &&
		ip -6 addr add $LAB_B6/64 dev veth1 nodad ||
		{ LAB_V6_WHY="ip -6 addr add"; return 1; }
	lab_pair_rules -6 veth0 veth1 $LAB_A6 $LAB_B6 2>/tmp/lab-rules6.err ||
		{ LAB_V6_WHY="ip -6 rule: $(head -n1 /tmp/lab-rules6.err)"; return 1; }
	ip -6 rule | grep -q "lookup 100" ||
		{ LAB_V6_WHY="no per-interface IPv6 rules (CONFIG_IPV6_MULTIPLE_TABLES)"; return 1; }
	for _d in rxe0:0001 rxe1:0002; do
		[ -e /sys/class/infiniband/${_d%:*} ] || continue
		lab_wait_for 10 sh -c "grep -qix 'fd00:0011:0000:0000:0000:0000:0000:${_d#*:}' \
			/sys/class/infiniband/${_d%:*}/ports/1/gids/? /sys/class/infiniband/${_d%:*}/ports/1/gids/??" ||
			{ LAB_V6_WHY="no GID of fd00:11::${_d#*:} on ${_d%:*}"; return 1; }
	done
	return 0
}
lab_veth_ipv6_del() {
	ip -6 -force -batch - <<-EOT 2>/dev/null
	rule del pref 100
	rule del pref 101
	route flush table 100
	route flush table 101
	rule add pref 0 lookup local
	rule del pref 1000
	EOT
	return 0
}

# lab_fio_verify SCENARIO DIR NAME DEV RW BS SIZE [FIO ARGS...]: one fio
# job writing SIZE to block device DEV with crc32c verification, then
# reading it back and verifying; its output in DIR/fio.NAME, its summary
# to stdout; PASS or FAIL SCENARIO/fio/NAME, and fio's status.
lab_fio_verify() {
	_fs=$1 _fd=$2 _fn=$3 _fdev=$4 _frw=$5 _fbs=$6 _fsz=$7
	shift 7
	timeout 600 fio --name="$_fn" --filename="$_fdev" --direct=1 \
		--ioengine=libaio --iodepth=8 --rw="$_frw" --bs="$_fbs" --size="$_fsz" \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 \
		"$@" >"$_fd/fio.$_fn" 2>&1
	_fst=$?
	grep -E 'err=|WRITE:|READ:|verify|bad|crc' "$_fd/fio.$_fn" | sed 's/^/    /'
	if [ $_fst -eq 0 ]; then
		lab_pass "$_fs/fio/$_fn"
	else
		lab_fail "$_fs/fio/$_fn" "fio exit $_fst"
	fi
	return $_fst
}

# lab_lio_run SCENARIO: the course of a scenario that exports a block
# device from a LIO target to a SCSI initiator over RDMA (iser.sh, srp.sh),
# in the scenario's own functions: setup, target_up (the target in
# configfs: SCENARIO/target/configfs), login (the initiator's disk in
# $DISK), fio with crc32c verification (4k random writes of $SZ4K, 128k
# sequential of $SZ128K, on $T: SCENARIO/fio/*), logout, and teardown
# whatever happened.
lab_lio_run() {
	if setup; then
		if target_up; then
			lab_pass "$1/target/configfs"
			if login; then
				lab_fio_verify "$1" "$T" rand4k "$DISK" randwrite 4k "$SZ4K"
				lab_fio_verify "$1" "$T" seq128k "$DISK" write 128k "$SZ128K"
				logout
			fi
		else
			lab_fail "$1/target/configfs" "$(find "$CFS" -maxdepth 5 2>&1 | head -20)"
		fi
	fi
	teardown
}

# lab_uptime: the guest's whole seconds since boot, in _up (no process).
lab_uptime() {
	read -r _up _ </proc/uptime
	_up=${_up%.*}
}

# lab_wait_for SECONDS CMD...: retry CMD every 0.2 s until it succeeds or
# SECONDS pass (for what the kernel does asynchronously); its status.
# The limit is a deadline on the guest's clock, not a number of tries: in
# a guest starved of host CPU one try of a pipeline can take seconds.
lab_wait_for() {
	lab_uptime
	_wf_end=$((_up + $1))
	shift
	while ! "$@" >/dev/null 2>&1; do
		lab_uptime
		[ "$_up" -lt "$_wf_end" ] || return 1
		sleep 0.2
	done
}

# lab_user_objects: the user objects (QPs, CQs, MRs, PDs, contexts, SRQs)
# that "rdma res" lists with a pid, on stdout; empty when none is left.
lab_user_objects() {
	for _r in qp cq mr pd ctx srq; do
		rdma res show "$_r" | grep 'pid '
	done
}

# lab_listening PORT: something listens on TCP port PORT (a tool's server
# is ready for its client).
lab_listening() { ss -ltn | grep -q ":$1 "; }

# The RDMA cgroup controller (cgroup v2).  lab_rdmacg_make NAME LIMITS:
# a child cgroup NAME of the root with rdma.max set to LIMITS ("rxe0
# hca_handle=1 hca_object=3", or nothing for no limit); its directory on
# stdout.  lab_rdmacg_use
# DIR DEV RESOURCE: what DIR's rdma.current says DEV uses of RESOURCE
# (hca_handle or hca_object); a device without a line uses 0.
LAB_CGROOT=/sys/fs/cgroup
lab_rdmacg_make() {
	if [ ! -e $LAB_CGROOT/cgroup.controllers ]; then
		mount -t cgroup2 cgroup2 $LAB_CGROOT || return 1
	fi
	grep -qw rdma $LAB_CGROOT/cgroup.controllers || return 1
	echo +rdma >$LAB_CGROOT/cgroup.subtree_control || return 1
	mkdir -p "$LAB_CGROOT/$1" || return 1
	[ -z "$2" ] || echo "$2" >"$LAB_CGROOT/$1/rdma.max" || return 1
	echo "$LAB_CGROOT/$1"
}
lab_rdmacg_use() {	# DIR DEV RESOURCE
	awk -v d="$2" -v r="$3" '$1 == d {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == r) n = kv[2] } }
		END { print n + 0 }' "$1/rdma.current"
}
# The program of the two below: joins cgroup $0, then becomes "$@".
LAB_RDMACG_EXEC='echo $$ >"$0/cgroup.procs" && exec "$@"'

# lab_rdmacg_run DIR CMD...: run CMD as a member of cgroup DIR.
lab_rdmacg_run() { sh -c "$LAB_RDMACG_EXEC" "$@"; }

# lab_rdmacg_spawn DIR CMD...: CMD in the background as a member of cgroup
# DIR, with $! its own pid.  (A backgrounded shell function gives the pid
# of a subshell instead: killing that leaves CMD running.)
lab_rdmacg_spawn() { sh -c "$LAB_RDMACG_EXEC" "$@" & }

# lab_rxe_setup SCENARIO: rxe0 on veth0 (10.11.0.1) and rxe1 on veth1
# (10.11.0.2) of lab_veth_pair, rdma_rxe (lab_load_rxe) on our ib_core, both
# RoCE v2 GIDs there; G0 and G1 their slots.  One result line,
# SCENARIO/setup/... on failure (status 1).
lab_rxe_setup() {
	lab_veth_pair || { lab_fail "$1/setup/veth" "veth pair"; return 1; }
	lab_load_rxe || { lab_fail "$1/setup/rdma_rxe" "modprobe rdma_rxe"; return 1; }
	lab_is_ours ib_core || { lab_fail "$1/setup/ours" "ib_core is not ours"; return 1; }
	rdma link add rxe0 type rxe netdev veth0 &&
		rdma link add rxe1 type rxe netdev veth1 ||
		{ lab_fail "$1/setup/link-add" "rdma link add"; return 1; }
	lab_wait_for 10 lab_gid_of rxe0 10.11.0.1 && lab_wait_for 10 lab_gid_of rxe1 10.11.0.2 ||
		{ lab_fail "$1/setup/gids" "no RoCE v2 GID of 10.11.0.1 or 10.11.0.2"; return 1; }
	G0=$(lab_gid_of rxe0 10.11.0.1)
	G1=$(lab_gid_of rxe1 10.11.0.2)
	echo "lab: rxe0 GID $G0 (10.11.0.1), rxe1 GID $G1 (10.11.0.2)"
	lab_pass "$1/setup"
}

# lab_rxe_links: rxe0 on veth0 and rxe1 on veth1 of lab_veth_pair, with a
# driver loaded; their RoCE v2 GIDs of 10.11.0.1 and 10.11.0.2 in G0 and
# G1.  Status 1 if a link or a GID does not come.
lab_rxe_links() {
	rdma link add rxe0 type rxe netdev veth0 &&
		rdma link add rxe1 type rxe netdev veth1 || return 1
	lab_wait_for 20 lab_gid_of rxe0 10.11.0.1 &&
		lab_wait_for 20 lab_gid_of rxe1 10.11.0.2 || return 1
	G0=$(lab_gid_of rxe0 10.11.0.1)
	G1=$(lab_gid_of rxe1 10.11.0.2)
}

# lab_configfs: configfs mounted on /sys/kernel/config (the targets' and
# rdma_cm's configuration).
lab_configfs() {
	[ -d /sys/kernel/config ] || modprobe configfs
	mountpoint -q /sys/kernel/config ||
		mount -t configfs configfs /sys/kernel/config
}

# lab_ulp_unload SCENARIO MOD...: rmmod the ULP modules a scenario loaded
# (users first); SCENARIO/unload/ulp fails naming those that stay.
lab_ulp_unload() {
	_s=$1
	shift
	lab_unload "$@"
	_stay=''
	for _m in "$@"; do
		! lab_loaded "$_m" || _stay="$_stay $_m"
	done
	if [ -z "$_stay" ]; then
		lab_pass "$_s/unload/ulp"
	else
		lab_fail "$_s/unload/ulp" "still loaded:$_stay"
	fi
}

# lab_rxe_teardown SCENARIO: the end of a scenario that made rxe0 and rxe1
# on lab_veth_pair: the devices and the pair go, rdma_rxe, the connection
# managers (when a ULP pulled them in), ib_uverbs and ib_core unload
# (SCENARIO/teardown/devices, SCENARIO/unload), and the kernel log since
# the scenario started has no warning, oops or corruption report
# (SCENARIO/kernel-log).
lab_rxe_teardown() {
	_s=$1
	for _d in rxe0 rxe1; do
		[ -e /sys/class/infiniband/$_d ] && rdma link delete $_d
	done
	lab_wait_for 30 test ! -e /sys/class/infiniband/rxe0 -a ! -e /sys/class/infiniband/rxe1 ||
		lab_fail "$_s/teardown/devices" "still there: $(ls /sys/class/infiniband)"
	lab_veth_pair_del
	if lab_unload rdma_rxe rdma_ucm rdma_cm iw_cm ib_cm ib_uverbs ib_core; then
		lab_pass "$_s/unload"
	else
		lab_fail "$_s/unload" "$(lab_rdma_left)"
	fi
	lab_kernel_log_clean "$_s/kernel-log" "scenario $_s"
}

# lab_kernel_log_clean RESULT MARK: RESULT passes if the kernel log since
# the line "lab: MARK" (lab_kmsg) has no WARN, BUG, oops or corruption.
lab_kernel_log_clean() {
	_re='WARNING:|BUG:|Oops|general protection|refcount_t|list_(add|del) corruption'
	_bad=$(dmesg | sed -n "/lab: $2\$/,\$p" | grep -E -m3 "$_re")
	if [ -n "$_bad" ]; then
		lab_fail "$1" "$_bad"
	else
		lab_pass "$1"
	fi
}

# lab_craft_wire SCENARIO DEV SECONDS SEND_CMD: tools/roce_craft.py's rows
# of crafted RoCE v2 packets, each sent by SEND_CMD ({row} and {seed}
# filled in), checked on DEV's counters (SCENARIO/wire/<row>), then the
# kernel log since the first packet (SCENARIO/wire/kernel-log).  The seed
# ($LAB_CRAFT_SEED, else the time) is printed.
lab_craft_wire() {
	_seed=${LAB_CRAFT_SEED:-$(date +%s)}
	_cmd=$(echo "$4" | sed "s/{seed}/$_seed/g")
	lab_kmsg "wire start"
	timeout "$3" python3 /lab/tools/roce_craft.py check "$1" "$2" "$_seed" "$_cmd" \
		>/tmp/$1-wire.out 2>&1
	_st=$?
	cat /tmp/$1-wire.out
	[ $_st -le 1 ] || lab_fail "$1/wire/tool" "exit $_st"
	lab_kernel_log_clean "$1/wire/kernel-log" "wire start"
}

# The interop pair (lab/host/pair.sh): each VM's one NIC is the wire
# between them, its MAC 52:54:00:77:00:xx.  lab_wire_nic: that NIC's name.
lab_wire_nic() {
	for _n in /sys/class/net/*; do
		case "$(cat "$_n/address")" in
		52:54:00:77:00:*) echo "${_n##*/}"; return 0 ;;
		esac
	done
	return 1
}

# RoCE devices and the traffic ULP, for the rxe scenario and the demo.

# lab_gid_of DEV ADDR: the GID slot of DEV's port 1 that holds the
# IPv4-mapped ADDR as a RoCE v2 GID; prints the slot.
lab_gid_of() {
	_want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
		$(echo "$2" | tr . ' '))
	# One grep over the first hundred slots' files (names of one or two
	# digits): the core fills the lowest free slot, and the lab's netdevs
	# have a few addresses.  Not the whole table: rxe's has 1024 slots,
	# and reading them all takes some 15 s on the debug kernel.
	_d=/sys/class/infiniband/$1/ports/1/gids
	for _g in $(grep -lx "$_want" "$_d"/? "$_d"/?? 2>/dev/null); do
		_i=${_g##*/}
		[ "$(cat "/sys/class/infiniband/$1/ports/1/gid_attrs/types/$_i" 2>/dev/null)" = "RoCE v2" ] ||
			continue
		echo "$_i"
		return 0
	done
	return 1
}
lab_no_gid_of() { ! lab_gid_of "$@" >/dev/null; }

# lab_port_state DEV STATE: port 1 of DEV is in STATE (e.g. ACTIVE).
lab_port_state() { grep -q "$2" "/sys/class/infiniband/$1/ports/1/state"; }

# The traffic ULP (ulp/traffic): a run between two devices through its
# debugfs files, its state and its report.
LAB_TRAFFIC=/sys/kernel/debug/rdma_traffic
lab_traffic_state() { sed -n 's/.* state=\([a-z]*\).*/\1/p' $LAB_TRAFFIC/status; }
lab_traffic_wait() {	# waits while a run runs (10 min at most); its state
	_t=0
	while [ "$(lab_traffic_state)" = running ] && [ $_t -lt 3000 ]; do
		sleep 0.2
		_t=$((_t + 1))
	done
	lab_traffic_state
}
lab_traffic_start() {	# A B: start a run from A to B
	echo "$1 $2" >$LAB_TRAFFIC/pair && echo run >$LAB_TRAFFIC/control
}
# lab_traffic A B: a whole run, its report to stdout (indented); status 0
# when it ended "done" with every transfer verified.
lab_traffic() {
	lab_traffic_start "$1" "$2" || return 1
	_st=$(lab_traffic_wait)
	sed 's/^/    /' $LAB_TRAFFIC/report
	[ "$_st" = done ] && ! grep -q 'errors=[1-9]' $LAB_TRAFFIC/report
}
