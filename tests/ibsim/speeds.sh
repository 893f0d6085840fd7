#!/bin/bash
# The speeds suite: every link width (1X, 2X, 4X, 8X, 12X) and every
# generation ibsim 0.10 can express (SDR, DDR, QDR, FDR10, FDR, EDR, HDR)
# on speeds.net, rdma's speed, rate and generation compared with
# infiniband-diags: iblinkinfo (fabric links all, and its "Could be" with
# fabric links degraded), smpquery portinfo and mlnxextportinfo (port show
# and sa show ports of every port) and ibstat (each CA's rate, attached
# there with SIM_HOST). NDR and XDR are not expressible this way (ibsim
# takes e= up to 7 and no LinkSpeedExtActive2): the unit tests cover them
# (lib/mad/speed_test.cc, rdma/ib/speeds_test.cc).
#   tests/ibsim/speeds.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/speeds.net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

start_opensm

# speeds_check NAME KIND FILES...: speeds_compare.py judges.
speeds_check() {
  local name=$1 out
  shift
  if out=$(python3 "$HERE/speeds_compare.py" "$@" 2>&1); then
    ok "$name (${out//$'\n'/; })"
  else
    bad "$name: $out"
  fi
}

run iblinkinfo >iblinkinfo.txt 2>iblinkinfo.err
run "$RDMA" -j fabric links all >all.json 2>all.err
run "$RDMA" -j fabric links degraded >degraded.json 2>degraded.err
speeds_check "fabric links all and degraded = iblinkinfo" links iblinkinfo.txt all.json degraded.json

# Every port of the switch and of each CA: its LID from rdma's own view
# (checked against iblinkinfo above), the diags' raw PortInfo, rdma's port
# and SA views, and ibstat on the CA itself.
python3 - all.json >ports.txt <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    for side in ('', 'peer_'):
        if side + 'description' in r and 'width' in r:
            print(r[side + 'description'], r[side + 'lid'], r[side + 'port'])
PY
: >smp.txt
: >mepi.txt
: >port.json
: >sa.json
: >ibstat.txt
: >check.txt
while read -r name lid port; do
  { echo "== $name $port"; run smpquery portinfo "$lid" "$port"; } >>smp.txt 2>&1
  { echo "== $name $port"; run smpquery MlnxExtPortInfo "$lid" "$port"; } >>mepi.txt 2>&1
  { echo "== $name $port"; run "$RDMA" -j port show lid "$lid" port "$port"; } >>port.json 2>&1
  { echo "== $name $port"; run "$RDMA" -j sa show ports lid "$lid" port "$port"; } >>sa.json 2>&1
  [ "$name" = sw ] && continue
  { echo "== $name $port"; SIM_HOST=$name run ibstat; } >>ibstat.txt 2>&1
  run "$RDMA" port check lid "$lid" port "$port" speed width >>check.txt 2>&1
done <ports.txt
speeds_check "port show and sa show ports = smpquery portinfo (and mlnxextportinfo); rate = ibstat" \
  ports smp.txt mepi.txt port.json sa.json ibstat.txt

# Text and JSON say the same: one link's keys in both forms.
text=$(run "$RDMA" fabric links all 2>/dev/null | grep '"edr4x"')
if grep -q ' width 4X speed 25.78125 rate 100 generation EDR ' <<<"$text"; then
  ok "text: 4X EDR reads speed 25.78125 rate 100 generation EDR"
else
  bad "text: 4X EDR link: $text"
fi
text=$(run "$RDMA" fabric links down 2>/dev/null)
if [ -n "$text" ] && ! grep -qE ' (width|speed|rate|generation) ' <<<"$text"; then
  ok "fabric links down: no width, speed or rate"
else
  bad "fabric links down: $text"
fi

text=$(run "$RDMA" fabric links all 2>/dev/null | grep '"fdr10x4"')
if grep -q ' width 4X speed 10.0 rate 40 generation FDR10 ' <<<"$text"; then
  ok "text: 4X FDR10 reads speed 10.0 rate 40 generation FDR10"
else
  bad "text: 4X FDR10 link: $text"
fi

# port check speed width (ibcheckportwidth, and the speed beside it): every
# port runs at the best its LinkSpeedEnabled, LinkSpeedExtEnabled and
# LinkWidthEnabled allow (ibsim gives both ends the first end's s=, e=,
# w=), each generation and width judged, the extended speeds of the
# switch's ports vouched for by its port 0, FDR10 not taken for below FDR.
# ibsim keeps no LinkSpeedEnabled a Set writes, so a port below its
# enabled speed is shown on the fake fabric (rdma/ib/port_check_test.cc).
cas=$(grep -vc '^sw ' ports.txt)
if [ "$(grep -c ': ok$' check.txt)" = "$cas" ] && [ "$(wc -l <check.txt)" = "$cas" ]; then
  ok "port check speed width: each of the $cas CA ports ok"
else
  bad "port check speed width of the CA ports: $(grep -v ': ok$' check.txt)"
fi
sw=$(sed -n 's/^sw \([0-9]*\) .*/\1/p' ports.txt | head -n 1)
text=$(run "$RDMA" port check lid "$sw" speed width 2>&1)
rc=$?
if [ $rc = 0 ] && [ "$(grep -c ': ok$' <<<"$text")" = 18 ] && ! grep -q 'port 18:' <<<"$text"; then
  ok "port check lid $sw speed width: its 18 linked ports ok, the down one unjudged, exit 0"
else
  bad "port check lid $sw speed width: exit $rc, $text"
fi

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
