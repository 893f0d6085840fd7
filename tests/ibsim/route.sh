#!/bin/bash
# The route suite on fabric.net (three switch levels, parallel links, a
# dual-homed HCA), opensm programming the forwarding tables: rdma route
# show / trace against ibroute and ibtracert.
#   tests/ibsim/route.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/fabric.net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

# compare NAME KIND "DIAGS COMMAND" "RDMA ARGS": route_compare.py.
compare() {
  local name=$1 kind=$2 diags=$3 ours=$4 out
  eval "$diags" >d.txt 2>d.err
  # shellcheck disable=SC2086
  run "$RDMA" -j $ours >o.json 2>o.err
  if out=$(python3 "$HERE/route_compare.py" "$kind" d.txt o.json 2>&1); then
    ok "$name ($out)"
  else
    bad "$name: $out $(cat d.err o.err)"
  fi
}

start_opensm

# Every switch's table, LID by LID, with what sits at each LID.
switches=$(run ibswitches | sed -n 's/.* lid \([0-9]*\) .*/\1/p')
[ "$(wc -w <<<"$switches")" -eq 3 ] && ok "three switches" || bad "switches: $switches"
for s in $switches; do
  compare "route show lid $s = ibroute $s" show "run ibroute $s" "route show lid $s"
done
s=$(head -n 1 <<<"$switches")
compare "route show lid $s lids 2-6 = ibroute $s 2 6" show "run ibroute $s 2 6" \
  "route show lid $s lids 2-6"
expect "route show of a CA is refused" 1 'is not a switch' route show lid 1

# Traces between HCAs on different switches (h1 on s1, h4 on s2, h5 on s3,
# h3 on both), from the local port and between two others.
for dst in $(run ibhosts | sed -n 's/^Ca.*: 0x\([0-9a-f]*\) .*/\1/p'); do
  # Port 1's GUID is the node GUID + 1 in ibsim; ibaddr prints
  # "GID fe80::10:a LID start 0x8 end 0x8".
  dlid=$(run ibaddr -G "$(printf 0x%x $((0x$dst + 1)))" 2>/dev/null | sed -n 's/.*LID start \(0x[0-9a-f]*\) .*/\1/p')
  [ -n "$dlid" ] || continue
  dlid=$((dlid))
  [ "$dlid" = 1 ] && continue
  compare "route trace lid $dlid = ibtracert 1 $dlid" trace "run ibtracert 1 $dlid" \
    "route trace lid $dlid"
  last=$dlid
done
[ -n "${last:-}" ] || { bad "no HCA LIDs from ibaddr"; last=1; }
compare "route trace lid $last lid 1 = ibtracert $last 1" trace "run ibtracert $last 1" \
  "route trace lid $last lid 1"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
