#!/bin/bash
# Run inside the test VM (tests/vm/run --fixture basic --script THIS): the
# InfiniBand management commands (node, port, perf, sm, mad) on a machine
# whose RDMA ports are RoCE (rxe0/rxe1, link layer Ethernet) have nothing
# to talk to: RoCE has no subnet management and no LIDs (no QP0: on 6.12
# umad_register fails for the SMP classes 0x01/0x81 on rxe0/1, while SA and
# PerfMgt register). Each command must exit 1 with one line on
# stderr saying the port is not InfiniBand, print nothing on stdout (an
# empty JSON array with -j), and never get as far as libibumad's messages.
# Also with ib_umad unloaded, and for siw0 (iWARP) when the fixture has it
# (the resources fixture; the default-port line then lists it too), and
# with no RDMA device left (basic fixture: rxe0/rxe1 deleted at the end).
# Prints "ok: ..." / "FAIL: ..." lines.
N=${RDMA_NEW:-/bin/rdma-new}
fail=0

ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# refused NAME STDOUT STDERR_REGEX ARGS...: exit 1, stdout exactly STDOUT,
# exactly one stderr line, matching.
refused() {
    local what=$1 want_out=$2 re=$3 rc
    shift 3
    "$N" "$@" >/tmp/mad.out 2>/tmp/mad.err
    rc=$?
    if [ "$rc" = 1 ] && [ "$(cat /tmp/mad.out)" = "$want_out" ] &&
        [ "$(wc -l </tmp/mad.err)" = 1 ] && grep -qE "$re" /tmp/mad.err; then
        ok "$what"
    else
        bad "$what: exit $rc, stdout [$(head -c 300 /tmp/mad.out)], stderr [$(head -c 300 /tmp/mad.err)]"
    fi
}

# The premise: rxe ports are RoCE, and ib_umad gave them umad devices.
for d in rxe0 rxe1; do
    ll=$(cat /sys/class/infiniband/$d/ports/1/link_layer 2>/dev/null)
    [ "$ll" = Ethernet ] && ok "$d/1 link layer is Ethernet" || bad "$d/1 link layer: $ll"
done
umads=$(ls /sys/class/infiniband_mad 2>/dev/null | grep -c '^umad')
[ "$umads" -ge 2 ] && ok "ib_umad loaded: $umads umad devices" || bad "umad devices: $umads"

VIA0='^port rxe0/1 is not InfiniBand \(RoCE\): it has no subnet management; MADs need an InfiniBand port$'
VIA1='^port rxe1/1 is not InfiniBand \(RoCE\): '
ALL='^no InfiniBand port \(rxe0/1 RoCE, rxe1/1 RoCE(, siw0 iWARP)?\): RoCE and iWARP have no subnet management; MADs need an InfiniBand port$'

refused "node show via rxe0/1" "" "$VIA0" node show lid 1 via rxe0/1
refused "node show via rxe0 (its first port)" "" "$VIA0" node show lid 1 via rxe0
refused "port show via rxe1/1" "" "$VIA1" port show lid 1 port 1 via rxe1/1
refused "perf show via rxe1/1" "" "$VIA1" perf show lid 1 via rxe1/1
refused "sm show via rxe0/1" "" "$VIA0" sm show via rxe0/1
refused "mad get via rxe0/1" "" "$VIA0" mad get NodeInfo dr 0 via rxe0/1
refused "-j node show via rxe0/1: empty array" "[]" "$VIA0" -j node show lid 1 via rxe0/1
refused "sm show (default port)" "" "$ALL" sm show
refused "node show lid 1 (default port)" "" "$ALL" node show lid 1
refused "node show guid (default port, before any SA query)" "" "$ALL" node show guid 0x1
refused "port show dr 0 (default port)" "" "$ALL" port show dr 0
refused "perf show port all (default port)" "" "$ALL" perf show lid 1 port all
refused "perf reset (default port)" "" "$ALL" perf reset lid 1
refused "port set (default port)" "" "$ALL" port set lid 1 port 1 disable
refused "-dd node show (default port): no MAD traced" "" "$ALL" -dd node show lid 1
refused "via rxe0/2: no such port" "" '^device "rxe0" has no port 2$' node show lid 1 via rxe0/2
refused "via nosuch0" "" '^no RDMA device "nosuch0" with a umad port$' node show lid 1 via nosuch0

if [ -d /sys/class/infiniband/siw0 ]; then
    refused "node show via siw0 (iWARP)" "" '^device "siw0" is not InfiniBand \(iWARP\): ' \
        node show lid 1 via siw0
fi

# Without ib_umad: libibumad (rdma-core 44) lists CAs from
# /sys/class/infiniband, so the RoCE ports are still seen and named alike.
if rmmod ib_umad 2>/tmp/rmmod.err; then
    ok "ib_umad unloaded"
    refused "sm show without ib_umad" "" "$ALL" sm show
    refused "node show via rxe0/1 without ib_umad" "" "$VIA0" node show lid 1 via rxe0/1
    modprobe ib_umad
else
    bad "rmmod ib_umad: $(cat /tmp/rmmod.err)"
fi
# No RDMA device at all.
if [ ! -d /sys/class/infiniband/siw0 ] && rdma link delete rxe0 && rdma link delete rxe1; then
    refused "sm show without any RDMA device" "" '^no InfiniBand port: no RDMA devices$' sm show
    refused "node show via rxe0 after it is gone" "" '^no RDMA device "rxe0" with a umad port$' \
        node show lid 1 via rxe0/1
fi
exit $fail
