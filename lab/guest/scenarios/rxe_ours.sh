#!/bin/sh
# lab-kernels: stock
# lab-rxe: needs-ours (a build with hw/rxe, CONFIG_OOT_RXE=m: make check's
# stock VM; lab/host/lib.sh modules_with_rxe)
#
# Our soft RoCE driver, hw/rxe, on our ib_core: the module is ours, "rdma
# link add" makes a device per netdev and refuses a second one and a
# netdev that is not Ethernet, the port follows the netdev (state, MTU,
# RoCE v2 GIDs from its addresses), user contexts, PDs, CQs, SRQs and
# QPs (their rings mapped), AHs and MRs through rdma-core, the counters in sysfs, malformed and
# random packets from the wire each dropped and counted by reason, a
# device in another network namespace with a socket of its own, UD
# traffic both ways (ibv_ud_pingpong) and over the RDMA CM through the
# GSI QP (udaddy), the device going away with its netdev, and a clean
# unload.
. /lab/guest-lib.sh
S=rxe_ours
IB=/sys/class/infiniband
A=10.11.0.1

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }
check() { _c=$1; shift; lab_check "$S/$_c" "$@"; }

lab_veth_pair || { fail net/veth "veth pair"; exit 0; }
if ! lab_load rdma_rxe; then
	fail load "our rdma_rxe: $(modinfo -n rdma_rxe 2>&1)"
	exit 0
fi
lab_is_ours ib_core && pass load/ib_core-is-ours || fail load/ib_core-is-ours

check link/add rdma link add rxe0 type rxe netdev veth0
rdma link add rxe9 type rxe netdev veth0 2>/dev/null &&
	fail link/second-on-netdev "accepted" || pass link/second-on-netdev
rdma link add rxe9 type rxe netdev lo 2>/dev/null &&
	fail link/not-ethernet "accepted lo" || pass link/not-ethernet
rdma link | grep -q 'rxe0/1 state ACTIVE physical_state LINK_UP netdev veth0' &&
	pass link/active || fail link/active "$(rdma link)"

# veth's MTU of 1500 holds 1024-byte RoCE payloads, not 2048
_info=$(ibv_devinfo -v -d rxe0 2>&1)
echo "$_info" | grep -q 'transport:.*InfiniBand' && pass devinfo/transport ||
	fail devinfo/transport "$_info"
echo "$_info" | grep -q 'link_layer:.*Ethernet' && pass devinfo/link-layer ||
	fail devinfo/link-layer "$_info"
echo "$_info" | grep -q 'active_mtu:.*1024' && pass devinfo/mtu-1500 ||
	fail devinfo/mtu-1500 "$(echo "$_info" | grep mtu)"
ip link set veth0 mtu 4200
_mtu=$(ibv_devinfo -d rxe0 | sed -n 's/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p')
[ "$_mtu" = 4096 ] && pass devinfo/mtu-4200 || fail devinfo/mtu-4200 "$_mtu"
ip link set veth0 mtu 1500
_mac=$(cat /sys/class/net/veth0/address | tr -d :)
_guid=$(cat $IB/rxe0/node_guid | tr -d :)
# EUI-64: the MAC with ff:fe in the middle and the U/L bit flipped
_want=$(printf '%02x%sfffe%s' $((0x${_mac%??????????} ^ 2)) \
	"$(echo "$_mac" | cut -c3-6)" "$(echo "$_mac" | cut -c7-12)")
[ "$_guid" = "$_want" ] && pass node-guid/eui64 || fail node-guid/eui64 "$_guid, MAC $_mac"

lab_wait_for 10 lab_gid_of rxe0 $A && pass gid/ipv4-roce-v2 ||
	fail gid/ipv4-roce-v2 "no RoCE v2 GID for $A"

ip link set veth0 down
lab_wait_for 10 lab_port_state rxe0 DOWN && pass port/down ||
	fail port/down "$(cat $IB/rxe0/ports/1/state)"
_ld=$(cat $IB/rxe0/ports/1/hw_counters/link_downed)
[ "$_ld" = 1 ] && pass counters/link_downed || fail counters/link_downed "$_ld, not 1"
ip link set veth0 up
lab_wait_for 10 lab_port_state rxe0 ACTIVE && pass port/up ||
	fail port/up "$(cat $IB/rxe0/ports/1/state)"

# A user context and a PD through rdma-core's rxe provider
python3 - <<'PY' >/tmp/rxe_ours.py.out 2>&1
from pyverbs.device import Context
from pyverbs.pd import PD
with Context(name='rxe0') as ctx:
    for _ in range(3):
        PD(ctx).close()
    a = ctx.query_device()
    print('max_pd', a.max_pd, 'vendor_id', hex(a.vendor_id))
PY
[ $? -eq 0 ] && pass uverbs/context-and-pd || fail uverbs/context-and-pd "$(tail -n 3 /tmp/rxe_ours.py.out)"
grep -q 'vendor_id 0xffffff' /tmp/rxe_ours.py.out && pass uverbs/query-device ||
	fail uverbs/query-device "$(cat /tmp/rxe_ours.py.out)"

# CQs, SRQs, AHs, QPs and MRs through rdma-core's provider and pyverbs
# (tools/rxe_verbs.py says what each check does): their rings mapped,
# sizes granted and refused, resizes, arming, the limit, QP states and
# attributes read back, keys
_g=$(lab_gid_of rxe0 $A)
_out=$(timeout 600 python3 /lab/tools/rxe_verbs.py $S/uverbs rxe0 "$_g" 2>&1)
_st=$?
echo "$_out"
# Its last check said something: all of them ran
echo "$_out" | grep -Eq "^(PASS|FAIL) $S/uverbs/mr" ||
	fail uverbs/tool "exit $_st: $(echo "$_out" | tail -n 2 | tr '\n' ' ')"

_bad=''
for _c in sent_pkts rcvd_pkts rdma_sends drop_bad_icrc; do
	[ "$(cat $IB/rxe0/ports/1/hw_counters/$_c 2>/dev/null)" = 0 ] || _bad="$_bad $_c"
done
[ -z "$_bad" ] && pass counters || fail counters "absent or not 0:$_bad"

# Packets from the wire (tools/roce_inject.py), from veth1's address to
# rxe0's by a plain UDP socket: each checked and dropped by the first
# check it fails, none trusted (no packet reaches a queue pair yet, so a
# good one is dropped for its QPN); then random and broken packets of
# every opcode, each accounted for by exactly one drop counter; the
# kernel log clean.
lab_kmsg "wire start"
timeout 300 python3 /lab/tools/roce_inject.py check $S/wire rxe0 10.11.0.2 10.11.0.1 ||
	fail wire/tool "exit $?"
timeout 900 python3 /lab/tools/roce_inject.py fuzz $S/wire rxe0 10.11.0.2 10.11.0.1 \
	"${RXE_FUZZ_PACKETS:-100000}" 1 || fail wire/fuzz-tool "exit $?"
lab_kernel_log_clean "$S/wire/kernel-log" "wire start"

# A device in another network namespace has a socket of its own there:
# the same packets, sent into the namespace, reach it; it goes with the
# namespace.
ip netns add rxens
ip link add vns0 type veth peer name vns1
ip link set vns0 netns rxens
ip -n rxens addr add 10.12.0.1/24 dev vns0
ip -n rxens link set vns0 up
ip addr add 10.12.0.2/24 dev vns1
ip link set vns1 up
check netns/link-add ip netns exec rxens rdma link add rxe7 type rxe netdev vns0
timeout 300 python3 /lab/tools/roce_inject.py check $S/netns/wire rxe7 10.12.0.2 10.12.0.1 ||
	fail netns/wire-tool "exit $?"
ip netns del rxens
lab_wait_for 10 sh -c "! test -e $IB/rxe7" && pass netns/gone ||
	fail netns/gone "rxe7 still there"
ip link del vns1 2>/dev/null

# UD traffic between rxe0 and a device on veth1 (ibv_ud_pingpong, its data
# validated) each way: sends and receives through the rings rdma-core
# maps, the doorbell, the requester, the responder and the CQs
ud_pair() {	# NAME PORT SERVER_DEV SERVER_GID CLIENT_DEV CLIENT_GID SERVER_ADDR
	timeout 120 ibv_ud_pingpong -p "$2" -d "$3" -g "$4" -n 100 -s 1024 -c \
		>/tmp/rxe_ours.srv 2>&1 &
	_spid=$!
	lab_wait_for 30 lab_listening "$2"
	timeout 120 ibv_ud_pingpong -p "$2" -d "$5" -g "$6" -n 100 -s 1024 -c \
		"$7" >/tmp/rxe_ours.cli 2>&1
	_cst=$?
	wait $_spid
	_sst=$?
	sed 's/^/    server: /' /tmp/rxe_ours.srv
	sed 's/^/    client: /' /tmp/rxe_ours.cli
	[ $_cst -eq 0 ] && [ $_sst -eq 0 ] && pass "$1" ||
		fail "$1" "server exit $_sst, client exit $_cst"
}
# UD over the RDMA CM (udaddy): address and route resolution, SIDR
# request and reply through both devices' GSI QPs (QP1, the MAD layer's),
# then messages between the QPs the CM set up
cm_listening() {
	rdma res show cm_id 2>/dev/null | grep LISTEN | grep -Eq "[:.]$1( |\$)"
}
udaddy_pair() {
	if ! lab_load rdma_ucm; then
		fail ud/udaddy "rdma_ucm is not ours"
		return
	fi
	timeout 120 udaddy -b 10.11.0.2 -c 2 -C 10 >/tmp/rxe_ours.srv 2>&1 &
	_spid=$!
	if lab_wait_for 30 cm_listening 7174; then
		timeout 120 udaddy -s 10.11.0.2 -b $A -c 2 -C 10 \
			>/tmp/rxe_ours.cli 2>&1
		_cst=$?
	else
		_cst=listen
		kill $_spid 2>/dev/null
	fi
	wait $_spid
	_sst=$?
	sed 's/^/    server: /' /tmp/rxe_ours.srv
	sed 's/^/    client: /' /tmp/rxe_ours.cli
	[ "$_cst" = 0 ] && [ $_sst -eq 0 ] && pass ud/udaddy ||
		fail ud/udaddy "server exit $_sst, client exit $_cst"
}
# rc_pair NAME PORT SERVER_DEV SERVER_GID CLIENT_DEV CLIENT_GID SERVER_ADDR
# ARGS: ibv_rc_pingpong with its data checked (ARGS its size and count),
# or with ARGS "write", "read" or "atomic", perftest's ib_write_bw or
# ib_read_bw (64 KiB) or ib_atomic_bw; "uc": ibv_uc_pingpong
rc_pair() {
	if [ "$8" = atomic ]; then
		_tool="ib_atomic_bw -F -n 200 -u 20"
		_sa="-d $3 -x $4"
		_ca="-d $5 -x $6"
	elif [ "$8" = uc ]; then
		_tool="ibv_uc_pingpong -c"
		_sa="-d $3 -g $4"
		_ca="-d $5 -g $6"
	elif [ "$8" = write ] || [ "$8" = read ]; then
		_tool="ib_$8_bw -F -s 65536 -n 200 -u 20"
		_sa="-d $3 -x $4"
		_ca="-d $5 -x $6"
	else
		_tool="ibv_rc_pingpong -c $8"
		_sa="-d $3 -g $4"
		_ca="-d $5 -g $6"
	fi
	# shellcheck disable=SC2086
	timeout 120 $_tool -p "$2" $_sa >/tmp/rxe_ours.srv 2>&1 &
	_spid=$!
	lab_wait_for 30 lab_listening "$2"
	# shellcheck disable=SC2086
	timeout 120 $_tool -p "$2" $_ca "$7" >/tmp/rxe_ours.cli 2>&1
	_cst=$?
	wait $_spid
	_sst=$?
	sed 's/^/    server: /' /tmp/rxe_ours.srv | tail -n 8
	sed 's/^/    client: /' /tmp/rxe_ours.cli | tail -n 8
	[ $_cst -eq 0 ] && [ $_sst -eq 0 ] && pass "$1" ||
		fail "$1" "server exit $_sst, client exit $_cst"
}
check ud/link-add rdma link add rxe1 type rxe netdev veth1
if lab_wait_for 10 lab_gid_of rxe1 10.11.0.2; then
	_g0=$(lab_gid_of rxe0 $A)
	_g1=$(lab_gid_of rxe1 10.11.0.2)
	_sent=$(cat $IB/rxe0/ports/1/hw_counters/sent_pkts)
	ud_pair ud/pingpong 18610 rxe1 "$_g1" rxe0 "$_g0" 10.11.0.2
	ud_pair ud/pingpong-back 18611 rxe0 "$_g0" rxe1 "$_g1" $A
	udaddy_pair
	# RC: sends of one packet and of 64 packets, each way
	rc_pair rc/pingpong 18612 rxe1 "$_g1" rxe0 "$_g0" 10.11.0.2 ""
	rc_pair rc/pingpong-64k 18613 rxe0 "$_g0" rxe1 "$_g1" $A "-s 65536 -n 50"
	rc_pair rc/write-bw 18614 rxe1 "$_g1" rxe0 "$_g0" 10.11.0.2 write
	rc_pair rc/read-bw 18615 rxe0 "$_g0" rxe1 "$_g1" $A read
	rc_pair rc/atomic-bw 18616 rxe1 "$_g1" rxe0 "$_g0" 10.11.0.2 atomic
	rc_pair uc/pingpong 18617 rxe0 "$_g0" rxe1 "$_g1" $A uc
	# For the log: what the traffic counted (timeouts under a busy host)
	for _d in rxe0 rxe1; do
		echo "    $_d: $(cd $IB/$_d/ports/1/hw_counters &&
			grep -v '^0$' -H -- * 2>/dev/null | tr '\n' ' ')"
	done
	# 100 iterations each way: at least 200 packets from rxe0
	_now=$(cat $IB/rxe0/ports/1/hw_counters/sent_pkts)
	[ $((_now - _sent)) -ge 200 ] && pass ud/counted ||
		fail ud/counted "sent_pkts $_sent -> $_now"
else
	fail ud/gid "no RoCE v2 GID for 10.11.0.2"
fi
check ud/link-delete rdma link delete rxe1

check link/delete rdma link delete rxe0
check link/add-again rdma link add rxe0 type rxe netdev veth0
# The device goes with its netdev
ip link add rxetmp0 type veth peer name rxetmp1
check link/add-on-tmp rdma link add rxe5 type rxe netdev rxetmp0
ip link del rxetmp0
lab_wait_for 10 sh -c "! test -e $IB/rxe5" && pass netdev-gone ||
	fail netdev-gone "rxe5 still there"

# Unload with a device present
lab_unload rdma_rxe && pass unload || fail unload "rmmod rdma_rxe"
[ ! -e $IB/rxe0 ] && pass unload/device-gone || fail unload/device-gone "rxe0 stays"
lab_unload rdma_ucm rdma_cm iw_cm ib_cm ib_uverbs ib_core
lab_veth_pair_del
lab_kernel_log_clean "$S/kernel-log" "scenario $S"
