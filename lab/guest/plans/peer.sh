#!/bin/sh
# Guest plan of the interop pair's other VM (lab/host/pair.sh): Debian's
# stock kernel with its own, in-tree RDMA stack, our modules absent.  It
# puts ADDR on the wire's NIC, makes the soft RoCE device rxe0 on it with
# the in-tree rdma_rxe, and then does what the VM with our stack asks
# through lab/guest/tools/peer.py until that one says "quit".
#
#   plans/peer.sh ADDR/PREFIX
# shellcheck source=lab/guest/lib.sh
. /lab/guest-lib.sh

addr=${1:-10.77.0.1/24}
nic=$(lab_wire_nic) || { echo "FAIL peer/nic (no NIC with the wire's MAC)"; exit 1; }
ip addr add "$addr" dev "$nic" && ip link set "$nic" up || exit 1
echo "lab: peer: $nic $addr, kernel $(uname -r)"
modprobe rdma_rxe && rdma link add rxe0 type rxe netdev "$nic" ||
	{ echo "FAIL peer/rxe (in-tree rdma_rxe)"; exit 1; }
modprobe rdma_ucm
echo "lab: peer: in-tree stack up: $(lsmod | awk '/^(ib_core|rdma_cm|ib_cm|rdma_rxe|rdma_ucm) / { print $1 }' | tr '\n' ' ')"
python3 /lab/tools/peer.py serve "${addr%/*}"
rc=$?
echo "lab: peer: the driving VM said quit"
rdma link delete rxe0
exit $rc
