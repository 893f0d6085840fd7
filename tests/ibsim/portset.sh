#!/bin/bash
# The port set suite: rdma port set and sm set on the suite's fabric (net),
# each change read back with smpquery and ibportstate. ibsim applies a
# PortInfo Set's LID, SM LID, LMC, OperationalVLs, PortState and
# PortPhysicalState (ibsim 0.10 also the enabled widths and speeds); it has
# no M_Key, NeighborMTU or vendor attributes and ignores SMInfo Sets, so the
# unit tests on the fabric double cover those (rdma/ib/port_set_test.cc,
# lib/testing/fabric/fabric_sma_set_test.cc). Every target is a directed
# route: a change to INIT leaves LID routing to opensm's next sweep.
#   tests/ibsim/portset.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

start_opensm

# pi PATH PORT FIELD: a PortInfo field as smpquery prints it (dots cut).
pi() {
  run smpquery -D portinfo "$1" "$2" 2>/dev/null | sed -n "s/^$3:\.*//p"
}

# readback NAME PATH PORT FIELD WANT: smpquery reads WANT.
readback() {
  local got
  got=$(pi "$2" "$3" "$4")
  if [ "$got" = "$5" ]; then
    ok "$1 ($4 $got)"
  else
    bad "$1: $4 reads '$got', expected '$5'"
  fi
}

# sw1 is dr 0,1 (hca1's port 1 leads to it); its port 2 leads to hca2
# (dr 0,1,2); ports 3 and 4 to sw2 (dr 0,1,3 or 0,1,4).
# The peer is headed by its name (NodeDescription, or the node-name-map's).
expect "width: writes, shows the port and its peer" 0 '^peer "hca2": port 1 ' \
  port set dr 0,1 port 2 width 1
readback "width read back" 0,1 2 LinkWidthEnabled "1X"
expect "speed, with the retraining note" 0 'take effect when the link retrains' \
  port set dr 0,1 port 2 speed 1
readback "speed read back" 0,1 2 LinkSpeedEnabled "2.5 Gbps"
expect "width by name" 0 '^peer "hca2": port 1 ' port set dr 0,1 port 2 width 1x,4x
readback "width by name read back" 0,1 2 LinkWidthEnabled "1X or 4X"
expect "speed by name" 0 '^peer "hca2": port 1 ' port set dr 0,1 port 2 speed sdr,qdr
readback "speed by name read back" 0,1 2 LinkSpeedEnabled "2.5 Gbps or 10.0 Gbps"
expect "vls" 0 '^dr 0,1: port 2 ' port set dr 0,1 port 2 vls 2
readback "vls read back" 0,1 2 OperVLs "VL0-1"
expect "lmc of a CA" 0 '^dr 0,1,2: port 1 ' port set dr 0,1,2 port 1 lmc 1
readback "lmc read back" 0,1,2 1 LMC "1"
addr_check "port show with LMC 1: gid and a LID range of two = ibaddr -g -L" "-D 0,1,2" dr 0,1,2
expect "smlid of a CA" 0 '^dr 0,1,2: port 1 ' port set dr 0,1,2 port 1 smlid 0x33
readback "smlid read back" 0,1,2 1 SMLid "51"
# mkeylease and mkeyprot (ibportstate's words): ibsim answers the Set and
# keeps neither field, so the read-back says what the port still has, the
# values smpquery reads after ibportstate's own Set of them (exit 1; the
# double takes them: rdma/ib/port_set_test.cc).
run ibportstate -D 0,1,2 1 mkeylease 60 >/dev/null 2>&1
lease=$(pi 0,1,2 1 MkeyLeasePeriod)
expect "mkeylease: ibsim did not take it, as it did not take ibportstate's ($lease)" 1 \
  "^warning: dr 0,1,2 port 1 did not take mkeylease 60 \(it has $lease\)$" \
  port set dr 0,1,2 port 1 mkeylease 60
run ibportstate -D 0,1,2 1 mkeyprot 1 >/dev/null 2>&1
prot=$(pi 0,1,2 1 ProtectBits)
expect "mkeyprot: ibsim did not take it, as it did not take ibportstate's ($prot)" 1 \
  "^warning: dr 0,1,2 port 1 did not take mkeyprot 1 \(it has $prot\)$" \
  port set dr 0,1,2 port 1 mkeyprot 1
expect "mkeyprot 4: refused" 1 '^invalid mkeyprot "4" \(expected 0-3\)$' \
  port set dr 0,1,2 port 1 mkeyprot 4
# A value the port does not support is refused before anything is sent:
# ibsim's ports support no extended speed (LinkSpeedExtSupported 0),
# though sw1's port 0 has IsExtendedSpeedsSupported (ibportstate sends it).
expect "espeed the port does not support: refused" 1 \
  '^dr 0,1 port 2 does not support espeed 25.78125 \(its LinkSpeedExtSupported: none\)$' \
  port set dr 0,1 port 2 espeed edr
readback "espeed: nothing written" 0,1 2 LinkSpeedExtEnabled "0"
expect "mtu above MtuCap (sw1 port 0: 1024): refused" 1 \
  '^dr 0,1 port 0 does not support mtu 2048 \(its MTUCap: 1024\)$' port set dr 0,1 port 0 mtu 2048
# Every write is read back: ibsim keeps NeighborMTU as it was (2048), so
# the port did not take it: a warning and exit status 1.
expect "mtu the port does not take: a warning, exit 1" 1 \
  '^warning: dr 0,1 port 2 did not take mtu 1024 \(it has 2048\)$' port set dr 0,1 port 2 mtu 1024
readback "mtu: as it was" 0,1 2 NeighborMTU "2048"

# Checks before anything is sent.
expect "bad speed: one line" 1 '^invalid speed "16" \(expected 0-15' port set dr 0,1 port 2 speed 16
expect "bad width" 1 '^invalid width "40"' port set dr 0,1 port 2 width 40
expect "switch LID on an external port" 1 'are its port 0' port set dr 0,1 port 3 lid 9
expect "a port the switch lacks: named, by the target given" 1 '^dr 0,1 has no port 9 \(a switch with ports 0-8\)$' \
  port set dr 0,1 port 9 disable
expect "port show of a port the switch lacks" 1 '^dr 0,1 has no port 9 \(a switch with ports 0-8\)$' \
  port show dr 0,1 port 9
expect "the local port is not cut without -f" 1 'carries this tool.s MADs \(the local port\)' \
  port set dr 0 port 1 disable
readback "the local port still up" 0 1 PhysLinkState "LinkUp"
expect "a CA's own link is not cut without -f" 1 "a CA's port is set only through itself" \
  port set dr 0,1,2 port 1 down

# down, arm, active: ibsim moves both ends to INIT; Active needs the other
# end Armed.
expect "down" 0 '^dr 0,1: port 2 ' port set dr 0,1 port 2 down
readback "down: INIT" 0,1 2 LinkState "Initialize"
readback "down: the peer INIT" 0,1,2 1 LinkState "Initialize"
expect "arm" 0 '^dr 0,1: port 2 ' port set dr 0,1 port 2 arm
readback "armed" 0,1 2 LinkState "Armed"
expect "active before the peer is armed: one line" 1 \
  '^cannot set PortInfo of dr 0,1 port 2: refused with status ' port set dr 0,1 port 2 active
expect "arm the peer" 0 '^dr 0,1,2: port 1 ' port set dr 0,1,2 port 1 arm
expect "active" 0 '^dr 0,1: port 2 ' port set dr 0,1 port 2 active
readback "active" 0,1 2 LinkState "Active"

# A change that cuts sw2 port 3, the way in of the route dr 0,1,3, goes
# around it by sw1 port 4.
expect "down sw2 port 3: by another route" 0 '^dr 0,1,3: port 3 ' port set dr 0,1,3 port 3 down
readback "sw2 port 3 INIT" 0,1,4 3 LinkState "Initialize"
readback "sw1 port 3 INIT" 0,1 3 LinkState "Initialize"

# -d shows the MADs of a write.
expect "-d prints the Set" 0 '^> .* method 0x02 ' -d port set dr 0,1 port 2 vls 2

# sm set: values checked first.
expect "sm set bad priority" 1 '^invalid priority "16"' sm set priority 16
expect "sm set bad state" 1 '^unknown state "boss" \(notactive, ' sm set state boss

# The whole subnet to INIT, far links first.
expect "port set all init needs --yes" 1 'yes to do it$' port set all init
# Links already in INIT need nothing: up to now, sw1-hca1, sw1-sw2 by
# port 4, sw2-hca3 and sw2-hca4 are Active.
out=$(run "$RDMA" --yes port set all init 2>&1)
if [ "$(grep -c ' state INIT' <<<"$out")" -eq 5 ] && [ "$(tail -n 1 <<<"$out")" = "dr 0: port 1 state INIT" ]; then
  ok "port set all init: five links, the local port last"
else
  bad "port set all init: $out"
fi
for p in "0 1" "0,1 2" "0,1 3" "0,1 4" "0,1,3 1" "0,1,3 2"; do
  # shellcheck disable=SC2086
  readback "all init: dr $p" $p LinkState "Initialize"
done

# disable, then enable (ibsim leaves an enabled port Polling: it does not
# train links).
expect "disable sw2 port 2" 0 '^dr 0,1,3: port 2 ' port set dr 0,1,3 port 2 disable
readback "disabled" 0,1,3 2 PhysLinkState "Disabled"
# port check (ibcheckportstate): the disabled port's verdict (ibsim leaves
# its PortState as it was), exit 1.
expect "port check of the disabled port: its state, exit 1" 1 \
  "^lid [0-9]+ port 2: state [A-Z]+, physical state DISABLED \(expected ACTIVE, LINK_UP\)$" \
  port check dr 0,1,3 port 2 state
expect "enable sw2 port 2" 0 '^dr 0,1,3: port 2 .*physical_state (POLLING|LINK_UP) ' \
  port set dr 0,1,3 port 2 enable

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
