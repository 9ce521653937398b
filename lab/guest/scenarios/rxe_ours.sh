#!/bin/sh
# lab-check: no (hw/rxe is off by default until it carries traffic: run it
# with a build that has CONFIG_OOT_RXE=m, Documentation/rxe.rst)
#
# Our soft RoCE driver, hw/rxe, on our ib_core: the module is ours, "rdma
# link add" makes a device per netdev and refuses a second one and a
# netdev that is not Ethernet, the port follows the netdev (state, MTU,
# RoCE v2 GIDs from its addresses), user contexts, PDs, CQs, SRQs and
# QPs (their rings mapped), AHs and MRs through rdma-core, the counters in sysfs, malformed and
# random packets from the wire each dropped and counted by reason, a
# device in another network namespace with a socket of its own, the device going away with its netdev,
# and a clean unload.
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

# Completion queues through the provider: each maps its ring (mmap of the
# uverbs file); sizes granted and refused, resize (a new ring mapped),
# arming, the extended CQ, many made and destroyed
python3 - <<'PY' >/tmp/rxe_ours.cq.out 2>&1
import errno
from pyverbs.device import Context
from pyverbs.cq import CQ, CQEX, CompChannel, CqInitAttrEx
from pyverbs.pyverbs_error import PyverbsRDMAError

def refused(what, f, err):
    try:
        f()
    except PyverbsRDMAError as e:
        assert e.error_code == err, (what, e.error_code)
        print('refused', what, errno.errorcode[err])
        return
    raise AssertionError(what + ' accepted')

with Context(name='rxe0') as ctx:
    a = ctx.query_device()
    print('max_cq', a.max_cq, 'max_cqe', a.max_cqe)
    assert a.max_cq > 0 and a.max_cqe > 1000
    cq = CQ(ctx, 100)
    assert cq.cqe >= 100, cq.cqe
    assert cq.poll(4)[0] == 0
    cq.req_notify()
    cq.req_notify(solicited_only=True)
    cq.resize(1000)
    assert cq.cqe >= 1000, cq.cqe
    assert cq.poll(4)[0] == 0
    cq.resize(1)
    assert 1 <= cq.cqe < 100, cq.cqe
    cq.close()
    refused('cqe max_cqe+1', lambda: CQ(ctx, a.max_cqe + 1), errno.EINVAL)
    big = CQ(ctx, a.max_cqe)
    assert big.cqe >= a.max_cqe
    refused('resize beyond max_cqe', lambda: big.resize(a.max_cqe + 1), errno.EINVAL)
    big.close()
    with CompChannel(ctx) as ch:
        cq = CQ(ctx, 10, None, ch, 0)
        cq.req_notify()
        cq.close()
    cqex = CQEX(ctx, CqInitAttrEx(cqe=50))
    assert cqex.start_poll(None) == errno.ENOENT
    cqex.close()
    cqs = [CQ(ctx, 64) for _ in range(200)]
    for c in cqs:
        c.close()
    print('cq ok')
PY
[ $? -eq 0 ] && grep -q '^cq ok' /tmp/rxe_ours.cq.out && pass uverbs/cq ||
	fail uverbs/cq "$(tail -n 5 /tmp/rxe_ours.cq.out)"

# Shared receive queues through the provider: its ring mapped and
# produced by rdma-core (posted until full), the limit, a resize (the
# new ring's place written where rdma-core asked), sizes refused
python3 - <<'PY' >/tmp/rxe_ours.srq.out 2>&1
import errno
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.srq import SRQ, SrqInitAttr, SrqAttr
from pyverbs.wr import RecvWR, SGE
from pyverbs.pyverbs_error import PyverbsRDMAError
import pyverbs.enums as e

def refused(what, f, err):
    try:
        f()
    except PyverbsRDMAError as x:
        assert x.error_code == err, (what, x.error_code)
        print('refused', what, errno.errorcode[err])
        return
    raise AssertionError(what + ' accepted')

def post(srq, n, sges=1):
    for i in range(n):
        srq.post_recv(RecvWR(wr_id=i, num_sge=sges,
                             sg=[SGE(0x1000 * (j + 1), 64, 0x42)
                                 for j in range(sges)]))

with Context(name='rxe0') as ctx, PD(ctx) as pd:
    a = ctx.query_device()
    print('max_srq', a.max_srq, 'max_srq_wr', a.max_srq_wr,
          'max_srq_sge', a.max_srq_sge)
    assert a.max_srq > 0 and a.max_srq_wr > 1000 and a.max_srq_sge >= 16
    srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=10, max_sge=2)))
    q = srq.query()
    assert q.max_wr >= 10 and q.max_sge == 2 and q.srq_limit == 0, \
        (q.max_wr, q.max_sge, q.srq_limit)
    refused('post of 3 entries', lambda: post(srq, 1, 3), errno.EINVAL)
    post(srq, q.max_wr, 2)
    refused('post to a full SRQ', lambda: post(srq, 1), errno.ENOMEM)
    srq.modify(SrqAttr(srq_limit=4), e.IBV_SRQ_LIMIT)
    assert srq.query().srq_limit == 4
    refused('limit above max_wr',
            lambda: srq.modify(SrqAttr(srq_limit=q.max_wr + 1),
                               e.IBV_SRQ_LIMIT), errno.EINVAL)
    refused('max_wr below what waits',
            lambda: srq.modify(SrqAttr(max_wr=q.max_wr - 3),
                               e.IBV_SRQ_MAX_WR), errno.EINVAL)
    srq.modify(SrqAttr(max_wr=100), e.IBV_SRQ_MAX_WR)
    r = srq.query()
    assert r.max_wr >= 100 and r.srq_limit == 4, (r.max_wr, r.srq_limit)
    # The new ring: what waited moved, the rest free
    post(srq, r.max_wr - q.max_wr, 2)
    refused('post to the resized SRQ, full', lambda: post(srq, 1), errno.ENOMEM)
    srq.close()
    refused('max_wr max_srq_wr+1',
            lambda: SRQ(pd, SrqInitAttr(SrqAttr(max_wr=a.max_srq_wr + 1))),
            errno.EINVAL)
    refused('limit above max_wr',
            lambda: SRQ(pd, SrqInitAttr(SrqAttr(max_wr=4, srq_limit=9))),
            errno.EINVAL)
    srqs = [SRQ(pd, SrqInitAttr(SrqAttr(max_wr=16, max_sge=1)))
            for _ in range(100)]
    for x in srqs:
        x.close()
    print('srq ok')
PY
[ $? -eq 0 ] && grep -q '^srq ok' /tmp/rxe_ours.srq.out && pass uverbs/srq ||
	fail uverbs/srq "$(tail -n 5 /tmp/rxe_ours.srq.out)"

# Address handles through the provider: to veth1's address from rxe0's
# RoCE v2 GID (the core resolves the MAC), many made and destroyed; one
# from a GID slot that is empty refused
_g=$(lab_gid_of rxe0 10.11.0.1)
python3 - "$_g" <<'PY' >/tmp/rxe_ours.ah.out 2>&1
import sys
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.addr import AH, AHAttr, GlobalRoute, GID
from pyverbs.pyverbs_error import PyverbsRDMAError

sgid = int(sys.argv[1])
with Context(name='rxe0') as ctx, PD(ctx) as pd:
    print('max_ah', ctx.query_device().max_ah)
    dgid = GID('0000:0000:0000:0000:0000:ffff:0a0b:0002')
    gr = GlobalRoute(dgid=dgid, sgid_index=sgid, hop_limit=64)
    ahs = [AH(pd, attr=AHAttr(gr=gr, is_global=1, port_num=1))
           for _ in range(100)]
    for a in ahs:
        a.close()
    try:
        AH(pd, attr=AHAttr(gr=GlobalRoute(dgid=dgid, sgid_index=200),
                            is_global=1, port_num=1))
        raise AssertionError('an AH from an empty GID slot')
    except PyverbsRDMAError as e:
        print('refused empty slot', e.error_code)
    print('ah ok')
PY
[ $? -eq 0 ] && grep -q '^ah ok' /tmp/rxe_ours.ah.out && pass uverbs/ah ||
	fail uverbs/ah "$(tail -n 5 /tmp/rxe_ours.ah.out)"

# Queue pairs through the provider (their rings mapped): RC through
# INIT, RTR and RTS with every attribute read back, the receive ring
# filled to the size the QP reports, transitions refused, RESET and back;
# UD; a QP on an SRQ; types, sizes refused; many made and destroyed
python3 - "$_g" <<'PY' >/tmp/rxe_ours.qp.out 2>&1
import errno, sys
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.cq import CQ
from pyverbs.srq import SRQ, SrqInitAttr, SrqAttr
from pyverbs.qp import QP, QPCap, QPInitAttr, QPAttr
from pyverbs.addr import AHAttr, GlobalRoute, GID
from pyverbs.wr import RecvWR, SGE
from pyverbs.pyverbs_error import PyverbsRDMAError
import pyverbs.enums as e

def refused(what, f, err):
    try:
        f()
    except PyverbsRDMAError as x:
        assert x.error_code == err, (what, x.error_code)
        print('refused', what, errno.errorcode[err])
        return
    raise AssertionError(what + ' accepted')

Q = e.IBV_QP_STATE | e.IBV_QP_CAP | e.IBV_QP_DEST_QPN | e.IBV_QP_RQ_PSN | \
    e.IBV_QP_SQ_PSN | e.IBV_QP_PATH_MTU | e.IBV_QP_TIMEOUT
sgid = int(sys.argv[1])
with Context(name='rxe0') as ctx, PD(ctx) as pd:
    a = ctx.query_device()
    print('max_qp', a.max_qp, 'max_qp_wr', a.max_qp_wr, 'max_sge', a.max_sge)
    cq = CQ(ctx, 64)
    cap = QPCap(max_send_wr=20, max_recv_wr=30, max_send_sge=2,
                max_recv_sge=3, max_inline_data=64)
    qp = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap))
    attr, init = qp.query(Q)
    c = init.cap
    assert attr.qp_state == e.IBV_QPS_RESET
    assert c.max_send_wr >= 20 and c.max_recv_wr >= 30 and \
        c.max_send_sge >= 2 and c.max_recv_sge >= 3 and \
        c.max_inline_data >= 64, str(c)
    assert qp.qp_num > 1
    qa = QPAttr()
    qa.qp_access_flags = e.IBV_ACCESS_REMOTE_WRITE | e.IBV_ACCESS_REMOTE_READ
    qp.to_init(qa)
    for i in range(c.max_recv_wr):
        qp.post_recv(RecvWR(wr_id=i, num_sge=1, sg=[SGE(0x1000, 64, 1)]))
    refused('post_recv to a full RQ', lambda: qp.post_recv(
        RecvWR(wr_id=0, num_sge=1, sg=[SGE(0x1000, 64, 1)])), errno.ENOMEM)
    qa.dest_qp_num = qp.qp_num
    qa.rq_psn = 0x123456
    qa.path_mtu = e.IBV_MTU_1024
    qa.max_dest_rd_atomic = 4
    qa.min_rnr_timer = 12
    gr = GlobalRoute(dgid=GID('0000:0000:0000:0000:0000:ffff:0a0b:0002'),
                     sgid_index=sgid, hop_limit=64)
    qa.ah_attr = AHAttr(gr=gr, is_global=1, port_num=1)
    qp.to_rtr(qa)
    qa.sq_psn = 0x654321
    qa.timeout = 14
    qa.retry_cnt = 7
    qa.rnr_retry = 7
    qa.max_rd_atomic = 4
    qp.to_rts(qa)
    attr, init = qp.query(Q)
    got = (attr.qp_state, attr.dest_qp_num, attr.rq_psn, attr.sq_psn,
           attr.path_mtu, attr.timeout)
    want = (e.IBV_QPS_RTS, qp.qp_num, 0x123456, 0x654321, e.IBV_MTU_1024, 14)
    assert got == want, (got, want)
    refused('RTS to INIT', lambda: qp.modify(QPAttr(qp_state=e.IBV_QPS_INIT),
                                              e.IBV_QP_STATE), errno.EINVAL)
    qp.modify(QPAttr(qp_state=e.IBV_QPS_ERR), e.IBV_QP_STATE)
    qp.modify(QPAttr(qp_state=e.IBV_QPS_RESET), e.IBV_QP_STATE)
    qp.to_init(QPAttr())
    # The RQ was emptied by RESET
    for i in range(c.max_recv_wr):
        qp.post_recv(RecvWR(wr_id=i, num_sge=1, sg=[SGE(0x1000, 64, 1)]))
    refused('RESET to RTR', lambda: QP(pd, QPInitAttr(
        qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq)).modify(
            QPAttr(qp_state=e.IBV_QPS_RTR), e.IBV_QP_STATE), errno.EINVAL)
    qp.close()

    ud = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_UD, scq=cq, rcq=cq))
    ud.to_rts(QPAttr())
    assert ud.query(e.IBV_QP_STATE)[0].qp_state == e.IBV_QPS_RTS
    ud.close()

    srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=10)))
    sq = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, srq=srq))
    assert sq.query(e.IBV_QP_CAP)[1].cap.max_recv_wr == 0
    sq.close()
    srq.close()

    refused('max_send_wr beyond max_qp_wr', lambda: QP(pd, QPInitAttr(
        qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq,
        cap=QPCap(max_send_wr=a.max_qp_wr + 1))), errno.EINVAL)
    refused('max_recv_sge beyond max_sge', lambda: QP(pd, QPInitAttr(
        qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq,
        cap=QPCap(max_recv_sge=a.max_sge + 1))), errno.EINVAL)
    refused('a raw packet QP', lambda: QP(pd, QPInitAttr(
        qp_type=e.IBV_QPT_RAW_PACKET, scq=cq, rcq=cq)), errno.EOPNOTSUPP)
    qps = [QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq))
           for _ in range(100)]
    assert len(set(q.qp_num for q in qps)) == 100
    for q in qps:
        q.close()
    print('qp ok')
PY
[ $? -eq 0 ] && grep -q '^qp ok' /tmp/rxe_ours.qp.out && pass uverbs/qp ||
	fail uverbs/qp "$(tail -n 5 /tmp/rxe_ours.qp.out)"

# Memory regions through the provider: a user's buffers pinned, keys
# distinct; access the device cannot give refused
python3 - <<'PY' >/tmp/rxe_ours.mr.out 2>&1
import errno
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.mr import MR
from pyverbs.pyverbs_error import PyverbsRDMAError
import pyverbs.enums as e

def refused(what, f, err):
    try:
        f()
    except PyverbsRDMAError as x:
        assert x.error_code == err, (what, x.error_code)
        print('refused', what, errno.errorcode[err])
        return
    raise AssertionError(what + ' accepted')

RW = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE | \
    e.IBV_ACCESS_REMOTE_READ
with Context(name='rxe0') as ctx, PD(ctx) as pd:
    print('max_mr', ctx.query_device().max_mr)
    mrs = [MR(pd, 4096 * (1 + i % 5), RW) for i in range(100)]
    keys = set(m.lkey for m in mrs)
    assert len(keys) == 100 and 0 not in keys
    assert all(m.lkey == m.rkey for m in mrs)
    for m in mrs:
        m.close()
    big = MR(pd, 16 << 20, RW)
    big.close()
    # As 6.1 answers for a device without on-demand paging
    refused('on-demand paging', lambda: MR(pd, 4096,
            e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_ON_DEMAND),
            errno.EINVAL)
    refused('remote write without local write',
            lambda: MR(pd, 4096, e.IBV_ACCESS_REMOTE_WRITE), errno.EINVAL)
    print('mr ok')
PY
[ $? -eq 0 ] && grep -q '^mr ok' /tmp/rxe_ours.mr.out && pass uverbs/mr ||
	fail uverbs/mr "$(tail -n 5 /tmp/rxe_ours.mr.out)"

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
lab_unload ib_uverbs ib_core
