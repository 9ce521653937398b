#!/bin/sh
# Scenario netlink: RDMA netlink as userspace uses it.  iproute2's rdma
# tool and libibverbs against our ib_core with the test-double driver
# (tdev0, tdev1) and the link type "tdev" (rdma_kunit_tlink: devices with
# hardware counters on a veth), then the netlink fuzzer as root and as an
# unprivileged user, then the kernel log.  One line per check:
# PASS/FAIL netlink/<case>.
. /lab/guest-lib.sh
N=netlink
NS=ktnlns
CONF=/etc/modprobe.d/lab-netlink.conf

# run CMD: the shell command CMD in a subshell, with our functions.
run() { (eval "$1"); }

# check CASE CMD: CMD succeeds; its output is logged.
check() { lab_check "$N/$1" run "$2"; }

# match CASE REGEX CMD: CMD succeeds and its output has a line matching REGEX.
match() {
	_out=$(run "$3" 2>&1)
	_st=$?
	printf '%s\n' "$_out" | sed 's/^/    /'
	if [ $_st -ne 0 ]; then lab_fail "$N/$1" "exit $_st: $3"
	elif printf '%s\n' "$_out" | grep -Eq "$2"; then lab_pass "$N/$1"
	else lab_fail "$N/$1" "no line like '$2' from: $3"; fi
}

# refuse CASE REGEX CMD: CMD fails, saying something matching REGEX.
refuse() {
	_out=$(run "$3" 2>&1)
	_st=$?
	printf '%s\n' "$_out" | sed 's/^/    /'
	if [ $_st -eq 0 ]; then lab_fail "$N/$1" "succeeded: $3"
	elif printf '%s\n' "$_out" | grep -Eq "$2"; then lab_pass "$N/$1"
	else lab_fail "$N/$1" "no '$2' from: $3"; fi
}

# as_nobody CMD...: run CMD as uid/gid 65534 without groups.
as_nobody() {
	python3 -c 'import os, sys
os.setgroups([]); os.setgid(65534); os.setuid(65534)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

# wait_for SECONDS CMD: until CMD succeeds.
wait_for() {
	_i=0
	while ! run "$2" >/dev/null 2>&1; do
		_i=$((_i + 1))
		[ $_i -le $(($1 * 5)) ] || return 1
		sleep 0.2
	done
}

# Aliases the kernel asks modprobe about (rdma-client-uverbs, rdma-link-rxe,
# rdma-netlink-subsys-2...) must not load in-tree modules on our core.
blacklist_in_tree() {
	: >"$CONF" || return 1
	for m in ib_uverbs rdma_ucm iw_cm ib_cm rdma_cm rdma_rxe siw ib_umad \
		ib_ipoib; do
		case "$(modinfo -n "$m" 2>/dev/null)" in
		*/updates/*|"") ;;
		*) echo "blacklist $m" >>"$CONF" ;;
		esac
	done
}

traffic() {
	python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(5):
    s.sendto(b"kt" * 20, ("10.99.0.2", 9))' 2>/dev/null
	sleep 1
}

counter() {
	rdma statistic show link "$1" 2>/dev/null |
		sed -n "s/.* $2 \([0-9]*\).*/\1/p"
}

cleanup() {
	rdma system set netns shared >/dev/null 2>&1
	ip link del ktv0 2>/dev/null
	ip link del ktv2 2>/dev/null
	ip netns del $NS 2>/dev/null
	lab_unload rdma_kunit_tlink rdma_kunit_tdev
	# The chardev query loads ib_uverbs (alias rdma-client-uverbs).
	[ ! -d /sys/module/ib_uverbs ] || lab_unload ib_uverbs
	lab_unload ib_core
	rm -f "$CONF"
}

lab_kmsg "scenario netlink start"
if blacklist_in_tree; then lab_pass $N/setup
else lab_fail $N/setup "cannot write $CONF"; fi

# A NETLINK_RDMA socket loads ib_core by its alias net-pf-16-proto-20.
python3 -c 'import socket; socket.socket(16, 3, 20).close()' 2>/dev/null
if lab_is_ours ib_core && [ -d /sys/module/ib_core ]; then
	lab_pass $N/autoload-core
else
	lab_fail $N/autoload-core "no ib_core of ours after opening a socket"
	lab_load ib_core || { cleanup; exit 1; }
fi
lab_load rdma_kunit_tdev ndevs=2 || { lab_fail $N/load "rdma_kunit_tdev"; cleanup; exit 1; }

# --- devices, ports, resources, system -----------------------------------
match dev 'tdev1: node_type ca fw' 'rdma dev && rdma dev | grep -q "tdev0: node_type ca fw"'
match dev-details 'caps: <' 'rdma dev show tdev0 -d | grep -q "adaptive-moderation off" && rdma dev show tdev0 -d'
check dev-json 'rdma -j dev | python3 -c "import json, sys
d = json.load(sys.stdin)
names = sorted(x[\"ifname\"] for x in d)
assert names == [\"tdev0\", \"tdev1\"], names
assert all(x[\"node_type\"] == \"ca\" for x in d)
print(names)"'
match link 'link tdev1/1 .*state ACTIVE physical_state LINK_UP' 'rdma link && rdma link | grep -q "link tdev0/1 .*state ACTIVE"'
# The MAD layer of ib_core opens a PD, a CQ, QP0 and QP1 on each device's
# InfiniBand port, as in-tree: those are all there is.
match res 'tdev1: pd 1 cq 1 qp 2 cm_id 0 mr 0 ctx 0 srq 0' 'rdma res'
for t in pd cq qp; do
	check "res-$t" "out=\$(rdma res show $t) && echo \"\$out\" && [ -n \"\$out\" ] &&
		! echo \"\$out\" | grep -v 'comm \\[ib_core\\]'"
done
match res-mad-qps 'link tdev1/1 lqpn 1 type GSI' 'rdma res show qp link tdev1/1 | grep -q "lqpn 0 type SMI" && rdma res show qp link tdev1/1'
for t in mr cm_id ctx srq; do
	check "res-$t" "out=\$(rdma res show $t) && echo \"\$out\" && [ -z \"\$out\" ]"
done
match system 'netns shared copy-on-fork on' 'rdma system'

# --- rename ---------------------------------------------------------------
check rename 'rdma dev set tdev0 name ktsc0 && rdma dev | grep "ktsc0: node_type" &&
	[ -d /sys/class/infiniband/ktsc0 ] && [ ! -e /sys/class/infiniband/tdev0 ]'
check rename-back 'rdma dev set ktsc0 name tdev0 && rdma dev | grep "tdev0: node_type" &&
	[ -d /sys/class/infiniband/tdev0 ]'
refuse rename-taken 'File exists' 'rdma dev set tdev0 name tdev1'

# --- what unprivileged users may do ---------------------------------------
match user-dev 'tdev0: node_type ca' 'as_nobody rdma dev'
refuse user-rename 'Operation not permitted' 'as_nobody rdma dev set tdev0 name ktuser0'
refuse user-system 'Operation not permitted' 'as_nobody rdma system set netns exclusive'

# --- libibverbs: netlink discovery; without uverbs it finds no device -------
match ibv-devices 'device.*node GUID' 'ibv_devices'

# --- refusals of the link commands and counters of test devices -----------
refuse link-delete-refused 'Invalid argument' 'rdma link delete tdev0'
check link-delete-kept 'rdma dev | grep "tdev0: node_type"'
refuse link-add-unknown 'Invalid argument' 'rdma link add ktx0 type ktnotype netdev lo'
refuse link-add-nodev 'No such device' 'rdma link add ktx0 type tdev netdev ktnodev'
refuse stat-no-counters 'Invalid argument' 'rdma statistic show link tdev0/1'
lab_unload rdma_kunit_tdev

# --- a link type, loaded on demand, with hardware counters ----------------
ip link add ktv0 type veth peer name ktv1 && ip netns add $NS &&
	ip link set ktv1 netns $NS && ip addr add 10.99.0.1/24 dev ktv0 &&
	ip link set ktv0 up && ip -n $NS addr add 10.99.0.2/24 dev ktv1 &&
	ip -n $NS link set ktv1 up && ip -n $NS link set lo up ||
	lab_fail $N/veth "setting up ktv0/ktv1"
check link-add 'rdma link add kts0 type tdev netdev ktv0'
if lab_is_ours rdma_kunit_tlink && [ -d /sys/module/rdma_kunit_tlink ]; then
	lab_pass $N/link-autoload
else
	lab_fail $N/link-autoload "rdma-link-tdev did not load our rdma_kunit_tlink"
fi
match link-show 'link kts0/1 state ACTIVE physical_state LINK_UP netdev ktv0' 'rdma link show kts0/1'
match link-dev 'kts0: node_type ca' 'rdma dev show kts0'
refuse link-add-twice 'File exists' 'rdma link add kts1 type tdev netdev ktv0'
refuse link-add-taken 'Too many open files' 'rdma link add kts0 type tdev netdev lo'

match stat-show 'link kts0/1 rx_packets [0-9]+ tx_packets [0-9]+' 'rdma statistic show link kts0/1'
match stat-all 'link kts0/1 rx_packets' 'rdma statistic'
tx0=$(counter kts0/1 tx_packets)
traffic
tx1=$(counter kts0/1 tx_packets)
if [ -n "$tx0" ] && [ -n "$tx1" ] && [ "$tx1" -gt "$tx0" ]; then
	lab_pass $N/stat-counts
else
	lab_fail $N/stat-counts "tx_packets $tx0 -> $tx1 after traffic"
fi
HW=/sys/class/infiniband/kts0/ports/1/hw_counters
check sysfs-counters "cat $HW/rx_packets $HW/tx_packets /sys/class/infiniband/kts0/hw_counters/pds && [ ! -e $HW/rx_bytes ]"
check sysfs-lifespan "echo 1000 >$HW/lifespan && [ \$(cat $HW/lifespan) = 1000 ] && echo 10 >$HW/lifespan"
refuse sysfs-lifespan-bad 'Invalid argument' "python3 -c 'import os; os.write(os.open(\"$HW/lifespan\", os.O_WRONLY), b\"20000\")'"
match stat-optional 'rx_bytes' 'rdma statistic mode supported link kts0/1'
match stat-set-optional 'rx_bytes [0-9]+' 'rdma statistic set link kts0/1 optional-counters rx_bytes && rdma statistic show link kts0/1'
check stat-unset-optional 'rdma statistic unset link kts0/1 optional-counters && ! rdma statistic show link kts0/1 | grep rx_bytes'
refuse stat-user-set 'Operation not permitted' 'as_nobody rdma statistic set link kts0/1 optional-counters rx_bytes'

# --- namespaces -----------------------------------------------------------
refuse netns-move 'Operation not supported' "rdma dev set kts0 netns $NS"
refuse netns-exclusive-busy 'Device or resource busy' 'rdma system set netns exclusive'

# --- deleting links -------------------------------------------------------
check link-delete 'rdma link delete kts0 && ! rdma dev | grep kts0 && [ ! -e /sys/class/infiniband/kts0 ]'
check link-netdev-gone 'rdma link add kts0 type tdev netdev ktv0 && rdma dev | grep -q kts0 &&
	ip link del ktv0 && for i in $(seq 50); do rdma dev | grep -q kts0 || exit 0; sleep 0.1; done; exit 1'
ip netns del $NS
if wait_for 20 'rdma system set netns exclusive'; then
	match netns-exclusive 'netns exclusive' 'rdma system'
	match netns-exclusive-dev 'kts0: node_type ca' 'rdma link add kts0 type tdev netdev lo && rdma dev && rdma link delete kts0'
	check netns-shared 'rdma system set netns shared && rdma system | grep "netns shared"'
else
	lab_fail $N/netns-exclusive "still busy 20 s after the namespace was deleted"
fi

# --- the fuzzer -----------------------------------------------------------
lab_load rdma_kunit_tdev ndevs=2
ip link add ktv2 type veth peer name ktv3 && ip link set ktv2 up &&
	rdma link add ktfz type tdev netdev ktv2 || lab_fail $N/fuzz-setup "ktfz"
# A third of the messages on the debug kernel (a message costs it some
# 15 ms); the stock VM sends them all.
_nl_root=3000 _nl_user=1500
lab_debug_kernel && _nl_root=1000 _nl_user=500
lab_check $N/fuzz-root python3 /lab/tools/nl_fuzz.py --count $_nl_root
lab_check $N/fuzz-user python3 /lab/tools/nl_fuzz.py --count $_nl_user --user 65534
rdma system set netns shared >/dev/null 2>&1

# --- the kernel log of all of it ------------------------------------------
cleanup
log=$(dmesg | sed -n '/lab: scenario netlink start/,$p')
bad=$(printf '%s\n' "$log" | grep -E 'BUG|WARNING|Oops|general protection|Call Trace|KASAN|refcount_t|Unknown symbol|kmemleak|list_(add|del) corruption|netlink client|link type')
if [ -z "$bad" ]; then
	lab_pass $N/kernel-log
else
	printf '%s\n' "$bad" | head -20 | sed 's/^/    /'
	lab_fail $N/kernel-log "$(printf '%s\n' "$bad" | wc -l) report line(s)"
fi
