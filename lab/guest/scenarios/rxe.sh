#!/bin/sh
# The kernel's own soft RoCE driver, rdma_rxe (Debian's binary on the stock
# kernel, the in-tree build on the test kernel), on our ib_core: two devices
# on the ends of a veth pair, what iproute2 shows of them, RoCE GIDs that
# follow the addresses, port events that follow the link, traffic from our
# ULP with the data verified, devices and netdevs taken away under traffic,
# bad link requests, and a clean unload.
# lab-rxe: ours (make check runs it again on our rdma_rxe, as rxe@ours)
. /lab/guest-lib.sh
S=rxe
IB=/sys/class/infiniband

pass() { lab_pass "$S/$1"; }
fail() { lab_fail "$S/$1" "$2"; }
check() { _c=$1; shift; lab_check "$S/$_c" "$@"; }

setup() {
	lab_veth_pair || { fail net/veth "veth pair"; return 1; }
	# Only what loading logs (the host reads the whole log afterwards).
	_lines=$(dmesg | wc -l)
	if ! lab_load_rxe; then fail load "modprobe rdma_rxe"; return 1; fi
	_crc=$(dmesg | tail -n +$((_lines + 1)) | grep -m1 'disagrees about version of symbol')
	if [ -n "$_crc" ]; then
		fail load/crc "$_crc"
	else
		pass load/crc
	fi
	lab_is_ours ib_core && pass load/ib_core-is-ours || fail load/ib_core-is-ours
	lab_load rdma_devwatch || fail load/devwatch
	# On the debug kernel a 1 MiB send takes rxe longer than its retries
	# last (~0.6 MB/s measured): the largest size there is 64 KiB.
	if lab_debug_kernel; then
		lab_load rdma_traffic max_size=65536 timeout_ms=20000 || fail load/traffic
	else
		lab_load rdma_traffic || fail load/traffic
	fi
	check link/add-rxe0 rdma link add rxe0 type rxe netdev veth0
	check link/add-rxe1 rdma link add rxe1 type rxe netdev veth1
}

show() {
	check show/rdma-dev rdma dev
	rdma dev | grep -q '^[0-9]*: rxe0:' && rdma dev | grep -q '^[0-9]*: rxe1:' &&
		pass show/rdma-dev-lists-both || fail show/rdma-dev-lists-both "$(rdma dev)"
	check show/rdma-link rdma link
	rdma link | grep -q 'rxe0/1 state ACTIVE .*netdev veth0' &&
		pass show/link-active || fail show/link-active "$(rdma link)"
	check show/rdma-res rdma res
	check show/rdma-statistic rdma statistic show
	check show/ibv_devices ibv_devices
}

gids() {
	lab_wait_for 10 lab_gid_of rxe0 10.11.0.1 &&
		pass gid/ipv4-roce-v2 || fail gid/ipv4-roce-v2 "no RoCE v2 GID for 10.11.0.1"
	ip addr add 10.12.0.1/24 dev veth0
	lab_wait_for 10 lab_gid_of rxe0 10.12.0.1 && pass gid/follows-addr-add ||
		fail gid/follows-addr-add "no GID for 10.12.0.1 after ip addr add"
	ip addr del 10.12.0.1/24 dev veth0
	lab_wait_for 10 lab_no_gid_of rxe0 10.12.0.1 && pass gid/follows-addr-del ||
		fail gid/follows-addr-del "GID for 10.12.0.1 still there"
	ip link add link veth0 name veth0.7 type vlan id 7 &&
		ip addr add 10.13.0.1/24 dev veth0.7 && ip link set veth0.7 up
	if lab_wait_for 10 lab_gid_of rxe0 10.13.0.1; then
		_i=$(lab_gid_of rxe0 10.13.0.1)
		grep -q veth0.7 "$IB/rxe0/ports/1/gid_attrs/ndevs/$_i" &&
			pass gid/vlan || fail gid/vlan "ndev $(cat "$IB/rxe0/ports/1/gid_attrs/ndevs/$_i")"
	else
		fail gid/vlan "no GID for the VLAN's 10.13.0.1"
	fi
	ip link del veth0.7
	lab_wait_for 10 lab_no_gid_of rxe0 10.13.0.1 && pass gid/vlan-gone ||
		fail gid/vlan-gone "GID of a deleted VLAN device still there"
}

events() {
	ip link set veth0 down
	lab_wait_for 10 lab_port_state rxe0 DOWN && pass event/link-down ||
		fail event/link-down "$(cat $IB/rxe0/ports/1/state)"
	ip link set veth0 up
	lab_wait_for 10 lab_port_state rxe0 ACTIVE && pass event/link-up ||
		fail event/link-up "$(cat $IB/rxe0/ports/1/state)"
	dmesg | grep -q 'rxe0: event port error (10) on port 1' && dmesg | grep -q 'rxe0: event port active (9) on port 1' &&
		pass event/dispatched || fail event/dispatched "devwatch saw no PORT_ERR/PORT_ACTIVE"
}

bad_links() {
	rdma link add bad0 type nosuchtype netdev veth0 2>/dev/null &&
		fail bad/unknown-type "accepted" || pass bad/unknown-type
	rdma link add bad0 type rxe netdev nosuchdev 2>/dev/null &&
		fail bad/missing-netdev "accepted" || pass bad/missing-netdev
	rdma link add rxe0 type rxe netdev lo 2>/dev/null &&
		fail bad/duplicate-name "accepted" || pass bad/duplicate-name
	rdma link add bad0 type rxe netdev veth0 2>/dev/null &&
		fail bad/bound-netdev "accepted" || pass bad/bound-netdev
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		rdma link add bad0 type rxe netdev veth0 2>/dev/null &&
		fail bad/no-cap-net-admin "accepted" || pass bad/no-cap-net-admin
	[ ! -e "$IB/bad0" ] && pass bad/no-device-left || fail bad/no-device-left
}

# A long run, and ACTION taken while it runs: the ULP must stop with one of
# the STATES ("aborted": it saw the device go; "failed": the transport
# failed first, e.g. when the netdev went before the device).
traffic_cut() {	# NAME STATES ACTION...
	_n=$1 _ok=$2
	shift 2
	_p=/sys/module/rdma_traffic/parameters
	_iters=$(cat $_p/iters) _max=$(cat $_p/max_bytes)
	echo 1000000 >$_p/iters
	echo 1099511627776 >$_p/max_bytes
	lab_traffic_start rxe0 rxe1 || { fail "$_n" "run did not start"; return; }
	sleep 3
	"$@"
	_st=$(lab_traffic_wait)
	echo "$_iters" >$_p/iters
	echo "$_max" >$_p/max_bytes
	sed 's/^/    /' /sys/kernel/debug/rdma_traffic/status
	case " $_ok " in
	*" $_st "*) pass "$_n" ;;
	*) fail "$_n" "state $_st, not $_ok" ;;
	esac
}

# atomics_ran OP: the last run's report has OP done at 8 bytes, no error
# (rdma_rxe has IB_ATOMIC_HCA; the test double of "traffic" has none)
atomics_ran() {
	grep -qE "^run=[0-9]+ op=$1 size=8 .*errors=0 .*status=ok$" \
		/sys/kernel/debug/rdma_traffic/report
}

run_traffic() {
	check traffic/all-ops lab_traffic rxe0 rxe1
	check traffic/fetch_add atomics_ran fetch_add
	check traffic/cmp_swap atomics_ran cmp_swap
	rdma statistic show | sed 's/^/    /'
	traffic_cut traffic/link-delete-aborts aborted rdma link delete rxe1
	lab_wait_for 30 test ! -e "$IB/rxe1" && pass traffic/link-deleted ||
		fail traffic/link-deleted "rxe1 still there"
	check traffic/re-add rdma link add rxe1 type rxe netdev veth1
	traffic_cut traffic/netdev-delete-stops "aborted failed" ip link del veth1
	lab_wait_for 30 test ! -e "$IB/rxe1" && pass traffic/netdev-deleted-device-gone ||
		fail traffic/netdev-deleted-device-gone "rxe1 still there"
}

teardown() {
	rdma link delete rxe0 2>/dev/null
	lab_wait_for 30 test ! -e "$IB/rxe0" || fail teardown/rxe0 "still there"
	lab_veth_pair_del
	if lab_unload rdma_traffic rdma_devwatch rdma_rxe ib_uverbs ib_core; then
		pass unload
	else
		fail unload "$(lab_rdma_left)"
	fi
}

if setup; then
	show
	gids
	events
	bad_links
	run_traffic
fi
teardown
